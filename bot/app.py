"""The Discord bot: a ``commands.Bot`` that hosts mahjong tables through slash commands.

``setup_hook`` wires everything before the gateway connects: the translator (zh-CN
command names), the cogs, the dynamic components (so buttons on old messages keep
working after a restart), the table manager — which restores every running table from
the store — and the weekly leaderboard poster.

Clicks are handled here, not in the components, so every rule about them is in one
place: a click for a past turn, by someone not seated, or on a table that is gone gets
a clear ephemeral answer; a click that changes the clicker's hand is answered by the
presenter with the new hand (see ``bot.discord_presenter``); anything else is deferred.
Nothing that looks like a traceback ever reaches a user: the tree's error handler turns
errors into bilingual messages and logs the unexpected ones with their context.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import NotManager, is_manager, require_manager
from bot.cogs.admin import ADMIN_ITEMS, AdminCog
from bot.cogs.economy import EconomyCog
from bot.cogs.guide import GuideCog
from bot.cogs.play import PlayCog
from bot.cogs.review import ReviewCog
from bot.cogs.stats import StatsCog
from bot.cogs.tables import TablesCog
from bot.command_names import set_command_ids
from bot.discord_ack import edit_clicked
from bot.discord_core import DISCORD_CONTENT_LIMIT
from bot.discord_presenter import AckGuard, DiscordPresenter, Renderer
from bot.discord_review import REVIEW_ITEMS
from bot.discord_views import DYNAMIC_ITEMS, end_view, leave_view
from bot.errors import UserFacingError, describe_error
from bot.i18n import MahjongTranslator, Text, msg, say
from bot.journal import BOT_COMMIT_INTERVAL
from bot.leases import Leases, StoreLeases
from bot.option_checks import refused_option
from bot.refusals import SubmitResult
from bot.routing import InProcessRouter, RoutedClick, Router
from bot.rules_flow import RULES_ITEMS, send_with_view
from bot.session import SessionError, SystemClock, TableManager, TableSession
from bot.shards import ShardPlan
from bot.tables import TERMINAL_GUILD_ID
from data import Store

log = logging.getLogger(__name__)

LEADERBOARD_CHECK_SECONDS = 600.0
# View Channels, Send Messages, Attach Files, Read Message History; for a table's own
# thread Create Public Threads, Send Messages in Threads and Manage Threads (to archive a
# finished table's thread) (see README.md and bot.discord_threads).
INVITE_PERMISSIONS = 1024 | 2048 | 32768 | 65536 | (1 << 34) | (1 << 35) | (1 << 38)


def fit(content: str, limit: int = DISCORD_CONTENT_LIMIT) -> str:
    """Cut ``content`` to what Discord accepts. Why: replies echo what users typed (an
    option value, a setting), and one over-long echo makes Discord reject the whole
    answer, so the user sees "interaction failed" instead of the reason."""
    if len(content) <= limit:
        return content
    return content[: limit - 1] + "…"


def invite_url(application_id: int) -> str:
    return (
        "https://discord.com/oauth2/authorize"
        f"?client_id={application_id}&scope=bot+applications.commands"
        f"&permissions={INVITE_PERMISSIONS}"
    )


# The servers ``run --guild`` gave their own copy of the commands (a preference of the
# bot's own application id).
COMMAND_COPIES_KEY = "command_copies"


def _works_in_dms(command: Any) -> bool:
    """Whether a command declares it works in a DM: where it works is declared on the
    top-level command (Discord ignores it on subcommands); none declared is anywhere."""
    root = getattr(command, "root_parent", None) or command
    contexts: app_commands.AppCommandContext | None = getattr(root, "allowed_contexts", None)
    return contexts is None or bool(contexts.dm_channel or contexts.private_channel)


def intents() -> discord.Intents:
    """Slash commands, components and DMs need no privileged intent: guilds only, so the
    channel cache knows where tables live."""
    value = discord.Intents.none()
    value.guilds = True
    return value


class MahjongBot(commands.Bot):
    def __init__(
        self,
        store: Store,
        *,
        clock: Any = None,
        renderer: Renderer | None = None,
        ai_delay: float = 1.0,
        min_interval: float = 1.5,
        sync_guild: int | None = None,
        sync_global: bool = False,
        fetch_command_ids: bool = False,
        leaderboard_interval: float | None = LEADERBOARD_CHECK_SECONDS,
        seeds: Iterator[int] | None = None,
        tune_runtime: bool = False,
        shard_plan: ShardPlan | None = None,
        router: Router | None = None,
        leases: Leases | None = None,
        process_name: str | None = None,
        **client_options: Any,
    ) -> None:
        """``shard_plan`` says which guilds this process owns (all by default); ``router``
        carries DM clicks to the process owning their table and ``leases`` keep once-only
        jobs once-only across processes (in-process and the store's leases by default, as
        fits one process). ``process_name`` names this process as a lease holder.
        ``fetch_command_ids``: a process that does not sync asks Discord for the commands'
        ids at start (one request), so its replies link commands before anyone's /help."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **client_options,
        )
        self.shard_plan = shard_plan or ShardPlan()
        self.router: Router = router or InProcessRouter()
        self.leases: Leases = leases or StoreLeases(store)
        self.process_name = process_name or default_process_name()
        self.store = store
        self.clock = clock or SystemClock()
        self.presenter = DiscordPresenter(
            self, store, clock=self.clock, renderer=renderer, min_interval=min_interval
        )
        self.manager = TableManager(
            store,
            self.presenter,
            self.clock,
            ai_delay=ai_delay,
            # AI seats that do not move like a metronome (0.75 to 1.25 s at the default
            # pace), and many tables' moves spread out rather than in step.
            ai_delay_jitter=0.25,
            journal_commit_interval=BOT_COMMIT_INTERVAL,
        )
        plan = self.shard_plan
        self.manager.owns_guild = lambda guild_id: (
            guild_id != TERMINAL_GUILD_ID and plan.owns(guild_id)
        )
        self.sync_guild = sync_guild
        self.sync_global = sync_global
        self.fetch_command_ids = fetch_command_ids
        self.leaderboard_interval = leaderboard_interval
        self._closed = False
        self._warming: asyncio.Task[None] | None = None
        self._names: dict[int, str] = {}
        self._command_ids = None  # see command_ids()
        self._seeds = seeds  # tests make the shuffles reproducible; None = random
        self._tune_runtime = tune_runtime  # process-wide GC/GIL settings: the real bot only
        add_hook = getattr(self.clock, "add_idle_hook", None)
        if add_hook is not None:
            add_hook(self.presenter.wait_idle)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.tree.interaction_check = self.guard_command  # type: ignore[method-assign]

    # ------------------------------------------------------------------ start and stop

    async def setup_hook(self) -> None:
        await install_commands(self)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *REVIEW_ITEMS, *RULES_ITEMS, *ADMIN_ITEMS)
        restored = await self.manager.restore_all()
        log.info("restored %d running table(s) (%s)", len(restored), self.shard_plan.describe())
        await self.router.start(self.apply_routed_click)  # tables first: clicks need them
        warm_up = getattr(self.presenter.renderer, "warm_up", None)
        if warm_up is not None:
            # In a worker thread while the bot connects, so the first hand dealt is drawn
            # as fast as the rest (a test renderer draws nothing and has none).
            self._warming = asyncio.get_running_loop().create_task(
                asyncio.to_thread(warm_up), name="mj-render-warm-up"
            )
        if self._tune_runtime:
            from bot import session  # looked up now, so tests can record the call

            session.tune_runtime()
        if self.sync_guild is not None:
            guild = discord.Object(id=self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            self._command_ids = {command.name: command.id for command in synced}
            log.info("synced %d commands to guild %s", len(synced), self.sync_guild)
            await self._note_command_copies(add=self.sync_guild)
        elif self.sync_global:
            synced = await self.tree.sync()
            self._command_ids = {command.name: command.id for command in synced}
            log.info("synced %d global commands", len(synced))
            await self._clear_command_copies()
        elif self.fetch_command_ids:
            await self.command_ids()
        if self.leaderboard_interval:
            self._economy().start_weekly_posts(self.leaderboard_interval)

    async def _command_copies(self) -> set[int]:
        prefs = await self.store.get_user_prefs(self._own_id())
        return {int(guild_id) for guild_id in prefs.get(COMMAND_COPIES_KEY) or ()}

    def _own_id(self) -> int:
        return int(self.application_id or 0)

    async def _note_command_copies(self, *, add: int) -> None:
        """Remember a server given its own copy of the commands (``run --guild``), so the
        next global sync can remove it: Discord lists a server's own commands beside the
        global ones, and a test server kept every command twice, with no way to clear
        them. Kept as the bot's own preference (its application id, never a player's)."""
        copies = await self._command_copies() | {add}
        await self.store.set_user_pref(self._own_id(), COMMAND_COPIES_KEY, sorted(copies))

    async def _clear_command_copies(self) -> None:
        """After a global sync, remove the copies ``run --guild`` made (see above)."""
        copies = await self._command_copies()
        for guild_id in sorted(copies):
            guild = discord.Object(id=guild_id)
            self.tree.clear_commands(guild=guild)
            try:
                await self.tree.sync(guild=guild)
                log.info("removed the command copies of guild %s (now global)", guild_id)
            except (discord.Forbidden, discord.NotFound):
                pass  # the bot left that server: its copies went with it
            except discord.HTTPException as error:
                log.warning("could not remove the command copies of guild %s (%s); the "
                            "next start tries again", guild_id, error)  # fmt: skip
                continue
            copies.discard(guild_id)
            await self.store.set_user_pref(
                self._own_id(), COMMAND_COPIES_KEY, sorted(copies) or None
            )

    async def shutdown(self) -> None:
        """Persist-and-stop: every accepted action is already stored, so stopping the
        timers and sending the last coalesced edits is all that is left."""
        if self._closed:
            return
        self._closed = True
        economy = self.get_cog("EconomyCog")
        if isinstance(economy, EconomyCog):  # absent if setup_hook never ran
            await economy.stop_weekly_posts()
        with contextlib.suppress(Exception):
            await self.router.close()  # no routed click is applied to a stopped table
        await self.manager.shutdown()
        with contextlib.suppress(Exception):
            await self.presenter.close()
        with contextlib.suppress(Exception):
            await self.leases.close()

    async def close(self) -> None:
        await self.shutdown()
        await super().close()

    async def wait_idle(self) -> None:
        """Tests: wait until the tables and the presenter have nothing in flight."""
        router_idle = getattr(self.router, "wait_idle", None)
        for _ in range(3):
            if router_idle is not None:
                await router_idle()
            await self.manager.wait_idle()
            await self.presenter.wait_idle()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Remember how players are called: leaderboards need names, and without the
        privileged members intent the bot cannot look them up without a request each."""
        user = interaction.user
        if user is None or user.bot:
            return
        # First, before any await (the command's own task runs from the first one): the
        # click this interaction carries is answered in the player's language, and their
        # hands follow it from now on; and their name is known to what the command
        # shows (a first /leaderboard listed its own caller as "user…0001").
        name = user.display_name
        name_changed = self._names.get(user.id) != name
        self._names[user.id] = name
        locale = str(interaction.locale) if interaction.locale else None
        guild_locale = str(interaction.guild_locale) if interaction.guild_locale else None
        guild_id = interaction.guild_id
        if locale is not None and self.presenter.remember_locale(
            user.id, locale, guild_id, guild_locale
        ):
            await self.presenter.save_locale(user.id, locale)
        elif locale is None:
            self.presenter.remember_locale(user.id, None, guild_id, guild_locale)
        if (
            guild_id is not None
            and guild_locale is not None
            and self.presenter.guild_locale_unsaved(guild_id, guild_locale)
        ):
            with contextlib.suppress(Exception):
                await self.store.update_settings(guild_id, preferred_locale=guild_locale)
        if name_changed:
            with contextlib.suppress(Exception):
                await self.store.set_user_pref(user.id, "display_name", name)

    async def name_of(self, guild: discord.Guild | None, user_id: int) -> str:
        name = await self.known_name(guild, user_id)
        return name or f"user…{str(user_id)[-4:]}"

    async def known_name(self, guild: discord.Guild | None, user_id: int) -> str | None:
        """The member's name, else the name last seen (kept in the store), else None:
        for a caller with a better stand-in than ``name_of``'s (a mention)."""
        member = guild.get_member(user_id) if guild is not None else None
        if member is not None:
            return member.display_name
        name = self._names.get(user_id)
        if name is None:
            with contextlib.suppress(Exception):
                stored = (await self.store.get_user_prefs(user_id)).get("display_name")
                if isinstance(stored, str) and stored:
                    name = self._names[user_id] = stored
        return name

    @property
    def _command_ids(self) -> dict[str, int] | None:
        return self._known_command_ids

    @_command_ids.setter
    def _command_ids(self, ids: dict[str, int] | None) -> None:
        """Replies name commands as mentions once their ids are known (bot.command_names),
        as /help does: kept in step with what this bot knows."""
        self._known_command_ids = ids
        set_command_ids(ids)

    async def command_ids(self) -> dict[str, int]:
        """Each top-level command's id, for mentions a click opens (``/help``): from this
        process's sync, else fetched once (where the commands were synced: the test
        guild or globally) and kept; empty when the fetch failed, so names are written
        out instead and no failing request is repeated."""
        if self._command_ids is None:
            guild = discord.Object(id=self.sync_guild) if self.sync_guild is not None else None
            try:
                fetched = await self.tree.fetch_commands(guild=guild)
            except discord.HTTPException as error:
                log.warning("could not fetch the application commands: %s", error)
                fetched = []
            self._command_ids = {command.name: command.id for command in fetched}
        return self._command_ids

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.close_tables_in({channel.id}, msg("table.channel_deleted"))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.close_tables_in({payload.thread_id}, msg("table.channel_deleted"))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        channels = {table.channel_id for table in self.manager.tables if table.guild_id == guild.id}
        await self.close_tables_in(channels, msg("table.bot_removed"))

    async def close_tables_in(self, channel_ids: set[int], reason: Text) -> int:
        """Close the tables living in ``channel_ids`` (or in threads started from them):
        the channel or thread was deleted, or the bot removed from its server. Nothing more
        is posted there; each player's DM hand says why; hands already played stay
        settled and the one in progress is not (as when the host ends a table)."""
        tables = [
            table for table in self.manager.tables
            if table.channel_id in channel_ids
            or self.manager.parent_of(table.table_id) in channel_ids
        ]  # fmt: skip
        for table in tables:
            log.info("table %s: its channel %s is gone; closing it", table.table_id,
                     table.channel_id)  # fmt: skip
            self.presenter.channel_gone(table.channel_id)
            await self.presenter.table_gone(table.table_id, table.humans, reason)
            await table.abandon()
            self.presenter.forget_later(table.table_id)  # nothing will be sent there
        return len(tables)

    async def on_ready(self) -> None:
        log.info("connected as %s (%s) to %d guild(s)", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds))  # fmt: skip
        if self.application_id is not None:
            log.info("invite: %s", invite_url(self.application_id))

    # ------------------------------------------------------------------ helpers for cogs

    def owns_guild(self, guild_id: int) -> bool:
        """True when this process's shards carry ``guild_id`` (always, when not sharded)."""
        return self.shard_plan.owns(guild_id)

    def next_seed(self) -> int | None:
        return next(self._seeds, None) if self._seeds is not None else None

    def table_here(self, interaction: discord.Interaction[Any]) -> TableSession:
        """The table of the channel (or thread) the command was typed in; in a channel
        whose tables live in threads, its only one, or a list of their threads to pick
        from when there are several (a guess could seat someone at the wrong table)."""
        channel_id = interaction.channel_id or 0
        table = self.manager.by_channel(channel_id)
        if table is not None:
            return table
        in_threads = self.manager.tables_under(channel_id)
        if len(in_threads) == 1:
            return in_threads[0]
        if in_threads:
            threads = ", ".join(f"<#{t.channel_id}>" for t in in_threads[:20])
            raise UserFacingError(msg("table.several_here", count=len(in_threads), threads=threads))
        raise UserFacingError(msg("table.none_here"))

    def table_of(self, user_id: int) -> TableSession:
        table = self.manager.table_of_user(user_id)
        if table is None:
            raise UserFacingError(msg("table.none_yours"))
        return table

    async def guard_command(self, interaction: discord.Interaction[Any]) -> bool:
        """The tree's check before every slash command: start the same watchdog that
        component clicks have, so a command stuck behind a busy database or table queue
        is deferred before Discord's 3-second limit instead of failing with 10062.
        Commands answer through ``respond``/``reply``/``defer`` (they share the guard's
        lock); a command whose answer is public says so with ``extras={"public": True}``."""
        if interaction.type is discord.InteractionType.application_command:
            command = interaction.command
            extras: dict[str, Any] = getattr(command, "extras", None) or {}
            public = bool(extras.get("public"))
            AckGuard.of(interaction, thinking=True, ephemeral=not public)
            if interaction.guild_id is None and not _works_in_dms(command):
                # Discord hides these outside servers, but a stale registration or a
                # hand-made request still delivers them: say so, not "try again".
                raise app_commands.NoPrivateMessage()
            if require_manager in getattr(command, "checks", ()) and not is_manager(interaction):
                raise NotManager("Manage Server required")  # before what the values are
            refusal = refused_option(command, interaction.data or {}, ranges=False)
            if refusal is not None:
                raise UserFacingError(refusal)
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            # The server's locale as this command reports it, noted before the command
            # runs (the interaction event, which notes it too, may run after): a table
            # opened now names its thread in the channel's language.
            self.presenter.remember_locale(
                interaction.user.id, None, interaction.guild_id, str(interaction.guild_locale)
            )
        return True

    async def defer(self, interaction: discord.Interaction[Any]) -> None:
        """Acknowledge now (a slow answer follows), unless the watchdog already did."""
        await AckGuard.of(interaction, thinking=True, ephemeral=True).defer()

    async def respond(
        self,
        interaction: discord.Interaction[Any],
        content: str,
        *,
        ephemeral: bool = True,
        file: discord.File | None = None,
        files: Sequence[discord.File] = (),
    ) -> None:
        """Send ``content`` as the interaction's answer (or its follow-up once it was
        deferred), cut to Discord's limit, under the watchdog's lock."""
        content = fit(content)
        extra: dict[str, Any] = {"file": file} if file is not None else {}
        if files:
            extra["files"] = list(files)
        guard = interaction.extras.get("ack_guard")
        lock = guard.lock if isinstance(guard, AckGuard) else contextlib.nullcontext()
        async with lock:
            if interaction.response.is_done():
                await interaction.followup.send(content, ephemeral=ephemeral, **extra)
            else:
                await interaction.response.send_message(content, ephemeral=ephemeral, **extra)
        if isinstance(guard, AckGuard):
            guard.done()

    async def reply(
        self, interaction: discord.Interaction[Any], text: Text, *, ephemeral: bool = True
    ) -> None:
        """One answer in the reader's language (ephemeral by default)."""
        await self.respond(interaction, say(text, interaction.locale), ephemeral=ephemeral)

    async def acknowledge(self, interaction: discord.Interaction[Any]) -> None:
        """Acknowledge a component click that needs no visible answer."""
        guard = AckGuard.of(interaction)
        await guard.defer()
        guard.done()

    # ------------------------------------------------------------------ component clicks

    async def on_play_click(
        self,
        interaction: discord.Interaction[Any],
        table_id: str,
        turn_id: int,
        action: dict[str, Any],
    ) -> None:
        try:
            await self._play_click(interaction, table_id, turn_id, action)
        except Exception as error:
            await self._component_failed(interaction, error)

    async def _play_click(
        self,
        interaction: discord.Interaction[Any],
        table_id: str,
        turn_id: int,
        action: dict[str, Any],
    ) -> None:
        user_id = interaction.user.id
        guard = AckGuard(interaction)  # from here on, the 3-second limit is watched
        table = self.manager.get(table_id)
        if table is None and interaction.guild_id is None and not self.shard_plan.runs_every_shard:
            # Defer first: finding and reaching the owner may take a while. A failed defer
            # (Discord delivered this interaction twice and the first was acknowledged)
            # still publishes: the owner applies an interaction once, whatever arrives.
            with contextlib.suppress(discord.HTTPException):
                await guard.defer()
            guard.done()
            await self._route_click(interaction, table_id, turn_id, action)
            return
        if table is None or table.status != "running":
            await self.reply(interaction, msg("table.gone"))
            return
        if table.seat_of(user_id) is None:
            await self.reply(interaction, msg("table.not_seated"))
            return
        if action.get("type") == "discard" and not action.get("tile"):
            await self.reply(interaction, msg("error.no_tile"))
            return
        self.presenter.register_click(user_id, interaction)
        try:
            result = await table.submit(user_id, action, turn_id)
        finally:
            taken = self.presenter.release_click(user_id, interaction)
        if taken:
            return  # the presenter answers with the new hand
        if not result.ok:
            await self.reply(interaction, result.message or msg("table.stale"))
        else:
            await self.acknowledge(interaction)

    async def route_typed_move(
        self, interaction: discord.Interaction[Any], action: dict[str, Any], done: Text
    ) -> bool:
        """A move typed as a slash command in a DM (DM interactions all arrive on shard 0)
        by a player whose table this process does not hold: hand it to the table's owner,
        which answers with ``done`` or its refusal through the token. False when the user
        is seated at no table anywhere (or this process runs every shard)."""
        if interaction.guild_id is not None or self.shard_plan.runs_every_shard:
            return False
        table_id = await self.store.seated_game(interaction.user.id)
        if table_id is None:
            return False
        await self.defer(interaction)
        await self._route_click(interaction, table_id, None, action, done=done)
        return True

    async def _route_click(
        self,
        interaction: discord.Interaction[Any],
        table_id: str,
        turn_id: int | None,
        action: dict[str, Any],
        *,
        done: Text | None = None,
    ) -> None:
        """A DM click (they all arrive on shard 0) for a table this process does not hold:
        hand it to the process of the table's guild. Already deferred; the owner answers
        through the interaction token."""
        game = await self.store.get_game(table_id)
        if game is None or game.status != "running":
            await self.reply(interaction, msg("table.gone"))
            return
        shard = self.shard_plan.owner_of(int(game.guild_id))
        if self.shard_plan.owns(int(game.guild_id)):
            # Ours, yet not in memory (closed meanwhile, or its restore failed).
            await self.reply(interaction, msg("table.gone"))
            return
        await self.router.publish(
            RoutedClick(
                interaction_id=interaction.id,
                application_id=int(interaction.application_id),
                token=interaction.token,
                user_id=interaction.user.id,
                table_id=table_id,
                turn_id=turn_id,
                action=dict(action),
                shard_id=shard,
                locale=str(interaction.locale),
                done={"zh": done.zh, "en": done.en} if done is not None else None,
            )
        )

    async def apply_routed_click(self, click: RoutedClick) -> None:
        """The owner's half of a routed click (the router guarantees once per interaction):
        play it; the presenter edits the DM hand as for any move, and a refusal (or a typed
        move's confirmation) is sent as an ephemeral follow-up through the token of the
        interaction, which was deferred."""
        self.presenter.seen(click.user_id)  # at the screen, though their click came routed
        table = self.manager.get(click.table_id)
        text: Text | None = None
        if table is None or table.status != "running":
            text = msg("table.gone")
        elif table.seat_of(click.user_id) is None:
            text = msg("table.not_seated")
        else:
            result = await table.submit(click.user_id, click.action, click.turn_id)
            if not result.ok:
                text = result.message or msg("table.stale")
            elif click.done is not None:
                text = Text(click.done["zh"], click.done["en"])
        if text is None:
            return
        # An application (type 3) webhook, as ``Interaction.followup`` builds it: only those
        # may send ephemeral messages (a ``Webhook.partial`` raises ValueError here).
        followup = discord.Webhook.from_state(
            data={"id": click.application_id, "type": 3, "token": click.token},
            state=self._connection,
        )
        with contextlib.suppress(discord.HTTPException):
            await followup.send(fit(say(text, click.locale)), ephemeral=True)

    async def on_table_click(
        self, interaction: discord.Interaction[Any], table_id: str, what: str
    ) -> None:
        try:
            await self._table_click(interaction, table_id, what)
        except Exception as error:
            await self._component_failed(interaction, error)

    async def _table_click(
        self, interaction: discord.Interaction[Any], table_id: str, what: str
    ) -> None:
        user = interaction.user
        AckGuard(interaction, thinking=what == "hand", ephemeral=True)
        table = self.manager.get(table_id)
        if table is None:
            await self.reply(interaction, msg("table.gone"))
            return
        if what == "hand":
            await self.show_hand(interaction, table)
            return
        if what == "join":
            result = await table.join(user.id, user.display_name)
        elif what == "leave" or what.startswith("quit"):
            confirmed = int(what[4:]) if what.startswith("quit") else None
            await self.leave_table(interaction, table, confirmed=confirmed)
            return
        elif what.startswith("end"):
            after = what == "endafter"
            price = None if after else int(what[3:])
            await self.end_table(interaction, table, confirmed=price, after_hand=after)
            return
        elif what == "start":
            result = await table.start(user.id)
        elif what == "ai":
            result = await table.add_ai(user.id)
        elif what == "noai":
            result = await table.remove_ai(user.id)
        elif what == "back":
            # "Back" on the DM (or ephemeral) hand of a seat in autoplay: answered by the
            # new hand itself. On the table message it is only acknowledged, since a
            # hand must never replace the public message.
            private = _on_private_hand(interaction)
            if private:
                self.presenter.register_click(user.id, interaction)
            try:
                result = await table.back(user.id)
            finally:
                taken = private and self.presenter.release_click(user.id, interaction)
            if taken:
                return
        else:  # the custom-id pattern admits nothing else
            return
        if result.ok:
            await self.acknowledge(interaction)
        else:
            await self.reply(interaction, result.message or msg("error.generic"))

    async def leave_table(
        self, interaction: discord.Interaction[Any], table: TableSession, *, confirmed: int | None
    ) -> None:
        """Leave ``table``; mid-match, first say what it costs and leave only on the button
        confirming that price (``confirmed``, from its id): a penalty nobody saw coming is
        points lost by a typo, and one that rose since (三摊) is asked again."""
        result = await table.leave(interaction.user.id, max_penalty=confirmed or 0)
        view = functools.partial(leave_view, table.table_id, locale=str(interaction.locale))
        # The answer carries the penalty, if one was charged.
        await self._answer_priced(
            interaction, result, view, on_question=confirmed is not None, done=msg("table.left")
        )

    async def end_table(
        self,
        interaction: discord.Interaction[Any],
        table: TableSession,
        *,
        confirmed: int | None,
        after_hand: bool = False,
    ) -> None:
        """End ``table``; a seated player with a hand in play is first told the price of
        ending now and offered to end after the hand instead (``leave_table``'s pattern:
        the price pressed is the price charged, a changed one is asked again)."""
        result = await table.end(
            interaction.user.id,
            is_admin=is_manager(interaction),
            max_penalty=confirmed or 0,
            after_hand=after_hand,
        )
        view = functools.partial(end_view, table.table_id, locale=str(interaction.locale))
        on_question = confirmed is not None or after_hand  # both buttons are the question's
        await self._answer_priced(
            interaction, result, view, on_question=on_question, done=msg("table.ended")
        )

    async def _answer_priced(
        self,
        interaction: discord.Interaction[Any],
        result: SubmitResult,
        view: Callable[[int], discord.ui.View],
        *,
        on_question: bool,
        done: Text,
    ) -> None:
        """Answer a leave or an end that may cost points: the question with the price
        (``view`` of it) when the session asks (again, in place, if the price changed
        under a button), else the answer, which a pressed question becomes (its buttons
        gone: no second charge)."""
        if result.confirm is not None:
            question = say(result.message or msg("error.generic"), interaction.locale)
            if on_question:
                await edit_clicked(interaction, question, view(result.confirm))
            else:
                await send_with_view(interaction, question, view(result.confirm))
            return
        text = (result.message or done) if result.ok else result.message or msg("error.generic")
        if on_question and result.ok:
            await edit_clicked(interaction, say(text, interaction.locale), None)
            return
        await self.reply(interaction, text)

    async def on_toggle_click(
        self, interaction: discord.Interaction[Any], table_id: str, setting: str
    ) -> None:
        try:
            await self._toggle_click(interaction, table_id, setting)
        except Exception as error:
            await self._component_failed(interaction, error)

    async def _toggle_click(
        self, interaction: discord.Interaction[Any], table_id: str, setting: str
    ) -> None:
        """A shortcut on a hand: the session saves it (and plays it now if it answers
        the current question); the click is answered by the hand with its new buttons."""
        from bot.discord_views import TOGGLE_SETTINGS

        user_id = interaction.user.id
        AckGuard(interaction)
        table = self.manager.get(table_id)
        if table is None or table.status != "running":
            await self.reply(interaction, msg("table.gone"))
            return
        name, value = TOGGLE_SETTINGS[setting]
        self.presenter.register_click(user_id, interaction)
        try:
            result = await table.set_toggle(user_id, name, value)
        finally:
            taken = self.presenter.release_click(user_id, interaction)
        if taken:
            return
        if not result.ok:
            await self.reply(interaction, result.message or msg("error.generic"))
        else:
            await self.acknowledge(interaction)

    async def show_hand(self, interaction: discord.Interaction[Any], table: TableSession) -> None:
        user_id = interaction.user.id
        if table.seat_of(user_id) is None:
            await self.reply(interaction, msg("table.not_seated"))
            return
        prompt = table.prompt_for(user_id)
        if prompt is None:
            await self.reply(interaction, msg("table.not_running"))
            return
        await self.presenter.show_hand(interaction, prompt)

    async def _component_failed(
        self, interaction: discord.Interaction[Any], error: Exception
    ) -> None:
        if isinstance(error, UserFacingError | SessionError):
            text = error.text
        else:
            log.error(
                "component %s by user %s in channel %s failed",
                interaction.data.get("custom_id") if interaction.data else None,
                interaction.user.id,
                interaction.channel_id,
                exc_info=error,
            )
            text = msg("error.generic")
        with contextlib.suppress(discord.HTTPException):
            await self.reply(interaction, text)

    # ------------------------------------------------------------------ errors

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Every slash-command failure ends here and becomes a friendly message."""
        text = describe_error(interaction, error)
        if interaction.type is discord.InteractionType.autocomplete:
            return
        with contextlib.suppress(discord.HTTPException):
            await self.reply(interaction, text)

    # ------------------------------------------------------------------ weekly leaderboard

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now(), UTC)

    async def post_weekly_leaderboards(self) -> int:
        """Post last week's board where it is due (the economy cog owns the posting)."""
        return await self._economy().post_weekly_leaderboards()

    def _economy(self) -> EconomyCog:
        cog = self.get_cog("EconomyCog")
        assert isinstance(cog, EconomyCog), "install_commands adds the economy cog"
        return cog


