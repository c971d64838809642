"""RULES.md §0 mechanics shared by both variants: deal, discard, claims and their
priority, kongs and replacement draws, wilds in claims, illegal actions, timeouts."""

from __future__ import annotations

import pytest
from scenario import act, event_types, meld, stage, types_of

from engine.round import IllegalAction, Round, events_for
from engine.tiles import parse_tile, parse_tiles
from engine.types import Action

VARIANTS = ["jiaxing", "taizhou"]

# A claim contest on seat 0's 5m: seat 1 (right of 0, so 0 is its left player) can chow
# it, seat 2 can pung it, seat 3 holds 46m but is not to the right of seat 0.
CONTEST = [
    "5m111p234p567p789p1z",
    "46m123s456s78s234z",
    "55m11s22s33s44s567z",
    "4m6m88m99m66p2z3z4z",
]


@pytest.mark.parametrize("variant", VARIANTS)
def test_deal_gives_dealer_fourteen_and_marks_the_fourteenth_as_drawn(variant: str) -> None:
    round_ = Round(variant, seed=11, dealer=2)
    assert [sum(hand) for hand in round_.hands] == [13, 13, 14, 13]
    assert round_.phase == "turn" and round_.current_seat == 2
    drawn = round_.drawn[2]
    assert drawn is not None and round_.hands[2][drawn] >= 1
    assert round_.drawn == [None, None, drawn, None]
    assert round_.waiting_on == (2,)
    assert all(count == 4 for count in round_.tile_census())


@pytest.mark.parametrize("variant", VARIANTS)
def test_only_the_seat_in_turn_has_actions_and_it_may_discard_any_held_kind(variant: str) -> None:
    round_ = Round(variant, seed=3)
    held = {kind for kind in range(34) if round_.hands[0][kind]}
    discards = {a.tile for a in round_.legal_actions(0) if a.type == "discard"}
    assert discards == held
    assert all(round_.legal_actions(seat) == [] for seat in (1, 2, 3))


@pytest.mark.parametrize("variant", VARIANTS)
def test_discard_with_no_claim_goes_to_river_and_next_seat_draws(variant: str) -> None:
    round_ = stage(variant, CONTEST, draws="9p")
    events = act(round_, "discard", 0, "1z")
    assert event_types(events) == ["discard", "draw"]
    assert [d.tile for d in round_.discards[0]] == [parse_tile("1z")]
    assert round_.current_seat == 1 and round_.drawn[1] == parse_tile("9p")
    assert sum(round_.hands[1]) == 14


@pytest.mark.parametrize("variant", VARIANTS)
def test_claim_window_offers_chow_only_to_the_right_of_the_discarder(variant: str) -> None:
    round_ = stage(variant, CONTEST)
    act(round_, "discard", 0, "5m")
    assert round_.phase == "claim"
    assert round_.waiting_on == (1, 2)
    assert types_of(round_.legal_actions(1)) == {"chow", "pass"}
    assert [a.tiles for a in round_.legal_actions(1) if a.type == "chow"] == [
        tuple(parse_tiles("456m"))
    ]
    assert types_of(round_.legal_actions(2)) == {"pung", "pass"}
    assert round_.legal_actions(3) == []  # holds 46m, but seat 0 is not its left player


