"""A running table nobody plays at is closed after ``UNATTENDED_SECONDS`` or
``UNATTENDED_HANDS`` hands.

Found by the random players: two people who left their seats, one on autoplay, the
other on auto-pass and auto-discard-drawn shortcuts (which answer every prompt, so that
seat never times out), played a two-seat match whose dealer kept winning for 176 hands
and would never have ended, moving points between two absent players. Any act of a
player's own (a move, Back, asking for autoplay, a shortcut) keeps the table open; the
finished hands stay settled, the hand in progress is not, as with ``/table end``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from discord_harness import CHANNEL_ID, DEFAULT_PERMISSIONS, Harness, offline_bot, option

from bot.deadlines import UNATTENDED_HANDS, UNATTENDED_SECONDS

HOST = 800_000_000_000_000_101
GUEST = 800_000_000_000_000_102
USERS = {HOST: ("Host", DEFAULT_PERMISSIONS), GUEST: ("Guest", DEFAULT_PERMISSIONS)}
NOTICE = (
    f"{round(UNATTENDED_SECONDS / 60)} 分钟（或 {UNATTENDED_HANDS} 局）没有人自己出牌，牌桌已关闭"
)
WARNING = "很久没有人自己出牌了：2 分钟（或 2 局）内仍没人出牌"


def _table_text(h: Harness) -> str:
    """What the channel's table message says now."""
    (message,) = [m for m in h.channel_messages() if "🀄" in (m.payload.get("content") or "")]
    return str(message.payload["content"])


async def _open(h: Harness) -> Any:
    await h.command(HOST, "table create", [option("variant", "taizhou"), option("rounds", 8)])
    await h.command(GUEST, "table join")
    await h.command(HOST, "table start")
    table = h.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and table.status == "running"
    return table


async def _leave_it_to_the_ai(table: Any) -> None:
    """The host hands their seat to the AI; the guest's shortcuts answer every prompt
    (auto-discard last: with no AI delay the table plays on from there at once)."""
    await table.autoplay(HOST)
    for name, value in (("auto_win", True), ("auto_pass", "always"), ("tsumogiri", True)):
        assert (await table.set_toggle(GUEST, name, value)).ok


async def _until_closed(h: Harness, table: Any, step: float, steps: int) -> float:
    """Advance the clock ``step`` at a time until the table stops; the time it did."""
    for _ in range(steps):
        if table.status != "running":
            break
        await h.advance(step)
    return float(h.bot.manager.clock.now())  # type: ignore[attr-defined]


async def _check_closed_like_table_end(h: Harness, table: Any) -> None:
    assert table.status == "closed"
    store = h.bot.store
    game = await store.get_game(table.table_id)
    assert game is not None and game.status == "abandoned"
    last = table.match.hand_number
    assert await store.settled_hands(table.table_id) == set(range(last))
    await h.advance(2)  # the table message's last edit goes out
    channel = "\n".join(m.payload.get("content") or "" for m in h.channel_messages())
    assert NOTICE in channel
    await h.command(GUEST, "table create")  # both are free to sit down again
    assert h.bot.manager.by_channel(CHANNEL_ID) is not None


async def test_a_table_nobody_plays_at_closes_after_ten_minutes(tmp_path: Path) -> None:
    # Three seconds of the fake clock for each AI move, as slow as a table on Discord
    # that plays itself: the minutes run out before the hands do.
    async with offline_bot(tmp_path, USERS, seed=101, threads=False, ai_delay=3.0) as h:
        table = await _open(h)
        await _leave_it_to_the_ai(table)
        started = h.bot.manager.clock.now()  # type: ignore[attr-defined]
        for _ in range(int((UNATTENDED_SECONDS - 60) // 20)):
            await h.advance(20)
        assert table.status == "running" and table.match.hand_number >= 2
        assert WARNING in _table_text(h)  # two minutes before, the channel is told
        closed_at = await _until_closed(h, table, 20, 30)
        assert UNATTENDED_SECONDS <= closed_at - started <= UNATTENDED_SECONDS + 40
        assert table.match.hand_number < UNATTENDED_HANDS
        await _check_closed_like_table_end(h, table)


async def test_or_after_twenty_hands_whatever_the_pace(tmp_path: Path) -> None:
    # No AI delay: the table plays itself without the clock moving, but for the guest's
    # drawn wilds, which auto-discard leaves to her (each waits out its timeout).
    async with offline_bot(tmp_path, USERS, seed=102, threads=False) as h:
        table = await _open(h)
        await _leave_it_to_the_ai(table)
        await _until_closed(h, table, 1, 900)
        assert table.match.hand_number == UNATTENDED_HANDS
        await _check_closed_like_table_end(h, table)


async def test_an_act_of_a_players_own_keeps_the_table_open(tmp_path: Path) -> None:
    async with offline_bot(tmp_path, USERS, seed=103, threads=False, ai_delay=3.0) as h:
        table = await _open(h)
        await table.autoplay(HOST)
        await table.autoplay(GUEST)
        for _ in range(int((UNATTENDED_SECONDS - 100) // 20)):
            await h.advance(20)
        assert WARNING in _table_text(h)
        # The guest comes back for a moment (Back), then leaves it to the AI again: the
        # warning is taken back.
        assert (await table.back(GUEST)).ok
        await table.autoplay(GUEST)
        for _ in range(10):
            await h.advance(20)
        assert table.status == "running"
        assert WARNING not in _table_text(h)
        await _until_closed(h, table, 20, 40)
        assert table.status == "closed"
