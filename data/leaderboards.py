"""Leaderboards read from the weekly and all-time aggregates, and a player's history."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from .ledger import _ledger_entry
from .models import (
    LeaderboardRow,
    LedgerEntry,
    WeekBounds,
)
from .settings import SettingsPart
from .weeks import week_bounds


class LeaderboardsPart(SettingsPart):
    """Weekly and all-time leaderboards and history (``Store`` mixes this in)."""

    async def week_bounds(
        self, guild_id: int, weeks_ago: int = 0, now: datetime | None = None
    ) -> WeekBounds:
        """The guild's week ``weeks_ago`` weeks back, in its current time zone."""
        settings = await self.get_settings(guild_id)
        return week_bounds(settings.timezone, weeks_ago, self._now(now))

    async def weekly_leaderboard(
        self,
        guild_id: int,
        weeks_ago: int = 0,
        *,
        week_start: date | None = None,
        limit: int = 10,
        now: datetime | None = None,
    ) -> list[LeaderboardRow]:
        """Top players of a week by net points (ties: more wins, then lower user id).

        Give ``week_start`` (a Monday, local date) for any past week, or ``weeks_ago``.
        """
        if week_start is None:
            week_start = (await self.week_bounds(guild_id, weeks_ago, now)).week_start
        elif week_start.weekday() != 0:
            raise ValueError(f"周起始必须是星期一 / week_start must be a Monday, got {week_start}")
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT user_id, net, hands, wins, biggest FROM weekly_stats"
                " WHERE guild_id = ? AND week_start = ?"
                " ORDER BY net DESC, wins DESC, user_id LIMIT ?",
                (guild_id, week_start.isoformat(), limit),
            ).fetchall()
        )
        return [LeaderboardRow(*map(int, row)) for row in rows]

    async def alltime_leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderboardRow]:
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT user_id, net, hands, wins, biggest FROM player_stats WHERE guild_id = ?"
                " ORDER BY net DESC, wins DESC, user_id LIMIT ?",
                (guild_id, limit),
            ).fetchall()
        )
        return [LeaderboardRow(*map(int, row)) for row in rows]

    async def player_week(
        self, guild_id: int, user_id: int, week_start: date
    ) -> LeaderboardRow | None:
        """One player's line for a week (for "your rank" replies), or None if they did not play."""
        row = await self._read(
            lambda connection: connection.execute(
                "SELECT user_id, net, hands, wins, biggest FROM weekly_stats"
                " WHERE guild_id = ? AND week_start = ? AND user_id = ?",
                (guild_id, week_start.isoformat(), user_id),
            ).fetchone()
        )
        return LeaderboardRow(*map(int, row)) if row else None

    async def leaderboard_weeks(self, guild_id: int, limit: int = 52) -> list[date]:
        """Mondays of the weeks with any play, newest first."""
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT DISTINCT week_start FROM weekly_stats WHERE guild_id = ?"
                " ORDER BY week_start DESC LIMIT ?",
                (guild_id, limit),
            ).fetchall()
        )
        return [date.fromisoformat(row[0]) for row in rows]

    async def history(
        self,
        guild_id: int,
        user_id: int,
        limit: int = 10,
        kinds: Sequence[str] = ("hand",),
    ) -> list[LedgerEntry]:
        """The user's last ``limit`` ledger rows of the given kinds, newest first."""
        kinds = tuple(kinds)
        marks = ", ".join("?" * len(kinds))
        rows = await self._read(
            lambda connection: connection.execute(
                f"SELECT * FROM ledger WHERE guild_id = ? AND user_id = ? AND kind IN ({marks})"
                " ORDER BY id DESC LIMIT ?",
                (guild_id, user_id, *kinds, limit),
            ).fetchall()
        )
        return [_ledger_entry(row) for row in rows]
