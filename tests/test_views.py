"""PlayerView and PublicView (issue 2 item 8): nothing outside the engine needs the full
state, and a view never holds another seat's concealed tiles."""

from __future__ import annotations

import copy
import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from scenario import act, meld, stage

from engine.ai_simple import greedy_policy
from engine.match import Match
from engine.round import Round
from engine.tiles import parse_tile, parse_tiles
from engine.types import Action
from engine.views import DiscardView

CONTEST = [
    "5m111p234p567p789p1z",
    "46m123s456s78s234z",
    "55m11s22s33s44s567z",
    "4m6m88m99m66p2z3z4z",
]


def test_dealer_view_shows_the_fourteenth_tile_apart() -> None:
    round_ = Round("taizhou", seed=21)
    view = round_.player_view(0)
    assert view.drawn == round_.drawn[0]
    assert len(view.concealed) == 13 and list(view.concealed) == sorted(view.concealed)
    assert sorted(view.all_concealed) == round_.concealed_tiles(0)
    assert set(view.legal) == set(round_.legal_actions(0))
    other = round_.player_view(1)
    assert other.drawn is None and len(other.concealed) == 13 and other.legal == ()


def test_public_view_holds_counts_not_tiles() -> None:
    round_ = Round("jiaxing", seed=22)
    public = round_.public_view()
    assert [seat.concealed_count for seat in public.seats] == [14, 13, 13, 13]
    assert public.phase == "turn" and public.current_seat == 0 and public.waiting_on == (0,)
    assert public.indicator == round_.indicator and public.wild == round_.wild
    assert public.dice == round_.wall.dice and public.tiles_left == round_.tiles_left
    assert not any(hasattr(seat, "concealed") for seat in public.seats)


def test_concealed_kong_kind_is_hidden_from_the_public_but_not_from_its_owner() -> None:
    round_ = stage("taizhou", ["1111m234p567p789p2z", *CONTEST[1:]], back="6s", drawn="1m")
    act(round_, "kong", 0, "1m")
    assert round_.public_view().seats[0].melds[0].tiles == ()
    assert round_.player_view(1).public.seats[0].melds[0].tiles == ()
    assert round_.player_view(0).melds[0].tiles == (0, 0, 0, 0)


def test_claim_window_view_shows_the_tile_and_the_seats_own_choices() -> None:
    round_ = stage("jiaxing", CONTEST)
    act(round_, "discard", 0, "5m")
    view = round_.player_view(1)
    assert view.claim_tile == parse_tile("5m")
    assert Action("chow", 1, tiles=tuple(parse_tiles("456m"))) in view.legal
    assert round_.public_view().last_discard == (0, parse_tile("5m"))
    assert round_.public_view().current_seat is None
    assert round_.player_view(3).legal == ()


def test_claim_window_public_view_does_not_reveal_who_can_claim() -> None:
    """Only seats 1 (chow) and 2 (pung) can claim 5m, but the table shows every other seat
    as considering it, and an answer is never shown to the other seats."""
    from engine.round import events_for

    round_ = stage("jiaxing", CONTEST)
    act(round_, "discard", 0, "5m")
    assert set(round_.waiting_on) == {1, 2}
    assert round_.public_view().waiting_on == (1, 2, 3)
    events = act(round_, "pass", 1)
    assert [e["type"] for e in events_for(events, 1)] == ["respond"]
    assert events_for(events, 0) == [] and events_for(events, None) == []


def test_river_shows_claimed_discards_and_who_took_them() -> None:
    round_ = stage("jiaxing", CONTEST)
    act(round_, "discard", 0, "5m")
    act(round_, "pung", 2)
    river = round_.public_view().seats[0].discards
    assert river[-1].tile == parse_tile("5m") and river[-1].claimed and river[-1].by_seat == 2
    assert round_.public_view().seats[2].melds[0].tiles == (4, 4, 4)


def test_player_view_lists_its_waits() -> None:
    round_ = stage("taizhou", ["5m111p234p567p789p1z", "123m456m789m234p5s", *CONTEST[2:]])
    assert round_.player_view(1).waits == tuple(parse_tiles("5s9s"))  # 9s: the wild kind
    assert round_.player_view(0).waits == ()  # 14 tiles: no waits to show


