"""RULES.md §2 Taizhou mechanics: discard wins and their priority, the skipped-win lock,
multi-win order, the last discard, the 16-tile reserve, White standing for the wild
kind, robbing a kong and 2/3-seat tables."""

from __future__ import annotations

import pytest
from scenario import act, event_types, meld, stage, types_of
from test_scoring_helpers import make_case

from engine.round import Round
from engine.scoring import score_hand
from engine.scoring.case import parse_case
from engine.tiles import WHITE, parse_tile, parse_tiles
from engine.types import HandResult, Meld, WinContext

# Seat 0 (the dealer, in turn) discards 5m. Seat 1 waits on 2m/5m (wins on it, may also
# chow), seat 2 holds 55m (pung), seat 3 waits on 5m as well.
DISCARDER = "5m111p234p567p789p1z"
WAITS_5M = "1112223334445m"
PUNGS_5M = "55m11s22s33s44s567z"
IDLE = "2p4p6p8p2s4s6s8s3s5s7s6z7z"
ALSO_WAITS_5M = "5m123s456s789p111z"  # three sets, a pung of East and 5m: waits on 5m


class Recorder:
    def __init__(self, inner=score_hand) -> None:
        self.inner = inner
        self.contexts: list[WinContext] = []

    def __call__(self, ctx: WinContext) -> HandResult:
        self.contexts.append(ctx)
        return self.inner(ctx)


def test_discard_win_is_offered_and_won_real_scoring() -> None:
    round_ = stage(
        "taizhou", [DISCARDER, WAITS_5M, IDLE, "1m3m5m7m1s3s5s7s2z3z4z5z6z"], scorer=None
    )
    act(round_, "discard", 0, "5m")
    assert types_of(round_.legal_actions(1)) == {"win", "chow", "pass"}
    events = act(round_, "win", 1)
    assert event_types(events)[-2:] == ["win", "hand_end"]
    result = round_.result
    assert result is not None and result.winner == 1 and result.win_by == "discard"
    assert sum(result.deltas) == 0 and result.deltas[1] > 0
    assert round_.discards[0][-1].claimed and round_.discards[0][-1].by_seat == 1


def test_win_outranks_an_earlier_pung_answer() -> None:
    round_ = stage("taizhou", [DISCARDER, WAITS_5M, PUNGS_5M, IDLE])
    act(round_, "discard", 0, "5m")
    act(round_, "pung", 2)
    assert round_.phase == "claim" and round_.waiting_on == (1,)
    act(round_, "win", 1)
    assert round_.result is not None and round_.result.winner == 1
    assert round_.melds[2] == []


def test_pung_goes_through_when_the_winner_passes_and_locks_the_skipped_win() -> None:
    round_ = stage("taizhou", [DISCARDER, WAITS_5M, PUNGS_5M, IDLE])
    act(round_, "discard", 0, "5m")
    act(round_, "pass", 1)
    assert round_.phase == "claim"  # seat 2 still to answer
    act(round_, "pung", 2)
    assert round_.melds[2][0].type == "pung"
    assert round_.skipped_win[1] == {parse_tile("5m")}
    assert round_.player_view(1).skipped_win == (parse_tile("5m"),)


def _two_winners(priority: str | None) -> Round:
    options = {"multi_win_priority": priority} if priority else None
    # Dealer 0; seat 2 discards 5m; seats 1 and 3 can both win on it.
    return stage(
        "taizhou",
        [IDLE, WAITS_5M, DISCARDER, ALSO_WAITS_5M],
        turn=2,
        options=options,
    )


def test_multi_win_from_dealer_default_first_seat_from_the_dealer_wins() -> None:
    round_ = _two_winners(None)
    act(round_, "discard", 2, "5m")
    assert round_.waiting_on == (1, 3)
    act(round_, "win", 3)
    assert round_.phase == "claim" and round_.waiting_on == (1,)  # 1 comes before 3 from 0
    act(round_, "win", 1)
    assert round_.result is not None and round_.result.winner == 1


