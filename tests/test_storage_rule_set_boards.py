"""Leaderboards of one rule set (``Store.variant_leaderboard``, ``/leaderboard variant``)
on both backends: a week, a month and all time hold exactly that rule set's hands and
the penalties charged at its tables, ranked like the server's board, and the rule sets'
boards add up to the server's."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from data import LATEST_VERSION, LeaderboardRow, SettlementEntry, Store, next_month

if TYPE_CHECKING:
    from conftest import BackendDB

GUILD = 1
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
# Thursday 2026-11-26 noon UTC (the guild's zone stays UTC): week of Monday 11-23.
THURSDAY = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
WEEK = date(2026, 11, 23)


async def _game(store: Store, game_id: str, variant: str) -> None:
    await store.create_game(game_id, GUILD, None, variant, {}, [], 7,
                            settings={"num_seats": 4, "stake": 1}, status="running")  # fmt: skip


async def _hand(
    store: Store,
    game_id: str,
    number: int,
    users: list[int | None],
    units: list[int],
    when: datetime,
) -> None:
    entries = [
        SettlementEntry(seat=seat, user_id=user, units=units[seat], is_winner=units[seat] > 0)
        for seat, user in enumerate(users)
    ]
    assert await store.settle_hand(GUILD, game_id, number, entries, 10, when=when)


def _lines(rows: list[LeaderboardRow]) -> list[tuple[int, int, int, int, int]]:
    return [(row.user_id, row.net, row.hands, row.wins, row.biggest) for row in rows]


SEATS: list[int | None] = [ALICE, BOB, CAROL, None]


async def _first_hands(store: Store) -> None:
    """A Jiaxing and a Taizhou game, and one hand of each this week: Alice wins 9 units
    in Jiaxing, Bob 4 in Taizhou (stake 10)."""
    await _game(store, "jx", "jiaxing")
    await _game(store, "tz", "taizhou")
    await _hand(store, "jx", 0, SEATS, [9, -3, -3, -3], THURSDAY)
    await _hand(store, "tz", 0, SEATS, [-1, 4, -2, -1], THURSDAY)


async def test_each_rule_set_has_its_own_week_month_and_all_time(db: BackendDB) -> None:
    store = await db.open()
    # This week: Alice wins big in Jiaxing; Bob wins twice in Taizhou.
    await _first_hands(store)
    await _hand(store, "tz", 1, SEATS, [-2, 6, -2, -2], THURSDAY + timedelta(hours=1))
    # Carol leaves the Taizhou table: 30 points, shared by Alice and Bob.
    await store.record_penalty(GUILD, "tz", CAROL, 30, beneficiaries=[ALICE, BOB], key="leave",
                               when=THURSDAY + timedelta(hours=2))  # fmt: skip
    # A penalty outside any recorded game belongs to no rule set's board.
    await store.record_penalty(GUILD, None, DAVE, 5, key="loose", when=THURSDAY)
    # Two weeks earlier (still November): Carol wins in Taizhou.
    await _hand(store, "tz", 2, SEATS, [-5, -5, 15, -5], THURSDAY - timedelta(days=14))

    week = (WEEK, WEEK + timedelta(days=7))
    assert _lines(await store.variant_leaderboard(GUILD, "jiaxing", *week)) == [
        (ALICE, 90, 1, 1, 90), (BOB, -30, 1, 0, 0), (CAROL, -30, 1, 0, 0),
    ]  # fmt: skip
    assert _lines(await store.variant_leaderboard(GUILD, "taizhou", *week)) == [
        (BOB, 115, 2, 2, 60), (ALICE, -15, 2, 0, 0), (CAROL, -70, 2, 0, 0),
    ]  # fmt: skip
    # Bob's /stats card for the same rule set and week reads the same days (its net has
    # no penalties: a card counts hands).
    card = await store.player_card_stats(GUILD, BOB, variant="taizhou", first_day=week[0],
                                         end_day=week[1])  # fmt: skip
    assert (card.hands, card.wins, card.net) == (2, 2, 100)
    november = (date(2026, 11, 1), next_month(date(2026, 11, 1)))
    taizhou_month = _lines(await store.variant_leaderboard(GUILD, "taizhou", *november))
    assert taizhou_month == [(CAROL, 80, 3, 1, 150), (BOB, 65, 3, 2, 60), (ALICE, -65, 3, 0, 0)]
    assert _lines(await store.variant_leaderboard(GUILD, "taizhou")) == taizhou_month
    assert _lines(await store.variant_leaderboard(GUILD, "jiaxing")) == _lines(
        await store.variant_leaderboard(GUILD, "jiaxing", *week)
    )
    # Bob and Carol tie (-30, no win) and are ranked by user id, on the board and when each
    # asks for their own place; the server's week (no rule set) likewise.
    assert [
        await store.leaderboard_position(GUILD, user, variant="jiaxing") for user in (BOB, CAROL)
    ] == [(2, LeaderboardRow(BOB, -30, 1, 0, 0)), (3, LeaderboardRow(CAROL, -30, 1, 0, 0))]
    assert await store.leaderboard_position(GUILD, DAVE, variant="jiaxing") is None
    # The server's week: Bob +85, Alice +75, Dave -5 (his loose penalty), Carol -100.
    assert await store.leaderboard_position(GUILD, DAVE, week_start=WEEK) == (
        3, LeaderboardRow(DAVE, -5, 0, 0, 0)
    )  # fmt: skip
    october = (date(2026, 10, 1), date(2026, 11, 1))
    assert await store.variant_leaderboard(GUILD, "jiaxing", *october) == []
    assert await store.variant_leaderboard(GUILD + 1, "taizhou") == []
    assert await store.variant_leaderboard(GUILD, "nonesuch") == []
    # The limit keeps the top; the server's board is the sum of the rule sets' (and Dave's
    # loose penalty, which only it holds).
    assert _lines(await store.variant_leaderboard(GUILD, "taizhou", limit=1)) == [
        (CAROL, 80, 3, 1, 150)
    ]
    server = {row.user_id: row.net for row in await store.alltime_leaderboard(GUILD)}
    assert server == {ALICE: 25, BOB: 35, CAROL: 50, DAVE: -5}


async def test_random_play_boards_agree_with_the_ledger(db: BackendDB) -> None:
    """Random hands over two rule sets and ten weeks, with penalties: every week's,
    month's and the all-time board of each rule set equals the sums read straight from the
    ledger, the rule sets add up to the server's boards, and a rebuild keeps all time."""
    rng = random.Random(16)
    store = await db.open()
    users = list(range(21, 29))
    games = {f"g{index}": rng.choice(("jiaxing", "taizhou")) for index in range(6)}
    for game_id, variant in games.items():
        await _game(store, game_id, variant)
    hands: dict[str, int] = defaultdict(int)
    start = datetime(2026, 9, 1, 8, 0, tzinfo=UTC)
    for step in range(160):
        when = start + timedelta(hours=10 * step + rng.randrange(9))
        game_id = rng.choice(list(games))
        if rng.random() < 0.1:
            payer, *receivers = rng.sample(users, 3)
            await store.record_penalty(GUILD, game_id, payer, rng.randint(1, 60),
                                       beneficiaries=receivers, key=f"p{step}", when=when)  # fmt: skip
            continue
        seated: list[int | None] = [*rng.sample(users, 3), None]
        winner = rng.randrange(4)
        loss = rng.randint(1, 12)
        units = [3 * loss if seat == winner else -loss for seat in range(4)]
        await _hand(store, game_id, hands[game_id], seated, units, when)
        hands[game_id] += 1

    ledger = await db.fetch_raw(
        "SELECT l.user_id, l.kind, l.points, l.is_winner, l.local_day, g.variant FROM ledger AS l"
        " JOIN games AS g ON g.game_id = l.game_id"
        " WHERE l.kind IN ('hand', 'penalty') AND l.user_id IS NOT NULL"
    )

    def expected(variant: str, low: str, high: str) -> dict[int, tuple[int, int, int, int]]:
        figures: dict[int, list[int]] = {}
        for user, kind, points, is_winner, day, game_variant in ledger:
            if game_variant != variant or not low <= day < high:
                continue
            line = figures.setdefault(int(user), [0, 0, 0, 0])
            line[0] += int(points)
            if kind == "hand":
                line[1] += 1
                line[2] += int(is_winner)
                line[3] = max(line[3], int(points))
        return {user: (net, count, wins, top) for user, (net, count, wins, top) in figures.items()}

    def ranked(rows: list[LeaderboardRow]) -> bool:
        keys = [(-row.net, -row.wins, row.user_id) for row in rows]
        return keys == sorted(keys)

    periods: list[tuple[date | None, date | None]] = [(None, None)]
    monday = date(2026, 8, 31)
    while monday < date(2026, 11, 16):
        periods.append((monday, monday + timedelta(days=7)))
        monday += timedelta(days=7)
    periods += [(date(2026, month, 1), next_month(date(2026, month, 1))) for month in (9, 10, 11)]
    checked = 0
    for first, end in periods:
        low = first.isoformat() if first else ""
        high = end.isoformat() if end else "9999"
        per_user: dict[int, int] = defaultdict(int)
        for variant in ("jiaxing", "taizhou"):
            board = await store.variant_leaderboard(GUILD, variant, first, end, limit=100)
            assert ranked(board)
            got = {row.user_id: (row.net, row.hands, row.wins, row.biggest) for row in board}
            assert got == expected(variant, low, high)
            checked += len(got)
            for row in board:
                per_user[row.user_id] += row.net
        if first is None:
            server = await store.alltime_leaderboard(GUILD, limit=100)
            scope: dict[str, date] = {}
        elif end == first + timedelta(days=7):
            server = await store.weekly_leaderboard(GUILD, week_start=first, limit=100)
            scope = {"week_start": first}
        else:
            server = await store.monthly_leaderboard(GUILD, first, limit=100)
            scope = {"month_start": first}
        assert {row.user_id: row.net for row in server} == dict(per_user)
        # "And me?": each player's place on every board is their index in the whole board.
        boards = [(server, scope)]
        for variant in ("jiaxing", "taizhou"):
            whole = await store.variant_leaderboard(GUILD, variant, first, end, limit=100)
            days = {"first_day": first, "end_day": end} if first else {}
            boards.append((whole, {"variant": variant, **days}))  # type: ignore[dict-item]
        for whole, where in boards:
            for user in users:
                place = await store.leaderboard_position(GUILD, user, **where)  # type: ignore[arg-type]
                ranks = [rank for rank, row in enumerate(whole, 1) if row.user_id == user]
                assert (place[0] if place else None) == (ranks[0] if ranks else None)
                assert place is None or place[1] == whole[place[0] - 1]
    assert checked > 100
    before = await db.fetch_raw("SELECT * FROM variant_stats ORDER BY guild_id, variant, user_id")
    assert len(before) == len({(row[5], row[0]) for row in ledger}) > len(users)
    await store.rebuild_stats(GUILD)
    assert (
        await db.fetch_raw("SELECT * FROM variant_stats ORDER BY guild_id, variant, user_id")
        == before
    )


