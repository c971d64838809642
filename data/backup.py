"""A consistent copy of a running bot's SQLite database, checked before it is kept.

Why not ``cp``: the bot keeps its database in WAL mode, so the newest moves and payments
may sit in ``mahjong.db-wal`` rather than in the file itself, and a copy taken while a
hand settles can hold half a transaction. SQLite's online backup reads one snapshot
through a connection of its own (in WAL mode a reader neither waits for the bot's writer
nor holds it up) and writes it out as one self-contained file.

A copy is only a backup once it is known to open: each is written under a temporary name,
checked (``PRAGMA integrity_check``, this program's schema, every balance equal to the
sum of its ledger rows) and only then renamed into place, so a directory of backups
never holds a half-written or unreadable one. ``prune_backups`` keeps the newest few of
the files this module names, and touches nothing else in the directory.

PostgreSQL has its own tool for this (``pg_dump``); this module is for SQLite only.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
import urllib.parse
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from . import schema
from .ledger import UNEXPLAINED_BALANCES_SQL

BACKUP_PREFIX = "mahjong-backup-"
_BACKUP_NAME = re.compile(re.escape(BACKUP_PREFIX) + r"(\d{8}-\d{6})(?:-(\d+))?\.db")


class BackupError(Exception):
    """Why no backup was written, in one line for an operator."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    size_bytes: int
    seconds: float
    schema_version: int
    games: int
    hands: int
    ledger_rows: int
    balances: int


def backup_name(when: datetime) -> str:
    """``mahjong-backup-20261202-153000.db``: sorts by time, and ``prune_backups`` knows
    its own files by it."""
    return f"{BACKUP_PREFIX}{when.astimezone(UTC):%Y%m%d-%H%M%S}.db"


def destination_for(out: Path, when: datetime) -> Path:
    """``out`` itself, or a dated file inside it when it is a directory."""
    if out.is_dir():
        path = out / backup_name(when)
        serial = 1
        while path.exists():  # two backups in one second (a test, a hurried operator)
            path = out / backup_name(when).replace(".db", f"-{serial}.db")
            serial += 1
        return path
    return out


def backup_sqlite(source: str | os.PathLike[str], out: str | os.PathLike[str]) -> BackupReport:
    """Copy the database at ``source`` to ``out`` (a file that does not exist yet, or a
    directory to write a dated file in), checked. Blocking: the bot calls it in a thread.
    Raises ``BackupError``; nothing is left at the destination then."""
    started = time.perf_counter()
    source_path = Path(source)
    if not source_path.is_file() or source_path.stat().st_size == 0:
        raise BackupError(f"{source_path} is not a database file")
    if os.fspath(out).endswith(("/", os.sep)) and not Path(out).is_dir():
        # Written as a directory (README's --out /var/backups/mahjong/): a file of its
        # name would make every later backup "exists already", a cron job's silent end.
        raise BackupError(f"directory {Path(out)} does not exist")
    destination = destination_for(Path(out), datetime.now(UTC))
    if destination.resolve() == source_path.resolve():
        raise BackupError("the backup cannot be the database itself")
    if destination.exists():
        raise BackupError(f"{destination} exists already (a backup never overwrites a file)")
    if not destination.parent.is_dir():
        raise BackupError(f"directory {destination.parent} does not exist")
    partial = destination.with_name(destination.name + ".partial")
    try:
        _copy(source_path, partial)
        report = _check(partial)
        os.replace(partial, destination)
    except sqlite3.Error as error:
        raise BackupError(f"{source_path}: {error}") from error
    except OSError as error:
        raise BackupError(f"{destination}: {error.strerror or error}") from error
    finally:
        partial.unlink(missing_ok=True)
    return BackupReport(
        destination,
        destination.stat().st_size,
        time.perf_counter() - started,
        *report,
    )


def _copy(source: Path, partial: Path) -> None:
    # Read-only: a backup must not create, checkpoint or migrate anything in the live
    # database. Not ``immutable``: the WAL's newest pages are what a backup is for.
    uri = "file:" + urllib.parse.quote(str(source.resolve())) + "?mode=ro"
    reader = sqlite3.connect(uri, uri=True, timeout=30)
    try:
        writer = sqlite3.connect(partial)
        try:
            # In one step: a step-wise backup starts over whenever the bot writes, which
            # a busy table does several times a second.
            reader.backup(writer)
            writer.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
            writer.commit()
        finally:
            writer.close()
    finally:
        reader.close()
    with open(partial, "rb+") as file:
        os.fsync(file.fileno())


def _check(path: Path) -> tuple[int, int, int, int, int]:
    """(schema version, games, hands, ledger rows, balances) of a copy that checks out."""
    connection = sqlite3.connect(path)
    try:
        problems = [row[0] for row in connection.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            raise BackupError(f"the copy is damaged: {'; '.join(map(str, problems))[:200]}")
        version = schema.current_version(connection)
        if not 1 <= version <= schema.LATEST_VERSION:
            raise BackupError(f"not a mahjong-bot database (schema version {version})")
        unexplained = len(connection.execute(UNEXPLAINED_BALANCES_SQL).fetchall())
        if unexplained:
            raise BackupError(
                f"{unexplained} balances in the copy differ from their ledger: not kept"
            )

        def count(table: str) -> int:
            return int(connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

        hands = int(
            connection.execute("SELECT COUNT(*) FROM ledger_ops WHERE kind = 'hand'").fetchone()[0]
        )
        return version, count("games"), hands, count("ledger"), count("balances")
    finally:
        connection.close()


def _ours(directory: Path) -> list[Path]:
    """This module's backups in ``directory``, oldest first (by the time in the name,
    then the serial a second backup within one second gets)."""
    found = []
    for path in directory.iterdir():
        match = _BACKUP_NAME.fullmatch(path.name)
        if match:
            found.append((match[1], int(match[2] or 0), path))
    return [path for *_, path in sorted(found)]


def prune_backups(directory: str | os.PathLike[str], keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` of this module's backups in ``directory``;
    returns what it deleted. Other files, and backups named otherwise, stay."""
    if keep < 1:
        raise ValueError("keep at least one backup")
    stale = _ours(Path(directory))[:-keep]
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


def newest_backup(directory: str | os.PathLike[str]) -> Path | None:
    """The newest of this module's backups in ``directory`` (by its name's time)."""
    folder = Path(directory)
    ours = _ours(folder) if folder.is_dir() else []
    return ours[-1] if ours else None
