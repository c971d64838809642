"""Versioned SQL migrations, applied in order when a store opens.

Each ``migrations/NNNN_name.sql`` file is one version. A migration runs inside a single
``BEGIN IMMEDIATE`` transaction together with the row that records it, so a crash leaves
the database at the previous version, never half-way; and two processes opening the same
file at once cannot both apply it, because the version is re-read under the write lock.

This module is synchronous on purpose: it runs on the store's database thread.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class SchemaError(RuntimeError):
    """The database cannot be brought to the schema this code expects."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def available_migrations() -> list[Migration]:
    """The shipped migrations, ordered by version; versions must be 1, 2, 3, ... exactly."""
    migrations = []
    for entry in resources.files("data").joinpath("migrations").iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            sql = entry.read_text(encoding="utf-8")
            migrations.append(Migration(int(match.group(1)), match.group(2), sql))
    migrations.sort(key=lambda migration: migration.version)
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise SchemaError(f"migration versions must be contiguous; missing {expected:04d}")
    return migrations


LATEST_VERSION = len(available_migrations())


def split_statements(script: str) -> list[str]:
    """Split a script into statements (trigger bodies included) without leaving the transaction.

    ``executescript`` would COMMIT any open transaction first, which is exactly what a
    migration must not do; ``sqlite3.complete_statement`` knows where statements end.
    """
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statement = buffer.strip()
            if statement.strip(";").strip() and not _only_comments(statement):
                statements.append(statement)
            buffer = ""
    if buffer.strip() and not _only_comments(buffer):
        raise SchemaError(f"incomplete SQL statement at end of migration: {buffer.strip()[:60]!r}")
    return statements


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in text.splitlines())


def current_version(connection: sqlite3.Connection) -> int:
    exists = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if not exists:
        return 0
    row = connection.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    return int(row[0])


def migrate(connection: sqlite3.Connection, target: int | None = None) -> list[int]:
    """Bring the database to ``target`` (default: the latest); returns the versions applied.

    ``connection`` must be in autocommit mode (``isolation_level=None``): transactions here
    are explicit. A database newer than this code is refused rather than misread.
    """
    migrations = available_migrations()
    target = len(migrations) if target is None else target
    if not 0 <= target <= len(migrations):
        raise SchemaError(f"no migration {target}; latest is {len(migrations)}")
    applied: list[int] = []
    # Look first without the write lock: an up-to-date database (the usual case) must open
    # even while another process holds a long write transaction.
    version = current_version(connection)
    if version > len(migrations):
        raise SchemaError(
            f"database schema version {version} is newer than this code "
            f"({len(migrations)}); upgrade mahjong-bot instead of opening it"
        )
    for migration in migrations[:target]:
        if version >= migration.version:
            continue
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            version = current_version(connection)
            if version > len(migrations):
                raise SchemaError(
                    f"database schema version {version} is newer than this code "
                    f"({len(migrations)}); upgrade mahjong-bot instead of opening it"
                )
            if version >= migration.version:
                connection.execute("COMMIT")
                continue
            for statement in split_statements(migration.sql):
                connection.execute(statement)
            connection.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, datetime.now(UTC).isoformat()),
            )
            connection.execute("COMMIT")
            applied.append(migration.version)
            version = migration.version
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
    return applied
