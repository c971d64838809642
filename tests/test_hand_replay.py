"""A hand record rebuilt from the seed and the action log (issue 14 item 2): every frame
follows the played match, the last frame holds the hand's result, hands are face up."""

from __future__ import annotations

import random

import pytest
from scenario import pick

from engine.match import Match
from engine.replay import ReplayError, replay_hand
from engine.tiles import NUM_KINDS


def played_match(variant: str, seed: int, hands: int = 2) -> tuple[Match, list[tuple[int, dict]]]:
    """A match played at random until ``hands`` hands ended, with its (hand, action) log."""
    match = Match(variant, None, seed)
    rng = random.Random(seed)
    log: list[tuple[int, dict]] = []
    while len(match.results) < hands and not match.finished:
        number = match.hand_number
        seat = rng.choice(match.round.waiting_on)
        action = pick(match.legal_actions(seat), rng)
        match.apply(action)
        log.append((number, action.to_json()))
    return match, log


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_each_hand_replays_to_its_stored_result(variant: str) -> None:
    match, log = played_match(variant, seed=11, hands=2)
    for number, stored in enumerate(match.results):
        record = replay_hand(variant, None, 11, log, number)
        actions = [action for hand, action in log if hand == number]
        assert record.steps == len(actions)
        assert [frame.step for frame in record.frames] == list(range(len(actions) + 1))
        assert record.frames[0].action is None
        assert [f.action.to_json() for f in record.frames[1:]] == actions  # type: ignore[union-attr]
        assert record.result is not None
        assert record.result.to_json() == stored.to_json()
        assert all(frame.public.result is None for frame in record.frames[:-1])
        assert {frame.public.hand_number for frame in record.frames} == {number}
        # Totals: before the hand on every frame but the last, after it on the last.
        before = [sum(r.deltas[seat] for r in match.results[:number]) for seat in range(4)]
        assert [s.score for s in record.frames[0].public.seats] == before
        assert [s.score for s in record.frames[-1].public.seats] == [
            total + delta for total, delta in zip(before, stored.deltas, strict=True)
        ]


def test_frames_show_every_hand_face_up_and_count_every_tile() -> None:
    _match, log = played_match("taizhou", seed=5, hands=1)
    record = replay_hand("taizhou", None, 5, log, 0)
    deal = record.frames[0]
    dealer = deal.public.dealer
    for seat, hand in enumerate(deal.hands):
        tiles = len(hand.concealed) + (hand.drawn is not None)
        assert tiles == (14 if seat == dealer else 13)
        assert deal.public.seats[seat].concealed_count == tiles
    assert deal.hands[dealer].drawn is not None
    for frame in record.frames:
        for seat, hand in enumerate(frame.hands):
            assert all(0 <= kind < NUM_KINDS for kind in hand.concealed)
            assert len(hand.melds) == len(frame.public.seats[seat].melds)


def test_unknown_and_unfinished_hands_are_refused() -> None:
    match, log = played_match("jiaxing", seed=3, hands=1)
    with pytest.raises(ReplayError, match="no hand 6"):
        replay_hand("jiaxing", None, 3, log, 5)
    with pytest.raises(ReplayError, match="no hand 0"):
        replay_hand("jiaxing", None, 3, log, -1)
    unfinished = list(log)
    # The first few actions of the next hand: that hand is still being played.
    rng = random.Random(1)
    for _ in range(3):
        seat = rng.choice(match.round.waiting_on)
        action = pick(match.legal_actions(seat), rng)
        match.apply(action)
        unfinished.append((1, action.to_json()))
    with pytest.raises(ReplayError, match="has not ended"):
        replay_hand("jiaxing", None, 3, unfinished, 1)


def test_the_last_frame_shows_the_winning_hand_with_the_winning_tile_apart() -> None:
    checked = set()
    for seed in range(1, 40):
        _match, log = played_match("taizhou", seed=seed, hands=1)
        record = replay_hand("taizhou", None, seed, log, 0)
        result = record.result
        if result is None or result.winner is None or result.hand is None:
            continue
        shown = record.frames[-1].hands[result.winner]
        assert shown.drawn is not None
        assert sorted((*shown.concealed, shown.drawn)) == sorted(result.hand.concealed)
        checked.add(result.win_by)
        if {"discard", "self_draw"} <= checked:
            break
    assert {"discard", "self_draw"} <= checked
