"""Two bot processes, one per shard, on one database (issue 15, item 3).

Both processes run in this test process: two ``ShardedMahjongBot`` instances (shard 0 and
shard 1 of 2), each behind its own strict harness, sharing one fake Discord (so a DM that
shard 1's process sent is the message a click arrives on at shard 0's) and one fake clock.
Routing and the leases go through the real PostgreSQL server of the ``pg_server`` fixture
(LISTEN/NOTIFY between the two processes' own connections), and each process opens its
own PostgreSQL store on that database; without a server the tests fail.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import asyncpg
import pytest
from discord_harness import (
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    FakeDiscord,
    Harness,
    TagRenderer,
    choose_move,
    guild_payload,
    option,
    until_backoff,
)
from pg_databases import fresh_database

from bot.app import MahjongBot, ShardedMahjongBot, make_bot
from bot.routing import PostgresRouter, RoutedClick
from bot.session import FakeClock
from bot.shards import ShardPlan, shard_of
from data import SettlementEntry, open_store
from engine.tiles import kind_str

SHARD_COUNT = 2
GUILD_ONE = GUILD_ID  # on shard 1
GUILD_ZERO = GUILD_ID + (1 << 22)  # on shard 0
CHANNEL_ZERO = CHANNEL_ID + 100
BOARD_ZERO = OTHER_CHANNEL_ID + 100
ALICE = 800_000_000_000_000_001  # plays in shard 1's guild; her DM clicks arrive at shard 0
BOB = 800_000_000_000_000_002  # plays in shard 0's guild
USERS = {ALICE: ("alice", DEFAULT_PERMISSIONS), BOB: ("bob", DEFAULT_PERMISSIONS)}


@dataclass
class Process:
    shard: int
    bot: MahjongBot
    h: Harness
    store: Any
    router: PostgresRouter


@dataclass
class Cluster:
    url: str
    clock: FakeClock
    remote: FakeDiscord
    processes: list[Process]
    seeds: Any

    async def start(self, shard: int, guild: int, channel: int, board: int, name: str) -> Process:
        process = await start_process(self.url, self.clock, self.remote, shard, guild,
                                      channel, board, name, self.seeds)  # fmt: skip
        self.processes.append(process)
        return process

    async def settle(self) -> None:
        """Until neither process has work and no routed click waits to be applied (a
        NOTIFY travels through the server, so "no task right now" is not enough)."""
        connection = await asyncpg.connect(self.url)
        try:
            for _ in range(200):
                for process in self.processes:
                    await process.h.settle()
                pending = await connection.fetchval(
                    "SELECT count(*) FROM routed_interactions WHERE applied_at IS NULL"
                )
                busy = any(p.router._tasks for p in self.processes)
                if not pending and not busy:
                    for process in self.processes:
                        await process.h.settle()
                    return
                await asyncio.sleep(0.02)
            raise AssertionError("routed clicks were never applied")
        finally:
            await connection.close()

    async def advance(self, seconds: float) -> None:
        step = 0.5
        while seconds > 1e-9:
            delta = min(step, seconds)
            await self.clock.advance(delta)
            seconds -= delta
            await self.settle()


async def start_process(
    url: str, clock: FakeClock, remote: FakeDiscord, shard: int, guild: int, channel: int,
    board: int, name: str, seeds: Any,
) -> Process:  # fmt: skip
    """One bot process of ``shard``, its harness serving ``guild`` on the shared Discord."""
    store = await open_store(url)
    router = PostgresRouter(url, [shard], sweep_seconds=0.5)
    bot = make_bot(
        store, shard_plan=ShardPlan(SHARD_COUNT, (shard,)), router=router,
        clock=clock, renderer=TagRenderer(), ai_delay=0.0,
        leaderboard_interval=None, seeds=seeds, process_name=name,
    )  # fmt: skip
    assert isinstance(bot, ShardedMahjongBot)
    harness = Harness(bot, USERS, clock, remote=remote, guild_id=guild, channel_id=channel,
                      other_channel_id=board)  # fmt: skip
    await harness.start()
    return Process(shard, bot, harness, store, router)


@pytest.fixture
async def cluster(pg_server: str) -> AsyncIterator[Cluster]:
    assert shard_of(GUILD_ZERO, SHARD_COUNT) == 0 and shard_of(GUILD_ONE, SHARD_COUNT) == 1
    async with fresh_database(pg_server) as url:
        clock = FakeClock()
        remote = FakeDiscord()
        seeds = itertools.count(11)
        running = Cluster(url, clock, remote, [], seeds)
        try:
            for shard, guild, channel, board in (
                (0, GUILD_ZERO, CHANNEL_ZERO, BOARD_ZERO),
                (1, GUILD_ONE, CHANNEL_ID, OTHER_CHANNEL_ID),
            ):
                await running.start(shard, guild, channel, board, f"shard-{shard}")
            yield running
        finally:
            for process in running.processes:
                await process.h.close()
                await process.store.close()


async def open_table(cluster: Cluster, process: Process, user: int) -> Any:
    h = process.h
    await h.command(user, "table create", [option("variant", "taizhou"), option("rounds", 1)])
    await h.command(user, "table start")
    await cluster.advance(2)
    table = process.bot.manager.table_of_user(user)
    assert table is not None and table.status == "running"
    return table


async def settle_last_week_in_both_guilds(store: Any, now: datetime) -> None:
    """A finished game in each shard's guild, paid last week (Alice +20 after the stake),
    and each guild's leaderboard channel set: both have a weekly board to post."""
    for guild, channel, board, game in (
        (GUILD_ZERO, CHANNEL_ZERO, BOARD_ZERO, "gz"),
        (GUILD_ONE, CHANNEL_ID, OTHER_CHANNEL_ID, "go"),
    ):
        await store.update_settings(guild, leaderboard_channel=board)
        await store.create_game(game, guild, channel, "taizhou", {}, [], 1, status="running")
        await store.settle_hand(
            guild, game, 0,
            [SettlementEntry(0, ALICE, 10, True), SettlementEntry(1, BOB, -10)],
            stake=2, winner_user=ALICE, when=now - timedelta(days=7),
        )  # fmt: skip
        await store.set_game_status(game, "finished")


