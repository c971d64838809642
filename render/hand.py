"""The private hand image: a seat's concealed tiles, the drawn tile set apart, its melds,
the indicator and the wild, and what it waits on (beside the hand, or right under it);
during a claim window the offered tile, large, with who discarded it and the claims this
seat can make; below, the table as seen from the seat: the seat's own river first (with
its 不跟 / 承包 state), as at a real table, where a player's discards lie in front of them
(a skipped win (过胡) reads against them, and defence too), then each other seat a band
with its name, whose turn, its hidden tiles as a number, its melds and its whole river in
rows, the last discard framed.

Drawn for a phone, which shows the 1000 px wide image at about 36 %: text 30 to 44 px,
the tiles a player reads (indicator, wild, waits, the others' rivers) 52 to 60 px wide.

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
    ink_top,
    marker_for,
    meld_layout,
    meld_width,
    palette_canvas,
    paste,
    seat_name,
    surface_draw,
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
from .tiles import WHITE_MARKER, back_sprite, tile_height, tile_sprite

# Claims in the order a player weighs them; the prompt names only those the view offers.
_CLAIM_ORDER = (WIN, KONG, PUNG, CHOW)
# The table strip: tiles this wide (22 CSS px on a 360 px wide phone, which shows the
# image at 36 %: a river read for defence, not glimpsed).
TABLE_TILE = 60


@dataclass(frozen=True)
class _HandLayout:
    """Sizes in source pixels, chosen for a phone that shows the image at about 36 %:
    important text 33 to 44 px (12 to 16 CSS px), none under 30 (11 CSS px), the tiles a
    player reads at a glance (indicator, wild, waits) at least 52 wide."""

    tile: int = 74
    gap: int = 24
    meld_tile: int = 56
    aside_tile: int = 56  # the waits, the tile on offer, skipped wins
    header_tile: int = 52  # the indicator and the wild
    margin: int = 24
    prompt_tile: int = 120
    header_row: int = 84  # seat, name, turn; indicator and wild at the right
    header_row2: int = 52  # rule set and hand number; tiles left at the right
    name_size: int = 40
    important: int = 36  # tiles left, the waits' caption
    text: int = 30  # the rule set and hand number, labels, the legend
    headline: int = 44  # the claim prompt's
    badge: int = 30
    strip_head: int = 50  # a seat's line in the strip: wind, name, status, hidden count
    strip_name: int = 32
    strip_badge: int = 30
    strip_status: int = 30
    strip_back: int = 30  # the back drawn before "×10"

    @property
    def header_h(self) -> int:
        return self.header_row + self.header_row2


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
        compose_hand(
            view,
            names=names,
            locale=locale,
            highlight=highlight,
            show_legal=show_legal,
            palette=True,
        )
    )


# A block beside or under the hand: caption, the tiles it may show, how many there are
# in all, its colour.
_Aside = tuple[str, tuple[int, ...], int, Color]


def compose_hand(
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    highlight: Iterable[int] | None = None,
    show_legal: bool = True,
    palette: bool = False,
) -> Image.Image:
    """The hand image as an RGB image, or with ``palette`` composed on the shared palette
    (``render.layout.palette_canvas``), as the table is: the same pixels that mapping the
    RGB image would give, without the mapping, which grew with the phone-first image."""
    public = view.public
    layout = _HandLayout()
    rules, wild = get_rules(public.variant), public.wild
    # As large as the row allows (a phone shrinks the image), up to layout.tile.
    count = len(view.concealed) + (1 if view.drawn is not None else 0)
    room = HAND_WIDTH - 2 * layout.margin - layout.gap
    tile_w = max(40, min(layout.tile, room // max(1, count)))
    tile_h = tile_height(tile_w)
    aside_h = tile_height(layout.aside_tile)
    per = layout.aside_tile + 2

    claims = offered_claims(view)
    prompt_h = tile_height(layout.prompt_tile) + 28 if claims else 0
    # The waits, the tile on offer (no claim on it) and skipped wins: beside the hand
    # where they fit, else in a row right under it, where the eye is either way.
    info: list[_Aside] = []
    if view.claim_tile is not None and not claims:
        info.append((label("claim_tile", locale), (view.claim_tile,), 1, HIGHLIGHT))
    if view.waits and show_legal:
        info.append((label("waits", locale), tuple(view.waits), len(view.waits), GOLD))
    if view.skipped_win:
        skipped = tuple(view.skipped_win)
        info.append((label("skipped_win", locale), skipped, len(skipped), MINUS))
    hand_w = count * tile_w + (layout.gap if view.drawn is not None else 0)
    beside_w = sum(
        max(len(kinds) * per, text_width(caption, layout.important)) + 24
        for caption, kinds, _n, _c in info
    )
    beside = bool(info) and hand_w + 8 + beside_w <= HAND_WIDTH - 2 * layout.margin
    caption_h = round(1.45 * layout.important)
    lift = 26  # room for lifted tiles (a hint)
    if beside:
        lift = max(lift, aside_h + caption_h - tile_h + 6)
    hand_top = layout.header_h + prompt_h + lift
    hand_bottom = hand_top + tile_h
    below = hand_bottom + (round(1.45 * layout.text) + 4 if view.drawn is not None else 14)
    under_top = below + 4
    melds_top = under_top + (aside_h + 16 if info and not beside else 0)
    meld_h = tile_height(layout.meld_tile)
    own_bottom = melds_top + (meld_h + 16 if view.melds else 0)
    strip = _strip_layout(public, view.seat, layout, locale)
    strip_top = max(own_bottom, below) + 12
    legend = white_legend(view, locale)
    legend_h = 56 if legend else 0
    height = strip_top + sum(band.height for band in strip) + legend_h + 12
    size = (HAND_WIDTH, height)
    canvas = palette_canvas(size, FELT) if palette else Image.new("RGB", size, FELT)
    draw = surface_draw(canvas)

    _draw_header(canvas, draw, view, names, locale, layout, rules)
    if claims:
        _draw_prompt(canvas, draw, view, claims, names, locale, layout.header_h, layout, rules)

    # The concealed row, and the blocks beside it when they fit.
    must_discard = any(action.type == DISCARD for action in view.legal)
    legal_discards = {action.tile for action in view.legal if action.type == DISCARD}
    lifted = set(highlight or ())
    # Wilds first, as players arrange them; the rest in suit order.
    tiles = sorted(view.concealed, key=lambda kind: (kind != wild, kind))
    group_w = hand_w + (8 + beside_w if beside else 0)
    x = max(layout.margin, (HAND_WIDTH - group_w) // 2)
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
            layout.text,
            MUTED,
            anchor="m",
        )
    if beside:
        left = x + hand_w + 32
        for caption, kinds, _total, color in info:
            top = hand_bottom - aside_h
            draw_text(canvas, caption, left, top - caption_h, layout.important, color)
            for i, kind in enumerate(kinds):
                sprite = tile_sprite(kind, layout.aside_tile, marker_for(kind, rules, wild, locale))
                paste(canvas, sprite, left + i * per, top)
            left += max(len(kinds) * per, text_width(caption, layout.important)) + 24
    elif info:
        _draw_aside_row(canvas, info, under_top, layout, rules, wild, locale)

    # The seat's melds, in a row of their own.
    meld_entries = [meld_layout(m, view.seat, public.num_seats, own=True) for m in view.melds]
    meld_w = fit_meld_width(meld_entries, HAND_WIDTH - 2 * layout.margin, layout.meld_tile, 16)
    meld_x = float(layout.margin)
    for entries in meld_entries:
        meld_x = draw_meld(canvas, entries, meld_x, melds_top + meld_h, meld_w) + 16

    y = strip_top
    for band in strip:
        if band.own:
            _draw_own_river(canvas, draw, public, band, y, locale, layout)
        else:
            _draw_seat_strip(canvas, draw, public, band, y, names, locale, layout)
        y += band.height
    if legend:
        back = tile_height(layout.strip_back)
        sprite = tile_sprite(WHITE, layout.strip_back, WHITE_MARKER)
        paste(canvas, sprite, layout.margin, y + (legend_h - back) // 2)
        text_x = layout.margin + layout.strip_back + 12
        draw_text(canvas, legend, text_x, ink_top(y + legend_h / 2, layout.text), layout.text, GOLD)
    return canvas


def _draw_aside_row(
    canvas: Image.Image,
    info: list[_Aside],
    top: int,
    layout: _HandLayout,
    rules: type[Variant],
    wild: int | None,
    locale: str,
) -> None:
    """The blocks under the hand in one row, each caption before its tiles; a list cut
    short says how many more there are (a wait list read as complete misleads)."""
    per = layout.aside_tile + 2
    center = top + tile_height(layout.aside_tile) / 2
    x = float(layout.margin)
    right = HAND_WIDTH - layout.margin
    # A block's least width: its caption (with a count) and one tile.
    least = [
        text_width(f"{caption} +{total}", layout.important) + 12 + per + 28
        for caption, _kinds, total, _color in info
    ]
    for index, (caption, kinds, total, color) in enumerate(info):
        room = right - x - sum(least[index + 1 :])  # leave the later blocks their least
        caption_w = least[index] - per - 28
        shown = kinds[: max(1, int((room - caption_w) // per))]
        if len(shown) < total:
            caption = f"{caption} +{total - len(shown)}"
        x += draw_text(
            canvas, caption, x, ink_top(center, layout.important), layout.important, color
        )
        x += 12
        for kind in shown:
            sprite = tile_sprite(kind, layout.aside_tile, marker_for(kind, rules, wild, locale))
            paste(canvas, sprite, x, top)
            x += per
        x += 28


def _draw_header(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PlayerView,
    names: Sequence[str] | None,
    locale: str,
    layout: _HandLayout,
    rules: type[Variant],
) -> None:
    """Two rows: the seat (wind, dealer, name, whose turn) with the indicator and the
    wild at the right; the rule set and hand number with the tiles left at the right.
    The right side is drawn first, so the left knows where it must stop."""
    public = view.public
    wild = public.wild
    seat_view = public.seats[view.seat]
    draw.rectangle((0, 0, HAND_WIDTH, layout.header_h), fill=PANEL_DARK)
    center = layout.header_row / 2
    label_top = ink_top(center, layout.text)
    small = layout.header_tile
    small_top = center - tile_height(small) / 2
    right = HAND_WIDTH - layout.margin
    if wild is not None:
        right -= small
        wild_marker = marker_for(wild, rules, wild, locale)
        paste(canvas, tile_sprite(wild, small, wild_marker), right, small_top)
        text = wild_label(rules, locale)
        right -= draw_text(canvas, text, right - 10, label_top, layout.text, GOLD, anchor="r")
        right -= 30
    right -= small
    paste(canvas, tile_sprite(public.indicator, small), right, small_top)
    text = label("indicator", locale)
    right -= draw_text(canvas, text, right - 10, label_top, layout.text, MUTED, anchor="r") + 30

    x: float = layout.margin
    badge_top = center - (layout.badge + 12) / 2
    wind = wind_name(seat_view.seat_wind, locale)
    x += badge(draw, canvas, x, badge_top, wind, PANEL_EDGE, layout.badge) + 8
    if seat_view.is_dealer:
        x += badge(draw, canvas, x, badge_top, label("dealer", locale), RED_BADGE, layout.badge)
        x += 8
    turn = label("turn", locale) if public.current_seat == view.seat else ""
    turn_w = badge_width(turn, layout.badge) + 12 if turn else 0
    name_room = int(right - x - 12 - turn_w)
    name = isolate(seat_name(names, view.seat, locale))
    name = fit_text(name, layout.name_size, max(60, name_room))
    name_top = ink_top(center, layout.name_size)
    x += draw_text(canvas, name, x + 4, name_top, layout.name_size) + 16
    if turn:
        badge(draw, canvas, x, badge_top, turn, HIGHLIGHT, layout.badge, (40, 30, 10))

    # The second row.
    center = layout.header_row + layout.header_row2 / 2 - 4
    tiles_left = f"{label('tiles_left', locale)} {public.tiles_left}"
    left_top = ink_top(center, layout.important)
    right = HAND_WIDTH - layout.margin
    right -= draw_text(canvas, tiles_left, right, left_top, layout.important, anchor="r") + 30
    hand_no = label("hand_no", locale, n=public.hand_number + 1)
    title = f"{rule_set_name(rules, locale)} · {hand_no}"
    room = right - layout.margin
    if text_width(title, layout.text) > room:
        title = hand_no  # the rule set's name gives way first: the table says it too
    title_top = ink_top(center, layout.text)
    draw_text(
        canvas, fit_text(title, layout.text, room), layout.margin, title_top, layout.text, MUTED
    )


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
    draw.rectangle((0, top, HAND_WIDTH, top + tile_h + 28), fill=PANEL)
    x = layout.margin
    sprite = tile_sprite(
        view.claim_tile, layout.prompt_tile, marker_for(view.claim_tile, rules, public.wild, locale)
    )
    draw.rounded_rectangle(
        (x - 3, top + 11, x + layout.prompt_tile + 2, top + 16 + tile_h),
        10,
        outline=HIGHLIGHT,
        width=4,
    )
    paste(canvas, sprite, x, top + 14)
    x += layout.prompt_tile + 28
    headline, who = claim_headline(view, names, locale)
    draw_text(canvas, label("claim_offer", locale), x, top + 12, layout.text, MUTED)
    room = HAND_WIDTH - x - layout.margin
    size = layout.headline
    draw_text(canvas, fit_text(headline, size, room), x, top + 54, size, HIGHLIGHT)
    if who:
        line = label("discarded_by", locale, name=isolate(who))
        size = layout.strip_name
        draw_text(canvas, fit_text(line, size, room), x, top + 126, size, CREAM)


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
_BAND_PAD = 8  # the own river's band: above its first row and below its last


@dataclass(frozen=True)
class _Band:
    """One seat's band in the strip: its units flowed in rows and its height. The seat's
    own band (``own``) has no line of its own: its head (wind, "你的弃牌", 不跟 / 承包)
    starts the first row, ``lead`` px wide, so the river costs a row, not a row and a
    line (its melds and hidden tiles are the hand above)."""

    seat_view: SeatView
    units: list[_Unit]
    height: int
    own: bool = False
    lead: int = 0


def _river_units(public: PublicView, seat_view: SeatView) -> list[_Unit]:
    """A seat's discards as strip units, its latest framed while it is the last discard."""
    units: list[_Unit] = []
    last = len(seat_view.discards) - 1
    for index, discard in enumerate(seat_view.discards):
        is_last = (
            public.last_discard is not None
            and public.last_discard[0] == seat_view.seat
            and index == last
            and not discard.claimed
        )
        units.append(("discard", (discard.tile, discard.claimed, is_last), TABLE_TILE))
    return units


