"""The four images: private hand, table, hand result and leaderboard, as PNG bytes.

Every function takes an engine view (``PlayerView``/``PublicView``, and the
``HandResult`` those carry) or plain leaderboard rows, never the engine's state, so an
image cannot show a tile its viewer may not see. Composing is pasting cached sprites
(``render.tiles``) and cached text (``render.text``); the PNG is palette-quantised
(FASTOCTREE) and saved with light compression, which keeps a warm hand image in a few
milliseconds and every image far below Discord's upload limits.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.scoring.names import INVALID_REASONS, PAYMENT_REASONS
from engine.tiles import WHITE
from engine.types import DISCARD, HandResult, Meld
from engine.views import PlayerView, PublicView, SeatView

from .text import (
    UNIT_EN,
    UNIT_ZH,
    Color,
    fit_text,
    label,
    text_sprite,
    text_width,
    wind_name,
)
from .tiles import MARKERS, back_sprite, tile_height, tile_sprite

FELT = (22, 78, 58)
PANEL = (31, 98, 74)
PANEL_DARK = (18, 62, 46)
PANEL_EDGE = (58, 130, 100)
CREAM = (244, 239, 224)
MUTED = (172, 204, 188)
GOLD = (246, 196, 64)
RED_BADGE = (200, 44, 48)
HIGHLIGHT = (255, 214, 64)
LAST_DISCARD = (255, 84, 64)
PLUS = (112, 226, 140)
MINUS = (255, 128, 118)

HAND_WIDTH = 1000
TABLE_SIZE = 1000


# --------------------------------------------------------------------------- helpers


def encode_png(image: Image.Image) -> bytes:
    """Palette PNG: a quarter of the RGB size and several times faster to encode.

    Mapping onto one shared palette (``_shared_palette``) takes about a millisecond for
    a whole table, where building a palette per image (FASTOCTREE) takes several; every
    image is made of the same sprites, backgrounds and text colours, so one palette fits.
    """
    quantized = image.quantize(palette=_shared_palette(), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    quantized.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


@lru_cache(maxsize=1)
def _shared_palette() -> Image.Image:
    """A 256-colour palette quantised once from a sheet of everything the images draw:
    every face (plain, dimmed, marked) and the back on each background, and text and
    badges in every colour, so anti-aliased edges have their in-between shades."""
    backgrounds = (FELT, PANEL, PANEL_DARK)
    tile_w = 40
    tile_h = tile_height(tile_w)
    columns = 36
    sprites = [tile_sprite(kind, tile_w) for kind in range(34)]
    sprites += [tile_sprite(kind, tile_w, dimmed=True) for kind in range(34)]
    sprites += [
        tile_sprite(kind, tile_w, marker) for kind in (5, 13, 31, 33) for marker in MARKERS[1:]
    ]
    sprites += [back_sprite(tile_w)]
    rows_per_background = math.ceil(len(sprites) / columns)
    text_rows = 6
    sheet_h = len(backgrounds) * (rows_per_background * tile_h + text_rows * 40)
    sheet = Image.new("RGB", (columns * tile_w, sheet_h), FELT)
    draw = ImageDraw.Draw(sheet)
    text_colours = (CREAM, MUTED, GOLD, HIGHLIGHT, PLUS, MINUS, (40, 30, 10))
    badge_fills = (RED_BADGE, PANEL_EDGE, *MEDALS.values(), LAST_DISCARD, HIGHLIGHT, GOLD)
    y = 0
    for background in backgrounds:
        block_h = rows_per_background * tile_h + text_rows * 40
        draw.rectangle((0, y, sheet.width, y + block_h), fill=background)
        for index, sprite in enumerate(sprites):
            row, column = divmod(index, columns)
            _paste(sheet, sprite, column * tile_w, y + row * tile_h)
        ty = y + rows_per_background * tile_h
        for i, colour in enumerate(text_colours):
            _text(
                sheet,
                "東南西北 中發 Alice 0123456789 +-",
                4 + (i % 2) * 720,
                ty + (i // 2) * 40,
                24,
                colour,
            )
        for i, fill in enumerate(badge_fills):
            bx = 4 + i * 130
            draw.rounded_rectangle((bx, ty + 160, bx + 120, ty + 196), radius=18, fill=fill)
            _text(
                sheet,
                "庄 1 百搭",
                bx + 6,
                ty + 162,
                22,
                CREAM if fill == RED_BADGE else (40, 30, 10),
            )
        y += block_h
    return sheet.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    canvas.paste(sprite, (int(x), int(y)), sprite)


def _text(
    canvas: Image.Image,
    text: str,
    x: float,
    y: float,
    size: int,
    color: Color = CREAM,
    *,
    anchor: str = "l",
) -> int:
    """Paste cached text with its left edge (``"l"``), centre (``"m"``) or right (``"r"``)
    at ``x`` and its line box starting at ``y``; returns the width."""
    sprite = text_sprite(text, size, color)
    if anchor == "m":
        x -= sprite.width / 2
    elif anchor == "r":
        x -= sprite.width
    _paste(canvas, sprite, x, y)
    return sprite.width


def _seat_name(names: Sequence[str] | None, seat: int, locale: str) -> str:
    if names is not None and seat < len(names) and names[seat]:
        return str(names[seat])
    return label("seat", locale, n=seat + 1)


def _marker_for(kind: int, variant: str, wild: int | None) -> str | None:
    """Which marker a tile carries: the wild kind, or a Taizhou White that may stand in."""
    if wild is not None and kind == wild:
        return "baida" if variant == "jiaxing" else "caishen"
    if variant == "taizhou" and kind == WHITE and wild is not None and wild != WHITE:
        return "white"
    return None


def _badge(
    draw: ImageDraw.ImageDraw,
    canvas: Image.Image,
    x: float,
    y: float,
    text: str,
    fill: Color,
    size: int = 22,
    color: Color = CREAM,
) -> int:
    """A rounded label (seat wind, dealer); returns its width."""
    width = max(size + 10, text_width(text, size) + 14)
    height = size + 12
    draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2, fill=fill)
    _text(canvas, text, x + width / 2, y + 3, size, color, anchor="m")
    return width


def _net(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _net_color(value: int) -> Color:
    return PLUS if value > 0 else MINUS if value < 0 else CREAM


# --------------------------------------------------------------------------- melds


def _meld_layout(
    meld: Meld, seat: int, num_seats: int, *, own: bool
) -> list[tuple[int | None, bool, bool]]:
    """The tiles of a meld as drawn: (kind or None for a back, sideways, is_white_stand_in).

    The claimed tile lies sideways at the side of the seat it came from: left player
    leftmost, opposite in the middle, right player rightmost. A concealed kong shows its
    two middle tiles face down to its owner and all four face down to everyone else
    (the public view does not know the kind).
    """
    if meld.concealed:
        if not meld.tiles or not own:
            return [(None, False, False)] * 4
        kind = meld.tiles[0]
        return [
            (kind, False, False),
            (None, False, False),
            (None, False, False),
            (kind, False, False),
        ]
    tiles: list[int] = sorted(meld.tiles)
    white_index = None
    if meld.white_as is not None and meld.white_as in tiles:
        white_index = tiles.index(meld.white_as)
    entries: list[tuple[int | None, bool, bool]] = [
        (WHITE if i == white_index else kind, False, i == white_index)
        for i, kind in enumerate(tiles)
    ]
    if meld.claimed is None or meld.from_seat is None:
        return entries
    claimed_index = next(
        (
            i
            for i, (kind, _, stand_in) in enumerate(entries)
            if kind == meld.claimed and not stand_in
        ),
        0,
    )
    claimed = entries.pop(claimed_index)
    claimed = (claimed[0], True, claimed[2])
    relative = (meld.from_seat - seat) % num_seats
    if relative == num_seats - 1:  # left player (上家)
        position = 0
    elif relative == 1:  # right player (下家)
        position = len(entries)
    else:  # opposite
        position = len(entries) // 2
    entries.insert(position, claimed)
    return entries


def _meld_width(entries: list[tuple[int | None, bool, bool]], width: int) -> int:
    height = tile_height(width)
    return sum(height if sideways else width for _, sideways, _ in entries)


def _fit_meld_width(
    melds: list[list[tuple[int | None, bool, bool]]], room: float, preferred: int, gap: int
) -> int:
    """The largest tile width (down to 28) at which ``melds`` fit in ``room`` pixels."""
    for width in range(preferred, 28, -1):
        if sum(_meld_width(entries, width) + gap for entries in melds) <= room:
            return width
    return 28


def _draw_meld(
    canvas: Image.Image,
    entries: list[tuple[int | None, bool, bool]],
    x: float,
    bottom: float,
    width: int,
    variant: str,
    wild: int | None,
) -> float:
    """Draw a meld with its tiles standing on ``bottom``; returns the x after it."""
    height = tile_height(width)
    for kind, sideways, stand_in in entries:
        if kind is None:
            sprite = back_sprite(width)
        else:
            marker = "white" if stand_in else None
            sprite = tile_sprite(kind, width, marker, rotated=sideways)
        top = bottom - (width if sideways else height)
        _paste(canvas, sprite, x, top)
        x += height if sideways else width
    return x


# --------------------------------------------------------------------------- hand


@dataclass(frozen=True)
class _HandLayout:
    tile: int = 74
    gap: int = 22
    meld_tile: int = 50
    small_tile: int = 38
    margin: int = 24


def render_hand(
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    highlight: Iterable[int] | None = None,
    show_legal: bool = True,
) -> bytes:
    """The private hand image for ``view.seat``.

    Concealed tiles sorted, the drawn tile set apart, melds, the indicator and the wild
    kind. ``highlight`` lifts the tiles of the given kinds (a hint); with ``show_legal``
    tiles that may not be discarded on this turn are dimmed when the seat has to discard,
    and the waits (听牌) are listed when the hand is waiting.
    """
    if not isinstance(view, PlayerView):
        raise TypeError("render_hand takes a PlayerView (a seat's own view), nothing else")
    return encode_png(
        compose_hand(view, names=names, locale=locale, highlight=highlight, show_legal=show_legal)
    )


def compose_hand(
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    highlight: Iterable[int] | None = None,
    show_legal: bool = True,
) -> Image.Image:
    public = view.public
    layout = _HandLayout()
    variant, wild = public.variant, public.wild
    seat_view = public.seats[view.seat]
    # As large as the row allows (a phone shrinks the image), up to layout.tile.
    count = len(view.concealed) + (1 if view.drawn is not None else 0)
    room = HAND_WIDTH - 2 * layout.margin - layout.gap
    tile_w = max(40, min(layout.tile, room // max(1, count)))
    tile_h = tile_height(tile_w)
    meld_h = tile_height(layout.meld_tile)
    small_h = tile_height(layout.small_tile)

    header_h = 64
    hand_top = header_h + 26  # room for lifted tiles
    hand_bottom = hand_top + tile_h
    lower_top = hand_bottom + 22
    has_lower = bool(view.melds or view.skipped_win or view.claim_tile is not None)
    has_lower = has_lower or bool(view.waits and show_legal)
    lower_h = max(meld_h, small_h + 34) if has_lower else 0
    height = lower_top + lower_h + 20
    canvas = Image.new("RGB", (HAND_WIDTH, height), FELT)
    draw = ImageDraw.Draw(canvas)

    # Header: name, seat wind, dealer, variant and hand number; indicator and wild at right.
    draw.rectangle((0, 0, HAND_WIDTH, header_h), fill=PANEL_DARK)
    x: float = layout.margin
    x += _badge(draw, canvas, x, 14, wind_name(seat_view.seat_wind, locale), PANEL_EDGE, 24) + 8
    if seat_view.is_dealer:
        x += _badge(draw, canvas, x, 14, label("dealer", locale), RED_BADGE, 24) + 8
    name = fit_text(_seat_name(names, view.seat, locale), 26, 300)
    x += _text(canvas, name, x + 4, 12, 26) + 16
    title = f"{label(variant, locale)} · {label('hand_no', locale, n=public.hand_number + 1)}"
    _text(canvas, title, x, 18, 20, MUTED)

    right = HAND_WIDTH - layout.margin
    small = 36
    small_top = (header_h - tile_height(small)) // 2
    if wild is not None:
        right -= small
        wild_marker = _marker_for(wild, variant, wild)
        _paste(canvas, tile_sprite(wild, small, wild_marker), right, small_top)
        wild_key = "wild_baida" if variant == "jiaxing" else "wild_caishen"
        right -= _text(canvas, label(wild_key, locale), right - 8, 18, 20, GOLD, anchor="r") + 22
    right -= small
    _paste(canvas, tile_sprite(public.indicator, small), right, small_top)
    right -= _text(canvas, label("indicator", locale), right - 8, 18, 20, MUTED, anchor="r") + 22
    _text(
        canvas,
        f"{label('tiles_left', locale)} {public.tiles_left}",
        right,
        18,
        20,
        MUTED,
        anchor="r",
    )

    # The concealed row.
    must_discard = any(action.type == DISCARD for action in view.legal)
    legal_discards = {action.tile for action in view.legal if action.type == DISCARD}
    lifted = set(highlight or ())
    # Wilds first, as players arrange them; the rest in suit order.
    tiles = sorted(view.concealed, key=lambda kind: (kind != wild, kind))
    total_w = len(tiles) * tile_w + (layout.gap + tile_w if view.drawn is not None else 0)
    x = max(layout.margin, (HAND_WIDTH - total_w) // 2)
    positions: list[tuple[int, float]] = [(kind, x + i * tile_w) for i, kind in enumerate(tiles)]
    if view.drawn is not None:
        positions.append((view.drawn, x + len(tiles) * tile_w + layout.gap))
    for kind, tile_x in positions:
        dimmed = show_legal and must_discard and kind not in legal_discards
        marker = _marker_for(kind, variant, wild)
        sprite = tile_sprite(kind, tile_w, marker, dimmed=dimmed)
        top = hand_top - (18 if kind in lifted else 0)
        if kind in lifted:
            draw.rounded_rectangle(
                (tile_x - 2, top - 2, tile_x + tile_w + 1, top + tile_h + 1),
                8,
                outline=HIGHLIGHT,
                width=3,
            )
        _paste(canvas, sprite, tile_x, top)
    if view.drawn is not None:
        drawn_x = positions[-1][1]
        _text(
            canvas,
            label("drawn", locale),
            drawn_x + tile_w / 2,
            hand_bottom + 2,
            16,
            MUTED,
            anchor="m",
        )

    # Lower row: melds at left, then waits / the tile on offer / skipped wins at right.
    bottom = lower_top + lower_h
    info: list[tuple[str, tuple[int, ...], Color]] = []
    if view.claim_tile is not None:
        info.append((label("claim_tile", locale), (view.claim_tile,), HIGHLIGHT))
    if view.waits and show_legal:
        info.append((label("waits", locale), tuple(view.waits)[:9], GOLD))
    if view.skipped_win:
        info.append((label("skipped_win", locale), tuple(view.skipped_win)[:5], MINUS))
    per = layout.small_tile + 2
    info_w = sum(max(len(k) * per, text_width(c, 18)) + 24 for c, k, _ in info)
    meld_entries = [_meld_layout(m, view.seat, public.num_seats, own=True) for m in view.melds]
    meld_room = HAND_WIDTH - 2 * layout.margin - info_w
    meld_w = _fit_meld_width(meld_entries, meld_room, layout.meld_tile, 16)
    x = float(layout.margin)
    for entries in meld_entries:
        x = _draw_meld(canvas, entries, x, bottom, meld_w, variant, wild) + 16
    right = HAND_WIDTH - layout.margin
    for caption, kinds, color in reversed(info):
        room_left = right - x - 20
        shown = kinds[: max(1, int(room_left // per))]
        block_w = max(len(shown) * per, text_width(caption, 18))
        left = right - block_w
        _text(canvas, caption, left, bottom - small_h - 30, 18, color)
        for i, kind in enumerate(shown):
            sprite = tile_sprite(kind, layout.small_tile, _marker_for(kind, variant, wild))
            _paste(canvas, sprite, left + i * per, bottom - small_h)
        right = left - 24
    return canvas


# --------------------------------------------------------------------------- table


def _positions(num_seats: int) -> tuple[str, ...]:
    """Where each seat offset from the viewer sits: play goes counter-clockwise."""
    return {
        4: ("bottom", "right", "top", "left"),
        3: ("bottom", "right", "left"),
        2: ("bottom", "top"),
    }[num_seats]


def _river_fit(count: int, width: float, height: float, largest: int) -> tuple[int, int]:
    """The largest tile width (and rows per block) that fits ``count`` discards in rows of
    six, with extra blocks of six columns side by side when the rows run out."""
    for tile_w in range(largest, 13, -1):
        tile_h = tile_height(tile_w)
        rows_fit = max(1, int(height // tile_h))
        rows_needed = max(1, math.ceil(count / 6))
        blocks = math.ceil(rows_needed / rows_fit)
        if blocks * 6 * tile_w + (blocks - 1) * 10 <= width:
            return tile_w, min(rows_fit, rows_needed)
    return 14, max(1, int(height // tile_height(14)))


def _draw_river(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat_view: SeatView,
    box: tuple[float, float, float, float],
    *,
    toward: str,
    variant: str,
    wild: int | None,
    last_discard: tuple[int, int] | None,
    tile_w: int,
) -> None:
    """Discards in rows of six, the first row nearest the table's centre (``toward``)."""
    x0, y0, x1, y1 = box
    discards = seat_view.discards
    tile_h = tile_height(tile_w)
    rows = max(1, min(int((y1 - y0) // tile_h), math.ceil(len(discards) / 6)))
    blocks = max(1, math.ceil(math.ceil(len(discards) / 6) / rows))
    total_w = blocks * 6 * tile_w + (blocks - 1) * 10
    left = x0 + (x1 - x0 - total_w) / 2
    for index, discard in enumerate(discards):
        row_all, col = divmod(index, 6)
        block, row = divmod(row_all, rows)
        x = left + block * (6 * tile_w + 10) + col * tile_w
        y = y0 + row * tile_h if toward == "down" else y1 - (row + 1) * tile_h
        sprite = tile_sprite(
            discard.tile, tile_w, _marker_for(discard.tile, variant, wild), dimmed=discard.claimed
        )
        _paste(canvas, sprite, x, y)
        is_last = (
            last_discard is not None
            and last_discard[0] == seat_view.seat
            and index == len(discards) - 1
            and not discard.claimed
        )
        if is_last:
            draw.rounded_rectangle(
                (x - 2, y - 2, x + tile_w + 1, y + tile_h + 1), 6, outline=LAST_DISCARD, width=4
            )


def _draw_seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    seat_view: SeatView,
    box: tuple[float, float, float, float],
    position: str,
    name: str,
    locale: str,
) -> tuple[tuple[float, float, float, float], str]:
    """One seat's panel: header, hidden tiles and melds on the outer side; returns the box
    left for the river and which way its rows run (first row nearest the centre)."""
    x0, y0, x1, y1 = box
    is_turn = view.current_seat == seat_view.seat and view.phase == "turn"
    waiting = seat_view.seat in view.waiting_on and view.phase != "turn"
    outline = HIGHLIGHT if is_turn else GOLD if waiting else PANEL_EDGE
    draw.rounded_rectangle(
        box, 16, fill=PANEL, outline=outline, width=4 if (is_turn or waiting) else 2
    )
    pad = 12
    header_h = 40
    outer_top = position == "top"
    header_y = y0 + pad if outer_top or position in ("left", "right") else y1 - pad - header_h + 4

    # Header: wind badge, dealer badge, name, score, state.
    x = x0 + pad
    x += (
        _badge(draw, canvas, x, header_y, wind_name(seat_view.seat_wind, locale), PANEL_DARK, 20)
        + 6
    )
    if seat_view.is_dealer:
        x += _badge(draw, canvas, x, header_y, label("dealer", locale), RED_BADGE, 20) + 6
    score_text = _net(seat_view.score)
    score_w = text_width(score_text, 22)
    state = ""
    if seat_view.folded:
        state = label("folded", locale)
    elif is_turn:
        state = "▶ " + label("turn", locale)
    elif waiting:
        state = "… " + label("waiting_on", locale)
    state_w = text_width(state, 18) + 8 if state else 0
    name_room = x1 - pad - x - score_w - state_w - 16
    _text(canvas, fit_text(name, 22, int(name_room)), x + 2, header_y + 2, 22)
    _text(canvas, score_text, x1 - pad, header_y + 2, 22, _net_color(seat_view.score), anchor="r")
    if state:
        _text(canvas, state, x1 - pad - score_w - 10, header_y + 6, 18, HIGHLIGHT, anchor="r")

    # Hidden tiles (backs) and melds.
    side = position in ("left", "right")
    back_w = 17 if side else 26
    meld_w = 28 if side else 40
    meld_h = tile_height(meld_w)
    back_h = tile_height(back_w)
    count = seat_view.concealed_count
    if side:
        row_y = header_y + header_h + 4
        backs_x = x0 + pad
        for i in range(count):
            _paste(canvas, back_sprite(back_w), backs_x + i * back_w, row_y)
        meld_bottom = row_y + back_h + 6 + meld_h
        river_box = (x0 + pad, meld_bottom + 10, x1 - pad, y1 - pad)
        toward = "down"
        meld_x = x0 + pad
        for meld in seat_view.melds:
            entries = _meld_layout(meld, seat_view.seat, view.num_seats, own=False)
            width = _meld_width(entries, meld_w)
            if meld_x + width > x1 - pad:
                meld_x = x0 + pad
                meld_bottom += meld_h + 6
                river_box = (river_box[0], meld_bottom + 10, river_box[2], river_box[3])
            meld_x = (
                _draw_meld(canvas, entries, meld_x, meld_bottom, meld_w, view.variant, view.wild)
                + 8
            )
    else:
        if outer_top:
            row_top = header_y + header_h + 2
            river_box = (x0 + pad, row_top + meld_h + 12, x1 - pad, y1 - pad)
            toward = "up"
        else:
            row_top = header_y - meld_h - 8
            river_box = (x0 + pad, y0 + pad, x1 - pad, row_top - 10)
            toward = "down"
        backs_x = x0 + pad
        for i in range(count):
            _paste(canvas, back_sprite(back_w), backs_x + i * back_w, row_top + meld_h - back_h)
        meld_x = backs_x + count * back_w + 18
        for meld in seat_view.melds:
            entries = _meld_layout(meld, seat_view.seat, view.num_seats, own=False)
            meld_x = (
                _draw_meld(
                    canvas, entries, meld_x, row_top + meld_h, meld_w, view.variant, view.wild
                )
                + 10
            )
    if seat_view.liable_with:
        partners = " ".join(
            wind_name(view.seats[s].seat_wind, locale) for s in seat_view.liable_with
        )
        liable_y = header_y + header_h - 6 if side else header_y + 4
        liable_x = x1 - pad if side else (x0 + x1) / 2
        _text(
            canvas,
            f"{label('liable', locale)} {partners}",
            liable_x,
            liable_y,
            16,
            MINUS,
            anchor="r" if side else "m",
        )
    return river_box, toward


def _draw_die(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, value: int) -> None:
    draw.rounded_rectangle((x, y, x + size, y + size), 6, fill=CREAM)
    pips = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
        5: [(0.26, 0.26), (0.74, 0.26), (0.5, 0.5), (0.26, 0.74), (0.74, 0.74)],
        6: [(0.28, 0.24), (0.72, 0.24), (0.28, 0.5), (0.72, 0.5), (0.28, 0.76), (0.72, 0.76)],
    }[max(1, min(6, value))]
    r = size * 0.1
    color = RED_BADGE if value in (1, 4) else (30, 30, 30)
    for u, v in pips:
        cx, cy = x + u * size, y + v * size
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)


