"""A fresh PostgreSQL database per test, on the server ``MAHJONG_TEST_POSTGRES`` names.

PostgreSQL tests fail, never skip, when no server is configured: a run that silently
leaves out the multi-process tests would look green while testing nothing of them.
``.ci/run`` starts a server and sets the variable; locally, e.g.
``MAHJONG_TEST_POSTGRES=postgresql://postgres@127.0.0.1:55434/postgres``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

ENV = "MAHJONG_TEST_POSTGRES"


def server_url() -> str:
    url = os.environ.get(ENV, "").strip()
    if not url:
        pytest.fail(
            f"PostgreSQL tests need a server: set {ENV}=postgresql://user@host:port/db "
            "(.ci/run starts one)",
            pytrace=False,
        )
    return url


def _with_database(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


@asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A new, empty database on the test server (dropped afterwards); yields its URL."""
    import asyncpg

    url = server_url()
    name = f"mj_test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield _with_database(url, name)
    finally:
        admin = await asyncpg.connect(url)
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
