"""What ``hard``'s claims and waits are worth, measured on the real continuation.

Why forks, not paired deals: a paired run changes every decision of a kind at once and
compares whole hands, so one rule's effect drowns in the others' (±1 point a deal over
400 deals, for rules that change one deal in ten). Here every claim window ``hard``
meets is played on twice from the same moment: as ``hard`` decided, and with the other
decision (each legal claim where it passed, passing where it claimed). The hidden tiles,
the wall and every player's seeds are the same in both, so the difference of the two
results is that one decision's worth, and windows alike can be averaged over.

Deal ``i`` is the first hand of match ``paired:i`` with ``hard`` in seat ``i % 4`` and
``normal`` elsewhere, as in ``paired_ai.py``. Two kinds of decision (``--decision``):

- ``claims``: every claim window, grouped by ``hard``'s choice, the claim, whether the
  claim brings the hand closer to ready (sets and a pair, with the best discard after
  it) and who threw the tile: the left-hand player (whose discard is followed by our
  turn anyway) or a seat across or to the right (a claim skips the turns of the seats
  in between). The worth is claiming minus passing.
- ``waits``: every discard that makes the hand ready where another discard would too,
  each other one played; grouped by whether the other keeps more, as many or fewer
  pairs, and whether it keeps at least half of the chosen wait's outs. The worth is the
  other discard minus ``hard``'s.

    python benchmarks/decision_forks.py [--decision claims] [--variant taizhou]
        [--deals 400] [--first 40000] [--jobs 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine import ai as base
from engine import ai_hard
from engine.ai import choose_action
from engine.match import Match
from engine.round import Round
from engine.types import CHOW, DISCARD, KONG, PASS, PUNG, WIN, Action
from engine.variants import RULE_SETS
from engine.views import PlayerView

LEVEL = "hard"


@dataclass(frozen=True)
class Fork:
    """One decision played both ways: the worth of one way over the other."""

    group: tuple[str, ...]  # what kind of decision it was (see the module's docstring)
    score: int  # claiming minus passing, or the other wait minus hard's, for hard's seat
    won: int  # the same for winning the hand (-1, 0 or 1)


def play_out(round_: Round, deal: int, levels: list[str]) -> tuple[int, int]:
    """(score, won) of seat ``deal % 4`` once ``round_`` is played to its end."""
    while not round_.is_over:
        seat = round_.waiting_on[0]
        view = round_.player_view(seat)
        rng = random.Random(f"paired:{deal}:{view.public.turn_id}:{seat}")
        round_.apply(choose_action(view, levels[seat], rng))
    assert round_.result is not None
    seat = deal % 4
    return round_.result.deltas[seat], int(round_.result.winner == seat)


def _distance_change(view: PlayerView, claim: Action) -> str:
    """'closer', 'same' or 'further': the claim's effect on the distance from ready as
    ``hard``'s tempo rule reads it (``ai_hard._distance_after_claim``)."""
    counts, wilds = base._hand_counts(view, view.public.wild)
    table = base._read_table(view, counts)
    after = ai_hard._distance_after_claim(view, claim, counts, wilds, table)
    if after is None:
        return "?"
    now = ai_hard._standard_distance(counts, wilds, table)
    return "closer" if after < now else "same" if after == now else "further"


def _claim_forks(view: PlayerView, action: Action) -> list[tuple[tuple[str, ...], Action, int]]:
    """(group, the other decision, sign making the worth claiming minus passing)."""
    types = {a.type for a in view.legal}
    claims = [a for a in view.legal if a.type in (CHOW, PUNG, KONG)]
    if not claims or PASS not in types or WIN in types:
        return []
    public = view.public
    assert public.last_discard is not None
    left = public.last_discard[0] == (view.seat - 1) % public.num_seats
    thrown_by = "left" if left else "across/right"
    others = claims if action.type == PASS else [Action(PASS, view.seat)]
    found: list[tuple[tuple[str, ...], Action, int]] = []
    for other in others:
        claim = action if other.type == PASS else other
        choice = "pass" if action.type == PASS else "claim"
        group = (choice, claim.type, _distance_change(view, claim), thrown_by)
        found.append((group, other, -1 if other.type == PASS else 1))
    return found


def _pairs_after(counts: list[int], discard: int) -> int:
    counts[discard] -= 1
    pairs = sum(1 for held in counts if held >= 2)
    counts[discard] += 1
    return pairs


