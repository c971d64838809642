"""Table sessions driven through the recording presenter and a fake clock (no test sleeps)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.presenter import Text
from bot.recording import RecordingPresenter
from bot.session import (
    LOBBY_IDLE_SECONDS,
    NOT_SEATED,
    NOT_YOUR_TURN,
    STALE,
    FakeClock,
    SessionError,
    TableManager,
    TableSession,
)
from data import Store
from engine.match import Match
from engine.tiles import kind_str, name_en, name_zh
from engine.types import Action

GUILD = 7
CHANNEL = 70
ALICE, BOB, CAROL = 101, 102, 103
START = 1000  # the store's default starting balance


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "session.db", synchronous="NORMAL")
    yield opened
    await opened.close()


class Harness:
    def __init__(self, store: Store, ai_delay: float = 0.0) -> None:
        self.store = store
        self.clock = FakeClock()
        self.presenter = RecordingPresenter()
        self.manager = TableManager(
            store, self.presenter, self.clock, ai_delay=ai_delay, ai_level="easy"
        )

    async def table(self, **kwargs: object) -> TableSession:
        options = {"variant": "jiaxing", "seed": 11, **kwargs}
        return await self.manager.create_table(GUILD, CHANNEL, ALICE, "Alice", **options)  # type: ignore[arg-type]

    async def started(self, **kwargs: object) -> TableSession:
        table = await self.table(**kwargs)
        assert (await table.start(ALICE)).ok
        await self.manager.wait_idle()
        return table

    async def play_default(self, table: TableSession, user_id: int) -> None:
        """The user answers every prompt with the timeout default, on time."""
        prompt = table.prompt_for(user_id)
        assert prompt is not None and prompt.kind != "idle"
        action = table.default_action(user_id)
        assert action is not None
        result = await table.submit(user_id, action, prompt.turn_id)
        assert result.ok, result.message
        await self.manager.wait_idle()


@pytest.fixture
async def harness(store: Store) -> AsyncIterator[Harness]:
    made = Harness(store)
    yield made
    await made.manager.shutdown()


def _waiting_user(table: TableSession, user_id: int) -> bool:
    seat = table.seat_of(user_id)
    assert table.match is not None
    return seat is not None and seat in table.match.round.waiting_on


# ---------------------------------------------------------------------------- a whole match


async def test_full_match_one_human_three_ai(harness: Harness) -> None:
    table = await harness.started()
    assert table.status == "running"
    seat = table.seat_of(ALICE)
    assert seat is not None
    assert sum(info.is_ai for info in table.seats) == 3
    decisions = 0
    while table.status == "running":
        # With AI seats acting at once, the match only ever waits for the human.
        assert _waiting_user(table, ALICE)
        await harness.play_default(table, ALICE)
        decisions += 1
        assert decisions < 2000
    assert table.status == "finished"
    match = table.match
    assert match is not None and match.finished
    results = harness.presenter.of("hand_result")
    assert len(results) == len(match.results) >= 4
    (final,) = harness.presenter.of("match_result")
    _, totals, points = final
    assert totals == match.scores and sum(totals) == 0
    # Every hand settled exactly once, stake 1: the balance moved by the match total.
    for hand_number in range(len(match.results)):
        assert await harness.store.is_settled(table.table_id, hand_number)
    assert await harness.store.get_balance(GUILD, ALICE) == START + points[seat]
    assert points[seat] == match.scores[seat]
    # The store holds the whole log: replaying it rebuilds the finished match.
    stored = await harness.store.load_actions(table.table_id)
    replayed = Match.replay("jiaxing", table.options, table.seed, stored)
    assert replayed.finished and replayed.scores == match.scores
    game = await harness.store.get_game(table.table_id)
    assert game is not None and game.status == "finished"
    assert harness.manager.by_channel(CHANNEL) is None
    # Private information only ever went to its owner, about the owner's seat.
    for call in harness.presenter.calls:
        if call.kind == "private_hand":
            assert call.user_id == ALICE and call.payload.seat == seat
    for status in harness.presenter.of("table_changed"):
        assert all("private" not in event for event in status.events)


async def test_deadlines_are_absolute_and_fresh_per_stage(harness: Harness) -> None:
    table = await harness.started(discard_timeout=40, claim_timeout=12)
    prompt = table.prompt_for(ALICE)
    assert prompt is not None
    expected = harness.clock.now() + (40 if prompt.kind == "turn" else 12)
    assert prompt.deadline == expected
    status = table.table_status()
    assert status is not None and status.deadline == expected
    await harness.clock.advance(5)
    assert table.prompt_for(ALICE).deadline == expected  # type: ignore[union-attr]
    await harness.play_default(table, ALICE)
    nxt = table.prompt_for(ALICE)
    assert nxt is not None and nxt.deadline is not None and nxt.deadline > expected - 40 + 5


# ---------------------------------------------------------------------------- rejections


async def test_rejections_change_nothing(harness: Harness) -> None:
    table = await harness.started()
    match = table.match
    assert match is not None
    before_turn = match.turn_id
    before_log = len(await harness.store.load_actions(table.table_id))
    seat = table.seat_of(ALICE)
    assert seat is not None
    prompt = table.prompt_for(ALICE)
    assert prompt is not None

    result = await table.submit(BOB, {"type": "pass"}, prompt.turn_id)
    assert not result.ok and result.message == NOT_SEATED
    result = await table.submit(ALICE, table.default_action(ALICE), prompt.turn_id - 1)  # type: ignore[arg-type]
    assert not result.ok and result.message == STALE
    result = await table.submit(ALICE, table.default_action(ALICE), prompt.turn_id + 5)  # type: ignore[arg-type]
    assert not result.ok and result.message == STALE
    illegal = Action(
        "discard", seat, tile=next(k for k in range(34) if k not in prompt.view.all_concealed)
    )
    if prompt.kind == "turn":
        result = await table.submit(ALICE, illegal, prompt.turn_id)
        assert not result.ok and isinstance(result.message, Text)
        # Discarding a tile one does not hold says so, in both languages.
        missing = illegal.tile
        assert missing is not None
        assert result.message.en == f"You do not hold {name_en(missing)} ({kind_str(missing)})"
        assert result.message.zh == f"你手里没有{name_zh(missing)}（{kind_str(missing)}）"
    result = await table.submit(ALICE, {"type": "bogus-tile", "tile": "99x"}, None)
    assert not result.ok
    assert match.turn_id == before_turn
    assert len(await harness.store.load_actions(table.table_id)) == before_log

    # Play on until some other seat must act while Alice waits for nothing.
    await harness.play_default(table, ALICE)
    assert not result.ok


async def test_out_of_turn_is_refused(store: Store) -> None:
    harness = Harness(store, ai_delay=3.0)  # AI seats wait, so others' turns can be seen
    table = await harness.started()
    match = table.match
    assert match is not None
    seat = table.seat_of(ALICE)
    for _ in range(200):
        if seat not in match.round.waiting_on:
            break
        await harness.play_default(table, ALICE)
    assert seat not in match.round.waiting_on
    turn = match.turn_id
    result = await table.submit(ALICE, Action("pass", 0), turn)
    # Refused, naming whose turn it is (or that others are deciding on a claim).
    assert not result.ok and result.message is not None
    current = match.round.current_seat
    if match.round.phase == "turn" and current is not None:
        assert f"现在轮到 {table.seats[current].name} 出牌" == result.message.zh
    else:
        assert result.message == NOT_YOUR_TURN
    assert match.turn_id == turn
    await harness.manager.shutdown()


async def test_two_simultaneous_submissions_exactly_one_accepted(harness: Harness) -> None:
    table = await harness.started()
    prompt = table.prompt_for(ALICE)
    assert prompt is not None and prompt.kind != "idle"
    legal = list(prompt.view.legal)
    first, second = legal[0], legal[-1]
    log_before = len(await harness.store.load_actions(table.table_id))
    results = await asyncio.gather(
        table.submit(ALICE, first, prompt.turn_id),
        table.submit(ALICE, second, prompt.turn_id),
    )
    assert sorted(r.ok for r in results) == [False, True]
    rejected = next(r for r in results if not r.ok)
    assert rejected.message in (STALE, NOT_YOUR_TURN)
    await harness.manager.wait_idle()
    stored = await harness.store.load_actions(table.table_id)
    alice_seat = table.seat_of(ALICE)
    mine = [a for a in stored[log_before:] if a["seat"] == alice_seat]
    # Exactly one of the two reached the log for that turn.
    assert stored[log_before]["seat"] == alice_seat
    assert Action.from_json(stored[log_before]) in (first, second)
    assert len(mine) >= 1


# ---------------------------------------------------------------------------- timers


async def test_timeouts_default_then_autoplay_then_back(harness: Harness) -> None:
    table = await harness.started(discard_timeout=30, claim_timeout=10)
    match = table.match
    assert match is not None
    seat = table.seat_of(ALICE)
    assert seat is not None
    for expected_count in (1, 2, 3):
        prompt = table.prompt_for(ALICE)
        assert prompt is not None and prompt.kind != "idle" and prompt.deadline is not None
        default = table.default_action(ALICE)
        turn = match.turn_id
        # One second early: nothing happens.
        await harness.clock.advance(prompt.deadline - harness.clock.now() - 1)
        assert match.turn_id == turn
        await harness.clock.advance(1)
        stored = await harness.store.load_actions(table.table_id)
        assert Action.from_json(stored[turn]) == default
        assert table._timeouts[seat] == expected_count
    assert table.seats[seat].autoplay
    notices = [text.en for text in harness.presenter.notices()]
    assert any("autoplay" in line for line in notices)
    # On autoplay the AI plays the seat at once: the table never waits for Alice.
    if table.status == "running":
        assert seat not in match.round.waiting_on or table.seats[seat].autoplay
    turn = match.turn_id
    # Without any clock movement the match keeps running only through AI moves...
    back = await table.back(ALICE)
    if table.status == "running":
        assert back.ok
        assert not table.seats[seat].autoplay
        assert table._timeouts[seat] == 0
        await harness.manager.wait_idle()
        assert _waiting_user(table, ALICE)
        assert match.turn_id >= turn
        await harness.play_default(table, ALICE)


async def test_autoplay_ends_when_the_player_acts(store: Store) -> None:
    harness = Harness(store, ai_delay=2.0)
    table = await harness.started()
    match = table.match
    assert match is not None
    seat = table.seat_of(ALICE)
    assert seat is not None
    await table.autoplay(ALICE)
    assert table.seats[seat].autoplay
    # Walk the clock until the autoplayed seat is due again, then act before the AI does.
    for _ in range(400):
        if seat in match.round.waiting_on:
            break
        await harness.clock.advance(2)
    assert seat in match.round.waiting_on
    action = match.round.default_action(seat)
    result = await table.submit(ALICE, action, match.turn_id)  # type: ignore[arg-type]
    assert result.ok
    assert not table.seats[seat].autoplay
    await harness.manager.shutdown()


async def test_ai_delay_paces_ai_seats(store: Store) -> None:
    harness = Harness(store, ai_delay=1.5)
    table = await harness.started()
    match = table.match
    assert match is not None
    seat = table.seat_of(ALICE)
    for _ in range(50):
        if seat not in match.round.waiting_on:
            break
        await harness.play_default(table, ALICE)
    turn = match.turn_id
    await harness.clock.advance(1.4)
    assert match.turn_id == turn  # the AI is "thinking"
    await harness.clock.advance(0.2)
    assert match.turn_id > turn
    await harness.manager.shutdown()


# ---------------------------------------------------------------------------- lobby


async def test_lobby_join_leave_ai_and_start(harness: Harness) -> None:
    table = await harness.table(variant="taizhou", num_seats=3, stake=5, ai_fill=False)
    assert (await table.join(BOB, "Bob")).ok
    assert not (await table.join(BOB, "Bob")).ok
    assert not (await table.add_ai(BOB)).ok  # host only
    assert (await table.add_ai(ALICE)).ok
    assert not (await table.join(CAROL, "Carol")).ok  # full
    assert (await table.remove_ai(ALICE)).ok
    assert not (await table.start(ALICE)).ok  # one short and no AI fill
    assert (await table.join(CAROL, "Carol")).ok
    assert not (await table.start(BOB)).ok
    lobby = table.lobby_info()
    assert [p.user_id for p in lobby.players] == [ALICE, BOB, CAROL]
    assert lobby.stake == 5 and lobby.num_seats == 3
    assert (await table.start(ALICE)).ok
    assert sorted(info.user_id for info in table.seats) == [ALICE, BOB, CAROL]  # type: ignore[type-var]
    assert harness.manager.table_of_user(BOB) is table
    lobbies = harness.presenter.of("lobby_changed")
    assert lobbies[-1].status == "running"


async def test_lobby_host_leaves_and_lobby_idles_out(harness: Harness) -> None:
    table = await harness.table()
    assert (await table.join(BOB, "Bob")).ok
    assert (await table.leave(ALICE)).ok
    assert table.host_user_id == BOB
    await harness.clock.advance(LOBBY_IDLE_SECONDS - 10)
    assert table.status == "lobby"
    assert (await table.add_ai(BOB)).ok  # activity resets the idle timer
    await harness.clock.advance(LOBBY_IDLE_SECONDS - 1)
    assert table.status == "lobby"
    await harness.clock.advance(2)
    assert table.status == "closed"
    assert harness.manager.by_channel(CHANNEL) is None
    game = await harness.store.get_game(table.table_id)
    assert game is not None and game.status == "abandoned"


async def test_create_validation(harness: Harness) -> None:
    with pytest.raises(SessionError):
        await harness.table(variant="riichi")
    with pytest.raises(SessionError):
        await harness.table(num_seats=3)  # Jiaxing is four-handed
    with pytest.raises(SessionError):
        await harness.table(options={"no_such_option": True})
    with pytest.raises(SessionError):
        await harness.table(stake=0)
    with pytest.raises(SessionError):
        await harness.table(discard_timeout=1)
    await harness.table()
    with pytest.raises(SessionError) as error:
        await harness.manager.create_table(GUILD, CHANNEL, BOB, "Bob", variant="jiaxing")
    assert "channel" in error.value.text.en
    with pytest.raises(SessionError):
        await harness.manager.create_table(GUILD, CHANNEL + 1, ALICE, "Alice", variant="jiaxing")


async def test_guild_minimum_balance_blocks_joining(harness: Harness) -> None:
    await harness.store.update_settings(GUILD, min_balance=START + 1)
    with pytest.raises(SessionError):
        await harness.table()
    await harness.store.update_settings(GUILD, min_balance=None)
    table = await harness.table()
    await harness.store.update_settings(GUILD, min_balance=START + 1)
    result = await table.join(BOB, "Bob")
    assert not result.ok and result.message is not None and "balance" in result.message.en


async def test_a_servers_highest_stake_holds_at_create(harness: Harness) -> None:
    """At a table of AI seats a hand's points are made or lost outright (an AI has no
    balance), so an admin caps the stake (``max_stake``); None is the bot's own limit."""
    await harness.store.update_settings(GUILD, max_stake=50)
    with pytest.raises(SessionError) as refused:
        await harness.table(stake=51)
    assert "底注最高 50（你选了 51）" in refused.value.text.zh
    assert "highest stake is 50 (you chose 51)" in refused.value.text.en
    assert harness.manager.by_channel(CHANNEL) is None
    table = await harness.table(stake=50)
    assert table.stake == 50


