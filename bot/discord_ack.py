"""Acknowledging interactions within Discord's 3-second limit, whatever runs downstream."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

ACK_BUDGET = 2.0  # seconds: Discord allows 3 for the first response; keep a margin


class AckGuard:
    """The single place that decides how an interaction is acknowledged.

    Whoever answers first wins; a watchdog defers the interaction if nobody has answered
    ``ACK_BUDGET`` seconds after it arrived (a busy table queue, a slow render), so the
    3-second limit holds whatever happens downstream. The lock makes "check, then
    respond" atomic between the watchdog and the answerer.
    """

    def __init__(self, interaction: discord.Interaction[Any], *, thinking: bool = False,
                 ephemeral: bool = False) -> None:  # fmt: skip
        self.interaction = interaction
        self.received = time.monotonic()
        self.lock = asyncio.Lock()
        self._thinking = thinking
        self._ephemeral = ephemeral
        self._watchdog = asyncio.get_running_loop().create_task(
            self._watch(), name=f"mj-ack-{interaction.id}"
        )
        interaction.extras["ack_guard"] = self

    @classmethod
    def of(
        cls, interaction: discord.Interaction[Any], *, thinking: bool = False,
        ephemeral: bool = False,
    ) -> AckGuard:  # fmt: skip
        """The interaction's guard; a new one (with these options) if it has none yet."""
        guard = interaction.extras.get("ack_guard")
        if isinstance(guard, AckGuard):
            return guard
        return cls(interaction, thinking=thinking, ephemeral=ephemeral)

    def remaining(self) -> float:
        return max(0.0, ACK_BUDGET - (time.monotonic() - self.received))

    async def _watch(self) -> None:
        await asyncio.sleep(self.remaining())
        with contextlib.suppress(discord.HTTPException):
            await self.defer()

    async def defer(self) -> None:
        async with self.lock:
            if not self.interaction.response.is_done():
                if self._thinking:
                    await self.interaction.response.defer(ephemeral=self._ephemeral, thinking=True)
                else:
                    await self.interaction.response.defer()

    def done(self) -> None:
        self._watchdog.cancel()


async def edit_clicked(
    interaction: discord.Interaction[Any], content: str, view: discord.ui.View | None
) -> None:
    """Replace the message whose component was pressed (an ephemeral one too), through
    the interaction's own response, or its original response once the watchdog deferred
    it, under the guard's lock."""
    guard = AckGuard.of(interaction)
    async with guard.lock:
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, view=view)
        else:
            await interaction.response.edit_message(content=content, view=view)
    guard.done()
