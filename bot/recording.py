"""A presenter that only remembers: tests read what the session told whom, in order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.types import HandResult

from .presenter import LastHand, LobbyInfo, PrivatePrompt, TableStatus, Text


@dataclass(frozen=True)
class Call:
    """One presenter call: ``kind`` is the method name, ``user_id`` set for private ones."""

    kind: str
    payload: Any
    user_id: int | None = None


@dataclass
class RecordingPresenter:
    calls: list[Call] = field(default_factory=list)

    async def lobby_changed(self, lobby: LobbyInfo) -> None:
        self.calls.append(Call("lobby_changed", lobby))

    async def table_changed(self, status: TableStatus) -> None:
        self.calls.append(Call("table_changed", status))

    async def private_hand(self, prompt: PrivatePrompt) -> None:
        self.calls.append(Call("private_hand", prompt, prompt.user_id))

    async def hand_result(self, status: TableStatus, result: HandResult, points: list[int]) -> None:
        self.calls.append(Call("hand_result", (status, result, list(points))))

    async def match_result(self, status: TableStatus, totals: list[int], points: list[int]) -> None:
        self.calls.append(Call("match_result", (status, list(totals), list(points))))

    async def notice(self, table_id: str, channel_id: int, text: Text) -> None:
        self.calls.append(Call("notice", text))

    async def error(self, user_id: int, text: Text) -> None:
        self.calls.append(Call("error", text, user_id))

    async def withdraw_notice(self, table_id: str, channel_id: int, text: Text) -> None:
        self.calls.append(Call("withdraw_notice", text))

    async def table_restored(
        self, status: TableStatus, moves: list[TableStatus], last_hand: LastHand | None
    ) -> None:
        self.calls.append(Call("table_restored", (status, list(moves), last_hand)))

    async def rematch_call(
        self, table_id: str, channel_id: int, game_id: str, text: Text, user_ids: list[int]
    ) -> None:
        self.calls.append(Call("rematch_call", (game_id, text, list(user_ids))))

    async def rematch_started(self, table_id: str, channel_id: int) -> None:
        self.calls.append(Call("rematch_started", table_id))

    # ------------------------------------------------------------------ queries
    def of(self, kind: str) -> list[Any]:
        return [call.payload for call in self.calls if call.kind == kind]

    def prompts(self, user_id: int) -> list[PrivatePrompt]:
        return [c.payload for c in self.calls if c.kind == "private_hand" and c.user_id == user_id]

    def notices(self) -> list[Text]:
        return self.of("notice")

    def clear(self) -> None:
        self.calls.clear()