# ---------------------------------------------------------------------------- leaving


async def test_leaving_a_running_match_pays_the_penalty_and_an_ai_sits(harness: Harness) -> None:
    table = await harness.table(stake=3)
    assert (await table.join(BOB, "Bob")).ok
    assert (await table.start(ALICE)).ok
    await harness.manager.wait_idle()
    bob_seat = table.seat_of(BOB)
    assert bob_seat is not None
    match = table.match
    assert match is not None
    penalty = match.round.flee_penalty(bob_seat) * 3
    assert (await table.leave(BOB)).ok
    await harness.manager.wait_idle()
    assert table.seat_of(BOB) is None and table.seats[bob_seat].is_ai
    assert await harness.store.get_balance(GUILD, BOB) == START - penalty
    assert await harness.store.get_balance(GUILD, ALICE) == START + penalty
    assert harness.manager.table_of_user(BOB) is None
    game = await harness.store.get_game(table.table_id)
    assert game is not None and game.meta["seats"][bob_seat]["is_ai"]
    # The match goes on without Bob, to the end.
    while table.status == "running":
        await harness.play_default(table, ALICE)
    assert table.status == "finished"


async def test_last_human_leaving_closes_the_table(harness: Harness) -> None:
    table = await harness.started()
    assert (await table.leave(ALICE)).ok
    assert table.status == "closed"
    game = await harness.store.get_game(table.table_id)
    assert game is not None and game.status == "abandoned"


