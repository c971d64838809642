"""Balances and the exactly-once ledger: settlement, penalties, adjustments and the
checks that every balance is explained by its ledger rows (see ``data.store``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import date, datetime

from .caps import apply_caps, player_limit
from .connection import _check_int, _iso
from .models import (
    GuildSettings,
    HandOutcome,
    LedgerEntry,
    SettlementEntry,
    StatementLine,
)
from .settings import SettingsPart, _load_settings
from .weeks import local_day_and_week

# Portable SQL (SQLite and PostgreSQL, see data.postgres): CASE instead of boolean sums and
# scalar MAX(a, b), upsert columns qualified by their table, "column = ?1 OR ?1 IS NULL" in
# that order (PostgreSQL types the parameter from its first use).
_REBUILD_STATS_SQL: tuple[str, ...] = (
    """
    INSERT INTO weekly_stats (guild_id, week_start, user_id, net, hands, wins, biggest)
    SELECT guild_id, week_start, user_id, SUM(points),
           SUM(CASE WHEN kind = 'hand' THEN 1 ELSE 0 END),
           SUM(CASE WHEN kind = 'hand' AND is_winner <> 0 THEN 1 ELSE 0 END),
           CASE WHEN MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END) > 0
                THEN MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END) ELSE 0 END
    FROM ledger AS l
    WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty') AND (guild_id = ?1 OR ?1 IS NULL)
      AND (user_id = ?2 OR ?2 IS NULL) AND NOT_VOIDED AND ON_BOARDS
    GROUP BY guild_id, week_start, user_id
    """,
    """
    INSERT INTO player_stats (guild_id, user_id, net, hands, wins, biggest)
    SELECT guild_id, user_id, SUM(points), SUM(CASE WHEN kind = 'hand' THEN 1 ELSE 0 END),
           SUM(CASE WHEN kind = 'hand' AND is_winner <> 0 THEN 1 ELSE 0 END),
           CASE WHEN MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END) > 0
                THEN MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END) ELSE 0 END
    FROM ledger AS l
    WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty') AND (guild_id = ?1 OR ?1 IS NULL)
      AND (user_id = ?2 OR ?2 IS NULL) AND NOT_VOIDED AND ON_BOARDS
    GROUP BY guild_id, user_id
    """,
    """
    INSERT INTO daily_stats (guild_id, user_id, local_day, net)
    SELECT guild_id, user_id, local_day, SUM(points)
    FROM ledger AS l
    WHERE user_id IS NOT NULL AND kind = 'hand' AND (guild_id = ?1 OR ?1 IS NULL)
      AND (user_id = ?2 OR ?2 IS NULL) AND NOT_VOIDED
    GROUP BY guild_id, user_id, local_day
    """,
)

# The /stats and monthly-season aggregates (migration 0004), recomputed from the ledger and
# hand_outcomes with the migration's backfill statements (plus the guild filter). Portable
# SQL: CASE instead of boolean sums, SUBSTR and || instead of date functions.
_DETAIL_TABLES = (
    "player_day_stats", "player_day_types", "player_day_balance", "monthly_stats", "variant_stats"
)  # fmt: skip

_REBUILD_DETAIL_SQL: tuple[str, ...] = (
    """
    INSERT INTO player_day_stats
        (guild_id, user_id, local_day, variant, hands, wins, self_draws, deal_ins, net, biggest,
         biggest_op)
    SELECT guild_id, user_id, local_day, variant, COUNT(*),
           SUM(CASE WHEN is_winner = 1 THEN 1 ELSE 0 END),
           SUM(CASE WHEN is_winner = 1 AND win_by = 'self_draw' THEN 1 ELSE 0 END),
           SUM(CASE WHEN dealt_in_seat = seat THEN 1 ELSE 0 END),
           SUM(points),
           MAX(CASE WHEN points > 0 THEN points ELSE 0 END),
           MIN(CASE WHEN points > 0 AND day_rank = 1 THEN op_id END)
    FROM (SELECT l.guild_id, l.user_id, l.local_day, l.seat, l.points, l.is_winner, l.op_id,
                 o.win_by, o.dealt_in_seat, COALESCE(o.variant, g.variant, '') AS variant,
                 ROW_NUMBER() OVER (
                     PARTITION BY l.guild_id, l.user_id, l.local_day, COALESCE(o.variant, g.variant, '')
                     ORDER BY l.points DESC, l.op_id) AS day_rank
          FROM ledger AS l
          LEFT JOIN hand_outcomes AS o ON o.op_id = l.op_id
          LEFT JOIN games AS g ON g.game_id = l.game_id
          WHERE l.kind = 'hand' AND l.user_id IS NOT NULL
            AND (l.guild_id = ?1 OR ?1 IS NULL) AND (l.user_id = ?2 OR ?2 IS NULL)
            AND NOT_VOIDED) AS hand_rows
    GROUP BY guild_id, user_id, local_day, variant
    """,
    """
    INSERT INTO player_day_types (guild_id, user_id, local_day, variant, win_type, wins)
    SELECT l.guild_id, l.user_id, l.local_day, o.variant, t.win_type, COUNT(*)
    FROM ledger AS l
    JOIN hand_outcomes AS o ON o.op_id = l.op_id
    JOIN hand_win_types AS t ON t.op_id = l.op_id
    WHERE l.kind = 'hand' AND l.user_id IS NOT NULL AND l.is_winner = 1
      AND (l.guild_id = ?1 OR ?1 IS NULL) AND (l.user_id = ?2 OR ?2 IS NULL) AND NOT_VOIDED
    GROUP BY l.guild_id, l.user_id, l.local_day, o.variant, t.win_type
    """,
    """
    INSERT INTO player_day_balance (guild_id, user_id, local_day, balance)
    SELECT l.guild_id, l.user_id, l.local_day, l.balance_after
    FROM ledger AS l
    JOIN (SELECT MAX(id) AS last_id FROM ledger
          WHERE user_id IS NOT NULL AND balance_after IS NOT NULL
            AND (guild_id = ?1 OR ?1 IS NULL) AND (user_id = ?2 OR ?2 IS NULL)
          GROUP BY guild_id, user_id, local_day) AS last ON last.last_id = l.id
    """,
    """
    INSERT INTO monthly_stats (guild_id, month_start, user_id, net, hands, wins, biggest)
    SELECT guild_id, SUBSTR(local_day, 1, 8) || '01', user_id, SUM(points),
           SUM(CASE WHEN kind = 'hand' THEN 1 ELSE 0 END),
           SUM(CASE WHEN kind = 'hand' AND is_winner = 1 THEN 1 ELSE 0 END),
           MAX(CASE WHEN kind = 'hand' AND points > 0 THEN points ELSE 0 END)
    FROM ledger AS l
    WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty') AND (guild_id = ?1 OR ?1 IS NULL)
      AND (user_id = ?2 OR ?2 IS NULL) AND NOT_VOIDED AND ON_BOARDS
    GROUP BY guild_id, SUBSTR(local_day, 1, 8) || '01', user_id
    """,
    """
    INSERT INTO variant_stats (guild_id, variant, user_id, net, hands, wins, biggest)
    SELECT l.guild_id, COALESCE(o.variant, g.variant, ''), l.user_id, SUM(l.points),
           SUM(CASE WHEN l.kind = 'hand' THEN 1 ELSE 0 END),
           SUM(CASE WHEN l.kind = 'hand' AND l.is_winner = 1 THEN 1 ELSE 0 END),
           MAX(CASE WHEN l.kind = 'hand' AND l.points > 0 THEN l.points ELSE 0 END)
    FROM ledger AS l
    LEFT JOIN hand_outcomes AS o ON o.op_id = l.op_id
    LEFT JOIN games AS g ON g.game_id = l.game_id
    WHERE l.user_id IS NOT NULL AND l.kind IN ('hand', 'penalty')
      AND (l.guild_id = ?1 OR ?1 IS NULL) AND (l.user_id = ?2 OR ?2 IS NULL) AND NOT_VOIDED AND ON_BOARDS
    GROUP BY l.guild_id, COALESCE(o.variant, g.variant, ''), l.user_id
    """,
)

# A voided hand's rows (migration 10) count in no aggregate: its points were reversed.
NOT_VOIDED_SQL = "NOT EXISTS (SELECT 1 FROM voided_hands AS v WHERE v.op_id = l.op_id)"
# A hand with an AI seat (a ledger row paid to nobody) counts on no leaderboard where the
# guild turned ai_hands_on_boards off (migration 11); penalties always count.
ON_BOARDS_SQL = (
    "(l.kind <> 'hand'"
    " OR NOT EXISTS (SELECT 1 FROM guild_settings AS s"
    " WHERE s.guild_id = l.guild_id AND s.ai_hands_on_boards = 0)"
    " OR NOT EXISTS (SELECT 1 FROM ledger AS a"
    " WHERE a.op_id = l.op_id AND a.kind = 'hand' AND a.user_id IS NULL))"
)


def _conditions(sql: str) -> str:
    return sql.replace("NOT_VOIDED", NOT_VOIDED_SQL).replace("ON_BOARDS", ON_BOARDS_SQL)


_BOARD_TABLES = ("weekly_stats", "player_stats", "monthly_stats", "variant_stats")
_REBUILD_STATS_SQL = tuple(_conditions(sql) for sql in _REBUILD_STATS_SQL)
_REBUILD_DETAIL_SQL = tuple(_conditions(sql) for sql in _REBUILD_DETAIL_SQL)
_AGGREGATE_TABLES = ("weekly_stats", "player_stats", "daily_stats", *_DETAIL_TABLES)

# A user's statement (``LedgerPart.statement``): hand rows grouped by match, any other
# row alone; the newest groups first, with the last row's balance and the game's rule set.
# Portable: CASE and CAST for the group key, aggregates over every selected column.
_STATEMENT_SQL = """
SELECT grouped.kind, grouped.points, grouped.original_points, last_row.balance_after,
       last_row.created_at, grouped.game_id, games.variant, grouped.row_count, grouped.wins,
       last_row.reason, last_row.by_user
