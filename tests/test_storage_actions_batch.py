"""Store.append_actions: many tables' actions in one transaction (group commit), with
append_action's idempotency per row and one bad row never costing the others their write."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from data import ActionConflictError, Store, UnknownGameError, connection

if TYPE_CHECKING:
    from conftest import BackendDB

GUILD = 111


def discard(seat: int, tile: str) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "tile": tile}


@pytest.fixture(params=["FULL", "NORMAL"])
async def store(db: BackendDB, request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """Three games on this test's database (each test runs on SQLite and PostgreSQL; on
    SQLite both with ``synchronous=FULL``, where the batch commits on the writer's thread,
    and with NORMAL, where it commits on the event loop's thread: the same outcomes)."""
    opened = await db.open(synchronous=request.param)
    for game_id in ("A", "B", "C"):
        await opened.create_game(game_id, GUILD, None, "jiaxing", {}, [], 1)
    yield opened


async def test_rows_of_many_games_are_written_and_read_back_in_order(store: Store) -> None:
    rows = [
        ("A", 0, discard(0, "1m"), 0),
        ("B", 0, discard(1, "2p"), 0),
        ("A", 1, discard(1, "3s"), 0),
        ("C", 0, {"type": "pass", "seat": 2}, 0),
        ("B", 1, discard(2, "E"), 1),
    ]
    assert await store.append_actions(rows) == [True] * 5
    assert await store.load_actions("A") == [discard(0, "1m"), discard(1, "3s")]
    assert await store.load_actions("B") == [discard(1, "2p"), discard(2, "E")]
    assert await store.load_actions("B", hand_number=1) == [discard(2, "E")]
    assert await store.load_actions("C") == [{"type": "pass", "seat": 2}]


async def test_one_transaction_for_the_whole_batch(store: Store) -> None:
    """The point of the method: one commit for many rows (the store's fault hook runs
    once per transaction, just before its COMMIT)."""
    commits: list[str] = []
    store._fault_hook = commits.append
    await store.append_actions([("A", seq, discard(seq % 4, "1m"), 0) for seq in range(50)])
    store._fault_hook = None
    assert commits == ["before_commit"]
    assert len(await store.load_actions("A")) == 50


async def test_same_action_again_is_ignored_like_append_action(store: Store) -> None:
    assert await store.append_action("A", 0, discard(0, "1m"), 0) is True
    # Key order does not matter: actions are compared as canonical JSON.
    same = {"tile": "1m", "seat": 0, "type": "discard"}
    assert await store.append_actions([("A", 0, same, 0), ("A", 1, discard(1, "2m"), 0)]) == [
        False,
        True,
    ]
    # A duplicate inside one batch: the first writes, the second is a no-op.
    assert await store.append_actions([("B", 0, discard(0, "9s"), 0)] * 2) == [True, False]
    assert await store.load_actions("A") == [discard(0, "1m"), discard(1, "2m")]
    assert await store.load_actions("B") == [discard(0, "9s")]


async def test_conflict_is_reported_for_its_row_and_the_others_are_committed(
    store: Store, db: BackendDB
) -> None:
    await store.append_action("A", 0, discard(0, "1m"), 0)
    outcomes = await store.append_actions(
        [
            ("B", 0, discard(0, "5p"), 0),
            ("A", 0, discard(0, "2m"), 0),  # a different action at a taken seq
            ("missing", 0, discard(0, "1m"), 0),  # no such game
            ("C", 0, discard(3, "N"), 0),
            ("C", 1, discard(0, "W"), -1),  # malformed hand number
            ("B", 0, discard(0, "6p"), 0),  # conflicts with a row earlier in this batch
        ]
    )
    assert outcomes[0] is True
    assert isinstance(outcomes[1], ActionConflictError)
    assert isinstance(outcomes[2], UnknownGameError)
    assert outcomes[3] is True
    assert isinstance(outcomes[4], ValueError)
    assert isinstance(outcomes[5], ActionConflictError)
    # The stored game is the one played; the good rows are durable: a fresh connection
    # (another process, say) sees them.
    assert await store.load_actions("A") == [discard(0, "1m")]
    stored = await db.fetch_raw("SELECT game_id, seq FROM game_actions ORDER BY game_id, seq")
    assert stored == [("A", 0), ("B", 0), ("C", 0)]


