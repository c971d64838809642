"""An audit of the round engine against RULES.md, scenario by scenario: claim priority,
wilds and White in claims, several winners or robbers, the skipped-win lock, three-claim
liability, Earthly Hand, the wall and its reserve, dealer rotation, the carried pool,
and random seeded matches that check the flow of play, the tile census and replay."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from scenario import (
    act,
    event_types,
    meld,
    pick,
    play_defaults_until,
    rig_self_draw_win,
    stage,
    types_of,
)

from engine.match import Match
from engine.round import Event, Round
from engine.scoring import score_hand
from engine.tiles import WHITE, is_honor, parse_tile, parse_tiles, to_counts
from engine.types import Action, HandResult, WinContext

VARIANTS = ["jiaxing", "taizhou"]


class Recorder:
    """A scorer that keeps every context it scores, then scores it for real."""

    def __init__(self, inner: Callable[[WinContext], HandResult] = score_hand) -> None:
        self.inner = inner
        self.contexts: list[WinContext] = []

    def __call__(self, ctx: WinContext) -> HandResult:
        self.contexts.append(ctx)
        return self.inner(ctx)


def _census_holds(round_: Round) -> bool:
    """Every kind in play is still four tiles somewhere (0 for a removed suit)."""
    return all(count in (0, 4) for count in round_.tile_census())


def _result_keys(round_: Round) -> set[str]:
    assert round_.result is not None
    return {item.key for item in round_.result.items}


# ---------------------------------------------------------------- claims


# Seat 0 discards 5m: seat 1 (its right player) can chow 456m, seat 3 holds 555m.
KONG_VS_CHOW = [
    "5m111p234p567p789p1z",
    "4m6m1s3s5s7s8p2z3z4z6z7z2p",
    "1m3m7m9m1p3p7p9p1s3s7s2z3z",
    "555m2p4p6p8p2s4s6s8s3z1z",
]


@pytest.mark.parametrize("variant", VARIANTS)
def test_kong_answer_outranks_an_earlier_chow_answer(variant: str) -> None:
    """RULES.md §0: "Claim priority: win 胡 > pung/kong > chow"."""
    round_ = stage(variant, KONG_VS_CHOW, back="9p")
    act(round_, "discard", 0, "5m")
    assert types_of(round_.legal_actions(3)) == {"pung", "kong", "pass"}
    act(round_, "chow", 1, tiles="456m")
    assert round_.phase == "claim" and round_.waiting_on == (3,)
    act(round_, "kong", 3)
    assert round_.melds[3][0].type == "kong" and round_.melds[1] == []
    assert round_.current_seat == 3 and round_.drawn[3] == parse_tile("9p")
    assert _census_holds(round_)


@pytest.mark.parametrize("variant", VARIANTS)
def test_chow_goes_through_when_the_kong_holder_passes(variant: str) -> None:
    """RULES.md §0: "A claimed chow or pung is followed by the claimer's discard, with no
    draw"; the chow stands once the higher claim is passed."""
    round_ = stage(variant, KONG_VS_CHOW)
    act(round_, "discard", 0, "5m")
    act(round_, "pass", 3)
    assert round_.phase == "claim" and round_.waiting_on == (1,)
    act(round_, "chow", 1, tiles="456m")
    assert round_.melds[1][0].type == "chow" and round_.current_seat == 1
    assert types_of(round_.legal_actions(1)) == {"discard"}
    assert round_.drawn[1] is None


def test_taizhou_win_outranks_earlier_chow_and_pung_answers() -> None:
    """RULES.md §0: "Claim priority: win 胡 > pung/kong > chow"."""
    # Seat 1 can chow 5m, seat 2 pung it, seat 3 win on it.
    round_ = stage(
        "taizhou",
        [
            "5m111p234p567p789p1z",
            "4m6m1s3s5s7s8p2z3z4z6z7z2p",
            "55m2p4p6p8p2s4s6s8s3z6z2z",
            "5m123s456s789p111z",
        ],
    )
    act(round_, "discard", 0, "5m")
    assert "win" in types_of(round_.legal_actions(3))
    act(round_, "chow", 1, tiles="456m")
    act(round_, "pung", 2)
    assert round_.phase == "claim" and round_.waiting_on == (3,)
    act(round_, "win", 3)
    assert round_.result is not None and round_.result.winner == 3
    assert round_.melds[1] == [] and round_.melds[2] == []


def test_taizhou_a_discarded_white_is_chowed_only_by_the_right_player() -> None:
    """RULES.md §0: "A chow ... may only be claimed from your left player's discard", a
    White standing for the wild's kind too."""
    # Wild 5m: seats 1, 2 and 3 all hold 4m and 6m.
    round_ = stage(
        "taizhou",
        [
            "5z111p234p567p789p1z",
            "4m6m1s3s5s7s8p2z3z4z6z7z2p",
            "4m6m2p4p6p8p2s4s6s8s3z1z",
            "4m6m7m9m1p3p7p9p1s3s7s2z",
        ],
        wild="5m",
    )
    act(round_, "discard", 0, "5z")
    assert round_.phase == "claim"
    assert "chow" in types_of(round_.legal_actions(1))
    assert round_.legal_actions(2) == [] and round_.legal_actions(3) == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_wild_never_completes_a_claimed_kong_but_the_natural_pung_stands(
    variant: str,
) -> None:
    """RULES.md §0: "Wilds may never be used in a claimed meld (no chow/pung/kong with a
    wild)"."""
    # Seat 3 holds 55m and a wild 9s: a pung, never an exposed kong.
    round_ = stage(
        variant,
        [
            "5m111p234p567p789p1z",
            "1m3m1s3s5s7s8p2z3z4z6z7z2p",
            "1m3m7m9m1p3p7p9p1s3s7s2z3z",
            "55m9s2p4p6p8p2s4s6s8s3z1z",
        ],
        wild="9s",
    )
    act(round_, "discard", 0, "5m")
    assert types_of(round_.legal_actions(3)) == {"pung", "pass"}


@pytest.mark.parametrize("live", [0, 5])
def test_taizhou_a_discarded_wild_is_not_won_on_even_as_the_last_discard(live: int) -> None:
    """RULES.md §0: "a discarded wild can be neither claimed nor won on"."""
    # Wild 5m; seat 1 waits on 2m and 5m.
    round_ = stage(
        "taizhou",
        [
            "5m111p234p567p789p1z",
            "1112223334445m",
            "2p4p6p8p2s4s6s8s3s5s7s6z7z",
            "1m3m1s3s5s7s2z3z4z6z7z7z7z",
        ],
        wild="5m",
        live=live,
    )
    events = act(round_, "discard", 0, "5m")
    assert round_.phase != "claim"
    assert "claim_window" not in event_types(events)


