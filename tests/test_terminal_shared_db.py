"""A bot and ``mahjong-bot play`` on one database (``MAHJONG_DB`` exported in the shell
that starts both): a terminal match left open (the terminal killed) is the terminal's to
abandon at its next start. Before, the bot restored it as a table in channel 1 of
"server" 1, which exists on no Discord: it played the match to its end with AI seats,
each of its 16 posts refused (a step toward Discord's invalid-request ban)."""

from __future__ import annotations

from pathlib import Path

from discord_harness import DEFAULT_PERMISSIONS, offline_bot

from bot.recording import RecordingPresenter
from bot.session import FakeClock, TableManager
from bot.tables import TERMINAL_GUILD_ID
from data import Store

ALICE = 800_000_000_000_000_001


async def test_the_bot_leaves_a_terminal_match_alone(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    terminal = TableManager(store, RecordingPresenter(), FakeClock(), ai_delay=0.0)
    table = await terminal.create_table(TERMINAL_GUILD_ID, 1, 1, "me", variant="taizhou", seed=5)
    assert (await table.start(1)).ok
    await terminal.wait_idle()
    await terminal.shutdown()  # as a killed terminal leaves it: running
    await store.close()

    async with offline_bot(tmp_path, {ALICE: ("alice", DEFAULT_PERMISSIONS)}, seed=3) as h:
        await h.advance(30)
        assert h.bot.manager.by_channel(1) is None  # type: ignore[attr-defined]
        assert not [r for r in h.remote.requests if "/channels/1/" in r.path]
        (record,) = await h.bot.store.running_games(("running",))  # type: ignore[attr-defined]
        assert record.game_id == table.table_id  # still the terminal's to abandon