def test_multi_win_from_dealer_first_answer_closes_the_window() -> None:
    round_ = _two_winners("from_dealer")
    act(round_, "discard", 2, "5m")
    act(round_, "win", 1)
    assert round_.result is not None and round_.result.winner == 1
    assert round_.skipped_win[3] == {parse_tile("5m")}


def test_multi_win_after_discarder_option_first_seat_after_the_discarder_wins() -> None:
    round_ = _two_winners("after_discarder")
    act(round_, "discard", 2, "5m")
    act(round_, "win", 1)
    assert round_.phase == "claim" and round_.waiting_on == (3,)  # 3 comes first after 2
    act(round_, "win", 3)
    assert round_.result is not None and round_.result.winner == 3


def test_later_winner_wins_when_the_earlier_passes() -> None:
    round_ = _two_winners("from_dealer")
    act(round_, "discard", 2, "5m")
    act(round_, "pass", 1)
    act(round_, "win", 3)
    assert round_.result is not None and round_.result.winner == 3


# ---------------------------------------------------------------- skipped win 过胡


def _lock_position() -> Round:
    """Seat 2 waits on 5m; seat 0 discards 5m, seat 2 passes; seat 1 then draws 5m and
    discards it too. The last 5m is the next draw after seat 1's."""
    round_ = stage(
        "taizhou",
        [DISCARDER, IDLE, "3m4m111s222s333s44s", "1m3m5m7m6p8p9p7s2z3z4z5z6z"],
        draws="5m5m",
    )
    act(round_, "discard", 0, "5m")
    assert round_.waiting_on == (2,) and "win" in types_of(round_.legal_actions(2))
    act(round_, "pass", 2)
    assert round_.skipped_win[2] == {parse_tile("5m")}
    assert round_.current_seat == 1
    act(round_, "discard", 1, "5m")
    return round_


def test_skipped_win_lock_blocks_a_later_discard_of_that_kind() -> None:
    round_ = _lock_position()
    assert round_.phase == "claim"
    assert types_of(round_.legal_actions(2)) == {"chow", "pass"}  # no win while locked


def test_skipped_win_lock_clears_on_the_next_draw_and_self_draw_is_unaffected() -> None:
    round_ = _lock_position()
    act(round_, "pass", 2)
    assert round_.current_seat == 2 and round_.drawn[2] == parse_tile("5m")
    assert round_.skipped_win[2] == set()
    assert "win" in types_of(round_.legal_actions(2))


def test_skipped_win_lock_clears_on_a_claim() -> None:
    round_ = _lock_position()
    act(round_, "chow", 2, tiles="345m")
    assert round_.skipped_win[2] == set()


def test_locked_seat_cannot_rob_a_kong_of_that_kind() -> None:
    round_ = stage(
        "taizhou",
        ["5p123m456m78m56z", "34p111p222p888p99p", IDLE.replace("2p", "3s"), "1s3s5s7s9m7z"],
        melds={0: [meld("pung", "555p", from_seat=3)]},
        drawn="5p",
        back="1s",
    )
    round_.skipped_win[1] = {parse_tile("5p")}
    events = act(round_, "kong", 0, "5p")
    assert "rob_window" not in event_types(events)


def test_rob_kong_in_taizhou_the_kong_maker_is_the_discarder() -> None:
    recorder = Recorder()
    round_ = stage(
        "taizhou",
        ["5p123m456m78m56z", "34p111p222p888p99p", IDLE.replace("2p", "3s"), "1s3s5s7s9m7z"],
        melds={0: [meld("pung", "555p", from_seat=3)]},
        drawn="5p",
        back="1s",
        scorer=recorder,
    )
    act(round_, "kong", 0, "5p")
    assert round_.phase == "rob_kong" and round_.waiting_on == (1,)
    act(round_, "win", 1)
    ctx = recorder.contexts[-1]
    assert ctx.win.by == "rob_kong" and ctx.win.from_seat == 0
    assert parse_tile("5p") not in ctx.players[0].concealed  # the robbed tile left the maker
    assert ctx.players[1].concealed.count(parse_tile("5p")) == 1


