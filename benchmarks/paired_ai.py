"""Paired comparison of two AI levels: the same deals, played once with each in one seat.

Why: ``simulate --hands 400`` cannot rank two close players (a seat's win share moves by
±2.5 points between seeds, and seat 0 at one seed may win 30 % with plain ``normal``).
Here deal ``i`` is the first hand of match ``paired:i``, played twice with ``normal`` in
the other seats: once with ``--level`` in seat ``i % 4`` and once with ``--against``
there. Most decisions agree, so the per-deal score difference has a far smaller spread
than either score, and a few hundred deals separate what 400-hand runs cannot.

    python benchmarks/paired_ai.py [--variant taizhou] [--deals 300] [--first 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from engine.ai import LEVELS, choose_action
from engine.match import Match
from engine.variants import RULE_SETS


def play_first_hand(variant: str, deal: int, levels: list[str]) -> tuple[int, bool, bool]:
    """(score, won, dealt in) of seat ``deal % 4`` in the first hand of the deal's match."""
    match = Match(variant, None, f"paired:{deal}")
    while match.hand_number == 0 and not match.finished:
        seat = match.round.waiting_on[0]
        view = match.player_view(seat)
        rng = random.Random(f"paired:{deal}:{view.public.turn_id}:{seat}")
        match.apply(choose_action(view, levels[seat], rng))
    result = match.results[0]
    seat = deal % 4
    dealt_in = result.win_by in ("discard", "rob_kong") and result.from_seat == seat
    return result.deltas[seat], result.winner == seat, dealt_in


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=tuple(RULE_SETS), default="taizhou")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="first deal number (fresh deals)")
    parser.add_argument("--level", choices=LEVELS, default="hard")
    parser.add_argument("--against", choices=LEVELS, default="normal")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    totals = {args.level: [0, 0, 0], args.against: [0, 0, 0]}
    diffs: list[float] = []
    for deal in range(args.first, args.first + args.deals):
        scores = []
        for level in (args.level, args.against):
            levels = ["normal"] * 4
            levels[deal % 4] = level
            score, won, dealt_in = play_first_hand(args.variant, deal, levels)
            totals[level][0] += score
            totals[level][1] += won
            totals[level][2] += dealt_in
            scores.append(score)
        diffs.append(scores[0] - scores[1])
    mean = sum(diffs) / len(diffs)
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    half = 1.96 * spread / math.sqrt(len(diffs))
    result = {
        "variant": args.variant,
        "deals": args.deals,
        "level": args.level,
        "against": args.against,
        "wins": [totals[args.level][1], totals[args.against][1]],
        "deal_ins": [totals[args.level][2], totals[args.against][2]],
        "mean_score": [
            round(totals[args.level][0] / args.deals, 3),
            round(totals[args.against][0] / args.deals, 3),
        ],
        "score_diff": round(mean, 3),
        "score_diff_ci95": [round(mean - half, 3), round(mean + half, 3)],
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(f"{'level':<8}{'wins':>6}{'deal-ins':>10}{'mean':>9}")
    for index, level in enumerate((args.level, args.against)):
        print(
            f"{level:<8}{result['wins'][index]:>6}{result['deal_ins'][index]:>10}"
            f"{result['mean_score'][index]:>9.3f}"
        )
    low, high = result["score_diff_ci95"]
    print(f"score difference per deal {mean:.3f} (95 % CI {low:.3f} .. {high:.3f})")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
