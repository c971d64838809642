"""Routing a click to the process that owns its table.

Why: with several sharded processes (``bot.shards``) a table lives in the process of its
guild's shard, but Discord delivers every DM interaction on shard 0. A click on a DM hand
for a table owned by another process must still be applied there, exactly once, and
Discord's 3-second acknowledgement must still be met. The receiving process therefore
defers the interaction first, then publishes a :class:`RoutedClick` (enough to apply the
action and to answer through the interaction token, which any process may use on the
webhook endpoints); the owner applies it.

Two implementations of :class:`Router`:

* :class:`InProcessRouter` — one process (SQLite, or PostgreSQL with every shard in one
  process): nothing to route to, a published click is applied here. Today's behaviour.
* :class:`PostgresRouter` — several processes on one PostgreSQL: the click is stored in
  ``routed_interactions`` (migration 0005) and announced with ``NOTIFY``; the owner takes
  it with one ``UPDATE … WHERE applied_at IS NULL RETURNING``, so the interaction id is the
  idempotency key and a second delivery (a repeated notification, a repeated publish, the
  periodic sweep racing the notification) does nothing. The sweep also picks up clicks
  whose notification was missed while the owner's listening connection was down.

Exactly once is "at most once, and at least once while the owner is alive": the owner
marks the click taken before applying it, so an owner that dies between the two loses
that click (the player sees their hand unchanged after the replacement restores the
table, and clicks again) rather than risking a double move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

__all__ = [
    "CHANNEL",
    "TOKEN_LIFETIME_MS",
    "ClickHandler",
    "InProcessRouter",
    "PostgresRouter",
    "RoutedClick",
    "Router",
]

log = logging.getLogger(__name__)

CHANNEL = "mahjong_routed_clicks"  # the NOTIFY channel
TOKEN_LIFETIME_MS = 15 * 60 * 1000  # an interaction token answers for 15 minutes
SWEEP_SECONDS = 5.0


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class RoutedClick:
    """A click on a hand, taken out of its interaction so another process can apply it.

    A move typed as a slash command in a DM travels the same way, with no ``turn_id`` (the
    command names no turn) and with ``done``, the confirmation the owner sends when the
    move is played (a click needs none: the hand it edits shows the move)."""

    interaction_id: int
    application_id: int
    token: str
    user_id: int
    table_id: str
    turn_id: int | None
    action: dict[str, Any]
    shard_id: int
    locale: str = "zh-CN"
    created_ms: int = field(default_factory=now_ms)
    done: dict[str, str] | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> RoutedClick:
        data = json.loads(text)
        return cls(
            interaction_id=int(data["interaction_id"]),
            application_id=int(data["application_id"]),
            token=str(data["token"]),
            user_id=int(data["user_id"]),
            table_id=str(data["table_id"]),
            turn_id=int(data["turn_id"]) if data.get("turn_id") is not None else None,
            action=dict(data["action"]),
            shard_id=int(data["shard_id"]),
            locale=str(data.get("locale") or "zh-CN"),
            created_ms=int(data.get("created_ms") or 0),
            done=dict(data["done"]) if data.get("done") else None,
        )


ClickHandler = Callable[[RoutedClick], Awaitable[None]]


class Router(Protocol):
    """Hands a click to the process owning ``click.shard_id``; applies those routed here."""

    async def start(self, handler: ClickHandler) -> None:
        """Begin receiving the clicks of this process's shards; ``handler`` applies one."""

    async def publish(self, click: RoutedClick) -> None:
        """Send ``click`` to its owner. Publishing the same interaction twice is harmless."""

    async def close(self) -> None: ...


class InProcessRouter:
    """One process owns every table: a published click is applied right here, once per
    interaction id (remembered for the 15 minutes its token lives, bounded in size)."""

    MAX_REMEMBERED = 10_000

    def __init__(self) -> None:
        self._handler: ClickHandler | None = None
        self._taken: OrderedDict[int, int] = OrderedDict()

    async def start(self, handler: ClickHandler) -> None:
        self._handler = handler

    async def publish(self, click: RoutedClick) -> None:
        if self._handler is None:
            raise RuntimeError("the router was not started")
        if not self._take(click.interaction_id):
            return
        await self._handler(click)

    def _take(self, interaction_id: int) -> bool:
        now = now_ms()
        while self._taken and (
            len(self._taken) >= self.MAX_REMEMBERED
            or next(iter(self._taken.values())) < now - TOKEN_LIFETIME_MS
        ):
            self._taken.popitem(last=False)
        if interaction_id in self._taken:
            return False
        self._taken[interaction_id] = now
        return True

    async def close(self) -> None:
        self._handler = None


