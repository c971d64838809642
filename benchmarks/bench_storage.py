"""Storage benchmark: settlements per second and the weekly leaderboard over a big ledger.

    python3 benchmarks/bench_storage.py [--rows 1000000] [--players 5000] [--hands 2000] [--json]

Settlements are 4-row hands through ``Store.settle_hand`` (the real path: idempotency
check, balances, ledger rows, aggregates, one fsynced transaction each), sequentially
and with 50 concurrent callers, with ``synchronous=FULL`` (the default) and ``NORMAL``.
The leaderboard is ``Store.weekly_leaderboard`` for a week in the middle of a ledger of
``--rows`` rows over ``--players`` players and 52 weeks (median of repeated queries;
target <= 20 ms at 1,000,000 rows / 5,000 players). With ``--json`` the last line is
one JSON object with ``settlements_per_s`` and ``leaderboard_ms`` among its keys.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data import SettlementEntry, Store, next_month, settlement_entries
from data.synthetic import load_synthetic_ledger, weekly_leaderboard_from_ledger

GUILD = 1
END = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def hand_entries(number: int, players: int = 50) -> list[SettlementEntry]:
    users = [1 + (number * 7 + seat * 13) % players for seat in range(4)]
    units = [-(number % 5 + 1)] * 4
    winner = number % 4
    units[winner] = 3 * (number % 5 + 1)
    return settlement_entries(units, users, winner)


async def bench_settlements(
    directory: Path, hands: int, synchronous: str, concurrency: int
) -> float:
    """Settlements per second through the real API."""
    path = directory / f"settle-{synchronous}-{concurrency}.db"
    async with await Store.open(path, synchronous=synchronous) as store:
        for user in range(1, 51):  # open the balances first: measure steady-state hands
            await store.ensure_balance(GUILD, user)
        started = time.perf_counter()
        if concurrency == 1:
            for number in range(hands):
                await store.settle_hand(GUILD, "bench", number, hand_entries(number), stake=10)
        else:

            async def worker(offset: int) -> None:
                for number in range(offset, hands, concurrency):
                    await store.settle_hand(GUILD, "bench", number, hand_entries(number), stake=10)

            await asyncio.gather(*(worker(offset) for offset in range(concurrency)))
        elapsed = time.perf_counter() - started
        assert await store.verify_balances() == []
    return hands / elapsed


async def timed_median(call, repeats: int) -> float:
    """Median wall time of ``call()`` in milliseconds (after one warm-up)."""
    await call()
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


async def bench_leaderboard(
    directory: Path, rows: int, players: int, repeats: int
) -> dict[str, float]:
    path = directory / "leaderboard.db"
    async with await Store.open(path, synchronous="NORMAL") as store:
        started = time.perf_counter()
        hands = await load_synthetic_ledger(
            store, guild_id=GUILD, rows=rows, players=players, weeks=52, seed=1, end=END
        )
        load_s = time.perf_counter() - started
        week = (await store.week_bounds(GUILD, weeks_ago=26, now=END)).week_start
        month = await store.month_start(GUILD, 1, now=END)
        board = await store.weekly_leaderboard(GUILD, week_start=week)
        scan = await weekly_leaderboard_from_ledger(store, GUILD, week)
        assert [(r.user_id, r.net, r.hands, r.wins, r.biggest) for r in board] == scan
        results = {
            "ledger_rows": hands * 4,
            "load_s": load_s,
            "leaderboard_ms": await timed_median(
                lambda: store.weekly_leaderboard(GUILD, week_start=week), repeats
            ),
            "leaderboard_weeks_ago_ms": await timed_median(
                lambda: store.weekly_leaderboard(GUILD, weeks_ago=1, now=END), repeats
            ),
            "alltime_leaderboard_ms": await timed_median(
                lambda: store.alltime_leaderboard(GUILD), repeats
            ),
            "history_ms": await timed_median(lambda: store.history(GUILD, 42, limit=10), repeats),
            # One /stats card: every figure, the biggest hand, the top types and the trend.
            "stats_ms": await timed_median(lambda: store.player_card_stats(GUILD, 42), repeats),
            "stats_month_ms": await timed_median(
                lambda: store.player_card_stats(
                    GUILD, 42, variant="taizhou", first_day=month, end_day=next_month(month)
                ),
                repeats,
            ),
            "ledger_scan_leaderboard_ms": await timed_median(
                lambda: weekly_leaderboard_from_ledger(store, GUILD, week), max(3, repeats // 10)
            ),
        }
        # A settlement on the big database (aggregates and indexes are larger now).
        started = time.perf_counter()
        for number in range(200):
            await store.settle_hand(
                GUILD, "after-load", number, hand_entries(number, players), stake=5
            )
        results["settlements_per_s_big_db_normal"] = 200 / (time.perf_counter() - started)
    return results


async def main_async(args: argparse.Namespace) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-storage-") as name:
        directory = Path(name)
        results: dict[str, float] = {
            "settlements_per_s": await bench_settlements(directory, args.hands, "FULL", 1),
            "settlements_per_s_concurrent": await bench_settlements(
                directory, args.hands, "FULL", 50
            ),
            "settlements_per_s_normal": await bench_settlements(directory, args.hands, "NORMAL", 1),
        }
        results.update(await bench_leaderboard(directory, args.rows, args.players, args.repeats))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="ledger rows to load")
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--hands", type=int, default=2000, help="hands to settle per run")
    parser.add_argument("--repeats", type=int, default=50, help="leaderboard queries to time")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args()
    results = asyncio.run(main_async(args))
    rows = [
        ("settlements/s, sequential, synchronous=FULL", results["settlements_per_s"], "{:,.0f}"),
        (
            "settlements/s, 50 concurrent callers, FULL",
            results["settlements_per_s_concurrent"],
            "{:,.0f}",
        ),
        (
            "settlements/s, sequential, synchronous=NORMAL",
            results["settlements_per_s_normal"],
            "{:,.0f}",
        ),
        (
            "settlements/s on the loaded database, NORMAL",
            results["settlements_per_s_big_db_normal"],
            "{:,.0f}",
        ),
        (
            f"ledger rows loaded ({args.players:,} players, 52 weeks)",
            results["ledger_rows"],
            "{:,.0f}",
        ),
        ("bulk load + aggregate rebuild, s", results["load_s"], "{:.1f}"),
        ("weekly leaderboard, median ms (target <= 20)", results["leaderboard_ms"], "{:.2f}"),
        (
            "weekly leaderboard by weeks_ago, median ms",
            results["leaderboard_weeks_ago_ms"],
            "{:.2f}",
        ),
        ("all-time leaderboard, median ms", results["alltime_leaderboard_ms"], "{:.2f}"),
        ("history (last 10 hands), median ms", results["history_ms"], "{:.2f}"),
        ("/stats card figures, all time, median ms (target <= 20)", results["stats_ms"], "{:.2f}"),
        ("/stats card, one month and rule set, median ms", results["stats_month_ms"], "{:.2f}"),
        (
            "same week from raw ledger rows (no aggregate), ms",
            results["ledger_scan_leaderboard_ms"],
            "{:.1f}",
        ),
    ]
    width = max(len(label) for label, _, _ in rows)
    for label, value, pattern in rows:
        print(f"{label:<{width}}  {pattern.format(value):>12}")
    if args.json:
        print(json.dumps({key: round(value, 3) for key, value in results.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
