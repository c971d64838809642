"""A guild's balances and ledger as two CSV files (``/mjadmin export``, ``mahjong-bot db
export``).

Why CSV with a byte-order mark: the admins open it in Excel, which reads a CSV without
one in the system's legacy code page (GBK on a Chinese Windows, cp1252 elsewhere) and
turns UTF-8 names into mojibake; with ``EF BB BF`` first it reads UTF-8. Headers are in
both languages (the file is read by people and by scripts). Text a user wrote (names,
reasons) that starts like a formula (``= + - @``) gets a leading apostrophe, so Excel
shows it instead of running it.

The ledger is read in chunks of ids on the primary key up to the newest id read with the
balances (``Store.export_head``), so the rows explain exactly the balances exported
beside them even while play goes on; each chunk is formatted in a worker thread, so a
bot's event loop keeps serving its tables during a large export.
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from .audit import ExportHead
from .store import Store

BOM = "\ufeff".encode()
BALANCE_HEADER = ("用户ID user_id", "名字 name", "余额 balance")
LEDGER_HEADER = (
    "编号 id", "时间UTC time_utc", "用户ID user_id", "名字 name", "类型 kind", "积分 points",
    "原积分 original_points", "封顶 capped", "牌局 game_id", "第几局 hand", "原因 reason",
    "操作人ID by_user_id", "操作人 by_name",
)  # fmt: skip
CHUNK_ROWS = 5000
_FORMULA_START = ("=", "+", "-", "@", "\t")

NamesFor = Callable[[Sequence[int]], Awaitable[Mapping[int, str]]]


@dataclass
class GuildExport:
    """The two files' bytes. The ledger is kept as its header and its chunks (each whole
    rows), so a sender may split it between rows without parsing it again."""

    guild_id: int
    made_at: datetime
    balances: bytes
    ledger_head: bytes
    ledger_chunks: list[bytes] = field(default_factory=list)
    users: int = 0
    rows: int = 0

    @property
    def ledger(self) -> bytes:
        return self.ledger_head + b"".join(self.ledger_chunks)

    def file_name(self, what: str, part: int | None = None) -> str:
        """``ledger-<guild>-<yyyymmdd>.csv`` (``-partN`` for a piece of a split one)."""
        piece = f"-part{part}" if part is not None else ""
        return f"{what}-{self.guild_id}-{self.made_at:%Y%m%d}{piece}.csv"


def _cell(text: str | None) -> str:
    """User text as a cell Excel shows as written (no formula), on one line: every row is
    then one line of the file, which a sender may split between lines."""
    if not text:
        return ""
    text = text.replace("\r", " ").replace("\n", " ")
    return "'" + text if text.startswith(_FORMULA_START) else text


def _csv(rows: Sequence[Sequence[object]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _utc(created_at: object) -> str:
    """A stored time (ISO text, or a datetime) as ``2026-12-02T13:37:57Z``."""
    moment = (
        created_at if isinstance(created_at, datetime) else datetime.fromisoformat(str(created_at))
    )
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _ledger_csv(rows: Sequence[Sequence[object]], names: Mapping[int, str]) -> bytes:
    out = []
    for (row_id, created_at, user_id, kind, points, original, capped, game_id, hand_number,
         reason, by_user) in rows:  # fmt: skip
        out.append((
            row_id, _utc(created_at), "" if user_id is None else user_id,
            _cell(names.get(int(user_id))) if user_id is not None else "AI",  # type: ignore[call-overload]
            kind, points, original, int(bool(capped)), game_id or "",
            "" if hand_number is None else int(hand_number) + 1,  # type: ignore[call-overload]
            _cell(str(reason or "")), "" if by_user is None else by_user,
            _cell(names.get(int(by_user))) if by_user is not None else "",  # type: ignore[call-overload]
        ))  # fmt: skip
    return _csv(out)


async def export_guild(
    store: Store,
    guild_id: int,
    *,
    now: datetime | None = None,
    names_for: NamesFor | None = None,
    chunk_rows: int = CHUNK_ROWS,
) -> GuildExport:
    """Read and format the guild's export. ``names_for`` (the bot: its members' current
    names) overrides the names the store kept for the ids it is given."""
    head: ExportHead = await store.export_head(guild_id)
    names = dict(head.names)
    if names_for is not None:
        names.update(await names_for(head.users))
    balance_rows = [
        (user, _cell(names.get(user)), balance) for user, balance, _stored in head.balances
    ]
    result = GuildExport(
        guild_id,
        now or datetime.now(UTC),
        BOM + _csv([BALANCE_HEADER, *balance_rows]),
        BOM + _csv([LEDGER_HEADER]),
        users=len(balance_rows),
    )
    after = 0
    while True:
        rows = await store.export_rows(guild_id, after, head.upto, chunk_rows)
        if not rows:
            break
        result.ledger_chunks.append(await asyncio.to_thread(_ledger_csv, rows, names))
        result.rows += len(rows)
        after = int(rows[-1][0])  # type: ignore[call-overload]
    return result