@pytest.mark.parametrize("variant", VARIANTS)
def test_pung_beats_an_earlier_chow_answer(variant: str) -> None:
    round_ = stage(variant, CONTEST)
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    assert round_.phase == "claim" and round_.waiting_on == (2,)  # pung could still outrank
    events = act(round_, "pung", 2)
    assert "claim" in event_types(events)
    assert round_.melds[2][0].type == "pung" and round_.melds[1] == []
    assert round_.current_seat == 2 and types_of(round_.legal_actions(2)) == {"discard"}
    assert round_.discards[0][-1].claimed and round_.discards[0][-1].by_seat == 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_pung_answer_closes_the_window_without_waiting_for_a_chow(variant: str) -> None:
    round_ = stage(variant, CONTEST)
    act(round_, "discard", 0, "5m")
    act(round_, "pung", 2)
    assert round_.phase == "turn" and round_.current_seat == 2
    assert round_.legal_actions(1) == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_chow_wins_when_the_pung_holder_passes(variant: str) -> None:
    round_ = stage(variant, CONTEST)
    act(round_, "discard", 0, "5m")
    act(round_, "pass", 2)
    act(round_, "chow", 1, tiles="456m")
    chow = round_.melds[1][0]
    assert chow.type == "chow" and chow.tiles == tuple(parse_tiles("456m"))
    assert chow.from_seat == 0 and chow.claimed == parse_tile("5m")
    assert sum(round_.hands[1]) == 11 and round_.drawn[1] is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_everyone_passing_lets_the_next_seat_draw(variant: str) -> None:
    round_ = stage(variant, CONTEST, draws="9p")
    act(round_, "discard", 0, "5m")
    act(round_, "pass", 1)
    assert round_.phase == "claim"
    act(round_, "pass", 2)
    assert round_.current_seat == 1 and round_.drawn[1] == parse_tile("9p")


@pytest.mark.parametrize("variant", VARIANTS)
def test_after_a_claimed_pung_only_discards_no_draw_no_kong_no_win(variant: str) -> None:
    hands = [*CONTEST]
    hands[2] = "55m111s22s33s44s67z"  # 1s x3: would be a concealed kong with one more
    round_ = stage(variant, hands)
    act(round_, "discard", 0, "5m")
    act(round_, "pung", 2)
    assert types_of(round_.legal_actions(2)) == {"discard"}
    assert round_.after_claim


@pytest.mark.parametrize("variant", VARIANTS)
def test_exposed_kong_claim_draws_a_replacement_from_the_back(variant: str) -> None:
    hands = [*CONTEST]
    hands[2] = "555m1s22s33s44s567z"
    round_ = stage(variant, hands, back="8s", draws="7s")
    act(round_, "discard", 0, "5m")
    assert types_of(round_.legal_actions(2)) == {"pung", "kong", "pass"}
    act(round_, "pass", 1)
    events = act(round_, "kong", 2)
    draw = next(e for e in events if e["type"] == "draw")
    assert draw["replacement"] and draw["tile"] == "8s" and draw["private"] == 2
    assert round_.drawn[2] == parse_tile("8s") and round_.after_kong
    assert round_.melds[2][0].type == "kong" and round_.melds[2][0].claimed == parse_tile("5m")
    assert round_.wall.tiles[0] == parse_tile("7s")  # the live end is untouched


@pytest.mark.parametrize("variant", VARIANTS)
def test_concealed_kong_is_hidden_and_replaced_from_the_back(variant: str) -> None:
    round_ = stage(variant, ["1111m234p567p789p2z", *CONTEST[1:]], back="6s", drawn="1m")
    assert Action("kong", 0, tile=parse_tile("1m")) in round_.legal_actions(0)
    events = act(round_, "kong", 0, "1m")
    assert event_types(events) == ["concealed_kong", "draw"]
    assert "tile" not in events[0]
    kong = round_.melds[0][0]
    assert kong.concealed and kong.tiles == (0, 0, 0, 0)
    assert round_.drawn[0] == parse_tile("6s")
    public_meld = round_.public_view().seats[0].melds[0]
    assert public_meld.concealed and public_meld.tiles == ()
    assert all(count == 4 for count in round_.tile_census())


