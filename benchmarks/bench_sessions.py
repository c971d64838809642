"""How many tables can one bot process host at human pace?

Setup: N tables, each with four AI seats, in ONE process and one event loop, on the
SQLite store (a temp file in WAL mode with ``synchronous=NORMAL``: a commit survives a
killed process, which is what the crash tests demand, but not a power cut; ``--synchronous
FULL``, the store's default, fsyncs every commit and is bounded by the disk), with the real ``SystemClock`` and ``ai_delay=1.0``: every seat that
must act is due one second after the previous action, i.e. each table acts about once
per second, like people do. Tables are started evenly spread over the first second so
their seconds do not all tick at the same instant (which no real server sees either).
The presenter counts calls and does nothing else: rendering and Discord I/O are not the
session's cost. Unless ``--no-tune``, the process runs ``bot.session.tune_runtime()``
(GC freeze and thresholds, a 0.5 ms GIL switch interval) as the bot does after start-up.
``--ai-jitter J`` spreads each AI pause over 1 s × (1 ± J) (default 0: a metronome, the
worst case for convoys of tables that a group commit released together; the session
counts each pause from when the previous action was due, which keeps tables apart).

Per action we measure the latency from its due time to the moment it was stored,
applied, settled if it ended a hand, and announced to the presenter — the delay a
player would notice on top of the one-second "thinking" pause. Nothing is compressed:
a run of ``--seconds`` measures that many real seconds after ``--warmup``.

The default window (2 s warm-up, 8 s measured) ends before the first hands do (a hand
is ~100 actions, so ~100 s at this pace): it measures the steady play, not settlement
(``hands settled`` says how many fell in the window) nor the rare young-generation GC
collection (one every ~15 s at 1,000 tables, each walking every table's live views:
~50-120 ms). ``--warmup 60 --seconds 120`` includes both.

Reported: p50/p99 latency and actions per second at 100 and 1,000 tables, and the
largest table count whose p99 stays at or under 100 ms (a step search: doubling up
from 1,000 or halving down, then a bisection between the last good and first bad
counts). ``--json`` prints one JSON object on the last line with ``p99_ms_100``,
``p99_ms_1000``, ``actions_per_s_1000``, ``max_tables_p99_100ms`` and
``cpu_ms_per_action`` (the process's CPU time over the 1,000-table window, every thread,
divided by the actions finished in it: robust to a shared machine, unlike latency),
beside ``host_ref_us``, the µs this host took for ``sum(range(10000))`` around the run
(the host's own speed varies by a third between hours here; compare CPU figures only
with similar references).

``--processes N --db TARGET`` runs N OS processes of 1,000 tables each (``--only`` sets
another count) against one database, as sharded bot processes share one (issue 15):
TARGET is a SQLite file or a ``postgresql://`` URL (opened through ``data.open_store``);
the summary reports ``p99_ms_<N>x1000``, the worst process's p99.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import bot.journal  # noqa: E402
import data  # noqa: E402
from bot.presenter import LobbyInfo, PrivatePrompt, TableStatus, Text  # noqa: E402
from bot.session import SystemClock, TableManager, tune_runtime  # noqa: E402
from data import Store  # noqa: E402
from engine.types import HandResult  # noqa: E402

GUILD = 1
# Channel and user ids of process k of ``--processes`` start at k × this (after a random
# base per run), so processes sharing one database, and runs reusing one, never collide
# on a channel's one table.
ID_STRIDE = 1_000_000
DEFAULT_GC_THRESHOLDS = gc.get_threshold()
DEFAULT_SWITCH_INTERVAL = sys.getswitchinterval()


class CountingPresenter:
    """Counts what it is told; a real presenter's cost is its own benchmark's business."""

    def __init__(self) -> None:
        self.calls = 0
        self.hands = 0  # hands ended (and settled: the session settles before it says so)

    async def lobby_changed(self, lobby: LobbyInfo) -> None:
        self.calls += 1

    async def table_changed(self, status: TableStatus) -> None:
        self.calls += 1

    async def private_hand(self, prompt: PrivatePrompt) -> None:
        self.calls += 1

    async def hand_result(self, status: TableStatus, result: HandResult, points: list[int]) -> None:
        self.calls += 1
        self.hands += 1

    async def match_result(self, status: TableStatus, totals: list[int], points: list[int]) -> None:
        self.calls += 1

    async def notice(self, table_id: str, channel_id: int, text: Text) -> None:
        self.calls += 1

    async def withdraw_notice(self, table_id: str, channel_id: int, text: Text) -> None:
        self.calls += 1

    async def error(self, user_id: int, text: Text) -> None:
        self.calls += 1


async def open_target(target: str, synchronous: str) -> Store:
    """The store for ``--db``: ``data.open_store`` when the tree has it (a
    ``postgresql://`` URL opens PostgreSQL there), else a SQLite file."""
    opener = getattr(data, "open_store", None)
    if opener is not None:
        return await opener(target, synchronous=synchronous)
    if "://" in target:
        raise SystemExit(f"bench_sessions: this tree cannot open {target!r} (no data.open_store)")
    return await Store.open(target, synchronous=synchronous)


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


async def run_tables(
    tables: int,
    *,
    seconds: float,
    warmup: float,
    ai_level: str,
    synchronous: str,
    variant: str,
    ai_jitter: float,
    tune: bool,
    db: str | None = None,
    commit_interval: float | None = None,
    process_index: int = 0,
    id_base: int = 0,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-sessions-") as folder:
        database = db if db is not None else os.path.join(folder, "bench.db")
        store = await open_target(database, synchronous)
        guild = GUILD + process_index
        first_id = id_base + process_index * ID_STRIDE
        presenter = CountingPresenter()
        # The journal's group-commit interval as the bot sets it (a tree without one: none).
        spacing: dict[str, float] = (
            {"journal_commit_interval": commit_interval} if commit_interval is not None else {}
        )
        manager = TableManager(
            store,
            presenter,
            SystemClock(),
            ai_delay=1.0,
            ai_level=ai_level,
            ai_delay_jitter=ai_jitter,
            **spacing,
        )
        latencies: list[float] = []
        window = {"start": float("inf"), "end": float("inf")}

        def observe(table_id: str, due: float, done: float) -> None:
            if window["start"] <= done <= window["end"]:
                latencies.append(done - due)

        manager.action_observer = observe
        if tune:  # as the bot does after start-up; again below once the tables exist
            tune_runtime()
        loop_start = time.time()
        sessions = []
        for index in range(tables):
            session = await manager.create_table(
                guild,
                first_id + index + 1,
                first_id + 10_000 + index,
                "host",
                variant=variant,
                seed=index,
                seat_host=False,
            )
            sessions.append(session)
        spread = 1.0 / tables
        # Start evenly over one second.
        for index, session in enumerate(sessions):
            target = time.time() + spread
            await session.start(first_id + 10_000 + index)
            delay = target - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
        setup_seconds = time.time() - loop_start
        window["start"] = time.time() + warmup
        window["end"] = window["start"] + seconds
        if tune:
            tune_runtime()
        else:
            gc.collect()
        await asyncio.sleep(warmup)
        hands_before = presenter.hands
        cpu_before = time.process_time()
        await asyncio.sleep(seconds)
        cpu_seconds = time.process_time() - cpu_before
        hands_settled = presenter.hands - hands_before
        finished = sum(1 for session in sessions if session.status == "finished")
        await manager.shutdown()
        await store.close()
        journal = manager.journal
    if tune:  # the next run starts from the interpreter's defaults again
        gc.unfreeze()
        gc.set_threshold(*DEFAULT_GC_THRESHOLDS)
        sys.setswitchinterval(DEFAULT_SWITCH_INTERVAL)
    return {
        "tables": tables,
        "actions": len(latencies),
        "actions_per_s": len(latencies) / seconds,
        # The process's CPU time (every thread) over the window per action finished in it:
        # what an action costs, whatever else runs on the machine.
        "cpu_ms_per_action": cpu_seconds * 1000 / len(latencies) if latencies else float("nan"),
        "p50_ms": _percentile(latencies, 0.50) * 1000,
        "p99_ms": _percentile(latencies, 0.99) * 1000,
        "max_ms": (max(latencies) if latencies else float("nan")) * 1000,
        "mean_ms": (statistics.fmean(latencies) if latencies else float("nan")) * 1000,
        "setup_s": setup_seconds,
        "matches_finished": finished,
        "hands_settled": hands_settled,
        "rows_per_commit": journal.rows / journal.batches if journal.batches else float("nan"),
    }


def host_reference_us() -> float:
    """µs for a fixed piece of pure Python (``sum(range(10000))``, best of five): the
    host's speed at the time of a run. Why: this shared machine's speed varies by a
    third between hours, and CPU per action moves with it; a figure is comparable with
    another only beside this one."""
    timings = timeit.repeat("sum(range(10000))", number=200, repeat=5, timer=time.process_time)
    return min(timings) / 200 * 1e6  # CPU time, as the figure it stands beside


def measure(tables: int, args: argparse.Namespace) -> dict[str, Any]:
    reference_before = host_reference_us()
    row = asyncio.run(
        run_tables(
            tables,
            seconds=args.seconds,
            warmup=args.warmup,
            ai_level=args.ai_level,
            synchronous=args.synchronous,
            variant=args.variant,
            ai_jitter=args.ai_jitter,
            tune=not args.no_tune,
            db=args.db,
            commit_interval=args.commit_interval,
            process_index=args.process_index,
            id_base=args.id_base,
        )
    )
    row["host_ref_us"] = (reference_before + host_reference_us()) / 2
    print(
        f"{row['tables']:>6} tables  {row['actions_per_s']:>8.1f} actions/s  "
        f"p50 {row['p50_ms']:>8.2f} ms  p99 {row['p99_ms']:>8.2f} ms  "
        f"cpu {row['cpu_ms_per_action']:.3f} ms/action  "
        f"max {row['max_ms']:>8.2f} ms  ({row['rows_per_commit']:.1f} rows/commit, "
        f"{row['hands_settled']} hands settled, "
        f"setup {row['setup_s']:.1f} s, host reference {row['host_ref_us']:.0f} µs)",
        flush=True,
    )
    return row


def search_max(args: argparse.Namespace, known: dict[int, dict[str, Any]], limit_ms: float) -> int:
    """Largest table count with p99 <= limit_ms: step by doubling/halving, then bisect."""

    def ok(count: int) -> bool:
        if count not in known:
            known[count] = measure(count, args)
        return known[count]["p99_ms"] <= limit_ms

    good, bad = 0, None
    count = 1000
    while True:
        if ok(count):
            good = count
            if count >= args.max_tables:
                return good
            count = min(args.max_tables, count * 2)
            if bad is not None and count >= bad:
                break
        else:
            bad = count
            if count <= 100 or good:
                break
            count //= 2
    if bad is None:
        return good
    lo, hi = good, bad
    for _ in range(args.bisect_steps):
        if hi - lo <= max(25, lo // 20):
            break
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def run_processes(args: argparse.Namespace, tables: int) -> dict[str, Any]:
    """``--processes N``: N bot processes of ``tables`` tables each against one database
    (``--db``, else a fresh SQLite file), started together; each reports its own run.

    The database is opened (migrated) once here first, so the processes do not race to
    create the schema. Why separate OS processes: that is how the bot scales past one core
    (issue 15), and what they share is exactly the database."""
    with tempfile.TemporaryDirectory(prefix="bench-sessions-procs-") as folder:
        target = args.db or os.path.join(folder, "shared.db")

        async def prepare() -> None:
            store = await open_target(target, args.synchronous)
            await store.close()

        asyncio.run(prepare())
        command = [
            sys.executable, str(Path(__file__).resolve()), "--only", str(tables), "--json",
            "--db", target, "--seconds", str(args.seconds), "--warmup", str(args.warmup),
            "--ai-level", args.ai_level, "--variant", args.variant,
            "--synchronous", args.synchronous, "--ai-jitter", str(args.ai_jitter),
        ]  # fmt: skip
        if args.commit_interval is not None:
            command += ["--commit-interval", str(args.commit_interval)]
        if args.no_tune:
            command.append("--no-tune")
        id_base = secrets.randbelow(1 << 30) * ID_STRIDE * 64
        children = [
            subprocess.Popen(
                [*command, "--process-index", str(index), "--id-base", str(id_base)],
                stdout=subprocess.PIPE,
                text=True,
            )
            for index in range(args.processes)
        ]
        rows = []
        for index, child in enumerate(children):
            out, _ = child.communicate()
            if child.returncode != 0:
                raise SystemExit(f"bench_sessions: process {index} failed ({child.returncode})")
            rows.append(json.loads(out.strip().splitlines()[-1]))
    for index, row in enumerate(rows):
        print(
            f"process {index}: {row['tables']} tables  {row['actions_per_s']:.1f} actions/s  "
            f"p99 {row['p99_ms']:.2f} ms  cpu {row['cpu_ms_per_action']:.3f} ms/action",
            flush=True,
        )
    return {
        f"p99_ms_{args.processes}x{tables}": round(max(row["p99_ms"] for row in rows), 3),
        "actions_per_s_total": round(sum(row["actions_per_s"] for row in rows), 1),
        "cpu_ms_per_action": round(statistics.fmean(r["cpu_ms_per_action"] for r in rows), 4),
        "db": "postgresql" if "://" in target else "sqlite",
        "processes": [
            {key: round(v, 3) if isinstance(v, float) else v for key, v in row.items()}
            for row in rows
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="JSON summary on the last line")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--ai-level", choices=("easy", "normal"), default="easy")
    parser.add_argument("--variant", choices=("jiaxing", "taizhou"), default="jiaxing")
    parser.add_argument(
        "--synchronous",
        choices=("FULL", "NORMAL"),
        default="NORMAL",
        help="SQLite durability: NORMAL (WAL, survives a killed process; the default here) "
        "or FULL (the store's default: an fsync per commit, ~220 commits/s on this disk)",
    )
    parser.add_argument("--max-tables", type=int, default=8000)
    parser.add_argument("--bisect-steps", type=int, default=3)
    parser.add_argument("--no-search", action="store_true", help="only 100 and 1,000 tables")
    parser.add_argument(
        "--only", type=int, default=None, help="measure just this many tables (for profiling)"
    )
    parser.add_argument(
        "--ai-jitter",
        type=float,
        default=0.0,
        help="spread each AI pause over 1 s × (1 ± JITTER) (TableManager ai_delay_jitter)",
    )
    parser.add_argument(
        "--no-tune",
        action="store_true",
        help="keep the interpreter's GC and GIL defaults (skip bot.session.tune_runtime)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="database target (a SQLite file, or a postgresql:// URL through "
        "data.open_store); default: a fresh SQLite file in a temp folder per run",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="run this many OS processes of 1,000 tables (or --only) against one --db and "
        "report p99_ms_<N>x<tables> (the worst process)",
    )
    parser.add_argument(
        "--commit-interval",
        type=float,
        default=getattr(bot.journal, "BOT_COMMIT_INTERVAL", None),
        help="least seconds between two journal group commits (default: the bot's)",
    )
    parser.add_argument("--process-index", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--id-base", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.id_base is None:  # a reused --db must not meet last run's tables
        args.id_base = secrets.randbelow(1 << 30) * ID_STRIDE * 64 if args.db else 0
    database = (
        "PostgreSQL" if args.db and "://" in args.db else f"SQLite synchronous={args.synchronous}"
    )

    print(
        f"bench_sessions: 4 AI seats per table ({args.ai_level}), {args.variant}, one action per "
        f"table per second, {database}, {args.seconds:g} s measured "
        f"after {args.warmup:g} s warm-up, AI pause jitter ±{args.ai_jitter:g}, "
        + (
            f"journal commits ≥ {args.commit_interval * 1000:g} ms apart, "
            if args.commit_interval
            else ""
        )
        + ("interpreter defaults" if args.no_tune else "tune_runtime()"),
        flush=True,
    )
    known: dict[int, dict[str, Any]] = {}
    if args.processes:
        summary = run_processes(args, args.only or 1000)
        if args.json:
            print(json.dumps(summary))
        return 0
    if args.only is not None:
        row = measure(args.only, args)
        if args.json:  # one run's row (what ``--processes`` reads from each process)
            print(json.dumps(row))
        return 0
    for count in (100, 1000):
        known[count] = measure(count, args)
    best = None if args.no_search else search_max(args, known, 100.0)
    summary = {
        "p50_ms_100": round(known[100]["p50_ms"], 3),
        "p99_ms_100": round(known[100]["p99_ms"], 3),
        "actions_per_s_100": round(known[100]["actions_per_s"], 1),
        "p50_ms_1000": round(known[1000]["p50_ms"], 3),
        "p99_ms_1000": round(known[1000]["p99_ms"], 3),
        "actions_per_s_1000": round(known[1000]["actions_per_s"], 1),
        "cpu_ms_per_action": round(known[1000]["cpu_ms_per_action"], 4),
        "cpu_ms_per_action_100": round(known[100]["cpu_ms_per_action"], 4),
        "host_ref_us": round(known[1000]["host_ref_us"], 1),
        "max_tables_p99_100ms": best,
        "ai_level": args.ai_level,
        "synchronous": args.synchronous,
        "ai_jitter": args.ai_jitter,
        "commit_interval": args.commit_interval,
        "tune_runtime": not args.no_tune,
        "runs": {
            str(k): {key: round(v, 3) if isinstance(v, float) else v for key, v in row.items()}
            for k, row in sorted(known.items())
        },
    }
    print(f"largest table count with p99 <= 100 ms: {best}")
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
