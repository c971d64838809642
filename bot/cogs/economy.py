"""``/balance``, ``/leaderboard``, ``/history``: points, weekly and all-time boards, your hands.

Leaderboards are queries over the ledger (``data.Store``), so any past week can be shown
again (``weeks_ago``); the weekly board is also posted automatically by the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_retry import retry_discord
from bot.errors import UserFacingError
from bot.i18n import T, Text, is_chinese, msg, say
from render.dates import week_dates

if TYPE_CHECKING:
    from bot.app import MahjongBot

log = logging.getLogger(__name__)

MAX_WEEKS_AGO = 520


async def leaderboard_message(
    bot: MahjongBot,
    guild: discord.Guild | None,
    *,
    weekly: bool,
    weeks_ago: int = 0,
    now: datetime | None = None,
    months_ago: int | None = None,
) -> tuple[str, discord.File | None]:
    """The board as text (both languages) and an image; the image is None when empty.
    ``months_ago`` (not None) asks for a monthly season instead of a week."""
    guild_id = guild.id if guild is not None else 0
    period = "week" if weekly else "all_time"
    if months_ago is not None:
        month = await bot.store.month_start(guild_id, months_ago)
        rows = await bot.store.monthly_leaderboard(guild_id, month, limit=10)
        title = Text(f"月榜 · {month:%Y-%m}", f"Monthly season · {month:%Y-%m}")
        subtitle = f"{month:%Y-%m}"
        period = "month"
    elif weekly:
        bounds = await bot.store.week_bounds(guild_id, weeks_ago, now)
        rows = await bot.store.weekly_leaderboard(guild_id, week_start=bounds.week_start, limit=10)
        title = msg("leaderboard.week", start=bounds.week_start.isoformat())
        subtitle = week_dates(bounds.week_start, "zh")  # 11月23日–29日, as the image is drawn
    else:
        rows = await bot.store.alltime_leaderboard(guild_id, limit=10)
        title = msg("leaderboard.alltime")
        subtitle = guild.name if guild is not None else ""
    if not rows:
        empty = msg("leaderboard.empty")
        return f"**{title.zh}** · {title.en}\n{empty.zh} · {empty.en}", None
    named = [
        (rank, await bot.name_of(guild, row.user_id), row.net, row.hands, row.wins)
        for rank, row in enumerate(rows, start=1)
    ]
    lines = [f"**{title.zh}** · {title.en}"]
    for rank, name, net, hands, wins in named:
        lines.append(f"{rank}. {name} **{net:+d}** · {hands} 局/hands · {wins} 胡/wins")
    renderer = bot.presenter.renderer
    png = await asyncio.to_thread(renderer.leaderboard, named, period, subtitle, "zh")
    return "\n".join(lines)[:2000], discord.File(io.BytesIO(png), "leaderboard.png")


class EconomyCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self._weekly_task: asyncio.Task[None] | None = None

    @app_commands.command(name=T("balance", "余额"), description=T("Show a balance", "查看余额"))
    @app_commands.guild_only()
    @app_commands.rename(user=T("user", "用户"))
    @app_commands.describe(user=T("Whose balance (default: yours)", "查看谁的余额（默认自己）"))
    async def balance(
        self, interaction: discord.Interaction[Any], user: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        target = user or interaction.user
        if getattr(target, "bot", False):
            raise UserFacingError(Text("机器人没有余额", "Bots have no balance"))
        amount = await self.bot.store.get_balance(interaction.guild_id, target.id)
        await self.bot.reply(
            interaction, msg("balance.show", name=target.display_name, balance=amount)
        )

    @app_commands.command(
        name=T("leaderboard", "排行榜"),
        description=T("Weekly or all-time leaderboard", "周榜或总榜"),
        extras={"public": True},  # the board is posted for everyone (see guard_command)
    )
    @app_commands.guild_only()
    @app_commands.rename(period=T("period", "范围"), weeks_ago=T("weeks_ago", "几周前"))
    @app_commands.describe(
        period=T("This week, a monthly season or all time", "本周、月榜或全部"),
        weeks_ago=T(
            "0 = this week (or month), 1 = the one before…", "0 = 本周（本月），1 = 上周（上月）…"
        ),
    )
    @app_commands.choices(
        period=[
            app_commands.Choice(name=T("weekly", "周榜"), value="weekly"),
            app_commands.Choice(name=T("monthly season", "月榜"), value="monthly"),
            app_commands.Choice(name=T("all-time", "总榜"), value="alltime"),
        ]
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        period: str = "weekly",
        weeks_ago: app_commands.Range[int, 0, MAX_WEEKS_AGO] = 0,
    ) -> None:
        if period not in ("weekly", "monthly", "alltime"):
            raise UserFacingError(msg("error.bad_value", reason=str(period)[:20]))
        if not 0 <= weeks_ago <= MAX_WEEKS_AGO:
            raise UserFacingError(
                Text(
                    f"几周前必须在 0 到 {MAX_WEEKS_AGO} 之间",
                    f"weeks_ago must be 0 to {MAX_WEEKS_AGO}",
                )
            )
        await self.bot.defer(interaction)
        content, file = await leaderboard_message(
            self.bot, interaction.guild, weekly=period == "weekly", weeks_ago=weeks_ago,
            now=self.bot.now(), months_ago=weeks_ago if period == "monthly" else None,
        )  # fmt: skip
        await self.bot.respond(interaction, content, ephemeral=False, file=file)

    @app_commands.command(
        name=T("history", "战绩"), description=T("Your last hands", "你最近的对局记录")
    )
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        entries = await self.bot.store.history(interaction.guild_id, interaction.user.id, limit=10)
        if not entries:
            await self.bot.reply(interaction, msg("history.empty"))
            return
        zh = is_chinese(interaction.locale)
        lines = []
        for entry in entries:
            when = f"<t:{int(entry.created_at.timestamp())}:d>"
            mark = ("🏆 " if entry.is_winner else "") + f"**{entry.points:+d}**"
            hand = (
                (f"第 {entry.hand_number + 1} 局" if zh else f"hand {entry.hand_number + 1}")
                if entry.hand_number is not None
                else ""
            )
            lines.append(f"{when} {mark} · {entry.game_id or ''} {hand} → {entry.balance_after}")
        await self.bot.respond(interaction, "\n".join(lines))

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
        """Post last week's board in every guild that set a channel and has not had it yet.

        The week key is stored per guild (``last_leaderboard_week``) once the post went
        out (transient Discord errors are retried first), so a failed post is tried again
        at the next check instead of being lost; a crash between the post and the mark
        may post a week twice, which beats never. Returns how many boards were posted.
        """
        posted = 0
        now = self.bot.now()
        for guild in list(self.bot.guilds):
            settings = await self.bot.store.get_settings(guild.id)
            if settings.leaderboard_channel is None:
                continue
            bounds = await self.bot.store.week_bounds(guild.id, 1, now)
            if settings.last_leaderboard_week == bounds.week_start:
                continue
            if (
                settings.last_leaderboard_week is not None
                and settings.last_leaderboard_week > bounds.week_start
            ):
                continue
            content, file = await leaderboard_message(
                self.bot, guild, weekly=True, weeks_ago=1, now=now
            )
            if file is None:  # nobody played that week: nothing worth a post
                await self.bot.store.update_settings(
                    guild.id, last_leaderboard_week=bounds.week_start
                )
                continue
            image = file.fp.read()
            channel = self.bot.get_partial_messageable(
                settings.leaderboard_channel, guild_id=guild.id
            )
            try:
                await retry_discord(
                    lambda channel=channel, content=content, image=image, name=file.filename: (  # type: ignore[misc]
                        channel.send(content, file=discord.File(io.BytesIO(image), name))
                    ),
                    self._sleep,
                    f"weekly leaderboard of guild {guild.id}",
                )
            except discord.HTTPException:
                log.exception("could not post the weekly leaderboard in guild %s", guild.id)
                continue  # not marked: the next check posts it
            # Marked only once posted, so a failed post is tried again at the next check.
            await self.bot.store.update_settings(guild.id, last_leaderboard_week=bounds.week_start)
            posted += 1
        return posted


__all__ = ["EconomyCog", "leaderboard_message", "say"]