# ---------------------------------------------------------------------------- restart (in process)


async def test_restore_rebuilds_state_with_fresh_deadlines(store: Store) -> None:
    first = Harness(store)
    table = await first.started()
    for _ in range(15):
        await first.play_default(table, ALICE)
    assert table.match is not None
    snapshot = table.match.round.snapshot()
    turn = table.match.turn_id
    await first.manager.shutdown()

    second = Harness(store)
    await second.clock.advance(3600)  # an hour later
    (restored,) = await second.manager.restore_all()
    await second.manager.wait_idle()
    assert restored.table_id == table.table_id
    assert restored.match is not None
    assert restored.match.turn_id == turn
    assert restored.match.round.snapshot() == snapshot
    assert restored.seat_of(ALICE) == table.seat_of(ALICE)
    prompt = restored.prompt_for(ALICE)
    assert prompt is not None and prompt.deadline is not None
    assert prompt.deadline > second.clock.now()  # fresh, not an hour overdue
    assert second.presenter.prompts(ALICE)
    while restored.status == "running":
        await second.play_default(restored, ALICE)
    assert restored.status == "finished"
    for hand_number in range(len(restored.match.results)):
        assert len(await store.hand_entries(restored.table_id, hand_number)) == 4
    await second.manager.shutdown()


