"""Fault soak: 200+ hands while the store fails a random 5 % of its writes and the disk
fills up and empties again. Every hand that ended is paid exactly once and every balance
is the sum of its ledger rows."""

from __future__ import annotations

import random
import sqlite3
import sys
import time
from pathlib import Path

from faults import small_disk

from bot.recording import RecordingPresenter
from bot.session import FakeClock, TableManager
from data import Store
from engine.match import Match

GUILD = 7
TABLES = 12
HANDS = 200


async def test_200_hands_with_failing_writes_and_a_filling_disk_pay_every_hand_once(
    tmp_path: Path,
) -> None:
    started = time.perf_counter()
    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)  # as the bot runs (bot.session.tune_runtime)
    rng = random.Random(20261130)
    with small_disk(tmp_path, size="32m") as disk:
        store = await Store.open(disk.path / "soak.db", synchronous="NORMAL")
        clock = FakeClock()
        # A tiny AI pause: every move is a timer on the fake clock, so the faults (switched
        # on once the tables are seated) meet the moves, and one advance plays many.
        manager = TableManager(store, RecordingPresenter(), clock, ai_delay=0.001, ai_level="easy")
        injected = 0

        def hook(stage: str) -> None:
            nonlocal injected
            if stage == "before_commit" and rng.random() < 0.05:
                injected += 1
                raise sqlite3.OperationalError("database or disk is full (injected)")

        tables = []
        for index in range(TABLES):
            user = 500 + index
            table = await manager.create_table(
                GUILD, 100 + index, user, f"P{index}", variant="jiaxing", seed=index, rounds=4
            )
            assert (await table.start(user)).ok
            assert (await table.autoplay(user)).ok  # the humans' seats play on autoplay
            tables.append(table)
        store._fault_hook = hook
        fills = 0
        steps = 0
        while any(t.status == "running" for t in tables) or manager.obligations.pending:
            steps += 1
            assert steps < 3000, "the soak stopped making progress"
            if steps % 40 == 10 and not disk.full:
                disk.fill()
                fills += 1
            elif steps % 40 == 20 and disk.full:
                disk.empty()
            await clock.advance(5)
            if steps % 50 == 0:
                await clock.advance(60)  # let backed-off settlements come due
        store._fault_hook = None
        disk.empty()
        await manager.wait_idle()

        hands = 0
        for table in tables:
            actions = await store.load_actions(table.table_id)
            replayed = Match.replay("jiaxing", table.options, table.seed, actions)
            ended = len(replayed.results)
            hands += ended
            assert await store.settled_hands(table.table_id) == set(range(ended))
            for hand_number in range(ended):
                assert len(await store.hand_entries(table.table_id, hand_number)) == 4
        assert hands >= HANDS
        assert injected > 0
        assert fills > 0 or not disk.real
        assert await store.verify_balances() == []
        await manager.shutdown()
        await store.close()
    sys.setswitchinterval(switch)
    elapsed = time.perf_counter() - started
    print(
        f"soak: {hands} hands settled once each, {injected} injected write failures, "
        f"{fills} disk fills (real disk: {disk.real}), "
        f"{manager.obligations.failures} failed settlement attempts, {elapsed:.1f} s"
    )
