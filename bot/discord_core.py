"""The Discord presenter's core: its state, its background work and the renderer.

Why apart: the private hands (``bot.discord_hands``) and the table message
(``bot.discord_table``) share this state and these helpers; ``DiscordPresenter`` in
``bot.discord_presenter`` joins the two over it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.presenter import LobbyInfo, PrivatePrompt, TableStatus, Text
from engine.types import HandResult
from engine.views import PlayerView, PublicView

if TYPE_CHECKING:
    from data import Store
    from render.result import TablePoints

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()
DISCORD_CONTENT_LIMIT = 2000  # characters of message content Discord accepts


def fit_lines(lines: list[str]) -> str:
    """Whole lines up to Discord's limit: a safety net for pages that size their lines
    to fit (a line cut in half would break its markup)."""
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > DISCORD_CONTENT_LIMIT:
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept)


class Renderer:
    """The images, as PNG bytes. Tests substitute a cheap one that tags its output."""

    def warm_up(self) -> None:
        """Draw the tile sprites and build the shared palette (about half a second) before
        the first player waits for an image."""
        from render.images import warm_up

        warm_up()

    def hand(self, view: PlayerView, names: Sequence[str], locale: str) -> bytes:
        from render.images import render_hand

        return render_hand(view, names=names, locale=locale)

    def table(self, view: PublicView, names: Sequence[str], locale: str) -> bytes:
        from render.images import render_table

        return render_table(view, names=names, locale=locale)

    def result(
        self,
        view: PublicView,
        result: HandResult,
        names: Sequence[str],
        locale: str,
        points: TablePoints | None = None,
    ) -> bytes:
        """``points``: what a table's ledger moved, which the card then shows (at a stake
        above 1 the units alone disagreed with the text's points)."""
        from render.images import render_result

        return render_result(view, result, names=names, locale=locale, points=points)

    def leaderboard(self, rows: Sequence[Any], period: str, subtitle: str, locale: str) -> bytes:
        from render.images import render_leaderboard

        return render_leaderboard(rows, period=period, subtitle=subtitle, locale=locale)

    def stats(self, stats: Any, name: str, subtitle: str, locale: str) -> bytes:
        from render.stats import render_stats

        return render_stats(stats, name=name, subtitle=subtitle, locale=locale)


class _Clock:
    """Wall-clock fallback when no session clock is given."""

    def now(self) -> float:

        return time.time()

    async def sleep_until(self, when: float) -> None:
        delay = when - self.now()
        if delay > 0:
            await asyncio.sleep(delay)


MOVES_SHOWN = 3  # move lines the table message lists


@dataclass
class TableMessage:
    table_id: str
    channel_id: int
    message_id: int | None = None
    lobby: LobbyInfo | None = None
    status: TableStatus | None = None
    notices: deque[Text] = field(default_factory=lambda: deque(maxlen=3))
    dirty: bool = False
    final: bool = False
    loaded: bool = False
    # The hand's latest move lines worth showing (a pass is not), oldest first, each with
    # the names it holds (kept as written however the seats are named later): AI seats
    # move every second and the message is edited at most every 1.5 s, so one "last move"
    # line skipped a fifth of them. Keyed by (hand, turn) so a repeated status adds none.
    moves: deque[tuple[str, tuple[str, ...]]] = field(
        default_factory=lambda: deque(maxlen=MOVES_SHOWN)
    )
    moves_key: tuple[int, int] = (-1, -1)
    sent: tuple[Any, ...] | None = None  # what the message shows now, to skip no-op edits
    version: int = 0  # bumped by every change: a retried edit stops once it is outdated
    # A table in its own thread (``channel_id`` is the thread): the channel it hangs off,
    # where the final standings are posted too. Loaded with the message id.
    parent_id: int | None = None
    repost: bool = False  # a result went out below the table message: send it anew
    standings_due: bool = False  # the match is over and its standings are not posted yet
    archived: bool = False  # the finished table's thread was archived


@dataclass
class HandMessage:
    hand_number: int
    channel_id: int
    message_id: int
    signature: tuple[Any, ...] | None = None


