"""``/mjadmin ledger`` and ``/mjadmin export``: a server manager audits every adjustment and
penalty of the server in one place (who, how much, why, and who made it, marked when an
admin adjusted their own balance), pages through any kind of ledger row, and takes the
balances and the whole ledger away as CSV files; nobody else may."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord_harness import (
    ADMIN_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    Harness,
    StoredMessage,
    offline_bot,
    option,
)

from data import SettlementEntry, Store

MANAGER = 800_000_000_000_000_501
ALICE = 800_000_000_000_000_502
BOB = 800_000_000_000_000_503
GONE = 800_000_000_000_000_599  # left the server: resolved as a user, not a member
USERS = {
    MANAGER: ("管理员老张", ADMIN_PERMISSIONS),
    ALICE: ("小美", DEFAULT_PERMISSIONS),
    BOB: ("Bob", DEFAULT_PERMISSIONS),
}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=501) as harness:
        yield harness


def store_of(h: Harness) -> Store:
    return h.bot.store  # type: ignore[attr-defined, no-any-return]


async def _audit_rows(h: Harness) -> None:
    """A hand, two adjustments through the command (one of them the manager's own), one of
    a player who has since left, and a penalty split to another player."""
    store = store_of(h)
    await store.set_user_pref(GONE, "display_name", "老王已走")  # seen before leaving
    for user in (ALICE, BOB):  # players the bot has seen (they play, look at /balance)
        await h.command(user, "balance")
    entries = [
        SettlementEntry(seat=0, user_id=ALICE, units=3, is_winner=True),
        SettlementEntry(seat=1, user_id=BOB, units=-1),
        SettlementEntry(seat=2, user_id=None, units=-1),
        SettlementEntry(seat=3, user_id=None, units=-1),
    ]
    assert await store.settle_hand(GUILD_ID, "game-one", 0, entries, 10)
    await h.command(MANAGER, "mjadmin adjust",
                    [option("user", str(ALICE), 6), option("amount", 1500),
                     option("reason", "补偿 **bug**")])  # fmt: skip
    await h.command(MANAGER, "mjadmin adjust",
                    [option("user", str(MANAGER), 6), option("amount", 100000),
                     option("reason", "测试")])  # fmt: skip
    await store.adjust_balance(GUILD_ID, GONE, -200, MANAGER, "=走之前清账")
    await store.record_penalty(GUILD_ID, "game-one", BOB, 40, beneficiaries=[ALICE], key="b")


async def test_a_manager_sees_every_adjustment_and_penalty_and_who_made_it(h: Harness) -> None:
    await _audit_rows(h)
    chinese = h.reply_text(await h.command(MANAGER, "mjadmin ledger"))
    head, *lines = chinese.splitlines()
    assert head == "**账本 · 管理员调整、作废和罚分 · 第 1/1 页，共 5 条**"
    assert len(lines) == 5 and all(re.match(r"- <t:\d+:f> · ", line) for line in lines)
    share, penalty, gone, own, alice = lines  # newest first
    assert share.endswith(" · 小美 · **+40** · 离桌罚分分得 · `game-one`")
    assert penalty.endswith(" · Bob · **-40** · 离桌罚分 · `game-one`")
    assert gone.endswith(" · 老王已走 · **-200** · 调整，管理员老张 操作：“=走之前清账”")
    assert own.endswith(" · 管理员老张 · **+100,000** · 调整，管理员老张 ⚠ 自己给自己：“测试”")
    # What the admin typed is shown as typed (no bold), and no id stands for a known name.
    assert alice.endswith(" · 小美 · **+1,500** · 调整，管理员老张 操作：“补偿 \\*\\*bug\\*\\*”")
    assert str(ALICE) not in chinese and "user…" not in chinese

    english = h.reply_text(await h.command(MANAGER, "mjadmin ledger", locale="en-US"))
    assert english.startswith("**Ledger · adjustments, voids and penalties · page 1 of 1, 5 rows**")
    assert "管理员老张 · **+100,000** · adjustment by 管理员老张 ⚠ self: “测试”" in english
    assert "Share of a leaving penalty" in english

    # One kind, or one user's rows (one who left the server too).
    hands = h.reply_text(
        await h.command(MANAGER, "mjadmin ledger", [option("kind", "hand")], locale="en-US")
    )
    assert hands.splitlines()[0] == "**Ledger · hands · page 1 of 1, 2 rows**"  # no AI seats
    assert " · Bob · **-10** · hand 1 · `game-one`" in hands and "+30" in hands
    departed = h.reply_text(await h.command(MANAGER, "mjadmin ledger",
                                            [option("user", str(GONE), 6)]))  # fmt: skip
    assert (
        departed.splitlines()[0]
        == "**账本 · 老王已走 · 管理员调整、作废和罚分 · 第 1/1 页，共 1 条**"
    )
    openings = h.reply_text(await h.command(
        MANAGER, "mjadmin ledger", [option("user", str(GONE), 6), option("kind", "opening")]
    ))  # fmt: skip
    assert "老王已走 · **+1,000** · 开户" in openings
    nothing = h.reply_text(await h.command(
        MANAGER, "mjadmin ledger", [option("user", str(BOB), 6), option("kind", "adjustment")]
    ))  # fmt: skip
    assert nothing == "账本里没有这样的记录（Bob · 管理员调整）。"
    traditional = h.reply_text(await h.command(MANAGER, "mjadmin ledger", locale="zh-TW"))
    assert "帳本 · 管理員調整、作廢和罰分" in traditional and "⚠ 自己給自己：“测试”" in traditional

    refused = h.reply_text(await h.command(ALICE, "mjadmin ledger"))
    assert "管理服务器" in refused and "小美" not in refused
    assert not h.failed_interactions()


def _button(message: StoredMessage, label: str) -> dict[str, Any]:
    (found,) = [c for row in message.components for c in row["components"]
                if c["custom_id"].startswith("mj:ml:") and c["label"] == label]  # fmt: skip
    return found


async def test_the_ledger_pages_with_buttons_and_holds_still_while_play_goes_on(
    h: Harness,
) -> None:
    """25 adjustments with reasons as long as Discord lets an admin type: three pages,
    each within one message (a reason cut to fit says so), ◀ ▶ reach every row once, and
    a row added meanwhile does not shift them."""
    store = store_of(h)
    for number in range(25):
        reason = f"第{number:02d}号 " + "很长的原因 with words " * 12
        await store.adjust_balance(GUILD_ID, ALICE, number + 1, MANAGER, reason[:200])
    await h.command(MANAGER, "mjadmin ledger", locale="en-US")
    message = h.ephemeral_messages(MANAGER)[-1]
    seen: list[int] = []
    for expected in (1, 2, 3):
        content = message.payload["content"]
        assert len(content) <= 2000
        head, *lines = content.splitlines()
        assert head == f"**Ledger · adjustments · page {expected} of 3, 25 rows**".replace(
            "adjustments ·", "adjustments, voids and penalties ·"
        )
        assert lines[-1].startswith("-# Long reasons are cut short here")
        rows = lines[:-1]
        assert all("…”" in row for row in rows)
        # Alice never used the bot: no name is known, so a mention stands in (Discord
        # shows her name there), never a bare id.
        assert all(row.split(" · ")[1] == f"<@{ALICE}>" for row in rows)
        seen += [int(re.findall(r"\*\*\+(\d+)\*\*", row)[0]) for row in rows]
        if expected == 1:  # a new adjustment between two presses changes no page
            await store.adjust_balance(GUILD_ID, BOB, 999, MANAGER, "later")
        forward = _button(message, "▶")
        if expected == 3:
            assert forward.get("disabled")
            break
        await h.click(MANAGER, message, forward["custom_id"], locale="en-US")
    assert seen == list(range(25, 0, -1))

    await h.click(MANAGER, message, _button(message, "◀")["custom_id"])
    assert message.payload["content"].startswith(
        "**账本 · 管理员调整、作废和罚分 · 第 2/3 页，共 25 条**"
    )
    # One user the bot has no name for: a mention in the title too.
    alone = await h.command(MANAGER, "mjadmin ledger", [option("user", str(ALICE), 6)])
    assert h.reply_text(alone).startswith(
        f"**账本 · <@{ALICE}> · 管理员调整、作废和罚分 · 第 1/3 页"
    )
    # A fresh look counts the new row; a page past the end shows the last one.
    last = await h.command(MANAGER, "mjadmin ledger", [option("page", 40)], locale="en-US")
    assert h.reply_text(last).startswith(
        "**Ledger · adjustments, voids and penalties · page 3 of 3, 26 rows**"
    )
    # The buttons check Manage Server again: without it, the list does not move.
    before = message.payload["content"]
    refused = await h.click(ALICE, message, _button(message, "▶")["custom_id"])
    assert "管理服务器" in h.reply_text(refused) and message.payload["content"] == before
    assert not h.failed_interactions()


def _csv_rows(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads the file as UTF-8
    return list(csv.reader(io.StringIO(data[3:].decode("utf-8"))))


async def test_export_attaches_the_balances_and_the_ledger_as_csv(h: Harness) -> None:
    await _audit_rows(h)
    record = await h.command(MANAGER, "mjadmin export", locale="en-US")
    (reply,) = [r for r in h.replies_to(record) if r.files]
    assert reply.payload is not None and reply.payload["flags"] & 64  # ephemeral
    assert "Exported: 4 balances and 13 ledger rows" in h.reply_text(record)
    files = dict(reply.files)
    balances = _csv_rows(next(data for name, data in files.items() if name.startswith("balances-")))
    ledger = _csv_rows(next(data for name, data in files.items() if name.startswith("ledger-")))
    assert all(name.endswith(".csv") and str(GUILD_ID) in name for name in files)

    assert balances[0] == ["用户ID user_id", "名字 name", "余额 balance"]
    assert balances[1] == [str(MANAGER), "管理员老张", "101000"]  # the largest first
    assert [str(GONE), "老王已走", "800"] in balances and len(balances) == 5

    assert ledger[0][:6] == ["编号 id", "时间UTC time_utc", "用户ID user_id", "名字 name",
                             "类型 kind", "积分 points"]  # fmt: skip
    rows = ledger[1:]
    assert len(rows) == 13 and [int(row[0]) for row in rows] == sorted(int(row[0]) for row in rows)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", row[1]) for row in rows)
    by_kind = {kind: [row for row in rows if row[4] == kind] for kind in ("hand", "adjustment")}
    assert ["", "AI", "hand", "-10", "-10", "0", "game-one", "1"] in [
        row[2:10] for row in by_kind["hand"]
    ]
    own = [row for row in by_kind["adjustment"] if row[2] == str(MANAGER)]
    assert own == [[own[0][0], own[0][1], str(MANAGER), "管理员老张", "adjustment", "100000",
                    "100000", "0", "", "", "测试", str(MANAGER), "管理员老张"]]  # fmt: skip
    # Text starting like a formula is kept as text for Excel.
    assert any(row[10] == "'=走之前清账" and row[3] == "老王已走" for row in rows)

    refused = await h.command(BOB, "mjadmin export")
    assert "管理服务器" in h.reply_text(refused)
    assert not any(r.files for r in h.replies_to(refused))
    assert not h.failed_interactions()


async def test_an_export_over_the_upload_limit_comes_zipped_then_in_parts(h: Harness) -> None:
    """A server's upload limit (Discord sends it with each interaction): over it, both
    files come as one zip; still over it, the ledger comes in zip parts, each a CSV with
    its header, over as many messages as needed; together they hold every row once."""
    store = store_of(h)
    for number in range(600):
        reason = f"{number:04d}-{(number * 7919) ** 3:x}"  # poorly compressible text
        await store.adjust_balance(GUILD_ID, ALICE, 1, MANAGER, reason)

    h.attachment_size_limit = 60_000  # the two CSVs are larger, their zip is not
    record = await h.command(MANAGER, "mjadmin export", locale="en-US")
    assert "Over Discord's upload limit (0.0572205 MB), so they come as one zip" in (
        h.reply_text(record)
    )
    (reply,) = [r for r in h.replies_to(record) if r.files]
    ((name, data),) = reply.files
    assert name.endswith(".zip") and len(data) <= 60_000
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        whole = {member: archive.read(member) for member in archive.namelist()}
    (ledger_name,) = [member for member in whole if member.startswith("ledger-")]
    every_row = _csv_rows(whole[ledger_name])
    assert len(every_row) == 1 + 1 + 600  # the header, Alice's opening, the adjustments

    h.attachment_size_limit = 5_000  # less than half the zip
    record = await h.command(MANAGER, "mjadmin export", locale="en-US")
    sent = [r for r in h.replies_to(record) if r.files]
    assert len(sent) > 1 and all(sum(len(d) for _, d in r.files) <= 5_000 for r in sent)
    parts = [data for r in sent for name, data in r.files if name.startswith("ledger-")]
    found = re.search(
        r"the ledger comes in (\d+) zip parts over (\d+) messages", h.reply_text(record)
    )
    assert found and int(found[1]) == len(parts) > 1 and int(found[2]) == len(sent)
    rows: list[list[str]] = []
    for part in parts:
        with zipfile.ZipFile(io.BytesIO(part)) as archive:
            (member,) = archive.namelist()
            assert re.fullmatch(rf"ledger-{GUILD_ID}-\d{{8}}-part\d+\.csv", member)
            header, *part_rows = _csv_rows(archive.read(member))
            assert header == every_row[0]
            rows += part_rows
    assert rows == every_row[1:]
    assert not h.failed_interactions()
