"""Storage: migrations, exactly-once settlement, caps, penalties, leaderboards, games, settings."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from data import (
    LATEST_VERSION,
    ActionConflictError,
    DuplicateGameError,
    LeaderboardRow,
    SchemaError,
    SettingsError,
    SettlementEntry,
    Store,
    UnknownGameError,
    apply_caps,
    bounds_for_week_start,
    settlement_entries,
    week_bounds,
)
from data import schema as schema_module
from data.caps import player_limit

if TYPE_CHECKING:
    from conftest import BackendDB

GUILD = 111
OTHER_GUILD = 222
# Thursday noon UTC: far from any week boundary unless a test moves it.
NOON = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, now: datetime = NOON) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(db: BackendDB, clock: FakeClock) -> AsyncIterator[Store]:
    """A store on this test's database: every test using it runs on SQLite and PostgreSQL."""
    yield await db.open(clock=clock)


def hand(*units: int, users: tuple[int | None, ...] = (1, 2, 3, 4)) -> list[SettlementEntry]:
    winner = max(range(len(units)), key=lambda seat: units[seat])
    return settlement_entries(list(units), list(users), winner)


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


# ---------------------------------------------------------------------- migrations


async def test_empty_database_is_migrated_to_latest_and_reopening_applies_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "fresh.db"
    async with await Store.open(path) as store:
        assert await store.schema_version() == LATEST_VERSION
        await store.settle_hand(GUILD, "g", 0, hand(3, -1, -1, -1), stake=10)
    with raw(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert schema_module.migrate(connection) == []  # re-applied: nothing to do
        versions = [row[0] for row in connection.execute("SELECT version FROM schema_migrations")]
        assert versions == list(range(1, LATEST_VERSION + 1))
    async with await Store.open(path) as store:
        assert await store.get_balance(GUILD, 1) == 1030
        assert await store.schema_version() == LATEST_VERSION


async def test_version_1_database_with_data_is_upgraded_and_backfilled(tmp_path: Path) -> None:
    """A v1 file (no aggregate tables) written by older code gains correct leaderboards."""
    path = tmp_path / "old.db"
    connection = raw(path)
    assert schema_module.migrate(connection, target=1) == [1]
    created = "2026-11-26T12:00:00.000000+00:00"
    connection.execute(
        "INSERT INTO ledger_ops (op_id, guild_id, kind, op_key, game_id, hand_number, stake,"
        " created_at) VALUES (1, ?, 'hand', 'hand:old:0', 'old', 0, 5, ?)",
        (GUILD, created),
    )
    for seat, (user, units) in enumerate([(1, 3), (2, -2), (3, -1)]):
        connection.execute(
            "INSERT INTO ledger (op_id, guild_id, kind, game_id, hand_number, seat, user_id, units,"
            " stake, points, original_points, is_winner, created_at, week_start, local_day)"
            " VALUES (1, ?, 'hand', 'old', 0, ?, ?, ?, 5, ?, ?, ?, ?, '2026-11-23', '2026-11-26')",
            (GUILD, seat, user, units, units * 5, units * 5, int(units > 0), created),
        )
    connection.close()

    async with await Store.open(path, clock=FakeClock()) as store:
        assert await store.schema_version() == LATEST_VERSION
        board = await store.weekly_leaderboard(GUILD)
        assert board == [
            LeaderboardRow(user_id=1, net=15, hands=1, wins=1, biggest=15),
            LeaderboardRow(user_id=3, net=-5, hands=1, wins=0, biggest=0),
            LeaderboardRow(user_id=2, net=-10, hands=1, wins=0, biggest=0),
        ]
        # The old hand is still exactly-once after the upgrade.
        assert not await store.settle_hand(GUILD, "old", 0, hand(3, -2, -1, 0), stake=5)


async def test_failed_migration_leaves_previous_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "broken.db"
    connection = raw(path)
    schema_module.migrate(connection, target=1)
    real = schema_module.available_migrations()
    broken = schema_module.Migration(
        2, "broken", "CREATE TABLE half_done (x INTEGER);\nSELECT * FROM no_such_table;"
    )
    monkeypatch.setattr(schema_module, "available_migrations", lambda: [real[0], broken])
    with pytest.raises(sqlite3.OperationalError):
        schema_module.migrate(connection)
    assert schema_module.current_version(connection) == 1
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "half_done" not in tables
    connection.close()


async def test_database_newer_than_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    connection = raw(path)
    schema_module.migrate(connection)
    connection.execute("INSERT INTO schema_migrations VALUES (99, 'future', 'x')")
    connection.close()
    with pytest.raises(SchemaError, match="newer"):
        await Store.open(path)


def test_statement_splitter_keeps_trigger_bodies_whole() -> None:
    script = "CREATE TABLE t (x);\n-- comment; with semicolon\nCREATE TRIGGER tr BEFORE DELETE ON t\nBEGIN\n  SELECT 1;\n  SELECT 2;\nEND;\n"
    statements = schema_module.split_statements(script)
    assert len(statements) == 2
    assert "CREATE TRIGGER" in statements[1] and statements[1].endswith("END;")


async def test_ledger_is_append_only(db: BackendDB, store: Store) -> None:
    await store.settle_hand(GUILD, "g", 0, hand(3, -1, -1, -1), stake=1)
    for statement in ("UPDATE ledger SET points = 0", "DELETE FROM ledger_ops",
                      "UPDATE ledger_ops SET stake = 2", "DELETE FROM ledger"):  # fmt: skip
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await db.execute_raw(statement)
    assert await store.verify_balances() == []
    assert len(await store.hand_entries("g", 0)) == 4


async def test_memory_database_works(clock: FakeClock) -> None:
    async with await Store.open(":memory:", clock=clock) as store:
        assert await store.settle_hand(GUILD, "g", 0, hand(3, -1, -1, -1), stake=2)
        assert await store.get_balance(GUILD, 1) == 1006
        assert await store.weekly_leaderboard(GUILD, limit=1) == [LeaderboardRow(1, 6, 1, 1, 6)]


# ---------------------------------------------------------------------- settlement


async def test_settlement_pays_once_and_records_every_seat(store: Store) -> None:
    entries = hand(6, -2, -2, -2, users=(1, 2, None, 4))
    assert await store.settle_hand(GUILD, "g1", 0, entries, stake=10, winner_user=1)
    assert not await store.settle_hand(GUILD, "g1", 0, entries, stake=10, winner_user=1)
    assert not await store.settle_hand(GUILD, "g1", 0, hand(9, -3, -3, -3), stake=99)
    assert [await store.get_balance(GUILD, user) for user in (1, 2, 4)] == [1060, 980, 980]
    rows = await store.hand_entries("g1", 0)
    assert [(r.seat, r.user_id, r.units, r.stake, r.points) for r in rows] == [
        (0, 1, 6, 10, 60),
        (1, 2, -2, 10, -20),
        (2, None, -2, 10, -20),  # the AI seat is recorded, with no balance
        (3, 4, -2, 10, -20),
    ]
    assert [r.is_winner for r in rows] == [True, False, False, False]
    assert rows[0].balance_after == 1060 and rows[2].balance_after is None
    assert await store.is_settled("g1", 0) and not await store.is_settled("g1", 1)
    assert await store.verify_balances() == []


@pytest.mark.parametrize(
    ("entries", "stake", "message"),
    [
        (hand(3, -1, -1, 0), 1, "zero-sum"),
        ([SettlementEntry(0, 1, 1), SettlementEntry(0, 2, -1)], 1, "duplicate seat"),
        ([SettlementEntry(0, 1, 1), SettlementEntry(1, 1, -1)], 1, "two seats"),
        (hand(3, -1, -1, -1), 0, ">= 1"),
        ([], 1, "at least one"),
    ],
)
async def test_invalid_settlements_are_rejected_and_write_nothing(
    store: Store, entries: list[SettlementEntry], stake: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        await store.settle_hand(GUILD, "g", 0, entries, stake=stake)
    assert not await store.is_settled("g", 0)


async def test_balances_may_go_negative(store: Store) -> None:
    await store.settle_hand(GUILD, "g", 0, hand(3000, -1000, -1000, -1000), stake=1)
    assert await store.get_balance(GUILD, 2) == 0
    await store.settle_hand(GUILD, "g", 1, hand(30, -10, -10, -10), stake=10)
    assert await store.get_balance(GUILD, 2) == -100
    assert await store.verify_balances() == []


async def test_fifty_concurrent_settlements_of_one_hand_pay_once(store: Store) -> None:
    entries = hand(3, -1, -1, -1)
    results = await asyncio.gather(
        *(store.settle_hand(GUILD, "race", 7, entries, stake=10) for _ in range(50))
    )
    assert results.count(True) == 1
    assert [await store.get_balance(GUILD, user) for user in (1, 2, 3, 4)] == [1030, 990, 990, 990]
    assert len(await store.hand_entries("race", 7)) == 4
    assert await store.alltime_leaderboard(GUILD) == [
        LeaderboardRow(1, 30, 1, 1, 30),
        LeaderboardRow(2, -10, 1, 0, 0),
        LeaderboardRow(3, -10, 1, 0, 0),
        LeaderboardRow(4, -10, 1, 0, 0),
    ]


async def test_fifty_concurrent_settlements_of_different_and_repeated_hands(store: Store) -> None:
    """50 distinct hands, each submitted twice, all at once: every hand pays exactly once."""
    users = (1, 2, 3, 4)
    expected = dict.fromkeys(users, 1000)
    calls = []
    for number in range(50):
        winner = number % 4
        units = [-(number % 3 + 1)] * 4
        units[winner] = 3 * (number % 3 + 1)
        for seat, user in enumerate(users):
            expected[user] += units[seat] * 5
        entries = settlement_entries(units, list(users), winner)
        calls.append(store.settle_hand(GUILD, "many", number, entries, stake=5))
        calls.append(store.settle_hand(GUILD, "many", number, entries, stake=5))
    results = await asyncio.gather(*calls)
    assert results.count(True) == 50 and results.count(False) == 50
    assert {user: await store.get_balance(GUILD, user) for user in users} == expected
    assert await store.verify_balances() == []
    board = await store.alltime_leaderboard(GUILD)
    assert sum(row.hands for row in board) == 200
    assert sum(row.wins for row in board) == 50


async def test_two_store_instances_on_one_file_settle_once(db: BackendDB, clock: FakeClock) -> None:
    """Separate connections (as separate processes would have) race on the same hands."""
    async with await db.open(clock=clock) as first, await db.open(clock=clock) as second:
        calls = [
            (first if i % 2 else second).settle_hand(
                GUILD, "both", i % 10, hand(3, -1, -1, -1), stake=1
            )
            for i in range(50)
        ]
        results = await asyncio.gather(*calls)
        assert results.count(True) == 10
        assert await first.get_balance(GUILD, 1) == 1030
        assert await second.verify_balances() == []


async def test_cancelled_settlement_still_completes_atomically(store: Store) -> None:
    task = asyncio.create_task(store.settle_hand(GUILD, "c", 0, hand(3, -1, -1, -1), stake=1))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # Whether it committed or not, it is all-or-none and the store stays usable.
    rows = await store.hand_entries("c", 0)
    assert len(rows) in (0, 4)
    await store.settle_hand(GUILD, "c", 0, hand(3, -1, -1, -1), stake=1)
    assert len(await store.hand_entries("c", 0)) == 4
    assert await store.get_balance(GUILD, 1) == 1003


# ---------------------------------------------------------------------- caps


def test_caps_scale_the_other_side_with_exact_remainders() -> None:
    # The winner is clipped to 100; the three losers shrink from 300 to 100 in total.
    assert apply_caps([300, -100, -100, -100], [100, None, None, None]) == [100, -34, -33, -33]
    # A loser clipped: the winner is reduced to match.
    assert apply_caps([300, -200, -50, -50], [None, 80, None, None]) == [180, -80, -50, -50]
    assert apply_caps([5, -5], [None, None]) == [5, -5]
    assert apply_caps([5, -5], [0, 10]) == [0, 0]


def test_player_limit_combines_hand_cap_and_room_left_today() -> None:
    assert player_limit(500, hand_cap=None, day_cap=1000, day_net=800) == 200
    assert player_limit(-500, hand_cap=None, day_cap=1000, day_net=800) == 1800
    assert player_limit(-500, hand_cap=300, day_cap=1000, day_net=-900) == 100
    assert player_limit(500, hand_cap=None, day_cap=1000, day_net=1200) == 0
    assert player_limit(500, hand_cap=300, day_cap=1000, day_net=None) == 300  # AI seat


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(-1000, 1000), min_size=1, max_size=5).map(lambda xs: [*xs, -sum(xs)]),
    st.data(),
)
def test_caps_keep_hands_zero_sum_and_within_limits(points: list[int], data: st.DataObject) -> None:
    limits = data.draw(
        st.lists(
            st.one_of(st.none(), st.integers(0, 1500)), min_size=len(points), max_size=len(points)
        )
    )
    capped = apply_caps(points, limits)
    assert sum(capped) == 0
    for before, after, limit in zip(points, capped, limits, strict=True):
        assert abs(after) <= abs(before)
        assert after == 0 or (after > 0) == (before > 0)
        assert limit is None or abs(after) <= limit
    if all(limit is None for limit in limits):
        assert capped == points


