"""The action journal's group commit and the AI pacing that keeps many tables spread out."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.recording import RecordingPresenter
from bot.session import ActionJournal, FakeClock, TableManager, TableSession
from data import ActionConflictError, Store

GUILD = 7
HOST = 101

Row = tuple[str, int, dict[str, Any], int]


def discard(seat: int, tile: str) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "tile": tile}


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "journal.db", synchronous="NORMAL")
    for game_id in ("A", "B", "C"):
        await opened.create_game(game_id, GUILD, None, "jiaxing", {}, [], 1)
    yield opened
    await opened.close()


class GatedStore:
    """A store double whose batch writes finish only when the test opens the gate."""

    def __init__(self) -> None:
        self.batches: list[list[Row]] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self.gate = asyncio.Event()

    async def append_actions(self, rows: list[Row]) -> list[bool | Exception]:
        self.batches.append(list(rows))
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await self.gate.wait()
        self.gate.clear()
        self.in_flight -= 1
        return [True] * len(rows)


async def _spin() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_one_write_in_flight_and_what_arrives_meanwhile_goes_in_the_next() -> None:
    gated = GatedStore()
    journal = ActionJournal(gated)  # type: ignore[arg-type]
    first = asyncio.ensure_future(journal.append("A", 0, discard(0, "1m"), 0))
    await _spin()
    assert gated.batches == [[("A", 0, discard(0, "1m"), 0)]]
    later = [
        asyncio.ensure_future(journal.append(game_id, 0, discard(1, "2m"), 0))
        for game_id in ("B", "C")
    ]
    await _spin()
    assert len(gated.batches) == 1  # still waiting for the first commit
    gated.gate.set()
    await _spin()
    assert first.done() and first.result() is True
    assert not any(future.done() for future in later)  # not committed yet: not resumed
    assert [row[0] for row in gated.batches[1]] == ["B", "C"]
    gated.gate.set()
    await _spin()
    assert [future.result() for future in later] == [True, True]
    assert gated.most_in_flight == 1
    assert (journal.batches, journal.rows) == (2, 3)


async def test_group_commits_start_at_least_the_commit_interval_apart() -> None:
    """The bot spaces its commits (``BOT_COMMIT_INTERVAL``) so that a batch fills up: what
    arrives within the interval after a commit started waits for the next one, and a
    lone first append is not delayed at all."""
    gated = GatedStore()
    gated.gate.set()
    interval = 0.05
    journal = ActionJournal(gated, commit_interval=interval)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    starts: list[float] = []
    real_append = gated.append_actions

    async def timed(rows: list[Row]) -> list[bool | Exception]:
        starts.append(loop.time())
        gated.gate.set()
        return await real_append(rows)

    gated.append_actions = timed  # type: ignore[method-assign]
    began = loop.time()
    assert await journal.append("A", 0, discard(0, "1m"), 0) is True
    assert starts[0] - began < interval / 2  # nothing to wait for
    followers = [
        asyncio.ensure_future(journal.append(game_id, 1, discard(1, "2m"), 0))
        for game_id in ("A", "B", "C")
    ]
    assert await asyncio.gather(*followers) == [True] * 3
    assert len(starts) == 2  # the three went in one commit, an interval after the first
    assert starts[1] - starts[0] >= interval * 0.99
    with pytest.raises(ValueError):
        ActionJournal(gated, commit_interval=-1)  # type: ignore[arg-type]


async def test_appends_waiting_out_the_interval_are_cancelled_not_stranded() -> None:
    """The loop going away while a batch waits for its commit slot: every caller hears
    it (cancelled) instead of waiting forever."""
    gated = GatedStore()
    gated.gate.set()
    journal = ActionJournal(gated, commit_interval=10.0)  # type: ignore[arg-type]
    assert await journal.append("A", 0, discard(0, "1m"), 0) is True
    waiting = asyncio.ensure_future(journal.append("B", 0, discard(0, "1m"), 0))
    await _spin()
    assert journal._flusher is not None
    journal._flusher.cancel()
    await _spin()
    assert waiting.cancelled()


async def test_a_conflicting_row_fails_only_its_own_table(store: Store) -> None:
    await store.append_action("A", 0, discard(0, "1m"), 0)
    journal = ActionJournal(store)
    outcomes = await asyncio.gather(
        journal.append("A", 0, discard(0, "9m"), 0),
        journal.append("B", 0, discard(0, "1m"), 0),
        journal.append("A", 0, discard(0, "1m"), 0),  # a retry of what is stored
        return_exceptions=True,
    )
    assert isinstance(outcomes[0], ActionConflictError)
    assert outcomes[1:] == [True, False]
    assert journal.batches == 1
    assert await store.load_actions("B") == [discard(0, "1m")]


async def test_a_failed_transaction_fails_every_caller_of_it(store: Store) -> None:
    journal = ActionJournal(store)

    def fail(stage: str) -> None:
        raise OSError("disk unavailable")

    store._fault_hook = fail
    outcomes = await asyncio.gather(
        journal.append("A", 0, discard(0, "1m"), 0),
        journal.append("B", 0, discard(0, "1m"), 0),
        return_exceptions=True,
    )
    store._fault_hook = None
    assert all(isinstance(outcome, OSError) for outcome in outcomes)
    assert await store.load_actions("A") == [] and await store.load_actions("B") == []
    assert await journal.append("A", 0, discard(0, "1m"), 0) is True  # and it recovers


# ---------------------------------------------------------------------------- AI pacing


async def _all_ai_table(
    store: Store, *, jitter: float = 0.0, seed: int = 5
) -> tuple[TableManager, FakeClock, TableSession]:
    clock = FakeClock()
    manager = TableManager(
        store, RecordingPresenter(), clock, ai_delay=1.0, ai_level="easy", ai_delay_jitter=jitter
    )
    table = await manager.create_table(
        GUILD, seed, HOST, "Host", variant="jiaxing", seed=seed, seat_host=False
    )
    assert (await table.start(HOST)).ok
    await manager.wait_idle()
    return manager, clock, table


async def test_ai_pause_counts_from_when_the_previous_action_was_due(store: Store) -> None:
    """A slow commit must not push the table's next move later: otherwise every table
    released by one group commit becomes due at the same instant a pause later."""
    manager, clock, table = await _all_ai_table(store)
    assert table.match is not None
    first_due = min(due.at for due in table._due.values())
    real = store.append_actions

    async def slow(rows: list[Row]) -> list[bool | Exception]:
        clock._now += 0.3  # the commit took 300 ms
        return await real(rows)

    store.append_actions = slow  # type: ignore[method-assign,assignment]
    await clock.advance(first_due - clock.now())
    assert table.match.turn_id >= 1
    assert clock.now() == pytest.approx(first_due + 0.3)
    next_due = min(due.at for due in table._due.values())
    assert next_due == pytest.approx(first_due + 1.0)  # not first_due + 1.3
    await manager.shutdown()


async def test_ai_pause_jitter_is_bounded_and_seeded(store: Store) -> None:
    async def pauses(seed: int) -> list[float]:
        manager, clock, table = await _all_ai_table(store, jitter=0.25, seed=seed)
        seen = []
        for _ in range(12):
            assert table.match is not None and table.status == "running"
            due = min(due.at for due in table._due.values())
            seen.append(due - clock.now())
            await clock.advance(due - clock.now())
        await table.end(HOST)  # frees the channel for the next run on this database
        await manager.shutdown()
        return seen

    first = await pauses(5)
    assert all(0.75 - 1e-9 <= pause <= 1.25 + 1e-9 for pause in first)
    assert len({round(pause, 6) for pause in first}) > 3
    # The same seed draws the same pauses (a test's table behaves the same every run).
    assert await pauses(5) == pytest.approx(first)
    assert await pauses(6) != pytest.approx(first)
    with pytest.raises(ValueError):
        TableManager(store, RecordingPresenter(), FakeClock(), ai_delay_jitter=1.5)


async def test_a_timer_tick_does_not_walk_the_seats_again(store: Store) -> None:
    """Each AI move refreshes the dues once (when it is applied); the tick that plays the
    next move starts from those instead of walking every seat again, and the table plays
    on exactly as before."""
    manager, clock, table = await _all_ai_table(store)
    refreshes = 0
    real = table._refresh_dues

    def counted() -> None:
        nonlocal refreshes
        refreshes += 1
        real()

    table._refresh_dues = counted  # type: ignore[method-assign]
    assert table.match is not None
    start = table.match.turn_id
    for _ in range(20):
        due = min(due.at for due in table._due.values())
        await clock.advance(due - clock.now())
        await manager.wait_idle()
    moves = table.match.turn_id - start
    assert moves >= 20
    assert refreshes <= moves + 2  # about one per move (a hand's end may add one)
    assert len(await store.load_actions(table.table_id)) == table.match.turn_id
    await manager.shutdown()


class GridClock(FakeClock):
    """A FakeClock that, like ``SystemClock``, can call back at a time (a loop timer),
    and remembers every time asked for."""

    def __init__(self) -> None:
        super().__init__(start=1_800_000_000.0012)  # off the grid
        self.asked: list[float] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def call_at(self, when: float, callback: Any) -> asyncio.TimerHandle:
        self.asked.append(when)

        async def later() -> None:
            await self.sleep_until(when)
            callback()

        task = asyncio.get_running_loop().create_task(later())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return asyncio.get_running_loop().call_later(3600, lambda: None)  # a handle only


async def test_timers_wake_on_the_grid_and_never_before_a_move_is_due(store: Store) -> None:
    """Tables' timers wake on a grid (``WAKE_GRAIN``), so moves due within one slot share
    a pass of the loop; a move still never runs before it is due, and the game's pace
    is counted from the due time, not from the later wake."""
    from bot.scheduling import WAKE_GRAIN

    clock = GridClock()
    manager = TableManager(store, RecordingPresenter(), clock, ai_delay=1.0, ai_level="easy")
    moves: list[tuple[float, float]] = []
    manager.action_observer = lambda _table, due, done: moves.append((due, done))
    table = await manager.create_table(
        GUILD, 9, HOST, "Host", variant="jiaxing", seed=9, seat_host=False
    )
    assert (await table.start(HOST)).ok
    await manager.wait_idle()
    await clock.advance(12)
    assert len(moves) >= 8
    assert all(done >= due for due, done in moves)
    assert all(done - due < WAKE_GRAIN + 1e-6 for due, done in moves)
    assert all(abs(when / WAKE_GRAIN - round(when / WAKE_GRAIN)) < 1e-6 for when in clock.asked)
    dues = [due for due, _ in moves]
    assert all(b - a == pytest.approx(1.0) for a, b in itertools.pairwise(dues))
    await manager.shutdown()


async def test_a_fired_table_timer_is_freed_without_the_garbage_collector() -> None:
    """A table re-arms its timer after every move; a fired timer must be freed by its
    reference count. Left in a reference cycle (handle -> callback -> timer -> handle), a
    thousand tables' timers filled the collector's middle generation, whose pauses set
    the action p99."""
    import gc

    from bot.scheduling import WakeGrid, _Wake

    class Table:
        ticks = 0

        def _tick_now(self) -> None:
            Table.ticks += 1

    loop = asyncio.get_running_loop()
    grid = WakeGrid(lambda when, callback: loop.call_soon(callback))
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for step in range(20):
            wake = _Wake(Table())  # type: ignore[arg-type]
            grid.add(step * 0.005, wake)
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            assert wake.done()
        del wake
        gc.collect()
        cyclic = [item for item in gc.garbage if isinstance(item, (_Wake, WakeGrid))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert Table.ticks == 20
    assert cyclic == []
    assert grid.slots == 0


async def test_tables_due_in_one_grid_slot_share_one_loop_timer() -> None:
    """A thousand tables re-arm a thousand times a second: one loop timer per grid slot,
    not per table. A cancelled or superseded entry is skipped, and a table armed twice
    in one slot (re-armed elsewhere and back) still ticks once."""
    from bot.scheduling import WAKE_GRAIN, WakeGrid, _Wake

    armed: list[tuple[float, Any]] = []
    grid = WakeGrid(lambda when, callback: armed.append((when, callback)))

    class Table:
        def __init__(self) -> None:
            self.ticks = 0

        def _tick_now(self) -> None:
            self.ticks += 1

    tables = [Table() for _ in range(6)]
    wakes = [_Wake(table) for table in tables]  # type: ignore[arg-type]
    base = 1_800_000_000.0
    for index, wake in enumerate(wakes):
        grid.add(base + 0.0001 + index * 0.0005, wake)  # all within the slot after ``base``
    assert len(armed) == 1
    when, fire = armed[0]
    assert when == pytest.approx(base + WAKE_GRAIN) and when >= base + 0.0026
    wakes[1].cancel()
    again = wakes[2]
    grid.add(base + 1.0, again)  # a second slot, then back into the first
    grid.add(base + 0.001, again)
    assert len(armed) == 2 and grid.slots == 2
    fire()
    assert [table.ticks for table in tables] == [1, 0, 1, 1, 1, 1]
    armed[1][1]()  # the later slot finds its only entry fired already
    assert tables[2].ticks == 1
    assert grid.slots == 0


async def test_a_journalled_action_is_stored_as_the_text_its_json_encodes_to(
    store: Store,
) -> None:
    """The journal hands the store an action's remembered canonical text; what is stored
    and read back is exactly what the JSON dict gives, and a retry of it with the dict
    compares equal (a text that differed would read as a conflict)."""
    from bot.journal import _ACTION_TEXTS, action_text
    from data.connection import canonical_json
    from engine.tiles import parse_tile
    from engine.types import Action

    chow = Action("chow", 2, tiles=(parse_tile("3p"), parse_tile("4p"), parse_tile("5p")))
    moves = [Action("discard", 1, tile=parse_tile("7z")), chow, Action("pass", 3)]
    for move in moves:
        assert action_text(move) == canonical_json(move.to_json())
        assert action_text(move) is action_text(Action(**move.__dict__))  # remembered
    journal = ActionJournal(store)
    assert await asyncio.gather(
        *(journal.append_action("C", seq, move, 0) for seq, move in enumerate(moves))
    ) == [True, True, True]
    assert await store.load_actions("C") == [move.to_json() for move in moves]
    assert await journal.append("C", 1, chow.to_json(), 0) is False  # the same row again
    with pytest.raises(ActionConflictError):
        await journal.append("C", 1, Action("pass", 2).to_json(), 0)
    _ACTION_TEXTS.clear()  # bounded: a cleared memo encodes again, equally
    assert action_text(chow) == canonical_json(chow.to_json())


async def test_the_work_queue_hands_items_over_in_order_and_joins_when_done() -> None:
    """``WorkQueue``: what ``asyncio.Queue`` gave the worker (order, a waiting consumer
    woken by a put, ``join`` until every item is marked done)."""
    from bot.scheduling import _TICK, WorkQueue

    queue = WorkQueue()
    assert queue.empty()
    waiting = queue.arrival()
    await _spin()
    assert not waiting.done()
    queue.put_nowait(_TICK)
    assert waiting.done()
    assert queue.get_nowait() is _TICK
    joined = asyncio.ensure_future(queue.join())
    await _spin()
    assert not joined.done()  # the item is taken but not done
    queue.task_done()
    await _spin()
    assert joined.done()
    with pytest.raises(ValueError):
        queue.task_done()
    first, second = object(), object()
    queue.put_nowait(first)  # type: ignore[arg-type]
    queue.put_nowait(second)  # type: ignore[arg-type]
    assert queue.get_nowait() is first
    assert queue.get_nowait() is second
    assert queue.empty()
    with pytest.raises(asyncio.QueueEmpty):
        queue.get_nowait()
    queue.task_done()
    queue.task_done()
    await asyncio.wait_for(queue.join(), 1)  # nothing unfinished: returns at once


async def test_the_work_queue_tells_its_one_consumer_when_an_item_arrives() -> None:
    from bot.scheduling import _TICK, WorkQueue

    queue = WorkQueue()
    arrived = queue.arrival()
    with pytest.raises(RuntimeError):
        queue.arrival()  # one consumer: a second waiter is a bug
    assert not arrived.done()
    queue.put_nowait(_TICK)
    assert arrived.done()
    assert queue.get_nowait() is _TICK
    cancelled = queue.arrival()
    cancelled.cancel()
    queue.put_nowait(_TICK)  # a cancelled waiter is skipped, the item kept
    assert queue.arrival() is not cancelled
    assert queue.get_nowait() is _TICK and queue.empty()