async def test_a_table_restored_between_hands_pauses_before_the_next_hand(store: Store) -> None:
    """Stopped in the pause after a result, a table came back and its AI dealer opened
    the next hand one AI pause after the restart notice: the pause is taken again."""
    first = Harness(store, ai_delay=1.0)
    table = await first.started(seed=5)
    assert table.match is not None
    while not table.match.results:
        if _waiting_user(table, ALICE):
            await first.play_default(table, ALICE)
        else:
            await first.clock.advance(0.5)
            await first.manager.wait_idle()
    assert not table.match.round.actions  # in the pause
    dealer = table.match.round.dealer
    assert dealer != table.seat_of(ALICE), "the test needs an AI dealer: change the seed"
    await first.manager.shutdown()

    second = Harness(store, ai_delay=1.0)
    (restored,) = await second.manager.restore_all()
    await second.manager.wait_idle()
    assert restored.match is not None
    hand_break = second.manager.hand_break
    waited = 0.0
    while not restored.match.round.actions:
        await second.clock.advance(0.25)
        await second.manager.wait_idle()
        waited += 0.25
        assert waited < 20
    assert hand_break <= waited <= hand_break + 1.5
    await second.manager.shutdown()


async def test_a_match_asked_to_end_after_its_hand_still_does_after_a_restart(
    store: Store,
) -> None:
    first = Harness(store)
    table = await first.started()
    assert table.match is not None
    while not table.match.round.actions:
        await first.play_default(table, ALICE)
    assert (await table.end(ALICE, after_hand=True)).ok
    assert table.status == "running"
    await first.manager.shutdown()

    second = Harness(store)
    (restored,) = await second.manager.restore_all()
    await second.manager.wait_idle()
    assert restored.match is not None
    while restored.status == "running":
        await second.play_default(restored, ALICE)
    assert restored.status == "finished" and len(restored.match.results) == 1
    assert not restored.match.finished  # ended short of its rounds, as asked
    assert len(await store.hand_entries(restored.table_id, 0)) == 4
    assert await store.history(GUILD, ALICE, kinds=("penalty",)) == []
    await second.manager.shutdown()


