"""The Discord presenter: how a table session reaches players on Discord.

Request budget is the design constraint (Discord rate limits, and a phone should not
buzz on every tile), so:

- **One table message per table**, edited in place (lobby, then the table image and a
  status line), and edits are coalesced: at most one per channel every ``min_interval``
  seconds; the newest state wins, intermediate ones are never sent.
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
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_retry import retry_discord
from bot.discord_views import hand_view, lobby_view, prompt_headline, table_view
from bot.i18n import MESSAGES, msg, public, say
from bot.lines import changes_text, move_line, rule_set_name
from bot.presenter import LobbyInfo, PrivatePrompt, TableStatus, Text
from engine.tiles import format_tiles, kind_str, name_zh
from engine.types import HandResult
from engine.variants import RULE_SETS
from engine.views import PlayerView, PublicView

if TYPE_CHECKING:
    from data import Store

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
INTERACTION_TOKEN_LIFETIME = 14 * 60.0  # Discord allows 15 minutes; keep a margin
NO_MENTIONS = discord.AllowedMentions.none()


def variant_names(variant: str) -> tuple[str, str]:
    """(Chinese, short English) name of a rule set; an unknown name is shown as is."""

    rules = RULE_SETS.get(variant)
    if rules is None:
        return variant, variant
    return rules.name_zh, rules.short_name_en or rules.name_en


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


class Renderer:
    """The images, as PNG bytes. Tests substitute a cheap one that tags its output."""

    def hand(self, view: PlayerView, names: Sequence[str], locale: str) -> bytes:
        from render.images import render_hand

        return render_hand(view, names=names, locale=locale)

    def table(self, view: PublicView, names: Sequence[str], locale: str) -> bytes:
        from render.images import render_table

        return render_table(view, names=names, locale=locale)

    def result(
        self, view: PublicView, result: HandResult, names: Sequence[str], locale: str
    ) -> bytes:
        from render.images import render_result

        return render_result(view, result, names=names, locale=locale)

    def leaderboard(self, rows: Sequence[Any], period: str, subtitle: str, locale: str) -> bytes:
        from render.images import render_leaderboard

        return render_leaderboard(rows, period=period, subtitle=subtitle, locale=locale)


class _Clock:
    """Wall-clock fallback when no session clock is given."""

    def now(self) -> float:
        import time

        return time.time()

    async def sleep_until(self, when: float) -> None:
        delay = when - self.now()
        if delay > 0:
            await asyncio.sleep(delay)


@dataclass
class _TableMessage:
    table_id: str
    channel_id: int
    message_id: int | None = None
    lobby: LobbyInfo | None = None
    status: TableStatus | None = None
    notices: deque[Text] = field(default_factory=lambda: deque(maxlen=3))
    dirty: bool = False
    final: bool = False
    loaded: bool = False
    last_line: str = ""  # the last move worth showing (a pass is not)
    sent: tuple[Any, ...] | None = None  # what the message shows now, to skip no-op edits
    version: int = 0  # bumped by every change: a retried edit stops once it is outdated


@dataclass
class _HandMessage:
    hand_number: int
    channel_id: int
    message_id: int
    signature: tuple[Any, ...] | None = None


@dataclass
class _HandJob:
    prompt: PrivatePrompt
    click: discord.Interaction[Any] | None = None


@dataclass
class _LiveEphemeral:
    interaction: discord.Interaction[Any]
    since: float
    signature: tuple[Any, ...] | None = None


def hand_signature(prompt: PrivatePrompt) -> tuple[Any, ...]:
    """What the player sees: equal signatures mean an edit would change nothing."""
    view = prompt.view
    actionable = prompt.kind != "idle"
    return (
        prompt.table_id,
        view.public.hand_number,
        view.concealed,
        view.drawn,
        view.melds,
        prompt.kind,
        tuple(a.describe() for a in view.legal) if actionable else (),
        prompt.turn_id if actionable else None,
    )


def seat_names(status: TableStatus | None, count: int = 4) -> list[str]:
    if status is None:
        return [f"#{i + 1}" for i in range(count)]
    return [info.name for info in status.seats]


def _file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def _is_dm_closed(error: discord.HTTPException) -> bool:
    return error.status == 403 and error.code == DM_CLOSED_CODE


class DiscordPresenter:
    """``bot.presenter.Presenter`` for Discord. ``bot`` is the running ``MahjongBot``."""

    def __init__(
        self,
        bot: discord.Client,
        store: Store,
        *,
        clock: Any = None,
        renderer: Renderer | None = None,
        min_interval: float = 1.5,
        locale: str = "zh",
    ) -> None:
        self.bot = bot
        self.store = store
        self.clock = clock or _Clock()
        self.renderer = renderer or Renderer()
        self.min_interval = min_interval
        self.locale = locale
        self._tables: dict[str, _TableMessage] = {}
        self._hands: dict[tuple[str, int], _HandMessage] = {}
        self._hands_loading: dict[str, asyncio.Future[None]] = {}
        self._clicks: dict[int, discord.Interaction[Any]] = {}
        self._jobs: dict[int, _HandJob] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._prefs: dict[int, dict[str, Any]] = {}
        self._dm_channels: dict[int, int] = {}
        self._live: dict[int, _LiveEphemeral] = {}
        self._dm_notice_sent: set[tuple[str, int]] = set()
        self._last_flush: dict[int, float] = {}
        self._flush_scheduled: set[int] = set()
        self._work: set[asyncio.Task[Any]] = set()
        self._parked: set[asyncio.Task[Any]] = set()  # work sleeping out a retry backoff
        self._work_changed = asyncio.Event()
        self._timers: set[asyncio.Task[Any]] = set()
        self._posts: dict[str, asyncio.Task[Any]] = {}
        self._taken: set[int] = set()  # ids of clicks the presenter answers itself
        self._notes: dict[int, str] = {}  # a message for a user, shown with their next hand

    # ------------------------------------------------------------------ plumbing

    def _spawn(self, coro: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        """Background work the harness (and shutdown) can wait for."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(
            coro,  # type: ignore[arg-type]
            name=f"mj-work-{name}",
        )
        self._work.add(task)
        task.add_done_callback(self._work.discard)
        task.add_done_callback(lambda _task: self._work_changed.set())
        task.add_done_callback(_log_failure)
        return task

    async def wait_idle(self) -> None:
        """Wait until every background task is done or parked in a retry's backoff (which
        only the clock ends: waiting for it here would stall a fake clock's advance)."""
        while True:
            busy = [task for task in self._work if task not in self._parked]
            if not busy:
                return
            self._work_changed.clear()
            changed = asyncio.ensure_future(self._work_changed.wait())
            await asyncio.wait([*busy, changed], return_when=asyncio.FIRST_COMPLETED)
            changed.cancel()

    async def _backoff(self, seconds: float) -> None:
        """Sleep out a Discord retry's backoff on the session clock, parked: not counted
        as work in progress (its name says so too, for the test harness) until it wakes."""
        async with self._parked_while():
            await self.clock.sleep_until(self.clock.now() + seconds)

    @contextlib.asynccontextmanager
    async def _parked_while(self) -> AsyncIterator[None]:
        """Mark the current task parked (not work in progress) for the block."""
        task = asyncio.current_task()
        assert task is not None
        name = task.get_name()
        self._parked.add(task)
        task.set_name(name.replace("mj-work-", "mj-parked-", 1))
        self._work_changed.set()
        try:
            yield
        finally:
            self._parked.discard(task)
            task.set_name(name)

    async def close(self) -> None:
        """Send what is still queued (the last table edits), then stop the timers."""
        for channel_id in list(self._flush_scheduled):
            self._spawn(self._flush_channel(channel_id), f"flush-{channel_id}")
        await self.wait_idle()
        for timer in [*self._timers, *self._parked]:  # a retry in backoff is given up
            timer.cancel()

    async def _render(self, function: Callable[..., bytes], *args: Any) -> bytes:
        return await asyncio.to_thread(function, *args)

    # ------------------------------------------------------------------ user preferences

    async def prefs(self, user_id: int) -> dict[str, Any]:
        cached = self._prefs.get(user_id)
        if cached is None:
            try:
                cached = await self.store.get_user_prefs(user_id)
            except Exception:
                log.exception("could not read prefs of user %s", user_id)
                cached = {}
            self._prefs[user_id] = cached
        return cached

    async def set_pref(self, user_id: int, key: str, value: Any) -> None:
        prefs = await self.prefs(user_id)
        if value is None:
            prefs.pop(key, None)
        else:
            prefs[key] = value
        await self.store.set_user_pref(user_id, key, value)

    async def uses_dm(self, user_id: int) -> bool:
        prefs = await self.prefs(user_id)
        return not prefs.get("dms_closed") and prefs.get("hand_delivery", "dm") == "dm"

    async def set_delivery(self, user_id: int, dm: bool) -> None:
        """``/table dm on|off``. Turning DMs on also forgets a remembered 403: the user
        says they opened their DMs, which is the one time a retry is not blind."""
        await self.set_pref(user_id, "hand_delivery", "dm" if dm else "ephemeral")
        if dm:
            await self.set_pref(user_id, "dms_closed", None)

    # ------------------------------------------------------------------ clicks

    def register_click(self, user_id: int, interaction: discord.Interaction[Any]) -> None:
        """A click on a hand is about to be submitted: if it changes that hand, the new
        hand becomes the click's own response."""
        self._clicks[user_id] = interaction

    def release_click(self, user_id: int, interaction: discord.Interaction[Any]) -> bool:
        """After the submit: True if the presenter took the click over (it will answer)."""
        if self._clicks.get(user_id) is interaction:
            del self._clicks[user_id]
        if interaction.id in self._taken:
            self._taken.discard(interaction.id)
            return True
        return False

    # ------------------------------------------------------------------ Presenter: private

    async def private_hand(self, prompt: PrivatePrompt) -> None:
        user_id = prompt.user_id
        click = self._clicks.pop(user_id, None)
        if click is not None:
            self._taken.add(click.id)
        queued = self._jobs.get(user_id)
        if queued is not None and click is None:
            click = queued.click
        self._jobs[user_id] = _HandJob(prompt, click)
        worker = self._workers.get(user_id)
        if worker is None or worker.done():
            self._workers[user_id] = self._spawn(self._hand_worker(user_id), f"hand-{user_id}")

    async def _hand_worker(self, user_id: int) -> None:
        """Delivers the newest prompt of one user; prompts queued meanwhile are superseded."""
        while user_id in self._jobs:
            job = self._jobs.pop(user_id)
            try:
                await self._deliver(job)
            except Exception:
                log.exception("could not deliver the hand of user %s", user_id)
                if job.click is not None:
                    with contextlib.suppress(discord.HTTPException):
                        await AckGuard.of(job.click).defer()

    def _hand_content(self, prompt: PrivatePrompt) -> str:
        lines = [prompt_headline(prompt)]
        note = self._notes.pop(prompt.user_id, None)
        if note:
            lines.append(note)
        return "\n".join(lines)

    async def _hand_png(self, prompt: PrivatePrompt) -> bytes:
        names = self._names_for(prompt.table_id, prompt.view.public.num_seats)
        return await self._render(self.renderer.hand, prompt.view, names, self.locale)

    def _names_for(self, table_id: str, count: int) -> list[str]:
        record = self._tables.get(table_id)
        return seat_names(record.status if record else None, count)

    async def _deliver(self, job: _HandJob) -> None:
        prompt = job.prompt
        user_id = prompt.user_id
        signature = hand_signature(prompt)
        if job.click is not None and not await self._closes_old_hand(job.click, prompt):
            await self._answer_click(job.click, prompt, signature)
            return
        if await self.uses_dm(user_id) and await self._deliver_dm(prompt, signature):
            return
        await self._refresh_live(prompt, signature)

    async def _closes_old_hand(
        self, click: discord.Interaction[Any], prompt: PrivatePrompt
    ) -> bool:
        """A click that ended a hand (a win, the last discard) is answered by retiring
        that hand's DM (picture kept, components removed); the new hand gets its own DM."""
        message = click.message
        await self._load_hands(prompt.table_id)
        record = self._hands.get((prompt.table_id, prompt.user_id))
        if message is None or record is None or record.message_id != message.id:
            return False
        if record.hand_number == prompt.view.public.hand_number:
            return False
        done = msg("table.status.ended")
        guard = AckGuard.of(click)
        async with guard.lock:
            if click.response.is_done():
                await click.edit_original_response(content=f"{done.zh} · {done.en}", view=None)
            else:
                await click.response.edit_message(content=f"{done.zh} · {done.en}", view=None)
        guard.done()
        return True

    async def _answer_click(
        self, click: discord.Interaction[Any], prompt: PrivatePrompt, signature: tuple[Any, ...]
    ) -> None:
        """Answer a click on a hand with the new hand (one request), within the budget."""
        guard = AckGuard.of(click)
        render = asyncio.ensure_future(self._hand_png(prompt))
        png: bytes | None = None
        with contextlib.suppress(TimeoutError):
            png = await asyncio.wait_for(asyncio.shield(render), guard.remaining())
        view = hand_view(prompt)
        content = self._hand_content(prompt)
        answered = False
        async with guard.lock:
            if png is not None and not click.response.is_done():
                await click.response.edit_message(
                    content=content, attachments=[_file(png, "hand.png")], view=view
                )
                answered = True
            elif not click.response.is_done():
                await click.response.defer()
        guard.done()
        if not answered:  # deferred (slow render or busy table): edit the message after
            png = png if png is not None else await render
            await click.edit_original_response(
                content=content, attachments=[_file(png, "hand.png")], view=view
            )
        message = click.message
        key = (prompt.table_id, prompt.user_id)
        record = self._hands.get(key)
        if message is not None and record is not None and record.message_id == message.id:
            record.signature = signature
        elif message is not None and message.flags.ephemeral:
            self._live[prompt.user_id] = _LiveEphemeral(click, self.clock.now(), signature)

    async def _dm_channel(self, user_id: int) -> int:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            prefs = await self.prefs(user_id)
            stored = prefs.get("dm_channel")
            if isinstance(stored, int):
                channel_id = stored
            else:
                data = await self.bot.http.start_private_message(user_id)
                channel_id = int(data["id"])
                with contextlib.suppress(Exception):
                    await self.set_pref(user_id, "dm_channel", channel_id)
            self._dm_channels[user_id] = channel_id
        return channel_id

    async def _load_hands(self, table_id: str) -> None:
        """Once per table and process: the DM hand messages a previous process sent.
        Concurrent callers (one worker per player) all wait for the same load."""
        loading = self._hands_loading.get(table_id)
        if loading is None:
            loading = self._hands_loading[table_id] = asyncio.ensure_future(
                self._read_hands(table_id)
            )
        await asyncio.shield(loading)

    async def _read_hands(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            game = await self.store.get_game(table_id)
            stored = (game.meta if game else {}).get("discord_hands") or {}
            for user, (hand_number, channel_id, message_id) in stored.items():
                self._hands.setdefault(
                    (table_id, int(user)),
                    _HandMessage(int(hand_number), int(channel_id), int(message_id)),
                )

    async def _save_hands(self, table_id: str) -> None:
        stored = {
            str(user): [record.hand_number, record.channel_id, record.message_id]
            for (table, user), record in self._hands.items()
            if table == table_id
        }
        with contextlib.suppress(Exception):
            await self.store.update_game_meta(table_id, discord_hands=stored)

    async def _deliver_dm(self, prompt: PrivatePrompt, signature: tuple[Any, ...]) -> bool:
        """Send or edit the DM hand; False when DMs turn out to be closed."""
        user_id = prompt.user_id
        key = (prompt.table_id, user_id)
        await self._load_hands(prompt.table_id)
        record = self._hands.get(key)
        hand_number = prompt.view.public.hand_number
        same_hand = record is not None and record.hand_number == hand_number
        if same_hand and record is not None and record.signature == signature:
            return True
        if not same_hand and prompt.kind == "idle" and prompt.view.public.phase == "ended":
            return True
        png = await self._hand_png(prompt)
        content = self._hand_content(prompt)
        view = hand_view(prompt)
        if same_hand and record is not None:
            message = self.bot.get_partial_messageable(
                record.channel_id, type=discord.ChannelType.private
            ).get_partial_message(record.message_id)
            try:
                await message.edit(content=content, attachments=[_file(png, "hand.png")], view=view)
                record.signature = signature
                return True
            except discord.NotFound:
                pass  # the user deleted it: send a fresh one below
        try:
            channel_id = await self._dm_channel(user_id)
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            sent = await channel.send(
                content=content,
                file=_file(png, "hand.png"),
                view=view,
                allowed_mentions=NO_MENTIONS,
            )
        except discord.Forbidden as error:
            if not _is_dm_closed(error):
                raise
            await self._dms_closed(prompt)
            return False
        self._hands[key] = _HandMessage(hand_number, channel_id, sent.id, signature)
        await self._save_hands(prompt.table_id)
        return True

    async def _dms_closed(self, prompt: PrivatePrompt) -> None:
        user_id = prompt.user_id
        log.info("user %s has DMs closed; serving their hand ephemerally", user_id)
        with contextlib.suppress(Exception):
            await self.set_pref(user_id, "dms_closed", True)
        key = (prompt.table_id, user_id)
        if key in self._dm_notice_sent:
            return
        self._dm_notice_sent.add(key)
        record = self._tables.get(prompt.table_id)
        if record is None:
            return
        text = msg("table.dm_closed_notice", mention=f"<@{user_id}>")
        channel = self.bot.get_partial_messageable(record.channel_id)
        await channel.send(public(text), allowed_mentions=NO_MENTIONS)

    async def _refresh_live(self, prompt: PrivatePrompt, signature: tuple[Any, ...]) -> None:
        """Keep an ephemeral hand current through its interaction token while it lives."""
        live = self._live.get(prompt.user_id)
        if live is None or live.signature == signature:
            return
        if self.clock.now() - live.since > INTERACTION_TOKEN_LIFETIME:
            del self._live[prompt.user_id]
            return
        png = await self._hand_png(prompt)
        try:
            await live.interaction.edit_original_response(
                content=self._hand_content(prompt),
                attachments=[_file(png, "hand.png")],
                view=hand_view(prompt),
            )
            live.signature = signature
        except discord.HTTPException:
            self._live.pop(prompt.user_id, None)

    async def show_hand(self, interaction: discord.Interaction[Any], prompt: PrivatePrompt) -> None:
        """The "My hand" button and ``/table hand``: the hand as an ephemeral reply."""
        guard = AckGuard.of(interaction)
        render = asyncio.ensure_future(self._hand_png(prompt))
        content = self._hand_content(prompt)
        view = hand_view(prompt)
        png: bytes | None = None
        with contextlib.suppress(TimeoutError):
            png = await asyncio.wait_for(asyncio.shield(render), guard.remaining())
        answered = False
        async with guard.lock:
            if png is not None and not interaction.response.is_done():
                await interaction.response.send_message(
                    content=content, file=_file(png, "hand.png"), view=view, ephemeral=True
                )
                answered = True
            elif not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
        guard.done()
        if not answered:
            png = png if png is not None else await render
            await interaction.edit_original_response(
                content=content, attachments=[_file(png, "hand.png")], view=view
            )
        self._live[prompt.user_id] = _LiveEphemeral(
            interaction, self.clock.now(), hand_signature(prompt)
        )

    async def error(self, user_id: int, text: Text) -> None:
        """Answer the user's open click if there is one; otherwise the note rides along
        with their next hand update (no extra request, no unsolicited DM)."""
        click = self._clicks.pop(user_id, None)
        if click is not None:
            self._taken.add(click.id)
            guard = AckGuard.of(click)
            async with guard.lock:
                if click.response.is_done():
                    await click.followup.send(say(text, click.locale), ephemeral=True)
                else:
                    await click.response.send_message(say(text, click.locale), ephemeral=True)
            guard.done()
        else:
            self._notes[user_id] = f"⚠️ {text.zh} · {text.en}"

    # ------------------------------------------------------------------ Presenter: table

    def _table(self, table_id: str, channel_id: int) -> _TableMessage:
        record = self._tables.get(table_id)
        if record is None:
            record = self._tables[table_id] = _TableMessage(table_id, channel_id)
        return record

    async def lobby_changed(self, lobby: LobbyInfo) -> None:
        record = self._table(lobby.table_id, lobby.channel_id)
        record.lobby = lobby
        if lobby.status in ("finished", "closed"):
            record.final = True
        self._mark_dirty(record)

    async def table_changed(self, status: TableStatus) -> None:
        record = self._table(status.table_id, status.channel_id)
        record.status = status
        line = _describe_last(status)
        if line or status.last_action is None:
            record.last_line = line
        self._mark_dirty(record)

    async def notice(self, table_id: str, channel_id: int, text: Text) -> None:
        record = self._table(table_id, channel_id)
        record.notices.append(text)
        self._mark_dirty(record)

    def _mark_dirty(self, record: _TableMessage) -> None:
        record.dirty = True
        record.version += 1
        channel_id = record.channel_id
        if channel_id in self._flush_scheduled:
            return
        self._flush_scheduled.add(channel_id)
        due = self._last_flush.get(channel_id, float("-inf")) + self.min_interval
        if due <= self.clock.now():
            self._spawn(self._flush_channel(channel_id), f"flush-{channel_id}")
        else:
            timer = asyncio.get_running_loop().create_task(
                self._flush_later(channel_id, due), name=f"mj-timer-{channel_id}"
            )
            self._timers.add(timer)
            timer.add_done_callback(self._timers.discard)

    async def _flush_later(self, channel_id: int, due: float) -> None:
        await self.clock.sleep_until(due)
        self._spawn(self._flush_channel(channel_id), f"flush-{channel_id}")

    async def _flush_channel(self, channel_id: int) -> None:
        self._flush_scheduled.discard(channel_id)
        for record in list(self._tables.values()):
            if record.channel_id == channel_id and record.dirty:
                record.dirty = False
                self._last_flush[channel_id] = self.clock.now()
                version = record.version
                try:
                    await retry_discord(
                        lambda record=record: self._send_table(record),  # type: ignore[misc]
                        self._backoff,
                        f"table message of {record.table_id}",
                        still_wanted=lambda record=record, version=version: (  # type: ignore[misc]
                            record.version == version
                        ),
                    )
                except Exception:
                    log.exception("could not update the table message of %s", record.table_id)
                self._last_flush[channel_id] = self.clock.now()

    async def _load_table_message(self, record: _TableMessage) -> None:
        if record.loaded:
            return
        record.loaded = True
        with contextlib.suppress(Exception):
            game = await self.store.get_game(record.table_id)
            stored = (game.meta if game else {}).get("discord_table_message")
            if stored and record.message_id is None:
                record.message_id = int(stored[1])

    @staticmethod
    def _phase(record: _TableMessage) -> str:
        """lobby | running | finished | closed, from whatever the session told us last
        (after a restart there is a status but no lobby)."""
        lobby = record.lobby
        if lobby is not None and lobby.status in ("finished", "closed"):
            return lobby.status
        if record.final:
            return "finished"
        if lobby is not None and lobby.status == "lobby":
            return "lobby"
        return "running" if record.status is not None else "lobby"

    def _table_content(self, record: _TableMessage) -> str:
        lines: list[str] = []
        status, lobby = record.status, record.lobby
        phase = self._phase(record)
        if lobby is not None:
            variant, seats, stake = lobby.variant, lobby.num_seats, lobby.stake
        elif status is not None:
            variant, seats, stake = status.public.variant, status.public.num_seats, status.stake
        else:
            variant, seats, stake = "?", 0, 0
        try:
            name = rule_set_name(variant)
        except ValueError:  # neither a lobby nor a status yet: nothing to name
            name = Text(variant, variant)
        zh, en = name.zh, name.en
        title = msg("lobby.title", variant=zh, seats=seats, stake=stake)
        title_en = msg("lobby.title", variant=en, seats=seats, stake=stake)
        lines.append(f"🀄 **{title.zh}** · {title_en.en}")
        if status is not None and phase == "running":
            lines.append(f"{status.hand_label.zh} · {status.hand_label.en}")
            if record.last_line:
                lines.append(record.last_line)
            lines.append(_status_line(status))
        elif lobby is not None and phase == "lobby":
            players = ", ".join(
                f"<@{p.user_id}>" if p.user_id and not p.is_ai else f"🤖 {p.name}"
                for p in lobby.players
            )
            players_text = players or "{} / {}".format(msg("lobby.empty").zh, msg("lobby.empty").en)
            label = msg("lobby.players")
            lines.append(f"{label.zh} / {label.en}: {players_text}")
            hint = msg("lobby.hint")
            lines.append(f"-# {hint.zh} · {hint.en}")
        else:
            done = msg("table.finished" if phase == "finished" else "table.ended")
            lines.append(f"{done.zh} · {done.en}")
        for text in record.notices:
            lines.append(f"📣 {text.zh} · {text.en}")
        return "\n".join(lines)[:2000]

    async def _send_table(self, record: _TableMessage) -> None:
        await self._load_table_message(record)
        content = self._table_content(record)
        lobby = record.lobby
        phase = self._phase(record)
        image_state = None
        if record.status is not None:
            image_state = replace(record.status.public, turn_id=0, waiting_on=())
        view_kind = (phase, tuple(p.user_id for p in lobby.players) if lobby else ())
        shown = (content, image_state, view_kind)
        if record.message_id is not None and shown == record.sent:
            return  # an edit would change nothing anyone can see
        files: list[discord.File] = []
        if record.status is not None:
            names = seat_names(record.status)
            png = await self._render(self.renderer.table, record.status.public, names, self.locale)
            files = [_file(png, "table.png")]
        view: discord.ui.View | None = None
        if phase == "running":
            view = table_view(record.table_id)
        elif phase == "lobby" and lobby is not None:
            view = lobby_view(lobby)
        channel = self.bot.get_partial_messageable(record.channel_id)
        if record.message_id is not None:
            message = channel.get_partial_message(record.message_id)
            try:
                await message.edit(
                    content=content, attachments=files, view=view, allowed_mentions=NO_MENTIONS
                )
                record.sent = shown
                return
            except discord.NotFound:
                record.message_id = None
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": NO_MENTIONS}
        if files:
            kwargs["files"] = files
        if view is not None:
            kwargs["view"] = view
        sent = await channel.send(**kwargs)
        record.message_id = sent.id
        record.sent = shown
        with contextlib.suppress(Exception):
            await self.store.update_game_meta(
                record.table_id, discord_table_message=[record.channel_id, sent.id]
            )

    # ------------------------------------------------------------------ results

    async def hand_result(self, status: TableStatus, result: HandResult, points: list[int]) -> None:
        record = self._table(status.table_id, status.channel_id)
        record.status = status
        names = seat_names(status)
        self._post_in_order(status.table_id, self._post_result(status, result, points, names))

    def _post_in_order(self, table_id: str, post: Awaitable[Any]) -> None:
        """Result posts of one table go out in the order they happened, though each
        renders in the background (a match total must not overtake the last hand)."""
        previous = self._posts.get(table_id)

        async def chained() -> None:
            if previous is not None and not previous.done():
                # Parked while the earlier post is still out: that post is the work in
                # progress (or itself parked in a retry's backoff, which only the clock
                # ends; counting this waiter as busy then would stall wait_idle for good).
                async with self._parked_while():
                    with contextlib.suppress(Exception):
                        await previous
            await post

        self._posts[table_id] = self._spawn(chained(), f"post-{table_id}")

    async def _post_result(
        self, status: TableStatus, result: HandResult, points: list[int], names: list[str]
    ) -> None:
        if result.winner is not None:
            head = msg("result.win", name=names[result.winner])
        else:
            head = msg("result.draw")
        body = msg("result.points", changes=changes_text(names, points))
        content = f"**{head.zh}** {head.en}\n{body.zh}\n-# {body.en}"
        png = await self._render(self.renderer.result, status.public, result, names, self.locale)
        channel = self.bot.get_partial_messageable(status.channel_id)
        await retry_discord(
            lambda: channel.send(content=content[:2000], file=_file(png, "result.png"),
                                 allowed_mentions=NO_MENTIONS),
            self._backoff,
            f"result card of {status.table_id}",
        )  # fmt: skip

    async def match_result(self, status: TableStatus, totals: list[int], points: list[int]) -> None:
        record = self._table(status.table_id, status.channel_id)
        record.status = status
        record.final = True
        names = seat_names(status)
        text = msg("result.match", changes=changes_text(names, points))
        channel = self.bot.get_partial_messageable(status.channel_id)
        self._post_in_order(
            status.table_id,
            retry_discord(
                lambda: channel.send(public(text)[:2000], allowed_mentions=NO_MENTIONS),
                self._backoff,
                f"match result of {status.table_id}",
            ),
        )
        self._mark_dirty(record)


def _log_failure(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("background task %s failed", task.get_name(), exc_info=error)


def _seat_label(status: TableStatus, seat: int) -> str:
    info = status.seats[seat] if seat < len(status.seats) else None
    if info is None:
        return f"#{seat + 1}"
    if info.user_id and not info.is_ai:
        return f"<@{info.user_id}>"
    return f"🤖 {info.name}"


def _status_line(status: TableStatus) -> str:
    public_view = status.public
    if public_view.phase == "ended":
        text = msg("table.status.ended")
        return f"{text.zh} · {text.en}"
    if public_view.phase == "turn" and public_view.current_seat is not None:
        line = f"▶ {_seat_label(status, public_view.current_seat)} " + "{} · {}".format(
            *MESSAGES["table.status.turn"]
        )
    else:
        # Not naming who is still deciding keeps a pass from changing the message, so
        # a pass costs no table edit (and does not reveal who could have claimed).
        key = "table.status.santan" if public_view.phase == "santan" else "table.status.claims"
        line = "⏳ {} · {}".format(*MESSAGES[key])
    if status.deadline is not None:
        line += f" · ⏱ <t:{int(status.deadline)}:R>"
    line += f" · 🀫 {public_view.tiles_left}"
    return line


def _describe_last(status: TableStatus) -> str:
    action = status.last_action
    if action is None:
        return ""
    who = status.seats[action.seat].name if action.seat < len(status.seats) else "?"
    if action.type == "pass":
        return ""
    if action.type == "kong" and any(e.get("type") == "concealed_kong" for e in status.events):
        return f"-# {move_line(who, 'concealed_kong')}"  # face down: the tile stays secret
    tile = ""
    if action.tile is not None:
        tile = f"{kind_str(action.tile)} {name_zh(action.tile)}"
    elif action.tiles is not None:
        tile = format_tiles(action.tiles)
    return f"-# {move_line(who, action.type, tile)}"
