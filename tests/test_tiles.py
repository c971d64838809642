"""RULES.md §0 tiles and notation: parsing, formatting, names and clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tiles import (
    EAST,
    GREEN,
    NORTH,
    RED,
    SOUTH,
    WEST,
    WHITE,
    TileError,
    check_copies,
    format_tiles,
    is_honor,
    is_terminal,
    is_terminal_or_honor,
    kind_str,
    name_en,
    name_zh,
    parse_tile,
    parse_tiles,
    tile_name,
)


def test_notation_kinds_are_suit_blocks_of_nine_then_seven_honors() -> None:
    assert parse_tiles("123m456p789s1234567z") == [
        0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
    ]  # fmt: skip


def test_honor_letters_esw_n_p_f_c() -> None:
    assert parse_tiles("E S W N P F C") == [EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED]
    assert parse_tiles("ESWNPFC") == [EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED]


def test_english_honor_words_are_not_read_as_letters() -> None:
    assert parse_tiles("East South West North") == [EAST, SOUTH, WEST, NORTH]
    assert parse_tiles("White Green Red") == [WHITE, GREEN, RED]


def test_chinese_names_and_digit_plus_chinese_suit() -> None:
    assert parse_tiles("一万五筒九条东风红中") == [0, 13, 26, EAST, RED]
    assert parse_tiles("5万3筒7索") == [4, 11, 24]
    assert parse_tiles("白板发财") == [WHITE, GREEN]
    assert parse_tiles("東發") == [EAST, GREEN]


def test_full_width_input_and_capital_suit_letters_are_read() -> None:
    """A Chinese input method in full-width mode types １ｍ and ５Ｐ (and ，): read as
    their ASCII twins. After digits a capital letter is the suit, never an honor: 5S is
    five of bamboo, not 5 and South (which would be an error anyway)."""
    assert parse_tiles("１ｍ５Ｐ") == [0, 13]
    assert parse_tiles("5M 3S，１２３ｓ") == [4, 20, 18, 19, 20]
    assert parse_tiles("７Ｚ") == [RED]
    assert parse_tiles("Ｓ") == [SOUTH]  # a lone honor letter stays an honor


def test_separators_are_ignored_and_order_is_kept() -> None:
    assert parse_tiles("9m, 1m; 5z") == [8, 0, WHITE]


def test_parse_tile_wants_exactly_one() -> None:
    assert parse_tile("7z") == RED
    assert parse_tile(5) == 5
    with pytest.raises(TileError, match="expected one tile"):
        parse_tile("12m")


@pytest.mark.parametrize(
    ("text", "fragment", "chinese"),
    [
        ("1230m", "'0m' at position 4", "第 4 个字符的 '0m' 不是牌：数牌只有 1–9"),
        ("18z", "'8z' at position 2", "第 2 个字符的 '8z' 不是牌：字牌只有 1z–7z"),
        ("12", "need a suit letter", "末尾的数字 '12' 后面要跟花色字母"),
        ("12 3m", "not followed by a suit letter", "第 1 个字符起的数字 '12' 后面要跟花色字母"),
        ("1m x", "unknown tile 'x' at position 4", "第 4 个字符 'x' 不是牌"),
        ("一万猫", "unknown tile '猫'", "第 3 个字符 '猫' 不是牌"),
    ],
)
def test_bad_notation_error_names_the_wrong_part(text: str, fragment: str, chinese: str) -> None:
    """In both languages: a player who types a tile wrong reads why in their own."""
    with pytest.raises(TileError, match=fragment.replace("(", r"\(")) as error:
        parse_tiles(text)
    assert error.value.en == str(error.value)
    assert chinese in error.value.zh and repr(text) in error.value.zh


def test_one_tile_wanted_says_so_in_chinese_too() -> None:
    with pytest.raises(TileError) as error:
        parse_tile("12m")
    assert error.value.zh == "要写一张牌，'12m' 里是 2 张"


def test_kind_lists_are_range_checked() -> None:
    assert parse_tiles([0, 33]) == [0, 33]
    with pytest.raises(TileError, match="out of range"):
        parse_tiles([34])
    with pytest.raises(TileError, match="out of range"):
        kind_str(-1)


def test_format_groups_suits_and_round_trips() -> None:
    assert format_tiles([27, 0, 2, 1]) == "123m1z"
    assert format_tiles([27, 0], sort=False) == "1z1m"
    assert format_tiles([]) == ""


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 33), max_size=14))
def test_format_then_parse_is_the_sorted_hand(kinds: list[int]) -> None:
    assert parse_tiles(format_tiles(kinds)) == sorted(kinds)
    assert parse_tiles(format_tiles(kinds, sort=False)) == kinds


def test_bilingual_tile_names() -> None:
    assert name_zh(4) == "五万" and name_en(4) == "5 Characters"
    assert name_zh(13) == "五筒" and name_en(13) == "5 Dots"
    assert name_zh(22) == "五条" and name_en(22) == "5 Bamboo"
    assert name_zh(RED) == "红中" and name_en(RED) == "Red Dragon"
    assert tile_name(EAST) == "东风" and tile_name(EAST, "en") == "East Wind"
    # Every Chinese name parses back to its kind.
    assert [parse_tile(name_zh(kind)) for kind in range(34)] == list(range(34))


def test_terminals_and_honors() -> None:
    assert is_terminal(0) and is_terminal(8) and not is_terminal(4) and not is_terminal(EAST)
    assert is_honor(EAST) and not is_honor(26)
    assert is_terminal_or_honor(RED) and is_terminal_or_honor(26) and not is_terminal_or_honor(1)


def test_more_than_four_copies_is_an_error() -> None:
    check_copies(parse_tiles("1111m"))
    with pytest.raises(TileError, match="5 copies of 1m"):
        check_copies(parse_tiles("11111m"))