def test_taizhou_a_discarded_white_is_won_on_as_the_wilds_kind_over_a_chow() -> None:
    """RULES.md §2: "a discarded White may be chowed, and won on, as the wild's kind"; the
    win outranks the chow."""
    # Wild 5m: seat 1 can chow 4m-White-6m, seat 2 waits on 5m (closed wait 46m).
    round_ = stage(
        "taizhou",
        [
            "5z111p234p567p789p1z",
            "4m6m1s3s5s7s8p2z3z4z6z7z2p",
            "46m123s456s789s11z",
            "1m3m7m9m1p3p7p9p2s4s6s8s3z",
        ],
        wild="5m",
    )
    act(round_, "discard", 0, "5z")
    assert "chow" in types_of(round_.legal_actions(1))
    assert "win" in types_of(round_.legal_actions(2))
    act(round_, "chow", 1, tiles="456m")
    assert round_.phase == "claim" and round_.waiting_on == (2,)
    act(round_, "win", 2)
    assert round_.result is not None
    assert round_.result.winner == 2 and round_.result.win_by == "discard"


def test_taizhou_when_white_is_the_wild_a_held_white_makes_no_chow() -> None:
    """RULES.md §2: "If the wild kind is White itself, White stands only for White", and
    §0: no wild in a claimed meld."""
    round_ = stage(
        "taizhou",
        [
            "5m111p234p567p789p1z",
            "4m5z1s3s5s7s8p2z3z4z6z7z2p",
            "1m3m7m9m1p3p7p9p1s3s7s2z3z",
            "2m2p4p6p8p2s4s6s8s3z1z6m",
        ],
        wild="5z",
    )
    act(round_, "discard", 0, "5m")
    assert "chow" not in types_of(round_.legal_actions(1))


def test_taizhou_with_an_honor_wild_a_discarded_white_is_punged_as_whites_not_chowed() -> None:
    """RULES.md §2: "an exposed pung of Whites is Whites"; with South wild a White has no
    suit kind to stand for in a chow."""
    round_ = stage(
        "taizhou",
        [
            "5z111p234p567p789p1z",
            "5z5z1s3s5s7s8p3z4z6z7z2p1m",
            "1m3m7m9m1p3p7p9p1s3s7s3z",
            "2m2p4p6p8p2s4s6s8s3z1z6m",
        ],
        wild="2z",
    )
    act(round_, "discard", 0, "5z")
    assert types_of(round_.legal_actions(1)) == {"pung", "pass"}
    act(round_, "pung", 1)
    pung = round_.melds[1][0]
    assert pung.tiles == (WHITE,) * 3 and pung.white_as is None
    assert _census_holds(round_)


def test_taizhou_a_pung_of_a_discarded_white_with_a_suit_wild_is_whites() -> None:
    """RULES.md §2: "an exposed pung of Whites is Whites", even when White could stand for
    the wild's kind 5m."""
    round_ = stage(
        "taizhou",
        [
            "5z111p234p567p789p1z",
            "5z5z1s3s5s7s8p3z4z6z7z2p1m",
            "1m3m7m9m1p3p7p9p1s3s7s3z",
            "2m2p4p6p8p2s4s6s8s3z1z6m",
        ],
        wild="5m",
    )
    act(round_, "discard", 0, "5z")
    assert "pung" in types_of(round_.legal_actions(1))
    act(round_, "pung", 1)
    assert round_.melds[1][0].tiles == (WHITE,) * 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_after_a_claimed_chow_only_a_discard_no_kong_no_win(variant: str) -> None:
    """RULES.md §0: "A claimed chow or pung is followed by the claimer's discard, with no
    draw"; seat 1 holds four 1s but may not declare them."""
    round_ = stage(
        variant,
        [
            "5m111p234p567p789p1z",
            "4m6m1111s3s5s8p2z3z4z",
            "1m3m7m9m1p3p7p9p3s7s2z3z6z",
            "2m2p4p6p8p2s4s6s8s3z1z6m",
        ],
    )
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    assert types_of(round_.legal_actions(1)) == {"discard"}


def test_timeout_default_passes_a_claim_and_discards_the_drawn_tile() -> None:
    """RULES.md §3: "On a timeout the bot plays the safe default: discard the drawn tile
    (else the last tile in hand), or pass"."""
    round_ = stage("taizhou", KONG_VS_CHOW, draws="9p")
    act(round_, "discard", 0, "5m")
    assert round_.default_action(1) == Action("pass", 1)
    assert round_.default_action(3) == Action("pass", 3)
    act(round_, "pass", 1)
    act(round_, "pass", 3)
    assert round_.current_seat == 1 and round_.drawn[1] == parse_tile("9p")
    assert round_.default_action(1) == Action("discard", 1, tile=parse_tile("9p"))


# ---------------------------------------------------------------- several winners or robbers


# Seat 2 (in turn) adds its drawn 5p to an exposed 555p; seats 1 and 3 can both rob it.
ROB_MAKER = "5p123m456m78m56z"
ROB_FULL_FLUSH = "34p111p222p888p99p"  # waits on 2p and 5p
ROB_HALF_FLUSH = "67p111z222z333z44z"  # waits on 5p and 8p
ROB_IDLE = "1s2s3s4s6s8s1m3m5m7m3z5z6z"


def _rob_position(variant: str, options: dict[str, Any] | None = None) -> Round:
    """Dealer 0; seat 2 is about to add 5p to its pung; seats 1 and 3 wait on 5p."""
    return stage(
        variant,
        [ROB_IDLE, ROB_FULL_FLUSH, ROB_MAKER, ROB_HALF_FLUSH],
        melds={2: [meld("pung", "555p", from_seat=0)]},
        turn=2,
        drawn="5p",
        back="1s",
        options=options,
    )


def _assert_first_in_order_wins(opened: Callable[[], Round], winner: int, other: int) -> None:
    """Two seats can win the same tile in the window ``opened`` returns: a win by
    ``other`` waits for ``winner``, and a win by ``winner`` closes the window at once."""
    round_ = opened()
    assert set(round_.waiting_on) == {winner, other}
    act(round_, "win", other)
    assert round_.result is None and round_.waiting_on == (winner,)
    act(round_, "win", winner)
    assert round_.result is not None and round_.result.winner == winner
    round_ = opened()
    act(round_, "win", winner)
    assert round_.result is not None and round_.result.winner == winner


def test_jiaxing_two_robbers_the_first_after_the_kong_maker_wins_wrapping_round() -> None:
    """RULES.md §0: "Jiaxing: when two players could rob the same kong, the first in play
    order after the kong maker wins"; after seat 2 comes seat 3, before seat 1."""
    round_ = _rob_position("jiaxing")
    act(round_, "kong", 2, "5p")
    assert round_.phase == "rob_kong" and round_.waiting_on == (1, 3)
    act(round_, "win", 1)
    assert round_.phase == "rob_kong" and round_.waiting_on == (3,)
    act(round_, "win", 3)
    assert round_.result is not None
    assert round_.result.winner == 3 and round_.result.win_by == "rob_kong"


