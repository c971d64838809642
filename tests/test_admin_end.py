"""``/mjadmin end``: a server manager ends any table of the server from anywhere (a
table stuck where they cannot go, one left running by an absent host): picked by the id
``/mjadmin tables`` lists (autocomplete offers the open ones), asked first with a button
only they may press while it is fresh, free for everyone (the hand in play is not paid),
and the table's channel is told who ended it. A wrong or finished table changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import (
    ADMIN_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    Harness,
    offline_bot,
    option,
)

from bot.cogs import admin
from bot.session import TableSession

HOST = 800_000_000_000_000_301
GUEST = 800_000_000_000_000_302
MANAGER = 800_000_000_000_000_303
OTHER_MANAGER = 800_000_000_000_000_304
USERS = {
    HOST: ("庄家老李", DEFAULT_PERMISSIONS),
    GUEST: ("Guest", DEFAULT_PERMISSIONS),
    MANAGER: ("Manager", ADMIN_PERMISSIONS),
    OTHER_MANAGER: ("Mod", ADMIN_PERMISSIONS),
}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=301, threads=True) as harness:
        yield harness


async def _running(h: Harness, *players: int) -> TableSession:
    """A table of ``players`` (the first hosts; AI fill) with a hand under way."""
    await h.command(players[0], "table create", [option("variant", "jiaxing")])
    table = h.bot.manager.table_of_user(players[0])
    assert table is not None
    for player in players[1:]:
        await h.command(player, "table join", channel_id=table.channel_id)
    await h.command(players[0], "table start", channel_id=table.channel_id)
    assert table.match is not None
    for _ in range(200):  # nobody moves: the AI seats and timeouts do
        if table.match.round.actions:
            break
        await h.advance(5)
    assert table.status == "running" and table.match.round.actions
    return table


async def _balances(h: Harness, *users: int) -> list[int]:
    return [await h.bot.store.get_balance(GUILD_ID, user) for user in users]


async def test_a_manager_ends_a_table_elsewhere_after_confirming_and_nobody_pays(
    h: Harness,
) -> None:
    table = await _running(h, HOST, GUEST)
    before = await _balances(h, HOST, GUEST)

    # Autocomplete offers the open tables by the id the list shows.
    choices = await h.autocomplete(
        MANAGER, "mjadmin end", [option("table", "", focused=True)], locale="en-US"
    )
    assert [choice["value"] for choice in choices] == [table.table_id]
    assert choices[0]["name"].endswith(f" · {table.table_id}") and len(choices[0]["name"]) <= 100
    assert "Jiaxing" in choices[0]["name"] and "Guest" in choices[0]["name"]
    none = await h.autocomplete(MANAGER, "mjadmin end", [option("table", "zzz", focused=True)])
    assert none == []

    # Asked first, from a channel that is not the table's; nothing happens yet.
    asked = await h.command(
        MANAGER, "mjadmin end", [option("table", f"`{table.table_id}`")],
        channel_id=OTHER_CHANNEL_ID, locale="en-US",
    )  # fmt: skip
    question = h.reply_text(asked)
    assert question.startswith("End this table?") and table.table_id in question
    assert "the hand in play is not paid" in question and "Nobody pays a penalty" in question
    assert table.status == "running"
    message = h.ephemeral_messages(MANAGER)[-1]
    (confirm,) = message.custom_ids()
    assert confirm.startswith(f"mj:me:{table.table_id}:{MANAGER}:")
    await h.command(MANAGER, "mjadmin end", [option("table", table.table_id)])
    asked_twice = h.ephemeral_messages(MANAGER)[-1]  # a second question, left open

    # Another manager's press and a stale press are refused; the table plays on.
    other = await h.click(OTHER_MANAGER, message, confirm, locale="en-US")
    assert "another manager" in h.reply_text(other)
    assert table.status == "running" and message.components

    await h.click(MANAGER, message, confirm)
    assert table.status == "closed" and not message.components
    assert message.payload["content"] == f"已结束牌桌 `{table.table_id}`。"
    game = await h.bot.store.get_game(table.table_id)
    assert game is not None and game.status == "abandoned"
    assert game.meta["ended_by"] == MANAGER
    assert await _balances(h, HOST, GUEST) == before  # free for everyone
    for user in (HOST, GUEST, MANAGER):
        assert await h.bot.store.history(GUILD_ID, user, kinds=("penalty",)) == []
    await h.advance(2)
    shown = "\n".join(m.payload["content"] for m in h.channel_messages(table.channel_id))
    assert "管理员 Manager 结束了牌局；这一局不结算" in shown
    assert "Manager, a server manager, ended the table" in shown

    # The second question, pressed now, or the finished table named again: nothing
    # changes, and the manager is told so.
    late = await h.click(MANAGER, asked_twice, asked_twice.custom_ids()[0])
    assert late.message_id == asked_twice.id and not asked_twice.components
    assert asked_twice.payload["content"] == "这张牌桌已经结束了。"
    assert game.meta == (await h.bot.store.get_game(table.table_id)).meta  # type: ignore[union-attr]
    assert await _balances(h, HOST, GUEST) == before
    again = await h.command(MANAGER, "mjadmin end", [option("table", table.table_id)])
    assert h.reply_text(again) == (
        f"本服务器没有开着的牌桌“{table.table_id}”（编号见 `/麻将管理 牌桌`）"
    )


async def test_a_stale_confirmation_is_refused(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A question asked longer ago than CONFIRM_TTL minutes (the table may have changed
    hands since): its press is refused. The question is dated back rather than the clock
    run on, which would close the unattended table itself."""
    table = await _running(h, HOST, GUEST)
    now = admin._minutes
    with monkeypatch.context() as patch:
        patch.setattr(admin, "_minutes", lambda bot: now(bot) - admin.CONFIRM_TTL - 1)
        await h.command(MANAGER, "mjadmin end", [option("table", table.table_id)])
    message = h.ephemeral_messages(MANAGER)[-1]
    (confirm,) = message.custom_ids()
    record = await h.click(MANAGER, message, confirm)
    assert h.reply_text(record) == "这个确认已过期，请重新使用命令。"
    assert table.status == "running" and message.components


