"""Replay images: one frame of a finished hand, and the whole hand as an animation.

A frame is the public table (``render.table``) with every hand face up, under a caption
band that says which step it is and what just happened (the acting seat's wind, name,
the action's word and its tile drawn as a tile). Frames are composed from the same
cached sprites as the live table straight on the one shared palette
(``render.layout.palette_canvas``), so a frame with its PNG (``render.png``) is a few
milliseconds and every frame of an animation shares one colour table: GIF and APNG then
store only the rectangle that changed from the frame before, which keeps a whole hand
far under Discord's 10 MB.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops

from engine.replay import HandReplay, ReplayFrame
from engine.variants import get_rules
from engine.words import ACTIONS, WIN_TYPES

from .bidi import isolate
from .layout import (
    CREAM,
    GOLD,
    HIGHLIGHT,
    MUTED,
    PANEL_DARK,
    PANEL_EDGE,
    draw_text,
    encode_png,
    marker_for,
    paste,
    seat_name,
    surface_draw,
)
from .table import HandFit, compose_table, table_fit
from .text import fit_text, label, wind_name
from .tiles import tile_height, tile_sprite

__all__ = [
    "ANIMATION_FORMATS",
    "CAPTION_HEIGHT",
    "FrameLayout",
    "compose_replay_frame",
    "encode_gif",
    "frame_layout",
    "render_replay_animation",
    "render_replay_frame",
]

CAPTION_HEIGHT = 64
CAPTION_TILE = 38
CAPTION_TEXT = 30  # 11 CSS px on a phone, as the table's smallest text
STEP_MS = 700  # each action's frame in the animation
LAST_MS = 4000  # the result stays up before the loop starts again
ANIMATION_FORMATS = ("gif", "apng")


def _caption(
    canvas: Image.Image, frame: ReplayFrame, steps: int, names: Sequence[str] | None, locale: str
) -> None:
    draw = surface_draw(canvas)
    width = canvas.width
    draw.rounded_rectangle(
        (8, 6, width - 8, CAPTION_HEIGHT - 4), 14, fill=PANEL_DARK, outline=PANEL_EDGE, width=2
    )
    middle = CAPTION_HEIGHT // 2 + 1
    x = 24.0
    x += draw_text(canvas, f"{frame.step}/{steps}", x, middle - 21, CAPTION_TEXT, MUTED) + 22
    public = frame.public
    result = public.result
    action = frame.action
    if action is not None and action.seat < len(public.seats):
        seat_view = public.seats[action.seat]
        who = f"{wind_name(seat_view.seat_wind, locale)} {isolate(seat_name(names, action.seat, locale))}"
        x += (
            draw_text(canvas, fit_text(who, CAPTION_TEXT, 360), x, middle - 21, CAPTION_TEXT, CREAM)
            + 14
        )
        concealed = action.type == "kong" and any(
            event.get("type") == "concealed_kong" for event in frame.events
        )
        verb = ACTIONS["concealed_kong" if concealed else action.type].text(locale)
        x += draw_text(canvas, verb, x, middle - 21, CAPTION_TEXT, HIGHLIGHT) + 12
        tiles = list(action.tiles or ()) or ([action.tile] if action.tile is not None else [])
        if action.type == "win" and result is not None and result.hand is not None:
            tiles = []
        rules = get_rules(public.variant)
        tile_y = middle - tile_height(CAPTION_TILE) / 2
        for kind in tiles:
            paste(
                canvas,
                tile_sprite(kind, CAPTION_TILE, marker_for(kind, rules, public.wild, locale)),
                x,
                tile_y,
            )
            x += CAPTION_TILE + 2
    elif action is None:
        x += draw_text(canvas, label("hand_no", locale, n=public.hand_number + 1), x,
                       middle - 21, CAPTION_TEXT, CREAM)  # fmt: skip
    if result is not None:
        if result.winner is not None and result.valid:
            how = WIN_TYPES[result.win_by].text(locale) if result.win_by in WIN_TYPES else ""
            winner = isolate(seat_name(names, result.winner, locale))
            if action is not None and action.seat == result.winner:
                winner = ""  # named on the left already, as the seat that won
            text = f"{label('winner', locale)} {winner} {how}".replace("  ", " ")
        elif result.winner is not None:
            text = label("invalid_title", locale)
        else:
            text = label("draw_title", locale)
        room = int(width - 24 - x - 20)
        if room > 40:
            draw_text(canvas, fit_text(text.strip(), CAPTION_TEXT, room), width - 24, middle - 21, CAPTION_TEXT,
                      GOLD, anchor="r")  # fmt: skip


@dataclass(frozen=True)
class FrameLayout:
    """What every frame of one hand shares: the rivers laid out for the hand's longest,
    the table's height (its tallest frame's) and each seat's hand fitted for all the
    frames (its smallest tile width, its widest room, a row of its own if any needs it)."""

    river_room: int
    height: int
    hands: dict[int, HandFit]


def frame_layout(
    record: HandReplay,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int | None = None,
) -> FrameLayout:
    """The layout every frame of ``record`` is drawn with: an animation's frames must
    all be one size, and stepping through a hand should not make tiles jump (a GIF
    frame then also stores only what was played)."""
    longest = max(
        (len(seat.discards) for frame in record.frames for seat in frame.public.seats),
        default=0,
    )
    fits: dict[int, HandFit] = {}
    for frame in record.frames:
        _height, hands = table_fit(frame.public, names=names, locale=locale,
                                   perspective=perspective, revealed=frame.hands,
                                   river_room=longest)  # fmt: skip
        for seat, fit in hands.items():
            seen = fits.get(seat, fit)
            if fit.own_row != seen.own_row:  # on a row of its own, the row's tiles count
                seen = seen if seen.own_row else fit
                fits[seat] = seen
            elif fit.tile_w <= seen.tile_w:
                fits[seat] = HandFit(fit.tile_w, 0, fit.own_row)
    height = 0
    widths: dict[int, int] = {}
    for frame in record.frames:
        frame_height, hands = table_fit(frame.public, names=names, locale=locale,
                                        perspective=perspective, revealed=frame.hands,
                                        river_room=longest, hands=fits)  # fmt: skip
        height = max(height, frame_height)
        for seat, fit in hands.items():
            widths[seat] = max(widths.get(seat, 0), fit.width)
    hands = {seat: HandFit(fit.tile_w, widths[seat], fit.own_row) for seat, fit in fits.items()}
    return FrameLayout(longest, height, hands)


# Layouts of the hands stepped through lately, by the record's identity (``bot.replays``
# keeps each rebuilt record, so every click of one hand passes the same object): a frame
# alone is a few milliseconds, and laying out a hand's hundred frames again for each
# would be many times that.
_LAYOUTS: OrderedDict[tuple[object, ...], tuple[HandReplay, FrameLayout]] = OrderedDict()
_LAYOUTS_LOCK = threading.Lock()
LAYOUT_CACHE_SIZE = 32


def _cached_layout(
    record: HandReplay, names: Sequence[str] | None, locale: str, perspective: int | None
) -> FrameLayout:
    key = (id(record), tuple(names) if names is not None else None, locale, perspective)
    with _LAYOUTS_LOCK:
        hit = _LAYOUTS.get(key)
        if hit is not None and hit[0] is record:
            _LAYOUTS.move_to_end(key)
            return hit[1]
    layout = frame_layout(record, names=names, locale=locale, perspective=perspective)
    with _LAYOUTS_LOCK:
        _LAYOUTS[key] = (record, layout)
        while len(_LAYOUTS) > LAYOUT_CACHE_SIZE:
            _LAYOUTS.popitem(last=False)
    return layout


def compose_replay_frame(
    frame: ReplayFrame,
    steps: int,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int | None = None,
    palette: bool = True,
    layout: FrameLayout | None = None,
) -> Image.Image:
    """One replay frame, the caption band over the open table, on the shared palette
    (``palette=False``: as an RGB image, which the tests compare it with). ``layout``
    (``frame_layout`` of the frame's hand) keeps it the size of the hand's other frames."""
    canvas = compose_table(
        frame.public,
        names=names,
        locale=locale,
        perspective=perspective,
        revealed=frame.hands,
        header=CAPTION_HEIGHT,
        palette=palette,
        river_room=layout.river_room if layout is not None else None,
        height=layout.height if layout is not None else None,
        hands=layout.hands if layout is not None else None,
    )
    _caption(canvas, frame, steps, names, locale)
    return canvas


def render_replay_frame(
    record: HandReplay,
    step: int,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int | None = None,
) -> bytes:
    """PNG of frame ``step`` (clamped to the hand) of a replayed hand, as large as every
    other frame of the hand."""
    index = max(0, min(step, record.steps))
    return encode_png(
        compose_replay_frame(
            record.frames[index],
            record.steps,
            names=names,
            locale=locale,
            perspective=perspective,
            layout=_cached_layout(record, names, locale, perspective),
        )
    )


def render_replay_animation(
    record: HandReplay,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int | None = None,
    fmt: str = "gif",
) -> bytes:
    """The whole hand as an animated GIF or APNG: one frame per action (plus the deal),
    each shown ``STEP_MS``, the result ``LAST_MS``, looping."""
    if fmt not in ANIMATION_FORMATS:
        raise ValueError(f"animation format must be one of {', '.join(ANIMATION_FORMATS)}")
    layout = frame_layout(record, names=names, locale=locale, perspective=perspective)
    images = [
        compose_replay_frame(
            frame,
            record.steps,
            names=names,
            locale=locale,
            perspective=perspective,
            layout=layout,
        )
        for frame in record.frames
    ]
    durations = [STEP_MS] * (len(images) - 1) + [LAST_MS]
    if fmt == "gif":
        return encode_gif(images, durations)
    buffer = io.BytesIO()
    # Level 6, not the pictures' 1: a phone-first table changes from its header to its
    # last river row every move, so each APNG frame is nearly whole (a 96-move hand was
    # 10.6 MB at level 1, over Discord's 10 MB upload; 8.7 MB at 6 in twice the time).
    # The bot sends the GIF (``encode_gif``); APNG is the CLI's export.
    images[0].save(buffer, format="PNG", save_all=True, append_images=images[1:],
                   duration=durations, loop=0, compress_level=6)  # fmt: skip
    return buffer.getvalue()


def encode_gif(frames: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    """Frames of one palette (``P`` images of one size) as a looping GIF in which each
    frame after the first stores only the rectangle that changed, with the unchanged
    pixels inside it transparent.

    Why not ``Image.save(save_all=True, optimize=True)``: Pillow finds each changed
    rectangle by converting both frames to RGBA and subtracting them, which for a
    hand's hundred full-table frames costs more than composing them. Frames that share
    one palette can be compared index by index, and the transparent runs left in each
    rectangle compress to almost nothing, so a whole hand stays a megabyte or two.
    """
    if not frames:
        raise ValueError("an animation needs at least one frame")
    first = frames[0]
    size = first.size
    used = [0] * 256
    for frame in frames:
        if frame.mode != "P" or frame.size != size:
            raise ValueError("every frame must be a palette image of the first frame's size")
        for index, count in enumerate(frame.histogram()[:256]):
            used[index] += count
    # An index no frame uses marks "unchanged"; without one, rectangles stay opaque.
    transparent = next((index for index in range(255, -1, -1) if not used[index]), None)
    unchanged_mask = [255] + [0] * 255  # difference 0 -> take the transparent fill

    header, _ = GifImagePlugin.getheader(first.copy(), info={"loop": 0})
    chunks: list[bytes] = list(header)
    chunks += GifImagePlugin.getdata(first, duration=durations[0], disposal=1)
    palette_bytes = first.getpalette() or []
    for previous, frame, duration in zip(frames, frames[1:], durations[1:], strict=False):
        difference = ImageChops.difference(frame, previous)
        box = difference.getbbox()
        if box is None:  # nothing moved: show the last frame longer (one pixel, clear)
            box = (0, 0, 1, 1)
        patch = frame.crop(box)
        params: dict[str, int] = {"duration": duration, "disposal": 1}
        if transparent is not None:
            changed = Image.frombytes("L", patch.size, difference.crop(box).tobytes())
            keep = changed.point(unchanged_mask)
            fill = Image.new("P", patch.size, transparent)
            patch = Image.composite(fill, patch, keep)
            patch.putpalette(palette_bytes)
            params["transparency"] = transparent
        chunks += GifImagePlugin.getdata(patch, offset=box[:2], **params)
    chunks.append(b";")
    return b"".join(chunks)
