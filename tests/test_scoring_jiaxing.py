"""Jiaxing Taitou Hu scoring (RULES.md §1): one test per scoring item and payment rule.

Every expected number was counted by hand. Unless a test says otherwise the indicator
is 9p (so 9p is the wild), the dealer is seat 0 (East), the round is East and the
winner is seat 2 (West), so no wind pung scores by accident.
"""

from __future__ import annotations

from typing import Any

from test_scoring_helpers import chow, item_values, kong, make_case, pung, score

HALF_FLUSH_HAND = "123456789m234m44z"  # 123 456 789 234 m + North pair: Half Flush 2 + No Wilds 1


def jx(concealed: str, win: str, **kwargs: Any) -> dict[str, Any]:
    kwargs.setdefault("winner", 2)
    return make_case("jiaxing", concealed, win, **kwargs)


# --- the four qualifying hand types -------------------------------------------------


def test_jiaxing_full_flush_is_four_tai() -> None:
    result = score(jx("123456789m234m55m", "5m"))
    assert result.valid
    assert item_values(result) == {"full_flush": 4, "no_wilds": 1}
    assert (result.tai, result.fan, result.score) == (5, 0, 5)


def test_jiaxing_half_flush_is_two_tai() -> None:
    result = score(jx(HALF_FLUSH_HAND, "2m"))
    assert item_values(result) == {"half_flush": 2, "no_wilds": 1}
    assert result.score == 3


def test_jiaxing_all_honors_is_ten_tai_and_not_half_flush() -> None:
    # Seat 3 is North, the round East: the South and West pungs earn nothing.
    result = score(jx("222z333z555z666z77z", "7z", winner=3))
    values = item_values(result)
    assert values == {
        "all_honors": 10,
        "all_pungs": 2,
        "white_pung": 1,
        "green_pung": 1,
        "no_wilds": 1,
    }
    assert result.score == 15


def test_jiaxing_all_pungs_alone_qualifies() -> None:
    result = score(jx("111m222p333s777m55p", "3s"))
    assert result.valid
    assert item_values(result) == {"all_pungs": 2, "no_wilds": 1}
    assert result.score == 3


def test_jiaxing_all_pungs_stacks_with_full_flush() -> None:
    result = score(jx("111m333m555m777m99m", "9m"))
    assert item_values(result) == {"full_flush": 4, "all_pungs": 2, "no_wilds": 1}
    assert result.score == 7


def test_jiaxing_no_qualifying_type_is_not_a_win() -> None:
    result = score(jx("123m456p789s234m44z", "2m"))
    assert not result.valid
    assert result.reason == "no_qualifying_type"
    assert result.deltas == [0, 0, 0, 0]


def test_jiaxing_extra_tai_never_make_a_hand_legal() -> None:
    # Red pung + seat wind pung, but three suits: still no qualifying type.
    result = score(jx("123m456p777z333z11s", "7z"))
    assert not result.valid
    assert result.reason == "no_qualifying_type"


def test_jiaxing_not_four_sets_and_a_pair() -> None:
    result = score(jx("123456789m234m45z", "2m"))
    assert not result.valid
    assert result.reason == "not_a_winning_hand"


def test_jiaxing_discard_win_is_refused() -> None:
    result = score(jx(HALF_FLUSH_HAND, "2m", by="discard", from_seat=1))
    assert not result.valid
    assert result.reason == "discard_win"


# --- more tai ---------------------------------------------------------------------


def test_jiaxing_red_pung_is_one_tai() -> None:
    result = score(jx("123456789m777z44z", "1m"))
    assert item_values(result) == {"half_flush": 2, "red_pung": 1, "no_wilds": 1}


def test_jiaxing_green_pung_is_one_tai() -> None:
    result = score(jx("123456789m666z44z", "1m"))
    assert item_values(result) == {"half_flush": 2, "green_pung": 1, "no_wilds": 1}


def test_jiaxing_white_pung_is_one_tai() -> None:
    result = score(jx("123456789m555z44z", "1m"))
    assert item_values(result) == {"half_flush": 2, "white_pung": 1, "no_wilds": 1}


def test_jiaxing_dragon_kong_counts_like_a_pung() -> None:
    result = score(jx("123456789m44z", "1m", melds=[kong("7777z", 1)]))
    assert item_values(result)["red_pung"] == 1


def test_jiaxing_seat_wind_pung_is_one_tai() -> None:
    # Seat 2 with dealer 0 is West.
    result = score(jx("123456789m333z44z", "1m"))
    assert item_values(result) == {"half_flush": 2, "seat_wind": 1, "no_wilds": 1}


