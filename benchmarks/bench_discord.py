"""Discord API requests per turn at a four-human table, and interaction ack latency.

Runs whole matches through the offline harness (``tests/discord_harness.py``: real
discord.py dispatch and HTTP client, answered by a strict fake Discord that validates every
request against Discord's OpenAPI spec and documented limits), four humans
playing from their DM hands, the real Pillow renderer. Every request the bot makes counts:
interaction callbacks, DM sends and edits, table edits, result posts.

- ``requests_per_turn``: requests made while the match runs / accepted actions (turns).
  Humans "think" ``--think`` seconds of (fake) time per move; table edits are coalesced
  to one per channel per 1.5 s, so a faster table costs fewer requests per turn.
- ``ack_p99_ms``: real time from dispatching an interaction to its acknowledging
  callback (render included when the click is answered with the new hand).
- ``requests_per_hand``: the same requests per hand played. The table runs in its own
  thread (the bot has the thread permissions), where the live table message is sent
  anew below each result; ``--no-threads`` runs it in the channel, as without them.
- Turn alerts are on (the default): every alert DM and its deletion is a request and
  counts in ``requests_per_turn``; ``alerts_per_turn`` says how many were sent. Players
  who answer within the alert delay (5 s, or half the prompt's time for one who clicked
  in the last minute) get none, so the first player looks away for ``--slow`` seconds,
  or just past half the prompt's time if longer, before each move (and is alerted every
  time). So do the
  result cards on the DM hands after each hand.
- ``claim_wait_s_per_hand``: (fake) seconds per hand that a table waits on claim prompts
  to humans (a claim window open with a human still to answer), measured in a second run
  of the same matches in which every human has auto-pass "always" and auto-win on (a win
  is still offered with auto-pass alone, so without auto-win a table would wait on that
  prompt); ``claim_wait_s_per_hand_manual`` is the same measure in the first run, where
  the humans answer every claim prompt themselves.

Usage: ``python benchmarks/bench_discord.py [--matches 3] [--think 2.0] [--no-threads] [--json]``
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from discord_harness import (  # noqa: E402
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    Harness,
    choose_move,
    option,
)

from bot.app import MahjongBot  # noqa: E402
from bot.session import FakeClock  # noqa: E402
from data import Store  # noqa: E402

PLAYERS = {800_000_000_000_000_100 + i: (f"player{i}", DEFAULT_PERMISSIONS) for i in range(4)}


async def play_match(
    variant: str,
    seed: int,
    think: float,
    db: Path,
    threads: bool = True,
    *,
    shortcuts: bool = False,
    slow: float | None = None,
) -> dict[str, object]:
    clock = FakeClock()
    store = await Store.open(db)
    if shortcuts:  # as if each had pressed the buttons on an earlier hand
        for user in PLAYERS:
            await store.set_user_pref(user, "auto_pass", "always")
            await store.set_user_pref(user, "auto_win", True)
    bot = MahjongBot(store, clock=clock, ai_delay=0.0, leaderboard_interval=None,
                     seeds=itertools.count(seed))  # fmt: skip
    harness = Harness(bot, PLAYERS, clock, threads=threads)
    try:
        await harness.start()
        users = list(PLAYERS)
        await harness.command(users[0], "table create", [option("variant", variant),
                                                        option("ai_fill", False)])  # fmt: skip
        for user in users[1:]:
            await harness.command(user, "table join")
        await harness.command(users[0], "table start")
        table = bot.manager.table_of_user(users[0])  # in its thread, or in CHANNEL_ID
        assert table is not None and table.match is not None
        assert (table.channel_id != CHANNEL_ID) == threads
        start_requests = len(harness.remote.requests)
        start_acks = len(harness.ack_latencies())
        idle_steps = 0
        claim_wait = 0.0

        async def think_for(seconds: float) -> None:
            """Advance the clock; the time counts as claim wait while a claim window
            waits on a human."""
            nonlocal claim_wait
            match = table.match
            if table.status == "running" and match is not None and not match.finished:
                round_ = match.round
                humans = {table.seat_of(user) for user in users}
                if round_.phase in ("claim", "rob_kong") and humans & set(round_.waiting_on):
                    claim_wait += seconds
            await harness.advance(seconds)

        while table.status == "running" and idle_steps < 200:
            moved = False
            for user in users:
                message = harness.latest_dm(user)
                move = choose_move(message) if message is not None else None
                if move is None or table.status != "running":
                    continue
                prompt = table.prompt_for(user)
                if prompt is None or prompt.kind == "idle":
                    continue
                if slow is not None and user == users[0]:
                    # Looking away: their prompt waits past its alert (at half its time
                    # for a player who clicked lately), so an alert goes every time.
                    deadline = prompt.deadline if prompt.deadline is not None else clock.now()
                    await think_for(max(slow, (deadline - clock.now()) / 2 + 0.5))
                    message = harness.latest_dm(user)
                    move = choose_move(message) if message is not None else None
                    prompt = table.prompt_for(user)
                    if move is None or prompt is None or prompt.kind == "idle":
                        continue  # timed out meanwhile (played for them)
                await harness.click(user, message, move[0], move[1])  # type: ignore[arg-type]
                await think_for(think)
                moved = True
            idle_steps = 0 if moved else idle_steps + 1
            if not moved:
                await think_for(think)
        await harness.advance(5)
        turns = table.match.turn_id
        requests = harness.remote.requests[start_requests:]
        kinds = Counter(_kind(r) for r in requests)
        return {
            "turns": turns,
            "hands": len(table.match.results),
            "requests": len(requests),
            "kinds": kinds,
            "acks": harness.ack_latencies()[start_acks:],
            "finished": table.status == "finished",
            "claim_wait": claim_wait,
        }
    finally:
        await harness.close()
        await store.close()


def _kind(request: object) -> str:
    callback = getattr(request, "callback_type", None)
    if callback is not None:
        return {4: "reply", 5: "defer", 6: "defer-update", 7: "update-with-hand",
                8: "autocomplete"}.get(callback, f"callback-{callback}")  # fmt: skip
    audience = getattr(request, "audience", None)
    where = audience.kind if audience is not None else "api"
    method = getattr(request, "method", "?")
    path = getattr(request, "path", "")
    if path == "/users/@me/channels":
        return "open-dm"
    if where == "dm" and method == "POST" and not getattr(request, "files", None):
        return "dm-alert"
    if method == "DELETE":
        return f"{where}-delete"
    if path.endswith("/messages/@original"):
        return f"interaction-{method.lower()}"
    verb = {"POST": "send", "DELETE": "delete"}.get(method, "edit")
    return f"{where}-{verb}"


async def main_async(args: argparse.Namespace) -> dict[str, float]:
    logging.basicConfig(level=logging.ERROR)
    turns = requests = hands = 0
    acks: list[float] = []
    kinds: Counter[str] = Counter()
    rows = []
    hands = 0
    claim_wait_manual = 0.0
    shortcut_hands = 0
    shortcut_wait = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for index in range(args.matches):
            variant = ("taizhou", "jiaxing")[index % 2] if args.variant == "both" else args.variant
            result = await play_match(
                variant, 1000 + index, args.think, Path(folder) / f"{index}.db",
                threads=not args.no_threads, slow=args.slow,
            )  # fmt: skip
            turns += int(result["turns"])  # type: ignore[call-overload]
            requests += int(result["requests"])  # type: ignore[call-overload]
            hands += int(result["hands"])  # type: ignore[call-overload]
            acks.extend(result["acks"])  # type: ignore[arg-type]
            kinds.update(result["kinds"])  # type: ignore[arg-type, call-overload]
            claim_wait_manual += float(result["claim_wait"])  # type: ignore[arg-type]
            rows.append((variant, result))
            fast = await play_match(variant, 1000 + index, args.think,
                                    Path(folder) / f"{index}-auto.db",
                                    threads=not args.no_threads, shortcuts=True)  # fmt: skip
            shortcut_hands += int(fast["hands"])  # type: ignore[call-overload]
            shortcut_wait += float(fast["claim_wait"])  # type: ignore[arg-type]
            rows.append((f"{variant}*", fast))
    per_turn = requests / max(1, turns)
    alerts = kinds.get("dm-alert", 0)
    ack_ms = sorted(a * 1000 for a in acks)
    p99 = ack_ms[min(len(ack_ms) - 1, int(0.99 * len(ack_ms)))] if ack_ms else 0.0
    print(
        f"{'match':<8}{'variant':<10}{'hands':>6}{'turns':>7}{'requests':>10}{'req/turn':>10}  finished"
    )
    for index, (variant, result) in enumerate(rows):
        ratio = int(result["requests"]) / max(1, int(result["turns"]))  # type: ignore[call-overload]
        print(f"{index:<8}{variant:<10}{result['hands']:>6}{result['turns']:>7}"
              f"{result['requests']:>10}{ratio:>10.2f}  {result['finished']}")  # fmt: skip
    print()
    print(f"think time per move: {args.think:.1f} s (fake clock); table edits ≤ 1 per 1.5 s")
    print(f"requests per turn (four humans): {per_turn:.2f}  ({requests} requests / {turns} turns)")
    per_hand = requests / max(1, hands)
    where = "a channel" if args.no_threads else "its own thread"
    print(
        f"requests per hand: {per_hand:.1f}  ({requests} requests / {hands} hands; table in {where})"
    )
    print("* = the same match with every human on auto-pass (always) and auto-win")
    print(f"requests per turn (four humans, turn alerts on): {per_turn:.2f}  "
          f"({requests} requests / {turns} turns; {alerts} alerts)")  # fmt: skip
    print(f"claim wait per hand: {claim_wait_manual / max(1, hands):.1f} s answering by hand, "
          f"{shortcut_wait / max(1, shortcut_hands):.1f} s on auto-pass")  # fmt: skip
    print("by kind: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    if ack_ms:
        print(f"interaction ack: p50 {statistics.median(ack_ms):.1f} ms, p99 {p99:.1f} ms, "
              f"max {ack_ms[-1]:.1f} ms over {len(ack_ms)} interactions")  # fmt: skip
    return {
        "requests_per_turn": round(per_turn, 3),
        "ack_p99_ms": round(p99, 2),
        "requests_per_hand": round(per_hand, 2),
        "alerts_per_turn": round(alerts / max(1, turns), 3),
        "claim_wait_s_per_hand": round(shortcut_wait / max(1, shortcut_hands), 2),
        "claim_wait_s_per_hand_manual": round(claim_wait_manual / max(1, hands), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--think", type=float, default=2.0, help="fake seconds per human move")
    parser.add_argument("--variant", default="both", choices=("both", "jiaxing", "taizhou"))
    parser.add_argument("--slow", type=float, default=6.0,
                        help="fake seconds the first player looks away before each move, "
                        "so their prompts wait past the alert delay (0: nobody is slow)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    parser.add_argument("--no-threads", action="store_true",
                        help="the bot lacks thread permissions: the table runs in the channel")  # fmt: skip
    args = parser.parse_args()
    if args.slow <= 0:
        args.slow = None
    summary = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