async def test_a_failed_transaction_writes_nothing(store: Store) -> None:
    def fail(stage: str) -> None:
        if stage == "before_commit":
            raise OSError("disk on fire")

    store._fault_hook = fail
    with pytest.raises(OSError):
        await store.append_actions([("A", 0, discard(0, "1m"), 0), ("B", 0, discard(0, "1m"), 0)])
    store._fault_hook = None
    assert await store.load_actions("A") == []
    assert await store.load_actions("B") == []


async def test_empty_and_all_malformed_batches_touch_nothing(store: Store) -> None:
    assert await store.append_actions([]) == []
    outcomes = await store.append_actions([("A", "0", discard(0, "1m"), 0)])  # type: ignore[list-item]
    assert len(outcomes) == 1 and isinstance(outcomes[0], TypeError)
    assert await store.load_actions("A") == []


async def test_concurrent_batches_and_single_appends_interleave_safely(store: Store) -> None:
    singles = [store.append_action("A", seq, discard(0, "1m"), 0) for seq in range(0, 40, 2)]
    batches = [
        store.append_actions([("A", seq, discard(1, "2m"), 0), ("B", seq, discard(1, "2m"), 0)])
        for seq in range(1, 40, 2)
    ]
    results = await asyncio.gather(*singles, *batches)
    assert all(result is True for result in results[:20])
    assert all(result == [True, True] for result in results[20:])
    seqs = [record.seq for record in await store.load_action_records("A")]
    assert seqs == list(range(40))


async def test_text_survives_the_batch_exactly(store: Store) -> None:
    """Rows travel to SQLite as one JSON array; what lands must be byte-for-byte what
    append_action would have stored, or a later retry would look like a conflict."""
    odd = {"type": "discard", "seat": 0, "tile": "1m", "note": '中"\\\n\u2028', "n": 1.5}
    assert await store.append_actions([("A", 0, odd, 3)]) == [True]
    assert await store.append_action("A", 0, dict(odd), 3) is False
    records = await store.load_action_records("A")
    assert [(r.seq, r.hand_number, r.action) for r in records] == [(0, 3, odd)]


async def test_rows_of_one_key_are_judged_against_what_ends_up_stored(store: Store) -> None:
    """A refused row must not change the verdict on a later row of the same seq."""
    await store.append_action("A", 0, discard(0, "1m"), 0)
    outcomes = await store.append_actions(
        [("A", 0, discard(0, "9m"), 0), ("A", 0, discard(0, "1m"), 0)]
    )
    assert isinstance(outcomes[0], ActionConflictError) and outcomes[1] is False
    outcomes = await store.append_actions(
        [("missing", 0, discard(0, "1m"), 0), ("missing", 0, discard(0, "1m"), 0)]
    )
    assert all(isinstance(outcome, UnknownGameError) for outcome in outcomes)


async def test_on_postgresql_a_batch_is_one_statement_not_a_transaction(
    store: Store, db: BackendDB
) -> None:
    """One round trip per group commit (no BEGIN, check, insert, COMMIT): the journal's
    batch latency is what every action of a busy process waits for (issue 15)."""
    if db.kind != "postgres":
        assert not hasattr(store, "_write_statement")  # SQLite: one transaction, one thread trip
        return

    async def no_transactions(body: object) -> object:
        raise AssertionError("append_actions opened a transaction")

    store._write = no_transactions  # type: ignore[method-assign, assignment]
    rows = [("A", 0, discard(0, "1m"), 0), ("B", 0, discard(1, "2p"), 0)]
    assert await store.append_actions(rows) == [True, True]
    again = [
        *rows,
        ("A", 0, discard(3, "9s"), 0),
        ("C", 0, discard(0, "1m"), 0),
        ("Z", 0, discard(0, "1m"), 0),
    ]
    outcomes = await store.append_actions(again)
    assert outcomes[:2] == [False, False] and outcomes[3] is True
    assert isinstance(outcomes[2], ActionConflictError)
    assert isinstance(outcomes[4], UnknownGameError)


# ----------------------------------------------------------- SQLite: where a batch commits


async def _sqlite_store(tmp_path: Path, synchronous: str) -> Store:
    opened = await Store.open(tmp_path / "inline.db", synchronous=synchronous)
    for game_id in ("A", "B"):
        await opened.create_game(game_id, GUILD, None, "jiaxing", {}, [], 1)
    return opened


