"""``/mjadmin settings`` as an admin reads it: a contradictory or unworkable change is
refused with its reason and nothing changes; range errors name the setting as the
command names it, with readable numbers; a change says what it changed."""

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

ADMIN = 800_000_000_000_000_131
PLAYER = 800_000_000_000_000_132
USERS = {ADMIN: ("Manager", ADMIN_PERMISSIONS), PLAYER: ("Player", DEFAULT_PERMISSIONS)}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=131) as harness:
        yield harness


async def test_setting_and_clearing_one_setting_at_once_is_refused(h: Harness) -> None:
    store = h.bot.store  # type: ignore[attr-defined]
    await store.update_settings(GUILD_ID, min_balance=50)
    both = [option("min_balance", 100), option("clear", "min_balance")]
    chinese = h.reply_text(await h.command(ADMIN, "mjadmin settings", both))
    assert chinese == "同一条命令不能既设置又清除「入座最低积分」，设置没有改动。"
    english = h.reply_text(await h.command(ADMIN, "mjadmin settings", both, locale="en-US"))
    assert english == (
        "One command cannot both set and clear “Minimum balance to sit”; nothing was changed."
    )
    traditional = h.reply_text(await h.command(ADMIN, "mjadmin settings", both, locale="zh-TW"))
    assert traditional == "同一條命令不能既設定又清除「入座最低積分」，設定沒有改動。"
    assert (await store.get_settings(GUILD_ID)).min_balance == 50
    # Setting one and clearing another still works.
    await h.command(ADMIN, "mjadmin settings", [option("hand_cap", 300), option("clear", "min_balance")])  # fmt: skip
    settings = await store.get_settings(GUILD_ID)
    assert settings.min_balance is None and settings.hand_cap == 300


async def test_a_minimum_above_the_starting_balance_is_refused(h: Harness) -> None:
    store = h.bot.store  # type: ignore[attr-defined]
    chinese = h.reply_text(
        await h.command(ADMIN, "mjadmin settings", [option("min_balance", 2000)])
    )
    assert chinese == (
        "入座最低积分（2,000）不能高于初始积分（1,000），否则新玩家都无法入座。设置没有改动。"
    )
    english = h.reply_text(
        await h.command(ADMIN, "mjadmin settings", [option("min_balance", 2000)], locale="en-US")
    )
    assert english.startswith("The minimum balance to sit (2,000) cannot be above the starting")
    assert (await store.get_settings(GUILD_ID)).min_balance is None
    # Lowering the starting balance under a minimum already set: the same refusal.
    await h.command(ADMIN, "mjadmin settings", [option("min_balance", 500)])
    refused = h.reply_text(
        await h.command(ADMIN, "mjadmin settings", [option("starting_balance", 100)])
    )
    assert "（500）" in refused and "（100）" in refused
    settings = await store.get_settings(GUILD_ID)
    assert (settings.min_balance, settings.starting_balance) == (500, 1000)
    # Both raised together, consistently: accepted.
    await h.command(
        ADMIN, "mjadmin settings", [option("starting_balance", 3000), option("min_balance", 2000)]
    )
    settings = await store.get_settings(GUILD_ID)
    assert (settings.min_balance, settings.starting_balance) == (2000, 3000)


async def test_a_refused_seat_says_the_balance_and_the_minimum(h: Harness) -> None:
    store = h.bot.store  # type: ignore[attr-defined]
    await store.update_settings(GUILD_ID, starting_balance=10_000, min_balance=5_000)
    await store.adjust_balance(GUILD_ID, PLAYER, -6_000, ADMIN, "test")
    record = await h.command(PLAYER, "table create", [option("variant", "taizhou")])
    assert h.reply_text(record) == "你的余额 4,000 低于本服务器入座所需的 5,000"
    await h.command(ADMIN, "table create", [option("variant", "taizhou")])
    record = await h.command(PLAYER, "table join", locale="en-US")
    assert h.reply_text(record) == (
        "Your balance, 4,000, is below this server's minimum to sit, 5,000"
    )
    record = await h.command(PLAYER, "table join", locale="zh-TW")
    assert h.reply_text(record) == "你的餘額 4,000 低於本伺服器入座所需的 5,000"
