"""``mahjong-bot replay GAME HAND --out FILE``: the hand's animation from the stored log,
found by a prefix of the game id; unknown games and hands are refused in one line."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from pg_databases import fresh_database
from PIL import Image
from test_hand_replay import played_match

from bot.cli import main
from data import open_store


def make_db(path: Path | str) -> int:
    """A database (a SQLite file or a PostgreSQL URL) holding one finished Taizhou game
    ``feedc0de1234`` with two hands; returns the number of actions in its first hand."""
    _match, log = played_match("taizhou", seed=21, hands=2)

    async def fill() -> None:
        async with await open_store(path) as store:
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


def test_replay_reads_a_postgresql_database(
    tmp_path: Path, pg_server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """README's Scaling section moves the bot to PostgreSQL (MAHJONG_DB=postgresql://…):
    replay refused it as "no database at postgresql://…" (a missing file)."""

    async def with_database() -> str:
        async with fresh_database(pg_server) as url:
            actions = await asyncio.to_thread(make_db, url)
            out = tmp_path / "hand1.gif"
            code = await asyncio.to_thread(
                main, ["replay", "feedc0", "1", "--out", str(out), "--db", url]
            )
            assert code == 0, capsys.readouterr().err
            assert Image.open(out).n_frames == actions + 1
            return url

    asyncio.run(with_database())
