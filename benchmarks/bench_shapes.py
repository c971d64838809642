"""Speed of win detection, waits and shanten on count vectors, against riichi `mahjong`.

The corpus is fixed (seeded): half complete hands (random sets and a pair, at most four
copies of a kind), half near misses (one tile of a complete hand swapped), because random
14-tile draws are rejected by any checker in a few instructions and would measure
nothing. Wild variants turn 1-3 tiles of the same hands into jokers. The anchor is
``mahjong.agari.Agari.is_agari`` on the wild-free hands.

    python benchmarks/bench_shapes.py [--json] [--hands N] [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.shapes import (
    is_win_counts,
    is_winning_hand,
    shanten,
    shanten_pungs,
    shanten_restricted,
    waits_counts,
    winning_tiles,
)
from engine.tiles import format_tiles, from_counts

SEED = 20261129


def random_complete_hand(rng: random.Random) -> list[int]:
    """Four sets and a pair as counts, never more than four copies of a kind."""
    while True:
        counts = [0] * 34
        pair = rng.randrange(34)
        counts[pair] += 2
        for _ in range(4):
            if rng.random() < 0.6:
                suit = rng.randrange(3)
                start = suit * 9 + rng.randrange(7)
                for kind in (start, start + 1, start + 2):
                    counts[kind] += 1
            else:
                counts[rng.randrange(34)] += 3
        if max(counts) <= 4:
            return counts


def near_miss(rng: random.Random, counts: list[int]) -> list[int]:
    while True:
        result = list(counts)
        result[rng.choice([k for k in range(34) if result[k]])] -= 1
        result[rng.randrange(34)] += 1
        if max(result) <= 4 and result != counts:
            return result


def with_jokers(rng: random.Random, counts: list[int]) -> tuple[list[int], int, int]:
    """(counts, jokers, wild kind): 1-3 tiles become jokers; the wild kind is one the
    hand holds no natural copy of, as in play."""
    result = list(counts)
    jokers = rng.randint(1, 3)
    for _ in range(jokers):
        result[rng.choice([k for k in range(34) if result[k]])] -= 1
    wild_kind = rng.choice([k for k in range(34) if result[k] == 0])
    return result, jokers, wild_kind


def build_corpus(size: int) -> dict[str, list]:
    rng = random.Random(SEED)
    wins = []
    for index in range(size):
        complete = random_complete_hand(rng)
        wins.append(complete if index % 2 == 0 else near_miss(rng, complete))
    wild_wins = [with_jokers(rng, hand) for hand in wins]
    waits = []
    for hand in wins:
        thirteen = list(hand)
        thirteen[rng.choice([k for k in range(34) if thirteen[k]])] -= 1
        waits.append(thirteen)
    wild_waits = [with_jokers(rng, hand) for hand in waits]
    return {"wins": wins, "wild_wins": wild_wins, "waits": waits, "wild_waits": wild_waits}


def per_call_us(run_all: Callable[[], object], calls: int, repeats: int) -> float:
    """Median over repeats of the mean µs per call of one pass over the corpus."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        run_all()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def measure_import_s(runs: int = 3) -> float:
    """Import plus the first judged hand (which loads the tables), in fresh interpreters."""
    code = (
        "import time; t = time.perf_counter(); import engine.shapes as s; "
        "s.is_win_counts([0] * 34, 2); print(time.perf_counter() - t)"
    )
    root = Path(__file__).resolve().parents[1]
    samples = []
    for _ in range(runs):
        output = subprocess.run(
            [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
        )
        samples.append(float(output.stdout.strip()))
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print a JSON object last")
    parser.add_argument("--hands", type=int, default=2000, help="corpus size per case")
    parser.add_argument("--repeats", type=int, default=9, help="timed passes per case")
    args = parser.parse_args(argv)

    corpus = build_corpus(args.hands)
    wins, wild_wins = corpus["wins"], corpus["wild_wins"]
    waits, wild_waits = corpus["waits"], corpus["wild_waits"]
    n = len(wins)
    repeats = args.repeats
    notation_wins = [format_tiles(from_counts(hand)) for hand in wins[:500]]
    notation_waits = [format_tiles(from_counts(hand)) for hand in waits[:500]]

    rows: list[tuple[str, float]] = []
    results: dict[str, float] = {}

    results["is_winning_hand_us"] = per_call_us(
        lambda: [is_win_counts(hand, 0) for hand in wins], n, repeats
    )
    rows.append(("is_win_counts, 0 wilds", results["is_winning_hand_us"]))
    results["is_winning_hand_wilds_us"] = per_call_us(
        lambda: [is_win_counts(hand, jokers) for hand, jokers, _ in wild_wins], n, repeats
    )
    rows.append(("is_win_counts, 1-3 wilds", results["is_winning_hand_wilds_us"]))
    waits_plain = per_call_us(lambda: [waits_counts(hand, 0) for hand in waits], n, repeats)
    rows.append(("waits_counts, 0 wilds", waits_plain))
    waits_wild = per_call_us(
        lambda: [waits_counts(hand, jokers, kind) for hand, jokers, kind in wild_waits],
        n,
        repeats,
    )
    rows.append(("waits_counts, 1-3 wilds", waits_wild))
    results["winning_tiles_us"] = statistics.median([waits_plain, waits_wild])
    rows.append(
        (
            "shanten, 14 tiles, 0 wilds",
            per_call_us(lambda: [shanten(hand, 0) for hand in wins], n, repeats),
        )
    )
    rows.append(
        (
            "shanten, 13 tiles, 1-3 wilds",
            per_call_us(
                lambda: [shanten(hand, jokers) for hand, jokers, _ in wild_waits], n, repeats
            ),
        )
    )
    half_flush = 0x1FF | (0x7F << 27)
    rows.append(
        (
            "shanten_restricted (m + honors)",
            per_call_us(
                lambda: [shanten_restricted(hand, 0, half_flush) for hand in wins], n, repeats
            ),
        )
    )
    rows.append(
        (
            "shanten_pungs",
            per_call_us(lambda: [shanten_pungs(hand, 0) for hand in wins], n, repeats),
        )
    )
    rows.append(
        (
            "is_winning_hand (notation str)",
            per_call_us(
                lambda: [is_winning_hand(text) for text in notation_wins],
                len(notation_wins),
                repeats,
            ),
        )
    )
    rows.append(
        (
            "winning_tiles (notation str)",
            per_call_us(
                lambda: [winning_tiles(text) for text in notation_waits],
                len(notation_waits),
                repeats,
            ),
        )
    )

    try:
        from mahjong.agari import Agari
    except ImportError:
        results["anchor_is_agari_us"] = float("nan")
    else:
        results["anchor_is_agari_us"] = per_call_us(
            lambda: [Agari.is_agari(hand) for hand in wins], n, repeats
        )
    rows.append(("anchor: mahjong Agari.is_agari, 0 wilds", results["anchor_is_agari_us"]))
    results["ratio_wilds_to_anchor"] = (
        results["is_winning_hand_wilds_us"] / results["anchor_is_agari_us"]
    )
    results["import_s"] = measure_import_s()

    print(
        f"corpus: {n} hands per case (half complete, half near misses), seed {SEED}, "
        f"median of {repeats} passes"
    )
    print(f"{'case':<42} {'µs/call':>9}")
    for label, value in rows:
        print(f"{label:<42} {value:>9.2f}")
    print(f"{'ratio wilds / anchor (target <= 0.5)':<42} {results['ratio_wilds_to_anchor']:>9.2f}")
    print(f"{'import + table load, s (target <= 0.5)':<42} {results['import_s']:>9.3f}")
    if args.json:
        print(json.dumps({key: round(value, 4) for key, value in results.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
