"""A table brought back after a restart: rebuilt by replaying its action log, its ended
hands settled again (idempotently), and any it cannot pay yet owed until the store heals.

``RestoreMixin`` is one of ``TableSession``'s bases (``bot.session``);
``TableManager.restore_all`` calls ``_restore`` inside the table's worker. The attributes
and methods it borrows from the session are declared below so mypy checks their use.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.match import Match
from engine.types import Action, HandResult

from .messages import msg
from .presenter import LastHand, SeatInfo
from .refusals import OK, SubmitResult

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from data import Store
    from engine.views import PublicView

    from .presenter import Presenter, TableStatus
    from .tables import TableManager

log = logging.getLogger(__name__)


def public_events(events: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """An action's events as everyone may see them (without a seat's private ones)."""
    for event in events:
        if "private" in event:
            return tuple([event for event in events if "private" not in event])
    return tuple(events)


def replay_with_moves(
    variant: str, options: dict[str, Any], seed: int, actions: list[Any], seats: int
) -> tuple[Match, list[tuple[int, tuple[dict[str, Any], ...], Action]]]:
    """``Match.replay``, keeping the current hand's moves as they were played: (turn id
    after the move, its public events, the action), oldest first, for the lines the table
    message showed before the restart."""
    match = Match(variant, options, seed, seats=seats)
    moves: list[tuple[int, tuple[dict[str, Any], ...], Action]] = []
    for stored in actions:
        action = stored if isinstance(stored, Action) else Action.from_json(stored)
        hand = match.round
        events = match.apply(action)
        if hand.is_over:
            moves = []  # the hand's last move: the next hand starts with none
        else:
            moves.append((match.turn_id, public_events(events), action))
    return match, moves


class RestoreMixin:
    """Replay, re-settle and resume a running table after a restart."""

    manager: TableManager
    table_id: str
    guild_id: int
    channel_id: int
    variant: str
    options: dict[str, Any]
    num_seats: int
    stake: int
    seed: int
    status: str
    match: Match | None
    players: list[SeatInfo]
    _seats: list[SeatInfo]
    _points: list[int]
    _settling: int | None
    _break_until: float
    _end_after_hand: str | None

    if TYPE_CHECKING:

        @property
        def store(self) -> Store: ...
        @property
        def presenter(self) -> Presenter: ...
        async def _call(self, body: Callable[[], Awaitable[Any]]) -> Any: ...
        async def _settle(self, hand_number: int, result: HandResult) -> list[int]: ...
        def _owe_hand(
            self,
            hand_number: int,
            result: HandResult,
            on_paid: Callable[[list[int]], Awaitable[None]],
            *,
            failed_once: bool,
        ) -> None: ...
        async def _finish(self) -> None: ...
        def _status_from(
            self,
            public: PublicView,
            *,
            events: tuple[dict[str, Any], ...] = (),
            last_action: Action | None = None,
        ) -> TableStatus: ...
        def _public(self) -> PublicView: ...
        def _refresh_dues(self) -> None: ...
        async def _announce_table(
            self,
            public: PublicView,
            *,
            events: tuple[dict[str, Any], ...] = (),
            last_action: Action | None = None,
        ) -> None: ...
        async def _send_prompts(self, seats: set[int]) -> None: ...
        @property
        def humans(self) -> list[int]: ...

    async def _restore(self, record: Any) -> None:
        meta = record.meta
        self._seats = [
            SeatInfo(
                seat=int(s["seat"]),
                name=str(s["name"]),
                user_id=s.get("user_id"),
                is_ai=bool(s.get("is_ai")),
                ai_level=str(s.get("ai_level", "normal")),
            )
            for s in sorted(meta["seats"], key=lambda s: int(s["seat"]))
        ]
        self.players = list(self._seats)
        actions = await self.store.load_actions(self.table_id)
        self.match, hand_moves = replay_with_moves(
            self.variant, self.options, self.seed, actions, self.num_seats
        )
        self._points = [0] * self.num_seats
        self.status = "running"
        self._end_after_hand = meta.get("end_after_hand")
        results = list(self.match.results)
        points: list[int] = []
        for hand_number, result in enumerate(results):
            try:
                points = await self._settle(hand_number, result)
            except Exception:
                log.warning("table %s: hand %d could not be settled at restore; retrying",
                            self.table_id, hand_number, exc_info=True)  # fmt: skip
                self._owe_from(hand_number, results)
                break
            for seat, value in enumerate(points):
                self._points[seat] += value
        if self.match.finished or self._ended_early():
            if self._settling is None:
                status = self._status_from(self._public())
                await self.presenter.match_result(
                    status, list(self.match.scores), list(self._points)
                )
            await self._finish()
            return
        await self.presenter.notice(
            self.table_id,
            self.channel_id,
            msg("session.restarted"),
        )
        if self._settling is not None:
            return  # resumed once the owed hands are paid
        # What the presenter kept in memory and the restart lost, rebuilt from the log:
        # the hand's move lines on the table message, the 上局 line of the DM hands.
        public = self._public()
        moves = [
            self._status_from(replace(public, turn_id=turn_id), events=events, last_action=action)
            for turn_id, events, action in hand_moves
        ]
        last_hand = None
        if results:
            last_hand = LastHand(len(results) - 1, results[-1], list(points))
        await self.presenter.table_restored(self._status_from(public), moves, last_hand)
        self._pause_if_between_hands()
        self._refresh_dues()
        await self._announce_table(self._public())
        await self._send_prompts(set(range(self.num_seats)))

    def _between_hands(self) -> bool:
        """A hand was paid and nobody has moved in the next one yet."""
        match = self.match
        assert match is not None
        return bool(match.results) and not match.round.actions

    def _ended_early(self) -> bool:
        """A seated player asked for the match to end after a hand (``end``) and that
        hand was paid before the restart: the match is over, short of its rounds."""
        return self._end_after_hand is not None and self._between_hands()

    def _pause_if_between_hands(self) -> None:
        """A table stopped in the pause after a result comes back with the pause again
        (``TableManager.hand_break``): its players have just been told it restarted,
        and an AI dealer would otherwise open the next hand before they have found it."""
        if self.humans and self._between_hands():
            self._break_until = self.manager.clock.now() + self.manager.hand_break

    def _owe_from(self, first: int, results: list[HandResult]) -> None:
        """Restore found hands ``first``.. unpaid and the store failing: owe them all, in
        order; the table waits (or, if the match is over, closes) until they are paid."""
        assert self.match is not None
        last = len(results) - 1
        finished = self.match.finished or self._ended_early()
        self._settling = last

        for hand_number in range(first, last + 1):
            result = results[hand_number]

            async def paid(points: list[int], hand_number: int = hand_number) -> None:
                for seat, value in enumerate(points):
                    self._points[seat] += value
                if hand_number != last:
                    return
                if finished:
                    assert self.match is not None
                    status = self._status_from(self._public())
                    await self.presenter.match_result(
                        status, list(self.match.scores), list(self._points)
                    )
                    return
                await self._call(self._resume_after_restore)

            self._owe_hand(hand_number, result, paid, failed_once=hand_number == first)

    async def _resume_after_restore(self) -> SubmitResult:
        self._settling = None
        if self.status != "running":
            return OK
        self._pause_if_between_hands()
        self._refresh_dues()
        await self._announce_table(self._public())
        await self._send_prompts(set(range(self.num_seats)))
        return OK