def _wait_forks(view: PlayerView, action: Action) -> list[tuple[tuple[str, ...], Action, int]]:
    """(group, another discard making the hand ready, sign 1: the other minus hard's)."""
    if action.type != DISCARD or action.tile is None or view.public.phase != "turn":
        return []
    counts, wilds = base._hand_counts(view, view.public.wild)
    table = base._read_table(view, counts)
    if not table.targets:
        return []
    outs = ai_hard._discard_outs(counts, wilds, table)
    chosen = outs.get(action.tile)
    if chosen is None or chosen[0] > 0:
        return []
    legal = {a.tile for a in view.legal if a.type == DISCARD}
    mine = _pairs_after(counts, action.tile)
    found: list[tuple[tuple[str, ...], Action, int]] = []
    for kind, (distance, count) in sorted(outs.items()):
        if distance > 0 or kind == action.tile or kind not in legal:
            continue
        pairs = _pairs_after(counts, kind)
        relation = "more" if pairs > mine else "same" if pairs == mine else "fewer"
        wide = "half the outs or more" if 2 * count >= chosen[1] else "under half the outs"
        found.append(((relation + " pairs", wide), Action(DISCARD, view.seat, tile=kind), 1))
    return found


DECISIONS = {"claims": _claim_forks, "waits": _wait_forks}


def fork_deal(args: tuple[str, str, int]) -> list[Fork]:
    """Every decision of the kind by ``hard``'s seat in one deal, played both ways."""
    decision, variant, deal = args
    forks_of = DECISIONS[decision]
    seat = deal % 4
    levels = ["normal"] * 4
    levels[seat] = LEVEL
    match = Match(variant, None, f"paired:{deal}")
    pending: list[tuple[tuple[str, ...], int, tuple[int, int]]] = []
    while match.hand_number == 0 and not match.finished:
        player = match.round.waiting_on[0]
        view = match.player_view(player)
        rng = random.Random(f"paired:{deal}:{view.public.turn_id}:{player}")
        action = choose_action(view, levels[player], rng)
        if player == seat:
            for group, other, sign in forks_of(view, action):
                copy = match.round.copy()
                copy.apply(other)
                pending.append((group, sign, play_out(copy, deal, levels)))
        match.apply(action)
    result = match.results[0]
    main = (result.deltas[seat], int(result.winner == seat))
    return [
        Fork(group, sign * (score - main[0]), sign * (won - main[1]))
        for group, sign, (score, won) in pending
    ]


GROUP_NAMES = {
    "claims": ("hard", "claim", "distance", "thrown_by"),
    "waits": ("pairs", "outs"),
}
WORTH = {"claims": "claim_minus_pass", "waits": "other_minus_hard"}


def summarise(decision: str, forks: list[Fork]) -> list[dict[str, object]]:
    grouped: dict[tuple[str, ...], list[Fork]] = defaultdict(list)
    for fork in forks:
        grouped[fork.group].append(fork)
    rows: list[dict[str, object]] = []
    for group in sorted(grouped):
        found = grouped[group]
        scores = [fork.score for fork in found]
        mean = statistics.mean(scores)
        half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0
        rows.append(
            {
                **dict(zip(GROUP_NAMES[decision], group, strict=True)),
                "forks": len(found),
                WORTH[decision]: round(mean, 2),
                "ci95": [round(mean - half, 2), round(mean + half, 2)],
                "win_diff": round(statistics.mean(fork.won for fork in found), 3),
            }
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decision", choices=tuple(DECISIONS), default="claims")
    parser.add_argument("--variant", choices=tuple(RULE_SETS), default="taizhou")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--first", type=int, default=40000, help="first deal number")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for name in ("deals", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    started = time.perf_counter()
    deals = [
        (args.decision, args.variant, deal) for deal in range(args.first, args.first + args.deals)
    ]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        forks = [fork for found in pool.map(fork_deal, deals, chunksize=8) for fork in found]
    rows = summarise(args.decision, forks)
    names = GROUP_NAMES[args.decision]
    worth = WORTH[args.decision]
    print(
        f"{args.variant} {args.decision}: {args.deals} deals from {args.first}, {len(forks)} forks"
    )
    widths = [max([len(name), *(len(str(row[name])) for row in rows)]) + 2 for name in names]
    print(
        "".join(f"{name:<{width}}" for name, width in zip(names, widths, strict=True))
        + f"{'forks':>7}{worth:>18}{'95% interval':>18}{'win diff':>10}"
    )
    for row in rows:
        interval = "[{}, {}]".format(*row["ci95"])  # type: ignore[misc]
        print(
            "".join(f"{row[name]!s:<{width}}" for name, width in zip(names, widths, strict=True))
            + f"{row['forks']!s:>7}{row[worth]!s:>18}{interval:>18}"
            + f"{row['win_diff']!s:>10}"
        )
    if args.json:
        print(
            json.dumps(
                {
                    "decision": args.decision,
                    "variant": args.variant,
                    "deals": args.deals,
                    "first": args.first,
                    "forks": len(forks),
                    "groups": rows,
                    "seconds": round(time.perf_counter() - started, 1),
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
