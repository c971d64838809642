"""/stats and monthly seasons: the aggregates kept in the settlement transaction agree with
the ledger, survive a rebuild, and a database of an older version is backfilled."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.settlement import hand_outcome
from data import HandOutcome, Store, month_start_of, next_month, settlement_entries
from data import schema as schema_module
from engine.types import HandResult, ScoreItem

GUILD = 5
DETAIL_TABLES = ("player_day_stats", "player_day_types", "player_day_balance", "monthly_stats")


class FakeClock:
    def __init__(self, start: datetime) -> None:
        self.moment = start

    def __call__(self) -> datetime:
        return self.moment


def outcome(variant: str, win_by: str | None, winner: int | None, dealt_in: int | None,
            *types: str) -> HandOutcome:  # fmt: skip
    return HandOutcome(
        variant=variant, win_by=win_by, winner_seat=winner, dealt_in_seat=dealt_in,
        items=tuple((kind, 2, "tai") for kind in types), win_types=types,
    )  # fmt: skip


async def play_month(store: Store, clock: FakeClock) -> None:
    """Hands over two months, both rule sets, wins of every kind, a draw, a penalty and an
    adjustment; users 1-4 (user 4 sometimes an AI seat)."""
    script = [
        ("taizhou", (6, -2, -2, -2), 0, "self_draw", None, ("full_flush", "self_draw")),
        ("taizhou", (-4, 4, 0, 0), 1, "discard", 0, ("all_pungs",)),
        ("jiaxing", (-3, -3, 9, -3), 2, "self_draw", None, ("half_flush",)),
        ("taizhou", (0, 0, 0, 0), None, None, None, ()),
        ("taizhou", (10, 0, -10, 0), 0, "discard", 2, ("full_flush",)),
        ("jiaxing", (12, -4, -4, -4), 0, "self_draw", None, ("all_pungs", "half_flush")),
        ("taizhou", (10, 0, -10, 0), 0, "rob_kong", 2, ("full_flush",)),
    ]
    for number, (variant, units, winner, win_by, dealt_in, types) in enumerate(script):
        users: list[int | None] = [1, 2, 3, 4 if number % 2 else None]
        await store.settle_hand(
            GUILD, f"g{number // 3}", number, settlement_entries(units, users, winner), stake=5,
            winner_user=None, outcome=outcome(variant, win_by, winner, dealt_in, *types),
        )  # fmt: skip
        clock.moment += timedelta(days=9)
        if number == 2:
            await store.record_penalty(GUILD, "g0", 2, 7, "leave", [1, 3], key="p1")
            await store.adjust_balance(GUILD, 1, 50, by_user=99, reason="gift")
    # A hand settled without an outcome (older callers): counted, but not how it was won.
    await store.settle_hand(GUILD, "plain", 0, settlement_entries([3, -1, -1, -1],
                            [1, 2, 3, 4], 0), stake=1)  # fmt: skip


def ledger_figures(path: Path, user: int, variant: str | None, low: str, high: str) -> dict:
    """The same figures straight from ledger rows and outcomes, without any aggregate."""
    connection = sqlite3.connect(path)
    rows = connection.execute(
        "SELECT l.points, l.is_winner, l.seat, o.win_by, o.dealt_in_seat,"
        " COALESCE(o.variant, g.variant, ''), l.op_id FROM ledger AS l"
        " LEFT JOIN hand_outcomes AS o ON o.op_id = l.op_id"
        " LEFT JOIN games AS g ON g.game_id = l.game_id"
        " WHERE l.kind = 'hand' AND l.guild_id = ? AND l.user_id = ?"
        " AND l.local_day >= ? AND l.local_day < ?",
        (GUILD, user, low, high),
    ).fetchall()
    rows = [row for row in rows if variant is None or row[5] == variant]
    wins = [row for row in rows if row[1]]
    biggest = max((row[0] for row in rows if row[0] > 0), default=0)
    connection.close()
    return {
        "hands": len(rows),
        "wins": len(wins),
        "self_draws": sum(1 for row in wins if row[3] == "self_draw"),
        "deal_ins": sum(1 for row in rows if row[4] is not None and row[4] == row[2]),
        "deal_in_hands": sum(1 for row in rows if row[5] == "taizhou"),
        "net": sum(row[0] for row in rows),
        "biggest": biggest,
    }


def snapshot(path: Path) -> dict[str, list[tuple]]:
    connection = sqlite3.connect(path)
    tables = {
        table: sorted(connection.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
        for table in DETAIL_TABLES
    }
    connection.close()
    return tables


@pytest.fixture
async def played(tmp_path: Path):
    clock = FakeClock(datetime(2026, 10, 3, 12, tzinfo=UTC))
    path = tmp_path / "stats.db"
    store = await Store.open(path, clock=clock)
    await play_month(store, clock)
    yield store, path
    await store.close()


@pytest.mark.parametrize("variant", [None, "taizhou", "jiaxing"])
@pytest.mark.parametrize("user", [1, 2, 3, 4])
@pytest.mark.parametrize(
    ("first", "end"), [(None, None), (date(2026, 10, 1), date(2026, 11, 1)),
                       (date(2026, 10, 12), date(2026, 10, 19))],
)  # fmt: skip
async def test_card_figures_equal_the_ledger(
    played, variant: str | None, user: int, first: date | None, end: date | None
) -> None:
    store, path = played
    stats = await store.player_card_stats(
        GUILD, user, variant=variant, first_day=first, end_day=end
    )
    expected = ledger_figures(
        path, user, variant, first.isoformat() if first else "", end.isoformat() if end else "9"
    )
    got = {
        "hands": stats.hands, "wins": stats.wins, "self_draws": stats.self_draws,
        "deal_ins": stats.deal_ins, "deal_in_hands": stats.deal_in_hands, "net": stats.net,
        "biggest": stats.biggest.points if stats.biggest else 0,
    }  # fmt: skip
    assert got == expected


async def test_card_details_biggest_types_and_trend(played) -> None:
    store, _path = played
    stats = await store.player_card_stats(GUILD, 1)
    assert stats.hands == 8 and stats.wins == 5
    # Hands 0 and 5; hands 4 and 6 were won on a discard and a robbed kong, and the plain
    # hand has no outcome, so it is not known to be a self-draw.
    assert stats.self_draws == 2
    assert stats.deal_ins == 1  # hand 1, on user 1's discard
    assert stats.biggest is not None and stats.biggest.points == 60
    assert stats.biggest.variant == "jiaxing"
    assert stats.biggest.items == (("all_pungs", 2, "tai"), ("half_flush", 2, "tai"))
    assert stats.win_types[0] == ("taizhou", "full_flush", 3)
    # The trend ends at the balance, and each point is a day's closing balance.
    assert stats.trend[-1][1] == await store.get_balance(GUILD, 1)
    days = [day for day, _ in stats.trend]
    assert days == sorted(days) and len(set(days)) == len(days)
    october = await store.player_card_stats(
        GUILD, 1, first_day=date(2026, 10, 12), end_day=date(2026, 10, 19)
    )
    assert october.trend[0][0] == date(2026, 10, 11)  # the balance the week opened with
    assert (october.hands, october.win_rate, october.deal_in_rate) == (1, 0.0, 1.0)


async def test_rebuild_reproduces_the_maintained_aggregates(played) -> None:
    store, path = played
    before = snapshot(path)
    assert all(before[table] for table in DETAIL_TABLES)
    await store.rebuild_stats()
    assert snapshot(path) == before
    await store.rebuild_stats(GUILD)
    assert snapshot(path) == before


async def test_monthly_seasons_rank_like_the_weekly_board(played) -> None:
    store, path = played
    months = await store.leaderboard_months(GUILD)
    assert months == sorted(months, reverse=True) and all(m.day == 1 for m in months)
    for month in months:
        board = await store.monthly_leaderboard(GUILD, month)
        connection = sqlite3.connect(path)
        expected = connection.execute(
            "SELECT user_id, SUM(points) FROM ledger WHERE guild_id = ? AND user_id IS NOT NULL"
            " AND kind IN ('hand', 'penalty') AND local_day >= ? AND local_day < ?"
            " GROUP BY user_id",
            (GUILD, month.isoformat(), next_month(month).isoformat()),
        ).fetchall()
        connection.close()
        assert {row.user_id: row.net for row in board} == dict(expected)
        nets = [row.net for row in board]
        assert nets == sorted(nets, reverse=True)
    with pytest.raises(ValueError):
        await store.monthly_leaderboard(GUILD, date(2026, 10, 2))


def test_month_arithmetic() -> None:
    assert month_start_of(date(2026, 1, 31)) == date(2026, 1, 1)
    assert month_start_of(date(2026, 1, 31), 1) == date(2025, 12, 1)
    assert month_start_of(date(2026, 3, 5), 14) == date(2025, 1, 1)
    assert next_month(date(2026, 12, 1)) == date(2027, 1, 1)


async def test_version_3_database_is_backfilled(tmp_path: Path) -> None:
    """Hands settled before version 4 count in hands, wins, net and seasons, by the game's
    rule set; the backfill equals a rebuild."""
    path = tmp_path / "old.db"
    connection = sqlite3.connect(path, isolation_level=None)
    assert schema_module.migrate(connection, target=3) == [1, 2, 3]
    created = "2026-11-26T12:00:00.000000+00:00"
    connection.execute(
        "INSERT INTO games (game_id, guild_id, variant, seed, created_at, updated_at)"
        " VALUES ('old', ?, 'taizhou', 1, ?, ?)",
        (GUILD, created, created),
    )
    connection.execute(
        "INSERT INTO ledger_ops (op_id, guild_id, kind, op_key, game_id, hand_number, stake,"
        " created_at) VALUES (1, ?, 'hand', 'hand:old:0', 'old', 0, 5, ?)",
        (GUILD, created),
    )
    for seat, (user, units) in enumerate([(1, 3), (2, -2), (3, -1)]):
        connection.execute(
            "INSERT INTO ledger (op_id, guild_id, kind, game_id, hand_number, seat, user_id, units,"
            " stake, points, original_points, is_winner, balance_after, created_at, week_start,"
            " local_day) VALUES (1, ?, 'hand', 'old', 0, ?, ?, ?, 5, ?, ?, ?, ?, ?, '2026-11-23',"
            " '2026-11-26')",
            (GUILD, seat, user, units, units * 5, units * 5, int(units > 0), 1000 + units * 5,
             created),
        )  # fmt: skip
    connection.close()
    async with await Store.open(path) as store:
        stats = await store.player_card_stats(GUILD, 1, variant="taizhou")
        assert (stats.hands, stats.wins, stats.net, stats.self_draws) == (1, 1, 15, 0)
        assert stats.biggest is not None and stats.biggest.points == 15
        assert stats.trend == ((date(2026, 11, 26), 1015),)
        season = await store.monthly_leaderboard(GUILD, date(2026, 11, 1))
        assert [(row.user_id, row.net) for row in season] == [(1, 15), (3, -5), (2, -10)]
        backfilled = snapshot(path)
        await store.rebuild_stats()
        assert snapshot(path) == backfilled


def _result(variant: str, win_by: str, winner: int, from_seat: int | None) -> HandResult:
    items = [
        ScoreItem("concealed_pung", 8, "points", "暗刻", "Concealed Pung"),
        ScoreItem("full_flush", 3, "tai", "清一色", "Full Flush"),
        ScoreItem("self_draw", 2, "points", "自摸", "Self-Draw"),
    ]
    return HandResult(variant, True, winner, 4, [3, -1, -1, -1], items=items, win_by=win_by,
                      from_seat=from_seat)  # fmt: skip


def test_hand_outcome_counts_as_the_rules_do() -> None:
    taizhou = hand_outcome(_result("taizhou", "rob_kong", 0, 2))
    assert taizhou.win_by == "rob_kong" and taizhou.dealt_in_seat == 2
    assert taizhou.win_types == ("full_flush", "self_draw")  # melds are not winning types
    # Jiaxing: robbing a kong counts as a self-draw, and nobody deals in.
    jiaxing = hand_outcome(_result("jiaxing", "rob_kong", 0, 2))
    assert jiaxing.win_by == "self_draw" and jiaxing.dealt_in_seat is None
    draw = hand_outcome(HandResult("taizhou", True, None, 4, [0, 0, 0, 0]))
    assert draw.win_by is None and draw.win_types == ()


async def test_outcome_naming_a_missing_seat_is_refused(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "x.db") as store:
        with pytest.raises(ValueError):
            await store.settle_hand(
                GUILD, "g", 0, settlement_entries([3, -3], [1, 2], 0), stake=1,
                outcome=HandOutcome("taizhou", "discard", 0, 5),
            )  # fmt: skip
        assert await store.is_settled("g", 0) is False