def _rows(units: list[_Unit], width: int, lead: int = 0) -> int:
    """How many rows ``units`` take flowed across ``width`` px, the first ``lead`` px in."""
    if not units:
        return 0
    rows, row_w = 1, lead
    for _kind, _payload, unit_w in units:
        if row_w + unit_w > width and row_w > 0:
            rows, row_w = rows + 1, 0
        row_w += unit_w
    return rows


def _seat_state(public: PublicView, seat_view: SeatView, locale: str) -> str:
    """三摊 (RULES.md §1): 不跟 (it chose not to go on, and pays nothing) or 承包 and the
    seats it is liable to, as the table image says; else empty."""
    if seat_view.folded:
        return label("folded", locale)
    if seat_view.liable_with:
        partners = " ".join(
            wind_name(public.seats[other].seat_wind, locale) for other in seat_view.liable_with
        )
        return f"{label('liable', locale)} {partners}"
    return ""


def _own_head(
    public: PublicView, seat_view: SeatView, locale: str, layout: _HandLayout
) -> tuple[str, str, str, int]:
    """The own band's head: its wind, its caption, its state, and the width they take
    with the space before the first tile."""
    wind = wind_name(seat_view.seat_wind, locale)
    caption = label("own_discards", locale)
    state = _seat_state(public, seat_view, locale)
    lead = badge_width(wind, layout.strip_badge) + 10 + text_width(caption, layout.strip_name)
    if state:
        lead += 12 + badge_width(state, layout.strip_status)
    return wind, caption, state, lead + 20


