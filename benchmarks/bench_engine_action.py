"""What the engine costs per action at a table of four ``easy`` AIs, part by part.

Why: at a thousand AI tables (``benchmarks/bench_sessions.py``, issue 15) every action
runs the same engine calls a session makes — the public view (once per action, shared),
the acting seat's player view, a seeded ``random.Random``, the AI's decision, the legal
check and ``apply`` — and their sum is most of an action's CPU. This replays seeded
matches of both rule sets in that order and times each call alone, so a change to one of
them shows up where it belongs. Figures are absolute (µs per action, means over every
action after a warm-up), not compared against anything.

    python benchmarks/bench_engine_action.py [--actions N] [--warmup N] [--level easy] [--json]
    python benchmarks/bench_engine_action.py --tables 1000 [--actions N] ...

With ``--json`` the last line is one JSON object: ``us_per_action`` per part and their
``sum``, per variant and over both.

``--tables N`` plays N matches side by side instead of one after another, one action
each in turn, with the bot's collector settings (``bot.runtime.tune_runtime``) and every
table's latest views kept, as a process hosting N tables does: the parts then include
their share of the collector's work (also reported alone, as ``gc``) and of the memory
traffic of N live tables, which one table at a time hides.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

# After PYTHONPATH, so that another checkout can be timed with this script (A/B runs).
sys.path.append(str(Path(__file__).resolve().parents[1]))

from engine.ai import choose_action
from engine.match import Match

SEED = 20261130
PARTS = ("public_view", "player_view", "rng", "choose_action", "legal_actions", "apply")


def timed_action(match: Match, level: str) -> tuple[tuple[float, ...], tuple[object, ...]]:
    """One action of ``match`` made as a session makes it: the seconds each part in
    ``PARTS`` took, in that order, and the views and events a session keeps until the
    next action."""
    clock = time.perf_counter
    seat = match.round.waiting_on[0]
    t0 = clock()
    public = match.public_view()
    t1 = clock()
    view = match.round.player_view(seat, public=public)
    t2 = clock()
    rng = random.Random(f"{SEED}:{match.turn_id}:{seat}")
    t3 = clock()
    action = choose_action(view, level, rng)
    t4 = clock()
    legal = match.legal_actions(seat)
    t5 = clock()
    events = match.apply(action)
    t6 = clock()
    assert action in legal
    return (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5), (public, view, events)


def run_variant(variant: str, actions: int, warmup: int, level: str) -> dict[str, float]:
    """Mean µs per action of each part over ``actions`` actions after ``warmup`` ones."""
    spent = dict.fromkeys(PARTS, 0.0)
    counted = 0
    game = 0
    while counted < actions:
        match = Match(variant, None, f"{SEED}:{game}")
        game += 1
        while not match.finished and counted < actions:
            times, _ = timed_action(match, level)
            if warmup <= 0:
                for part, seconds in zip(PARTS, times, strict=True):
                    spent[part] += seconds
                counted += 1
            else:
                warmup -= 1
    per_action = {part: spent[part] / counted * 1e6 for part in PARTS}
    per_action["sum"] = sum(per_action[part] for part in PARTS)
    return per_action


def run_tables(
    variant: str, tables: int, actions: int, warmup: int, level: str
) -> dict[str, float]:
    """``run_variant`` over ``tables`` live matches played in turn (see ``--tables``)."""
    import gc

    from bot.runtime import tune_runtime

    clock = time.perf_counter
    spent = dict.fromkeys((*PARTS, "gc"), 0.0)
    started = [0.0]

    def collector(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = clock()
        elif measuring:
            spent["gc"] += clock() - started[0]

    matches = [Match(variant, None, f"{SEED}:{table}") for table in range(tables)]
    kept: list[object] = [None] * tables  # each table's latest views, as a session keeps
    thresholds = gc.get_threshold()
    counted = 0
    measuring = False
    tune_runtime()
    gc.callbacks.append(collector)
    try:
        while counted < actions:
            for table, match in enumerate(matches):
                if match.finished:
                    matches[table] = match = Match(variant, None, f"{SEED}:{table}:again")
                measuring = warmup <= 0
                times, kept[table] = timed_action(match, level)
                if measuring:
                    for part, seconds in zip(PARTS, times, strict=True):
                        spent[part] += seconds
                    counted += 1
                    if counted >= actions:
                        break
                else:
                    warmup -= 1
    finally:
        gc.callbacks.remove(collector)
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    per_action = {part: value / counted * 1e6 for part, value in spent.items()}
    per_action["sum"] = sum(per_action[part] for part in PARTS)  # gc is inside the parts
    return per_action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=20_000, help="timed actions per variant")
    parser.add_argument("--warmup", type=int, default=2_000, help="untimed actions first")
    parser.add_argument("--level", default="easy", help="every seat's AI level")
    parser.add_argument(
        "--tables", type=int, default=0, help="play this many matches side by side (0: one)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.tables:
        results = {
            variant: run_tables(variant, args.tables, args.actions, args.warmup, args.level)
            for variant in ("jiaxing", "taizhou")
        }
    else:
        results = {
            variant: run_variant(variant, args.actions, args.warmup, args.level)
            for variant in ("jiaxing", "taizhou")
        }
    shown = (*PARTS, "gc", "sum") if args.tables else (*PARTS, "sum")
    both = {
        part: sum(results[variant][part] for variant in results) / len(results) for part in shown
    }
    where = f", {args.tables} tables side by side" if args.tables else ""
    print(
        f"engine cost per action, four {args.level} AIs, {args.actions} actions per variant{where}"
    )
    print(f"{'part':<15}" + "".join(f"{name:>10}" for name in (*results, "both")) + "  (µs)")
    for part in shown:
        row = [results[variant][part] for variant in results] + [both[part]]
        print(f"{part:<15}" + "".join(f"{value:>10.1f}" for value in row))
    if args.json:
        summary = {
            "level": args.level,
            "tables": args.tables or 1,
            "actions_per_variant": args.actions,
            "us_per_action": {part: round(value, 2) for part, value in both.items()},
            "variants": {
                variant: {part: round(value, 2) for part, value in parts.items()}
                for variant, parts in results.items()
            },
        }
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