FROM (SELECT kind, MAX(game_id) AS game_id, MAX(id) AS last_id, COUNT(*) AS row_count,
             SUM(points) AS points, SUM(original_points) AS original_points,
             SUM(CASE WHEN is_winner <> 0 THEN 1 ELSE 0 END) AS wins
      FROM ledger
      WHERE guild_id = ? AND user_id = ?
      GROUP BY kind, CASE WHEN kind = 'hand' THEN game_id ELSE CAST(id AS TEXT) END) AS grouped
JOIN ledger AS last_row ON last_row.id = grouped.last_id
LEFT JOIN games ON games.game_id = grouped.game_id
ORDER BY grouped.last_id DESC
LIMIT ?
"""

_LEDGER_COLUMNS = (
    "op_id, guild_id, kind, game_id, hand_number, seat, user_id, units, stake, points,"
    " original_points, capped, is_winner, reason, by_user, balance_after, created_at,"
    " week_start, local_day"
)

_INSERT_LEDGER = f"INSERT INTO ledger ({_LEDGER_COLUMNS}) VALUES ({', '.join('?' * 19)})"


def _totals_upsert(table: str, *keys: str) -> str:
    """The upsert adding a hand's (or a penalty's) figures to one leaderboard aggregate
    keyed by ``guild_id`` and ``keys``: net, hands and wins add up, biggest keeps the max."""
    columns = ", ".join(("guild_id", *keys))
    marks = ", ".join("?" * (len(keys) + 5))
    return f"""
    INSERT INTO {table} ({columns}, net, hands, wins, biggest)
    VALUES ({marks})
    ON CONFLICT ({columns}) DO UPDATE SET
        net = {table}.net + excluded.net, hands = {table}.hands + excluded.hands,
        wins = {table}.wins + excluded.wins,
        biggest = CASE WHEN excluded.biggest > {table}.biggest
                       THEN excluded.biggest ELSE {table}.biggest END