# ---------------------------------------------------------------------------- more


@pytest.mark.parametrize(("variant", "seats"), [("taizhou", 4), ("taizhou", 3)])
async def test_taizhou_match_to_the_end(harness: Harness, variant: str, seats: int) -> None:
    table = await harness.started(variant=variant, num_seats=seats, stake=2)
    seat = table.seat_of(ALICE)
    assert seat is not None
    while table.status == "running":
        await harness.play_default(table, ALICE)
    match = table.match
    assert match is not None and match.finished
    (final,) = harness.presenter.of("match_result")
    _, totals, points = final
    assert points == [2 * units for units in totals]  # no caps set: stake x units
    assert await harness.store.get_balance(GUILD, ALICE) == START + points[seat]


class BatchingStore(Store):
    """A store with the optional one-call ``append_actions`` the journal prefers."""

    batch_sizes: list[int]

    async def append_actions(
        self, rows: Sequence[tuple[str, int, dict[str, Any] | str, int]]
    ) -> list[bool | Exception]:
        self.batch_sizes.append(len(rows))
        # The journal hands an action over as its canonical JSON text.
        return [
            await self.append_action(game, seq, json.loads(a) if isinstance(a, str) else a, hand)
            for game, seq, a, hand in rows
        ]


async def test_journal_commits_concurrent_tables_together(tmp_path: Path) -> None:
    store = await BatchingStore.open(tmp_path / "batch.db", synchronous="NORMAL")
    store.batch_sizes = []
    harness = Harness(store)
    first = await harness.manager.create_table(GUILD, 1, ALICE, "Alice", variant="jiaxing", seed=1)
    second = await harness.manager.create_table(GUILD, 2, BOB, "Bob", variant="jiaxing", seed=2)
    assert (await first.start(ALICE)).ok and (await second.start(BOB)).ok
    await harness.manager.wait_idle()
    assert harness.manager.journal.batching
    prompts = [first.prompt_for(ALICE), second.prompt_for(BOB)]
    results = await asyncio.gather(
        first.submit(ALICE, first.default_action(ALICE), prompts[0].turn_id),  # type: ignore[arg-type, union-attr]
        second.submit(BOB, second.default_action(BOB), prompts[1].turn_id),  # type: ignore[arg-type, union-attr]
    )
    assert all(r.ok for r in results)
    await harness.manager.wait_idle()
    assert max(store.batch_sizes) >= 2
    for table in (first, second):
        assert table.match is not None
        stored = await store.load_actions(table.table_id)
        assert stored == [action.to_json() for action in table.match.actions]
    await harness.manager.shutdown()
    await store.close()


