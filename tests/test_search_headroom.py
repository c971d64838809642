"""``benchmarks/search_headroom.py``'s estimates: a split-half gain is positive only where
an alternative really plays out better, and a real search position is well formed."""

from __future__ import annotations

import random

from benchmarks.search_headroom import Settings, search_deal, split_gain, summarise


def _position(hard: list[tuple[int, int]], other: list[tuple[int, int]]) -> dict[str, object]:
    return {"deal": 0, "turn": 0, "hard": 0, "outcomes": {"1m": hard, "2m": other}, "seconds": 1.0}


def test_a_better_alternative_is_found_and_scored_on_the_other_half() -> None:
    rng = random.Random(1)
    hard = [(rng.choice([-10, 30]), 0) for _ in range(200)]
    better = [(score + 5 + rng.choice([-2, 2]), won) for score, won in hard]
    gain, switched = split_gain(_position(hard, better), 0, 2.0)
    assert switched and 4.0 < gain < 6.0


def test_an_alternative_no_better_than_chance_gains_nothing_at_the_gate() -> None:
    rng = random.Random(2)
    hard = [(rng.choice([-10, 30]), 0) for _ in range(200)]
    same = [(score + rng.choice([-1, 1]), won) for score, won in hard]
    gain, _ = split_gain(_position(hard, same), 0, 2.0)
    assert abs(gain) <= 1
    worse = [(score - 5 + rng.choice([-2, 2]), won) for score, won in hard]
    assert split_gain(_position(hard, worse), 0, 0.0) == (0.0, False)


def test_summary_takes_the_playouts_noise_out_of_the_spread() -> None:
    rng = random.Random(3)
    positions = []
    for _ in range(40):
        hard = [(rng.choice([-10, 30]), 0) for _ in range(100)]
        noisy = [(score + rng.choice([-20, 20]), 0) for score, _ in hard]
        positions.append(_position(hard, noisy))
    summary = summarise(positions, decisions=80, deals=40)
    assert summary["near_ready_decisions_per_deal"] == 2.0
    spread = summary["score_true_spread"]
    assert isinstance(spread, float) and spread < 1.5  # no true difference, only noise


def test_a_searched_position_holds_the_same_playouts_for_each_candidate() -> None:
    settings = Settings("taizhou", every=1, playouts=2, candidates=3)
    decisions, positions = search_deal(1003, settings)
    assert decisions == len(positions) > 0
    for position in positions:
        outcomes = position["outcomes"]
        assert isinstance(outcomes, dict) and 2 <= len(outcomes) <= 3
        assert all(len(runs) == 2 for runs in outcomes.values())
        assert all(won in (0, 1) for runs in outcomes.values() for _, won in runs)
