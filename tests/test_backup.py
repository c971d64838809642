"""Backups of a running bot's SQLite database (``data.backup``, ``mahjong-bot db backup``,
``mahjong-bot run --backup-dir``): a copy holds what the bot last wrote, is checked
before it is kept, never overwrites, and the schedule keeps the newest few."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.backups import FIRST_DELAY, RETRY_DELAY, BackupSchedule
from bot.cli import main
from bot.commands import run as run_command
from data import SettlementEntry
from data.backup import (
    BACKUP_PREFIX,
    BackupError,
    backup_name,
    backup_sqlite,
    newest_backup,
    prune_backups,
)
from data.store import Store

GUILD = 42
ALICE, BOB = 101, 102


async def _played(path: Path) -> Store:
    """A store left open, as the bot holds it, with a settled hand and an adjustment."""
    store = await Store.open(path)
    await store.create_game("g1", GUILD, None, "taizhou", {}, [], 1, settings={}, status="running")
    entries = [
        SettlementEntry(0, ALICE, 30, True),
        SettlementEntry(1, BOB, -10, False),
        SettlementEntry(2, None, -10, False),
        SettlementEntry(3, None, -10, False),
    ]
    assert await store.settle_hand(GUILD, "g1", 0, entries, 2)
    await store.adjust_balance(GUILD, BOB, 500, by_user=ALICE, reason="welcome")
    return store


def _balances(path: Path) -> dict[int, int] | None:
    """The balances in the file at ``path``, None where it has no balances table."""
    connection = sqlite3.connect(path)
    try:
        return dict(connection.execute("SELECT user_id, balance FROM balances").fetchall())
    except sqlite3.OperationalError:
        return None
    finally:
        connection.close()


async def test_a_backup_of_a_running_database_holds_its_latest_writes(tmp_path: Path) -> None:
    """The bot keeps its newest writes in the WAL (it checkpoints on its own schedule), so
    copying the database file alone loses them; the backup has them, in one file."""
    database = tmp_path / "mahjong.db"
    store = await _played(database)
    try:
        copied = tmp_path / "copied.db"
        shutil.copy(database, copied)  # what an operator's cp of the file alone would keep
        assert _balances(copied) is None  # even the tables are still in the WAL

        report = await asyncio.to_thread(backup_sqlite, database, tmp_path / "backup.db")
        assert report.path == tmp_path / "backup.db"
        assert _balances(report.path) == {ALICE: 1060, BOB: 1480}
        assert (report.hands, report.balances, report.games) == (1, 2, 1)
        assert (
            report.ledger_rows == 2 + 4 + 1
        )  # two openings, the hand's four seats, one adjustment
        assert report.size_bytes == report.path.stat().st_size > 0
        assert not (tmp_path / "backup.db-wal").exists()  # self-contained
        # The bot goes on writing, and the backup opens as a database of its own.
        await store.adjust_balance(GUILD, ALICE, 1, by_user=BOB, reason="later")
    finally:
        await store.close()
    restored = await Store.open(tmp_path / "backup.db")
    try:
        assert await restored.get_balance(GUILD, ALICE) == 1060
        assert await restored.verify_balances() == []
    finally:
        await restored.close()


async def test_a_backup_never_overwrites_and_leaves_nothing_when_refused(tmp_path: Path) -> None:
    database = tmp_path / "mahjong.db"
    store = await _played(database)
    await store.close()
    existing = tmp_path / "existing.db"
    existing.write_bytes(b"keep me")
    with pytest.raises(BackupError, match="exists already"):
        backup_sqlite(database, existing)
    assert existing.read_bytes() == b"keep me"
    with pytest.raises(BackupError, match="does not exist"):
        backup_sqlite(database, tmp_path / "no such dir" / "b.db")
    with pytest.raises(BackupError, match="not a database file"):
        backup_sqlite(tmp_path / "missing.db", tmp_path / "b.db")
    with pytest.raises(BackupError, match="the database itself"):
        backup_sqlite(database, database)

    # A copy that does not check out is not kept: a balance the ledger does not explain.
    connection = sqlite3.connect(database)
    connection.execute("UPDATE balances SET balance = balance + 7 WHERE user_id = ?", (BOB,))
    connection.commit()
    connection.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    with pytest.raises(BackupError, match="1 balances in the copy differ from their ledger"):
        backup_sqlite(database, folder)
    assert list(folder.iterdir()) == []  # no half-written or unchecked file


async def test_backups_in_a_directory_are_dated_and_pruned_to_the_newest(tmp_path: Path) -> None:
    database = tmp_path / "mahjong.db"
    await (await _played(database)).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "mahjong-backup-manual.db").write_text("named by hand: not ours to delete")
    made = [backup_sqlite(database, folder).path for _ in range(3)]
    assert len(set(made)) == 3 and all(path.name.startswith(BACKUP_PREFIX) for path in made)
    assert newest_backup(folder) == made[-1]
    assert prune_backups(folder, 2) == [made[0]]
    left = sorted(path.name for path in folder.iterdir())
    assert left == sorted(["notes.txt", "mahjong-backup-manual.db", *(p.name for p in made[1:])])
    with pytest.raises(ValueError):
        prune_backups(folder, 0)
    assert backup_name(datetime(2026, 12, 2, 15, 30, 1, tzinfo=UTC)) == (
        "mahjong-backup-20261202-153001.db"
    )


async def test_db_backup_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "mahjong.db"
    await (await _played(database)).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    for _ in range(3):
        assert (
            main(["db", "backup", "--db", str(database), "--out", str(folder), "--keep", "2"]) == 0
        )
    out = capsys.readouterr().out
    assert (
        "1 settled hands" in out and "2 balances" in out and "integrity and balances checked" in out
    )
    assert out.count("deleted an old backup") == 1
    assert len(list(folder.iterdir())) == 2

    code = main(["db", "backup", "--db", "postgresql://u:secret@h/db", "--out", str(folder)])
    err = capsys.readouterr().err
    assert code == 2 and "pg_dump" in err and "secret" not in err
    code = main(
        ["db", "backup", "--db", str(database), "--out", str(tmp_path / "f.db"), "--keep", "2"]
    )
    assert code == 2 and "--keep" in capsys.readouterr().err
    code = main(["db", "backup", "--db", str(tmp_path / "nothing.db"), "--out", str(folder)])
    assert code == 2 and "no backup written" in capsys.readouterr().err
    # A directory not made yet (README: --out /var/backups/mahjong): said, and no file of
    # its name written (every later backup would have been "exists already").
    missing = tmp_path / "not made yet"
    for out, keep in ((f"{missing}/", []), (str(missing), ["--keep", "2"])):
        code = main(["db", "backup", "--db", str(database), "--out", out, *keep])
        assert code == 2 and f"directory {missing} does not exist" in capsys.readouterr().err
        assert not missing.exists()


class _Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 2, 12, tzinfo=UTC)
        self.slept: list[float] = []

    def __call__(self) -> datetime:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += timedelta(seconds=seconds)


async def test_the_schedule_backs_up_when_due_and_keeps_the_newest(tmp_path: Path) -> None:
    database = tmp_path / "mahjong.db"
    await (await _played(database)).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    clock = _Clock()
    schedule = BackupSchedule(database, folder, timedelta(hours=24), keep=2, clock=clock)
    assert schedule.first_due() == clock.now + FIRST_DELAY  # none yet: soon after start
    await schedule.run(sleep=clock.sleep, rounds=3)
    assert clock.slept == [60.0, 86400.0, 86400.0]
    assert len([path for path in folder.iterdir() if path.name.startswith(BACKUP_PREFIX)]) == 2

    # A restart an hour after the last backup waits for the rest of the day, not a minute.
    newest = newest_backup(folder)
    assert newest is not None
    restarted = _Clock()
    restarted.now = datetime.fromtimestamp(newest.stat().st_mtime, UTC) + timedelta(hours=1)
    again = BackupSchedule(database, folder, timedelta(hours=24), keep=2, clock=restarted)
    assert again.first_due() == restarted.now + timedelta(hours=23)


async def test_a_failed_backup_is_tried_again_within_the_hour(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    clock = _Clock()
    schedule = BackupSchedule(
        tmp_path / "gone.db", folder, timedelta(hours=24), keep=2, clock=clock
    )
    await schedule.run(sleep=clock.sleep, rounds=2)
    assert clock.slept == [FIRST_DELAY.total_seconds(), RETRY_DELAY.total_seconds()]
    assert "backup failed, next try in an hour" in caplog.text
    assert list(folder.iterdir()) == []


def _run_args(tmp_path: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    run_command.add_arguments(parser)
    return parser.parse_args(["--env-file", str(tmp_path / ".env"), *extra])


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (
            ["--db", "postgresql://u:p@h/db", "--backup-dir", "{dir}"],
            "for PostgreSQL schedule pg_dump",
        ),
        (["--backup-dir", "{missing}"], "does not exist"),
        (["--backup-dir", "{dir}", "--backup-hours", "0"], "--backup-hours must be more than 0"),
        (["--backup-dir", "{dir}", "--backup-keep", "many"], "must be numbers"),
        (["--backup-dir", "{dir}", "--backup-keep", "0"], "--backup-keep must be at least 1"),
    ],
)
def test_run_refuses_a_backup_schedule_that_cannot_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], says: str
) -> None:
    """Answered at once, before the token or Discord: a schedule that would fail every
    night unseen is worse than none."""
    values = {"dir": str(tmp_path), "missing": str(tmp_path / "missing")}
    args = _run_args(tmp_path, *(part.format(**values) for part in extra))
    assert run_command.run(args) == 2
    assert says in capsys.readouterr().err


def test_run_reads_the_schedule_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAHJONG_BACKUP_DIR", str(tmp_path))
    monkeypatch.setenv("MAHJONG_BACKUP_HOURS", "6")
    monkeypatch.setenv("MAHJONG_BACKUP_KEEP", "30")
    schedule = run_command.backup_setup(_run_args(tmp_path), str(tmp_path / "m.db"))
    assert schedule is not None
    assert (schedule.directory, schedule.every, schedule.keep) == (tmp_path, timedelta(hours=6), 30)
    monkeypatch.delenv("MAHJONG_BACKUP_DIR")
    assert run_command.backup_setup(_run_args(tmp_path), str(tmp_path / "m.db")) is None


def test_the_running_bot_backs_up_on_its_schedule_and_stops_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run --backup-dir``: the schedule runs beside the bot and stops with it."""
    import os
    import signal

    import bot.backups
    import bot.session
    from bot.app import MahjongBot

    folder = tmp_path / "backups"
    folder.mkdir()

    async def fake_start(self: MahjongBot, token: str, *, reconnect: bool = True) -> None:
        for _ in range(500):  # until the first backup is there (at most 10 s)
            if newest_backup(folder) is not None:
                break
            await asyncio.sleep(0.02)
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.Event().wait()

    monkeypatch.setattr(bot.backups, "FIRST_DELAY", timedelta(0))
    monkeypatch.setattr(bot.session, "tune_runtime", lambda: None, raising=False)
    monkeypatch.setattr(MahjongBot, "start", fake_start)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    args = _run_args(tmp_path, "--db", str(tmp_path / "m.db"), "--backup-dir", str(folder))
    assert run_command.run(args) == 0
    backup = newest_backup(folder)
    assert backup is not None and _balances(backup) == {}
    err = capsys.readouterr().err
    assert f"backing up to {folder} every 24 h, keeping 14" in err
    assert f"backup {backup.name}:" in err and "stopped" in err