async def test_hand_cap_is_applied_and_recorded(store: Store) -> None:
    await store.update_settings(GUILD, hand_cap=100)
    assert await store.settle_hand(GUILD, "cap", 0, hand(30, -10, -10, -10), stake=10)
    rows = await store.hand_entries("cap", 0)
    assert [r.points for r in rows] == [100, -34, -33, -33]
    assert [r.original_points for r in rows] == [300, -100, -100, -100]
    assert all(r.capped for r in rows)
    assert await store.get_balance(GUILD, 1) == 1100
    assert await store.verify_balances() == []
    # An uncapped hand under the same setting records capped=False.
    await store.settle_hand(GUILD, "cap", 1, hand(3, -1, -1, -1), stake=10)
    assert not any(r.capped for r in await store.hand_entries("cap", 1))


async def test_day_cap_counts_the_local_day_and_resets_the_next(store: Store) -> None:
    await store.update_settings(GUILD, day_cap=500, timezone="Asia/Shanghai")
    morning = datetime(2026, 11, 26, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai
    await store.settle_hand(GUILD, "day", 0, hand(30, -10, -10, -10), stake=10, when=morning)
    await store.settle_hand(
        GUILD, "day", 1, hand(30, -10, -10, -10), stake=10, when=morning + timedelta(hours=1)
    )
    second = await store.hand_entries("day", 1)
    assert second[0].points == 200 and second[0].original_points == 300  # 300 + 200 = cap
    assert sum(r.points for r in second) == 0
    capped_out = morning + timedelta(hours=2)
    await store.settle_hand(GUILD, "day", 2, hand(30, -10, -10, -10), stake=10, when=capped_out)
    assert [r.points for r in await store.hand_entries("day", 2)] == [0, 0, 0, 0]
    # 23:30 Shanghai is still the same local day; 00:30 is the next one.
    await store.settle_hand(
        GUILD,
        "day",
        3,
        hand(3, -1, -1, -1),
        stake=10,
        when=datetime(2026, 11, 26, 15, 30, tzinfo=UTC),
    )
    assert (await store.hand_entries("day", 3))[0].points == 0
    await store.settle_hand(
        GUILD,
        "day",
        4,
        hand(3, -1, -1, -1),
        stake=10,
        when=datetime(2026, 11, 26, 16, 30, tzinfo=UTC),
    )
    assert (await store.hand_entries("day", 4))[0].points == 30
    # The losers' side: each lost 100+67+0+0 today.
    assert await store.get_balance(GUILD, 1) == 1000 + 300 + 200 + 30
    assert await store.verify_balances() == []


async def test_day_cap_limits_a_losing_player(store: Store) -> None:
    await store.update_settings(GUILD, day_cap=150)
    await store.settle_hand(GUILD, "lose", 0, hand(-10, 10, 0, 0), stake=10)
    await store.settle_hand(GUILD, "lose", 1, hand(-10, 10, 0, 0, users=(1, 3, 2, 4)), stake=10)
    second = await store.hand_entries("lose", 1)
    assert [r.points for r in second] == [-50, 50, 0, 0]
    assert await store.get_balance(GUILD, 1) == 850


# ---------------------------------------------------------------------- penalties, adjustments, balances


async def test_penalty_is_shared_among_beneficiaries_and_counts_in_net_not_hands(
    store: Store,
) -> None:
    assert await store.record_penalty(
        GUILD, "g", 1, 100, "leave", beneficiaries=[2, 3, 4], key="g:leave:1"
    )
    assert not await store.record_penalty(
        GUILD, "g", 1, 100, "leave", beneficiaries=[2, 3, 4], key="g:leave:1"
    )
    assert [await store.get_balance(GUILD, user) for user in (1, 2, 3, 4)] == [
        900,
        1034,
        1033,
        1033,
    ]
    board = await store.weekly_leaderboard(GUILD)
    assert board[0] == LeaderboardRow(2, 34, 0, 0, 0)
    assert board[-1] == LeaderboardRow(1, -100, 0, 0, 0)
    history = await store.history(GUILD, 1, kinds=("penalty",))
    assert [(h.kind, h.points, h.reason, h.game_id) for h in history] == [
        ("penalty", -100, "leave", "g")
    ]
    # Without beneficiaries the points leave the table.
    await store.record_penalty(GUILD, None, 2, 50)
    assert await store.get_balance(GUILD, 2) == 984
    with pytest.raises(ValueError):
        await store.record_penalty(GUILD, "g", 1, 10, beneficiaries=[1, 2])
    with pytest.raises(ValueError):
        await store.record_penalty(GUILD, "g", 1, 0)
    assert await store.verify_balances() == []


async def test_adjustment_records_who_did_it_and_stays_out_of_leaderboards(store: Store) -> None:
    assert await store.adjust_balance(GUILD, 5, 250, by_user=99, reason="prize") == 1250
    assert await store.adjust_balance(GUILD, 5, -2000, by_user=99, reason="oops", key="k1") == -750
    assert await store.adjust_balance(GUILD, 5, -2000, by_user=99, reason="oops", key="k1") == -750
    entries = await store.history(GUILD, 5, kinds=("adjustment",))
    assert [(e.points, e.by_user, e.reason, e.balance_after) for e in entries] == [
        (-2000, 99, "oops", -750),
        (250, 99, "prize", 1250),
    ]
    assert await store.weekly_leaderboard(GUILD) == []
    assert await store.alltime_leaderboard(GUILD) == []
    assert await store.verify_balances() == []


async def test_starting_balance_and_minimum_to_sit(store: Store) -> None:
    await store.update_settings(GUILD, starting_balance=500, min_balance=100)
    assert await store.get_balance(GUILD, 1) == 500
    assert await store.get_balance(OTHER_GUILD, 1) == 1000  # per guild
    assert await store.can_sit(GUILD, 1)
    await store.adjust_balance(GUILD, 1, -401, by_user=9, reason="test")
    assert not await store.can_sit(GUILD, 1)
    assert await store.can_sit(OTHER_GUILD, 1)  # no minimum there
    # Changing the starting balance later leaves existing balances alone.
    await store.update_settings(GUILD, starting_balance=2000)
    assert await store.get_balance(GUILD, 1) == 99
    assert await store.ensure_balance(GUILD, 2) == 2000
    assert await store.top_balances(GUILD) == [(2, 2000), (1, 99)]


# ---------------------------------------------------------------------- leaderboards and weeks


async def test_weekly_leaderboards_across_a_week_boundary_in_two_time_zones(store: Store) -> None:
    utc_guild, shanghai_guild = 1, 2
    await store.update_settings(shanghai_guild, timezone="Asia/Shanghai")
    sunday_late = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)  # Monday 07:30 in Shanghai
    monday_early = datetime(2026, 11, 30, 0, 30, tzinfo=UTC)
    saturday = datetime(2026, 11, 28, 15, 0, tzinfo=UTC)  # Saturday 23:00 in Shanghai
    for guild in (utc_guild, shanghai_guild):
        await store.settle_hand(guild, f"w{guild}", 0, hand(3, -1, -1, -1), stake=1, when=saturday)
        await store.settle_hand(
            guild, f"w{guild}", 1, hand(-1, 3, -1, -1), stake=10, when=sunday_late
        )
        await store.settle_hand(
            guild, f"w{guild}", 2, hand(-1, -1, 3, -1), stake=100, when=monday_early
        )
    previous, current = date(2026, 11, 23), date(2026, 11, 30)
    utc_previous = await store.weekly_leaderboard(utc_guild, week_start=previous, limit=2)
    assert utc_previous == [LeaderboardRow(2, 29, 2, 1, 30), LeaderboardRow(1, -7, 2, 1, 3)]
    assert await store.weekly_leaderboard(utc_guild, week_start=current, limit=1) == [
        LeaderboardRow(3, 300, 1, 1, 300)
    ]
    shanghai_previous = await store.weekly_leaderboard(shanghai_guild, week_start=previous, limit=1)
    assert shanghai_previous == [LeaderboardRow(1, 3, 1, 1, 3)]
    shanghai_current = await store.weekly_leaderboard(shanghai_guild, week_start=current)
    assert shanghai_current[0] == LeaderboardRow(3, 290, 2, 1, 300)
    assert {row.user_id: row.hands for row in shanghai_current} == {1: 2, 2: 2, 3: 2, 4: 2}
    # weeks_ago is relative to "now" in the guild's own zone.
    now = datetime(2026, 11, 30, 1, 0, tzinfo=UTC)
    assert await store.weekly_leaderboard(utc_guild, weeks_ago=1, now=now, limit=2) == utc_previous
    assert await store.weekly_leaderboard(shanghai_guild, weeks_ago=0, now=now) == shanghai_current
    assert await store.leaderboard_weeks(utc_guild) == [current, previous]
    # All-time sums every week; past weeks stay queryable.
    alltime = await store.alltime_leaderboard(utc_guild, limit=1)
    assert alltime == [LeaderboardRow(3, 289, 3, 1, 300)]
    # User 4 ties user 3 at -11 with no win and comes after them: fourth of four.
    assert await store.leaderboard_position(utc_guild, 4, week_start=previous) == (
        4, LeaderboardRow(4, -11, 2, 0, 0)
    )  # fmt: skip
    assert await store.leaderboard_position(utc_guild, 99, week_start=previous) is None


