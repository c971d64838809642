"""``/history`` and ``/replay``, and the buttons that page, open, step, export and rematch.

History reads the player's matches from the store (``Store.match_history``: rule set,
seats, each hand's winner and points) and pages through them with buttons; a match opens
to its hands, and a hand opens as a replay. A replay is rebuilt from the stored seed and
action log (``bot.replays``) and drawn with every hand face up (``render.replay``) in a
worker thread, after the click is acknowledged, so the event loop never waits on Pillow.
Every view belongs to the user it was made for: anyone else's press is refused, and a
history view older than ``HISTORY_TTL`` minutes is refused as stale (its pages may have
moved). Replies follow the reader's locale (zh-CN first, English otherwise).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.tables import VARIANT_CHOICES, refresh_variant_choices
from bot.discord_ack import AckGuard
from bot.discord_core import DISCORD_CONTENT_LIMIT, discord_file, fit_lines
from bot.discord_review import (
    HISTORY_TTL,
    HistoryMatchSelect,
    HistoryPageButton,
    MatchHandSelect,
    replay_step_view,
)
from bot.discord_table import variant_names
from bot.errors import UserFacingError
from bot.i18n import T, Text, escape_user_text, image_locale, in_readers_script, msg, say
from bot.rematch import Rematches
from bot.replays import LoadedHand, ReplayLookupError, find_game, load_hand
from bot.session import SessionError
from data.history import HandSummary, MatchSummary
from engine.replay import HandReplay
from render.alt_text import describe_replay_frame
from render.replay import render_replay_animation, render_replay_frame

if TYPE_CHECKING:
    from bot.app import MahjongBot

log = logging.getLogger(__name__)

PAGE_SIZE = 5
ATTACHMENT_LIMIT = 10 * 1024 * 1024  # Discord's upload limit for bots
MAX_MENU_OPTIONS = 25  # a select menu's options
_EARLIER_NOTE_ROOM = 80  # "-# 更早的 N 局…" above a match's hands


def _minutes(bot: Any) -> int:
    return int(bot.clock.now() // 60)


class ReviewCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self._rematches: Rematches | None = None
        refresh_variant_choices(self, "variant")

    @property
    def rematches(self) -> Rematches:
        """Created on first use: ``mahjong-bot commands`` builds the cogs without a manager."""
        if self._rematches is None:
            self._rematches = Rematches(self.bot.manager)
        return self._rematches

    async def cog_unload(self) -> None:
        if self._rematches is not None:
            await self._rematches.shutdown()

    # ------------------------------------------------------------------ answering

    async def _send(
        self,
        interaction: discord.Interaction[Any],
        content: str,
        *,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        """A new ephemeral message for the user (or the deferred reply's follow-up)."""
        extra: dict[str, Any] = {}
        if file is not None:
            extra["file"] = file
        if view is not None:
            in_readers_script(view, interaction.locale)
            extra["view"] = view
        guard = interaction.extras.get("ack_guard")
        lock = guard.lock if isinstance(guard, AckGuard) else contextlib.nullcontext()
        async with lock:
            if interaction.response.is_done():
                await interaction.followup.send(
                    content[:DISCORD_CONTENT_LIMIT], ephemeral=True, **extra
                )
            else:
                await interaction.response.send_message(
                    content[:DISCORD_CONTENT_LIMIT], ephemeral=True, **extra
                )
        if isinstance(guard, AckGuard):
            guard.done()

    async def _edit(
        self,
        interaction: discord.Interaction[Any],
        content: str,
        *,
        view: discord.ui.View | None,
        file: discord.File | None = None,
    ) -> None:
        """Replace the message the pressed component is on."""
        extra: dict[str, Any] = {"attachments": [file]} if file is not None else {}
        if view is not None:
            in_readers_script(view, interaction.locale)
        guard = interaction.extras.get("ack_guard")
        lock = guard.lock if isinstance(guard, AckGuard) else contextlib.nullcontext()
        async with lock:
            if interaction.response.is_done():
                await interaction.edit_original_response(
                    content=content[:DISCORD_CONTENT_LIMIT], view=view, **extra
                )
            else:
                await interaction.response.edit_message(
                    content=content[:DISCORD_CONTENT_LIMIT], view=view, **extra
                )
        if isinstance(guard, AckGuard):
            guard.done()

    async def _refuse(self, interaction: discord.Interaction[Any], text: Text) -> None:
        await self._send(interaction, say(text, interaction.locale))

    async def _guarded(self, interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
        """Run a component's work; a refusal or an unexpected error becomes a message."""
        try:
            await work
        except (ReplayLookupError, SessionError, UserFacingError) as error:
            with contextlib.suppress(discord.HTTPException):
                await self._refuse(interaction, error.text)
        except Exception:
            log.exception(
                "review component %s by user %s failed",
                interaction.data.get("custom_id") if interaction.data else None,
                interaction.user.id,
            )
            with contextlib.suppress(discord.HTTPException):
                await self._refuse(interaction, msg("error.generic"))

    # ------------------------------------------------------------------ /history

    @app_commands.command(
        name=T("history", "战绩"),
        description=T(
            "Recent matches: opponents, each hand's winner, your result",
            "最近的对局：对手、每局谁胡、你的得失",
        ),
    )
    @app_commands.guild_only()
    @app_commands.rename(user=T("user", "用户"), variant=T("variant", "玩法"))
    @app_commands.describe(
        user=T("Whose matches (default: yours)", "查看谁的对局（默认自己）"),
        variant=T("Only this rule set", "只看这种玩法"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction[Any],
        user: discord.Member | discord.User | None = None,  # or one who left the server
        variant: str | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        target = user or interaction.user
        if getattr(target, "bot", False):
            raise UserFacingError(Text("机器人没有对局记录", "Bots have no match history"))
        content, view = await self._history_page(
            interaction, interaction.user.id, target.id, variant, 0
        )
        await self._send(interaction, content, view=view)

    async def _history_page(
        self,
        interaction: discord.Interaction[Any],
        owner: int,
        target: int,
        variant: str | None,
        page: int,
    ) -> tuple[str, discord.ui.View | None]:
        assert interaction.guild_id is not None
        result = await self.bot.store.match_history(
            interaction.guild_id,
            target,
            variant=variant,
            limit=PAGE_SIZE,
            offset=page * PAGE_SIZE,
        )
        locale = interaction.locale
        if result.total == 0:
            return say(msg("history.empty"), locale), None
        pages = max(1, -(-result.total // PAGE_SIZE))
        name = await self.bot.name_of(interaction.guild, target)
        lines = [f"**{say(msg('history.title', name=name, page=page + 1, pages=pages), locale)}**"]
        # Each match gets an equal share of the message, so every match the menu below
        # offers is listed (a long match lists its first hands and how many more).
        share = (DISCORD_CONTENT_LIMIT - len(lines[0])) // max(1, len(result.matches)) - 1
        for match in result.matches:
            lines.append(self._match_line(match, target, owner, locale, share))
        issued = _minutes(self.bot)
        view = discord.ui.View(timeout=None)
        if result.matches:
            options = [
                discord.SelectOption(
                    label=self._match_label(match, locale)[:100], value=match.game_id
                )
                for match in result.matches
            ]
            view.add_item(
                HistoryMatchSelect(
                    owner, target, issued, options, say(msg("history.pick_match"), locale)
                )
            )
        view.add_item(
            HistoryPageButton(
                owner, target, variant, max(0, page - 1), issued, "p", disabled=page == 0
            )
        )
        view.add_item(
            HistoryPageButton(
                owner,
                target,
                variant,
                min(pages - 1, page + 1),
                issued,
                "n",
                disabled=page >= pages - 1,
            )
        )
        return fit_lines(lines), view

    @staticmethod
    def _variant(variant: str, locale: discord.Locale | str | None) -> str:
        zh, en = variant_names(variant)
        return say(Text(zh, en), locale)

    def _match_label(self, match: MatchSummary, locale: discord.Locale | str | None) -> str:
        when = (match.finished_at or match.created_at).strftime("%Y-%m-%d %H:%M")
        return f"{when} · {self._variant(match.variant, locale)} · {match.game_id}"

    def _seat_name(self, match: MatchSummary, seat: int | None, reader: int, locale: Any) -> str:
        """A seat as ``reader`` calls it: "you" for their own seat only, so a manager
        reading someone else's history sees that player's name."""
        for record in match.seats:
            if record.get("seat") == seat:
                if record.get("user_id") == reader and not record.get("is_ai"):
                    return say(msg("history.you"), locale)
                prefix = "🤖 " if record.get("is_ai") else ""
                return prefix + str(record.get("name") or f"#{(seat or 0) + 1}")
        return f"#{(seat or 0) + 1}"

    def _hand_text(
        self, match: MatchSummary, hand: Any, target: int, reader: int, locale: Any
    ) -> str:
        label = say(msg("history.hand_line", hand=hand.hand_number + 1), locale)
        if hand.winner_seat is None:
            outcome = say(msg("history.draw"), locale)
        else:
            winner = self._seat_name(match, hand.winner_seat, reader, locale)
            outcome = say(msg("history.won_by", name=winner), locale)
        mine = match.points_for(target, hand)
        if mine is None:  # an AI (or someone else) held their seat for this hand
            return f"{label} {outcome}"
        if hand.voided:  # reversed by a manager: struck through, counted nowhere
            return f"{label} {outcome} ~~{mine:+d}~~ {say(msg('history.voided'), locale)}"
        return f"{label} {outcome} **{mine:+d}**"

    def _match_line(
        self, match: MatchSummary, target: int, reader: int, locale: Any, room: int
    ) -> str:
        """The match in at most ``room`` characters: when, rule set, opponents, total,
        then its hands (as many as fit, and how many more)."""
        when = int((match.finished_at or match.created_at).timestamp())
        seat = match.seat_of(target)
        opponents = ", ".join(
            escape_user_text(self._seat_name(match, record.get("seat"), reader, locale))
            for record in match.seats
            if record.get("seat") != seat
        )
        status = f" · {say(msg('history.running'), locale)}" if match.status == "running" else ""
        total = say(msg("history.total", points=f"{match.total_for(target):+d}"), locale)
        head = (
            f"<t:{when}:f> · {self._variant(match.variant, locale)} · vs {opponents} · "
            f"**{total}**{status} · `{match.game_id}`"
        )
        texts = [
            self._hand_text(match, hand, target, reader, locale) for hand in match.hands_of(target)
        ]
        hands = _join_within(texts, room - len(head) - 4, locale)
        return f"{head}\n-# {hands}" if hands else head

    async def _check_owner(
        self, interaction: discord.Interaction[Any], owner: int, issued: int | None = None
    ) -> bool:
        if interaction.user.id != owner:
            await self._refuse(interaction, msg("review.not_yours"))
            return False
        if issued is not None and _minutes(self.bot) - issued > HISTORY_TTL:
            await self._refuse(interaction, msg("history.stale"))
            return False
        return True

    async def on_history_page(
        self,
        interaction: discord.Interaction[Any],
        owner: int,
        target: int,
        variant: str | None,
        page: int,
        issued: int,
    ) -> None:
        async def work() -> None:
            AckGuard(interaction)
            if not await self._check_owner(interaction, owner, issued):
                return
            content, view = await self._history_page(interaction, owner, target, variant, page)
            await self._edit(interaction, content, view=view)

        await self._guarded(interaction, work())

    async def on_history_open(
        self,
        interaction: discord.Interaction[Any],
        owner: int,
        target: int,
        issued: int,
        game_id: str,
    ) -> None:
        async def work() -> None:
            AckGuard(interaction)
            if not await self._check_owner(interaction, owner, issued):
                return
            match = await self.bot.store.match_summary(game_id)
            if match is None or match.guild_id != interaction.guild_id:
                raise ReplayLookupError(msg("replay.no_game", game=game_id[:40]))
            locale = interaction.locale
            content, shown = self._match_detail(match, target, owner, locale)
            view = discord.ui.View(timeout=None)
            options = [
                discord.SelectOption(
                    label=say(msg("history.hand_line", hand=hand.hand_number + 1), locale),
                    value=str(hand.hand_number + 1),
                    description=_signed(match.points_for(target, hand)),
                )
                for hand in shown
            ]
            view.add_item(
                MatchHandSelect(
                    owner, match.game_id, options, say(msg("history.pick_hand"), locale)
                )
            )
            view.add_item(HistoryPageButton(owner, target, None, 0, _minutes(self.bot), "b"))
            await self._edit(interaction, content, view=view)

        await self._guarded(interaction, work())

    def _match_detail(
        self, match: MatchSummary, target: int, reader: int, locale: Any
    ) -> tuple[str, list[HandSummary]]:
        """A match's hands, one line each with every seat's points, and the hands listed:
        the latest that fit (at most a menu's 25), listed and offered alike; earlier ones
        are named by count (/replay opens any hand by its number)."""
        title = f"**{self._match_label(match, locale)}**"
        room = DISCORD_CONTENT_LIMIT - len(title) - _EARLIER_NOTE_ROOM
        shown: list[tuple[HandSummary, str]] = []
        for hand in reversed(match.hands):
            points = " · ".join(
                f"{escape_user_text(self._seat_name(match, s, reader, locale))} {value:+d}"
                for s, value in enumerate(hand.points)
            )
            line = f"{self._hand_text(match, hand, target, reader, locale)} — {points}"
            room -= len(line) + 1
            if len(shown) == MAX_MENU_OPTIONS or room < 0:
                break
            shown.append((hand, line))
        shown.reverse()
        lines = [title]
        if len(shown) < len(match.hands):
            earlier = len(match.hands) - len(shown)
            lines.append(f"-# {say(msg('history.earlier_hands', count=earlier), locale)}")
        lines += [line for _hand, line in shown]
        return fit_lines(lines), [hand for hand, _line in shown]

    # ------------------------------------------------------------------ /replay

    @app_commands.command(
        name=T("replay", "回放"),
        description=T(
            "Step through a finished hand with every tile face up",
            "逐步回放已结束的一局，所有手牌明示",
        ),
    )
    @app_commands.guild_only()
    @app_commands.rename(game=T("game", "牌局"), hand=T("hand", "第几局"))
    @app_commands.describe(
        game=T(
            "Game id or its first characters (see /history)", "牌局编号或它的前几位（见 /战绩）"
        ),
        hand=T("Which hand, from 1", "第几局（从 1 开始）"),
    )
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        hand: app_commands.Range[int, 1, 9999] = 1,
    ) -> None:
        try:
            record = await find_game(self.bot.store, game)
            if record.guild_id != interaction.guild_id:
                raise ReplayLookupError(msg("replay.no_game", game=game[:40]))
            await self._open_replay(interaction, record.game_id, hand)
        except ReplayLookupError as error:
            raise UserFacingError(error.text) from error

    async def _load(
        self, interaction: discord.Interaction[Any], game_id: str, hand: int
    ) -> LoadedHand:
        game = await self.bot.store.get_game(game_id)
        if game is None or game.guild_id != interaction.guild_id:
            raise ReplayLookupError(msg("replay.no_game", game=game_id[:40]))
        return await load_hand(self.bot.store, game, hand)

    async def _caption(self, loaded: LoadedHand, step: int, locale: Any) -> str:
        caption = msg(
            "replay.caption",
            game=loaded.game.game_id,
            hand=loaded.hand_label,
            step=step,
            steps=loaded.record.steps,
        )
        # Asked each time, not kept with the cached hand: a manager may void it later.
        if await self.bot.store.hand_void(loaded.game.game_id, loaded.record.hand_number):
            voided = msg("replay.voided")
            caption = Text(f"{caption.zh}{voided.zh}", f"{caption.en} {voided.en}")
        return say(caption, locale)

    async def _frame(self, loaded: LoadedHand, step: int, locale: Any) -> discord.File:
        language = image_locale(locale)

        def draw(record: HandReplay, step: int, names: Sequence[str], language: str) -> bytes:
            return render_replay_frame(record, step, names=names, locale=language)

        picture = await self.bot.presenter.picture(
            draw, describe_replay_frame, loaded.record, step, loaded.names, language
        )
        return picture.file("replay.png")

    async def _open_replay(
        self, interaction: discord.Interaction[Any], game_id: str, hand: int
    ) -> None:
        await AckGuard.of(interaction, thinking=True, ephemeral=True).defer()
        loaded = await self._load(interaction, game_id, hand)
        locale = interaction.locale
        file = await self._frame(loaded, 0, locale)
        view = replay_step_view(
            interaction.user.id, game_id, hand, 0, loaded.record.steps, str(locale)
        )
        await self._send(interaction, await self._caption(loaded, 0, locale), file=file, view=view)

    async def on_replay_open(
        self, interaction: discord.Interaction[Any], owner: int | None, game_id: str, hand: int
    ) -> None:
        async def work() -> None:
            AckGuard(interaction, thinking=True, ephemeral=True)
            if owner is not None and not await self._check_owner(interaction, owner):
                return
            await self._open_replay(interaction, game_id, hand)

        await self._guarded(interaction, work())

    async def on_replay_step(
        self,
        interaction: discord.Interaction[Any],
        owner: int,
        game_id: str,
        hand: int,
        step: int,
    ) -> None:
        async def work() -> None:
            guard = AckGuard(interaction)
            if not await self._check_owner(interaction, owner):
                return
            await guard.defer()  # the frame renders in a thread; the click is answered now
            loaded = await self._load(interaction, game_id, hand)
            step_now = max(0, min(step, loaded.record.steps))
            locale = interaction.locale
            file = await self._frame(loaded, step_now, locale)
            view = replay_step_view(
                owner, game_id, hand, step_now, loaded.record.steps, str(locale)
            )
            await self._edit(
                interaction, await self._caption(loaded, step_now, locale), view=view, file=file
            )

        await self._guarded(interaction, work())

    async def on_replay_export(
        self, interaction: discord.Interaction[Any], owner: int, game_id: str, hand: int
    ) -> None:
        async def work() -> None:
            guard = AckGuard(interaction, thinking=True, ephemeral=True)
            if not await self._check_owner(interaction, owner):
                return
            await guard.defer()
            loaded = await self._load(interaction, game_id, hand)
            locale = interaction.locale
            language = image_locale(str(locale))
            data = await asyncio.to_thread(
                render_replay_animation,
                loaded.record,
                names=loaded.names,
                locale=language,
                fmt="gif",
            )
            # Its alt text: how the hand ended (the animation's last frame, in words).
            ending = describe_replay_frame(
                loaded.record, loaded.record.steps, loaded.names, language
            )
            if len(data) > ATTACHMENT_LIMIT:
                await self._refuse(interaction, msg("replay.too_big"))
                return
            text = msg("replay.exported", game=game_id, hand=hand, frames=len(loaded.record.frames))
            name = f"replay-{game_id}-{hand}.gif"
            await self._send(interaction, say(text, locale), file=discord_file(data, name, ending))

        await self._guarded(interaction, work())

    # ------------------------------------------------------------------ rematch

    async def on_rematch(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        async def work() -> None:
            AckGuard(interaction, thinking=True, ephemeral=True)
            game = await self.bot.store.get_game(game_id)
            if game is None or game.guild_id != interaction.guild_id:
                raise SessionError(msg("rematch.gone"))
            user = interaction.user
            text = await self.rematches.request(game, user.id, user.display_name)
            await self._refuse(interaction, text)

        await self._guarded(interaction, work())


def _join_within(texts: list[str], room: int, locale: Any) -> str:
    """``texts`` joined by " · ", as many from the start as fit in ``room`` characters
    with "… N more" after them when some do not."""
    kept: list[str] = []
    used = 0
    for index, text in enumerate(texts):
        more = say(msg("history.more_hands", count=len(texts) - index), locale)
        last = index == len(texts) - 1
        if used + len(text) + 3 + (0 if last else len(more) + 3) > room:
            return " · ".join([*kept, more])
        kept.append(text)
        used += len(text) + 3
    return " · ".join(kept)


def _signed(points: int | None) -> str | None:
    return None if points is None else f"{points:+d}"
