"""The application-command payload against Discord's limits, and its zh-CN localisations."""

from __future__ import annotations

import argparse
import asyncio
import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from bot.commands import commands as commands_cli
from bot.commands.commands import build_payload

SUBCOMMAND, GROUP = 1, 2
NAME_MAX, DESCRIPTION_MAX, OPTIONS_MAX, CHOICES_MAX = 32, 100, 25, 25
COMMAND_CHARS_MAX = 4000


def is_valid_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where cased."""
    if not 1 <= len(name) <= NAME_MAX or name != name.lower():
        return False
    for char in name:
        if char in "-_":
            continue
        if unicodedata.category(char)[0] in "LN":
            continue
        if "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f":
            continue
        return False
    return True


@pytest.fixture(scope="module")
def payload() -> list[dict[str, Any]]:
    return asyncio.run(build_payload())


def walk(node: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every command, group, subcommand and option, with its path."""
    here = f"{path} {node['name']}".strip()
    found = [(here, node)]
    for child in node.get("options") or []:
        found.extend(walk(child, here))
    return found


def test_expected_commands_exist(payload: list[dict[str, Any]]) -> None:
    names = {command["name"] for command in payload}
    assert {"table", "discard", "chow", "pung", "kong", "win", "pass", "balance",
            "leaderboard", "history", "mjadmin", "stats", "help"} <= names  # fmt: skip
    table = next(c for c in payload if c["name"] == "table")
    subcommands = {o["name"] for o in table["options"]}
    assert subcommands == {"create", "join", "leave", "kick", "start", "end", "status", "hand",
                           "back", "rules", "dm", "ping", "score"}  # fmt: skip
    admin = next(c for c in payload if c["name"] == "mjadmin")
    assert int(admin["default_member_permissions"]) == 1 << 5  # Manage Server
    assert {o["name"] for o in admin["options"]} == {"settings", "adjust", "rules", "tables",
                                                     "end", "void", "ledger", "export"}  # fmt: skip


def test_payload_respects_discord_limits(payload: list[dict[str, Any]]) -> None:
    assert len(payload) <= 100
    assert len({c["name"] for c in payload}) == len(payload)
    for command in payload:
        total = 0
        for path, node in walk(command):
            assert is_valid_name(node["name"]), path
            assert 1 <= len(node["description"]) <= DESCRIPTION_MAX, path
            total += len(node["name"]) + len(node["description"])
            options = node.get("options") or []
            assert len(options) <= OPTIONS_MAX, path
            assert len({o["name"] for o in options}) == len(options), path
            plain = [o for o in options if o["type"] not in (SUBCOMMAND, GROUP)]
            required = [o.get("required", False) for o in plain]
            assert required == sorted(required, reverse=True), f"{path}: required after optional"
            choices = node.get("choices") or []
            assert len(choices) <= CHOICES_MAX, path
            assert not (choices and node.get("autocomplete")), path
            for choice in choices:
                assert 1 <= len(choice["name"]) <= 100, path
                if isinstance(choice["value"], str):
                    assert len(choice["value"]) <= 100, path
                total += len(choice["name"]) + len(str(choice["value"]))
            for key in ("min_value", "max_value"):
                if key in node:
                    assert abs(node[key]) <= 2**53, path
        assert total <= COMMAND_CHARS_MAX, command["name"]


def test_every_string_has_a_chinese_localisation(payload: list[dict[str, Any]]) -> None:
    for command in payload:
        for path, node in walk(command):
            names = node.get("name_localizations") or {}
            descriptions = node.get("description_localizations") or {}
            assert "zh-CN" in names, f"{path}: no zh-CN name"
            assert "zh-CN" in descriptions, f"{path}: no zh-CN description"
            assert is_valid_name(names["zh-CN"]), f"{path}: {names['zh-CN']!r}"
            assert 1 <= len(descriptions["zh-CN"]) <= DESCRIPTION_MAX, path
            for choice in node.get("choices") or []:
                localised = (choice.get("name_localizations") or {}).get("zh-CN")
                assert localised and len(localised) <= 100, f"{path}: choice {choice['name']}"
            siblings = node.get("options") or []
            zh_names = [(o.get("name_localizations") or {}).get("zh-CN") for o in siblings]
            assert len(set(zh_names)) == len(zh_names), f"{path}: duplicate zh-CN names"
    zh_top = [c["name_localizations"]["zh-CN"] for c in payload]
    assert len(set(zh_top)) == len(zh_top)
    play = {c["name"]: c["name_localizations"]["zh-CN"] for c in payload}
    assert (play["discard"], play["pung"], play["win"], play["pass"]) == ("打", "碰", "胡", "过")


def test_name_rule_itself() -> None:
    assert is_valid_name("牌桌") and is_valid_name("discard") and is_valid_name("weeks_ago")
    assert not is_valid_name("Discard") and not is_valid_name("two words")
    assert not is_valid_name("x" * 33) and not is_valid_name("") and not is_valid_name("a/b")


def test_commands_cli_prints_the_payload(capsys: pytest.CaptureFixture[str]) -> None:
    code = commands_cli.run(argparse.Namespace(indent=0))
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == asyncio.run(build_payload())


async def test_guild_sync_sends_exactly_the_printed_payload(tmp_path: Path) -> None:
    """``run --guild ID`` syncs to one server; what it sends is what ``commands`` prints."""
    from discord_harness import GUILD_ID, Harness, TagRenderer

    from bot.app import MahjongBot
    from bot.session import FakeClock
    from data import Store

    store = await Store.open(tmp_path / "sync.db")
    bot = MahjongBot(store, clock=FakeClock(), renderer=TagRenderer(), sync_guild=GUILD_ID,
                     leaderboard_interval=None)  # fmt: skip
    harness = Harness(bot, {}, None)
    try:
        await harness.start()
        puts = [r for r in harness.remote.requests if r.method == "PUT"]
        assert len(puts) == 1 and puts[0].path.endswith("/guilds/{guild_id}/commands")
        assert puts[0].payload == await build_payload()
    finally:
        await harness.close()
        await store.close()


async def test_a_global_sync_removes_the_copies_a_guild_sync_made(tmp_path: Path) -> None:
    """README's set-up: ``run --guild ID`` to try the bot in a test server, then ``run``
    for good. Discord lists a server's own commands beside the global ones, so that
    server showed every command twice, for good: the global start now removes them."""
    from discord_harness import GUILD_ID, FakeDiscord, Harness, TagRenderer

    from bot.app import MahjongBot
    from bot.session import FakeClock
    from data import Store

    remote = FakeDiscord()
    for start, sync_guild in enumerate((GUILD_ID, None, None)):
        store = await Store.open(tmp_path / "sync.db")
        bot = MahjongBot(store, clock=FakeClock(), renderer=TagRenderer(), sync_guild=sync_guild,
                         sync_global=sync_guild is None, leaderboard_interval=None)  # fmt: skip
        harness = Harness(bot, {}, None, remote=remote)
        remote.requests.clear()
        try:
            await harness.start()
            guild_puts = [r.payload for r in remote.requests
                          if r.method == "PUT" and "/guilds/" in r.path]  # fmt: skip
            if start == 0:
                assert len(remote.guild_commands[GUILD_ID]) == len(await build_payload())
            else:  # removed once, at the first global start; the next has nothing to do
                assert guild_puts == ([[]] if start == 1 else [])
                assert remote.guild_commands[GUILD_ID] == []
                assert len(remote.commands) == len(await build_payload())
            assert not remote.violations
        finally:
            await harness.close()
            await store.close()
