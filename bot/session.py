"""Table sessions: the lobby, the match hand by hand, timers, autoplay, AI seats, persistence.

One ``TableSession`` per table owns the seats, the engine ``Match`` and the timers, and
funnels everything that can change the table (a click, a typed command, a timeout, an AI
move, a join or a leave) through ONE asyncio queue consumed by one worker task, so two
submissions can never race: the second one sees the state the first one left.

Durability comes before announcement: an accepted action is appended to the store, then
applied, then presented. A hand that ends is settled through the ledger (idempotently, so
a replay after a crash may safely settle it again) before its result is shown. On start,
``TableManager.restore_all`` rebuilds every running table by replaying its action log.

This module never imports discord.py; players are reached only through a ``Presenter``.
Time comes from an injectable ``Clock`` (``bot.clock``) so tests drive timers with
``FakeClock.advance`` and never sleep. This module holds the play (moves, autoplay,
leaving mid-match, settling, announcing); ``TableSession``'s bases hold the lobby
(``bot.lobby``), the restore after a restart (``bot.restore``) and the worker queue,
timer and due seats' moves (``bot.scheduling``). Beside it: the manager (``bot.tables``),
deadlines (``bot.deadlines``), the journal (``bot.journal``), settlement retries
(``bot.settlement``) and refusals (``bot.refusals``); names imported from here are re-exported.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from data import Store
from engine.aids import learner_aids
from engine.match import Match
from engine.round import IllegalAction
from engine.types import Action, HandResult
from engine.variants import get_rules
from engine.views import PlayerView, PublicView

from .aids import aids_text
from .clock import Clock, FakeClock, SystemClock
from .deadlines import (
    AUTOPLAY_AFTER_TIMEOUTS,
    UNATTENDED_HANDS,
    UNATTENDED_SECONDS,
    UNATTENDED_WARNING_HANDS,
    UNATTENDED_WARNING_SECONDS,
    Due,
)
from .journal import ActionJournal
from .lobby import LOBBY_IDLE_SECONDS, LobbyMixin
from .messages import msg
from .presenter import (
    AUTO_PASS_MODES,
    PlayerToggles,
    Presenter,
    PrivatePrompt,
    SeatInfo,
    TableStatus,
    Text,
)
from .prompt_notes import santan_note, wild_kept_note
from .refusals import (
    ALREADY_SEATED,
    CHANNEL_BUSY,
    CLOSED,
    FAILED,
    HOST_ONLY,
    NOT_LOBBY,
    NOT_RUNNING,
    NOT_SEATED,
    NOT_YOUR_TURN,
    OK,
    SEATED_ELSEWHERE,
    SETTLING,
    STALE,
    TABLE_FULL,
    SessionError,
    SubmitResult,
    illegal,
    refuse,
)
from .restore import RestoreMixin, public_events
from .runtime import tune_runtime
from .scheduling import SchedulingMixin, WorkQueue, _Wake, choose_ai_action
from .settlement import Obligations, settle_hand_points, settlement_entries
from .table_options import AI_LEVELS, TableOptions, TableOptionsError

if TYPE_CHECKING:
    from .tables import TableManager

log = logging.getLogger(__name__)


def _prompt_kind(phase: str) -> str:
    return {"turn": "turn", "claim": "claim", "rob_kong": "rob_kong", "santan": "santan"}.get(
        phase, "idle"
    )


ActionObserver = Callable[[str, float, float], None]


# ---------------------------------------------------------------------------- the table


class TableSession(LobbyMixin, RestoreMixin, SchedulingMixin):
    """One table: its seats, its match and its moves; the lobby, the restore after a
    restart and the worker, timer and deadlines are its bases."""

    def __init__(
        self,
        manager: TableManager,
        table_id: str,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        *,
        variant: str,
        options: dict[str, Any],
        num_seats: int,
        stake: int,
        discard_timeout: float,
        claim_timeout: float,
        ai_fill: bool,
        seed: int,
        ai_level: str | None = None,
        learner_aids: bool = False,
    ) -> None:
        self.manager = manager
        # Learner aids (``/table create learner_aids``): waits, previews and a discard hint
        # in each human's own hand message only.
        self.learner_aids = learner_aids
        # The table's AI level (``/table create ai_level``): AI seats and autoplay use it.
        self.ai_level = ai_level or manager.ai_level
        self.table_id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.host_user_id = host_user_id
        self.variant = variant
        self.options = options
        self.num_seats = num_seats
        self.stake = stake
        self.discard_timeout = discard_timeout
        self.claim_timeout = claim_timeout
        self.ai_fill = ai_fill
        self.seed = seed
        self.status = "lobby"
        self.match: Match | None = None
        self.players: list[SeatInfo] = []  # lobby, join order
        self._seats: list[SeatInfo] = []  # running, by seat
        self._due: dict[int, Due] = {}
        self._dues_turn: int | None = None
        self._timeouts: dict[int, int] = {}
        self._attended_at: float | None = None  # a player's last own act (scheduling)
        self._attended_hand = 0
        self._unattended_warned = False  # the channel was told the table closes soon
        self._settling: int | None = None  # the hand whose failed settlement play waits for
        self._points: list[int] = []
        self._lobby_deadline = manager.clock.now() + LOBBY_IDLE_SECONDS
        self._ai_names = itertools.count(1)
        self._queue = WorkQueue()
        self._worker: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | _Wake | None = None
        self._timer_at: float | None = None
        self._stopped = False
        self.pending = 0  # queued or in-progress items
        # The public view of the position (turn id, hand number, finished) it was built for.
        self._public_cache: PublicView | None = None
        self._public_for: Match | None = None
        self._public_turn = -1
        self._prompted_for: tuple[tuple[SeatInfo, ...], bool] | None = None
        self._label_cache: tuple[tuple[str, int, int], Text] | None = None
        # Draws the AI seats' pauses when the manager asks for jitter (seeded: replayable).
        self._pause_rng = random.Random(f"{seed}:pause")
        self._paced_from: float | None = None  # when the last accepted action was due
        # Until when the next hand waits after a result (``TableManager.hand_break``).
        self._break_until = 0.0
        # The name of who asked for the match to end once the hand in play is paid
        # (``end``), kept should they leave before it is.
        self._end_after_hand: str | None = None
        # Each seated human's shortcuts (auto-pass, auto-win, tsumogiri), read from
        # ``user_prefs`` once; "auto-pass this hand" remembers the hand it was set in.
        self._toggles: dict[int, PlayerToggles] = {}
        self._pass_hand: dict[int, int] = {}
        self._toggles_loaded = False

    # ------------------------------------------------------------------ properties
    @property
    def store(self) -> Store:
        return self.manager.store

    @property
    def presenter(self) -> Presenter:
        return self.manager.presenter

    @property
    def clock(self) -> Clock:
        return self.manager.clock

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(self._seats) if self._seats else tuple(self.players)

    def seat_of(self, user_id: int) -> int | None:
        for info in self._seats:
            if info.user_id == user_id and not info.is_ai:
                return info.seat
        return None

    def is_member(self, user_id: int) -> bool:
        if self.status == "lobby":
            return any(p.user_id == user_id for p in self.players)
        if self.status == "running":
            return self.seat_of(user_id) is not None
        return False

    @property
    def humans(self) -> list[int]:
        people = self._seats if self._seats else self.players
        return [p.user_id for p in people if p.user_id is not None and not p.is_ai]

    def _hand_label(self, public: PublicView) -> Text:
        """The hand's name ("East round, hand 3") for the table message: built once per
        hand, since every action's status carries it."""
        key = (public.variant, public.hand_number, public.prevailing_wind)
        cached = self._label_cache
        if cached is None or cached[0] != key:
            cached = self._label_cache = (key, self._new_hand_label(public))
        return cached[1]

    def _new_hand_label(self, public: PublicView) -> Text:
        number = public.hand_number + 1
        if not get_rules(public.variant).has_prevailing_wind:  # no 风圈 to name
            return msg("session.hand", number=number)
        zh_wind = "东南西北"[(public.prevailing_wind - 27) % 4]
        en_wind = ("East", "South", "West", "North")[(public.prevailing_wind - 27) % 4]
        return msg("session.round_hand", wind_zh=zh_wind, wind_en=en_wind, number=number)

    def _status_from(
        self,
        public: PublicView,
        *,
        events: tuple[dict[str, Any], ...] = (),
        last_action: Action | None = None,
    ) -> TableStatus:
        acting = tuple(public.waiting_on) if public.phase != "ended" else ()
        return TableStatus(
            table_id=self.table_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            seats=tuple(self._seats),
            public=public,
            deadline=self.deadline,
            acting=acting,
            stake=self.stake,
            hand_label=self._hand_label(public),
            events=events,
            last_action=last_action,
        )

    def _public(self) -> PublicView:
        """The match's public view, built once per accepted action (announcing it and
        every AI decision until the next action share it)."""
        match = self.match
        assert match is not None
        # Every change to a match is an accepted action (``turn_id`` counts them), which
        # is also the only way its hand number or its end changes; a match replaced
        # (a restart's replay) is another match.
        view = self._public_cache
        turn_id = match.turn_id
        if view is None or self._public_for is not match or self._public_turn != turn_id:
            view = self._public_cache = match.public_view()
            self._public_for = match
            self._public_turn = turn_id
        return view

    def table_status(self) -> TableStatus | None:
        if self.match is None:
            return None
        return self._status_from(self._public())

    @property
    def deadline(self) -> float | None:
        """The earliest deadline of a human seat that must act now (absolute UNIX time).
        A loop, not ``min`` of a list: every move's status asks."""
        deadline = None
        for due in self._due.values():
            if not due.ai and (deadline is None or due.at < deadline):
                deadline = due.at
        return deadline

    def _ai_controlled(self, seat: int) -> bool:
        info = self._seats[seat]
        return info.is_ai or info.autoplay

    def prompt_for(self, user_id: int) -> PrivatePrompt | None:
        seat = self.seat_of(user_id)
        if seat is None or self.match is None or self.status != "running":
            return None
        return self._prompt(seat)

    def _prompt(self, seat: int) -> PrivatePrompt:
        assert self.match is not None
        view = self.match.round.player_view(seat, public=self._public())
        waiting = seat in self.match.round.waiting_on and not self.match.finished
        kind = _prompt_kind(self.match.round.phase) if waiting else "idle"
        due = self._due.get(seat)
        user_id = self._seats[seat].user_id
        return PrivatePrompt(
            table_id=self.table_id,
            user_id=user_id if user_id is not None else 0,
            seat=seat,
            view=view,
            kind=kind,
            deadline=due.at if (due is not None and not due.ai and waiting) else None,
            turn_id=self.match.turn_id,
            variant=self.variant,
            aids=self._aids(seat, view) if self.learner_aids and user_id is not None else None,
            autoplay=self._seats[seat].autoplay,
            toggles=self.toggles_of(user_id) if user_id is not None else PlayerToggles(),
            note=self._prompt_note(seat, kind),
        )

    def _prompt_note(self, seat: int, kind: str) -> Text | None:
        assert self.match is not None
        round_ = self.match.round
        if kind == "santan":
            return santan_note(round_, self._seats)
        info = self._seats[seat]
        if kind == "turn" and info.user_id is not None and not info.autoplay:
            drawn = round_.drawn[seat]
            if (
                drawn is not None
                and drawn == round_.wild
                and self.toggles_of(info.user_id).tsumogiri
            ):
                # _auto_action keeps a drawn wild for the player: say so, or the turn
                # just waits and the timeout throws it.
                rules = get_rules(self.variant)
                return wild_kept_note(rules.wild_name_zh, rules.wild_name_en.lower())
        return None

    # ------------------------------------------------------------------ shortcuts
    def toggles_of(self, user_id: int) -> PlayerToggles:
        """A player's shortcuts as they hold now ("this hand" expires with the hand)."""
        toggles = self._toggles.get(user_id, PlayerToggles())
        if toggles.auto_pass == "hand":
            current = self.match.hand_number if self.match is not None else None
            if self._pass_hand.get(user_id) != current:
                toggles = replace(toggles, auto_pass="off")
        return toggles

    async def _load_toggles(self) -> None:
        """Read every seated human's saved shortcuts (once per table and process); a
        store that cannot answer leaves them off rather than stopping the table."""
        if self._toggles_loaded:
            return
        self._toggles_loaded = True
        for info in self._seats:
            if info.is_ai or info.user_id is None or info.user_id in self._toggles:
                continue
            try:
                prefs = await self.store.get_user_prefs(info.user_id)
            except Exception:
                log.warning("could not read the shortcuts of user %s", info.user_id, exc_info=True)
                continue
            self._toggles[info.user_id] = toggles_from_prefs(prefs)
        self._refresh_dues()

    async def set_toggle(self, user_id: int, name: str, value: str | bool) -> SubmitResult:
        """Turn one shortcut on or off (a button on the hand): saved per user, and played
        at once if it answers what the seat is being asked now."""

        async def body() -> SubmitResult:
            seat = self.seat_of(user_id)
            if seat is None or self.status != "running" or self.match is None:
                return refuse(NOT_SEATED)
            await self._load_toggles()
            self._attended(self.clock.now())
            current = self.toggles_of(user_id)
            if name == "auto_pass" and value in AUTO_PASS_MODES:
                toggles = replace(current, auto_pass=str(value))
                if value == "hand":
                    self._pass_hand[user_id] = self.match.hand_number
                stored: object = "always" if value == "always" else None
            elif name in ("auto_win", "tsumogiri") and isinstance(value, bool):
                if name == "auto_win":
                    toggles = replace(current, auto_win=value)
                else:
                    toggles = replace(current, tsumogiri=value)
                stored = value or None
            else:
                return refuse(msg("error.bad_value", reason=f"{name}={value}"[:40]))
            self._toggles[user_id] = toggles
            try:
                await self.store.set_user_pref(user_id, name, stored)
            except Exception:  # still on for this table; only the memory of it is lost
                log.warning("could not save shortcut %s of user %s", name, user_id,
                            exc_info=True)  # fmt: skip
            self._refresh_dues()
            await self._send_prompts({seat})
            return OK

        return await self._call(body)

    def _not_your_turn(self) -> Text:
        """Why a move is refused when the table waits for someone else: whose turn it is,
        or that others are still deciding on a claim (who, it does not say)."""
        assert self.match is not None
        current = self.match.round.current_seat
        if self.match.round.phase == "turn" and current is not None:
            return msg("session.not_your_turn_whose", name=self._seats[current].name)
        return NOT_YOUR_TURN

    def _auto_action(self, seat: int) -> Action | None:
        """What a human seat's shortcuts play now without asking, or None to ask them.
        A win is never passed: it is offered unless auto-win takes it; a drawn wild is
        never discarded by auto-discard."""
        info = self._seats[seat]
        match = self.match
        if info.is_ai or info.user_id is None or match is None:
            return None
        toggles = self.toggles_of(info.user_id)
        if not toggles.any_on:
            return None
        legal = match.legal_actions(seat)
        win = next((action for action in legal if action.type == "win"), None)
        if win is not None:
            return win if toggles.auto_win else None
        phase = match.round.phase
        if phase in ("claim", "rob_kong") and toggles.auto_pass != "off":
            return next((action for action in legal if action.type == "pass"), None)
        if phase == "turn" and toggles.tsumogiri:
            drawn = match.round.drawn[seat]
            # A drawn wild (百搭, 财神) is the best tile of the wall: never thrown for the
            # player unasked; they are asked as without the shortcut.
            if drawn is not None and drawn != match.round.wild:
                discard = Action("discard", seat, tile=drawn)
                if discard in legal:
                    return discard
        return None

    def _aids(self, seat: int, view: PlayerView) -> Text | None:
        """The seat's learner aids as text (only ever put in its own hand message)."""
        assert self.match is not None
        if self.match.finished or self.match.round.phase == "ended":
            return None
        aids = learner_aids(self.match.round, seat, view)
        return aids_text(aids, self.stake) if aids.waits or aids.hint else None

    def default_action(self, user_id: int) -> Action | None:
        """What a timeout would play for this user now (the terminal's bare Enter)."""
        seat = self.seat_of(user_id)
        if seat is None or self.match is None or self.match.finished:
            return None
        return self.match.round.default_action(seat)

    async def _close_unattended(self) -> None:
        """Close a table nobody has played at for ``UNATTENDED_SECONDS`` or through
        ``UNATTENDED_HANDS`` hands, as ``/table end`` would: finished hands stay settled,
        the hand in progress is not."""
        minutes = round(UNATTENDED_SECONDS / 60)
        text = msg("session.unattended", minutes=minutes, hands=UNATTENDED_HANDS)
        await self.presenter.notice(self.table_id, self.channel_id, text)
        await self._close("closed")

    def _unattended_warning(self) -> Text:
        return msg(
            "session.unattended_soon",
            minutes=round(UNATTENDED_WARNING_SECONDS / 60),
            hands=UNATTENDED_WARNING_HANDS,
        )

    async def _warn_unattended(self, *, on: bool) -> None:
        """Tell the channel the table closes soon unless someone plays (``on``), or take
        that line back once someone has."""
        self._unattended_warned = on
        if on:
            await self.presenter.notice(self.table_id, self.channel_id, self._unattended_warning())
            return
        await self._withdraw_notice(self._unattended_warning())

    async def _withdraw_notice(self, text: Text) -> None:
        """Take a stale line off the table message (a presenter without notices to
        withdraw, as the terminal's, has nothing to do)."""
        withdraw = getattr(self.presenter, "withdraw_notice", None)
        if withdraw is not None:
            await withdraw(self.table_id, self.channel_id, text)

    async def end(
        self,
        by_user_id: int,
        is_admin: bool = False,
        *,
        max_penalty: int | None = None,
        after_hand: bool = False,
    ) -> SubmitResult:
        """Close the table. A seated player who ends a hand in play walks away from it
        like a player who leaves, and takes it from everyone else: they pay the leave
        penalty (at most ``max_penalty`` points, None: whatever it costs; else refused
        with the price to confirm), or ask with ``after_hand`` for the match to end
        once this hand is paid, free. A manager who is not seated ends it free: that is
        moderation, not an escape from a losing hand."""

        async def body() -> SubmitResult:
            if self.status not in ("lobby", "running"):
                return refuse(CLOSED)
            if by_user_id != self.host_user_id and not is_admin:
                host = next(
                    (p.name for p in self._seats or self.players if p.user_id == self.host_user_id),
                    "?",
                )
                return refuse(msg("session.end_not_allowed", name=host))
            if self.seated_in_play(by_user_id):
                seat = self.seat_of(by_user_id)
                assert seat is not None
                return await self._end_seated(by_user_id, seat, max_penalty, after_hand)
            await self._close_unsettled(by_user_id)
            return OK

        return await self._call(body)

    async def abandon(self) -> SubmitResult:
        """Close for a reason no player chose (the table's channel deleted, the bot
        removed from the server, the terminal's input ended): nobody pays, the hand in
        play is not settled."""

        async def body() -> SubmitResult:
            if self.status not in ("lobby", "running"):
                return refuse(CLOSED)
            await self._close_unsettled(None)
            return OK

        return await self._call(body)

    def seated_in_play(self, user_id: int) -> bool:
        """Whether ``user_id`` sits at a hand already under way: ending it from that seat
        is walking out of it, which has a price."""
        seat = self.seat_of(user_id) if self.status == "running" else None
        return seat is not None and self.match is not None and bool(self.match.round.actions)

    async def end_by_manager(self, by_user_id: int, name: str) -> SubmitResult:
        """A server manager ends the table from anywhere (``/mjadmin end``): free for
        everyone, the hand in play unsettled, the channel told who ended it. A manager
        seated at a hand in play is refused: from their own seat that would be a free
        escape from a losing hand (``end`` charges them the walk-out penalty)."""

        async def body() -> SubmitResult:
            if self.status not in ("lobby", "running"):
                return refuse(CLOSED)
            if self.seated_in_play(by_user_id):
                return refuse(msg("session.manager_seated"))
            key = "session.manager_ended" if self.match else "session.manager_closed_lobby"
            await self._close_unsettled(by_user_id, msg(key, name=name))
            return OK

        return await self._call(body)

    async def _close_unsettled(self, ended_by: int | None, notice: Text | None = None) -> None:
        """Close now, free, the hand in play unsettled; who ended it (if a player or
        manager did) is kept on the game's record: an admin's first question."""
        # A lobby has no hand to leave unsettled: it is simply closed.
        ended = notice or msg("session.ended_unsettled" if self.match else "session.lobby_closed")
        await self.presenter.notice(self.table_id, self.channel_id, ended)
        if ended_by is not None:
            await self._record_ended_by(ended_by)
        await self._close("closed")

    async def _end_seated(
        self, user_id: int, seat: int, max_penalty: int | None, after_hand: bool
    ) -> SubmitResult:
        name = self._seats[seat].name
        if after_hand:
            if self._end_after_hand is None:
                self._end_after_hand = name
                await self.store.update_game_meta(self.table_id, end_after_hand=name)
                text = msg("session.end_after_hand", name=name)
                await self.presenter.notice(self.table_id, self.channel_id, text)
            return SubmitResult(True, msg("table.end_after_hand"))
        charged = await self._walk_out(user_id, max_penalty, "end")
        if isinstance(charged, SubmitResult):
            return charged
        points, _shared = charged
        text = msg("session.ended_penalty", name=name, points=points)
        await self.presenter.notice(self.table_id, self.channel_id, text)
        await self._record_ended_by(user_id)
        await self._close("closed")
        return SubmitResult(True, msg("table.ended_penalty", points=points))

    async def _record_ended_by(self, user_id: int) -> None:
        try:
            await self.store.update_game_meta(self.table_id, ended_by=user_id)
        except Exception:  # the table closes anyway; only the note is lost
            log.warning("table %s: could not record who ended it", self.table_id, exc_info=True)

    async def _close(self, status: str) -> None:
        """Lobby timeout, everyone gone, or ended by the host: the table stops for good."""
        self.status = status
        self._due.clear()
        self.manager._forget(self)
        if status != "finished":
            await self._set_final_status("abandoned")
            if self.match is not None:  # each DM hand stops offering moves
                await self._close_hands(self.humans, msg("session.hands_closed"))
        await self._announce_lobby()

    async def _close_hands(self, user_ids: list[int], text: Text) -> None:
        """Tell these players' private hands the table is over for them (a presenter
        without private hand messages, as the terminal's, has nothing to do)."""
        close = getattr(self.presenter, "close_hands", None)
        if close is not None:
            await close(self.table_id, user_ids, text)

    def _seat_records(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": info.seat,
                "name": info.name,
                "user_id": info.user_id,
                "is_ai": info.is_ai,
                "ai_level": info.ai_level,
            }
            for info in self._seats
        ]

    # ------------------------------------------------------------------ play
    async def submit(
        self, user_id: int, action: Action | dict[str, Any], turn_id: int | None = None
    ) -> SubmitResult:
        """Play ``action`` for the user's seat, if it is still the turn it was made for."""
        received = self.clock.now()

        async def body() -> SubmitResult:
            return await self._submit(user_id, action, turn_id, received)

        return await self._call(body)

    async def _submit(
        self,
        user_id: int,
        raw: Action | dict[str, Any],
        turn_id: int | None,
        received: float,
    ) -> SubmitResult:
        if self.status != "running" or self.match is None:
            return refuse(NOT_RUNNING)
        seat = self.seat_of(user_id)
        if seat is None:
            return refuse(NOT_SEATED)
        if self._settling is not None:
            return refuse(SETTLING)
        try:
            action = self._normalise(raw, seat)
        except (ValueError, KeyError, TypeError) as error:
            return refuse(msg("session.unreadable_action", error=error))
        current = self.match.turn_id
        if turn_id is not None:
            due = self._due.get(seat)
            stage_start = due.since_turn if due is not None else current
            if turn_id > current or turn_id < stage_start:
                return refuse(STALE)
        if seat not in self.match.round.waiting_on:
            return refuse(self._not_your_turn())
        if action not in self.match.legal_actions(seat):
            return refuse(illegal(action, self.match.round.concealed_tiles(seat)))
        self._timeouts[seat] = 0
        self._attended(received)
        if self._seats[seat].autoplay:
            await self._set_autoplay(seat, False)
        turn = self.match.turn_id
        try:
            await self._accept(action, received)
        except Exception:
            log.exception("table %s: could not play %s for %s", self.table_id, action, user_id)
            if self.match.turn_id != turn:
                return OK  # stored and applied; only announcing failed
            await self.presenter.error(user_id, FAILED)
            return refuse(FAILED)
        return OK

    @staticmethod
    def _normalise(raw: Action | dict[str, Any], seat: int) -> Action:
        if isinstance(raw, Action):
            action = replace(raw, seat=seat)
        else:
            action = Action.from_json({**raw, "seat": seat})
        if action.tiles is not None:
            action = replace(action, tiles=tuple(sorted(action.tiles)))
        return action

    async def back(self, user_id: int) -> SubmitResult:
        """Leave autoplay (托管) and play again yourself."""

        async def body() -> SubmitResult:
            seat = self.seat_of(user_id)
            if seat is None or self.status != "running":
                return refuse(NOT_SEATED)
            self._timeouts[seat] = 0
            self._attended(self.clock.now())
            if not self._seats[seat].autoplay:
                return refuse(msg("session.not_on_autoplay"))
            await self._set_autoplay(seat, False)
            await self._send_prompts({seat})
            return OK

        return await self._call(body)

    async def autoplay(self, user_id: int) -> SubmitResult:
        """Ask the AI to play your seat (托管) until you act or come back."""

        async def body() -> SubmitResult:
            seat = self.seat_of(user_id)
            if seat is None or self.status != "running":
                return refuse(NOT_SEATED)
            self._attended(self.clock.now())
            if not self._seats[seat].autoplay:
                await self._set_autoplay(seat, True)
            return OK

        return await self._call(body)

    async def _set_autoplay(self, seat: int, on: bool) -> None:
        info = self._seats[seat]
        self._seats[seat] = replace(info, autoplay=on)
        self._due.pop(seat, None)
        self._dues_turn = None  # walk the seats again at the next tick
        on_text = msg("session.autoplay_on", name=info.name)
        if self.match is not None and self.status == "running":
            # The table message's "I'm back" button follows who is on autoplay.
            await self._announce_table(self._public())
        if on:
            await self.presenter.notice(self.table_id, self.channel_id, on_text)
            if info.user_id is not None and self.match is not None:  # the hand says so, with "Back"
                await self.presenter.private_hand(
                    replace(self._prompt(seat), kind="idle", deadline=None)
                )
            return
        await self._withdraw_notice(on_text)  # the "on autoplay" line is stale now
        text = msg("session.autoplay_off", name=info.name)
        await self.presenter.notice(self.table_id, self.channel_id, text)

    def leave_penalty(self, user_id: int) -> int:
        """The points ``user_id`` would pay for leaving now (0 outside a running match):
        what they are asked to confirm before it is charged."""
        seat = self.seat_of(user_id) if self.status == "running" else None
        if seat is None or self.match is None:
            return 0
        return self.match.round.flee_penalty(seat) * self.stake

    async def _walk_out(
        self, user_id: int, max_penalty: int | None, reason: str
    ) -> tuple[int, bool] | SubmitResult:
        """Charge ``user_id`` for walking out of the hand in play (``reason``: "leave" or
        "end"), shared by the other seated players: the points and whether anyone
        received them; or, above ``max_penalty``, the question with the price to confirm
        (``table.<reason>_confirm``), nothing charged."""
        assert self.match is not None
        points = self.leave_penalty(user_id)
        others = [p.user_id for p in self._seats if p.user_id is not None and p.user_id != user_id]
        if max_penalty is not None and points > max_penalty:
            key = f"table.{reason}_confirm" if others else f"table.{reason}_confirm_forfeit"
            return SubmitResult(False, msg(key, points=points), confirm=points)
        if points > 0:
            await self.store.record_penalty(
                self.guild_id,
                self.table_id,
                user_id,
                points,
                reason=reason,
                beneficiaries=others,
                key=f"{self.table_id}:{reason}:{user_id}:{self.match.turn_id}",
                hand_number=self.match.hand_number,
            )
        return points, bool(others)

    async def _leave_running(self, user_id: int, max_penalty: int | None) -> SubmitResult:
        assert self.match is not None
        seat = self.seat_of(user_id)
        if seat is None:
            return refuse(NOT_SEATED)
        info = self._seats[seat]
        charged = await self._walk_out(user_id, max_penalty, "leave")
        if isinstance(charged, SubmitResult):
            return charged
        points, shared = charged
        await self._close_hands([user_id], msg("session.hand_left", points=points))
        replacement = self._new_ai(seat)
        self._seats[seat] = replace(replacement, name=f"{replacement.name} ({info.name})")
        self._due.pop(seat, None)
        self._dues_turn = None  # walk the seats again at the next tick
        self._timeouts.pop(seat, None)
        meta = await self.store.update_game_meta(self.table_id, seats=self._seat_records())
        # Who left, under the name they played with: the seat records now name the AI,
        # and the standings give the leaver's hands a line of their own.
        left = [*meta.get("left", []), {"seat": seat, "user_id": user_id, "name": info.name}]
        await self.store.update_game_meta(self.table_id, left=left)
        await self.store.unseat_user(self.table_id, user_id)
        await self.presenter.notice(
            self.table_id,
            self.channel_id,
            msg("session.left_penalty", name=info.name, points=points),
        )
        self.manager._user_left(user_id, self)
        if not self.humans:
            await self._close("closed")
        else:
            if user_id == self.host_user_id:  # someone must still be able to end it
                self.host_user_id = self.humans[0]
                await self.store.update_game_meta(self.table_id, host=self.host_user_id)
            await self._announce_table(self._public())
        if points == 0:
            return SubmitResult(True, msg("table.left"))
        key = "table.left_penalty" if shared else "table.left_penalty_forfeit"
        return SubmitResult(True, msg(key, points=points))

    # ------------------------------------------------------------------ the core
    async def _accept(self, action: Action, due_at: float) -> None:
        """Store, apply, settle, announce: in that order, so nothing is shown that a
        crash could take back."""
        match = self.match
        assert match is not None
        seq = match.turn_id
        hand_number = match.hand_number
        await self.manager.journal.append_action(self.table_id, seq, action, hand_number)
        self._paced_from = due_at  # only for the dues this action creates
        try:
            await self._apply_stored(action, due_at, hand_number)
        finally:
            self._paced_from = None

    async def _apply_stored(self, action: Action, due_at: float, hand_number: int) -> None:
        match = self.match
        assert match is not None
        old_round = match.round
        # Let go of the last public view before the move: if nobody else holds it, its
        # seats were never read and are never built (``engine.round``'s unbuilt seats).
        self._public_cache = None
        try:
            events = match.apply(action)
        except IllegalAction:  # validated above; a mismatch is a bug worth shouting about
            log.exception(
                "table %s: stored action %s was refused by the engine", self.table_id, action
            )
            raise
        if old_round.is_over:
            result = old_round.result
            assert result is not None
            ended_public = replace(
                old_round.public_view(), turn_id=match.turn_id, round_index=match.wind_rounds_done
            )
            self._due.clear()
            ended_status = self._status_from(
                ended_public, events=public_events(events), last_action=action
            )
            try:
                points = await self._settle(hand_number, result)
            except Exception:
                log.warning(
                    "table %s: hand %d could not be settled now; it will be retried",
                    self.table_id, hand_number, exc_info=True,
                )  # fmt: skip
                await self._owe_settlement(hand_number, result, ended_status, due_at)
                return
            await self._after_hand(ended_status, result, points, due_at)
            return
        if not self._prompted_seats():  # every seat an AI: nobody to prompt
            self._refresh_dues()
            await self.presenter.table_changed(
                self._status_from(self._public(), events=public_events(events), last_action=action)
            )
            self._observe(due_at)
            return
        before = dict(self._due)
        self._refresh_dues()
        fresh = {
            seat
            for seat, due in self._due.items()
            if before.get(seat) is None or before[seat].signature != due.signature
        }
        if not self._seats[action.seat].is_ai:
            fresh.add(action.seat)
        await self._announce_table(self._public(), events=public_events(events), last_action=action)
        await self._send_prompts(fresh)
        self._observe(due_at)

    def _prompted_seats(self) -> bool:
        """Whether some seat is a person's, whom ``_send_prompts`` would show a hand.
        Why ask: at a table of AIs only, which seats' stages are new after a move
        (compared over a copy of every deadline) is worked out for nobody."""
        seats = tuple(self._seats)
        known = self._prompted_for
        # The seats as they were when last asked: equal tuples compare by identity
        # first, so an unchanged table reads none of its seats again.
        if known is not None and known[0] == seats:
            return known[1]
        prompted = any(not info.is_ai and info.user_id is not None for info in seats)
        self._prompted_for = (seats, prompted)
        return prompted

    def _observe(self, due_at: float) -> None:
        observer = self.manager.action_observer
        if observer is not None:
            observer(self.table_id, due_at, self.clock.now())

    async def _settle(self, hand_number: int, result: HandResult) -> list[int]:
        """Pay out one ended hand (idempotent: a retry of a committed one changes nothing)
        and return the points each seat actually moved (after the guild's caps)."""
        entries, winner_user = settlement_entries(self._seats, result)
        return await settle_hand_points(
            self.store, self.guild_id, self.table_id, hand_number, entries, self.stake,
            winner_user, result,
        )  # fmt: skip

    def _owe_hand(
        self,
        hand_number: int,
        result: HandResult,
        on_paid: Callable[[list[int]], Awaitable[None]],
        *,
        failed_once: bool,
    ) -> None:
        """Owe one hand's settlement to the obligation queue (retried until it commits).
        The seats' users are read now, when the hand is owed, not at each retry."""
        entries, winner_user = settlement_entries(self._seats, result)
        self.manager.obligations.add(
            self.table_id,
            f"settle hand {hand_number}",
            functools.partial(
                settle_hand_points,
                self.store,
                self.guild_id,
                self.table_id,
                hand_number,
                entries,
                self.stake,
                winner_user,
                result,
            ),
            on_paid,
            failed_once=failed_once,
        )

    async def _after_hand(
        self, ended_status: TableStatus, result: HandResult, points: list[int], due_at: float
    ) -> None:
        """The hand is paid: show its result, then the match result or the next hand."""
        match = self.match
        assert match is not None
        for seat, value in enumerate(points):
            self._points[seat] += value
        await self.presenter.hand_result(ended_status, result, points)
        if match.finished or self._end_after_hand is not None:
            if not match.finished:  # ended early, as a seated player asked (``end``)
                text = msg("session.ended_after_hand", name=self._end_after_hand)
                await self.presenter.notice(self.table_id, self.channel_id, text)
            await self.presenter.match_result(ended_status, list(match.scores), list(self._points))
            await self._finish()
            self._observe(due_at)
            return
        if self.humans:  # a moment to read the result before the next hand moves
            self._break_until = self.clock.now() + self.manager.hand_break
        self._refresh_dues()
        await self._announce_table(self._public())
        await self._send_prompts(set(range(self.num_seats)))
        self._observe(due_at)

    async def _owe_settlement(
        self, hand_number: int, result: HandResult, ended_status: TableStatus, due_at: float
    ) -> None:
        """The settlement write failed: owe it to the obligation queue, which retries until
        it succeeds. Mid-match the table waits (no timers, no moves) so nobody plays on
        before the last hand is paid; after the last hand the match is over at once, so
        its players are free to sit elsewhere while the payment is retried."""
        match = self.match
        assert match is not None
        finished = match.finished
        self._settling = hand_number
        await self.presenter.notice(
            self.table_id,
            self.channel_id,
            msg("session.settle_retrying"),
        )

        async def settled(points: list[int]) -> None:
            if finished:
                for seat, value in enumerate(points):
                    self._points[seat] += value
                await self.presenter.hand_result(ended_status, result, points)
                await self.presenter.match_result(
                    ended_status, list(match.scores), list(self._points)
                )
                return

            async def resume() -> SubmitResult:
                if self._settling != hand_number:
                    return OK
                self._settling = None
                if self.status != "running":  # ended by the host meanwhile: paid, not shown
                    return OK
                await self._after_hand(ended_status, result, points, due_at)
                return OK

            await self._call(resume)

        self._owe_hand(hand_number, result, settled, failed_once=True)
        if finished:
            await self._finish()

    async def _finish(self) -> None:
        self.status = "finished"
        self._due.clear()
        self.manager._forget(self)
        # Lines about the match in play are stale once it is over: "bob is now on
        # autoplay" stayed under 整场结束 (and so did a closing-soon warning).
        for info in self._seats:
            if info.autoplay:
                await self._withdraw_notice(msg("session.autoplay_on", name=info.name))
        await self._withdraw_notice(self._unattended_warning())
        await self._set_final_status("finished")
        await self._announce_lobby()

    async def _set_final_status(self, status: str) -> None:
        """Record 'finished' or 'abandoned' (which also frees the seats in the store);
        if the store fails, it is owed like a settlement, after the table's hands."""
        if not self.manager.obligations.pending_for(self.table_id):
            try:
                await self.store.set_game_status(self.table_id, status)
                return
            except Exception:
                log.warning("table %s: could not record status %s", self.table_id, status,
                            exc_info=True)  # fmt: skip
        self.manager.obligations.add(
            self.table_id,
            f"record status {status}",
            lambda: self.store.set_game_status(self.table_id, status),
            failed_once=True,
        )

    # ------------------------------------------------------------------ announcing
    async def _announce_table(
        self,
        public: PublicView,
        *,
        events: tuple[dict[str, Any], ...] = (),
        last_action: Action | None = None,
    ) -> None:
        await self.presenter.table_changed(
            self._status_from(public, events=events, last_action=last_action)
        )

    async def _send_prompts(self, seats: set[int]) -> None:
        if self.match is None or self.status != "running":
            return
        await self._load_toggles()
        for seat in sorted(seats):
            info = self._seats[seat]
            if info.is_ai or info.user_id is None:
                continue
            prompt = self._prompt(seat)
            due = self._due.get(seat)
            if prompt.kind != "idle" and info.autoplay:
                # Played by the AI: the hand is shown (saying so, with "Back"), not asked.
                prompt = replace(prompt, kind="idle", deadline=None)
            elif prompt.kind != "idle" and due is not None and due.ai:
                # Answered by the player's own shortcut: no prompt reaches them, and the
                # hand they see changes when it is played.
                continue
            await self.presenter.private_hand(prompt)