def test_jiaxing_prevailing_wind_pung_is_one_tai() -> None:
    result = score(jx("123456789m222z44z", "1m", prevailing_wind="2z"))
    assert item_values(result) == {"half_flush": 2, "prevailing_wind": 1, "no_wilds": 1}


def test_jiaxing_seat_and_prevailing_wind_stack() -> None:
    # The dealer is East in the East round: an East pung is 2 tai.
    result = score(jx("123456789m111z44z", "1m", winner=0))
    assert item_values(result) == {
        "half_flush": 2,
        "seat_wind": 1,
        "prevailing_wind": 1,
        "no_wilds": 1,
    }
    assert result.score == 5


def test_jiaxing_other_wind_pung_is_zero_tai() -> None:
    result = score(jx("123456789m444z22z", "1m"))
    assert item_values(result) == {"half_flush": 2, "no_wilds": 1}


def test_jiaxing_no_wilds_is_one_tai() -> None:
    assert item_values(score(jx(HALF_FLUSH_HAND, "2m")))["no_wilds"] == 1


def test_jiaxing_holding_a_wild_loses_no_wilds() -> None:
    # 9p is wild; it pairs the 4m. Half Flush only.
    result = score(jx("123456789m444z4m9p", "4m"))
    assert result.valid
    assert item_values(result) == {"half_flush": 2}
    assert result.score == 2


def test_jiaxing_pung_completed_with_a_wild_counts() -> None:
    # 77z + wild = Red pung (1 tai) beats 44z + wild = North pung (0 tai).
    result = score(jx("123456789m77z44z9p", "1m"))
    assert item_values(result) == {"half_flush": 2, "red_pung": 1}
    assert result.score == 3


def test_jiaxing_wilds_read_to_make_a_qualifying_type() -> None:
    # Wilds read as characters (23m+wild, 5m+wild) make a Full Flush, worth more than honors.
    result = score(jx("123456789m23m5m9p9p", "5m"))
    assert result.valid
    assert item_values(result) == {"full_flush": 4}


# --- fan ---------------------------------------------------------------------------


def test_jiaxing_three_wilds_is_one_fan() -> None:
    # Three wilds (9p): 44z pair + wilds as a Red (or West) pung: Half Flush 2 + 1 = 3 tai.
    result = score(jx("123456789m44z999p", "1m"))
    values = item_values(result)
    assert values["three_wilds"] == 1
    assert (result.tai, result.fan, result.score) == (3, 1, 6)
    assert "no_wilds" not in values


def test_jiaxing_kong_replacement_is_one_fan() -> None:
    result = score(jx("123456789m55z", "9m", melds=[kong("4444z")], kong_replacement=True))
    # North concealed kong (no tai for West), White pair: Half Flush 2 + No Wilds 1.
    assert item_values(result) == {"half_flush": 2, "no_wilds": 1, "kong_replacement": 1}
    assert (result.tai, result.fan, result.score) == (3, 1, 6)


def test_jiaxing_single_wait_is_one_fan() -> None:
    melds = [pung("111m", 1), pung("333m", 3), chow("789m", 1), pung("555m", 0)]
    result = score(jx("44z", "4z", melds=melds))
    assert item_values(result) == {"half_flush": 2, "no_wilds": 1, "single_wait": 1}
    assert result.score == 6


def test_jiaxing_single_wait_needs_one_concealed_tile_left() -> None:
    result = score(jx("789m44z", "4z", melds=[pung("111m", 1), pung("333m", 3), pung("555m", 0)]))
    assert "single_wait" not in item_values(result)


def test_jiaxing_last_tile_is_one_fan() -> None:
    result = score(jx(HALF_FLUSH_HAND, "2m", last_tile=True))
    assert item_values(result)["last_tile"] == 1
    assert result.score == 6


def test_jiaxing_heavenly_hand_is_two_fan() -> None:
    result = score(jx(HALF_FLUSH_HAND, "2m", winner=0, first_draw=True))
    assert item_values(result)["heavenly_hand"] == 2
    assert (result.fan, result.score) == (2, 12)


def test_jiaxing_earthly_hand_is_two_fan() -> None:
    result = score(jx(HALF_FLUSH_HAND, "2m", first_draw=True))
    assert item_values(result)["earthly_hand"] == 2
    assert result.score == 12


def test_jiaxing_earthly_hand_option_off() -> None:
    case = jx(HALF_FLUSH_HAND, "2m", first_draw=True, options={"earthly_hand": "off"})
    result = score(case)
    assert "earthly_hand" not in item_values(result)
    assert result.score == 3


