"""A running table nobody plays at is closed after ``UNATTENDED_SECONDS``.

Found by the random players: two people who left their seats, one on autoplay, the
other on auto-pass and auto-discard-drawn shortcuts (which answer every prompt, so that
seat never times out), played a two-seat match whose dealer kept winning for 176 hands
and would never have ended, moving points between two absent players. Any act of a
player's own (a move, Back, asking for autoplay, a shortcut) keeps the table open; the
finished hands stay settled, the hand in progress is not, as with ``/table end``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import CHANNEL_ID, DEFAULT_PERMISSIONS, Harness, offline_bot, option

from bot.deadlines import UNATTENDED_SECONDS

HOST = 800_000_000_000_000_101
GUEST = 800_000_000_000_000_102
USERS = {HOST: ("Host", DEFAULT_PERMISSIONS), GUEST: ("Guest", DEFAULT_PERMISSIONS)}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    # One second of the fake clock for each AI move, so a table that plays itself
    # moves through time as it would on Discord.
    async with offline_bot(tmp_path, USERS, seed=101, threads=False, ai_delay=1.0) as harness:
        yield harness


async def _open(h: Harness) -> object:
    await h.command(HOST, "table create", [option("variant", "taizhou"), option("rounds", 8)])
    await h.command(GUEST, "table join")
    await h.command(HOST, "table start")
    table = h.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and table.status == "running"
    return table


async def _run_for(h: Harness, seconds: float) -> None:
    for _ in range(int(seconds // 20)):
        await h.advance(20)


async def test_a_table_whose_players_are_all_away_closes(h: Harness) -> None:
    table: object = await _open(h)
    assert hasattr(table, "table_id")
    # The host hands their seat to the AI; the guest's shortcuts answer every prompt.
    await table.autoplay(HOST)  # type: ignore[attr-defined]
    for name, value in (("auto_pass", "always"), ("tsumogiri", True), ("auto_win", True)):
        assert (await table.set_toggle(GUEST, name, value)).ok  # type: ignore[attr-defined]
    started = h.bot.manager.clock.now()  # type: ignore[attr-defined]

    await _run_for(h, UNATTENDED_SECONDS - 60)
    assert table.status == "running"  # type: ignore[attr-defined]
    hands_played = table.match.hand_number  # type: ignore[attr-defined]
    assert hands_played >= 2  # the table played on by itself meanwhile

    for _ in range(30):  # at most ten minutes more
        if table.status != "running":  # type: ignore[attr-defined]
            break
        await h.advance(20)
    closed_at = h.bot.manager.clock.now()  # type: ignore[attr-defined]
    assert table.status == "closed"  # type: ignore[attr-defined]
    assert UNATTENDED_SECONDS <= closed_at - started <= UNATTENDED_SECONDS + 40
    store = h.bot.store
    game = await store.get_game(table.table_id)  # type: ignore[attr-defined]
    assert game is not None and game.status == "abandoned"
    last = table.match.hand_number  # type: ignore[attr-defined]
    assert await store.settled_hands(table.table_id) == set(range(last))  # type: ignore[attr-defined]
    await h.advance(2)  # the table message's last edit goes out
    channel = "\n".join(m.payload.get("content") or "" for m in h.channel_messages())
    assert "10 分钟没有人自己出牌，牌桌已关闭" in channel
    # Both are free to sit down again.
    record = await h.command(GUEST, "table create")
    assert h.bot.manager.by_channel(CHANNEL_ID) is not None, h.reply_text(record)


async def test_an_act_of_a_players_own_keeps_the_table_open(h: Harness) -> None:
    table: object = await _open(h)
    await table.autoplay(HOST)  # type: ignore[attr-defined]
    await table.autoplay(GUEST)  # type: ignore[attr-defined]
    await _run_for(h, UNATTENDED_SECONDS - 100)
    # The guest comes back for a moment (Back), then leaves it to the AI again.
    assert (await table.back(GUEST)).ok  # type: ignore[attr-defined]
    await table.autoplay(GUEST)  # type: ignore[attr-defined]
    await _run_for(h, 200)
    assert table.status == "running"  # type: ignore[attr-defined]
    await _run_for(h, UNATTENDED_SECONDS)
    assert table.status == "closed"  # type: ignore[attr-defined]