def test_jiaxing_the_first_robber_after_the_kong_maker_closes_the_window_at_once() -> None:
    """RULES.md §0: "the first in play order after the kong maker wins"."""
    round_ = _rob_position("jiaxing")
    act(round_, "kong", 2, "5p")
    act(round_, "win", 3)
    assert round_.result is not None and round_.result.winner == 3


@pytest.mark.parametrize(
    ("priority", "winner", "other"), [("from_dealer", 1, 3), ("after_discarder", 3, 1)]
)
def test_taizhou_two_robbers_follow_the_multi_win_priority(
    priority: str, winner: int, other: int
) -> None:
    """RULES.md §2: "the kong maker is the discarder. One winner per discard: ... the
    first in play order starting from the dealer" (option `multi_win_priority`)."""

    def opened() -> Round:
        round_ = _rob_position("taizhou", {"multi_win_priority": priority})
        act(round_, "kong", 2, "5p")
        assert round_.phase == "rob_kong"
        return round_

    _assert_first_in_order_wins(opened, winner, other)


DISCARDER = "5m111p234p567p789p1z"
WAITS_5M = "1112223334445m"  # waits on 2m and 5m
ALSO_WAITS_5M = "5m123s456s789p111z"
IDLE = "2p4p6p8p2s4s6s8s3s5s7s6z7z"


@pytest.mark.parametrize(
    ("priority", "winner", "other"), [("from_dealer", 2, 0), ("after_discarder", 0, 2)]
)
def test_taizhou_multi_win_order_counts_from_the_actual_dealer(
    priority: str, winner: int, other: int
) -> None:
    """RULES.md §2: "the first in play order starting from the dealer wins"; with dealer 1
    and discarder 3, seat 2 comes before seat 0."""

    def opened() -> Round:
        round_ = stage(
            "taizhou",
            [WAITS_5M, IDLE, ALSO_WAITS_5M, DISCARDER],
            turn=3,
            dealer=1,
            options={"multi_win_priority": priority},
        )
        act(round_, "discard", 3, "5m")
        return round_

    _assert_first_in_order_wins(opened, winner, other)


@pytest.mark.parametrize(
    ("priority", "winner", "other"), [("from_dealer", 0, 2), ("after_discarder", 2, 0)]
)
def test_taizhou_three_seat_multi_win_order(priority: str, winner: int, other: int) -> None:
    """RULES.md §2: "One winner per discard: ... starting from the dealer" (or after the
    discarder), at a three-seat table too."""

    def opened() -> Round:
        round_ = stage(
            "taizhou",
            [WAITS_5M, DISCARDER, ALSO_WAITS_5M],
            turn=1,
            options={"multi_win_priority": priority},
        )
        act(round_, "discard", 1, "5m")
        return round_

    _assert_first_in_order_wins(opened, winner, other)


def test_taizhou_last_discard_two_winners_from_the_dealer_and_no_pung() -> None:
    """RULES.md §2: the last discard "may be won on but not chowed, punged or konged"; of
    two winners the first from the dealer has priority."""
    round_ = stage(
        "taizhou",
        [DISCARDER, "55m2p4p6p8p2s4s6s8s3z6z2z", ALSO_WAITS_5M, "46m123s456s789s22z"],
        live=0,
        wild="7z",
    )
    act(round_, "discard", 0, "5m")
    assert round_.legal_actions(1) == []  # holds 55m: no pung on the last discard
    assert types_of(round_.legal_actions(2)) == {"win", "pass"}
    assert types_of(round_.legal_actions(3)) == {"win", "pass"}
    act(round_, "win", 3)
    assert round_.phase == "claim" and round_.waiting_on == (2,)
    act(round_, "pass", 2)
    assert round_.result is not None and round_.result.winner == 3


# ---------------------------------------------------------------- skipped win 过胡


def test_skipped_win_lock_is_per_kind_and_another_wait_is_still_won() -> None:
    """RULES.md §2: after passing a win "you cannot win on a discard of that kind until
    your next draw or claim"; other kinds stay winnable."""
    round_ = stage(
        "taizhou",
        [
            DISCARDER,
            "2p4p6p8p2s4s6s8s3s5s7s6z2m",
            "1p3p7p9p1s3s7s9p2z3z4z6z7z",
            WAITS_5M,
        ],
        draws="7z1z",
    )
    assert {parse_tile("2m"), parse_tile("5m")} <= set(round_.waits(3))
    act(round_, "discard", 0, "5m")
    assert "win" in types_of(round_.legal_actions(3))
    act(round_, "pass", 3)
    assert round_.skipped_win[3] == {parse_tile("5m")}
    act(round_, "discard", 1, "2m")  # seat 1 drew 7z
    assert "win" in types_of(round_.legal_actions(3))


def test_skipped_win_lock_survives_other_players_claims() -> None:
    """RULES.md §2: the lock lasts "until your next draw or claim": another player's pung
    does not lift it."""
    round_ = stage(
        "taizhou",
        [
            DISCARDER,
            "2p4p6p8p2s4s6s8s3s5s7s6z5m",
            "6z6z5m7p9p1s3s7s9p2z3z4z7z",
            WAITS_5M,
        ],
        draws="6z",
    )
    act(round_, "discard", 0, "5m")
    act(round_, "pass", 3)
    act(round_, "discard", 1, "6z")
    act(round_, "pung", 2)
    act(round_, "discard", 2, "5m")
    assert round_.phase == "claim" and types_of(round_.legal_actions(3)) == {"chow", "pass"}
    assert round_.skipped_win[3] == {parse_tile("5m")}


def test_taizhou_skipped_win_on_a_white_locks_white_and_leaves_self_draw_alone() -> None:
    """RULES.md §2: passing a White won as the wild's kind locks that kind of discard, but
    "self-draw is unaffected"."""
    # Wild 5m; seat 3 waits on 5m (closed wait 46m), which a White may stand for.
    round_ = stage(
        "taizhou",
        [
            "5z111p234p567p789p1z",
            "2p4p6p8p2s4s6s8s3s5s7s6z5z",
            "1p3p7p9p1s3s7s9p2z3z4z6z5z",
            "46m123s456s789s11z",
        ],
        wild="5m",
        draws="7z7z5z",
    )
    act(round_, "discard", 0, "5z")
    assert "win" in types_of(round_.legal_actions(3))
    act(round_, "pass", 3)
    assert round_.skipped_win[3] == {WHITE}
    events = act(round_, "discard", 1, "5z")  # another White: not offered
    assert event_types(events) == ["discard", "draw"]
    act(round_, "discard", 2, "7z")
    assert round_.current_seat == 3 and round_.drawn[3] == WHITE
    assert "win" in types_of(round_.legal_actions(3))


