"""When a table acts: its one worker queue, its timer, every seat's deadline, and the
moves made when one falls due (AI seats, autoplay, and a human's timeout).

``SchedulingMixin`` is one of ``TableSession``'s bases (``bot.session``). Every change to a
table goes through ONE asyncio queue consumed by one worker task, so two submissions can
never race; the timer only enqueues a tick. The attributes and methods it borrows from
the session are declared below so mypy checks their use.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import logging
import math
import random
from _random import Random as _CoreRandom  # the C generator ``random.Random`` builds on
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine import ai
from engine.types import Action
from engine.views import PlayerView

from .deadlines import (
    AUTOPLAY_AFTER_TIMEOUTS,
    RETRY_SECONDS,
    UNATTENDED_HANDS,
    UNATTENDED_SECONDS,
    UNATTENDED_WARNING_HANDS,
    UNATTENDED_WARNING_SECONDS,
    Due,
    stage_signature,
)
from .lines import timed_out_text
from .refusals import CLOSED, refuse

if TYPE_CHECKING:
    from engine.match import Match
    from engine.views import PublicView

    from .clock import Clock
    from .presenter import Presenter, SeatInfo
    from .tables import TableManager

log = logging.getLogger(__name__)

# A table's timer wakes at the next multiple of this (seconds) at or after its deadline.
# Why: with a thousand tables, each due at its own instant, every move costs a pass of the
# event loop of its own (a poll, the timers); woken on a grid, the moves due within one
# slot share one pass, and their journal rows one commit. Measured at 1,000 AI tables: a
# 5 ms grid took ~6 % less CPU per move than none; 10 ms another ~12 % (0.39 against
# 0.45 ms, four runs each, back to back) for ~3.5 ms more latency on average (p99
# unchanged). Only timer-driven moves (AI seats, timeouts) wait for the grid, never a
# player's own click; a move never runs before it is due, and the pace of the game is
# counted from when it was due.
WAKE_GRAIN = 0.010


class DecisionRandom(random.Random):
    """One AI decision's random stream, ``random.Random(seed_text)`` exactly, seeded only
    when the decision first draws from it.

    Why: every decision gets its own stream, seeded from (table seed, turn, seat), so a
    game replays exactly whatever else the process does; but seeding costs more than the
    rest of the session's work for an action (a SHA-512 and the 624-word state: ~6-10 µs
    at 1,000 actions a second), and most decisions draw nothing or only pick among one
    choice. A ``choice`` among one item made before the first real draw returns it and
    owes the draw, which is replayed on seeding, so every later value is the one the
    eager stream gives.
    """

    def __init__(self, seed_text: str) -> None:  # no ``super().__init__``: that seeds
        self._seed_text: str | None = seed_text
        self._owed_single_choices = 0

    def _seed_now(self) -> None:
        seed_text, self._seed_text = self._seed_text, None
        assert seed_text is not None
        # ``random.Random.seed(seed_text)`` (version 2) without its Python layer: the
        # text and its SHA-512 as one big-endian integer, seeded by the C generator.
        key = seed_text.encode()
        _CoreRandom.seed(self, int.from_bytes(key + hashlib.sha512(key).digest(), "big"))
        self.gauss_next = None
        for _ in range(self._owed_single_choices):
            random.Random.choice(self, (None,))  # the draw each owed pick among one item made
        self._owed_single_choices = 0

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._seed_text = None
        self._owed_single_choices = 0
        super().seed(a, version)

    def random(self) -> float:
        if self._seed_text is not None:
            self._seed_now()
        return _CoreRandom.random(self)

    def getrandbits(self, k: int, /) -> int:
        if self._seed_text is not None:
            self._seed_now()
        return _CoreRandom.getrandbits(self, k)

    def getstate(self) -> tuple[Any, ...]:
        if self._seed_text is not None:
            self._seed_now()
        return super().getstate()

    def choice(self, seq: Any) -> Any:
        """``random.Random.choice`` with ``_randbelow_with_getrandbits`` (what it uses
        with ``getrandbits`` overridden) inlined on the C generator: the same draws, one
        Python call instead of four per pick (a pick is most AI decisions' only draw)."""
        size = len(seq)
        if self._seed_text is not None:
            if size == 1:
                self._owed_single_choices += 1
                return seq[0]
            self._seed_now()
        if not size:
            raise IndexError("Cannot choose from an empty sequence")
        bits = size.bit_length()  # as ``_randbelow_with_getrandbits``: not (size - 1)
        index = _CoreRandom.getrandbits(self, bits)
        while index >= size:
            index = _CoreRandom.getrandbits(self, bits)
        return seq[index]


def _decision_random(seed: int, turn_id: int, seat: int) -> random.Random:
    return DecisionRandom(f"{seed}:{turn_id}:{seat}")


def choose_ai_action(view: PlayerView, level: str, rng: random.Random) -> Action:
    """The one place the session asks the AI (``engine.ai``) for a move. A proposal that
    is not legal (an AI bug) is logged and replaced by the engine's greedy policy, so a
    table never stalls on it."""
    action = ai.choose_action(view, level=level, rng=rng)
    # Identity first: the AI hands back one of ``view.legal``, and ``in`` alone compares
    # it field by field with every action listed before it.
    legal = view.legal
    for candidate in legal:
        if candidate is action:
            return action
    if action in legal:
        return action
    log.warning("engine.ai proposed an illegal action %s; using the greedy policy", action)
    return ai.choose_action(view, level="greedy", rng=rng)


@dataclass
class _Call:
    """Run ``body`` inside the worker and resolve ``future`` with what it returns."""

    body: Callable[[], Awaitable[Any]]
    future: asyncio.Future[Any] | None


@dataclass
class _Tick:
    """A timer fired: look at every due seat (and the lobby deadline)."""


# The one tick there is: a tick carries nothing, so every timer queues this same object.
_TICK = _Tick()


class WorkQueue:
    """A table's queue of work: ``asyncio.Queue``'s ``put_nowait``, ``get_nowait``,
    ``empty``, ``task_done`` and ``join``, for its one consumer, the table's worker,
    which awaits ``arrival`` while the queue is empty.

    Why not ``asyncio.Queue``: every move at an AI table goes through it (the timer's
    tick), and its general machinery (a deque of getters, an event for ``join`` cleared
    on every put and set on every ``task_done``, a loop check per wait) cost ~5 µs of
    each move at 1,000 tables; with one consumer a single waiting future does."""

    __slots__ = ("_getter", "_items", "_joiners", "_unfinished")

    def __init__(self) -> None:
        self._items: collections.deque[_Call | _Tick] = collections.deque()
        self._getter: asyncio.Future[None] | None = None  # the consumer, waiting
        self._unfinished = 0
        self._joiners: list[asyncio.Future[None]] = []

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: _Call | _Tick) -> None:
        self._items.append(item)
        self._unfinished += 1
        getter = self._getter
        if getter is not None:
            self._getter = None
            if not getter.done():
                getter.set_result(None)

    def get_nowait(self) -> _Call | _Tick:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    def arrival(self) -> asyncio.Future[None]:
        """A future done when the next item is put (the consumer awaits it when the
        queue is empty). Why not a ``get`` coroutine: a coroutine per wait is one more
        object that every idle table holds for the collector to walk until its next
        move."""
        getter = self._getter
        if getter is not None and not getter.done():
            raise RuntimeError("WorkQueue has one consumer")
        getter = self._getter = asyncio.get_running_loop().create_future()
        return getter

    def task_done(self) -> None:
        if self._unfinished <= 0:
            raise ValueError("task_done() called too many times")
        self._unfinished -= 1
        if not self._unfinished and self._joiners:
            joiners, self._joiners = self._joiners, []
            for joiner in joiners:
                if not joiner.done():
                    joiner.set_result(None)

    async def join(self) -> None:
        """Wait until every item put has been marked done."""
        if self._unfinished:
            joiner: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._joiners.append(joiner)
            await joiner


