"""Rematch: the same players, rules and stake again, with a new seed.

The first of a finished match's players to press Rematch opens a new table in the same
channel with the old match's settings (read from the store, so the button works after a
restart too) and sits at it; the seats of the other human players are held for them
(``LobbyMixin.held_seats``). Each of them confirms by pressing Rematch too, and the
match starts as soon as every human has confirmed; AI seats are filled as before. If
not everyone confirms within ``CONFIRM_SECONDS``, the hold ends: the free seats are open
to anyone, and the host starts the table as any other lobby (or it closes when idle).

No discord.py here: the bot's button handler calls ``Rematches.request`` and shows the
answer; the table's announcements go through its presenter as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from data import GameRecord

from .messages import msg
from .presenter import Text
from .refusals import SessionError

if TYPE_CHECKING:
    from .session import TableSession
    from .tables import TableManager

__all__ = ["CONFIRM_SECONDS", "Rematches", "human_players"]

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 120.0


def human_players(game: GameRecord) -> list[int]:
    """The human players of a started match, by seat."""
    seats = sorted(game.meta.get("seats") or [], key=lambda record: record.get("seat", 0))
    return [
        int(record["user_id"])
        for record in seats
        if record.get("user_id") is not None and not record.get("is_ai")
    ]


@dataclass
class _Pending:
    table: TableSession
    humans: frozenset[int]
    confirmed: set[int] = field(default_factory=set)
    timer: asyncio.Task[None] | None = None
    notice: Text | None = None  # the "asked for a rematch" line on the new table


class Rematches:
    """Rematches being confirmed, by the finished game they repeat."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self._pending: dict[str, _Pending] = {}
        self._lock = asyncio.Lock()

    def pending_table(self, game_id: str) -> TableSession | None:
        pending = self._pending.get(game_id)
        return pending.table if pending is not None else None

    async def request(self, game: GameRecord, user_id: int, name: str) -> Text:
        """``user_id`` pressed Rematch under ``game``'s result: open, confirm or refuse.
        Returns what to tell that user."""
        if game.status != "finished":
            raise SessionError(msg("rematch.gone"))
        humans = human_players(game)
        if user_id not in humans:
            raise SessionError(msg("rematch.not_player"))
        async with self._lock:
            pending = self._pending.get(game.game_id)
            if pending is None:
                return await self._open(game, frozenset(humans), user_id, name)
            table = pending.table
            if table.status != "lobby":
                raise SessionError(msg("rematch.gone"))
            if user_id in pending.confirmed:
                return msg("rematch.already")
            if not table.is_member(user_id):  # sat down with the lobby's Join already
                result = await table.join(user_id, name)
                if not result.ok:
                    raise SessionError(result.message or msg("rematch.gone"))
            pending.confirmed.add(user_id)
            await self._start_if_confirmed(game.game_id, pending)
            return msg("rematch.confirmed")

    async def _open(
        self, game: GameRecord, humans: frozenset[int], user_id: int, name: str
    ) -> Text:
        settings = game.settings
        if game.channel_id is None:
            raise SessionError(msg("rematch.gone"))
        table = await self.manager.create_table(
            game.guild_id,
            game.channel_id,
            user_id,
            name,
            variant=game.variant,
            num_seats=int(settings.get("num_seats") or 4),
            stake=int(settings.get("stake") or 1),
            options=dict(game.options),
            discard_timeout=_number(settings.get("discard_timeout")),
            claim_timeout=_number(settings.get("claim_timeout")),
            ai_fill=True,  # the old match's AI seats come back
            ai_level=settings.get("ai_level"),
            learner_aids=bool(settings.get("learner_aids", False)),
            parent_channel_id=_whole(settings.get("parent_channel_id")),
        )
        humans_in_order = [user for user in human_players(game) if user in humans]
        pending = _Pending(table, humans, {user_id})
        self._pending[game.game_id] = pending
        table.held_seats = humans
        if await self._start_if_confirmed(game.game_id, pending):
            return msg("rematch.confirmed")
        seconds = int(CONFIRM_SECONDS)
        pending.notice = msg("rematch.opened", name=name, seconds=seconds)
        await table.presenter.notice(table.table_id, table.channel_id, pending.notice)
        # A new message, as the lobby line is an edit (which notifies nobody): it pings
        # the players whose seats are held and has the button they confirm with.
        call = getattr(table.presenter, "rematch_call", None)
        if call is not None:
            waiting = [user for user in humans_in_order if user != user_id]
            await call(
                table.table_id,
                table.channel_id,
                game.game_id,
                msg("rematch.call", name=name, seconds=seconds),
                waiting,
            )
        pending.timer = asyncio.get_running_loop().create_task(
            self._expire(game.game_id, pending, self.manager.clock.now() + CONFIRM_SECONDS),
            name=f"mj-rematch-{table.table_id}",
        )
        return msg("rematch.asked", seconds=int(CONFIRM_SECONDS))

    async def _start_if_confirmed(self, game_id: str, pending: _Pending) -> bool:
        if not pending.humans <= pending.confirmed:
            return False
        table = pending.table
        table.held_seats = frozenset()
        if pending.timer is not None:
            pending.timer.cancel()
        withdraw = getattr(table.presenter, "withdraw_notice", None)
        if pending.notice is not None and withdraw is not None:
            await withdraw(table.table_id, table.channel_id, pending.notice)  # it is settled
        result = await table.start(table.host_user_id)
        if not result.ok:
            log.warning("rematch table %s did not start: %s", table.table_id, result.message)
            return True
        started = getattr(table.presenter, "rematch_started", None)
        if started is not None:
            await started(table.table_id, table.channel_id)
        return True

    async def _expire(self, game_id: str, pending: _Pending, deadline: float) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await self.manager.clock.sleep_until(deadline)
            async with self._lock:
                table = pending.table
                if table.status != "lobby" or pending.humans <= pending.confirmed:
                    return
                table.held_seats = frozenset()
                await table.presenter.notice(
                    table.table_id, table.channel_id, msg("rematch.timeout")
                )

    async def shutdown(self) -> None:
        for pending in self._pending.values():
            if pending.timer is not None:
                pending.timer.cancel()


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
