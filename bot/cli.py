"""The ``mahjong-bot`` console script.

Each subcommand lives in its own module under ``bot.commands`` and is imported only when
used, so a short-lived command such as ``score`` does not pay for discord.py or Pillow.
A module provides ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("bot.commands.run", "run the Discord bot (token from DISCORD_TOKEN)"),
    "play": ("bot.commands.play", "play a match in the terminal against AI players"),
    "simulate": ("bot.commands.simulate", "self-play many hands and print statistics"),
    "score": ("bot.commands.score", "score a hand described as a JSON case"),
    "render-demo": ("bot.commands.render_demo", "write a sample of every image"),
    "replay": ("bot.commands.replay", "export a finished hand as an animated GIF or APNG"),
    "commands": ("bot.commands.commands", "print the application-command payload as JSON"),
    "db": (
        "bot.commands.db",
        "migrate a database, copy SQLite into PostgreSQL, export a server, back up SQLite",
    ),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-bot",
        description="Jiaxing Taitou Hu (嘉兴台头胡) and Taizhou (台州麻将) mahjong host",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        sub_parser.set_defaults(_module=module_name)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or argv[0] in ("-h", "--help"):
        parser.print_help()
        return 0 if argv else 2
    name = argv[0]
    if name not in SUBCOMMANDS:
        parser.print_usage(sys.stderr)
        print(f"mahjong-bot: unknown command {name!r}", file=sys.stderr)
        return 2
    module = importlib.import_module(SUBCOMMANDS[name][0])
    sub_parser = argparse.ArgumentParser(
        prog=f"mahjong-bot {name}", description=SUBCOMMANDS[name][1]
    )
    module.add_arguments(sub_parser)
    args = sub_parser.parse_args(argv[1:])
    try:
        return int(module.run(args) or 0)
    except BrokenPipeError:
        # The reader went away (``mahjong-bot score --explain cases.json | head``): stop
        # quietly, as other command-line tools do, instead of a traceback; stdout goes to
        # devnull so the interpreter's own flush at exit cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