"""


_UPSERT_WEEKLY = _totals_upsert("weekly_stats", "week_start", "user_id")
_UPSERT_PLAYER = _totals_upsert("player_stats", "user_id")
_UPSERT_MONTHLY = _totals_upsert("monthly_stats", "month_start", "user_id")
_UPSERT_VARIANT = _totals_upsert("variant_stats", "variant", "user_id")

# biggest_op follows biggest: both SET expressions read the row as it was before the
# update, so the op is replaced exactly when the biggest win is (ties keep the first).
_UPSERT_PLAYER_DAY = """
    INSERT INTO player_day_stats (guild_id, user_id, local_day, variant, hands, wins,
                                  self_draws, deal_ins, net, biggest, biggest_op)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (guild_id, user_id, local_day, variant) DO UPDATE SET
        hands = player_day_stats.hands + excluded.hands,
        wins = player_day_stats.wins + excluded.wins,
        self_draws = player_day_stats.self_draws + excluded.self_draws,
        deal_ins = player_day_stats.deal_ins + excluded.deal_ins,
        net = player_day_stats.net + excluded.net,
        biggest = CASE WHEN excluded.biggest > player_day_stats.biggest
                       THEN excluded.biggest ELSE player_day_stats.biggest END,
        biggest_op = CASE WHEN excluded.biggest > player_day_stats.biggest
                          THEN excluded.biggest_op ELSE player_day_stats.biggest_op END
"""

_UPSERT_PLAYER_TYPE = """
    INSERT INTO player_day_types (guild_id, user_id, local_day, variant, win_type, wins)
    VALUES (?, ?, ?, ?, ?, 1)
    ON CONFLICT (guild_id, user_id, local_day, variant, win_type) DO UPDATE SET
        wins = player_day_types.wins + 1
"""

_UPSERT_DAY_BALANCE = """
    INSERT INTO player_day_balance (guild_id, user_id, local_day, balance) VALUES (?, ?, ?, ?)
    ON CONFLICT (guild_id, user_id, local_day) DO UPDATE SET balance = excluded.balance
"""

_UPSERT_DAILY = """
    INSERT INTO daily_stats (guild_id, user_id, local_day, net) VALUES (?, ?, ?, ?)
    ON CONFLICT (guild_id, user_id, local_day) DO UPDATE SET net = daily_stats.net + excluded.net
