"""``/stats`` through the strict harness: after real matches, the card's figures equal what
the ledger rows (and the hands' outcomes) say, for every period and rule-set filter."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from discord_harness import CHANNEL_ID, GUILD_ID, option
from test_discord_bot import ALICE, BOB, Env, open_table, play_turn, start_bot, stop_bot

from data import settlement_entries
from render.stats import mean_text, percent
from render.text import label


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    environment = await start_bot(tmp_path / "bot.db", seed=11)
    yield environment
    await stop_bot(environment)


async def play_match(env: Env, variant: str, *humans: int) -> None:
    await open_table(env, *humans, variant=variant)
    table = env.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None
    clicks = 0
    while table.status == "running" and clicks < 3000:
        moved = False
        for user in humans:
            if table.status == "running" and await play_turn(env, user):
                clicks += 1
                moved = True
                await env.h.advance(1.6)
        if not moved:
            await env.h.advance(2)
    assert table.status == "finished"
    await env.h.advance(2)


def period_days(period: str) -> tuple[str, str]:
    """The period's local days in UTC (the guild's default zone), worked out here."""
    today = datetime.now(UTC).date()
    if period == "week":
        monday = today - timedelta(days=today.weekday())
        return monday.isoformat(), (monday + timedelta(days=7)).isoformat()
    if period == "month":
        first = today.replace(day=1)
        return first.isoformat(), (first + timedelta(days=32)).replace(day=1).isoformat()
    return "", "9999"


def ledger_card(
    path: Path, user: int, variant: str | None, period: str = "all"
) -> dict[str, object]:
    """The card's figures computed from raw ledger rows, not from any aggregate."""
    low, high = period_days(period)
    connection = sqlite3.connect(path)
    rows = connection.execute(
        "SELECT l.points, l.is_winner, l.seat, o.win_by, o.dealt_in_seat, o.variant"
        " FROM ledger AS l JOIN hand_outcomes AS o ON o.op_id = l.op_id"
        " WHERE l.kind = 'hand' AND l.user_id = ? AND l.local_day >= ? AND l.local_day < ?",
        (user, low, high),
    ).fetchall()
    connection.close()
    rows = [row for row in rows if variant is None or row[5] == variant]
    hands = len(rows)
    wins = sum(1 for row in rows if row[1])
    self_draws = sum(1 for row in rows if row[1] and row[3] == "self_draw")
    taizhou = sum(1 for row in rows if row[5] == "taizhou")
    deal_ins = sum(1 for row in rows if row[4] == row[2])
    net = sum(row[0] for row in rows)
    return {
        "hands": str(hands),
        "stats_win_rate": percent(wins / hands if hands else None),
        "stats_self_draw": percent(self_draws / wins if wins else None),
        "stats_deal_in": percent(deal_ins / taizhou if taizhou else None),
        "stats_mean": mean_text(net / hands if hands else None),
        "stats_net": f"{net:+d}",
        "biggest": max((row[0] for row in rows if row[0] > 0), default=0),
    }


def alt_text_of(env: Env, record: object) -> str:
    """The one picture's alt text in an interaction's answer, as Discord keeps it."""
    found = []
    for request in env.h.replies_to(record):  # type: ignore[arg-type]
        body = request.payload or {}
        data = body.get("data", body) if request.callback_type else body
        found += [item.get("description") for item in data.get("attachments") or []]
    (description,) = found
    assert isinstance(description, str) and description
    return description


def card_of(env: Env, record: object) -> dict[str, object]:
    for request in env.h.replies_to(record):  # type: ignore[arg-type]
        for _name, data in request.files:
            if data.startswith(b"STATS "):
                return json.loads(data[len(b"STATS ") :])
    raise AssertionError("no stats card in the reply")


async def test_stats_card_figures_equal_the_ledger(env: Env, tmp_path: Path) -> None:
    await play_match(env, "taizhou", ALICE, BOB)
    await play_match(env, "jiaxing", ALICE)
    path = tmp_path / "bot.db"
    assert ledger_card(path, ALICE, None)["hands"] != "0"
    for variant in (None, "taizhou", "jiaxing"):
        for period in ("all", "week", "month"):
            options = [option("period", period)]
            if variant is not None:
                options.append(option("variant", variant))
            record = await env.h.command(ALICE, "stats", options)
            expected = ledger_card(path, ALICE, variant, period)
            assert card_of(env, record) == expected, (variant, period)
            # The picture's alt text says the same figures, with the card's own words.
            description = alt_text_of(env, record)
            for key in ("hands", "stats_win_rate", "stats_mean", "stats_net"):
                assert f"{label(key, 'zh')} {expected[key]}" in description, (key, description)
            if expected["biggest"]:
                assert f"{label('stats_biggest', 'zh')}：+{expected['biggest']}（" in description
    # Another player's card, in English.
    record = await env.h.command(ALICE, "stats", [option("user", str(BOB), kind=6)],
                                 locale="en-US")  # fmt: skip
    assert card_of(env, record) == ledger_card(path, BOB, None)
    assert "win rate" in env.h.reply_text(record)
    english = alt_text_of(env, record)
    assert english.startswith("Player stats · ") and "Win rate " in english
    assert re.search(r"\nBalance: \d+ \(\d{4}-\d\d-\d\d\)$", english)  # one day of play