def _draw_centre(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    box: tuple[float, float, float, float],
    names: Sequence[str] | None,
    locale: str,
) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, 18, fill=PANEL_DARK, outline=PANEL_EDGE, width=2)
    cx = (x0 + x1) / 2
    y = y0 + 14
    _text(canvas, label(view.variant, locale), cx, y, 24, CREAM, anchor="m")
    y += 36
    line = label("hand_no", locale, n=view.hand_number + 1)
    if view.variant == "jiaxing":
        line += f" · {label('prevailing', locale)} {wind_name(view.prevailing_wind, locale)}"
    _text(canvas, line, cx, y, 20, MUTED, anchor="m")
    y += 36
    # Indicator and wild, large.
    tile_w = 52
    tile_h = tile_height(tile_w)
    has_wild = view.wild is not None
    slots: list[tuple[str, int, str | None]] = [("indicator", view.indicator, None)]
    if view.wild is not None:
        wild_key = "wild_baida" if view.variant == "jiaxing" else "wild_caishen"
        slots.append((wild_key, view.wild, _marker_for(view.wild, view.variant, view.wild)))
    span = 120
    start = cx - span * (len(slots) - 1) / 2
    for i, (key, kind, marker) in enumerate(slots):
        sx = start + i * span
        _text(canvas, label(key, locale), sx, y, 18, GOLD if marker else MUTED, anchor="m")
        _paste(canvas, tile_sprite(kind, tile_w, marker), sx - tile_w / 2, y + 28)
    if has_wild and view.wild != view.indicator:
        _text(canvas, "→", cx, y + 28 + tile_h / 2 - 16, 26, MUTED, anchor="m")
    y += 28 + tile_h + 14
    # Numbers: tiles left, carried pool, dice.
    stats = [(label("tiles_left", locale), str(view.tiles_left))]
    if view.variant == "jiaxing":
        stats.append((label("pool", locale), f"{view.carried_fan}"))
    col_w = (x1 - x0 - 20) / (len(stats) + 1)
    for i, (caption, value) in enumerate(stats):
        sx = x0 + 10 + col_w * (i + 0.5)
        _text(canvas, caption, sx, y, 17, MUTED, anchor="m")
        _text(canvas, value, sx, y + 22, 28, CREAM, anchor="m")
    sx = x0 + 10 + col_w * (len(stats) + 0.5)
    _text(canvas, label("dice", locale), sx, y, 17, MUTED, anchor="m")
    die = 28
    _draw_die(draw, sx - die - 3, y + 26, die, view.dice[0])
    _draw_die(draw, sx + 3, y + 26, die, view.dice[1])
    y += 70
    # Whose turn / who we wait for.
    status = ""
    if view.phase == "turn" and view.current_seat is not None:
        seat = view.current_seat
        status = f"{label('turn', locale)} {wind_name(view.seats[seat].seat_wind, locale)} {_seat_name(names, seat, locale)}"
    elif view.phase == "ended":
        status = label("ended", locale)
    elif view.phase in ("claim", "rob_kong", "santan"):
        key = {"claim": "claim_window", "rob_kong": "rob_kong", "santan": "santan"}[view.phase]
        waiting = " ".join(wind_name(view.seats[s].seat_wind, locale) for s in view.waiting_on)
        status = f"{label(key, locale)} · {label('waiting_on', locale)} {waiting}".strip()
    if status:
        _text(
            canvas,
            fit_text(status, 20, int(x1 - x0 - 24)),
            cx,
            min(y, y1 - 36),
            20,
            HIGHLIGHT,
            anchor="m",
        )


