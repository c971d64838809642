"""The private hand image: a seat's concealed tiles, the drawn tile set apart, its melds,
the indicator and the wild, and what it waits on; during a claim window the offered tile,
large, with who discarded it and the claims this seat can make; below, the table as seen
from the seat (each other seat's melds and river, the last discard and whose turn).

Everything comes from the ``PlayerView``: other seats are drawn from its public part, so
the image cannot show a tile the seat may not see."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from PIL import Image, ImageDraw

from engine.tiles import WHITE, name_en, name_zh
from engine.types import CHOW, DISCARD, KONG, PUNG, WIN
from engine.variants import Variant, get_rules
from engine.views import PlayerView, PublicView, SeatView
from engine.words import ACTIONS

from .bidi import isolate
from .layout import (
    CREAM,
    FELT,
    GOLD,
    HAND_WIDTH,
    HIGHLIGHT,
    LAST_DISCARD,
    MINUS,
    MUTED,
    PANEL,
    PANEL_DARK,
    PANEL_EDGE,
    RED_BADGE,
    badge,
    badge_width,
    draw_meld,
    draw_text,
    encode_png,
    fit_meld_width,
    marker_for,
    meld_layout,
    meld_width,
    paste,
    seat_name,
)
from .text import (
    Color,
    chinese,
    fit_text,
    label,
    rule_set_name,
    text_width,
    wild_label,
    wind_name,
    word,
)
from .tiles import WHITE_MARKER, tile_height, tile_sprite

# Claims in the order a player weighs them; the prompt names only those the view offers.
_CLAIM_ORDER = (WIN, KONG, PUNG, CHOW)
# The table strip: tiles this wide (40% of it on a 400 px wide phone screen, still legible).
TABLE_TILE = 44


@dataclass(frozen=True)
class _HandLayout:
    tile: int = 74
    gap: int = 22
    meld_tile: int = 50
    small_tile: int = 38
    margin: int = 24
    prompt_tile: int = 96
    name_column: int = 150


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
    claims = offered_claims(view)
    prompt_h = tile_height(layout.prompt_tile) + 24 if claims else 0
    hand_top = header_h + prompt_h + 26  # room for lifted tiles
    hand_bottom = hand_top + tile_h
    lower_top = hand_bottom + 22
    has_lower = bool(view.melds or view.skipped_win or (view.claim_tile is not None and not claims))
    has_lower = has_lower or bool(view.waits and show_legal)
    lower_h = max(meld_h, small_h + 34) if has_lower else 0
    strip = _strip_layout(public, view.seat, layout)
    strip_top = lower_top + lower_h + 16
    legend = white_legend(view, locale)
    legend_h = 34 if legend else 0
    height = strip_top + sum(block_h for _seat, _units, block_h in strip) + legend_h + 12
    canvas = Image.new("RGB", (HAND_WIDTH, height), FELT)
    draw = ImageDraw.Draw(canvas)

    # Header: indicator, wild and tiles left at the right, drawn first so the left side
    # (seat wind, dealer, name, turn, rule set and hand number) knows where it must stop.
    draw.rectangle((0, 0, HAND_WIDTH, header_h), fill=PANEL_DARK)
    right = HAND_WIDTH - layout.margin
    small = 36
    small_top = (header_h - tile_height(small)) // 2
    if wild is not None:
        right -= small
        wild_marker = marker_for(wild, rules, wild, locale)
        paste(canvas, tile_sprite(wild, small, wild_marker), right, small_top)
        right -= (
            draw_text(canvas, wild_label(rules, locale), right - 8, 18, 20, GOLD, anchor="r") + 22
        )
    right -= small
    paste(canvas, tile_sprite(public.indicator, small), right, small_top)
    right -= (
        draw_text(canvas, label("indicator", locale), right - 8, 18, 20, MUTED, anchor="r") + 22
    )
    tiles_left = f"{label('tiles_left', locale)} {public.tiles_left}"
    right -= draw_text(canvas, tiles_left, right, 18, 20, MUTED, anchor="r") + 20

    x: float = layout.margin
    x += badge(draw, canvas, x, 14, wind_name(seat_view.seat_wind, locale), PANEL_EDGE, 24) + 8
    if seat_view.is_dealer:
        x += badge(draw, canvas, x, 14, label("dealer", locale), RED_BADGE, 24) + 8
    turn = label("turn", locale) if public.current_seat == view.seat else ""
    turn_w = badge_width(turn, 22) + 10 if turn else 0
    name_room = min(300, int(right - x - 20 - turn_w))
    name = fit_text(isolate(seat_name(names, view.seat, locale)), 26, max(40, name_room))
    x += draw_text(canvas, name, x + 4, 12, 26) + 16
    if turn:
        x += badge(draw, canvas, x, 14, turn, HIGHLIGHT, 22, (40, 30, 10)) + 10
    hand_no = label("hand_no", locale, n=public.hand_number + 1)
    title = f"{rule_set_name(rules, locale)} · {hand_no}"
    if text_width(title, 20) > right - x:
        title = hand_no  # the rule set's name gives way first: the table says it too
    if text_width(title, 20) <= right - x:
        draw_text(canvas, title, x, 18, 20, MUTED)

    if claims:
        _draw_prompt(canvas, draw, view, claims, names, locale, header_h, layout, rules)

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
        marker = marker_for(kind, rules, wild, locale)
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
    # Each block: caption, the tiles it may show, how many there are in all, colour.
    info: list[tuple[str, tuple[int, ...], int, Color]] = []
    if view.claim_tile is not None and not claims:
        info.append((label("claim_tile", locale), (view.claim_tile,), 1, HIGHLIGHT))
    if view.waits and show_legal:
        info.append((label("waits", locale), tuple(view.waits)[:9], len(view.waits), GOLD))
    if view.skipped_win:
        skipped = tuple(view.skipped_win)
        info.append((label("skipped_win", locale), skipped[:5], len(skipped), MINUS))
    per = layout.small_tile + 2
    info_w = sum(max(len(k) * per, text_width(c, 18)) + 24 for c, k, _n, _ in info)
    meld_entries = [meld_layout(m, view.seat, public.num_seats, own=True) for m in view.melds]
    meld_room = HAND_WIDTH - 2 * layout.margin - info_w
    meld_w = fit_meld_width(meld_entries, meld_room, layout.meld_tile, 16)
    x = float(layout.margin)
    for entries in meld_entries:
        x = draw_meld(canvas, entries, x, bottom, meld_w) + 16
    right = HAND_WIDTH - layout.margin
    for caption, kinds, total, color in reversed(info):
        row_room = right - x - 20
        shown = kinds[: max(1, int(row_room // per))]
        if len(shown) < total:  # say how many more there are: a wait list cut short
            caption = f"{caption} +{total - len(shown)}"  # read as complete misleads
        block_w = max(len(shown) * per, text_width(caption, 18))
        left = right - block_w
        draw_text(canvas, caption, left, bottom - small_h - 30, 18, color)
        for i, kind in enumerate(shown):
            sprite = tile_sprite(kind, layout.small_tile, marker_for(kind, rules, wild, locale))
            paste(canvas, sprite, left + i * per, bottom - small_h)
        right = left - 24

    y = strip_top
    for seat, units, block_h in strip:
        _draw_seat_strip(canvas, draw, public, seat, units, y, block_h, names, locale, layout)
        y += block_h
    if legend:
        sprite = tile_sprite(WHITE, 22, WHITE_MARKER)
        paste(canvas, sprite, layout.margin, y + 2)
        draw_text(canvas, legend, layout.margin + 30, y + 2, 20, GOLD)
    return canvas


def offered_claims(view: PlayerView) -> tuple[str, ...]:
    """The claim kinds this seat may make on the offered tile (from its legal actions),
    best first; empty outside a claim window."""
    if view.claim_tile is None:
        return ()
    offered = {action.type for action in view.legal}
    return tuple(kind for kind in _CLAIM_ORDER if kind in offered)


def _claim_source(public: PublicView, claim_tile: int) -> int | None:
    """Who put the offered tile on the table: the seat adding a kong (its exposed pung of
    the tile, still a pung while the kong may be robbed), or the discarder."""
    if public.phase == "rob_kong":
        for seat_view in public.seats:
            if any(m.type == PUNG and m.kind == claim_tile for m in seat_view.melds):
                return seat_view.seat
    if public.last_discard is not None and public.last_discard[1] == claim_tile:
        return public.last_discard[0]
    return public.current_seat


def _draw_prompt(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PlayerView,
    claims: tuple[str, ...],
    names: Sequence[str] | None,
    locale: str,
    top: int,
    layout: _HandLayout,
    rules: type[Variant],
) -> None:
    """The claim window, large: the offered tile, "碰 / 杠 ← 老王" and "from 老王"."""
    assert view.claim_tile is not None
    public = view.public
    tile_h = tile_height(layout.prompt_tile)
    draw.rectangle((0, top, HAND_WIDTH, top + tile_h + 24), fill=PANEL)
    x = layout.margin
    sprite = tile_sprite(
        view.claim_tile, layout.prompt_tile, marker_for(view.claim_tile, rules, public.wild, locale)
    )
    draw.rounded_rectangle(
        (x - 3, top + 9, x + layout.prompt_tile + 2, top + 14 + tile_h),
        10,
        outline=HIGHLIGHT,
        width=4,
    )
    paste(canvas, sprite, x, top + 12)
    x += layout.prompt_tile + 24
    headline, who = claim_headline(view, names, locale)
    draw_text(canvas, label("claim_offer", locale), x, top + 14, 22, MUTED)
    room = HAND_WIDTH - x - layout.margin
    draw_text(canvas, fit_text(headline, 40, room), x, top + 44, 40, HIGHLIGHT)
    if who:
        line = label("discarded_by", locale, name=isolate(who))
        draw_text(canvas, fit_text(line, 22, room), x, top + 100, 22, CREAM)


def claim_headline(
    view: PlayerView, names: Sequence[str] | None = None, locale: str = "zh"
) -> tuple[str, str]:
    """The claim prompt's headline, "碰 / 杠 七条 ← 老王" (only the claims the view's legal
    actions allow, the offered tile, who put it out), and that seat's name."""
    claims = offered_claims(view)
    if view.claim_tile is None or not claims:
        return "", ""
    verbs = " / ".join(word(ACTIONS[kind], locale, short=True) for kind in claims)
    if view.public.phase == "rob_kong":  # the one claim there: a win by robbing the kong
        verbs = label("rob_kong", locale)
    if not locale.lower().startswith("zh"):
        verbs = verbs.title()
    if locale.lower().startswith("zh"):
        tile = chinese(name_zh(view.claim_tile), locale)
    else:
        tile = name_en(view.claim_tile)
    source = _claim_source(view.public, view.claim_tile)
    who = seat_name(names, source, locale) if source is not None else ""
    return (f"{verbs} {tile} ← {who}" if who else f"{verbs} {tile}"), who


