"""The private hand image: a seat's concealed tiles, the drawn tile set apart, its melds,
the indicator and the wild, and what it waits on."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.types import DISCARD
from engine.variants import get_rules
from engine.views import PlayerView

from .layout import (
    FELT,
    GOLD,
    HAND_WIDTH,
    HIGHLIGHT,
    MINUS,
    MUTED,
    PANEL_DARK,
    PANEL_EDGE,
    RED_BADGE,
    badge,
    draw_meld,
    draw_text,
    encode_png,
    fit_meld_width,
    marker_for,
    meld_layout,
    paste,
    seat_name,
)
from .text import Color, fit_text, label, rule_set_name, text_width, wild_label, wind_name
from .tiles import tile_height, tile_sprite


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
    rules, wild = get_rules(public.variant), public.wild
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

    # Header: name, seat wind, dealer, rule set and hand number; indicator and wild at right.
    draw.rectangle((0, 0, HAND_WIDTH, header_h), fill=PANEL_DARK)
    x: float = layout.margin
    x += badge(draw, canvas, x, 14, wind_name(seat_view.seat_wind, locale), PANEL_EDGE, 24) + 8
    if seat_view.is_dealer:
        x += badge(draw, canvas, x, 14, label("dealer", locale), RED_BADGE, 24) + 8
    name = fit_text(seat_name(names, view.seat, locale), 26, 300)
    x += draw_text(canvas, name, x + 4, 12, 26) + 16
    title = f"{rule_set_name(rules, locale)} · {label('hand_no', locale, n=public.hand_number + 1)}"
    draw_text(canvas, title, x, 18, 20, MUTED)

    right = HAND_WIDTH - layout.margin
    small = 36
    small_top = (header_h - tile_height(small)) // 2
    if wild is not None:
        right -= small
        wild_marker = marker_for(wild, rules, wild)
        paste(canvas, tile_sprite(wild, small, wild_marker), right, small_top)
        right -= (
            draw_text(canvas, wild_label(rules, locale), right - 8, 18, 20, GOLD, anchor="r") + 22
        )
    right -= small
    paste(canvas, tile_sprite(public.indicator, small), right, small_top)
    right -= (
        draw_text(canvas, label("indicator", locale), right - 8, 18, 20, MUTED, anchor="r") + 22
    )
    draw_text(
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
        marker = marker_for(kind, rules, wild)
        sprite = tile_sprite(kind, tile_w, marker, dimmed=dimmed)
        top = hand_top - (18 if kind in lifted else 0)
        if kind in lifted:
            draw.rounded_rectangle(
                (tile_x - 2, top - 2, tile_x + tile_w + 1, top + tile_h + 1),
                8,
                outline=HIGHLIGHT,
                width=3,
            )
        paste(canvas, sprite, tile_x, top)
    if view.drawn is not None:
        drawn_x = positions[-1][1]
        draw_text(
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
    meld_entries = [meld_layout(m, view.seat, public.num_seats, own=True) for m in view.melds]
    meld_room = HAND_WIDTH - 2 * layout.margin - info_w
    meld_w = fit_meld_width(meld_entries, meld_room, layout.meld_tile, 16)
    x = float(layout.margin)
    for entries in meld_entries:
        x = draw_meld(canvas, entries, x, bottom, meld_w) + 16
    right = HAND_WIDTH - layout.margin
    for caption, kinds, color in reversed(info):
        row_room = right - x - 20
        shown = kinds[: max(1, int(row_room // per))]
        block_w = max(len(shown) * per, text_width(caption, 18))
        left = right - block_w
        draw_text(canvas, caption, left, bottom - small_h - 30, 18, color)
        for i, kind in enumerate(shown):
            sprite = tile_sprite(kind, layout.small_tile, marker_for(kind, rules, wild))
            paste(canvas, sprite, left + i * per, bottom - small_h)
        right = left - 24
    return canvas
