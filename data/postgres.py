"""PostgreSQL as a second store: the same ``Store`` parts, run on asyncpg.

Why an adapter and not a second implementation: the settlement, caps, leaderboards and
games logic is ~1,000 lines of SQL and Python whose correctness rests on tests; a copy
for another database would drift. So every part of ``Store`` keeps its synchronous
``body(connection)`` functions, and here they run on ``PgConnection``, a small DB-API
look-alike (``execute(...).fetchone()``, ``executemany``, ``rowcount``) over one pooled
asyncpg connection. The body runs in a greenlet on the event loop's thread; each
statement switches back to the transaction's coroutine, which awaits asyncpg and
switches in again with the rows (SQLAlchemy's asyncio layer works the same way). No
thread hop per statement: a settlement is a dozen statements, and on a busy machine each
hop to another thread and back costs more than the query itself. SQL in
the bodies is written once, portably (``?``/``?N`` placeholders become ``$N`` here); the
few statements that cannot be portable pick their text by ``connection.dialect``.

Guarantees, as with SQLite (see ``data.store``):

* Every write is one transaction at ``REPEATABLE READ`` (snapshot isolation), and one
  write at a time per process (as on SQLite). Across processes, PostgreSQL refuses to let
  a transaction change a row that another transaction changed since its snapshot (a
  serialization failure), and the transaction is then run again from the start on a new
  snapshot. Every body writes the rows its decision was read from (a balance is read,
  changed and written back; caps read the day's aggregate row they then update), so no
  update is lost. Two processes settling one hand both find no ``op_key``; the second
  INSERT waits for the first to commit and fails on the unique key; run again, it finds
  the key and returns False, as a retry does. Unique-key failures are re-run a few times
  only (a key still taken on a fresh snapshot is a real error). SERIALIZABLE would add
  predicate locks, whose false conflicts (neighbouring index pages) made 8 writer
  processes retry about twice per settlement and halved their throughput.
* A cancelled caller cannot leave a transaction half-done: the transaction is shielded
  and runs to COMMIT or ROLLBACK.
* Reads run in one ``REPEATABLE READ READ ONLY`` snapshot.
* The ledger tables reject UPDATE, DELETE and TRUNCATE (triggers, 0001's PostgreSQL file).
* Integers are ``BIGINT`` (Discord ids are 64-bit) and text compares with the "C"
  collation, as SQLite's BINARY does, so ORDER BY gives the same order on both.

Migrations are ``data.schema``'s files, in PostgreSQL's dialect (``schema.postgres_sql``),
applied under an advisory lock so that two processes starting together apply each once.
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, Self, TypeVar

import asyncpg
import greenlet

from . import schema
from .connection import StoreBase, _utc_now
from .store import Store

T = TypeVar("T")

DIALECT = "postgres"

# One advisory-lock key for "migrating this database" (any schema of it).
_MIGRATION_LOCK = 0x6D6A6264  # "mjbd"
_RETRYABLE = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)
_MAX_ATTEMPTS = 200
# A unique key that a concurrent transaction took first (a hand's op_key, a first opening
# balance, an action's seq): run again, the body then sees the row and answers as for a
# retry. A key still taken on a fresh snapshot is a real error, so only a few times.
_MAX_UNIQUE_RETRIES = 3


class PgIntegrityError(sqlite3.IntegrityError):
    """A constraint PostgreSQL enforced (unique key, foreign key, append-only trigger).

    A subclass of ``sqlite3.IntegrityError`` on purpose: the shared bodies catch that one
    class, and its message names the constraint as SQLite's does (e.g. ``seated_users``).
    """


@functools.lru_cache(maxsize=1024)
def to_postgres_placeholders(sql: str) -> str:
    """``?`` and ``?N`` placeholders as ``$N``, leaving quoted text alone."""
    out: list[str] = []
    counter = 0
    numbered = plain = False
    index = 0
    quote: str | None = None
    while index < len(sql):
        char = sql[index]
        if quote is not None:
            out.append(char)
            if char == quote:
                quote = None
            index += 1
            continue
        if char in "'\"":
            quote = char
            out.append(char)
            index += 1
            continue
        if char == "?":
            match = re.match(r"\d+", sql[index + 1 :])
            if match:
                numbered = True
                out.append("$" + match.group(0))
                index += 1 + len(match.group(0))
                continue
            plain = True
            counter += 1
            out.append(f"${counter}")
            index += 1
            continue
        out.append(char)
        index += 1
    if numbered and plain:
        raise ValueError(f"SQL mixes ? and ?N placeholders: {sql[:80]!r}")
    return "".join(out)


def _rowcount(status: str | None) -> int:
    """Rows an INSERT/UPDATE/DELETE touched, from PostgreSQL's command tag."""
    if not status:
        return -1
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgCursor:
    """The part of ``sqlite3.Cursor`` the store's bodies use."""

    __slots__ = ("_rows", "rowcount")

    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def fetchone(self) -> asyncpg.Record | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[asyncpg.Record]:
        return list(self._rows)

    def __iter__(self) -> Iterator[asyncpg.Record]:
        return iter(self._rows)