def _strip_layout(public: PublicView, seat: int, layout: _HandLayout, locale: str) -> list[_Band]:
    """The seat's own river, when it has discarded (or is 不跟 / 承包), then each other seat
    in play order: a line (wind, name, status, hidden count), then its melds and its
    whole river flowed left to right in rows of ``TABLE_TILE`` wide tiles across the
    image (15 a row: a late river takes two)."""
    width = HAND_WIDTH - 2 * layout.margin
    row_h = tile_height(TABLE_TILE) + 4
    bands: list[_Band] = []
    own_view = public.seats[seat]
    own_units = _river_units(public, own_view)
    if own_units or _seat_state(public, own_view, locale):
        lead = _own_head(public, own_view, locale, layout)[3]
        rows = max(1, _rows(own_units, width, lead))
        height = 2 * _BAND_PAD + rows * row_h + 6  # 6: the gap to the next band
        bands.append(_Band(own_view, own_units, height, own=True, lead=lead))
    for offset in range(1, public.num_seats):
        seat_view = public.seats[(seat + offset) % public.num_seats]
        units: list[_Unit] = []
        for meld in seat_view.melds:
            entries = meld_layout(meld, seat_view.seat, public.num_seats, own=False)
            units.append(("meld", entries, meld_width(entries, TABLE_TILE) + 10))
        if units:
            units.append(("gap", None, 14))
        units += _river_units(public, seat_view)
        height = layout.strip_head + _rows(units, width) * row_h + 10
        bands.append(_Band(seat_view, units, height))
    return bands


