"""``mahjong-bot commands``: print the application-command payload the bot syncs, as JSON.

Built exactly as ``tree.sync`` builds it (same cogs, same translator), without a token
or a connection, so it can be reviewed, diffed in CI, or registered by other tooling.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--indent", type=int, default=2, help="JSON indentation (default 2)")


async def build_payload() -> list[dict[str, Any]]:
    """The translated payload of every global command, as Discord receives it."""
    import discord
    from discord.ext import commands

    from bot.app import install_commands, intents

    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=intents())
    bot.store = None  # type: ignore[attr-defined]  # the cogs only read it when invoked
    await install_commands(bot)
    translator = bot.tree.translator
    assert translator is not None
    payload = [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands(type=discord.AppCommandType.chat_input)
    ]
    await bot.close()
    return payload


def run(args: argparse.Namespace) -> int:
    payload = asyncio.run(build_payload())
    json.dump(payload, sys.stdout, ensure_ascii=False, indent=args.indent or None)
    sys.stdout.write("\n")
    return 0
