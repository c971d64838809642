"""``mahjong-bot replay GAME HAND --out FILE``: the hand's animation from the stored log,
found by a prefix of the game id; unknown games and hands are refused in one line."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from PIL import Image
from test_hand_replay import played_match

from bot.cli import main
from data import Store


def make_db(path: Path) -> int:
    """A database holding one finished Taizhou game ``feedc0de1234`` with two hands;
    returns the number of actions in its first hand."""
    _match, log = played_match("taizhou", seed=21, hands=2)

    async def fill() -> None:
        async with await Store.open(path) as store:
            await store.create_game("feedc0de1234", 1, None, "taizhou", {}, [], 21,
                                    settings={"num_seats": 4, "stake": 1}, status="running")  # fmt: skip
            seats = [{"seat": s, "name": f"P{s}", "user_id": None, "is_ai": True} for s in range(4)]
            await store.update_game_meta("feedc0de1234", seats=seats)
            for seq, (hand, action) in enumerate(log):
                await store.append_action("feedc0de1234", seq, action, hand)
            await store.set_game_status("feedc0de1234", "finished")

    asyncio.run(fill())
    return sum(1 for hand, _ in log if hand == 0)


def test_replay_writes_an_animation_with_one_frame_per_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bot.db"
    actions = make_db(db)
    out = tmp_path / "hand1.gif"
    assert main(["replay", "feedc0", "1", "--out", str(out), "--db", str(db)]) == 0
    image = Image.open(io.BytesIO(out.read_bytes()))
    assert image.format == "GIF" and image.n_frames == actions + 1
    assert "feedc0de1234" in capsys.readouterr().out
    apng = tmp_path / "hand1.png"
    assert main(["replay", "feedc0de1234", "1", "--out", str(apng), "--db", str(db)]) == 0
    assert Image.open(apng).n_frames == actions + 1


@pytest.mark.parametrize(
    ("game", "hand", "expected"),
    [("nope", "1", "No game nope"), ("feedc0", "9", "no hand 9"), ("feedc0", "0", "no hand 0")],
)
def test_unknown_games_and_hands_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, hand: str, expected: str
) -> None:
    db = tmp_path / "bot.db"
    make_db(db)
    out = tmp_path / "x.gif"
    assert main(["replay", game, hand, "--out", str(out), "--db", str(db)]) == 2
    assert expected in capsys.readouterr().err
    assert not out.exists()


def test_a_missing_database_is_refused_and_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "missing.db"
    assert main(["replay", "abc", "1", "--out", str(tmp_path / "x.gif"), "--db", str(db)]) == 2
    assert "no database" in capsys.readouterr().err
    assert not db.exists()
