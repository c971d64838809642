"""A bot runs for months: what the Discord presenter keeps for a table goes once the
table is over (its last status with every river, its DM message records, its posts, the
result-card marks), so memory follows the tables being played, not every table ever."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from discord_harness import DEFAULT_PERMISSIONS, choose_move, offline_bot, option

from bot.discord_table import FORGET_AFTER

PLAYER = 800_000_000_000_000_061
USERS = {PLAYER: ("常客", DEFAULT_PERMISSIONS)}


def _kept_for(presenter: Any, table_id: str) -> dict[str, int]:
    """How many entries each per-table store of the presenter holds for ``table_id``."""
    return {
        "tables": int(table_id in presenter._tables),
        "posts": int(table_id in presenter._posts),
        "hands_loading": int(table_id in presenter._hands_loading),
        "hands": sum(1 for key in presenter._hands if key[0] == table_id),
        "dm_notice_sent": sum(1 for key in presenter._dm_notice_sent if key[0] == table_id),
        "carded": sum(1 for table in presenter._carded.values() if table == table_id),
    }


@pytest.mark.parametrize("threads", [False, True], ids=["in the channel", "in a thread"])
async def test_a_finished_tables_state_is_forgotten(tmp_path: Path, threads: bool) -> None:
    async with offline_bot(tmp_path, USERS, seed=51, threads=threads) as h:
        bot, presenter = h.bot, h.bot.presenter  # type: ignore[attr-defined]
        played: list[str] = []
        for _match in range(3):
            await h.command(PLAYER, "table create", [option("variant", "taizhou"),
                                                    option("seats", 2)])  # fmt: skip
            table = bot.manager.table_of_user(PLAYER)
            assert table is not None
            await h.command(PLAYER, "table start", channel_id=table.channel_id)
            for _ in range(3000):
                if table.status != "running":
                    break
                hand = h.latest_dm(PLAYER)
                move = choose_move(hand) if hand is not None else None
                if move is not None and hand is not None and table.prompt_for(PLAYER):
                    await h.click(PLAYER, hand, move[0], move[1])
                await h.advance(0.5)
            assert table.status == "finished"
            await h.advance(5)  # the last table edit, the standings
            kept = _kept_for(presenter, table.table_id)
            assert kept["tables"] and kept["hands"] and kept["carded"]  # kept while it matters
            played.append(table.table_id)
            await h.advance(FORGET_AFTER + 1)
            for table_id in played:
                assert not any(_kept_for(presenter, table_id).values()), table_id
        assert presenter._tables == {} and presenter._hands == {} and presenter._carded == {}
        if threads:  # each table's thread: its flush time went with it
            assert not [c for c in presenter._last_flush if c != h.channel_id]
