"""A table in its own thread (issue 13, item 6), through the offline harness.

``/table create`` posts a short message in the channel and starts a thread from it; the
lobby, the live table message and the results live in the thread, several tables share a
channel, the final standings reach the channel too, and without the thread permissions
(or when Discord refuses the thread) the table opens in the channel as before.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import discord
from discord_harness import (
    CHANNEL_ID,
    GUILD_ID,
    MANAGE_THREADS,
    FakeDiscord,
    Harness,
    StoredMessage,
    TagRenderer,
    option,
)
from test_discord_bot import ALICE, BOB, CAROL, USERS, Env, play_turn, stop_bot

from bot.app import MahjongBot
from bot.session import FakeClock, TableSession
from data import Store

THREADS = "/channels/{channel_id}/messages/{message_id}/threads"


async def start(
    path: Path,
    *,
    threads: bool = True,
    clock: FakeClock | None = None,
    remote: FakeDiscord | None = None,
) -> Env:
    clock = clock or FakeClock()
    store = await Store.open(path)
    bot = MahjongBot(store, clock=clock, renderer=TagRenderer(),  # type: ignore[arg-type]
                     ai_delay=0.0, leaderboard_interval=None, seeds=itertools.count(7))  # fmt: skip
    harness = Harness(bot, USERS, clock, remote=remote, threads=threads)
    await harness.start()
    return Env(harness, bot, store, clock)


def table_messages(env: Env, channel_id: int) -> list[StoredMessage]:
    """Messages in ``channel_id`` that are a table message (they carry the table image)."""
    return [
        m for m in env.h.channel_messages(channel_id)
        if any(data.startswith(b"TABLE") for _, data in m.files)
    ]  # fmt: skip


def results_in(env: Env, channel_id: int) -> list[StoredMessage]:
    return [
        m for m in env.h.channel_messages(channel_id)
        if any(data.startswith(b"RESULT") for _, data in m.files)
    ]  # fmt: skip


async def create(env: Env, user: int, *options: dict[str, object]) -> TableSession:
    await env.h.command(user, "table create", [option("variant", "taizhou"), *options])
    table = env.bot.manager.table_of_user(user)
    assert table is not None
    return table


async def run_on_autoplay(env: Env, *tables: TableSession) -> None:
    """Every human seat on autoplay; advance the clock until every table has finished."""
    for table in tables:
        for seat in table.players:
            if seat.user_id is not None and not seat.is_ai:
                assert (await table.autoplay(seat.user_id)).ok
    for _ in range(3000):
        if all(table.status != "running" for table in tables):
            break
        await env.h.advance(2)
    assert all(table.status == "finished" for table in tables)
    await env.h.advance(4)


async def test_a_table_runs_in_its_own_thread(tmp_path: Path) -> None:
    env = await start(tmp_path / "bot.db")
    h = env.h
    try:
        record = await h.command(ALICE, "table create", [option("variant", "taizhou")])
        table = env.bot.manager.table_of_user(ALICE)
        assert table is not None
        # A short starter message in the channel, a thread started from it.
        [starter] = h.channel_messages(CHANNEL_ID)
        assert "alice" in starter.payload["content"] and not starter.components
        [thread] = h.remote.threads.values()
        assert (thread.id, thread.parent_id) == (starter.id, CHANNEL_ID)
        assert len(thread.name) <= 100 and "alice" in thread.name
        assert table.channel_id == thread.id
        assert f"<#{thread.id}>" in h.reply_text(record)
        # discord.py learnt the thread from THREAD_CREATE, as on a real gateway.
        cached = env.bot.get_channel(thread.id)
        assert isinstance(cached, discord.Thread) and cached.parent_id == CHANNEL_ID
        # The lobby lives in the thread; joining works there, by command and by button.
        [lobby] = h.channel_messages(thread.id)
        # The starter names the rule set as the lobby does (it said "Taizhou" above a
        # lobby of "Taizhou Mahjong").
        assert "台州麻将" in starter.payload["content"]
        assert "Taizhou Mahjong" in starter.payload["content"]
        await h.command(BOB, "table join", channel_id=thread.id)
        await h.click(CAROL, lobby, f"mj:t:{table.table_id}:join")
        assert {p.user_id for p in table.players} == {ALICE, BOB, CAROL}
        await h.command(ALICE, "table start", channel_id=thread.id)
        await h.advance(2)
        assert table.status == "running"
        # The live table (image and buttons) is in the thread; nothing of it in the channel.
        [live] = table_messages(env, thread.id)
        assert h.channel_messages(CHANNEL_ID) == [starter]
        for request in h.remote.requests:
            if any(data.startswith(b"TABLE") for _, data in request.files):
                assert request.audience is not None
                assert request.audience.channel_id == thread.id
        # Each DM hand opens the thread, where the others' moves show.
        hand = h.latest_dm(ALICE)
        assert hand is not None
        assert f"https://discord.com/channels/{GUILD_ID}/{thread.id}" in hand.payload["content"]
        # A button in the thread answers (the interaction carries a type-11 channel).
        before = len(h.ephemeral_messages(BOB))
        await h.click(BOB, live, f"mj:t:{table.table_id}:hand")
        assert len(h.ephemeral_messages(BOB)) == before + 1
        assert (
            await play_turn(env, ALICE) or await play_turn(env, BOB) or await play_turn(env, CAROL)
        )
        assert h.failed_interactions() == []
    finally:
        await stop_bot(env)


async def test_two_tables_in_one_channel_run_concurrently_and_settle_independently(
    tmp_path: Path,
) -> None:
    env = await start(tmp_path / "bot.db")
    h = env.h
    try:
        first = await create(env, ALICE, option("seats", 2), option("rounds", 1))
        second = await create(env, BOB, option("seats", 2), option("rounds", 1))
        assert first.channel_id != second.channel_id
        assert {t.parent_id for t in h.remote.threads.values()} == {CHANNEL_ID}
        # In the channel itself, a command that needs one table names both threads.
        record = await h.command(CAROL, "table join")
        text = h.reply_text(record)
        assert f"<#{first.channel_id}>" in text and f"<#{second.channel_id}>" in text
        assert env.bot.manager.table_of_user(CAROL) is None
        # Inside a thread, the command finds that thread's table.
        await h.command(CAROL, "table join", channel_id=second.channel_id)
        assert second.is_member(CAROL) and not first.is_member(CAROL)
        await h.command(ALICE, "table start", channel_id=first.channel_id)
        await h.command(BOB, "table start", channel_id=second.channel_id)
        await h.advance(2)
        assert first.status == second.status == "running"
        await run_on_autoplay(env, first, second)

        for table in (first, second):
            assert table.match is not None
            hands = len(table.match.results)
            # Results in the table's own thread only.
            assert len(results_in(env, table.channel_id)) == hands >= 1
            # Every hand settled once, in that table's own game.
            assert await env.store.settled_hands(table.table_id) == set(range(hands))
        assert results_in(env, CHANNEL_ID) == []
        for user in (ALICE, BOB, CAROL):
            history = await env.store.history(GUILD_ID, user, limit=100)
            balance = await env.store.get_balance(GUILD_ID, user)
            assert balance == 1000 + sum(entry.points for entry in history)
        # Each table's standings reached the channel, naming its thread.
        parent = [m.payload["content"] for m in h.channel_messages(CHANNEL_ID)]
        for table in (first, second):
            assert any(f"<#{table.channel_id}>" in c and "整场结束" in c for c in parent)
    finally:
        await stop_bot(env)


async def test_results_post_in_the_thread_and_the_table_message_stays_latest(
    tmp_path: Path,
) -> None:
    env = await start(tmp_path / "bot.db")
    h = env.h
    try:
        table = await create(env, ALICE, option("rounds", 2))
        await h.command(ALICE, "table start", channel_id=table.channel_id)
        assert table.match is not None
        for _ in range(1000):  # Alice plays from her DM hand until a hand ends
            if table.match.results:
                break
            await play_turn(env, ALICE)
            await h.advance(1.6)
        await h.advance(2)
        assert table.status == "running" and results_in(env, table.channel_id)
        thread_messages = h.channel_messages(table.channel_id)
        # One live table message, and it is below the result: nothing scrolls it away.
        [live] = table_messages(env, table.channel_id)
        assert thread_messages[-1] is live
        assert any(cid.startswith("mj:t:") for cid in live.custom_ids())
        assert (
            thread_messages.index(results_in(env, table.channel_id)[-1]) < len(thread_messages) - 1
        )
        # The old table message was deleted (with the bot token, in the thread).
        deletes = [r for r in h.remote.requests
                   if r.method == "DELETE" and r.audience is not None
                   and r.audience.channel_id == table.channel_id]  # fmt: skip
        assert deletes
    finally:
        await stop_bot(env)


async def test_final_standings_post_in_the_parent_channel(tmp_path: Path) -> None:
    env = await start(tmp_path / "bot.db")
    h = env.h
    try:
        table = await create(env, ALICE, option("seats", 2), option("rounds", 1))
        await h.command(ALICE, "table start", channel_id=table.channel_id)
        await run_on_autoplay(env, table)
        starter, standings = h.channel_messages(CHANNEL_ID)
        assert starter.id == table.channel_id  # the thread was started from it
        assert f"<#{table.channel_id}>" in standings.payload["content"]
        assert "整场结束" in standings.payload["content"]
        # In the thread too, and the finished table message carries no buttons.
        assert any("整场结束" in m.payload["content"] for m in h.channel_messages(table.channel_id))
        [final] = table_messages(env, table.channel_id)
        assert final.components == []
        # The standings and their Rematch button end the thread: the finished table is
        # not sent again below them, and it no longer says who is on autoplay.
        in_thread = h.channel_messages(table.channel_id)
        assert "整场结束" in in_thread[-1].payload["content"] and in_thread[-1] is not final
        assert any(cid.startswith("mj:rm:") for cid in in_thread[-1].custom_ids())  # Rematch
        assert in_thread.index(final) < in_thread.index(results_in(env, table.channel_id)[-1])
        assert "托管" not in final.payload["content"], final.payload["content"]
        # The finished table's thread is archived, after everything was posted in it.
        assert h.remote.threads[table.channel_id].archived
    finally:
        await stop_bot(env)


async def test_without_manage_threads_a_finished_thread_is_left_open(tmp_path: Path) -> None:
    """Manage Threads is optional: the archive is refused (403) and nothing else changes."""
    env = await start(tmp_path / "bot.db")
    h = env.h
    h.remote.bot_permissions &= ~MANAGE_THREADS
    try:
        table = await create(env, ALICE, option("seats", 2), option("rounds", 1))
        await h.command(ALICE, "table start", channel_id=table.channel_id)
        await run_on_autoplay(env, table)
        assert not h.remote.threads[table.channel_id].archived
        refused = [r for r in h.remote.requests if r.path == "/channels/{channel_id}"]
        assert [r.status for r in refused] == [403]  # tried once, not retried
        [final] = table_messages(env, table.channel_id)
        assert final.components == []
        assert len(h.channel_messages(CHANNEL_ID)) == 2  # starter and standings
    finally:
        await stop_bot(env)


async def test_without_thread_permission_the_table_opens_in_the_channel(tmp_path: Path) -> None:
    env = await start(tmp_path / "bot.db", threads=False)
    h = env.h
    try:
        table = await create(env, ALICE)
        assert table.channel_id == CHANNEL_ID
        assert not h.remote.threads
        # No request was spent on a thread the permissions rule out.
        assert not [r for r in h.remote.requests if r.path == THREADS]
        [lobby] = h.channel_messages(CHANNEL_ID)
        assert any(cid.endswith(":join") for cid in lobby.custom_ids())
    finally:
        await stop_bot(env)


async def test_a_second_table_without_threads_says_what_would_allow_it(
    tmp_path: Path,
) -> None:
    """The channel holds a table and the bot may not start threads: the refusal said only
    这个频道已经有一张桌了; it names the permissions (as the client names them) and the
    other way, another channel."""
    env = await start(tmp_path / "bot.db", threads=False)
    h = env.h
    try:
        await create(env, ALICE)
        record = await h.command(BOB, "table create", [option("variant", "taizhou")])
        assert h.reply_text(record) == (
            "这个频道已经有一张桌了。请换个频道开桌；或者让管理员给机器人这些权限："
            "创建公开子区（Create Public Threads）、在子区中发送消息（Send Messages in Threads），"
            "之后每桌都在自己的子区里，一个频道可以开多桌。"
        )
        record = await h.command(BOB, "table create", locale="en-US")
        assert h.reply_text(record) == (
            "This channel already has an open table. Open yours in another channel, or ask an "
            "admin to give the bot Create Public Threads, Send Messages in Threads: each table "
            "then gets its own thread, and one channel holds several."
        )
        assert env.bot.manager.table_of_user(BOB) is None and len(env.bot.manager.tables) == 1
    finally:
        await stop_bot(env)


async def test_a_refused_thread_falls_back_to_the_channel(tmp_path: Path) -> None:
    """The permissions say yes, Discord says 403 / 50013 (an overwrite on the channel):
    the starter message is removed and the table opens in the channel."""
    env = await start(tmp_path / "bot.db")
    h = env.h
    try:
        h.remote.fail_next("POST", THREADS, 403, code=50013)
        record = await h.command(ALICE, "table create", [option("variant", "taizhou")])
        table = env.bot.manager.table_of_user(ALICE)
        assert table is not None and table.channel_id == CHANNEL_ID
        assert not h.remote.threads
        [lobby] = h.channel_messages(CHANNEL_ID)  # the starter is gone, the lobby is here
        assert any(cid.endswith(":join") for cid in lobby.custom_ids())
        assert "<#" not in h.reply_text(record)
        await h.command(BOB, "table join")
        assert table.is_member(BOB)
    finally:
        await stop_bot(env)


async def test_create_inside_a_table_thread_opens_no_thread_in_it(tmp_path: Path) -> None:
    """A thread cannot hold threads: typed in a table's thread, create is refused as in a
    busy channel, and nothing is posted."""
    env = await start(tmp_path / "bot.db")
    h = env.h
    try:
        table = await create(env, ALICE)
        requests = len(h.remote.requests)
        record = await h.command(BOB, "table create", channel_id=table.channel_id)
        assert env.bot.manager.table_of_user(BOB) is None
        assert h.reply_text(record) == (
            "这个子区已经有一张桌了：请回到频道里用 `/牌桌 开桌` 开新桌（每桌一个子区）。"
        )
        assert all(r.interaction_id == record.id for r in h.remote.requests[requests:])
    finally:
        await stop_bot(env)


async def test_a_refused_create_posts_nothing_in_the_channel(tmp_path: Path) -> None:
    """A host already seated elsewhere is refused before a starter or thread is made."""
    env = await start(tmp_path / "bot.db")
    h = env.h
    try:
        await create(env, ALICE)
        before = (len(h.channel_messages(CHANNEL_ID)), len(h.remote.threads))
        record = await h.command(ALICE, "table create", [option("variant", "jiaxing")])
        assert "已经" in h.reply_text(record) or "already" in h.reply_text(record)
        assert (len(h.channel_messages(CHANNEL_ID)), len(h.remote.threads)) == before
        assert len(env.bot.manager.tables) == 1
    finally:
        await stop_bot(env)


async def test_a_player_seated_at_one_table_is_pointed_to_it(tmp_path: Path) -> None:
    """Refused a second seat (join in another table's thread, the lobby's Join, or
    create), a player was told only 你已经在另一张桌上: now with a link to their table."""
    env = await start(tmp_path / "bot.db")
    h = env.h
    try:
        mine = await create(env, ALICE)
        other = await create(env, BOB)
        link = f"<#{mine.channel_id}>"
        record = await h.command(ALICE, "table join", channel_id=other.channel_id)
        assert h.reply_text(record) == f"你已经在另一张桌上：{link}"
        [lobby] = [m for m in h.channel_messages(other.channel_id) if m.component("mj:t:")]
        clicked = await h.click(ALICE, lobby, f"mj:t:{other.table_id}:join", locale="en-US")
        assert h.reply_text(clicked) == f"You are already seated at another table: {link}"
        record = await h.command(ALICE, "table create", [option("variant", "jiaxing")])
        assert h.reply_text(record) == f"你已经在另一张桌上：{link}"
        assert not other.is_member(ALICE) and len(env.bot.manager.tables) == 2
    finally:
        await stop_bot(env)


async def test_a_restart_brings_a_thread_table_back_into_its_thread(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    first = await start(path)
    table = await create(first, ALICE, option("seats", 2), option("rounds", 1))
    thread_id, table_id = table.channel_id, table.table_id
    await first.h.command(BOB, "table join", channel_id=thread_id)
    await first.h.command(ALICE, "table start", channel_id=thread_id)
    await first.h.advance(2)
    [live] = table_messages(first, thread_id)
    remote = first.h.remote
    await stop_bot(first)

    second = await start(path, clock=FakeClock(first.clock.now() + 5), remote=remote)
    h = second.h
    try:
        restored = second.bot.manager.get(table_id)
        assert restored is not None and restored.channel_id == thread_id
        assert second.bot.manager.parent_of(table_id) == CHANNEL_ID
        await h.advance(2)
        # The same table message in the thread was edited; nothing went to the channel.
        assert table_messages(second, thread_id) == [live]
        assert "重启" in live.payload["content"]
        assert len(h.channel_messages(CHANNEL_ID)) == 1  # the starter
        # A command in the channel finds its one table; then the match ends, with its
        # standings in the channel (the presenter knows the parent after the restart).
        record = await h.command(BOB, "table status")
        assert h.reply_text(record) and "没有牌桌" not in h.reply_text(record)
        await run_on_autoplay(second, restored)
        assert any(f"<#{thread_id}>" in m.payload["content"]
                   for m in h.channel_messages(CHANNEL_ID))  # fmt: skip
    finally:
        await stop_bot(second)


async def test_a_thread_archived_while_the_bot_was_down_is_reopened(tmp_path: Path) -> None:
    """Discord archives a silent thread after a day: after such a restart the edit of the
    table message is refused (50083), so the table is sent anew, which reopens the thread."""
    path = tmp_path / "bot.db"
    first = await start(path)
    table = await create(first, ALICE, option("seats", 2))
    await first.h.command(ALICE, "table start", channel_id=table.channel_id)
    await first.h.advance(2)
    [old] = table_messages(first, table.channel_id)
    remote = first.h.remote
    await stop_bot(first)
    remote.threads[table.channel_id].archived = True

    second = await start(path, clock=FakeClock(first.clock.now() + 86_400), remote=remote)
    try:
        await second.h.advance(2)
        assert not remote.threads[table.channel_id].archived
        [live] = table_messages(second, table.channel_id)
        assert live.id != old.id and "重启" in live.payload["content"]
        assert second.h.channel_messages(table.channel_id)[-1] is live
    finally:
        await stop_bot(second)
