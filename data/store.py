"""The bot's storage: balances, an exactly-once ledger, leaderboards, games and settings.

``Store`` is the seam between the bot and a database. It speaks plain values
(``data.models``); every line of SQL stays inside ``data/``, so a server database could
replace SQLite by reimplementing this one class.

Concurrency and durability
--------------------------
* One **writer** connection. Every write is a whole ``BEGIN IMMEDIATE ... COMMIT``
  transaction run as a single function on aiosqlite's database thread: the event loop
  never waits on SQLite, a transaction is never interleaved with another statement of
  the same connection, and cancelling the awaiting coroutine cannot leave a transaction
  half-open (the function still runs to COMMIT or ROLLBACK). Functions are queued with
  ``aiosqlite.Connection._execute``, which aiosqlite has kept unchanged since 0.17; it is
  used in ``_write``/``_read``/``open`` only. An ``asyncio.Lock`` keeps a
  single writer in flight; ``BEGIN IMMEDIATE`` plus ``busy_timeout`` serialise writers
  from other processes opening the same file.
* A second, ``query_only`` **reader** connection serves queries from WAL snapshots, so
  reads neither wait for writes nor see uncommitted rows. (``:memory:`` databases use
  the writer for both, which is still safe because transactions are single queue items.)
* WAL journal, ``foreign_keys=ON``. ``synchronous`` defaults to **FULL**: a COMMIT returns
  only after the WAL is fsynced, so a settled hand that was announced in Discord survives
  power loss too. ``NORMAL`` (an option of ``Store.open``) is faster and still safe
  against a crashed or killed *process* (the database always stays consistent), but may
  roll back the last few commits after an OS crash or power cut. The bot writes a few
  rows per action, so FULL costs nothing it would notice; see benchmarks/bench_storage.py.

Exactly-once settlement
-----------------------
``settle_hand`` writes the hand's ``ledger_ops`` row (unique ``op_key`` ``hand:<game>:<n>``),
one ledger row per seat (unique ``(game_id, hand_number, seat)``), the balance updates and
the leaderboard aggregates in one transaction. A retry, a concurrent duplicate or a replay
after a restart finds the key and returns False without touching anything; a crash before
COMMIT leaves none of it. The ledger tables reject UPDATE and DELETE (triggers).

Every balance is explained by the ledger: a balance starts with an ``opening`` row for the
guild's starting balance, so ``balance == SUM(points)`` over the user's ledger rows
(``verify_balances`` checks it).

Weeks and time zones
--------------------
Each ledger row stores its ``week_start`` (the local Monday) and ``local_day`` in the
guild's time zone *at the time it was written*; the weekly aggregate is keyed by it. If a
guild changes its time zone, later hands use the new zone and earlier ones keep their week
(the ledger is append-only and history is not re-bucketed). The week in which the change
happens may therefore start or end a few hours early or late for that guild, once. Day
caps likewise count the local day as recorded.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, replace
from datetime import UTC, date, datetime
from typing import Any, TypeVar

import aiosqlite

from . import schema
from .caps import apply_caps, player_limit
from .models import (
    GAME_STATUSES,
    ActionConflictError,
    DuplicateGameError,
    GameRecord,
    GuildSettings,
    LeaderboardRow,
    LedgerEntry,
    SettingsError,
    SettlementEntry,
    StoredAction,
    StoreError,
    UnknownGameError,
    WeekBounds,
    validate_setting,
)
from .weeks import as_utc, local_day_and_week, week_bounds

T = TypeVar("T")

_SYNCHRONOUS_MODES = ("FULL", "NORMAL", "EXTRA")
_LEADERBOARD_KINDS = ("hand", "penalty")

_REBUILD_STATS_SQL = (
    """
    INSERT INTO weekly_stats (guild_id, week_start, user_id, net, hands, wins, biggest)
    SELECT guild_id, week_start, user_id, SUM(points), SUM(kind = 'hand'),
           SUM(kind = 'hand' AND is_winner),
           MAX(0, MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END))
    FROM ledger
    WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty') AND (?1 IS NULL OR guild_id = ?1)
    GROUP BY guild_id, week_start, user_id
    """,
    """
    INSERT INTO player_stats (guild_id, user_id, net, hands, wins, biggest)
    SELECT guild_id, user_id, SUM(points), SUM(kind = 'hand'), SUM(kind = 'hand' AND is_winner),
           MAX(0, MAX(CASE WHEN kind = 'hand' THEN points ELSE 0 END))
    FROM ledger
    WHERE user_id IS NOT NULL AND kind IN ('hand', 'penalty') AND (?1 IS NULL OR guild_id = ?1)
    GROUP BY guild_id, user_id
    """,
    """
    INSERT INTO daily_stats (guild_id, user_id, local_day, net)
    SELECT guild_id, user_id, local_day, SUM(points)
    FROM ledger
    WHERE user_id IS NOT NULL AND kind = 'hand' AND (?1 IS NULL OR guild_id = ?1)
    GROUP BY guild_id, user_id, local_day
    """,
)

_LEDGER_COLUMNS = (
    "op_id, guild_id, kind, game_id, hand_number, seat, user_id, units, stake, points,"
    " original_points, capped, is_winner, reason, by_user, balance_after, created_at,"
    " week_start, local_day"
)
_INSERT_LEDGER = f"INSERT INTO ledger ({_LEDGER_COLUMNS}) VALUES ({', '.join('?' * 19)})"
_UPSERT_WEEKLY = """
    INSERT INTO weekly_stats (guild_id, week_start, user_id, net, hands, wins, biggest)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (guild_id, week_start, user_id) DO UPDATE SET
        net = net + excluded.net, hands = hands + excluded.hands,
        wins = wins + excluded.wins, biggest = MAX(biggest, excluded.biggest)