def _draw_own_river(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    public: PublicView,
    band: _Band,
    top: int,
    locale: str,
    layout: _HandLayout,
) -> None:
    """The seat's own discards, led by its wind, "你的弃牌" and its 三摊 state."""
    draw.rectangle((0, top, HAND_WIDTH, top + band.height - 6), fill=PANEL_DARK)
    wind, caption, state, _lead = _own_head(public, band.seat_view, locale, layout)
    tiles_top = top + _BAND_PAD
    center = tiles_top + tile_height(TABLE_TILE) / 2
    x: float = layout.margin
    fill = RED_BADGE if band.seat_view.is_dealer else PANEL_EDGE
    size = layout.strip_badge
    x += badge(draw, canvas, x, center - (size + 12) / 2, wind, fill, size) + 10
    size = layout.strip_name
    x += draw_text(canvas, caption, x, ink_top(center, size), size, MUTED) + 12
    if state:
        size = layout.strip_status
        badge(draw, canvas, x, center - (size + 12) / 2, state, PANEL_EDGE, size, MINUS)
    _draw_units(canvas, draw, public, band.units, layout.margin + band.lead, tiles_top, locale,
                layout)  # fmt: skip


def _draw_units(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    public: PublicView,
    units: list[_Unit],
    x: float,
    y: float,
    locale: str,
    layout: _HandLayout,
) -> None:
    """A band's melds and river from (``x``, ``y``), wrapping to the left margin."""
    rules, wild = get_rules(public.variant), public.wild
    left = layout.margin
    tile_h = tile_height(TABLE_TILE)
    for kind, payload, unit_w in units:
        if x + unit_w > HAND_WIDTH - layout.margin and x > left:
            x, y = left, y + tile_h + 4
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


