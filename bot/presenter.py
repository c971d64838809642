"""The presenter protocol: everything a table session tells the world.

The session (``bot.session``) never imports discord.py; it talks to players only through
a ``Presenter``. Implementations: the Discord one (``bot.discord_presenter``), a
recording one for tests and a terminal one for ``mahjong-bot play``. Private
information (a seat's hand) is only ever passed to the method addressed to its owner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.types import Action, HandResult
from engine.views import PlayerView, PublicView


@dataclass(frozen=True)
class Text:
    """A bilingual message: Chinese (zh-CN) first, English the fallback."""

    zh: str
    en: str

    def both(self) -> str:
        return f"{self.zh} / {self.en}"


@dataclass(frozen=True)
class SeatInfo:
    """Who sits where. ``user_id`` is None for an AI seat."""

    seat: int
    name: str
    user_id: int | None
    is_ai: bool = False
    autoplay: bool = False  # a human seat currently played by the AI (托管)
    ai_level: str = "normal"


@dataclass(frozen=True)
class LobbyInfo:
    table_id: str
    guild_id: int
    channel_id: int
    host_user_id: int
    variant: str
    options: dict[str, object]
    num_seats: int
    stake: int
    players: tuple[SeatInfo, ...]  # in join order; seats are assigned at start
    status: str  # "lobby" | "running" | "finished" | "closed"
    discard_timeout: float = 30.0
    claim_timeout: float = 10.0
    ai_fill: bool = True


@dataclass(frozen=True)
class TableStatus:
    """The public state of a running table, as the channel sees it."""

    table_id: str
    guild_id: int
    channel_id: int
    seats: tuple[SeatInfo, ...]  # by seat number
    public: PublicView
    deadline: float | None  # absolute UNIX time of the current timer, for <t:…:R>
    acting: tuple[int, ...]  # seats that must act now
    stake: int
    hand_label: Text = field(default_factory=lambda: Text("", ""))
    # What just happened (empty when the status is a plain refresh): the public engine
    # events of the last accepted action (never a draw's tile) and the action itself.
    events: tuple[dict[str, Any], ...] = ()
    last_action: Action | None = None


@dataclass(frozen=True)
class PrivatePrompt:
    """What one seat sees and may do now. ``kind`` says why it is being asked:
    "turn" (discard/kong/win), "claim" (a discard may be claimed), "rob_kong",
    "santan" (三摊: continue or fold), or "idle" (nothing to do; the hand just changed)."""

    table_id: str
    user_id: int
    seat: int
    view: PlayerView
    kind: str
    deadline: float | None
    turn_id: int
    variant: str
    aids: Text | None = None  # learner aids, when the table has them on (own seat only)


class Presenter(Protocol):
    async def lobby_changed(self, lobby: LobbyInfo) -> None: ...

    async def table_changed(self, status: TableStatus) -> None: ...

    async def private_hand(self, prompt: PrivatePrompt) -> None:
        """The owner's hand and legal actions (including claim offers and the 三摊 choice)."""
        ...

    async def hand_result(self, status: TableStatus, result: HandResult, points: list[int]) -> None:
        """A hand ended (win or draw); ``points`` are the balance changes (units × stake)."""
        ...

    async def match_result(
        self, status: TableStatus, totals: list[int], points: list[int]
    ) -> None: ...

    async def notice(self, table_id: str, channel_id: int, text: Text) -> None:
        """A public line for the table's channel (autoplay on, a player left, …)."""
        ...

    async def error(self, user_id: int, text: Text) -> None:
        """A message for one user only (a rejected action and why)."""
        ...
