"""``Round.determinized``: a copy of the hand with every tile a seat cannot see dealt
again, for searches that play the rest of the hand out (``benchmarks/search_headroom.py``).

The seat must not be able to tell the copy from the real hand, no tile may appear or
vanish, and playing the copy must leave the real hand untouched."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenario import act, meld, stage

from engine.ai import choose_action
from engine.match import Match
from engine.round import Round
from engine.tiles import parse_tile

# The other seats' hands of ``test_round_common``'s claim contest (seat 3 with two more
# tiles, so that the hand can be played on): nobody can claim 1m.
OTHER_HANDS = ["46m123s456s78s234z", "55m11s22s33s44s567z", "4m6m88m99m66p79p234z"]


def _played(variant: str, seed: int, steps: int, wild_copies: int = 3) -> Round:
    match = Match(variant, {"wild_copies": wild_copies}, f"determinized:{seed}")
    rng = random.Random(seed)
    for _ in range(steps):
        if match.hand_number > 0 or match.finished:
            break
        seat = match.round.waiting_on[0]
        match.apply(choose_action(match.player_view(seat), "easy", rng))
    return match.round


def _play_out(round_: Round, seed: int) -> None:
    rng = random.Random(seed)
    while not round_.is_over:
        seat = round_.waiting_on[0]
        round_.apply(choose_action(round_.player_view(seat), "easy", rng))


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(["jiaxing", "taizhou"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 80),
    wild_copies=st.sampled_from([3, 4]),
    copy_seed=st.integers(0, 1_000),
)
def test_the_seat_sees_the_same_hand_and_no_tile_is_lost(
    variant: str, seed: int, steps: int, wild_copies: int, copy_seed: int
) -> None:
    round_ = _played(variant, seed, steps, wild_copies)
    if round_.is_over:
        return
    seat = round_.waiting_on[0]
    before = round_.snapshot()
    clone = round_.determinized(seat, random.Random(copy_seed))
    assert clone.player_view(seat) == round_.player_view(seat)
    assert clone.legal_actions(seat) == round_.legal_actions(seat)
    assert all(count == 4 for count in clone.tile_census())
    assert [sum(hand) for hand in clone.hands] == [sum(hand) for hand in round_.hands]
    assert [drawn is None for drawn in clone.drawn] == [drawn is None for drawn in round_.drawn]
    for other, drawn in enumerate(clone.drawn):
        assert drawn is None or clone.hands[other][drawn] >= 1
    if round_.wall.indicator_in_wall and round_.wall.drawn_from_back == 0:
        assert clone.wall.tiles[-1] == round_.wall.tiles[-1] == round_.indicator
    _play_out(clone, copy_seed)
    assert all(count == 4 for count in clone.tile_census())
    assert round_.snapshot() == before


def test_hidden_tiles_are_dealt_again_and_the_same_rng_deals_the_same() -> None:
    round_ = _played("taizhou", 3, 20)
    seat = round_.waiting_on[0]
    others = [other for other in range(4) if other != seat]
    clones = [round_.determinized(seat, random.Random(index)) for index in range(5)]
    for clone in clones:
        assert [clone.hands[o] for o in others] != [round_.hands[o] for o in others]
        assert clone.wall.tiles != round_.wall.tiles
    assert clones[0].hands != clones[1].hands
    again = round_.determinized(seat, random.Random(0))
    assert again.snapshot() == clones[0].snapshot()


def test_another_seats_concealed_kong_takes_a_kind_whose_copies_are_all_hidden() -> None:
    round_ = stage("taizhou", ["1111m234p567p789p2z", *OTHER_HANDS], back="6s", drawn="1m")
    act(round_, "kong", 0, "1m")
    seen_by_seat_1 = round_.player_view(1)
    kinds = set()
    for index in range(40):
        clone = round_.determinized(1, random.Random(index))
        kong = clone.melds[0][0]
        assert kong.concealed and len(set(kong.tiles)) == 1 and len(kong.tiles) == 4
        assert clone.player_view(1) == seen_by_seat_1
        assert all(count == 4 for count in clone.tile_census())
        kinds.add(kong.kind)
    assert len(kinds) > 1 and parse_tile("1m") not in round_.player_view(1).concealed
    own = round_.determinized(0, random.Random(0))
    assert own.melds[0][0] == round_.melds[0][0]  # the kong's owner knows its kind


def test_a_seat_outside_the_table_is_refused() -> None:
    round_ = _played("jiaxing", 1, 0)
    with pytest.raises(ValueError, match="seat 4"):
        round_.determinized(4, random.Random(0))


def test_in_a_claim_window_the_others_claims_follow_their_new_tiles() -> None:
    # Seat 0 discards 5m: seat 1 may chow it (46m), seat 2 may pung it (55m).
    hands = ["5m111p234p567p789p1z", "46m123s456s78s234z", *OTHER_HANDS[1:]]
    round_ = stage("taizhou", hands)
    act(round_, "discard", 0, "5m")
    five = parse_tile("5m")
    assert round_.waiting_on == (1, 2)
    offered_pung = set()
    for index in range(30):
        clone = round_.determinized(1, random.Random(index))
        assert clone.legal_actions(1) == round_.legal_actions(1)
        for other in (2, 3):
            pung = any(action.type == "pung" for action in clone.legal_actions(other))
            assert pung == (clone.hands[other][five] >= 2), (index, other)
            offered_pung.add(pung)
        _play_out(clone, index)
        assert all(count == 4 for count in clone.tile_census())
    assert offered_pung == {True, False}


def test_in_a_rob_window_only_seats_that_can_win_on_the_tile_may_rob() -> None:
    # Seat 0 adds 5p to its pung; seat 1 (34p + three pungs + 99p) can rob it.
    hands = [
        "5p123m456m78m56z",
        "34p111p222p888p99p",
        "3s4p6p8p2s4s6s8s3s5s7s6z7z",
        "11m9m99p1357s2347z",
    ]
    round_ = stage(
        "taizhou", hands, melds={0: [meld("pung", "555p", from_seat=3)]}, drawn="5p", back="1s"
    )
    act(round_, "kong", 0, "5p")
    five = parse_tile("5p")
    assert round_.phase == "rob_kong" and round_.waiting_on == (1,)
    robbed = round_.determinized(1, random.Random(0))
    assert robbed.phase == "rob_kong" and 1 in robbed.waiting_on
    phases = set()
    for index in range(20):
        clone = round_.determinized(0, random.Random(index))
        robbers = {other for other in (1, 2, 3) if five in clone.waits(other)}
        if robbers:
            assert clone.phase == "rob_kong" and set(clone.waiting_on) == robbers
        else:  # the kong stands and seat 0 has drawn its replacement
            assert clone.phase == "turn" and clone.waiting_on == (0,)
            assert clone.melds[0][0].is_kong and clone.drawn[0] is not None
        phases.add(clone.phase)
        _play_out(clone, index)
        assert all(count == 4 for count in clone.tile_census())
    assert "turn" in phases


@settings(max_examples=15, deadline=None)
@given(
    variant=st.sampled_from(["jiaxing", "taizhou"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 80),
)
def test_an_exact_copy_plays_on_to_the_same_result_and_leaves_the_hand_alone(
    variant: str, seed: int, steps: int
) -> None:
    # ``Round.copy`` is how ``benchmarks/decision_forks.py`` plays one moment on twice: the
    # copy must be the same hand (same result under the same players) and independent.
    round_ = _played(variant, seed, steps)
    if round_.is_over:
        return
    before = (round_.turn_id, [list(h) for h in round_.hands], list(round_.wall.tiles))
    first, second = round_.copy(), round_.copy()
    _play_out(first, seed)
    assert (round_.turn_id, [list(h) for h in round_.hands], list(round_.wall.tiles)) == before
    _play_out(second, seed)
    assert first.result is not None and second.result is not None
    assert first.result.deltas == second.result.deltas
    assert first.result.winner == second.result.winner
    _play_out(round_, seed)
    assert round_.result is not None and round_.result.deltas == first.result.deltas
