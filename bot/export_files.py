"""An export (``data.export``) as Discord attachments: the CSV files as they are when they
fit, else one zip of both, else the ledger in zip parts over several messages.

Why zip and not gzip: the admins open these files on Windows and macOS, which open a zip
with a double click and a ``.gz`` only with extra software. Why parts at all: a message's
files together may not exceed the server's upload limit (10 MiB without boosts; Discord
sends each interaction's, ``Interaction.filesize_limit``), and a ledger of a few hundred
thousand rows is more than that even compressed. Every part is a CSV of its own with the
header and the byte-order mark, so each opens alone.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from data.export import GuildExport

MAX_FILES = 10  # attachments in one message
MAX_MESSAGES = 10  # the reply and its follow-ups; more is a job for ``mahjong-bot db export``


@dataclass(frozen=True)
class Packed:
    """The files of each message, in order; ``how``: "csv", "zip" or "parts"."""

    messages: list[list[tuple[str, bytes]]]
    how: str
    parts: int = 0


def _zip(files: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


def _zip_name(csv_name: str) -> str:
    return csv_name.removesuffix(".csv") + ".zip"


def _messages(files: list[tuple[str, bytes]], limit: int) -> list[list[tuple[str, bytes]]]:
    """``files`` in order, as many to a message as fit together under ``limit``."""
    messages: list[list[tuple[str, bytes]]] = [[]]
    used = 0
    for name, data in files:
        if messages[-1] and (used + len(data) > limit or len(messages[-1]) == MAX_FILES):
            messages.append([])
            used = 0
        messages[-1].append((name, data))
        used += len(data)
    return messages


def pack_export(export: GuildExport, limit: int) -> Packed | None:
    """The attachments for ``export`` under ``limit`` bytes a message, or None when even
    the ledger's zip parts would need more than ``MAX_MESSAGES`` messages."""
    balances_name, ledger_name = export.file_name("balances"), export.file_name("ledger")
    ledger = export.ledger
    if len(export.balances) + len(ledger) <= limit:
        return Packed([[(balances_name, export.balances), (ledger_name, ledger)]], "csv")
    whole = _zip([(balances_name, export.balances), (ledger_name, ledger)])
    if len(whole) <= limit:
        name = f"mahjong-export-{export.guild_id}-{export.made_at:%Y%m%d}.zip"
        return Packed([[(name, whole)]], "zip")
    balances = (balances_name, export.balances)
    if len(export.balances) > limit:
        balances = (_zip_name(balances_name), _zip([balances]))
    lines = [line for chunk in export.ledger_chunks for line in chunk.splitlines(keepends=True)]
    # Rows per part from how well the whole compressed, then smaller until every part fits.
    target = int(limit * (len(export.balances) + len(ledger)) / len(whole) * 0.85)
    while target > len(export.ledger_head):
        parts: list[list[bytes]] = [[]]
        size = 0
        for line in lines:
            if parts[-1] and size + len(line) > target:
                parts.append([])
                size = 0
            parts[-1].append(line)
            size += len(line)
        files = []
        for number, part in enumerate(parts, start=1):
            csv_name = export.file_name("ledger", number)
            files.append(
                (_zip_name(csv_name), _zip([(csv_name, export.ledger_head + b"".join(part))]))
            )
        if all(len(data) <= limit for _name, data in files):
            messages = _messages([balances, *files], limit)
            if len(messages) > MAX_MESSAGES:
                return None
            return Packed(messages, "parts", len(files))
        target = int(target * 0.7)
    return None
