"""RULES.md §0 wall: seeded shuffle, dice, the indicator, replacements from the back,
each variant's reserve, 2/3/4 seats and Taizhou's ``remove_suits``."""

from __future__ import annotations

import pytest

from engine.round import Round
from engine.wall import Wall, tile_kinds_in_play


def test_same_seed_same_wall_and_dice_other_seed_differs() -> None:
    first = Wall.shuffled("abc")
    assert first.tiles == Wall.shuffled("abc").tiles
    assert first.dice == Wall.shuffled("abc").dice
    assert first.tiles != Wall.shuffled("abd").tiles


def test_wall_holds_136_tiles_four_of_each_kind() -> None:
    wall = Wall.shuffled(1)
    assert len(wall.tiles) == wall.total == 136
    assert all(wall.tiles.count(kind) == 4 for kind in range(34))


def test_two_dice_each_one_to_six() -> None:
    for seed in range(40):
        dice = Wall.shuffled(seed).dice
        assert len(dice) == 2 and all(1 <= die <= 6 for die in dice)


def test_live_draws_come_from_the_front_replacements_from_the_back() -> None:
    wall = Wall(tiles=[1, 2, 3, 4, 5], dice=(1, 1), reserve=0)
    assert wall.draw() == 1
    assert wall.draw_replacement() == 5
    assert wall.tiles == [2, 3, 4] and wall.drawn_from_back == 1


def test_no_draw_of_either_kind_goes_below_the_reserve() -> None:
    wall = Wall(tiles=[1, 2, 3, 4], dice=(1, 1), reserve=3)
    assert wall.drawable == 1
    wall.draw()
    assert wall.drawable == 0
    with pytest.raises(IndexError):
        wall.draw()
    with pytest.raises(IndexError):
        wall.draw_replacement()


def test_indicator_leaves_play_with_three_wild_copies() -> None:
    wall = Wall(tiles=[1, 2, 7], dice=(1, 1), reserve=0)
    assert wall.flip_indicator(keep_in_wall=False) == 7
    assert wall.tiles == [1, 2] and not wall.indicator_in_wall


def test_indicator_stays_drawable_with_four_wild_copies() -> None:
    wall = Wall(tiles=[1, 2, 7], dice=(1, 1), reserve=0)
    assert wall.flip_indicator(keep_in_wall=True) == 7
    assert wall.tiles == [1, 2, 7] and wall.indicator_in_wall


@pytest.mark.parametrize(("remove_suits", "kinds"), [(0, 34), (1, 25), (2, 16)])
def test_remove_suits_drops_characters_then_bamboo(remove_suits: int, kinds: int) -> None:
    in_play = tile_kinds_in_play(remove_suits)
    assert len(in_play) == kinds
    wall = Wall.shuffled(3, remove_suits=remove_suits)
    assert len(wall.tiles) == 4 * kinds
    if remove_suits >= 1:
        assert not any(kind < 9 for kind in wall.tiles)
    if remove_suits == 2:
        assert not any(18 <= kind < 27 for kind in wall.tiles)
        assert any(9 <= kind < 18 for kind in wall.tiles)


def test_jiaxing_deal_reserve_zero_dealer_fourteen_wild_is_indicator() -> None:
    round_ = Round("jiaxing", seed=5)
    assert [sum(hand) for hand in round_.hands] == [14, 13, 13, 13]
    assert round_.wall.reserve == 0
    assert round_.tiles_left == 136 - 53 - 1
    assert round_.wild == round_.indicator
    assert (
        round_.wall.tiles.count(round_.indicator)
        + sum(hand[round_.indicator] for hand in round_.hands)
        == 3
    )


def test_taizhou_reserve_is_sixteen() -> None:
    round_ = Round("taizhou", seed=5)
    assert round_.wall.reserve == 16
    assert round_.tiles_left == 136 - 53 - 1 - 16


def test_reserve_tiles_option_changes_the_reserve() -> None:
    assert Round("jiaxing", {"reserve_tiles": 10}, seed=1).wall.reserve == 10
    assert Round("taizhou", {"reserve_tiles": 0}, seed=1).wall.reserve == 0


def test_wild_copies_four_keeps_the_indicator_in_the_wall() -> None:
    round_ = Round("taizhou", {"wild_copies": 4}, seed=5)
    assert round_.wall.indicator_in_wall
    assert len(round_.wall.tiles) == 136 - 53
    assert all(count == 4 for count in round_.tile_census())


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_taizhou_deals_two_three_or_four_seats(seats: int) -> None:
    round_ = Round("taizhou", seed=9, seats=seats, dealer=seats - 1)
    sizes = [sum(hand) for hand in round_.hands]
    assert sizes[seats - 1] == 14 and sorted(sizes)[:-1] == [13] * (seats - 1)
    assert round_.drawn[seats - 1] is not None
    assert all(count == 4 for count in round_.tile_census())


def test_taizhou_remove_suits_round_census_counts_only_kinds_in_play() -> None:
    round_ = Round("taizhou", {"remove_suits": 2}, seed=2, seats=2)
    census = round_.tile_census()
    assert all(census[kind] == 4 for kind in tile_kinds_in_play(2))
    assert sum(census) == 64


def test_jiaxing_is_four_seats_only() -> None:
    with pytest.raises(ValueError, match="4 seats"):
        Round("jiaxing", seed=1, seats=3)


def test_too_few_tiles_for_the_deal_and_reserve_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="not enough tiles: 64 tiles, 54 dealt and 16"):
        Round("taizhou", {"remove_suits": 2}, seed=1, seats=4)
    assert Round("taizhou", {"remove_suits": 2}, seed=1, seats=3).tiles_left == 7
