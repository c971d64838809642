"""Leases for jobs that must run once across bot processes (the weekly leaderboard post).

:class:`StoreLeases` uses the SQLite store's lease rows (``data.leases``);
:class:`PostgresLeases` runs the same logic on PostgreSQL through asyncpg. Both keep the
row of a holder that died mid-job, so the next holder sees ``previous_holder`` and can
check whether the dead holder's work (a post) already went out.
"""

from __future__ import annotations

import contextlib
from typing import Any, Protocol

from data.leases import Lease

__all__ = ["Lease", "Leases", "PostgresLeases", "StoreLeases"]


class Leases(Protocol):
    async def acquire(self, name: str, holder: str, ttl_ms: int, now_ms: int) -> Lease | None:
        """The lease if it was free, expired or already ``holder``'s; else None."""

    async def release(self, name: str, holder: str) -> bool: ...

    async def close(self) -> None: ...


class StoreLeases:
    """Leases in the bot's own store (SQLite; any store with ``acquire_lease``)."""

    def __init__(self, store: Any) -> None:
        self.store = store

    async def acquire(self, name: str, holder: str, ttl_ms: int, now_ms: int) -> Lease | None:
        result: Lease | None = await self.store.acquire_lease(name, holder, ttl_ms, now_ms)
        return result

    async def release(self, name: str, holder: str) -> bool:
        return bool(await self.store.release_lease(name, holder))

    async def close(self) -> None:
        """The store is closed by its owner."""


class PostgresLeases:
    """The ``leases`` table of migration 0005 on PostgreSQL.

    The row is read ``FOR UPDATE`` and replaced in one transaction; a first holder's
    ``INSERT … ON CONFLICT DO NOTHING`` loses cleanly to a concurrent first holder.
    """

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._pool: Any = None

    async def _connection_pool(self) -> Any:
        if self._pool is None:
            import asyncpg

            self._pool = await asyncpg.create_pool(self.dsn, min_size=1, max_size=2)
        return self._pool

    async def acquire(self, name: str, holder: str, ttl_ms: int, now_ms: int) -> Lease | None:
        if ttl_ms <= 0:
            raise ValueError("ttl_ms must be positive")
        pool = await self._connection_pool()
        expires = now_ms + ttl_ms
        async with pool.acquire() as connection, connection.transaction():
            row = await connection.fetchrow(
                "SELECT holder, expires_at FROM leases WHERE name = $1 FOR UPDATE", name
            )
            if row is None:
                inserted = await connection.fetchval(
                    "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)"
                    " ON CONFLICT (name) DO NOTHING RETURNING name",
                    name, holder, expires,
                )  # fmt: skip
                return Lease(name, holder, expires, None) if inserted is not None else None
            previous, previous_expiry = str(row["holder"]), int(row["expires_at"])
            if previous != holder and previous_expiry > now_ms:
                return None
            await connection.execute(
                "UPDATE leases SET holder = $1, expires_at = $2 WHERE name = $3",
                holder, expires, name,
            )  # fmt: skip
            return Lease(name, holder, expires, previous)

    async def release(self, name: str, holder: str) -> bool:
        pool = await self._connection_pool()
        async with pool.acquire() as connection:
            status = await connection.execute(
                "DELETE FROM leases WHERE name = $1 AND holder = $2", name, holder
            )
        return bool(status.endswith(" 1"))

    async def close(self) -> None:
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await self._pool.close()
            self._pool = None