def render_table(
    view: PublicView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int = 0,
) -> bytes:
    """The public table as the channel sees it, seat ``perspective`` at the bottom."""
    if not isinstance(view, PublicView):
        raise TypeError("render_table takes a PublicView, nothing else")
    return encode_png(compose_table(view, names=names, locale=locale, perspective=perspective))


def compose_table(
    view: PublicView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int = 0,
) -> Image.Image:
    size = TABLE_SIZE
    positions = _positions(view.num_seats)
    gap = 8
    band = 300  # top and bottom panels' height
    side_w = 330
    # Three seats leave the top empty and two leave the sides empty: drop that space.
    top_h = band if "top" in positions else 0
    middle_h = 400 if "left" in positions or "right" in positions else 330
    height = top_h + middle_h + band
    canvas = Image.new("RGB", (size, height), FELT)
    draw = ImageDraw.Draw(canvas)
    middle = (top_h + gap, top_h + middle_h - gap)
    boxes = {
        "bottom": (gap, top_h + middle_h + gap, size - gap, height - gap),
        "top": (gap, gap, size - gap, band - gap),
        "left": (gap, middle[0], side_w - gap, middle[1]),
        "right": (size - side_w + gap, middle[0], size - gap, middle[1]),
    }
    occupied = set()
    rivers = []
    for seat_view in view.seats:
        position = positions[(seat_view.seat - perspective) % view.num_seats]
        occupied.add(position)
        river_box, toward = _draw_seat(
            canvas,
            draw,
            view,
            seat_view,
            boxes[position],
            position,
            _seat_name(names, seat_view.seat, locale),
            locale,
        )
        rivers.append((seat_view, river_box, toward))
    # One river tile size for the whole table, the largest every river fits in.
    river_w = min(
        _river_fit(len(seat_view.discards), box[2] - box[0], box[3] - box[1], 48)[0]
        for seat_view, box, _ in rivers
    )
    for seat_view, river_box, toward in rivers:
        _draw_river(
            canvas,
            draw,
            seat_view,
            river_box,
            toward=toward,
            variant=view.variant,
            wild=view.wild,
            last_discard=view.last_discard,
            tile_w=river_w,
        )
    centre_left = side_w + gap if "left" in occupied else gap + 160
    centre_right = size - side_w - gap if "right" in occupied else size - gap - 160
    _draw_centre(
        canvas, draw, view, (centre_left, middle[0], centre_right, middle[1]), names, locale
    )
    return canvas


