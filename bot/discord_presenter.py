"""The Discord presenter: how a table session reaches players on Discord.

Request budget is the design constraint (Discord rate limits, and a phone should not
buzz on every tile), so:

- **One table message per table**, edited in place (lobby, then the table image and a
  status line), and edits are coalesced: at most one per channel every ``min_interval``
  seconds; the newest state wins, intermediate ones are never sent.
- **A table in its own thread** (``bot.discord_threads``) keeps its table message the
  latest item there: after a hand's result it is sent anew and the old one deleted (one
  request more per hand); the final standings also go to the channel the thread hangs
  off, and the finished thread is archived.
- **One DM per player per hand**, edited in place. A prompt whose picture and choices
  equal what the player already has is not sent at all.
- **A click answers itself**: when a player's click changes their own hand, the new hand
  goes out as the interaction's own "update message" response — the acknowledgement and
  the edit are one request. Rendering runs in a thread under a time budget; if it is slow
  the click is deferred first, so Discord's 3-second limit is always kept.
- **DMs closed** (403, code 50007) is remembered in the user's prefs and announced once in
  the channel; that player is then served ephemerally (the table's "My hand" button and
  ``/table hand``), and the live ephemeral is kept up to date through its interaction
  token for as long as Discord allows (15 minutes). DMs are never retried blindly.

Long-lived messages (the table, the DM hand) are edited with the bot token, never with
an interaction token, which dies after 15 minutes.

The parts, one job each: ``bot.discord_ack`` (``AckGuard``, the 3-second watchdog),
``bot.discord_hands`` (private hands), ``bot.discord_table`` (the table message and the
result posts), over ``bot.discord_core`` (shared state, background work, the renderer).
"""

from __future__ import annotations

from collections import deque

from bot.discord_ack import ACK_BUDGET, AckGuard
from bot.discord_core import NO_MENTIONS, Renderer, seat_names
from bot.discord_hands import (
    DM_CLOSED_CODE,
    INTERACTION_TOKEN_LIFETIME,
    PrivateHands,
    hand_signature,
)
from bot.discord_table import TableMessages, variant_names
from bot.presenter import LastHand, TableStatus, Text
from engine.types import HandResult

__all__ = [
    "ACK_BUDGET",
    "DM_CLOSED_CODE",
    "INTERACTION_TOKEN_LIFETIME",
    "NO_MENTIONS",
    "AckGuard",
    "DiscordPresenter",
    "Renderer",
    "hand_signature",
    "seat_names",
    "variant_names",
]


class DiscordPresenter(PrivateHands, TableMessages):
    """``bot.presenter.Presenter`` for Discord. ``bot`` is the running ``MahjongBot``."""

    async def hand_result(self, status: TableStatus, result: HandResult, points: list[int]) -> None:
        """The result card goes to the channel and onto each DM player's hand message."""
        await TableMessages.hand_result(self, status, result, points)
        await self.dm_result_cards(status, result, points)

    async def match_result(self, status: TableStatus, totals: list[int], points: list[int]) -> None:
        await TableMessages.match_result(self, status, totals, points)
        self.withdraw_alerts(status.table_id)

    async def table_restored(
        self, status: TableStatus, moves: list[TableStatus], last_hand: LastHand | None
    ) -> None:
        """The move lines back on the table message; the 上局 line back on DM hands."""
        self.restore_moves(status, moves)
        if last_hand is not None:
            self.remember_last_hand(status, last_hand)

    async def withdraw_notice(self, table_id: str, channel_id: int, text: Text) -> None:
        record = self._table(table_id, channel_id)
        if text in record.notices:
            kept = [notice for notice in record.notices if notice != text]
            record.notices = deque(kept, maxlen=record.notices.maxlen)
            self._mark_dirty(record)
