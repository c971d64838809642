"""The public table image, drawn for a phone: a header band with the hand's facts, then
one full-width band per seat in play order from East.

Discord shows a 1000 px wide image about 360 CSS px wide on a phone (36 %). The square
"around the table" picture that came before set one river tile size by its narrow side
panels (13 to 17 CSS px), drew hidden tiles as rows of 6 px backs and its labels at 6 to
8 CSS px: unreadable on a phone. Here every seat has the whole width, so its river runs
in rows of 13 or 14 tiles of at least 56 px (20 CSS px), its hidden tiles are one back and
a number, and every text is 28 px (10 CSS px) or more, names and scores 34 to 36.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.replay import RevealedSeat
from engine.types import Meld
from engine.variants import Variant, get_rules
from engine.views import PublicView, SeatView

from .bidi import isolate
from .layout import (
    CREAM,
    FELT,
    GOLD,
    HIGHLIGHT,
    LAST_DISCARD,
    MINUS,
    MUTED,
    PANEL,
    PANEL_DARK,
    PANEL_EDGE,
    RED_BADGE,
    TABLE_SIZE,
    badge,
    draw_meld,
    draw_text,
    encode_png,
    marker_for,
    meld_layout,
    meld_width,
    net_color,
    palette_canvas,
    paste,
    seat_name,
    signed,
    surface_draw,
)
from .text import Color, fit_text, label, rule_set_name, text_width, wild_label, wind_name
from .tiles import back_sprite, tile_height, tile_sprite

WIDTH = TABLE_SIZE
MARGIN = 6  # felt around and between the bands
PAD = 9  # inside a band
BOTTOM_PAD = PAD - 2  # under a river's last row (tiles draw their own shadow edge)
INNER = WIDTH - 2 * MARGIN - 2 * PAD  # a band's drawable width

# Text sizes (source px; a phone shows 36 % of them): nothing under 28.
TITLE_SIZE = 36  # the rule set's name
NAME_SIZE = 34
SCORE_SIZE = 36
COUNT_SIZE = 36  # hidden tiles "×10"
TAG_SIZE = 30  # turn, waiting, folded, liable
BADGE_SIZE = 28  # wind, dealer and viewer badges
BADGE_H = 42
CAPTION_SIZE = 28  # header captions (翻牌, 余牌, 番池, 骰子), the hand and round line
VALUE_SIZE = 40  # tiles left, the pool
TURN_SIZE = 36  # whose turn, in the header
TURN_ROOM = 250  # the least width whose turn keeps in the header

HEADER_H = 116  # the header band's height
INFO_H = 77  # a seat's two lines: badges and name; score and state
LINE2_Y = 41  # the second line's top inside the info block

RIVER_MAX = 72  # a river tile's width when the rivers are short
RIVER_MIN = 56  # the smallest a river tile gets before rows of 14 give way (20 CSS px)
RIVER_FLOOR = 36  # very long rivers (a two-seat wall) shrink down to this
ROW_CAP = 14  # tiles a river row holds at RIVER_MIN and above
ROW_GAP = 2
RIVER_GAP = 4  # between a seat's top lines and its river
MELD_MAX = 52  # hidden-count back, melds and an open hand beside the name
MELD_MIN = 38
INFO_MIN = 330  # what the badges, name, score and state keep beside the hand
INFO_MAX = 480  # past this a long name is cut rather than the hand's tiles shrunk
BACK_W = 34  # the one back drawn before the hidden count
HAND_ROW_H = tile_height(MELD_MAX) + 8  # a hand on a row of its own, whatever its tiles


def _river_budget(num_seats: int) -> int:
    """The height a seat's river may take before its tiles shrink: two rows of 56 px
    tiles at four seats (so a late hand stays about 1,150 px tall), more with fewer."""
    rows = {4: 2, 3: 3}.get(num_seats, 4)
    return rows * tile_height(RIVER_MIN) + (rows - 1) * ROW_GAP


def _river_fit(count: int, num_seats: int, width: int = INNER) -> tuple[int, int, int]:
    """(tile width, tiles a row, rows) for rivers of up to ``count`` tiles: the largest
    tile whose rows fit the seat's budget, rows of at most 14 while tiles are 56 px or
    more; past that (a very long river) smaller tiles and longer rows."""
    budget = _river_budget(num_seats)
    for tile_w in range(RIVER_MAX, RIVER_FLOOR - 1, -1):
        per_row = width // tile_w
        if tile_w >= RIVER_MIN:
            per_row = min(per_row, ROW_CAP)
        rows = max(1, math.ceil(count / per_row))
        if rows * tile_height(tile_w) + (rows - 1) * ROW_GAP <= budget:
            return tile_w, per_row, rows
    per_row = width // RIVER_FLOOR
    return RIVER_FLOOR, per_row, max(1, math.ceil(count / per_row))


def _river_height(tile_w: int, rows: int) -> int:
    return rows * tile_height(tile_w) + (rows - 1) * ROW_GAP


# --------------------------------------------------------------------------- a seat's hand


@dataclass(frozen=True)
class HandFit:
    """How a band draws a seat's hand (the hidden count, or the open tiles of a finished
    hand, and the melds): its tiles' width, the width it takes (right-aligned beside the
    name, its tiles from that edge) and whether it takes a row of its own instead."""

    tile_w: int
    width: int
    own_row: bool  # too wide beside the name: a row of its own under it


def _meld_entries(
    view: PublicView, seat: int, melds: Sequence[Meld], own: bool
) -> list[list[tuple[int | None, bool, bool]]]:
    return [meld_layout(meld, seat, view.num_seats, own=own) for meld in melds]


def _hidden_width(count: int, revealed: RevealedSeat | None, tile_w: int) -> int:
    if revealed is not None:
        faces = len(revealed.concealed) + (1 if revealed.drawn is not None else 0)
        return faces * tile_w + (8 if revealed.drawn is not None else 0)
    return BACK_W + 6 + text_width(f"×{count}", COUNT_SIZE)


def _hand_width(
    count: int,
    revealed: RevealedSeat | None,
    entries: list[list[tuple[int | None, bool, bool]]],
    tile_w: int,
) -> int:
    return _hidden_width(count, revealed, tile_w) + sum(
        14 + meld_width(meld, tile_w) for meld in entries
    )


def _badge_width(text: str) -> int:
    """A seat badge's width: a pill with more room around its glyph than
    ``layout.badge`` leaves at this size, so that no corner of a 28 px character pokes
    out of the rounded ends (composing on the palette blends each sprite over the one
    colour under it, and then must find only the badge there)."""
    return max(BADGE_H + 6, text_width(text, BADGE_SIZE) + 24)


def _badge(
    draw: ImageDraw.ImageDraw, canvas: Image.Image, x: float, y: float, text: str, fill: Color
) -> int:
    """A seat's wind, dealer or viewer badge; returns its width."""
    return badge(
        draw, canvas, x, y, text, fill, BADGE_SIZE, width=_badge_width(text), height=BADGE_H
    )