# --------------------------------------------------------------------------- result


def _item_value(item: Any, locale: str) -> str:
    units = UNIT_ZH if locale.startswith("zh") else UNIT_EN
    unit = units.get(item.unit, item.unit)
    spacer = "" if locale.startswith("zh") else " "
    text = f"+{item.value}{spacer}{unit}"
    if item.count > 1:
        text += f" ×{item.count}"
    return text


def render_result(
    view: PublicView,
    result: HandResult | None = None,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    win_tile: int | None = None,
) -> bytes:
    """The end of a hand: the winning hand, the itemised score and the payments, or a draw.

    ``result`` defaults to ``view.result``. ``win_tile`` (if known) is set apart from the
    rest of the winning hand, as the last tile of ``result.hand.concealed``.
    """
    if not isinstance(view, PublicView):
        raise TypeError("render_result takes the ended hand's PublicView")
    return encode_png(compose_result(view, result, names=names, locale=locale, win_tile=win_tile))


def compose_result(
    view: PublicView,
    result: HandResult | None = None,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    win_tile: int | None = None,
) -> Image.Image:
    result = result if result is not None else view.result
    if result is None:
        raise ValueError("the view has no result: the hand has not ended")
    if win_tile is None:
        win_tile = result.win_tile
    if win_tile is None and result.win_by == "discard" and view.last_discard:
        win_tile = view.last_discard[1]  # the discard that was won on
    width = HAND_WIDTH
    margin = 28
    tile_w = 54
    tile_h = tile_height(tile_w)
    winner = result.winner if result.valid else None
    items = list(result.items) if winner is not None else []
    payments = list(result.payments) if winner is not None else []
    row_h = 34
    height = 84
    if winner is not None and result.hand is not None:
        height += tile_h + 36
    if items:
        height += 40 + row_h * len(items) + 50
    if result.totals and winner is not None:
        height += 40 + 36
    if payments:
        height += 40 + 30 * len(payments)
    height += 40 + 60 + 20
    if winner is None:
        height += 60
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    zh = locale.startswith("zh")

    def seat_label(seat: int) -> str:
        return f"{wind_name(view.seats[seat].seat_wind, locale)} {_seat_name(names, seat, locale)}"

    # Title.
    draw.rectangle((0, 0, width, 64), fill=PANEL_DARK)
    x: float = margin
    if winner is None:
        key = "draw_title" if result.valid else "invalid_title"
        x += _text(canvas, label(key, locale), x, 10, 32, GOLD)
        if zh:
            _text(canvas, LABEL_EN_SUFFIX.get(key, ""), x + 14, 22, 20, MUTED)
    else:
        how = {"self_draw": "self_draw", "discard": "discard_win", "rob_kong": "rob_kong_win"}.get(
            result.win_by or "", "winner"
        )
        x += _text(canvas, fit_text(seat_label(winner), 32, 520), x, 10, 32, CREAM) + 16
        x += _badge(draw, canvas, x, 14, label(how, locale), RED_BADGE, 22) + 12
        if result.from_seat is not None and result.win_by != "self_draw":
            _text(canvas, f"← {seat_label(result.from_seat)}", x, 20, 20, MUTED)
    _text(
        canvas,
        f"{label(view.variant, locale)} · {label('hand_no', locale, n=view.hand_number + 1)}",
        width - margin,
        22,
        18,
        MUTED,
        anchor="r",
    )
    y = 84

    if winner is None:
        note = (
            label("draw_note", locale) if result.valid else _invalid_reason(result.reason, locale)
        )
        _text(canvas, note, margin, y, 22, CREAM)
        y += 36
        if result.valid and view.variant == "jiaxing":
            _text(canvas, label("draw_pool", locale), margin, y, 20, GOLD)
        y += 24

    # The winning hand.
    if winner is not None and result.hand is not None:
        concealed = list(result.hand.concealed)
        apart = None
        if win_tile is not None and win_tile in concealed:
            concealed.reverse()
            concealed.remove(win_tile)
            concealed.reverse()
            apart = win_tile
        concealed.sort()
        x = float(margin)
        for kind in concealed:
            _paste(
                canvas, tile_sprite(kind, tile_w, _marker_for(kind, view.variant, view.wild)), x, y
            )
            x += tile_w
        if apart is not None:
            x += 12
            _paste(
                canvas,
                tile_sprite(apart, tile_w, _marker_for(apart, view.variant, view.wild)),
                x,
                y,
            )
            draw.rounded_rectangle(
                (x - 2, y - 2, x + tile_w + 1, y + tile_h + 1), 6, outline=HIGHLIGHT, width=3
            )
            x += tile_w
        x += 20
        meld_entries = [
            _meld_layout(meld, winner, view.num_seats, own=True) for meld in result.hand.melds
        ]
        meld_w = _fit_meld_width(meld_entries, width - margin - x, tile_w, 12)
        for entries in meld_entries:
            x = _draw_meld(canvas, entries, x, y + tile_h, meld_w, view.variant, view.wild) + 12
        y += tile_h + 36

    # Breakdown.
    if items:
        _section_title(canvas, label("breakdown", locale), "Breakdown", zh, margin, y)
        y += 40
        for i, item in enumerate(items):
            if i % 2 == 0:
                draw.rectangle((margin - 8, y - 3, width - margin + 8, y + row_h - 5), fill=PANEL)
            _text(canvas, item.name_zh, margin, y, 22, CREAM)
            _text(canvas, item.name_en, margin + 240, y + 3, 19, MUTED)
            _text(canvas, _item_value(item, locale), width - margin, y, 22, CREAM, anchor="r")
            y += row_h
        if view.variant == "jiaxing":
            total = label(
                "total_jiaxing", locale, tai=result.tai, fan=result.fan, score=result.score
            )
        else:
            total = label(
                "total_taizhou", locale, points=result.points, tai=result.tai, total=result.total
            )
        draw.line((margin, y + 6, width - margin, y + 6), fill=PANEL_EDGE, width=2)
        _text(canvas, total, width - margin, y + 14, 26, GOLD, anchor="r")
        y += 50

    if result.totals and winner is not None:
        _text(canvas, label("totals", locale), margin, y, 20, GOLD)
        y += 36
        col = (width - 2 * margin) / len(result.totals)
        for seat, value in enumerate(result.totals):
            _text(canvas, f"{seat_label(seat)}: {value}", margin + seat * col, y, 19, CREAM)
        y += 40

    if payments:
        _section_title(canvas, label("payments", locale), "Payments", zh, margin, y)
        y += 40
        for payment in payments:
            line = f"{seat_label(payment.payer)}  →  {seat_label(payment.payee)}"
            _text(canvas, fit_text(line, 20, 700), margin, y, 20, CREAM)
            reason = _payment_reason(payment.reason, locale)
            _text(canvas, reason, width - margin - 110, y + 2, 17, MUTED, anchor="r")
            _text(canvas, str(payment.amount), width - margin, y, 20, CREAM, anchor="r")
            y += 30

    # Net change per seat.
    y += 10
    draw.rectangle((0, y, width, y + 60), fill=PANEL_DARK)
    col = (width - 2 * margin) / max(1, len(result.deltas))
    for seat, delta in enumerate(result.deltas):
        sx = margin + seat * col
        name = fit_text(seat_label(seat), 18, int(col - 80))
        _text(canvas, name, sx, y + 17, 18, MUTED)
        _text(canvas, _net(delta), sx + col - 16, y + 12, 26, _net_color(delta), anchor="r")
    # The height was reserved generously (names and notes vary); trim to what was drawn.
    return canvas.crop((0, 0, width, min(height, int(y) + 60)))