def test_passing_a_rob_locks_that_kind() -> None:
    round_ = stage(
        "taizhou",
        ["5p123m456m78m56z", "34p111p222p888p99p", IDLE.replace("2p", "3s"), "1s3s5s7s9m7z"],
        melds={0: [meld("pung", "555p", from_seat=3)]},
        drawn="5p",
        back="1s",
    )
    act(round_, "kong", 0, "5p")
    act(round_, "pass", 1)
    assert round_.skipped_win[1] == {parse_tile("5p")} and round_.melds[0][0].added


# ---------------------------------------------------------------- last discard, reserve


def test_last_discard_may_be_won_on_but_not_claimed_otherwise() -> None:
    recorder = Recorder()
    round_ = stage("taizhou", [DISCARDER, WAITS_5M, PUNGS_5M, IDLE], live=0, scorer=recorder)
    assert len(round_.wall.tiles) == 16
    act(round_, "discard", 0, "5m")
    assert round_.phase == "claim" and round_.waiting_on == (1,)
    assert types_of(round_.legal_actions(1)) == {"win", "pass"}  # no chow
    assert round_.legal_actions(2) == []  # no pung on the last discard
    act(round_, "win", 1)
    assert recorder.contexts[-1].win.last_tile and recorder.contexts[-1].win.by == "discard"


def test_last_discard_passed_is_an_exhaustive_draw_with_sixteen_left() -> None:
    round_ = stage("taizhou", [DISCARDER, WAITS_5M, PUNGS_5M, IDLE], live=0)
    act(round_, "discard", 0, "5m")
    events = act(round_, "pass", 1)
    assert event_types(events)[-2:] == ["exhaustive_draw", "hand_end"]
    assert round_.result is not None and round_.result.winner is None
    assert len(round_.wall.tiles) == 16


def test_last_discard_nobody_can_win_ends_at_once() -> None:
    round_ = stage("taizhou", [DISCARDER, IDLE, PUNGS_5M, "1m3m5m7m1s3s5s7s2z3z4z5z6z"], live=0)
    events = act(round_, "discard", 0, "5m")
    assert event_types(events) == ["discard", "exhaustive_draw", "hand_end"]


def test_one_drawable_tile_left_claims_still_allowed() -> None:
    round_ = stage("taizhou", [DISCARDER, WAITS_5M, PUNGS_5M, IDLE], live=1)
    act(round_, "discard", 0, "5m")
    assert "pung" in types_of(round_.legal_actions(2))
    assert "chow" in types_of(round_.legal_actions(1))


# ---------------------------------------------------------------- White and the wild


def test_white_stands_for_the_wild_kind_in_a_claimed_chow() -> None:
    # Wild 5m (indicator 5m): seat 1 holds 4m and White; seat 0 discards 6m.
    round_ = stage(
        "taizhou",
        ["6m111p234p567p789p1z", "4m5z1s2s3s4s6s7s8s2z3z4z6z", IDLE, "1m3m1s3s5s7s2z3z4z6z7z7z7z"],
        wild="5m",
    )
    act(round_, "discard", 0, "6m")
    chows = [a.tiles for a in round_.legal_actions(1) if a.type == "chow"]
    assert chows == [tuple(parse_tiles("456m"))]
    act(round_, "chow", 1, tiles="456m")
    chow = round_.melds[1][0]
    assert chow.white_as == parse_tile("5m") and chow.tiles == tuple(parse_tiles("456m"))
    assert round_.hands[1][WHITE] == 0 and round_.hands[1][parse_tile("4m")] == 0
    assert all(count == 4 for count in round_.tile_census())
    # The White lies face up in the chow: from now on White is not a live dragon
    # (liability case 3 judges the tile's face), though the chow counts it as 5m.
    assert WHITE in round_.seen and chow.faces == (*parse_tiles("46m"), WHITE)


