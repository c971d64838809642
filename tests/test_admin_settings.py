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

from data import SettingRangeError

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


async def test_a_number_out_of_range_is_named_as_the_command_names_it(h: Harness) -> None:
    huge = [option("min_balance", 10**13)]
    chinese = h.reply_text(await h.command(ADMIN, "mjadmin settings", huge))
    assert chinese == (
        "入座最低积分必须在 -1,000,000,000,000 到 1,000,000,000,000 积分之间，"
        "收到 10,000,000,000,000 积分"
    )
    english = h.reply_text(await h.command(ADMIN, "mjadmin settings", huge, locale="en-US"))
    assert english == (
        "Minimum balance to sit must be between -1,000,000,000,000 and 1,000,000,000,000 "
        "points; got 10,000,000,000,000 points"
    )
    slow = [option("discard_timeout", 9999)]
    traditional = h.reply_text(await h.command(ADMIN, "mjadmin settings", slow, locale="zh-TW"))
    assert traditional == "出牌限時必須在 5 到 600 秒之間，收到 9,999 秒"
    english = h.reply_text(await h.command(ADMIN, "mjadmin settings", slow, locale="en-US"))
    assert english == "Discard time must be between 5 and 600 s; got 9,999 s"
    settings = await h.bot.store.get_settings(GUILD_ID)  # type: ignore[attr-defined]
    assert settings.min_balance is None and settings.discard_timeout == 30


async def test_an_adjustment_prints_its_numbers_as_balance_does(h: Harness) -> None:
    record = await h.command(ADMIN, "mjadmin adjust", [option("user", str(PLAYER), 6), option("amount", 12_345), option("reason", "prize")])  # fmt: skip
    text = h.reply_text(record)
    assert "已调整 Player 的余额 +12,345，现在是 13,345。" in text
    assert "Adjusted Player's balance by +12,345; it is now 13,345." in text
    record = await h.command(ADMIN, "mjadmin adjust", [option("user", str(PLAYER), 6), option("amount", 2 * 10**9), option("reason", "x")], locale="en-US")  # fmt: skip
    assert h.reply_text(record) == "The amount must be non-zero and within ±1,000,000,000"


async def test_the_stores_own_range_error_reads_and_carries_its_numbers(h: Harness) -> None:
    """What the command line and logs show, and what the command above words anew."""
    store = h.bot.store  # type: ignore[attr-defined]
    with pytest.raises(SettingRangeError) as caught:
        await store.update_settings(GUILD_ID, min_balance=10**13)
    error = caught.value
    assert (error.name, error.low, error.high, error.value) == (
        "min_balance",
        -(10**12),
        10**12,
        10**13,
    )
    assert error.zh == (
        "设置 min_balance 超出范围：必须在 -1,000,000,000,000 到 1,000,000,000,000 之间，"
        "收到 10,000,000,000,000"
    )


async def test_a_change_says_first_what_it_changed(h: Harness) -> None:
    change = [option("discard_timeout", 60), option("min_balance", 500)]
    chinese = h.reply_text(await h.command(ADMIN, "mjadmin settings", change))
    first, second, *listing = chinese.splitlines()
    assert first == "已更新：出牌限时 30 → 60 秒；入座最低积分 未设置 → 500 积分"
    assert second == "当前设置：" and "出牌限时 `discard_timeout`: 60 秒" in listing

    change = [option("default_variant", "taizhou"), option("clear", "min_balance")]
    english = h.reply_text(await h.command(ADMIN, "mjadmin settings", change, locale="en-US"))
    assert english.splitlines()[0] == (
        "Updated: Default rule set Jiaxing → Taizhou; Minimum balance to sit 500 points → not set"
    )
    same = [option("discard_timeout", 60)]
    traditional = h.reply_text(await h.command(ADMIN, "mjadmin settings", same, locale="zh-TW"))
    assert traditional.splitlines()[0] == "已更新：出牌限時 仍為 60 秒"

    # Looking at the settings changes nothing and says nothing was updated.
    shown = h.reply_text(await h.command(ADMIN, "mjadmin settings"))
    assert shown.startswith("当前设置：")


async def test_an_admin_caps_the_stake_and_a_table_above_it_is_refused(h: Harness) -> None:
    """At a table of AI seats a hand's points are made or lost outright: an admin caps
    the stake (``max_stake``), /table create above it is refused, a clear lifts it."""
    store = h.bot.store  # type: ignore[attr-defined]
    chinese = h.reply_text(await h.command(ADMIN, "mjadmin settings", [option("max_stake", 50)]))
    assert chinese.splitlines()[0] == "已更新：最高底注 未设置 → 50"
    assert (await store.get_settings(GUILD_ID)).max_stake == 50
    refused = await h.command(PLAYER, "table create", [option("stake", 51)])
    assert "本服务器的底注最高 50（你选了 51）" in h.reply_text(refused)
    assert h.bot.manager.table_of_user(PLAYER) is None  # type: ignore[attr-defined]
    english = await h.command(PLAYER, "table create", [option("stake", 51)], locale="en-US")
    assert "This server's highest stake is 50 (you chose 51)" in h.reply_text(english)
    await h.command(ADMIN, "mjadmin settings", [option("clear", "max_stake")])
    assert (await store.get_settings(GUILD_ID)).max_stake is None
    await h.command(PLAYER, "table create", [option("stake", 51)])
    table = h.bot.manager.table_of_user(PLAYER)  # type: ignore[attr-defined]
    assert table is not None and table.stake == 51


async def test_an_admin_keeps_hands_with_ai_seats_off_the_boards(h: Harness) -> None:
    """A server whose boards are for play between people: one switch, said back in the
    admin's words, and the boards follow it (tests/test_storage_ai_boards.py)."""
    store = h.bot.store  # type: ignore[attr-defined]
    off = [option("ai_hands_on_boards", False, 5)]
    text = h.reply_text(await h.command(ADMIN, "mjadmin settings", off))
    assert text.startswith("已更新：ai局计入排行榜 计入 → 不计入")
    assert "ai局计入排行榜 `ai_hands_on_boards`: 不计入" in text
    assert (await store.get_settings(GUILD_ID)).ai_hands_on_boards is False
    on = [option("ai_hands_on_boards", True, 5)]
    text = h.reply_text(await h.command(ADMIN, "mjadmin settings", on, locale="en-US"))
    assert text.startswith(
        "Updated: Hands with AI seats on the leaderboards do not count → count"
    ), text
    assert (await store.get_settings(GUILD_ID)).ai_hands_on_boards is True
    refused = h.reply_text(await h.command(PLAYER, "mjadmin settings", off))
    assert (await store.get_settings(GUILD_ID)).ai_hands_on_boards is True, refused
