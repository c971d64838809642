"""Storage benchmark: settlements per second and the weekly leaderboard over a big ledger.

    python3 benchmarks/bench_storage.py [--rows 1000000] [--players 5000] [--hands 2000] [--json]
    python3 benchmarks/bench_storage.py --db postgresql://user@host/db [...]

Settlements are 4-row hands through ``Store.settle_hand`` (the real path: idempotency
check, balances, ledger rows, aggregates, one fsynced transaction each), sequentially
and with 50 concurrent callers, with ``synchronous=FULL`` (the default) and ``NORMAL``.
The leaderboard is ``Store.weekly_leaderboard`` for a week in the middle of a ledger of
``--rows`` rows over ``--players`` players and 52 weeks (median of repeated queries;
target <= 20 ms at 1,000,000 rows / 5,000 players). With ``--json`` the last line is
one JSON object with ``settlements_per_s`` and ``leaderboard_ms`` among its keys.

With ``--db postgresql://...`` the same store API runs on PostgreSQL (each measurement in
a schema of its own, dropped afterwards): ``settlements_per_s`` is then the rate of
``--writers`` (default 8) OS processes settling different hands of the same 50 players at
once, each with its own store, as N bot processes would; ``settlements_per_s_sequential``
is one caller and ``settlements_per_s_concurrent`` 50 callers in one process. Every run
ends by checking that each balance equals the sum of its ledger rows.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data import SettlementEntry, Store, next_month, open_store, settlement_entries
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
    directory: Path | None,
    rows: int,
    players: int,
    repeats: int,
    dsn: str | None = None,
    schema: str | None = None,
) -> dict[str, float]:
    if dsn is not None:
        opening = open_store(dsn, schema=schema)
    else:
        assert directory is not None
        opening = open_store(directory / "leaderboard.db", synchronous="NORMAL")
    async with await opening as store:
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
            # One rule set's board (/leaderboard variant): a week, a month, all time.
            "variant_leaderboard_ms": await timed_median(
                lambda: store.variant_leaderboard(GUILD, "taizhou", week, week + timedelta(days=7)),
                repeats,
            ),
            "variant_month_leaderboard_ms": await timed_median(
                lambda: store.variant_leaderboard(GUILD, "taizhou", month, next_month(month)),
                repeats,
            ),
            "variant_alltime_leaderboard_ms": await timed_median(
                lambda: store.variant_leaderboard(GUILD, "taizhou"), repeats
            ),
            # "And me?": one player's place on the week's and the all-time board.
            "place_week_ms": await timed_median(
                lambda: store.leaderboard_position(GUILD, 42, week_start=week), repeats
            ),
            "place_alltime_ms": await timed_median(
                lambda: store.leaderboard_position(GUILD, 42), repeats
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
        # ai_hands_on_boards off: the boards rebuilt from the ledger once, and one rule
        # set's month then read from the ledger (its per-day rows hold AI hands too).
        started = time.perf_counter()
        await store.update_settings(GUILD, ai_hands_on_boards=False)
        results["boards_setting_rebuild_s"] = time.perf_counter() - started
        results["variant_month_no_ai_leaderboard_ms"] = await timed_median(
            lambda: store.variant_leaderboard(GUILD, "taizhou", month, next_month(month)),
            max(3, repeats // 10),
        )
        await store.update_settings(GUILD, ai_hands_on_boards=True)
        if directory is not None:  # SQLite: a backup of the big file while hands settle
            results.update(await bench_backup(store, directory, players))
        assert await store.verify_balances() == []
    return results


async def bench_backup(store: Store, directory: Path, players: int) -> dict[str, float]:
    """``db backup`` of the loaded database (``data.backup``: online backup and its
    checks) in a thread, while the loop goes on settling hands as a running bot would."""
    from data.backup import backup_sqlite

    backup = asyncio.create_task(
        asyncio.to_thread(backup_sqlite, directory / "leaderboard.db", directory / "backup.db")
    )
    settled = 0
    started = time.perf_counter()
    while not backup.done():
        await store.settle_hand(
            GUILD, "during-backup", settled, hand_entries(settled, players), stake=5
        )
        settled += 1
    elapsed = time.perf_counter() - started
    report = await backup
    return {
        "backup_s": report.seconds,
        "backup_mb": report.size_bytes / 1e6,
        "settlements_per_s_during_backup": settled / elapsed,
    }


@asynccontextmanager
async def pg_schema(dsn: str, name: str) -> AsyncIterator[str]:
    """A fresh schema for one measurement, dropped afterwards."""
    import asyncpg

    schema = f"bench_{name}_{uuid.uuid4().hex[:8]}"
    try:
        yield schema
    finally:
        connection = await asyncpg.connect(dsn)
        try:
            await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        finally:
            await connection.close()


async def pg_settlements_in_process(dsn: str, hands: int, concurrency: int) -> float:
    async with (
        pg_schema(dsn, f"settle{concurrency}") as schema,
        await open_store(dsn, schema=schema) as store,
    ):
        for user in range(1, 51):
            await store.ensure_balance(GUILD, user)

        async def worker(offset: int) -> None:
            for number in range(offset, hands, concurrency):
                await store.settle_hand(GUILD, "bench", number, hand_entries(number), stake=10)

        started = time.perf_counter()
        await asyncio.gather(*(worker(offset) for offset in range(concurrency)))
        elapsed = time.perf_counter() - started
        assert await store.verify_balances() == []
    return hands / elapsed


def _writer_process(
    dsn: str, schema: str, offset: int, writers: int, hands: int, ready: Any, go: Any, out: Any
) -> None:
    """One writer process: open its own store, wait for the start, settle its hands."""

    async def run() -> tuple[int, int]:
        async with await open_store(dsn, schema=schema, pool_size=2) as store:
            ready.wait()
            go.wait()
            won = 0
            for number in range(offset, hands, writers):
                won += await store.settle_hand(
                    GUILD, "bench", number, hand_entries(number), stake=10
                )
            return won, store.retries  # type: ignore[attr-defined]

    out.put(asyncio.run(run()))


async def pg_settlements_processes(dsn: str, hands: int, writers: int) -> dict[str, float]:
    """``writers`` processes, each its own store, settling different hands of 50 players."""
    async with pg_schema(dsn, "writers") as schema:
        async with await open_store(dsn, schema=schema) as store:
            for user in range(1, 51):
                await store.ensure_balance(GUILD, user)
        context = multiprocessing.get_context("spawn")
        ready, go, out = context.Barrier(writers + 1), context.Barrier(writers + 1), context.Queue()
        processes = [
            context.Process(
                target=_writer_process, args=(dsn, schema, offset, writers, hands, ready, go, out)
            )
            for offset in range(writers)
        ]
        for process in processes:
            process.start()
        await asyncio.to_thread(ready.wait)
        started = time.perf_counter()
        await asyncio.to_thread(go.wait)
        results = [await asyncio.to_thread(out.get, True, 600) for _ in processes]
        elapsed = time.perf_counter() - started
        for process in processes:
            process.join()
        async with await open_store(dsn, schema=schema) as store:
            assert await store.verify_balances() == []
            assert sum(won for won, _ in results) == hands
            assert len(await store.settled_hands("bench")) == hands
    return {
        "settlements_per_s": hands / elapsed,
        "serialization_retries": float(sum(retries for _, retries in results)),
    }


async def pg_main(args: argparse.Namespace) -> dict[str, float]:
    dsn = args.db
    results: dict[str, float] = {}
    results.update(await pg_settlements_processes(dsn, args.hands, args.writers))
    results["settlements_per_s_sequential"] = await pg_settlements_in_process(dsn, args.hands, 1)
    results["settlements_per_s_concurrent"] = await pg_settlements_in_process(dsn, args.hands, 50)
    async with pg_schema(dsn, "board") as schema:
        results.update(
            await bench_leaderboard(None, args.rows, args.players, args.repeats, dsn, schema)
        )
    return results


async def main_async(args: argparse.Namespace) -> dict[str, float]:
    if args.db:
        return await pg_main(args)
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


def pg_rows(args: argparse.Namespace, results: dict[str, float]) -> list[tuple[str, float, str]]:
    return [
        (f"settlements/s, {args.writers} writer processes", results["settlements_per_s"], "{:,.0f}"),
        ("  serialization failures retried", results["serialization_retries"], "{:,.0f}"),
        ("settlements/s, sequential", results["settlements_per_s_sequential"], "{:,.0f}"),
        ("settlements/s, 50 callers in one process", results["settlements_per_s_concurrent"], "{:,.0f}"),
        ("settlements/s on the loaded database", results["settlements_per_s_big_db_normal"], "{:,.0f}"),
        (f"ledger rows loaded ({args.players:,} players, 52 weeks)", results["ledger_rows"], "{:,.0f}"),
        ("bulk load + aggregate rebuild, s", results["load_s"], "{:.1f}"),
        ("weekly leaderboard, median ms (target <= 20)", results["leaderboard_ms"], "{:.2f}"),
        ("weekly leaderboard by weeks_ago, median ms", results["leaderboard_weeks_ago_ms"], "{:.2f}"),
        ("all-time leaderboard, median ms", results["alltime_leaderboard_ms"], "{:.2f}"),
        ("one rule set's week, median ms", results["variant_leaderboard_ms"], "{:.2f}"),
        ("one rule set's month, median ms", results["variant_month_leaderboard_ms"], "{:.2f}"),
        ("  the same, AI hands kept off the boards, ms", results["variant_month_no_ai_leaderboard_ms"], "{:.1f}"),
        ("ai_hands_on_boards changed: boards rebuilt, s", results["boards_setting_rebuild_s"], "{:.2f}"),
        ("one rule set, all time, median ms", results["variant_alltime_leaderboard_ms"], "{:.2f}"),
        ("a player's place on the week, median ms", results["place_week_ms"], "{:.2f}"),
        ("a player's place, all time, median ms", results["place_alltime_ms"], "{:.2f}"),
        ("history (last 10 hands), median ms", results["history_ms"], "{:.2f}"),
        ("same week from raw ledger rows (no aggregate), ms", results["ledger_scan_leaderboard_ms"], "{:.1f}"),
    ]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="ledger rows to load")
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--hands", type=int, default=2000, help="hands to settle per run")
    parser.add_argument("--repeats", type=int, default=50, help="leaderboard queries to time")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="postgresql://... to measure PostgreSQL (default: SQLite files)")  # fmt: skip
    parser.add_argument("--writers", type=int, default=8,
                        help="PostgreSQL: concurrent writer processes (default 8)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args()
    if args.db and not args.db.startswith(("postgresql://", "postgres://")):
        parser.error("--db takes a postgresql:// URL (without it, SQLite files are measured)")
    results = asyncio.run(main_async(args))
    rows = (
        pg_rows(args, results)
        if args.db
        else [
            (
                "settlements/s, sequential, synchronous=FULL",
                results["settlements_per_s"],
                "{:,.0f}",
            ),
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
            ("db backup of the loaded database, s", results["backup_s"], "{:.1f}"),
            ("  its size, MB", results["backup_mb"], "{:.0f}"),
            (
                "  settlements/s meanwhile, NORMAL",
                results["settlements_per_s_during_backup"],
                "{:,.0f}",
            ),
            ("weekly leaderboard, median ms (target <= 20)", results["leaderboard_ms"], "{:.2f}"),
            (
                "weekly leaderboard by weeks_ago, median ms",
                results["leaderboard_weeks_ago_ms"],
                "{:.2f}",
            ),
            ("all-time leaderboard, median ms", results["alltime_leaderboard_ms"], "{:.2f}"),
            ("one rule set's week, median ms", results["variant_leaderboard_ms"], "{:.2f}"),
            ("one rule set's month, median ms", results["variant_month_leaderboard_ms"], "{:.2f}"),
            (
                "  the same, AI hands kept off the boards, ms",
                results["variant_month_no_ai_leaderboard_ms"],
                "{:.1f}",
            ),
            (
                "ai_hands_on_boards changed: boards rebuilt, s",
                results["boards_setting_rebuild_s"],
                "{:.2f}",
            ),
            (
                "one rule set, all time, median ms",
                results["variant_alltime_leaderboard_ms"],
                "{:.2f}",
            ),
            ("a player's place on the week, median ms", results["place_week_ms"], "{:.2f}"),
            ("a player's place, all time, median ms", results["place_alltime_ms"], "{:.2f}"),
            ("history (last 10 hands), median ms", results["history_ms"], "{:.2f}"),
            (
                "/stats card figures, all time, median ms (target <= 20)",
                results["stats_ms"],
                "{:.2f}",
            ),
            ("/stats card, one month and rule set, median ms", results["stats_month_ms"], "{:.2f}"),
            (
                "same week from raw ledger rows (no aggregate), ms",
                results["ledger_scan_leaderboard_ms"],
                "{:.1f}",
            ),
        ]
    )
    width = max(len(label) for label, _, _ in rows)
    if args.db:
        print(f"PostgreSQL at {args.db.rsplit('@', 1)[-1]}")
    for label, value, pattern in rows:
        print(f"{label:<{width}}  {pattern.format(value):>12}")
    if args.json:
        print(json.dumps({key: round(value, 3) for key, value in results.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