@pytest.mark.parametrize(("variant", "wild"), [("jiaxing", "5m"), ("taizhou", "5z")])
def test_white_is_only_white_in_jiaxing_or_when_white_is_the_wild(variant: str, wild: str) -> None:
    round_ = stage(
        variant,
        ["6m111p234p567p789p1z", "4m5z1s2s3s4s6s7s8s2z3z4z6z", IDLE, "1m3m1s3s5s7s2z3z4z6z7z7z7z"],
        wild=wild,
        draws="9p",
    )
    events = act(round_, "discard", 0, "6m")
    assert event_types(events) == ["discard", "draw"]  # no chow for seat 1


def test_white_reads_as_the_wild_kind_for_a_self_draw_win() -> None:
    hand = "4m5z6m111p222p333p44p"
    round_ = stage("taizhou", [hand, IDLE, PUNGS_5M, "1s3s5s7s1m3m2z3z4z6z1z1z1z"], wild="5m")
    round_.drawn[0] = parse_tile("4p")
    assert "win" in types_of(round_.legal_actions(0))
    jiaxing = stage("jiaxing", [hand, IDLE, PUNGS_5M, "1s3s5s7s1m3m2z3z4z6z1z1z1z"], wild="5m")
    jiaxing.drawn[0] = parse_tile("4p")
    assert "win" not in types_of(jiaxing.legal_actions(0))


# ---------------------------------------------------------------- smaller tables


def test_three_seats_chow_from_the_left_wraps_round_the_table() -> None:
    round_ = stage(
        "taizhou",
        ["46m123s456s78s234z", "1m3m5m7m1s3s5s7s2z3z4z6z7z", "5m111p234p567p789p1z"],
        turn=2,
    )
    act(round_, "discard", 2, "5m")
    assert round_.waiting_on == (0,) and "chow" in types_of(round_.legal_actions(0))


def test_two_seats_opponent_may_pung_and_chow() -> None:
    round_ = stage("taizhou", [DISCARDER, "45m6m5m1s2s3s4s6s7s8s2z3z"], turn=0)
    act(round_, "discard", 0, "5m")
    assert types_of(round_.legal_actions(1)) >= {"pung", "chow", "pass"}


def test_remove_suits_table_keeps_its_census() -> None:
    round_ = stage(
        "taizhou",
        ["5p111p234p567p789p1z", "1p3p2z3z4z5z6z7z7z7z6p6p8p"],
        options={"remove_suits": 2},
        wild="9p",
    )
    census = round_.tile_census()
    assert sum(census) == 64 and census[0] == 0 and census[20] == 0
    with pytest.raises(ValueError, match="no copy"):
        stage("taizhou", ["5m111p234p567p789p1z", IDLE], options={"remove_suits": 1})


def test_waits_count_white_standing_for_the_wild_kind() -> None:
    hand = "4m5z111p222p333p44p"  # 13 tiles: 4m and White make a chow only as 4m-5m
    others = ["1s3s5s7s1m3m2z3z4z6z1z1z1z9s", IDLE, PUNGS_5M.replace("55m", "66s")]
    round_ = stage("taizhou", [others[0], hand, *others[1:]], wild="5m")
    assert set(parse_tiles("3m6m")) <= set(round_.player_view(1).waits)
    assert 1 in round_._tenpai_seats()
    jiaxing = stage("jiaxing", [others[0], hand, *others[1:]], wild="5m")
    assert jiaxing.player_view(1).waits == ()


def test_winning_discard_is_not_yet_seen_when_the_win_is_scored() -> None:
    """Live-dragon liability needs the kinds seen *before* the winning discard: the
    context scored when the window closes must be the one that offered the win."""
    recorder = Recorder()
    round_ = stage(
        "taizhou",
        ["7z111p234p567p789p1z", "1112223334447z", IDLE, "1m3m5m7m1s3s5s7s2z3z4z5z6z"],
        scorer=recorder,
    )
    act(round_, "discard", 0, "7z")
    act(round_, "win", 1)
    ctx = recorder.contexts[-1]
    assert ctx.win.tile == parse_tile("7z") and ctx.winner == 1
    assert parse_tile("7z") not in ctx.seen_before
    assert ctx.tenpai is not None and 1 in ctx.tenpai


