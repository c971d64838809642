"""What a table session says when it refuses a request, and how it says it.

Why apart from the session: the cogs, the terminal game and the tests compare against
these texts, and none of them should need the session's machinery to do so. Every text
is bilingual (zh-CN first, English fallback) and discord-free, like the session.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import kind_str, name_en, name_zh
from engine.types import DISCARD, Action

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
    "illegal",
    "refuse",
]

NOT_SEATED = Text("你不在这张桌上", "You are not seated at this table")
NOT_YOUR_TURN = Text("不是你的回合", "It is not your turn")
STALE = Text("这个按钮已过期", "That button is from an earlier turn")
NOT_RUNNING = Text("牌局没有在进行", "No match is running at this table")
NOT_LOBBY = Text("牌局已经开始或已结束", "The table is no longer taking players")
HOST_ONLY = Text("只有房主可以这样做", "Only the host can do that")
TABLE_FULL = Text("座位已满", "The table is full")
ALREADY_SEATED = Text("你已经在这张桌上", "You are already at this table")
SEATED_ELSEWHERE = Text("你已经在另一张桌上", "You are already seated at another table")
CHANNEL_BUSY = Text("这个频道已经有一张桌了", "This channel already has an open table")
CLOSED = Text("这张桌已关闭", "This table is closed")
SETTLING = Text(
    "上一局正在结算，请稍候", "The last hand is still being settled; please wait a moment"
)
FAILED = Text(
    "出错了，操作没有生效，请重试", "Something went wrong and the move was not made; try again"
)


def illegal(action: Action, held: Sequence[int] = ()) -> Text:
    """Why a move was refused; ``held`` (the seat's concealed tiles) lets a discard of a
    tile the player does not have say so instead of a bare "not legal"."""
    if action.type == DISCARD and action.tile is not None and action.tile not in held:
        tile = action.tile
        return Text(
            f"你手里没有{name_zh(tile)}（{kind_str(tile)}）",
            f"You do not hold {name_en(tile)} ({kind_str(tile)})",
        )
    return Text(
        f"现在不能这样做：{action.describe()}", f"That move is not legal now: {action.describe()}"
    )


class SessionError(Exception):
    """A request the session refuses; ``text`` says why, in both languages."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.both())
        self.text = text


@dataclass(frozen=True)
class SubmitResult:
    ok: bool
    message: Text | None = None


OK = SubmitResult(True)


def refuse(text: Text) -> SubmitResult:
    return SubmitResult(False, text)