def _draw_seat_strip(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    public: PublicView,
    band: _Band,
    top: int,
    names: Sequence[str] | None,
    locale: str,
    layout: _HandLayout,
) -> None:
    seat_view, block_h = band.seat_view, band.height
    # Its turn, or (a claim, a robbed kong, 三摊) the table waits for its answer.
    is_turn = public.current_seat == seat_view.seat
    is_waited_on = seat_view.seat in public.waiting_on
    draw.rectangle((0, top, HAND_WIDTH, top + block_h - 6), fill=PANEL_DARK)
    if is_turn or is_waited_on:
        draw.rectangle((0, top, 8, top + block_h - 6), fill=HIGHLIGHT)
    center = top + layout.strip_head / 2 + 2
    # The hidden count at the right: a back and "×10", a number rather than a row of
    # backs nobody can count on a phone.
    right = HAND_WIDTH - layout.margin
    hidden = f"×{seat_view.concealed_count}"
    text_top = ink_top(center, layout.strip_name)
    draw_text(canvas, hidden, right, text_top, layout.strip_name, CREAM, anchor="r")
    right -= max(text_width(hidden, layout.strip_name), text_width("×13", layout.strip_name)) + 6
    back_h = tile_height(layout.strip_back)
    paste(canvas, back_sprite(layout.strip_back), right - layout.strip_back, center - back_h / 2)
    right -= layout.strip_back + 24

    x: float = layout.margin
    fill = RED_BADGE if seat_view.is_dealer else PANEL_EDGE
    wind = wind_name(seat_view.seat_wind, locale)
    size = layout.strip_badge
    x += badge(draw, canvas, x, center - (size + 12) / 2, wind, fill, size) + 10
    status, status_fill, status_color = "", PANEL_EDGE, CREAM
    if is_turn:
        status, status_fill, status_color = label("turn", locale), HIGHLIGHT, (40, 30, 10)
    elif is_waited_on:
        status = label("waiting_on", locale)
    elif state := _seat_state(public, seat_view, locale):
        status, status_color = state, MINUS
    size = layout.strip_status
    status_w = badge_width(status, size) + 12 if status else 0
    name = isolate(seat_name(names, seat_view.seat, locale))
    name = fit_text(name, layout.strip_name, max(60, int(right - x - status_w)))
    x += draw_text(canvas, name, x, text_top, layout.strip_name, CREAM) + 12
    if status:
        badge(draw, canvas, x, center - (size + 12) / 2, status, status_fill, size, status_color)

    _draw_units(canvas, draw, public, band.units, layout.margin, top + layout.strip_head, locale,
                layout)  # fmt: skip