"""


# Every balance the ledger does not explain, over the whole database, in SQL both SQLite
# and PostgreSQL read as it is: the check a copy must pass (``db copy``, ``db backup``).
UNEXPLAINED_BALANCES_SQL = (
    "SELECT b.guild_id, b.user_id FROM balances AS b"
    " LEFT JOIN ledger AS l ON l.guild_id = b.guild_id AND l.user_id = b.user_id"
    " GROUP BY b.guild_id, b.user_id, b.balance"
    " HAVING b.balance != COALESCE(SUM(l.points), 0)"
)


class LedgerPart(SettingsPart):
    """Balances, settlement, penalties and adjustments (``Store`` mixes this in)."""

    async def ensure_balance(self, guild_id: int, user_id: int) -> int:
        """The user's balance, opening it with the guild's starting balance on first use."""
        _check_int("guild_id", guild_id)
        _check_int("user_id", user_id)
        when = self._now(None)

        def body(connection: sqlite3.Connection) -> int:
            settings = _load_settings(connection, guild_id)
            return _ensure_balance(connection, settings, user_id, when)

        return await self._write(body)

    async def get_balance(self, guild_id: int, user_id: int) -> int:
        """Like ``ensure_balance`` but reads first, so it writes only the first time."""
        balance = await self.peek_balance(guild_id, user_id)
        if balance is not None:
            return balance
        return await self.ensure_balance(guild_id, user_id)

    async def peek_balance(self, guild_id: int, user_id: int) -> int | None:
        """The balance, or None for a user with no account here yet: looking someone up
        must not open an account (an opening row, a place on the all-time board)."""
        row = await self._read(
            lambda connection: connection.execute(
                "SELECT balance FROM balances WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            ).fetchone()
        )
        return None if row is None else int(row[0])

    async def can_sit(self, guild_id: int, user_id: int) -> bool:
        """Whether the user meets the guild's minimum balance to sit (always, if none is set)."""
        settings = await self.get_settings(guild_id)
        if settings.min_balance is None:
            return True
        return await self.get_balance(guild_id, user_id) >= settings.min_balance

    async def top_balances(self, guild_id: int, limit: int = 10) -> list[tuple[int, int]]:
        """(user_id, balance), richest first."""
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT user_id, balance FROM balances WHERE guild_id = ?"
                " ORDER BY balance DESC, user_id LIMIT ?",
                (guild_id, limit),
            ).fetchall()
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def adjust_balance(
        self,
        guild_id: int,
        user_id: int,
        delta: int,
        by_user: int,
        reason: str,
        *,
        key: str | None = None,
        when: datetime | None = None,
    ) -> int:
        """An admin adjustment, recorded with who made it; returns the new balance.

        ``key`` makes it idempotent: a second call with the same key changes nothing and
        returns the current balance. Adjustments do not count in leaderboards.
        """
        _check_int("guild_id", guild_id)
        _check_int("user_id", user_id)
        _check_int("delta", delta)
        _check_int("by_user", by_user)
        if delta == 0:
            raise ValueError("调整额不能为 0 / an adjustment of 0 changes nothing")
        moment = self._now(when)

        def body(connection: sqlite3.Connection) -> int:
            settings = _load_settings(connection, guild_id)
            balance = _ensure_balance(connection, settings, user_id, moment)
            op_key = f"adjustment:{key}" if key is not None else None
            if op_key is not None and _op_exists(connection, op_key):
                return balance
            day, week = local_day_and_week(moment, settings.timezone)
            op_id = _insert_op(
                connection,
                guild_id,
                "adjustment",
                moment,
                op_key=op_key,
                reason=reason,
                by_user=by_user,
            )
            balance += delta
            connection.execute(
                _INSERT_LEDGER,
                (op_id, guild_id, "adjustment", None, None, None, user_id, 0, 0, delta, delta,
                 0, 0, reason, by_user, balance, _iso(moment), week.isoformat(), day.isoformat()),
            )  # fmt: skip
            _set_balance(connection, guild_id, user_id, balance, moment, day.isoformat())
            return balance

        return await self._write(body)

    async def record_penalty(
        self,
        guild_id: int,
        game_id: str | None,
        user_id: int,
        points: int,
        reason: str = "leave",
        beneficiaries: Sequence[int] | None = None,
        *,
        key: str | None = None,
        hand_number: int | None = None,
        when: datetime | None = None,
    ) -> bool:
        """Charge ``points`` (> 0) to ``user_id``, e.g. for leaving a table mid-game.

        The points are split evenly among ``beneficiaries`` (users; the first ones in the
        list get the remainder), or simply removed when there are none. Penalties count
        in the leaderboards' net but not in hands, and are not capped. ``key`` makes the
        call idempotent: False means that key was already recorded.
        """
        _check_int("guild_id", guild_id)
        _check_int("user_id", user_id)
        _check_int("points", points, minimum=1)
        receivers = list(beneficiaries or [])
        for receiver in receivers:
            _check_int("beneficiary", receiver)
        if user_id in receivers:
            raise ValueError("受罚者不能同时获益 / the penalised player cannot be a beneficiary")
        if len(set(receivers)) != len(receivers):
            raise ValueError("beneficiaries must be distinct")
        moment = self._now(when)

        def body(connection: sqlite3.Connection) -> bool:
            op_key = f"penalty:{key}" if key is not None else None
            if op_key is not None and _op_exists(connection, op_key):
                return False
            settings = _load_settings(connection, guild_id)
            day, week = local_day_and_week(moment, settings.timezone)
            shares: list[tuple[int, int]] = [(user_id, -points)]
            if receivers:
                share, remainder = divmod(points, len(receivers))
                shares += [
                    (receiver, share + (1 if index < remainder else 0))
                    for index, receiver in enumerate(receivers)
                ]
            balances = {
                uid: _ensure_balance(connection, settings, uid, moment) for uid, _ in shares
            }
            op_id = _insert_op(
                connection, guild_id, "penalty", moment, op_key=op_key, game_id=game_id,
                hand_number=hand_number, reason=reason,
            )  # fmt: skip
            variant = _game_variant(connection, game_id)  # its rule set's board counts it too
            for uid, amount in shares:
                if amount == 0:
                    continue
                balances[uid] += amount
                connection.execute(
                    _INSERT_LEDGER,
                    (op_id, guild_id, "penalty", game_id, hand_number, None, uid, 0, 0, amount,
                     amount, 0, 0, reason, None, balances[uid], _iso(moment), week.isoformat(),
                     day.isoformat()),
                )  # fmt: skip
                _set_balance(connection, guild_id, uid, balances[uid], moment, day.isoformat())
                connection.execute(
                    _UPSERT_WEEKLY, (guild_id, week.isoformat(), uid, amount, 0, 0, 0)
                )
                connection.execute(_UPSERT_PLAYER, (guild_id, uid, amount, 0, 0, 0))
                connection.execute(
                    _UPSERT_MONTHLY, (guild_id, _month_start(day), uid, amount, 0, 0, 0)
                )
                connection.execute(_UPSERT_VARIANT, (guild_id, variant, uid, amount, 0, 0, 0))
            return True

        return await self._write(body)

    async def settle_hand(
        self,
        guild_id: int,
        game_id: str,
        hand_number: int,
        entries: Sequence[SettlementEntry],
        stake: int,
        reason: str = "hand",
        winner_user: int | None = None,
        when: datetime | None = None,
        outcome: HandOutcome | None = None,
    ) -> bool:
        """Pay out one hand, exactly once. Returns False when it was already settled.

        ``entries``: one per seat, ``units`` the engine's deltas (they must sum to zero);
        points = units x ``stake``, then the guild's caps (``data.caps``). AI seats
        (``user_id`` None) get a row but no balance. All rows, balances and leaderboard
        aggregates commit together or not at all. ``hand_entries`` returns what was paid.
        ``outcome`` (how the hand was won, its rule set and items) is stored beside the
        rows for ``player_stats``; without it the rule set is the game's, if recorded.
        """
        _check_int("guild_id", guild_id)
        _check_int("hand_number", hand_number, minimum=0)
        _check_int("stake", stake, minimum=1)
        if not isinstance(game_id, str) or not game_id:
            raise ValueError("game_id must be a non-empty string")
        entries = list(entries)
        if not entries:
            raise ValueError("a settlement needs at least one entry")
        seats = [entry.seat for entry in entries]
        users = [entry.user_id for entry in entries if entry.user_id is not None]
        for entry in entries:
            _check_int("seat", entry.seat, minimum=0)
            _check_int("units", entry.units)
            if entry.user_id is not None:
                _check_int("user_id", entry.user_id)
        if len(set(seats)) != len(seats):
            raise ValueError(f"duplicate seat in settlement: {seats}")
        if len(set(users)) != len(users):
            raise ValueError(f"a user holds two seats in one settlement: {users}")
        if sum(entry.units for entry in entries) != 0:
            raise ValueError(
                f"一局的输赢之和必须为 0 / a hand must be zero-sum; units {[e.units for e in entries]}"
            )
        if outcome is not None:
            for seat in (outcome.winner_seat, outcome.dealt_in_seat):
                if seat is not None and seat not in seats:
                    raise ValueError(f"outcome names seat {seat}, not in the settlement {seats}")
        moment = self._now(when)
        op_key = f"hand:{game_id}:{hand_number}"

        def body(connection: sqlite3.Connection) -> bool:
            if _op_exists(connection, op_key):
                return False
            settings = _load_settings(connection, guild_id)
            day, week = local_day_and_week(moment, settings.timezone)
            day_text, week_text, created = day.isoformat(), week.isoformat(), _iso(moment)
            balances = {
                entry.user_id: _ensure_balance(connection, settings, entry.user_id, moment)
                for entry in entries
                if entry.user_id is not None
            }
            original = [entry.units * stake for entry in entries]
            points = original
            if settings.hand_cap is not None or settings.day_cap is not None:
                limits = []
                for entry, amount in zip(entries, original, strict=True):
                    day_net = None
                    if settings.day_cap is not None and entry.user_id is not None:
                        row = connection.execute(
                            "SELECT net FROM daily_stats"
                            " WHERE guild_id = ? AND user_id = ? AND local_day = ?",
                            (guild_id, entry.user_id, day_text),
                        ).fetchone()
                        day_net = int(row[0]) if row else 0
                    limits.append(
                        player_limit(amount, settings.hand_cap, settings.day_cap, day_net)
                    )
                points = apply_caps(original, limits)
            hand_capped = points != original
            op_id = _insert_op(
                connection, guild_id, "hand", moment, op_key=op_key, game_id=game_id,
                hand_number=hand_number, stake=stake, reason=reason, winner_user=winner_user,
                capped=hand_capped,
            )  # fmt: skip
            rows = []
            for entry, amount, before_cap in zip(entries, points, original, strict=True):
                balance_after = None
                if entry.user_id is not None:
                    balances[entry.user_id] += amount
                    balance_after = balances[entry.user_id]
                rows.append(
                    (op_id, guild_id, "hand", game_id, hand_number, entry.seat, entry.user_id,
                     entry.units, stake, amount, before_cap, int(amount != before_cap),
                     int(entry.is_winner), reason, None, balance_after, created, week_text,
                     day_text)
                )  # fmt: skip
            connection.executemany(_INSERT_LEDGER, rows)
            self._fault("rows_written")
            variant = _record_outcome(connection, op_id, guild_id, game_id, outcome)
            month_text = _month_start(day)
            on_boards = settings.ai_hands_on_boards or all(
                entry.user_id is not None for entry in entries
            )
            # One executemany per statement rather than one execute per player: on a server
            # database each statement is a round trip, and executemany pipelines its rows.
            balance_rows, day_balance_rows, weekly_rows, monthly_rows = [], [], [], []
            player_rows, daily_rows, player_day_rows, variant_rows = [], [], [], []
            player_type_rows: list[tuple[int, int, str, str, str]] = []
            for entry, amount in zip(entries, points, strict=True):
                if entry.user_id is None:
                    continue
                uid = entry.user_id
                wins, biggest = int(entry.is_winner), max(0, amount)
                balance_rows.append((balances[uid], created, guild_id, uid))
                day_balance_rows.append((guild_id, uid, day_text, balances[uid]))
                if on_boards:
                    weekly_rows.append((guild_id, week_text, uid, amount, 1, wins, biggest))
                    monthly_rows.append((guild_id, month_text, uid, amount, 1, wins, biggest))
                    player_rows.append((guild_id, uid, amount, 1, wins, biggest))
                    variant_rows.append((guild_id, variant, uid, amount, 1, wins, biggest))
                daily_rows.append((guild_id, uid, day_text, amount))
                self_draw = int(
                    entry.is_winner and outcome is not None and outcome.win_by == "self_draw"
                )
                deal_in = int(outcome is not None and outcome.dealt_in_seat == entry.seat)
                player_day_rows.append(
                    (guild_id, uid, day_text, variant, 1, wins, self_draw, deal_in, amount,
                     biggest, op_id if biggest > 0 else None)
                )  # fmt: skip
                if entry.is_winner and outcome is not None:
                    player_type_rows.extend(
                        (guild_id, uid, day_text, variant, kind)
                        for kind in dict.fromkeys(outcome.win_types)
                    )
            if balance_rows:
                connection.executemany(_SET_BALANCE, balance_rows)
                connection.executemany(_UPSERT_DAY_BALANCE, day_balance_rows)
                if on_boards:
                    connection.executemany(_UPSERT_WEEKLY, weekly_rows)
                    connection.executemany(_UPSERT_MONTHLY, monthly_rows)
                    connection.executemany(_UPSERT_PLAYER, player_rows)
                    connection.executemany(_UPSERT_VARIANT, variant_rows)
                connection.executemany(_UPSERT_DAILY, daily_rows)
                connection.executemany(_UPSERT_PLAYER_DAY, player_day_rows)
            if player_type_rows:
                connection.executemany(_UPSERT_PLAYER_TYPE, player_type_rows)
            return True

        return await self._write(body)

    async def is_settled(self, game_id: str, hand_number: int) -> bool:
        op_key = f"hand:{game_id}:{hand_number}"
        return await self._read(lambda connection: _op_exists(connection, op_key))

    async def hand_entries(self, game_id: str, hand_number: int) -> list[LedgerEntry]:
        """The rows one settled hand wrote, by seat (empty if not settled)."""
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT * FROM ledger WHERE game_id = ? AND hand_number = ? AND kind = 'hand'"
                " ORDER BY seat",
                (game_id, hand_number),
            ).fetchall()
        )
        return [_ledger_entry(row) for row in rows]

    async def hand_void(self, game_id: str, hand_number: int) -> LedgerEntry | None:
        """The first row of the void that reversed this hand (who, why, when), or None
        while the hand stands."""
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT * FROM ledger WHERE op_id = (SELECT op_id FROM ledger_ops"
                " WHERE op_key = ?) ORDER BY id LIMIT 1",
                (_void_key(game_id, hand_number),),
            ).fetchall()
        )
        return _ledger_entry(rows[0]) if rows else None

    async def void_hand(
        self,
        guild_id: int,
        game_id: str,
        hand_number: int,
        by_user: int,
        reason: str,
        *,
        when: datetime | None = None,
    ) -> list[LedgerEntry]:
        """Reverse one settled hand of ``guild_id`` (an admin's decision): each player's
        points from it, as credited (after caps), go back by a ``void`` row, in one
        transaction with the new balances; the hand then counts in no aggregate (boards,
        stats, the day cap), which are recomputed for its players. Returns the void's
        rows. Raises ``VoidRefused`` ("not_settled", "already_void"): nothing changes."""
        _check_int("guild_id", guild_id)
        _check_int("hand_number", hand_number, minimum=0)
        _check_int("by_user", by_user)
        moment = self._now(when)

        def body(connection: sqlite3.Connection) -> list[LedgerEntry]:
            hand = connection.execute(
                "SELECT op_id FROM ledger_ops WHERE op_key = ? AND guild_id = ?",
                (f"hand:{game_id}:{hand_number}", guild_id),
            ).fetchone()
            if hand is None:
                raise VoidRefused("not_settled")
            hand_op = int(hand[0])
            if _op_exists(connection, _void_key(game_id, hand_number)):
                raise VoidRefused("already_void")
            paid = connection.execute(
                "SELECT seat, user_id, units, stake, points FROM ledger"
                " WHERE op_id = ? AND kind = 'hand' AND user_id IS NOT NULL ORDER BY seat",
                (hand_op,),
            ).fetchall()
            settings = _load_settings(connection, guild_id)
            day, week = local_day_and_week(moment, settings.timezone)
            op_id = _insert_op(
                connection, guild_id, "void", moment, op_key=_void_key(game_id, hand_number),
                game_id=game_id, hand_number=hand_number, reason=reason, by_user=by_user,
            )  # fmt: skip
            for seat, user, units, stake, points in paid:
                balance = _ensure_balance(connection, settings, int(user), moment) - int(points)
                connection.execute(
                    _INSERT_LEDGER,
                    (op_id, guild_id, "void", game_id, hand_number, seat, user, -int(units),
                     stake, -int(points), -int(points), 0, 0, reason, by_user, balance,
                     _iso(moment), week.isoformat(), day.isoformat()),
                )  # fmt: skip
                _set_balance(connection, guild_id, int(user), balance, moment, day.isoformat())
            connection.execute(
                "INSERT INTO voided_hands (op_id, void_op_id) VALUES (?, ?)", (hand_op, op_id)
            )
            for user in dict.fromkeys(int(row[1]) for row in paid):
                _rebuild_aggregates(connection, guild_id, user)
            rows = connection.execute(
                "SELECT * FROM ledger WHERE op_id = ? ORDER BY seat", (op_id,)
            ).fetchall()
            return [_ledger_entry(row) for row in rows]

        return await self._write(body)

    async def statement(self, guild_id: int, user_id: int, limit: int = 10) -> list[StatementLine]:
        """The user's latest balance movements, newest first: each match's settled hands
        as one line, each opening, penalty and adjustment as its own.

        One grouped query over the ``ledger_user_history`` index's rows of the user (a
        match's hands are grouped by game, anything else by its own row), then each
        group's last row for the balance after it and the game for its rule set.
        """
        _check_int("guild_id", guild_id)
        _check_int("user_id", user_id)
        _check_int("limit", limit, minimum=1)
        rows = await self._read(
            lambda connection: connection.execute(_STATEMENT_SQL, (guild_id, user_id, limit))
            .fetchall()
        )  # fmt: skip
        return [
            StatementLine(
                kind=str(row[0]),
                points=int(row[1]),
                original_points=int(row[2]),
                balance_after=None if row[3] is None else int(row[3]),
                at=datetime.fromisoformat(str(row[4])),
                game_id=row[5],
                variant=row[6],
                hands=int(row[7]) if row[0] == "hand" else 0,
                wins=int(row[8]),
                reason=str(row[9] or ""),
                by_user=None if row[10] is None else int(row[10]),
            )
            for row in rows
        ]

    async def rebuild_stats(self, guild_id: int | None = None) -> None:
        """Recompute every aggregate (leaderboards, seasons, day caps, ``player_stats``)
        from the ledger and the hands' outcomes (one guild or all)."""

        await self._write(lambda connection: _rebuild_aggregates(connection, guild_id, None))

    async def verify_balances(self, guild_id: int | None = None) -> list[tuple[int, int, int, int]]:
        """(guild, user, balance, ledger sum) for every balance the ledger does not explain."""
        rows = await self._read(
            lambda connection: connection.execute(
                """
                SELECT b.guild_id, b.user_id, b.balance, COALESCE(SUM(l.points), 0) AS total
                FROM balances AS b
                LEFT JOIN ledger AS l ON l.guild_id = b.guild_id AND l.user_id = b.user_id
                WHERE b.guild_id = ?1 OR ?1 IS NULL
                GROUP BY b.guild_id, b.user_id, b.balance
                HAVING b.balance != COALESCE(SUM(l.points), 0)
                """,
                (guild_id,),
            ).fetchall()
        )
        return [tuple(int(value) for value in row) for row in rows]  # type: ignore[misc]