async def first_move(cluster: Cluster, process: Process, user: int) -> tuple[Any, Any]:
    """The user's DM message (at ``process``) once it offers a move, and that move."""
    for _ in range(50):
        message = process.h.latest_dm(user)
        move = choose_move(message) if message is not None else None
        if message is not None and move is not None:
            return message, move
        await cluster.advance(1.0)
    raise AssertionError("no move was offered")


async def test_two_shard_processes_settle_into_one_ledger_and_route_dm_clicks(
    cluster: Cluster,
) -> None:
    zero, one = cluster.processes
    alice_table = await open_table(cluster, one, ALICE)  # shard 1's guild, shard 1's process
    bob_table = await open_table(cluster, zero, BOB)
    assert zero.bot.manager.get(alice_table.table_id) is None  # not shard 0's table
    assert one.bot.manager.get(bob_table.table_id) is None

    routed: list[RoutedClick] = []
    apply = one.bot.apply_routed_click

    async def counting(click: RoutedClick) -> None:
        routed.append(click)
        await apply(click)

    one.bot.apply_routed_click = counting  # type: ignore[method-assign]
    one.router._handler = counting

    # Both humans play from their DMs; every DM click arrives at shard 0's process.
    store = zero.store
    started = one.bot.presenter.clock.now()
    for _ in range(2000):
        alice_paid = await store.settled_hands(alice_table.table_id)
        bob_paid = await store.settled_hands(bob_table.table_id)
        if alice_paid and bob_paid:
            break
        moved = False
        for user in (ALICE, BOB):
            message = zero.h.latest_dm(user)
            move = choose_move(message) if message is not None else None
            if message is not None and move is not None:
                await zero.h.click(user, message, move[0], move[1], settle=False)
                moved = True
        await cluster.settle()
        await cluster.advance(1.0 if moved else 2.0)
    else:
        raise AssertionError("no hand was settled at both tables")

    assert routed, "Alice's clicks never went through the router"
    assert {click.user_id for click in routed} == {ALICE}  # Bob's table is shard 0's own
    # The owner knows she is at the screen (her turn alerts wait for half her time), though
    # her interactions reach shard 0's process only.
    assert one.bot.presenter._last_seen[ALICE] > started
    assert len({click.interaction_id for click in routed}) == len(routed)
    # No click of anyone ever failed Discord's 3-second acknowledgement.
    assert zero.h.failed_interactions() == []

    # One ledger: both guilds' hands in the one database, balances equal to their rows.
    for guild, table in ((GUILD_ONE, alice_table), (GUILD_ZERO, bob_table)):
        paid = await store.settled_hands(table.table_id)
        assert paid
        entries = await store.hand_entries(table.table_id, min(paid))
        assert sum(entry.points for entry in entries) == 0
        assert all(entry.guild_id == guild for entry in entries)
    assert await zero.store.verify_balances() == []
    assert await one.store.verify_balances() == []


