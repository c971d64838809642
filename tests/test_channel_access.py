"""A channel the bot cannot post in, or that is gone.

``/table create`` says which permissions are missing (as the Discord client names them)
instead of opening a table nobody can see, and so does setting a leaderboard channel; a
table whose channel loses them mid-match plays on by DM and shows again once they are
back. A table whose channel or thread is deleted (or whose server removed the bot) ends,
and its players' DM hands say why.

The fake Discord refuses what Discord refuses: a post without View Channel and Send
Messages (Send Messages in Threads in a thread), a file without Attach Files (403, 50013),
anything in a deleted channel (404, 10003).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
from discord_harness import (
    ADMIN_PERMISSIONS,
    ATTACH_FILES,
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    SEND_MESSAGES,
    THREAD_PERMISSIONS,
    VIEW_CHANNEL,
    Harness,
    choose_move,
    offline_bot,
    option,
)

from data import SettlementEntry

HOST = 800_000_000_000_000_051
GUEST = 800_000_000_000_000_052
ADMIN = 800_000_000_000_000_053
USERS = {
    HOST: ("庄家老李", DEFAULT_PERMISSIONS),
    GUEST: ("Guest", DEFAULT_PERMISSIONS),
    ADMIN: ("Admin", ADMIN_PERMISSIONS),
}
# Everything but Administrator (which would grant all) and the thread permissions.
ALL_BUT_ADMIN = ADMIN_PERMISSIONS & ~discord.Permissions.administrator.flag & ~THREAD_PERMISSIONS


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=31) as h:
        h.remote.bot_permissions = ALL_BUT_ADMIN
        yield h


def _channel_posts(h: Harness) -> list[int]:
    """Status codes of the bot's posts to guild channels (not DMs, not interactions)."""
    return [
        request.status
        for request in h.remote.requests
        if request.method == "POST"
        and request.url.endswith("/messages")
        and request.audience is not None
        and request.audience.kind == "channel"
    ]


async def _play(h: Harness, table: Any, done: Callable[[], bool]) -> bool:
    """Both players make the simple move on each prompt (the clock moving as they think)
    until ``done()``; whether it got there."""
    for _ in range(1500):
        if done():
            return True
        moved = False
        for user in (HOST, GUEST):
            hand = h.latest_dm(user)
            move = choose_move(hand) if hand is not None else None
            if move is not None and hand is not None and table.prompt_for(user) is not None:
                await h.click(user, hand, move[0], move[1])
                moved = True
        await h.advance(0.2 if moved else 0.5)
    return done()


@pytest.mark.parametrize(
    ("lacking", "zh", "en"),
    [
        (SEND_MESSAGES, "发送消息（Send Messages）", "Send Messages"),
        (ATTACH_FILES, "附加文件（Attach Files）", "Attach Files"),
        (VIEW_CHANNEL | SEND_MESSAGES, "查看频道（View Channel）、发送消息", "View Channel, Send"),
    ],
)
async def test_a_table_is_not_opened_where_the_bot_cannot_post(
    harness: Harness, lacking: int, zh: str, en: str
) -> None:
    h = harness
    h.remote.bot_permissions = ALL_BUT_ADMIN & ~lacking
    refused = await h.command(HOST, "table create", locale="zh-CN")
    assert zh in h.reply_text(refused) and "换个频道" in h.reply_text(refused)
    english = await h.command(GUEST, "table create", locale="en-US")
    assert en in h.reply_text(english) and "another channel" in h.reply_text(english)
    assert h.bot.manager.by_channel(CHANNEL_ID) is None  # type: ignore[attr-defined]
    assert _channel_posts(h) == []  # nothing was tried, so nothing was refused
    # Granted again, the same command opens the table.
    h.remote.bot_permissions = ALL_BUT_ADMIN
    await h.command(HOST, "table create", locale="zh-CN")
    assert h.bot.manager.by_channel(CHANNEL_ID) is not None  # type: ignore[attr-defined]
    assert _channel_posts(h) and all(status == 200 for status in _channel_posts(h))