class VoidRefused(ValueError):
    """A hand that cannot be voided: ``why`` is "not_settled" (no such settled hand in
    that guild) or "already_void"."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def _void_key(game_id: str, hand_number: int) -> str:
    """The void's op_key: unique, so a hand is voided once however many ask at once."""
    return f"void:{game_id}:{hand_number}"


def _op_exists(connection: sqlite3.Connection, op_key: str) -> bool:
    return (
        connection.execute("SELECT 1 FROM ledger_ops WHERE op_key = ?", (op_key,)).fetchone()
        is not None
    )


def _rebuild_aggregates(
    connection: sqlite3.Connection, guild_id: int | None, user_id: int | None
) -> None:
    """Every aggregate row of one guild (None: all) and one user (None: all), recomputed
    from the ledger and the hands' outcomes."""
    for table in _AGGREGATE_TABLES:
        connection.execute(
            f"DELETE FROM {table} WHERE (guild_id = ?1 OR ?1 IS NULL)"
            " AND (user_id = ?2 OR ?2 IS NULL)",
            (guild_id, user_id),
        )
    for statement in (*_REBUILD_STATS_SQL, *_REBUILD_DETAIL_SQL):
        connection.execute(statement, (guild_id, user_id))


def rebuild_boards(connection: sqlite3.Connection, guild_id: int) -> None:
    """The guild's leaderboard aggregates recomputed from the ledger, in the caller's
    transaction: ``ai_hands_on_boards`` changed, and the boards follow it."""
    statements = [
        sql
        for sql in (*_REBUILD_STATS_SQL, *_REBUILD_DETAIL_SQL)
        if any(f"INSERT INTO {table} " in sql for table in _BOARD_TABLES)
    ]
    assert len(statements) == len(_BOARD_TABLES)
    for table in _BOARD_TABLES:
        connection.execute(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
    for statement in statements:
        connection.execute(statement, (guild_id, None))


def _insert_op(
    connection: sqlite3.Connection,
    guild_id: int,
    kind: str,
    when: datetime,
    *,
    op_key: str | None = None,
    game_id: str | None = None,
    hand_number: int | None = None,
    stake: int | None = None,
    reason: str = "",
    by_user: int | None = None,
    winner_user: int | None = None,
    capped: bool = False,
) -> int:
    row = connection.execute(
        "INSERT INTO ledger_ops (guild_id, kind, op_key, game_id, hand_number, stake, reason,"
        " by_user, winner_user, capped, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " RETURNING op_id",
        (guild_id, kind, op_key, game_id, hand_number, stake, reason, by_user, winner_user,
         int(capped), _iso(when)),
    ).fetchone()  # fmt: skip
    return int(row[0])


def _ensure_balance(
    connection: sqlite3.Connection, settings: GuildSettings, user_id: int, when: datetime
) -> int:
    """The balance, creating it (with its ``opening`` ledger row) if the user is new here."""
    row = connection.execute(
        "SELECT balance FROM balances WHERE guild_id = ? AND user_id = ?",
        (settings.guild_id, user_id),
    ).fetchone()
    if row is not None:
        return int(row[0])
    opening = settings.starting_balance
    created = _iso(when)
    day, week = local_day_and_week(when, settings.timezone)
    op_id = _insert_op(
        connection, settings.guild_id, "opening", when,
        op_key=f"opening:{settings.guild_id}:{user_id}", reason="starting balance",
    )  # fmt: skip
    connection.execute(
        _INSERT_LEDGER,
        (op_id, settings.guild_id, "opening", None, None, None, user_id, 0, 0, opening, opening,
         0, 0, "starting balance", None, opening, created, week.isoformat(), day.isoformat()),
    )  # fmt: skip
    connection.execute(
        "INSERT INTO balances (guild_id, user_id, balance, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (settings.guild_id, user_id, opening, created, created),
    )
    connection.execute(_UPSERT_DAY_BALANCE, (settings.guild_id, user_id, day.isoformat(), opening))
    return opening


_SET_BALANCE = "UPDATE balances SET balance = ?, updated_at = ? WHERE guild_id = ? AND user_id = ?"


def _set_balance(
    connection: sqlite3.Connection,
    guild_id: int,
    user_id: int,
    balance: int,
    when: datetime,
    local_day: str,
) -> None:
    """The new balance, and the same figure as that local day's closing balance (trend)."""
    connection.execute(_SET_BALANCE, (balance, _iso(when), guild_id, user_id))
    connection.execute(_UPSERT_DAY_BALANCE, (guild_id, user_id, local_day, balance))


def _month_start(day: date) -> str:
    """The season key of a local day: its month's first day, 'YYYY-MM-01'."""
    return day.replace(day=1).isoformat()


def _game_variant(connection: sqlite3.Connection, game_id: str | None) -> str:
    """The rule set a game was recorded with, or '' (no such game)."""
    row = connection.execute("SELECT variant FROM games WHERE game_id = ?", (game_id,)).fetchone()
    return str(row[0]) if row else ""


def _record_outcome(
    connection: sqlite3.Connection,
    op_id: int,
    guild_id: int,
    game_id: str,
    outcome: HandOutcome | None,
) -> str:
    """Store how the hand ended (if told) and return the rule set its stats count under:
    the outcome's, else the game's, else '' (the rebuild's COALESCE, in the same order)."""
    if outcome is None:
        return _game_variant(connection, game_id)
    items = json.dumps([list(item) for item in outcome.items], ensure_ascii=False)
    connection.execute(
        "INSERT INTO hand_outcomes (op_id, guild_id, variant, win_by, winner_seat,"
        " dealt_in_seat, items) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (op_id, guild_id, outcome.variant, outcome.win_by, outcome.winner_seat,
         outcome.dealt_in_seat, items),
    )  # fmt: skip
    connection.executemany(
        "INSERT INTO hand_win_types (op_id, win_type) VALUES (?, ?)",
        [(op_id, kind) for kind in dict.fromkeys(outcome.win_types)],
    )
    return outcome.variant


def _ledger_entry(row: sqlite3.Row) -> LedgerEntry:
    return LedgerEntry(
        id=row["id"],
        guild_id=row["guild_id"],
        kind=row["kind"],
        game_id=row["game_id"],
        hand_number=row["hand_number"],
        seat=row["seat"],
        user_id=row["user_id"],
        units=row["units"],
        stake=row["stake"],
        points=row["points"],
        original_points=row["original_points"],
        capped=bool(row["capped"]),
        is_winner=bool(row["is_winner"]),
        reason=row["reason"],
        by_user=row["by_user"],
        balance_after=row["balance_after"],
        created_at=datetime.fromisoformat(row["created_at"]),
        week_start=date.fromisoformat(row["week_start"]),
        local_day=date.fromisoformat(row["local_day"]),
    )