class ShardedMahjongBot(MahjongBot, commands.AutoShardedBot):
    """The bot running some shards (``--shard-count N --shards …``): one gateway
    connection per shard in this process, the guilds of those shards only."""


def make_bot(store: Store, *, shard_plan: ShardPlan | None = None, **kwargs: Any) -> MahjongBot:
    """The bot for ``shard_plan``: a plain ``MahjongBot`` unless it is sharded."""
    plan = shard_plan or ShardPlan()
    if not plan.sharded:
        return MahjongBot(store, shard_plan=plan, **kwargs)
    return ShardedMahjongBot(
        store, shard_plan=plan, shard_count=plan.shard_count, shard_ids=list(plan.shard_ids),
        **kwargs,
    )  # fmt: skip


def default_process_name() -> str:
    """Who holds a lease: unique per process, readable in the database."""
    import os
    import secrets
    import socket

    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def _on_private_hand(interaction: discord.Interaction[Any]) -> bool:
    """Was this click made on a message only its user sees (a DM or an ephemeral)?"""
    message = interaction.message
    if interaction.guild_id is None:
        return True
    return message is not None and message.flags.ephemeral


# Every cog, in the order its commands are registered (bot.command_names reads their
# names from here too).
COGS: tuple[type[Any], ...] = (
    TablesCog,
    PlayCog,
    EconomyCog,
    AdminCog,
    GuideCog,
    ReviewCog,
    StatsCog,
)


async def install_commands(bot: commands.Bot) -> None:
    """The cogs and the translator: what ``setup_hook`` and ``mahjong-bot commands`` share."""
    await bot.tree.set_translator(MahjongTranslator())
    # ``mahjong-bot commands`` passes a bare Bot: building the payload never touches the
    # MahjongBot parts (store, manager) the cogs use when a command runs.
    mahjong_bot = cast("MahjongBot", bot)
    for cog in COGS:
        await bot.add_cog(cog(mahjong_bot))
