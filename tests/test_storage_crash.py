"""A real child process killed with SIGKILL in the middle of settling leaves each hand all-or-none."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from data import Store, settlement_entries

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")

GUILD = 1
GAME = "crash"

CHILD = """
import asyncio, sys, time
from data import Store, settlement_entries

path, mode, stage, pause_at = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
current = {"hand": -1}

def hook(reached):
    # Runs on the database thread, inside the settlement transaction.
    if mode == "pause" and reached == stage and current["hand"] == pause_at:
        print(f"PAUSED {pause_at}", flush=True)
        time.sleep(120)

def hand_entries(number):
    units = [-1, -1, -1, -1]
    winner = number % 4
    units[winner] = 3
    users = [1 + (number + seat) % 6 for seat in range(4)]
    return settlement_entries(units, users, winner)

async def main():
    store = await Store.open(path)
    store._fault_hook = hook
    number = 0
    while True:
        current["hand"] = number
        await store.settle_hand(1, "crash", number, hand_entries(number), stake=number % 7 + 1)
        print(f"SETTLED {number}", flush=True)
        number += 1

asyncio.run(main())
"""


def expected_entries(number: int) -> tuple[list[int], list[int], int]:
    units = [-1, -1, -1, -1]
    units[number % 4] = 3
    users = [1 + (number + seat) % 6 for seat in range(4)]
    return units, users, number % 7 + 1


def start_child(
    tmp_path: Path, db: Path, mode: str, stage: str, pause_at: int
) -> subprocess.Popen[str]:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.Popen(
        [sys.executable, str(script), str(db), mode, stage, str(pause_at)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def read_until(process: subprocess.Popen[str], wanted: str, timeout: float = 30.0) -> list[str]:
    """Lines from the child up to and including the first starting with ``wanted``.

    Reads the raw pipe: a buffered ``readline`` after ``select`` can leave the wanted line
    in Python's buffer, where ``select`` no longer sees it, and wait for nothing.
    """
    assert process.stdout is not None
    fd = process.stdout.fileno()
    deadline = time.monotonic() + timeout
    lines: list[str] = []
    pending = b""
    while True:
        while b"\n" in pending:
            raw, pending = pending.split(b"\n", 1)
            line = raw.decode().strip()
            lines.append(line)
            if line.startswith(wanted):
                return lines
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            process.kill()
            raise AssertionError(f"child never printed {wanted!r}; got {lines[-3:]}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            raise AssertionError(f"child exited ({process.wait()}) before {wanted!r}")
        pending += chunk


def kill(process: subprocess.Popen[str]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait(timeout=10) == -signal.SIGKILL
    assert process.stdout is not None
    process.stdout.close()


async def check_all_or_none(db: Path) -> int:
    """Every hand has all four rows or none; balances equal ledger sums; returns hands settled."""
    async with await Store.open(db) as store:
        settled = 0
        while await store.is_settled(GAME, settled):
            rows = await store.hand_entries(GAME, settled)
            units, users, stake = expected_entries(settled)
            assert [(r.user_id, r.points) for r in rows] == [
                (user, unit * stake) for user, unit in zip(users, units, strict=True)
            ]
            settled += 1
        for later in range(settled, settled + 3):
            assert await store.hand_entries(GAME, later) == []
        expected = dict.fromkeys(range(1, 7), 1000)
        for number in range(settled):
            units, users, stake = expected_entries(number)
            for user, unit in zip(users, units, strict=True):
                expected[user] += unit * stake
        balances = {user: await store.get_balance(GUILD, user) for user in range(1, 7)}
        assert balances == expected
        assert await store.verify_balances() == []
        board = await store.alltime_leaderboard(GUILD, limit=10)
        assert sum(row.hands for row in board) == 4 * settled
        assert {row.user_id: row.net for row in board} == {
            u: b - 1000 for u, b in expected.items() if settled
        }
        return settled


@pytest.mark.parametrize("stage", ["rows_written", "before_commit"])
async def test_kill_while_paused_inside_a_settlement(tmp_path: Path, stage: str) -> None:
    db = tmp_path / "crash.db"
    process = start_child(tmp_path, db, "pause", stage, pause_at=5)
    try:
        lines = read_until(process, "PAUSED")
        assert lines[-2:] == ["SETTLED 4", "PAUSED 5"]
        # While the child holds the transaction open, nobody else can see hand 5.
        async with await Store.open(db) as observer:
            assert await observer.is_settled(GAME, 4)
            assert not await observer.is_settled(GAME, 5)
    finally:
        kill(process)
    assert await check_all_or_none(db) == 5
    # The interrupted hand can be settled again after the restart, and only once.
    async with await Store.open(db) as store:
        units, users, stake = expected_entries(5)
        entries = settlement_entries(units, users, 1)
        assert await store.settle_hand(GUILD, GAME, 5, entries, stake=stake)
        assert not await store.settle_hand(GUILD, GAME, 5, entries, stake=stake)
    assert await check_all_or_none(db) == 6


async def test_kill_at_an_arbitrary_moment_of_a_settling_loop(tmp_path: Path) -> None:
    db = tmp_path / "loop.db"
    process = start_child(tmp_path, db, "loop", "-", pause_at=-1)
    try:
        read_until(process, "SETTLED 40")
    finally:
        kill(process)
    assert await check_all_or_none(db) >= 41
