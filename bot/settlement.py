"""Paying ended hands: the ledger entries of a hand and the retry queue that writes them.

Why a module of its own: a settlement write must happen exactly once and may not be
dropped, whatever happens to the table that owes it; ``Obligations`` outlives tables,
workers and timers, and retries on the session clock until the store accepts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from data import HandOutcome, SettlementEntry, Store
from engine.types import HandResult
from engine.variants import RULE_SETS

from .clock import Clock
from .presenter import SeatInfo

__all__ = [
    "NOT_WIN_TYPES",
    "Obligations",
    "hand_outcome",
    "settle_hand_points",
    "settlement_entries",
]

# Score items that are parts of any hand rather than what kind of win it was (Taizhou's
# melds and flat bonus, Jiaxing's carried pool): not counted as "winning types" on /stats.
NOT_WIN_TYPES = frozenset(
    {"exposed_pung", "concealed_pung", "exposed_kong", "concealed_kong", "pair", "win_bonus",
     "carried_fan"}
)  # fmt: skip

log = logging.getLogger(__name__)

SETTLE_RETRY_FIRST = 1.0  # seconds before the first retry of a failed settlement write
SETTLE_RETRY_MAX = 60.0  # the backoff doubles up to this


@dataclass
class _Obligation:
    group: str  # a table id: one table's obligations are met in the order they arose
    what: str
    attempt: Callable[[], Awaitable[Any]]
    on_done: Callable[[Any], Awaitable[None]] | None
    next_at: float
    failures: int = 0


class Obligations:
    """Store writes that must happen exactly once and may not be dropped: settling a hand
    that ended, then recording the table's final status.

    Why a queue of its own: a settlement that fails (database locked, disk full) must not
    be lost with the table's timer or worker, nor wait for a click that may never come.
    Each obligation is retried with doubling backoff on the session clock (``FakeClock``
    in tests) until it succeeds; every attempt is idempotent (``settle_hand`` is keyed by
    the hand), so a retry of a write that did commit changes nothing. Obligations of one
    table are met in order (the final status only after the last hand is paid). After a
    restart, ``TableManager.resume_settlements`` derives what is still owed from the
    action logs and the ledger, so nothing needs to survive in memory.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._pending: list[_Obligation] = []
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._stopped = False
        self.attempts = 0
        self.failures = 0
        self.wakeups = 0

    @property
    def pending(self) -> int:
        return len(self._pending)

    def pending_for(self, group: str) -> int:
        return sum(1 for item in self._pending if item.group == group)

    def add(
        self,
        group: str,
        what: str,
        attempt: Callable[[], Awaitable[Any]],
        on_done: Callable[[Any], Awaitable[None]] | None = None,
        *,
        failed_once: bool = False,
    ) -> None:
        """Owe ``attempt`` until it returns; ``on_done(value)`` runs once it has.
        ``failed_once``: the caller already tried, so the first retry waits."""
        delay = SETTLE_RETRY_FIRST if failed_once else 0.0
        self._pending.append(
            _Obligation(group, what, attempt, on_done, self.clock.now() + delay, int(failed_once))
        )
        if self._stopped:
            return
        if self._task is None or self._task.done():
            self._idle.clear()
            self._task = asyncio.get_running_loop().create_task(self._run(), name="mj-obligations")

    async def wait_idle(self) -> None:
        """Wait until no attempt is in flight (the queue may still hold backed-off ones)."""
        await self._idle.wait()

    async def _run(self) -> None:
        try:
            while self._pending and not self._stopped:
                self._idle.clear()
                await self._attempt_due()
                if not self._pending:
                    break
                # Only the first owed item of each table can run: a later one waits for
                # it even if its own time has come, so it must not set the wake-up.
                heads: dict[str, float] = {}
                for item in self._pending:
                    heads.setdefault(item.group, item.next_at)
                wake = min(heads.values())
                if wake > self.clock.now():
                    self._idle.set()
                    await self.clock.sleep_until(wake)
                    self.wakeups += 1
        finally:
            self._idle.set()

    async def _attempt_due(self) -> None:
        blocked: set[str] = set()
        for item in list(self._pending):
            if item.group in blocked:
                continue
            if item.next_at > self.clock.now():
                blocked.add(item.group)
                continue
            self.attempts += 1
            try:
                value = await item.attempt()
            except asyncio.CancelledError:
                raise
            except Exception:
                item.failures += 1
                self.failures += 1
                delay = min(SETTLE_RETRY_MAX, SETTLE_RETRY_FIRST * 2 ** (item.failures - 1))
                item.next_at = self.clock.now() + delay
                blocked.add(item.group)
                log.warning(
                    "%s: %s failed (%d time(s)); retrying in %.0f s",
                    item.group, item.what, item.failures, delay, exc_info=True,
                )  # fmt: skip
                continue
            self._pending.remove(item)
            if item.on_done is not None:
                try:
                    await item.on_done(value)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("%s: after %s", item.group, item.what)

    async def stop(self) -> None:
        """Shutdown: what is still owed is found again at the next start-up."""
        self._stopped = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._idle.set()


def settlement_entries(
    seats: Sequence[SeatInfo], result: HandResult
) -> tuple[list[SettlementEntry], int | None]:
    """The ledger entries of one ended hand, and the winner's user id (None: AI or draw)."""
    users = [info.user_id if not info.is_ai else None for info in seats]
    entries = [
        SettlementEntry(
            seat=seat, user_id=users[seat], units=int(delta), is_winner=seat == result.winner
        )
        for seat, delta in enumerate(result.deltas)
    ]
    winner = users[result.winner] if result.winner is not None else None
    return entries, winner


def hand_outcome(result: HandResult) -> HandOutcome:
    """How a hand ended, as ``/stats`` counts it: a robbed kong is a self-draw where the
    rules say so (no discard wins, e.g. Jiaxing), and a deal-in where a discard can win."""
    discard_wins = bool(getattr(RULE_SETS.get(result.variant), "discard_wins", True))
    if result.winner is None or not result.valid:
        return HandOutcome(variant=result.variant)
    win_by = result.win_by
    if win_by == "rob_kong" and not discard_wins:
        win_by = "self_draw"
    dealt_in = result.from_seat if win_by in ("discard", "rob_kong") else None
    items = tuple((item.key, int(item.value), item.unit) for item in result.items)
    return HandOutcome(
        variant=result.variant,
        win_by=win_by,
        winner_seat=result.winner,
        dealt_in_seat=dealt_in if dealt_in != result.winner else None,
        items=items,
        win_types=tuple(dict.fromkeys(key for key, _, _ in items if key not in NOT_WIN_TYPES)),
    )


async def settle_hand_points(
    store: Store,
    guild_id: int,
    table_id: str,
    hand_number: int,
    entries: list[SettlementEntry],
    stake: int,
    winner_user: int | None,
    result: HandResult,
) -> list[int]:
    """Settle one hand (exactly once, whoever calls) and return what each seat moved."""
    await store.settle_hand(
        guild_id, table_id, hand_number, entries, stake, winner_user=winner_user,
        outcome=hand_outcome(result),
    )  # fmt: skip
    num_seats = len(entries)
    if not any(result.deltas):
        return [0] * num_seats
    rows = await store.hand_entries(table_id, hand_number)
    points = [delta * stake for delta in result.deltas]
    for row in rows:
        if row.seat is not None and 0 <= row.seat < num_seats:
            points[row.seat] = row.points
    return points
