"""The guild-wide ledger on both backends (``Store.guild_ledger``, the export reads) and
``mahjong-bot db export``: every user's rows of a kind, newest first, counted and paged
up to a fixed row so pages hold still; AI seats' rows left out of the pages but in the
export; other guilds' rows in neither; the same files from either database."""

from __future__ import annotations

import asyncio
import csv
import io
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from data import SettlementEntry, Store
from data.export import export_guild

if TYPE_CHECKING:
    from conftest import BackendDB

ROOT = Path(__file__).resolve().parent.parent
GUILD, OTHER = 7, 8
ADMIN, ALICE, BOB = 1_234_567_890_123_456_789, 21, 22  # a Discord-sized id among them
START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


async def _fill(store: Store) -> None:
    await store.set_user_pref(ALICE, "display_name", "小美")
    await store.set_user_pref(ADMIN, "display_name", "=管理员")
    entries = [
        SettlementEntry(seat=0, user_id=ALICE, units=3, is_winner=True),
        SettlementEntry(seat=1, user_id=BOB, units=-1),
        SettlementEntry(seat=2, user_id=None, units=-1),
        SettlementEntry(seat=3, user_id=None, units=-1),
    ]
    for hand in range(3):
        assert await store.settle_hand(GUILD, "g1", hand, entries, 10)
    await store.adjust_balance(GUILD, ALICE, 500, ADMIN, "welcome, 欢迎")
    await store.adjust_balance(GUILD, ADMIN, 9_000, ADMIN, "myself\nagain")
    await store.record_penalty(GUILD, "g1", BOB, 40, beneficiaries=[ALICE], key="k")
    await store.adjust_balance(OTHER, ALICE, 7, ADMIN, "another server")


async def test_the_guild_ledger_pages_every_users_rows_of_a_kind(db: BackendDB) -> None:
    store = await db.open(clock=Clock())
    await _fill(store)
    page = await store.guild_ledger(GUILD)  # adjustments and penalties
    assert page.total == 4
    assert [(e.kind, e.user_id, e.points) for e in page.entries] == [
        ("penalty", ALICE, 40), ("penalty", BOB, -40),
        ("adjustment", ADMIN, 9_000), ("adjustment", ALICE, 500),
    ]  # fmt: skip
    assert page.entries[2].by_user == ADMIN and page.entries[3].reason == "welcome, 欢迎"
    hands = await store.guild_ledger(GUILD, kinds=("hand",), limit=4, offset=4)
    assert hands.total == 6  # three hands of two players; the AI seats have no balance
    assert [(e.hand_number, e.user_id) for e in hands.entries] == [(0, BOB), (0, ALICE)]
    mine = await store.guild_ledger(GUILD, kinds=("adjustment", "opening"), user_id=ADMIN)
    assert [(e.kind, e.points) for e in mine.entries] == [("adjustment", 9_000), ("opening", 1000)]

    # Pages read up to the row the first look saw: later rows wait for a new look.
    await store.adjust_balance(GUILD, BOB, 1, ADMIN, "later")
    again = await store.guild_ledger(GUILD, upto=page.upto)
    assert again == page
    assert (await store.guild_ledger(GUILD)).total == 5
    with pytest.raises(ValueError):
        await store.guild_ledger(GUILD, kinds=("bonus",))


async def test_the_export_explains_the_balances_and_reads_the_same_on_both(
    db: BackendDB,
) -> None:
    store = await db.open(clock=Clock())
    await _fill(store)
    result = await export_guild(store, GUILD, now=START, chunk_rows=4)  # several chunks
    balances = list(csv.reader(io.StringIO(result.balances.decode("utf-8-sig"))))
    ledger = list(csv.reader(io.StringIO(result.ledger.decode("utf-8-sig"))))
    assert balances[1:] == [
        [str(ADMIN), "'=管理员", "10000"], [str(ALICE), "小美", "1630"], [str(BOB), "", "930"],
    ]  # fmt: skip
    rows = ledger[1:]
    assert len(rows) == result.rows == 3 + 12 + 2 + 2  # openings, hand rows, adjustments, penalty
    for user, _name, balance in balances[1:]:
        assert sum(int(row[5]) for row in rows if row[2] == user) == int(balance)
    assert ["", "AI", "hand", "-10", "-10", "0", "g1", "3"] in [row[2:10] for row in rows]
    own = next(row for row in rows if row[4] == "adjustment" and row[2] == str(ADMIN))
    assert own[1:] == ["2026-11-30T09:05:00Z", str(ADMIN), "'=管理员", "adjustment", "9000",
                       "9000", "0", "", "", "myself again", str(ADMIN), "'=管理员"]  # fmt: skip
    assert "another server" not in result.ledger.decode()
    # The files are the same bytes on either backend (the ids and times are the store's).
    assert result.file_name("ledger") == f"ledger-{GUILD}-20261130.csv"
    assert len(result.ledger_chunks) == 5


def test_db_export_writes_the_files_for_an_operator(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"

    async def fill() -> bytes:
        store = await Store.open(database, clock=Clock())
        try:
            await _fill(store)
            return (await export_guild(store, GUILD)).ledger
        finally:
            await store.close()

    expected = asyncio.run(fill())
    out = tmp_path / "export"
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "db", "export", "--guild", str(GUILD), "--out",
         str(out), "--db", str(database)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "exported 3 balances and 19 ledger rows" in done.stdout
    (ledger,) = out.glob(f"ledger-{GUILD}-*.csv")
    (balances,) = out.glob(f"balances-{GUILD}-*.csv")
    assert ledger.read_bytes() == expected and balances.read_bytes().startswith(b"\xef\xbb\xbf")
    missing = subprocess.run(
        [sys.executable, "-m", "bot.cli", "db", "export", "--guild", "5", "--out", str(out),
         "--db", str(tmp_path / "none" / "x.db")],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert missing.returncode == 2 and "database unusable" in missing.stderr


async def test_a_page_of_adjustments_reads_its_kind_not_every_hand(tmp_path: Path) -> None:
    """Migration 9's index: without a user, a page and its count of one kind read that
    kind's rows of the guild in id order (before it, every row of the guild was read and
    sorted: 0.14 s a page at a million hands)."""
    import sqlite3

    store = await Store.open(tmp_path / "bot.db", clock=Clock())
    await _fill(store)
    await store.close()
    where = "guild_id = ? AND kind = ? AND user_id IS NOT NULL AND id <= ?"
    with sqlite3.connect(tmp_path / "bot.db") as connection:
        for sql in (f"SELECT COUNT(*) FROM ledger WHERE {where}",
                    f"SELECT * FROM ledger WHERE {where} ORDER BY id DESC LIMIT 10"):  # fmt: skip
            plan = " ".join(
                str(row[3])
                for row in connection.execute(f"EXPLAIN QUERY PLAN {sql}", (GUILD, "hand", 99))
            )
            assert "ledger_guild_kind" in plan and "TEMP B-TREE" not in plan, plan
