"""``Store.statement``: a player's latest balance movements for ``/balance``, on both
backends: a match's hands as one line, openings, penalties and adjustments apart, each
with the balance after it, newest first."""

from __future__ import annotations

import random
from collections import Counter
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


async def test_the_statement_explains_every_balance_after_random_play(db: BackendDB) -> None:
    """Random hands (capped and not), adjustments and penalties over four matches: each
    user's whole statement adds up to their balance, its newest line ends on it, and a
    match's line counts exactly the hands the user was paid for in it."""
    rng = random.Random(2026)
    store = await db.open()
    await store.update_settings(GUILD, starting_balance=500, hand_cap=120)
    users = (ALICE, BOB, CAROL)
    games = [f"game-{number}" for number in range(4)]
    hands: dict[str, int] = {}
    paid: Counter[tuple[int, str]] = Counter()
    for game in games:
        await store.create_game(game, GUILD, None, rng.choice(("taizhou", "jiaxing")), {}, [], 1,
                                settings={"num_seats": 4, "stake": 5}, status="running")  # fmt: skip
    for step in range(60):
        kind = rng.random()
        if kind < 0.7:
            game = rng.choice(games)
            seated = [*rng.sample(users, 2), None, None]
            winner = rng.randrange(4)
            units = [-rng.randint(1, 12) for _ in range(4)]
            units[winner] = -sum(units) + units[winner]
            entries = [SettlementEntry(seat, seated[seat], units[seat], seat == winner)
                       for seat in range(4)]  # fmt: skip
            number = hands.get(game, 0)
            assert await store.settle_hand(GUILD, game, number, entries, 5)
            hands[game] = number + 1
            paid.update((user, game) for user in seated if user is not None)
        elif kind < 0.85:
            delta = rng.choice((-1, 1)) * rng.randint(1, 300)
            await store.adjust_balance(
                GUILD, rng.choice(users), delta, by_user=99, reason=f"s{step}"
            )
        else:
            payer, *others = rng.sample(users, 3)
            await store.record_penalty(GUILD, rng.choice(games), payer, rng.randint(1, 50),
                                       beneficiaries=others, key=f"p{step}")  # fmt: skip
    for user in users:
        lines = await store.statement(GUILD, user, limit=1000)
        balance = await store.get_balance(GUILD, user)
        assert sum(line.points for line in lines) == balance
        assert lines[0].balance_after == balance and lines[-1].kind == "opening"
        for line in lines:
            if line.kind == "hand":
                assert line.hands == paid[(user, line.game_id or "")]
        assert len({line.game_id for line in lines if line.kind == "hand"}) == len(
            [line for line in lines if line.kind == "hand"]
        )
