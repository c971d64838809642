"""A real child process plays a table on the SQLite store and is killed with SIGKILL; the
parent restores from the same database and must rebuild the identical state and settle
the interrupted hand exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bot.recording import RecordingPresenter
from bot.session import FakeClock, TableManager, TableSession
from data import Store

ROOT = Path(__file__).resolve().parent.parent
GUILD, CHANNEL, ALICE = 9, 90, 501
SEED = 4

CHILD = textwrap.dedent(
    """
    import asyncio, json, os, sys
    from bot.recording import RecordingPresenter
    from bot.session import FakeClock, TableManager
    from data import Store

    DB, MODE, SEED = sys.argv[1], sys.argv[2], int(sys.argv[3])
    GUILD, CHANNEL, ALICE = 9, 90, 501

    def ready(table, **extra):
        match = table.match
        line = {"table_id": table.table_id, "turn_id": match.turn_id,
                "hand_number": match.hand_number, "snapshot": match.round.snapshot(), **extra}
        print("READY " + json.dumps(line), flush=True)

    async def main():
        store = await Store.open(DB)
        manager = TableManager(store, RecordingPresenter(), FakeClock(), ai_level="easy")
        table = await manager.create_table(GUILD, CHANNEL, ALICE, "Alice", variant="jiaxing",
                                           seed=SEED)
        await table.start(ALICE)
        await manager.wait_idle()
        if MODE == "before_settle":
            real_settle = store.settle_hand
            async def stall(*args, **kwargs):
                # The hand-ending action is in the log; the ledger has not been touched.
                ready(table, settling=args[2])
                await asyncio.sleep(3600)
                return await real_settle(*args, **kwargs)
            store.settle_hand = stall
        while table.status == "running":
            prompt = table.prompt_for(ALICE)
            if MODE == "claim" and prompt.kind == "claim" and table.match.hand_number >= 1:
                ready(table)
                await asyncio.sleep(3600)
            await table.submit(ALICE, table.default_action(ALICE), prompt.turn_id)
            await manager.wait_idle()
        print("NOT REACHED", flush=True)

    asyncio.run(main())
    """
)


def _run_child_until_ready(tmp_path: Path, mode: str) -> tuple[Path, dict[str, Any]]:
    db = tmp_path / "crash.db"
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, str(script), str(db), mode, str(SEED)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith("READY "), (line, child.stderr.read() if child.stderr else "")
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    return db, json.loads(line[len("READY ") :])


def _plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


async def _restore(db: Path) -> tuple[Store, TableManager, RecordingPresenter, TableSession]:
    store = await Store.open(db)
    presenter = RecordingPresenter()
    manager = TableManager(store, presenter, FakeClock(), ai_level="easy")
    (table,) = await manager.restore_all()
    await manager.wait_idle()
    return store, manager, presenter, table


async def _alice_balance_matches_ledger(store: Store, table: TableSession, hands: int) -> None:
    seat = table.seat_of(ALICE)
    total = 0
    for hand_number in range(hands):
        rows = await store.hand_entries(table.table_id, hand_number)
        assert len(rows) == 4, f"hand {hand_number} settled {len(rows)} rows"
        total += next(row.points for row in rows if row.seat == seat)
    assert await store.get_balance(GUILD, ALICE) == 1000 + total


@pytest.mark.parametrize("mode", ["claim", "before_settle"])
async def test_sigkill_then_restore(tmp_path: Path, mode: str) -> None:
    db, seen = _run_child_until_ready(tmp_path, mode)

    store, manager, presenter, table = await _restore(db)
    assert table.table_id == seen["table_id"]
    match = table.match
    assert match is not None
    if mode == "claim":
        # The identical position, claim window still open for Alice, nothing settled twice.
        assert match.turn_id == seen["turn_id"]
        assert _plain(match.round.snapshot()) == seen["snapshot"]
        prompt = table.prompt_for(ALICE)
        assert prompt is not None and prompt.kind == "claim"
        assert presenter.prompts(ALICE)[-1].kind == "claim"
        interrupted = seen["hand_number"]
        assert not await store.is_settled(table.table_id, interrupted)
        while table.status == "running" and match.hand_number == interrupted:
            prompt = table.prompt_for(ALICE)
            assert prompt is not None
            result = await table.submit(ALICE, table.default_action(ALICE), prompt.turn_id)  # type: ignore[arg-type]
            assert result.ok
            await manager.wait_idle()
    else:
        # The hand-ending action was durable; the restart settles that hand.
        interrupted = seen["settling"]
        # (``ready`` ran after the action was applied; the AI seats may have moved on since.)
        assert match.turn_id >= seen["turn_id"]
        assert match.hand_number == interrupted + 1
    assert await store.is_settled(table.table_id, interrupted)
    await _alice_balance_matches_ledger(store, table, interrupted + 1)
    results = presenter.of("hand_result")
    if mode == "claim":
        assert len(results) == 1
    await manager.shutdown()
    await store.close()

    # A second restart re-settles nothing.
    store, manager, presenter, again = await _restore(db)
    assert again.match is not None and again.match.turn_id == match.turn_id
    await _alice_balance_matches_ledger(store, again, interrupted + 1)
    await manager.shutdown()
    await store.close()
