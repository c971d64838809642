"""What continuing and folding under three-claim liability (三摊) earned, by distance.

Why: ``hard``'s continue/fold rule (``engine.ai_hard._choose_santan``) is read off
these figures. Jiaxing hands are played by one AI level in every seat; at each
Continue/Fold decision the deciding seat's distance from ready (its best shanten) and
its choice are kept, and when the hand ends, what that seat won or paid. Folding pays
nothing, so a distance whose continuing mean is below zero is one to fold at.

    python benchmarks/santan_decisions.py [--hands 1000] [--seeds 16,17] [--level normal] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import defaultdict

from engine import ai as base
from engine.ai import choose_action
from engine.match import Match
from engine.shapes import count_hand
from engine.types import CONTINUE


def decisions(hands: int, seed: str, level: str) -> list[tuple[str, int, int]]:
    """(choice, distance, the seat's score for the hand) of every 三摊 decision."""
    rngs = [random.Random(f"simulate:{seed}:{seat}") for seat in range(4)]
    found: list[tuple[str, int, int]] = []
    played = 0
    matches = 0
    while played < hands:
        match = Match("jiaxing", None, f"{seed}:{matches}")
        matches += 1
        while not match.finished and played < hands:
            hand_number = match.hand_number
            pending: list[tuple[str, int, int]] = []
            while match.hand_number == hand_number:
                seat = match.round.waiting_on[0]
                view = match.player_view(seat)
                action = choose_action(view, level, rngs[seat])
                if any(a.type == CONTINUE for a in view.legal):
                    counts, wilds = count_hand(view.all_concealed, view.public.wild)
                    table = base._read_table(view, counts)
                    distance = min(base._shantens(counts, wilds, table), default=base._FAR)
                    pending.append((action.type, distance, seat))
                match.apply(action)
            played += 1
            deltas = match.results[-1].deltas
            found += [(choice, distance, deltas[seat]) for choice, distance, seat in pending]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per seed")
    parser.add_argument("--seeds", default="16,17")
    parser.add_argument("--level", default="normal")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    groups: dict[tuple[str, int], list[int]] = defaultdict(list)
    for seed in args.seeds.split(","):
        for choice, distance, score in decisions(args.hands, seed, args.level):
            groups[(choice, min(distance, 3))].append(score)
    rows = []
    print(f"{'choice':<10}{'distance':>9}{'decisions':>11}{'mean':>8}{'ci95 ±':>8}")
    for (choice, distance), scores in sorted(groups.items()):
        mean = sum(scores) / len(scores)
        spread = (
            math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1))
            if len(scores) > 1
            else 0.0
        )
        half = 1.96 * spread / math.sqrt(len(scores))
        label = f"{distance}+" if distance == 3 else str(distance)
        print(f"{choice:<10}{label:>9}{len(scores):>11}{mean:>8.1f}{half:>8.1f}")
        rows.append(
            {
                "choice": choice,
                "distance": distance,
                "decisions": len(scores),
                "mean": round(mean, 2),
                "ci95": round(half, 2),
            }
        )
    if args.json:
        print(json.dumps({"hands": args.hands, "seeds": args.seeds, "groups": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
