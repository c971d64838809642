"""Bot processes of different shards as separate OS processes on one PostgreSQL (issue 15).

``test_sharded_harness.py`` runs the two shards' bots inside this test process, sharing one
fake Discord, which lets it watch every request. Here the other shard is a real second
process (``tests/shard_child.py``, started with ``sys.executable``): its own interpreter,
event loop, connections and fake Discord, with nothing in common with this process but the
database. What crosses between the processes is only what crosses in production: rows,
``LISTEN``/``NOTIFY`` and the leases. The test copies the child's DM hand message into this
process's fake Discord because Discord delivers every DM interaction to shard 0, which here
is this process.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from discord_harness import (
    CHANNEL_ID,
    OTHER_CHANNEL_ID,
    Audience,
    FakeDiscord,
    StoredMessage,
    choose_move,
    guild_payload,
    option,
)
from pg_databases import fresh_database
from test_sharded_harness import (
    ALICE,
    BOARD_ZERO,
    BOB,
    CHANNEL_ZERO,
    GUILD_ONE,
    GUILD_ZERO,
    SHARD_COUNT,
    USERS,
    Process,
    settle_last_week_in_both_guilds,
    start_process,
)

from bot.session import FakeClock

CHILD = Path(__file__).resolve().parent / "shard_child.py"
ANSWER_TIMEOUT = 120.0  # seconds; a child that starts (imports, migrations) on a busy machine


class ChildProcess:
    """A bot process of one shard in its own OS process, spoken to over its stdin/stdout."""

    def __init__(self, process: asyncio.subprocess.Process, name: str) -> None:
        self.process = process
        self.name = name

    @classmethod
    async def start(
        cls, url: str, shard: int, guild: int, channel: int, board: int, name: str, *,
        seed: int, snowflake_base: int,
    ) -> ChildProcess:  # fmt: skip
        config = {
            "url": url, "shard": shard, "shard_count": SHARD_COUNT, "guild": guild,
            "channel": channel, "board": board, "name": name, "seed": seed,
            "snowflake_base": snowflake_base,
            "users": [[user, name] for user, (name, _perms) in USERS.items()],
        }  # fmt: skip
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(CHILD), json.dumps(config),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=16 * 1024 * 1024,
        )  # fmt: skip
        child = cls(process, name)
        await child._answer()  # "ready": started, migrated, listening
        return child

    async def _answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), ANSWER_TIMEOUT)
        if not line:
            code = await self.process.wait()
            raise AssertionError(f"{self.name} exited ({code}) without answering")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise AssertionError(f"{self.name} failed:\n{answer['error']}")
        return answer

    async def ask(self, op: str, **arguments: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps({"op": op, **arguments}) + "\n").encode())
        await self.process.stdin.drain()
        return await self._answer()

    async def stop(self) -> None:
        """Shut the child down; its harness fails it if any request broke Discord's rules."""
        if self.process.returncode is None:
            try:
                await self.ask("exit")
            finally:
                try:
                    await asyncio.wait_for(self.process.wait(), 30)
                except TimeoutError:
                    self.process.kill()
                    await self.process.wait()


