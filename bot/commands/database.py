"""Opening the database for a long-running command (``run``, ``play``), or refusing it.

Why here and not in ``Store.open``: a library raises, a command explains. A database the
bot cannot write, cannot read or does not understand must stop the command at once with
one clear line and exit status 2, before anything is created or changed, instead of a
traceback (or, worse, a bot that starts and then fails every click).
"""

from __future__ import annotations

import sqlite3
import sys
from typing import TextIO

from data.schema import SchemaError
from data.store import Store, check_database


async def open_store_or_explain(path: str, err: TextIO | None = None) -> Store | None:
    """The opened store, or None after printing why not on ``err`` (stderr)."""
    stream = err if err is not None else sys.stderr
    problem = check_database(path)
    if problem is None:
        try:
            return await Store.open(path)
        except (sqlite3.Error, SchemaError, OSError) as error:
            problem = f"cannot open {path}: {error}"
    print(f"mahjong-bot: 数据库不可用 / database unusable: {problem}", file=stream)
    return None
