"""``mahjong-bot score`` on bad input: one line naming the problem, exit code 2, no traceback."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main

GOLDEN = Path(__file__).parent / "golden"
BASE: dict[str, Any] = json.loads((GOLDEN / "jiaxing.json").read_text(encoding="utf-8"))[0]
TZ_BASE: dict[str, Any] = json.loads((GOLDEN / "taizhou.json").read_text(encoding="utf-8"))[0]


def _set(path: list[Any], value: Any, base: dict[str, Any] | None = None) -> dict[str, Any]:
    case = copy.deepcopy(base or BASE)
    target: Any = case
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return case


def _del(key: str) -> dict[str, Any]:
    case = copy.deepcopy(BASE)
    del case[key]
    return case


BAD_CASES: dict[str, tuple[Callable[[], dict[str, Any]], str]] = {
    "unknown_tile": (lambda: _set(["players", 0, "concealed"], "123456789m123pX"), "unknown tile"),
    "digits_without_suit": (
        lambda: _set(["players", 0, "concealed"], "123456789m1234"),
        "suit letter",
    ),
    "bad_honor_number": (lambda: _set(["players", 0, "concealed"], "123456789m1238z"), "8z"),
    "fifth_copy": (
        lambda: _set(["players", 0, "concealed"], "123456789m7777z"),
        "copies of 7z",
    ),
    "fifth_copy_with_indicator": (
        lambda: _set(["players", 3, "concealed"], "9999s123456789p"),
        "indicator",
    ),
    "winner_wrong_size": (
        lambda: _set(["players", 1, "concealed"], "123456789m22m77z"),
        "needs 14",
    ),
    "non_winner_wrong_size": (
        lambda: _set(["players", 0, "concealed"], "123456789m123p"),
        "needs 13",
    ),
    "pung_not_a_pung": (
        lambda: _set(["players", 0, "melds"], [{"type": "pung", "tiles": "123m", "from": 1}]),
        "not a pung",
    ),
    "chow_not_a_chow": (
        lambda: _set(["players", 0, "melds"], [{"type": "chow", "tiles": "135m", "from": 3}]),
        "not a chow",
    ),
    "honor_chow": (
        lambda: _set(["players", 0, "melds"], [{"type": "chow", "tiles": "123z", "from": 3}]),
        "not a chow",
    ),
    "unknown_meld_type": (
        lambda: _set(["players", 0, "melds"], [{"type": "pong", "tiles": "111m", "from": 1}]),
        "chow, pung or kong",
    ),
    "meld_from_self": (
        lambda: _set(
            ["players", 0],
            {"concealed": "456789m1234p", "melds": [{"type": "pung", "tiles": "111m", "from": 0}]},
        ),
        "itself",
    ),
    "meld_from_out_of_range": (
        lambda: _set(
            ["players", 0],
            {"concealed": "456789m1234p", "melds": [{"type": "pung", "tiles": "111m", "from": 7}]},
        ),
        "from",
    ),
    "chow_not_from_left": (
        lambda: _set(
            ["players", 0],
            {"concealed": "456789m1234p", "melds": [{"type": "chow", "tiles": "123m", "from": 1}]},
        ),
        "left player",
    ),
    "meld_with_a_wild": (
        lambda: _set(
            ["players", 0],
            {"concealed": "456789m1234p", "melds": [{"type": "pung", "tiles": "999s", "from": 1}]},
        ),
        "wild",
    ),
    "unknown_option": (lambda: _set(["options"], {"no_such_rule": True}), "no_such_rule"),
    "bad_option_value": (lambda: _set(["options"], {"santan_profile": "ten_x"}), "santan_profile"),
    "unknown_key": (lambda: _set(["colour"], "red"), "colour"),
    "unknown_win_key": (lambda: _set(["win", "tsumo"], True), "tsumo"),
    "winner_out_of_range": (lambda: _set(["winner"], 4), "winner"),
    "dealer_out_of_range": (lambda: _set(["dealer"], -1), "dealer"),
    "win_tile_not_in_hand": (lambda: _set(["win", "tile"], "5p"), "not among the winner"),
    "win_by_unknown": (lambda: _set(["win", "by"], "magic"), "win.by"),
    "discard_without_from": (lambda: _set(["win", "by"], "discard"), "win.from"),
    "win_from_self": (
        lambda: _set(["win"], {"tile": "2m", "by": "discard", "from": 1}),
        "winner",
    ),
    "rob_without_pung": (
        lambda: _set(["win"], {"tile": "2m", "by": "rob_kong", "from": 0}),
        "no exposed pung",
    ),
    "unknown_variant": (lambda: _set(["variant"], "riichi"), "variant"),
    "missing_players": (lambda: _del("players"), "players"),
    "wrong_player_count": (
        lambda: _set(["win", "from"], 1, _set(["seats"], 3, TZ_BASE)),
        "players lists 4 seats",
    ),
    "jiaxing_three_seats": (lambda: _set(["seats"], 3), "4 seats"),
    "santan_in_taizhou": (lambda: _set(["santan"], {"pairs": [[1, 2]]}, TZ_BASE), "Jiaxing"),
    "folded_liable_seat": (lambda: _set(["santan"], {"pairs": [[0, 2]], "folded": [2]}), "liable"),
    "seats_not_a_number": (lambda: _set(["seats"], "four"), "seats"),
    "removed_suit_on_the_table": (
        lambda: _set(["options"], {"remove_suits": 1}, TZ_BASE),
        "remove_suits",
    ),
    "not_an_object": (lambda: 7, "object"),  # type: ignore[return-value, arg-type]
    # Flags that contradict the table would add fan to a hand that cannot happen.
    "kong_replacement_without_a_kong": (
        lambda: _set(["win", "kong_replacement"], True),
        "the winner has no kong",
    ),
    "first_draw_after_a_claim": (
        lambda: _set(
            ["players", 0],
            {"concealed": "456789m1234p", "melds": [{"type": "pung", "tiles": "555p", "from": 3}]},
            _set(["win", "first_draw"], True),
        ),
        "seat 0 claimed 555p",
    ),
}


def _run(case: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), encoding="utf-8")
    code = main(["score", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("name", list(BAD_CASES))
def test_bad_case_is_one_line_and_exit_code_2(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build, expected = BAD_CASES[name]
    case = build()
    code, out, err = _run(case, tmp_path, capsys)
    assert code == 2
    assert out == ""
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert lines[0].startswith("mahjong-bot score: ")
    assert expected.lower() in lines[0].lower(), lines[0]
    assert "Traceback" not in err


def test_error_names_the_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = _set(["players", 0, "concealed"], "123456789m123pX")
    code, _, err = _run(case, tmp_path, capsys)
    assert code == 2
    assert err.startswith(f"mahjong-bot score: {BASE['name']}: ")


def test_error_in_the_second_case_of_a_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _set(["name"], "second")
    bad["indicator"] = "0m"
    code, out, err = _run([BASE, bad, [1, 2]], tmp_path, capsys)
    assert code == 2
    # The good case is still scored (one bad case in a batch costs only itself); each bad
    # one is an error in its place and one line on stderr.
    first, second, third = json.loads(out)
    assert first["name"] == BASE["name"] and first["valid"] is True
    assert set(second) == {"name", "error"} and second["name"] == "second"
    assert third == {"name": "case 3", "error": "a case must be a JSON object"}
    lines = err.strip("\n").split("\n")
    assert len(lines) == 2 and lines[0].startswith("mahjong-bot score: second: ")
    assert lines[0].endswith(second["error"])


def test_invalid_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "invalid JSON" in err and err.count("\n") == 1


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "/nonexistent/case.json"]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and err.count("\n") == 1


def test_bad_input_through_the_console_script_has_no_traceback() -> None:
    case = _set(["players", 0, "concealed"], "123456789m7777z")
    completed = subprocess.run(
        [sys.executable, "-m", "bot.cli", "score", "-"],
        input=json.dumps(case),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert completed.stderr.count("\n") == 1
    assert "copies of 7z" in completed.stderr


def test_invalid_win_is_not_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = _set(["win"], {"tile": "2m", "by": "discard", "from": 0})
    code, out, _ = _run(case, tmp_path, capsys)
    assert code == 0
    result = json.loads(out)
    assert result["valid"] is False
    assert result["reason"] == "discard_win"


@pytest.mark.parametrize(
    ("base", "winner_hand"),
    [
        (BASE, {"concealed": "123456789m22m", "melds": [{"type": "pung", "tiles": "999s",
                                                           "from": 0}]}),
        (TZ_BASE, {"concealed": "12355m456p234s", "melds": [{"type": "pung", "tiles": "999p",
                                                              "from": 2}]}),
    ],
)  # fmt: skip
def test_a_wild_in_the_winners_meld_is_an_illegal_win(
    base: dict[str, Any],
    winner_hand: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """RULES.md §0: wilds are never used in a claimed meld. Asked whether a hand holding
    a pung of the wild's kind wins, the answer is no (``valid`` false), in both rule sets."""
    case = _set(["players", base["winner"]], winner_hand, base)
    code, out, _ = _run(case, tmp_path, capsys)
    assert code == 0
    result = json.loads(out)
    assert (result["valid"], result["reason"]) == (False, "wild_in_meld")
    assert result["deltas"] == [0, 0, 0, 0]
    # The reason in the rule set's own word for its wilds: 百搭 in Jiaxing, 财神 in Taizhou.
    assert main(["score", "--explain", str(tmp_path / "case.json")]) == 0
    wild = {"jiaxing": "百搭", "taizhou": "财神"}[base["variant"]]
    assert f"{wild}不能吃、碰、杠 — a wild cannot be used" in capsys.readouterr().out


def test_a_reader_that_goes_away_gets_no_traceback() -> None:
    """``mahjong-bot score --explain cases.json | head``: when the pipe closes before the
    output is written the command stops quietly (exit 1), as command-line tools do."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "score", "--explain", str(GOLDEN / "jiaxing.json")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    errors = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=60) == 1
    assert errors == ""