@dataclass
class HandJob:
    prompt: PrivatePrompt
    click: discord.Interaction[Any] | None = None


@dataclass
class TurnAlert:
    """A pending or sent "your turn" alert for one prompt (one per turn at most): a DM,
    or for a player without DMs a mention where the table is."""

    table_id: str
    turn_id: int
    kind: str
    timer: asyncio.Task[Any] | None = None
    channel_id: int | None = None
    message_id: int | None = None
    withdrawn: bool = False  # the player moved (or the prompt went) before it was sent
    in_table_channel: bool = False  # sent where the table is (the player has no DM hand)


@dataclass
class ResultCard:
    """A hand's result, to be shown on one player's DM hand message of that hand."""

    status: TableStatus
    result: HandResult
    points: list[int]
    channel_id: int
    message_id: int


@dataclass
class LiveEphemeral:
    interaction: discord.Interaction[Any]
    since: float
    signature: tuple[Any, ...] | None = None


class PresenterCore:
    """State and background work shared by the hands and the table message."""

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
        self._tables: dict[str, TableMessage] = {}
        self._hands: dict[tuple[str, int], HandMessage] = {}
        self._hands_loading: dict[str, asyncio.Future[None]] = {}
        self._clicks: dict[int, discord.Interaction[Any]] = {}
        self._jobs: dict[int, HandJob] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._prefs: dict[int, dict[str, Any]] = {}
        self._dm_channels: dict[int, int] = {}
        self._live: dict[int, LiveEphemeral] = {}
        self._dm_notice_sent: set[tuple[str, int]] = set()
        self._last_flush: dict[int, float] = {}
        self._flush_scheduled: set[int] = set()
        self._work: set[asyncio.Task[Any]] = set()
        self._parked: set[asyncio.Task[Any]] = set()  # work sleeping out a retry backoff
        self._work_changed = asyncio.Event()
        self._timers: set[asyncio.Task[Any]] = set()
        self._posts: dict[str, asyncio.Task[Any]] = {}
        self._taken: set[int] = set()  # ids of clicks the presenter answers itself
        self._notes: dict[int, Text] = {}  # a message for a user, shown with their next hand
        self._closed_channels: set[int] = set()  # table channels refusing the bot's posts
        self._gone_channels: set[int] = set()  # table channels deleted (or out of reach)
        self._alerts: dict[int, TurnAlert] = {}  # by user: the turn alert of their prompt
        # By user: when they last clicked or typed anything (the clock's time): a player
        # who did so lately is at the screen, and is alerted later (see _track_alert).
        self._last_seen: dict[int, float] = {}
        self._cards: dict[int, list[ResultCard]] = {}  # by user: result cards to show
        # By (table, user): the hand that ended last and how, for the next hand's DM.
        self._last_hand: dict[tuple[str, int], tuple[int, Text]] = {}
        self._carded: dict[int, str] = {}  # DM hand messages showing a result card: table
        self._forgetting: set[str] = set()  # done tables whose state goes after a grace
        self._locales: dict[int, str] = {}  # by user: their Discord locale, once seen
        self._guild_locales: dict[int, str] = {}  # by guild: its preferred locale
        self._channel_languages: dict[int, str] = {}  # by guild: its channel_language setting
        self._guild_locales_saved: dict[int, str] = {}  # by guild: its locale as stored
        # by table: the rematch call waiting for confirmations (channel, message, text)
        self._rematch_calls: dict[str, tuple[int, int, str]] = {}

    def _spawn(self, coro: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        """Background work the harness (and shutdown) can wait for."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(
            coro,  # type: ignore[arg-type]
            name=f"mj-work-{name}",
        )
        self._work.add(task)
        task.add_done_callback(self._work.discard)
        task.add_done_callback(lambda _task: self._work_changed.set())
        task.add_done_callback(log_failure)
        return task

    def _timer(self, coro: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        """A wait on the presenter's clock (shutdown cancels it; the harness does not wait
        for it, since only the clock ends it)."""
        timer: asyncio.Task[Any] = asyncio.get_running_loop().create_task(
            coro,  # type: ignore[arg-type]
            name=f"mj-timer-{name}",
        )
        self._timers.add(timer)
        timer.add_done_callback(self._timers.discard)
        return timer

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

    def remember_locale(self, user_id: int, locale: str | None, guild_id: int | None = None,
                        guild_locale: str | None = None) -> bool:  # fmt: skip
        """Note the locale an interaction came with (and its guild's); True when the
        user's locale is new, so the caller saves it."""
        self.seen(user_id)  # every interaction passes here first
        if guild_id is not None and guild_locale:
            self._guild_locales[guild_id] = guild_locale
        if not locale or self._locales.get(user_id) == locale:
            return False
        self._locales[user_id] = locale
        return True

    def seen(self, user_id: int) -> None:
        """The player clicked or typed just now: at the screen (see ``_track_alert``)."""
        self._last_seen[user_id] = self.clock.now()

    def locale_of(self, user_id: int) -> str | None:
        """A player's locale as last seen (None: not known yet)."""
        return self._locales.get(user_id)

    def guild_locale_unsaved(self, guild_id: int, guild_locale: str) -> bool:
        """True (once) when the store may not hold this server locale yet: the caller
        saves it, so a restarted bot draws the table in it before anyone clicks."""
        if self._guild_locales_saved.get(guild_id) == guild_locale:
            return False
        self._guild_locales_saved[guild_id] = guild_locale
        return True

    def guild_image_locale(self, guild_id: int | None) -> str:
        """The language of a channel's images: the guild's preferred locale."""
        from bot.i18n import image_locale

        if guild_id is None or guild_id not in self._guild_locales:
            return self.locale
        return image_locale(self._guild_locales[guild_id])

    async def channel_language(self, guild_id: int | None) -> str:
        """The language of a server's shared table ("zh", "zh-TW" or "en"): what its admin
        chose (``/mjadmin settings channel_language``), else its preferred locale."""
        from bot.i18n import image_locale

        if guild_id is None:
            return self.locale
        chosen = self._channel_languages.get(guild_id)
        if chosen is None:
            try:
                settings = await self.store.get_settings(guild_id)
            except Exception:  # the locale meanwhile; the next table edit reads it again
                log.exception("could not read the channel language of guild %s", guild_id)
                chosen = "auto"
            else:
                # An admin's change, or an interaction's locale, that arrived while the
                # read was on its way wins over what was stored.
                chosen = self._channel_languages.setdefault(guild_id, settings.channel_language)
                if settings.preferred_locale:
                    self._guild_locales.setdefault(guild_id, settings.preferred_locale)
                    self._guild_locales_saved.setdefault(guild_id, settings.preferred_locale)
        if chosen != "auto":
            return image_locale(chosen)
        return self.guild_image_locale(guild_id)

    async def table_language(self, record: TableMessage) -> str:
        """The language a table's channel reads (see ``channel_language``)."""
        if record.status is not None:
            return await self.channel_language(record.status.guild_id)
        return await self.channel_language(record.lobby.guild_id if record.lobby else None)

    def set_channel_language(self, guild_id: int, chosen: str) -> None:
        """An admin changed the setting: the next table edit follows it."""
        self._channel_languages[guild_id] = chosen

    async def picture(
        self, function: Callable[..., bytes], describe: Callable[..., str], *args: Any
    ) -> Picture:
        """An image and its description, both made off the event loop."""
        return await asyncio.to_thread(lambda: Picture(function(*args), describe(*args)))


def seat_names(status: TableStatus | None, count: int = 4) -> list[str]:
    if status is None:
        return [f"#{i + 1}" for i in range(count)]
    return [info.name for info in status.seats]


def discord_file(data: bytes, name: str, description: str | None = None) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name, description=description or None)


@dataclass(frozen=True)
class Picture:
    """A rendered image with what it shows in words (``render.alt_text``): Discord keeps
    the words as the attachment's alt text, which screen readers read and clients show
    where the image does not load. For the private hand it is the only other place the
    player's tiles are written."""

    png: bytes
    description: str

    def file(self, name: str) -> discord.File:
        return discord_file(self.png, name, self.description)


def log_failure(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("background task %s failed", task.get_name(), exc_info=error)