async def test_shutdown_answers_queued_callers(harness: Harness) -> None:
    table = await harness.started()
    prompt = table.prompt_for(ALICE)
    assert prompt is not None
    pending = asyncio.ensure_future(
        table.submit(ALICE, table.default_action(ALICE), prompt.turn_id)
    )  # type: ignore[arg-type]
    await harness.manager.shutdown()
    result = await asyncio.wait_for(pending, timeout=5)
    assert isinstance(result.ok, bool)
    late = await table.submit(ALICE, Action("pass", 0), None)
    assert not late.ok


async def test_a_failed_store_write_is_retried_later(store: Store) -> None:
    harness = Harness(store, ai_delay=1.0)
    table = await harness.started()
    match = table.match
    assert match is not None
    seat = table.seat_of(ALICE)
    for _ in range(50):
        if seat not in match.round.waiting_on:
            break
        await harness.play_default(table, ALICE)
    assert seat not in match.round.waiting_on
    real_append = store.append_actions  # the journal's group commit
    failures = []

    async def flaky(*args: object, **kwargs: object) -> list[bool | Exception]:
        if not failures:
            failures.append(args)
            raise OSError("disk unavailable")
        return await real_append(*args, **kwargs)  # type: ignore[arg-type]

    store.append_actions = flaky  # type: ignore[method-assign]
    turn = match.turn_id
    await harness.clock.advance(1)
    assert failures and match.turn_id == turn  # nothing applied without the write
    assert len(await store.load_actions(table.table_id)) == turn
    await harness.clock.advance(4.9)
    assert match.turn_id == turn
    await harness.clock.advance(0.2)
    assert match.turn_id > turn
    assert len(await store.load_actions(table.table_id)) == match.turn_id
    await harness.manager.shutdown()


