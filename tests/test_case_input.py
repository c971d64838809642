"""``engine.scoring.case_input``: the case built from the few fields a player types.

The slash command and ``mahjong-bot score`` must judge a hand the same way, so the typed
fields become an ordinary case that ``parse_case`` validates and ``score_hand`` scores.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.scoring import score_hand
from engine.scoring.case import parse_case
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
