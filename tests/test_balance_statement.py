"""``/balance``: the balance with its latest movements, so a player can see where their
points went: each match's settled hands as one line (rule set, hands, wins, points, caps,
the balance after, the match id for ``/replay``), each admin adjustment with who made it
and why, penalties and the opening balance; in the reader's language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import (
    ADMIN_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    Harness,
    offline_bot,
    option,
)

from data import SettlementEntry

PLAYER = 800_000_000_000_000_061
RIVAL = 800_000_000_000_000_062
ADMIN = 800_000_000_000_000_063
USERS = {
    PLAYER: ("Player", DEFAULT_PERMISSIONS),
    RIVAL: ("Rival", DEFAULT_PERMISSIONS),
    ADMIN: ("管理员老张说", ADMIN_PERMISSIONS),
}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=61) as h:
        yield h


async def _match(h: Harness, game_id: str, variant: str, units: list[list[int]]) -> None:
    store = h.bot.store
    await store.create_game(game_id, GUILD_ID, None, variant, {}, [], 1,
                            settings={"num_seats": 4, "stake": 10}, status="running")  # fmt: skip
    for hand, deltas in enumerate(units):
        users = [PLAYER, RIVAL, None, None]
        entries = [
            SettlementEntry(seat, users[seat], deltas[seat], deltas[seat] > 0) for seat in range(4)
        ]
        assert await store.settle_hand(GUILD_ID, game_id, hand, entries, 10)


async def test_balance_lists_matches_adjustments_and_penalties_newest_first(h: Harness) -> None:
    store = h.bot.store
    await store.update_settings(GUILD_ID, hand_cap=250)
    await _match(h, "aaaa1111", "taizhou", [[3, -1, -1, -1], [30, -10, -10, -10]])
    record = await h.command(ADMIN, "mjadmin adjust", [option("user", str(PLAYER), 6), option("amount", 500), option("reason", "欢迎红包 **bold** @everyone")])  # fmt: skip
    assert "1,780" in h.reply_text(record)
    await _match(h, "bbbb2222", "jiaxing", [[-2, 6, -2, -2]])
    await store.record_penalty(GUILD_ID, "bbbb2222", PLAYER, 40, beneficiaries=[RIVAL], key="x")

    english = h.reply_text(await h.command(PLAYER, "balance", locale="en-US"))
    lines = english.splitlines()
    assert lines[0] == "**Player's balance: 1,720**"
    assert lines[1] == "Latest changes:"
    assert lines[2].endswith("· Penalty for leaving a match · **-40** → 1,720 · `bbbb2222`")
    assert lines[3].endswith("· Jiaxing · 1 hand, 0 won · **-20** → 1,760 · `bbbb2222`")
    assert "Adjustment by 管理员老张说: “欢迎红包 \\*\\*bold\\*\\* \\@everyone”" in lines[4]
    assert lines[4].endswith("**+500** → 1,780")
    assert lines[5].endswith(
        "· Taizhou · 2 hands, 2 won · **+280** (capped from +330) → 1,280 · `aaaa1111`"
    )
    assert lines[6].endswith("· Opening balance · **+1,000** → 1,000")
    assert all(line.startswith("- <t:") and ":f> · " in line for line in lines[2:])
    assert len(lines) == 7

    chinese = h.reply_text(await h.command(PLAYER, "balance", locale="zh-CN"))
    assert "台州" in chinese and "2 局，胡 2 局" in chinese and "（封顶，原 +330）" in chinese
    assert "离桌罚分 · **-40**" in chinese and "管理员调整（管理员老张说）" in chinese
    # zh-TW: the bot's words in Traditional characters, the name and the reason as written.
    traditional = h.reply_text(await h.command(PLAYER, "balance", locale="zh-TW"))
    assert "管理員調整（管理员老张说）" in traditional and "欢迎红包" in traditional
    assert "離桌罰分" in traditional and "最近的變動" in traditional

    # The reason of an adjustment is for the player and the managers only.
    other = h.reply_text(
        await h.command(RIVAL, "balance", [option("user", str(PLAYER), 6)], locale="en-US")
    )
    assert "· Adjustment by 管理员老张说 · **+500** → 1,780" in other and "欢迎红包" not in other
    manager = h.reply_text(
        await h.command(ADMIN, "balance", [option("user", str(PLAYER), 6)], locale="en-US")
    )
    assert "Adjustment by 管理员老张说: “欢迎红包 " in manager

    # Someone else's balance: the rival's share of the penalty, their match lines.
    rival = h.reply_text(
        await h.command(PLAYER, "balance", [option("user", str(RIVAL), 6)], locale="en-US")
    )
    assert "Rival's balance: 1,006" in rival
    assert "Share of a leaving penalty · **+40** → 1,006" in rival
    assert "2 hands, 0 won · **-94** (capped from -110) → 906 · `aaaa1111`" in rival


async def test_the_statement_keeps_the_latest_ten_movements(h: Harness) -> None:
    for number in range(12):
        await h.bot.store.adjust_balance(GUILD_ID, PLAYER, number + 1, ADMIN, f"r{number}")
    text = h.reply_text(await h.command(PLAYER, "balance", locale="en-US"))
    assert "“r11”" in text and "“r2”" in text and "“r1”" not in text
    assert "Opening balance" not in text and text.count("\n- <t:") == 10


async def test_looking_someone_up_opens_no_account_for_them(h: Harness) -> None:
    """``/balance user:`` for someone who never played here says so, with the balance they
    would start with, and writes nothing: it opened their account (an opening row, a place
    on the all-time board) for whoever was looked up. One's own balance still opens."""
    store = h.bot.store
    await store.update_settings(GUILD_ID, starting_balance=2500)
    record = await h.command(PLAYER, "balance", [option("user", str(RIVAL), 6)], locale="zh-CN")
    assert h.reply_text(record) == "Rival 还没有在本服务器玩过（入座时的起始余额：2,500）"
    english = h.reply_text(
        await h.command(ADMIN, "balance", [option("user", str(RIVAL), 6)], locale="en-US")
    )
    assert english.startswith("Rival has not played on this server yet")
    assert await store.peek_balance(GUILD_ID, RIVAL) is None
    assert await store.statement(GUILD_ID, RIVAL) == []
    assert await store.top_balances(GUILD_ID) == []

    own = h.reply_text(await h.command(RIVAL, "balance", locale="en-US"))
    assert own.startswith("**Rival's balance: 2,500**")
    assert await store.peek_balance(GUILD_ID, RIVAL) == 2500
    looked_up = h.reply_text(
        await h.command(PLAYER, "balance", [option("user", str(RIVAL), 6)], locale="en-US")
    )
    assert looked_up.startswith("**Rival's balance: 2,500**")
