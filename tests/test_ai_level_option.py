"""Choosing the AI level (issue 16): ``simulate``/``play`` options, ``/table create ai_level``
validated on our side, and the table keeping its level across a restart."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_discord_bot import ALICE as DISCORD_ALICE
from test_discord_bot import CHANNEL_ID, Env, option, start_bot, stop_bot

from bot.app import UserFacingError
from bot.cli import main
from bot.cogs.tables import validate_create
from bot.commands.commands import build_payload
from bot.commands.simulate import PLAYERS, hard_ai, parse_players
from bot.recording import RecordingPresenter
from bot.session import AI_LEVELS, FakeClock, SessionError, TableManager
from data import Store
from engine.ai import LEVELS

GUILD, CHANNEL, ALICE = 7, 70, 101


def test_levels_agree_and_include_hard() -> None:
    assert AI_LEVELS == LEVELS == ("easy", "normal", "hard")
    assert parse_players("hard,normal,normal,normal", 4)[0] is hard_ai is PLAYERS["hard"]


def test_simulate_reports_liable_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--variant", "jiaxing", "--players", "hard,normal,normal,normal"]
    assert main([*args, "--hands", "2", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [seat["player"] for seat in data["seats"]] == ["hard", "normal", "normal", "normal"]
    for seat in data["seats"]:
        assert {"wins", "mean_score", "ci95", "deal_ins", "liable"} <= set(seat)
    with pytest.raises(ValueError, match="unknown player"):
        parse_players("grandmaster", 4)


def test_play_accepts_hard_and_rejects_unknown_levels(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as bad:
        main(["play", "--ai-level", "grandmaster"])
    assert bad.value.code == 2
    assert "grandmaster" in capsys.readouterr().err
    with pytest.raises(SystemExit) as shown:
        main(["play", "--help"])
    assert shown.value.code == 0
    assert "hard" in capsys.readouterr().out


def test_validate_create_checks_the_ai_level() -> None:
    validate_create("taizhou", 4, 1, None, None, None, "hard")
    validate_create("taizhou", 4, 1, None, None, None, None)
    with pytest.raises(UserFacingError) as error:
        validate_create("taizhou", 4, 1, None, None, None, "grandmaster")
    text = error.value.text
    assert "电脑难度" in text.zh and "AI level" in text.en


async def test_slash_option_has_choices_and_a_chinese_description() -> None:
    create = next(
        sub
        for command in await build_payload()
        if command["name"] == "table"
        for sub in command["options"]
        if sub["name"] == "create"
    )
    ai_level = next(o for o in create["options"] if o["name"] == "ai_level")
    assert [c["value"] for c in ai_level["choices"]] == ["easy", "normal", "hard"]
    assert ai_level["name_localizations"]["zh-CN"] == "电脑难度"
    assert "难度" in ai_level["description_localizations"]["zh-CN"]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "levels.db", synchronous="NORMAL")
    yield opened
    await opened.close()


async def test_table_keeps_its_ai_level_across_a_restart(store: Store) -> None:
    manager = TableManager(store, RecordingPresenter(), FakeClock(), ai_delay=0.0)
    with pytest.raises(SessionError):
        await manager.create_table(GUILD, CHANNEL, ALICE, "Alice", ai_level="grandmaster")
    assert manager.by_channel(CHANNEL) is None  # bad input changes nothing
    table = await manager.create_table(
        GUILD, CHANNEL, ALICE, "Alice", variant="taizhou", seed=5, ai_level="hard"
    )
    assert table.ai_level == "hard"
    assert (await table.start(ALICE)).ok
    await manager.wait_idle()
    assert [s.ai_level for s in table.seats if s.is_ai] == ["hard"] * 3
    await manager.shutdown()

    again = TableManager(store, RecordingPresenter(), FakeClock(), ai_delay=0.0)
    (restored,) = await again.restore_all()
    await again.wait_idle()
    assert restored.ai_level == "hard"
    await again.shutdown()


async def test_default_table_level_is_the_managers(store: Store) -> None:
    manager = TableManager(store, RecordingPresenter(), FakeClock(), ai_delay=0.0)
    table = await manager.create_table(GUILD, CHANNEL, ALICE, "Alice", variant="jiaxing")
    assert table.ai_level == "normal"
    await manager.shutdown()


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    environment = await start_bot(tmp_path / "bot.db")
    yield environment
    await stop_bot(environment)


async def test_slash_create_validates_and_stores_ai_level(env: Env) -> None:
    h, bot = env.h, env.bot
    record = await h.command(DISCORD_ALICE, "table create", [option("ai_level", "grandmaster")])
    assert "电脑难度" in h.reply_text(record)
    assert bot.manager.by_channel(CHANNEL_ID) is None
    await h.command(DISCORD_ALICE, "table create", [option("ai_level", "hard")])
    table = bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and table.ai_level == "hard"
    record_settings = (await env.store.running_games(("lobby",)))[0].settings
    assert record_settings["ai_level"] == "hard"