def test_jiaxing_a_discard_never_offers_a_win_but_a_pung_still() -> None:
    """RULES.md §1: "Self-draw 自摸 only. A discard can never be won on."; so passing it
    locks nothing."""
    round_ = stage(
        "jiaxing",
        [
            DISCARDER,
            "2p4p6p8p2s4s6s8s3s5s7s6z2z",
            "1p3p7p9p1s3s7s9p2z3z4z6z7z",
            "1112223334455m",
        ],
    )
    act(round_, "discard", 0, "5m")
    assert types_of(round_.legal_actions(3)) == {"pung", "pass"}
    act(round_, "pass", 3)
    assert round_.skipped_win[3] == set()


# ---------------------------------------------------------------- three-claim liability 三摊


def _three_claims_round() -> Round:
    """Seat 1 will pung, chow and kong three of seat 0's discards."""
    return stage(
        "jiaxing",
        [
            "1z7z5m1p2p3p4p5p6p7p8p9p5s5s",
            "1z1z7z7z7z4m6m2s3s6s7s8s8m",
            "1m2m3m1p2p3p4p5p6p1s1s3z6z",
            "2m3m7p8p4s5s6s7s8s2z3z4z6z",
        ],
        wild="9m",
        draws="5z5z5z5z2z4z",
        back="8p",
    )


def _claim_three_times(round_: Round) -> list[Event]:
    """Play seat 1's pung, chow and exposed kong of seat 0's discards; the kong's events."""
    act(round_, "discard", 0, "1z")
    assert round_.waiting_on == (1,)
    act(round_, "pung", 1)
    act(round_, "discard", 1, "8m")
    act(round_, "discard", 2, "5z")
    act(round_, "discard", 3, "5z")
    act(round_, "discard", 0, "5m")
    assert round_.waiting_on == (1,)
    act(round_, "chow", 1, tiles="456m")
    act(round_, "discard", 1, "2s")
    act(round_, "discard", 2, "5z")
    act(round_, "discard", 3, "2z")
    act(round_, "discard", 0, "7z")
    assert types_of(round_.legal_actions(1)) == {"pung", "kong", "pass"}
    return act(round_, "kong", 1)


def test_jiaxing_a_third_claim_pauses_for_continue_or_fold_then_replaces() -> None:
    """RULES.md §1: "On the third, taker and discarder become liable parties ... The hand
    pauses and each other player chooses Continue 跟 or Fold 不跟"."""
    round_ = _three_claims_round()
    events = _claim_three_times(round_)
    assert "santan" in event_types(events)
    assert round_.claim_counts[(1, 0)] == 3 and round_.santan_pairs == [(0, 1)]
    assert round_.phase == "santan" and round_.waiting_on == (2, 3)
    assert round_.drawn[1] is None  # the kong's replacement waits for the answers
    act(round_, "continue", 2)
    act(round_, "fold", 3)
    assert round_.phase == "turn" and round_.current_seat == 1
    assert round_.drawn[1] == parse_tile("8p")
    assert round_.folded == {3}
    assert _census_holds(round_)


def test_jiaxing_three_claim_timeout_is_continue() -> None:
    """RULES.md §1: "each other player chooses Continue 跟 or Fold 不跟 (timeout =
    Continue)"."""
    round_ = _three_claims_round()
    _claim_three_times(round_)
    for seat in (2, 3):
        default = round_.default_action(seat)
        assert default == Action("continue", seat)
        round_.apply(default)
    assert round_.folded == set() and round_.phase == "turn"


def test_jiaxing_a_second_liable_pair_with_nobody_left_to_ask_goes_on() -> None:
    """RULES.md §1: "A second liable pair in the same hand asks again only the players who
    are neither a liable party nor already folded"."""
    # Pair (0, 1) is liable and seat 2 folded; seat 3 pungs seat 1's 5m, its third claim.
    round_ = stage(
        "jiaxing",
        [
            "1m3m7m9m2p4p6p1s5s7s9s6z7z",
            "5m6z1z2z3z",
            "1m3m7m4p6p8p2s4s6s8s2z3z5z",
            "55m1p3p9p7z4z",
        ],
        melds={
            1: [
                meld("pung", "222p", from_seat=0),
                meld("pung", "777s", from_seat=0),
                meld("pung", "333s", from_seat=0),
            ],
            3: [meld("pung", "888p", from_seat=1), meld("pung", "444s", from_seat=1)],
        },
        turn=1,
        drawn="6z",
    )
    round_.santan_pairs = [(0, 1)]
    round_.folded = {2}
    round_.claim_counts = {(1, 0): 3, (3, 1): 2}
    act(round_, "discard", 1, "5m")
    act(round_, "pung", 3)
    assert round_.santan_pairs == [(0, 1), (1, 3)]
    assert round_.phase == "turn" and round_.current_seat == 3


def test_jiaxing_a_folded_player_cannot_rob_a_kong() -> None:
    """RULES.md §1: a folded player "draws and discards automatically ..., cannot claim or
    win"."""
    round_ = stage(
        "jiaxing",
        [
            "5p123m456m78m56z",
            "34p111p222p888p99p",
            "1s2s3s4s6s8s1m3m5m7m3z5z6z",
            "2s4s6s8s2m4m6m8m1z2z3z4z7z",
        ],
        melds={0: [meld("pung", "555p", from_seat=3)]},
        drawn="5p",
        back="1s",
    )
    round_.folded = {1}
    round_.santan_pairs = [(2, 3)]
    events = act(round_, "kong", 0, "5p")
    assert "rob_window" not in event_types(events)


def test_jiaxing_folded_players_draw_and_discard_automatically_in_turn() -> None:
    """RULES.md §1: "A folded player draws and discards automatically for the rest of the
    hand"; their draws and discards keep every tile."""
    round_ = stage(
        "jiaxing",
        [
            "1z111p234p567p789p5p",
            "2p4p6p8p2s4s6s8s3s5s7s6z7z",
            "1p3p7p9p1s3s7s9p2z3z4z6z7z",
            "2m4m6m8m1m3m7m2s4s6s8s5z5z",
        ],
        draws="2z3z4z",
    )
    round_.folded = {1, 2}
    round_.santan_pairs = [(0, 3)]
    events = act(round_, "discard", 0, "1z")
    assert event_types(events).count("auto_discard") == 2
    assert round_.current_seat == 3 and round_.drawn[3] == parse_tile("4z")
    assert round_.discards[1][-1].tile == parse_tile("2z")
    assert round_.discards[2][-1].tile == parse_tile("3z")
    assert _census_holds(round_)


# ---------------------------------------------------------------- Earthly Hand 地和


def _first_turn(hands: list[str], **kwargs: Any) -> tuple[Round, Recorder]:
    """A Jiaxing round before anyone's first discard, scored for real, no carried pool."""
    recorder = Recorder()
    round_ = stage("jiaxing", hands, first_turn=True, scorer=recorder, **kwargs)
    round_.carried_fan = 0
    return round_, recorder


# Seat 0 deals and discards 2s (seat 1 could pung it); seat 2 holds four Reds; seat 3's
# first draw, 5m, completes its hand.
KONG_BEFORE_FIRST_DRAW = [
    "2s111p234p567p789p2z",
    "2s2s4s6s8s1m3m1s3s3z4z6z5z",
    "7777z2m4m8m3p5p8p4z6p1s",
    "1112223334446m",
]


