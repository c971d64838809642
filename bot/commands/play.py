"""``mahjong-bot play``: a whole match in the terminal against AI players.

It runs the same ``TableSession`` the Discord bot runs, with a terminal presenter, a
clock that never moves (nobody is timed out at a terminal) and the embedded SQLite
store, so balances and the game log land in a real database.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import secrets
import signal
import sys
from pathlib import Path
from typing import TextIO

from bot.commands.database import open_store_or_explain
from bot.presenter import Text
from bot.session import FakeClock, SessionError, TableManager
from bot.tables import TERMINAL_GUILD_ID
from bot.terminal import (
    HELP,
    Command,
    CommandError,
    TerminalPresenter,
    action_command,
    parse_command,
)
from engine.variants import RULE_SETS, default_rule_set

GUILD_ID = TERMINAL_GUILD_ID  # the terminal is its own little "server"
CHANNEL_ID = 1
HUMAN_ID = 1


def _default_db() -> str:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return str(base / "mahjong-bot" / "play.sqlite3")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", choices=tuple(RULE_SETS), default=default_rule_set())
    parser.add_argument("--seats", type=int, default=4, help="2-4 for Taizhou; Jiaxing is 4")
    parser.add_argument("--seed", type=int, default=None, help="wall and seating seed")
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="rounds to play (Jiaxing: prevailing winds; Taizhou: turns of the deal round the table)",
    )
    parser.add_argument("--stake", type=int, default=1, help="points per table unit")
    parser.add_argument("--ai-level", choices=("easy", "normal", "hard"), default="normal")
    parser.add_argument("--images", type=Path, default=None, metavar="DIR", help="write PNGs here")
    parser.add_argument("--db", default=None, metavar="PATH",
                        help=f"SQLite file or postgresql:// URL ($MAHJONG_DB, else {_default_db()})")  # fmt: skip
    parser.add_argument("--plain", action="store_true", help="letters instead of tile glyphs")
    parser.add_argument("--name", default=None, help="your name at the table")


def run(args: argparse.Namespace) -> int:
    # asyncio.run's own Ctrl-C handler only cancels the game at its next await, which is
    # after the blocking readline returns: the player would press Ctrl-C, see nothing,
    # then get a traceback on Enter. A plain handler interrupts the readline itself.
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        return asyncio.run(play(args, sys.stdin, sys.stdout))
    except KeyboardInterrupt:  # pressed while the AI was moving, not at the prompt
        print("\n中断 / Interrupted", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


async def play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    db = args.db or os.environ.get("MAHJONG_DB") or _default_db()
    store = await open_store_or_explain(db)
    if store is None:
        return 2
    # A match this terminal left open (killed, say) is never resumed here: abandon it so
    # the channel and the seat are free again; any ended hand of it is still paid.
    for record in await store.running_games(("lobby", "running")):
        if record.guild_id == GUILD_ID and record.channel_id == CHANNEL_ID:
            await store.set_game_status(record.game_id, "abandoned")
    presenter = TerminalPresenter(stdout, HUMAN_ID, plain=args.plain, images_dir=args.images)
    manager = TableManager(store, presenter, FakeClock(), ai_delay=0.0, ai_level=args.ai_level)
    await manager.resume_settlements()
    name = args.name or _user_name()
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    try:
        try:
            table = await manager.create_table(
                GUILD_ID,
                CHANNEL_ID,
                HUMAN_ID,
                name,
                variant=args.variant,
                num_seats=args.seats,
                stake=args.stake,
                rounds=args.rounds,
                seed=seed,
            )
        except SessionError as error:
            print(error.text.both(), file=sys.stderr)
            return 2
        presenter.say(f"种子 Seed {seed}; 数据库 database {db}; 输入 help 查看命令 / type help")
        started = await table.start(HUMAN_ID)
        if not started.ok:
            presenter.say(started.message.both() if started.message else "could not start")
            return 1
        await manager.wait_idle()
        while table.status == "running":
            prompt = table.prompt_for(HUMAN_ID)
            if prompt is None or prompt.kind == "idle":  # cannot happen with AI at once
                presenter.say("! 没有需要你做的事 / Nothing to do; stopping")
                break
            default = table.default_action(HUMAN_ID)  # what a bare Enter plays, shown first
            try:  # the prompt is inside: Ctrl-C right after it is shown is still "at the prompt"
                stdout.write(f"[Enter = {action_command(default)}] > " if default else "> ")
                stdout.flush()
                line = stdin.readline()
            except KeyboardInterrupt:
                presenter.say("\n中断 / Interrupted")
                break
            if not line:
                presenter.say("\n输入结束 / End of input")
                break
            try:
                command = parse_command(line, prompt.view)
            except CommandError as error:
                presenter.say(f"! {error}")
                continue
            if isinstance(command, Command):
                if command.name == "help":
                    presenter.say(HELP)
                    continue
                if command.name == "hand":
                    presenter.show_prompt(prompt)
                    continue
                if command.name == "quit":
                    presenter.say("退出 / Quit")
                    break
                action = table.default_action(HUMAN_ID)
                if action is None:
                    continue
            else:
                action = command
            hands_before = len(table.match.results) if table.match is not None else 0
            result = await table.submit(HUMAN_ID, action, prompt.turn_id)
            if not result.ok:
                presenter.say(f"! {(result.message or Text('?', '?')).both()}")
            await manager.wait_idle()
            if table.match is not None and len(table.match.results) > hands_before:
                balance = await store.get_balance(GUILD_ID, HUMAN_ID)
                presenter.say(f"    你的余额 Your balance: {balance}")
        if table.status == "running":
            await table.abandon()  # a local game quit: nobody to pay
            await manager.wait_idle()
        balance = await store.get_balance(GUILD_ID, HUMAN_ID)
        presenter.say(f"你的余额 Your balance: {balance}")
        if args.images is not None:
            presenter.say(f"图片 Images: {presenter.images_written} in {args.images}")
        return 0
    finally:
        await manager.shutdown()
        await store.close()


def _user_name() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "You"
