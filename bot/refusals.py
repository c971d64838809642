"""What a table session says when it refuses a request, and how it says it.

Why apart from the session: the cogs, the terminal game and the tests compare against
these texts, and none of them should need the session's machinery to do so. Every text
is bilingual (zh-CN first, English fallback) and discord-free, like the session.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import TileError, format_tiles, kind_str, name_en, name_zh
from engine.types import DISCARD, Action
from engine.words import ACTIONS

from .messages import msg
from .presenter import Text

__all__ = [
    "ALREADY_SEATED",
    "CHANNEL_BUSY",
    "CLOSED",
    "FAILED",
    "HOST_ONLY",
    "NOT_LOBBY",
    "NOT_RUNNING",
    "NOT_SEATED",
    "NOT_YOUR_TURN",
    "OK",
    "SEATED_ELSEWHERE",
    "SETTLING",
    "STALE",
    "TABLE_FULL",
    "SessionError",
    "SubmitResult",
    "bad_tiles",
    "illegal",
    "refuse",
    "seated_elsewhere",
]

NOT_SEATED = msg("session.not_seated")
NOT_YOUR_TURN = msg("session.not_your_turn")
STALE = msg("table.stale")  # a click or a command for a turn that is over
NOT_RUNNING = msg("session.not_running")
NOT_LOBBY = msg("session.not_lobby")
HOST_ONLY = msg("session.host_only")
TABLE_FULL = msg("session.table_full")
ALREADY_SEATED = msg("session.already_seated")
SEATED_ELSEWHERE = msg("session.seated_elsewhere")
CHANNEL_BUSY = msg("session.channel_busy")


def seated_elsewhere(channel_id: int | None) -> Text:
    """Refusing a second seat: with a link to the table the player sits at (its thread
    or channel), so they can find it, as the main channel's /table status does."""
    if channel_id is None:
        return SEATED_ELSEWHERE
    return msg("session.seated_at", thread=f"<#{channel_id}>")


CLOSED = msg("session.closed")
SETTLING = msg("session.settling")
FAILED = msg("session.failed")


def illegal(action: Action, held: Sequence[int] = ()) -> Text:
    """Why a move was refused; ``held`` (the seat's concealed tiles) lets a discard of a
    tile the player does not have say so instead of a bare "not legal"."""
    if action.type == DISCARD and action.tile is not None and action.tile not in held:
        tile = action.tile
        return msg(
            "session.not_held", tile_zh=name_zh(tile), tile_en=name_en(tile), kind=kind_str(tile)
        )
    word = ACTIONS[action.type]  # every action type has its word
    detail = kind_str(action.tile) if action.tile is not None else ""
    if action.tiles is not None:
        detail = format_tiles(action.tiles)
    return msg(
        "session.illegal",
        move_zh=f"{word.zh} {detail}".strip(),
        move_en=f"{word.short or word.en} {detail}".strip(),
    )


def bad_tiles(error: TileError) -> Text:
    """A typed tile the parser could not read, with its reason in both languages."""
    return msg("error.bad_tiles", reason_zh=error.zh[:150], reason_en=error.en[:150])


class SessionError(Exception):
    """A request the session refuses; ``text`` says why, in both languages."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.both())
        self.text = text


@dataclass(frozen=True)
class SubmitResult:
    ok: bool
    message: Text | None = None
    # Refused until confirmed: the points leaving would cost now (``leave(max_penalty=)``).
    confirm: int | None = None


OK = SubmitResult(True)


def refuse(text: Text) -> SubmitResult:
    return SubmitResult(False, text)