class PostgresRouter:
    """Routing through PostgreSQL: ``routed_interactions`` rows plus ``LISTEN``/``NOTIFY``.

    ``dsn`` is the same ``postgresql://`` URL as the store. The router keeps one
    connection for listening (a listening connection cannot go back to a pool) and a
    small pool for its statements. ``shard_ids`` are the shards this process owns.
    """

    def __init__(
        self, dsn: str, shard_ids: Sequence[int], *, sweep_seconds: float = SWEEP_SECONDS
    ) -> None:
        self.dsn = dsn
        self.shard_ids = tuple(shard_ids)
        self.sweep_seconds = sweep_seconds
        self._handler: ClickHandler | None = None
        self._pool: Any = None
        self._listener: Any = None
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    async def start(self, handler: ClickHandler) -> None:
        import asyncpg  # only a PostgreSQL deployment needs it

        self._handler = handler
        # A routed click lives for minutes; losing one to a server crash is the same as
        # the player clicking again, so the router's commits need not wait for the disk.
        self._pool = await asyncpg.create_pool(
            self.dsn, min_size=1, max_size=4, server_settings={"synchronous_commit": "off"}
        )
        await self._listen()
        await self.sweep()  # clicks published while no process of these shards listened
        self._sweeper = asyncio.get_running_loop().create_task(
            self._sweep_loop(), name="mj-routing-sweep"
        )

    async def _listen(self) -> None:
        import asyncpg

        connection = await asyncpg.connect(self.dsn)
        await connection.add_listener(CHANNEL, self._notified)
        self._listener = connection

    async def publish(self, click: RoutedClick) -> None:
        """Store the click and notify, in one transaction (NOTIFY is sent at commit, so
        the owner never hears of a row it cannot read yet)."""
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "INSERT INTO routed_interactions"
                " (interaction_id, shard_id, payload, created_at, applied_at)"
                " VALUES ($1, $2, $3, $4, NULL) ON CONFLICT (interaction_id) DO NOTHING",
                click.interaction_id, click.shard_id, click.to_json(), click.created_ms,
            )  # fmt: skip
            await connection.execute(
                "SELECT pg_notify($1, $2)", CHANNEL, f"{click.shard_id}:{click.interaction_id}"
            )

    def _notified(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        shard_text, _, id_text = payload.partition(":")
        if not (shard_text.isdigit() and id_text.isdigit()):
            log.warning("ignoring a malformed routing notification %r", payload[:80])
            return
        if int(shard_text) not in self.shard_ids or self._closed:
            return
        task = asyncio.get_running_loop().create_task(
            self._take_and_apply(int(id_text)), name=f"mj-work-routed-{id_text}"
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def take(self, interaction_id: int) -> RoutedClick | None:
        """Mark the click taken and return it, or None if it was taken already (or is not
        this process's): the single place the idempotency key is checked."""
        async with self._pool.acquire() as connection:
            payload = await connection.fetchval(
                "UPDATE routed_interactions SET applied_at = $1"
                " WHERE interaction_id = $2 AND applied_at IS NULL AND shard_id = ANY($3::int[])"
                " RETURNING payload",
                now_ms(), interaction_id, list(self.shard_ids),
            )  # fmt: skip
        return RoutedClick.from_json(payload) if payload is not None else None

    async def _take_and_apply(self, interaction_id: int) -> None:
        try:
            click = await self.take(interaction_id)
            if click is not None and self._handler is not None:
                await self._handler(click)
        except Exception:
            log.exception("routed click %s could not be applied", interaction_id)

    async def sweep(self) -> int:
        """Apply every untaken click of these shards whose token still lives; returns how
        many were found. Runs at start and every ``sweep_seconds``: the safety net for a
        notification that was missed, never a second application (``take`` decides)."""
        async with self._pool.acquire() as connection:
            rows = await connection.fetch(
                "SELECT interaction_id FROM routed_interactions"
                " WHERE applied_at IS NULL AND shard_id = ANY($1::int[]) AND created_at > $2"
                " ORDER BY created_at",
                list(self.shard_ids), now_ms() - TOKEN_LIFETIME_MS,
            )  # fmt: skip
        for row in rows:
            await self._take_and_apply(int(row["interaction_id"]))
        return len(rows)

    async def _sweep_loop(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.sweep_seconds)
            try:
                if self._listener is None or self._listener.is_closed():
                    log.warning("routing: the listening connection was lost; reconnecting")
                    await self._listen()
                await self.sweep()
                await self._forget_old()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("routing sweep failed; retrying in %.0f s", self.sweep_seconds)

    async def _forget_old(self) -> None:
        """Rows older than a token's life can no longer be answered: drop them."""
        async with self._pool.acquire() as connection:
            await connection.execute(
                "DELETE FROM routed_interactions WHERE created_at < $1",
                now_ms() - 2 * TOKEN_LIFETIME_MS,
            )

    async def wait_idle(self) -> None:
        """Tests: wait until the routed clicks received so far have been applied."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        for task in list(self._tasks):
            task.cancel()
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await self._pool.close()
