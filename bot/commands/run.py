"""``mahjong-bot run``: connect to Discord and host tables until SIGINT/SIGTERM.

The token comes from ``DISCORD_TOKEN`` (the environment, or a ``.env`` file in the working
directory, which may hold the ``MAHJONG_*`` settings too); it is never logged: a logging
filter masks it in every record, including discord.py's own. The database is ``MAHJONG_DB`` (default ``./mahjong.db``): a SQLite file,
or a ``postgresql://user:password@host/db`` URL for PostgreSQL (``data.open_store``). ``--guild ID``
syncs the commands to one server instantly, for setting up; without it they are synced
globally (Discord may take a while to show global changes).

Shutdown is clean: on a signal the tables stop their timers, the last coalesced table
edits go out, and the store closes. Every accepted action was already persisted when it
was accepted, so a restart restores every running table where it was.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.shards import ShardPlan, ShardPlanError

if TYPE_CHECKING:
    from bot.backups import BackupSchedule

log = logging.getLogger("bot.run")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--guild", type=int, metavar="ID",
                        help="sync commands to this server only (instant; for setting up)")  # fmt: skip
    parser.add_argument("--no-sync", action="store_true",
                        help="do not sync application commands at start")  # fmt: skip
    parser.add_argument(
        "--db",
        default=None,
        help="SQLite file or postgresql:// URL (default: $MAHJONG_DB or ./mahjong.db)",
    )
    parser.add_argument(
        "--sqlite-sync",
        choices=("FULL", "NORMAL"),
        type=str.upper,
        default=None,
        help="SQLite durability (default: $MAHJONG_SQLITE_SYNC or FULL): FULL survives a "
        "power cut; NORMAL survives a killed process and costs the loop less per move "
        "(see README, Scaling)",
    )
    parser.add_argument(
        "--env-file",
        default=".env",
        help="file with DISCORD_TOKEN=... and MAHJONG_* settings; the environment wins "
        "(default .env)",
    )
    parser.add_argument("--log-level", default="INFO", type=str.upper,
                        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="logging level (default INFO)")  # fmt: skip
    parser.add_argument("--ai-delay", type=float, default=1.0,
                        help="seconds an AI seat waits before playing (default 1)")  # fmt: skip
    parser.add_argument("--shard-count", type=int, default=None, metavar="N",
                        help="total number of shards across all processes (see README, Scaling)")  # fmt: skip
    parser.add_argument("--shards", default=None, metavar="IDS",
                        help="the shards this process runs, e.g. 0,1 (default: all N)")  # fmt: skip
    parser.add_argument("--backup-dir", default=None, metavar="DIR",
                        help="back up the SQLite database into DIR on a schedule "
                        "(default: $MAHJONG_BACKUP_DIR; none)")  # fmt: skip
    parser.add_argument("--backup-hours", default=None, metavar="H",
                        help="hours between backups (default: $MAHJONG_BACKUP_HOURS or 24)")  # fmt: skip
    parser.add_argument("--backup-keep", default=None, metavar="N",
                        help="backups kept, newest first (default: $MAHJONG_BACKUP_KEEP or 14)")  # fmt: skip


def backup_setup(args: argparse.Namespace, db_target: str) -> BackupSchedule | None:
    """The backup schedule ``--backup-dir`` (or ``MAHJONG_BACKUP_DIR``) asks for, None
    without one; raises ``ValueError`` (one line) for one that cannot work."""
    from bot.backups import BackupSchedule, schedule_problem

    directory = args.backup_dir or os.environ.get("MAHJONG_BACKUP_DIR")
    if not directory:
        return None
    hours_text = args.backup_hours or os.environ.get("MAHJONG_BACKUP_HOURS") or "24"
    keep_text = args.backup_keep or os.environ.get("MAHJONG_BACKUP_KEEP") or "14"
    try:
        hours, keep = float(hours_text), int(keep_text)
    except ValueError:
        raise ValueError(
            f"backup hours and keep must be numbers, not {hours_text!r} and {keep_text!r}"
        ) from None
    problem = schedule_problem(db_target, directory, hours, keep)
    if problem is not None:
        raise ValueError(problem)
    return BackupSchedule(Path(db_target), Path(directory), timedelta(hours=hours), keep)


def sqlite_sync(args: argparse.Namespace, err: TextIO | None = None) -> str | None:
    """``--sqlite-sync``, else ``MAHJONG_SQLITE_SYNC``, else FULL; None (after one line on
    ``err``) for a value the environment gives that SQLite's store does not take."""
    value = args.sqlite_sync or os.environ.get("MAHJONG_SQLITE_SYNC") or "FULL"
    if value.upper() not in ("FULL", "NORMAL"):
        print(
            f"mahjong-bot: MAHJONG_SQLITE_SYNC 只能是 FULL 或 NORMAL / must be FULL or NORMAL,"
            f" not {value!r}",
            file=err if err is not None else sys.stderr,
        )
        return None
    return value.upper()