def test_earthly_hand_is_cancelled_by_a_chow_before_the_first_draw() -> None:
    """RULES.md §1: Earthly Hand is "a non-dealer self-draws on their first draw with no
    claim made before it — a chow, pung or exposed kong"."""
    round_, recorder = _first_turn(
        [
            "5m111p234p567p789p2z",
            "4m6m1s2s3s4s6s7s8s2z3z4z1z",
            "1112223334446s",
            "2m3m7m8m2p4p8p5s7s3z4z6z7z",
        ],
        draws="6s",
    )
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    act(round_, "discard", 1, "1z")
    assert round_.current_seat == 2 and round_.drawn[2] == parse_tile("6s")
    assert "win" in types_of(round_.legal_actions(2))
    act(round_, "win", 2)
    assert not recorder.contexts[-1].win.first_draw
    assert "earthly_hand" not in _result_keys(round_)


def test_earthly_hand_is_cancelled_by_another_players_exposed_kong() -> None:
    """RULES.md §1: Earthly Hand needs "no claim made before it — a chow, pung or exposed
    kong"."""
    round_, recorder = _first_turn(
        [
            "7z111p234p567p789p2z",
            "2s4s6s8s1m3m1s3s5s3z4z6z2z",
            "777z2m4m6m8m3p5p8p2z4z",
            "1112223334446m",
        ],
        draws="5m",
        back="1z",
    )
    act(round_, "discard", 0, "7z")
    act(round_, "kong", 2)
    act(round_, "discard", 2, "1z")
    assert round_.current_seat == 3 and round_.drawn[3] == parse_tile("5m")
    act(round_, "win", 3)
    assert not recorder.contexts[-1].win.first_draw


def test_earthly_hand_is_kept_after_another_players_concealed_kong_and_a_passed_claim() -> None:
    """RULES.md §1: "another player's concealed kong is not a claim", and neither is a
    pung that was passed."""
    round_, recorder = _first_turn(KONG_BEFORE_FIRST_DRAW, draws="1z3z5m", back="2z")
    act(round_, "discard", 0, "2s")
    assert "pung" in types_of(round_.legal_actions(1))
    act(round_, "pass", 1)
    act(round_, "discard", 1, "1z")
    assert round_.current_seat == 2
    act(round_, "kong", 2, "7z")
    act(round_, "discard", 2, "2z")
    assert round_.current_seat == 3 and round_.drawn[3] == parse_tile("5m")
    act(round_, "win", 3)
    assert recorder.contexts[-1].win.first_draw
    assert "earthly_hand" in _result_keys(round_)


def test_earthly_hand_off_option_scores_no_earthly_hand() -> None:
    """RULES.md §1: "option `earthly_hand`: `first_draw` default, `off`"."""
    round_, _ = _first_turn(
        KONG_BEFORE_FIRST_DRAW,
        draws="1z3z5m",
        back="2z",
        options={"earthly_hand": "off"},
    )
    act(round_, "discard", 0, "2s")
    act(round_, "pass", 1)
    act(round_, "discard", 1, "1z")
    act(round_, "discard", 2, "3z")
    assert round_.current_seat == 3 and round_.drawn[3] == parse_tile("5m")
    act(round_, "win", 3)
    assert "earthly_hand" not in _result_keys(round_)


# ---------------------------------------------------------------- wall and reserve


@pytest.mark.parametrize("seed", range(4))
def test_jiaxing_default_play_empties_the_wall(seed: int) -> None:
    """RULES.md §1: "Exhaustive draw. When the live wall is empty (option `reserve_tiles`,
    default 0)"."""
    round_ = Round("jiaxing", seed=seed)
    discards: list[Action] = []

    def apply(action: Action) -> list[Event]:
        if action.type == "discard":
            discards.append(action)
        return round_.apply(action)

    play_defaults_until(round_, lambda _: False, apply)
    assert round_.result is not None and round_.result.winner is None
    assert round_.wall.tiles == []
    # 136 less the indicator and 13 dealt to each seat: each is drawn, then discarded.
    assert len(discards) == 136 - 1 - 52


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_taizhou_default_play_leaves_exactly_sixteen(seats: int) -> None:
    """RULES.md §2: "The last 16 tiles stay in the wall (option `reserve_tiles`, 16)"."""
    for seed in range(3):
        round_ = Round("taizhou", seed=seed, seats=seats)
        play_defaults_until(round_, lambda _: False)
        assert round_.result is not None and round_.result.winner is None
        assert len(round_.wall.tiles) == 16


@pytest.mark.parametrize("variant", VARIANTS)
def test_kong_replacement_comes_from_the_far_end_and_keeps_the_live_order(variant: str) -> None:
    """RULES.md §0: "After any kong you draw a replacement tile from the far end of the
    wall"; the next normal draw is still the live end's first tile."""
    round_ = stage(
        variant,
        [
            "1111m2p4p6p8p2s4s6s8s3s5z",
            "2p4p6p8p2s4s6s8s3s5s7s6z7z",
            "1p3p7p9p1s3s7s9p2z3z4z6z7z",
            "2m4m6m8m3m7m1p3p5p7p2z3z4z",
        ],
        drawn="5z",
        draws="3z4z",
        back="6z5z",
    )
    wall_size = len(round_.wall.tiles)
    act(round_, "kong", 0, "1m")
    assert round_.drawn[0] == parse_tile("6z") and round_.after_kong
    act(round_, "discard", 0, "6z")
    assert round_.current_seat == 1 and round_.drawn[1] == parse_tile("3z")
    assert len(round_.wall.tiles) == wall_size - 2


def test_jiaxing_reserve_option_no_kong_replacement_below_the_reserve() -> None:
    """RULES.md §0: "no draw of either kind (normal or kong replacement) takes the wall
    below it"."""
    hands = [
        "1111m2p4p6p8p2s4s6s8s3s5z",
        "2p4p6p8p2s4s6s8s3s5s7s6z7z",
        "1p3p7p9p1s3s7s9p2z3z4z6z7z",
        "2m4m6m8m3m7m1p3p5p7p2z3z4z",
    ]
    options = {"reserve_tiles": 10}
    round_ = stage("jiaxing", hands, drawn="5z", live=0, options=options)
    assert "kong" not in types_of(round_.legal_actions(0))
    round_ = stage("jiaxing", hands, drawn="5z", live=1, options=options)
    assert "kong" in types_of(round_.legal_actions(0))
    act(round_, "kong", 0, "1m")
    assert len(round_.wall.tiles) == 10 and round_.tiles_left == 0
    events = act(round_, "discard", 0, "5z")
    assert round_.is_over and "exhaustive_draw" in event_types(events)
    assert len(round_.wall.tiles) == 10


