"""``mahjong-bot replay GAME HAND --out FILE``: a finished hand as an animated image.

``GAME`` is a game id or its first characters (as ``/history`` and result cards show
it), ``HAND`` the hand's number from 1. The hand is rebuilt from the stored seed and
action log, one frame per action plus the deal, every hand face up; the format follows
the file name (``.gif``, or ``.png``/``.apng`` for APNG) unless ``--format`` says. An
unknown game or hand, a hand still being played or an unusable database is one clear
line on stderr and exit status 2, with nothing written.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from render.replay import ANIMATION_FORMATS

from .database import open_store_or_explain


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id, or its first characters")
    parser.add_argument("hand", type=int, help="which hand, from 1")
    parser.add_argument("--out", type=Path, required=True, help="file to write (.gif or .png)")
    parser.add_argument(
        "--db", default=None, help="database path (default: $MAHJONG_DB or ./mahjong.db)"
    )
    parser.add_argument("--format", choices=ANIMATION_FORMATS, default=None,
                        help="gif or apng (default: from the file name)")  # fmt: skip
    parser.add_argument(
        "--locale", choices=("zh", "zh-TW", "en"), default="zh", help="label language"
    )


def _format_for(args: argparse.Namespace) -> str:
    if args.format:
        return str(args.format)
    return "apng" if args.out.suffix.lower() in (".png", ".apng") else "gif"


async def _export(args: argparse.Namespace) -> int:
    from bot.replays import ReplayLookupError, find_game, load_hand
    from render.replay import render_replay_animation

    db_path = args.db or os.environ.get("MAHJONG_DB") or "./mahjong.db"
    store = await open_store_or_explain(db_path, existing=True)
    if store is None:
        return 2
    try:
        game = await find_game(store, args.game)
        loaded = await load_hand(store, game, args.hand)
    except ReplayLookupError as error:
        print(f"mahjong-bot: {error.text.zh} / {error.text.en}", file=sys.stderr)
        return 2
    finally:
        await store.close()
    data = await asyncio.to_thread(
        render_replay_animation, loaded.record, names=loaded.names, locale=args.locale,
        fmt=_format_for(args),
    )  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(
        f"{args.out}: game {game.game_id} hand {args.hand}, {len(loaded.record.frames)} frames,"
        f" {len(data) / 1024:.0f} KiB"
    )
    return 0


def run(args: argparse.Namespace) -> int:
    if args.hand < 1:
        print(f"mahjong-bot: 没有第 {args.hand} 局 / no hand {args.hand}", file=sys.stderr)
        return 2
    return asyncio.run(_export(args))