async def test_stats_refuses_bad_values_without_a_card(env: Env) -> None:
    for options in ([option("period", "decade")], [option("variant", "riichi")]):
        record = await env.h.command(ALICE, "stats", options)
        assert not any(
            data.startswith(b"STATS") for r in env.h.replies_to(record) for _n, data in r.files
        )
        assert env.h.reply_text(record)


async def test_monthly_season_board_is_viewable_like_the_weeks(env: Env, tmp_path: Path) -> None:
    await play_match(env, "taizhou", ALICE, BOB)
    record = await env.h.command(ALICE, "leaderboard", [option("period", "monthly")])
    boards = [data for r in env.h.replies_to(record) for _n, data in r.files]
    assert boards and boards[0].startswith(b"BOARD month 2 ")  # Alice and Bob (AIs unlisted)
    low, high = period_days("month")
    connection = sqlite3.connect(tmp_path / "bot.db")
    nets = dict(
        connection.execute(
            "SELECT user_id, SUM(points) FROM ledger WHERE kind IN ('hand', 'penalty')"
            " AND user_id IS NOT NULL AND local_day >= ? AND local_day < ? GROUP BY user_id",
            (low, high),
        ).fetchall()
    )
    connection.close()
    text = env.h.reply_text(record)
    assert "月榜" in text
    for net in nets.values():
        assert f"**{net:+d}**" in text
    description = alt_text_of(env, record)
    assert description.startswith("排行榜 · 月榜 · ")
    for rank, net in enumerate(sorted(nets.values(), reverse=True), start=1):
        assert f"\n{rank}. " in description and f" {net:+d}（局数 " in description
    # Last month's season: nobody played, and the reply says so.
    record = await env.h.command(
        ALICE, "leaderboard", [option("period", "monthly"), option("weeks_ago", 1)]
    )
    assert not [data for r in env.h.replies_to(record) for _n, data in r.files]


async def test_a_rule_sets_board_holds_only_its_tables(env: Env, tmp_path: Path) -> None:
    """``/leaderboard variant``: after a Taizhou match and a Jiaxing hand, each rule set's
    board (this week, all time) lists exactly the nets its own tables gave, names the rule
    set in its title, picture and alt text; the server's board holds both."""
    await play_match(env, "taizhou", ALICE, BOB)
    store = env.bot.store
    await store.create_game("jx-hand", GUILD_ID, CHANNEL_ID, "jiaxing", {}, [], 5,
                            settings={"num_seats": 4, "stake": 1}, status="finished")  # fmt: skip
    entries = settlement_entries([-4, 12, -4, -4], [ALICE, BOB, None, None], 1)
    # Dated by the bot's clock, which the weekly board reads (the match is dated by the
    # store's own, real time: all time holds it).
    assert await store.settle_hand(GUILD_ID, "jx-hand", 0, entries, stake=3, when=env.bot.now())
    connection = sqlite3.connect(tmp_path / "bot.db")
    rows = connection.execute(
        "SELECT l.user_id, g.variant, SUM(l.points) FROM ledger AS l"
        " JOIN games AS g ON g.game_id = l.game_id WHERE l.kind IN ('hand', 'penalty')"
        " AND l.user_id IS NOT NULL GROUP BY l.user_id, g.variant"
    ).fetchall()
    connection.close()
    nets = {(user, variant): net for user, variant, net in rows}
    assert nets[(ALICE, "jiaxing")] == -12 and nets[(BOB, "jiaxing")] == 36
    names = {"taizhou": "台州麻将", "jiaxing": "嘉兴台头胡"}
    for variant, period in (("taizhou", "alltime"), ("jiaxing", "alltime"), ("jiaxing", "weekly")):
        record = await env.h.command(
            ALICE, "leaderboard", [option("period", period), option("variant", variant)]
        )
        text = env.h.reply_text(record)
        assert text.startswith(f"**{names[variant]} · "), text
        listed = [int(net) for net in re.findall(r"\*\*([+-]\d+)\*\*", text)]
        expected = sorted((nets[(user, variant)] for user in (ALICE, BOB)), reverse=True)
        assert listed == expected, (variant, period, text)
        (board,) = [data for r in env.h.replies_to(record) for _n, data in r.files]
        kind = "week" if period == "weekly" else "all_time"
        assert board.decode().startswith(f"BOARD {kind} 2 {names[variant]} · ")
        heading = f"排行榜 · {'本周' if period == 'weekly' else '总榜'} · {names[variant]} · "
        assert alt_text_of(env, record).startswith(heading), alt_text_of(env, record)
    record = await env.h.command(ALICE, "leaderboard", [option("period", "alltime")])
    listed = [int(net) for net in re.findall(r"\*\*([+-]\d+)\*\*", env.h.reply_text(record))]
    assert listed == sorted(
        (sum(net for (user, _v), net in nets.items() if user == player) for player in (ALICE, BOB)),
        reverse=True,
    )
    # A rule set nobody played this week, and one the bot does not have.
    record = await env.h.command(
        ALICE, "leaderboard", [option("variant", "jiaxing"), option("weeks_ago", 3)]
    )
    assert "还没有对局" in env.h.reply_text(record)
    record = await env.h.command(ALICE, "leaderboard", [option("variant", "riichi")])
    assert not [data for r in env.h.replies_to(record) for _n, data in r.files]
    assert "riichi" in env.h.reply_text(record)