def test_jiaxing_carried_fan_takes_one_from_the_pool() -> None:
    result = score(jx(HALF_FLUSH_HAND, "2m", carried_fan=3))
    assert item_values(result)["carried_fan"] == 1
    assert (result.fan, result.score, result.carried_fan_used) == (1, 6, 1)


def test_jiaxing_empty_pool_adds_nothing() -> None:
    result = score(jx(HALF_FLUSH_HAND, "2m", carried_fan=0))
    assert result.carried_fan_used == 0
    assert result.fan == 0


def test_jiaxing_fan_items_stack() -> None:
    # The RULES.md example: Half Flush 2 + Red 1 = 3 tai; Single Wait + carried = 2 fan -> 12.
    melds = [pung("777z", 1), chow("123m", 1), chow("456m", 1), chow("789m", 1)]
    result = score(jx("44z", "4z", melds=melds, carried_fan=1))
    assert (result.tai, result.fan, result.score) == (3 + 1, 2, 16)  # + No Wilds
    assert result.deltas == [-16, -16, 48, -16]


# --- payments -----------------------------------------------------------------------


def test_jiaxing_self_draw_each_other_player_pays_the_score() -> None:
    result = score(jx(HALF_FLUSH_HAND, "2m"))
    assert result.deltas == [-3, -3, 9, -3]
    assert sorted((p.payer, p.amount) for p in result.payments) == [(0, 3), (1, 3), (3, 3)]


def test_jiaxing_no_dealer_doubling() -> None:
    result = score(jx(HALF_FLUSH_HAND, "2m", dealer=2))
    assert result.deltas == [-3, -3, 9, -3]


ROB_MAKER = {1: {"concealed": "1357p132468s", "melds": [pung("888m", 3)]}}


def test_jiaxing_rob_kong_maker_pays_three_times() -> None:
    result = score(jx(HALF_FLUSH_HAND, "8m", by="rob_kong", from_seat=1, others=ROB_MAKER))
    assert result.valid
    assert result.score == 3
    assert result.deltas == [0, -9, 9, 0]


def test_jiaxing_rob_kong_refused_when_pairing_the_robbed_tile_with_a_wild() -> None:
    maker = {1: {"concealed": "1357p132468s", "melds": [pung("555z", 3)]}}
    result = score(jx("123456789m111z9p5z", "5z", by="rob_kong", from_seat=1, others=maker))
    assert not result.valid
    assert result.reason == "rob_kong_pair_wait"
    assert result.deltas == [0, 0, 0, 0]


def test_jiaxing_rob_kong_allowed_when_the_robbed_tile_completes_a_set() -> None:
    # 123 456(5m robbed) 78+wild, East pung (round wind), North pair: 3 tai, no No Wilds.
    maker = {1: {"concealed": "1357p132468s", "melds": [pung("555m", 3)]}}
    result = score(jx("1234678m111z44z9p5m", "5m", by="rob_kong", from_seat=1, others=maker))
    assert result.valid
    assert result.score == 3
    assert result.deltas == [0, -9, 9, 0]


def test_jiaxing_rob_kong_under_three_claim_liability_five_times_each_player_in() -> None:
    case = jx(
        HALF_FLUSH_HAND,
        "8m",
        by="rob_kong",
        from_seat=1,
        others=ROB_MAKER,
        santan={"pairs": [[1, 3]]},
    )
    assert score(case).deltas == [0, -45, 45, 0]  # 5 × 3 × three players still in


def test_jiaxing_rob_kong_under_liability_folded_players_do_not_count() -> None:
    case = jx(
        HALF_FLUSH_HAND,
        "8m",
        by="rob_kong",
        from_seat=1,
        others=ROB_MAKER,
        santan={"pairs": [[1, 3]], "folded": [0]},
    )
    assert score(case).deltas == [0, -30, 30, 0]


def _santan(profile: str, pairs: list[list[int]], folded: list[int] | None = None) -> list[int]:
    case = jx(
        HALF_FLUSH_HAND,
        "2m",
        winner=0,
        options={"santan_profile": profile},
        santan={"pairs": pairs, "folded": folded or []},
    )
    return score(case).deltas


def test_jiaxing_santan_five_x_liable_winner() -> None:
    # Winner 0 liable with 1: seat 1 pays 5×, continuing seats 2, 3 pay 5× each (score 3).
    assert _santan("five_x", [[0, 1]]) == [45, -15, -15, -15]


