"""Opening the database for a long-running command (``run``, ``play``), or refusing it.

Why here and not in ``Store.open``: a library raises, a command explains. A database the
bot cannot write, cannot read or does not understand must stop the command at once with
one clear line and exit status 2, before anything is created or changed, instead of a
traceback (or, worse, a bot that starts and then fails every click).
"""

from __future__ import annotations

import sqlite3
import sys
import urllib.parse
from pathlib import Path
from typing import TextIO

from data.schema import SchemaError
from data.store import Store, check_database, is_postgres_target, open_store


def describe_target(target: str) -> str:
    """The target for messages and logs: a PostgreSQL URL without its password."""
    if not is_postgres_target(target):
        return target
    parts = urllib.parse.urlsplit(target)
    if parts.password is None:
        return target
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


async def open_store_or_explain(
    path: str, err: TextIO | None = None, *, synchronous: str = "FULL", existing: bool = False
) -> Store | None:
    """The opened store, or None after printing why not on ``err`` (stderr).

    ``path`` is a SQLite file or a ``postgresql://`` URL (``data.open_store``); a server
    that cannot be reached or refuses the login is explained the same way. ``synchronous``
    is SQLite's durability (``Store.open``); PostgreSQL has its own. ``existing``: a
    command that only reads (export, replay) refuses a SQLite file that is not there
    rather than create an empty one (a mistyped path read as "no rows")."""
    stream = err if err is not None else sys.stderr
    problem: str | None
    if is_postgres_target(path):
        try:
            return await open_store(path)
        except (TimeoutError, SchemaError, OSError) as error:
            problem = f"cannot open {describe_target(path)}: {error}"
        except Exception as error:  # asyncpg's errors (login, missing database, ...)
            if not type(error).__module__.startswith("asyncpg"):
                raise
            problem = f"cannot open {describe_target(path)}: {error}"
    elif existing and path != ":memory:" and not Path(path).exists():
        problem = f"no database at {path}"
    else:
        problem = check_database(path)
        if problem is None:
            try:
                # check_database found the file creatable: SQLite creates the file, not
                # the directories above it (MAHJONG_DB=/var/lib/mahjong/mahjong.db).
                if path != ":memory:" and not path.startswith("file:"):
                    Path(path).parent.mkdir(parents=True, exist_ok=True)
                return await Store.open(path, synchronous=synchronous)
            except (sqlite3.Error, SchemaError, OSError) as error:
                problem = f"cannot open {path}: {error}"
    print(f"mahjong-bot: 数据库不可用 / database unusable: {problem}", file=stream)
    return None
