"""``/mjadmin tables``: a server manager sees every open table of the server in one
place: its thread (a link), rule set, the lobby or the hand with whose turn it is and
until when, and who sits there (AI seats and autoplay marked); nobody else may."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import ADMIN_PERMISSIONS, DEFAULT_PERMISSIONS, Harness, offline_bot, option

HOST = 800_000_000_000_000_091
OTHER_HOST = 800_000_000_000_000_092
MANAGER = 800_000_000_000_000_093
GUEST = 800_000_000_000_000_094
USERS = {
    GUEST: ("Guest", DEFAULT_PERMISSIONS),
    HOST: ("庄家老李", DEFAULT_PERMISSIONS),
    OTHER_HOST: ("Bea", DEFAULT_PERMISSIONS),
    MANAGER: ("Manager", ADMIN_PERMISSIONS),
}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=91, threads=True) as harness:
        yield harness


async def test_a_manager_sees_every_open_table_and_nobody_else_does(h: Harness) -> None:
    record = await h.command(MANAGER, "mjadmin tables", locale="en-US")
    assert h.reply_text(record) == "No table is open on this server."

    await h.command(HOST, "table create", [option("variant", "taizhou")])
    await h.command(OTHER_HOST, "table create", [option("variant", "jiaxing")])
    running = h.bot.manager.table_of_user(HOST)
    lobby = h.bot.manager.table_of_user(OTHER_HOST)
    assert running is not None and lobby is not None
    assert running.channel_id != lobby.channel_id  # each in its own thread
    await h.command(GUEST, "table join", channel_id=running.channel_id)
    await h.command(HOST, "table start", channel_id=running.channel_id)
    assert running.status == "running"

    record = await h.command(HOST, "mjadmin tables")
    assert "管理服务器" in h.reply_text(record)  # not a manager: refused, nothing listed
    assert running.table_id not in h.reply_text(record)

    english = h.reply_text(await h.command(MANAGER, "mjadmin tables", locale="en-US"))
    head, *lines = english.splitlines()
    assert head == "**Open tables: 2**" and len(lines) == 2
    (taizhou,) = [line for line in lines if running.table_id in line]
    (jiaxing,) = [line for line in lines if lobby.table_id in line]
    assert taizhou.startswith(f"- <#{running.channel_id}> · Taizhou · Hand 1 · ")
    status = running.table_status()
    assert status is not None
    acting = ", ".join(status.seats[seat].name for seat in status.acting)
    assert f" · {acting} to act <t:{int(status.deadline or 0)}:R> · " in taizhou
    assert taizhou.count("🤖 AI") == 2 and "庄家老李" in taizhou and "Guest" in taizhou
    assert jiaxing == (
        f"- <#{lobby.channel_id}> · Jiaxing · lobby, 1 of 4 seated, host Bea · Bea · "
        f"`{lobby.table_id}`"
    )

    # In Chinese; a player on autoplay is marked, names stay as written for zh-TW.
    for _ in range(200):  # nobody moves: the first to time out is played by the AI
        status = running.table_status()
        if status is not None and any(seat.autoplay for seat in status.seats):
            break
        await h.advance(5)
    assert status is not None and running.status == "running"
    (away,) = [seat.name for seat in status.seats if seat.autoplay]
    chinese = h.reply_text(await h.command(MANAGER, "mjadmin tables", locale="zh-TW"))
    assert "**開著的牌桌：2**" in chinese and "大廳 1/4 人，房主 Bea" in chinese
    assert "庄家老李" in chinese and "莊家老李" not in chinese  # a name as its owner writes it
    assert re.search(r"台州麻將 · 第\d+局 · ", chinese) and f"{away}（託管）" in chinese
    await h.command(OTHER_HOST, "table end", channel_id=lobby.channel_id)
    await h.command(HOST, "table end", channel_id=running.channel_id)
    question = h.ephemeral_messages(HOST)[-1]  # a hand is in play: the price, first
    (end_now,) = [id_ for id_ in question.custom_ids() if not id_.endswith(":endafter")]
    await h.click(HOST, question, end_now)
    record = await h.command(MANAGER, "mjadmin tables")
    assert h.reply_text(record) == "本服务器现在没有开着的牌桌。"


async def test_a_long_list_pages_so_every_table_is_reachable(tmp_path: Path) -> None:
    """Twenty lobbies with long host names: more than one message holds. Each page says
    which tables it shows, fits in a message, and ◀ ▶ reach every table."""
    hosts = {
        800_000_000_000_000_200 + n: (
            f"第{n:02d}号房主 with a rather long name",
            DEFAULT_PERMISSIONS,
        )
        for n in range(20)
    }
    async with offline_bot(tmp_path, {**USERS, **hosts}, seed=92, threads=True) as h:
        for host in hosts:
            await h.command(host, "table create", [option("variant", "jiaxing")])
        ids = set()
        for host in hosts:
            table = h.bot.manager.table_of_user(host)
            assert table is not None
            ids.add(table.table_id)
        assert len(ids) == 20

        record = await h.command(MANAGER, "mjadmin tables", locale="en-US")
        message = h.ephemeral_messages(MANAGER)[-1]
        seen: list[str] = []
        heads = []
        while True:
            content = message.payload["content"]
            assert len(content) <= 2000 and "…" not in content
            head, *lines = content.splitlines()
            heads.append(head)
            found = re.fullmatch(r"\*\*Open tables: (\d+)–(\d+) of 20\*\*", head)
            assert found, head
            assert int(found[1]) == len(seen) + 1 and int(found[2]) == len(seen) + len(lines)
            seen += [re.findall(r"`(\w+)`$", line)[0] for line in lines]
            (forward,) = [c for row in message.components for c in row["components"]
                          if c["custom_id"].startswith("mj:mt:") and c["label"] == "▶"]  # fmt: skip
            if forward.get("disabled"):
                break
            await h.click(MANAGER, message, forward["custom_id"], locale="en-US")
        assert len(heads) > 1 and sorted(seen) == sorted(ids) and len(seen) == 20
        (back,) = [c for row in message.components for c in row["components"]
                   if c["label"] == "◀"]  # fmt: skip
        await h.click(MANAGER, message, back["custom_id"], locale="zh-CN")
        assert message.payload["content"].startswith("**开着的牌桌：")
        assert " / 20**" in message.payload["content"].splitlines()[0]
        assert not h.failed_interactions() and record is not None

        # The button checks Manage Server again: without it, the list does not move.
        before = message.payload["content"]
        refused = await h.click(next(iter(hosts)), message, back["custom_id"])
        assert "管理服务器" in h.reply_text(refused) and message.payload["content"] == before