async def test_a_dm_click_for_a_shard_1_table_delivered_twice_is_applied_once(
    cluster: Cluster,
) -> None:
    zero, one = cluster.processes
    table = await open_table(cluster, one, ALICE)
    for _ in range(50):  # until Alice has a move to make
        message = zero.h.latest_dm(ALICE)
        if message is not None and choose_move(message) is not None:
            break
        await cluster.advance(1.0)
    assert message is not None
    move = choose_move(message)
    assert move is not None
    offered = message.custom_ids()

    submits: list[tuple[int, Any]] = []
    submit = table.submit

    async def counting_submit(user_id: int, action: Any, turn_id: int | None = None) -> Any:
        result = await submit(user_id, action, turn_id)
        submits.append((user_id, result))
        return result

    table.submit = counting_submit  # type: ignore[method-assign]

    # Capture the raw interaction so Discord's redelivery can be imitated exactly.
    delivered: list[dict[str, Any]] = []
    state: Any = zero.bot._connection
    parse = state.parse_interaction_create

    def capture(payload: Any) -> None:
        delivered.append(payload)
        parse(payload)

    state.parse_interaction_create = capture
    record = await zero.h.click(ALICE, message, move[0], move[1], settle=False)
    state.parse_interaction_create = parse
    parse(delivered[0])  # the same interaction again (Discord redelivered it)
    await cluster.settle()
    connection = await asyncpg.connect(cluster.url)
    try:  # and the owner hears of it once more, late
        await connection.execute("SELECT pg_notify('mahjong_routed_clicks', $1)", f"1:{record.id}")
        await asyncio.sleep(0.2)
        await cluster.settle()
        await one.router.sweep()
        rows = await connection.fetch("SELECT interaction_id, applied_at FROM routed_interactions")
    finally:
        await connection.close()

    assert [(user, result.ok) for user, result in submits] == [(ALICE, True)]
    assert [(row["interaction_id"], row["applied_at"] is not None) for row in rows] == [
        (record.id, True)
    ]
    # Acknowledged in time by shard 0 (a deferred update), and nothing told Alice her
    # click was stale, which a second application would have done.
    assert record.callback_type == 6 and not record.failed
    assert zero.h.reply_text(record) == ""
    # The owner edited her DM hand: the buttons of the turn she clicked are gone.
    latest = zero.h.latest_dm(ALICE)
    assert latest is not None and move[0] not in latest.custom_ids()
    assert latest.custom_ids() != offered


async def test_the_weekly_board_is_posted_once_per_guild_across_both_processes(
    cluster: Cluster,
) -> None:
    zero, one = cluster.processes
    await settle_last_week_in_both_guilds(zero.store, zero.bot.now())
    # Each process also sees the other's guild (as a stale cache might): it never posts
    # there, the owner does.
    for process, guild, channel, board in (
        (zero, GUILD_ONE, CHANNEL_ID, OTHER_CHANNEL_ID),
        (one, GUILD_ZERO, CHANNEL_ZERO, BOARD_ZERO),
    ):
        other_state: Any = process.bot._connection
        other_state._add_guild_from_data(guild_payload(USERS, guild, channel, board))

    # Shard 0's post meets a 503 and waits to retry, holding the lease; meanwhile a
    # replacement of shard 0 starts (the old process has not stopped yet) and runs its
    # own weekly check, and so does shard 1.
    cluster.remote.fail_next("POST", "/channels/{channel_id}/messages", 503)
    sleepers = cluster.clock.pending
    first = asyncio.get_running_loop().create_task(zero.bot.post_weekly_leaderboards())
    assert await until_backoff(cluster.remote, cluster.clock, first, 1, sleepers)
    replacement = await cluster.start(0, GUILD_ZERO, CHANNEL_ZERO, BOARD_ZERO, "shard-0-new")
    assert await replacement.bot.post_weekly_leaderboards() == 0  # the lease is taken
    assert await one.bot.post_weekly_leaderboards() == 1
    for _ in range(20):
        if first.done():
            break
        await cluster.advance(1)
    assert await asyncio.wait_for(first, timeout=10) == 1
    assert await replacement.bot.post_weekly_leaderboards() == 0  # marked done now

    for board, statuses in ((BOARD_ZERO, [503, 200]), (OTHER_CHANNEL_ID, [200])):
        posts = zero.h.channel_messages(board)
        assert len(posts) == 1 and "+20" in posts[0].payload["content"]
        # Once by the bots, not merely once after Discord dropped a repeated nonce.
        sent = [r for r in cluster.remote.requests
                if r.method == "POST" and r.url.endswith(f"/channels/{board}/messages")]  # fmt: skip
        assert [r.status for r in sent] == statuses


