"""The result image at the end of a hand: the winning hand, the itemised score, the
payments and each seat's net change, or a draw (or an invalid win) and what it means."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.scoring.names import PAYMENT_REASONS, invalid_reason_text, payment_multiple
from engine.types import HandResult, ScoreItem
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
    fit_meld_width,
    marker_for,
    meld_layout,
    net_color,
    paste,
    seat_name,
    signed,
)
from .text import chinese, fit_text, label, rule_set_name, text_width, wind_name
from .tiles import tile_height, tile_sprite


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
    # The hand is drawn for an invalid win too (the calculator's): the reason it is no
    # win reads against the tiles it is about.
    hand_seat = result.winner if result.hand is not None else None
    if hand_seat is not None:
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
    rules = get_rules(view.variant)

    def seat_label(seat: int) -> str:
        return f"{wind_name(view.seats[seat].seat_wind, locale)} {isolate(seat_name(names, seat, locale))}"

    # Title: the rule set and hand number at the right, drawn first so the winner, how
    # they won and from whom stop short of it (long names are cut, not drawn over it).
    draw.rectangle((0, 0, width, 64), fill=PANEL_DARK)
    hand_title = (
        f"{rule_set_name(rules, locale)} · {label('hand_no', locale, n=view.hand_number + 1)}"
    )
    right = (
        width - margin - draw_text(canvas, hand_title, width - margin, 22, 18, MUTED, anchor="r")
    )
    right -= 20
    x: float = margin
    if winner is None:
        key = "draw_title" if result.valid else "invalid_title"
        x += draw_text(canvas, label(key, locale), x, 10, 32, GOLD)
        if zh:
            draw_text(canvas, LABEL_EN_SUFFIX.get(key, ""), x + 14, 22, 20, MUTED)
    else:
        win_type = WIN_TYPES.get(result.win_by or "")
        how = win_type.text(locale, short=True) if win_type else label("winner", locale)
        from_text = ""
        if result.from_seat is not None and result.win_by != "self_draw":
            from_text = f"← {seat_label(result.from_seat)}"
        badge_w = badge_width(how, 22) + 12
        # The winner's name first; the discarder gets what is left (at least a few letters).
        from_room = min(text_width(from_text, 20), 220) if from_text else 0
        name_room = min(520, int(right - x - 16 - badge_w - from_room))
        x += draw_text(
            canvas, fit_text(seat_label(winner), 32, max(80, name_room)), x, 10, 32, CREAM
        )
        x += 16
        x += badge(draw, canvas, x, 14, how, RED_BADGE, 22) + 12
        if from_text and right - x >= 60:
            draw_text(canvas, fit_text(from_text, 20, int(right - x)), x, 20, 20, MUTED)
    y = 84

    if winner is None:
        note = (
            label("draw_note", locale)
            if result.valid
            else invalid_reason(result.reason, locale, view.variant)
        )
        draw_text(canvas, note, margin, y, 22, CREAM)
        y += 36
        if result.valid and rules.has_carried_fan:  # a draw feeds the carried pool
            draw_text(canvas, label("draw_pool", locale), margin, y, 20, GOLD)
        y += 24

    # The winning hand (or the hand claimed to win).
    if hand_seat is not None and result.hand is not None:
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
            paste(
                canvas, tile_sprite(kind, tile_w, marker_for(kind, rules, view.wild, locale)), x, y
            )
            x += tile_w
        if apart is not None:
            x += 12
            paste(
                canvas,
                tile_sprite(apart, tile_w, marker_for(apart, rules, view.wild, locale)),
                x,
                y,
            )
            draw.rounded_rectangle(
                (x - 2, y - 2, x + tile_w + 1, y + tile_h + 1), 6, outline=HIGHLIGHT, width=3
            )
            x += tile_w
        x += 20
        meld_entries = [
            meld_layout(meld, hand_seat, view.num_seats, own=True) for meld in result.hand.melds
        ]
        meld_w = fit_meld_width(meld_entries, width - margin - x, tile_w, 12)
        for entries in meld_entries:
            x = draw_meld(canvas, entries, x, y + tile_h, meld_w) + 12
        y += tile_h + 36

    # Breakdown.
    if items:
        _section_title(canvas, label("breakdown", locale), "Breakdown", zh, margin, y)
        y += 40
        for i, item in enumerate(items):
            if i % 2 == 0:
                draw.rectangle((margin - 8, y - 3, width - margin + 8, y + row_h - 5), fill=PANEL)
            draw_text(canvas, chinese(item.name_zh, locale), margin, y, 22, CREAM)
            draw_text(canvas, item.name_en, margin + 240, y + 3, 19, MUTED)
            draw_text(canvas, item_value(item, locale), width - margin, y, 22, CREAM, anchor="r")
            y += row_h
        total = chinese(rules.format_total(result, "zh" if zh else "en"), locale)
        draw.line((margin, y + 6, width - margin, y + 6), fill=PANEL_EDGE, width=2)
        draw_text(canvas, total, width - margin, y + 14, 26, GOLD, anchor="r")
        y += 50

    if result.totals and winner is not None:
        draw_text(canvas, label("totals", locale), margin, y, 20, GOLD)
        y += 36
        col = (width - 2 * margin) / len(result.totals)
        for seat, value in enumerate(result.totals):
            room = int(col - text_width(f": {value}", 19) - 12)
            entry = f"{fit_text(seat_label(seat), 19, room)}: {value}"
            draw_text(canvas, entry, margin + seat * col, y, 19, CREAM)
        y += 40

    if payments:
        _section_title(canvas, label("payments", locale), "Payments", zh, margin, y)
        y += 40
        for payment in payments:
            reason = _payment_reason(payment.reason, locale, payment_multiple(payment, result))
            reason_left = width - margin - 110 - text_width(reason, 17) - 16
            draw_text(canvas, reason, width - margin - 110, y + 2, 17, MUTED, anchor="r")
            draw_text(canvas, str(payment.amount), width - margin, y, 20, CREAM, anchor="r")
            # Payer and payee each keep part of the room: a long payer no longer hides
            # whom it pays.
            arrow = "  →  "
            half = int((reason_left - margin - text_width(arrow, 20)) / 2)
            payer = fit_text(seat_label(payment.payer), 20, half)
            payee = fit_text(seat_label(payment.payee), 20, half)
            draw_text(canvas, f"{payer}{arrow}{payee}", margin, y, 20, CREAM)
            y += 30

    # Net change per seat.
    y += 10
    draw.rectangle((0, y, width, y + 60), fill=PANEL_DARK)
    col = (width - 2 * margin) / max(1, len(result.deltas))
    for seat, delta in enumerate(result.deltas):
        sx = margin + seat * col
        name = fit_text(seat_label(seat), 18, int(col - 80))
        draw_text(canvas, name, sx, y + 17, 18, MUTED)
        draw_text(canvas, signed(delta), sx + col - 16, y + 12, 26, net_color(delta), anchor="r")
    # The height was reserved generously (names and notes vary); trim to what was drawn.
    return canvas.crop((0, 0, width, min(height, int(y) + 60)))


def _section_title(
    canvas: Image.Image, title: str, english: str, zh: bool, x: float, y: float
) -> None:
    """A result-card section title; a Chinese card adds the English word after it."""
    draw_text(canvas, title + ("" if not zh else f"  {english}"), x, y, 22, GOLD)


def _payment_reason(reason: str, locale: str, multiple: int | None = None) -> str:
    """The scoring module's name for a payment reason, else the raw key; with the
    multiple of the score it pays ("三摊 ×5") where the reason pays one."""
    zh, en = PAYMENT_REASONS.get(reason, (reason, reason))
    name = chinese(zh, locale) if locale.startswith("zh") else en
    return f"{name} ×{multiple}" if multiple is not None else name


def invalid_reason(reason: str | None, locale: str, variant: str) -> str:
    zh, en = invalid_reason_text(reason, get_rules(variant).wild_name_zh)
    return chinese(zh, locale) if locale.startswith("zh") else en


LABEL_EN_SUFFIX = {"draw_title": "Exhaustive draw", "invalid_title": "Invalid win"}