def _section_title(
    canvas: Image.Image, title: str, english: str, zh: bool, x: float, y: float
) -> None:
    """A result-card section title; a Chinese card adds the English word after it."""
    _text(canvas, title + ("" if not zh else f"  {english}"), x, y, 22, GOLD)


def _payment_reason(reason: str, locale: str) -> str:
    """The scoring module's name for a payment reason, else the raw key."""
    zh, en = PAYMENT_REASONS.get(reason, (reason, reason))
    return zh if locale.startswith("zh") else en


def _invalid_reason(reason: str, locale: str) -> str:
    zh, en = INVALID_REASONS.get(reason, (reason, reason))
    return zh if locale.startswith("zh") else en


LABEL_EN_SUFFIX = {"draw_title": "Exhaustive draw", "invalid_title": "Invalid win"}


# --------------------------------------------------------------------------- leaderboard


def _row_fields(row: Any) -> tuple[int, str, int, int, int]:
    """Accept (rank, name, net, hands, wins) tuples or objects with those attributes."""
    if isinstance(row, Sequence) and not isinstance(row, str):
        rank, name, net, hands, wins = row[:5]
    else:
        rank, name, net, hands, wins = (row.rank, row.name, row.net, row.hands, row.wins)
    return int(rank), str(name), int(net), int(hands), int(wins)


