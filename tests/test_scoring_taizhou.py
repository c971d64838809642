"""Taizhou scoring and settlement (RULES.md §2): one test per item and payment rule.

Every expected number was counted by hand. Unless a test says otherwise the indicator
is 9p (9p is the wild), the dealer is seat 0 (East) and the winner is seat 2 (West), so
the dealer pays the winner in full and seats 1 and 3 pay half. The other seats hold
spaced single tiles worth nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_scoring_helpers import chow, item_values, kong, make_case, pung, score

from engine.scoring.case import CaseError, parse_case
from engine.variants import OptionError, TaizhouOptions, make_options

PLAIN = "123m456p789s234m55s"  # no points but the +10 winning bonus


def tz(concealed: str, win: str, **kwargs: Any) -> dict[str, Any]:
    kwargs.setdefault("winner", 2)
    kwargs.setdefault("by", "discard")
    if kwargs["by"] != "self_draw":
        kwargs.setdefault("from_seat", 1 if kwargs["winner"] != 1 else 0)
    return make_case("taizhou", concealed, win, **kwargs)


def points_of(case: dict[str, Any]) -> dict[str, int]:
    return item_values(score(case))


# --- points ---------------------------------------------------------------------------


def test_taizhou_win_bonus_is_ten() -> None:
    result = score(tz(PLAIN, "1m"))
    assert item_values(result) == {"win_bonus": 10}
    assert (result.points, result.tai, result.total) == (10, 0, 10)


def test_taizhou_self_draw_is_two() -> None:
    result = score(tz(PLAIN, "1m", by="self_draw"))
    assert item_values(result) == {"self_draw": 2, "win_bonus": 10}
    assert result.total == 12


def test_taizhou_closed_wait_on_a_discard_is_two() -> None:
    result = score(tz(PLAIN, "5p"))
    assert item_values(result) == {"closed_wait": 2, "win_bonus": 10}


def test_taizhou_closed_wait_on_a_self_draw_is_four() -> None:
    result = score(tz(PLAIN, "5p", by="self_draw"))
    assert item_values(result) == {"closed_wait": 4, "self_draw": 2, "win_bonus": 10}
    assert result.total == 16


def test_taizhou_edge_of_a_chow_is_no_closed_wait() -> None:
    assert "closed_wait" not in points_of(tz(PLAIN, "4p"))


def test_taizhou_exposed_pung_simple_is_two() -> None:
    result = score(tz("123m456p789s55s", "1m", melds=[pung("555m", 1)], from_seat=3))
    assert item_values(result) == {"exposed_pung": 2, "win_bonus": 10}


def test_taizhou_exposed_pung_terminal_or_honor_is_four() -> None:
    assert (
        points_of(tz("123m456p789s55s", "1m", melds=[pung("111m", 1)], from_seat=3))["exposed_pung"]
        == 4
    )
    assert (
        points_of(tz("123m456p789s55s", "1m", melds=[pung("444z", 1)], from_seat=3))["exposed_pung"]
        == 4
    )


def test_taizhou_a_terminal_or_honor_set_is_named_apart_from_a_simple_one() -> None:
    """Two lines "明刻 +2" and "明刻 +4" read as a wrong count: the doubled one says why."""
    melds = [pung("555m", 1), pung("111p", 3)]
    result = score(tz("789s123s55s", "1s", melds=melds, from_seat=3))
    names = {(item.name_zh, item.name_en, item.value) for item in result.items}
    assert ("明刻", "Exposed Pung", 2) in names
    assert ("明刻（一九字牌）", "Exposed Pung (terminals/honors)", 4) in names
    assert {item.key for item in result.items if item.unit == "points"} == {
        "exposed_pung",
        "win_bonus",
    }  # the key stays the set's


def test_taizhou_concealed_pung_simple_is_four() -> None:
    result = score(tz("555m456p789s123s55s", "4p"))
    assert item_values(result) == {"concealed_pung": 4, "win_bonus": 10}


def test_taizhou_concealed_pung_terminal_or_honor_is_eight() -> None:
    assert points_of(tz("999m456p789s123s55s", "4p"))["concealed_pung"] == 8
    assert points_of(tz("444z456p789s123s55s", "4p"))["concealed_pung"] == 8


def test_taizhou_pung_completed_by_the_winning_discard_is_exposed() -> None:
    result = score(tz("555m456p789s123s55s", "5m"))
    assert item_values(result) == {"exposed_pung": 2, "win_bonus": 10}
    self_drawn = score(tz("555m456p789s123s55s", "5m", by="self_draw"))
    assert item_values(self_drawn) == {"concealed_pung": 4, "self_draw": 2, "win_bonus": 10}


def test_taizhou_winning_tile_goes_where_it_scores_most() -> None:
    # 5m completes either the pung 555m (exposed on a discard: 2) or the chow 456m
    # in the middle (closed wait 2, pung stays concealed 4): the second is worth more.
    result = score(tz("5555m46m789s123s55s", "5m"))
    assert item_values(result) == {"concealed_pung": 4, "closed_wait": 2, "win_bonus": 10}


def test_taizhou_exposed_kong_is_eight_or_sixteen() -> None:
    assert (
        points_of(tz("123m456p789s55s", "1m", melds=[kong("5555m", 1)], from_seat=3))[
            "exposed_kong"
        ]
        == 8
    )
    assert (
        points_of(tz("123m456p789s55s", "1m", melds=[kong("9999m", 1)], from_seat=3))[
            "exposed_kong"
        ]
        == 16
    )


def test_taizhou_added_kong_is_an_exposed_kong() -> None:
    melds = [kong("5555m", 1, added=True)]
    assert points_of(tz("123m456p789s55s", "1m", melds=melds, from_seat=3))["exposed_kong"] == 8


def test_taizhou_concealed_kong_is_sixteen_or_thirty_two() -> None:
    assert (
        points_of(tz("123m456p789s55s", "1m", melds=[kong("5555m")], from_seat=3))["concealed_kong"]
        == 16
    )
    result = score(tz("123m456p789s55s", "1m", melds=[kong("9999m")], from_seat=3))
    assert item_values(result) == {"concealed_kong": 32, "win_bonus": 10}
    assert result.total == 42


def test_taizhou_four_alike_not_declared_is_a_concealed_pung() -> None:
    # 555m + 567m: the fourth 5m sits in the chow.
    result = score(tz("5555m67m789s123s55s", "7s"))
    assert item_values(result) == {"concealed_pung": 4, "win_bonus": 10}


def test_taizhou_pair_of_seat_wind_is_two() -> None:
    assert points_of(tz("123m456p789s234m33z", "1m")) == {"pair": 2, "win_bonus": 10}


def test_taizhou_pair_of_dragons_is_two() -> None:
    assert points_of(tz("123m456p789s234m77z", "1m"))["pair"] == 2
    assert points_of(tz("123m456p789s234m66z", "1m"))["pair"] == 2
    assert points_of(tz("123m456p789s234m55z", "1m"))["pair"] == 2


def test_taizhou_pair_of_another_wind_is_nothing() -> None:
    assert points_of(tz("123m456p789s234m44z", "1m")) == {"win_bonus": 10}


def test_taizhou_single_wait_on_a_dragon_is_two() -> None:
    result = score(tz("123m456p789s234m77z", "7z"))
    assert item_values(result) == {"pair": 2, "single_wait": 2, "win_bonus": 10}


def test_taizhou_single_wait_on_seat_wind_is_two() -> None:
    assert points_of(tz("123m456p789s234m33z", "3z"))["single_wait"] == 2


def test_taizhou_single_wait_on_an_ordinary_tile_is_nothing() -> None:
    assert points_of(tz(PLAIN, "5s")) == {"win_bonus": 10}


def test_taizhou_all_pungs_is_four() -> None:
    # 111m 8 + 555p 4 + 777s 4 + 222m 4 + All Pungs 4 + 10 = 34.
    result = score(tz("111m555p777s222m33s", "3s"))
    assert item_values(result) == {"concealed_pung": 20, "all_pungs": 4, "win_bonus": 10}
    assert result.total == 34


def test_taizhou_all_pungs_bonus_option() -> None:
    result = score(tz("111m555p777s222m33s", "3s", options={"all_pungs_bonus": 2}))
    assert item_values(result)["all_pungs"] == 2
    assert result.total == 32


# --- tai and the limit ------------------------------------------------------------------


def test_taizhou_seat_wind_pung_is_one_tai() -> None:
    result = score(tz("123m456p789s333z55s", "1m"))
    assert item_values(result) == {"concealed_pung": 8, "win_bonus": 10, "seat_wind": 1}
    assert (result.points, result.tai, result.total) == (18, 1, 36)


def test_taizhou_red_pung_is_one_tai() -> None:
    result = score(tz("123m456p789s777z55s", "1m"))
    assert item_values(result)["red_pung"] == 1
    assert result.total == 36


def test_taizhou_green_pung_is_one_tai() -> None:
    assert score(tz("123m456p789s666z55s", "1m")).total == 36


def test_taizhou_white_pung_has_no_tai_by_default() -> None:
    result = score(tz("123m456p789s555z55s", "1m"))
    assert "white_pung" not in item_values(result)
    assert result.total == 18


def test_taizhou_white_pung_tai_option() -> None:
    result = score(tz("123m456p789s555z55s", "1m", options={"white_pung_tai": True}))
    assert item_values(result)["white_pung"] == 1
    assert result.total == 36


def test_taizhou_other_wind_pung_has_no_tai() -> None:
    assert score(tz("123m456p789s444z55s", "1m")).tai == 0


def test_taizhou_full_flush_is_three_tai() -> None:
    result = score(tz("123456789m234m55m", "1m"))
    assert item_values(result) == {"win_bonus": 10, "full_flush": 3}
    assert result.total == 80
    assert result.deltas == [-80, -40, 160, -40]


def test_taizhou_half_flush_is_one_tai() -> None:
    result = score(tz("123456789m234m44z", "1m"))
    assert item_values(result) == {"win_bonus": 10, "half_flush": 1}
    assert result.total == 20


def test_taizhou_limit_caps_the_total() -> None:
    # All pungs in one suit: 8+4+4+4 + 4 + self-draw 2 + 10 = 36 points, 3 tai -> 288 -> 100.
    result = score(tz("111m222m333m444m55m", "5m", by="self_draw"))
    assert (result.points, result.tai, result.total) == (36, 3, 100)
    assert item_values(result)["limit"] == 100
    assert result.deltas == [-100, -100, 300, -100]


def test_taizhou_cap_option() -> None:
    result = score(tz("111m222m333m444m55m", "5m", by="self_draw", options={"cap": 50}))
    assert result.total == 50
    assert result.deltas == [-50, -50, 150, -50]


def test_taizhou_seat_wind_pung_and_red_pair() -> None:
    # Concealed West pung 8 + Red pair 2 + 10 = 20 points, 1 tai -> 40.
    result = score(tz("123m456p789s333z77z", "1m"))
    assert (result.points, result.tai, result.total) == (20, 1, 40)


def test_taizhou_white_reads_as_the_wild_kind_for_a_full_flush() -> None:
    # The White stands for 9p (the wild's kind): 123 234 456 789 55, all dots.
    result = score(tz("12345678p234p55p5z", "4p"))
    assert result.valid
    assert item_values(result) == {"win_bonus": 10, "full_flush": 3}
    assert result.total == 80
    assert result.arrangement is not None
    assert any(group.get("white_as") == "9p" for group in result.arrangement)


def test_taizhou_exposed_pung_of_whites_is_whites() -> None:
    # An exposed White pung is an honor: Half Flush, not Full Flush.
    result = score(tz("123456789p55p", "1p", melds=[pung("555z", 1)], from_seat=3, indicator="9m"))
    assert item_values(result) == {"exposed_pung": 4, "win_bonus": 10, "half_flush": 1}
    assert result.total == 28


def test_taizhou_wild_completes_a_dragon_pung() -> None:
    # 77z + wild = concealed Red pung 8 and 1 tai, better than 555s + Red pair.
    result = score(tz("123m456p789s77z9p55s", "1m"))
    assert item_values(result) == {"concealed_pung": 8, "win_bonus": 10, "red_pung": 1}
    assert result.total == 36


def test_taizhou_self_drawn_wild_can_make_a_single_wait() -> None:
    # The drawn wild pairs the lone Red: Red pair 2 + Single Wait 2 + self-draw 2 + 10.
    result = score(tz("123m456p789s234s7z9p", "9p", by="self_draw"))
    assert item_values(result) == {"pair": 2, "single_wait": 2, "self_draw": 2, "win_bonus": 10}


def test_taizhou_discarded_wild_cannot_be_won_on() -> None:
    result = score(tz("123m456p789s234s7z9p", "9p"))
    assert not result.valid
    assert result.reason == "wild_discard"


def test_taizhou_not_a_winning_hand() -> None:
    result = score(tz("123m456p789s234s17z", "1m"))
    assert not result.valid
    assert result.reason == "not_a_winning_hand"


# --- non-winners --------------------------------------------------------------------------


def test_taizhou_non_winner_scores_concealed_pungs_and_honor_pairs() -> None:
    others = {1: {"concealed": "777z55z147m258p36s"}}
    result = score(tz(PLAIN, "1m", from_seat=3, others=others))
    assert result.totals is not None and result.per_seat_items is not None
    # Red concealed pung 8 + White pair 2 = 10 points, Red 1 tai -> 20.
    assert result.totals[1] == 20
    assert item_values_of(result.per_seat_items[1]) == {
        "concealed_pung": 8,
        "pair": 2,
        "red_pung": 1,
    }


def item_values_of(items: list[Any]) -> dict[str, int]:
    values: dict[str, int] = {}
    for item in items:
        values[item.key] = values.get(item.key, 0) + item.value * item.count
    return values


def test_taizhou_non_winner_wilds_count_as_printed() -> None:
    # Three 9p (wild) in a non-winner's hand are a concealed pung of 9p: 8.
    others = {3: {"concealed": "999p147m258p36s14s"}}
    result = score(tz(PLAIN, "1m", others=others))
    assert result.totals is not None
    assert result.totals[3] == 8


def test_taizhou_non_winner_melds_and_seat_wind_tai() -> None:
    # Seat 1 is South: exposed South pung 4 (1 tai) + concealed kong 5555m 16 -> 20 × 2 = 40.
    others = {1: {"concealed": "147m258p3s", "melds": [pung("222z", 3), kong("5555m")]}}
    result = score(tz("123m456p789s234s55s", "1m", from_seat=3, others=others))
    assert result.totals is not None
    assert result.totals[1] == 40


def test_taizhou_non_winners_settle_their_difference() -> None:
    # Winner 10 (discard from 3): dealer pays 10, seats 1 and 3 pay 5.
    # Seat 1 has 20: the dealer pays it 20 (full), seat 3 pays it 10 (half).
    others = {1: {"concealed": "777z55z147m258p36s"}}
    result = score(tz(PLAIN, "1m", from_seat=3, others=others))
    assert result.deltas == [-30, 25, 20, -15]


def test_taizhou_dealer_pays_full_non_dealers_half() -> None:
    assert score(tz(PLAIN, "1m")).deltas == [-10, -5, 20, -5]


def test_taizhou_dealer_winner_collects_full_from_everyone() -> None:
    assert score(tz(PLAIN, "1m", winner=0)).deltas == [30, -10, -10, -10]


def test_taizhou_discarder_pays_no_extra() -> None:
    by_discard = score(tz(PLAIN, "1m", from_seat=3)).deltas
    assert by_discard == [-10, -5, 20, -5]


def _odd_cap_case(rounding: str) -> dict[str, Any]:
    # Seat 1: White, Green, Red concealed pungs = 24 points, 2 tai -> 96 -> cap 75.
    others = {1: {"concealed": "555z666z777z1479m"}}
    return tz(
        PLAIN, "1m", from_seat=3, others=others, options={"cap": 75, "half_rounding": rounding}
    )


def test_taizhou_half_rounding_up() -> None:
    result = score(_odd_cap_case("up"))
    assert result.totals == [0, 75, 10, 0]
    # Seat 3 owes seat 1 half of 75: 38 rounded up.
    assert any(p.payer == 3 and p.payee == 1 and p.amount == 38 for p in result.payments)
    assert sum(result.deltas) == 0


def test_taizhou_half_rounding_exact_refuses_an_odd_cap() -> None:
    """Exact halves of an odd limit would pay 37.5; deltas are whole units, so the options
    refuse the combination, naming both options, wherever they are built."""
    with pytest.raises(CaseError, match="'cap' must be even with half_rounding 'exact'"):
        parse_case(_odd_cap_case("exact"))
    with pytest.raises(OptionError, match=r"half_rounding 'exact' \(got cap 75\)"):
        TaizhouOptions(cap=75, half_rounding="exact")
    with pytest.raises(OptionError, match="'cap' must be even"):
        make_options("taizhou", {"cap": 75, "half_rounding": "exact"})


def test_taizhou_half_rounding_exact_with_an_even_cap_pays_whole_halves() -> None:
    # With an even limit every amount is even, so exact halves equal rounded-up ones.
    case = _odd_cap_case("exact")
    case["options"]["cap"] = 76
    exact = score(case)
    case["options"]["half_rounding"] = "up"
    assert exact.deltas == score(case).deltas
    assert all(type(delta) is int for delta in exact.deltas)
    assert any(p.payer == 3 and p.payee == 1 and p.amount == 38 for p in exact.payments)


# --- full liability -------------------------------------------------------------------------

FLUSH_MELDS = [chow("123s", 1), chow("456s", 1), pung("888s", 1)]


def test_taizhou_liability_case_1_full_flush_three_claims() -> None:
    result = score(tz("78999s", "7s", melds=FLUSH_MELDS, from_seat=3))
    assert result.total == 96
    # Seat 1 pays what everyone owed: 96 (dealer) + 48 + 48.
    assert [(p.payer, p.amount, p.reason) for p in result.payments] == [(1, 192, "liability")]
    assert result.deltas == [0, -192, 192, 0]


def test_taizhou_liability_case_1_needs_three_claims_from_one_seat() -> None:
    melds = [chow("123s", 1), chow("456s", 1), pung("888s", 3)]
    result = score(tz("78999s", "7s", melds=melds, from_seat=3))
    assert result.deltas == [-96, -48, 192, -48]


def test_taizhou_liability_case_1_applies_to_a_self_draw() -> None:
    result = score(tz("78999s", "7s", melds=FLUSH_MELDS, by="self_draw"))
    # 2 + self-draw 2 + 10 = 14 points, 3 tai = 112 -> 100 from everyone, all paid by seat 1.
    assert result.total == 100
    assert result.deltas == [0, -300, 300, 0]


def test_taizhou_liability_exempt_with_three_tai() -> None:
    # Seat 1 (South) holds South, Green and Red pungs: 3 tai, so it is not liable.
    others = {1: {"concealed": "222z666z777z135m7p"}}
    result = score(tz("78999s", "7s", melds=FLUSH_MELDS, from_seat=3, others=others))
    assert not any(p.reason == "liability" for p in result.payments)
    # Seat 1: 24 points, 3 tai -> 100. Winner: 96 from the dealer, 48 + 48.
    assert result.totals == [0, 100, 96, 0]
    assert result.deltas == [-196, 102, 192, -98]


def test_taizhou_liability_exempt_when_waiting_on_a_full_flush() -> None:
    others = {1: {"concealed": "1112345678999m"}}
    result = score(tz("78999s", "7s", melds=FLUSH_MELDS, from_seat=3, others=others))
    assert not any(p.reason == "liability" for p in result.payments)
    assert any(p.payer == 0 and p.payee == 2 and p.amount == 96 for p in result.payments)


DRAGON_MELDS = [pung("555z", 1), pung("666z", 3)]


def test_taizhou_liability_case_2_third_dragon() -> None:
    # White 4 + Green 4 + Red pair 2 + single wait 2 + 10 = 22; Green 1 + Half Flush 1 -> 88.
    result = score(tz("123m456m77z", "7z", melds=DRAGON_MELDS, from_seat=1))
    assert (result.points, result.tai, result.total) == (22, 2, 88)
    assert result.deltas == [0, -176, 176, 0]


def test_taizhou_liability_case_3_live_dragon_to_a_waiting_player() -> None:
    # Seat 1 is waiting (1p/4p) and discards the live Red that the winner pairs: 14 points.
    others = {1: {"concealed": "123456789m1234p"}}
    result = score(tz("123m456p789s234m77z", "7z", others=others))
    assert result.total == 14
    assert result.deltas == [0, -28, 28, 0]


def test_taizhou_liability_case_3_not_when_the_dragon_was_seen() -> None:
    others = {
        1: {"concealed": "123456789m1234p"},
        0: {"concealed": "147m258p369s1357s", "discards": "7z"},
    }
    result = score(tz("123m456p789s234m77z", "7z", others=others))
    assert result.deltas == [-14, -7, 28, -7]


def test_taizhou_liability_case_3_not_when_a_white_lies_face_up_in_a_chow() -> None:
    """Live is judged by the tile's face: a White shown in an exposed chow (there standing
    for the wild's kind 4s) means White is no longer live, so the ready seat 1 that
    discards a White is not liable."""
    case = {
        "name": "white-face-in-a-chow", "variant": "taizhou", "seats": 4, "indicator": "4s",
        "dealer": 0, "winner": 2, "win": {"tile": "5z", "by": "discard", "from": 1},
        "players": [
            {"concealed": "147m147p17s12345z", "melds": []},
            {"concealed": "234p456p678s22m99s", "melds": []},  # ready on 2m/9s
            {"concealed": "123m567m789p11p35s5z", "melds": []},  # the White read as 4s
            {"concealed": "147m258p69s13z", "melds": [{"type": "chow", "tiles": "35s5z",
                                                       "from": 2}]},
        ],
    }  # fmt: skip
    result = score(case)
    assert item_values(result) == {"closed_wait": 2, "win_bonus": 10}
    assert result.deltas == [-12, -6, 24, -6]
    # The same table with seat 3's 3s and 5s still in hand (and a Green for the White):
    # no White has been shown, White is live, and seat 1 pays everything.
    case["players"][3] = {"concealed": "147m258p69s13z35s6z", "melds": []}
    assert score(case).deltas == [0, -24, 24, 0]


def test_taizhou_liability_case_3_not_when_the_discarder_was_not_waiting() -> None:
    result = score(tz("123m456p789s234m77z", "7z"))
    assert result.deltas == [-14, -7, 28, -7]


def test_taizhou_liability_option_off() -> None:
    case = tz("78999s", "7s", melds=FLUSH_MELDS, from_seat=3, options={"liability": False})
    assert score(case).deltas == [-96, -48, 192, -48]


# --- seats, robbing ------------------------------------------------------------------------------


def test_taizhou_three_seats_same_matrix_and_no_liability() -> None:
    # Seat 2 is West with 3 seats; seat 1 is its left player.
    result = score(tz("78999s", "7s", melds=FLUSH_MELDS, from_seat=1, seats=3))
    assert result.total == 96
    assert result.deltas == [-96, -48, 144]


def test_taizhou_two_seats() -> None:
    result = score(tz(PLAIN, "1m", winner=1, from_seat=0, seats=2))
    assert result.deltas == [-10, 10]


def test_taizhou_two_seats_seat_wind_is_south() -> None:
    result = score(tz("123m456p789s222z55s", "1m", winner=1, from_seat=0, seats=2))
    assert item_values(result)["seat_wind"] == 1


def test_taizhou_rob_kong_is_a_discard_win_from_the_kong_maker() -> None:
    # The robbed 8s is the middle of 789s: closed wait at the discard rate (2).
    others = {3: {"concealed": "1247m258p369s", "melds": [pung("888s", 1)]}}
    result = score(tz(PLAIN, "8s", by="rob_kong", from_seat=3, others=others))
    assert item_values(result) == {"closed_wait": 2, "win_bonus": 10}
    # The kong maker's exposed 888s pung (2) still settles with the other non-winners.
    assert result.totals == [0, 0, 12, 2]
    assert result.deltas == [-14, -7, 24, -3]


def test_taizhou_seven_pairs_only_with_the_option() -> None:
    assert score(tz("1133557799m77z55z", "1m")).reason == "not_a_winning_hand"
    options = {"allow_seven_pairs": True}
    result = score(tz("1133557799m77z55z", "1m", options=options))
    # Red pair 2 + White pair 2 + 10 = 14 points, Half Flush 1 tai -> 28; no All Pungs.
    assert item_values(result) == {"pair": 4, "win_bonus": 10, "half_flush": 1}
    assert result.total == 28
    waited = score(tz("1133557799m77z55z", "7z", options=options))
    assert item_values(waited)["single_wait"] == 2
    assert waited.total == 32


def test_taizhou_white_chow_without_white_as_is_inferred() -> None:
    # The golden format has no white_as: "78p5z" (or "789p" with 9p wild) can only be a White
    # standing for the wild's kind, since wilds are never melded.
    for tiles in ("789p", "78p5z"):
        meld = {"type": "chow", "tiles": tiles, "from": 1}
        result = score(tz("123456p234p55p", "4p", melds=[meld], from_seat=3))
        assert item_values(result) == {"win_bonus": 10, "full_flush": 3}
        assert result.total == 80


def test_taizhou_chow_meld_with_white_standing_for_the_wild() -> None:
    # A claimed 7p-8p-White chow counts as 789p (9p is wild): the hand stays a Full Flush.
    for tiles in ("789p", "78p5z"):
        meld = {"type": "chow", "tiles": tiles, "from": 1, "white_as": "9p"}
        result = score(tz("123456p234p55p", "4p", melds=[meld], from_seat=3))
        assert item_values(result) == {"win_bonus": 10, "full_flush": 3}
        assert result.total == 80


# --- rules settled in issue 12 ------------------------------------------------------------------


def test_taizhou_wild_reads_as_a_fifth_copy_when_that_scores_more() -> None:
    # RULES.md §0: wild 5s, the dealer self-draws 3m holding 2222m 333m 444m 99p + two
    # wilds. Within four copies the best is 222m 234m* 33m 444m(w) 999p(w): pungs 4+4+8,
    # closed wait 4, self-draw 2, bonus 10 = 32. A wild read as a fifth 2m gives All Pungs:
    # 22m 222m(w) 333m* 444m 999p(w): pungs 4+4+4+8 = 20, All Pungs 4, self-draw 2,
    # bonus 10 = 36 points, no tai -> 36 from each other seat.
    case = tz("2222m333m444m99p5s5s", "3m", winner=0, by="self_draw", indicator="5s")
    result = score(case)
    assert item_values(result) == {
        "concealed_pung": 20,
        "all_pungs": 4,
        "self_draw": 2,
        "win_bonus": 10,
    }
    assert (result.points, result.tai, result.total) == (36, 0, 36)
    assert result.deltas == [108, -36, -36, -36]


def test_taizhou_liability_case_3_judges_a_discarded_white_by_its_face() -> None:
    # Wild 5p. Seat 1 (waiting on 1p/4p) discards a live White; the winner reads it as 5p
    # in 4p-5p-6p (closed wait 2 + bonus 10 = 12). The tile is a dragon by its face, so
    # seat 1 pays what all owed: 12 (dealer) + 6 + 6.
    others = {1: {"concealed": "123456789m1234p"}}
    result = score(tz("123m456s789s11z46p5z", "5z", indicator="5p", others=others))
    assert (result.points, result.total) == (12, 12)
    assert [(p.payer, p.amount, p.reason) for p in result.payments] == [(1, 24, "liability")]
    assert result.deltas == [0, -24, 24, 0]


def test_taizhou_liability_waiting_uses_the_one_waits_rule_seven_pairs_with_the_option() -> None:
    # Seat 1 waits on 9s only as seven pairs; it discards the live Red the winner pairs.
    # Waiting (tenpai) is the round's rule: with allow_seven_pairs it is waiting, so liable.
    others = {1: {"concealed": "1122m3355p779s11z"}}
    off = score(tz("123m456p789s234m77z", "7z", others=others))
    assert off.deltas == [-14, -7, 28, -7]
    on = score(tz("123m456p789s234m77z", "7z", others=others, options={"allow_seven_pairs": True}))
    assert on.deltas == [0, -28, 28, 0]