def white_legend(view: PlayerView, locale: str = "zh") -> str | None:
    """The legend line under the hand ("白板代财神"), when the image draws a White marked
    代 (standing for the wild's kind), which nothing else on screen explains."""
    rules = get_rules(view.public.variant)
    if not _needs_white_legend(view, rules):
        return None
    return label("white_legend", locale, wild=wild_label(rules, locale))


def _needs_white_legend(view: PlayerView, rules: type[Variant]) -> bool:
    """Whether the image draws a White marked 代 (it stands for the wild's kind): then a
    legend line says so, since nothing else on screen explains the mark."""
    wild = view.public.wild
    if marker_for(WHITE, rules, wild) != WHITE_MARKER:
        return False
    visible: list[int] = [*view.concealed, *([view.drawn] if view.drawn is not None else [])]
    if view.claim_tile is not None:
        visible.append(view.claim_tile)
    for seat_view in view.public.seats:
        visible += [discard.tile for discard in seat_view.discards]
    melds = [*view.melds, *(m for s in view.public.seats for m in s.melds)]
    return WHITE in visible or any(meld.white_as is not None for meld in melds)


# A unit of the table strip, with its width: a meld (its entries, as ``meld_layout`` gives
# them), one discard (kind, claimed, is_last) or a gap between melds and river.
_MeldEntries = list[tuple[int | None, bool, bool]]
_Unit = tuple[str, object, int]


