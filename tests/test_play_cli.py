"""``mahjong-bot play`` driven through stdin, and the terminal's parser and text rendering."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.commands import play as play_command
from bot.terminal import (
    Command,
    CommandError,
    action_command,
    event_text,
    hand_text,
    legal_text,
    parse_command,
    result_text,
    tile_glyph,
    tile_plain,
    tiles_text,
)
from engine.match import Match
from engine.tiles import parse_tile
from engine.types import CHOW, DISCARD, KONG, PASS, Action, HandResult, Payment, ScoreItem
from engine.views import PlayerView

ROOT = Path(__file__).resolve().parent.parent


def _args(tmp_path: Path, **overrides: object) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play_command.add_arguments(parser)
    args = parser.parse_args(
        ["--seed", "3", "--db", str(tmp_path / "play.db"), "--ai-level", "easy", "--name", "Me"]
    )
    for key, value in overrides.items():
        setattr(args, key, value)
    return args


def _play(args: argparse.Namespace, stdin_text: str) -> tuple[int, str]:
    out = io.StringIO()
    code = asyncio.run(play_command.play(args, io.StringIO(stdin_text), out))
    return code, out.getvalue()


def _db_rows(path: Path, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as connection:
        return connection.execute(query).fetchall()


def test_whole_match_through_stdin_of_the_console_script(tmp_path: Path) -> None:
    """A real process, fed only empty lines (each one the timeout default) and a few
    typed commands, plays a whole match and records it in the SQLite file."""
    db = tmp_path / "play.db"
    lines = ["help", "hand", "nonsense", "d 9z", "pass", *[""] * 3000]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "play",
            "--seed",
            "5",
            "--db",
            str(db),
            "--ai-level",
            "easy",
            "--name",
            "Me",
        ],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    out = completed.stdout
    assert completed.returncode == 0, completed.stderr
    assert "命令 Commands:" in out  # help
    assert "Unknown command 'nonsense'" in out
    assert "牌名无效：'9z' 第 1 个字符的 '9z' 不是牌" in out  # the reason in both languages
    assert "Invalid tile: '9z' at position 1 in '9z'" in out
    assert "终局 / Match over" in out
    assert "🀇" in out or "🀙" in out or "🀐" in out  # Unicode tiles by default
    ((status,),) = _db_rows(db, "SELECT status FROM games")
    assert status == "finished"
    (hands,) = _db_rows(db, "SELECT COUNT(DISTINCT hand_number) FROM ledger WHERE kind = 'hand'")
    assert hands[0] >= 4
    ((balance,),) = _db_rows(db, "SELECT balance FROM balances WHERE user_id = 1")
    ((net,),) = _db_rows(
        db, "SELECT COALESCE(SUM(points), 0) FROM ledger WHERE user_id = 1 AND kind = 'hand'"
    )
    assert balance == 1000 + net
    assert f"Your balance: {balance}" in out
    # Every hand's itemised result was shown.
    assert out.count("输赢 Points:") == hands[0]
    assert out.count("Your balance:") == hands[0] + 1  # after each hand, and at the end


def test_end_of_input_ends_cleanly(tmp_path: Path) -> None:
    args = _args(tmp_path, plain=True)
    code, out = _play(args, "\n\n\n")
    assert code == 0
    assert "End of input" in out
    assert re.search(r"\[Enter = (d \w+|pass|continue)\] > ", out)  # what Enter plays
    assert "Your balance: 1000" in out
    assert "🀇" not in out
    ((status,),) = _db_rows(tmp_path / "play.db", "SELECT status FROM games")
    assert status == "abandoned"


def test_typed_move_then_quit(tmp_path: Path) -> None:
    args = _args(tmp_path, plain=True)
    code, out = _play(args, "d 1m\nquit\n")
    assert code == 0 and "Quit" in out
    # "d 1m" was either played (a line in the log) or refused with the reason.
    assert any(
        line in out
        for line in ("Me 打出 discards 1m", "You do not hold 1 Characters (1m)", "not legal now")
    )
    ((status,),) = _db_rows(tmp_path / "play.db", "SELECT status FROM games")
    assert status == "abandoned"


def test_images_are_written(tmp_path: Path) -> None:
    images = tmp_path / "png"
    args = _args(tmp_path, images=images, plain=True)
    code, _ = _play(args, "\n\n")
    assert code == 0
    written = sorted(images.glob("*.png"))
    assert any(p.name.endswith("-hand.png") for p in written)
    assert any(p.name.endswith("-table.png") for p in written)
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_options_exit_2(tmp_path: Path) -> None:
    args = _args(tmp_path, seats=3)  # Jiaxing is four-handed
    code, _ = _play(args, "")
    assert code == 2


# ---------------------------------------------------------------------------- parser


def _turn_view() -> PlayerView:
    match = Match("jiaxing", None, 3)
    return match.player_view(match.round.current_seat)  # type: ignore[arg-type]


def test_parse_discards_and_specials() -> None:
    view = _turn_view()
    tile = next(a.tile for a in view.legal if a.type == DISCARD)
    assert tile is not None
    for text in (f"d {tile_plain(tile)}", f"discard {tile_plain(tile)}", tile_plain(tile)):
        assert parse_command(text, view) == Action(DISCARD, view.seat, tile=tile)
    assert parse_command("", view) == Command("default")
    assert parse_command("  HELP ", view) == Command("help")
    assert parse_command("quit", view) == Command("quit")
    assert parse_command("pass", view) == Action(PASS, view.seat)
    assert parse_command("d E", view) == Action(DISCARD, view.seat, tile=parse_tile("1z"))
    assert parse_command("chow 543m", view) == Action(
        CHOW, view.seat, tiles=(parse_tile("3m"), parse_tile("4m"), parse_tile("5m"))
    )
    assert parse_command("kong 5m", view) == Action(KONG, view.seat, tile=parse_tile("5m"))
    with pytest.raises(CommandError):
        parse_command("d", view)
    with pytest.raises(CommandError):
        parse_command("d 0m", view)
    with pytest.raises(CommandError):
        parse_command("dance", view)


def test_commands_round_trip_through_the_parser() -> None:
    view = _turn_view()
    for action in view.legal:
        assert parse_command(action_command(action), view) == action


def test_tile_glyphs_and_plain_letters() -> None:
    assert [tile_glyph(parse_tile(t)) for t in ("1m", "9m", "1p", "1s", "E", "P", "F", "C")] == [
        "🀇",
        "🀏",
        "🀙",
        "🀐",
        "🀀",
        "🀆",
        "🀅",
        "🀄",
    ]
    assert tiles_text([0, 27, 33], plain=True) == "1m E C"
    for kind in range(34):
        assert parse_tile(tile_plain(kind)) == kind


def test_wilds_are_marked_in_the_hand() -> None:
    view = _turn_view()
    wild = view.public.wild
    assert wild is not None
    marked = dataclasses.replace(view, concealed=(wild, *view.concealed[1:]))
    text = hand_text(marked, plain=True)
    assert f"{tile_plain(wild)}* " in text and "(* = 百搭 Wild)" in text
    unmarked = dataclasses.replace(
        view, concealed=tuple(k for k in view.concealed if k != wild), drawn=None
    )
    assert "*" not in hand_text(unmarked, plain=True)


def test_result_names_payments_and_units_in_both_languages() -> None:
    result = HandResult(
        variant="jiaxing",
        valid=True,
        winner=0,
        seats=2,
        deltas=[4, -4],
        items=[ScoreItem("half_flush", 2, "tai", "混一色", "Half Flush")],
        payments=[Payment(payer=1, payee=0, amount=4, reason="win")],
        tai=2,
        score=4,
        win_by="self_draw",
    )
    text = result_text(result, ["A", "B"], [4, -4], plain=True, balance=[10, -10])
    assert "(自摸 self-draw)" in text
    assert "混一色 Half Flush: 2 台 tai" in text
    assert "2台 × 1（0番）= 4 / 2 tai × 1 (0 fan) = 4" in text  # the rule set's own formula
    assert "B → A: 4 (胡牌 win)" in text
    assert "本场累计 Match so far: A +10, B -10" in text
    pooled = dataclasses.replace(result, carried_fan_used=1)
    assert "用番池 carried fan used 1" in result_text(pooled, ["A", "B"], [4, -4], plain=True)
    on_discard = dataclasses.replace(result, win_by="discard", from_seat=1)
    assert "(捉冲 on a discard ← B)" in result_text(on_discard, ["A", "B"], [4, -4], plain=True)


def test_a_discarded_wild_is_marked_in_the_move_log() -> None:
    line = event_text({"type": "discard", "seat": 1, "tile": "3s"}, ["A", "B"], True, wild=20)
    assert line == "B 打出 discards 3s*"
    assert event_text({"type": "discard", "seat": 1, "tile": "4s"}, ["A", "B"], True, wild=20) == (
        "B 打出 discards 4s"
    )


def test_ctrl_c_at_the_prompt_ends_the_match_cleanly(tmp_path: Path) -> None:
    """Ctrl-C while waiting for input stops at once (not after the next Enter), abandons
    the game and prints the balance, without a traceback."""
    db = tmp_path / "play.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    command = [sys.executable, "-m", "bot.cli", "play", "--seed", "5", "--plain"]
    process = subprocess.Popen(
        [*command, "--db", str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    assert process.stdout is not None
    seen = b""
    while b"] > " not in seen:  # the input prompt: the game now blocks in readline
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, seen.decode(errors="replace")
        seen += chunk
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=30)  # stdin stays open: only SIGINT ends it
    finally:
        process.kill()  # a no-op once it has exited
    text = (seen + out).decode()
    assert process.returncode == 0, err.decode()
    assert "Interrupted" in text and "Your balance: 1000" in text
    assert b"Traceback" not in err
    ((status,),) = _db_rows(db, "SELECT status FROM games")
    assert status == "abandoned"


def test_a_claim_names_whose_discard_it_took() -> None:
    pung = {"type": "pung", "tiles": "333p"}
    event = {"type": "claim", "seat": 0, "meld": pung, "from": 1}
    assert event_text(event, ["A", "B"], True) == "A 碰 pungs 3p 3p 3p ← B"


def test_the_three_claims_choice_explains_itself() -> None:
    view = _turn_view()
    assert "不跟" not in legal_text(view)
    santan = dataclasses.replace(
        view,
        public=dataclasses.replace(view.public, phase="santan"),
        legal=(Action("continue", view.seat), Action("fold", view.seat)),
    )
    text = legal_text(santan)
    assert text.startswith("可选 Options: continue | fold")
    assert "不跟 = 自动摸打" in text and "fold = auto-play" in text


def test_a_jiaxing_draw_says_it_feeds_the_carried_pool() -> None:
    names, points = ["A", "B", "C", "D"], [0, 0, 0, 0]
    assert "番池 +1" in result_text(HandResult.draw("jiaxing", 4), names, points, plain=True)
    assert "番池" not in result_text(HandResult.draw("taizhou", 4), names, points, plain=True)


def test_the_terminal_shows_what_the_table_adds_to_a_prompt() -> None:
    """The prompt's note (the liable pair and what Continue costs under 三摊, a drawn wild
    auto-discard keeps for the player) reached the Discord hand and DM alert only; a
    terminal player was not told."""
    from bot.presenter import PrivatePrompt, Text
    from bot.terminal import TerminalPresenter

    out = io.StringIO()
    presenter = TerminalPresenter(out, user_id=7, plain=True)
    view = _turn_view()
    note = Text("南家 甲 ↔ 西家 乙：跟就五倍", "South A ↔ West B: continuing pays 5×")
    prompt = PrivatePrompt("t", 7, view.seat, view, "turn", None, 1, "jiaxing", note=note)
    presenter.show_prompt(prompt)
    shown = out.getvalue().splitlines()
    assert shown[-2:] == [
        "    南家 甲 ↔ 西家 乙：跟就五倍",
        "    South A ↔ West B: continuing pays 5×",
    ]
    out.seek(0)
    out.truncate()
    presenter.show_prompt(dataclasses.replace(prompt, note=None))
    assert "跟就五倍" not in out.getvalue()


def test_the_terminal_lists_the_match_end_best_first() -> None:
    """As the Discord table's standings (22addb4): by rank, ties sharing one; the terminal
    listed the seats in seat order."""
    from types import SimpleNamespace

    from bot.terminal import TerminalPresenter

    out = io.StringIO()
    presenter = TerminalPresenter(out, user_id=7, plain=True)
    presenter.names = ["A", "B", "C", "D"]
    presenter._remember = lambda seats: None  # type: ignore[method-assign]  # names as set
    status = SimpleNamespace(seats=())  # only its seats' names are read: set above
    asyncio.run(
        presenter.match_result(status, [-40, 0, 40, 0], [-80, 0, 80, 0])  # type: ignore[arg-type]
    )
    assert out.getvalue().splitlines()[-4:] == [
        "    1. C: +40 分 units, +80 点 points",
        "    2. B: +0 分 units, +0 点 points",
        "    2. D: +0 分 units, +0 点 points",
        "    4. A: -40 分 units, -80 点 points",
    ]
