"""Leaderboard weeks: ISO weeks, Monday 00:00 to Monday 00:00 in a guild's time zone."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from .models import WeekBounds, validate_timezone


def as_utc(moment: datetime) -> datetime:
    """An aware UTC datetime; a naive one is taken to be UTC already (as ``utcnow()`` gives)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def local_day_and_week(moment: datetime, timezone: str) -> tuple[date, date]:
    """The local date of ``moment`` in ``timezone`` and the Monday of its week."""
    local = as_utc(moment).astimezone(validate_timezone(timezone))
    day = local.date()
    return day, day - timedelta(days=day.weekday())


def bounds_for_week_start(week_start: date, timezone: str) -> WeekBounds:
    if week_start.weekday() != 0:
        raise ValueError(
            f"周起始必须是星期一 / a week starts on a Monday, got {week_start} ({week_start:%A})"
        )
    zone = validate_timezone(timezone)
    start = datetime.combine(week_start, time(0), tzinfo=zone)
    end = datetime.combine(week_start + timedelta(days=7), time(0), tzinfo=zone)
    return WeekBounds(week_start=week_start, start=start, end=end, timezone=timezone)


def week_bounds(timezone: str, weeks_ago: int = 0, now: datetime | None = None) -> WeekBounds:
    """The week ``weeks_ago`` weeks before the one containing ``now`` (default: this moment)."""
    if weeks_ago < 0:
        raise ValueError("weeks_ago must be 0 or more")
    _, this_monday = local_day_and_week(now or datetime.now(UTC), timezone)
    return bounds_for_week_start(this_monday - timedelta(weeks=weeks_ago), timezone)


def month_start_of(day: date, months_ago: int = 0) -> date:
    """The first day of ``day``'s month, ``months_ago`` months earlier: a season's key."""
    index = day.year * 12 + day.month - 1 - months_ago
    return date(index // 12, index % 12 + 1, 1)


def next_month(month_start: date) -> date:
    """The first day of the month after ``month_start``'s (a season's exclusive end)."""
    index = month_start.year * 12 + month_start.month
    return date(index // 12, index % 12 + 1, 1)
