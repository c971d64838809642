"""Refit ``hard``'s win-chance calibration (``engine.ai_hard_core.CALIBRATION``).

Why: the analytic chance of completing a target (a Poisson race against the wall alone)
is badly calibrated. Measured over ``normal`` self-play it rates ready hands far too
high (the opponents win first) and far hands too low. This script plays ``--hands``
hands of four ``normal`` seats, records at every discard the analytic chance of the
target the seat was pursuing (the most valuable one) with the table around it, and
whether the seat went on to win with that target; then it fits one logistic model per
target family (Newton's method with a small ridge) and prints the coefficients in the
order ``CALIBRATION`` uses.

    python benchmarks/calibrate_hard.py --variant jiaxing --hands 500 [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
from typing import Any

import numpy as np

from engine import ai as base
from engine import ai_hard_core as core
from engine.ai import choose_action
from engine.match import Match
from engine.shapes import count_hand
from engine.types import DISCARD, HandResult
from engine.variants import RULE_SETS


def _features(
    shanten: int, chance: float, opponent_melds: int, tiles_left: int, own: int
) -> list[float]:
    clipped = min(max(chance, 1e-3), 1.0 - 1e-3)
    return [
        1.0,
        math.log(clipped / (1.0 - clipped)),
        float(shanten == 0),
        float(shanten == 1),
        float(shanten == 2),
        min(opponent_melds, 4) / 4,
        tiles_left / 100,
        min(own, 4) / 4,
    ]


def _won_with(target: base._Target, result: HandResult, wild: int | None) -> bool:
    """Did the winning hand complete this target (its type, in its suit)?"""
    if result.hand is None:
        return False
    names = {item.key for item in result.items}
    if target.name == "any":
        return True
    if target.pungs_only:
        return "all_pungs" in names
    if target.name == "honors":
        return "all_honors" in names
    hand = result.hand
    kinds = [k for k in hand.concealed if k != wild] + [k for m in hand.melds for k in m.tiles]
    suited = [k // 9 for k in kinds if k < 27]
    if not suited:
        return False
    main = max(set(suited), key=suited.count)
    suit = int(target.name[-1])
    if target.name.startswith("half_flush"):
        return main == suit and ("half_flush" in names or "full_flush" in names)
    return main == suit and "full_flush" in names


def collect(variant: str, hands: int) -> dict[str, list[tuple[list[float], bool]]]:
    """family -> (features, won with it) for the pursued target at every discard."""
    data: dict[str, list[tuple[list[float], bool]]] = {}
    played = 0
    match_number = 0
    while played < hands:
        match = Match(variant, None, f"calibrate:{match_number}")
        match_number += 1
        while not match.finished and played < hands:
            hand_number = match.hand_number
            pending: list[tuple[int, base._Target, list[float]]] = []
            wild: int | None = None
            while match.hand_number == hand_number and not match.finished:
                seat = match.round.waiting_on[0]
                view = match.player_view(seat)
                wild = view.public.wild
                rng = random.Random(f"calibrate:{match_number}:{hand_number}:{view.public.turn_id}")
                action = choose_action(view, "normal", rng)
                if action.type == DISCARD and action.tile is not None:
                    record = _pursued(view, action.tile)
                    if record is not None:
                        pending.append((seat, *record))
                match.apply(action)
            result = match.results[-1]
            played += 1
            for seat, target, features in pending:
                won = result.winner == seat and _won_with(target, result, wild)
                family = core.calibration_family(variant, target.name) or target.name
                data.setdefault(family, []).append((features, won))
    return data


def _pursued(view: Any, discard: int) -> tuple[base._Target, list[float]] | None:
    """The most valuable target after ``discard`` with its analytic chance's features."""
    counts, wilds = count_hand(view.all_concealed, view.public.wild)
    if discard == view.public.wild:
        wilds -= 1
    else:
        counts[discard] -= 1
    table = base._read_table(view, counts)
    cache = core.ShantenCache()
    values = base._target_values(counts, table)
    best: tuple[float, base._Target, int, float] | None = None
    for index, target in enumerate(table.targets):
        current = cache.get(target, counts, wilds)
        if current > 4:
            continue
        outs = core.ukeire(target, counts, wilds, current, table, cache)
        if 1 <= current <= core.TWO_STEP_MAX_SHANTEN:
            later = core.next_step_outs(target, counts, wilds, current, table, cache)
            chance = core.two_step_chance(current, outs, later, table)
        else:
            chance = base._win_chance(current, outs, table)
        if best is None or values[index] * chance > best[0]:
            best = (values[index] * chance, target, current, chance)
    if best is None:
        return None
    opponents = max(len(s.melds) for s in view.public.seats if s.seat != view.seat)
    features = _features(best[2], best[3], opponents, view.public.tiles_left, len(view.melds))
    return best[1], features


def fit(rows: list[tuple[list[float], bool]], ridge: float = 1.0) -> list[float]:
    """Logistic regression by Newton's method (a ridge keeps rare families sane)."""
    x = np.array([features for features, _ in rows], dtype=float)
    y = np.array([won for _, won in rows], dtype=float)
    weights = np.zeros(x.shape[1])
    for _ in range(30):
        predicted = 1.0 / (1.0 + np.exp(-x @ weights))
        curvature = predicted * (1.0 - predicted) + 1e-6
        hessian = x.T @ (x * curvature[:, None]) + ridge * np.eye(len(weights))
        gradient = x.T @ (y - predicted) - ridge * weights
        weights += np.linalg.solve(hessian, gradient)
    return [round(float(w), 4) for w in weights]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=tuple(RULE_SETS), default="jiaxing")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    data = collect(args.variant, args.hands)
    result: dict[str, Any] = {"variant": args.variant, "hands": args.hands, "families": {}}
    print(f"{'family':<12}{'samples':>9}{'won':>8}  coefficients")
    for family, rows in sorted(data.items()):
        coefficients = fit(rows)
        won = sum(1 for _, w in rows if w) / len(rows)
        result["families"][family] = {
            "samples": len(rows),
            "won": round(won, 4),
            "coefficients": coefficients,
        }
        print(f"{family:<12}{len(rows):>9}{won:>8.3f}  {coefficients}")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
