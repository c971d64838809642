"""RULES.md §1/§2 match progression: dealer rotation (stays on a win), seat winds
relative to the dealer, Jiaxing's prevailing wind and carried pool, the match end."""

from __future__ import annotations

import pytest
from scenario import play_defaults_until, rig_self_draw_win

from engine.match import Match, assign_seats
from engine.round import IllegalAction
from engine.types import Action


def finish_with_draw(match: Match) -> list[dict]:
    events: list[dict] = []

    def apply(action: Action) -> None:
        events.extend(match.apply(action))

    play_defaults_until(match.round, lambda r: False, apply)
    return events


def finish_with_win(match: Match, seat: int) -> list[dict]:
    round_ = match.round
    play_defaults_until(
        round_,
        lambda r: r.phase == "turn" and r.current_seat == seat and r.drawn[seat] is not None,
        match.apply,
    )
    rig_self_draw_win(round_, seat)
    return match.apply(Action("win", seat))


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_dealer_stays_after_winning(variant: str) -> None:
    match = Match(variant, seed=1)
    events = finish_with_win(match, 0)
    assert [e["type"] for e in events][-3:] == ["hand_end", "scores", "new_hand"]
    assert match.results[-1].winner == 0 and match.dealer == 0
    assert match.round.dealer == 0 and match.hand_number == 1


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_deal_passes_right_after_a_non_dealer_win(variant: str) -> None:
    match = Match(variant, seed=2)
    finish_with_win(match, 2)
    assert match.results[-1].winner == 2 and match.dealer == 1 and match.round.dealer == 1


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_deal_passes_after_an_exhaustive_draw_by_default(variant: str) -> None:
    match = Match(variant, seed=3)
    finish_with_draw(match)
    assert match.results[-1].winner is None and match.dealer == 1


def test_jiaxing_dealer_on_draw_stay_option() -> None:
    match = Match("jiaxing", {"dealer_on_draw": "stay"}, seed=3)
    finish_with_draw(match)
    assert match.dealer == 0


def test_seat_winds_follow_the_dealer() -> None:
    match = Match("taizhou", seed=4)
    finish_with_draw(match)
    winds = [seat.seat_wind for seat in match.public_view().seats]
    assert winds == [30, 27, 28, 29]  # dealer seat 1 is East, seat 0 is North
    assert [seat.is_dealer for seat in match.public_view().seats] == [False, True, False, False]


def test_three_seat_winds_are_east_south_west() -> None:
    match = Match("taizhou", seed=4, seats=3)
    assert [seat.seat_wind for seat in match.public_view().seats] == [27, 28, 29]


def test_each_hand_has_its_own_wall() -> None:
    match = Match("taizhou", seed=5)
    first = list(match.round.wall.tiles)
    finish_with_draw(match)
    assert match.round.wall.tiles != first


def test_jiaxing_prevailing_wind_advances_when_the_deal_returns_to_seat_zero() -> None:
    match = Match("jiaxing", {"rounds": 2}, seed=6)
    for _ in range(4):
        assert match.round.prevailing_wind == 27
        finish_with_draw(match)
    assert match.dealer == 0 and match.round.prevailing_wind == 28
    assert match.public_view().round_index == 1 and not match.finished


def test_taizhou_has_no_prevailing_wind() -> None:
    match = Match("taizhou", {"rounds": 2}, seed=6)
    for _ in range(4):
        finish_with_draw(match)
    assert match.round.prevailing_wind == 27 and match.public_view().round_index == 1


@pytest.mark.parametrize(("variant", "seats"), [("jiaxing", 4), ("taizhou", 3), ("taizhou", 2)])
def test_match_ends_after_the_configured_rounds(variant: str, seats: int) -> None:
    match = Match(variant, seed=7, seats=seats)
    finish_with_win(match, 0)  # the dealer's win does not advance the rotation
    for _ in range(seats - 1):
        finish_with_draw(match)
        assert not match.finished
    events = finish_with_draw(match)
    assert match.finished and events[-1]["type"] == "match_end"
    assert len(match.results) == seats + 1
    assert match.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="match is over"):
        match.apply(Action("pass", 0))


def test_scores_are_the_sum_of_zero_sum_hand_deltas() -> None:
    match = Match("taizhou", seed=8)
    finish_with_win(match, 1)
    finish_with_win(match, 2)
    assert sum(match.scores) == 0
    assert match.scores == [sum(r.deltas[s] for r in match.results) for s in range(4)]
    assert match.round.scores == match.scores


def test_jiaxing_carried_pool_adds_draws_and_bonuses_and_pays_one_per_win() -> None:
    match = Match("jiaxing", seed=9)
    pool_start = match.round.carried_fan
    bonuses = len(match.round.carried_fan_bonuses)
    assert pool_start == bonuses  # the first hand starts from an empty pool
    finish_with_draw(match)
    second = match.round
    assert second.carried_fan == pool_start + 1 + len(second.carried_fan_bonuses)
    before = second.carried_fan
    finish_with_win(match, 1)
    result = match.results[-1]
    assert result.carried_fan_used == (1 if before else 0)
    third = match.round
    assert third.carried_fan == before - result.carried_fan_used + len(third.carried_fan_bonuses)


def test_jiaxing_carried_bonuses_honor_wild_dice_doubles_repeat_wild() -> None:
    seen: set[str] = set()
    for seed in range(60):
        match = Match("jiaxing", seed=seed)
        round_ = match.round
        expected = []
        if round_.wild >= 27:
            expected.append("honor_wild")
        if round_.wall.dice[0] == round_.wall.dice[1]:
            expected.append("dice_doubles")
        assert round_.carried_fan_bonuses == expected
        seen.update(expected)
        previous_wild = round_.wild
        finish_with_draw(match)
        assert ("repeat_wild" in match.round.carried_fan_bonuses) == (
            match.round.wild == previous_wild
        )
    assert seen == {"honor_wild", "dice_doubles"}


def test_taizhou_has_no_carried_pool() -> None:
    match = Match("taizhou", seed=10)
    finish_with_draw(match)
    assert match.round.carried_fan == 0 and match.public_view().carried_fan == 0


def test_turn_id_counts_accepted_actions_only() -> None:
    match = Match("taizhou", seed=11)
    with pytest.raises(IllegalAction):
        match.apply(Action("pass", 2))
    assert match.turn_id == 0
    match.apply(match.round.default_action(0))
    assert match.turn_id == 1 and match.public_view().turn_id == 1


def test_assign_seats_is_a_seeded_shuffle() -> None:
    players = ["a", "b", "c", "d"]
    assert assign_seats("x", players) == assign_seats("x", players)
    assert sorted(assign_seats("x", players)) == players
    orders = {tuple(assign_seats(seed, players)) for seed in range(20)}
    assert len(orders) > 1


def test_unknown_option_and_bad_seat_count_are_errors() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        Match("taizhou", {"nope": 1})
    with pytest.raises(ValueError, match="seats"):
        Match("jiaxing", seats=3)


def test_a_table_refuses_exact_halves_of_an_odd_limit() -> None:
    """Taizhou half_rounding 'exact' with an odd cap would pay half units the ledger cannot
    book: such a table is refused up front (the calculator still scores it)."""
    import pytest

    from engine.variants import OptionError

    with pytest.raises(OptionError, match="even"):
        Match("taizhou", {"half_rounding": "exact", "cap": 75}, seed=1)
    Match("taizhou", {"half_rounding": "exact", "cap": 100}, seed=1)
