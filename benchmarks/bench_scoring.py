"""Benchmark ``engine.scoring.score_hand`` on a fixed, seeded corpus of winning hands.

The corpus holds winning hands of both variants with 0 to 3 wilds (some with melds),
built by drawing four sets and a pair from a shuffled table and then turning up to three
of the winner's concealed tiles into wilds. The figure that matters is the median time
per scored hand once the per-suit decomposition tables are warm (the steady state of a
running bot); the first, cold pass is reported too.

    python benchmarks/bench_scoring.py [--hands N] [--repeat R] [--seed S] [--json]

With ``--json`` the last line is one JSON object with ``score_us`` (median µs, both
variants) and per-variant keys.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.scoring import score_hand
from engine.scoring.common import decompose
from engine.types import CHOW, KONG, PUNG, Meld, PlayerHand, WinContext, WinInfo
from engine.variants.jiaxing.scoring import _summaries as jiaxing_summaries
from engine.variants.options import make_options
from engine.variants.taizhou.scoring import _summaries as taizhou_summaries


def _random_set(
    rng: random.Random, pool: list[int], suits: list[int], honors: bool
) -> list[int] | None:
    """Three tiles forming a chow or pung taken from ``pool`` counts, or None."""
    for _ in range(30):
        if honors and rng.random() < 0.3:
            kind = rng.randrange(27, 34)
            tiles = [kind] * 3
        else:
            suit = rng.choice(suits)
            if rng.random() < 0.6:
                start = suit * 9 + rng.randrange(7)
                tiles = [start, start + 1, start + 2]
            else:
                tiles = [suit * 9 + rng.randrange(9)] * 3
        if all(pool[kind] >= tiles.count(kind) for kind in set(tiles)):
            for kind in tiles:
                pool[kind] -= 1
            return tiles
    return None


def make_hand(rng: random.Random, variant: str, wilds: int) -> WinContext | None:
    """One random winning table: the winner's hand, the others' 13 tiles, the wild."""
    pool = [4] * 34
    indicator = rng.randrange(34)
    wild = indicator
    pool[indicator] = 0  # the indicator is out; its other copies are wild
    if variant == "jiaxing":
        suits = [rng.randrange(3)]
        honors = rng.random() < 0.7
    else:
        suits = rng.sample(range(3), rng.choice((1, 2, 3)))
        honors = rng.random() < 0.6
    sets = []
    for _ in range(4):
        tiles = _random_set(rng, pool, suits, honors)
        if tiles is None:
            return None
        sets.append(tiles)
    pair_kind = rng.choice([k for k in range(34) if pool[k] >= 2 and (k >= 27 or k // 9 in suits)])
    pool[pair_kind] -= 2
    melds: list[Meld] = []
    concealed: list[int] = [pair_kind, pair_kind]
    seats = 4
    winner = rng.randrange(seats)
    for tiles in sets:
        if rng.random() < 0.25 and len(melds) < 2:
            left = (winner - 1) % seats
            if tiles[0] == tiles[1]:
                if rng.random() < 0.2 and pool[tiles[0]] >= 1:
                    pool[tiles[0]] -= 1
                    melds.append(Meld(KONG, (tiles[0],) * 4, concealed=True))
                else:
                    other = rng.choice([s for s in range(seats) if s != winner])
                    melds.append(Meld(PUNG, tuple(tiles), from_seat=other, claimed=tiles[0]))
            else:
                melds.append(Meld(CHOW, tuple(tiles), from_seat=left, claimed=tiles[1]))
        else:
            concealed.extend(tiles)
    # Turn some concealed tiles into wilds (the wild kind's free copies).
    free_wilds = 3
    rng.shuffle(concealed)
    for index in range(min(wilds, free_wilds, len(concealed) - 1)):
        pool[concealed[index]] += 1
        concealed[index] = wild
    win_tile = rng.choice(concealed)
    by = "self_draw" if variant == "jiaxing" or rng.random() < 0.5 else "discard"
    if win_tile == wild:
        by = "self_draw"
    wall = [kind for kind in range(34) for _ in range(pool[kind]) if kind != wild]
    rng.shuffle(wall)
    players = []
    for seat in range(seats):
        if seat == winner:
            players.append(PlayerHand(tuple(concealed), tuple(melds)))
        else:
            players.append(PlayerHand(tuple(wall[:13])))
            del wall[:13]
    from_seat = None if by == "self_draw" else (winner + 1) % seats
    return WinContext(
        variant=variant,
        options=make_options(variant),
        seats=seats,
        indicator=indicator,
        wild=wild,
        dealer=rng.randrange(seats),
        winner=winner,
        win=WinInfo(tile=win_tile, by=by, from_seat=from_seat),
        players=tuple(players),
        carried_fan=rng.choice((0, 0, 1)),
    )


def make_corpus(seed: int, hands_per_variant: int) -> dict[str, list[WinContext]]:
    rng = random.Random(seed)
    corpus: dict[str, list[WinContext]] = {"jiaxing": [], "taizhou": []}
    for variant, hands in corpus.items():
        while len(hands) < hands_per_variant:
            ctx = make_hand(rng, variant, wilds=len(hands) % 4)
            if ctx is not None:
                hands.append(ctx)
    return corpus


def clear_caches() -> None:
    for cached in (decompose, jiaxing_summaries, taizhou_summaries):
        cached.cache_clear()


def _time_one(ctx: WinContext) -> float:
    start = time.perf_counter_ns()
    score_hand(ctx)
    return (time.perf_counter_ns() - start) / 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per variant")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    corpus = make_corpus(args.seed, args.hands)
    clear_caches()
    cold = {variant: [_time_one(ctx) for ctx in hands] for variant, hands in corpus.items()}
    warm: dict[str, list[float]] = {}
    by_wilds: dict[tuple[str, int], list[float]] = {}
    valid = {}
    for variant, hands in corpus.items():
        samples = []
        for index, ctx in enumerate(hands):
            best = statistics.median(_time_one(ctx) for _ in range(args.repeat))
            samples.append(best)
            by_wilds.setdefault((variant, index % 4), []).append(best)
        warm[variant] = samples
        valid[variant] = sum(score_hand(ctx).valid for ctx in hands)

    print(
        f"{'variant':<9} {'hands':>5} {'valid':>5} {'cold med µs':>12} {'median µs':>10} {'p90 µs':>8} {'max µs':>8}"
    )
    for variant in corpus:
        samples = sorted(warm[variant])
        print(
            f"{variant:<9} {len(samples):>5} {valid[variant]:>5} {statistics.median(cold[variant]):>12.1f} "
            f"{statistics.median(samples):>10.1f} {samples[int(len(samples) * 0.9)]:>8.1f} {samples[-1]:>8.1f}"
        )
    print(f"{'':<9} median µs by wilds held: 0 / 1 / 2 / 3")
    for variant in corpus:
        cells = " / ".join(f"{statistics.median(by_wilds[(variant, w)]):.1f}" for w in range(4))
        print(f"{variant:<9} {cells}")
    all_samples = warm["jiaxing"] + warm["taizhou"]
    summary = {
        "score_us": round(statistics.median(all_samples), 1),
        "score_us_jiaxing": round(statistics.median(warm["jiaxing"]), 1),
        "score_us_taizhou": round(statistics.median(warm["taizhou"]), 1),
        "score_us_cold": round(statistics.median(cold["jiaxing"] + cold["taizhou"]), 1),
        "score_us_p90": round(sorted(all_samples)[int(len(all_samples) * 0.9)], 1),
        "hands": len(all_samples),
    }
    print(f"overall median {summary['score_us']} µs per hand (target ≤ 300 µs)")
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
