"""Versioned SQL migrations, applied in order when a store opens, on SQLite and PostgreSQL.

Each ``migrations/NNNN_name.sql`` file is one version. A migration runs inside a single
transaction together with the row that records it, so a crash leaves the database at the
previous version, never half-way; and two processes opening the same database at once
cannot both apply it (SQLite: the version is re-read under ``BEGIN IMMEDIATE``;
PostgreSQL: under an advisory lock, see ``data.postgres.migrate_postgres``).

Adding a migration (the rule)
-----------------------------
1. Write ``NNNN_name.sql`` (the next number) in portable SQL: types ``INTEGER`` and
   ``TEXT``, ``INSERT ... ON CONFLICT ... DO NOTHING/UPDATE``, no SQLite-only functions.
   SQLite runs it as written. For PostgreSQL it is translated (``postgres_sql``):
   ``INTEGER`` becomes ``BIGINT`` (Discord ids are 64-bit), a column ``INTEGER PRIMARY
   KEY`` becomes an identity column (SQLite's rowid alias), ``TEXT`` gets the "C"
   collation (SQLite's byte order, so ORDER BY agrees), ``WITHOUT ROWID`` is dropped.
2. If it needs anything else (triggers, JSON functions, ``INSERT OR IGNORE``, scalar
   ``MAX(a, b)``, boolean arithmetic...), also write ``NNNN_name.postgres.sql`` beside it:
   PostgreSQL then runs that file verbatim instead. The translator refuses the SQLite-only
   constructs it knows, naming the file, rather than guess.
3. tests/test_storage_backends.py applies every migration on both databases and compares
   the resulting tables, columns and indexes; it fails if a migration is missing, fails on
   either backend, or leaves the two schemas different. The only intended difference is
   ``POSTGRES_ONLY_INDEXES``: physical indexes a server needs and SQLite does not.

This module is synchronous on purpose: it runs on the store's database thread.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

# Leaderboard-order indexes, created by 0002_stats_and_prefs.postgres.sql. SQLite reads a
# week's ~5,000 aggregate rows and sorts them in-process in well under a millisecond; a
# PostgreSQL backend sorting them takes ~10 ms of CPU and 20+ ms on a busy machine, so
# there the board is read in index order instead (the rows are the same).
POSTGRES_ONLY_INDEXES = frozenset({"weekly_stats_board", "player_stats_board"})

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_POSTGRES_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.postgres\.sql$")


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

# SQLite-only constructs the PostgreSQL translation cannot carry over (see the rule above).
_SQLITE_ONLY = (
    (re.compile(r"\bINSERT\s+OR\b", re.I), "INSERT OR ... (use ON CONFLICT)"),
    (re.compile(r"\bREPLACE\s+INTO\b", re.I), "REPLACE INTO (use ON CONFLICT)"),
    (re.compile(r"\bCREATE\s+TRIGGER\b", re.I), "triggers (the dialects differ)"),
    (re.compile(r"\bjson_\w+\s*\(", re.I), "SQLite JSON functions"),
    (re.compile(r"\bRAISE\s*\(", re.I), "RAISE(...)"),
    (re.compile(r"\bPRAGMA\b", re.I), "PRAGMA"),
    (re.compile(r"\bAUTOINCREMENT\b", re.I), "AUTOINCREMENT"),
    (re.compile(r"\b(IFNULL|strftime|datetime|julianday|printf|instr|group_concat)\s*\(", re.I),
     "a SQLite-only function"),
    (re.compile(r"\b(MAX|MIN)\s*\([^()]*,", re.I), "scalar MAX(a, b)/MIN(a, b) (use CASE)"),
    (re.compile(r"\bSUM\s*\(\s*[\w.]+\s*(=|!=|<>|<|>)", re.I), "SUM over a comparison (use CASE)"),
)  # fmt: skip


def _strip_comments(sql: str) -> str:
    return re.sub(r"--[^\n]*", "", sql)


def postgres_sql(migration: Migration) -> str:
    """The migration in PostgreSQL's dialect: the translated portable file (rule above)."""
    code = _strip_comments(migration.sql)
    for pattern, what in _SQLITE_ONLY:
        if pattern.search(code):
            raise SchemaError(
                f"migration {migration.version:04d}_{migration.name}.sql uses {what}; "
                f"write {migration.version:04d}_{migration.name}.postgres.sql beside it"
            )
    code = re.sub(r"\bWITHOUT\s+ROWID\b", "", code, flags=re.I)
    code = re.sub(
        r"\bINTEGER\s+PRIMARY\s+KEY\b",
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        code,
        flags=re.I,
    )
    code = re.sub(r"\bINTEGER\b", "BIGINT", code, flags=re.I)
    code = re.sub(r"(?<!AS )(?<!as )\bTEXT\b", 'TEXT COLLATE "C"', code, flags=re.I)
    return code


def postgres_migrations() -> list[Migration]:
    """Every migration with its PostgreSQL text: ``NNNN_name.postgres.sql`` when it exists,
    else the translated ``NNNN_name.sql``. An override without its base file is an error."""
    overrides: dict[int, str] = {}
    names: dict[int, str] = {}
    for entry in resources.files("data").joinpath("migrations").iterdir():
        match = _POSTGRES_FILE_NAME.match(entry.name)
        if match:
            overrides[int(match.group(1))] = entry.read_text(encoding="utf-8")
            names[int(match.group(1))] = match.group(2)
    migrations = available_migrations()
    by_version = {migration.version: migration for migration in migrations}
    for version, name in names.items():
        base = by_version.get(version)
        if base is None or base.name != name:
            raise SchemaError(
                f"{version:04d}_{name}.postgres.sql has no {version:04d}_{name}.sql beside it"
            )
    return [
        Migration(
            migration.version,
            migration.name,
            overrides[migration.version]
            if migration.version in overrides
            else postgres_sql(migration),
        )
        for migration in migrations
    ]


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
