"""Copying a SQLite database into an empty PostgreSQL one, for a server that moves.

Why all in one PostgreSQL transaction, checked before COMMIT: a copy that stopped half-way
or that lost a row would leave a ledger that no longer explains its balances, and the bot
would then run on it. So the rows go in with COPY inside one transaction, the row count
of every table and every balance are compared with the source, the ledger is checked to
explain every balance, and only then is it committed; any difference rolls everything
back and the destination stays empty.

The source is read in one SQLite read transaction (one consistent snapshot, even if a
bot still wrote to it; stop the bot first anyway, or its later writes are not copied).
Both databases are migrated to the latest schema first, so their tables match.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .connection import check_database
from .ledger import UNEXPLAINED_BALANCES_SQL
from .store import Store, is_postgres_target, open_store

_CHUNK = 5_000


class CopyError(RuntimeError):
    """The copy was refused or did not verify; the destination was left unchanged."""


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)
    balances: int = 0

    @property
    def total_rows(self) -> int:
        return sum(self.rows.values())


def _tables_in_dependency_order(connection: sqlite3.Connection) -> list[str]:
    """Data tables, each after the tables its foreign keys point to."""
    names = sorted(
        row[0]
        for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'"
        )
    )
    parents = {
        name: {row[2] for row in connection.execute(f"PRAGMA foreign_key_list({name})")} - {name}
        for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:
            raise CopyError(f"foreign keys form a cycle among {sorted(set(names) - set(ordered))}")
        ordered.extend(ready)
    return ordered


def _columns(connection: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]


def _rows(
    connection: sqlite3.Connection, table: str, columns: list[str]
) -> Iterator[tuple[Any, ...]]:
    cursor = connection.execute(f"SELECT {', '.join(columns)} FROM {table}")
    while chunk := cursor.fetchmany(_CHUNK):
        yield from chunk


async def copy_database(source: str | os.PathLike[str], destination: str) -> CopyReport:
    """Copy every row of the SQLite database ``source`` into the empty PostgreSQL
    database ``destination`` (a ``postgresql://`` URL), verified; see the module text."""
    source = os.fspath(source)
    if is_postgres_target(source):
        raise CopyError("the source must be a SQLite file (copying goes SQLite -> PostgreSQL)")
    if not is_postgres_target(destination):
        raise CopyError("the destination must be a postgresql:// URL")
    if not os.path.isfile(source):
        raise CopyError(f"no SQLite database at {source}")
    problem = check_database(source)
    if problem is not None:
        raise CopyError(problem)
    async with await Store.open(source):
        pass  # brings the source to the latest schema, as the bot would on start
    target = await open_store(destination)
    try:
        return await _copy(source, target)
    finally:
        await target.close()


async def _copy(source: str, target: Any) -> CopyReport:
    from .postgres import reset_identities

    report = CopyReport()
    lite = sqlite3.connect(source, isolation_level=None)
    try:
        lite.execute("BEGIN")  # one snapshot for every table
        tables = _tables_in_dependency_order(lite)
        async with target._pool.acquire() as connection, connection.transaction():
            present = {
                row[0]
                for row in await connection.fetch(
                    "SELECT table_name FROM information_schema.tables"
                    " WHERE table_schema = current_schema()"
                )
            }
            missing = [table for table in tables if table not in present]
            if missing:
                raise CopyError(f"the destination has no table {', '.join(missing)}")
            occupied = []
            for table in sorted(present - {"schema_migrations"}):
                count = await connection.fetchval(f"SELECT COUNT(*) FROM {table}")
                if count:
                    occupied.append(f"{table}: {count} rows")
            if occupied:
                raise CopyError(
                    "目标数据库不是空的 / the destination already holds data ("
                    + ", ".join(occupied)
                    + "); db copy only fills an empty database"
                )
            for table in tables:
                columns = _columns(lite, table)
                await connection.copy_records_to_table(
                    table, records=_rows(lite, table, columns), columns=columns
                )
            await reset_identities(connection)
            for table in tables:
                expected = lite.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                copied = await connection.fetchval(f"SELECT COUNT(*) FROM {table}")
                if copied != expected:
                    raise CopyError(f"{table}: copied {copied} rows of {expected}")
                report.rows[table] = int(copied)
            query = "SELECT guild_id, user_id, balance FROM balances ORDER BY guild_id, user_id"
            source_balances = [tuple(row) for row in lite.execute(query)]
            copied_balances = [tuple(row) for row in await connection.fetch(query)]
            if copied_balances != source_balances:
                raise CopyError("the copied balances differ from the source's")
            unexplained = await connection.fetch(UNEXPLAINED_BALANCES_SQL)
            if unexplained:
                raise CopyError(
                    f"{len(unexplained)} copied balances are not the sum of their ledger rows"
                )
            report.balances = len(copied_balances)
    finally:
        lite.close()
    return report