@pytest.mark.parametrize(("synchronous", "on_loop"), [("NORMAL", True), ("FULL", False)])
async def test_a_batch_commits_on_the_loop_thread_only_without_an_fsync_per_commit(
    tmp_path: Path, synchronous: str, on_loop: bool
) -> None:
    """NORMAL never waits for the disk at COMMIT, so the batch commits right on the
    event loop's thread (no round trip to SQLite's thread); FULL fsyncs every commit,
    which must not block the loop, so it stays on the writer's thread."""
    store = await _sqlite_store(tmp_path, synchronous)
    threads: list[int] = []
    store._fault_hook = lambda _stage: threads.append(threading.get_ident())
    try:
        assert await store.append_actions([("A", 0, discard(0, "1m"), 0)]) == [True]
    finally:
        store._fault_hook = None
        await store.close()
    assert (threads == [threading.get_ident()]) is on_loop
    assert len(threads) == 1


async def test_a_batch_waits_off_the_loop_while_another_process_holds_the_lock(
    tmp_path: Path,
) -> None:
    """Another program writing the file (a ``db`` command, say) holds SQLite's write lock:
    the inline commit does not spin on the loop, it hands the batch to the writer's
    thread, which waits (busy timeout) and commits once the lock is free."""
    store = await _sqlite_store(tmp_path, "NORMAL")
    other = sqlite3.connect(tmp_path / "inline.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        pending = asyncio.ensure_future(store.append_actions([("A", 0, discard(0, "1m"), 0)]))
        await asyncio.sleep(0.2)
        assert not pending.done()  # waiting for the lock, and the loop still runs
        other.execute("COMMIT")
        assert await asyncio.wait_for(pending, 10) == [True]
        assert await store.load_actions("A") == [discard(0, "1m")]
    finally:
        other.close()
        await store.close()


async def test_inline_commits_are_checkpointed_so_the_wal_stays_small(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inline connection never checkpoints by itself (a checkpoint syncs the disk);
    the store runs passive checkpoints on the writer's thread instead, one in
    ``_INLINE_RESTART_EVERY`` holding the write lock so that the WAL starts over: it is
    reused rather than growing with every move ever played."""
    monkeypatch.setattr(connection, "_INLINE_CHECKPOINT_EVERY", 32)
    monkeypatch.setattr(connection, "_INLINE_RESTART_EVERY", 4)
    store = await _sqlite_store(tmp_path, "NORMAL")
    wal = tmp_path / "inline.db-wal"
    big = {"type": "discard", "seat": 0, "tile": "1m", "note": "x" * 3000}  # ~a page a row
    cycle = 32 * 4  # commits from one restart to the next
    sizes = []
    try:
        for seq in range(8 * cycle):
            await store.append_actions([("A", seq, big, 0)])
            await asyncio.sleep(0.001)  # the loop runs other work between commits
            if seq % cycle == cycle - 1:
                sizes.append(wal.stat().st_size)
        assert len(await store.load_actions("A")) == 8 * cycle
    finally:
        await store.close()
    # Without restarts the WAL would hold every row: eight times the first size at the end.
    assert max(sizes) <= sizes[1] * 1.25, sizes


async def test_actions_given_as_their_canonical_text_are_judged_like_dicts(
    store: Store,
) -> None:
    """The journal hands over an action's canonical text (``connection.canonical_json``)
    instead of the dict: stored the same, and a row stored already, a missing game or a
    repeated key is told per row as for dicts (the plain insert of a fresh batch is
    refused as a whole, and the careful path answers)."""
    text = connection.canonical_json
    assert await store.append_actions(
        [("A", 0, text(discard(0, "1m")), 0), ("B", 0, discard(1, "2m"), 0)]
    ) == [True, True]
    outcomes = await store.append_actions(
        [
            ("C", 0, text(discard(2, "3m")), 0),
            ("A", 0, text(discard(0, "1m")), 0),  # stored already: a retry
            ("missing", 0, text(discard(0, "1m")), 0),
            ("B", 1, text(discard(1, "4m")), 0),
        ]
    )
    assert outcomes[0] is True and outcomes[1] is False and outcomes[3] is True
    assert isinstance(outcomes[2], UnknownGameError)
    repeated = await store.append_actions(
        [("C", 1, text(discard(2, "5m")), 0), ("C", 1, text(discard(2, "6m")), 0)]
    )
    assert repeated[0] is True and isinstance(repeated[1], ActionConflictError)
    assert await store.load_actions("A") == [discard(0, "1m")]
    assert await store.load_actions("B") == [discard(1, "2m"), discard(1, "4m")]
    assert await store.load_actions("C") == [discard(2, "3m"), discard(2, "5m")]
