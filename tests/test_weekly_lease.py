"""The weekly post's "posted but not marked" window (issue 15): a post whose mark never
happened is found in the channel by the next attempt instead of being posted again.

One bot on SQLite through the strict harness; the clock is moved past the window in which
Discord would drop a repeated nonce, so only the bot's own check can prevent a repeat.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from discord_harness import GUILD_ID, NONCE_WINDOW, OTHER_CHANNEL_ID
from test_discord_bot import ALICE, BOB, Env, start_bot, stop_bot

from bot.cogs.economy import LEASE_SECONDS
from data import SettlementEntry


async def last_week_with_a_hand(env: Env) -> None:
    store = env.store
    await store.update_settings(GUILD_ID, leaderboard_channel=OTHER_CHANNEL_ID)
    await store.create_game("g1", GUILD_ID, 1, "taizhou", {}, [], 1, status="running")
    await store.settle_hand(
        GUILD_ID, "g1", 0,
        [SettlementEntry(0, ALICE, 10, True), SettlementEntry(1, BOB, -10)],
        stake=2, winner_user=ALICE, when=env.bot.now() - timedelta(days=7),
    )  # fmt: skip
    await store.set_game_status("g1", "finished")


def board_posts(env: Env) -> list[Any]:
    return [
        r for r in env.h.remote.requests
        if r.method == "POST" and r.url.endswith(f"/channels/{OTHER_CHANNEL_ID}/messages")
    ]  # fmt: skip


async def fail_the_mark_once(env: Env) -> None:
    """The post goes out, then marking the week fails (as if the process died there)."""
    update = env.store.update_settings
    failed: list[bool] = []

    async def flaky(guild_id: int, **changes: Any) -> Any:
        if "last_leaderboard_week" in changes and not failed:
            failed.append(True)
            raise OSError("disk I/O error")
        return await update(guild_id, **changes)

    env.store.update_settings = flaky  # type: ignore[method-assign]
    assert await env.bot.post_weekly_leaderboards() == 0  # logged, not raised
    env.store.update_settings = update  # type: ignore[method-assign]
    assert failed and len(board_posts(env)) == 1
    assert (await env.store.get_settings(GUILD_ID)).last_leaderboard_week is None


@pytest.mark.parametrize("who", ["same process", "replacement"])
async def test_a_post_whose_mark_failed_is_not_posted_again(tmp_path: Path, who: str) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        await last_week_with_a_hand(env)
        await fail_the_mark_once(env)
        env.clock._now += NONCE_WINDOW + 1  # Discord no longer drops the repeated nonce
        if who == "replacement":
            env.bot.process_name = "replacement"
            assert await env.bot.post_weekly_leaderboards() == 0  # the dead one's lease runs
            env.clock._now += LEASE_SECONDS
        assert await env.bot.post_weekly_leaderboards() == 0
        assert len(board_posts(env)) == 1
        assert len(env.h.channel_messages(OTHER_CHANNEL_ID)) == 1
        settings = await env.store.get_settings(GUILD_ID)
        assert settings.last_leaderboard_week is not None  # found, and marked this time
        assert await env.bot.post_weekly_leaderboards() == 0
    finally:
        await stop_bot(env)


async def test_an_attempt_that_died_before_posting_is_posted_by_the_next(tmp_path: Path) -> None:
    """The other side of the check: a lease left behind without a post in the channel
    (a moderator deleted it, or the process died before sending) means "post"."""
    env = await start_bot(tmp_path / "bot.db")
    try:
        await last_week_with_a_hand(env)
        week = (await env.store.week_bounds(GUILD_ID, 1, env.bot.now())).week_start
        name = f"weekly-leaderboard:{GUILD_ID}:{week.isoformat()}"
        now_ms = int(env.clock.now() * 1000)
        assert await env.store.acquire_lease(name, "dead", 1000, now_ms - 5000) is not None
        assert await env.bot.post_weekly_leaderboards() == 1
        assert len(env.h.channel_messages(OTHER_CHANNEL_ID)) == 1
        # History was read first (the earlier attempt might have posted).
        reads = [r for r in env.h.remote.requests
                 if r.method == "GET" and r.url.endswith(f"/channels/{OTHER_CHANNEL_ID}/messages")]  # fmt: skip
        assert len(reads) == 1
        # Done and released: no lease row is left for the week.
        assert await env.store.acquire_lease(name, "later", 1000, now_ms) is not None
        assert (
            await env.store.acquire_lease(name, "later", 1000, now_ms)
        ).previous_holder == "later"  # type: ignore[union-attr]
    finally:
        await stop_bot(env)


async def test_a_post_repeated_within_minutes_is_dropped_by_discord(tmp_path: Path) -> None:
    """The nonce: a second send of the same week's board (its first answer lost, say)
    within Discord's window creates no second message."""
    env = await start_bot(tmp_path / "bot.db")
    try:
        await last_week_with_a_hand(env)
        assert await env.bot.post_weekly_leaderboards() == 1
        await env.store.update_settings(GUILD_ID, last_leaderboard_week=None)  # forget the mark
        await env.bot.post_weekly_leaderboards()  # no lease row: nothing says "look first"
        assert len(board_posts(env)) == 2
        assert len(env.h.channel_messages(OTHER_CHANNEL_ID)) == 1
        nonces = {(r.payload or {}).get("nonce") for r in board_posts(env)}
        assert len(nonces) == 1 and None not in nonces
    finally:
        await stop_bot(env)