async def test_week_bounds_in_the_guild_zone(store: Store) -> None:
    await store.update_settings(GUILD, timezone="America/Los_Angeles")
    now = datetime(2026, 11, 30, 3, 0, tzinfo=UTC)  # Sunday 19:00 in Los Angeles
    bounds = await store.week_bounds(GUILD, now=now)
    assert bounds.week_start == date(2026, 11, 23)
    assert bounds.start.isoformat() == "2026-11-23T00:00:00-08:00"
    assert bounds.end.isoformat() == "2026-11-30T00:00:00-08:00"
    assert (await store.week_bounds(GUILD, weeks_ago=2, now=now)).week_start == date(2026, 11, 9)
    # Across the DST change, a week is 7 local days (and 169 hours).
    dst_week = bounds_for_week_start(date(2026, 10, 26), "America/Los_Angeles")
    assert dst_week.end - dst_week.start == timedelta(days=7)
    assert (dst_week.end.astimezone(UTC) - dst_week.start.astimezone(UTC)) == timedelta(hours=169)
    assert week_bounds("UTC", now=now).week_start == date(2026, 11, 30)
    with pytest.raises(ValueError, match="Monday"):
        bounds_for_week_start(date(2026, 11, 24), "UTC")
    with pytest.raises(ValueError, match="Monday"):
        await store.weekly_leaderboard(GUILD, week_start=date(2026, 11, 24))


