"""Issue 11's faults replayed through the strict offline Discord: concurrent seating, a
busy database behind slash commands, 5xx answers on the writes players notice, and an
over-long admin value echoed back.

Every wait is bounded: the harness's ``settle`` gives up after 10 s of stuck work, the
match loops count their steps, and the write lock is released in a ``finally``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from discord_harness import (
    CHANNEL_ID,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    FakeDiscord,
    FakeResponse,
    _decode_body,
    option,
    until_backoff,
)
from faults import write_lock
from test_discord_bot import ADMIN, ALICE, BOB, CAROL, Env, open_table, start_bot, stop_bot

from data import SettlementEntry

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"


# ---------------------------------------------------------------------- seating races


async def test_two_creates_at_once_in_one_channel_make_one_table(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        h, bot = env.h, env.bot
        first = await h.command(ALICE, "table create", settle=False)
        second = await h.command(BOB, "table create", settle=False)
        await h.settle()
        live = [t for t in bot.manager.tables if t.channel_id == CHANNEL_ID]
        assert len(live) == 1
        lobbies = [m for m in h.channel_messages() if "🀄" in m.payload.get("content", "")]
        assert len(lobbies) == 1
        texts = [h.reply_text(first), h.reply_text(second)]
        loser = texts[1] if live[0].is_member(ALICE) else texts[0]
        assert "已经有" in loser or "already" in loser, texts
        games = await env.store.running_games() if hasattr(env.store, "running_games") else None
        if games is not None:
            assert len([g for g in games if g.channel_id == CHANNEL_ID]) <= 1
    finally:
        await stop_bot(env)


async def test_a_create_and_a_join_at_once_never_seat_one_user_twice(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        h, bot = env.h, env.bot
        await h.command(BOB, "table create")  # a lobby in the table channel
        join = await h.command(ALICE, "table join", settle=False)
        create = await h.command(ALICE, "table create", channel_id=OTHER_CHANNEL_ID, settle=False)
        await h.settle()
        seated = [t for t in bot.manager.tables if t.is_member(ALICE)]
        assert len(seated) == 1, (h.reply_text(join), h.reply_text(create))
        # Start whatever tables exist: ALICE still plays at one of them only.
        await h.command(BOB, "table start")
        await h.command(ALICE, "table start", channel_id=OTHER_CHANNEL_ID)
        await h.advance(2)
        running = [t for t in bot.manager.tables if t.status == "running" and t.is_member(ALICE)]
        assert len(running) <= 1
    finally:
        await stop_bot(env)


# ---------------------------------------------------------------------- a busy database


async def _to_alice_turn(env: Env) -> Any:
    """Play (AIs and timeouts) until it is ALICE's turn to discard; bounded."""
    from test_discord_bot import play_turn

    table = env.bot.manager.table_of_user(ALICE)
    assert table is not None
    for _ in range(60):
        prompt = table.prompt_for(ALICE)
        if prompt is not None and prompt.kind == "turn":
            return table, prompt
        await play_turn(env, ALICE) or await env.h.advance(2)
    raise AssertionError("ALICE never got a turn")


