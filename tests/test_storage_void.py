"""A voided hand (``Store.void_hand``, ``/mjadmin void``) on both backends: each player's
points from it, as credited after caps, are reversed by ``void`` rows in one transaction;
it is voided once; and every aggregate (weekly, monthly, all-time and rule-set boards,
/stats, the day cap) reads as if the hand had never been played."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from data import SettlementEntry, Store, VoidRefused

if TYPE_CHECKING:
    from conftest import BackendDB

GUILD, TWIN = 1, 2  # the twin plays the same hands but the voided one
ALICE, BOB, CAROL = 11, 12, 13
ADMIN = 99
THURSDAY = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)  # week of Monday 11-23
WEEK, MONTH = date(2026, 11, 23), date(2026, 11, 1)
SEATS: list[int | None] = [ALICE, BOB, CAROL, None]  # an AI at seat 3


async def _game(store: Store, guild: int, game_id: str, variant: str) -> None:
    await store.create_game(game_id, guild, None, variant, {}, [], 7,
                            settings={"num_seats": 4, "stake": 10}, status="running")  # fmt: skip


async def _hand(
    store: Store, guild: int, game_id: str, number: int, units: list[int], when: datetime
) -> None:
    entries = [
        SettlementEntry(seat=seat, user_id=user, units=units[seat], is_winner=units[seat] > 0)
        for seat, user in enumerate(SEATS)
    ]
    assert await store.settle_hand(guild, game_id, number, entries, 10, when=when)


async def _play(store: Store, guild: int, prefix: str, *, with_voided: bool) -> None:
    """Alice's big Jiaxing win (hand 0 of jx, the one voided), then hands both play."""
    await _game(store, guild, f"{prefix}jx", "jiaxing")
    await _game(store, guild, f"{prefix}tz", "taizhou")
    if with_voided:
        await _hand(store, guild, f"{prefix}jx", 0, [24, -8, -8, -8], THURSDAY)
    await _hand(store, guild, f"{prefix}jx", 1, [-2, 5, -2, -1], THURSDAY + timedelta(hours=1))
    await _hand(store, guild, f"{prefix}tz", 0, [-3, -3, 7, -1], THURSDAY + timedelta(hours=2))
    await store.record_penalty(guild, f"{prefix}jx", BOB, 30, beneficiaries=[ALICE, CAROL],
                               key=f"{prefix}leave", when=THURSDAY + timedelta(hours=3))  # fmt: skip


async def _boards(store: Store, guild: int) -> dict[str, Any]:
    """Every figure a board or a /stats card shows (game ids aside: the twin's differ)."""
    found: dict[str, Any] = {
        "week": await store.weekly_leaderboard(guild, week_start=WEEK),
        "month": await store.monthly_leaderboard(guild, MONTH),
        "all": await store.alltime_leaderboard(guild),
    }
    for variant in ("jiaxing", "taizhou"):
        found[f"{variant} week"] = await store.variant_leaderboard(
            guild, variant, WEEK, WEEK + timedelta(days=7)
        )
        found[f"{variant} all"] = await store.variant_leaderboard(guild, variant)
    for user in (ALICE, BOB, CAROL):
        for variant in (None, "jiaxing"):
            card = await store.player_card_stats(guild, user, variant=variant)
            biggest = card.biggest
            found[f"card {user} {variant}"] = (
                card.hands, card.wins, card.self_draws, card.deal_ins, card.net, card.win_types,
                None if biggest is None else (biggest.points, biggest.hand_number),
            )  # fmt: skip
    return found


async def test_a_voided_hand_is_reversed_exactly_and_counts_nowhere(db: BackendDB) -> None:
    store = await db.open()
    for guild in (GUILD, TWIN):
        # Alice's 240 is clipped to 100 by the hand cap: what is reversed is the 100.
        await store.update_settings(guild, hand_cap=100)
    await _play(store, GUILD, "", with_voided=True)
    await _play(store, TWIN, "t", with_voided=False)
    entries = await store.hand_entries("jx", 0)
    assert next((e.original_points, e.points) for e in entries) == (240, 100)
    paid = {e.user_id: e.points for e in entries if e.user_id}
    before = {user: await store.get_balance(GUILD, user) for user in (ALICE, BOB, CAROL)}
    assert await _boards(store, GUILD) != await _boards(store, TWIN)

    rows = await store.void_hand(GUILD, "jx", 0, ADMIN, "played in bad faith",
                                 when=THURSDAY + timedelta(days=1))  # fmt: skip
    assert [(row.kind, row.user_id, row.points) for row in rows] == [
        ("void", ALICE, -100), ("void", BOB, -paid[BOB]), ("void", CAROL, -paid[CAROL])
    ]  # fmt: skip
    assert all(row.by_user == ADMIN and row.reason == "played in bad faith" for row in rows)
    assert all((row.game_id, row.hand_number) == ("jx", 0) for row in rows)
    after = {user: await store.get_balance(GUILD, user) for user in (ALICE, BOB, CAROL)}
    assert {user: after[user] - before[user] for user in after} == {
        user: -points for user, points in paid.items()
    }
    assert await store.verify_balances() == []
    assert await _boards(store, GUILD) == await _boards(store, TWIN)
    # The incremental state is what a rebuild from the ledger gives.
    await store.rebuild_stats()
    assert await _boards(store, GUILD) == await _boards(store, TWIN)

    # Once only; a hand never settled (or another server's) is refused; nothing changes.
    ledger = await store.guild_ledger(GUILD, kinds=("void",), limit=50)
    assert ledger.total == 3
    with pytest.raises(VoidRefused) as refused:
        await store.void_hand(GUILD, "jx", 0, ADMIN, "again")
    assert refused.value.why == "already_void"
    for guild, game, hand in ((GUILD, "jx", 7), (TWIN, "jx", 1), (GUILD, "nope", 0)):
        with pytest.raises(VoidRefused) as refused:
            await store.void_hand(guild, game, hand, ADMIN, "no such hand")
        assert refused.value.why == "not_settled"
    assert (await store.guild_ledger(GUILD, kinds=("void",), limit=50)).total == 3
    assert {user: await store.get_balance(GUILD, user) for user in after} == after

    # History marks it and leaves it out of the match's total; the void is found again.
    match = await store.match_summary("jx")
    assert match is not None and [hand.voided for hand in match.hands] == [True, False]
    assert match.total_for(ALICE) == match.hands[1].points[0]
    found = await store.hand_void("jx", 0)
    assert found is not None and found.by_user == ADMIN and found.reason == "played in bad faith"
    assert await store.hand_void("jx", 1) is None


async def test_a_voided_hand_no_longer_counts_toward_the_day_cap(db: BackendDB) -> None:
    store = await db.open()
    await store.update_settings(GUILD, day_cap=150)
    await _game(store, GUILD, "jx", "jiaxing")
    await _hand(store, GUILD, "jx", 0, [15, -5, -5, -5], THURSDAY)  # Alice +150: at the cap
    await _hand(store, GUILD, "jx", 1, [6, -2, -2, -2], THURSDAY + timedelta(minutes=5))
    assert next(e.points for e in await store.hand_entries("jx", 1)) == 0  # capped away
    await store.void_hand(GUILD, "jx", 0, ADMIN, "bug", when=THURSDAY + timedelta(minutes=6))
    await _hand(store, GUILD, "jx", 2, [6, -2, -2, -2], THURSDAY + timedelta(minutes=7))
    assert next(e.points for e in await store.hand_entries("jx", 2)) == 60  # room again