class _Wake:
    """A table's armed timer: an entry in its manager's ``WakeGrid`` slot (``done`` and
    ``cancel`` like the task ``_schedule_timer`` keeps when the clock cannot call back).

    Why an entry and not a loop timer of its own: a table re-arms after every move, and
    a loop timer is a handle, a copied context and a bound method pushed through the
    loop's heap (its comparisons run in Python); at 1,000 tables that was about a tenth
    of the session's own CPU per move. A cancelled entry stays in its slot, skipped."""

    __slots__ = ("cancelled", "fired", "table")

    def __init__(self, table: SchedulingMixin) -> None:
        self.table = table
        self.cancelled = False
        self.fired = False

    def fire(self) -> None:
        if self.cancelled or self.fired:
            return
        self.fired = True
        self.table._tick_now()

    def done(self) -> bool:
        return self.fired or self.cancelled

    def cancel(self) -> None:
        self.cancelled = True


class WakeGrid:
    """Every table's timer on a grid of ``grain`` seconds, with one loop timer per slot
    that some table is due in, not one per table.

    A table due at ``t`` wakes in the slot at or after ``t`` (so never before it is due);
    the tables of a slot wake in the order they armed."""

    __slots__ = ("_call_at", "_slots", "grain")

    def __init__(self, call_at: Callable[[float, Callable[[], None]], object],
                 grain: float = WAKE_GRAIN) -> None:  # fmt: skip
        self._call_at = call_at
        self._slots: dict[int, list[_Wake]] = {}
        self.grain = grain

    def add(self, when: float, wake: _Wake) -> None:
        slot = math.ceil(when / self.grain)
        bucket = self._slots.get(slot)
        if bucket is None:
            bucket = self._slots[slot] = []
            self._call_at(slot * self.grain, functools.partial(self._fire, slot))
        bucket.append(wake)

    def _fire(self, slot: int) -> None:
        for wake in self._slots.pop(slot, ()):
            wake.fire()

    @property
    def slots(self) -> int:
        """Slots with a loop timer armed (tests)."""
        return len(self._slots)


