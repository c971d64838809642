"""``mahjong-bot simulate`` (issue 2 item 9): whole matches of simple players run
without a single engine error, and the JSON statistics carry the named keys."""

from __future__ import annotations

import json
import random

import pytest

from bot.cli import main
from bot.commands.simulate import PLAYERS, parse_players, random_player, simulate
from engine.match import Match


@pytest.mark.parametrize(("variant", "seats"), [("jiaxing", 4), ("taizhou", 4)])
def test_simulate_two_hundred_hands_without_errors(variant: str, seats: int) -> None:
    stats = simulate(variant, seats=seats, hands=200, seed="ci")
    assert stats.errors == 0, stats.error_samples
    assert stats.hands == 200 and stats.wins + stats.draws == 200
    assert stats.wins > 0  # the simple players do reach winning hands


def test_simulate_small_tables_and_random_players() -> None:
    stats = simulate(
        "taizhou",
        seats=2,
        hands=60,
        seed=3,
        options={"remove_suits": 2},
        players=[random_player] * 2,
    )
    assert stats.errors == 0 and stats.hands == 60


def test_simulate_cli_prints_one_json_object_with_the_named_keys(capsys) -> None:
    code = main(["simulate", "--variant", "taizhou", "--seats", "3", "--hands", "20", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"variant", "hands", "wins", "draws", "errors", "seconds"} <= set(data)
    assert data["variant"] == "taizhou" and data["hands"] == 20 and data["errors"] == 0


def test_simulate_is_reproducible_from_its_seed() -> None:
    def untimed(data: dict) -> dict:
        return {key: value for key, value in data.items() if "second" not in key}

    first = simulate("jiaxing", hands=8, seed=9).to_json()
    second = simulate("jiaxing", hands=8, seed=9).to_json()
    assert untimed(first) == untimed(second)


def test_simulate_counts_a_failing_player_as_an_error_and_goes_on() -> None:
    calls = {"n": 0}

    def flaky(view, rng):
        calls["n"] += 1
        if calls["n"] == 5:
            raise RuntimeError("boom")
        return random_player(view, rng)

    stats = simulate("taizhou", hands=3, seed=1, players=[flaky] * 4)
    assert stats.errors == 1 and stats.hands == 3 and "boom" in stats.error_samples[0]


def test_players_are_chosen_by_name_per_seat() -> None:
    assert parse_players("random", 3) == [random_player] * 3
    assert parse_players("simple,random", 2) == [PLAYERS["simple"], random_player]
    with pytest.raises(ValueError, match="unknown player 'genius'"):
        parse_players("genius", 4)
    with pytest.raises(ValueError, match="2 players for 4 seats"):
        parse_players("simple,random", 4)


def test_simple_players_only_ever_choose_legal_actions() -> None:
    match = Match("jiaxing", None, 5)
    rng = random.Random(0)
    for _ in range(300):
        seat = match.round.waiting_on[0]
        view = match.player_view(seat)
        for player in PLAYERS.values():
            assert player(view, rng) in view.legal
        match.apply(PLAYERS["simple"](view, rng))