"""
_UPSERT_PLAYER = """
    INSERT INTO player_stats (guild_id, user_id, net, hands, wins, biggest)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (guild_id, user_id) DO UPDATE SET
        net = net + excluded.net, hands = hands + excluded.hands,
        wins = wins + excluded.wins, biggest = MAX(biggest, excluded.biggest)
"""
_UPSERT_DAILY = """
    INSERT INTO daily_stats (guild_id, user_id, local_day, net) VALUES (?, ?, ?, ?)
    ON CONFLICT (guild_id, user_id, local_day) DO UPDATE SET net = net + excluded.net
"""


_APPEND_BATCH_CHECK = """
    SELECT
        (SELECT json_group_array(json_array(j.key, a.action))
           FROM json_each(?1) AS j
           JOIN game_actions AS a
             ON a.game_id = json_extract(j.value, '$[0]') AND a.seq = json_extract(j.value, '$[1]')),
        (SELECT json_group_array(j.key)
           FROM json_each(?1) AS j
          WHERE NOT EXISTS (SELECT 1 FROM games AS g WHERE g.game_id = json_extract(j.value, '$[0]')))
"""
_APPEND_BATCH_INSERT = """
    INSERT INTO game_actions (game_id, seq, hand_number, action, created_at)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
           json_extract(value, '$[3]'), ?2
      FROM json_each(?1)
"""


class ChannelBusyError(StoreError, ValueError):
    """The channel already has an open (lobby or running) table."""


class AlreadySeatedError(StoreError, ValueError):
    """The user already holds a seat at an open table."""


def _seating_error(error: sqlite3.IntegrityError, game_id: str) -> StoreError:
    """Name the seating rule a failed INSERT broke (SQLite says which index or key)."""
    text = str(error)
    if "seated_users" in text:
        return AlreadySeatedError(f"已在另一张桌上 / already seated at another table ({game_id})")
    if "games.channel_id" in text or "games_one_open_per_channel" in text:
        return ChannelBusyError("这个频道已经有一张桌了 / the channel already has an open table")
    return DuplicateGameError(f"牌局已存在 / game {game_id!r} already exists")


def check_database(path: str | os.PathLike[str]) -> str | None:
    """Why the database at ``path`` cannot be used, in one line, or None if it can.

    Run before ``Store.open`` by the commands, so that a file the bot could not write
    (read-only file, directory or file system), could not read (garbage, truncated, a
    directory) or that is not this program's schema is refused at start instead of
    failing every click later. Nothing is created or modified: the file is read with
    SQLite's ``immutable`` flag (no lock, no -wal or -shm file) and permissions are
    asked with ``os.access``. A missing file is fine if it could be created.
    """
    path = os.fspath(path)
    if path == ":memory:" or path.startswith("file::memory:"):
        return None
    if os.path.isdir(path):
        return f"{path} is a directory, not a database file"
    if not os.path.exists(path):
        parent = os.path.dirname(os.path.abspath(path))
        while not os.path.isdir(parent):
            if os.path.exists(parent):
                return f"cannot create {path}: {parent} is not a directory"
            parent = os.path.dirname(parent)
        if not os.access(parent, os.W_OK | os.X_OK):
            return f"cannot create {path}: directory {parent} is not writable"
        return None
    if not os.access(path, os.R_OK):
        return f"{path} is not readable"
    if not os.access(path, os.W_OK):
        return f"{path} is read-only (the bot must write its ledger)"
    directory = os.path.dirname(os.path.abspath(path))
    if not os.access(directory, os.W_OK | os.X_OK):
        return f"directory {directory} is read-only (SQLite needs it for its journal)"
    if os.path.getsize(path) == 0:
        return None  # an empty file is an empty database
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro&immutable=1"
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as error:
        return f"cannot open {path}: {error}"
    try:
        problems = [row[0] for row in connection.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            return f"{path} is damaged: {'; '.join(map(str, problems))[:200]}"
        tables = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if not tables:
            return None
        if "schema_migrations" not in tables:
            return f"{path} is not a mahjong-bot database (no schema_migrations table)"
        version = schema.current_version(connection)
        if not 1 <= version <= schema.LATEST_VERSION:
            return (
                f"{path} has schema version {version}; this mahjong-bot reads "
                f"1 to {schema.LATEST_VERSION}"
            )
    except sqlite3.Error as error:
        return f"cannot read {path}: {error}"
    finally:
        connection.close()
    return None


def _conflict(game_id: str, seq: int, stored: str) -> ActionConflictError:
    return ActionConflictError(
        f"game {game_id!r} already has a different action at seq {seq}: {stored}"
    )


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    return as_utc(moment).isoformat(timespec="microseconds")


def _dumps(value: Any) -> str:
    """Canonical JSON, so two equal actions compare equal as text."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _check_int(name: str, value: Any, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