def test_another_seats_hand_never_changes_a_view() -> None:
    """Swap seat 2's concealed tiles with wall tiles: seats 0, 1 and 3 and the public see
    exactly what they saw before."""
    hands = [*CONTEST]
    hands[2] = "55m11s22s33s5z6z"
    round_ = stage("jiaxing", hands, melds={2: [meld("kong", "3333m", concealed=True)]})
    before = [round_.player_view(seat) for seat in (0, 1, 3)]
    public = round_.public_view()
    other = copy.deepcopy(round_)
    seat2 = other.concealed_tiles(2)
    other.hands[2] = [0] * 34
    for kind in other.wall.tiles[: len(seat2)]:
        other.hands[2][kind] += 1
    other.wall.tiles = seat2 + other.wall.tiles[len(seat2) :]
    other.melds[2] = [meld("kong", "7777m", concealed=True)]
    assert [other.player_view(seat) for seat in (0, 1, 3)] == before
    assert other.public_view() == public


def test_match_views_carry_turn_id_and_round_index() -> None:
    match = Match("taizhou", seed=23)
    match.apply(match.round.default_action(0))
    public = match.public_view()
    assert public.turn_id == 1 and public.round_index == 0 and public.hand_number == 0
    assert match.player_view(1).public == public


def test_liability_and_folding_are_public() -> None:
    round_ = stage("jiaxing", CONTEST)
    round_.santan_pairs = [(1, 3)]
    round_.folded = {2}
    seats = round_.public_view().seats
    assert seats[1].liable_with == (3,) and seats[3].liable_with == (1,)
    assert seats[2].folded and not seats[0].folded and seats[0].liable_with == ()


def test_result_is_in_the_public_view_when_the_hand_ends() -> None:
    round_ = stage("taizhou", ["111222333m444p55p", *CONTEST[1:]], drawn="5p")
    act(round_, "win", 0)
    public = round_.public_view()
    assert public.phase == "ended" and public.result is round_.result
    assert public.waiting_on == () and public.current_seat is None


def test_rivers_in_public_views_match_the_round_at_every_step() -> None:
    """The round keeps the views of settled discards between public views; each view's
    rivers must still equal the rivers rebuilt from scratch (claims included)."""
    for variant in ("jiaxing", "taizhou"):
        match = Match(variant, None, "rivers")
        rng = random.Random(3)
        claims = 0
        for _ in range(400):
            if match.finished:
                break
            round_ = match.round
            public = match.public_view()
            for seat_view in public.seats:
                rebuilt = tuple(
                    DiscardView(d.tile, d.claimed, d.by_seat)
                    for d in round_.discards[seat_view.seat]
                )
                assert seat_view.discards == rebuilt
            claims = max(claims, sum(d.claimed for s in public.seats for d in s.discards))
            seat = round_.waiting_on[0]
            match.apply(greedy_policy(match.player_view(seat), rng))
        assert claims > 0  # the run saw claimed discards, the case the cache must get right


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(["jiaxing", "taizhou"]),
    seed=st.integers(min_value=0, max_value=10**6),
    moves=st.integers(min_value=1, max_value=400),
)
def test_a_views_counts_are_its_own_tiles_after_every_action(
    variant: str, seed: int, moves: int
) -> None:
    """The round hands every view its hand's counts (what the AI reads instead of
    counting again): they must equal the view's own tiles counted, for every seat, in
    every phase, after every action of a game (draws, discards, claims, kongs, ends)."""
    match = Match(variant, None, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.finished:
            break
        for seat in range(4):
            view = match.player_view(seat)
            expected = [0] * 34
            for kind in view.all_concealed:
                expected[kind] += 1
            assert view.counts == bytes(expected)
        seat = match.round.waiting_on[0]
        match.apply(greedy_policy(match.player_view(seat), rng))


def test_a_view_made_or_replaced_by_hand_counts_its_own_tiles() -> None:
    """A view not made by the round (a test's, ``dataclasses.replace``) never carries
    counts of other tiles: they are counted from its own."""
    view = Round("taizhou", seed=23).player_view(0)
    other = dataclasses.replace(view, concealed=tuple(parse_tiles("123m456p789s1122z")), drawn=None)
    expected = [0] * 34
    for kind in parse_tiles("123m456p789s1122z"):
        expected[kind] += 1
    assert other.counts == bytes(expected)
    assert dataclasses.replace(view).counts == view.counts