async def test_time_zone_change_affects_later_hands_only(store: Store) -> None:
    sunday_late = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)
    await store.settle_hand(GUILD, "tz", 0, hand(3, -1, -1, -1), stake=1, when=sunday_late)
    await store.update_settings(GUILD, timezone="Asia/Shanghai")
    await store.settle_hand(GUILD, "tz", 1, hand(3, -1, -1, -1), stake=1, when=sunday_late)
    first, second = (await store.hand_entries("tz", 0))[0], (await store.hand_entries("tz", 1))[0]
    assert first.week_start == date(2026, 11, 23) and second.week_start == date(2026, 11, 30)
    await store.rebuild_stats(GUILD)  # history is not re-bucketed
    assert (await store.weekly_leaderboard(GUILD, week_start=date(2026, 11, 23)))[0].net == 3


async def test_history_lists_the_last_hands_newest_first(store: Store) -> None:
    for number in range(15):
        await store.settle_hand(GUILD, "h", number, hand(3, -1, -1, -1), stake=number + 1)
    history = await store.history(GUILD, 2, limit=10)
    assert [entry.hand_number for entry in history] == list(range(14, 4, -1))
    assert [entry.points for entry in history[:2]] == [-15, -14]
    assert await store.history(GUILD, 2, limit=3, kinds=("hand", "opening"))
    assert await store.history(GUILD, 77) == []


