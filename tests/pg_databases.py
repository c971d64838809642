"""A fresh PostgreSQL database per test, on the server of the ``pg_server`` fixture.

Why a database and not a schema (as the storage tests use): ``NOTIFY`` channels are
shared by a whole database, so two tests routing clicks at once in two schemas of one
database would hear each other's notifications; in a database of its own each test's
processes hear only each other. Stores opened on the URL use its ``public`` schema.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


def _with_database(dsn: str, name: str) -> str:
    base, _, _ = dsn.partition("?")[0].rpartition("/")
    return f"{base}/{name}"


@asynccontextmanager
async def fresh_database(server_dsn: str) -> AsyncIterator[str]:
    """A new, empty database (dropped afterwards); yields its URL."""
    import asyncpg

    name = f"mj_test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(server_dsn)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield _with_database(server_dsn, name)
    finally:
        admin = await asyncpg.connect(server_dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def apply_coordination_schema(url: str) -> None:
    """Migration 0005 (leases, routed clicks) alone, as PostgreSQL runs it, for tests of
    the routing and lease code that need no store."""
    import asyncpg

    from data.schema import available_migrations, postgres_sql

    (migration,) = [m for m in available_migrations() if m.name == "leases_and_routing"]
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(postgres_sql(migration))
    finally:
        await connection.close()
