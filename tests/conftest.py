"""Fixtures shared by the storage tests: one database per test, on SQLite or PostgreSQL.

A test that takes ``db`` (or a fixture built on it, such as test_storage's ``store``)
runs twice, once per backend: that is the storage contract. The PostgreSQL server is
found or started once per session by ``pg_server`` (tests/pg_server.py); without one the
PostgreSQL runs fail with a message saying how to provide it (they are never skipped).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from pg_server import NO_SERVER, Cluster, NoServerError, drop_schema, fresh_schema_name, server_dsn

from data import Store, open_store

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The DSN of a PostgreSQL server the tests may create schemas in."""
    try:
        dsn, cluster = server_dsn()
    except NoServerError as error:
        pytest.fail(str(error), pytrace=False)
    except OSError as error:
        pytest.fail(f"{NO_SERVER} ({error})", pytrace=False)
    try:
        yield dsn
    finally:
        if isinstance(cluster, Cluster):
            cluster.stop()


class BackendDB:
    """One test's database: open stores on it, and reach it without the store."""

    def __init__(self, kind: str, target: str, schema: str | None) -> None:
        self.kind = kind
        self.target = target
        self.schema = schema
        self._stores: list[Store] = []

    async def open(self, **kwargs: Any) -> Store:
        """A new store (its own connections) on this test's database."""
        if self.schema is not None:
            kwargs.setdefault("schema", self.schema)
        store = await open_store(self.target, **kwargs)
        self._stores.append(store)
        return store

    async def fetch_raw(self, sql: str) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` (no parameters) through a connection of its own."""
        if self.kind == "sqlite":
            with sqlite3.connect(self.target) as connection:
                return [tuple(row) for row in connection.execute(sql).fetchall()]
        import asyncpg

        connection = await asyncpg.connect(
            self.target, server_settings={"search_path": self.schema or "public"}
        )
        try:
            return [tuple(row) for row in await connection.fetch(sql)]
        finally:
            await connection.close()

    async def execute_raw(self, sql: str) -> None:
        """Run ``sql`` outside the store; a refused change raises ``sqlite3.IntegrityError``
        on both backends (PostgreSQL's constraint errors are translated)."""
        if self.kind == "sqlite":
            connection = sqlite3.connect(self.target, isolation_level=None)
            try:
                connection.execute(sql)
            finally:
                connection.close()
            return
        import asyncpg

        from data.postgres import PgIntegrityError

        connection = await asyncpg.connect(
            self.target, server_settings={"search_path": self.schema or "public"}
        )
        try:
            await connection.execute(sql)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise PgIntegrityError(str(error)) from error
        finally:
            await connection.close()

    async def close(self) -> None:
        for store in self._stores:
            await store.close()
        if self.schema is not None:
            await drop_schema(self.target, self.schema)


@pytest.fixture(params=BACKENDS)
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[BackendDB]:
    """This test's database, once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        database = BackendDB("sqlite", str(tmp_path / "bot.db"), None)
    else:
        dsn = request.getfixturevalue("pg_server")
        database = BackendDB("postgres", dsn, fresh_schema_name())
    try:
        yield database
    finally:
        await database.close()