async def test_maintained_aggregates_equal_a_rebuild_from_the_ledger(
    store: Store, clock: FakeClock
) -> None:
    import random

    rng = random.Random(5)
    await store.update_settings(GUILD, hand_cap=400, day_cap=900, timezone="Europe/Berlin")
    for number in range(120):
        clock.now = NOON + timedelta(hours=7 * number)
        users = [*rng.sample(range(1, 9), 3), None]
        units = [rng.randint(-30, 30) for _ in range(3)]
        units.append(-sum(units))
        await store.settle_hand(
            GUILD, "agg", number, settlement_entries(units, users, 0), stake=rng.choice([1, 5, 10])
        )
        if number % 17 == 0:
            await store.record_penalty(GUILD, "agg", users[0], 40, beneficiaries=users[1:3])
    weeks = await store.leaderboard_weeks(GUILD)
    before = [await store.weekly_leaderboard(GUILD, week_start=week, limit=100) for week in weeks]
    alltime = await store.alltime_leaderboard(GUILD, limit=100)
    await store.rebuild_stats()
    assert [
        await store.weekly_leaderboard(GUILD, week_start=week, limit=100) for week in weeks
    ] == before
    assert await store.alltime_leaderboard(GUILD, limit=100) == alltime
    assert len(weeks) > 4
    assert await store.verify_balances() == []