def _line_one_width(seat_view: SeatView, name: str, locale: str, viewer: bool) -> int:
    """How wide the badges and the whole name are on a seat's first line."""
    width = _badge_width(wind_name(seat_view.seat_wind, locale)) + 8
    if seat_view.is_dealer:
        width += _badge_width(label("dealer", locale)) + 8
    if viewer:
        width += _badge_width(label("your_seat", locale)) + 8
    return width + text_width(name, NAME_SIZE) + 8


def _plan_hand(
    view: PublicView,
    seat_view: SeatView,
    revealed: RevealedSeat | None,
    name_width: int,
    fixed: HandFit | None = None,
) -> tuple[HandFit, list[list[tuple[int | None, bool, bool]]]]:
    """The hand beside the name at the largest tile width that leaves the whole name
    (``name_width``, up to INFO_MAX) its room, else at the largest that leaves INFO_MIN
    (the name cut short), else on a row of its own (four melds, an open hand with melds);
    ``fixed``: the tile width, room and row a replay keeps for the seat in every frame."""
    own = revealed is not None
    melds = revealed.melds if revealed is not None else seat_view.melds
    entries = _meld_entries(view, seat_view.seat, melds, own)
    count = seat_view.concealed_count
    if fixed is not None:
        width = _hand_width(count, revealed, entries, fixed.tile_w)
        return HandFit(fixed.tile_w, max(width, fixed.width), fixed.own_row), entries
    for info in (max(INFO_MIN, min(name_width, INFO_MAX)), INFO_MIN):
        for tile_w in range(MELD_MAX, MELD_MIN - 1, -1):
            width = _hand_width(count, revealed, entries, tile_w)
            if width + 20 <= INNER - info:
                return HandFit(tile_w, width, False), entries
    for tile_w in range(MELD_MAX, 23, -1):
        width = _hand_width(count, revealed, entries, tile_w)
        if width <= INNER:
            break
    return HandFit(tile_w, width, True), entries