class Store:
    """Async storage for one bot process. Open with ``await Store.open(path)`` or ``async with``.

    ``clock`` supplies "now" for rows written without an explicit time (tests pass a
    fake one). ``_fault_hook``, when set, is called on the database thread with a stage
    name ("rows_written", "before_commit") inside a settlement transaction; the crash
    tests use it to kill the process at a known point.
    """

    def __init__(
        self,
        path: str,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection | None,
        clock: Callable[[], datetime],
    ) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._clock = clock
        self._write_lock = asyncio.Lock()
        self._closed = False
        self._fault_hook: Callable[[str], None] | None = None

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = 10_000,
        clock: Callable[[], datetime] = _utc_now,
    ) -> Store:
        """Open (creating if needed) and migrate the database at ``path``."""
        synchronous = synchronous.upper()
        if synchronous not in _SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {_SYNCHRONOUS_MODES}")
        path = os.fspath(path)
        in_memory = path == ":memory:" or path.startswith("file::memory:")
        writer = await aiosqlite.connect(path, isolation_level=None)
        reader: aiosqlite.Connection | None = None
        try:
            await writer._execute(
                _configure_writer, writer._conn, synchronous, busy_timeout_ms, in_memory
            )
            await writer._execute(schema.migrate, writer._conn)
            if not in_memory:
                reader = await aiosqlite.connect(path, isolation_level=None)
                await reader._execute(_configure_reader, reader._conn, busy_timeout_ms)
        except BaseException:
            await writer.close()
            if reader is not None:
                await reader.close()
            raise
        return cls(path, writer, reader, clock)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        async with self._write_lock:
            if self._reader is not None:
                await self._reader.close()
            await self._writer.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        return await self._read(schema.current_version)

    # ------------------------------------------------------------------ plumbing

    async def _write(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` as one IMMEDIATE transaction on the writer's thread."""
        if self._closed:
            raise RuntimeError("store is closed")
        async with self._write_lock:
            return await self._writer._execute(self._transaction, body)

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        connection = self._writer._conn
        connection.execute("BEGIN IMMEDIATE")
        try:
            result = body(connection)
            self._fault("before_commit")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        return result

    async def _read(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` on one consistent snapshot, off the event loop."""
        if self._closed:
            raise RuntimeError("store is closed")
        connection = self._reader or self._writer
        return await connection._execute(_snapshot, connection._conn, body)

    def _fault(self, stage: str) -> None:
        if self._fault_hook is not None:
            self._fault_hook(stage)

    def _now(self, when: datetime | None) -> datetime:
        return as_utc(when if when is not None else self._clock())

    # ------------------------------------------------------------------ settings

    async def get_settings(self, guild_id: int) -> GuildSettings:
        return await self._read(lambda connection: _load_settings(connection, guild_id))

    async def update_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Validate and store setting changes; raises ``SettingsError`` naming the bad one."""
        _check_int("guild_id", guild_id)
        if not changes:
            raise SettingsError("没有要修改的设置 / no settings to change")
        clean = {name: validate_setting(name, value) for name, value in changes.items()}
        stored = {
            name: value.isoformat() if isinstance(value, date) else value
            for name, value in clean.items()
        }
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> GuildSettings:
            connection.execute(
                "INSERT OR IGNORE INTO guild_settings (guild_id, updated_at) VALUES (?, ?)",
                (guild_id, now),
            )
            # Column names come from GuildSettings' fields (validated above), never input.
            assignments = ", ".join(f"{name} = ?" for name in stored)
            connection.execute(
                f"UPDATE guild_settings SET {assignments}, updated_at = ? WHERE guild_id = ?",
                (*stored.values(), now, guild_id),
            )
            return _load_settings(connection, guild_id)

        return await self._write(body)

    # ------------------------------------------------------------------ balances

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
        row = await self._read(
            lambda connection: connection.execute(
                "SELECT balance FROM balances WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            ).fetchone()
        )
        if row is not None:
            return int(row[0])
        return await self.ensure_balance(guild_id, user_id)

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
            _set_balance(connection, guild_id, user_id, balance, moment)
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
                _set_balance(connection, guild_id, uid, balances[uid], moment)
                connection.execute(
                    _UPSERT_WEEKLY, (guild_id, week.isoformat(), uid, amount, 0, 0, 0)
                )
                connection.execute(_UPSERT_PLAYER, (guild_id, uid, amount, 0, 0, 0))
            return True

        return await self._write(body)

    # ------------------------------------------------------------------ settlement

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
    ) -> bool:
        """Pay out one hand, exactly once. Returns False when it was already settled.

        ``entries``: one per seat, ``units`` the engine's deltas (they must sum to zero);
        points = units x ``stake``, then the guild's caps (``data.caps``). AI seats
        (``user_id`` None) get a row but no balance. All rows, balances and leaderboard
        aggregates commit together or not at all. ``hand_entries`` returns what was paid.
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
            for entry, amount in zip(entries, points, strict=True):
                if entry.user_id is None:
                    continue
                uid = entry.user_id
                _set_balance(connection, guild_id, uid, balances[uid], moment)
                wins, biggest = int(entry.is_winner), max(0, amount)
                connection.execute(
                    _UPSERT_WEEKLY, (guild_id, week_text, uid, amount, 1, wins, biggest)
                )
                connection.execute(_UPSERT_PLAYER, (guild_id, uid, amount, 1, wins, biggest))
                connection.execute(_UPSERT_DAILY, (guild_id, uid, day_text, amount))
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

    # ------------------------------------------------------------------ leaderboards

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

    async def rebuild_stats(self, guild_id: int | None = None) -> None:
        """Recompute the leaderboard and day-cap aggregates from the ledger (one guild or all)."""

        def body(connection: sqlite3.Connection) -> None:
            for table in ("weekly_stats", "player_stats", "daily_stats"):
                connection.execute(
                    f"DELETE FROM {table} WHERE ?1 IS NULL OR guild_id = ?1", (guild_id,)
                )
            for statement in _REBUILD_STATS_SQL:
                connection.execute(statement, (guild_id,))

        await self._write(body)

    async def verify_balances(self, guild_id: int | None = None) -> list[tuple[int, int, int, int]]:
        """(guild, user, balance, ledger sum) for every balance the ledger does not explain."""
        rows = await self._read(
            lambda connection: connection.execute(
                """
                SELECT b.guild_id, b.user_id, b.balance, COALESCE(SUM(l.points), 0) AS total
                FROM balances AS b
                LEFT JOIN ledger AS l ON l.guild_id = b.guild_id AND l.user_id = b.user_id
                WHERE ?1 IS NULL OR b.guild_id = ?1
                GROUP BY b.guild_id, b.user_id
                HAVING b.balance != total
                """,
                (guild_id,),
            ).fetchall()
        )
        return [tuple(int(value) for value in row) for row in rows]  # type: ignore[misc]

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        game_id: str,
        guild_id: int,
        channel_id: int | None,
        variant: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int,
        settings: dict[str, Any] | None = None,
        status: str = "lobby",
        seated_user: int | None = None,
    ) -> GameRecord:
        """Record a new table; raises ``DuplicateGameError`` if the id is taken.

        An open game (lobby or running) in a channel that already has one raises
        ``ChannelBusyError``; ``seated_user`` (the host) is seated in the same transaction
        and raises ``AlreadySeatedError`` if seated elsewhere. Nothing is written then.
        """
        if not isinstance(game_id, str) or not game_id:
            raise ValueError("game_id must be a non-empty string")
        _check_int("guild_id", guild_id)
        _check_int("seed", seed)
        _check_status(status)
        now = _iso(self._now(None))
        values = (
            game_id, guild_id, channel_id, variant, _dumps(options), _dumps(seats), seed,
            _dumps(settings or {}), status, now, now,
        )  # fmt: skip

        def body(connection: sqlite3.Connection) -> GameRecord:
            if connection.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone():
                raise DuplicateGameError(f"牌局已存在 / game {game_id!r} already exists")
            try:
                connection.execute(
                    "INSERT INTO games (game_id, guild_id, channel_id, variant, options, seats,"
                    " seed, settings, status, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    values,
                )
                if seated_user is not None:
                    connection.execute(
                        "INSERT INTO seated_users (user_id, game_id) VALUES (?, ?)",
                        (seated_user, game_id),
                    )
            except sqlite3.IntegrityError as error:
                raise _seating_error(error, game_id) from error
            return _load_game(connection, game_id)  # type: ignore[return-value]

        return await self._write(body)

    async def get_game(self, game_id: str) -> GameRecord | None:
        return await self._read(lambda connection: _load_game(connection, game_id))

    async def set_game_status(self, game_id: str, status: str) -> None:
        """Move a game to 'lobby', 'running', 'finished' or 'abandoned'.

        The first move to finished or abandoned stamps ``finished_at``.
        """
        _check_status(status)
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> None:
            try:
                cursor = connection.execute(
                    "UPDATE games SET status = ?1, updated_at = ?2,"
                    " finished_at = CASE WHEN ?1 IN ('finished', 'abandoned')"
                    "                    THEN COALESCE(finished_at, ?2) ELSE NULL END"
                    " WHERE game_id = ?3",
                    (status, now, game_id),
                )
            except sqlite3.IntegrityError as error:  # reopening in a channel taken since
                raise _seating_error(error, game_id) from error
            if cursor.rowcount == 0:
                raise UnknownGameError(f"没有这个牌局 / no game {game_id!r}")
            if status in ("finished", "abandoned"):
                connection.execute("DELETE FROM seated_users WHERE game_id = ?", (game_id,))

        await self._write(body)

    async def seat_user(self, game_id: str, user_id: int) -> bool:
        """Seat ``user_id`` at the open game ``game_id``: the database's half of "one open
        seat per user". Returns False if already seated there; raises
        ``AlreadySeatedError`` if seated at another game."""
        _check_int("user_id", user_id)

        def body(connection: sqlite3.Connection) -> bool:
            row = connection.execute(
                "SELECT game_id FROM seated_users WHERE user_id = ?", (user_id,)
            ).fetchone()
            if row is not None:
                if row[0] == game_id:
                    return False
                raise AlreadySeatedError(
                    f"已在另一张桌上 / user {user_id} is already seated at {row[0]}"
                )
            try:
                connection.execute(
                    "INSERT INTO seated_users (user_id, game_id) VALUES (?, ?)", (user_id, game_id)
                )
            except sqlite3.IntegrityError as error:  # the foreign key: no such game
                raise UnknownGameError(f"没有这个牌局 / no game {game_id!r}") from error
            return True

        return await self._write(body)

    async def unseat_user(self, game_id: str, user_id: int) -> None:
        """Free the user's seat at ``game_id`` (left the lobby or the running match)."""

        def body(connection: sqlite3.Connection) -> None:
            connection.execute(
                "DELETE FROM seated_users WHERE user_id = ? AND game_id = ?", (user_id, game_id)
            )

        await self._write(body)

    async def seated_game(self, user_id: int) -> str | None:
        """The open game ``user_id`` is seated at, if any."""
        row = await self._read(
            lambda connection: connection.execute(
                "SELECT game_id FROM seated_users WHERE user_id = ?", (user_id,)
            ).fetchone()
        )
        return str(row[0]) if row is not None else None

    async def settled_hands(self, game_id: str) -> set[int]:
        """The hand numbers of ``game_id`` that have been paid out."""
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT hand_number FROM ledger_ops WHERE game_id = ? AND kind = 'hand'",
                (game_id,),
            ).fetchall()
        )
        return {int(row[0]) for row in rows}

    async def games_to_check_settlement(self) -> list[GameRecord]:
        """Finished or abandoned games that may hold an ended but unsettled hand.

        A game whose every hand in its action log has a settlement is certainly settled;
        one with fewer settlements than hands either stopped mid-hand or lost a settlement,
        and only replaying its log tells which. Games already checked are skipped."""
        return await self._read(
            lambda connection: _load_games(
                connection,
                "WHERE g.status IN ('finished', 'abandoned') AND g.settlement_checked = 0"
                " AND (SELECT COUNT(DISTINCT a.hand_number) FROM game_actions AS a"
                "      WHERE a.game_id = g.game_id)"
                "   > (SELECT COUNT(*) FROM ledger_ops AS o"
                "      WHERE o.game_id = g.game_id AND o.kind = 'hand')"
                " ORDER BY g.created_at, g.game_id",
                (),
            )
        )

    async def mark_settlement_checked(self, game_id: str) -> None:
        """Every ended hand of this closed game is settled: start-up need not replay it."""

        def body(connection: sqlite3.Connection) -> None:
            connection.execute(
                "UPDATE games SET settlement_checked = 1"
                " WHERE game_id = ? AND status IN ('finished', 'abandoned')",
                (game_id,),
            )

        await self._write(body)

    async def update_game_meta(self, game_id: str, **values: Any) -> dict[str, Any]:
        """Merge JSON values into the game's ``meta`` (None removes a key); returns the result."""
        encoded = dict(values)
        _dumps(encoded)  # fail early, outside the transaction, if not JSON-serialisable
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> dict[str, Any]:
            row = connection.execute(
                "SELECT meta FROM games WHERE game_id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise UnknownGameError(f"没有这个牌局 / no game {game_id!r}")
            meta = json.loads(row[0])
            for key, value in encoded.items():
                if value is None:
                    meta.pop(key, None)
                else:
                    meta[key] = value
            connection.execute(
                "UPDATE games SET meta = ?, updated_at = ? WHERE game_id = ?",
                (_dumps(meta), now, game_id),
            )
            return meta

        return await self._write(body)

    async def append_action(
        self, game_id: str, seq: int, action: dict[str, Any], hand_number: int
    ) -> bool:
        """Append one action (``engine.types.Action.to_json()``) to the game's log.

        Idempotent: the same ``seq`` with the same action again returns False; the same
        ``seq`` with a different action raises ``ActionConflictError``, since replay would
        otherwise rebuild a different game than the one played.
        """
        _check_int("seq", seq, minimum=0)
        _check_int("hand_number", hand_number, minimum=0)
        text = _dumps(action)
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> bool:
            row = connection.execute(
                "SELECT action FROM game_actions WHERE game_id = ? AND seq = ?", (game_id, seq)
            ).fetchone()
            if row is not None:
                if row[0] == text:
                    return False
                raise ActionConflictError(
                    f"game {game_id!r} already has a different action at seq {seq}: {row[0]}"
                )
            try:
                connection.execute(
                    "INSERT INTO game_actions (game_id, seq, hand_number, action, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq, hand_number, text, now),
                )
            except sqlite3.IntegrityError as error:  # the foreign key: no such game
                raise UnknownGameError(f"没有这个牌局 / no game {game_id!r}") from error
            return True

        return await self._write(body)

    async def append_actions(
        self, rows: Sequence[tuple[str, int, dict[str, Any], int]]
    ) -> list[bool | Exception]:
        """Append many actions (``(game_id, seq, action, hand_number)`` each) in ONE
        transaction: a group commit.

        Why: every write is a round trip to SQLite's thread and the store runs one at a
        time, so a thousand tables appending one row each top out at the round-trip rate
        (~800/s). One transaction for everything that queued up meanwhile costs one round
        trip and one commit, however many rows it holds. The transaction is also a fixed
        four statements whatever the batch size (the rows travel as one JSON array): each
        statement hands the GIL back and forth, and while the event loop is busy each
        hand-back can wait a whole switch interval (``sys.getswitchinterval()``), so a
        statement per row would make a big batch slow exactly when it is big.

        Per-row outcome, in order, with exactly ``append_action``'s semantics:

        * ``True`` — written (durable once this call returns);
        * ``False`` — the same ``seq`` with the same action was already stored (or appears
          earlier in this batch): nothing written, like a retry;
        * an exception *instance* (not raised) — ``ActionConflictError`` (a different
          action is stored under that ``seq``, or is written by an earlier row of this
          batch),
          ``UnknownGameError`` (no such game), or the ``TypeError``/``ValueError`` of a
          malformed ``seq``/``hand_number``. That row is not written; **every other row is
          still committed**, so one table's bad row never costs another table its write.

        Only a failure of the transaction itself (disk full, database locked past the
        busy timeout, closed store) is raised, and then none of the rows is written.
        """
        outcomes: list[bool | Exception | None] = [None] * len(rows)
        # (game_id, seq) -> its rows in this batch, as (index, hand_number, canonical text)
        by_key: dict[tuple[str, int], list[tuple[int, int, str]]] = {}
        for index, (game_id, seq, action, hand_number) in enumerate(rows):
            try:
                _check_int("seq", seq, minimum=0)
                _check_int("hand_number", hand_number, minimum=0)
                text = _dumps(action)
            except (TypeError, ValueError) as error:
                outcomes[index] = error
                continue
            by_key.setdefault((game_id, seq), []).append((index, hand_number, text))
        if not by_key:
            return [outcome if outcome is not None else False for outcome in outcomes]
        keys = list(by_key)
        payload = json.dumps([[game_id, seq] for game_id, seq in keys])
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> None:
            # One statement finds what is already stored and which games do not exist.
            stored_json, missing_json = connection.execute(
                _APPEND_BATCH_CHECK, (payload,)
            ).fetchone()
            stored = {int(position): text for position, text in json.loads(stored_json)}
            missing = set(json.loads(missing_json))
            fresh = []
            for position, (game_id, seq) in enumerate(keys):
                key_rows = by_key[(game_id, seq)]
                if position in missing:
                    for index, _, _ in key_rows:
                        outcomes[index] = UnknownGameError(f"没有这个牌局 / no game {game_id!r}")
                    continue
                kept = stored.get(position)
                if kept is None:  # the key's first row is written; later ones are retries
                    index, hand_number, kept = key_rows[0]
                    fresh.append([game_id, seq, hand_number, kept])
                    outcomes[index] = True
                    key_rows = key_rows[1:]
                for index, _, text in key_rows:
                    outcomes[index] = False if text == kept else _conflict(game_id, seq, kept)
            if fresh:
                # Nothing else writes in between: the store's lock and BEGIN IMMEDIATE.
                connection.execute(_APPEND_BATCH_INSERT, (json.dumps(fresh), now))

        await self._write(body)
        return [outcome if outcome is not None else False for outcome in outcomes]

    async def load_actions(
        self, game_id: str, hand_number: int | None = None
    ) -> list[dict[str, Any]]:
        """The game's actions in ``seq`` order (optionally one hand's), as stored JSON dicts."""
        return [record.action for record in await self.load_action_records(game_id, hand_number)]

    async def load_action_records(
        self, game_id: str, hand_number: int | None = None
    ) -> list[StoredAction]:
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT seq, hand_number, action, created_at FROM game_actions"
                " WHERE game_id = ?1 AND (?2 IS NULL OR hand_number = ?2) ORDER BY seq",
                (game_id, hand_number),
            ).fetchall()
        )
        return [
            StoredAction(
                seq=int(row[0]),
                hand_number=int(row[1]),
                action=json.loads(row[2]),
                created_at=datetime.fromisoformat(row[3]),
            )
            for row in rows
        ]

    async def running_games(self, statuses: Iterable[str] = ("running",)) -> list[GameRecord]:
        """Games to resume after a restart (by default those 'running'), oldest first."""
        statuses = tuple(statuses)
        for status in statuses:
            _check_status(status)
        marks = ", ".join("?" * len(statuses))
        return await self._read(
            lambda connection: _load_games(
                connection,
                f"WHERE g.status IN ({marks}) ORDER BY g.created_at, g.game_id",
                statuses,
            )
        )

    async def finished_games(self, guild_id: int, limit: int = 10) -> list[GameRecord]:
        """Finished and abandoned games of a guild, most recently ended first."""
        return await self._read(
            lambda connection: _load_games(
                connection,
                "WHERE g.guild_id = ? AND g.status IN ('finished', 'abandoned')"
                " ORDER BY g.finished_at DESC, g.game_id LIMIT ?",
                (guild_id, limit),
            )
        )

    # ------------------------------------------------------------------ user preferences

    async def set_user_pref(self, user_id: int, key: str, value: Any) -> None:
        """Remember a per-user preference (e.g. "dms_closed": True); None forgets it."""
        _check_int("user_id", user_id)
        if not isinstance(key, str) or not key:
            raise ValueError("key must be a non-empty string")
        text = None if value is None else _dumps(value)

        def body(connection: sqlite3.Connection) -> None:
            if text is None:
                connection.execute(
                    "DELETE FROM user_prefs WHERE user_id = ? AND key = ?", (user_id, key)
                )
            else:
                connection.execute(
                    "INSERT INTO user_prefs (user_id, key, value) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
                    (user_id, key, text),
                )

        await self._write(body)

    async def get_user_prefs(self, user_id: int) -> dict[str, Any]:
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT key, value FROM user_prefs WHERE user_id = ?", (user_id,)
            ).fetchall()
        )
        return {row[0]: json.loads(row[1]) for row in rows}


