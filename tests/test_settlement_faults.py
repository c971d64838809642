"""A hand that ended is paid exactly once, whatever the store does meanwhile.

Each test first makes the failure happen for real where it can (an 8 MB tmpfs filled up
at the moment the settlement writes, another connection holding the write lock), then
checks what players would: the hand is paid once the store recovers, the table neither
plays on unpaid nor stays "running" with its players locked, and no timer spins.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from faults import SmallDisk, disk_full_error, small_disk, write_lock

from bot.recording import RecordingPresenter
from bot.session import FakeClock, TableManager, TableSession
from data import Store

GUILD = 7
CHANNEL = 70
ALICE = 101
START = 1000


class Table:
    def __init__(self, store: Store, ai_delay: float = 1.0) -> None:
        self.store = store
        self.clock = FakeClock()
        self.presenter = RecordingPresenter()
        self.manager = TableManager(
            store, self.presenter, self.clock, ai_delay=ai_delay, ai_level="easy"
        )

    async def start(
        self, *, autoplay: bool = True, seed: int = 11, rounds: int = 1
    ) -> TableSession:
        table = await self.manager.create_table(
            GUILD, CHANNEL, ALICE, "Alice", variant="jiaxing", seed=seed, rounds=rounds
        )
        assert (await table.start(ALICE)).ok
        if autoplay:
            assert (await table.autoplay(ALICE)).ok
        await self.manager.wait_idle()
        return table

    async def run_until(self, done: Callable[[], bool], limit: float = 20_000) -> None:
        spent = 0.0
        while not done():
            await self.clock.advance(1)
            spent += 1
            assert spent < limit, "the table stopped making progress"


def fail_settlement_when(store: Store, disk: SmallDisk, condition: Callable[[], bool]) -> list[str]:
    """Make settlements fail while ``condition()`` holds: fill the real disk in the middle
    of the settlement transaction (so its COMMIT cannot write), or raise SQLite's own
    full-disk error where no small disk could be mounted. Returns a log of failures."""
    failures: list[str] = []

    def hook(stage: str) -> None:
        if stage != "rows_written" or not condition():
            return
        failures.append(stage)
        if disk.real:
            disk.fill()
        else:
            raise disk_full_error()

    store._fault_hook = hook
    return failures


async def paid_exactly_once(store: Store, table_id: str, hands: int, seats: int = 4) -> None:
    for hand_number in range(hands):
        rows = await store.hand_entries(table_id, hand_number)
        assert len(rows) == seats, f"hand {hand_number} has {len(rows)} ledger rows"
    assert await store.settled_hands(table_id) == set(range(hands))
    assert await store.verify_balances() == []


async def test_a_settlement_that_hits_a_full_disk_is_paid_once_the_disk_has_room(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path) as disk:
        store = await Store.open(disk.path / "bot.db")
        env = Table(store)
        table = await env.start()
        match = table.match
        assert match is not None
        failures = fail_settlement_when(store, disk, lambda: not failures)
        await env.run_until(lambda: len(match.results) >= 1)
        assert failures, "the settlement never ran into the full disk"
        assert not await store.is_settled(table.table_id, 0)
        # The hand is owed, not lost: the table waits (nobody plays on unpaid) ...
        turn = match.turn_id
        await env.clock.advance(30)
        assert match.turn_id == turn and table.status == "running"
        # ... and once the disk has room again, the retry pays it, once.
        disk.empty()
        waited = 0
        while not await store.is_settled(table.table_id, 0):  # the backoff caps at 60 s
            await env.clock.advance(1)
            waited += 1
            assert waited <= 70, "the owed hand was not retried once the disk had room"
        await paid_exactly_once(store, table.table_id, 1)
        assert len(env.presenter.of("hand_result")) == 1
        await env.run_until(lambda: match.turn_id > turn + 5)  # play went on
        await env.manager.shutdown()
        await store.close()


async def test_the_last_hand_failing_to_settle_frees_the_table_and_never_spins(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path) as disk:
        store = await Store.open(disk.path / "bot.db")
        env = Table(store)
        table = await env.start()
        match = table.match
        assert match is not None
        healed = False
        failures = fail_settlement_when(store, disk, lambda: match.finished and not healed)
        await env.run_until(lambda: match.finished)
        assert failures
        hands = len(match.results)
        # The match is over even though its last hand is not paid yet: the players are
        # free to sit elsewhere at once.
        assert table.status == "finished"
        assert env.manager.table_of_user(ALICE) is None
        assert not await store.is_settled(table.table_id, hands - 1)
        # No stale deadline: the table's timer does not wake at all while it waits.
        ticks = 0
        real_tick = table._on_tick

        async def counted() -> None:
            nonlocal ticks
            ticks += 1
            await real_tick()

        table._on_tick = counted  # type: ignore[method-assign]
        await asyncio.sleep(0.5)
        await env.clock.advance(5)
        assert ticks == 0
        # The settlement is retried with backoff (not in a loop) until the disk has room.
        await env.clock.advance(300)
        assert env.manager.obligations.wakeups < 20
        healed = True
        disk.empty()
        await env.clock.advance(61)
        await paid_exactly_once(store, table.table_id, hands)
        game = await store.get_game(table.table_id)
        assert game is not None and game.status == "finished"
        assert await store.seated_game(ALICE) is None
        assert len(env.presenter.of("match_result")) == 1
        await env.manager.shutdown()
        await store.close()


async def test_ending_the_table_does_not_drop_a_hand_still_being_settled(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    env = Table(store)
    table = await env.start()
    match = table.match
    assert match is not None
    healthy = False
    disk = SmallDisk(tmp_path, real=False)  # an injected error is enough here
    fail_settlement_when(store, disk, lambda: not healthy)
    await env.run_until(lambda: len(match.results) >= 1)
    assert (await table.end(ALICE)).ok
    game = await store.get_game(table.table_id)
    assert game is not None and game.status == "running"  # its status waits for the hand
    healthy = True
    await env.clock.advance(70)
    await paid_exactly_once(store, table.table_id, 1)
    game = await store.get_game(table.table_id)
    assert game is not None and game.status == "abandoned"
    await env.manager.shutdown()
    await store.close()


async def test_start_up_settles_hands_of_closed_games_that_were_never_paid(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    env = Table(store)
    table = await env.start()
    match = table.match
    assert match is not None
    disk = SmallDisk(tmp_path, real=False)
    fail_settlement_when(store, disk, lambda: True)
    await env.run_until(lambda: len(match.results) >= 1)
    await table.end(ALICE)
    await env.manager.shutdown()  # the process dies with the hand still owed
    store._fault_hook = None
    # Whatever state it was left in (running here: even the status write failed), and
    # also once marked abandoned, the next start pays it.
    await store.set_game_status(table.table_id, "abandoned")
    assert not await store.is_settled(table.table_id, 0)
    await store.close()

    store = await Store.open(path)
    again = Table(store)
    await again.manager.restore_all()
    await again.manager.wait_idle()
    await paid_exactly_once(store, table.table_id, 1)
    # Checked once, never replayed again.
    assert await store.games_to_check_settlement() == []
    assert await again.manager.resume_settlements() == 0
    await again.manager.shutdown()
    await store.close()


async def test_a_store_outage_counts_one_missed_turn_not_one_per_retry(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path, busy_timeout_ms=50)
    env = Table(store)
    table = await env.start(autoplay=False)
    match = table.match
    assert match is not None
    seat = table.seat_of(ALICE)
    await env.run_until(lambda: match.round.waiting_on == (seat,) and match.round.phase == "turn")
    turn = match.turn_id
    with write_lock(path):  # another process holds the database for a while
        await env.clock.advance(table.discard_timeout)
        for _ in range(3):  # three failed tries of the same missed turn
            await env.clock.advance(5)
        assert match.turn_id == turn
    await env.clock.advance(5)
    assert match.turn_id > turn
    assert table._timeouts[seat] == 1
    assert not table.seats[seat].autoplay
    await env.manager.shutdown()
    await store.close()


async def test_seating_is_enforced_by_the_database_too(tmp_path: Path) -> None:
    from data.store import AlreadySeatedError, ChannelBusyError

    store = await Store.open(tmp_path / "bot.db")
    await store.create_game("a", GUILD, CHANNEL, "jiaxing", {}, [], 1, seated_user=ALICE)
    with pytest.raises(ChannelBusyError):
        await store.create_game("b", GUILD, CHANNEL, "jiaxing", {}, [], 1)
    with pytest.raises(AlreadySeatedError):
        await store.create_game("b", GUILD, CHANNEL + 1, "jiaxing", {}, [], 1, seated_user=ALICE)
    assert await store.get_game("b") is None  # refused as a whole
    await store.create_game("c", GUILD, CHANNEL + 1, "jiaxing", {}, [], 1)
    with pytest.raises(AlreadySeatedError):
        await store.seat_user("c", ALICE)
    await store.set_game_status("a", "finished")  # frees the seat and the channel
    assert await store.seat_user("c", ALICE) is True
    await store.create_game("d", GUILD, CHANNEL, "jiaxing", {}, [], 1)
    await store.close()


async def test_migration_3_keeps_the_newest_open_table_of_a_channel(tmp_path: Path) -> None:
    from data import schema

    path = tmp_path / "old.db"
    connection = sqlite3.connect(path, isolation_level=None)
    schema.migrate(connection, target=2)
    seats = '{"seats": [{"seat": 0, "user_id": 5, "is_ai": false}, {"seat": 1, "is_ai": true}]}'
    for game_id, created in (("old", "2026-01-01"), ("new", "2026-01-02")):
        connection.execute(
            "INSERT INTO games (game_id, guild_id, channel_id, variant, seed, meta, status,"
            " created_at, updated_at) VALUES (?, 1, 9, 'jiaxing', 1, ?, 'running', ?, ?)",
            (game_id, seats, created, created),
        )
    connection.close()
    store = await Store.open(path)
    assert [game.game_id for game in await store.running_games()] == ["new"]
    assert await store.seated_game(5) == "new"
    await store.close()
