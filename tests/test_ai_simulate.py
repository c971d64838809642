"""``mahjong-bot simulate --players normal,easy,...``: AI levels and per-seat statistics."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.commands.simulate import PLAYERS, parse_players, simulate


def test_ai_levels_are_selectable_players() -> None:
    assert {"easy", "normal"} <= set(PLAYERS)
    players = parse_players("normal,easy,easy,easy", 4)
    assert players[0] is PLAYERS["normal"] and players[1:] == [PLAYERS["easy"]] * 3


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_per_seat_statistics_add_up(variant: str) -> None:
    stats = simulate(
        variant, hands=8, seed="ai-stats", players=parse_players("normal,easy,easy,easy", 4)
    )
    assert stats.errors == 0, stats.error_samples
    data = stats.to_json()
    seats = data["seats"]
    assert [seat["player"] for seat in seats] == ["normal", "easy", "easy", "easy"]
    assert sum(seat["wins"] for seat in seats) == data["wins"]
    # The share of won hands (draws excluded) is what issue 16's 30 % bar reads.
    for seat in seats:
        assert seat["win_share"] == pytest.approx(seat["wins"] / data["wins"], abs=1e-4)
    assert sum(seat["win_share"] for seat in seats) == pytest.approx(1, abs=1e-3)
    assert data["draw_rate"] == pytest.approx(data["draws"] / data["hands"], abs=1e-4)
    # Payments are zero-sum, so the seats' mean scores cancel out.
    assert sum(seat["mean_score"] for seat in seats) == pytest.approx(0, abs=0.01)
    for seat in seats:
        low, high = seat["ci95"]
        assert low <= seat["mean_score"] <= high
        assert set(seat) >= {"player", "wins", "mean_score", "ci95", "deal_ins"}
    deal_ins = sum(seat["deal_ins"] for seat in seats)
    assert deal_ins == data["wins_by"].get("discard", 0) + data["wins_by"].get("rob_kong", 0)
    assert data["decisions"] > 0 and data["decisions_per_second"] > 0


def test_cli_reports_seats_as_json_and_as_a_table(capsys) -> None:
    args = ["simulate", "--variant", "jiaxing", "--players", "normal,easy,easy,easy"]
    assert main([*args, "--hands", "3", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"variant", "hands", "wins", "draws", "errors", "seconds"} <= set(data)
    assert len(data["seats"]) == 4 and "draw_rate" in data
    assert main([*args, "--hands", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "normal" in out and "95% CI" in out and "share" in out