async def test_a_replacement_resumes_its_shards_tables_and_leaves_the_others_alone(
    cluster: Cluster,
) -> None:
    zero, one = cluster.processes
    alice_table = await open_table(cluster, one, ALICE)  # running, shard 1
    # A second process of shard 0 starting now (a rolling restart) restores shard 0's
    # tables only.
    restarted_zero = await cluster.start(0, GUILD_ZERO, CHANNEL_ZERO, BOARD_ZERO, "shard-0-new")
    assert restarted_zero.bot.manager.get(alice_table.table_id) is None
    assert alice_table.status == "running"
    await zero.h.command(BOB, "table create", [option("variant", "taizhou")])
    bob_lobby = zero.bot.manager.table_of_user(BOB)  # a lobby, shard 0
    assert bob_lobby is not None and bob_lobby.status == "lobby"

    # Shard 1's process goes away; everything it accepted is in the journal.
    cluster.processes.remove(one)
    await one.h.close()
    await one.store.close()
    replacement = await cluster.start(1, GUILD_ONE, CHANNEL_ID, OTHER_CHANNEL_ID, "shard-1-new")
    await cluster.settle()

    resumed = replacement.bot.manager.get(alice_table.table_id)
    assert resumed is not None and resumed.status == "running"
    assert replacement.bot.manager.get(bob_lobby.table_id) is None  # shard 0's, not ours
    stored = await replacement.store.get_game(bob_lobby.table_id)
    assert stored is not None and stored.status == "lobby"  # not abandoned as if ours
    assert zero.bot.manager.get(alice_table.table_id) is None

    # Alice's next DM click still arrives at shard 0 and reaches the replacement.
    message, move = await first_move(cluster, zero, ALICE)
    journal = len(await replacement.store.load_actions(alice_table.table_id))
    record = await zero.h.click(ALICE, message, move[0], move[1], settle=False)
    await cluster.settle()
    assert record.callback_type == 6 and not record.failed
    assert zero.h.reply_text(record) == ""  # applied, not refused
    assert len(await replacement.store.load_actions(alice_table.table_id)) > journal


async def test_a_stale_dm_click_for_a_shard_1_table_is_answered_privately_by_its_owner(
    cluster: Cluster,
) -> None:
    """The owner refuses a routed click (an older turn's button) with an ephemeral
    follow-up through the click's token, which shard 0 deferred."""
    zero, one = cluster.processes
    await open_table(cluster, one, ALICE)
    message, move = await first_move(cluster, zero, ALICE)
    old = copy.deepcopy(message)  # her DM as it looked before the move
    first = await zero.h.click(ALICE, message, move[0], move[1], settle=False)
    await cluster.settle()
    assert zero.h.reply_text(first) == ""
    again = await zero.h.click(ALICE, old, move[0], move[1], settle=False)
    await cluster.settle()
    assert again.callback_type == 6 and not again.failed
    followups = [r for r in zero.h.replies_to(again) if r.callback_type is None]
    assert len(followups) == 1 and followups[0].audience is not None
    assert followups[0].audience.kind == "ephemeral" and followups[0].audience.user_id == ALICE
    assert "这一步已经过去了" in zero.h.reply_text(again)


async def test_a_move_typed_in_a_dm_reaches_the_shard_1_table_and_is_confirmed(
    cluster: Cluster,
) -> None:
    """``/discard`` typed in a DM arrives at shard 0 like a DM click; the owner plays it
    and confirms (or refuses) through the command's token."""
    zero, one = cluster.processes
    table = await open_table(cluster, one, ALICE)
    for _ in range(80):  # until it is Alice's turn to discard
        message = zero.h.latest_dm(ALICE)
        select = message.component("mj:d:") if message is not None else None
        if select is not None and not select.get("disabled"):
            break
        move = choose_move(message) if message is not None else None
        if message is not None and move is not None:  # claims on the way: pass
            await zero.h.click(ALICE, message, move[0], move[1], settle=False)
        await cluster.advance(1.0)
    else:
        raise AssertionError("Alice never had a tile to discard")
    assert message is not None
    dm_channel = message.channel_id
    tile = select["options"][0]["value"]
    journal = len(await one.store.load_actions(table.table_id))

    typed = await zero.h.command(ALICE, "discard", [option("tile", tile)], channel_id=dm_channel,
                                 settle=False)  # fmt: skip
    await cluster.settle()
    assert not typed.failed
    assert zero.h.reply_text(typed).startswith("✔")
    seat = table.seat_of(ALICE)
    actions = await one.store.load_actions(table.table_id)
    assert actions[journal] == {"seat": seat, "tile": tile, "type": "discard"}

    # A tile she does not hold: the owner refuses it, and plays nothing for her.
    held = set(table.match.round.concealed_tiles(seat))
    absent = next(kind for kind in range(34) if kind not in held)
    played = len(await one.store.load_actions(table.table_id))
    again = await zero.h.command(ALICE, "discard", [option("tile", kind_str(absent))],
                                 channel_id=dm_channel, settle=False)  # fmt: skip
    await cluster.settle()
    assert not again.failed
    answer = zero.h.reply_text(again)
    assert answer and not answer.startswith("✔")
    later = (await one.store.load_actions(table.table_id))[played:]
    assert all(action.get("seat") != seat for action in later)
