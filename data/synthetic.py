"""Synthetic ledgers for benchmarks: a year of play loaded in one transaction.

Settling a million rows one hand at a time would measure the settlement path (the
benchmark does that separately); this fills the same tables directly, with the same
row layout, then rebuilds the aggregates exactly as a migration backfill would.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, date, datetime, timedelta

from .connection import _iso, dialect_of
from .ledger import _INSERT_LEDGER, _LEDGER_COLUMNS, _ensure_balance
from .settings import _load_settings
from .store import Store
from .weeks import local_day_and_week

SEATS = 4
_OP_COLUMNS = ("op_id", "guild_id", "kind", "op_key", "game_id", "hand_number", "stake",
               "reason", "winner_user", "created_at")  # fmt: skip
_LEDGER_COLUMN_NAMES = tuple(name.strip() for name in _LEDGER_COLUMNS.split(","))


async def load_synthetic_ledger(
    store: Store,
    *,
    guild_id: int,
    rows: int,
    players: int,
    weeks: int = 52,
    seed: int = 0,
    end: datetime | None = None,
) -> int:
    """Add about ``rows`` hand rows (4-seat hands) among ``players`` users; returns hands added.

    Hands are spread evenly over the ``weeks`` weeks before ``end``; balances and the
    leaderboard aggregates are brought in line with the new rows.
    """
    if players < SEATS:
        raise ValueError(f"need at least {SEATS} players")
    rng = random.Random(seed)
    end = (end or datetime.now(UTC)).astimezone(UTC)
    span = timedelta(weeks=weeks).total_seconds()
    hands = rows // SEATS
    start = end - timedelta(weeks=weeks)

    def body(connection: sqlite3.Connection) -> int:
        settings = _load_settings(connection, guild_id)
        balances = {
            user: _ensure_balance(connection, settings, user, start)
            for user in range(1, players + 1)
        }
        first_op = connection.execute(
            "SELECT COALESCE(MAX(op_id), 0) + 1 FROM ledger_ops"
        ).fetchone()[0]
        game_id = f"synthetic-{seed}"
        first_hand = connection.execute(
            "SELECT COALESCE(MAX(hand_number), -1) + 1 FROM ledger_ops WHERE game_id = ?",
            (game_id,),
        ).fetchone()[0]
        week_cache: dict[str, tuple[date, date]] = {}
        ops = []
        ledger = []
        for index in range(hands):
            moment = start + timedelta(seconds=span * (index + rng.random()) / hands)
            hour_key = moment.strftime("%Y-%m-%dT%H")
            if hour_key not in week_cache:
                week_cache[hour_key] = local_day_and_week(moment, settings.timezone)
            day, week = week_cache[hour_key]
            op_id = first_op + index
            number = first_hand + index
            stake = rng.choice((1, 5, 10, 20))
            seated = rng.sample(range(1, players + 1), SEATS)
            winner = rng.randrange(SEATS)
            loss = rng.randint(1, 30)
            created = _iso(moment)
            ops.append(
                (op_id, guild_id, "hand", f"hand:{game_id}:{number}", game_id, number, stake,
                 "hand", seated[winner], created)
            )  # fmt: skip
            for seat, user in enumerate(seated):
                units = loss * (SEATS - 1) if seat == winner else -loss
                points = units * stake
                balances[user] += points
                ledger.append(
                    (op_id, guild_id, "hand", game_id, number, seat, user, units, stake, points,
                     points, 0, int(seat == winner), "hand", None, balances[user], created,
                     week.isoformat(), day.isoformat())
                )  # fmt: skip
        if dialect_of(connection) == "postgres":  # COPY: a million single INSERTs take minutes
            connection.copy_records("ledger_ops", _OP_COLUMNS, ops)  # type: ignore[attr-defined]
            connection.copy_records("ledger", _LEDGER_COLUMN_NAMES, ledger)  # type: ignore[attr-defined]
        else:
            connection.executemany(
                f"INSERT INTO ledger_ops ({', '.join(_OP_COLUMNS)}) VALUES ({', '.join('?' * 10)})",
                ops,
            )
            connection.executemany(_INSERT_LEDGER, ledger)
        connection.executemany(
            "UPDATE balances SET balance = ?, updated_at = ? WHERE guild_id = ? AND user_id = ?",
            [(balance, _iso(end), guild_id, user) for user, balance in balances.items()],
        )
        return hands

    added = await store._write(body)
    reset_identities = getattr(store, "reset_identities", None)
    if reset_identities is not None:  # PostgreSQL: op_ids were given explicitly above
        await reset_identities()
    await store.rebuild_stats(guild_id)
    return added


async def weekly_leaderboard_from_ledger(
    store: Store, guild_id: int, week_start: date, limit: int = 10
) -> list[tuple[int, int, int, int, int]]:
    """The weekly leaderboard computed from raw ledger rows, without the aggregate table.

    Only for the benchmark's comparison: this is what the maintained aggregate saves.
    """
    return await store._read(
        lambda connection: [
            tuple(row)
            for row in connection.execute(
                "SELECT user_id, SUM(points) AS net, SUM(CASE WHEN kind = 'hand' THEN 1 ELSE 0 END),"
                " SUM(CASE WHEN kind = 'hand' AND is_winner <> 0 THEN 1 ELSE 0 END),"
                " CASE WHEN MAX(points) > 0 THEN MAX(points) ELSE 0 END"
                " FROM ledger WHERE guild_id = ? AND week_start = ? AND user_id IS NOT NULL"
                " AND kind IN ('hand', 'penalty') GROUP BY user_id"
                " ORDER BY net DESC, 4 DESC, user_id LIMIT ?",
                (guild_id, week_start.isoformat(), limit),
            )
        ]
    )
