"""``benchmarks/decision_forks.py``: each decision is played on both ways from the same
moment, the worth has the documented sign, and the groups say what the decision was."""

from __future__ import annotations

import random

from benchmarks.decision_forks import (
    Fork,
    _claim_forks,
    _wait_forks,
    fork_deal,
    play_out,
    summarise,
)
from engine.ai import choose_action
from engine.match import Match
from engine.tiles import parse_tile
from engine.types import DISCARD, PASS, PUNG
from tests.scenario import stage
from tests.test_ai_hard import _pung_window


def test_a_tempo_pung_is_forked_against_passing_with_the_worth_signed_for_claiming() -> None:
    view = _pung_window(2)
    action = choose_action(view, "hard", random.Random(0))
    assert action.type == PUNG
    [(group, other, sign)] = _claim_forks(view, action)
    assert group == ("claim", "pung", "same", "across/right")
    assert other.type == PASS and sign == -1  # claiming (the main line) minus passing


def test_a_ready_discard_is_forked_against_every_other_ready_discard() -> None:
    # 33m 456m 345p 678p 122s: throwing a 2s waits on the edge 3s; throwing the 1s would
    # wait on two pairs (3m or 2s) with two thirds of the outs.
    round_ = stage(
        "taizhou", ["3m3m4m5m6m3p4p5p6p7p8p1s2s2s", "", "", ""], wild="9s", live=40, scorer=None
    )
    view = round_.player_view(0)
    action = choose_action(view, "hard", random.Random(0))
    assert action.tile == parse_tile("2s")
    forks = {other.tile: (group, sign) for group, other, sign in _wait_forks(view, action)}
    assert forks[parse_tile("1s")] == (("more pairs", "half the outs or more"), 1)
    assert parse_tile("2s") not in forks
    assert all(other.type == DISCARD for _, other, _ in _wait_forks(view, action))


def test_a_fork_of_the_main_line_s_own_decision_is_worth_nothing() -> None:
    # The copy and the seeds make the fork exact: the same decision replays the deal.
    deal = 9001
    levels = ["normal"] * 4
    levels[deal % 4] = "hard"
    match = Match("taizhou", None, f"paired:{deal}")
    forks = []
    while match.hand_number == 0 and not match.finished:
        player = match.round.waiting_on[0]
        view = match.player_view(player)
        rng = random.Random(f"paired:{deal}:{view.public.turn_id}:{player}")
        action = choose_action(view, levels[player], rng)
        if player == deal % 4:
            copy = match.round.copy()
            copy.apply(action)
            forks.append(play_out(copy, deal, levels))
        match.apply(action)
    result = match.results[0]
    assert forks and set(forks) == {(result.deltas[deal % 4], int(result.winner == deal % 4))}


def test_forked_deals_replay_and_the_summary_averages_each_group() -> None:
    first = fork_deal(("claims", "taizhou", 9000))
    assert first == fork_deal(("claims", "taizhou", 9000))
    assert all(len(fork.group) == 4 for fork in first)
    group = ("more pairs", "x")
    rows = summarise("waits", [Fork(group, 4, 1), Fork(group, -2, 0)])
    assert rows == [
        {
            "pairs": "more pairs",
            "outs": "x",
            "forks": 2,
            "other_minus_hard": 1.0,
            "ci95": [-4.88, 6.88],
            "win_diff": 0.5,
        }
    ]
