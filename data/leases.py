"""Leases: one holder at a time for a job that must run once across processes.

Why in the database: an in-process lock cannot stop a second process (a replacement
started before the old one died, two processes given the same shard) from running the
same job; a row that only one holder may own until it expires can. The row is kept when
its holder dies mid-job, so the next holder learns that an attempt was made
(``Lease.previous_holder``) and can check what that attempt left behind.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from .connection import StoreBase

__all__ = ["Lease", "LeasesPart"]


@dataclass(frozen=True)
class Lease:
    """A granted lease. ``previous_holder`` is who held it before (an expired holder,
    or this holder again), or None when nobody had: then no earlier attempt exists."""

    name: str
    holder: str
    expires_at_ms: int
    previous_holder: str | None


class LeasesPart(StoreBase):
    """Lease rows (migration 0005); the same statements on SQLite and PostgreSQL."""

    async def acquire_lease(self, name: str, holder: str, ttl_ms: int, now_ms: int) -> Lease | None:
        """Take ``name`` for ``holder`` until ``now_ms + ttl_ms`` if it is free, expired, or
        already ``holder``'s (a renewal); None while another holder's lease runs."""
        if ttl_ms <= 0:
            raise ValueError("ttl_ms must be positive")

        def body(connection: sqlite3.Connection) -> Lease | None:
            # Who held it before: only informative (a stale answer cannot grant anything).
            row = connection.execute("SELECT holder FROM leases WHERE name = ?", (name,)).fetchone()
            previous = str(row[0]) if row is not None else None
            # The grant itself is one statement: PostgreSQL locks the conflicting row and
            # re-checks the condition on its newest version, SQLite holds the write lock,
            # so two processes can never both see "expired" and both take it.
            granted = connection.execute(
                "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE"
                " SET holder = excluded.holder, expires_at = excluded.expires_at"
                " WHERE leases.expires_at <= ? OR leases.holder = excluded.holder"
                " RETURNING holder",
                (name, holder, now_ms + ttl_ms, now_ms),
            ).fetchone()
            if granted is None:
                return None
            return Lease(name, holder, now_ms + ttl_ms, previous)

        return await self._write(body)

    async def release_lease(self, name: str, holder: str) -> bool:
        """Drop the lease if ``holder`` still holds it (the job finished); False if it had
        expired and another holder took it meanwhile."""

        def body(connection: sqlite3.Connection) -> bool:
            cursor = connection.execute(
                "DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder)
            )
            return cursor.rowcount > 0

        return await self._write(body)
