"""Dates as players read them: a leaderboard week as "11月23日–29日" or "Nov 23–29",
not as the ISO week name ``2026-W48`` nobody outside a calendar office can place.

Pure functions (standard library only), so the bot can call them when it builds the
leaderboard's subtitle and tests can pin every month and year boundary.
"""

from __future__ import annotations

from datetime import date, timedelta

__all__ = ["iso_week_dates", "week_dates"]

_MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def week_dates(week_start: date, locale: str = "zh") -> str:
    """The seven days from ``week_start``: "11月23日–29日" (zh-CN and zh-TW read the same
    digits) or "Nov 23–29"; a week across a month names both months ("11月30日–12月6日",
    "Nov 30 – Dec 6"), across a year it adds the years."""
    end = week_start + timedelta(days=6)
    if locale.lower().startswith("zh"):
        first = f"{week_start.month}月{week_start.day}日"
        last = f"{end.day}日" if end.month == week_start.month else f"{end.month}月{end.day}日"
        if end.year != week_start.year:
            first, last = f"{week_start.year}年{first}", f"{end.year}年{last}"
        return f"{first}–{last}"
    first = f"{_MONTHS_EN[week_start.month - 1]} {week_start.day}"
    if end.year != week_start.year:
        return f"{first}, {week_start.year} – {_MONTHS_EN[end.month - 1]} {end.day}, {end.year}"
    if end.month != week_start.month:
        return f"{first} – {_MONTHS_EN[end.month - 1]} {end.day}"
    return f"{first}–{end.day}"


def iso_week_dates(year: int, week: int, locale: str = "zh") -> str:
    """ISO week ``week`` of ``year`` (Monday to Sunday) as ``week_dates`` writes it."""
    return week_dates(date.fromisocalendar(year, week, 1), locale)