def _strip_layout(
    public: PublicView, seat: int, layout: _HandLayout
) -> list[tuple[SeatView, list[_Unit], int]]:
    """For each other seat in play order: its melds then its river, flowed left to right
    in rows of ``TABLE_TILE`` wide tiles, and the block's height."""
    width = HAND_WIDTH - 2 * layout.margin - layout.name_column
    tile_h = tile_height(TABLE_TILE)
    blocks: list[tuple[SeatView, list[_Unit], int]] = []
    for offset in range(1, public.num_seats):
        seat_view = public.seats[(seat + offset) % public.num_seats]
        units: list[_Unit] = []
        for meld in seat_view.melds:
            entries = meld_layout(meld, seat_view.seat, public.num_seats, own=False)
            units.append(("meld", entries, meld_width(entries, TABLE_TILE) + 10))
        if units:
            units.append(("gap", None, 14))
        last = len(seat_view.discards) - 1
        for index, discard in enumerate(seat_view.discards):
            is_last = (
                public.last_discard is not None
                and public.last_discard[0] == seat_view.seat
                and index == last
                and not discard.claimed
            )
            units.append(("discard", (discard.tile, discard.claimed, is_last), TABLE_TILE))
        rows, row_w = 1, 0
        for _kind, _payload, unit_w in units:
            if row_w + unit_w > width and row_w > 0:
                rows, row_w = rows + 1, 0
            row_w += unit_w
        blocks.append((seat_view, units, max(rows * (tile_h + 6), 64) + 14))
    return blocks