def _draw_hand(
    canvas: Image.Image,
    view: PublicView,
    seat_view: SeatView,
    revealed: RevealedSeat | None,
    hand: HandFit,
    entries: list[list[tuple[int | None, bool, bool]]],
    x: float,
    bottom: float,
    locale: str,
) -> None:
    """Hidden tiles as one back and a number (face up in a finished hand's replay, the
    drawn tile a little apart), then the melds, every tile standing on ``bottom``."""
    tile_w = hand.tile_w
    tile_h = tile_height(tile_w)
    if revealed is not None:
        rules = get_rules(view.variant)
        kinds = list(revealed.concealed)
        for kind in kinds:
            paste(canvas, tile_sprite(kind, tile_w, marker_for(kind, rules, view.wild, locale)),
                  x, bottom - tile_h)  # fmt: skip
            x += tile_w
        if revealed.drawn is not None:
            x += 8
            marker = marker_for(revealed.drawn, rules, view.wild, locale)
            paste(canvas, tile_sprite(revealed.drawn, tile_w, marker), x, bottom - tile_h)
            x += tile_w
    else:
        back_h = tile_height(BACK_W)
        middle = bottom - tile_h / 2
        paste(canvas, back_sprite(BACK_W), x, middle - back_h / 2)
        x += BACK_W + 6
        x += draw_text(canvas, f"×{seat_view.concealed_count}", x, middle - COUNT_SIZE * 0.72,
                       COUNT_SIZE)  # fmt: skip
    for meld in entries:
        x = draw_meld(canvas, meld, x + 14, bottom, tile_w)


# --------------------------------------------------------------------------- a seat's band


@dataclass(frozen=True)
class _Band:
    seat_view: SeatView
    hand: HandFit
    entries: list[list[tuple[int | None, bool, bool]]]
    height: int


def _top_height(hand: HandFit) -> int:
    return INFO_H + (HAND_ROW_H if hand.own_row else 0)


def _band_height(hand: HandFit, river_h: int) -> int:
    return PAD + _top_height(hand) + RIVER_GAP + river_h + BOTTOM_PAD


def _state(view: PublicView, seat_view: SeatView, locale: str) -> tuple[str, Color]:
    """The word under a seat's name: a seat that folded its three-claim stays folded
    whatever it is asked, else its turn, else that the table waits for it."""
    is_turn = view.current_seat == seat_view.seat and view.phase == "turn"
    waiting = seat_view.seat in view.waiting_on and view.phase != "turn"
    if seat_view.folded:
        return label("folded", locale), MUTED
    if is_turn:
        return "▶ " + label("turn", locale), HIGHLIGHT
    if waiting:
        return "… " + label("waiting_on", locale), GOLD
    return "", CREAM


