"""Clocks for the table sessions: wall time for the bot, a hand-driven one for tests.

Why injectable: every timer of a table (turn deadlines, the lobby timeout, settlement
retries) sleeps on a ``Clock``, so tests move time with ``FakeClock.advance`` and never
sleep, and a 100-second timeout costs them microseconds.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

__all__ = ["Clock", "FakeClock", "SystemClock"]


class Clock(Protocol):
    def now(self) -> float:
        """UNIX seconds."""
        ...

    async def sleep_until(self, when: float) -> None: ...


class SystemClock:
    """Wall-clock time for the real bot."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        delay = when - time.time()
        if delay > 0:
            await asyncio.sleep(delay)

    def call_at(self, when: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        """Run ``callback`` on the running loop at ``when`` (UNIX seconds).

        Why besides ``sleep_until``: tables re-arm their timers after every action, and a
        loop timer is one object where a sleeping task is a task, a future and a timer
        (``bot.scheduling.WakeGrid`` arms one per grid slot when the clock has this;
        ``FakeClock`` has not)."""
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback)


class FakeClock:
    """A clock that moves only when a test says so.

    ``advance`` walks through the pending sleepers in deadline order: it sets the time to
    each one's deadline, wakes it, and waits for the registered idle hooks (the table
    manager's "every queue drained") before moving on, so a 100-second jump behaves like
    100 real seconds with every consequence of each timer settled in order.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = float(start)
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._counter = itertools.count()
        self._idle_hooks: list[Callable[[], Awaitable[None]]] = []

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._counter), future))
        await future

    def add_idle_hook(self, hook: Callable[[], Awaitable[None]]) -> None:
        self._idle_hooks.append(hook)

    async def settle(self) -> None:
        """Let woken tasks run, wait for every idle hook, and let the timers they
        re-armed register their sleeps."""
        for _ in range(3):
            for _ in range(3):
                await asyncio.sleep(0)
            for hook in list(self._idle_hooks):
                await hook()

    async def advance(self, seconds: float) -> None:
        target = self._now + seconds
        await self.settle()
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, future = heapq.heappop(self._sleepers)
            if future.done():
                continue
            self._now = max(self._now, when)
            future.set_result(None)
            await self.settle()
        self._now = max(self._now, target)
        await self.settle()

    @property
    def pending(self) -> int:
        return sum(1 for _, _, future in self._sleepers if not future.done())
