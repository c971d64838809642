"""The result image at the end of a hand: the winning hand, the itemised score and each
seat's net change with the payments that make it up, or a draw (or an invalid win) and
what it means.

Drawn for a phone first: Discord shows the 1,000 px card about 360 px wide (36 %), so
the title, the total and the nets are 40 to 42 source px (about 15 CSS px there), the
score items and payments 32 (a payment's reason too: "三摊 ×5" and "互算" were 28, their
ink under 10 CSS px), nothing under 28 (the rule set and hand number beside the title),
and the winning hand's tiles 72 px wide (26 CSS px). A seat's payments sit under its net, each signed as it counts towards it, so a
player reads why they paid what without matching a separate list against the names
(phone_images.md, item 5).

At a table the card shows points, as the channel's text and the DM say them: what the
ledger moved (units × the table's stake, 底注, less what a cap took), under "积分变化（底注
2）"; the score and its items stay in the rule set's units (RULES.md §3)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.scoring.names import PAYMENT_REASONS, invalid_reason_text, payment_multiple
from engine.tiles import name_en, name_zh
from engine.types import HandResult, Payment, ScoreItem
from engine.variants import get_rules
from engine.views import PublicView
from engine.words import UNITS, WIN_TYPES

from .bidi import isolate
from .layout import (
    CREAM,
    FELT,
    GOLD,
    HAND_WIDTH,
    HIGHLIGHT,
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
from .text import chinese, fit_text, in_language, label, rule_set_name, text_width, wind_name
from .tiles import tile_height, tile_sprite

# Text sizes in source px (a phone shows 36 % of them: 42 px is 15 CSS px, 30 is 10.8).
TITLE_SIZE = 42
NET_SIZE = 42
TOTAL_SIZE = 40
ITEM_SIZE = 32
SEAT_SIZE = 34
PAY_SIZE = 32  # a seat's payment lines: whom, why ("三摊 ×5", "互算"), how much
LINE_SIZE = 30  # the discarder, section titles, a seat's own score and state
LEAST_SIZE = 28  # the rule set and hand number beside the title: the smallest text
TILE_W = 72  # the winning hand's tiles: 26 CSS px on a phone
MARGIN = 24
ITEM_ROW = 46
PAY_ROW = 44
SEAT_HEAD = 56
CELL_H = 60  # a seat's net on a draw's card, two seats a row
PAY_INDENT = 12  # a seat's payments under its name
SEAT_PAD = 4  # below a seat's last payment, inside its box
SEAT_GAP = 16  # from one seat's box to the next

# Words only the result card draws, (zh-CN, en, zh-TW).
WORDS: dict[str, tuple[str, str, str]] = {
    "pays": ("付 {name}", "to {name}", "付 {name}"),
    "gets": ("收 {name}", "from {name}", "收 {name}"),
    "seat_score": ("得分 {n}", "score {n}", "得分 {n}"),
    "winning_tile": ("胡 {tile}", "winning tile: {tile}", "胡 {tile}"),
    # The points caption says what the bot's text says ("积分变化（底注 2）：…").
    "points": ("积分变化（底注 {stake}）", "Points (stake {stake})", "積分變化（底注 {stake}）"),
    "capped": ("封顶", "capped", "封頂"),
    "capped_from": ("原 {n}", "was {n}", "原 {n}"),
}


@dataclass(frozen=True)
class TablePoints:
    """What a hand moved on a table's ledger: each seat's points (its units × the table's
    stake, 底注, unless a per-hand or per-day cap cut them) and the stake. With them the
    card's nets are the numbers the channel's text and the DM give, not the units, which
    differ from them at any stake but 1."""

    points: tuple[int, ...]
    stake: int

    def capped(self, result: HandResult, seat: int) -> int | None:
        """What the seat would have moved without a cap (units × stake), where a cap
        changed it; else None."""
        original = result.deltas[seat] * self.stake
        return original if seat < len(self.points) and self.points[seat] != original else None


def seat_net(result: HandResult, seat: int, points: TablePoints | None) -> int:
    """The seat's change as the card shows it: the ledger's points at a table, else units."""
    if points is not None and seat < len(points.points):
        return points.points[seat]
    return result.deltas[seat]


def item_value(item: ScoreItem, locale: str) -> str:
    """``+4胡`` (an item adds to the score), but the limit 腊子 reads ``100胡`` without a
    sign: it is what the total was capped to, not points on top of the others."""
    word = UNITS.get(item.unit)
    unit = word.text(locale, short=True) if word is not None else item.unit
    spacer = "" if locale.startswith("zh") else " "
    sign = "" if item.key == "limit" else "+"
    text = f"{sign}{item.value}{spacer}{unit}"
    if item.count > 1:
        text += f" ×{item.count}"
    return text


def item_name(item: ScoreItem, locale: str) -> str:
    """A score item as the card names it: the rule set's Chinese word on a Chinese card,
    its English name on an English one (the card has no room for a gloss beside it)."""
    return chinese(item.name_zh, locale) if locale.startswith("zh") else item.name_en


@dataclass(frozen=True)
class SeatPayment:
    """One line of a seat's payments: whom it paid (or who paid it), the amount signed
    as it counts towards the seat's net, and why. ``others`` holds several seats where
    they each paid the winner the same for the same reason (``times`` = how many)."""

    others: tuple[int, ...]
    amount: int  # negative: the seat paid it
    reason: str
    capped: bool = False  # the line of what a cap took off (or gave back): no other seat

    @property
    def amount_text(self) -> str:
        """``-100``, or ``+100 ×3`` for three equal payments on one line."""
        text = signed(self.amount)
        return f"{text} ×{len(self.others)}" if len(self.others) > 1 else text


def seat_payments(
    result: HandResult,
    seat: int,
    locale: str,
    *,
    fold: bool = False,
    points: TablePoints | None = None,
) -> list[SeatPayment]:
    """The payments ``seat`` made or received, in the scorer's order. With ``fold`` (the
    winner's) equal payments received for one reason make one line: each payer's own
    line already names the winner, and "+100 ×3" still adds up to the net. With
    ``points`` (a table's) the amounts are points (× the stake), and where a cap changed
    the seat's net a last line says by how much ("封顶 原 -92 +42"), so the lines still
    add up to the net drawn above them."""
    stake = points.stake if points is not None else 1
    entries: list[SeatPayment] = []
    for payment in result.payments:
        if seat not in (payment.payer, payment.payee) or payment.payer == payment.payee:
            continue
        reason = payment_reason(payment, result, locale)
        amount = payment.amount * stake
        if payment.payer == seat:
            entries.append(SeatPayment((payment.payee,), -amount, reason))
            continue
        same = next(
            (index for index, entry in enumerate(entries)
             if fold and entry.amount == amount and entry.reason == reason),
            None,
        )  # fmt: skip
        if same is None:
            entries.append(SeatPayment((payment.payer,), amount, reason))
        else:
            folded = entries[same]
            entries[same] = SeatPayment((*folded.others, payment.payer), folded.amount, reason)
    original = points.capped(result, seat) if points is not None else None
    if points is not None and original is not None:
        was = in_language(WORDS["capped_from"], locale, n=signed(original))
        entries.append(SeatPayment((), points.points[seat] - original, was, capped=True))
    return entries


def payment_words(entry: SeatPayment, others: str, locale: str) -> str:
    """ "付 东 小明" / "to E Ming" (paid) or "收 南 Alice" / "from S Alice" (received);
    ``others`` is the other seat's label, or the winds of the seats folded into one line;
    "封顶" / "capped" for a cap's line."""
    if entry.capped:
        return in_language(WORDS["capped"], locale)
    key = "pays" if entry.amount < 0 else "gets"
    return in_language(WORDS[key], locale, name=others)


def winning_tile_text(kind: int, locale: str) -> str:
    """The winning tile named ("胡 二条", "winning tile: 2 Bamboo") beside it, alone on its row."""
    tile = chinese(name_zh(kind), locale) if locale.startswith("zh") else name_en(kind)
    return in_language(WORDS["winning_tile"], locale, tile=tile)


def seat_score_text(value: int, locale: str) -> str:
    """A seat's own score (各家得分, where a rule set keeps one: what 互算 settles between
    non-winners)."""
    return in_language(WORDS["seat_score"], locale, n=value)


def points_caption(points: TablePoints | None, result: HandResult, locale: str) -> str:
    """The caption over the seats' nets at a table where the hand moved points: what
    the numbers are, in the words of the result's text ("积分变化（底注 2）"); else empty
    (the calculator's card, a replay, a hand nobody paid for)."""
    if points is None or (not any(points.points) and not any(result.deltas)):
        return ""
    return in_language(WORDS["points"], locale, stake=points.stake)


def render_result(
    view: PublicView,
    result: HandResult | None = None,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    win_tile: int | None = None,
    points: TablePoints | None = None,
) -> bytes:
    """The end of a hand: the winning hand, the itemised score and the payments, or a draw.

    ``result`` defaults to ``view.result``. ``win_tile`` (if known) is set apart from the
    rest of the winning hand, as the last tile of ``result.hand.concealed``. ``points``
    (a table's hand): the nets and payments in the points the ledger moved.
    """
    if not isinstance(view, PublicView):
        raise TypeError("render_result takes the ended hand's PublicView")
    return encode_png(
        compose_result(view, result, names=names, locale=locale, win_tile=win_tile, points=points)
    )


@dataclass(frozen=True)
class _Placed:
    """A piece of the winning hand where it is drawn: a tile (``meld`` None) or a meld."""

    x: float
    row: int
    kind: int | None = None
    apart: bool = False
    meld: list[tuple[int | None, bool, bool]] | None = None


def hand_layout(
    concealed: Sequence[int],
    apart: int | None,
    melds: Sequence[list[tuple[int | None, bool, bool]]],
    room: float,
    tile_w: int = TILE_W,
) -> list[_Placed]:
    """The winning hand in rows ``room`` px wide: the concealed tiles, the winning tile a
    little apart, then the melds; a row ends where the next piece would not fit (a meld
    is never split), so the tiles keep their phone size instead of shrinking."""
    placed: list[_Placed] = []
    x, row = 0.0, 0

    def place(width: float, gap: float) -> tuple[float, int]:
        nonlocal x, row
        if x > 0 and x + gap + width > room:
            x, row = 0.0, row + 1
        elif x > 0:
            x += gap
        at = x
        x += width
        return at, row

    for kind in concealed:
        at, line = place(tile_w, 0)
        placed.append(_Placed(at, line, kind))
    if apart is not None:
        at, line = place(tile_w, 14)
        placed.append(_Placed(at, line, apart, apart=True))
    for entries in melds:
        gap = 16 if placed and placed[-1].meld else 22  # the melds a little off the tiles
        at, line = place(meld_width(entries, tile_w), gap)
        placed.append(_Placed(at, line, meld=entries))
    return placed


def compose_result(
    view: PublicView,
    result: HandResult | None = None,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    win_tile: int | None = None,
    points: TablePoints | None = None,
) -> Image.Image:
    result = result if result is not None else view.result
    if result is None:
        raise ValueError("the view has no result: the hand has not ended")
    if win_tile is None:
        win_tile = result.win_tile
    if win_tile is None and result.win_by == "discard" and view.last_discard:
        win_tile = view.last_discard[1]  # the discard that was won on
    width = HAND_WIDTH
    inner = width - 2 * MARGIN
    zh = locale.startswith("zh")
    rules = get_rules(view.variant)
    winner = result.winner if result.valid else None
    items = list(result.items) if winner is not None else []

    def seat_label(seat: int) -> str:
        return f"{wind_name(view.seats[seat].seat_wind, locale)} {isolate(seat_name(names, seat, locale))}"

    def others_label(others: tuple[int, ...]) -> str:
        if len(others) == 1:
            return seat_label(others[0])
        return " ".join(wind_name(view.seats[seat].seat_wind, locale) for seat in others)

    # Measure first, then draw on a canvas of the height the card needs.
    # The hand is drawn for an invalid win too (the calculator's): the reason it is no
    # win reads against the tiles it is about.
    hand_seat = result.winner if result.hand is not None else None
    placed: list[_Placed] = []
    tile_h = tile_height(TILE_W)
    if hand_seat is not None and result.hand is not None:
        concealed = list(result.hand.concealed)
        apart = None
        if win_tile is not None and win_tile in concealed:
            concealed.reverse()
            concealed.remove(win_tile)
            concealed.reverse()
            apart = win_tile
        concealed.sort()
        meld_entries = [
            meld_layout(meld, hand_seat, view.num_seats, own=True) for meld in result.hand.melds
        ]
        placed = hand_layout(concealed, apart, meld_entries, inner)
    hand_rows = max((piece.row for piece in placed), default=-1) + 1
    hand_h = hand_rows * (tile_h + 14) + 20 if hand_rows else 0

    item_texts = [(item_name(item, locale), item_value(item, locale)) for item in items]
    item_columns = _columns(
        [
            text_width(name, ITEM_SIZE) + 24 + text_width(value, ITEM_SIZE)
            for name, value in item_texts
        ],
        inner,
    )
    item_rows = -(-len(items) // item_columns) if items else 0

    seats = range(len(result.deltas))
    entries = (
        {seat: seat_payments(result, seat, locale, fold=seat == winner, points=points)
         for seat in seats}
        if winner is not None
        else {}
    )  # fmt: skip
    amount_w = max(
        (text_width(e.amount_text, PAY_SIZE) for es in entries.values() for e in es), default=0
    )
    nets = [seat_net(result, seat, points) for seat in seats]
    points_title = points_caption(points, result, locale)

    header = _header(view, result, winner, seat_label, locale)
    height = header.height + 16
    note_lines: list[str] = []
    if winner is None:
        note = (
            label("draw_note", locale)
            if result.valid
            else invalid_reason(result.reason, locale, view.variant)
        )
        note_lines = wrap_text(note, 34, inner)
        height += 48 * len(note_lines) + 16
        if result.valid and rules.has_carried_fan:
            height += 56
    height += hand_h
    if items:
        height += 48 + ITEM_ROW * item_rows + 72
    if points_title:
        height += 58
    if winner is not None:
        for seat in seats:
            height += SEAT_HEAD + PAY_ROW * len(entries[seat]) + SEAT_GAP
    else:
        height += (CELL_H + 10) * -(-len(result.deltas) // 2) + 8
    height += 8

    canvas = palette_canvas((width, height), FELT)  # composed on the shared palette: no mapping
    draw = surface_draw(canvas)
    _draw_header(canvas, draw, header)
    y: float = header.height + 16

    for line in note_lines:
        draw_text(canvas, line, MARGIN, y, 34, CREAM)
        y += 48
    if note_lines:
        y += 16
        if result.valid and rules.has_carried_fan:  # a draw feeds the carried pool
            draw_text(canvas, label("draw_pool", locale), MARGIN, y, 32, GOLD)
            y += 56

    # The winning hand (or the hand claimed to win).
    for piece in placed:
        px = MARGIN + piece.x
        py = y + piece.row * (tile_h + 14)
        if piece.meld is not None:
            draw_meld(canvas, piece.meld, px, py + tile_h, TILE_W)
            continue
        assert piece.kind is not None
        sprite = tile_sprite(piece.kind, TILE_W, marker_for(piece.kind, rules, view.wild, locale))
        paste(canvas, sprite, px, py)
        if piece.apart:
            draw.rounded_rectangle(
                (px - 3, py - 3, px + TILE_W + 2, py + tile_h + 2), 7, outline=HIGHLIGHT, width=4
            )
            if piece.x == 0 and not any(other.row == piece.row for other in placed if other.meld):
                # Alone on its row (a closed hand's 14th tile does not fit beside the 13
                # at phone size): named, so the row reads as the winning tile's own.
                caption = winning_tile_text(piece.kind, locale)
                draw_text(canvas, caption, px + TILE_W + 24, py + tile_h / 2 - 26, LINE_SIZE, MUTED)
    y += hand_h

    # The score items, in one or two columns, and the total.
    if items:
        draw_text(canvas, label("breakdown", locale), MARGIN, y, LINE_SIZE, GOLD)
        y += 48
        col_w = inner / item_columns
        for row in range(0, item_rows, 2):  # the stripes first: a line's text reaches below it
            top = y + row * ITEM_ROW
            draw.rectangle(
                (MARGIN - 10, top - 2, width - MARGIN + 10, top + ITEM_ROW - 2), fill=PANEL
            )
        for row in range(item_rows):
            for column in range(item_columns):
                index = row * item_columns + column
                if index >= len(item_texts):
                    break
                name, value = item_texts[index]
                left = MARGIN + column * col_w + (12 if column else 0)
                right = MARGIN + (column + 1) * col_w - (12 if column < item_columns - 1 else 0)
                value_w = draw_text(canvas, value, right, y, ITEM_SIZE, CREAM, anchor="r")
                room = int(right - value_w - 20 - left)
                draw_text(canvas, fit_text(name, ITEM_SIZE, room), left, y, ITEM_SIZE, CREAM)
            y += ITEM_ROW
        total = chinese(rules.format_total(result, "zh" if zh else "en"), locale)
        draw.line((MARGIN, y + 6, width - MARGIN, y + 6), fill=PANEL_EDGE, width=2)
        draw_text(canvas, fit_text(total, TOTAL_SIZE, inner), width - MARGIN, y + 14,
                  TOTAL_SIZE, GOLD, anchor="r")  # fmt: skip
        y += 72

    # What the nets are (points, at a table), each seat's net, its own score where the
    # rule set keeps one, 不跟 where it folded its three-claim, and its payments.
    if points_title:  # a little below the total, over the seats it is about
        draw_text(canvas, points_title, MARGIN, y + 10, LINE_SIZE, GOLD)
        y += 58
    net_w = max(text_width(signed(net), NET_SIZE) for net in nets)
    if winner is not None:
        for seat in seats:
            rows = len(entries[seat])
            block_h = SEAT_HEAD + PAY_ROW * rows + SEAT_PAD
            fill = PANEL if seat == winner else PANEL_DARK
            draw.rounded_rectangle(
                (MARGIN - 10, y - 4, width - MARGIN + 10, y + block_h), 10, fill=fill
            )
            delta = nets[seat]
            right = width - MARGIN
            draw_text(canvas, signed(delta), right, y, NET_SIZE, net_color(delta), anchor="r")
            name_right = right - net_w - 24
            if result.totals is not None and seat < len(result.totals):
                score = seat_score_text(result.totals[seat], locale)
                name_right -= draw_text(canvas, score, name_right, y + 8, LINE_SIZE, MUTED,
                                        anchor="r") + 20  # fmt: skip
            if view.seats[seat].folded:  # 三摊: it chose not to go on, and pays nothing
                name_right -= draw_text(canvas, label("folded", locale), name_right, y + 8,
                                        LINE_SIZE, MUTED, anchor="r") + 20  # fmt: skip
            color = GOLD if seat == winner else CREAM
            label_text = fit_text(seat_label(seat), SEAT_SIZE, int(name_right - MARGIN))
            draw_text(canvas, label_text, MARGIN, y + 4, SEAT_SIZE, color)
            _draw_payments(canvas, entries[seat], others_label, locale, y + SEAT_HEAD,
                           amount_w)  # fmt: skip
            y += block_h + SEAT_GAP - SEAT_PAD
    else:
        col_w = inner / 2
        for seat in seats:
            column, row = seat % 2, seat // 2
            left = MARGIN + column * col_w + (12 if column else 0)
            right = MARGIN + (column + 1) * col_w - (0 if column else 12)
            top = y + row * (CELL_H + 10)
            draw.rounded_rectangle((left - 10, top, right + 10, top + CELL_H), 10,
                                   fill=PANEL_DARK)  # fmt: skip
            delta = nets[seat]
            used = draw_text(
                canvas, signed(delta), right, top - 6, NET_SIZE, net_color(delta), anchor="r"
            )
            room = int(right - used - 20 - left)
            draw_text(canvas, fit_text(seat_label(seat), 32, room), left, top + 3, 32, CREAM)
        y += (CELL_H + 10) * -(-len(result.deltas) // 2) + 8
    return canvas


def _columns(widths: Sequence[float], room: float, gap: float = 24) -> int:
    """Two columns when there are two entries or more and each fits in half the room,
    else one (a lone item stays beside its value, not halfway across the card)."""
    return 2 if len(widths) > 1 and max(widths) <= (room - gap) / 2 else 1


def _draw_payments(
    canvas: Image.Image,
    entries: Sequence[SeatPayment],
    others_label: Callable[[tuple[int, ...]], str],
    locale: str,
    top: float,
    amount_w: int,
) -> None:
    """A seat's payments under its net, one a line (two columns mixed one seat's lines up
    on a phone): whom, why, and the signed amount, the amounts right-aligned under the
    net they add up to."""
    left = MARGIN + PAY_INDENT
    right = HAND_WIDTH - MARGIN
    for index, entry in enumerate(entries):
        y = top + index * PAY_ROW
        draw_text(canvas, entry.amount_text, right, y, PAY_SIZE, net_color(entry.amount),
                  anchor="r")  # fmt: skip
        reason_right = right - amount_w - 24
        reason_w = draw_text(canvas, entry.reason, reason_right, y, PAY_SIZE, MUTED,
                             anchor="r")  # fmt: skip
        words = payment_words(entry, others_label(entry.others) if entry.others else "", locale)
        room = int(reason_right - reason_w - 24 - left)
        draw_text(canvas, fit_text(words, PAY_SIZE, room), left, y, PAY_SIZE, CREAM)


@dataclass(frozen=True)
class _Header:
    """What the title band says: the winner (or the draw, or the refused win), how they
    won, from whom, and the rule set and hand number (on the first line where it fits
    beside the title, else under it, so a self-drawn win's band stays one line tall)."""

    title: str
    how: str  # the win's badge ("" for a draw)
    from_text: str
    hand_title: str
    one_line: bool

    @property
    def height(self) -> int:
        return 74 if self.one_line else 120


def _header(
    view: PublicView,
    result: HandResult,
    winner: int | None,
    seat_label: Callable[[int], str],
    locale: str,
) -> _Header:
    rules = get_rules(view.variant)
    hand_title = (
        f"{rule_set_name(rules, locale)} · {label('hand_no', locale, n=view.hand_number + 1)}"
    )
    if winner is None:
        title = label("draw_title" if result.valid else "invalid_title", locale)
        used = text_width(title, 44)
        how = from_text = ""
    else:
        title = seat_label(winner)
        win_type = WIN_TYPES.get(result.win_by or "")
        how = win_type.text(locale, short=True) if win_type else label("winner", locale)
        used = text_width(title, TITLE_SIZE) + 20 + badge_width(how, LINE_SIZE)
        from_text = ""
        if result.from_seat is not None and result.win_by != "self_draw":
            from_text = f"← {seat_label(result.from_seat)}"
    room = HAND_WIDTH - 2 * MARGIN - 28
    one_line = not from_text and used + text_width(hand_title, LEAST_SIZE) <= room
    return _Header(title, how, from_text, hand_title, one_line)


def _draw_header(canvas: Image.Image, draw: ImageDraw.ImageDraw, header: _Header) -> None:
    width = HAND_WIDTH
    draw.rectangle((0, 0, width, header.height), fill=PANEL_DARK)
    title_y = 22 if header.one_line else 72
    title_w = draw_text(
        canvas, header.hand_title, width - MARGIN, title_y, LEAST_SIZE, MUTED, anchor="r"
    )
    if not header.how:  # a draw or a refused win
        draw_text(canvas, header.title, MARGIN, 10, 44, GOLD)
        return
    badge_w = badge_width(header.how, LINE_SIZE)
    room = width - 2 * MARGIN - badge_w - 20
    if header.one_line:
        room -= title_w + 28
    title = fit_text(header.title, TITLE_SIZE, room)
    x = MARGIN + draw_text(canvas, title, MARGIN, 8, TITLE_SIZE, CREAM)
    badge(draw, canvas, x + 20, 14, header.how, RED_BADGE, LINE_SIZE)
    if header.from_text:
        room = width - 2 * MARGIN - title_w - 24
        draw_text(canvas, fit_text(header.from_text, LINE_SIZE, room), MARGIN, 70, LINE_SIZE, CREAM)


def wrap_text(text: str, size: int, room: int) -> list[str]:
    """``text`` in lines at most ``room`` px wide: broken at spaces where it has them
    (English), else between characters (Chinese), never cut."""
    words = text.split(" ") if " " in text else list(text)
    joiner = " " if " " in text else ""
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line}{joiner}{word}" if line else word
        if line and text_width(candidate, size) > room:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def payment_reason(payment: Payment, result: HandResult, locale: str) -> str:
    """The scoring module's name for a payment's reason, else the raw key; with the
    multiple of the score it pays ("三摊 ×5") where the reason pays one."""
    return _payment_reason(payment.reason, locale, payment_multiple(payment, result))


def _payment_reason(reason: str, locale: str, multiple: int | None = None) -> str:
    zh, en = PAYMENT_REASONS.get(reason, (reason, reason))
    name = chinese(zh, locale) if locale.startswith("zh") else en
    return f"{name} ×{multiple}" if multiple is not None else name


def invalid_reason(reason: str | None, locale: str, variant: str) -> str:
    zh, en = invalid_reason_text(reason, get_rules(variant).wild_name_zh)
    return chinese(zh, locale) if locale.startswith("zh") else en