async def test_slash_commands_are_deferred_in_time_while_another_process_holds_the_database(
    tmp_path: Path,
) -> None:
    """Another connection holds the write lock for 4 s of real time. Each command is
    acknowledged (deferred) within Discord's 3 s — the strict fake answers 10062 otherwise —
    and takes effect once the lock is released."""
    path = tmp_path / "bot.db"
    env = await start_bot(path)
    try:
        h, bot = env.h, env.bot
        await open_table(env, ALICE)
        table, prompt = await _to_alice_turn(env)
        from engine.tiles import kind_str

        tile = sorted({kind_str(a.tile) for a in prompt.view.legal if a.type == "discard"})[0]
        turn = table.match.turn_id
        h.remote.clock = None  # Discord's 3 s now count in real time, as the watchdog does
        records = []
        lock_started = time.monotonic()
        with write_lock(path):

            async def release_later() -> None:
                await asyncio.sleep(4.0)

            holder = asyncio.get_running_loop().create_task(release_later())
            records.append(await h.command(BOB, "balance", settle=False))
            records.append(await h.command(ALICE, "discard", [option("tile", tile)], settle=False))
            records.append(
                await h.command(CAROL, "table create", channel_id=OTHER_CHANNEL_ID, settle=False)
            )
            await asyncio.wait_for(holder, timeout=10)
        held = time.monotonic() - lock_started
        await h.settle()
        assert held >= 3.5
        for record in records:
            assert not record.failed, "Discord answered 10062"
            assert record.acked_at is not None
            assert record.acked_at - record.dispatched_at < 3.0
        assert table.match.turn_id != turn  # the discard took effect
        assert bot.manager.by_channel(OTHER_CHANNEL_ID) is not None  # the table exists
        assert "1000" in h.reply_text(records[0]) or h.reply_text(records[0])
    finally:
        await stop_bot(env)


# ---------------------------------------------------------------------- 5xx from Discord


def _inject(
    remote: FakeDiscord,
    when: Callable[[str, str, Any, list[Any]], bool],
    method: str,
    template: str,
    status: int,
    times: int = 1,
) -> list[int]:
    """Arm ``fail_next(method, template, status)`` just before the first request that
    ``when(method, url, body, files)`` picks; returns a one-item list counting arms."""
    armed: list[int] = []
    serve = remote.serve

    async def serve_with_fault(m: str, url: str, data: Any, params: Any) -> FakeResponse:
        if not armed:
            body, files = _decode_body(data)
            if when(m, url, body, files):
                armed.append(1)
                remote.fail_next(method, template, status, times=times)
        return await serve(m, url, data, params)

    remote.serve = serve_with_fault  # type: ignore[method-assign]
    return armed


async def _play_match_on_autoplay(env: Env) -> Any:
    await env.h.command(ALICE, "table create", [option("variant", "taizhou"), option("rounds", 1)])
    await env.h.command(ALICE, "table start")
    table = env.bot.manager.table_of_user(ALICE)
    assert table is not None
    assert (await table.autoplay(ALICE)).ok
    for _ in range(2000):
        if table.status != "running":
            break
        await env.h.advance(2)
    assert table.status == "finished"
    for _ in range(20):  # let the presenter's backed-off retries come due
        await env.h.advance(2)
    return table