MEDALS = {1: (236, 186, 40), 2: (196, 204, 214), 3: (205, 127, 50)}


def render_leaderboard(
    rows: Iterable[Any],
    *,
    period: str = "week",
    subtitle: str = "",
    locale: str = "zh",
) -> bytes:
    """A leaderboard: rank, name, net points, hands, wins and win rate.

    ``period`` is ``"week"`` or ``"all_time"`` (or any text shown as is); ``subtitle``
    names the guild or the ISO week.
    """
    return encode_png(compose_leaderboard(rows, period=period, subtitle=subtitle, locale=locale))


def compose_leaderboard(
    rows: Iterable[Any],
    *,
    period: str = "week",
    subtitle: str = "",
    locale: str = "zh",
) -> Image.Image:
    entries = [_row_fields(row) for row in rows][:25]
    width = 900
    margin = 28
    row_h = 56
    header_h = 80
    columns_h = 40
    height = header_h + columns_h + row_h * max(1, len(entries)) + 24
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, width, header_h), fill=PANEL_DARK)
    period_text = label(period, locale) if period in ("week", "all_time") else period
    x = margin + _text(canvas, label("leaderboard", locale), margin, 14, 36, GOLD) + 18
    x += _text(canvas, period_text, x, 28, 24, CREAM) + 16
    if subtitle:
        _text(canvas, fit_text(subtitle, 20, int(width - margin - x)), x, 31, 20, MUTED)

    col_rank, col_name = margin + 26, margin + 80
    col_net, col_hands, col_wins, col_rate = 560, 660, 750, width - margin
    y = header_h + 10
    for key, cx, anchor in (
        ("rank", col_rank, "m"),
        ("player", col_name, "l"),
        ("net_points", col_net, "r"),
        ("hands", col_hands, "r"),
        ("wins", col_wins, "r"),
        ("win_rate", col_rate, "r"),
    ):
        _text(canvas, label(key, locale), cx, y, 18, MUTED, anchor=anchor)
    y = header_h + columns_h
    if not entries:
        _text(canvas, label("empty_board", locale), width / 2, y + 12, 24, MUTED, anchor="m")
        return canvas
    for i, (rank, name, net, hands, wins) in enumerate(entries):
        if i % 2 == 0:
            draw.rectangle((0, y, width, y + row_h), fill=PANEL)
        cy = y + row_h / 2
        medal = MEDALS.get(rank)
        if medal:
            draw.ellipse((col_rank - 20, cy - 20, col_rank + 20, cy + 20), fill=medal)
            _text(canvas, str(rank), col_rank, cy - 17, 24, (40, 30, 10), anchor="m")
        else:
            _text(canvas, str(rank), col_rank, cy - 17, 24, CREAM, anchor="m")
        _text(canvas, fit_text(name, 26, col_net - col_name - 110), col_name, cy - 19, 26, CREAM)
        _text(canvas, _net(net), col_net, cy - 19, 26, _net_color(net), anchor="r")
        _text(canvas, str(hands), col_hands, cy - 16, 22, CREAM, anchor="r")
        _text(canvas, str(wins), col_wins, cy - 16, 22, CREAM, anchor="r")
        rate = f"{100 * wins / hands:.0f}%" if hands else "-"
        _text(canvas, rate, col_rate, cy - 16, 22, MUTED, anchor="r")
        y += row_h
    return canvas


__all__ = [
    "compose_hand",
    "compose_leaderboard",
    "compose_result",
    "compose_table",
    "encode_png",
    "render_hand",
    "render_leaderboard",
    "render_result",
    "render_table",
    "warm_up",
]


def warm_up() -> None:
    """Draw every face and build the shared palette now (about a quarter of a second),
    so the first image a player waits for is as fast as the rest. Call it from a worker
    thread at start-up."""
    for kind in range(34):
        for marker in MARKERS:
            tile_sprite(kind, 40, marker)
    _shared_palette()
    encode_png(compose_hand(_warm_view()))


def _warm_view() -> PlayerView:
    from .samples import sample_player_view

    return sample_player_view("jiaxing")