def test_taizhou_a_kong_takes_the_last_tile_and_its_discard_cannot_be_punged() -> None:
    """RULES.md §2: "After the last drawable tile the player discards once more; that
    discard may be won on but not chowed, punged or konged"."""
    round_ = stage(
        "taizhou",
        [
            "5m111p234p567p789p2z",
            "1z1z2s4s6s8s1m3m7m3p5p8p9p",
            "1p3p7p9p1s3s7s9p2z3z4z6z7z",
            "555m2m4m6m2p4p6p8p3z1z",
        ],
        live=1,
        back="6z",
    )
    act(round_, "discard", 0, "5m")
    act(round_, "kong", 3)
    assert round_.drawn[3] == parse_tile("6z")
    assert round_.tiles_left == 0 and len(round_.wall.tiles) == 16
    events = act(round_, "discard", 3, "1z")  # seat 1 holds 1z1z
    assert round_.is_over and "exhaustive_draw" in event_types(events)


def test_jiaxing_last_tile_is_the_last_drawable_one_above_the_reserve() -> None:
    """RULES.md §1: "Last Tile 海底捞月 1 (self-draw of the last drawable tile)", with
    `reserve_tiles` 12 left behind."""
    recorder = Recorder()
    round_ = stage(
        "jiaxing",
        [
            "1m111p234p567p789p2z",
            "2p4p6p8p2s4s6s8s3s5s7s6z7z",
            "1p3p7p9p1s3s7s9p2z3z4z6z7z",
            "1112223334446m",
        ],
        draws="7z3z5m",
        live=3,
        options={"reserve_tiles": 12},
        scorer=recorder,
    )
    round_.carried_fan = 0
    act(round_, "discard", 0, "1m")
    act(round_, "pass", 3)  # seat 3 could pung 1m
    act(round_, "discard", 1, "7z")
    act(round_, "discard", 2, "3z")
    assert round_.current_seat == 3 and round_.drawn[3] == parse_tile("5m")
    assert round_.tiles_left == 0 and len(round_.wall.tiles) == 12
    act(round_, "win", 3)
    assert recorder.contexts[-1].win.last_tile
    assert "last_tile" in _result_keys(round_)


@pytest.mark.parametrize("variant", VARIANTS)
def test_wild_copies_four_keeps_the_indicator_in_the_wall(variant: str) -> None:
    """RULES.md §0: "Option `wild_copies`: 3 (default) or 4 (indicator stays in the wall,
    all four copies wild)"."""
    for copies in (3, 4):
        round_ = Round(variant, {"wild_copies": copies}, seed=3)
        wild = round_.wild
        assert wild == round_.indicator
        in_play = sum(hand[wild] for hand in round_.hands) + round_.wall.tiles.count(wild)
        assert in_play == copies
        assert round_.wall.indicator_in_wall is (copies == 4)
        assert _census_holds(round_)


# ---------------------------------------------------------------- dealer, rounds, carried pool


def _finish_with_draw(match: Match) -> None:
    play_defaults_until(match.round, lambda _: False, match.apply)


def _finish_with_win(match: Match, seat: int) -> None:
    """Play defaults until ``seat`` has drawn, then rig its hand into a self-draw win."""
    round_ = match.round
    play_defaults_until(
        round_,
        lambda now: (
            now.phase == "turn" and now.current_seat == seat and now.drawn[seat] is not None
        ),
        match.apply,
    )
    assert not round_.is_over, "the hand ended before the seat's turn"
    rig_self_draw_win(round_, seat)
    match.apply(Action("win", seat))


def _play_plan(
    variant: str, options: dict[str, Any] | None, seats: int, plan: list[str]
) -> tuple[Match, list[tuple[int, int, bool]]]:
    """Play a match hand by hand: "draw" (exhaustive), "dealer" (the dealer wins) or
    "other" (the dealer's right player wins). After each hand: dealer, prevailing wind,
    finished."""
    match = Match(variant, options, seed=5, seats=seats)
    after: list[tuple[int, int, bool]] = []
    for step in plan:
        assert not match.finished, f"the match finished before {step!r}"
        if step == "draw":
            _finish_with_draw(match)
        elif step == "dealer":
            _finish_with_win(match, match.dealer)
        else:
            _finish_with_win(match, (match.dealer + 1) % seats)
        after.append((match.dealer, match.round.prevailing_wind, match.finished))
    return match, after


def test_jiaxing_dealer_rotation_and_prevailing_wind_over_two_rounds() -> None:
    """RULES.md §1: "The dealer keeps the deal after winning 连庄; otherwise (a draw too ...)
    the deal passes"; the prevailing wind "advances ... each time the deal returns to
    seat 0"."""
    plan = ["dealer", "other", "draw", "dealer", "draw"]
    plan += ["draw", "dealer", "draw", "draw", "draw", "other"]
    match, after = _play_plan("jiaxing", {"rounds": 2}, 4, plan)
    assert [dealer for dealer, _, _ in after] == [0, 1, 2, 2, 3, 0, 0, 1, 2, 3, 0]
    winds = [wind for _, wind, _ in after]
    assert winds[:5] == [parse_tile("1z")] * 5 and winds[5:10] == [parse_tile("2z")] * 5
    assert match.finished and not any(finished for _, _, finished in after[:-1])


def test_jiaxing_dealer_on_draw_stay_option() -> None:
    """RULES.md §1: "otherwise (a draw too, option `dealer_on_draw`: `rotate` default,
    `stay`) the deal passes to the right player"."""
    _, after = _play_plan(
        "jiaxing", {"dealer_on_draw": "stay"}, 4, ["draw", "draw", "other", "draw"]
    )
    assert [dealer for dealer, _, _ in after] == [0, 0, 1, 1]


def test_taizhou_three_seat_match_lasts_full_rotations_of_the_deal() -> None:
    """RULES.md §2: "The dealer stays after winning ... A match lasts `rounds` full
    rotations of the deal"; there is no prevailing wind to advance."""
    plan = ["dealer", "draw", "other", "dealer", "draw", "draw", "draw", "draw"]
    match, after = _play_plan("taizhou", {"rounds": 2}, 3, plan)
    assert [dealer for dealer, _, _ in after] == [0, 1, 2, 2, 0, 1, 2, 0]
    assert all(wind == parse_tile("1z") for _, wind, _ in after)
    assert match.finished and not any(finished for _, _, finished in after[:-1])


def test_taizhou_two_seat_match_is_one_rotation() -> None:
    """RULES.md §2: "A match lasts `rounds` full rotations of the deal (default 1)"."""
    match, after = _play_plan("taizhou", None, 2, ["draw", "dealer", "draw"])
    assert [dealer for dealer, _, _ in after] == [1, 1, 0]
    assert match.finished and not after[1][2]


