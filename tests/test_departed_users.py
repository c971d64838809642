"""A player who left the server can still be looked up and adjusted: ``/balance``,
``/history``, ``/stats`` and ``/mjadmin adjust`` take a user who is not a member (Discord
then resolves the option to a user without a member). Where the user must be here
(``/table kick``), the refusal says why instead of a generic "invalid value"."""

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

HOST = 800_000_000_000_000_121
ADMIN = 800_000_000_000_000_122
GONE = 800_000_000_000_000_399  # not in the server: resolved as a user, not a member
USERS = {HOST: ("Host", DEFAULT_PERMISSIONS), ADMIN: ("Manager", ADMIN_PERMISSIONS)}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=121) as harness:
        yield harness


def gone() -> dict[str, object]:
    return option("user", str(GONE), 6)


async def test_a_departed_player_can_be_looked_up_and_adjusted(h: Harness) -> None:
    store = h.bot.store  # type: ignore[attr-defined]
    await store.adjust_balance(GUILD_ID, GONE, 200, ADMIN, "before leaving")
    record = await h.command(
        ADMIN, "mjadmin adjust", [gone(), option("amount", -50), option("reason", "refund")]
    )
    assert "1,150" in h.reply_text(record)
    assert await store.get_balance(GUILD_ID, GONE) == 1150

    for locale in ("zh-CN", "en-US"):
        balance = h.reply_text(await h.command(HOST, "balance", [gone()], locale=locale))
        assert "1,150" in balance and "参数无效" not in balance and "Invalid" not in balance
        history = h.reply_text(await h.command(HOST, "history", [gone()], locale=locale))
        assert history in ("还没有记录。", "No history yet.")
        stats = await h.command(HOST, "stats", [gone()], locale=locale)
        assert any(request.files for request in h.replies_to(stats))
        assert "参数无效" not in h.reply_text(stats) and "Invalid" not in h.reply_text(stats)


async def test_kicking_a_departed_user_says_they_are_gone(h: Harness) -> None:
    await h.command(HOST, "table create", [option("variant", "taizhou")])
    chinese = h.reply_text(await h.command(HOST, "table kick", [gone()]))
    assert chinese == "该用户已不在本服务器"
    english = h.reply_text(await h.command(HOST, "table kick", [gone()], locale="en-US"))
    assert english == "That user is no longer in this server"
    traditional = h.reply_text(await h.command(HOST, "table kick", [gone()], locale="zh-TW"))
    assert traditional == "該用戶已不在本伺服器"
