"""The ``/stats`` card: a player's rates, biggest hand, winning types and balance trend.

It draws a ``data.PlayerStats`` (any object with its fields): every figure on the card is
computed here from those counts, so the card and the text reply cannot disagree, and the
rates follow the definitions in ``data.models.PlayerStats``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from PIL import Image

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
    palette_canvas,
    signed,
    surface_draw,
)
from .text import chinese, fit_text, label, text_width

WIDTH = 900
HEIGHT = 960
MARGIN = 24
# Sizes in source px: a phone shows the 900 px card about 360 px wide (40 %), so the
# figures and the lines of data are 30 to 40 (12 to 16 CSS px), labels and the chart's
# axis 26 (10 CSS px), as phone_images.md asks.
FIGURE_SIZE = 40
DATA_SIZE = 30
LABEL_SIZE = 26
LINE_H = 42
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
    canvas = palette_canvas((WIDTH, HEIGHT), FELT)  # composed on the shared palette
    draw = surface_draw(canvas)
    header_h = 84
    draw.rectangle((0, 0, WIDTH, header_h), fill=PANEL_DARK)
    x = MARGIN + draw_text(canvas, label("stats_title", locale), MARGIN, 10, 42, GOLD) + 18
    x += draw_text(canvas, fit_text(isolate(name), 32, 300), x, 20, 32, CREAM) + 16
    draw_text(canvas, fit_text(subtitle, LABEL_SIZE, WIDTH - MARGIN - x), x, 28, LABEL_SIZE, MUTED)

    # Six figures in two rows of three boxes.
    figures = card_figures(stats)
    box_w, box_h, gap = (WIDTH - 2 * MARGIN - 2 * 16) // 3, 104, 16
    for index, (key, value) in enumerate(figures.items()):
        column, row = index % 3, index // 3
        left = MARGIN + column * (box_w + gap)
        top = header_h + 16 + row * (box_h + 12)
        draw.rounded_rectangle((left, top, left + box_w, top + box_h), 10, fill=PANEL)
        draw_text(canvas, fit_text(label(key, locale), LABEL_SIZE, box_w - 28), left + 14,
                  top + 4, LABEL_SIZE, MUTED)  # fmt: skip
        color = (
            net_color(stats.net) if key in ("stats_net", "stats_mean") and stats.hands else CREAM
        )
        draw_text(canvas, value, left + box_w - 14, top + 40, FIGURE_SIZE, color, anchor="r")

    # The biggest hand and the most frequent winning types, side by side.
    y = header_h + 16 + 2 * (box_h + 12) + 8
    col_w = 500  # the biggest hand's items ("Win on Kong Replacement 1 fan") need the room
    types_w = WIDTH - 2 * MARGIN - 20 - col_w
    left_right = MARGIN + col_w
    draw_text(canvas, label("stats_biggest", locale), MARGIN, y, DATA_SIZE, GOLD)
    biggest = stats.biggest
    line_y = y + LINE_H + 4
    if biggest is None:
        draw_text(canvas, "-", MARGIN, line_y, DATA_SIZE, MUTED)
    else:
        when = biggest.created_at.date().isoformat()
        points_w = draw_text(canvas, f"+{biggest.points}", MARGIN, line_y - 4, 34, net_color(1))
        draw_text(canvas, fit_text(when, DATA_SIZE, col_w - points_w - 16), left_right, line_y,
                  DATA_SIZE, MUTED, anchor="r")  # fmt: skip
        line_y += LINE_H
        for key, value, unit in biggest.items[:5]:
            value_text = f"{value} {unit_name(unit, locale)}"
            value_w = draw_text(canvas, value_text, left_right, line_y, DATA_SIZE, MUTED,
                                anchor="r")  # fmt: skip
            name_text = fit_text(item_name(biggest.variant, key, locale), DATA_SIZE,
                                 col_w - value_w - 16)  # fmt: skip
            draw_text(canvas, name_text, MARGIN, line_y, DATA_SIZE, CREAM)
            line_y += LINE_H

    types_x = MARGIN + col_w + 20
    draw_text(canvas, label("stats_types", locale), types_x, y, DATA_SIZE, GOLD)
    type_y = y + LINE_H + 4
    if not stats.win_types:
        draw_text(canvas, "-", types_x, type_y, DATA_SIZE, MUTED)
    for variant, key, count in stats.win_types[:5]:
        times = label("stats_times", locale, count=count)
        times_w = draw_text(canvas, times, WIDTH - MARGIN, type_y, DATA_SIZE, MUTED, anchor="r")
        name_text = fit_text(item_name(variant, key, locale), DATA_SIZE, types_w - times_w - 16)
        draw_text(canvas, name_text, types_x, type_y, DATA_SIZE, CREAM)
        type_y += LINE_H

    plot_top = y + LINE_H + 4 + 6 * LINE_H - 6
    draw_text(canvas, label("stats_trend", locale), MARGIN, plot_top, DATA_SIZE, GOLD)
    draw_trend(canvas, stats.trend, (MARGIN, plot_top + LINE_H + 4, WIDTH - MARGIN, HEIGHT - 16))
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
    draw = surface_draw(canvas)
    draw.rounded_rectangle(box, 8, fill=PANEL_DARK)
    if not trend:
        draw_text(canvas, "-", (left + right) / 2, (top + bottom) / 2 - 20, DATA_SIZE, MUTED,
                  anchor="m")  # fmt: skip
        return
    # Room on the left for the balances (26 px: the axis labels a phone must still read)
    # and below for the first and last day.
    values = [value for _, value in trend]
    axis_w = max(text_width(str(value), LABEL_SIZE) for value in (min(values), max(values)))
    inner = (left + axis_w + 26, top + 22, right - 18, bottom - 48)
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
        draw_text(canvas, str(value), inner[0] - 10, y - 19, LABEL_SIZE, MUTED, anchor="r")
    first_day, last_day = trend[0][0].isoformat(), trend[-1][0].isoformat()
    draw_text(canvas, first_day, inner[0], inner[3] + 8, LABEL_SIZE, MUTED)
    if last_day != first_day:
        draw_text(canvas, last_day, inner[2], inner[3] + 8, LABEL_SIZE, MUTED, anchor="r")
    points = [point(day, value) for day, value in trend]
    if len(points) == 1:
        points = [(inner[0], points[0][1]), (inner[2], points[0][1])]
    draw.line(points, fill=PLOT_LINE, width=3, joint="curve")
    end_x, end_y = points[-1]
    draw.ellipse((end_x - 5, end_y - 5, end_x + 5, end_y + 5), fill=PLOT_LINE)


__all__ = ["card_figures", "compose_stats", "draw_trend", "render_stats"]