class SchedulingMixin:
    """The worker, the timer and the deadlines; what a due seat plays."""

    manager: TableManager
    ai_level: str
    table_id: str
    discard_timeout: float
    claim_timeout: float
    seed: int
    status: str
    match: Match | None
    pending: int
    _seats: list[SeatInfo]
    _due: dict[int, Due]
    _dues_turn: int | None  # the match's turn_id when ``_due`` was last refreshed
    _timeouts: dict[int, int]
    _attended_at: float | None
    _attended_hand: int
    _unattended_warned: bool
    _settling: int | None
    _lobby_deadline: float
    _queue: WorkQueue
    _worker: asyncio.Task[None] | None
    _timer: asyncio.Task[None] | _Wake | None
    _timer_at: float | None
    _stopped: bool
    _pause_rng: random.Random
    _paced_from: float | None
    _break_until: float

    if TYPE_CHECKING:

        @property
        def clock(self) -> Clock: ...
        @property
        def presenter(self) -> Presenter: ...
        def _public(self) -> PublicView: ...
        def _ai_controlled(self, seat: int) -> bool: ...
        def _auto_action(self, seat: int) -> Action | None: ...
        async def _accept(self, action: Action, due_at: float) -> None: ...
        async def _set_autoplay(self, seat: int, on: bool) -> None: ...
        async def _close_unattended(self) -> None: ...
        async def _warn_unattended(self, *, on: bool) -> None: ...
        async def _lobby_tick(self) -> None: ...

    def _ensure_worker(self) -> None:
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(
                self._work(), name=f"table-{self.table_id}"
            )

    async def _call(self, body: Callable[[], Awaitable[Any]]) -> Any:
        if self._stopped:
            return refuse(CLOSED)
        self._ensure_worker()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._put(_Call(body, future))
        return await future

    def _put(self, item: _Call | _Tick) -> None:
        self.pending += 1
        self._queue.put_nowait(item)

    async def _work(self) -> None:
        queue = self._queue
        while True:
            while queue.empty():
                await queue.arrival()
            item = queue.get_nowait()
            try:
                if isinstance(item, _Tick):
                    await self._on_tick()
                else:
                    try:
                        value = await item.body()
                    except asyncio.CancelledError:
                        if item.future is not None and not item.future.done():
                            item.future.set_result(refuse(CLOSED))
                        raise
                    except Exception as error:
                        if item.future is not None and not item.future.done():
                            item.future.set_exception(error)
                    else:
                        if item.future is not None and not item.future.done():
                            item.future.set_result(value)
                    self._dues_turn = None  # a call may change who is due without a move
                    await self._after_change()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: worker error", self.table_id)
            finally:
                self.pending -= 1
                self._queue.task_done()
            if self._stopped and self._queue.empty():
                return

    async def wait_idle(self) -> None:
        """Wait until every queued item (and what it set off) has been handled."""
        await self._queue.join()

    def _schedule_timer(self) -> None:
        wake = self._next_wake()
        if wake == self._timer_at and self._timer is not None and not self._timer.done():
            return
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = None
        self._timer_at = wake
        if wake is None or self._stopped:
            return
        grid = self.manager.wake_grid
        if grid is not None:  # the clock can call back (``SystemClock``): no task
            self._timer = _Wake(self)
            grid.add(wake, self._timer)
            return
        self._timer = asyncio.get_running_loop().create_task(self._sleep_then_tick(wake))

    async def _sleep_then_tick(self, wake: float) -> None:
        await self.clock.sleep_until(wake)
        self._tick_now()

    def _tick_now(self) -> None:
        """The timer fired: queue a tick (the worker looks at every due seat)."""
        self._timer_at = None
        if self._stopped:
            return
        self._ensure_worker()
        self._put(_TICK)

    def _next_wake(self) -> float | None:
        if self.status == "lobby":
            return self._lobby_deadline
        if self.status != "running" or self.match is None or self.match.finished:
            return None  # a finished match has no deadline: a stale one would wake forever
        if self._settling is not None:
            return None
        earliest = None
        for due in self._due.values():
            if earliest is None or due.at < earliest:
                earliest = due.at
        return earliest

    async def stop(self) -> None:
        """Stop the timer and the worker (shutdown or table closed); the store keeps the rest."""
        self._stopped = True
        if isinstance(self._timer, _Wake):
            self._timer.cancel()
        for task in (self._timer, self._worker):
            if isinstance(task, _Wake):
                continue
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        # Nobody will handle what is still queued: answer its callers instead of hanging.
        while not self._queue.empty():
            item = self._queue.get_nowait()
            self.pending -= 1
            self._queue.task_done()
            if isinstance(item, _Call) and item.future is not None and not item.future.done():
                item.future.set_result(refuse(CLOSED))

    def _refresh_dues(self) -> None:
        """Give every seat that must act now a deadline, keeping those of seats still
        waiting in the same stage; AI and autoplay seats are due after ``ai_delay``.

        The AI pause counts from when the previous action was *due* (``_paced_from``; for a
        human's move that is when it arrived), not from when it was finally announced,
        unless that is already past. Why: with many tables, one group commit releases
        dozens of them at the same instant; counting from "now" would make them all due
        again at one instant a pause later, so they would drift into ever larger convoys
        served one after another. Counted from the due time, each table keeps its own
        rhythm and a little latency never slows the game's tempo."""
        match = self.match
        self._dues_turn = None
        if (
            match is None
            or match.finished
            or self.status != "running"
            or self._settling is not None
        ):
            self._due.clear()
            return
        waiting = match.round.waiting_on
        signature = stage_signature(match)
        manager = self.manager
        now = manager.clock.now()
        dues = self._due
        if dues:
            for seat in [seat for seat in dues if seat not in waiting]:
                del dues[seat]
        seats = self._seats
        for seat in waiting:
            info = seats[seat]
            machine = info.is_ai or info.autoplay  # ``_ai_controlled``
            # A human whose own shortcut answers this (auto-pass, auto-win, tsumogiri)
            # is played at once: the table does not wait for them.
            shortcut = not machine and self._auto_action(seat) is not None
            ai = machine or shortcut
            due = dues.get(seat)
            if due is not None and due.signature == signature and due.ai == ai:
                continue
            # Between hands (``_break_until``) nobody is hurried: machines wait, and a
            # human's time starts once the break is over (they may play at once).
            start = max(now, self._break_until)
            if shortcut:
                at = start
            elif ai:
                paced_from = min(now, self._paced_from) if self._paced_from is not None else now
                at = max(start, paced_from + manager.ai_pause(self._pause_rng))
            else:
                timeout = (
                    self.discard_timeout if match.round.phase == "turn" else self.claim_timeout
                )
                at = start + timeout
            same_stage = due is not None and due.signature == signature
            since = due.since_turn if same_stage and due is not None else match.turn_id
            dues[seat] = Due(signature, ai, at, since)
        self._dues_turn = match.turn_id

    async def _after_change(self) -> None:
        """Run the AI seats that are due now (all of them at once when ``ai_delay`` is 0)
        and re-arm the timer for the rest."""
        try:
            await self._run_due(ai_only=True)
        finally:
            self._schedule_timer()

    async def _on_tick(self) -> None:
        if self.status == "lobby":
            await self._lobby_tick()
            self._schedule_timer()
            return
        try:
            await self._run_due(ai_only=False)
        finally:
            self._schedule_timer()

    async def _run_due(self, *, ai_only: bool) -> None:
        # Whether the dues may be taken as they are: after a played move they were
        # refreshed for the new position already (``_apply_stored`` or ``_after_hand``),
        # and nothing can change them in between, since every other change comes through
        # the queue and a call forgets ``_dues_turn`` (so does a due dropped here). A
        # timer tick therefore starts from the dues its table's last move left, instead
        # of walking every seat again for each move.
        played = True
        clock = self.clock
        while (
            self.status == "running"
            and (match := self.match) is not None
            and not match.finished
            and self._settling is None
        ):
            if not (played and self._dues_turn == match.turn_id):
                self._refresh_dues()
            played = False
            now = clock.now()
            attendance = self._attendance(now)
            if attendance == "close":
                await self._close_unattended()
                return
            if attendance is not None:
                await self._warn_unattended(on=attendance == "warn")
            # The earliest due seat (ties: the lowest seat), as sorting them would give.
            seat = -1
            due_at = now
            for candidate, candidate_due in self._due.items():
                at = candidate_due.at
                if (at < due_at or (at == due_at and (seat < 0 or candidate < seat))) and (
                    candidate_due.ai or not ai_only
                ):
                    seat, due_at = candidate, at
            if seat < 0:
                return
            due = self._due[seat]
            info = self._seats[seat]
            # ``_ai_controlled``, then a person's own shortcut
            shortcut = None if info.is_ai or info.autoplay else self._auto_action(seat)
            if due.ai and shortcut is not None:
                if not await self._accept_or_retry(seat, shortcut, due_at):
                    return
                played = True
            elif due.ai:
                view = match.round.player_view(seat, public=self._public())
                rng = DecisionRandom(f"{self.seed}:{match.turn_id}:{seat}")  # ``_decision_random``
                try:
                    level = info.ai_level if info.is_ai else self.ai_level
                    action = choose_ai_action(view, level, rng)
                    # Not held over the move: a public view nobody holds is never
                    # finished (its seats), and the decision has read what it needs.
                    del view
                except Exception:  # an AI bug must not stall the table
                    log.exception("table %s: AI failed for seat %d", self.table_id, seat)
                    fallback = match.round.default_action(seat)
                    if fallback is None:
                        self._due.pop(seat, None)
                        self._dues_turn = None
                        return
                    action = fallback
                if not await self._accept_or_retry(seat, action, due_at):
                    return
                played = True
            else:
                default = match.round.default_action(seat)
                if default is None:
                    self._due.pop(seat, None)
                    self._dues_turn = None
                    continue
                action = default
                if not await self._accept_or_retry(seat, action, due_at):
                    return  # not played: a retry of the same missed turn is not another
                count = self._timeouts.get(seat, 0) + 1
                self._timeouts[seat] = count
                if (
                    count >= AUTOPLAY_AFTER_TIMEOUTS
                    and self.status == "running"
                    and not self._seats[seat].autoplay
                ):
                    await self._set_autoplay(seat, True)
                elif (user_id := self._seats[seat].user_id) is not None:
                    # Said on their hand, so a timeout is not mistaken for their own move.
                    left = AUTOPLAY_AFTER_TIMEOUTS - count
                    await self.presenter.error(user_id, timed_out_text(action, left))

    def _attended(self, now: float) -> None:
        """A player acted on their own (a move, Back, asking for autoplay, a shortcut)."""
        self._attended_at = now
        self._attended_hand = self.match.hand_number if self.match is not None else 0

    def _attendance(self, now: float) -> str | None:
        """ "close" when nobody has acted on their own for ``UNATTENDED_SECONDS`` or
        through ``UNATTENDED_HANDS`` whole hands (the count that holds whatever the AI's
        pace); "warn" once the warning's time has come, "withdraw" when someone acted
        after it; else None. A restored match counts from its restart."""
        if self._attended_at is None or self.match is None:
            self._attended(now)
            return None
        seconds = now - self._attended_at
        hands = self.match.hand_number - self._attended_hand
        if seconds >= UNATTENDED_SECONDS or hands >= UNATTENDED_HANDS:
            return "close"
        soon = (
            seconds >= UNATTENDED_SECONDS - UNATTENDED_WARNING_SECONDS
            or hands >= UNATTENDED_HANDS - UNATTENDED_WARNING_HANDS
        )
        if soon != self._unattended_warned:
            return "warn" if soon else "withdraw"
        return None

    async def _accept_or_retry(self, seat: int, action: Action, due_at: float) -> bool:
        """A timer-driven move that fails (the store is unavailable, say) is retried a
        little later instead of spinning; the table state is unchanged if it was not stored."""
        assert self.match is not None
        turn = self.match.turn_id
        try:
            await self._accept(action, due_at)
        except Exception:
            if self.match.turn_id != turn:  # stored and applied; only announcing failed
                log.exception("table %s: played %s but could not announce it", self.table_id,
                              action)  # fmt: skip
                return True
            log.exception("table %s: could not play %s; retrying", self.table_id, action)
            due = self._due.get(seat)
            if due is not None:
                self._due[seat] = replace(due, at=self.clock.now() + RETRY_SECONDS)
            return False
        return True