@pytest.mark.parametrize(("priority", "winner"), [("from_dealer", 3), ("after_discarder", 1)])
def test_two_kong_robbers_follow_multi_win_priority(priority: str, winner: int) -> None:
    # Dealer 2; seat 0 adds to its 5p pung; seats 1 and 3 can both rob it.
    round_ = stage(
        "taizhou",
        ["5p123m456m78m56z", "34p111p222p888p99p", IDLE.replace("2p", "3s"), "67p111z222z333z44z"],
        melds={0: [meld("pung", "555p", from_seat=3)]},
        drawn="5p",
        dealer=2,
        options={"multi_win_priority": priority},
    )
    act(round_, "kong", 0, "5p")
    assert round_.waiting_on == (1, 3)
    loser = 4 - winner
    act(round_, "win", loser)
    assert round_.phase == "rob_kong" and round_.waiting_on == (winner,)
    act(round_, "win", winner)
    assert round_.result is not None and round_.result.winner == winner


def test_claiming_a_pung_instead_of_winning_leaves_no_lock() -> None:
    round_ = stage("taizhou", [DISCARDER, IDLE, "55m111z222z333z44z", "1m3m7m1s3s5s7s2z3z4z6z6z7z"])
    act(round_, "discard", 0, "5m")
    assert types_of(round_.legal_actions(2)) == {"win", "pung", "pass"}
    act(round_, "pung", 2)
    assert round_.melds[2][0].type == "pung" and round_.skipped_win[2] == set()


def test_a_seat_that_answered_chow_while_it_could_win_is_locked_when_a_pung_takes_it() -> None:
    hands = [DISCARDER, "46m111s222s333s77z", "55m99p4s6s8s2z3z4z6z1m3m", IDLE]
    round_ = stage("taizhou", hands)
    act(round_, "discard", 0, "5m")
    assert {"win", "chow"} <= types_of(round_.legal_actions(1))
    act(round_, "chow", 1, tiles="456m")
    act(round_, "pung", 2)
    assert round_.melds[2][0].type == "pung"
    assert round_.skipped_win[1] == {parse_tile("5m")}


def test_kong_replacement_respects_the_reserve_and_its_discard_is_the_last() -> None:
    round_ = stage(
        "taizhou",
        ["1111m234p567p789p2z", "2223334445m", PUNGS_5M, IDLE],
        melds={1: [meld("pung", "666s", from_seat=3)]},
        drawn="1m",
        back="5m",
        live=1,
    )
    act(round_, "kong", 0, "1m")
    assert round_.tiles_left == 0 and len(round_.wall.tiles) == 16
    assert "kong" not in types_of(round_.legal_actions(0))
    act(round_, "discard", 0, "5m")
    assert round_.window is not None and round_.window.final
    assert types_of(round_.legal_actions(1)) == {"win", "pass"}
    assert round_.legal_actions(2) == []  # no pung on the last discard


# ---------------------------------------------------------------- a discarded White chowed


def _white_discard_position(wild: str = "5p", variant: str = "taizhou") -> Round:
    """Seat 0 discards a White; seat 1 (its right player) holds 4p and 6p and nothing
    else that could claim it; seats 2 and 3 cannot claim a White either."""
    return stage(
        variant,
        [
            "5z111m234m567m789m1z",
            "4p6p1s2s3s4s6s7s8s2z3z4z6z",
            "1m3m7p8p2s5s7s8s9s1z2z3z4z",
            "1p2p3p7p8p1s3s5s6s7s2z3z4z",
        ],
        wild=wild,
        draws="9m",
    )


