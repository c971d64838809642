"""Routing benchmark: what a DM click for another process's table costs (issue 15).

    python3 benchmarks/bench_routing.py [--db postgresql://…] [--rate 50] [--seconds 10] [--json]

Two ``PostgresRouter``s (shard 0, which receives the clicks, and shard 1, which owns the
tables) on one PostgreSQL database; clicks arrive at shard 0 at ``--rate`` per second
(open loop: a slow click does not slow the next one down). Reported: ``publish_ms``, the
receiving side's work after its defer (store the click and NOTIFY, one transaction), and
``routed_ms``, from the start of the publish to the owner's handler running (the
notification's trip, the owner's ``UPDATE … RETURNING``). Both routers run in this one
process, as two bot processes would each run one. Without ``--db`` a throwaway cluster
is started from the installed PostgreSQL binaries (tests/pg_server.py) and removed.
With ``--json`` the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))

from bot.routing import PostgresRouter, RoutedClick  # noqa: E402
from data import open_store  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(dsn: str, rate: float, seconds: float) -> dict[str, float]:
    import asyncpg

    name = f"mj_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(dsn)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    url = f"{dsn.rpartition('/')[0]}/{name}"
    try:
        store = await open_store(url)  # migrates (0005: routed_interactions)
        await store.close()
        started: dict[int, float] = {}
        published: list[float] = []
        routed: list[float] = []
        done = asyncio.Event()
        total = int(rate * seconds)

        async def owner_handler(click: RoutedClick) -> None:
            routed.append((time.perf_counter() - started[click.interaction_id]) * 1000)
            if len(routed) == total:
                done.set()

        async def unused(_click: RoutedClick) -> None:
            raise AssertionError("nothing is routed to shard 0")

        receiver = PostgresRouter(url, [0])
        owner = PostgresRouter(url, [1])
        await receiver.start(unused)
        await owner.start(owner_handler)

        async def click(number: int) -> None:
            interaction_id = 4_000_000_000_000_000_000 + number
            started[interaction_id] = time.perf_counter()
            routed_click = RoutedClick(
                interaction_id,
                42,
                f"token{number}",
                7,
                "bench",
                number,
                {"type": "pass"},
                shard_id=1,
            )
            await receiver.publish(routed_click)
            published.append((time.perf_counter() - started[interaction_id]) * 1000)

        tasks = []
        begin = time.perf_counter()
        for number in range(total):
            delay = begin + number / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.ensure_future(click(number)))
        await asyncio.gather(*tasks)
        await asyncio.wait_for(done.wait(), timeout=60)
        await receiver.close()
        await owner.close()
    finally:
        admin = await asyncpg.connect(dsn)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    return {
        "clicks": float(total),
        "rate_per_s": rate,
        "publish_ms_p50": statistics.median(published),
        "publish_ms_p99": percentile(published, 0.99),
        "routed_ms_p50": statistics.median(routed),
        "routed_ms_p99": percentile(routed, 0.99),
        "routed_ms_max": max(routed),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=None, help="postgresql:// URL of a server (a database "
                        "is created and dropped); default: a throwaway cluster")  # fmt: skip
    parser.add_argument("--rate", type=float, default=50.0, help="clicks per second")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cluster = None
    dsn = args.db
    if dsn is None:
        from pg_server import start_cluster

        cluster = start_cluster()
        dsn = cluster.dsn
    try:
        result = asyncio.run(run(dsn, args.rate, args.seconds))
    finally:
        if cluster is not None:
            cluster.stop()
    print(f"{'routed DM clicks':<28}{int(result['clicks'])} at {result['rate_per_s']:.0f}/s")
    print(f"{'publish (receiver) ms':<28}p50 {result['publish_ms_p50']:.2f}  "
          f"p99 {result['publish_ms_p99']:.2f}")  # fmt: skip
    print(f"{'publish → owner ms':<28}p50 {result['routed_ms_p50']:.2f}  "
          f"p99 {result['routed_ms_p99']:.2f}  max {result['routed_ms_max']:.2f}")  # fmt: skip
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
