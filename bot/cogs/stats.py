"""``/stats [user] [variant] [period]``: a player's card, read from the per-day aggregates.

The figures come from ``Store.player_card_stats`` (aggregates kept in the settlement
transaction, so a card costs a few index lookups however long the ledger is); the card
(``render.stats``) and the text reply are drawn from the same ``PlayerStats``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_table import variant_names
from bot.errors import UserFacingError
from bot.i18n import T, Text, is_chinese, msg, say
from data import PlayerStats, next_month
from engine.variants import RULE_SETS
from render.alt_text import describe_stats

from .tables import refresh_variant_choices, variant_choices

if TYPE_CHECKING:
    from bot.app import MahjongBot

# period value -> (label key of render.text, zh, en)
PERIODS: dict[str, tuple[str, str, str]] = {
    "all": ("stats_all_time", "全部", "All time"),
    "week": ("stats_this_week", "本周", "This week"),
    "last_week": ("stats_last_week", "上周", "Last week"),
    "month": ("stats_this_month", "本月", "This month"),
    "last_month": ("stats_last_month", "上月", "Last month"),
}


async def period_days(
    bot: MahjongBot, guild_id: int, period: str
) -> tuple[date | None, date | None]:
    """The local days ``[first, end)`` a period covers in the guild's time zone, by the
    store's clock (the one that dated the ledger rows the figures come from)."""
    now = None
    if period in ("week", "last_week"):
        bounds = await bot.store.week_bounds(guild_id, int(period == "last_week"), now)
        return bounds.week_start, bounds.week_start + timedelta(days=7)
    if period in ("month", "last_month"):
        first = await bot.store.month_start(guild_id, int(period == "last_month"), now)
        return first, next_month(first)
    return None, None


def rate(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def stats_text(stats: PlayerStats, name: str, scope: Text) -> Text:
    """The card's figures as text, for screen readers and for players with images off."""
    mean = "-" if stats.mean_points is None else f"{stats.mean_points:+.1f}"
    biggest = f"+{stats.biggest.points}" if stats.biggest else "-"
    return Text(
        f"**{name}** · {scope.zh}\n局数 {stats.hands} · 胡牌率 {rate(stats.win_rate)} · "
        f"自摸率 {rate(stats.self_draw_share)} · 放铳率 {rate(stats.deal_in_rate)} · "
        f"每局均分 {mean} · 输赢 {stats.net:+d} · 最大胡牌 {biggest}",
        f"**{name}** · {scope.en}\nHands {stats.hands} · win rate {rate(stats.win_rate)} · "
        f"self-draw share {rate(stats.self_draw_share)} · deal-in rate "
        f"{rate(stats.deal_in_rate)} · mean per hand {mean} · net {stats.net:+d} · "
        f"biggest hand {biggest}",
    )


class StatsCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        refresh_variant_choices(self, "variant")

    @app_commands.command(
        name=T("stats", "统计"), description=T("A player's statistics card", "玩家统计卡片")
    )
    @app_commands.guild_only()
    @app_commands.rename(user=T("user", "用户"), variant=T("variant", "玩法"),
                         period=T("period", "时段"))  # fmt: skip
    @app_commands.describe(
        user=T("Whose statistics (default: yours)", "查看谁的统计（默认自己）"),
        variant=T("One rule set (default: all)", "只看一种玩法（默认全部）"),
        period=T("Which days (default: all time)", "哪段时间（默认全部）"),
    )
    @app_commands.choices(
        variant=variant_choices(),
        period=[
            app_commands.Choice(name=T(en, zh), value=value)
            for value, (_key, zh, en) in PERIODS.items()
        ],
    )
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.Member | discord.User | None = None,  # or one who left the server
        variant: str | None = None,
        period: str = "all",
    ) -> None:
        assert interaction.guild_id is not None
        target = user or interaction.user
        if getattr(target, "bot", False):
            raise UserFacingError(Text("机器人没有统计", "Bots have no statistics"))
        if variant is not None and variant not in RULE_SETS:
            raise UserFacingError(msg("error.bad_value", reason=str(variant)[:40]))
        if period not in PERIODS:
            raise UserFacingError(msg("error.bad_value", reason=str(period)[:40]))
        await self.bot.defer(interaction)
        first, end = await period_days(self.bot, interaction.guild_id, period)
        stats = await self.bot.store.player_card_stats(
            interaction.guild_id, target.id, variant=variant, first_day=first, end_day=end
        )
        _key, period_zh, period_en = PERIODS[period]
        if variant is None:
            variant_zh, variant_en = "全部玩法", "all rule sets"
        else:
            variant_zh, variant_en = variant_names(variant)
        days = (
            f" ({first.isoformat()} – {(end - timedelta(days=1)).isoformat()})"
            if first and end
            else ""
        )
        scope = Text(f"{period_zh}{days} · {variant_zh}", f"{period_en}{days} · {variant_en}")
        zh = is_chinese(interaction.locale)
        locale = str(interaction.locale) if zh else "en"
        subtitle = say(scope, interaction.locale)
        presenter = self.bot.presenter
        picture = await presenter.picture(
            presenter.renderer.stats, describe_stats, stats, target.display_name, subtitle, locale
        )
        text = stats_text(stats, target.display_name, scope).keeping(target.display_name)
        await self.bot.respond(
            interaction, say(text, interaction.locale), file=picture.file("stats.png")
        )


__all__ = ["PERIODS", "StatsCog", "period_days", "stats_text"]
