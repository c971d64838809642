"""``ai_hands_on_boards`` (migration 11), on both backends: a server whose boards are for
play between people keeps every hand with an AI seat off them. What a player wins from
AI seats no balance backs, so one player grinding easy AI tables topped every board.
Balances, the day cap and /stats still count those hands; penalties always count; the
boards, past weeks included, follow the setting both ways when it changes."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from data import LeaderboardRow, SettingsError, SettlementEntry, Store

if TYPE_CHECKING:
    from conftest import BackendDB

GUILD = 1
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
THURSDAY = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)  # week of Monday 2026-11-23
WEEK = date(2026, 11, 23)
MONTH = date(2026, 11, 1)
BOARD_TABLES = ("weekly_stats", "player_stats", "monthly_stats", "variant_stats")


async def _hand(
    store: Store, game_id: str, number: int, users: list[int | None], units: list[int]
) -> None:
    if number == 0:
        await store.create_game(game_id, GUILD, None, "taizhou", {}, [], 7,
                                settings={"num_seats": 4, "stake": 1}, status="running")  # fmt: skip
    entries = [
        SettlementEntry(seat=seat, user_id=user, units=units[seat], is_winner=units[seat] > 0)
        for seat, user in enumerate(users)
    ]
    when = THURSDAY + timedelta(minutes=number)
    assert await store.settle_hand(GUILD, game_id, number, entries, 10, when=when)


def _lines(rows: list[LeaderboardRow]) -> list[tuple[int, int, int, int, int]]:
    return [(row.user_id, row.net, row.hands, row.wins, row.biggest) for row in rows]


async def _boards(store: Store) -> dict[str, Any]:
    return {
        "week": _lines(await store.weekly_leaderboard(GUILD, week_start=WEEK)),
        "month": _lines(await store.monthly_leaderboard(GUILD, MONTH)),
        "all": _lines(await store.alltime_leaderboard(GUILD)),
        "variant": _lines(await store.variant_leaderboard(GUILD, "taizhou")),
        "variant_week": _lines(
            await store.variant_leaderboard(GUILD, "taizhou", WEEK, WEEK + timedelta(days=7))
        ),
    }


async def _raw_boards(db: BackendDB) -> dict[str, list[Any]]:
    return {
        table: [tuple(row) for row in await db.fetch_raw(f"SELECT * FROM {table} ORDER BY 1, 2, 3")]
        for table in BOARD_TABLES
    }


async def test_hands_with_ai_seats_leave_the_boards_and_come_back(db: BackendDB) -> None:
    store = await db.open()
    assert (await store.get_settings(GUILD)).ai_hands_on_boards is True
    # Alice alone with three AI seats wins 9 units (stake 10); then four people play.
    await _hand(store, "solo", 0, [ALICE, None, None, None], [9, -3, -3, -3])
    await _hand(store, "people", 0, [ALICE, BOB, CAROL, DAVE], [-1, 3, -1, -1])
    # Carol leaves the solo table's rematch: a penalty counts wherever it was charged.
    await store.record_penalty(GUILD, "solo", CAROL, 5, beneficiaries=[ALICE], when=THURSDAY)
    with_ai = await _boards(store)
    assert with_ai["week"][0] == (ALICE, 85, 2, 1, 90)

    # Off: only the hand between people, and the penalty.
    await store.update_settings(GUILD, ai_hands_on_boards=False)
    assert (await store.get_settings(GUILD)).ai_hands_on_boards is False
    people_only = [(BOB, 30, 1, 1, 30), (ALICE, -5, 1, 0, 0), (DAVE, -10, 1, 0, 0),
                   (CAROL, -15, 1, 0, 0)]  # fmt: skip
    expected = {name: people_only for name in with_ai}
    assert await _boards(store) == expected
    # Balances, the player's own /stats and the day cap's tally still have the AI hand.
    assert await store.get_balance(GUILD, ALICE) == 1000 + 90 - 10 + 5
    card = await store.player_card_stats(GUILD, ALICE)
    assert card.hands == 2 and card.wins == 1
    # A new AI hand while it is off stays off; a full rebuild reads the same.
    await _hand(store, "solo", 1, [ALICE, None, None, None], [12, -4, -4, -4])
    assert await _boards(store) == expected
    kept = await _raw_boards(db)
    await store.rebuild_stats(GUILD)
    assert await _raw_boards(db) == kept

    # On again: every AI hand is back, the one settled while it was off too.
    await store.update_settings(GUILD, ai_hands_on_boards=True)
    back = await _boards(store)
    assert back["week"][0] == (ALICE, 205, 3, 2, 120)
    assert back["all"] == back["week"] == back["variant_week"] == back["variant"]
    await store.rebuild_stats(GUILD)
    assert await _boards(store) == back
    await store.close()


async def test_the_setting_takes_only_true_or_false(db: BackendDB) -> None:
    store = await db.open()
    for value in (0, 1, "no", None):
        with pytest.raises(SettingsError):
            await store.update_settings(GUILD, ai_hands_on_boards=value)
    assert (await store.get_settings(GUILD)).ai_hands_on_boards is True
    await store.close()
