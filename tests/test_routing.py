"""Sharded processes: the shard plan, the leases and the click routers (issue 15, item 2).

The PostgreSQL tests run on the server of the ``pg_server`` fixture (tests/conftest.py),
each in a database of its own; without a server they fail (never skip).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import BackendDB
from pg_databases import apply_coordination_schema, fresh_database

from bot.leases import Leases, StoreLeases
from bot.routing import InProcessRouter, PostgresRouter, RoutedClick, now_ms
from bot.shards import ShardPlan, ShardPlanError, shard_of

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------- the shard plan


def test_discords_formula_assigns_guilds_to_shards() -> None:
    guild = 900_000_000_000_000_001
    assert shard_of(guild, 1) == 0
    assert shard_of(guild, 2) == (guild >> 22) % 2 == 1
    assert shard_of(guild + (1 << 22), 2) == 0
    plan = ShardPlan.parse(2, "1")
    assert plan.owns(guild) and not plan.owns(guild + (1 << 22))
    assert not plan.runs_every_shard
    assert ShardPlan.parse(2, None).shard_ids == (0, 1)
    assert ShardPlan.parse(4, " 3,1 ").shard_ids == (1, 3)
    unsharded = ShardPlan.parse(None, None)
    assert unsharded.owns(guild) and unsharded.runs_every_shard and not unsharded.sharded
    assert unsharded.syncs_commands and ShardPlan.parse(2, "0").syncs_commands
    assert not plan.syncs_commands  # shard 1 only: shard 0's process syncs


@pytest.mark.parametrize(
    ("count", "shards", "says"),
    [
        (None, "0,1", "--shards needs --shard-count"),
        (0, None, "--shard-count must be at least 1"),
        (2, "0,2", "shard 2 does not exist with --shard-count 2"),
        (2, "1,1", "shard 1 is listed twice"),
        (2, "0;1", "shard numbers separated by commas"),
        (2, "-1", "shard numbers separated by commas"),
        (2, "", "shard numbers separated by commas"),
    ],
)
def test_bad_shard_arguments_are_refused(count: int | None, shards: str | None, says: str) -> None:
    with pytest.raises(ShardPlanError, match=says):
        ShardPlan.parse(count, shards)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--shards", "0,1"], "--shards needs --shard-count"),
        (["--shard-count", "2", "--shards", "0,5"], "shard 5 does not exist"),
        (["--shard-count", "2", "--shards", "1", "--db", "bot.db"], "PostgreSQL"),
    ],
)
def test_run_refuses_bad_shard_arguments_with_one_line_and_exit_2(
    argv: list[str], says: str, tmp_path: Path
) -> None:
    """Checked before the token is even looked for: no token is set here."""
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "run", *argv],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mahjong-bot run: ") and says in lines[0]


# ---------------------------------------------------------------------- leases


async def test_a_lease_has_one_holder_until_it_expires(db: BackendDB) -> None:
    leases: Leases = StoreLeases(await db.open())
    first = await leases.acquire("job", "a", 1000, 10_000)
    assert first is not None and first.previous_holder is None
    assert await leases.acquire("job", "b", 1000, 10_500) is None  # a's still runs
    renewed = await leases.acquire("job", "a", 1000, 10_600)
    assert renewed is not None and renewed.expires_at_ms == 11_600
    taken = await leases.acquire("job", "b", 1000, 11_600)  # expired: b takes it over
    assert taken is not None and taken.previous_holder == "a"
    assert not await leases.release("job", "a")  # no longer a's to release
    assert await leases.release("job", "b")
    fresh = await leases.acquire("job", "c", 1000, 11_700)
    assert fresh is not None and fresh.previous_holder is None  # released: no attempt left


@pytest.mark.parametrize("expired", [False, True])
async def test_processes_racing_for_a_lease_get_one(db: BackendDB, expired: bool) -> None:
    """Eight processes (a store each, its own connections) at once, on a free lease and
    on one whose holder died: exactly one of them gets it."""
    stores = [await db.open() for _ in range(8)]
    if expired:
        assert await StoreLeases(stores[0]).acquire("weekly", "dead", 10, 1_000) is not None
    results = await asyncio.gather(
        *(StoreLeases(store).acquire("weekly", f"p{i}", 60_000, 2_000)
          for i, store in enumerate(stores))
    )  # fmt: skip
    granted = [result for result in results if result is not None]
    assert len(granted) == 1
    assert granted[0].previous_holder == ("dead" if expired else None)


# ---------------------------------------------------------------------- routers


def click(interaction_id: int, shard_id: int = 1, turn_id: int = 5) -> RoutedClick:
    return RoutedClick(
        interaction_id=interaction_id, application_id=42, token=f"tok{interaction_id}",
        user_id=7, table_id="abc123", turn_id=turn_id, action={"type": "pass"},
        shard_id=shard_id,
    )  # fmt: skip


def test_a_routed_click_survives_its_json_form() -> None:
    original = click(4_000_000_000_000_000_123)
    assert RoutedClick.from_json(original.to_json()) == original


async def test_in_process_router_applies_each_interaction_once() -> None:
    applied: list[int] = []

    async def handler(routed: RoutedClick) -> None:
        applied.append(routed.interaction_id)

    router = InProcessRouter()
    await router.start(handler)
    await router.publish(click(1))
    await router.publish(click(1))
    await router.publish(click(2))
    assert applied == [1, 2]


async def wait_until(condition: object, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def test_postgres_router_delivers_to_the_owning_shard_exactly_once(pg_server: str) -> None:
    async with fresh_database(pg_server) as url:
        await apply_coordination_schema(url)
        applied: dict[str, list[int]] = {"shard0": [], "shard1": [], "shard1-twin": []}

        def recorder(name: str):  # type: ignore[no-untyped-def]
            async def handler(routed: RoutedClick) -> None:
                applied[name].append(routed.interaction_id)

            return handler

        shard0 = PostgresRouter(url, [0], sweep_seconds=0.2)
        shard1 = PostgresRouter(url, [1], sweep_seconds=0.2)
        # A second process of shard 1 (a replacement started before the old one stopped):
        # both hear every notification; only one may apply each click.
        twin = PostgresRouter(url, [1], sweep_seconds=0.2)
        await shard0.start(recorder("shard0"))
        await shard1.start(recorder("shard1"))
        await twin.start(recorder("shard1-twin"))
        try:
            await shard0.publish(click(101, shard_id=1))
            await shard0.publish(click(101, shard_id=1))  # delivered twice
            await shard0.publish(click(102, shard_id=1))
            await shard1.publish(click(103, shard_id=0))  # the other direction
            await wait_until(lambda: len(applied["shard1"]) + len(applied["shard1-twin"]) >= 2
                             and applied["shard0"])  # fmt: skip
            # A repeated notification of an applied click, and the sweep, change nothing.
            import asyncpg

            connection = await asyncpg.connect(url)
            await connection.execute("SELECT pg_notify('mahjong_routed_clicks', '1:101')")
            await connection.close()
            await asyncio.sleep(0.6)  # a few sweeps
            for router in (shard0, shard1, twin):
                await router.wait_idle()
            to_shard1 = sorted(applied["shard1"] + applied["shard1-twin"])
            assert to_shard1 == [101, 102]
            assert applied["shard0"] == [103]
        finally:
            for router in (shard0, shard1, twin):
                await router.close()


async def test_a_click_published_while_its_owner_is_down_is_applied_when_it_returns(
    pg_server: str,
) -> None:
    async with fresh_database(pg_server) as url:
        await apply_coordination_schema(url)
        receiver = PostgresRouter(url, [0])
        await receiver.start(_ignore)
        applied: list[int] = []

        async def owner_handler(routed: RoutedClick) -> None:
            applied.append(routed.interaction_id)

        try:
            await receiver.publish(click(201, shard_id=1))  # nobody listens for shard 1
            stale = RoutedClick(**{**click(202, shard_id=1).__dict__,
                                   "created_ms": now_ms() - 16 * 60 * 1000})  # fmt: skip
            await receiver.publish(stale)  # its token has expired: not worth applying
            owner = PostgresRouter(url, [1])
            await owner.start(owner_handler)  # the replacement sweeps at start
            await owner.wait_idle()
            assert applied == [201]
            await owner.close()
        finally:
            await receiver.close()


async def _ignore(_routed: RoutedClick) -> None:
    raise AssertionError("this process owns no table the test routes")
