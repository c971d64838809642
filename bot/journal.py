"""The action journal: every table's accepted actions, group-committed to the store."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable
from typing import Any

from data import Store
from data.connection import canonical_json
from engine.types import Action

__all__ = ["BOT_COMMIT_INTERVAL", "ActionJournal", "action_text"]

# The bot's least time between two group commits of the journal (``ActionJournal``).
BOT_COMMIT_INTERVAL = 0.002

# An action -> its canonical JSON text, for the actions seen lately (bounded: cleared
# when full). Why: a move's row is the same text whenever the same seat makes the same
# move (there are a few hundred discards in all), and encoding it anew (``to_json``
# and the JSON encoder) cost ~10 µs of every move at 1,000 tables.
_ACTION_TEXTS: dict[Action, str] = {}
_ACTION_TEXTS_LIMIT = 4096


def action_text(action: Action) -> str:
    """``canonical_json(action.to_json())``, remembered for the actions that recur."""
    text = _ACTION_TEXTS.get(action)
    if text is None:
        if len(_ACTION_TEXTS) >= _ACTION_TEXTS_LIMIT:
            _ACTION_TEXTS.clear()
        text = _ACTION_TEXTS[action] = canonical_json(action.to_json())
    return text


class ActionJournal:
    """Appends actions of every table to the store, committing concurrent ones together.

    A store write is one round trip to SQLite's thread and the store serialises them, so
    with hundreds of tables each write waits for all the others (measured: ~800 writes/s
    at 1,000 tables, whatever the CPU). ``Store.append_actions(rows)`` writes many rows
    in one transaction, and the journal keeps at most ONE such write in flight: everything
    that queues up meanwhile goes into the next one (group commit), so the batch grows
    with the load instead of the queue. Each caller resumes only once its own row is
    committed (durable before announced), and gets its own row's outcome: a conflict on
    one table's row fails that table's append only. If the whole transaction fails, every
    row of it fails and each table retries on its own. A store without ``append_actions``
    (a test double, say) is written to row by row, as before.
    """

    def __init__(self, store: Store, *, commit_interval: float = 0.0) -> None:
        """``commit_interval``: the least time between the starts of two group commits
        (seconds; 0: commit as soon as the previous one is done).

        Why: a commit has a fixed cost whatever it holds (a round trip to SQLite's thread,
        which wakes the event loop when it answers, and the transaction itself): measured
        ~230 µs of CPU for one row, ~50 µs a row for ten. At 1,000 AI tables that start
        their moves evenly over each second, "as soon as possible" commits one to three
        rows at a time; waiting a couple of milliseconds lets the batch fill, at the price
        of that much latency per move, which nobody at a table can see.
        """
        if commit_interval < 0:
            raise ValueError("commit_interval must not be negative")
        self.store = store
        self.commit_interval = float(commit_interval)
        self._last_commit_start = -math.inf
        self._pending: list[tuple[str, int, dict[str, Any] | str, int, asyncio.Future[bool]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.batches = 0
        self.rows = 0

    @property
    def batching(self) -> bool:
        return callable(getattr(self.store, "append_actions", None))

    def append_action(
        self, game_id: str, seq: int, action: Action, hand_number: int
    ) -> Awaitable[bool]:
        """``append`` of an engine action (awaited like it): a batching store is handed
        its canonical text (``action_text``), any other store its JSON dict. Why not a
        coroutine: every move awaits this, and the batching case is the future itself."""
        if not self.batching:
            return self.store.append_action(game_id, seq, action.to_json(), hand_number)
        return self._enqueue(game_id, seq, action_text(action), hand_number)

    async def append(
        self, game_id: str, seq: int, action: dict[str, Any] | str, hand_number: int
    ) -> bool:
        """Append one row (``action``: a JSON dict, or its canonical text for a batching
        store) and return once it is committed, with ``Store.append_action``'s outcome."""
        if not self.batching:
            assert not isinstance(action, str), "a store without append_actions takes dicts"
            return await self.store.append_action(game_id, seq, action, hand_number)
        return await self._enqueue(game_id, seq, action, hand_number)

    def _enqueue(
        self, game_id: str, seq: int, action: dict[str, Any] | str, hand_number: int
    ) -> asyncio.Future[bool]:
        """The row joins the next group commit; the future answers when it is done."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._pending.append((game_id, seq, action, hand_number, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush())
        return future

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            wait = self._last_commit_start + self.commit_interval - loop.time()
            if wait > 0:
                try:
                    await asyncio.sleep(wait)
                except BaseException:  # cancelled (the loop is going away): nobody may hang
                    for *_, future in self._pending:
                        future.cancel()
                    self._pending = []
                    raise
            self._last_commit_start = loop.time()
            batch, self._pending = self._pending, []
            rows = [(game_id, seq, action, hand) for game_id, seq, action, hand, _ in batch]
            try:
                results = await self.store.append_actions(rows)  # type: ignore[attr-defined]
            except Exception as error:
                # The transaction itself failed (a bad row is reported per row instead):
                # nothing of the batch was written, so every caller hears so and retries.
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            except BaseException:  # cancelled (the loop is going away): nobody may hang
                for *_, future in batch + self._pending:
                    future.cancel()
                self._pending = []
                raise
            self.batches += 1
            self.rows += len(batch)
            for (*_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, BaseException):  # this row only; the rest committed
                    future.set_exception(result)
                else:
                    future.set_result(bool(result))