def test_jiaxing_santan_two_x_liable_winner() -> None:
    assert _santan("two_x", [[0, 1]]) == [27, -15, -6, -6]


def test_jiaxing_santan_five_x_continuing_winner() -> None:
    assert _santan("five_x", [[1, 2]]) == [45, -15, -15, -15]


def test_jiaxing_santan_two_x_continuing_winner() -> None:
    # Liable seats 1 and 2 pay 2×; the other continuing seat 3 pays 1×.
    assert _santan("two_x", [[1, 2]]) == [15, -6, -6, -3]


def test_jiaxing_santan_folded_player_pays_nothing() -> None:
    assert _santan("five_x", [[0, 1]], folded=[3]) == [30, -15, -15, 0]
    assert _santan("two_x", [[1, 2]], folded=[3]) == [12, -6, -6, 0]


def test_jiaxing_folded_player_cannot_win() -> None:
    case = jx(HALF_FLUSH_HAND, "2m", santan={"pairs": [[0, 1]], "folded": [2]})
    result = score(case)
    assert not result.valid
    assert result.reason == "folded"


def test_jiaxing_arrangement_marks_wild_readings_and_the_winning_tile() -> None:
    result = score(jx("123456789m77z44z9p", "1m"))
    assert result.arrangement is not None
    red = [group for group in result.arrangement if group["tiles"] == "777z"]
    assert red and red[0]["wilds"] == "7z"
    assert sum(1 for group in result.arrangement if "win" in group) == 1


def test_jiaxing_seven_pairs_only_with_the_option() -> None:
    assert score(jx("1133557799m11z22z", "1m")).reason == "not_a_winning_hand"
    result = score(jx("1133557799m11z22z", "1m", options={"allow_seven_pairs": True}))
    assert result.valid
    assert item_values(result) == {"half_flush": 2, "no_wilds": 1}
    assert result.score == 3


def test_jiaxing_wild_stands_for_a_fifth_copy_whose_only_qualifying_reading_needs_it() -> None:
    # RULES.md §0 (issue 12): wild 9s, the dealer self-draws 5p holding 5p 7777p 111s 111z
    # and three wilds. Within four copies the only shapes hold a chow (567p or 789p) and
    # are no qualifying type; reading 555p 777p 111s 111z + 77p (a fifth 7p) is All Pungs
    # 2 + seat wind 1 + prevailing wind 1 = 4 tai, Three Wilds 1 fan -> 8 from each.
    case = jx("5p7777p111s111z9s9s9s", "5p", winner=0, indicator="9s")
    result = score(case)
    assert result.valid
    assert item_values(result) == {
        "all_pungs": 2,
        "seat_wind": 1,
        "prevailing_wind": 1,
        "three_wilds": 1,
    }
    assert (result.tai, result.fan, result.score) == (4, 1, 8)
    assert result.deltas == [24, -8, -8, -8]
    sevens = sum(str(group["tiles"]).count("7") for group in result.arrangement or [])
    assert sevens >= 5  # 7777p and at least one wild read as a further 7p


def test_jiaxing_wild_stands_for_any_tile_when_that_scores_more() -> None:
    # Four wilds (wild_copies 4) beside a natural East pung read best as a White pung and
    # the 77m pair: Half Flush 2 + East (seat 1 + round 1) + White 1 = 5 tai, Three Wilds
    # 1 fan -> 10. A second East pung (copies five to seven) adds nothing: a wind's tai
    # are per kind (seed 001: 三张以上种风，0-2台, "three or more of a wind: 0 to 2 tai").
    case = jx("1234567m5555p111z", "5p", winner=0, indicator="5p", options={"wild_copies": 4})
    result = score(case)
    assert item_values(result) == {
        "half_flush": 2,
        "seat_wind": 1,
        "prevailing_wind": 1,
        "white_pung": 1,
        "three_wilds": 1,
    }
    assert result.score == 10


def test_jiaxing_honor_tai_are_per_kind_not_per_pung() -> None:
    # Four natural Reds and two wilds read as two Red pungs (a fifth and sixth Red):
    # still one Red item (seed 001: 三张以上红中，1台, "three or more Reds: 1 tai").
    result = score(jx("123456m55m7777z9s9s", "5m", winner=1, indicator="9s"))
    assert item_values(result) == {"half_flush": 2, "red_pung": 1}
    assert result.score == 3


def test_jiaxing_fifth_copy_reading_when_nothing_else_completes() -> None:
    # Four natural Easts and a wild: only a fifth East completes it.
    result = score(jx("123456789m1111z9p", "1z", winner=0))
    assert result.valid
    assert result.score == 4