async def test_a_failed_write_for_a_human_is_reported_to_that_user(harness: Harness) -> None:
    table = await harness.started()
    match = table.match
    assert match is not None
    prompt = table.prompt_for(ALICE)
    assert prompt is not None

    async def broken(*args: object, **kwargs: object) -> list[bool | Exception]:
        raise OSError("disk unavailable")

    harness.store.append_actions = broken  # type: ignore[method-assign]
    turn = match.turn_id
    result = await table.submit(ALICE, table.default_action(ALICE), prompt.turn_id)  # type: ignore[arg-type]
    assert not result.ok and result.message is not None and "try again" in result.message.en
    assert match.turn_id == turn
    errors = [call for call in harness.presenter.calls if call.kind == "error"]
    assert [call.user_id for call in errors] == [ALICE]


async def test_whether_a_table_prompts_anyone_follows_its_seats(harness: Harness) -> None:
    """An AI-only table skips the prompt bookkeeping after each move; the answer is kept
    per set of seats, so a seat that changes hands (a person leaving, an AI sitting)
    is seen at once, and a table with a person still prompts them after every move."""
    table = await harness.table()
    assert (await table.join(BOB, "Bob")).ok
    assert (await table.start(ALICE)).ok
    await harness.manager.wait_idle()
    assert table._prompted_seats()
    for _ in range(4):  # whoever must act was asked, move after move
        waiting = [user for user in (ALICE, BOB) if _waiting_user(table, user)]
        for user in waiting:
            assert harness.presenter.prompts(user)[-1].kind != "idle"
        if waiting:
            await harness.play_default(table, waiting[0])
    assert (await table.leave(BOB)).ok
    await harness.manager.wait_idle()
    assert table._prompted_seats()  # Alice is still there
    seats = table._seats
    alice_seat = table.seat_of(ALICE)
    assert alice_seat is not None
    from dataclasses import replace

    seats[alice_seat] = replace(seats[alice_seat], is_ai=True)  # as if an AI sat instead
    assert not table._prompted_seats()
    seats[alice_seat] = replace(seats[alice_seat], is_ai=False)
    assert table._prompted_seats()
