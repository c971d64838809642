"""The bot's storage: balances, an exactly-once ledger, leaderboards, games and settings.

``Store`` is the seam between the bot and a database. It speaks plain values
(``data.models``); every line of SQL stays inside ``data/``, so a server database could
replace SQLite by reimplementing this one class. The class is assembled here from one
part per job, each a mixin over ``StoreBase``: ``data.connection`` (opening, migrations,
the writer and reader, transactions, ``check_database``), ``data.ledger`` (balances,
settlement, penalties, adjustments, ``verify_balances``), ``data.leaderboards``,
``data.audit`` (the guild-wide ledger an admin pages through and exports),
``data.games`` (games, seating, the action log) and ``data.settings`` (guild settings and
user preferences). Callers import ``Store`` from here or from ``data``.

Two backends
------------
``open_store(target)`` opens this class on SQLite, or ``data.postgres.PostgresStore`` (a
subclass) on a ``postgresql://`` URL. Both run the same part bodies, so SQL in a body
must be portable: ``?``/``?N`` placeholders, ``ON CONFLICT`` instead of ``INSERT OR``,
``CASE`` instead of boolean sums or scalar ``MAX(a, b)``, upsert columns qualified by
their table (``t.net + excluded.net``), ``col = ?1 OR ?1 IS NULL`` in that order,
``RETURNING`` instead of ``lastrowid``; a statement that cannot be portable picks its
text with ``connection.dialect_of(connection)``. A failed statement ends a PostgreSQL
transaction, so a body that catches ``sqlite3.IntegrityError`` must raise, not go on.
Tests that take the ``db`` fixture (tests/conftest.py) run on both backends.

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

import os
from typing import Any

from .audit import AuditPart
from .connection import StoreBase, check_database
from .games import AlreadySeatedError, ChannelBusyError, GamesPart
from .history import HistoryPart
from .leaderboards import LeaderboardsPart
from .leases import LeasesPart
from .ledger import LedgerPart
from .settings import SettingsPart

__all__ = [
    "AlreadySeatedError",
    "ChannelBusyError",
    "Store",
    "StoreBase",
    "check_database",
    "is_postgres_target",
    "open_store",
]


class Store(
    LedgerPart, LeaderboardsPart, AuditPart, GamesPart, HistoryPart, LeasesPart, SettingsPart
):
    """Async storage for one bot process. Open with ``await Store.open(path)`` or ``async with``.

    ``clock`` supplies "now" for rows written without an explicit time (tests pass a
    fake one). ``_fault_hook``, when set, is called on the database thread with a stage
    name ("rows_written", "before_commit") inside a settlement transaction; the crash
    tests use it to kill the process at a known point.
    """


def is_postgres_target(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL server (``postgresql://`` or ``postgres://``)."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


async def open_store(target: str | os.PathLike[str], **kwargs: Any) -> Store:
    """The opened (and migrated) store for ``target``.

    A ``postgresql://`` (or ``postgres://``) URL opens ``data.postgres.PostgresStore``;
    anything else is a SQLite file (or ``:memory:``) for ``Store``. Both have the same
    async methods and guarantees, so callers never branch on the backend. Options the
    other backend does not have are ignored by the PostgreSQL store (``synchronous``);
    PostgreSQL's own are ``pool_size`` and ``schema``.
    """
    if is_postgres_target(target):
        from .postgres import PostgresStore  # asyncpg is imported only when used

        return await PostgresStore.open(str(target), **kwargs)
    return await Store.open(target, **kwargs)
