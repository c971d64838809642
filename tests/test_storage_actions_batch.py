"""Store.append_actions: many tables' actions in one transaction (group commit), with
append_action's idempotency per row and one bad row never costing the others their write."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import pytest

from data import ActionConflictError, Store, UnknownGameError

if TYPE_CHECKING:
    from conftest import BackendDB

GUILD = 111


def discard(seat: int, tile: str) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "tile": tile}


@pytest.fixture
async def store(db: BackendDB) -> AsyncIterator[Store]:
    """Three games on this test's database (each test runs on SQLite and PostgreSQL)."""
    opened = await db.open()
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
