"""``/table kick``: the host takes a player out of the lobby before the start (someone
who joined and walked away would be dealt in and played by autoplay), and that player
cannot sit down at the same table again; anyone else, any other moment, is refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import CHANNEL_ID, DEFAULT_PERMISSIONS, Harness, offline_bot, option

HOST = 800_000_000_000_000_081
GUEST = 800_000_000_000_000_082
IDLE = 800_000_000_000_000_083
OUTSIDER = 800_000_000_000_000_084
USERS = {
    HOST: ("Host", DEFAULT_PERMISSIONS),
    GUEST: ("Guest", DEFAULT_PERMISSIONS),
    IDLE: ("走开的小王", DEFAULT_PERMISSIONS),
    OUTSIDER: ("Outsider", DEFAULT_PERMISSIONS),
}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=81, threads=False) as harness:
        yield harness


def _user(user_id: int) -> dict[str, object]:
    return option("user", str(user_id), 6)


async def test_the_host_removes_a_player_from_the_lobby_for_good(h: Harness) -> None:
    await h.command(HOST, "table create", [option("ai_fill", True)])
    for user in (GUEST, IDLE):
        await h.command(user, "table join")
    table = h.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and [p.user_id for p in table.players] == [HOST, GUEST, IDLE]

    refusals = {
        "只有房主": await h.command(GUEST, "table kick", [_user(IDLE)]),
        "`/牌桌 离开`": await h.command(HOST, "table kick", [_user(HOST)]),
        "不在这一桌": await h.command(HOST, "table kick", [_user(OUTSIDER)]),
    }
    for words, record in refusals.items():
        assert words in h.reply_text(record)
    assert [p.user_id for p in table.players] == [HOST, GUEST, IDLE]

    record = await h.command(HOST, "table kick", [_user(IDLE)], locale="en-US")
    assert h.reply_text(record) == "走开的小王 is no longer at the table."
    await h.advance(2)  # the lobby message's edit goes out
    assert [p.user_id for p in table.players] == [HOST, GUEST]
    assert await h.bot.store.seated_game(IDLE) is None
    channel = "\n".join(m.payload.get("content") or "" for m in h.channel_messages())
    assert "房主请 走开的小王 离开了牌桌" in channel
    lobby = next(m for m in h.channel_messages() if "🀄" in (m.payload.get("content") or ""))
    players = next(line for line in lobby.payload["content"].splitlines() if "Players" in line)
    assert players.endswith(f"<@{HOST}>, <@{GUEST}>")

    record = await h.command(IDLE, "table join", locale="en-US")
    assert "removed you from this table" in h.reply_text(record)
    assert [p.user_id for p in table.players] == [HOST, GUEST]

    await h.command(HOST, "table start")
    assert table.status == "running"
    record = await h.command(HOST, "table kick", [_user(GUEST)])
    assert h.reply_text(record) == "牌局已经开始或已结束"
    assert table.is_member(GUEST)
