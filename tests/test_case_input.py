"""``engine.scoring.case_input``: the case built from the few fields a player types.

The slash command and ``mahjong-bot score`` must judge a hand the same way, so the typed
fields become an ordinary case that ``parse_case`` validates and ``score_hand`` scores.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.scoring import score_hand
from engine.scoring.case import CaseError, parse_case
from engine.scoring.case_input import CaseInputError, build_case, parse_melds
from engine.tiles import WHITE, parse_tile, parse_tiles


def fields(**overrides: str) -> dict[str, str]:
    base = {
        "variant": "jiaxing",
        "hand": "123m456m789m555m11m",
        "win_tile": "5m",
        "indicator": "9p",
        "melds": "",
        "by": "self_draw",
        "seat_wind": "1z",
        "prevailing_wind": "1z",
    }
    base.update(overrides)
    return base


def test_built_case_parses_and_scores_like_any_case() -> None:
    case: dict[str, Any] = build_case(**fields())
    result = score_hand(parse_case(case))
    # Full Flush 4 + No Wilds 1 = 5 tai, from each of three.
    assert result.valid and result.score == 5 and result.deltas == [15, -5, -5, -5]


def test_melds_and_concealed_kongs_are_read() -> None:
    assert parse_melds("555m 345p, !1111z") == [
        ("pung", parse_tiles("555m"), False),
        ("chow", parse_tiles("345p"), False),
        ("kong", parse_tiles("1111z"), True),
    ]


def test_a_white_standing_in_a_taizhou_chow_may_be_typed_as_white() -> None:
    # Wild 5p: "46p5z" is the chow 456p with a White standing for 5p.
    melds = parse_melds("46p5z", white_as=parse_tile("5p"))
    assert melds == [("chow", sorted(parse_tiles("4p6p5z")), False)]
    case = build_case(
        **fields(
            variant="taizhou",
            hand="123p789p234p55p",
            win_tile="9p",
            indicator="5p",
            melds="46p5z",
            by="discard",
        )
    )
    context = parse_case(case)
    chow = context.players[0].melds[0]
    assert chow.tiles == tuple(parse_tiles("456p")) and chow.white_as == parse_tile("5p")
    assert WHITE not in chow.tiles
    assert score_hand(context).tai == 3  # the chow keeps a Full Flush in dots


def test_a_white_is_no_chow_without_a_suited_wild() -> None:
    with pytest.raises(CaseInputError) as error:
        build_case(**fields(variant="jiaxing", melds="46p5z"))
    assert error.value.zh.startswith("46p5z 不是一副牌") and "not a meld" in error.value.en


@pytest.mark.parametrize(
    ("overrides", "english"),
    [
        ({"variant": "riichi"}, "unknown variant"),
        ({"by": "magic"}, "unknown way to win"),
        ({"seat_wind": "5z"}, "winds must be"),
        ({"hand": "123x"}, "bad tiles"),
        ({"melds": "!555m"}, "only a kong can be concealed"),
    ],
)
def test_bad_fields_say_what_is_wrong_in_both_languages(
    overrides: dict[str, str], english: str
) -> None:
    with pytest.raises(CaseInputError) as error:
        build_case(**fields(**overrides))
    assert english in error.value.en and error.value.zh


@pytest.mark.parametrize(
    ("overrides", "chinese", "english"),
    [
        (
            {"hand": "123m456m789m5555m11m"},
            "手牌 15 张、亮出的牌 0 副，合计 15 张（杠算 3 张）；胡牌是 14 张",
            "15 tiles in hand and 0 melds make 15 (a kong counting 3); a winning hand has 14",
        ),
        (
            {"hand": "123m456m789m11m", "melds": "555p 666p"},
            "手牌 11 张、亮出的牌 2 副，合计 17 张",
            "11 tiles in hand and 2 melds make 17",
        ),
        ({"win_tile": "2z"}, "胡的那张 2z 也要写在手牌里", "the winning tile 2z must be written"),
        (
            {"hand": "123m456m555m11m", "melds": "789p"},
            "亮出的牌 789p 里有 9p：翻出 9p，所以 9p 是百搭（财神），百搭不能吃、碰、杠",
            "the meld 789p holds 9p, the wild kind (9p is flipped); wilds cannot be melded",
        ),
        (
            {"hand": "11m456m789m555m", "win_tile": "1m", "melds": "1111m"},
            "1m 一万 有 6 张；每种牌只有 4 张",
            "6 copies of 1m; there are only 4",
        ),
        (
            {"hand": "123m456m789p999p11m", "win_tile": "9p"},
            "9p 九筒 有 5 张（含翻出的那张）",
            "5 copies of 9p (the flipped indicator included)",
        ),
        (
            {"hand": "123m456m789m555m11m", "win_tile": "1m", "by": "rob_kong"},
            "1m 一万 有 6 张（含被抢杠的三张）",
            "6 copies of 1m (the robbed kong's three included)",
        ),
    ],
)
def test_a_typed_hand_that_cannot_be_is_explained_in_the_players_terms(
    overrides: dict[str, str], chinese: str, english: str
) -> None:
    """Not in the case format's terms ("players[0] holds 15 concealed tiles…"): the
    player typed a hand, a winning tile and melds, and is told which of them is off."""
    with pytest.raises(CaseInputError) as error:
        build_case(**fields(**overrides))
    assert chinese in error.value.zh and english in error.value.en
    assert "players[" not in error.value.en


TILE_NAMES = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)] + [
    f"{rank}z" for rank in range(1, 8)
]
TYPED_MELDS = ("555p", "345s", "!1111z", "2222m", "46p5z", "789m", "111z", "!9999s", "5z5z5z")


@st.composite
def typed_hands(draw: st.DrawFn) -> dict[str, str]:
    """What players type into the calculator: mostly the right number of tiles, any
    tiles, melds that may hold the wild or a fifth copy, any wind and way to win."""
    melds = draw(st.lists(st.sampled_from(TYPED_MELDS), max_size=3))
    tiles = draw(st.lists(st.sampled_from(TILE_NAMES), min_size=14 - 3 * len(melds),
                          max_size=14 - 3 * len(melds)))  # fmt: skip
    return fields(
        variant=draw(st.sampled_from(["jiaxing", "taizhou"])),
        hand=" ".join(tiles),
        win_tile=draw(st.sampled_from(tiles)),
        indicator=draw(st.sampled_from(TILE_NAMES)),
        melds=" ".join(melds),
        by=draw(st.sampled_from(["self_draw", "discard", "rob_kong"])),
        seat_wind=draw(st.sampled_from(["1z", "2z", "3z", "4z"])),
        prevailing_wind=draw(st.sampled_from(["1z", "2z", "3z", "4z"])),
    )


@settings(max_examples=300, deadline=None)
@given(typed=typed_hands())
def test_a_typed_hand_is_scored_or_refused_in_the_players_terms(typed: dict[str, str]) -> None:
    """Whatever is typed, the answer is a score or a ``CaseInputError`` (both languages,
    the player's terms); never the case format's own ``CaseError`` about ``players[0]``."""
    try:
        case = build_case(**typed)
    except CaseInputError as error:
        assert error.zh and error.en and "players[" not in error.en
        return
    try:
        context = parse_case(case)
    except CaseError as error:
        pytest.fail(f"the case format refused a typed hand: {error} ({typed})")
    result = score_hand(context)
    assert sum(result.deltas) == 0


def _taizhou_flush(melds: str, hand: str) -> Any:
    case = build_case(
        **fields(
            variant="taizhou",
            hand=hand,
            win_tile="5m",
            indicator="1p",
            melds=melds,
            by="discard",
            seat_wind="2z",
        )
    )
    return score_hand(parse_case(case))


def test_the_calculator_makes_nobody_liable_by_guessing_whose_pungs_they_were() -> None:
    """全包 (a full flush with three claims from one player): a typed pung does not say
    whose discard it was, so the calculator does not make the left player liable for it
    (every exposed meld was taken from the left: 2 chows and a pung read as 全包)."""
    result = _taizhou_flush("123m 456m 777m", "55m999m")
    assert not any(p.reason == "liability" for p in result.payments)
    # Chows can only come from the left: three of them in a flush are 全包 in play too.
    result = _taizhou_flush("123m 456m 789m", "55m999m")
    assert [p.reason for p in result.payments if p.reason == "liability"]
