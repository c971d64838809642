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
    """A bilingual message: Chinese (zh-CN) first, English the fallback.

    ``keep`` lists what the text quotes as written (player names, what a user typed):
    a zh-TW reader gets the bot's words in Traditional characters, but 张伟 stays 张伟.
    """

    zh: str
    en: str
    keep: tuple[str, ...] = ()

    def both(self) -> str:
        return f"{self.zh} / {self.en}"

    def keeping(self, *spans: str) -> Text:
        """The same text, with ``spans`` also left as written for zh-TW readers."""
        return Text(self.zh, self.en, self.keep + tuple(span for span in spans if span))


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


AUTO_PASS_MODES = ("off", "hand", "always")


@dataclass(frozen=True)
class PlayerToggles:
    """One player's own shortcuts (buttons on their hand, kept in ``user_prefs``).

    Why: most claim prompts are passes, and a table that waits for them is slow;
    ``auto_pass`` ("off", "hand": this hand only, "always") answers them without a
    prompt, though a win is still offered unless ``auto_win`` takes it; ``tsumogiri``
    discards the drawn tile at once (ツモ切り) when no win is possible."""

    auto_pass: str = "off"
    auto_win: bool = False
    tsumogiri: bool = False

    @property
    def any_on(self) -> bool:
        return self.auto_pass != "off" or self.auto_win or self.tsumogiri


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
    # The seat is played by the AI (托管): the hand says so and offers "Back".
    autoplay: bool = False
    toggles: PlayerToggles = field(default_factory=PlayerToggles)
    # What the headline cannot say from the view alone (names, the table's options, the
    # player's shortcuts): shown under it on the hand and in the DM alert.
    note: Text | None = None


@dataclass(frozen=True)
class LastHand:
    """The hand before the current one, as its result card told each player: which hand
    (numbered from 0), how it ended and each seat's balance change."""

    hand_number: int
    result: HandResult
    points: list[int]


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

    async def rematch_call(
        self, table_id: str, channel_id: int, game_id: str, text: Text, user_ids: list[int]
    ) -> None:
        """A rematch of ``game_id`` waits for ``user_ids``: tell them, so that it notifies
        them (and only them), where they can confirm it."""
        ...

    async def rematch_started(self, table_id: str, channel_id: int) -> None:
        """Every player confirmed and the rematch began: the call stops asking."""
        ...

    async def table_restored(
        self, status: TableStatus, moves: list[TableStatus], last_hand: LastHand | None
    ) -> None:
        """A running table brought back after a restart, before it is announced: what the
        presenter showed from memory, rebuilt from the action log. ``moves`` are the
        current hand's moves so far (each as ``table_changed`` had it, oldest first);
        ``last_hand`` the hand before, whose outcome the next hand's DM starts with."""
        ...

    async def withdraw_notice(self, table_id: str, channel_id: int, text: Text) -> None:
        """Take back a public line that no longer holds (an autoplay notice once the
        player is back), so the table message does not keep saying it."""
        ...