async def test_wrong_tables_and_wrong_people_change_nothing(h: Harness) -> None:
    await h.command(HOST, "table create", [option("variant", "jiaxing")])
    lobby = h.bot.manager.table_of_user(HOST)
    assert lobby is not None

    refused = await h.command(HOST, "mjadmin end", [option("table", lobby.table_id)])
    assert "管理服务器" in h.reply_text(refused)  # not a manager
    assert await h.autocomplete(HOST, "mjadmin end", [option("table", "", focused=True)]) == []

    # Discord does not enforce autocomplete: anything may arrive.
    for typed in ("nosuchtable", "<#123456789012345678>", "12345678901234567"):
        record = await h.command(MANAGER, "mjadmin end", [option("table", typed)], locale="en-US")
        assert h.reply_text(record).startswith("No open table “")
    # Its first characters name it, as /replay and /mjadmin void take a game's: four at
    # least (fewer could name any table), and one table only.
    for typed, named in ((lobby.table_id[:5], True), (lobby.table_id[:3], False)):
        record = await h.command(MANAGER, "mjadmin end", [option("table", typed)])
        assert h.reply_text(record).startswith(
            "关闭这个大厅？" if named else "本服务器没有开着的牌桌"
        )
    # Another server's table is not this server's to end.
    lobby.guild_id += 1
    try:
        record = await h.command(MANAGER, "mjadmin end", [option("table", lobby.table_id)])
        assert "本服务器没有开着的牌桌" in h.reply_text(record)
    finally:
        lobby.guild_id -= 1
    assert lobby.status == "lobby"

    # The channel link the list shows names the table too; a lobby is closed, not "paid".
    asked = await h.command(MANAGER, "mjadmin end", [option("table", f"<#{lobby.channel_id}>")])
    assert h.reply_text(asked).startswith("关闭这个大厅？")
    message = h.ephemeral_messages(MANAGER)[-1]
    await h.click(MANAGER, message, message.custom_ids()[0])
    assert lobby.status == "closed"
    await h.advance(2)
    shown = "\n".join(m.payload["content"] for m in h.channel_messages(lobby.channel_id))
    assert "管理员 Manager 关闭了牌桌" in shown


async def test_a_manager_seated_at_the_hand_is_sent_to_table_end(h: Harness) -> None:
    """From their own seat it would be a free escape from a losing hand."""
    table = await _running(h, MANAGER, GUEST)
    record = await h.command(
        MANAGER, "mjadmin end", [option("table", table.table_id)], channel_id=OTHER_CHANNEL_ID
    )
    assert "请在牌桌里用 `/牌桌 结束`" in h.reply_text(record)
    assert not h.ephemeral_messages(MANAGER)[-1].custom_ids()
    assert table.status == "running"