@pytest.mark.parametrize("variant", VARIANTS)
def test_added_kong_upgrades_the_pung_and_draws_from_the_back(variant: str) -> None:
    pung = meld("pung", "222p", from_seat=3)
    round_ = stage(
        variant,
        ["2p5m567p789p11z", *CONTEST[1:]],
        melds={0: [pung]},
        back="6s",
        drawn="2p",
    )
    events = act(round_, "kong", 0, "2p")
    assert event_types(events) == ["added_kong", "kong_made", "draw"]
    kong = round_.melds[0][0]
    assert kong.type == "kong" and kong.added and kong.from_seat == 3
    assert round_.drawn[0] == parse_tile("6s")
    assert all(count == 4 for count in round_.tile_census())


@pytest.mark.parametrize("variant", VARIANTS)
def test_kongs_are_not_offered_when_no_replacement_can_be_drawn(variant: str) -> None:
    pung = meld("pung", "222p", from_seat=3)
    round_ = stage(
        variant,
        ["1111m2p567p89p3z", *CONTEST[1:]],
        melds={0: [pung]},
        live=0,
        drawn="2p",
    )
    assert "kong" not in types_of(round_.legal_actions(0))
    round_ = stage(variant, ["1111m2p567p89p3z", *CONTEST[1:]], melds={0: [pung]}, live=1)
    kongs = {a.tile for a in round_.legal_actions(0) if a.type == "kong"}
    assert kongs == {parse_tile("1m"), parse_tile("2p")}