def test_taizhou_a_discarded_white_may_be_chowed_as_the_wilds_kind() -> None:
    # RULES.md §2: wild 5p, the left player discards White, a player holding 4p 6p is
    # offered chow 456p; the meld records the White standing in as the claimed tile.
    round_ = _white_discard_position()
    act(round_, "discard", 0, "5z")
    assert round_.phase == "claim" and round_.waiting_on == (1,)
    chows = [a.tiles for a in round_.legal_actions(1) if a.type == "chow"]
    assert chows == [tuple(parse_tiles("456p"))]
    events = act(round_, "chow", 1, tiles="456p")
    chow = round_.melds[1][0]
    assert chow.tiles == tuple(parse_tiles("456p"))
    assert chow.white_as == parse_tile("5p") and chow.claimed == WHITE and chow.from_seat == 0
    assert events[-1]["type"] == "claim" and events[-1]["meld"]["claimed"] == "5z"
    assert round_.hands[1][parse_tile("4p")] == 0 and round_.hands[1][parse_tile("6p")] == 0
    assert round_.discards[0][-1].claimed and round_.discards[0][-1].tile == WHITE
    assert all(count == 4 for count in round_.tile_census())
    assert Meld.from_json(chow.to_json()) == chow


def test_taizhou_a_chowed_white_scores_as_the_wilds_kind() -> None:
    # The meld the round stores, written into a case as the round serialises it: the
    # claimed White counts as 5p, so 456p keeps the hand a Full Flush in dots.
    round_ = _white_discard_position()
    act(round_, "discard", 0, "5z")
    act(round_, "chow", 1, tiles="456p")
    chow = round_.melds[1][0].to_json()
    case = make_case(
        "taizhou",
        "123p789p234p55p",
        "9p",
        by="discard",
        winner=1,
        from_seat=0,
        melds=[chow],
        indicator="5p",
    )
    result = score_hand(parse_case(case))
    # 10 bonus, Full Flush 3 tai: 80; the dealer (discarder) pays it in full.
    assert result.valid and result.total == 80 and result.tai == 3
    assert result.deltas[1] == 80 + 40 + 40


@pytest.mark.parametrize(("variant", "wild"), [("jiaxing", "5p"), ("taizhou", "1z")])
def test_a_discarded_white_is_not_chowed_in_jiaxing_or_with_an_honor_wild(
    variant: str, wild: str
) -> None:
    round_ = _white_discard_position(wild=wild, variant=variant)
    events = act(round_, "discard", 0, "5z")
    assert event_types(events) == ["discard", "draw"]


def test_taizhou_a_white_arriving_completes_a_wait_on_the_wilds_kind() -> None:
    # 4p 6p wait on 5p; a White read as 5p completes it too (drawn or discarded).
    hand = "4p6p111m222m333m44s"
    others = ["1s3s5s7s9s1p3p7p9p2z3z4z6z", "5s7s9s1p3p7p9p5m7m9m2z3z4z"]
    round_ = stage("taizhou", [IDLE, hand, *others], wild="5p")
    assert round_.waits(1) == sorted(parse_tiles("5p5z"))


# ---------------------------------------------------------------- full liability, live game


def test_taizhou_liability_waiting_is_the_rounds_waits_with_seven_pairs() -> None:
    """One waits rule: with ``allow_seven_pairs`` the round counts a seven-pairs wait as
    tenpai, and so does scoring's liability check when it reads the hand itself."""
    discarder = "1122m3355p779s11z"  # seven pairs, waits 9s; no sets-and-a-pair wait
    for allowed in (False, True):
        round_ = stage(
            "taizhou",
            [
                "7z2p4p6p8p2s4s6s8s3s5s6z4z",
                "1p3p5p7p1s3s5s7s2z3z4z6z7z",
                "1m3m5m7m9m2p4p6p8p2s4s6s8s",
                discarder,
            ],
            options={"allow_seven_pairs": allowed},
            turn=0,
        )
        assert bool(round_.waits(3)) is allowed