def test_jiaxing_carried_pool_bookkeeping_over_a_match() -> None:
    """RULES.md §1: "At the start of each hand add 1 for each that holds ... Each
    exhaustive draw adds 1 ... Each win takes one fan from the pool if it is not empty"."""
    match = Match("jiaxing", {"rounds": 2}, seed=17)
    pool = 0
    previous_wild = None
    for step in ["draw", "draw", "other", "draw", "dealer", "other", "draw", "draw", "draw"]:
        if match.finished:
            break
        round_ = match.round
        pool += is_honor(round_.wild)  # Honor-Wild
        pool += round_.wall.dice[0] == round_.wall.dice[1]  # Dice Doubles
        pool += previous_wild == round_.wild  # Repeat Wild
        assert round_.carried_fan == pool, (step, round_.carried_fan_bonuses)
        previous_wild = round_.wild
        if step == "draw":
            _finish_with_draw(match)
            pool += 1
        else:
            _finish_with_win(match, match.dealer if step == "dealer" else (match.dealer + 1) % 4)
            pool = max(0, pool - 1)
        assert match.carried_fan == pool


def test_jiaxing_repeat_wild_adds_to_the_carried_pool() -> None:
    """RULES.md §1: "Repeat Wild 百搭连庄 (same wild kind as the previous hand)" adds 1 to
    the pool at the start of the hand."""
    first = Round("jiaxing", seed="rw")
    again = Round("jiaxing", seed="rw", previous_wild=first.wild, carried_fan=2)
    assert "repeat_wild" in again.carried_fan_bonuses
    assert again.carried_fan == 2 + len(again.carried_fan_bonuses)
    other = Round("jiaxing", seed="rw", previous_wild=(first.wild + 1) % 34)
    assert "repeat_wild" not in other.carried_fan_bonuses


def test_taizhou_small_table_seat_winds_follow_the_dealer() -> None:
    """RULES.md §2: "3 players: seats 0–2 East/South/West; 2 players: East and South"; §0:
    "seat winds are relative to the dealer"."""
    east, south, west = parse_tiles("1z2z3z")
    two = Round("taizhou", seed=1, seats=2, dealer=1)
    assert [two.seat_wind(seat) for seat in range(2)] == [south, east]
    three = Round("taizhou", seed=1, seats=3, dealer=2)
    assert [three.seat_wind(seat) for seat in range(3)] == [south, west, east]


# ---------------------------------------------------------------- robbing, White, wilds


def test_taizhou_an_added_white_kong_may_be_robbed_as_the_wilds_kind() -> None:
    """RULES.md §2: "a discarded White may be ... won on, as the wild's kind", "including a
    robbed added kong"."""
    # Wild 5m; seat 0 adds a fourth White; seat 1 waits on 5m (closed wait 46m).
    round_ = stage(
        "taizhou",
        [
            "5z123p456p78p1s2s3s6z",
            "46m123s456s789p22z",
            "1m2m3m1p2p3p4p7s8s9s3z4z7z",
            "2s4s6s8s7m8m9m6p7p1z2z3z4z",
        ],
        melds={0: [meld("pung", "555z", from_seat=3)]},
        wild="5m",
        drawn="5z",
        back="1z",
    )
    events = act(round_, "kong", 0, "5z")
    assert "rob_window" in event_types(events) and round_.waiting_on == (1,)
    act(round_, "win", 1)
    assert round_.result is not None
    assert round_.result.winner == 1 and round_.result.win_by == "rob_kong"


def test_jiaxing_rob_allowed_when_the_robbed_tile_completes_a_chow_with_a_wild() -> None:
    """RULES.md §1: robbing is forbidden only "when the winner is on a pair wait 单吊抢杠,
    or would pair the robbed tile with a wild"."""
    round_ = stage(
        "jiaxing",
        [
            "5p123m456m78m56z",
            "4p9s111p222p888p99p",
            "1s2s3s4s6s8s1m3m5m7m3z5z6z",
            "2s4s6s8s2m4m6m8m1z2z3z4z7z",
        ],
        melds={0: [meld("pung", "555p", from_seat=3)]},
        drawn="5p",
        back="1s",
        wild="9s",
    )
    events = act(round_, "kong", 0, "5p")
    assert "rob_window" in event_types(events)
    act(round_, "win", 1)
    assert round_.result is not None and round_.result.winner == 1


def test_taizhou_a_held_white_offers_both_chows_around_the_wilds_kind() -> None:
    """RULES.md §2: "in a chow it may be the wild's kind, whether the White is in the
    claimer's hand or is the discard being chowed"."""
    # Wild 5m; seat 0 discards 4m; seat 1 holds 3m, 6m and a White.
    round_ = stage(
        "taizhou",
        [
            "4m111p234p567p789p1z",
            "3m6m5z1s3s5s7s8p2z3z4z6z7z",
            "1m7m9m1p3p7p9p1s3s7s2z3z6z",
            "2m2p4p6p8p2s4s6s8s3z1z6m4z",
        ],
        wild="5m",
    )
    act(round_, "discard", 0, "4m")
    chows = sorted(action.tiles for action in round_.legal_actions(1) if action.type == "chow")
    assert chows == [tuple(parse_tiles("345m")), tuple(parse_tiles("456m"))]
    act(round_, "chow", 1, tiles="345m")
    chow = round_.melds[1][0]
    assert chow.white_as == parse_tile("5m")
    assert round_.hands[1][WHITE] == 0 and round_.hands[1][parse_tile("6m")] == 1
    assert _census_holds(round_)


def test_jiaxing_a_pung_of_naturals_keeps_the_wild_in_hand() -> None:
    """RULES.md §0: "Wilds may never be used in a claimed meld"; the pung takes the two
    natural 5m and the wild stays in hand."""
    round_ = stage(
        "jiaxing",
        [
            "5m111p234p567p789p1z",
            "55m9s2p4p6p8p2s4s6s8s3z6z",
            "1m3m7m9m1p3p7p9p1s3s7s2z3z",
            "2m4m6m8m4p6p8p3s5s7s4z6z7z",
        ],
        wild="9s",
    )
    act(round_, "discard", 0, "5m")
    act(round_, "pung", 1)
    assert round_.melds[1][0].tiles == (parse_tile("5m"),) * 3
    assert round_.hands[1][parse_tile("9s")] == 1 and round_.hands[1][parse_tile("5m")] == 0
    assert _census_holds(round_)


def test_taizhou_discard_win_gate_never_turns_away_a_winning_shape() -> None:
    """RULES.md §0: "if any reading makes a legal win, the hand wins"; the cheap gate on a
    discard must offer every tile that completes a shape, White readings included."""
    rng = random.Random(5)
    wilds = parse_tiles("5m2p9s1z5z6z")
    missed = []
    for trial in range(3000):
        options = {"allow_seven_pairs": rng.random() < 0.5}
        round_ = Round("taizhou", options, seed=trial % 7)
        wild = rng.choice(wilds)
        round_.wild = wild
        # Hands rich in pairs and sets: few kinds, some Whites and wilds.
        kinds = [*rng.sample(range(34), 6), WHITE, wild]
        pool = [kind for kind in kinds for _ in range(4)]
        rng.shuffle(pool)
        counts = to_counts(pool[:13])
        if max(counts) > 4:
            continue
        round_.hands[1] = counts
        round_.melds[1] = []
        round_._win_cache.clear()
        round_._waits.clear()
        for tile in range(34):
            if counts[tile] < 4 and round_._shape_ok(1, tile) and not round_._may_win_on(1, tile):
                missed.append((counts, tile, wild, options))
    assert not missed, missed[:5]


