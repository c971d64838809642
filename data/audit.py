"""The server-wide ledger an admin audits: ``/mjadmin ledger``'s pages and the export.

Why apart from ``data.ledger``: those bodies write (settlement, penalties, adjustments)
and read one user's rows; these read every user's rows of a guild, for a manager, and are
read-only. The queries are portable (both backends run them, see ``data.store``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from .connection import _check_int
from .ledger import _ledger_entry
from .models import LedgerEntry
from .settings import SettingsPart

LEDGER_KINDS = ("adjustment", "penalty", "hand", "opening", "void")
# What an admin audits unless told otherwise: the rows a person decided (an adjustment,
# a voided hand) or a rule charged (a penalty); hands and openings are the bulk and follow
# from play.
AUDIT_KINDS = ("adjustment", "penalty", "void")

# The columns of the ledger export, in the CSV's order (``data.export``).
EXPORT_COLUMNS = (
    "id, created_at, user_id, kind, points, original_points, capped, game_id, hand_number,"
    " reason, by_user"
)


@dataclass(frozen=True)
class LedgerPage:
    """One page of a guild's ledger. ``total`` counts the matching rows up to ``upto``
    (the newest row id when the first page was read): later pages of the same look read
    the same rows, however many hands were settled meanwhile."""

    entries: list[LedgerEntry]
    total: int
    upto: int


@dataclass(frozen=True)
class ExportHead:
    """What an export reads first, in one snapshot: every balance (with the name the bot
    last saw, if any), who made adjustments, and the newest ledger row id; the ledger's
    rows up to that id then explain exactly these balances."""

    balances: list[tuple[int, int, str | None]]  # user id, balance, stored name
    adjusters: list[int]  # who made the guild's adjustments (a manager may have no balance)
    names: dict[int, str]  # every stored name the export needs (players and adjusters)
    upto: int

    @property
    def users(self) -> list[int]:
        """Everyone the export names: each balance's owner, then each adjuster."""
        return list(dict.fromkeys([user for user, _, _ in self.balances] + self.adjusters))


def _stored_name(value: object) -> str | None:
    """A ``display_name`` preference as stored (JSON text), or None."""
    if value is None:
        return None
    try:
        name = json.loads(str(value))
    except ValueError:
        return None
    return name if isinstance(name, str) and name else None


class AuditPart(SettingsPart):
    """The guild-wide ledger reads (``Store`` mixes this in)."""

    async def guild_ledger(
        self,
        guild_id: int,
        *,
        kinds: Sequence[str] = AUDIT_KINDS,
        user_id: int | None = None,
        upto: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> LedgerPage:
        """The guild's ledger rows of ``kinds`` (one user's, or everyone's), newest first,
        ``limit`` from ``offset``; AI seats' rows (no user) are left out.

        Without a user the ``ledger_guild_kind`` index (migration 9) holds the rows in
        order per kind; with one, ``ledger_user_history``. Count and page are read in one
        snapshot."""
        _check_int("guild_id", guild_id)
        _check_int("limit", limit, minimum=1)
        _check_int("offset", offset, minimum=0)
        kinds = tuple(kinds)
        if not kinds or any(kind not in LEDGER_KINDS for kind in kinds):
            raise ValueError(f"kinds must be among {LEDGER_KINDS}, got {kinds}")
        if user_id is not None:
            _check_int("user_id", user_id)
        marks = ", ".join("?" * len(kinds))
        # "user_id IS NOT NULL" as written: SQLite uses a partial index only when the
        # query repeats its condition.
        where = f"guild_id = ? AND kind IN ({marks}) AND user_id IS NOT NULL AND id <= ?"
        args: tuple[object, ...] = (guild_id, *kinds)
        if user_id is not None:
            where += " AND user_id = ?"
        count = where.replace(f"kind IN ({marks})", "kind = ?")

        def body(connection: sqlite3.Connection) -> LedgerPage:
            last = upto
            if last is None:
                row = connection.execute("SELECT COALESCE(MAX(id), 0) FROM ledger").fetchone()
                last = int(row[0])
            bound = (*args, last, *(() if user_id is None else (user_id,)))
            # Counted kind by kind: with ``kind IN (...)`` SQLite counts over the guild's
            # every row in ledger_user_history (0.1 s at a million hands), with
            # ``kind = ?`` over that kind's range of ledger_guild_kind.
            total = sum(
                int(connection.execute(f"SELECT COUNT(*) FROM ledger WHERE {count}",
                                       (guild_id, kind, *bound[len(args):])).fetchone()[0])
                for kind in kinds
            )  # fmt: skip
            rows = connection.execute(
                f"SELECT * FROM ledger WHERE {where} ORDER BY id DESC LIMIT ? OFFSET ?",
                (*bound, limit, offset),
            ).fetchall()
            return LedgerPage([_ledger_entry(row) for row in rows], total, last)

        return await self._read(body)

    async def export_head(self, guild_id: int) -> ExportHead:
        """Every balance of the guild (largest first) with the names the bot stored, the
        adjusters' names, and the newest ledger row id, in one snapshot."""
        _check_int("guild_id", guild_id)

        def body(connection: sqlite3.Connection) -> ExportHead:
            last = int(connection.execute("SELECT COALESCE(MAX(id), 0) FROM ledger").fetchone()[0])
            balances = [
                (int(row[0]), int(row[1]), _stored_name(row[2]))
                for row in connection.execute(
                    "SELECT b.user_id, b.balance, p.value FROM balances AS b"
                    " LEFT JOIN user_prefs AS p ON p.user_id = b.user_id"
                    " AND p.key = 'display_name'"
                    " WHERE b.guild_id = ? ORDER BY b.balance DESC, b.user_id",
                    (guild_id,),
                ).fetchall()
            ]
            names = {user: name for user, _balance, name in balances if name is not None}
            adjusters = []
            for row in connection.execute(
                "SELECT DISTINCT a.by_user, p.value FROM ledger AS a"
                " LEFT JOIN user_prefs AS p ON p.user_id = a.by_user AND p.key = 'display_name'"
                " WHERE a.guild_id = ? AND a.kind = 'adjustment' AND a.user_id IS NOT NULL"
                " AND a.by_user IS NOT NULL",
                (guild_id,),
            ).fetchall():
                adjusters.append(int(row[0]))
                name = _stored_name(row[1])
                if name is not None:
                    names[int(row[0])] = name
            return ExportHead(balances, sorted(adjusters), names, last)

        return await self._read(body)

    async def export_rows(
        self, guild_id: int, after: int, upto: int, limit: int = 5000
    ) -> list[tuple[object, ...]]:
        """The guild's ledger rows with ids in ``(after, upto]``, oldest first, as tuples
        of ``EXPORT_COLUMNS``; AI seats' rows included (their user id is None).

        Read in id ranges on the primary key (``+guild_id`` keeps SQLite from choosing a
        guild-led index, which would sort the guild's every row for each chunk): an
        export is a walk over the ledger once, however many chunks it takes."""
        _check_int("guild_id", guild_id)
        _check_int("limit", limit, minimum=1)
        rows = await self._read(
            lambda connection: connection.execute(
                f"SELECT {EXPORT_COLUMNS} FROM ledger WHERE id > ? AND id <= ? AND +guild_id = ?"
                " ORDER BY id LIMIT ?",
                (after, upto, guild_id, limit),
            ).fetchall()
        )
        return [tuple(row) for row in rows]
