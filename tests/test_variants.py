"""The rule-set registry (issue 12 contract): names, the total formula, options, one table check."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import ClassVar

import pytest

from bot.i18n import Text
from bot.table_options import TableOptions, TableOptionsError
from data.models import GuildSettings, validate_setting
from engine.match import Match
from engine.scoring import score_hand
from engine.scoring.case import CaseError, parse_case, result_to_case_json
from engine.types import HandResult
from engine.variants import (
    RULE_SETS,
    Jiaxing,
    JiaxingOptions,
    Taizhou,
    TaizhouOptions,
    default_rule_set,
    get_rules,
    make_options,
    register,
    unregister,
    variant_for,
)

GOLDEN = Path(__file__).parent / "golden"


def test_registry_lists_the_built_in_rule_sets_in_display_order() -> None:
    assert list(RULE_SETS) == ["jiaxing", "taizhou"]
    assert default_rule_set() == "jiaxing"
    assert get_rules("jiaxing") is Jiaxing and get_rules("taizhou") is Taizhou
    assert Jiaxing.options_class is JiaxingOptions
    assert Taizhou.options_class is TaizhouOptions


def test_unknown_rule_set_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"^unknown rule set 'x' \(jiaxing, taizhou\)$"):
        get_rules("x")
    with pytest.raises(ValueError, match="unknown rule set"):
        variant_for("riichi")
    with pytest.raises(ValueError, match="built in"):
        unregister("jiaxing")


def test_display_names() -> None:
    assert (Jiaxing.name_zh, Jiaxing.name_zh_tw) == ("嘉兴台头胡", "嘉興台頭胡")
    assert (Taizhou.name_zh, Taizhou.name_zh_tw) == ("台州麻将", "台州麻將")
    assert Jiaxing.display_name("zh-TW") == "嘉興台頭胡"
    assert Jiaxing.display_name("zh-CN") == "嘉兴台头胡"
    assert Taizhou.display_name("en-US") == "Taizhou Mahjong"
    assert (Jiaxing.wild_name("zh"), Taizhou.wild_name("zh")) == ("百搭", "财神")


def test_jiaxing_total_formula() -> None:
    result = HandResult("jiaxing", True, 0, 4, [36, -12, -12, -12], tai=3, fan=2, score=12)
    assert Jiaxing.format_total(result, "zh-CN") == "3台 × 4（2番）= 12"
    assert Jiaxing.format_total(result, "zh") == "3台 × 4（2番）= 12"
    assert Jiaxing.format_total(result, "en-US") == "3 tai × 4 (2 fan) = 12"


def test_taizhou_total_formula_below_and_at_the_limit() -> None:
    plain = HandResult("taizhou", True, 0, 4, [0] * 4, points=20, tai=1, total=40)
    assert Taizhou.format_total(plain, "zh-CN") == "20胡 × 2（1台）= 40"
    assert Taizhou.format_total(plain, "en") == "20 pts × 2 (1 tai) = 40"
    capped = HandResult("taizhou", True, 0, 4, [0] * 4, points=52, tai=1, total=100)
    assert Taizhou.format_total(capped, "zh-TW") == "52胡 × 2（1台）= 104 → 100（腊子）"
    assert Taizhou.format_total(capped, "en-GB") == "52 pts × 2 (1 tai) = 104 → 100 (limit)"


def test_result_json_fields_are_the_rule_sets() -> None:
    jiaxing = HandResult("jiaxing", True, 0, 4, [0] * 4, tai=2, fan=1, score=4).to_json()
    assert {"tai", "fan", "score", "carried_fan_used"} <= set(jiaxing)
    assert "points" not in jiaxing
    taizhou = HandResult("taizhou", True, 0, 2, [0, 0], points=20, tai=1, total=40).to_json()
    assert taizhou["totals"] == [0, 0] and "fan" not in taizhou


def test_options_are_parsed_by_the_rule_sets_class() -> None:
    assert make_options("taizhou", {"cap": 200}) == TaizhouOptions(cap=200)
    assert isinstance(variant_for("jiaxing").options, JiaxingOptions)
    from engine.variants.options import VARIANTS

    assert VARIANTS == ("jiaxing", "taizhou")


def test_guild_default_variant_comes_from_the_registry() -> None:
    assert GuildSettings(guild_id=1).default_variant == default_rule_set()
    assert validate_setting("default_variant", "taizhou") == "taizhou"


@pytest.mark.parametrize(
    ("request_", "zh_part"),
    [
        (TableOptions("riichi"), "未知玩法"),
        (TableOptions("jiaxing", num_seats=3), "只能 4 人"),
        (TableOptions("jiaxing", rounds=5), "圈数必须在 1 到 4 之间"),
        (TableOptions("taizhou", rounds=9), "圈数必须在 1 到 8 之间"),
        (TableOptions("taizhou", stake=0), "底注"),
        (TableOptions("taizhou", discard_timeout=1), "出牌限时"),
        (TableOptions("taizhou", claim_timeout=1000), "吃碰限时"),
        (
            TableOptions("taizhou", options={"cap": 75, "half_rounding": "exact"}),
            "封顶 cap 必须是偶数",
        ),
        (TableOptions("jiaxing", options={"cap": 100}), "选项无效：没有选项 'cap'"),
        (TableOptions("taizhou", options={"cap": 0}), "选项 'cap' 必须在 1 到 100000 之间"),
        # 64 tiles with both suits removed: four hands and the indicator would eat into
        # the 16 kept back. Refused when the table is set up, not when it starts.
        (TableOptions("taizhou", options={"remove_suits": 2}), "牌不够"),
    ],
)
def test_table_options_validate_refuses_with_a_bilingual_reason(
    request_: TableOptions, zh_part: str
) -> None:
    with pytest.raises(TableOptionsError) as caught:
        request_.validate()
    assert isinstance(caught.value.text, Text)
    assert zh_part in caught.value.text.zh
    # The Chinese line is Chinese through: no English sentence of the engine's inside it.
    assert not re.search(r"\b(must|unknown|got|not enough)\b", caught.value.text.zh)


def test_the_smallest_tables_that_still_deal() -> None:
    assert TableOptions("taizhou", num_seats=3, options={"remove_suits": 2}).validate()
    assert TableOptions("taizhou", options={"remove_suits": 1}).validate()


def test_table_options_validate_returns_the_tables_mechanics() -> None:
    mechanics = TableOptions("taizhou", num_seats=3, rounds=2, options={"cap": 200}).validate()
    assert isinstance(mechanics, Taizhou)
    assert (mechanics.options.rounds, mechanics.options.cap) == (2, 200)


def test_flee_penalty_is_the_rule_sets() -> None:
    """RULES.md §1 Leaving: Jiaxing charges ``flee_penalty``, 72/108 under liability;
    Taizhou names no penalty, so it keeps the bot's base of 32 whatever happens."""
    jiaxing = Jiaxing.make({"flee_penalty": 40})
    assert jiaxing.flee_penalty(0, liability_active=False, folded=False) == 40
    assert jiaxing.flee_penalty(0, liability_active=True, folded=True) == 72
    assert jiaxing.flee_penalty(0, liability_active=True, folded=False) == 108
    taizhou = Taizhou.make()
    assert {
        taizhou.flee_penalty(0, liability_active=active, folded=folded)
        for active in (False, True)
        for folded in (False, True)
    } == {32}
    match = Match("taizhou", seed=3, seats=3)
    assert [match.round.flee_penalty(seat) for seat in range(3)] == [32] * 3