@pytest.mark.parametrize("variant", VARIANTS)
def test_discarded_wild_is_never_claimable(variant: str) -> None:
    hands = [*CONTEST]
    hands[0] = "5m9s11p234p567p789p"
    hands[2] = "99s11s22s33s44s567z"  # two more wilds: a pung, if wilds could be claimed
    round_ = stage(variant, hands, wild="9s", draws="1z")
    # The indicator 9s is out of play; the three other 9s are wild.
    assert round_.wild == parse_tile("9s")
    events = act(round_, "discard", 0, "9s")
    assert event_types(events) == ["discard", "draw"] and round_.current_seat == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_wilds_cannot_complete_a_claimed_pung_chow_or_kong(variant: str) -> None:
    hands = [*CONTEST]
    hands[1] = "4m9s123s456s78s34z"  # 4m + wild: a chow only if the wild could be 6m
    hands[2] = "5m9s11s22s33s44s67z"  # 5m + wild: a pung only if the wild could be 5m
    round_ = stage(variant, hands, wild="9s", draws="1z")
    events = act(round_, "discard", 0, "5m")
    assert event_types(events) == ["discard", "draw"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_four_wilds_never_make_a_concealed_kong(variant: str) -> None:
    round_ = stage(
        variant,
        ["9999s234p567p789p2z", *CONTEST[1:]],
        wild="9s",
        options={"wild_copies": 4},
        back="9m",
    )
    assert round_.wall.indicator_in_wall is True
    assert "kong" not in types_of(round_.legal_actions(0))


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_action_raises_a_clear_error_and_changes_nothing(variant: str) -> None:
    round_ = stage(variant, CONTEST)
    before = round_.snapshot()
    cases = [
        (Action("discard", 1, tile=0), "seat 0's turn, not seat 1's"),
        (Action("discard", 0, tile=parse_tile("9m")), "hold no 9m"),
        (Action("pung", 0), "pung is not possible now"),
        (Action("discard", 7, tile=0), "seat 7 is not at this table"),
    ]
    for action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            round_.apply(action)
        assert round_.snapshot() == before
    act(round_, "discard", 0, "5m")
    before = round_.snapshot()
    with pytest.raises(IllegalAction, match="that chow is not possible"):
        act(round_, "chow", 1, tiles="345m")
    with pytest.raises(IllegalAction, match="seat 3 has nothing to answer"):
        act(round_, "pass", 3)
    with pytest.raises(IllegalAction, match="chow is not possible now"):
        act(round_, "chow", 2, tiles="456m")
    assert round_.snapshot() == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_nothing_is_legal_after_the_hand_ends(variant: str) -> None:
    # A winning shape; the fake scorer accepts any shape.
    round_ = stage(variant, ["111222333m444p55p", *CONTEST[1:]], drawn="5p", wild="9s")
    act(round_, "win", 0)
    assert round_.is_over and round_.waiting_on == ()
    assert all(round_.legal_actions(seat) == [] for seat in range(4))
    with pytest.raises(IllegalAction, match="the hand is over"):
        act(round_, "discard", 0, "1m")


@pytest.mark.parametrize("variant", VARIANTS)
def test_default_action_discards_drawn_tile_or_last_tile_and_passes_claims(variant: str) -> None:
    round_ = stage(variant, CONTEST, drawn="1z")
    assert round_.default_action(0) == Action("discard", 0, tile=parse_tile("1z"))
    round_.drawn[0] = None
    assert round_.default_action(0) == Action("discard", 0, tile=parse_tile("1z"))  # last kind
    act(round_, "discard", 0, "5m")
    assert round_.default_action(1) == Action("pass", 1)
    assert round_.default_action(3) is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_timeout_after_a_claim_keeps_the_wild(variant: str) -> None:
    """RULES.md §3: with no drawn tile the default discards the last tile in hand, the one
    the player sees last: hands are shown wilds first, so a wild Red (the highest kind)
    stays in hand and the highest natural tile goes."""
    round_ = stage(
        variant,
        ["5m111p234p567p789p1z", "4m6m1s3s5s7s8p2z3z4z6z7z2p",
         "1m3m7m9m1p3p7p9p1s3s7s2z3z", "2m2p4p6p8p2s4s6s8s3z1z6m"],
        wild="7z",
    )  # fmt: skip
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    assert round_.drawn[1] is None
    assert round_.default_action(1) == Action("discard", 1, tile=parse_tile("6z"))
    # With only wilds left to throw, a wild it is.
    round_.hands[1][:] = [0] * len(round_.hands[1])
    round_.hands[1][parse_tile("7z")] = 2
    assert round_.default_action(1) == Action("discard", 1, tile=parse_tile("7z"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_events_for_hides_another_seats_draw(variant: str) -> None:
    round_ = stage(variant, CONTEST, draws="9p")
    events = act(round_, "discard", 0, "1z")
    draw = events[-1]
    assert draw["type"] == "draw" and draw["private"] == 1
    assert events_for(events, 1)[-1]["tile"] == "9p"
    for viewer in (0, 2, 3, None):
        hidden = events_for(events, viewer)[-1]
        assert hidden["type"] == "draw" and hidden["seat"] == 1 and "tile" not in hidden
    assert events_for(events, 0)[0] == events[0]  # public events pass unchanged


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_the_self_draw_gate_answers_as_the_shape_check_does(variant: str) -> None:
    """Each turn asks whether the draw wins through ``_self_draw_shape_ok``, which reads
    the counts straight when the hand has one reading; it must answer exactly as the
    general ``_shape_ok`` does, on dealt hands and on hands rich in wilds, Whites, pairs
    and sets (where wins and seven pairs are common)."""
    import random

    rng = random.Random(f"self draw {variant}")
    agreed = wins = 0
    for seed in range(400):
        round_ = Round(variant, seed=seed)
        seat = round_.current_seat
        assert seat is not None
        for _ in range(6):
            kinds = rng.sample(range(34), rng.choice((4, 5, 7)))  # room for 14 tiles
            favoured = [k for k in (round_.wild, 33) if k is not None]  # wild and White
            hand = [0] * 34
            placed = 0
            while placed < 14:
                kind = rng.choice(kinds + favoured)
                if hand[kind] < 4:
                    hand[kind] += 1
                    placed += 1
            round_.hands[seat] = hand
            expected = round_._shape_ok(seat, None)
            assert round_._self_draw_shape_ok(seat) == expected, (hand, round_.wild)
            agreed += 1
            wins += expected
    assert agreed == 2400 and wins > 20  # winning shapes were among them
