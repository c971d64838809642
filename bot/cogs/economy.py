"""``/balance``, ``/leaderboard``: points, weekly and all-time boards (``/history`` is in
``bot.cogs.review``).

Leaderboards are queries over the ledger (``data.Store``), so any past week can be shown
again (``weeks_ago``); the weekly board is also posted automatically by the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import is_manager
from bot.discord_core import Picture
from bot.discord_retry import retry_discord
from bot.discord_table import variant_names
from bot.errors import UserFacingError
from bot.i18n import T, Text, in_server_script, msg, say
from bot.messages import msg_each
from data import StatementLine, next_month
from engine.variants import RULE_SETS
from render.alt_text import describe_leaderboard
from render.dates import week_dates

from .tables import refresh_variant_choices, variant_choices

if TYPE_CHECKING:
    from bot.app import MahjongBot

log = logging.getLogger(__name__)

MAX_WEEKS_AGO = 520
LEADERBOARD_FILE = "leaderboard.png"
STATEMENT_LINES = 10  # the latest movements /balance lists (a match's hands are one)


async def leaderboard_message(
    bot: MahjongBot,
    guild: discord.Guild | None,
    *,
    weekly: bool,
    weeks_ago: int = 0,
    now: datetime | None = None,
    months_ago: int | None = None,
    variant: str | None = None,
    asker: int | None = None,
) -> tuple[str, Picture | None]:
    """The board as text (both languages) and a picture with its alt text; the picture
    is None when the board is empty.
    ``months_ago`` (not None) asks for a monthly season instead of a week; ``variant``
    one rule set's board instead of the server's. Both are in the server's channel
    language, like its tables. ``asker``, when on the board below the top ten, gets
    their own line with their rank after the ten (the picture keeps the ten)."""
    guild_id = guild.id if guild is not None else 0
    language = await bot.presenter.channel_language(guild_id)
    store = bot.store
    period = "week" if weekly else "all_time"
    board: dict[str, Any] = {"variant": variant}  # which board, for the asker's place
    if months_ago is not None:
        month = await store.month_start(guild_id, months_ago)
        if variant is None:
            rows = await store.monthly_leaderboard(guild_id, month, limit=10)
            board["month_start"] = month
        else:
            rows = await store.variant_leaderboard(guild_id, variant, month, next_month(month))
            board.update(first_day=month, end_day=next_month(month))
        title = Text(f"月榜 · {month:%Y-%m}", f"Monthly season · {month:%Y-%m}")
        subtitle = f"{month:%Y-%m}"
        period = "month"
    elif weekly:
        start = (await store.week_bounds(guild_id, weeks_ago, now)).week_start
        if variant is None:
            rows = await store.weekly_leaderboard(guild_id, week_start=start, limit=10)
            board["week_start"] = start
        else:
            rows = await store.variant_leaderboard(
                guild_id, variant, start, start + timedelta(days=7)
            )
            board.update(first_day=start, end_day=start + timedelta(days=7))
        title = msg("leaderboard.week", start=start.isoformat())
        subtitle = week_dates(start, language)  # 11月23日–29日, as the image
    else:
        if variant is None:
            rows = await store.alltime_leaderboard(guild_id, limit=10)
        else:
            rows = await store.variant_leaderboard(guild_id, variant)
        title = msg("leaderboard.alltime")
        subtitle = guild.name if guild is not None else ""
    if variant is not None:  # 台州麻将 · 2026-11-23 起的一周排行榜
        name_zh, name_en = variant_names(variant)
        title = Text(f"{name_zh} · {title.zh}", f"{name_en} · {title.en}")
        subtitle = f"{RULE_SETS[variant].display_name(language)} · {subtitle}".rstrip(" ·")
    if not rows:
        empty = msg("leaderboard.empty")
        content = f"**{title.zh}** · {title.en}\n{empty.zh} · {empty.en}"
        return in_server_script(content, language), None
    named = [
        (rank, await bot.name_of(guild, row.user_id), row.net, row.hands, row.wins)
        for rank, row in enumerate(rows, start=1)
    ]
    lines = [f"**{title.zh}** · {title.en}", *(_board_line(*entry) for entry in named)]
    names = [name for _rank, name, *_figures in named]
    if asker is not None and all(row.user_id != asker for row in rows):
        place = await store.leaderboard_position(guild_id, asker, **board)
        if place is not None:  # "and me?": the asker's own line below the ten
            rank, row = place
            name = await bot.name_of(guild, asker)
            if rank > len(named) + 1:
                lines.append("…")
            lines.append(_board_line(rank, name, row.net, row.hands, row.wins))
            names.append(name)
    picture = await bot.presenter.picture(
        bot.presenter.renderer.leaderboard, describe_leaderboard, named, period, subtitle, language
    )
    content = in_server_script("\n".join(lines), language, names)
    return content[:2000], picture


def _board_line(rank: int, name: str, net: int, hands: int, wins: int) -> str:
    """``3. 老王 **+24** · 12 局/hands · 胡 1 次/win``: wins counted in 次, since a bare
    胡 after a number reads as Taizhou's point unit."""
    hands_en = "hand" if hands == 1 else "hands"
    wins_en = "win" if wins == 1 else "wins"
    return f"{rank}. {name} **{net:+d}** · {hands} 局/{hands_en} · 胡 {wins} 次/{wins_en}"


