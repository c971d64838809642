"""The two backends agree: migrations in both dialects, the same schema, the same results
for the same operations, and exactly-once settlement by several processes on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg
import pytest
from pg_server import drop_schema, fresh_schema_name

from data import LATEST_VERSION, SchemaError, Store, open_store, settlement_entries
from data import schema as schema_module
from data.postgres import PostgresStore, to_postgres_placeholders

if TYPE_CHECKING:
    from conftest import BackendDB

ROOT = Path(__file__).resolve().parent.parent
GUILD = 111
NOON = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
BIG_USER = 1_234_567_890_123_456_789  # a Discord snowflake: needs 64 bits


class FakeClock:
    def __init__(self, now: datetime = NOON) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def pg_connect(dsn: str, schema: str) -> asyncpg.Connection:
    return await asyncpg.connect(dsn, server_settings={"search_path": schema})


# ---------------------------------------------------------------------- migrations


def sqlite_schema(path: str) -> dict[str, Any]:
    with sqlite3.connect(path) as connection:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        types = {"INTEGER": "bigint", "TEXT": "text"}
        columns = {
            table: [
                (row[1], types.get(row[2].upper(), row[2].lower()), bool(row[3] or row[5]))
                for row in connection.execute(f"PRAGMA table_info({table})")
            ]
            for table in tables
        }
        indexes = {
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            )
        }
        triggers = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }
    return {"columns": columns, "indexes": indexes, "triggers": triggers}


async def postgres_schema(dsn: str, schema: str) -> dict[str, Any]:
    connection = await pg_connect(dsn, schema)
    try:
        rows = await connection.fetch(
            "SELECT table_name, column_name, data_type, is_nullable, ordinal_position"
            " FROM information_schema.columns WHERE table_schema = $1"
            " ORDER BY table_name, ordinal_position",
            schema,
        )
        primary = {
            (row["table_name"], row["column_name"])
            for row in await connection.fetch(
                "SELECT k.table_name, k.column_name FROM information_schema.table_constraints c"
                " JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)"
                " WHERE c.table_schema = $1 AND c.constraint_type = 'PRIMARY KEY'",
                schema,
            )
        }
        columns: dict[str, list[tuple[str, str, bool]]] = {}
        for row in rows:
            not_null = (
                row["is_nullable"] == "NO"
                and (row["table_name"], row["column_name"]) not in primary
            )
            columns.setdefault(row["table_name"], []).append(
                (row["column_name"], row["data_type"], not_null)
            )
        indexes = {
            row[0]
            for row in await connection.fetch(
                "SELECT indexname FROM pg_indexes WHERE schemaname = $1", schema
            )
            if not row[0].endswith(("_pkey", "_key"))
        }
        triggers = {
            row[0]
            for row in await connection.fetch(
                "SELECT DISTINCT trigger_name FROM information_schema.triggers"
                " WHERE trigger_schema = $1",
                schema,
            )
        }
    finally:
        await connection.close()
    return {"columns": columns, "indexes": indexes, "triggers": triggers}


async def test_every_migration_applies_on_both_backends_to_the_same_schema(
    tmp_path: Path, pg_server: str
) -> None:
    """A migration missing in one dialect, failing on one backend or making different
    tables, columns, indexes or triggers fails here (data/schema.py states the rule)."""
    path = str(tmp_path / "schema.db")
    async with await Store.open(path) as store:
        assert await store.schema_version() == LATEST_VERSION
    schema = fresh_schema_name()
    try:
        async with await open_store(pg_server, schema=schema) as store:
            assert await store.schema_version() == LATEST_VERSION
        lite, postgres = sqlite_schema(path), await postgres_schema(pg_server, schema)
    finally:
        await drop_schema(pg_server, schema)
    # SQLite's "INTEGER PRIMARY KEY" is NOT NULL in effect; compare nullability off the keys.
    lite_columns = {
        table: [(name, kind, not_null) for name, kind, not_null in cols]
        for table, cols in lite["columns"].items()
    }
    for table, cols in lite_columns.items():
        lite_columns[table] = [
            (name, kind, not_null and not _is_sqlite_pk(path, table, name))
            for name, kind, not_null in cols
        ]
    assert postgres["columns"] == lite_columns
    assert postgres["indexes"] - schema_module.POSTGRES_ONLY_INDEXES == lite["indexes"]
    assert postgres["indexes"] >= schema_module.POSTGRES_ONLY_INDEXES
    assert lite["triggers"] <= postgres["triggers"]  # PostgreSQL also refuses TRUNCATE


def _is_sqlite_pk(path: str, table: str, column: str) -> bool:
    with sqlite3.connect(path) as connection:
        return any(
            row[1] == column and row[5] for row in connection.execute(f"PRAGMA table_info({table})")
        )


def test_each_migration_has_postgres_text_and_the_versions_match() -> None:
    lite = schema_module.available_migrations()
    postgres = schema_module.postgres_migrations()
    assert [(m.version, m.name) for m in postgres] == [(m.version, m.name) for m in lite]
    assert all(migration.sql.strip() for migration in postgres)


def test_portable_migration_is_translated_and_sqlite_only_sql_is_refused() -> None:
    portable = schema_module.Migration(
        9,
        "example",
        "CREATE TABLE leases (\n    id INTEGER PRIMARY KEY,\n    name TEXT NOT NULL,\n"
        "    owner INTEGER\n) WITHOUT ROWID;\n"
        "INSERT INTO leases (id, name) VALUES (1, CAST(2 AS TEXT)) ON CONFLICT DO NOTHING;\n",
    )
    text = schema_module.postgres_sql(portable)
    assert "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in text
    assert 'name TEXT COLLATE "C" NOT NULL' in text and "owner BIGINT" in text
    assert "CAST(2 AS TEXT)" in text and "WITHOUT ROWID" not in text
    for sqlite_only in (
        "INSERT OR IGNORE INTO t VALUES (1);",
        "CREATE TRIGGER x BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'no'); END;",
        "SELECT json_extract(meta, '$.a') FROM games;",
        "SELECT MAX(a, b) FROM t;",
        "SELECT SUM(kind = 'hand') FROM ledger;",
    ):
        with pytest.raises(SchemaError, match=r"0009_example\.postgres\.sql"):
            schema_module.postgres_sql(schema_module.Migration(9, "example", sqlite_only))


async def test_failed_postgres_migration_leaves_the_previous_version(
    pg_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = fresh_schema_name()
    try:
        async with await PostgresStore.open(pg_server, schema=schema) as store:
            assert await store.schema_version() == LATEST_VERSION
        broken = [
            *schema_module.postgres_migrations(),
            schema_module.Migration(
                LATEST_VERSION + 1,
                "broken",
                "CREATE TABLE half_done (x BIGINT); SELECT no_such_function();",
            ),
        ]
        monkeypatch.setattr(schema_module, "postgres_migrations", lambda: broken)
        with pytest.raises(asyncpg.UndefinedFunctionError):
            await PostgresStore.open(pg_server, schema=schema)
        monkeypatch.undo()
        connection = await pg_connect(pg_server, schema)
        try:
            assert await connection.fetchval("SELECT MAX(version) FROM schema_migrations") == (
                LATEST_VERSION
            )
            assert await connection.fetchval("SELECT to_regclass('half_done')") is None
            await connection.execute(
                "INSERT INTO schema_migrations VALUES ($1, 'future', 'x')", LATEST_VERSION + 5
            )
        finally:
            await connection.close()
        with pytest.raises(SchemaError, match="newer than this code"):
            await PostgresStore.open(pg_server, schema=schema)
    finally:
        await drop_schema(pg_server, schema)


async def test_processes_opening_a_new_database_together_migrate_it_once(pg_server: str) -> None:
    schema = fresh_schema_name()
    try:
        stores = await asyncio.gather(
            *(PostgresStore.open(pg_server, schema=schema, pool_size=1) for _ in range(4))
        )
        for store in stores:
            await store.close()
        connection = await pg_connect(pg_server, schema)
        try:
            versions = [
                row[0]
                for row in await connection.fetch(
                    "SELECT version FROM schema_migrations ORDER BY 1"
                )
            ]
        finally:
            await connection.close()
        assert versions == list(range(1, LATEST_VERSION + 1))
    finally:
        await drop_schema(pg_server, schema)


def test_placeholders_are_numbered_outside_quoted_text() -> None:
    assert to_postgres_placeholders("SELECT ? , '?' , ?") == "SELECT $1 , '?' , $2"
    assert to_postgres_placeholders("WHERE a = ?1 OR ?1 IS NULL AND b = ?2") == (
        "WHERE a = $1 OR $1 IS NULL AND b = $2"
    )
    with pytest.raises(ValueError, match="mixes"):
        to_postgres_placeholders("SELECT ?, ?2")


# ---------------------------------------------------------------------- same results


async def play_a_season(store: Store, clock: FakeClock, seed: int) -> dict[str, Any]:
    """Random hands, caps, penalties, adjustments and a time-zone change; everything read back."""
    rng = random.Random(seed)
    users = [BIG_USER, *range(1, 9)]
    await store.update_settings(GUILD, hand_cap=400, day_cap=900, starting_balance=500)
    for number in range(60):
        clock.now = NOON + timedelta(hours=7 * number + rng.randrange(3))
        if number == 30:
            await store.update_settings(GUILD, timezone="Asia/Shanghai")
        seated = rng.sample(users, 4)
        if rng.random() < 0.2:
            seated[rng.randrange(4)] = None  # type: ignore[call-overload]
        loss = rng.randint(1, 8)
        winner = rng.randrange(4)
        units = [-loss] * 4
        units[winner] = 3 * loss
        await store.settle_hand(
            GUILD, f"g{number // 8}", number % 8,
            settlement_entries(units, seated, winner), stake=rng.choice((5, 10, 50)),
            winner_user=seated[winner],
        )  # fmt: skip
        if number % 11 == 3:
            await store.record_penalty(GUILD, f"g{number // 8}", users[number % 9], 25,
                                       beneficiaries=[users[(number + 1) % 9]], key=f"p{number}")  # fmt: skip
        if number % 17 == 5:
            await store.adjust_balance(GUILD, users[number % 9], 40, 99, "gift", key=f"a{number}")
    weeks = await store.leaderboard_weeks(GUILD)
    return {
        "weeks": weeks,
        "weekly": [await store.weekly_leaderboard(GUILD, week_start=w, limit=50) for w in weeks],
        "alltime": await store.alltime_leaderboard(GUILD, limit=50),
        "balances": await store.top_balances(GUILD, limit=50),
        "history": [
            await store.history(
                GUILD, u, limit=100, kinds=("hand", "penalty", "adjustment", "opening")
            )
            for u in users
        ],
        "hands": [await store.hand_entries(f"g{n // 8}", n % 8) for n in range(60)],
        "settled": [await store.settled_hands(f"g{n}") for n in range(8)],
        "place": await store.leaderboard_position(GUILD, BIG_USER, week_start=weeks[-1]),
        "unexplained": await store.verify_balances(),
    }


async def test_the_same_play_gives_identical_results_on_both_backends(
    tmp_path: Path, pg_server: str
) -> None:
    lite_clock, pg_clock = FakeClock(), FakeClock()
    async with await Store.open(tmp_path / "same.db", clock=lite_clock) as store:
        lite = await play_a_season(store, lite_clock, seed=7)
        await store.rebuild_stats()
        lite_rebuilt = await store.alltime_leaderboard(GUILD, limit=50)
    schema = fresh_schema_name()
    try:
        async with await open_store(pg_server, schema=schema, clock=pg_clock) as store:
            postgres = await play_a_season(store, pg_clock, seed=7)
            await store.rebuild_stats()
            pg_rebuilt = await store.alltime_leaderboard(GUILD, limit=50)
    finally:
        await drop_schema(pg_server, schema)
    assert lite["unexplained"] == [] and len(lite["weeks"]) >= 3
    assert any(row.capped for hand in lite["hands"] for row in hand)  # caps took part
    assert any(row.user_id == BIG_USER for row in lite["alltime"])
    for key in lite:
        assert postgres[key] == lite[key], key
    assert pg_rebuilt == lite_rebuilt == lite["alltime"]


async def test_discord_sized_ids_round_trip(db: BackendDB) -> None:
    store = await db.open()
    assert await store.settle_hand(GUILD * 10**15, "g", 0,
                                   settlement_entries([3, -1, -1, -1], [BIG_USER, 2**63 - 1, 3, 4], 0),
                                   stake=1)  # fmt: skip
    assert await store.get_balance(GUILD * 10**15, 2**63 - 1) == 999
    await store.set_user_pref(BIG_USER, "dms_closed", True)
    assert await store.get_user_prefs(BIG_USER) == {"dms_closed": True}


# ---------------------------------------------------------------------- several processes

WRITER = textwrap.dedent(
    """
    import asyncio, json, sys
    from data import open_store, settlement_entries

    async def main(dsn, schema, worker, hands):
        store = await open_store(dsn, schema=schema, pool_size=2)
        won = []
        try:
            order = list(range(hands))
            if worker % 2:
                order.reverse()  # half the writers race from the other end
            for number in order:
                users = [1 + (number * 3 + seat * 5) % 12 for seat in range(4)]
                units = [-(number % 4 + 1)] * 4
                units[number % 4] = 3 * (number % 4 + 1)
                entries = settlement_entries(units, users, number % 4)
                if await store.settle_hand(1, f"game{number // 10}", number % 10, entries, stake=10):
                    won.append(number)
        finally:
            retries = store.retries
            await store.close()
        print(json.dumps({"won": won, "retries": retries}))

    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    """
)


async def test_processes_settling_the_same_hands_pay_each_exactly_once(
    tmp_path: Path, pg_server: str
) -> None:
    """Four OS processes settle the same 60 hands (shared players) at the same time: no
    in-process lock can help them, only the database's keys and transactions."""
    import json

    schema = fresh_schema_name()
    hands, workers = 60, 4
    script = tmp_path / "writer.py"
    script.write_text(WRITER, encoding="utf-8")
    try:
        async with await open_store(pg_server, schema=schema) as store:
            await store.ensure_balance(1, 1)  # migrated before the race starts
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        processes = [
            subprocess.Popen(
                [sys.executable, str(script), pg_server, schema, str(worker), str(hands)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            for worker in range(workers)
        ]
        results = []
        for process in processes:
            out, err = process.communicate(timeout=300)
            assert process.returncode == 0, err
            results.append(json.loads(out.strip().splitlines()[-1]))
        won = sorted(number for result in results for number in result["won"])
        assert won == list(range(hands))  # each hand paid by exactly one process
        expected = dict.fromkeys(range(1, 13), 1000)
        for number in range(hands):
            users = [1 + (number * 3 + seat * 5) % 12 for seat in range(4)]
            units = [-(number % 4 + 1)] * 4
            units[number % 4] = 3 * (number % 4 + 1)
            for user, unit in zip(users, units, strict=True):
                expected[user] += unit * 10
        async with await open_store(pg_server, schema=schema) as store:
            assert await store.verify_balances() == []
            assert {u: await store.get_balance(1, u) for u in expected} == expected
            board = await store.alltime_leaderboard(1, limit=20)
            assert sum(row.hands for row in board) == hands * 4
            assert sum(row.net for row in board) == 0
        connection = await pg_connect(pg_server, schema)
        try:
            assert (
                await connection.fetchval("SELECT COUNT(*) FROM ledger WHERE kind = 'hand'")
                == hands * 4
            )
            assert (
                await connection.fetchval("SELECT COUNT(*) FROM ledger_ops WHERE kind = 'hand'")
                == hands
            )
        finally:
            await connection.close()
    finally:
        await drop_schema(pg_server, schema)


# ---------------------------------------------------------------------- db migrate / db copy


def fresh_database(dsn: str) -> str:
    """A new, empty database on the test server; its URL."""
    import urllib.parse

    name = fresh_schema_name()

    async def create() -> None:
        connection = await asyncpg.connect(dsn)
        try:
            await connection.execute(f"CREATE DATABASE {name}")
        finally:
            await connection.close()

    asyncio.run(create())
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(dsn)._replace(path=f"/{name}"))


def drop_database(dsn: str, url: str) -> None:
    name = url.rsplit("/", 1)[-1]

    async def drop() -> None:
        connection = await asyncpg.connect(dsn)
        try:
            await connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await connection.close()

    asyncio.run(drop())


def test_db_copy_moves_everything_verified_and_refuses_a_used_destination(
    tmp_path: Path, pg_server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    source = tmp_path / "move.db"
    clock = FakeClock()

    async def fill() -> dict[str, Any]:
        async with await Store.open(source, clock=clock) as store:
            season = await play_a_season(store, clock, seed=3)
            await store.create_game("open", GUILD, 42, "jiaxing", {}, [], 9, status="running",
                                    seated_user=5)  # fmt: skip
            await store.append_action("open", 0, {"type": "discard", "tile": "东"}, 0)
            await store.set_user_pref(BIG_USER, "dms_closed", True)
            return season

    before = asyncio.run(fill())
    destination = fresh_database(pg_server)
    try:
        assert main(["db", "copy", str(source), destination]) == 0
        assert "balances verified" in capsys.readouterr().out

        async def check() -> None:
            async with await open_store(destination, clock=clock) as store:
                after = await play_a_season_readback(store)
                for key in ("weekly", "alltime", "balances", "history", "hands"):
                    assert after[key] == before[key], key
                assert await store.load_actions("open") == [{"type": "discard", "tile": "东"}]
                assert await store.seated_game(5) == "open"
                assert await store.get_user_prefs(BIG_USER) == {"dms_closed": True}
                # New rows get fresh ids after the copied ones (identities were moved on).
                assert await store.settle_hand(GUILD, "after-copy", 0,
                                               settlement_entries([3, -1, -1, -1], [1, 2, 3, 4], 0),
                                               stake=1)  # fmt: skip
                assert await store.verify_balances() == []

        asyncio.run(check())
        assert main(["db", "copy", str(source), destination]) == 2
        assert "already holds data" in capsys.readouterr().err
        assert main(["db", "copy", str(source), str(tmp_path / "other.db")]) == 2
        assert "postgresql://" in capsys.readouterr().err
        assert main(["db", "migrate", "--db", destination]) == 0
        assert f"schema version {LATEST_VERSION}" in capsys.readouterr().out
    finally:
        drop_database(pg_server, destination)


async def play_a_season_readback(store: Store) -> dict[str, Any]:
    users = [BIG_USER, *range(1, 9)]
    weeks = await store.leaderboard_weeks(GUILD)
    return {
        "weekly": [await store.weekly_leaderboard(GUILD, week_start=w, limit=50) for w in weeks],
        "alltime": await store.alltime_leaderboard(GUILD, limit=50),
        "balances": await store.top_balances(GUILD, limit=50),
        "history": [
            await store.history(
                GUILD, u, limit=100, kinds=("hand", "penalty", "adjustment", "opening")
            )
            for u in users
        ],
        "hands": [await store.hand_entries(f"g{n // 8}", n % 8) for n in range(60)],
    }


def test_db_migrate_upgrades_a_sqlite_file_and_explains_an_unreachable_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    path = tmp_path / "old.db"
    with sqlite3.connect(path, isolation_level=None) as connection:
        schema_module.migrate(connection, target=1)
    assert main(["db", "migrate", "--db", str(path)]) == 0
    assert f"schema version {LATEST_VERSION}" in capsys.readouterr().out
    with sqlite3.connect(path) as connection:
        assert schema_module.current_version(connection) == LATEST_VERSION
    assert main(["db", "migrate", "--db", "postgresql://nobody@127.0.0.1:1/none"]) == 2
    assert "database unusable" in capsys.readouterr().err


def test_a_whole_terminal_match_on_postgresql_chosen_by_mahjong_db(
    tmp_path: Path, pg_server: str
) -> None:
    """``MAHJONG_DB=postgresql://...`` selects PostgreSQL: a real ``mahjong-bot play``
    process plays a match (tables, action log, settlement) into it."""
    database = fresh_database(pg_server)
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8",
               "MAHJONG_DB": database, "XDG_DATA_HOME": str(tmp_path)}  # fmt: skip
        completed = subprocess.run(
            [sys.executable, "-m", "bot.cli", "play", "--seed", "5", "--ai-level", "easy",
             "--name", "Me"],
            input="\n" * 3000, capture_output=True, text=True, encoding="utf-8", env=env,
            cwd=tmp_path, timeout=300,
        )  # fmt: skip
        assert completed.returncode == 0, completed.stderr
        assert "终局 / Match over" in completed.stdout
        assert not (tmp_path / "mahjong-bot").exists()  # the default SQLite file was not used

        async def check() -> None:
            async with await open_store(database) as store:
                (game,) = await store.finished_games(1)
                assert game.status == "finished" and game.action_count > 50
                assert len(await store.settled_hands(game.game_id)) >= 4
                assert await store.verify_balances() == []
                assert f"Your balance: {await store.get_balance(1, 1)}" in completed.stdout

        asyncio.run(check())
    finally:
        drop_database(pg_server, database)


async def test_a_read_of_several_statements_sees_one_snapshot(db: BackendDB) -> None:
    """One-statement reads skip BEGIN/COMMIT on PostgreSQL; a read body with more than one
    statement is run (again) inside one snapshot, so a commit from another connection
    between its statements is not seen half-way."""
    import threading

    store = await db.open()
    await store.set_user_pref(1, "a", True)
    runs: list[int] = []

    def commit_elsewhere(key: str) -> None:
        sql = f"INSERT INTO user_prefs (user_id, key, value) VALUES (2, '{key}', 'true')"
        worker = threading.Thread(target=lambda: asyncio.run(db.execute_raw(sql)))
        worker.start()
        worker.join()  # committed before the body goes on

    def body(connection: Any) -> tuple[int, int, bool]:
        first = connection.execute("SELECT COUNT(*) FROM user_prefs").fetchone()[0]
        runs.append(first)
        commit_elsewhere(f"k{len(runs)}")
        second = connection.execute("SELECT COUNT(*) FROM user_prefs").fetchone()[0]
        return first, second, connection.in_transaction

    first, second, in_transaction = await store._read(body)
    assert first == second and in_transaction
    assert runs == ([1, 2] if db.kind == "postgres" else [1])  # PostgreSQL ran it twice
    assert len(await store.get_user_prefs(2)) == len(runs)


def test_without_a_server_the_postgres_tests_fail_with_directions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No MAHJONG_TEST_PG and no PostgreSQL binaries: an error that says what to do (the
    ``pg_server`` fixture turns it into a failure, never a skip)."""
    import pg_server

    monkeypatch.delenv(pg_server.ENV_VAR, raising=False)
    monkeypatch.setattr(pg_server, "find_binaries", lambda: None)
    with pytest.raises(pg_server.NoServerError, match="MAHJONG_TEST_PG=postgresql://"):
        pg_server.server_dsn()
    monkeypatch.setenv(pg_server.ENV_VAR, "postgresql://someone@db.example/x")
    assert pg_server.server_dsn() == ("postgresql://someone@db.example/x", None)