# ---------------------------------------------------------------------- settings


async def test_settings_defaults_validation_and_persistence(db: BackendDB) -> None:
    async with await db.open() as store:
        defaults = await store.get_settings(GUILD)
        assert (defaults.starting_balance, defaults.timezone, defaults.discard_timeout) == (
            1000,
            "UTC",
            30,
        )
        assert (defaults.claim_timeout, defaults.default_variant, defaults.hand_cap) == (
            10,
            "jiaxing",
            None,
        )
        updated = await store.update_settings(
            GUILD,
            timezone="Asia/Shanghai",
            leaderboard_channel=1234,
            default_variant="taizhou",
            discard_timeout=45,
            last_leaderboard_week="2026-11-23",
        )
        assert updated.last_leaderboard_week == date(2026, 11, 23)
        await store.update_settings(GUILD, leaderboard_channel=None)
    async with await db.open() as store:
        settings_now = await store.get_settings(GUILD)
        assert settings_now.timezone == "Asia/Shanghai" and settings_now.leaderboard_channel is None
        assert settings_now.default_variant == "taizhou" and settings_now.discard_timeout == 45
        assert (await store.get_settings(OTHER_GUILD)).timezone == "UTC"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"timezone": "Mars/Olympus"}, "unknown time zone"),
        ({"timezone": "../etc/passwd"}, "time zone"),
        ({"timezone": ""}, "time zone"),
        ({"starting_balance": True}, "integer"),
        ({"starting_balance": -5}, "must be in"),
        ({"discard_timeout": 1}, "must be in"),
        ({"hand_cap": 0}, "must be in"),
        ({"default_variant": "riichi"}, "unknown variant"),
        ({"colour": "red"}, "unknown setting"),
        ({"timezone": None}, "cannot be empty"),
        ({"last_leaderboard_week": date(2026, 11, 24)}, "Monday"),
        ({}, "no settings"),
    ],
)
async def test_bad_settings_are_clear_errors(
    store: Store, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(SettingsError, match=message):
        await store.update_settings(GUILD, **changes)
    assert (await store.get_settings(GUILD)).timezone == "UTC"


# ---------------------------------------------------------------------- games and preferences


async def test_games_lifecycle(store: Store, clock: FakeClock) -> None:
    seats = [{"seat": 0, "user_id": 1}, {"seat": 1, "ai": True}]
    record = await store.create_game(
        "G1", GUILD, 555, "jiaxing", {"rounds": 1}, seats, 42, {"stake": 10}
    )
    assert (record.status, record.seed, record.seats, record.settings) == (
        "lobby",
        42,
        seats,
        {"stake": 10},
    )
    with pytest.raises(DuplicateGameError):
        await store.create_game("G1", GUILD, 555, "jiaxing", {}, [], 1)
    await store.create_game("G2", GUILD, 556, "taizhou", {}, [], 7, status="running")
    await store.set_game_status("G1", "running")
    assert [game.game_id for game in await store.running_games()] == ["G1", "G2"]
    assert [g.game_id for g in await store.running_games(("lobby",))] == []
    meta = await store.update_game_meta("G1", table_message_id=987, thread=None)
    assert meta == {"table_message_id": 987}
    assert await store.update_game_meta("G1", table_message_id=None, note="x") == {"note": "x"}
    clock.now = NOON + timedelta(minutes=5)
    await store.set_game_status("G2", "abandoned")
    clock.now = NOON + timedelta(minutes=10)
    await store.set_game_status("G1", "finished")
    finished = await store.finished_games(GUILD)
    assert [game.game_id for game in finished] == ["G1", "G2"]
    assert finished[0].finished_at == NOON + timedelta(minutes=10)
    assert await store.running_games() == []
    assert await store.finished_games(OTHER_GUILD) == []
    with pytest.raises(UnknownGameError):
        await store.set_game_status("nope", "running")
    with pytest.raises(ValueError):
        await store.set_game_status("G1", "paused")
    with pytest.raises(UnknownGameError):
        await store.update_game_meta("nope", x=1)
    assert await store.get_game("nope") is None


async def test_action_log_is_ordered_idempotent_and_conflict_checked(store: Store) -> None:
    await store.create_game("A", GUILD, None, "jiaxing", {}, [], 1)
    actions = [
        {"type": "discard", "seat": seat % 4, "tile": f"{seat % 9 + 1}m"} for seat in range(30)
    ]
    # Appended concurrently and out of order: seq decides the replay order.
    order = list(range(30))[::-1]
    results = await asyncio.gather(
        *(store.append_action("A", i, actions[i], i // 10) for i in order)
    )
    assert all(results)
    assert await store.append_action("A", 3, dict(reversed(list(actions[3].items()))), 0) is False
    with pytest.raises(ActionConflictError):
        await store.append_action("A", 3, {"type": "pass", "seat": 1}, 0)
    with pytest.raises(UnknownGameError):
        await store.append_action("missing", 0, {"type": "pass", "seat": 0}, 0)
    assert await store.load_actions("A") == actions
    assert await store.load_actions("A", hand_number=2) == actions[20:]
    records = await store.load_action_records("A", hand_number=1)
    assert [record.seq for record in records] == list(range(10, 20))
    assert (await store.get_game("A")).action_count == 30  # type: ignore[union-attr]


async def test_user_preferences(store: Store) -> None:
    assert await store.get_user_prefs(1) == {}
    await store.set_user_pref(1, "dms_closed", True)
    await store.set_user_pref(1, "ephemeral_only", {"since": "2026-11-29"})
    await store.set_user_pref(1, "dms_closed", False)
    await store.set_user_pref(2, "dms_closed", True)
    assert await store.get_user_prefs(1) == {
        "dms_closed": False,
        "ephemeral_only": {"since": "2026-11-29"},
    }
    await store.set_user_pref(1, "ephemeral_only", None)
    assert await store.get_user_prefs(1) == {"dms_closed": False}


async def test_closed_store_refuses_work(db: BackendDB) -> None:
    store = await db.open()
    await store.close()
    await store.close()  # twice is harmless
    with pytest.raises(RuntimeError, match="closed"):
        await store.get_balance(GUILD, 1)
