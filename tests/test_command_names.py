"""Replies name commands as the reader's client lists them: a Chinese reply said
"用 /table create 开一桌" while a zh-CN client lists that command as /牌桌 开桌. Every
command a message names is written from the command tree's own translations (zh-TW as
the translator gives it), and becomes a mention a click opens once the ids are known."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from chinese_script import simplified_left
from discord import app_commands
from discord_harness import DEFAULT_PERMISSIONS, Harness, offline_bot, option

from bot.command_names import COMMAND_FIELD
from bot.i18n import MahjongTranslator
from bot.messages import MESSAGES

PLAYER = 800_000_000_000_000_081
USERS = {PLAYER: ("Player", DEFAULT_PERMISSIONS)}

# "/table" or "/战绩" written out in a message's text, where it should be a field.
WRITTEN_COMMAND = re.compile(r"(?<![\w<`{/.])/(?:[a-z]+|[\u4e00-\u9fff]+)")


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=81) as harness:
        yield harness


def _commands(tree: app_commands.CommandTree[discord.Client]) -> dict[str, object]:
    found: dict[str, object] = {}
    for command in tree.walk_commands():
        found[command.qualified_name] = command
    return found


async def _client_name(command: object, locale: discord.Locale) -> str:
    """The command's path as a client in ``locale`` lists it (the translator's names)."""
    translator = MahjongTranslator()
    parts: list[str] = []
    while command is not None:
        name = getattr(command, "_locale_name", None) or command.name  # type: ignore[attr-defined]
        context = app_commands.TranslationContext(
            app_commands.TranslationContextLocation.command_name, command
        )
        translated = (
            await translator.translate(name, locale, context)
            if isinstance(name, app_commands.locale_str)
            else None
        )
        parts.append(translated or command.name)  # type: ignore[attr-defined]
        command = command.parent  # type: ignore[attr-defined]
    return " ".join(reversed(parts))


def test_every_command_a_message_names_exists_and_none_is_written_out(h: Harness) -> None:
    commands = _commands(h.bot.tree)
    named = set()
    for key, (zh, en) in MESSAGES.items():
        for text in (zh, en):
            named |= set(COMMAND_FIELD.findall(text))
            assert not WRITTEN_COMMAND.search(COMMAND_FIELD.sub("", text)), (key, text)
    assert named and named <= commands.keys(), named - commands.keys()
    # The commands' own descriptions name commands as their language lists them.
    for command in commands.values():
        texts = [getattr(command, "_locale_description", None)]
        for parameter in getattr(command, "parameters", ()):
            texts.append(parameter.locale_description)
        for text in texts:
            if not isinstance(text, app_commands.locale_str):
                continue
            chinese = text.extras.get("zh", "")
            for written in WRITTEN_COMMAND.findall(chinese):
                assert re.fullmatch(r"/[\u4e00-\u9fff]+", written), (command, chinese)
            for written in WRITTEN_COMMAND.findall(text.message):
                assert written[1:] in commands, (command, text.message)


@pytest.mark.parametrize("locale", ["zh-CN", "zh-TW", "en-US"])
async def test_a_reply_names_the_command_as_the_readers_client_lists_it(
    h: Harness, locale: str
) -> None:
    create = _commands(h.bot.tree)["table create"]
    listed = await _client_name(create, discord.Locale(locale))
    text = h.reply_text(await h.command(PLAYER, "table status", locale=locale))
    assert f"`/{listed}`" in text, text
    if locale == "zh-CN":
        assert "`/牌桌 开桌`" in text and "table create" not in text
    if locale == "zh-TW":
        assert simplified_left(text) == []
    await h.command(PLAYER, "table create", locale=locale)
    kicked = [option("user", str(PLAYER), 6)]
    text = h.reply_text(await h.command(PLAYER, "table kick", kicked, locale=locale))
    leave = await _client_name(_commands(h.bot.tree)["table leave"], discord.Locale(locale))
    assert f"`/{leave}`" in text, text
    assert ("table leave" in text) == (locale == "en-US")


async def test_a_reply_links_the_command_once_its_id_is_known(h: Harness) -> None:
    await h.bot.tree.sync()
    h.bot._command_ids = None
    await h.command(PLAYER, "help", locale="zh-CN")  # fetches the ids, as in production
    ids = {command["name"]: command["id"] for command in h.remote.commands}
    text = h.reply_text(await h.command(PLAYER, "table status", locale="zh-CN"))
    assert f"</table create:{ids['table']}>" in text
    assert not h.remote.violations


async def test_a_bot_that_does_not_sync_links_commands_from_its_first_reply(
    tmp_path: Path,
) -> None:
    """`run --no-sync` (and every shard after the first) learned the commands' ids only
    from somebody's /help, so until then replies wrote command names out. It now asks
    Discord once at start, with nothing typed yet."""
    import itertools

    from discord_harness import FakeDiscord, TagRenderer

    from bot.app import MahjongBot
    from bot.session import FakeClock
    from data import Store

    remote = FakeDiscord()
    for path, fetch in ((tmp_path / "synced.db", False), (tmp_path / "no-sync.db", True)):
        clock = FakeClock()
        store = await Store.open(path)
        bot = MahjongBot(store, clock=clock, renderer=TagRenderer(), ai_delay=0.0,
                         leaderboard_interval=None, seeds=itertools.count(81),
                         sync_global=not fetch, fetch_command_ids=fetch)  # fmt: skip
        h = Harness(bot, USERS, clock, remote=remote)
        await h.start()
        try:
            ids = {command["name"]: command["id"] for command in remote.commands}
            assert ids, "the first bot synced the commands"
            if fetch:
                fetches = [r for r in remote.requests if r.method == "GET" and "/commands" in r.url]
                assert len(fetches) == 1
            text = h.reply_text(await h.command(PLAYER, "table status", locale="zh-CN"))
            assert f"</table create:{ids['table']}>" in text, text
            assert not remote.violations
        finally:
            await h.close()
            await store.close()