async def test_a_player_below_the_top_ten_sees_their_own_place(env: Env) -> None:
    """ "And me?": twelve players each won a hand off Alice this week; her /leaderboard
    lists the ten, then "…" and her own line with her rank; Bob, not on the board, gets
    the ten alone; the picture keeps the ten either way."""
    store = env.bot.store
    await store.create_game("many", GUILD_ID, CHANNEL_ID, "taizhou", {}, [], 5,
                            settings={"num_seats": 4, "stake": 1}, status="finished")  # fmt: skip
    winners = [800_000_000_000_000_100 + number for number in range(12)]
    for number, winner in enumerate(winners):
        entries = settlement_entries([3, -1, -1, -1], [winner, ALICE, None, None], 0)
        assert await store.settle_hand(GUILD_ID, "many", number, entries, stake=2,
                                       when=env.bot.now())  # fmt: skip
    for period in ("weekly", "alltime"):
        for variant in ([], [option("variant", "taizhou")]):
            record = await env.h.command(ALICE, "leaderboard", [option("period", period), *variant])
            lines = env.h.reply_text(record).split("\n")
            assert len(lines) == 1 + 10 + 2, lines
            assert lines[1].startswith("1. ") and lines[10].startswith("10. ")
            assert lines[11] == "…"
            assert lines[12] == "13. alice **-24** · 12 局/hands · 胡 0 次/wins"
            (board,) = [data for r in env.h.replies_to(record) for _n, data in r.files]
            assert board.split(b" ")[2] == b"10"  # the picture: the ten
    record = await env.h.command(BOB, "leaderboard")
    assert len(env.h.reply_text(record).split("\n")) == 1 + 10


async def test_a_callers_first_leaderboard_names_them_while_the_store_is_slow(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The caller's name is learnt from the interaction before anything awaits: with a
    store slow to save their locale, a first /leaderboard listed its own caller as
    "user…0001" (the name was stored after the command had read it)."""
    store = env.bot.store
    await store.create_game("slow", GUILD_ID, CHANNEL_ID, "taizhou", {}, [], 5,
                            settings={"num_seats": 4, "stake": 1}, status="finished")  # fmt: skip
    entries = settlement_entries([3, -1, -1, -1], [ALICE, BOB, None, None], 0)
    assert await store.settle_hand(GUILD_ID, "slow", 0, entries, stake=1, when=env.bot.now())
    save_locale = env.bot.presenter.save_locale

    async def slow_save(user_id: int, locale: str) -> None:
        for _ in range(20):
            await asyncio.sleep(0)  # the command's own task runs meanwhile
        await save_locale(user_id, locale)

    monkeypatch.setattr(env.bot.presenter, "save_locale", slow_save)
    record = await env.h.command(ALICE, "leaderboard", [option("period", "alltime")])
    assert "\n1. alice **+3**" in env.h.reply_text(record)  # Bob never came: user…0002
