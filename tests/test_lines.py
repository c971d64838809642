"""The shared text layer: domain words (engine.words) and the lines every text surface
builds from them (bot.lines), so a move, a hand label or a total reads the same in the
terminal, on Discord, in ``score --explain`` and in the calculator."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

import pytest

from bot.lines import (
    carried_fan_text,
    changes_text,
    event_line,
    hand_label,
    move_line,
    payment_line,
    rule_set_name,
    timed_out_text,
    total_line,
    win_by_text,
)
from engine import variants
from engine.tiles import kind_str, parse_tile
from engine.types import HandResult, Payment
from engine.variants import Variant
from engine.words import ACTIONS, DRAGONS, PREVAILING_WINDS, SEAT_WINDS, UNITS, WIN_TYPES, WINDS
from render.samples import sample_public_view

ROOT = Path(__file__).resolve().parent.parent


def _plain(kind: int) -> str:
    return kind_str(kind)


def _plain_row(kinds: Sequence[int]) -> str:
    return " ".join(kind_str(kind) for kind in kinds)


def test_words_have_simplified_english_and_traditional_forms() -> None:
    east = WINDS[27]
    assert (east.pick("zh-CN"), east.pick("en"), east.pick("en", short=True)) == ("东", "East", "E")
    assert east.text("zh-TW") == "東" and east.pick("zh-TW") == "东"  # images stay Simplified
    assert PREVAILING_WINDS[28].text("zh") == "南风圈" and PREVAILING_WINDS[28].en == "South round"
    assert SEAT_WINDS[29].text("zh_TW") == "西家" and DRAGONS[32].text("zh-Hant") == "發財"
    assert UNITS["points"].pick("en", short=True) == "pts" and UNITS["points"].en == "points"
    assert WIN_TYPES["rob_kong"].text("zh-TW") == "搶槓胡"
    assert ACTIONS["pung"].both() == "碰 pungs"
    for table in (WINDS, SEAT_WINDS, PREVAILING_WINDS, DRAGONS, UNITS, WIN_TYPES, ACTIONS):
        assert all(word.zh and word.en and word.zh_tw for word in table.values())


def test_hand_label_shows_the_prevailing_wind_only_where_the_rule_set_has_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = sample_public_view()
    with_wind = type("WithWind", (Variant,), {"has_prevailing_wind": True})
    without = type("Without", (Variant,), {"has_prevailing_wind": False})
    monkeypatch.setitem(variants.RULE_SETS, "with_wind", with_wind)
    monkeypatch.setitem(variants.RULE_SETS, "without", without)
    label = hand_label(replace(view, variant="with_wind", prevailing_wind=28, hand_number=1))
    assert (label.zh, label.en) == ("南风圈 第2局", "South round, hand 2")
    label = hand_label(replace(view, variant="without", hand_number=1))
    assert (label.zh, label.en) == ("第2局", "Hand 2")


def test_names_and_totals_come_from_the_rule_set(monkeypatch: pytest.MonkeyPatch) -> None:
    class Flat(Variant):
        name_zh: ClassVar[str] = "平胡"
        name_en: ClassVar[str] = "Flat"

        @classmethod
        def format_total(cls, result: HandResult, locale: str) -> str:
            return f"{result.score}分" if locale.startswith("zh") else f"{result.score} flat"

    monkeypatch.setitem(variants.RULE_SETS, "flat", Flat)
    assert rule_set_name("flat").en == "Flat"
    result = HandResult("flat", True, 0, 4, [0] * 4, score=7)
    assert (total_line(result).zh, total_line(result).en) == ("7分", "7 flat")


def test_a_capped_total_shows_the_product_and_the_limit() -> None:
    result = HandResult("taizhou", True, 0, 4, [0] * 4, points=52, tai=1, total=100)
    total = total_line(result)
    assert total.zh == "52胡 × 2（1台）= 104 → 100（腊子）"
    assert total.en == "52 pts × 2 (1 tai) = 104 → 100 (limit)"


def test_move_and_event_lines() -> None:
    names = ["A", "B"]
    assert move_line("A", "pung", "3s", "B") == "A 碰 pungs 3s ← B"
    claim = {"type": "claim", "seat": 0, "meld": {"type": "pung", "tiles": "333p"}, "from": 1}
    assert event_line(claim, names, _plain, _plain_row) == "A 碰 pungs 3p 3p 3p ← B"
    discard = {"type": "discard", "seat": 1, "tile": "5m"}
    assert event_line(discard, names, _plain, _plain_row) == "B 打出 discards 5m"
    hidden = {"type": "concealed_kong", "seat": 1}
    assert event_line(hidden, names, _plain, _plain_row) == "B 暗杠 concealed kong"
    folds = {"type": "santan_choice", "seat": 0, "choice": "fold"}
    assert event_line(folds, names, _plain, _plain_row) == "A 不跟 folds"
    assert event_line({"type": "respond"}, names, _plain, _plain_row) is None


def test_result_pieces() -> None:
    names = ["A", "B", "C"]
    won = HandResult("taizhou", True, 0, 3, [8, -4, -4], win_by="discard", from_seat=2)
    assert win_by_text(won, names) == "捉冲 on a discard ← C"
    assert win_by_text(replace(won, win_by="self_draw"), names) == "自摸 self-draw"
    assert payment_line(Payment(1, 0, 4, "win"), names) == "B → A: 4 (胡牌 win)"
    assert changes_text(names, [8, -4, -4]) == "A +8, B -4, C -4"


def test_the_text_layer_imports_neither_discord_nor_pil() -> None:
    code = (
        "import sys, bot.lines, engine.words; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'PIL')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_the_table_says_what_added_to_the_carried_pool_as_a_hand_starts() -> None:
    """RULES.md §1, carried bonus fan: Honor-Wild 老头黄 and Dice Doubles 包子 each add 1
    at the start of the hand (seed 28: the wild is North, the dice 6 6); the pool counts
    both, and the line names them as players do."""
    from engine.match import Match
    from render.alt_text import describe_table

    public = Match("jiaxing", seed=28).public_view()
    assert public.carried_fan_bonuses == ("honor_wild", "dice_doubles")
    assert public.carried_fan == 2
    text = carried_fan_text(public)
    assert text is not None
    assert text.zh == "本局番池加番：老头黄 +1、包子 +1（番池 2）"
    assert text.en == "Added to the fan pool this hand: Honor Wild +1, Dice Doubles +1 (pool 2)"
    assert "番池 2（老头黄 +1、包子 +1）" in describe_table(public, None, "zh")
    assert "Fan pool 2 (Honor Wild +1, Dice Doubles +1)" in describe_table(public, None, "en")
    assert "老頭黃 +1" in describe_table(public, None, "zh-TW")
    # Nothing to say in a hand that added nothing, nor in Taizhou (no pool).
    assert carried_fan_text(Match("jiaxing", seed=0).public_view()) is None
    assert carried_fan_text(Match("taizhou", seed=28).public_view()) is None


def test_a_timeout_says_what_was_played_for_the_player() -> None:
    from engine.types import Action

    white = timed_out_text(Action("discard", 0, tile=parse_tile("5z")), 2)
    assert white.zh == "超时，已替你打出 5z 白板（再超时 2 次将转为电脑托管）"
    assert white.en.startswith("Time ran out, so the bot discarded 5z (White Dragon) for you (2 ")
    passed = timed_out_text(Action("pass", 0), 1)
    assert passed.zh.startswith("超时，已替你选择「过」") and "the bot passed for you" in passed.en
