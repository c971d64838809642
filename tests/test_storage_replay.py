"""A game persisted action by action is rebuilt exactly by replay after a "restart".

The table session stores every action (``Action.to_json()``) before announcing it and
settles each hand as it ends; after a restart it loads the running games and replays
their logs. This test plays real matches with a seeded policy, closes the store in the
middle of a hand, reopens it and checks that ``Match.replay`` over the stored log gives
the same state, scores and results, and that re-settling after the restart pays nothing.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from data import Store, settlement_entries
from engine.match import Match
from engine.shapes import shanten
from engine.types import DISCARD, KONG, PASS, PUNG, WIN, Action

GUILD = 10
USERS: list[int | None] = [101, 102, 103, None]  # seat 3 is an AI
STAKE = 5


def choose(match: Match, rng: random.Random) -> Action:
    """A seeded, legal move: win when offered, pass claims, discard towards a win.

    Random play almost never wins; discarding to the lowest shanten makes the stored
    games contain real settlements, not only exhaustive draws.
    """
    round_ = match.round
    for seat in range(match.num_seats):
        legal = match.legal_actions(seat)
        if not legal:
            continue
        wins = [action for action in legal if action.type == WIN]
        if wins:
            return wins[0]
        passes = [action for action in legal if action.type == PASS]
        if passes:
            claims = [action for action in legal if action.type in (PUNG, KONG)]
            return claims[0] if claims and rng.random() < 0.5 else passes[0]
        discards = [action for action in legal if action.type == DISCARD]
        if not discards:
            return rng.choice(legal)

        def distance(action: Action, seat: int = seat) -> tuple[int, float]:
            counts = list(round_.hands[seat])
            counts[action.tile] -= 1  # type: ignore[index]
            wilds = 0
            if round_.wild is not None:
                wilds, counts[round_.wild] = counts[round_.wild], 0
            return shanten(counts, wilds), rng.random()

        return min(discards, key=distance)
    raise AssertionError("no seat has a legal action in an unfinished match")


async def play(
    store: Store,
    match: Match,
    game_id: str,
    rng: random.Random,
    until_hands: int,
    extra_actions: int,
) -> None:
    """Play, persisting each action and settling each hand, until ``until_hands`` hands have
    ended and then ``extra_actions`` more actions (so we stop mid-hand)."""
    seq = len(match.actions)
    after = 0
    while not match.finished:
        if len(match.results) >= until_hands:
            if after == extra_actions:
                return
            after += 1
        hand_number = match.hand_number
        action = choose(match, rng)
        match.apply(action)
        assert await store.append_action(game_id, seq, action.to_json(), hand_number)
        seq += 1
        if len(match.results) > hand_number:
            result = match.results[hand_number]
            winner = result.winner
            entries = settlement_entries(result.deltas, USERS, winner)
            await store.settle_hand(
                GUILD, game_id, hand_number, entries, stake=STAKE,
                winner_user=USERS[winner] if winner is not None else None,
            )  # fmt: skip


# Seeds whose first hands include wins under the policy above (not only draws).
@pytest.mark.parametrize(("variant", "seed"), [("jiaxing", 1), ("taizhou", 20261129)])
async def test_replay_from_stored_log_reproduces_the_match(
    tmp_path: Path, variant: str, seed: int
) -> None:
    path = tmp_path / "replay.db"
    options = {"rounds": 2}
    game_id = f"replay-{variant}"
    seats = [
        {"seat": seat, "user_id": user} if user else {"seat": seat, "ai": True}
        for seat, user in enumerate(USERS)
    ]
    rng = random.Random(7)
    match = Match(variant, options, seed)
    async with await Store.open(path) as store:
        await store.create_game(game_id, GUILD, 1, variant, options, seats, seed, {"stake": STAKE})
        await store.set_game_status(game_id, "running")
        await play(store, match, game_id, rng, until_hands=3, extra_actions=17)
    assert len(match.results) == 3 and not match.round.is_over
    assert any(result.winner is not None for result in match.results)

    # "Restart": a new store on the same file finds the game and rebuilds it.
    async with await Store.open(path) as store:
        (record,) = await store.running_games()
        assert (record.game_id, record.variant, record.seed, record.options) == (
            game_id,
            variant,
            seed,
            options,
        )
        actions = await store.load_actions(game_id)
        assert actions == [action.to_json() for action in match.actions]
        replayed = Match.replay(record.variant, record.options, record.seed, actions)
        assert replayed.round.snapshot() == match.round.snapshot()
        assert replayed.scores == match.scores
        assert [r.to_json() for r in replayed.results] == [r.to_json() for r in match.results]
        for seat in range(4):
            assert replayed.player_view(seat) == match.player_view(seat)
        # Each stored hand has its own slice of the log and its settlement.
        records = await store.load_action_records(game_id)
        assert [r.hand_number for r in records] == sorted(r.hand_number for r in records)
        assert {r.hand_number for r in records} == {0, 1, 2, 3}
        for number, result in enumerate(replayed.results):
            rows = await store.hand_entries(game_id, number)
            assert [row.units for row in rows] == list(result.deltas)
            assert [row.points for row in rows] == [delta * STAKE for delta in result.deltas]
            # The session re-settling a hand it replayed pays nothing the second time.
            entries = settlement_entries(result.deltas, USERS, result.winner)
            assert not await store.settle_hand(GUILD, game_id, number, entries, stake=STAKE)
        expected = {
            user: 1000 + STAKE * sum(r.deltas[seat] for r in match.results)
            for seat, user in enumerate(USERS)
            if user
        }
        assert {user: await store.get_balance(GUILD, user) for user in expected} == expected

        # Play on from the replayed match: the log continues where it stopped.
        await play(store, replayed, game_id, rng, until_hands=4, extra_actions=0)
        assert len(await store.load_actions(game_id)) == len(replayed.actions)
        again = Match.replay(variant, options, seed, await store.load_actions(game_id))
        assert again.round.snapshot() == replayed.round.snapshot()
        assert await store.verify_balances() == []