def _draw_seat_strip(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    public: PublicView,
    seat_view: SeatView,
    units: list[_Unit],
    top: int,
    block_h: int,
    names: Sequence[str] | None,
    locale: str,
    layout: _HandLayout,
) -> None:
    rules, wild = get_rules(public.variant), public.wild
    # Its turn, or (a claim, a robbed kong, 三摊) the table waits for its answer.
    is_turn = public.current_seat == seat_view.seat
    is_waited_on = seat_view.seat in public.waiting_on
    draw.rectangle((0, top, HAND_WIDTH, top + block_h - 6), fill=PANEL_DARK)
    if is_turn or is_waited_on:
        draw.rectangle((0, top, 8, top + block_h - 6), fill=HIGHLIGHT)
    x: float = layout.margin
    fill = RED_BADGE if seat_view.is_dealer else PANEL_EDGE
    x += badge(draw, canvas, x, top + 8, wind_name(seat_view.seat_wind, locale), fill, 20) + 6
    if is_turn:
        badge(draw, canvas, x, top + 8, label("turn", locale), HIGHLIGHT, 18, (40, 30, 10))
    elif is_waited_on:
        badge(draw, canvas, x, top + 8, label("waiting_on", locale), PANEL_EDGE, 18)
    elif seat_view.folded:  # 三摊: it chose not to go on, and pays nothing
        badge(draw, canvas, x, top + 8, label("folded", locale), PANEL_EDGE, 18, MINUS)
    elif seat_view.liable_with:  # 三摊: liable to these seats, as the table image says
        partners = " ".join(
            wind_name(public.seats[other].seat_wind, locale) for other in seat_view.liable_with
        )
        text = f"{label('liable', locale)} {partners}"
        badge(draw, canvas, x, top + 8, text, PANEL_EDGE, 18, MINUS)
    name = fit_text(isolate(seat_name(names, seat_view.seat, locale)), 20, layout.name_column - 8)
    draw_text(canvas, name, layout.margin, top + 42, 20, CREAM)
    left = layout.margin + layout.name_column
    right = HAND_WIDTH - layout.margin
    tile_h = tile_height(TABLE_TILE)
    x, y = left, top + 6
    for kind, payload, unit_w in units:
        if x + unit_w > right and x > left:
            x, y = left, y + tile_h + 6
        if kind == "meld":
            draw_meld(canvas, cast(_MeldEntries, payload), x, y + tile_h, TABLE_TILE)
        elif kind == "discard":
            tile, claimed, is_last = cast(tuple[int, bool, bool], payload)
            sprite = tile_sprite(
                tile, TABLE_TILE, marker_for(tile, rules, wild, locale), dimmed=claimed
            )
            paste(canvas, sprite, x, y)
            if is_last:
                draw.rounded_rectangle(
                    (x - 2, y - 2, x + TABLE_TILE + 1, y + tile_h + 1),
                    6,
                    outline=LAST_DISCARD,
                    width=4,
                )
        x += unit_w
