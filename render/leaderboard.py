"""The leaderboard image: rank, name, net points, hands, wins and win rate."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PIL import Image, ImageDraw

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
    signed,
)
from .stats import percent
from .text import fit_text, label

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


def compose_leaderboard(
    rows: Iterable[Any],
    *,
    period: str = "week",
    subtitle: str = "",
    locale: str = "zh",
) -> Image.Image:
    entries = board_entries(rows)
    width = 900
    margin = 28
    row_h = 56
    header_h = 80
    columns_h = 40
    height = header_h + columns_h + row_h * max(1, len(entries)) + 24
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, width, header_h), fill=PANEL_DARK)
    period_text = period_title(period, locale)
    x = margin + draw_text(canvas, label("leaderboard", locale), margin, 14, 36, GOLD) + 18
    x += draw_text(canvas, period_text, x, 28, 24, CREAM) + 16
    if subtitle:
        draw_text(canvas, fit_text(subtitle, 20, int(width - margin - x)), x, 31, 20, MUTED)

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
        draw_text(canvas, label(key, locale), cx, y, 18, MUTED, anchor=anchor)
    y = header_h + columns_h
    if not entries:
        draw_text(canvas, label("empty_board", locale), width / 2, y + 12, 24, MUTED, anchor="m")
        return canvas
    for i, (rank, name, net, hands, wins) in enumerate(entries):
        if i % 2 == 0:
            draw.rectangle((0, y, width, y + row_h), fill=PANEL)
        cy = y + row_h / 2
        medal = MEDALS.get(rank)
        if medal:
            draw.ellipse((col_rank - 20, cy - 20, col_rank + 20, cy + 20), fill=medal)
            draw_text(canvas, str(rank), col_rank, cy - 17, 24, (40, 30, 10), anchor="m")
        else:
            draw_text(canvas, str(rank), col_rank, cy - 17, 24, CREAM, anchor="m")
        # The net first: a seven-digit one takes room the name gives up.
        net_w = draw_text(canvas, signed(net), col_net, cy - 19, 26, net_color(net), anchor="r")
        name_room = min(col_net - col_name - 110, col_net - net_w - 16 - col_name)
        draw_text(canvas, fit_text(isolate(name), 26, name_room), col_name, cy - 19, 26, CREAM)
        draw_text(canvas, str(hands), col_hands, cy - 16, 22, CREAM, anchor="r")
        draw_text(canvas, str(wins), col_wins, cy - 16, 22, CREAM, anchor="r")
        draw_text(canvas, win_rate(wins, hands), col_rate, cy - 16, 22, MUTED, anchor="r")
        y += row_h
    return canvas
