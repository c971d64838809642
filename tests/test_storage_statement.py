"""``Store.statement``: a player's latest balance movements for ``/balance``, on both
backends: a match's hands as one line, openings, penalties and adjustments apart, each
with the balance after it, newest first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from data import SettlementEntry, Store

if TYPE_CHECKING:
    from conftest import BackendDB

GUILD = 1
ALICE, BOB, CAROL = 11, 12, 13


async def _hands(store: Store, game_id: str, variant: str, units: list[list[int]]) -> None:
    """Settle ``units[n]`` (Alice, Bob, an AI, an AI) as hand ``n`` of ``game_id``."""
    await store.create_game(game_id, GUILD, None, variant, {}, [], 7,
                            settings={"num_seats": 4, "stake": 10}, status="running")  # fmt: skip
    for hand, deltas in enumerate(units):
        users = [ALICE, BOB, None, None]
        entries = [
            SettlementEntry(seat=seat, user_id=users[seat], units=deltas[seat],
                            is_winner=deltas[seat] > 0)
            for seat in range(4)
        ]  # fmt: skip
        assert await store.settle_hand(GUILD, game_id, hand, entries, 10)


async def test_statement_groups_a_match_and_keeps_every_other_movement_apart(
    db: BackendDB,
) -> None:
    store = await db.open()
    await store.update_settings(GUILD, starting_balance=1000, hand_cap=250)
    await _hands(
        store, "game-one", "taizhou", [[3, -1, -1, -1], [-1, 3, -1, -1], [30, -10, -10, -10]]
    )
    await store.adjust_balance(GUILD, ALICE, 500, by_user=CAROL, reason="welcome bonus")
    await _hands(store, "game-two", "jiaxing", [[-2, 6, -2, -2]])
    await store.record_penalty(GUILD, "game-two", ALICE, 40, beneficiaries=[BOB], key="leave-1")
    lines = await store.statement(GUILD, ALICE)
    assert [line.kind for line in lines] == ["penalty", "hand", "adjustment", "hand", "opening"]
    penalty, second, adjustment, first, opening = lines
    assert (opening.points, opening.balance_after) == (1000, 1000)
    # Three hands of one match: +30, -10, then +300 cut to the 250 hand cap.
    assert (first.game_id, first.variant, first.hands, first.wins) == ("game-one", "taizhou", 3, 2)
    assert (first.points, first.original_points, first.balance_after) == (270, 320, 1270)
    assert (adjustment.points, adjustment.reason, adjustment.by_user) == (
        500,
        "welcome bonus",
        CAROL,
    )
    assert adjustment.balance_after == 1770 and adjustment.game_id is None
    assert (second.game_id, second.variant, second.hands, second.wins) == (
        "game-two",
        "jiaxing",
        1,
        0,
    )
    assert (second.points, second.balance_after) == (-20, 1750)
    assert (penalty.points, penalty.reason, penalty.game_id) == (-40, "leave", "game-two")
    assert penalty.balance_after == 1710 == await store.get_balance(GUILD, ALICE)
    assert [line.at for line in lines] == sorted((line.at for line in lines), reverse=True)
    # Every movement is there: the lines add up to the balance.
    assert sum(line.points for line in lines) == 1710
    # Bob's side of the same penalty is a share received; the limit keeps the newest.
    bob = await store.statement(GUILD, BOB, limit=2)
    assert [(line.kind, line.points) for line in bob] == [("penalty", 40), ("hand", 60)]
    assert await store.statement(GUILD + 1, ALICE) == []
    assert await store.statement(GUILD, 999) == []
