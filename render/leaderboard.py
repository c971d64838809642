"""The leaderboard image: rank, name, net points, hands, wins and win rate."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PIL import Image

from .bidi import isolate
from .layout import (
    CREAM,
    FELT,
    GOLD,
    MEDALS,
    MUTED,
    PANEL,
    PANEL_DARK,
    draw_text,
    encode_png,
    net_color,
    palette_canvas,
    signed,
    surface_draw,
)
from .stats import percent
from .text import fit_text, label, text_width

MAX_ROWS = 25


def board_entries(rows: Iterable[Any]) -> list[tuple[int, str, int, int, int]]:
    """The rows the board shows (at most ``MAX_ROWS``), as (rank, name, net, hands, wins)."""
    return [_row_fields(row) for row in rows][:MAX_ROWS]


def period_title(period: str, locale: str) -> str:
    """The board's period as its header names it ("week", "month", "all_time", or as is)."""
    return label(period, locale) if period in ("week", "month", "all_time") else period


def win_rate(wins: int, hands: int) -> str:
    return percent(wins / hands if hands else None)


def _row_fields(row: Any) -> tuple[int, str, int, int, int]:
    """Accept (rank, name, net, hands, wins) tuples or objects with those attributes."""
    if isinstance(row, Sequence) and not isinstance(row, str):
        rank, name, net, hands, wins = row[:5]
    else:
        rank, name, net, hands, wins = (row.rank, row.name, row.net, row.hands, row.wins)
    return int(rank), str(name), int(net), int(hands), int(wins)


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


# Sizes in source px: a phone shows the 900 px board about 360 px wide (40 %), so the
# data (ranks, names, nets, counts) is 30 to 34 (12 to 14 CSS px) and the column
# headers 26 (10 CSS px), as phone_images.md asks.
TITLE_SIZE = 42
DATA_SIZE = 34  # names and nets
COUNT_SIZE = 30  # ranks, hands, wins, win rate
HEADER_SIZE = 26
ROW_H = 64


def compose_leaderboard(
    rows: Iterable[Any],
    *,
    period: str = "week",
    subtitle: str = "",
    locale: str = "zh",
) -> Image.Image:
    entries = board_entries(rows)
    width = 900
    margin = 24
    header_h = 84
    columns_h = 44
    height = header_h + columns_h + ROW_H * max(1, len(entries)) + 20
    canvas = palette_canvas((width, height), FELT)  # composed on the shared palette
    draw = surface_draw(canvas)
    draw.rectangle((0, 0, width, header_h), fill=PANEL_DARK)
    period_text = period_title(period, locale)
    x = margin + draw_text(canvas, label("leaderboard", locale), margin, 10, TITLE_SIZE, GOLD)
    x += 18
    x += draw_text(canvas, period_text, x, 22, COUNT_SIZE, CREAM) + 16
    if subtitle:
        fitted = fit_text(subtitle, 28, int(width - margin - x))
        draw_text(canvas, fitted, x, 25, 28, MUTED)

    col_rank, col_name = margin + 26, margin + 72
    col_rate = width - margin
    col_wins = col_rate - max(text_width(label("win_rate", locale), HEADER_SIZE), 84) - 20
    col_hands = col_wins - max(text_width(label("wins", locale), HEADER_SIZE), 52) - 20
    col_net = col_hands - max(text_width(label("hands", locale), HEADER_SIZE), 52) - 24
    y = header_h + 6
    for key, cx, anchor in (
        ("rank", col_rank, "m"),
        ("player", col_name, "l"),
        ("net_points", col_net, "r"),
        ("hands", col_hands, "r"),
        ("wins", col_wins, "r"),
        ("win_rate", col_rate, "r"),
    ):
        draw_text(canvas, label(key, locale), cx, y, HEADER_SIZE, MUTED, anchor=anchor)
    y = header_h + columns_h
    if not entries:
        draw_text(canvas, label("empty_board", locale), width / 2, y + 6, COUNT_SIZE, MUTED,
                  anchor="m")  # fmt: skip
        return canvas
    for i, (rank, name, net, hands, wins) in enumerate(entries):
        if i % 2 == 0:
            draw.rectangle((0, y, width, y + ROW_H), fill=PANEL)
        cy = y + ROW_H / 2
        medal = MEDALS.get(rank)
        rank_text = str(rank)
        if medal:
            draw.ellipse((col_rank - 24, cy - 24, col_rank + 24, cy + 24), fill=medal)
            draw_text(canvas, rank_text, col_rank, cy - 26, COUNT_SIZE, (40, 30, 10), anchor="m")
        else:
            draw_text(canvas, rank_text, col_rank, cy - 26, COUNT_SIZE, CREAM, anchor="m")
        # The net first: a seven-digit one takes room the name gives up.
        net_w = draw_text(canvas, signed(net), col_net, cy - 29, DATA_SIZE, net_color(net),
                          anchor="r")  # fmt: skip
        name_room = min(col_net - col_name - 130, col_net - net_w - 16 - col_name)
        draw_text(canvas, fit_text(isolate(name), DATA_SIZE, name_room), col_name, cy - 29,
                  DATA_SIZE, CREAM)  # fmt: skip
        draw_text(canvas, str(hands), col_hands, cy - 26, COUNT_SIZE, CREAM, anchor="r")
        draw_text(canvas, str(wins), col_wins, cy - 26, COUNT_SIZE, CREAM, anchor="r")
        draw_text(canvas, win_rate(wins, hands), col_rate, cy - 26, COUNT_SIZE, MUTED, anchor="r")
        y += ROW_H
    return canvas