async def test_a_database_from_before_rule_set_boards_is_backfilled(db: BackendDB) -> None:
    """Opened by this version, a database settled by the last one (no ``variant_stats``)
    gets its all-time rule-set boards from the ledger, as the settlements would have kept
    them."""
    store = await db.open()
    await _first_hands(store)
    await store.record_penalty(GUILD, "tz", CAROL, 30, beneficiaries=[ALICE], when=THURSDAY)
    kept = await db.fetch_raw("SELECT * FROM variant_stats ORDER BY variant, user_id")
    assert len(kept) == 6
    await store.close()
    for statement in (
        "DROP TABLE variant_stats",
        "DROP INDEX player_day_stats_board",
        "DROP INDEX ledger_penalties",
        "DELETE FROM schema_migrations WHERE version = 7",
        # and what came after it (version 8: the server's highest stake)
        "ALTER TABLE guild_settings DROP COLUMN max_stake",
        "ALTER TABLE guild_settings DROP COLUMN leaderboard_problem",
        "DELETE FROM schema_migrations WHERE version = 8",
        # and version 9 (the ledger by guild and kind, for /mjadmin ledger)
        "DROP INDEX ledger_guild_kind",
        "DELETE FROM schema_migrations WHERE version = 9",
        # and version 10 (voided hands; the ledger's wider kinds may stay: it re-applies)
        "DROP TABLE voided_hands",
        "DELETE FROM schema_migrations WHERE version = 10",
        # and version 11 (whether hands with AI seats count on the boards)
        "ALTER TABLE guild_settings DROP COLUMN ai_hands_on_boards",
        "DROP INDEX ledger_hands_by_day",
        "DELETE FROM schema_migrations WHERE version = 11",
    ):
        await db.execute_raw(statement)
    reopened = await db.open()
    assert await reopened.schema_version() == LATEST_VERSION
    assert await db.fetch_raw("SELECT * FROM variant_stats ORDER BY variant, user_id") == kept
    assert _lines(await reopened.variant_leaderboard(GUILD, "taizhou")) == [
        (BOB, 40, 1, 1, 40), (ALICE, 20, 1, 0, 0), (CAROL, -50, 1, 0, 0),
    ]  # fmt: skip
