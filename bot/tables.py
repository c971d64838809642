"""The table manager: every live table of one bot process, and the one place seating is
decided (create, join, restore, resume settlements after a restart)."""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import secrets
import weakref
from collections.abc import Callable
from typing import Any

from data import Store
from data.store import AlreadySeatedError, ChannelBusyError
from engine.match import Match

from .clock import Clock, FakeClock, SystemClock
from .journal import ActionJournal
from .messages import msg
from .presenter import Presenter, SeatInfo, Text
from .refusals import CHANNEL_BUSY, SessionError, seated_elsewhere
from .scheduling import WakeGrid
from .session import ActionObserver, TableSession
from .settlement import Obligations, settle_hand_points, settlement_entries
from .table_options import AI_LEVELS, TableOptions, TableOptionsError

__all__ = ["TERMINAL_GUILD_ID", "TableManager"]

log = logging.getLogger(__name__)


# The terminal's own little "server" (``mahjong-bot play``): no Discord guild has this
# id (snowflakes are far larger). A bot sharing a database with the terminal leaves its
# games alone: a match the terminal left open is the terminal's to abandon, not a table
# to resume in a channel that does not exist (each request refused, a step toward
# Discord's invalid-request ban).
TERMINAL_GUILD_ID = 1


class TableManager:
    """All live tables of one bot process, indexed by id, channel and seated user."""

    def __init__(
        self,
        store: Store,
        presenter: Presenter,
        clock: Clock | None = None,
        ai_delay: float = 0.0,
        ai_level: str = "normal",
        ai_delay_jitter: float = 0.0,
        journal_commit_interval: float = 0.0,
        hand_break: float | None = None,
    ) -> None:
        """``hand_break``: seconds between a hand's result and the next hand's first
        move at a table with people at it (a human's time starts after it), to read the
        result; by default four AI pauses, so a table run without pauses (tests,
        benchmarks) has none either.

        ``ai_delay_jitter`` (0..1) spreads each AI pause uniformly over
        ``ai_delay × (1 ± jitter)``. Why: with a fixed pause, tables whose actions were
        committed in the same group commit all become due again at the same instant a
        pause later, so with many tables they drift into convoys that arrive together
        (and are served one after the other); a little jitter keeps them spread out, and
        AI opponents that do not move like a metronome look more natural too."""
        if not 0.0 <= ai_delay_jitter <= 1.0:
            raise ValueError("ai_delay_jitter must be within 0..1")
        self.ai_delay_jitter = float(ai_delay_jitter)
        self.store = store
        self.ai_level = ai_level  # for seats filled at start and seats taken over
        self.journal = ActionJournal(store, commit_interval=journal_commit_interval)
        self.presenter = presenter
        self.clock: Clock = clock or SystemClock()
        # Tables' timers share loop timers on a grid where the clock can call back.
        call_at = getattr(self.clock, "call_at", None)
        self.wake_grid: WakeGrid | None = WakeGrid(call_at) if call_at is not None else None
        self.ai_delay = float(ai_delay)
        self.hand_break = 4.0 * self.ai_delay if hand_break is None else float(hand_break)
        self._tables: dict[str, TableSession] = {}
        # table id -> the channel its thread hangs off, for tables that live in a thread
        # (their ``channel_id`` is the thread); commands typed in that channel find them.
        self._parents: dict[str, int] = {}
        # Live tables plus closed ones still finishing their last queue item.
        self._recent: weakref.WeakSet[TableSession] = weakref.WeakSet()
        self.action_observer: ActionObserver | None = None
        self.obligations = Obligations(self.clock)
        # Which guilds' tables are this process's (all, unless the bot runs as several
        # sharded processes): restore and settlement resumption leave the others alone,
        # their own process (or its replacement) resumes them.
        self.owns_guild: Callable[[int], bool] = lambda _guild_id: True
        # Held from "is this channel free / is this user free" to the table or seat being
        # registered (in memory and in the store), so no await can let a second create
        # or join slip in between: the one place seating is decided.
        self._seating = asyncio.Lock()
        if isinstance(self.clock, FakeClock):
            self.clock.add_idle_hook(self.wait_idle)

    def ai_pause(self, rng: random.Random) -> float:
        """How long an AI (or autoplay) seat waits before it acts."""
        if not self.ai_delay_jitter:
            return self.ai_delay
        return self.ai_delay * (1.0 + self.ai_delay_jitter * (2.0 * rng.random() - 1.0))

    @property
    def tables(self) -> list[TableSession]:
        return list(self._tables.values())

    def get(self, table_id: str) -> TableSession | None:
        return self._tables.get(table_id)

    def by_channel(self, channel_id: int) -> TableSession | None:
        for table in self._tables.values():
            if table.channel_id == channel_id and table.status in ("lobby", "running"):
                return table
        return None

    def parent_of(self, table_id: str) -> int | None:
        """The channel a table's thread was started in; None for a table in a channel."""
        return self._parents.get(table_id)

    def tables_under(self, parent_channel_id: int) -> list[TableSession]:
        """Open tables living in threads started from ``parent_channel_id``, oldest first."""
        return [
            table for table in self._tables.values()
            if self._parents.get(table.table_id) == parent_channel_id
            and table.status in ("lobby", "running")
        ]  # fmt: skip

    async def check_create(self, guild_id: int, host_user_id: int) -> None:
        """Refuse a create that would fail for the host's own reasons (seated elsewhere,
        balance too low) before anything is posted for it (a thread opened for a table
        that is then refused would be left behind). ``create_table`` checks again."""
        seated = self.table_of_user(host_user_id)
        if seated is not None:
            raise SessionError(seated_elsewhere(seated.channel_id))
        low = await self.balance_refusal(guild_id, host_user_id)
        if low is not None:
            raise SessionError(low)

    async def balance_refusal(self, guild_id: int, user_id: int) -> Text | None:
        """Why the user may not sit when their balance is below the guild's minimum, with
        both numbers (a player told only "too low" could not tell by how much, nor that
        the minimum was set above what new players start with); None when they may."""
        settings = await self.store.get_settings(guild_id)
        if settings.min_balance is None:
            return None
        balance = await self.store.get_balance(guild_id, user_id)
        if balance >= settings.min_balance:
            return None
        return msg(
            "session.balance_low", balance=f"{balance:,}", minimum=f"{settings.min_balance:,}"
        )

    def table_of_user(self, user_id: int) -> TableSession | None:
        for table in self._tables.values():
            if table.is_member(user_id):
                return table
        return None

    def _forget(self, table: TableSession) -> None:
        self._tables.pop(table.table_id, None)
        self._parents.pop(table.table_id, None)
        table._stopped = True
        if table._timer is not None and not table._timer.done():
            table._timer.cancel()

    def _user_left(self, user_id: int, table: TableSession) -> None:
        """Hook for subclasses/adapters; the seat map already moved on."""

    async def wait_idle(self) -> None:
        """Wait until no table has anything queued (tests; the terminal between prompts)."""
        while True:
            await self.obligations.wait_idle()
            busy = [table for table in list(self._recent) if table.pending]
            if not busy:
                return
            for table in busy:
                await table.wait_idle()
            await asyncio.sleep(0)

    # ------------------------------------------------------------------ creation
    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        host_name: str,
        *,
        variant: str | None = None,
        num_seats: int = 4,
        stake: int = 1,
        options: dict[str, Any] | None = None,
        rounds: int | None = None,
        discard_timeout: float | None = None,
        claim_timeout: float | None = None,
        ai_fill: bool = True,
        seed: int | None = None,
        seat_host: bool = True,
        ai_level: str | None = None,
        parent_channel_id: int | None = None,
        learner_aids: bool = False,
    ) -> TableSession:
        """Open a lobby in ``channel_id``. With ``seat_host=False`` the host runs the
        table without a seat (an all-AI exhibition, the benchmark). A table in its own
        thread passes the thread as ``channel_id`` and the channel the thread was
        started from as ``parent_channel_id``.

        One table per channel (a thread is a channel of its own) and one open seat per
        user: checked and registered under the manager's seating lock, and refused by
        the store's unique indexes too."""
        async with self._seating:
            return await self._create_table(
                guild_id, channel_id, host_user_id, host_name, variant=variant,
                num_seats=num_seats, stake=stake, options=options, rounds=rounds,
                discard_timeout=discard_timeout, claim_timeout=claim_timeout, ai_fill=ai_fill,
                seed=seed, seat_host=seat_host, ai_level=ai_level,
                parent_channel_id=parent_channel_id, learner_aids=learner_aids,
            )  # fmt: skip

    async def _create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        host_name: str,
        *,
        variant: str | None,
        num_seats: int,
        stake: int,
        options: dict[str, Any] | None,
        rounds: int | None,
        discard_timeout: float | None,
        claim_timeout: float | None,
        ai_fill: bool,
        seed: int | None,
        seat_host: bool,
        ai_level: str | None,
        parent_channel_id: int | None,
        learner_aids: bool = False,
    ) -> TableSession:
        settings = await self.store.get_settings(guild_id)
        variant = variant or settings.default_variant
        if self.by_channel(channel_id) is not None:
            raise SessionError(CHANNEL_BUSY)
        seated = self.table_of_user(host_user_id) if seat_host else None
        if seated is not None:
            raise SessionError(seated_elsewhere(seated.channel_id))
        discard = float(
            discard_timeout if discard_timeout is not None else settings.discard_timeout
        )
        claim = float(claim_timeout if claim_timeout is not None else settings.claim_timeout)
        # The server's defaults for this rule set (/mjadmin rules), under the host's choices.
        defaults = await self.store.rule_defaults(guild_id, variant)
        request = TableOptions(
            variant,
            num_seats,
            stake,
            rounds,
            discard,
            claim,
            options={**defaults, **(options or {})},
            ai_level=ai_level,
        )
        try:
            parsed = request.validate().options
        except TableOptionsError as error:
            raise SessionError(error.text) from error
        if settings.max_stake is not None and stake > settings.max_stake:
            raise SessionError(msg("session.stake_above_max", stake=stake, most=settings.max_stake))
        low = await self.balance_refusal(guild_id, host_user_id) if seat_host else None
        if low is not None:
            raise SessionError(low)
        if seed is None:
            seed = secrets.randbelow(2**31)
        table_id = secrets.token_hex(6)
        stored_options = parsed.to_dict()
        place = {} if parent_channel_id is None else {"parent_channel_id": parent_channel_id}
        try:
            await self.store.create_game(
                table_id,
                guild_id,
                channel_id,
                variant,
                stored_options,
                [],
                seed,
                settings={
                    "num_seats": num_seats,
                    "stake": stake,
                    "discard_timeout": discard,
                    "claim_timeout": claim,
                    "ai_fill": ai_fill,
                    "host_user_id": host_user_id,
                    "ai_level": ai_level or self.ai_level,
                    **place,
                    "learner_aids": bool(learner_aids),
                },
                status="lobby",
                seated_user=host_user_id if seat_host else None,
            )
        except ChannelBusyError as error:
            raise SessionError(CHANNEL_BUSY) from error
        except AlreadySeatedError as error:
            seated = self.table_of_user(host_user_id)
            raise SessionError(seated_elsewhere(seated.channel_id if seated else None)) from error
        table = TableSession(
            self,
            table_id,
            guild_id,
            channel_id,
            host_user_id,
            variant=variant,
            options=stored_options,
            num_seats=num_seats,
            stake=stake,
            discard_timeout=discard,
            claim_timeout=claim,
            ai_fill=ai_fill,
            seed=seed,
            ai_level=ai_level,
            learner_aids=learner_aids,
        )
        if seat_host:
            table.players.append(SeatInfo(seat=0, name=host_name, user_id=host_user_id))
        self._tables[table_id] = table
        if parent_channel_id is not None:
            self._parents[table_id] = parent_channel_id
        self._recent.add(table)
        table._ensure_worker()
        await table.presenter.lobby_changed(table.lobby_info())
        table._schedule_timer()
        return table

    # ------------------------------------------------------------------ restart
    async def restore_all(self) -> list[TableSession]:
        """Rebuild every running table of this process's guilds from its action log; their
        lobbies left open are dropped. Other processes' tables are theirs to resume."""
        for record in await self.store.running_games(("lobby",)):
            if self.owns_guild(int(record.guild_id)):
                await self.store.set_game_status(record.game_id, "abandoned")
        restored = []
        for record in await self.store.running_games(("running",)):
            if record.game_id in self._tables or not self.owns_guild(int(record.guild_id)):
                continue
            settings = record.settings
            table = TableSession(
                self,
                record.game_id,
                record.guild_id,
                int(record.channel_id or 0),
                int(record.meta.get("host", settings.get("host_user_id", 0))),
                variant=record.variant,
                options=dict(record.options),
                num_seats=int(settings.get("num_seats", 4)),
                stake=int(settings.get("stake", 1)),
                discard_timeout=float(settings.get("discard_timeout", 30)),
                claim_timeout=float(settings.get("claim_timeout", 10)),
                ai_fill=bool(settings.get("ai_fill", True)),
                seed=int(record.seed),
                ai_level=settings["ai_level"] if settings.get("ai_level") in AI_LEVELS else None,
                learner_aids=bool(settings.get("learner_aids", False)),
            )
            self._tables[table.table_id] = table
            if settings.get("parent_channel_id") is not None:
                self._parents[table.table_id] = int(settings["parent_channel_id"])
            self._recent.add(table)
            try:
                await table._call(functools.partial(table._restore, record))
            except Exception:
                log.exception("could not restore table %s", record.game_id)
                self._tables.pop(table.table_id, None)
                self._parents.pop(table.table_id, None)
                await table.stop()
                continue
            restored.append(table)
        await self.resume_settlements()
        return restored

    async def resume_settlements(self) -> int:
        """Owe again every hand that ended but was never settled, in games already closed
        (finished or abandoned; running ones are settled by their restore). Derived from
        the store alone: the action log and seed rebuild each hand, the ledger says which
        were paid. A game found fully paid is marked so it is not replayed again.
        Returns how many hands are owed."""
        owed = 0
        for record in await self.store.games_to_check_settlement():
            if record.game_id in self._tables or not self.owns_guild(int(record.guild_id)):
                continue
            try:
                owed += await self._resume_game_settlement(record)
            except Exception:
                log.exception("could not check the settlement of game %s", record.game_id)
        return owed

    async def _resume_game_settlement(self, record: Any) -> int:
        settings = record.settings
        num_seats = int(settings.get("num_seats", 4))
        stake = int(settings.get("stake", 1))
        actions = await self.store.load_actions(record.game_id)
        match = Match.replay(
            record.variant, dict(record.options), int(record.seed), actions, seats=num_seats
        )
        seats = [
            SeatInfo(seat=int(s["seat"]), name=str(s.get("name", "")), user_id=s.get("user_id"),
                     is_ai=bool(s.get("is_ai")))
            for s in sorted(record.meta.get("seats", []), key=lambda s: int(s["seat"]))
        ]  # fmt: skip
        paid = await self.store.settled_hands(record.game_id)
        game_id, guild_id = record.game_id, int(record.guild_id)
        owed = 0
        for hand_number, result in enumerate(match.results):
            if hand_number in paid or len(seats) != len(result.deltas):
                continue
            entries, winner_user = settlement_entries(seats, result)
            owed += 1
            log.warning("game %s: hand %d ended but was never settled; settling it",
                        game_id, hand_number)  # fmt: skip
            self.obligations.add(
                game_id,
                f"settle hand {hand_number}",
                functools.partial(
                    settle_hand_points,
                    self.store,
                    guild_id,
                    game_id,
                    hand_number,
                    entries,
                    stake,
                    winner_user,
                    result,
                ),
            )
        self.obligations.add(
            game_id, "mark settlement checked", lambda: self.store.mark_settlement_checked(game_id)
        )
        return owed

    async def shutdown(self) -> None:
        """Stop every timer and worker. Everything that matters is already in the store."""
        await self.obligations.stop()
        for table in list(self._tables.values()):
            await table.stop()
        self._tables.clear()
