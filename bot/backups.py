"""Backups on a schedule while the bot runs (``mahjong-bot run --backup-dir DIR``).

Why in the bot: a server's balances are months of play, and an operator who has to
remember a cron job usually has none. Each backup is ``data.backup``'s checked copy,
taken in a thread (a large file takes seconds; the tables keep moving meanwhile), and
the newest ``keep`` are kept. The schedule reads the newest backup already in the
directory, so a bot restarted every hour does not back up every hour, and one down for
a week backs up soon after it starts.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from data.backup import BackupError, BackupReport, backup_sqlite, newest_backup, prune_backups

log = logging.getLogger("bot.backups")

FIRST_DELAY = timedelta(minutes=1)  # not in the minute the bot restores its tables
RETRY_DELAY = timedelta(hours=1)  # after a failed backup (disk full, directory gone)


@dataclass
class BackupSchedule:
    database: Path
    directory: Path
    every: timedelta
    keep: int
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    def first_due(self) -> datetime:
        now = self.clock()
        newest = newest_backup(self.directory)
        if newest is None:
            return now + FIRST_DELAY
        taken = datetime.fromtimestamp(newest.stat().st_mtime, UTC)
        return max(now + FIRST_DELAY, taken + self.every)

    def take(self) -> BackupReport:
        """One backup and the pruning after it (blocking: run it in a thread)."""
        report = backup_sqlite(self.database, self.directory)
        for path in prune_backups(self.directory, self.keep):
            log.info("deleted an old backup %s", path.name)
        return report

    async def run(
        self, sleep: Callable[[float], Awaitable[object]] = asyncio.sleep, rounds: int | None = None
    ) -> None:
        """Back up when due, forever (or ``rounds`` times, for a test); cancel to stop."""
        due = self.first_due()
        done = 0
        while rounds is None or done < rounds:
            wait = (due - self.clock()).total_seconds()
            if wait > 0:
                await sleep(wait)
            try:
                report = await asyncio.to_thread(self.take)
            except BackupError as error:
                log.error("backup failed, next try in an hour: %s", error)
                due = self.clock() + min(self.every, RETRY_DELAY)
            else:
                log.info(
                    "backup %s: %s bytes in %.2f s, %s settled hands, %s balances, checked",
                    report.path.name,
                    f"{report.size_bytes:,}",
                    report.seconds,
                    f"{report.hands:,}",
                    f"{report.balances:,}",
                )
                due = self.clock() + self.every
            done += 1


def schedule_problem(database: str, directory: str, hours: float, keep: int) -> str | None:
    """Why ``--backup-dir`` cannot work as given, in one line, or None."""
    from data.store import is_postgres_target

    if is_postgres_target(database):
        return "--backup-dir backs up SQLite; for PostgreSQL schedule pg_dump instead"
    if not hours > 0:
        return f"--backup-hours must be more than 0, not {hours:g}"
    if keep < 1:
        return f"--backup-keep must be at least 1, not {keep}"
    folder = Path(directory)
    if not folder.is_dir():
        return f"backup directory {directory} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"backup directory {directory} is not writable"
    return None
