"""How much better could ``hard`` discard near ready, judged by a large search?

Why: ``hard`` values a discard from its own hand (efficiency, a calibrated win chance,
playouts of its own draws). A search that plays the whole table out would see what that
misses, at a price ``hard``'s time budget cannot pay; this measures what it would buy
before anyone builds it.

Deals are replayed as in ``paired_ai.py`` (``hard`` in seat ``deal % 4``, ``normal``
elsewhere). At one in ``--every`` decisions (a seeded draw per position) where ``hard``
discards to a hand at most one step from ready (standard distance) and another discard
reaches the same distance, each candidate (``hard``'s choice and up to
``--candidates`` - 1 others) is played out ``--playouts`` times to the end of the hand:
``Round.determinized`` deals the tiles ``hard`` cannot see again for each playout, the
same deals for every candidate, and ``normal`` plays every seat. Reported per position:

- ``alt_minus_hard``: an alternative's mean score minus ``hard``'s choice's; its
  ``true_spread`` is the spread of that difference with the playouts' own noise taken
  out (observed variance minus the mean squared standard error).
- ``gain``: what a search that switches to the best alternative would gain, measured
  without the winner's curse: the choice is made on half the playouts and scored on the
  other half (and the other way round, averaged). ``gain_z2`` switches only where the
  half's paired z-score is at least 2. Scores are the hand's result for ``hard``'s seat;
  ``win`` the same for the chance to win the hand.

Caveats: the others' hidden tiles are dealt uniformly (no reading of their discards,
so playouts undervalue defence), and ``normal`` stands in for ``hard`` after the
discard. A gain here estimates what such a search could buy; it is not a player's
measured gain.

    python benchmarks/search_headroom.py [--variant taizhou] [--deals 80] [--first 1000]
        [--every 3] [--playouts 300] [--candidates 4] [--jobs 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine import ai as base
from engine.ai import choose_action
from engine.match import Match
from engine.round import Round
from engine.shapes import shanten
from engine.tiles import kind_str
from engine.types import DISCARD, Action
from engine.variants import RULE_SETS
from engine.views import PlayerView

Outcome = tuple[int, int]  # (score, won 0/1) of the searched seat


@dataclass(frozen=True)
class Settings:
    variant: str
    every: int
    playouts: int
    candidates: int


def near_ready_alternatives(view: PlayerView, chosen: int) -> list[int]:
    """Other discards leaving the hand as close to ready as the closest, when that is at
    most one step (standard distance, wilds counted)."""
    counts, wilds = base._hand_counts(view, view.public.wild)
    distance: dict[int, int] = {}
    for kind in range(len(counts)):
        if counts[kind]:
            counts[kind] -= 1
            distance[kind] = shanten(counts, wilds)
            counts[kind] += 1
    best = min(distance.values())
    if best > 1:
        return []
    legal = {action.tile for action in view.legal if action.type == DISCARD}
    return [kind for kind, d in distance.items() if d == best and kind in legal and kind != chosen]


def play_out(round_: Round, seat: int, rng: random.Random) -> Outcome:
    while not round_.is_over:
        player = round_.waiting_on[0]
        round_.apply(choose_action(round_.player_view(player), "normal", rng))
    assert round_.result is not None
    return round_.result.deltas[seat], int(round_.result.winner == seat)


def search_deal(deal: int, settings: Settings) -> tuple[int, list[dict[str, object]]]:
    """(near-ready decisions seen, the sampled positions with their playouts)."""
    seat = deal % 4
    match = Match(settings.variant, None, f"paired:{deal}")
    decisions = 0
    positions: list[dict[str, object]] = []
    while match.hand_number == 0 and not match.finished:
        player = match.round.waiting_on[0]
        view = match.player_view(player)
        rng = random.Random(f"paired:{deal}:{view.public.turn_id}:{player}")
        action = choose_action(view, "hard" if player == seat else "normal", rng)
        if player == seat and action.type == DISCARD and action.tile is not None:
            others = near_ready_alternatives(view, action.tile)
            if others:
                decisions += 1
                # A fixed draw per position: every position has the same chance to be
                # searched, whatever else happens in its hand.
                sample = random.Random(f"headroom-sample:{deal}:{view.public.turn_id}")
                if sample.random() * settings.every < 1:
                    candidates = [action.tile, *others[: settings.candidates - 1]]
                    positions.append(search_position(match.round, seat, candidates, deal, settings))
        match.apply(action)
    return decisions, positions


def search_position(
    round_: Round, seat: int, candidates: list[int], deal: int, settings: Settings
) -> dict[str, object]:
    started = time.perf_counter()
    deals = random.Random(f"headroom:{deal}:{round_.turn_id}")
    outcomes: dict[int, list[Outcome]] = {kind: [] for kind in candidates}
    for _ in range(settings.playouts):
        hidden_seed = deals.random()
        for kind in candidates:  # the same hidden tiles and draws for every candidate
            copy = round_.determinized(seat, random.Random(hidden_seed))
            copy.apply(Action(DISCARD, seat, tile=kind))
            outcomes[kind].append(play_out(copy, seat, random.Random(hidden_seed + 1)))
    return {
        "deal": deal,
        "turn": round_.turn_id,
        "hard": candidates[0],
        "outcomes": {kind_str(kind): outcomes[kind] for kind in candidates},
        "seconds": time.perf_counter() - started,
    }


def _paired(a: list[Outcome], b: list[Outcome], index: int, rows: range) -> list[float]:
    return [a[i][index] - b[i][index] for i in rows]


def _z(diffs: list[float]) -> float:
    spread = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
    return statistics.mean(diffs) / (spread / math.sqrt(len(diffs))) if spread > 0 else 0.0


def split_gain(position: dict[str, object], index: int, gate: float) -> tuple[float, bool]:
    """Gain of switching by one half of the playouts, scored on the other half."""
    outcomes = position["outcomes"]
    assert isinstance(outcomes, dict)
    names = list(outcomes)
    hard = outcomes[names[0]]
    count = len(hard)
    halves = (range(0, count, 2), range(1, count, 2))
    gains: list[float] = []
    switched = False
    for choose_on, judge_on in (halves, halves[::-1]):
        best, best_z = None, gate
        for name in names[1:]:
            z = _z(_paired(outcomes[name], hard, index, choose_on))
            if z > best_z:
                best, best_z = name, z
        if best is None:
            gains.append(0.0)
            continue
        switched = True
        gains.append(statistics.mean(_paired(outcomes[best], hard, index, judge_on)))
    return statistics.mean(gains), switched


def summarise(positions: list[dict[str, object]], decisions: int, deals: int) -> dict[str, object]:
    result: dict[str, object] = {
        "positions": len(positions),
        "near_ready_decisions_per_deal": round(decisions / max(1, deals), 3),
    }
    for index, name in ((0, "score"), (1, "win")):
        diffs: list[float] = []
        noise: list[float] = []
        for position in positions:
            outcomes = position["outcomes"]
            assert isinstance(outcomes, dict)
            names = list(outcomes)
            hard = outcomes[names[0]]
            for other in names[1:]:
                paired = _paired(outcomes[other], hard, index, range(len(hard)))
                diffs.append(statistics.mean(paired))
                noise.append(statistics.variance(paired) / len(paired))
        if len(diffs) < 2:
            continue
        spread = max(0.0, statistics.pvariance(diffs) - statistics.mean(noise))
        result[f"{name}_alt_minus_hard"] = round(statistics.mean(diffs), 4)
        result[f"{name}_true_spread"] = round(math.sqrt(spread), 4)
        for gate, label in ((0.0, "gain"), (2.0, "gain_z2")):
            gains = [split_gain(position, index, gate) for position in positions]
            values = [gain for gain, _ in gains]
            half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
            mean = statistics.mean(values)
            result[f"{name}_{label}"] = round(mean, 4)
            result[f"{name}_{label}_ci95"] = [round(mean - half, 4), round(mean + half, 4)]
            result[f"{name}_{label}_switched"] = round(
                sum(switched for _, switched in gains) / len(gains), 3
            )
    seconds = [position["seconds"] for position in positions]
    result["seconds_per_position"] = (
        round(statistics.mean(s for s in seconds if isinstance(s, float)), 2) if seconds else 0.0
    )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=tuple(RULE_SETS), default="taizhou")
    parser.add_argument("--deals", type=int, default=80)
    parser.add_argument("--first", type=int, default=1000, help="first deal number")
    parser.add_argument("--every", type=int, default=3, help="search one position in n")
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--candidates", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for name in ("deals", "every", "playouts", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.candidates < 2:
        parser.error("--candidates must be at least 2 (hard's choice and one other)")
    settings = Settings(args.variant, args.every, args.playouts, args.candidates)
    started = time.perf_counter()
    deals = range(args.first, args.first + args.deals)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        searched = list(pool.map(search_deal, deals, [settings] * len(deals)))
    decisions = sum(count for count, _ in searched)
    positions = [position for _, found in searched for position in found]
    result = {
        "variant": args.variant,
        "deals": args.deals,
        "first": args.first,
        "playouts": args.playouts,
        **summarise(positions, decisions, args.deals),
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(f"{args.variant}: {args.deals} deals from {args.first}, {len(positions)} positions")
    print(f"{'measure':<34}{'score':>12}{'win chance':>14}")
    for key in ("alt_minus_hard", "true_spread", "gain", "gain_z2", "gain_z2_switched"):
        score, win = result.get(f"score_{key}", "-"), result.get(f"win_{key}", "-")
        print(f"{key:<34}{score!s:>12}{win!s:>14}")
    print(
        f"near-ready decisions per deal {result['near_ready_decisions_per_deal']}, "
        f"{result['seconds_per_position']} s per position"
    )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
