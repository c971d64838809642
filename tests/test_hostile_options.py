"""Values Discord's client never sends but its API accepts (a stale registration, a
hand-made request), through discord.py's own dispatch: each is refused with a message
that names the option, in the reader's language, ephemerally, and nothing changes.
Before, each of these reached a command and came back as "出了点问题，请稍后再试" with a
logged traceback (a text for a number, a page of 0, a server command in a DM), or was
applied cut short (a 222-character reason kept as its first 200), or was refused in
internal codes (from_dealer, after_discarder). Found by a bad-input audit."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from discord_harness import (
    ADMIN_PERMISSIONS,
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    Harness,
    InteractionRecord,
    offline_bot,
    option,
)

from engine.tiles import kind_str

ALICE = 800_000_000_000_000_001
BOB = 800_000_000_000_000_002
MANAGER = 800_000_000_000_000_009
USERS = {
    ALICE: ("alice", DEFAULT_PERMISSIONS),
    BOB: ("bob", DEFAULT_PERMISSIONS),
    MANAGER: ("mgr", ADMIN_PERMISSIONS),
}
GENERIC = ("出了点问题，请稍后再试。", "Something went wrong; please try again in a moment.")
EVERY_KIND = ("opening", "hand", "penalty", "adjustment", "void")
USER_OPTION, INTEGER_OPTION = 6, 4


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def _ephemeral(h: Harness, record: InteractionRecord) -> bool:
    kinds = {r.audience.kind for r in h.replies_to(record) if r.audience is not None}
    return kinds == {"ephemeral"}


async def _ledger(h: Harness, user: int) -> list[tuple[str, int, str]]:
    rows = await h.bot.store.history(GUILD_ID, user, limit=10**6, kinds=EVERY_KIND)  # type: ignore[attr-defined]
    return [(entry.kind, entry.points, entry.reason or "") for entry in rows]


@pytest.mark.parametrize("page", [0, -3])
async def test_a_ledger_page_below_its_range_says_the_range(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, page: int
) -> None:
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        replies = {}
        for locale in ("zh-CN", "en-US"):
            record = await h.command(
                MANAGER, "mjadmin ledger", [option("page", page)], locale=locale
            )
            assert _ephemeral(h, record)
            replies[locale] = h.reply_text(record).replace("\\-", "-")  # markdown's escape
    assert replies == {
        "zh-CN": f"「页码」必须是 1 到 99999 之间的整数（收到 {page}）",
        "en-US": f"“page” must be a whole number from 1 to 99999 (got {page})",
    }
    assert _errors(caplog) == []


WRONG_TYPES: list[tuple[int, str, list[dict[str, Any]], str]] = [
    (ALICE, "table create", [option("rounds", "x", kind=INTEGER_OPTION)], "rounds"),
    (
        MANAGER,
        "mjadmin adjust",
        [
            option("user", str(ALICE), kind=USER_OPTION),
            option("amount", "5", kind=INTEGER_OPTION),
            option("reason", "r"),
        ],
        "amount",
    ),
    (MANAGER, "mjadmin ledger", [option("page", "x", kind=INTEGER_OPTION)], "page"),
    (
        MANAGER,
        "mjadmin void",
        [option("game", "g"), option("hand", "1", kind=INTEGER_OPTION), option("reason", "r")],
        "hand",
    ),
    (ALICE, "leaderboard", [option("weeks_ago", "x", kind=INTEGER_OPTION)], "weeks_ago"),
]


@pytest.mark.parametrize(
    ("user", "command", "options", "name"), WRONG_TYPES, ids=[case[1] for case in WRONG_TYPES]
)
async def test_a_text_sent_for_a_whole_number_is_refused_by_name(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    user: int,
    command: str,
    options: list[dict[str, Any]],
    name: str,
) -> None:
    typed = next(given["value"] for given in options if given["name"] == name)
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        before = await _ledger(h, ALICE)
        record = await h.command(user, command, options, locale="en-US")
        assert _ephemeral(h, record)
        assert h.reply_text(record) == f'“{name}” must be a whole number (got "{typed}")'
        record = await h.command(user, command, options, locale="zh-CN")
        assert h.reply_text(record).endswith(f'」必须是整数（收到 "{typed}"）')
        assert h.bot.manager.by_channel(CHANNEL_ID) is None  # type: ignore[attr-defined]
        assert await _ledger(h, ALICE) == before
    assert _errors(caplog) == []


async def test_a_text_sent_for_a_yes_no_option_does_not_switch_it_on(tmp_path: Path) -> None:
    """``"false"`` is a non-empty text, so truthy: it would have opened a table with AI
    filling the seats the host said to leave empty."""
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        record = await h.command(
            ALICE, "table create", [option("ai_fill", "false", kind=5)], locale="en-US"
        )
        assert h.reply_text(record) == '“ai_fill” must be True or False (got "false")'
        assert h.bot.manager.by_channel(CHANNEL_ID) is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", ["table create", "balance", "history", "stats", "leaderboard"])
async def test_a_server_command_sent_in_a_dm_says_it_works_in_a_server(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, command: str
) -> None:
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        dm = h.remote.next_id()
        h.remote.dm_channels[ALICE] = dm
        h.remote.dm_owner[dm] = ALICE
        replies = []
        for locale in ("zh-CN", "en-US"):
            record = await h.command(ALICE, command, channel_id=dm, locale=locale)
            replies.append(h.reply_text(record))
    assert replies == [
        "这个命令只能在服务器频道里使用。",
        "This command only works in a server channel.",
    ]
    assert _errors(caplog) == []


@pytest.mark.parametrize("command", ["mjadmin adjust", "mjadmin void"])
async def test_a_reason_over_its_declared_length_is_refused_not_cut(
    tmp_path: Path, command: str
) -> None:
    typed = "x" * 150 + " the end of what the admin wrote" + "y" * 40
    options = (
        [option("user", str(ALICE), kind=USER_OPTION), option("amount", 5)]
        if command == "mjadmin adjust"
        else [option("game", "g"), option("hand", 1)]
    )
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        before = await _ledger(h, ALICE)
        record = await h.command(
            MANAGER, command, [*options, option("reason", typed)], locale="en-US"
        )
        assert h.reply_text(record) == "“reason” must be 1 to 200 characters long"
        assert await _ledger(h, ALICE) == before
        # At the limit it is kept whole.
        record = await h.command(
            MANAGER, "mjadmin adjust",
            [option("user", str(ALICE), kind=USER_OPTION), option("amount", 5),
             option("reason", typed[:200])],
        )  # fmt: skip
        assert (await _ledger(h, ALICE))[0] == ("adjustment", 5, typed[:200])


async def test_a_non_manager_is_told_the_permission_before_the_values(tmp_path: Path) -> None:
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        record = await h.command(ALICE, "mjadmin ledger", [option("kind", "bonus")], locale="en-US")
        assert "Manage Server" in h.reply_text(record), h.reply_text(record)


async def test_a_rules_default_refused_names_its_values_as_the_rules_panel_does(
    tmp_path: Path,
) -> None:
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        record = await h.command(
            MANAGER,
            "mjadmin rules",
            [option("variant", "taizhou"), option("option", "multi_win_priority"),
             option("value", "x")],
            locale="zh-CN",
        )  # fmt: skip
        text = h.reply_text(record)
        assert "从庄家起" in text and "from_dealer" not in text, text
        record = await h.command(
            MANAGER,
            "mjadmin rules",
            [option("variant", "taizhou"), option("option", "cap"), option("value", "0")],
            locale="zh-CN",
        )
        text = h.reply_text(record)
        assert text.startswith("封顶") and "'cap'" not in text, text
        assert await h.bot.store.rule_defaults(GUILD_ID, "taizhou") == {}  # type: ignore[attr-defined]


async def test_a_full_width_tile_name_is_offered_and_read(tmp_path: Path) -> None:
    """A Chinese input method in full-width mode types ５ｍ: offered and read like 5m."""
    async with offline_bot(tmp_path, USERS, seed=3) as h:
        await h.command(ALICE, "table create", [option("variant", "taizhou"), option("seats", 2)])
        await h.command(BOB, "table join")
        await h.command(ALICE, "table start")
        await h.advance(2)
        table = h.bot.manager.by_channel(CHANNEL_ID)  # type: ignore[attr-defined]
        (seat,) = table.match.round.waiting_on
        user = ALICE if table.seat_of(ALICE) == seat else BOB
        tile = kind_str(sorted(table.match.round.concealed_tiles(seat))[0])
        full = tile.translate(str.maketrans("123456789mpsz", "１２３４５６７８９ｍｐｓｚ"))
        choices = await h.autocomplete(user, "discard", [option("tile", full, focused=True)])
        assert [choice["value"] for choice in choices] == [tile]
        discards_before = len(table.match.round.public_view().seats[seat].discards)
        await h.command(user, "discard", [option("tile", full)], locale="zh-CN")
        assert len(table.match.round.public_view().seats[seat].discards) == discards_before + 1
