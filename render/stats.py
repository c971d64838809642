"""The ``/stats`` card: a player's rates, biggest hand, winning types and balance trend.

It draws a ``data.PlayerStats`` (any object with its fields): every figure on the card is
computed here from those counts, so the card and the text reply cannot disagree, and the
rates follow the definitions in ``data.models.PlayerStats``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from PIL import Image, ImageDraw

from engine.variants import RULE_SETS

from .bidi import isolate
from .layout import (
    CREAM,
    FELT,
    GOLD,
    MUTED,
    PANEL,
    PANEL_DARK,
    draw_text,
    encode_png,
    net_color,
    signed,
)
from .text import chinese, fit_text, label

WIDTH = 900
HEIGHT = 700
MARGIN = 28
PLOT_LINE = (246, 196, 64)
PLOT_GRID = (58, 130, 100)


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def mean_text(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1f}"


def item_name(variant: str, key: str, locale: str) -> str:
    """A score item's or winning type's name in the rule set that awarded it."""
    rules = RULE_SETS.get(variant)
    names = getattr(rules, "item_names", {}) if rules is not None else {}
    if key not in names:
        return key
    zh, en = names[key]
    return chinese(zh, locale) if locale.startswith("zh") else en


def card_figures(stats: Any) -> dict[str, str]:
    """The figures as drawn, by label key (the harness compares them with the ledger)."""
    return {
        "hands": str(stats.hands),
        "stats_win_rate": percent(stats.win_rate),
        "stats_self_draw": percent(stats.self_draw_share),
        "stats_deal_in": percent(stats.deal_in_rate),
        "stats_mean": mean_text(stats.mean_points),
        "stats_net": signed(stats.net),
    }


def render_stats(stats: Any, *, name: str, subtitle: str, locale: str = "zh") -> bytes:
    return encode_png(compose_stats(stats, name=name, subtitle=subtitle, locale=locale))


def compose_stats(stats: Any, *, name: str, subtitle: str, locale: str = "zh") -> Image.Image:
    canvas = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(canvas)
    header_h = 80
    draw.rectangle((0, 0, WIDTH, header_h), fill=PANEL_DARK)
    x = MARGIN + draw_text(canvas, label("stats_title", locale), MARGIN, 14, 36, GOLD) + 18
    x += draw_text(canvas, fit_text(isolate(name), 26, 330), x, 22, 26, CREAM) + 16
    draw_text(canvas, fit_text(subtitle, 20, WIDTH - MARGIN - x), x, 28, 20, MUTED)

    # Six figures in two rows of three boxes.
    figures = card_figures(stats)
    box_w, box_h, gap = (WIDTH - 2 * MARGIN - 2 * 16) // 3, 84, 16
    for index, (key, value) in enumerate(figures.items()):
        column, row = index % 3, index // 3
        left = MARGIN + column * (box_w + gap)
        top = header_h + 18 + row * (box_h + 12)
        draw.rounded_rectangle((left, top, left + box_w, top + box_h), 10, fill=PANEL)
        draw_text(canvas, label(key, locale), left + 16, top + 10, 18, MUTED)
        color = (
            net_color(stats.net) if key in ("stats_net", "stats_mean") and stats.hands else CREAM
        )
        draw_text(canvas, value, left + box_w - 16, top + 34, 34, color, anchor="r")

    y = header_h + 18 + 2 * (box_h + 12) + 6
    left_w = 420
    draw_text(canvas, label("stats_biggest", locale), MARGIN, y, 20, GOLD)
    biggest = stats.biggest
    line_y = y + 30
    if biggest is None:
        draw_text(canvas, "-", MARGIN, line_y, 22, MUTED)
    else:
        when = biggest.created_at.date().isoformat()
        draw_text(canvas, f"+{biggest.points}", MARGIN, line_y, 28, net_color(1))
        draw_text(canvas, when, MARGIN + left_w - 10, line_y + 6, 18, MUTED, anchor="r")
        line_y += 38
        for key, value, unit in biggest.items[:5]:
            name_text = item_name(biggest.variant, key, locale)
            draw_text(canvas, fit_text(name_text, 20, 260), MARGIN + 8, line_y, 20, CREAM)
            draw_text(canvas, f"{value} {unit_name(unit, locale)}", MARGIN + left_w - 10,
                      line_y, 20, MUTED, anchor="r")  # fmt: skip
            line_y += 28

    types_x = MARGIN + left_w + 20
    draw_text(canvas, label("stats_types", locale), types_x, y, 20, GOLD)
    type_y = y + 32
    if not stats.win_types:
        draw_text(canvas, "-", types_x, type_y, 22, MUTED)
    for variant, key, count in stats.win_types[:5]:
        draw_text(canvas, fit_text(item_name(variant, key, locale), 20, 280), types_x, type_y,
                  20, CREAM)  # fmt: skip
        times = label("stats_times", locale, count=count)
        draw_text(canvas, times, WIDTH - MARGIN, type_y, 20, MUTED, anchor="r")
        type_y += 28

    plot_top = HEIGHT - 170
    draw_text(canvas, label("stats_trend", locale), MARGIN, plot_top - 4, 20, GOLD)
    draw_trend(canvas, stats.trend, (MARGIN + 130, plot_top, WIDTH - MARGIN, HEIGHT - 20))
    return canvas


def unit_name(unit: str, locale: str) -> str:
    from engine import words

    entry = words.UNITS.get(unit)
    if entry is None:
        return unit
    return chinese(entry.zh, locale) if locale.startswith("zh") else entry.en


def draw_trend(
    canvas: Image.Image, trend: Sequence[tuple[date, int]], box: tuple[int, int, int, int]
) -> None:
    """A line plot of the closing balance per day, x by date, y scaled to the range."""
    left, top, right, bottom = box
    draw = ImageDraw.Draw(canvas)
    draw.rounded_rectangle(box, 8, fill=PANEL_DARK)
    inner = (left + 54, top + 12, right - 14, bottom - 12)
    if not trend:
        draw_text(canvas, "-", (left + right) / 2, (top + bottom) / 2 - 12, 22, MUTED, anchor="m")
        return
    values = [value for _, value in trend]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    first, last = trend[0][0].toordinal(), trend[-1][0].toordinal()
    span = max(1, last - first)

    def point(day: date, value: int) -> tuple[float, float]:
        x = inner[0] + (inner[2] - inner[0]) * (day.toordinal() - first) / span
        y = inner[3] - (inner[3] - inner[1]) * (value - low) / (high - low)
        return x, y

    for value in (low, high):
        _, y = point(trend[0][0], value)
        draw.line((inner[0], y, inner[2], y), fill=PLOT_GRID, width=1)
        draw_text(canvas, str(value), inner[0] - 8, y - 9, 14, MUTED, anchor="r")
    points = [point(day, value) for day, value in trend]
    if len(points) == 1:
        points = [(inner[0], points[0][1]), (inner[2], points[0][1])]
    draw.line(points, fill=PLOT_LINE, width=3, joint="curve")
    end_x, end_y = points[-1]
    draw.ellipse((end_x - 5, end_y - 5, end_x + 5, end_y + 5), fill=PLOT_LINE)


__all__ = ["card_figures", "compose_stats", "draw_trend", "render_stats"]