def _draw_band(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    band: _Band,
    top: float,
    name: str,
    locale: str,
    *,
    river_w: int,
    per_row: int,
    viewer: bool,
    revealed: RevealedSeat | None,
) -> None:
    """One seat: wind, dealer, name and score over its state; its hand (a number of
    hidden tiles and its melds) on the right; its river below in rows, in play order."""
    seat_view = band.seat_view
    x0, x1 = MARGIN, WIDTH - MARGIN
    is_turn = view.current_seat == seat_view.seat and view.phase == "turn"
    waiting = seat_view.seat in view.waiting_on and view.phase != "turn"
    outline = HIGHLIGHT if is_turn else GOLD if waiting else PANEL_EDGE
    draw.rounded_rectangle(
        (x0, top, x1, top + band.height), 16, fill=PANEL, outline=outline,
        width=5 if (is_turn or waiting) else 2,
    )  # fmt: skip
    left = x0 + PAD
    right = x1 - PAD
    y = top + PAD

    # The hand, right-aligned beside the two info lines (or on its own row under them).
    hand = band.hand
    hand_h = tile_height(hand.tile_w)
    if hand.own_row:
        hand_x = left
        hand_bottom = y + INFO_H + HAND_ROW_H - 4
        info_right = right
    else:
        hand_x = right - hand.width
        hand_bottom = y + (INFO_H + hand_h) / 2
        info_right = hand_x - 20
    _draw_hand(canvas, view, seat_view, revealed, hand, band.entries, hand_x, hand_bottom, locale)

    # Line 1: wind, dealer (and the viewer's own seat), name.
    x = left
    x += _badge(draw, canvas, x, y, wind_name(seat_view.seat_wind, locale), PANEL_DARK) + 8
    if seat_view.is_dealer:
        x += _badge(draw, canvas, x, y, label("dealer", locale), RED_BADGE) + 8
    if viewer:
        x += _badge(draw, canvas, x, y, label("your_seat", locale), PANEL_EDGE) + 8
    draw_text(canvas, fit_text(name, NAME_SIZE, int(info_right - x - 4)), x + 2, y - 5, NAME_SIZE)

    # Line 2: score, state, liability; the partners go first, then the state's word.
    y2 = y + LINE2_Y
    score_text = signed(seat_view.score)
    x = left + 2
    x += draw_text(canvas, score_text, x, y2 - 8, SCORE_SIZE, net_color(seat_view.score)) + 18
    state, state_color = _state(view, seat_view, locale)
    liable = ""
    if seat_view.liable_with:
        partners = " ".join(
            wind_name(view.seats[s].seat_wind, locale) for s in seat_view.liable_with
        )
        liable = f"{label('liable', locale)} {partners}"
    room = info_right - x
    state_w = text_width(state, TAG_SIZE) + 16 if state else 0
    liable_w = text_width(liable, TAG_SIZE) if liable else 0
    if liable and state_w + liable_w > room:
        liable = label("liable", locale)
        liable_w = text_width(liable, TAG_SIZE)
    if state:
        state = fit_text(state, TAG_SIZE, int(max(0, room - liable_w - 16)))
        x += draw_text(canvas, state, x, y2 - 3, TAG_SIZE, state_color) + 16
    if liable and x + liable_w <= info_right:
        draw_text(canvas, liable, x, y2 - 3, TAG_SIZE, MINUS)

    # The river: rows of ``per_row`` from the left, in the order the tiles were played.
    rules = get_rules(view.variant)
    river_top = y + _top_height(hand) + RIVER_GAP
    tile_h = tile_height(river_w)
    discards = seat_view.discards
    for index, discard in enumerate(discards):
        row, col = divmod(index, per_row)
        tx = left + col * river_w
        ty = river_top + row * (tile_h + ROW_GAP)
        sprite = tile_sprite(
            discard.tile,
            river_w,
            marker_for(discard.tile, rules, view.wild, locale),
            dimmed=discard.claimed,
        )
        paste(canvas, sprite, tx, ty)
        is_last = (
            view.last_discard is not None
            and view.last_discard[0] == seat_view.seat
            and index == len(discards) - 1
            and not discard.claimed
        )
        if is_last:
            draw.rounded_rectangle(
                (tx - 3, ty - 3, tx + river_w + 2, ty + tile_h + 2), 7, outline=LAST_DISCARD,
                width=5,
            )  # fmt: skip


# --------------------------------------------------------------------------- the header


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


def _status(
    view: PublicView,
    names: Sequence[str] | None,
    rules: type[Variant],
    locale: str,
    *,
    short: bool = False,
) -> str:
    """Whose turn it is, who the table waits for, or that the hand is over; ``short``
    names the seats waited for without the word 等待 (their bands say it too)."""
    if view.phase == "turn" and view.current_seat is not None:
        seat = view.current_seat
        wind = wind_name(view.seats[seat].seat_wind, locale)
        return f"{label('turn', locale)} {wind} {isolate(seat_name(names, seat, locale))}"
    if view.phase == "ended":
        return label("ended", locale)
    if view.phase in ("claim", "rob_kong", "santan"):
        key = {"claim": "claim_window", "rob_kong": "rob_kong", "santan": "santan"}[view.phase]
        if key == "claim_window" and rules.discard_wins:
            key = "claim_window_or_win"
        waiting = " ".join(wind_name(view.seats[s].seat_wind, locale) for s in view.waiting_on)
        if short:
            return f"{label(key, locale)} · {waiting}".strip()
        return f"{label(key, locale)} · {label('waiting_on', locale)} {waiting}".strip()
    return ""