def toggles_from_prefs(prefs: dict[str, Any]) -> PlayerToggles:
    """A player's saved shortcuts ("this hand" is never saved: it ends with the hand)."""
    return PlayerToggles(
        auto_pass="always" if prefs.get("auto_pass") == "always" else "off",
        auto_win=prefs.get("auto_win") is True,
        tsumogiri=prefs.get("tsumogiri") is True,
    )


def __getattr__(name: str) -> Any:
    """``bot.session.TableManager`` still works: the manager lives in ``bot.tables``,
    which imports this module, so it is looked up on first use instead of at import."""
    if name == "TableManager":
        from .tables import TableManager

        return TableManager
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AI_LEVELS",
    "ALREADY_SEATED",
    "AUTOPLAY_AFTER_TIMEOUTS",
    "CHANNEL_BUSY",
    "CLOSED",
    "FAILED",
    "HOST_ONLY",
    "LOBBY_IDLE_SECONDS",
    "NOT_LOBBY",
    "NOT_RUNNING",
    "NOT_SEATED",
    "NOT_YOUR_TURN",
    "OK",
    "SEATED_ELSEWHERE",
    "SETTLING",
    "STALE",
    "TABLE_FULL",
    "ActionJournal",
    "Clock",
    "FakeClock",
    "Obligations",
    "SessionError",
    "SubmitResult",
    "SystemClock",
    "TableManager",
    "TableOptions",
    "TableOptionsError",
    "TableSession",
    "choose_ai_action",
    "settle_hand_points",
    "settlement_entries",
    "tune_runtime",
]