def _count(number: int, noun: str) -> str:
    """An English count: "1 hand", "3 hands"."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


class EconomyCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self._weekly_task: asyncio.Task[None] | None = None
        refresh_variant_choices(self, "variant")

    @app_commands.command(
        name=T("balance", "余额"),
        description=T("A balance and its latest changes", "查看余额和最近的变动"),
    )
    @app_commands.guild_only()
    @app_commands.rename(user=T("user", "用户"))
    @app_commands.describe(user=T("Whose balance (default: yours)", "查看谁的余额（默认自己）"))
    async def balance(
        self,
        interaction: discord.Interaction[Any],
        user: discord.Member | discord.User | None = None,  # one who left has a balance too
    ) -> None:
        assert interaction.guild_id is not None
        target = user or interaction.user
        if getattr(target, "bot", False):
            raise UserFacingError(msg("error.bot_no_balance"))
        if target.id == interaction.user.id:
            amount = await self.bot.store.get_balance(interaction.guild_id, target.id)
        else:  # looking someone up opens no account for them
            found = await self.bot.store.peek_balance(interaction.guild_id, target.id)
            if found is None:
                settings = await self.bot.store.get_settings(interaction.guild_id)
                start = f"{settings.starting_balance:,}"
                text = msg("balance.no_account", name=target.display_name, balance=start)
                await self.bot.respond(interaction, say(text, interaction.locale))
                return
            amount = found
        lines = await self.bot.store.statement(
            interaction.guild_id, target.id, limit=STATEMENT_LINES
        )
        head = msg("balance.show", name=target.display_name, balance=f"{amount:,}")
        rows = [f"**{say(head, interaction.locale)}**"]
        # An adjustment's reason is between the player and the server's managers: anyone
        # else sees that it was made, and by whom, but not why.
        reasons = target.id == interaction.user.id or is_manager(interaction)
        if lines:
            rows.append(say(msg("balance.recent"), interaction.locale))
            for line in lines:
                text = await self._statement_text(interaction.guild, line, reasons=reasons)
                rows.append(f"- <t:{int(line.at.timestamp())}:f> · {say(text, interaction.locale)}")
        await self.bot.respond(interaction, "\n".join(rows))

    async def _statement_text(
        self, guild: discord.Guild | None, line: StatementLine, *, reasons: bool
    ) -> Text:
        """One movement of the balance in words: what it was, what it moved and the balance
        after it; a match (or its penalty) by its id, which ``/replay`` takes; an
        adjustment's reason only with ``reasons``."""
        if line.kind == "hand":
            zh_name, en_name = variant_names(line.variant or "")
            what = msg_each(
                "balance.match",
                {"variant": zh_name, "hands": line.hands, "wins": line.wins},
                {"variant": en_name, "hands": _count(line.hands, "hand"), "wins": line.wins},
            )
        elif line.kind == "adjustment":
            by = await self.bot.name_of(guild, line.by_user) if line.by_user is not None else "?"
            if reasons:
                # Escaped with the names when the line is said (``typed`` is user text).
                what = msg("balance.adjustment_why", name=by, typed=f"“{line.reason}”")
            else:
                what = msg("balance.adjustment", name=by)
        elif line.kind == "penalty":
            what = msg("balance.penalty" if line.points < 0 else "balance.penalty_share")
        elif line.kind == "void":
            by = await self.bot.name_of(guild, line.by_user) if line.by_user is not None else "?"
            what = msg("balance.void", name=by)
        else:
            what = msg("balance.opening")
        moved = f"**{line.points:+,d}**"
        if line.original_points != line.points:
            capped = msg("balance.capped", points=f"{line.original_points:+,d}")
            moved_zh, moved_en = moved + capped.zh, moved + capped.en
        else:
            moved_zh = moved_en = moved
        after = f" → {line.balance_after:,}" if line.balance_after is not None else ""
        game = f" · `{line.game_id}`" if line.game_id else ""
        return Text(
            f"{what.zh} · {moved_zh}{after}{game}",
            f"{what.en} · {moved_en}{after}{game}",
            what.keep,
        )

    @app_commands.command(
        name=T("leaderboard", "排行榜"),
        description=T("Weekly, monthly or all-time leaderboard", "周榜、月榜或总榜"),
        extras={"public": True},  # the board is posted for everyone (see guard_command)
    )
    @app_commands.guild_only()
    @app_commands.rename(
        period=T("period", "范围"), weeks_ago=T("weeks_ago", "几周前"), variant=T("variant", "玩法")
    )
    @app_commands.describe(
        period=T("This week, a monthly season or all time", "本周、月榜或全部"),
        weeks_ago=T(
            "0 = this week (or month), 1 = the one before…", "0 = 本周（本月），1 = 上周（上月）…"
        ),
        variant=T("One rule set's tables only (default: all)", "只排一种玩法（默认全部）"),
    )
    @app_commands.choices(
        period=[
            app_commands.Choice(name=T("weekly", "周榜"), value="weekly"),
            app_commands.Choice(name=T("monthly season", "月榜"), value="monthly"),
            app_commands.Choice(name=T("all-time", "总榜"), value="alltime"),
        ],
        variant=variant_choices(),
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        period: str = "weekly",
        weeks_ago: app_commands.Range[int, 0, MAX_WEEKS_AGO] = 0,
        variant: str | None = None,
    ) -> None:
        if period not in ("weekly", "monthly", "alltime"):
            raise UserFacingError(msg("error.bad_value", reason=str(period)[:20]))
        if variant is not None and variant not in RULE_SETS:
            raise UserFacingError(msg("error.bad_value", reason=str(variant)[:40]))
        if not 0 <= weeks_ago <= MAX_WEEKS_AGO:
            raise UserFacingError(
                Text(
                    f"几周前必须在 0 到 {MAX_WEEKS_AGO} 之间",
                    f"weeks_ago must be 0 to {MAX_WEEKS_AGO}",
                )
            )
        await self.bot.defer(interaction)
        content, picture = await leaderboard_message(
            self.bot, interaction.guild, weekly=period == "weekly", weeks_ago=weeks_ago,
            now=self.bot.now(), months_ago=weeks_ago if period == "monthly" else None,
            variant=variant, asker=interaction.user.id,
        )  # fmt: skip
        file = picture.file(LEADERBOARD_FILE) if picture is not None else None
        await self.bot.respond(interaction, content, ephemeral=False, file=file)

    # ------------------------------------------------------------------ weekly posts

    def start_weekly_posts(self, interval: float) -> None:
        """Check every ``interval`` seconds whether last week's board is due anywhere."""
        self._weekly_task = asyncio.get_running_loop().create_task(
            self._weekly_loop(interval), name="leaderboard-poster"
        )

    async def stop_weekly_posts(self) -> None:
        if self._weekly_task is not None:
            self._weekly_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._weekly_task

    async def _sleep(self, seconds: float) -> None:
        await self.bot.clock.sleep_until(self.bot.clock.now() + seconds)

    async def _weekly_loop(self, interval: float) -> None:
        await self.bot.wait_until_ready()  # the guild list comes with the gateway
        while True:  # until stop_weekly_posts cancels it
            try:
                await self.post_weekly_leaderboards()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("weekly leaderboard posting failed")
            await self.bot.clock.sleep_until(self.bot.clock.now() + interval)

    async def post_weekly_leaderboards(self) -> int:
        """Post last week's board in every guild of this process that set a channel and
        has not had it yet. Returns how many boards were posted.

        Once per guild and week across processes: the post is made under a lease in the
        database (``weekly-leaderboard:<guild>:<week>``), so a second process holding the
        same shard (a replacement started before the old one stopped) skips it, and the
        week is re-read under the lease. It is marked (``last_leaderboard_week``) only
        once posted, so a failed post is tried again at the next check.

        A process that dies (or whose mark fails) between the post and the mark leaves its
        lease row behind; whoever takes the lease next (after it expired, or the same
        process at once) sees ``previous_holder`` and first looks for the post in the
        channel's recent messages; and the post carries a nonce Discord deduplicates for a
        few minutes. What remains: a post that was deleted, or buried
        under more than ``HISTORY_LOOKBACK`` newer messages, or a channel whose history
        the bot may not read, is posted again once the lease expires.
        """
        posted = 0
        now = self.bot.now()
        for guild in list(self.bot.guilds):
            if not self.bot.owns_guild(guild.id):
                continue  # another process's guild (it also receives its events)
            try:
                posted += await self._post_weekly(guild, now)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("weekly leaderboard of guild %s failed", guild.id)
        return posted

    async def _post_weekly(self, guild: discord.Guild, now: datetime) -> int:
        settings = await self.bot.store.get_settings(guild.id)
        if settings.leaderboard_channel is None:
            return 0
        bounds = await self.bot.store.week_bounds(guild.id, 1, now)
        if _already_posted(settings.last_leaderboard_week, bounds.week_start):
            return 0
        lease_name = f"weekly-leaderboard:{guild.id}:{bounds.week_start.isoformat()}"
        holder = self.bot.process_name
        lease = await self.bot.leases.acquire(
            lease_name, holder, int(LEASE_SECONDS * 1000), int(self.bot.clock.now() * 1000)
        )
        if lease is None:
            return 0  # another process is posting it right now
        settings = await self.bot.store.get_settings(guild.id)  # re-read under the lease
        if _already_posted(settings.last_leaderboard_week, bounds.week_start):
            posted = 0
        else:
            # An exception here (the mark failed after the post, say) leaves the lease row
            # in place on purpose: whether the board went out is unknown, and the next
            # attempt, seeing ``previous_holder``, looks in the channel before posting.
            posted = await self._post_board(guild, settings.leaderboard_channel,
                                            bounds.week_start, now,
                                            earlier_attempt=lease.previous_holder is not None)  # fmt: skip
        with contextlib.suppress(Exception):  # known outcome: posted and marked, or not posted
            await self.bot.leases.release(lease_name, holder)
        return posted

    async def _post_board(
        self,
        guild: discord.Guild,
        channel_id: int | None,
        week_start: date,
        now: datetime,
        *,
        earlier_attempt: bool,
    ) -> int:
        assert channel_id is not None
        content, picture = await leaderboard_message(
            self.bot, guild, weekly=True, weeks_ago=1, now=now
        )
        if picture is None:  # nobody played that week: nothing worth a post
            await self.bot.store.update_settings(guild.id, last_leaderboard_week=week_start)
            return 0
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild.id)
        if earlier_attempt and await self._found_in_channel(channel, content):
            log.info("weekly board of guild %s was posted by an earlier attempt", guild.id)
            await self.bot.store.update_settings(guild.id, last_leaderboard_week=week_start)
            return 0
        nonce = weekly_nonce(guild.id, week_start)
        try:
            await retry_discord(
                lambda: channel.send(content, file=picture.file(LEADERBOARD_FILE), nonce=nonce),
                self._sleep,
                f"weekly leaderboard of guild {guild.id}",
            )
        except discord.Forbidden as error:
            # The channel's permissions changed after it was set (the setting checks them):
            # a warning, not a crash; the next check tries again, in case they are back.
            log.warning("guild %s: the leaderboard channel %s refuses the bot's post (%s %s); "
                        "a permission was taken away", guild.id, channel_id, error.status,
                        error.code)  # fmt: skip
            await self._note_problem(guild.id, "permissions", week_start)
            return 0
        except discord.NotFound:
            log.warning("guild %s: the leaderboard channel %s is gone", guild.id, channel_id)
            await self._note_problem(guild.id, "channel_gone", week_start)
            return 0
        except discord.HTTPException:
            log.exception("could not post the weekly leaderboard in guild %s", guild.id)
            return 0  # not marked: the next check posts it
        await self.bot.store.update_settings(
            guild.id, last_leaderboard_week=week_start, leaderboard_problem=None
        )
        return 1

    async def _note_problem(self, guild_id: int, kind: str, week_start: date) -> None:
        """Keep why the board did not go out, for /mjadmin settings to say: a log line
        alone left the admin to learn it from the players."""
        problem = f"{kind}:{week_start.isoformat()}"
        with contextlib.suppress(Exception):  # the post is retried either way
            await self.bot.store.update_settings(guild_id, leaderboard_problem=problem)

    async def _found_in_channel(self, channel: discord.PartialMessageable, content: str) -> bool:
        """Whether the bot's own board (same first line: the week) is among the channel's
        recent messages. Unreadable history counts as "not found": posting again beats
        never posting."""
        me = self.bot.user.id if self.bot.user is not None else None
        headline = content.split("\n", 1)[0]
        try:
            async for message in channel.history(limit=HISTORY_LOOKBACK):
                if message.author.id == me and message.content.split("\n", 1)[0] == headline:
                    return True
        except discord.HTTPException:
            log.warning("could not read the leaderboard channel's history", exc_info=True)
        return False


LEASE_SECONDS = 600.0  # longer than a post with its retries takes
HISTORY_LOOKBACK = 50  # messages searched for an earlier attempt's post


def _already_posted(last_posted: date | None, week_start: date) -> bool:
    return last_posted is not None and last_posted >= week_start


def weekly_nonce(guild_id: int, week_start: date) -> str:
    """Discord drops a second message with the same nonce from the same author for a few
    minutes (``enforce_nonce``, which discord.py sets): a retry right after a lost answer
    does not post twice. At most 25 characters."""
    return f"lb{week_start:%Y%m%d}{guild_id % 10**15}"


__all__ = ["EconomyCog", "leaderboard_message", "say"]