def _draw_header(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    top: float,
    names: Sequence[str] | None,
    locale: str,
) -> None:
    """Two lines: the rule set, the hand (and round wind) and whose turn it is; then the
    indicator and wild tiles, tiles left, the pool and the dice."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    draw.rounded_rectangle((x0, top, x1, top + HEADER_H), 16, fill=PANEL_DARK,
                           outline=PANEL_EDGE, width=2)  # fmt: skip
    rules = get_rules(view.variant)
    left, right = x0 + PAD + 4, x1 - PAD - 4
    y = top + 2

    # Line 1: rule set, hand number and round wind; whose turn on the right, keeping at
    # least TURN_ROOM when the hand's line is long (an English round wind), which is then
    # cut instead; a claim window's longer line drops to 30 px, then leaves out 等待
    # (the waiting seats' bands say it), rather than be cut.
    x = left
    x += draw_text(canvas, fit_text(rule_set_name(rules, locale), TITLE_SIZE, 360), x, y,
                   TITLE_SIZE) + 22  # fmt: skip
    line = label("hand_no", locale, n=view.hand_number + 1)
    if rules.has_prevailing_wind:
        line += f" · {label('prevailing', locale)} {wind_name(view.prevailing_wind, locale)}"
    line_size = CAPTION_SIZE
    status = _status(view, names, rules, locale)
    left_over = int(right - x - text_width(line, line_size) - 24)
    status_size = TURN_SIZE
    if view.phase != "turn" and text_width(status, TURN_SIZE) > max(left_over, TURN_ROOM):
        status_size = TAG_SIZE  # a turn keeps its size and cuts the name instead
        if text_width(status, status_size) > max(left_over, TURN_ROOM):
            status = _status(view, names, rules, locale, short=True)
    status_room = max(left_over, min(TURN_ROOM, text_width(status, status_size)))
    line_room = int(right - x - (status_room + 24 if status else 0))
    draw_text(canvas, fit_text(line, line_size, line_room), x, y + 5,
              line_size, MUTED)  # fmt: skip
    if status:
        draw_text(canvas, fit_text(status, status_size, status_room), right,
                  y + (TURN_SIZE - status_size) * 0.75, status_size, HIGHLIGHT,
                  anchor="r")  # fmt: skip

    # Line 2: indicator → wild, the counters, the dice on the right.
    tile_w = 48
    tile_h = tile_height(tile_w)
    row_top = top + 50
    middle = row_top + tile_h / 2
    caption_y = middle - CAPTION_SIZE * 0.75
    x = left
    x += draw_text(canvas, label("indicator", locale), x, caption_y, CAPTION_SIZE, MUTED) + 8
    paste(canvas, tile_sprite(view.indicator, tile_w), x, row_top)
    x += tile_w
    if view.wild is not None:
        if view.wild != view.indicator:
            x += 8
            x += draw_text(canvas, "→", x, middle - 22, 30, MUTED) + 8
        else:
            x += 20
        marker = marker_for(view.wild, rules, view.wild, locale)
        x += draw_text(canvas, wild_label(rules, locale), x, caption_y, CAPTION_SIZE, GOLD) + 8
        paste(canvas, tile_sprite(view.wild, tile_w, marker), x, row_top)
        x += tile_w
    stats = [(label("tiles_left", locale), str(view.tiles_left))]
    if rules.has_carried_fan:
        stats.append((label("pool", locale), str(view.carried_fan)))
    for caption, value in stats:
        x += 36
        x += draw_text(canvas, caption, x, caption_y, CAPTION_SIZE, MUTED) + 10
        x += draw_text(canvas, value, x, middle - VALUE_SIZE * 0.78, VALUE_SIZE, CREAM)
    die = 40
    die_x = right - 2 * die - 8
    _draw_die(draw, die_x, middle - die / 2, die, view.dice[0])
    _draw_die(draw, die_x + die + 8, middle - die / 2, die, view.dice[1])
    draw_text(canvas, label("dice", locale), die_x - 10, caption_y, CAPTION_SIZE, MUTED,
              anchor="r")  # fmt: skip


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class _Plan:
    bands: list[_Band]
    river_w: int
    per_row: int
    height: int  # the table's, without the caller's ``header``


def _plan(
    view: PublicView,
    revealed: Sequence[RevealedSeat] | None,
    river_room: int | None,
    names: Sequence[str] | None,
    locale: str,
    perspective: int | None,
    hands: Mapping[int, HandFit] | None = None,
) -> _Plan:
    longest = max((len(s.discards) for s in view.seats), default=0)
    river_w, per_row, rows = _river_fit(max(longest, river_room or 0), view.num_seats)
    river_h = _river_height(river_w, rows)
    bands = []
    height = MARGIN + HEADER_H
    for offset in range(view.num_seats):  # East (the dealer) first, then in play order
        seat_view = view.seats[(view.dealer + offset) % view.num_seats]
        shown = revealed[seat_view.seat] if revealed is not None else None
        name = isolate(seat_name(names, seat_view.seat, locale))
        viewer = perspective == seat_view.seat
        name_width = _line_one_width(seat_view, name, locale, viewer)
        fixed = hands.get(seat_view.seat) if hands is not None else None
        hand, entries = _plan_hand(view, seat_view, shown, name_width, fixed)
        band = _Band(seat_view, hand, entries, _band_height(hand, river_h))
        bands.append(band)
        height += MARGIN + band.height
    return _Plan(bands, river_w, per_row, height + MARGIN)


def table_fit(
    view: PublicView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int | None = None,
    revealed: Sequence[RevealedSeat] | None = None,
    river_room: int | None = None,
    hands: Mapping[int, HandFit] | None = None,
) -> tuple[int, dict[int, HandFit]]:
    """How tall ``compose_table`` draws ``view`` (without a caption ``header``) and how
    it fits each seat's hand: a replay draws every frame with its tallest frame's
    height and each seat's hand at one tile width, in one place, so that every frame
    of its animation is one size and nothing moves between frames but what was played."""
    plan = _plan(view, revealed, river_room, names, locale, perspective, hands)
    return plan.height, {band.seat_view.seat: band.hand for band in plan.bands}


def render_table(
    view: PublicView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int | None = None,
) -> bytes:
    """The public table as the channel sees it (``perspective``: the seat of the one
    player it is drawn for, whose band says so)."""
    if not isinstance(view, PublicView):
        raise TypeError("render_table takes a PublicView, nothing else")
    return encode_png(
        compose_table(view, names=names, locale=locale, perspective=perspective, palette=True)
    )


def compose_table(
    view: PublicView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int | None = None,
    revealed: Sequence[RevealedSeat] | None = None,
    header: int = 0,
    palette: bool = False,
    river_room: int | None = None,
    height: int | None = None,
    hands: Mapping[int, HandFit] | None = None,
) -> Image.Image:
    """The table as an RGB image; ``revealed`` (one entry per seat) opens every hand, for
    the replay of a hand that is over (``render.replay``), and ``header`` leaves that
    many rows of felt above the table for a caption. ``palette`` composes it on the
    shared palette instead (``render.layout.palette_canvas``): the same pixels that
    mapping the RGB image would give, in about half the time and with no mapping left
    for the PNG.

    ``river_room`` lays the rivers out as if the longest held that many tiles and
    ``height`` (at least the table's own) pads the foot with felt, ``hands`` fixes how
    each seat's hand is fitted: a replay passes its hand's longest river, tallest frame
    and each seat's hand fitted for all its frames (``table_fit``), so its tiles keep
    one size, its frames one height and its hands their places."""
    plan = _plan(view, revealed, river_room, names, locale, perspective, hands)
    canvas_size = (WIDTH, header + max(plan.height, height or 0))
    canvas = palette_canvas(canvas_size, FELT) if palette else Image.new("RGB", canvas_size, FELT)
    draw = surface_draw(canvas)
    top = header + MARGIN
    _draw_header(canvas, draw, view, top, names, locale)
    top += HEADER_H + MARGIN
    for band in plan.bands:
        seat = band.seat_view.seat
        _draw_band(
            canvas,
            draw,
            view,
            band,
            top,
            isolate(seat_name(names, seat, locale)),
            locale,
            river_w=plan.river_w,
            per_row=plan.per_row,
            viewer=perspective == seat,
            revealed=revealed[seat] if revealed is not None else None,
        )
        top += band.height + MARGIN
    return canvas
