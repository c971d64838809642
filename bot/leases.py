"""Leases for jobs that must run once across bot processes (the weekly leaderboard post).

:class:`StoreLeases` uses the store's lease rows (``data.leases``: the same statements on
SQLite and PostgreSQL). The row of a holder that died mid-job is kept, so the next holder
sees ``previous_holder`` and can check whether the dead holder's work (a post) went out.
A protocol, so a test can hand the bot leases that fail or stall.
"""

from __future__ import annotations

from typing import Any, Protocol

from data.leases import Lease

__all__ = ["Lease", "Leases", "StoreLeases"]


class Leases(Protocol):
    async def acquire(self, name: str, holder: str, ttl_ms: int, now_ms: int) -> Lease | None:
        """The lease if it was free, expired or already ``holder``'s; else None."""

    async def release(self, name: str, holder: str) -> bool: ...

    async def close(self) -> None: ...


class StoreLeases:
    """Leases in the bot's own store (``Store`` or ``PostgresStore``)."""

    def __init__(self, store: Any) -> None:
        self.store = store

    async def acquire(self, name: str, holder: str, ttl_ms: int, now_ms: int) -> Lease | None:
        result: Lease | None = await self.store.acquire_lease(name, holder, ttl_ms, now_ms)
        return result

    async def release(self, name: str, holder: str) -> bool:
        return bool(await self.store.release_lease(name, holder))

    async def close(self) -> None:
        """The store is closed by its owner."""