async def test_a_503_on_the_last_table_edit_still_leaves_the_final_table(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        armed = _inject(
            env.h.remote,
            lambda m, url, body, files: m == "PATCH"
            and "/messages/" in url and "/webhooks/" not in url
            and isinstance(body, dict) and body.get("components") == []
            and "🀄" in (body.get("content") or ""),
            "PATCH", MESSAGE, 503,
        )  # fmt: skip
        await _play_match_on_autoplay(env)
        assert armed, "the final table edit never happened"
        statuses = [r.status for r in env.h.remote.requests if r.path == MESSAGE
                    and r.method == "PATCH"]  # fmt: skip
        assert 503 in statuses
        table_message = next(m for m in env.h.channel_messages() if "🀄" in m.payload["content"])
        assert table_message.components == []  # no live buttons once the match ended
    finally:
        await stop_bot(env)


async def test_a_503_on_a_result_card_still_delivers_the_card(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        armed = _inject(
            env.h.remote,
            lambda m, url, body, files: m == "POST" and url.endswith("/messages")
            and any(data.startswith(b"RESULT") for _, data in files),
            "POST", MESSAGES, 503,
        )  # fmt: skip
        table = await _play_match_on_autoplay(env)
        assert armed
        cards = [m for m in env.h.channel_messages()
                 if any(d.startswith(b"RESULT") for _, d in m.files)]  # fmt: skip
        assert len(cards) == len(table.match.results) >= 1
    finally:
        await stop_bot(env)


async def _last_week_with_a_hand(env: Env) -> None:
    store, bot = env.store, env.bot
    await store.update_settings(GUILD_ID, leaderboard_channel=OTHER_CHANNEL_ID)
    for user in (ALICE, BOB):
        await env.h.command(user, "balance")
    when = bot.now() - timedelta(days=7)
    await store.create_game("g1", GUILD_ID, CHANNEL_ID, "taizhou", {}, [], 1, status="running")
    await store.settle_hand(
        GUILD_ID, "g1", 0,
        [SettlementEntry(0, ALICE, 10, True), SettlementEntry(1, BOB, -10)],
        stake=2, winner_user=ALICE, when=when,
    )  # fmt: skip


async def test_a_503_on_the_weekly_post_still_posts_and_marks_the_week_after(
    tmp_path: Path,
) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        await _last_week_with_a_hand(env)
        env.h.remote.fail_next("POST", MESSAGES, 503)
        sleepers = env.clock.pending
        task = asyncio.get_running_loop().create_task(env.bot.post_weekly_leaderboards())
        assert await until_backoff(env.h.remote, env.clock, task, 1, sleepers)
        assert (await env.store.get_settings(GUILD_ID)).last_leaderboard_week is None
        await env.h.advance(1)  # the first backoff
        assert await asyncio.wait_for(task, timeout=10) == 1
        posts = [r for r in env.h.remote.requests if r.path == MESSAGES and r.method == "POST"]
        assert [r.status for r in posts] == [503, 200]
        assert len(env.h.channel_messages(OTHER_CHANNEL_ID)) == 1
        assert (await env.store.get_settings(GUILD_ID)).last_leaderboard_week is not None
    finally:
        await stop_bot(env)


async def test_a_weekly_post_that_never_gets_through_leaves_the_week_unposted(
    tmp_path: Path,
) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        await _last_week_with_a_hand(env)
        env.h.remote.fail_next("POST", MESSAGES, 503, times=50)
        sleepers = env.clock.pending
        task = asyncio.get_running_loop().create_task(env.bot.post_weekly_leaderboards())
        for failures, backoff in enumerate((1, 2, 4), start=1):
            assert await until_backoff(env.h.remote, env.clock, task, failures, sleepers)
            await env.h.advance(backoff)
        assert await asyncio.wait_for(task, timeout=10) == 0
        assert [r.status for r in env.h.remote.requests if r.path == MESSAGES] == [503] * 4
        assert (await env.store.get_settings(GUILD_ID)).last_leaderboard_week is None
        env.h.remote.faults.clear()
        assert await asyncio.wait_for(env.bot.post_weekly_leaderboards(), timeout=30) == 1
    finally:
        await stop_bot(env)


async def test_a_502_is_retried_by_discord_py_alone(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        await _last_week_with_a_hand(env)
        env.h.remote.fail_next("POST", MESSAGES, 502)
        assert await asyncio.wait_for(env.bot.post_weekly_leaderboards(), timeout=10) == 1
        posts = [r for r in env.h.remote.requests if r.path == MESSAGES and r.method == "POST"]
        assert [r.status for r in posts] == [502, 200]  # one retry, discord.py's
        assert env.h.remote.retry_sleeps == [1]
    finally:
        await stop_bot(env)


# ---------------------------------------------------------------------- over-long values


async def test_an_over_long_settings_value_gets_a_reply_discord_accepts(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        # A first interaction records the server's locale (kept by the bot itself).
        await env.h.command(ADMIN, "mjadmin settings")
        before = await env.store.get_settings(GUILD_ID)
        record = await env.h.command(
            ADMIN, "mjadmin settings", [option("default_variant", "x" * 10_000)]
        )
        text = env.h.reply_text(record)
        assert text and len(text) <= 2000
        assert not record.failed
        assert await env.store.get_settings(GUILD_ID) == before  # nothing changed
    finally:
        await stop_bot(env)  # fails on any request the strict fake refused
