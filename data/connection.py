"""The store's connections: opening and migrating the file, the single writer and the
snapshot reader, whole-transaction writes, and the stand-alone database check.

Why apart: every part of ``Store`` (ledger, leaderboards, games, settings) runs its SQL
through ``_write``/``_read`` here, so the concurrency and durability rules described in
``data.store`` are kept in one place.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import urllib.parse
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Self, TypeVar

import aiosqlite

from . import schema
from .weeks import as_utc

T = TypeVar("T")

_SYNCHRONOUS_MODES = ("FULL", "NORMAL", "EXTRA")
# Inline journal commits between two passive checkpoints (a few pages each: the WAL
# stays around a thousand pages, SQLite's own auto-checkpoint size).
_INLINE_CHECKPOINT_EVERY = 256
# Every this many of those checkpoints holds the write lock, so that the WAL starts over.
_INLINE_RESTART_EVERY = 8

log = logging.getLogger(__name__)


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    return as_utc(moment).isoformat(timespec="microseconds")


# One encoder for every call: ``json.dumps`` with options builds a new one each time,
# which costs more than encoding an action (the journal encodes one per move).
_CANONICAL = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _dumps(value: Any) -> str:
    """Canonical JSON, so two equal actions compare equal as text."""
    return _CANONICAL.encode(value)


# The public name: the journal encodes an action once and hands the store its text.
canonical_json = _dumps


def dialect_of(connection: object) -> str:
    """ "postgres" on the PostgreSQL store's connection (``data.postgres.PgConnection``),
    "sqlite" on a ``sqlite3.Connection``: for the few statements that cannot be portable."""
    return getattr(connection, "dialect", "sqlite")


def _check_int(name: str, value: Any, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


class StoreBase:
    """Connections and transactions; the parts of ``Store`` build on this."""

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
        # A third connection, used on the event loop's own thread for the journal's small
        # group commits when no commit waits for the disk (``_write_inline``); None if not.
        self._inline: sqlite3.Connection | None = None
        self._inline_commits = 0
        self._checkpointing: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = 10_000,
        clock: Callable[[], datetime] = _utc_now,
    ) -> Self:
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
            inline = _open_inline(path) if not in_memory and synchronous == "NORMAL" else None
        except BaseException:
            await writer.close()
            if reader is not None:
                await reader.close()
            raise
        store = cls(path, writer, reader, clock)
        store._inline = inline
        return store

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        async with self._write_lock:  # a checkpoint waiting for it returns at once
            if self._inline is not None:
                self._inline.close()
                self._inline = None
            if self._reader is not None:
                await self._reader.close()
            await self._writer.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        return await self._read(schema.current_version)

    async def _write(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` as one IMMEDIATE transaction on the writer's thread."""
        if self._closed:
            raise RuntimeError("store is closed")
        async with self._write_lock:
            return await self._writer._execute(self._transaction, body)

    async def _write_inline(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run a small ``body`` as one IMMEDIATE transaction on the event loop's thread,
        where the store allows it (a file opened with ``synchronous=NORMAL``); else as
        ``_write`` does.

        Why: the journal commits a few rows per batch, hundreds of times a second. On
        aiosqlite's thread each commit is a hand-off of the GIL around every statement
        (the thread waits for the busy loop, the loop then waits for the thread) and a
        wake-up of the loop when it answers: measured ~180 µs of CPU per move at 1,000
        AI tables, for an insert SQLite does in a few tens of microseconds. Without
        an fsync per commit (NORMAL: the WAL is synced at checkpoints only), such a
        commit never waits for the disk, so running it right here blocks the loop for
        less than the round trip would cost. Checkpoints, which do sync, never run here:
        this connection does not checkpoint by itself; every ``_INLINE_CHECKPOINT_EVERY``
        commits a passive checkpoint runs on the writer's thread (``_checkpoint``). Only bodies of a bounded size may come
        here (``append_actions``).

        The store's write lock is held throughout, so no transaction of the writer's
        thread is open meanwhile; if another process holds the database's write lock,
        ``BEGIN`` fails at once (no busy wait on the loop) and the body goes to the
        writer's thread, which waits for it as every other write does.
        """
        if self._inline is None:
            return await self._write(body)
        if self._closed:
            raise RuntimeError("store is closed")
        async with self._write_lock:
            inline = self._inline
            if inline is None:  # closed while this waited for the lock
                raise RuntimeError("store is closed")
            try:
                inline.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:  # locked by another process: wait off the loop
                return await self._writer._execute(self._transaction, body)
            result = self._commit_or_roll_back(inline, body)
        self._inline_commits += 1
        if self._inline_commits % _INLINE_CHECKPOINT_EVERY == 0 and (
            self._checkpointing is None or self._checkpointing.done()
        ):
            rounds = self._inline_commits // _INLINE_CHECKPOINT_EVERY
            restart = rounds % _INLINE_RESTART_EVERY == 0
            self._checkpointing = asyncio.get_running_loop().create_task(
                self._checkpoint(restart=restart)
            )
        return result

    async def _checkpoint(self, *, restart: bool) -> None:
        """Copy the WAL's committed pages into the database on the writer's thread; with
        ``restart``, hold the write lock meanwhile, so the WAL is reused instead of
        growing.

        Why the lock, and why only now and then: SQLite starts the WAL over only when
        the next write finds every frame copied, and with moves committed every few
        milliseconds some always arrive while a checkpoint runs; but writes wait while
        the lock is held (the loop does not), and a checkpoint syncs the disk twice
        (measured 9-17 ms here, more when the disk is shared). So most checkpoints run
        beside the writes, and one in ``_INLINE_RESTART_EVERY`` holds the lock: it finds
        little left to copy, and the WAL stays within that many checkpoints' worth."""
        try:
            if not restart:
                if not self._closed:
                    await self._writer._execute(_passive_checkpoint, self._writer._conn)
                return
            async with self._write_lock:
                if self._closed:
                    return
                await self._writer._execute(_passive_checkpoint, self._writer._conn)
        except Exception:  # the next one will try again; the data is safe in the WAL
            log.warning("SQLite checkpoint failed", exc_info=True)

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        connection = self._writer._conn
        connection.execute("BEGIN IMMEDIATE")
        return self._commit_or_roll_back(connection, body)

    def _commit_or_roll_back(
        self, connection: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]
    ) -> T:
        """Run ``body`` in the transaction ``connection`` has begun, and commit it, or
        roll it back if anything fails (the fault hook runs just before the COMMIT)."""
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


def _open_inline(path: str) -> sqlite3.Connection:
    """The connection of ``StoreBase._write_inline``, opened on the loop's thread (the
    writer has made the file a migrated WAL database already)."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA busy_timeout = 0")  # never wait on the loop
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("PRAGMA wal_autocheckpoint = 0")  # ``_checkpoint`` does it
    except BaseException:
        connection.close()
        raise
    return connection


def _passive_checkpoint(connection: sqlite3.Connection) -> None:
    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


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
