"""``/history user:`` read by someone else (a server manager looking at a player): the
looked-at player is named, "you" is only ever the reader, in the list and in a match's
hands alike, with the name escaped as every other name there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

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

from data import SettlementEntry

PLAYER = 800_000_000_000_000_111
ADMIN = 800_000_000_000_000_112
NAME = "Li_Lei*"  # markdown in a name: shown as written, escaped
USERS = {PLAYER: (NAME, DEFAULT_PERMISSIONS), ADMIN: ("Manager", ADMIN_PERMISSIONS)}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=111) as harness:
        store = harness.bot.store  # type: ignore[attr-defined]
        await store.create_game("hist0001", GUILD_ID, None, "taizhou", {}, [], 1,
                                settings={"num_seats": 4, "stake": 1}, status="running")  # fmt: skip
        users = [PLAYER, None, None, None]
        seats = [
            {"seat": seat, "name": NAME if user else f"AI {seat}", "user_id": user,
             "is_ai": user is None, "ai_level": "normal"}
            for seat, user in enumerate(users)
        ]  # fmt: skip
        await store.update_game_meta("hist0001", seats=seats)
        units = [3, -1, -1, -1]  # the player wins the only hand
        entries = [SettlementEntry(s, users[s], units[s], s == 0) for s in range(4)]
        await store.settle_hand(GUILD_ID, "hist0001", 0, entries, 1)
        await store.set_game_status("hist0001", "finished")
        yield harness


def _select(message: StoredMessage, prefix: str) -> str:
    return next(cid for cid in message.custom_ids() if cid.startswith(prefix))


async def test_someone_elses_history_names_them_instead_of_saying_you(h: Harness) -> None:
    escaped = "Li\\_Lei\\*"
    for locale, won, you in (("zh-CN", "胡", "你"), ("en-US", "won", "you")):
        own = h.reply_text(await h.command(PLAYER, "history", locale=locale))
        assert f"{you} {won}" in own and escaped not in own.split("\n", 1)[1]

        read = h.reply_text(
            await h.command(ADMIN, "history", [option("user", str(PLAYER), 6)], locale=locale)
        )
        body = read.split("\n", 1)[1]  # under the title (which names the player anyway)
        assert f"{escaped} {won}" in body and f"{you} {won}" not in body, read

    # The match's hands, opened from the manager's list: every seat's points by name.
    listing = h.ephemeral_messages(ADMIN)[-1]
    await h.click(ADMIN, listing, _select(listing, "mj:ho:"), ["hist0001"], locale="en-US")
    detail = h.ephemeral_messages(ADMIN)[-1].payload["content"]
    assert f"{escaped} won **+3** — {escaped} +3 · 🤖 AI 1 -1" in detail, detail
    assert "you" not in detail
