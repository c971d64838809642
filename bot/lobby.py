"""The lobby half of a table: joining, leaving, AI seats, the host's start, and closing a
lobby nobody touches for ``LOBBY_IDLE_SECONDS``.

``LobbyMixin`` is one of ``TableSession``'s bases (``bot.session``); it is split out so
the session module holds the play and nothing else. Everything here runs inside the
table's one worker (``self._call``), like every other change to a table. The attributes
and methods it borrows from the session are declared below so mypy checks their use.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from data.store import AlreadySeatedError
from engine.match import Match, assign_seats

from .messages import msg
from .presenter import LobbyInfo, SeatInfo
from .refusals import (
    ALREADY_SEATED,
    CLOSED,
    HOST_ONLY,
    NOT_LOBBY,
    NOT_SEATED,
    OK,
    TABLE_FULL,
    SubmitResult,
    refuse,
    seated_elsewhere,
)
from .table_options import AI_LEVELS

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from data import Store
    from engine.types import Action
    from engine.views import PublicView

    from .clock import Clock
    from .presenter import Presenter
    from .tables import TableManager

LOBBY_IDLE_SECONDS = 600.0


class LobbyMixin:
    """Join, leave, add or remove an AI, remove a player, start; and the idle lobby's
    close."""

    manager: TableManager
    ai_level: str
    table_id: str
    guild_id: int
    channel_id: int
    host_user_id: int
    variant: str
    options: dict[str, Any]
    num_seats: int
    stake: int
    discard_timeout: float
    claim_timeout: float
    ai_fill: bool
    seed: int
    status: str
    match: Match | None
    players: list[SeatInfo]
    _seats: list[SeatInfo]
    _points: list[int]
    _lobby_deadline: float
    _ai_names: itertools.count[int]

    if TYPE_CHECKING:

        @property
        def store(self) -> Store: ...
        @property
        def presenter(self) -> Presenter: ...
        @property
        def clock(self) -> Clock: ...
        async def _call(self, body: Callable[[], Awaitable[Any]]) -> Any: ...
        async def _close(self, status: str) -> None: ...
        async def _leave_running(self, user_id: int, max_penalty: int | None) -> SubmitResult: ...
        def _seat_records(self) -> list[dict[str, Any]]: ...
        def _refresh_dues(self) -> None: ...
        def _public(self) -> PublicView: ...
        def _attended(self, now: float) -> None: ...
        async def _announce_table(
            self,
            public: PublicView,
            *,
            events: tuple[dict[str, Any], ...] = (),
            last_action: Action | None = None,
        ) -> None: ...
        async def _send_prompts(self, seats: set[int]) -> None: ...

    # The last match's players a rematch holds the table for, until they confirm or its
    # time runs out (then anyone may join).
    held_seats: frozenset[int] = frozenset()
    # Who the host removed from this lobby: they may not sit down at it again, or a
    # removal could be undone by the next click on Join.
    removed_users: frozenset[int] = frozenset()

    def lobby_info(self) -> LobbyInfo:
        return LobbyInfo(
            table_id=self.table_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_user_id=self.host_user_id,
            variant=self.variant,
            options=dict(self.options),
            num_seats=self.num_seats,
            stake=self.stake,
            players=tuple(self.players),
            status=self.status,
            discard_timeout=self.discard_timeout,
            claim_timeout=self.claim_timeout,
            ai_fill=self.ai_fill,
        )

    def _touch_lobby(self) -> None:
        self._lobby_deadline = self.clock.now() + LOBBY_IDLE_SECONDS

    async def _announce_lobby(self) -> None:
        await self.presenter.lobby_changed(self.lobby_info())

    async def join(self, user_id: int, name: str) -> SubmitResult:
        async def body() -> SubmitResult:
            if self.status != "lobby":
                return refuse(NOT_LOBBY)
            if any(p.user_id == user_id for p in self.players):
                return refuse(ALREADY_SEATED)
            async with self.manager._seating:
                other = self.manager.table_of_user(user_id)
                if other is not None and other is not self:
                    return refuse(seated_elsewhere(other.channel_id))
                if len(self.players) >= self.num_seats:
                    return refuse(TABLE_FULL)
                # A rematch holds the table for the last match's players (bot.rematch).
                if self.held_seats and user_id not in self.held_seats:
                    return refuse(msg("rematch.held"))
                if user_id in self.removed_users:
                    return refuse(msg("session.removed_here"))
                low = await self.manager.balance_refusal(self.guild_id, user_id)
                if low is not None:
                    return refuse(low)
                if len(self.players) >= self.num_seats or self.status != "lobby":
                    return refuse(TABLE_FULL)
                try:
                    await self.store.seat_user(self.table_id, user_id)
                except AlreadySeatedError:  # seated by another process meanwhile
                    seated = self.manager.table_of_user(user_id)
                    return refuse(seated_elsewhere(seated.channel_id if seated else None))
                self.players.append(SeatInfo(seat=len(self.players), name=name, user_id=user_id))
            self._touch_lobby()
            await self._announce_lobby()
            return OK

        return await self._call(body)

    def _renumber_lobby(self) -> None:
        self.players = [replace(p, seat=index) for index, p in enumerate(self.players)]

    async def leave(self, user_id: int, *, max_penalty: int | None = None) -> SubmitResult:
        """Leave the lobby, or the running match with its penalty: at most
        ``max_penalty`` points (None: whatever it costs), else refused with the price to
        confirm. Decided in the table's queue, so what was confirmed is what is charged
        (a match starting, or 三摊 raising the price, in between is asked again)."""

        async def body() -> SubmitResult:
            if self.status == "lobby":
                if not any(p.user_id == user_id for p in self.players):
                    return refuse(NOT_SEATED)
                await self.store.unseat_user(self.table_id, user_id)
                self.players = [p for p in self.players if p.user_id != user_id]
                self._renumber_lobby()
                self._touch_lobby()
                humans = [p for p in self.players if not p.is_ai]
                if not humans:
                    await self._close("closed")
                    return OK
                if user_id == self.host_user_id:
                    assert humans[0].user_id is not None
                    self.host_user_id = humans[0].user_id
                    await self.store.update_game_meta(self.table_id, host=self.host_user_id)
                await self._announce_lobby()
                return OK
            if self.status == "running":
                return await self._leave_running(user_id, max_penalty)
            return refuse(CLOSED)

        return await self._call(body)

    async def add_ai(self, by_user_id: int, level: str | None = None) -> SubmitResult:
        async def body() -> SubmitResult:
            if self.status != "lobby":
                return refuse(NOT_LOBBY)
            if by_user_id != self.host_user_id:
                return refuse(HOST_ONLY)
            chosen = level or self.ai_level
            if chosen not in AI_LEVELS:
                return refuse(
                    msg("session.unknown_ai_level", level=chosen, levels=", ".join(AI_LEVELS))
                )
            if len(self.players) >= self.num_seats:
                return refuse(TABLE_FULL)
            self.players.append(self._new_ai(len(self.players), chosen))
            self._touch_lobby()
            await self._announce_lobby()
            return OK

        return await self._call(body)

    def _new_ai(self, seat: int, level: str | None = None) -> SeatInfo:
        level = level or self.ai_level
        return SeatInfo(
            seat=seat, name=f"AI {next(self._ai_names)}", user_id=None, is_ai=True, ai_level=level
        )

    async def remove_ai(self, by_user_id: int) -> SubmitResult:
        async def body() -> SubmitResult:
            if self.status != "lobby":
                return refuse(NOT_LOBBY)
            if by_user_id != self.host_user_id:
                return refuse(HOST_ONLY)
            ai_indexes = [i for i, p in enumerate(self.players) if p.is_ai]
            if not ai_indexes:
                return refuse(msg("session.no_ai"))
            del self.players[ai_indexes[-1]]
            self._renumber_lobby()
            self._touch_lobby()
            await self._announce_lobby()
            return OK

        return await self._call(body)

    async def remove_player(self, by_user_id: int, user_id: int) -> SubmitResult:
        """The host takes a player out of the lobby (someone who joined and walked away
        would otherwise be dealt in and played by autoplay). Only before the start: a
        player leaves a running match themselves, and pays for it."""

        async def body() -> SubmitResult:
            if self.status != "lobby":
                return refuse(NOT_LOBBY)
            if by_user_id != self.host_user_id:
                return refuse(HOST_ONLY)
            if user_id == by_user_id:
                return refuse(msg("session.remove_self"))
            seated = next((p for p in self.players if p.user_id == user_id), None)
            if seated is None:
                return refuse(msg("session.not_at_table"))
            await self.store.unseat_user(self.table_id, user_id)
            self.players = [p for p in self.players if p.user_id != user_id]
            self.removed_users = self.removed_users | {user_id}
            self._renumber_lobby()
            self._touch_lobby()
            await self._announce_lobby()
            await self.presenter.notice(
                self.table_id, self.channel_id, msg("session.removed", name=seated.name)
            )
            return OK

        return await self._call(body)

    async def set_options(self, by_user_id: int, options: dict[str, Any]) -> SubmitResult:
        """The host's "more rules" step: replace the lobby's rule options (already checked
        by ``TableOptions.validate``), in memory and in the stored game, before the start."""

        async def body() -> SubmitResult:
            if self.status != "lobby":
                return refuse(NOT_LOBBY)
            if by_user_id != self.host_user_id:
                return refuse(HOST_ONLY)
            if not await self.store.set_lobby_options(self.table_id, dict(options)):
                return refuse(NOT_LOBBY)
            self.options = dict(options)
            self._touch_lobby()
            return OK

        return await self._call(body)

    async def start(self, by_user_id: int) -> SubmitResult:
        async def body() -> SubmitResult:
            if self.status != "lobby":
                return refuse(NOT_LOBBY)
            if by_user_id != self.host_user_id:
                return refuse(HOST_ONLY)
            players = list(self.players)
            missing = self.num_seats - len(players)
            if missing and not self.ai_fill:
                return refuse(msg("session.missing_players", missing=missing))
            players += [self._new_ai(len(players) + i) for i in range(missing)]
            ordered = assign_seats(self.seed, players)
            self._seats = [replace(p, seat=seat) for seat, p in enumerate(ordered)]
            self.match = Match(self.variant, self.options, self.seed, seats=self.num_seats)
            self._points = [0] * self.num_seats
            self.status = "running"
            self._attended(self.clock.now())  # the host's Start is the first act
            await self.store.update_game_meta(
                self.table_id, seats=self._seat_records(), host=self.host_user_id
            )
            await self.store.set_game_status(self.table_id, "running")
            await self._announce_lobby()
            self._refresh_dues()
            await self._announce_table(self._public())
            await self._send_prompts(set(range(self.num_seats)))
            return OK

        return await self._call(body)

    async def _lobby_tick(self) -> None:
        """A timer fired in the lobby: close it if nobody touched it in time."""
        if self.clock.now() >= self._lobby_deadline:
            await self.presenter.notice(
                self.table_id,
                self.channel_id,
                msg("session.lobby_idle"),
            )
            await self._close("closed")
