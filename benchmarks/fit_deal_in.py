"""Fit ``hard``'s reading of the other seats (``engine.ai_hard_defence``).

Why: a deal-in model is only as good as its match with how opponents really play, and
self-play knows the answer the model guesses. This script plays ``--hands`` hands of
four ``normal`` seats; at every discard decision it records, for each other seat, the
public features ``ai_hard_defence`` reads and the truth from the round: is that seat
ready, and which of the tiles the discarder holds would it win on now. It fits the two
logistic models (Newton's method, a small ridge) on those hands, then scores them on
``--holdout`` fresh hands against the hand-set tables they replace (``ai_hard``'s
``_ready_chance`` times ``_wait_chance``): log loss, and the share of deal-ins caught by
the riskiest fifth of the tiles weighed.

    python benchmarks/fit_deal_in.py --variant taizhou --hands 1500 --holdout 500 [--json]

The last line with ``--json`` is one object: ``ready``/``hit`` coefficient lists,
``rows``, and the held-out ``log_loss``/``top_fifth_recall`` of both models.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from typing import TYPE_CHECKING, Any

from engine import ai as base
from engine import ai_hard
from engine import ai_hard_defence as defence
from engine.ai import choose_action
from engine.match import Match
from engine.shapes import count_hand
from engine.types import DISCARD

if TYPE_CHECKING:
    import numpy as np

Row = tuple[list[float], list[float], bool, float]  # opponent, tile features, hit, table


def collect(
    variant: str, hands: int, seed: str
) -> tuple[list[tuple[list[float], bool, float]], list[Row]]:
    """(readiness rows, hit rows), each with the hand-set tables' estimate beside it."""
    ready_rows: list[tuple[list[float], bool, float]] = []
    hit_rows: list[Row] = []
    played = 0
    match_number = 0
    while played < hands:
        match = Match(variant, None, f"fit:{seed}:{match_number}")
        match_number += 1
        while not match.finished and played < hands:
            hand_number = match.hand_number
            while match.hand_number == hand_number and not match.finished:
                seat = match.round.waiting_on[0]
                view = match.player_view(seat)
                rng = random.Random(
                    f"fit:{seed}:{match_number}:{hand_number}:{view.public.turn_id}"
                )
                action = choose_action(view, "normal", rng)
                if action.type == DISCARD and view.public.phase == "turn":
                    _record(match, view, ready_rows, hit_rows)
                match.apply(action)
            played += 1
    return ready_rows, hit_rows


def _record(
    match: Match,
    view: Any,
    ready_rows: list[tuple[list[float], bool, float]],
    hit_rows: list[Row],
) -> None:
    round_ = match.round
    public = view.public
    wild = public.wild
    counts, _ = count_hand(view.all_concealed, wild)
    table = base._read_table(view, counts)
    unseen = table.unseen
    held = [kind for kind in range(len(counts)) if counts[kind] and kind != wild]
    for seat_view in public.seats:
        other = seat_view.seat
        if other == view.seat or seat_view.folded:
            continue
        read = defence.read_opponent(view, seat_view)
        waits = set(round_._hand_waits(other)) - round_.skipped_win[other]
        hand_ready = ai_hard._ready_chance(seat_view)
        ready_rows.append((list(read.features), bool(waits), hand_ready))
        for kind in held:
            if kind in read.passed:
                continue  # never a win: hit_chance answers 0 without the model
            tile = list(defence.tile_features(read, kind, unseen[kind], wild))
            old = hand_ready * ai_hard._wait_chance(kind, seat_view, table, read.passed)
            hit_rows.append((list(read.features), tile, kind in waits, old))


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1.0) -> np.ndarray:
    """Logistic regression by Newton's method; the ridge spares the intercept."""
    import numpy as np

    weights = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 0.0
    for _ in range(40):
        p = 1.0 / (1.0 + np.exp(-(x @ weights)))
        gradient = x.T @ (p - y) + penalty * weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    return weights


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    import numpy as np

    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _top_fifth_recall(p: np.ndarray, y: np.ndarray) -> float:
    """Share of the true hits among the fifth of rows rated riskiest."""
    import numpy as np

    order = np.argsort(-p, kind="stable")
    top = order[: max(1, len(order) // 5)]
    return float(y[top].sum() / max(1.0, y.sum()))


def _arrays(
    ready_rows: list[tuple[list[float], bool, float]], hit_rows: list[Row]
) -> tuple[np.ndarray, ...]:
    """(features, truth, tables' estimate) of the readiness rows, then of the tile rows."""
    import numpy as np

    return (
        np.array([r[0] for r in ready_rows]),
        np.array([float(r[1]) for r in ready_rows]),
        np.array([r[2] for r in ready_rows]),
        np.array([r[0] + r[1] for r in hit_rows]),
        np.array([float(r[2]) for r in hit_rows]),
        np.array([r[3] for r in hit_rows]),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="taizhou")
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--holdout", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import numpy as np  # the fit's only user: the bot and its tests never import it

    ready_rows, hit_rows = collect(args.variant, args.hands, "train")
    ready_x, ready_y, _, hit_x, hit_y, _ = _arrays(ready_rows, hit_rows)
    ready_w = fit(ready_x, ready_y)
    hit_w = fit(hit_x, hit_y)

    test_ready, test_hit = collect(args.variant, args.holdout, "holdout")
    tr_x, tr_y, tr_old, th_x, th_y, th_old = _arrays(test_ready, test_hit)
    scores: dict[str, dict[str, float]] = {}
    for name, x, y, weights, old in (
        ("ready", tr_x, tr_y, ready_w, tr_old),
        ("hit", th_x, th_y, hit_w, th_old),
    ):
        fitted = 1.0 / (1.0 + np.exp(-(x @ weights)))
        scores[name] = {
            "rate": float(y.mean()),
            "log_loss_fitted": _log_loss(fitted, y),
            "log_loss_tables": _log_loss(old, y),
            "top_fifth_recall_fitted": _top_fifth_recall(fitted, y),
            "top_fifth_recall_tables": _top_fifth_recall(old, y),
        }
    names = defence.FEATURE_NAMES + defence.TILE_FEATURE_NAMES
    print(f"{args.variant}: {len(ready_rows)} readiness rows, {len(hit_rows)} tile rows")
    print(f"{'feature':<16} {'ready':>8} {'hit':>8}")
    for index, name in enumerate(names):
        ready_coef = f"{ready_w[index]:8.3f}" if index < len(ready_w) else " " * 8
        print(f"{name:<16} {ready_coef} {hit_w[index]:8.3f}")
    print(
        f"{'held out':<10} {'rate':>6} {'loss fit':>9} {'loss old':>9} {'top5 fit':>9} {'top5 old':>9}"
    )
    for name, score in scores.items():
        print(
            f"{name:<10} {score['rate']:6.3f} {score['log_loss_fitted']:9.4f} "
            f"{score['log_loss_tables']:9.4f} {score['top_fifth_recall_fitted']:9.3f} "
            f"{score['top_fifth_recall_tables']:9.3f}"
        )
    if args.json:
        print(
            json.dumps(
                {
                    "variant": args.variant,
                    "ready": [round(float(w), 4) for w in ready_w],
                    "hit": [round(float(w), 4) for w in hit_w],
                    "rows": {"ready": len(ready_rows), "hit": len(hit_rows)},
                    "holdout": scores,
                }
            )
        )
    assert all(math.isfinite(float(w)) for w in [*ready_w, *hit_w])


if __name__ == "__main__":
    main()