class _BodyGreenlet(greenlet.greenlet):  # type: ignore[misc]
    """A store body running inside ``run_body``; its parent awaits for it."""


def _await(awaitable: Any) -> Any:
    """From inside a body: have ``run_body`` await ``awaitable``; its result (or error)."""
    current = greenlet.getcurrent()
    if not isinstance(current, _BodyGreenlet):
        if hasattr(awaitable, "close"):
            awaitable.close()
        raise RuntimeError("PgConnection is used only inside the store's transactions")
    return current.parent.switch(awaitable)


async def run_body(body: Callable[[Any], T], connection: Any) -> T:
    """Run the synchronous ``body(connection)``, awaiting each statement it issues."""
    child = _BodyGreenlet(body)
    request = child.switch(connection)
    while not child.dead:
        try:
            value = await request
        except BaseException as error:  # the body sees the statement's error
            request = child.throw(error)
        else:
            request = child.switch(value)
    return request  # type: ignore[no-any-return]


class PgConnection:
    """A synchronous, sqlite3-shaped view of one asyncpg connection, for ``run_body``."""

    dialect = DIALECT

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    @property
    def in_transaction(self) -> bool:
        return bool(self._connection.is_in_transaction())

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PgCursor:
        query = to_postgres_placeholders(sql)
        rows, status = self._call(self._run(query, tuple(params)))
        return PgCursor(rows, _rowcount(status))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> PgCursor:
        query = to_postgres_placeholders(sql)
        self._call(self._connection.executemany(query, [tuple(row) for row in rows]))
        return PgCursor([], -1)

    def copy_records(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Bulk-insert with COPY (PostgreSQL only; the synthetic ledger's million rows)."""
        self._call(
            self._connection.copy_records_to_table(
                table, records=[tuple(row) for row in rows], columns=list(columns)
            )
        )

    async def _run(self, query: str, params: tuple[Any, ...]) -> tuple[list[Any], str | None]:
        # ``Connection._execute`` is what ``fetch`` calls, with the statement cache; it is
        # the one call that returns the rows and the command tag (for ``rowcount``)
        # together. Unchanged in asyncpg since 0.18.
        rows, status, _ = await self._connection._execute(
            query, params, 0, None, return_status=True
        )
        return rows, status.decode() if isinstance(status, bytes) else status

    def _call(self, coroutine: Any) -> Any:
        try:
            return _await(coroutine)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise PgIntegrityError(_describe(error)) from error


class _NeedsSnapshot(BaseException):
    """A read body issued a second statement: it must run again inside a snapshot."""


class _SingleStatementConnection(PgConnection):
    """For reads: the first statement runs on its own (one statement is one snapshot), so
    the usual one-query read costs one round trip instead of three (BEGIN, query,
    COMMIT). A second statement stops the body; ``_read`` then runs it again, whole,
    in a REPEATABLE READ transaction. Read bodies have no side effects, so that is safe."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        super().__init__(connection)
        self._used = False

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PgCursor:
        if self._used:
            raise _NeedsSnapshot
        self._used = True
        return super().execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> PgCursor:
        raise _NeedsSnapshot


def _describe(error: asyncpg.PostgresError) -> str:
    parts = [str(error)]
    for attribute in ("table_name", "constraint_name", "detail"):
        value = getattr(error, attribute, None)
        if value:
            parts.append(f"{attribute}={value}")
    return "; ".join(parts)


def _decode_numeric(text: str) -> int | float:
    """SUM over BIGINT is NUMERIC in PostgreSQL: give ints back, as SQLite does."""
    if "." in text or "e" in text.lower() or text in ("NaN", "Infinity", "-Infinity"):
        return float(text)
    return int(text)


async def _init_connection(connection: asyncpg.Connection) -> None:
    await connection.set_type_codec(
        "numeric", schema="pg_catalog", encoder=str, decoder=_decode_numeric, format="text"
    )


async def migrate_postgres(connection: asyncpg.Connection, target: int | None = None) -> list[int]:
    """Bring the database (current ``search_path`` schema) to ``target``; versions applied.

    Each migration is one transaction with the row recording it, under an advisory lock,
    so a crash leaves the previous version and two processes apply each migration once.
    """
    migrations = schema.postgres_migrations()
    target = len(migrations) if target is None else target
    if not 0 <= target <= len(migrations):
        raise schema.SchemaError(f"no migration {target}; latest is {len(migrations)}")
    applied: list[int] = []
    version = await _pg_version(connection)
    _refuse_newer(version, len(migrations))
    for migration in migrations[:target]:
        if version >= migration.version:
            continue
        async with connection.transaction():
            await connection.execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY,"
                ' name TEXT COLLATE "C" NOT NULL, applied_at TEXT COLLATE "C" NOT NULL)'
            )
            version = await _pg_version(connection)
            _refuse_newer(version, len(migrations))
            if version >= migration.version:
                continue
            await connection.execute(migration.sql)
            await connection.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.version,
                migration.name,
                datetime.now(UTC).isoformat(),
            )
            applied.append(migration.version)
            version = migration.version
    return applied


def _refuse_newer(version: int, latest: int) -> None:
    if version > latest:
        raise schema.SchemaError(
            f"database schema version {version} is newer than this code "
            f"({latest}); upgrade mahjong-bot instead of opening it"
        )


async def _pg_version(connection: asyncpg.Connection) -> int:
    exists = await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


class PostgresStoreBase(StoreBase):
    """Connections and transactions on a PostgreSQL pool (replaces SQLite's ``StoreBase``)."""

    # Snapshot isolation; see the module text for why it suffices and is not SERIALIZABLE.
    isolation = "repeatable_read"

    def __init__(
        self,
        dsn: str,
        pool: asyncpg.Pool,
        clock: Callable[[], datetime],
        pool_size: int,
        schema_name: str | None,
    ) -> None:
        self.path = dsn
        self.dsn = dsn
        self.schema_name = schema_name
        self._pool = pool
        self._clock = clock
        self._closed = False
        self._fault_hook: Callable[[str], None] | None = None
        self._write_lock = asyncio.Lock()
        self._in_flight: set[asyncio.Future[Any]] = set()
        self.retries = 0  # transactions run again after losing a race (benchmarks, tests)

    @classmethod
    async def open(  # type: ignore[override]
        cls,
        dsn: str,
        *,
        clock: Callable[[], datetime] = _utc_now,
        pool_size: int = 8,
        schema: str | None = None,
        migrate: bool = True,
        **_ignored: Any,
    ) -> Self:
        """Connect to ``dsn`` and migrate it. ``schema`` (created if missing) isolates a
        store inside one database, e.g. one per test. SQLite-only options (such as
        ``synchronous``) are accepted and ignored, so callers can pass the same ones."""
        if schema is not None and not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", schema):
            raise ValueError(f"schema must be a lower-case SQL identifier, got {schema!r}")
        if schema is not None:
            bootstrap = await asyncpg.connect(dsn)
            try:
                await bootstrap.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
            except asyncpg.UniqueViolationError:
                pass  # created at the same moment by another process
            finally:
                await bootstrap.close()
        settings = {"search_path": schema} if schema is not None else {}
        pool = await asyncpg.create_pool(
            dsn,
            min_size=1,
            max_size=pool_size,
            init=_init_connection,
            server_settings=settings,
        )
        try:
            if migrate:
                async with pool.acquire() as connection:
                    await migrate_postgres(connection)
        except BaseException:
            await pool.close()
            raise
        return cls(dsn, pool, clock, pool_size, schema)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._in_flight:
            await asyncio.gather(*self._in_flight, return_exceptions=True)
        await self._pool.close()

    async def schema_version(self) -> int:
        async with self._pool.acquire() as connection:
            return await _pg_version(connection)

    async def _write(self, body: Callable[[Any], T]) -> T:
        """Run ``body`` as one transaction, again from the start if it lost a race; shielded,
        so a cancelled caller never leaves it half-done."""
        if self._closed:
            raise RuntimeError("store is closed")
        task = asyncio.ensure_future(self._write_until_committed(body))
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)
        return await asyncio.shield(task)

    async def _write_until_committed(self, body: Callable[[Any], T]) -> T:
        # One write at a time per process, as on SQLite: writes of one process would only
        # collide with each other (the same players' balances) and be retried; across
        # processes, the row-level conflict checks and the retry below keep them correct.
        async with self._write_lock:
            return await self._write_attempts(body)

    async def _write_attempts(self, body: Callable[[Any], T]) -> T:
        unique_retries = 0
        for attempt in range(1, _MAX_ATTEMPTS + 1):
            async with self._pool.acquire() as connection:
                transaction = connection.transaction(isolation=self.isolation)
                await transaction.start()
                try:
                    result = await run_body(self._write_body(body), PgConnection(connection))
                    await transaction.commit()
                    return result
                except BaseException as error:
                    if connection.is_in_transaction():
                        await transaction.rollback()
                    if _is_unique_violation(error) and unique_retries < _MAX_UNIQUE_RETRIES:
                        unique_retries += 1
                    elif not _is_retryable(error) or attempt == _MAX_ATTEMPTS:
                        raise
            self.retries += 1
            # Back off a little, randomly, so the same racers do not collide again.
            await asyncio.sleep(random.uniform(0, min(0.05, 0.001 * 2 ** min(attempt, 6))))
        raise AssertionError("unreachable")

    async def _write_statement(self, sql: str, params: Sequence[Any]) -> asyncpg.Record:
        """One write statement (PostgreSQL's own SQL, ``$N`` placeholders) as its own
        transaction, run again if it lost a race, like ``_write``; its first row.

        Why: a transaction of one statement needs no BEGIN and COMMIT round trips. The
        action journal's group commit is one such statement (``append_actions``), and on a
        busy machine each round trip to the server waits for it to be scheduled."""
        if self._closed:
            raise RuntimeError("store is closed")
        task = asyncio.ensure_future(self._statement_until_committed(sql, tuple(params)))
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)
        return await asyncio.shield(task)

    async def _statement_until_committed(self, sql: str, params: tuple[Any, ...]) -> asyncpg.Record:
        async with self._write_lock:
            unique_retries = 0
            for attempt in range(1, _MAX_ATTEMPTS + 1):
                try:
                    # As a body's last step: a fault here leaves nothing written.
                    self._fault("before_commit")
                    async with self._pool.acquire() as connection:
                        return await connection.fetchrow(sql, *params)
                except asyncpg.IntegrityConstraintViolationError as error:
                    if isinstance(error, asyncpg.UniqueViolationError) and (
                        unique_retries < _MAX_UNIQUE_RETRIES
                    ):
                        unique_retries += 1
                    else:
                        raise PgIntegrityError(_describe(error)) from error
                except _RETRYABLE:
                    if attempt == _MAX_ATTEMPTS:
                        raise
                self.retries += 1
                await asyncio.sleep(random.uniform(0, min(0.05, 0.001 * 2 ** min(attempt, 6))))
        raise AssertionError("unreachable")

    def _write_body(self, body: Callable[[Any], T]) -> Callable[[Any], T]:
        def write(connection: Any) -> T:
            result = body(connection)
            self._fault("before_commit")
            return result

        return write

    async def _read(self, body: Callable[[Any], T]) -> T:
        """Run a read-only ``body`` on one snapshot (``_SingleStatementConnection``)."""
        if self._closed:
            raise RuntimeError("store is closed")
        async with self._pool.acquire() as connection:
            try:
                return await run_body(body, _SingleStatementConnection(connection))
            except _NeedsSnapshot:
                pass
            async with connection.transaction(isolation="repeatable_read", readonly=True):
                return await run_body(body, PgConnection(connection))

    async def reset_identities(self) -> None:
        """Move every identity column's sequence past the largest stored id.

        Needed after rows were inserted with explicit ids (``db copy``, the synthetic
        ledger): the next row would otherwise be given an id already taken.
        """
        async with self._pool.acquire() as connection:
            await reset_identities(connection)


def _is_unique_violation(error: BaseException) -> bool:
    return isinstance(error, asyncpg.UniqueViolationError) or isinstance(
        error.__cause__, asyncpg.UniqueViolationError
    )


def _is_retryable(error: BaseException) -> bool:
    if isinstance(error, _RETRYABLE):
        return True
    cause = error.__cause__
    return isinstance(cause, _RETRYABLE)


async def reset_identities(connection: asyncpg.Connection) -> None:
    columns = await connection.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
    )
    for row in columns:
        table, column = row["table_name"], row["column_name"]
        await connection.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
            f" COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
        )


class PostgresStore(PostgresStoreBase, Store):
    """``Store`` on PostgreSQL: the same async methods, the same guarantees (and an
    instance of ``Store``, so type hints and checks need no second name).

    Open with ``await PostgresStore.open("postgresql://user@host/db")`` or, choosing by
    the target, ``await data.open_store(target)``.
    """