def shard_setup(args: argparse.Namespace, db_target: str) -> ShardPlan:
    """The validated ``--shard-count``/``--shards``; raises ``ShardPlanError`` (one line).

    A process that runs only some shards needs the PostgreSQL store: the other processes
    must see its tables, and DM clicks reach their table's process through it."""
    plan = ShardPlan.parse(args.shard_count, args.shards)
    if not plan.runs_every_shard and not is_postgres(db_target):
        raise ShardPlanError(
            f"--shards {args.shards} runs only some of the {plan.shard_count} shards: the "
            "processes must share a PostgreSQL database (MAHJONG_DB=postgresql://…)"
        )
    return plan


def is_postgres(target: str) -> bool:
    from data.store import is_postgres_target

    return is_postgres_target(target)


def read_env_file(path: str | os.PathLike[str]) -> dict[str, str]:
    """``KEY=value`` lines; blank lines, ``#`` comments, ``export`` and quotes allowed."""
    values: dict[str, str] = {}
    file = Path(path)
    if not file.is_file():
        return values
    for raw in file.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        if line.startswith("export "):
            line = line[len("export ") :].strip()
        key, value = line.split("=", 1)
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def apply_env_file(path: str | os.PathLike[str]) -> list[str]:
    """Take ``DISCORD_TOKEN`` and the ``MAHJONG_*`` settings from the file where the
    environment does not set them (the environment wins, as with systemd's and Docker's
    env files); returns the keys taken. Why: an admin puts the database and backup
    settings in the same file as the token, and only the token was read from it: the bot
    started on ./mahjong.db with no backups, silently. Other keys are left alone."""
    taken = []
    for key, value in read_env_file(path).items():
        if (key == "DISCORD_TOKEN" or key.startswith("MAHJONG_")) and key not in os.environ:
            os.environ[key] = value
            taken.append(key)
    return taken


def find_token(env_file: str = ".env") -> str | None:
    token = os.environ.get("DISCORD_TOKEN") or read_env_file(env_file).get("DISCORD_TOKEN")
    return token.strip() if token and token.strip() else None


class RedactingFormatter(logging.Formatter):
    """Masks a secret in the finished line: message, arguments and traceback alike."""

    def __init__(self, fmt: str, secret: str | None) -> None:
        super().__init__(fmt)
        self.secret = secret

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return text.replace(self.secret, "[token]") if self.secret else text


def setup_logging(level: str, token: str | None) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s", token)
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


async def serve(
    args: argparse.Namespace, token: str, schedule: BackupSchedule | None = None
) -> int:
    import discord

    from bot.app import make_bot
    from bot.commands.database import describe_target, open_store_or_explain
    from bot.routing import PostgresRouter

    db_path = args.db or os.environ.get("MAHJONG_DB") or "./mahjong.db"
    synchronous = sqlite_sync(args)
    if synchronous is None:
        return 2
    store = await open_store_or_explain(db_path, synchronous=synchronous)
    if store is None:
        return 2
    log.info("database %s", describe_target(db_path))
    plan = shard_setup(args, db_path)
    coordination: dict[str, Any] = {}
    if not plan.runs_every_shard:  # other processes own some tables: route DM clicks
        coordination["router"] = PostgresRouter(db_path, plan.shard_ids)
    log.info("running %s", plan.describe())
    bot = make_bot(
        store,
        shard_plan=plan,
        **coordination,
        ai_delay=args.ai_delay,
        sync_guild=args.guild,
        sync_global=not args.no_sync and args.guild is None and plan.syncs_commands,
        fetch_command_ids=True,  # where it does not sync: --no-sync, shards after the first
        tune_runtime=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, stop.set)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - non-Unix
            signal.signal(signum, lambda *_: loop.call_soon_threadsafe(stop.set))
    runner = asyncio.create_task(bot.start(token), name="discord-client")
    stopper = asyncio.create_task(stop.wait(), name="stop-signal")
    tasks = [runner, stopper]
    if schedule is not None:  # checked and built by run(), before anything started
        log.info(
            "backing up to %s every %g h, keeping %d",
            schedule.directory,
            schedule.every.total_seconds() / 3600,
            schedule.keep,
        )
        tasks.append(asyncio.create_task(schedule.run(), name="backups"))
    code = 0
    try:
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done and runner.exception() is not None:
            error = runner.exception()
            if isinstance(error, discord.LoginFailure):
                log.error("Discord refused the token (check DISCORD_TOKEN)")
            else:
                log.error("the bot stopped: %s", error.__class__.__name__, exc_info=error)
            code = 1
        else:
            log.info("shutting down: saving tables")
    finally:
        await bot.close()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await store.close()
        log.info("stopped")
    return code


def run(args: argparse.Namespace) -> int:
    taken = apply_env_file(args.env_file)
    try:  # before anything else: a bad command line is answered at once
        shard_setup(args, args.db or os.environ.get("MAHJONG_DB") or "./mahjong.db")
        schedule = backup_setup(args, args.db or os.environ.get("MAHJONG_DB") or "./mahjong.db")
    except (ShardPlanError, ValueError) as error:
        print(f"mahjong-bot run: {error}", file=sys.stderr)
        return 2
    token = find_token(args.env_file)
    setup_logging(args.log_level, token)
    if taken:
        log.info("from %s: %s", args.env_file, ", ".join(sorted(taken)))
    if token is None:
        log.error("DISCORD_TOKEN is not set (environment or %s)", args.env_file)
        return 2
    return asyncio.run(serve(args, token, schedule))
