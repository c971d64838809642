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
