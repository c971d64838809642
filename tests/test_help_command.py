"""``/help``: how to play here, in the reader's language, naming every command the bot
has (as a mention a click opens, once the command ids are known), with the admin
commands for server managers only."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from chinese_script import simplified_left
from discord import app_commands
from discord_harness import ADMIN_PERMISSIONS, DEFAULT_PERMISSIONS, Harness, offline_bot

from bot.cogs.guide import GUIDE_COMMANDS

PLAYER = 800_000_000_000_000_071
MANAGER = 800_000_000_000_000_072
USERS = {PLAYER: ("Player", DEFAULT_PERMISSIONS), MANAGER: ("Manager", ADMIN_PERMISSIONS)}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=71) as harness:
        yield harness


def _leaf_commands(tree: app_commands.CommandTree[discord.Client]) -> set[str]:
    names: set[str] = set()
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            names.add(command.qualified_name)
    return names


def test_the_guide_names_every_command_the_bot_has_and_no_other(h: Harness) -> None:
    assert set(GUIDE_COMMANDS) == _leaf_commands(h.bot.tree) - {"help"}


async def test_help_in_each_language_with_the_commands_named_as_the_client_lists_them(
    h: Harness,
) -> None:
    chinese = h.reply_text(await h.command(PLAYER, "help", locale="zh-CN"))
    assert chinese.startswith("**开桌**")
    assert "`/牌桌 开桌` 开一桌" in chinese and "`/打` `/吃`" in chinese
    assert "5m 五万" in chinese and "`/余额` 余额和最近的变动" in chinese
    assert "**管理" not in chinese and "mjadmin" not in chinese  # a player is not a manager
    english = h.reply_text(await h.command(PLAYER, "help", locale="en-US"))
    assert english.startswith("**Start a game**") and "`/table create` opens a table" in english
    assert not re.search(r"[\u4e00-\u9fff]", english.replace("五万", "").replace("东风", ""))
    traditional = h.reply_text(await h.command(PLAYER, "help", locale="zh-TW"))
    assert "`/牌桌 開桌` 開一桌" in traditional and "**開桌**" in traditional
    assert simplified_left(traditional) == [] and "五萬" in traditional  # 萬 parses too
    for locale in ("zh-CN", "zh-TW", "en-US"):
        record = await h.command(MANAGER, "help", locale=locale)
        text = h.reply_text(record)
        # The admin section makes a manager's English guide two messages, each whole.
        messages = [(r.payload or {}).get("data", r.payload or {}) for r in h.replies_to(record)]
        assert "{" not in text and all(len(m.get("content") or "") <= 2000 for m in messages)
        if locale == "en-US":
            assert all(f"`/{name}`" in text for name in GUIDE_COMMANDS)
        else:
            assert "`/麻将管理 设置`" in text or "`/麻將管理 設定`" in text  # Taiwan: 設定
    english = h.reply_text(await h.command(MANAGER, "help", locale="en-US"))
    assert "`/mjadmin settings` time zone" in english
    assert "`/mjadmin end` end any table from anywhere" in english
    assert "`/mjadmin void` void a settled hand" in english


async def test_help_links_the_commands_once_their_ids_are_known(h: Harness) -> None:
    # The commands registered as a sync would register them, but not by this process:
    # their ids are fetched once, on the first /help, and kept.
    h.bot._command_ids = None
    await h.bot.tree.sync()
    h.bot._command_ids = None
    ids = {command["name"]: command["id"] for command in h.remote.commands}
    before = len(h.remote.requests)
    text = h.reply_text(await h.command(PLAYER, "help", locale="zh-CN"))
    assert f"</table create:{ids['table']}> 开一桌" in text
    assert f"</discard:{ids['discard']}>" in text and f"</balance:{ids['balance']}>" in text
    h.reply_text(await h.command(PLAYER, "help", locale="en-US"))
    fetches = [
        request
        for request in h.remote.requests[before:]
        if request.method == "GET" and request.path.endswith("/commands")
    ]
    assert len(fetches) == 1