async def test_the_fake_refuses_a_post_the_bot_has_no_right_to(harness: Harness) -> None:
    """The refusals the check above spares the bot are real ones in the fake."""
    h = harness
    await h.command(HOST, "table create", locale="zh-CN")
    channel = h.bot.get_partial_messageable(CHANNEL_ID)
    h.remote.bot_permissions = ALL_BUT_ADMIN & ~ATTACH_FILES
    await channel.send("text only is fine")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("a picture is not", file=discord.File(__file__, "x.png"))
    assert refused.value.code == 50013
    h.remote.bot_permissions = ALL_BUT_ADMIN & ~SEND_MESSAGES
    with pytest.raises(discord.Forbidden):
        await channel.send("nor is text now")


async def test_a_match_plays_on_when_its_channel_is_closed_to_the_bot(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """An admin takes the bot's rights away mid-match: the players still get their hands
    by DM and every hand settles; the refused posts are not retried, the log says why
    once (a warning, not a crash) and each player reads it once with their next hand;
    with the rights back, the table shows again."""
    h = harness
    caplog.set_level(logging.WARNING)
    await h.command(HOST, "table create", locale="zh-CN")
    await h.command(GUEST, "table join", locale="en-US")
    await h.command(HOST, "table start", locale="zh-CN")
    table = h.bot.manager.by_channel(CHANNEL_ID)  # type: ignore[attr-defined]
    assert table is not None and table.match is not None
    h.remote.bot_permissions = ALL_BUT_ADMIN & ~(SEND_MESSAGES | ATTACH_FILES)
    assert await _play(h, table, lambda: len(table.match.results) >= 2)  # the match went on
    refused = [status for status in _channel_posts(h) if status == 403]
    assert 1 <= len(refused) <= 2 * len(table.match.results)  # no retry storm
    entries = await h.bot.store.hand_entries(table.table_id, 0)
    assert sum(entry.points for entry in entries) == 0 and entries  # the hand settled
    warned = [r for r in caplog.records if "refuses the bot's" in r.getMessage()]
    assert len(warned) == 1 and not [r for r in caplog.records if r.levelno >= logging.ERROR]
    for user, words in ((HOST, "不让我发消息"), (GUEST, "no longer lets me post")):
        told = [m for m in h.dm_messages(user) if words in (m.payload.get("content") or "")]
        said = [
            request
            for request in h.remote.requests
            if request.audience is not None
            and request.audience.kind == "dm"
            and request.audience.user_id == user
            and words in request.content
        ]
        assert told or said
        assert len({request.content for request in said}) == 1  # once, not with every hand
    h.remote.bot_permissions = ALL_BUT_ADMIN
    before = len(_channel_posts(h))
    await _play(h, table, lambda: len(_channel_posts(h)) > before and _channel_posts(h)[-1] == 200)
    assert _channel_posts(h)[-1] == 200


async def test_a_leaderboard_channel_the_bot_cannot_post_in_is_refused(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """``/mjadmin settings leaderboard_channel`` checks the bot's permissions in the
    chosen channel (the cache knows its overwrites); a channel closed later makes the
    weekly post a warning, and the board goes out once the permission is back."""
    h = harness
    caplog.set_level(logging.WARNING)
    board = [option("leaderboard_channel", str(OTHER_CHANNEL_ID), 7)]
    h.deny_bot_in(OTHER_CHANNEL_ID, ATTACH_FILES)
    refused = await h.command(ADMIN, "mjadmin settings", board, locale="zh-CN")
    assert "附加文件（Attach Files）" in h.reply_text(refused)
    assert f"<#{OTHER_CHANNEL_ID}>" in h.reply_text(refused)
    assert (await h.bot.store.get_settings(GUILD_ID)).leaderboard_channel is None
    english = await h.command(ADMIN, "mjadmin settings", board, locale="en-US")
    assert "without these permissions: Attach Files" in h.reply_text(english)
    h.deny_bot_in(OTHER_CHANNEL_ID, 0)
    await h.command(ADMIN, "mjadmin settings", board, locale="zh-CN")
    assert (await h.bot.store.get_settings(GUILD_ID)).leaderboard_channel == OTHER_CHANNEL_ID

    # Closed after it was set: the weekly post is refused, logged once as a warning.
    h.deny_bot_in(OTHER_CHANNEL_ID, SEND_MESSAGES)
    store, bot = h.bot.store, h.bot
    for user in (HOST, GUEST):  # the bot learns names from interactions
        await h.command(user, "balance")
    await store.create_game("g1", GUILD_ID, CHANNEL_ID, "taizhou", {}, [], 1, status="running")
    await store.settle_hand(
        GUILD_ID, "g1", 0,
        [SettlementEntry(0, HOST, 10, True), SettlementEntry(1, GUEST, -10)],
        stake=1, winner_user=HOST, when=bot.now() - timedelta(days=7),
    )  # fmt: skip
    assert await bot.post_weekly_leaderboards() == 0
    warned = [r for r in caplog.records if "refuses the bot's post" in r.getMessage()]
    assert len(warned) == 1 and not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # The admin is told where they look (it was only a log line): the week and the channel.
    week = (await store.week_bounds(GUILD_ID, 1, bot.now())).week_start.isoformat()
    shown = h.reply_text(await h.command(ADMIN, "mjadmin settings", locale="zh-CN"))
    assert shown.splitlines()[0].startswith(
        f"⚠ {week} 那一周的排行榜没能发到 <#{OTHER_CHANNEL_ID}>：机器人在那里缺少权限"
    )
    shown = h.reply_text(await h.command(ADMIN, "mjadmin settings", locale="en-US"))
    assert shown.startswith(f"⚠ The leaderboard of the week of {week} could not be posted in")
    h.deny_bot_in(OTHER_CHANNEL_ID, 0)
    assert await bot.post_weekly_leaderboards() == 1  # not lost: posted once it may
    assert len(h.channel_messages(OTHER_CHANNEL_ID)) == 1
    assert (await store.get_settings(GUILD_ID)).leaderboard_problem is None
    shown = h.reply_text(await h.command(ADMIN, "mjadmin settings", locale="zh-CN"))
    assert "⚠" not in shown


# ---------------------------------------------------------------------- a channel deleted


@pytest.mark.parametrize(
    "where", ["thread", "channel", "channel, bot not listening", "bot removed from the server"]
)
async def test_a_table_whose_channel_is_deleted_ends_and_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, where: str
) -> None:
    """An admin deletes a table's thread (or its channel) mid-match: the table ends as if
    the host had ended it (finished hands stay settled), each player's DM hand says why,
    nothing more is sent there and the players may sit at another table. Deleted while
    the bot was not listening, the first refused post (404 Unknown Channel) does the same;
    so does removing the bot from the server."""
    caplog.set_level(logging.WARNING)
    async with offline_bot(tmp_path, USERS, seed=41, threads=where == "thread") as h:
        await h.command(HOST, "table create", locale="zh-CN")
        await h.command(GUEST, "table join", locale="en-US")
        table = h.bot.manager.table_of_user(HOST)  # type: ignore[attr-defined]
        assert table is not None
        await h.command(HOST, "table start", locale="zh-CN", channel_id=table.channel_id)
        assert (table.channel_id != CHANNEL_ID) == (where == "thread")
        # A finished hand, and the next one in play.
        assert await _play(
            h, table, lambda: bool(table.match.results and table.match.round.actions)
        )
        entries = await h.bot.store.hand_entries(table.table_id, 0)
        if where == "bot removed from the server":
            h._dispatch_event("GUILD_DELETE", {"id": str(GUILD_ID)})
        else:
            h.delete_channel(table.channel_id, tell_the_bot=where != "channel, bot not listening")
        await h.settle()
        if where == "channel, bot not listening":  # play on until a post meets the 404
            await _play(h, table, lambda: table.status == "closed")
            await h.advance(2)
        assert h.bot.manager.table_of_user(HOST) is None  # type: ignore[attr-defined]
        assert table.status == "closed"
        removed = where == "bot removed from the server"
        said = ((HOST, "移出"), (GUEST, "removed from")) if removed else (
            (HOST, "已被删除"), (GUEST, "was deleted"))  # fmt: skip
        for user, words in said:
            hand = h.latest_dm(user)
            assert hand is not None and words in hand.payload["content"]
            assert not hand.components  # nothing left to press
        assert await h.bot.store.hand_entries(table.table_id, 0) == entries  # still settled
        for user in (HOST, GUEST):  # nobody chose this: nobody pays for the hand in play
            assert await h.bot.store.history(GUILD_ID, user, kinds=("penalty",)) == []
        sent = len(h.remote.requests)
        await h.advance(60)
        gone = [r for r in h.remote.requests[sent:] if f"/channels/{table.channel_id}/" in r.url]
        assert gone == []
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        if not removed:
            again = await h.command(HOST, "table create", locale="zh-CN")
            assert "已开桌" in h.reply_text(again)