def test_case_parsing_reads_capabilities_not_names() -> None:
    """A rule set registered under a new name with Taizhou's flags parses and scores a
    case holding a White chow (``white_substitutes_wild``) exactly as Taizhou does, and
    refuses what Taizhou refuses (three-claim liability, a seat count it does not allow)."""
    cases = json.loads((GOLDEN / "audit_taizhou.json").read_text(encoding="utf-8"))
    case = next(c for c in cases if c["name"] == "tz-a-white-chow-written-without-white-as")

    @register
    class Coastal(Taizhou):
        name: ClassVar[str] = "coastal"

    try:
        expected = result_to_case_json(score_hand(parse_case(case)))
        renamed = result_to_case_json(score_hand(parse_case({**case, "variant": "coastal"})))
        assert renamed == expected
        with pytest.raises(
            CaseError,
            match=r"santan \(three-claim liability\) is a Jiaxing rule, not a coastal one",
        ):
            parse_case({**case, "variant": "coastal", "santan": {"pairs": [[0, 1]]}})
        jiaxing_case = {**case, "variant": "jiaxing", "options": {}}
        with pytest.raises(CaseError, match="white_as"):
            parse_case(
                {
                    **jiaxing_case,
                    "players": [
                        {
                            **player,
                            "melds": [{**meld, "white_as": "5p"} for meld in player["melds"]],
                        }
                        for player in case["players"]
                    ],
                }
            )
    finally:
        unregister("coastal")


def test_engine_scoring_never_names_a_rule_set() -> None:
    """Shared scoring code reads flags and hooks; names live only in the rule sets."""
    root = Path(__file__).resolve().parent.parent / "engine" / "scoring"
    for module in sorted(root.glob("*.py")):
        source = module.read_text(encoding="utf-8")
        for name in RULE_SETS:
            assert f'"{name}"' not in source, f"{module.name} names {name!r}"