# ---------------------------------------------------------------- random seeded matches


FUZZ_CONFIGS = [
    pytest.param("jiaxing", None, 4, id="jiaxing"),
    pytest.param("jiaxing", {"wild_copies": 4}, 4, id="jiaxing-4-wilds"),
    pytest.param(
        "jiaxing",
        {"allow_seven_pairs": True, "reserve_tiles": 8},
        4,
        id="jiaxing-seven-pairs-reserve-8",
    ),
    pytest.param("taizhou", None, 4, id="taizhou"),
    pytest.param(
        "taizhou",
        {"multi_win_priority": "after_discarder", "wild_copies": 4},
        4,
        id="taizhou-after-discarder-4-wilds",
    ),
    pytest.param("taizhou", None, 3, id="taizhou-3-seats"),
    pytest.param("taizhou", {"remove_suits": 1}, 3, id="taizhou-3-seats-2-suits"),
    pytest.param("taizhou", None, 2, id="taizhou-2-seats"),
    pytest.param("taizhou", {"remove_suits": 2}, 2, id="taizhou-2-seats-1-suit"),
]


def _assert_position_rules(round_: Round, where: str) -> None:
    """The rules every position of a random match keeps."""
    assert _census_holds(round_), f"{where}: census {round_.tile_census()}"
    seats = round_.num_seats
    for seat in range(seats):
        for held in round_.melds[seat]:
            kinds = list(held.tiles)
            if held.white_as is not None:
                kinds.remove(held.white_as)
            assert round_.wild not in kinds, f"{where}: a wild in the claimed {held}"
            if held.type == "chow":
                assert held.from_seat == (seat - 1) % seats, (
                    f"{where}: chow {held} not from the left"
                )
        if seat in round_.folded:
            assert round_.legal_actions(seat) == [], f"{where}: folded seat {seat} may act"
    if round_.phase == "turn":
        seat = round_.current_seat
        assert seat is not None
        size = sum(round_.hands[seat]) + 3 * len(round_.melds[seat])
        assert size == 14, f"{where}: seat {seat} in turn holds {size}"
    if round_.phase not in ("claim", "rob_kong"):
        return
    window = round_.window
    assert window is not None
    discard_window = round_.phase == "claim"
    for seat, options in window.options.items():
        offered = types_of(options)
        assert not (discard_window and window.tile == round_.wild), f"{where}: a wild claimed"
        if window.final:
            assert offered <= {"win", "pass"}, f"{where}: {offered} on the last discard"
        if discard_window and not round_.variant.discard_wins:
            assert "win" not in offered, f"{where}: a Jiaxing discard won on"
        if "chow" in offered:
            assert seat == (window.from_seat + 1) % seats, f"{where}: chow not from the left"
    if discard_window and round_.variant.discard_wins and window.tile != round_.wild:
        # Every seat the discard completes (not locked, not folded) is offered the win.
        for seat in range(seats):
            if seat == window.from_seat or seat in round_.folded:
                continue
            if window.tile in round_.skipped_win[seat] or not round_._shape_ok(seat, window.tile):
                continue
            scored = round_._scored_win(
                seat, "discard", window.tile, window.from_seat, window.final, at=window.opened_at
            )
            if scored is not None:
                assert "win" in types_of(window.options.get(seat, [])), (
                    f"{where}: seat {seat} could win on {window.tile} but was not offered it"
                )


def _play_random_match(
    variant: str, options: dict[str, Any] | None, seats: int, seed: str, rng: random.Random
) -> Match:
    """A whole match of random legal play (``pick``), checking every position and
    following the skipped-win lock with an independent model."""
    match = Match(variant, options, seed=seed, seats=seats)
    locks: list[set[int]] = [set() for _ in range(seats)]
    for step in range(4000):
        if match.finished:
            break
        round_ = match.round
        where = f"{variant} {options} {seats} seats, {seed} hand {match.hand_number} step {step}"
        _assert_position_rules(round_, where)
        seat = round_.waiting_on[0]
        action = pick(round_.legal_actions(seat), rng)
        window = round_.window if round_.phase in ("claim", "rob_kong") else None
        could_win: dict[int, bool] = {}
        if window is not None:
            could_win = {
                answering: "win" in types_of(offered)
                for answering, offered in window.options.items()
            }
        hand_number = match.hand_number
        events = match.apply(action)
        if match.hand_number != hand_number:
            result = match.results[-1]
            if result.winner is None:
                assert len(round_.wall.tiles) == round_.wall.reserve, f"{where}: wall at a draw"
            locks = [set() for _ in range(seats)]
            continue
        if not round_.variant.discard_wins:
            continue
        if window is not None and round_.window is not window:
            for answering, could in could_win.items():
                answer = window.responses.get(answering)
                won = answer is not None and answer.type == "win" and round_.is_over
                if could and not won:
                    locks[answering].add(window.tile)
        for event in events:
            if event["type"] in ("draw", "claim"):
                locks[event["seat"]].clear()
        if not round_.is_over:
            assert locks == round_.skipped_win, f"{where}: skipped-win locks"
    assert match.finished, f"{variant} {seed}: the match did not finish"
    return match


@pytest.mark.parametrize(("variant", "options", "seats"), FUZZ_CONFIGS)
def test_random_matches_keep_the_flow_rules_and_the_census(
    variant: str, options: dict[str, Any] | None, seats: int
) -> None:
    """RULES.md §0 and §2 on every position of random seeded matches: claims, wilds, the
    last discard, the reserve, the skipped-win lock and the 136-tile census."""
    rng = random.Random(f"audit {variant} {options} {seats}")
    for seed in range(6):
        _play_random_match(variant, options, seats, f"audit{seed}", rng)


@pytest.mark.parametrize(("variant", "options", "seats"), FUZZ_CONFIGS)
def test_a_seeded_match_replays_exactly(
    variant: str, options: dict[str, Any] | None, seats: int
) -> None:
    """RULES.md §0: "The wall is shuffled from a seed so a hand can be replayed exactly"."""
    match = _play_random_match(variant, options, seats, "replay-seed", random.Random(99))
    actions = [action.to_json() for action in match.actions]
    again = Match.replay(variant, options, "replay-seed", actions, seats=seats)
    assert again.round.snapshot() == match.round.snapshot()
    assert [result.to_json() for result in again.results] == [
        result.to_json() for result in match.results
    ]
    assert again.scores == match.scores
    fresh = Round(variant, options, seed="x:3", seats=seats)
    assert Round(variant, options, seed="x:3", seats=seats).snapshot() == fresh.snapshot()