# ---------------------------------------------------------------------- database-thread helpers
# Everything below runs on an aiosqlite thread, inside a transaction opened by the caller.


def _configure_writer(
    connection: sqlite3.Connection, synchronous: str, busy_timeout_ms: int, in_memory: bool
) -> None:
    connection.row_factory = sqlite3.Row
    connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    if not in_memory:
        mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise schema.SchemaError(f"could not switch the database to WAL mode (got {mode!r})")
    connection.execute(f"PRAGMA synchronous = {synchronous}")
    connection.execute("PRAGMA foreign_keys = ON")


def _configure_reader(connection: sqlite3.Connection, busy_timeout_ms: int) -> None:
    connection.row_factory = sqlite3.Row
    connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("PRAGMA query_only = ON")


def _snapshot(connection: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """Run a read-only ``body`` inside one read transaction, so it sees one snapshot."""
    connection.execute("BEGIN")
    try:
        return body(connection)
    finally:
        connection.execute("COMMIT")


def _check_status(status: str) -> None:
    if status not in GAME_STATUSES:
        raise ValueError(f"unknown game status {status!r} (one of {', '.join(GAME_STATUSES)})")


def _load_settings(connection: sqlite3.Connection, guild_id: int) -> GuildSettings:
    row = connection.execute(
        "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    if row is None:
        return GuildSettings(guild_id=guild_id)
    values = {f.name: row[f.name] for f in fields(GuildSettings)}
    if values["last_leaderboard_week"] is not None:
        values["last_leaderboard_week"] = date.fromisoformat(values["last_leaderboard_week"])
    return replace(GuildSettings(guild_id=guild_id), **values)


def _op_exists(connection: sqlite3.Connection, op_key: str) -> bool:
    return (
        connection.execute("SELECT 1 FROM ledger_ops WHERE op_key = ?", (op_key,)).fetchone()
        is not None
    )


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
    cursor = connection.execute(
        "INSERT INTO ledger_ops (guild_id, kind, op_key, game_id, hand_number, stake, reason,"
        " by_user, winner_user, capped, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, kind, op_key, game_id, hand_number, stake, reason, by_user, winner_user,
         int(capped), _iso(when)),
    )  # fmt: skip
    return int(cursor.lastrowid)  # type: ignore[arg-type]


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
    return opening


def _set_balance(
    connection: sqlite3.Connection, guild_id: int, user_id: int, balance: int, when: datetime
) -> None:
    connection.execute(
        "UPDATE balances SET balance = ?, updated_at = ? WHERE guild_id = ? AND user_id = ?",
        (balance, _iso(when), guild_id, user_id),
    )


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


def _load_game(connection: sqlite3.Connection, game_id: str) -> GameRecord | None:
    games = _load_games(connection, "WHERE g.game_id = ?", (game_id,))
    return games[0] if games else None


def _load_games(
    connection: sqlite3.Connection, where: str, params: Sequence[Any]
) -> list[GameRecord]:
    rows = connection.execute(
        "SELECT g.*, (SELECT COUNT(*) FROM game_actions AS a WHERE a.game_id = g.game_id)"
        f" AS action_count FROM games AS g {where}",
        tuple(params),
    ).fetchall()
    return [
        GameRecord(
            game_id=row["game_id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            variant=row["variant"],
            options=json.loads(row["options"]),
            seats=json.loads(row["seats"]),
            seed=row["seed"],
            settings=json.loads(row["settings"]),
            meta=json.loads(row["meta"]),
            status=row["status"],
            created_at=datetime.fromisoformat(row["created_at"]),
            updated_at=datetime.fromisoformat(row["updated_at"]),
            finished_at=datetime.fromisoformat(row["finished_at"]) if row["finished_at"] else None,
            action_count=int(row["action_count"]),
        )
        for row in rows
    ]