async def pending_routed_clicks(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        count: int = await connection.fetchval(
            "SELECT count(*) FROM routed_interactions WHERE applied_at IS NULL"
        )
        return count
    finally:
        await connection.close()


async def settle_all(local: list[Process], children: list[ChildProcess], url: str) -> None:
    """Until no process has work and every routed click has been applied by its owner (a
    NOTIFY travels through the server to another process, so "idle here" is not enough)."""
    for _ in range(400):
        for process in local:
            await process.h.settle()
        busy = [(await child.ask("settle"))["busy"] for child in children]
        if not any(busy) and not await pending_routed_clicks(url):
            for process in local:
                await process.h.settle()
            return
        await asyncio.sleep(0.02)
    raise AssertionError("routed clicks were never applied")


def mirror_dm(remote: FakeDiscord, user_id: int, message: dict[str, Any]) -> StoredMessage:
    """The child's DM message as this process's Discord holds it (one Discord, seen from
    the shard that receives DM interactions)."""
    channel = int(message["channel_id"])
    remote.dm_channels[user_id] = channel
    remote.dm_owner[channel] = user_id
    stored = StoredMessage(int(message["id"]), channel, Audience("dm", channel, user_id),
                           message["payload"])  # fmt: skip
    remote.messages[stored.id] = stored
    return stored


async def click(
    process: Process, message: StoredMessage, move: tuple[str, list[str] | None], *, twice: bool
) -> Any:
    """Alice clicks ``move`` on ``message`` at ``process``; ``twice``: Discord delivers the
    same interaction (same id and token) a second time."""
    state: Any = process.bot._connection
    delivered: list[Any] = []
    parse = state.parse_interaction_create

    def capture(payload: Any) -> None:
        delivered.append(payload)
        parse(payload)

    state.parse_interaction_create = capture
    try:
        record = await process.h.click(ALICE, message, move[0], move[1], settle=False)
    finally:
        state.parse_interaction_create = parse
    if twice:
        parse(delivered[0])
    return record


@pytest.fixture
async def database(pg_server: str) -> AsyncIterator[str]:
    async with fresh_database(pg_server) as url:
        yield url


async def test_a_shard_1_process_of_its_own_gets_the_dm_clicks_shard_0_receives_once(
    database: str,
) -> None:
    url = database
    clock = FakeClock()
    zero = await start_process(url, clock, FakeDiscord(), 0, GUILD_ZERO, CHANNEL_ZERO,
                               BOARD_ZERO, "shard-0", itertools.count(11))  # fmt: skip
    one = await ChildProcess.start(url, 1, GUILD_ONE, CHANNEL_ID, OTHER_CHANNEL_ID, "shard-1",
                                   seed=21, snowflake_base=2_000_000_000_000_000_000)  # fmt: skip
    try:
        local = [zero]

        async def advance(seconds: float) -> None:
            await zero.h.advance(seconds)
            await one.ask("advance", seconds=seconds)
            await settle_all(local, [one], url)

        # Alice's table is in shard 1's guild, so in the child; Bob's is ours.
        for user, create in ((ALICE, one.ask), (BOB, None)):
            for name, options in (
                ("table create", [option("variant", "taizhou"), option("rounds", 1)]),
                ("table start", []),
            ):
                if create is not None:
                    await create("command", user=user, name=name, options=options)
                else:
                    await zero.h.command(user, name, options)
        await advance(2)
        alice_table = (await one.ask("table", user=ALICE))["table"]
        assert alice_table is not None and alice_table["status"] == "running"
        bob_table = zero.bot.manager.table_of_user(BOB)
        assert bob_table is not None and bob_table.status == "running"
        assert zero.bot.manager.get(alice_table["id"]) is None  # not this process's table

        clicks: list[int] = []
        store = zero.store
        for _ in range(2000):
            alice_paid = await store.settled_hands(alice_table["id"])
            bob_paid = await store.settled_hands(bob_table.table_id)
            if alice_paid and bob_paid:
                break
            moved = False
            copied = (await one.ask("latest_dm", user=ALICE))["message"]
            if copied is not None:
                message = mirror_dm(zero.h.remote, ALICE, copied)
                move = choose_move(message)
                if move is not None:
                    record = await click(zero, message, move, twice=not clicks)
                    clicks.append(record.id)
                    moved = True
            message_bob = zero.h.latest_dm(BOB)
            move_bob = choose_move(message_bob) if message_bob is not None else None
            if message_bob is not None and move_bob is not None:
                await zero.h.click(BOB, message_bob, move_bob[0], move_bob[1], settle=False)
                moved = True
            await settle_all(local, [one], url)
            await advance(1.0 if moved else 2.0)
        else:
            raise AssertionError("no hand was settled at both tables")

        assert clicks, "Alice never clicked"
        connection = await asyncpg.connect(url)
        try:
            rows = await connection.fetch(
                "SELECT interaction_id, shard_id, applied_at FROM routed_interactions"
            )
        finally:
            await connection.close()
        # Every click of Alice's went through the database to shard 1's process, once
        # (the redelivered one too), and each was applied there.
        assert sorted(row["interaction_id"] for row in rows) == sorted(clicks)
        assert all(row["shard_id"] == 1 and row["applied_at"] is not None for row in rows)
        assert zero.h.failed_interactions() == []
        # Each was acknowledged here in time (deferred), and the owner never answered one
        # through its token: a second application would have been refused as stale.
        for record_id in clicks:
            record = zero.h.remote.interactions[record_id]
            assert record.callback_type == 6 and zero.h.reply_text(record) == ""
        assert (await one.ask("followups"))["followups"] == []

        # One ledger: both guilds' hands in the one database.
        for guild, table_id in ((GUILD_ONE, alice_table["id"]), (GUILD_ZERO, bob_table.table_id)):
            paid = await store.settled_hands(table_id)
            entries = await store.hand_entries(table_id, min(paid))
            assert entries and sum(entry.points for entry in entries) == 0
            assert all(entry.guild_id == guild for entry in entries)
        assert await store.verify_balances() == []
    finally:
        await one.stop()
        await zero.h.close()
        await zero.store.close()


async def test_the_weekly_board_goes_out_once_with_two_processes_of_one_shard_racing(
    database: str,
) -> None:
    """A rolling restart: the old and the new process of shard 0 (two OS processes) run
    the weekly check at the same moment; shard 1 (this process) runs its own."""
    url = database
    clock = FakeClock()
    one = await start_process(url, clock, FakeDiscord(), 1, GUILD_ONE, CHANNEL_ID,
                              OTHER_CHANNEL_ID, "shard-1", itertools.count(11))  # fmt: skip
    children: list[ChildProcess] = []
    try:
        await settle_last_week_in_both_guilds(one.store, one.bot.now())
        children = list(
            await asyncio.gather(
                *(
                    ChildProcess.start(
                        url,
                        0,
                        GUILD_ZERO,
                        CHANNEL_ZERO,
                        BOARD_ZERO,
                        name,
                        seed=31 + k,
                        snowflake_base=(2 + k) * 10**18,
                    )
                    for k, name in enumerate(("shard-0-old", "shard-0-new"))
                )
            )
        )
        # Every process also has the other shard's guild in its cache (as a stale cache
        # might): only the owner posts there.
        for child in children:
            await child.ask(
                "see_guild", guild=GUILD_ONE, channel=CHANNEL_ID, board=OTHER_CHANNEL_ID
            )
        state: Any = one.bot._connection
        state._add_guild_from_data(guild_payload(USERS, GUILD_ZERO, CHANNEL_ZERO, BOARD_ZERO))

        old, new, own_posts = await asyncio.gather(
            children[0].ask("weekly"), children[1].ask("weekly"), one.bot.post_weekly_leaderboards()
        )
        assert sorted([old["posted"], new["posted"]]) == [0, 1]
        assert own_posts == 1
        # And once more later: already marked done, nobody posts again.
        assert [(await child.ask("weekly"))["posted"] for child in children] == [0, 0]
        assert await one.bot.post_weekly_leaderboards() == 0

        board_zero = [post for child in children
                      for post in (await child.ask("posts", channel=BOARD_ZERO))["posts"]]  # fmt: skip
        assert len(board_zero) == 1 and "+20" in board_zero[0]
        for child in children:
            assert (await child.ask("posts", channel=OTHER_CHANNEL_ID))["posts"] == []
        own = one.h.channel_messages(OTHER_CHANNEL_ID)
        assert len(own) == 1 and "+20" in own[0].payload["content"]
    finally:
        for child in children:
            await child.stop()
        await one.h.close()
        await one.store.close()
