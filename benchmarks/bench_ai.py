"""Speed of the AI players: one decision, and one whole hand played by four AIs.

Four ``normal`` AIs (the slower level) play seeded matches of each variant. A decision is
timed around ``AIPlayer.choose`` alone; a hand is timed from its first decision to its
end, so it includes the engine's own work (views, legal actions, scoring). Targets
(issue 6): decision median <= 5 ms, hand median <= 250 ms.

The ``hard`` level (issue 16) is timed apart: one ``hard`` seat among three ``normal``
ones, as in ``simulate --players hard,normal,normal,normal``, timing its decisions
only. Targets: median <= 30 ms, p99 <= 200 ms.

    python benchmarks/bench_ai.py [--json] [--hands N] [--hard-hands N] [--level normal|easy]

With ``--json`` the last line is one JSON object with ``decision_ms`` and ``hand_ms``
(medians over both variants), ``hard_decision_ms`` and ``hard_decision_p99_ms``, and
per-variant details.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai import AIPlayer
from engine.match import Match

SEED = 20261129


def bench_variant(
    variant: str, hands: int, level: str, timed_seats: tuple[int, ...] = (0, 1, 2, 3)
) -> tuple[list[float], list[float]]:
    """Per-decision and per-hand wall times in seconds for ``hands`` hands. ``level`` plays
    the ``timed_seats`` (whose decisions are timed); ``normal`` plays the others."""
    decisions: list[float] = []
    hand_times: list[float] = []
    match_index = 0
    while len(hand_times) < hands:
        match = Match(variant, None, f"{SEED}:{match_index}")
        players = [
            AIPlayer(level if seat in timed_seats else "normal", f"{SEED}:{match_index}:{seat}")
            for seat in range(4)
        ]
        match_index += 1
        hand_start = time.perf_counter()
        while not match.finished and len(hand_times) < hands:
            seat = match.round.waiting_on[0]
            view = match.player_view(seat)
            start = time.perf_counter()
            action = players[seat].choose(view)
            if seat in timed_seats:
                decisions.append(time.perf_counter() - start)
            finished = len(match.results)
            match.apply(action)
            if len(match.results) > finished:
                now = time.perf_counter()
                hand_times.append(now - hand_start)
                hand_start = now
    return decisions, hand_times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument("--hands", type=int, default=40, help="hands per variant (default 40)")
    parser.add_argument("--level", default="normal", choices=("easy", "normal"))
    parser.add_argument(
        "--hard-hands", type=int, default=20, help="hands per variant with a hard seat (20)"
    )
    args = parser.parse_args()

    all_decisions: list[float] = []
    all_hands: list[float] = []
    details: dict[str, dict[str, float]] = {}
    print(
        f"{'variant':<10}{'decisions':>10}{'median ms':>11}{'p95 ms':>9}{'hands':>7}"
        f"{'hand median ms':>16}{'hand p95 ms':>13}"
    )
    for variant in ("jiaxing", "taizhou"):
        decisions, hand_times = bench_variant(variant, args.hands, args.level)
        all_decisions += decisions
        all_hands += hand_times
        decision_ms = statistics.median(decisions) * 1000
        decision_p95 = statistics.quantiles(decisions, n=20)[-1] * 1000
        hand_ms = statistics.median(hand_times) * 1000
        hand_p95 = statistics.quantiles(hand_times, n=20)[-1] * 1000
        details[variant] = {
            "decision_ms": round(decision_ms, 3),
            "decision_p95_ms": round(decision_p95, 3),
            "hand_ms": round(hand_ms, 2),
            "hand_p95_ms": round(hand_p95, 2),
            "decisions": len(decisions),
            "hands": len(hand_times),
        }
        print(
            f"{variant:<10}{len(decisions):>10}{decision_ms:>11.3f}{decision_p95:>9.3f}"
            f"{len(hand_times):>7}{hand_ms:>16.1f}{hand_p95:>13.1f}"
        )
    hard_decisions: list[float] = []
    for variant in ("jiaxing", "taizhou"):
        decisions, _ = bench_variant(variant, args.hard_hands, "hard", timed_seats=(0,))
        hard_decisions += decisions
        print(
            f"{variant:<10}hard seat: {len(decisions)} decisions, median "
            f"{statistics.median(decisions) * 1000:.2f} ms, p99 "
            f"{statistics.quantiles(decisions, n=100)[-1] * 1000:.1f} ms"
        )
    hard_ms = statistics.median(hard_decisions) * 1000
    hard_p99 = statistics.quantiles(hard_decisions, n=100)[-1] * 1000
    result = {
        "decision_ms": round(statistics.median(all_decisions) * 1000, 3),
        "hand_ms": round(statistics.median(all_hands) * 1000, 2),
        "hard_decision_ms": round(hard_ms, 3),
        "hard_decision_p99_ms": round(hard_p99, 3),
        "level": args.level,
        "targets": {
            "decision_ms": 5.0,
            "hand_ms": 250.0,
            "hard_decision_ms": 30.0,
            "hard_decision_p99_ms": 200.0,
        },
        "variants": details,
    }
    print(
        f"overall: decision median {result['decision_ms']} ms, hand median {result['hand_ms']} ms, "
        f"hard decision median {result['hard_decision_ms']} ms, p99 {result['hard_decision_p99_ms']} ms"
    )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
