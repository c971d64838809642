"""``mahjong-bot db``: bring a database to the current schema, move SQLite to PostgreSQL,
export a server's balances and ledger, or back up a SQLite database.

    mahjong-bot db migrate [--db TARGET]      # TARGET: file or postgresql:// URL ($MAHJONG_DB)
    mahjong-bot db copy SRC.db postgresql://user:password@host/db
    mahjong-bot db export --guild GUILD_ID --out DIR [--db TARGET]
    mahjong-bot db backup --out FILE_OR_DIR [--db FILE] [--keep N]

Why a command for migrating: the bot migrates on start anyway, but a server operator
moving to a new version wants to do it (and see it fail, if it does) before starting N
bot processes. ``copy`` is for a server that outgrows one SQLite file (``data.copy``).
``export`` writes the same two CSV files ``/mjadmin export`` attaches (``data.export``),
whole (no upload limit on a disk), with the names the bot last saw. ``backup`` takes a
checked copy of a SQLite database while the bot runs (``data.backup``; ``run
--backup-dir`` takes them on a schedule).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from bot.commands.database import describe_target, open_store_or_explain


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    migrate = sub.add_parser("migrate", help="apply pending migrations (SQLite or PostgreSQL)")
    migrate.add_argument(
        "--db", default=None, help="SQLite file or postgresql:// URL ($MAHJONG_DB or ./mahjong.db)"
    )
    copy = sub.add_parser(
        "copy", help="copy a SQLite database into an empty PostgreSQL one, verified"
    )
    copy.add_argument("source", metavar="SRC", help="the SQLite file (stop the bot first)")
    copy.add_argument("destination", metavar="DST", help="postgresql://user:password@host/db")
    export = sub.add_parser(
        "export", help="write a server's balances and ledger as CSV files (as /mjadmin export)"
    )
    export.add_argument("--guild", type=int, required=True, help="the server's (guild's) id")
    export.add_argument("--out", required=True, metavar="DIR", help="directory for the files")
    export.add_argument(
        "--db", default=None, help="SQLite file or postgresql:// URL ($MAHJONG_DB or ./mahjong.db)"
    )
    backup = sub.add_parser(
        "backup", help="a checked copy of a SQLite database, safe while the bot runs"
    )
    backup.add_argument(
        "--out", required=True, metavar="PATH", help="a new file, or a directory for a dated one"
    )
    backup.add_argument("--db", default=None, help="the SQLite file ($MAHJONG_DB or ./mahjong.db)")
    backup.add_argument(
        "--keep",
        type=int,
        default=None,
        metavar="N",
        help="with a directory: then delete all but the newest N of its backups",
    )


def run(args: argparse.Namespace) -> int:
    if args.action == "migrate":
        target = args.db or os.environ.get("MAHJONG_DB") or "./mahjong.db"
        return asyncio.run(migrate(target))
    if args.action == "export":
        target = args.db or os.environ.get("MAHJONG_DB") or "./mahjong.db"
        return asyncio.run(export(target, args.guild, args.out))
    if args.action == "backup":
        target = args.db or os.environ.get("MAHJONG_DB") or "./mahjong.db"
        return backup(target, args.out, args.keep)
    return asyncio.run(copy(args.source, args.destination))


async def migrate(target: str) -> int:
    store = await open_store_or_explain(target)
    if store is None:
        return 2
    try:
        version = await store.schema_version()
    finally:
        await store.close()
    print(f"{describe_target(target)}: 数据库结构版本 / schema version {version} (latest)")
    return 0


async def copy(source: str, destination: str) -> int:
    from data.copy import CopyError, copy_database

    try:
        report = await copy_database(source, destination)
    except CopyError as error:
        print(f"mahjong-bot db copy: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # the server refused the login, no such database, ...
        if not type(error).__module__.startswith("asyncpg") and not isinstance(error, OSError):
            raise
        print(
            f"mahjong-bot db copy: 无法连接 / cannot open {describe_target(destination)}: {error}",
            file=sys.stderr,
        )
        return 2
    for table, count in report.rows.items():
        print(f"  {table:<16} {count:>10,} rows")
    print(
        f"已复制 / copied {report.total_rows:,} rows to {describe_target(destination)}; "
        f"row counts and {report.balances:,} balances verified"
    )
    return 0


async def export(target: str, guild_id: int, out: str) -> int:
    from data.export import export_guild

    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(
            f"mahjong-bot db export: 无法创建目录 / cannot create {out}: {error}", file=sys.stderr
        )
        return 2
    store = await open_store_or_explain(target, existing=True)
    if store is None:
        return 2
    try:
        result = await export_guild(store, guild_id)
    finally:
        await store.close()
    written = []
    for what, data in (("balances", result.balances), ("ledger", result.ledger)):
        path = folder / result.file_name(what)
        path.write_bytes(data)
        written.append(path)
    if not result.users and not result.rows:
        print(
            f"mahjong-bot db export: 服务器 {guild_id} 没有余额和账本记录 / "
            f"no balances or ledger rows for guild {guild_id} (wrong id?)",
            file=sys.stderr,
        )
    print(
        f"已导出 / exported {result.users:,} balances and {result.rows:,} ledger rows: "
        + ", ".join(str(path) for path in written)
    )
    return 0


def backup(target: str, out: str, keep: int | None) -> int:
    from data.backup import BackupError, backup_sqlite, prune_backups
    from data.store import is_postgres_target

    if is_postgres_target(target):
        print(
            "mahjong-bot db backup: PostgreSQL 请用 pg_dump / for PostgreSQL use its own tool: "
            f"pg_dump --format=custom --file=mahjong.dump '{describe_target(target)}'",
            file=sys.stderr,
        )
        return 2
    if keep is not None and not Path(out).exists():
        print(
            f"mahjong-bot db backup: 未备份 / no backup written: 目录不存在 / directory {out}"
            " does not exist (--keep keeps N dated backups in a directory)",
            file=sys.stderr,
        )
        return 2
    if keep is not None and (keep < 1 or not Path(out).is_dir()):
        print(
            "mahjong-bot db backup: --keep 需要一个目录和至少 1 / "
            "--keep needs --out to be a directory, and N of at least 1",
            file=sys.stderr,
        )
        return 2
    try:
        report = backup_sqlite(target, out)
    except BackupError as error:
        print(f"mahjong-bot db backup: 未备份 / no backup written: {error}", file=sys.stderr)
        return 2
    print(
        f"已备份 / backed up {target} to {report.path} ({report.size_bytes:,} bytes, "
        f"{report.seconds:.2f} s): schema version {report.schema_version}, "
        f"{report.games:,} games, {report.hands:,} settled hands, "
        f"{report.ledger_rows:,} ledger rows, {report.balances:,} balances; "
        "integrity and balances checked"
    )
    if keep is not None:
        for path in prune_backups(out, keep):
            print(f"已删除旧备份 / deleted an old backup: {path}")
    return 0
