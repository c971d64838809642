"""Commands refuse what they cannot use in one line and exit 2, touching nothing."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, token: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", ""), "HOME": str(ROOT)}
    if token is not None:
        env["DISCORD_TOKEN"] = token
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, env=env,
        stdin=subprocess.DEVNULL, timeout=120,
    )  # fmt: skip


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", ["garbage", "truncated", "directory"])
def test_play_refuses_an_unopenable_database(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "bad.db"
    if kind == "garbage":
        path.write_bytes(os.urandom(5000))
    elif kind == "truncated":
        import sqlite3

        connection = sqlite3.connect(path)
        connection.execute("CREATE TABLE t (x)")
        connection.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
        connection.commit()
        connection.close()
        path.write_bytes(path.read_bytes()[:6000])
    else:
        path.mkdir()
    before = sorted(os.listdir(tmp_path))
    digest = _digest(path) if path.is_file() else None
    result = _run("play", "--db", str(path))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(os.listdir(tmp_path)) == before  # no -wal, -shm or journal left behind
    if digest is not None:
        assert _digest(path) == digest


def test_a_database_in_a_directory_not_made_yet_is_created_with_it(tmp_path: Path) -> None:
    """README's MAHJONG_DB=/var/lib/mahjong/mahjong.db on a fresh machine: SQLite creates
    the file, not the directories, and the start failed (with a thread's traceback)."""
    path = tmp_path / "var" / "lib" / "mahjong" / "mahjong.db"
    result = _run("db", "migrate", "--db", str(path))
    assert result.returncode == 0, result.stderr
    assert path.is_file() and "Traceback" not in result.stderr


@pytest.mark.parametrize("text", ['{"a": ' + "9" * 5000 + "}", "[" * 100_000 + "]" * 100_000])
def test_score_refuses_huge_integers_and_deep_nesting_in_one_line(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "case.json"
    path.write_text(text)
    result = _run("score", str(path))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr[:300]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["run", "play"])
def test_a_read_only_database_is_refused_at_start(tmp_path: Path, command: str) -> None:
    """Root ignores mode bits, so "read-only" is made real: the database sits on a small
    tmpfs remounted read-only (where mounting is refused, the test is skipped)."""
    import sqlite3

    from faults import small_disk

    with small_disk(tmp_path, size="4m") as disk:
        if not disk.real:
            pytest.skip("mount is not permitted here")
        path = disk.path / "bot.db"
        setup = subprocess.run(
            [sys.executable, "-c", f"import asyncio; from data import Store\n"
             f"async def main():\n    s = await Store.open({str(path)!r})\n    await s.close()\n"
             f"asyncio.run(main())"],
            env={"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "")},
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert setup.returncode == 0, setup.stderr
        os.chmod(path, 0o444)
        remount = subprocess.run(["mount", "-o", "remount,ro", str(disk.path)],
                                 capture_output=True, timeout=20)  # fmt: skip
        if remount.returncode != 0:
            pytest.skip("remount read-only is not permitted here")
        with pytest.raises(sqlite3.OperationalError):  # really read-only, even for root
            connection = sqlite3.connect(path)
            try:
                connection.execute("CREATE TABLE probe (x)")
            finally:
                connection.close()
        before = sorted(os.listdir(disk.path))
        digest = _digest(path)
        # ``run`` gets a (never used) token so that it is the database it refuses.
        result = _run(command, "--db", str(path), token="offline-test-token")
        after = sorted(os.listdir(disk.path))
        digest_after = _digest(path)
        subprocess.run(["mount", "-o", "remount,rw", str(disk.path)], capture_output=True,
                       timeout=20)  # fmt: skip
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "database" in result.stderr  # refused for the database, not for a missing token
    assert after == before and digest_after == digest  # nothing touched


def test_run_takes_sqlite_durability_from_flag_then_environment_then_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``run --sqlite-sync NORMAL`` (or ``MAHJONG_SQLITE_SYNC``) is how an operator runs
    the configuration the session benchmark measures; FULL stays the default."""
    import argparse
    import io

    from bot.commands.run import add_arguments, sqlite_sync

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    monkeypatch.delenv("MAHJONG_SQLITE_SYNC", raising=False)
    assert sqlite_sync(parser.parse_args([])) == "FULL"
    assert sqlite_sync(parser.parse_args(["--sqlite-sync", "normal"])) == "NORMAL"
    monkeypatch.setenv("MAHJONG_SQLITE_SYNC", "normal")
    assert sqlite_sync(parser.parse_args([])) == "NORMAL"
    assert sqlite_sync(parser.parse_args(["--sqlite-sync", "FULL"])) == "FULL"
    monkeypatch.setenv("MAHJONG_SQLITE_SYNC", "OFF")
    err = io.StringIO()
    assert sqlite_sync(parser.parse_args([]), err) is None
    assert "FULL" in err.getvalue() and "'OFF'" in err.getvalue()
    with pytest.raises(SystemExit):
        parser.parse_args(["--sqlite-sync", "off"])


async def test_the_opened_store_commits_moves_on_the_loop_only_when_normal(
    tmp_path: Path,
) -> None:
    from bot.commands.database import open_store_or_explain

    for mode, inline in (("FULL", False), ("NORMAL", True)):
        store = await open_store_or_explain(str(tmp_path / f"{mode}.db"), synchronous=mode)
        assert store is not None
        try:
            assert (store._inline is not None) is inline
        finally:
            await store.close()
