"""``/mjadmin settings``, ``/mjadmin rules``, ``/mjadmin adjust``, ``/mjadmin tables``,
``/mjadmin end``, ``/mjadmin void``, ``/mjadmin ledger`` and ``/mjadmin export`` (Manage
Server).

The command's default permission only hides it in clients; a server can override that
per role, so Manage Server is checked again here on every call.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import (
    LEADERBOARD_PERMISSIONS,
    is_manager,
    missing_permissions,
    require_manager,
)
from bot.cogs.tables import VARIANT_CHOICES, refresh_variant_choices
from bot.discord_ack import edit_clicked
from bot.discord_core import DISCORD_CONTENT_LIMIT, discord_file, fit_lines
from bot.discord_table import variant_names
from bot.discord_views import TABLE_ID
from bot.errors import UserFacingError
from bot.export_files import pack_export
from bot.i18n import T, Text, bilingual_label, is_chinese, label_for, msg, public, say
from bot.messages import msg_each
from bot.presenter import SeatInfo
from bot.rules_flow import send_with_view
from bot.table_options import MAX_STAKE
from data import (
    BOT_KEPT_SETTINGS,
    GuildSettings,
    LedgerEntry,
    SettingRangeError,
    SettingsError,
    VoidRefused,
)
from data.audit import AUDIT_KINDS, LEDGER_KINDS
from data.export import export_guild
from data.models import validate_setting
from engine.variants import RULE_SETS

if TYPE_CHECKING:
    from bot.app import MahjongBot
    from bot.session import TableSession

MAX_ADJUST = 10**9
CLEARABLE = ("leaderboard_channel", "min_balance", "hand_cap", "day_cap", "max_stake")
_TABLES_HEADER_ROOM = 80  # "**开着的牌桌：13–20 / 20**" above a page of tables
LEDGER_PAGE = 10  # rows a page of /mjadmin ledger lists
_LEDGER_ROOM = 160  # its title and the note under the rows
MAX_LEDGER_PAGE = 99_999
_MENTION = re.compile(r"<@[0-9]+>")  # a user the bot has no name for (Discord shows one)
_CHANNEL = re.compile(r"<#([0-9]{1,20})>|([0-9]{15,20})")  # a table's channel, as typed
CONFIRM_TTL = 15  # minutes a confirmation's button stays usable (as a history view's)


# /mjadmin settings' options: their names as the admin types them (Chinese from the
# translator), also the names its listing gives each setting.
_SETTING_OPTIONS: dict[str, app_commands.locale_str] = {
    "timezone": T("timezone", "时区"),
    "leaderboard_channel": T("leaderboard_channel", "排行榜频道"),
    "discard_timeout": T("discard_timeout", "出牌限时"),
    "claim_timeout": T("claim_timeout", "吃碰限时"),
    "default_variant": T("default_variant", "默认玩法"),
    "starting_balance": T("starting_balance", "初始积分"),
    "min_balance": T("min_balance", "入座最低积分"),
    "hand_cap": T("hand_cap", "单局封顶"),
    "day_cap": T("day_cap", "每日封顶"),
    "max_stake": T("max_stake", "最高底注"),
    "channel_language": T("channel_language", "牌桌语言"),
    "ai_hands_on_boards": T("ai_hands_on_boards", "ai局计入排行榜"),
    "clear": T("clear", "清除"),
}

# Each setting's English name in the listing, and the unit its number counts (zh, en).
_SETTING_WORDS: dict[str, tuple[str, tuple[str, str]]] = {
    "timezone": ("Time zone", ("", "")),
    "leaderboard_channel": ("Leaderboard channel", ("", "")),
    "discard_timeout": ("Discard time", (" 秒", " s")),
    "claim_timeout": ("Claim time", (" 秒", " s")),
    "default_variant": ("Default rule set", ("", "")),
    "starting_balance": ("Starting balance", (" 积分", " points")),
    "min_balance": ("Minimum balance to sit", (" 积分", " points")),
    "hand_cap": ("Cap per hand", (" 积分", " points")),
    "day_cap": ("Cap per day", (" 积分", " points")),
    "max_stake": ("Highest stake", ("", "")),
    "channel_language": ("Table language", ("", "")),
    "ai_hands_on_boards": ("Hands with AI seats on the leaderboards", ("", "")),
}


def _setting_name(name: str) -> Text:
    """A setting as ``/mjadmin settings`` names it to users: its option's Chinese name
    and its English label (what its listing shows)."""
    option = _SETTING_OPTIONS.get(name)
    chinese = option.extras.get("zh", name) if option is not None else name
    return Text(chinese, _SETTING_WORDS.get(name, (name, ("", "")))[0])


def _range_text(error: SettingRangeError) -> Text:
    """A number out of range as the admin typed it: the setting's name from the command,
    its unit, numbers with thousands separators (the store's text names its key)."""
    if error.low is None or error.high is None:  # one-sided: no option an admin types
        return Text(error.zh, error.en)
    name = _setting_name(error.name)
    unit_zh, unit_en = _SETTING_WORDS.get(error.name, (error.name, ("", "")))[1]
    low, high, value = f"{error.low:,}", f"{error.high:,}", f"{error.value:,}"
    return msg_each(
        "admin.out_of_range",
        {"setting": name.zh, "low": low, "high": high, "value": value, "unit": unit_zh},
        {"setting": name.en, "low": low, "high": high, "value": value, "unit": unit_en},
    )


def _value_text(name: str, value: Any, zh: bool, *, unit: bool = True) -> str:
    """A setting's value as its listing shows it (a channel as a link, a rule set by its
    name, a number with separators and, with ``unit``, its unit)."""
    if value is None:
        return "未设置" if zh else "not set"
    if name == "leaderboard_channel":
        return f"<#{value}>"
    if name == "default_variant":
        return variant_names(value)[0 if zh else 1] if value in RULE_SETS else str(value)
    if isinstance(value, bool):
        return ("计入" if value else "不计入") if zh else ("count" if value else "do not count")
    if isinstance(value, int):
        units = _SETTING_WORDS.get(name, (name, ("", "")))[1]
        return f"{value:,}{units[0 if zh else 1] if unit else ''}"
    return str(value)


def _change_text(name: str, old: Any, new: Any, zh: bool) -> str:
    """One change as "出牌限时 30 → 60 秒": the unit once, after the last number."""
    label = _setting_name(name).zh if zh else _setting_name(name).en
    if old == new:
        shown = _value_text(name, new, zh)
        return f"{label} 仍为 {shown}" if zh else f"{label} still {shown}"
    new_text = _value_text(name, new, zh)
    old_text = _value_text(name, old, zh, unit=not isinstance(new, int))
    return f"{label} {old_text} → {new_text}"


def _check_minimum_reachable(before: GuildSettings, changes: dict[str, Any]) -> None:
    """Refuse a minimum balance to sit above the starting balance (as the change leaves
    them): every new player would be refused a seat, and the admin would learn it only
    from players' complaints."""
    minimum = changes.get("min_balance", before.min_balance)
    starting = changes.get("starting_balance", before.starting_balance)
    if minimum is not None and minimum > starting:
        raise UserFacingError(
            msg("admin.min_above_start", minimum=f"{minimum:,}", starting=f"{starting:,}")
        )


class AdminCog(commands.Cog):
    admin = app_commands.Group(
        name=T("mjadmin", "麻将管理"),
        description=T(
            "Server settings for mahjong (Manage Server)", "麻将服务器设置（需管理服务器权限）"
        ),
        # One way to say where a command works, the current one (``contexts``); the
        # flag behind the deprecated ``dm_permission`` is kept in agreement with it.
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        refresh_variant_choices(self, "default_variant")
        # /mjadmin void's questions waiting for their button: token -> (guild, game,
        # hand, reason). Kept here only: a press after a restart is refused as stale.
        self._pending_voids: dict[str, tuple[int, str, int, str]] = {}

    @admin.command(
        name=T("rules", "规则"),
        description=T(
            "Server defaults for a rule set's options (new tables start with them)",
            "本服务器各玩法的默认规则选项（新牌桌沿用）",
        ),
    )
    @app_commands.check(require_manager)
    @app_commands.rename(
        variant=T("variant", "玩法"), option=T("option", "选项"), value=T("value", "值")
    )
    @app_commands.describe(
        variant=T("Rule set", "规则"),
        option=T("Option name (leave out to list them all)", "选项名（不填则列出全部）"),
        value=T("New default; 'reset' goes back to the rule set's", "新的默认值；reset 恢复原默认"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(
        self,
        interaction: discord.Interaction[Any],
        variant: str,
        option: app_commands.Range[str, 1, 40] | None = None,
        value: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        from bot.rules_flow import check_value, defaults_text, parse_value, spec_of
        from bot.table_options import TableOptions, TableOptionsError

        assert interaction.guild_id is not None
        if variant not in RULE_SETS:
            raise UserFacingError(msg("error.bad_value", reason=str(variant)[:40]))
        store = self.bot.store
        defaults = await store.rule_defaults(interaction.guild_id, variant)
        if option is not None:
            if value is None:
                raise UserFacingError(
                    Text("请同时给出 value（或 reset）", "Give a value too (or reset)")
                )
            candidate = dict(defaults)
            try:
                spec = spec_of(variant, option)
                if value.strip().lower() == "reset":
                    candidate.pop(spec.name, None)
                else:
                    candidate[spec.name] = parse_value(spec, value)
                    check_value(spec, candidate[spec.name])
                # The same check as a table's: ranges, choices and the rule set's consistency.
                TableOptions(variant, max(RULE_SETS[variant].allowed_seats),
                             options=candidate).validate()  # fmt: skip
            except TableOptionsError as error:
                raise UserFacingError(error.text) from None
            defaults = await store.set_rule_defaults(interaction.guild_id, variant, candidate)
        await self.bot.reply(interaction, defaults_text(variant, defaults))

    @rules.autocomplete("option")
    async def _rule_option_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen rule set's options with their range and default, as the admin types."""
        from bot.rules_flow import option_specs, value_text

        variant = getattr(interaction.namespace, "variant", None)
        if variant not in RULE_SETS:
            return []
        zh = str(interaction.locale).startswith("zh")
        choices = []
        for spec in option_specs(variant):
            shown = f"{spec.label(zh)} {spec.name} ({spec.range_text(zh)}; "
            shown += ("默认 " if zh else "default ") + value_text(spec.name, spec.default, zh) + ")"
            shown = say(Text(shown, shown), interaction.locale)  # zh-TW: Traditional
            if current.lower() in shown.lower():
                choices.append(app_commands.Choice(name=shown[:100], value=spec.name))
        return choices[:25]

    @admin.command(
        name=T("settings", "设置"),
        description=T("Show or change this server's settings", "查看或修改本服务器设置"),
    )
    @app_commands.check(require_manager)
    @app_commands.rename(**_SETTING_OPTIONS)
    @app_commands.describe(
        timezone=T(
            "IANA time zone for weeks, e.g. Asia/Shanghai", "周榜使用的时区，如 Asia/Shanghai"
        ),
        leaderboard_channel=T("Where the weekly leaderboard is posted", "每周排行榜发布的频道"),
        discard_timeout=T("Default seconds to discard (5-600)", "默认出牌限时（5-600 秒）"),
        claim_timeout=T("Default seconds to claim (3-300)", "默认吃碰限时（3-300 秒）"),
        default_variant=T("Rule set for new tables", "新牌桌的默认规则"),
        starting_balance=T("Balance a new player starts with", "新玩家的初始积分"),
        min_balance=T("Minimum balance to sit down", "入座需要的最低积分"),
        hand_cap=T("Cap on one player's points per hand", "每人每局输赢上限"),
        day_cap=T("Cap on one player's net points per day", "每人每天输赢上限"),
        max_stake=T(
            "Highest stake a table may have (points a hand's unit is worth)",
            "开桌可选的最高底注（每个输赢单位值多少积分）",
        ),
        channel_language=T(
            "Language of the shared table, results and leaderboard in channels",
            "频道里牌桌、结果和排行榜的语言",
        ),
        ai_hands_on_boards=T(
            "Do hands with AI seats count on the leaderboards? (their wins no balance backs)",
            "有 AI 座位的牌局是否计入排行榜（从 AI 赢的积分不出自任何玩家）",
        ),
        clear=T("Remove an optional setting", "清除一项可选设置"),
    )
    @app_commands.choices(
        default_variant=VARIANT_CHOICES,
        channel_language=[
            app_commands.Choice(
                name=T("server's preferred locale", "跟随服务器首选语言"), value="auto"
            ),
            app_commands.Choice(
                name=T("Simplified Chinese + English", "简体中文（附英文）"), value="zh-CN"
            ),
            app_commands.Choice(name=T("Traditional Chinese", "繁体中文"), value="zh-TW"),
            app_commands.Choice(name=T("English", "英文"), value="en"),
        ],
        clear=[
            app_commands.Choice(
                name=T("leaderboard channel", "排行榜频道"), value="leaderboard_channel"
            ),
            app_commands.Choice(name=T("minimum balance", "入座最低积分"), value="min_balance"),
            app_commands.Choice(name=T("hand cap", "单局封顶"), value="hand_cap"),
            app_commands.Choice(name=T("day cap", "每日封顶"), value="day_cap"),
            app_commands.Choice(name=T("highest stake", "最高底注"), value="max_stake"),
        ],
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        timezone: app_commands.Range[str, 1, 64] | None = None,
        leaderboard_channel: discord.TextChannel | None = None,
        discard_timeout: app_commands.Range[int, 5, 600] | None = None,
        claim_timeout: app_commands.Range[int, 3, 300] | None = None,
        default_variant: str | None = None,
        starting_balance: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        min_balance: int | None = None,
        hand_cap: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        day_cap: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        max_stake: app_commands.Range[int, 1, MAX_STAKE] | None = None,
        channel_language: str | None = None,
        ai_hands_on_boards: bool | None = None,
        clear: str | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        changes: dict[str, Any] = {
            name: value
            for name, value in {
                "timezone": timezone,
                "discard_timeout": discard_timeout,
                "claim_timeout": claim_timeout,
                "default_variant": default_variant,
                "starting_balance": starting_balance,
                "min_balance": min_balance,
                "hand_cap": hand_cap,
                "day_cap": day_cap,
                "max_stake": max_stake,
                "channel_language": channel_language,
                "ai_hands_on_boards": ai_hands_on_boards,
            }.items()
            if value is not None
        }
        if leaderboard_channel is not None:
            if leaderboard_channel.guild.id != interaction.guild_id:
                raise UserFacingError(
                    Text("频道不在本服务器", "That channel is not in this server")
                )
            me = leaderboard_channel.guild.me
            if me is not None:  # the bot's own member comes with every guild
                missing = missing_permissions(
                    leaderboard_channel.permissions_for(me), LEADERBOARD_PERMISSIONS
                )
                if missing is not None:
                    where = f"<#{leaderboard_channel.id}>"
                    raise UserFacingError(msg_each(
                        "admin.board_no_permissions",
                        {"channel": where, "missing": missing.zh},
                        {"channel": where, "missing": missing.en},
                    ))  # fmt: skip
            changes["leaderboard_channel"] = leaderboard_channel.id
        if clear is not None:
            if clear not in CLEARABLE:
                raise UserFacingError(msg("error.bad_value", reason=str(clear)[:30]))
            if clear in changes:  # which one was meant? Neither is done.
                both = _setting_name(clear)
                raise UserFacingError(
                    msg_each("admin.set_and_clear", {"setting": both.zh}, {"setting": both.en})
                )
            changes[clear] = None
        store = self.bot.store
        try:
            if changes:
                # Each value's own check first (its range), then how they go together.
                checked = {name: validate_setting(name, value) for name, value in changes.items()}
                before = await store.get_settings(interaction.guild_id)
                _check_minimum_reachable(before, checked)
                current = await store.update_settings(interaction.guild_id, **changes)
                if "leaderboard_channel" in changes and current.leaderboard_problem:
                    # A new channel (its permissions checked above): the old problem is moot.
                    current = await store.update_settings(
                        interaction.guild_id, leaderboard_problem=None
                    )
            else:
                before = current = await store.get_settings(interaction.guild_id)
        except SettingRangeError as error:
            raise UserFacingError(_range_text(error)) from None
        except SettingsError as error:
            raise UserFacingError(Text(error.zh, error.en)) from None
        self.bot.presenter.set_channel_language(interaction.guild_id, current.channel_language)
        zh = is_chinese(interaction.locale)
        lines = []
        for name in current.editable_fields():
            if name in BOT_KEPT_SETTINGS:
                continue
            value = getattr(current, name)
            label = _setting_name(name).zh if zh else _setting_name(name).en
            if value is None:
                shown = "—（未设置）" if zh else "— (not set)"
            elif name == "channel_language" and value == "auto" and interaction.guild_locale:
                shown = f"auto → {interaction.guild_locale}"  # what auto means here now
            else:
                shown = _value_text(name, value, zh)
            # The option's name as the admin types it, and its key (what errors name).
            lines.append(f"{label} `{name}`: {shown}")
        text = msg("admin.settings", settings="\n".join(lines))
        if changes:
            # What this command changed comes first: the listing alone read the same as
            # a look at the settings, so an admin could not tell a change was made.
            done = ("；" if zh else "; ").join(
                _change_text(name, getattr(before, name), getattr(current, name), zh)
                for name in changes
            )
            updated = msg("admin.updated", changes=done)
            text = Text(f"{updated.zh}\n{text.zh}", f"{updated.en}\n{text.en}")
        if current.leaderboard_problem and current.leaderboard_channel is not None:
            kind, _, week = current.leaderboard_problem.partition(":")
            where = f"<#{current.leaderboard_channel}>"
            warning = msg(f"admin.board_problem_{kind}", week=week, channel=where)
            text = Text(f"{warning.zh}\n{text.zh}", f"{warning.en}\n{text.en}")
        await self.bot.reply(interaction, text)

    @admin.command(
        name=T("adjust", "调整余额"),
        description=T(
            "Add to or take from a balance (recorded in the ledger)", "增减玩家余额（记入账本）"
        ),
        extras={"public": True},  # the adjustment is announced (see guard_command)
    )
    @app_commands.check(require_manager)
    @app_commands.rename(
        user=T("user", "用户"), amount=T("amount", "数额"), reason=T("reason", "原因")
    )
    @app_commands.describe(
        user=T("Whose balance", "调整谁的余额"),
        amount=T("Points to add (negative to take)", "增加的积分（负数为扣除）"),
        reason=T("Why (kept in the ledger)", "原因（记入账本）"),
    )
    async def adjust(
        self,
        interaction: discord.Interaction[Any],
        user: discord.Member | discord.User,  # a player who left keeps a balance
        amount: app_commands.Range[int, -MAX_ADJUST, MAX_ADJUST],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        assert interaction.guild_id is not None
        if amount == 0 or not -MAX_ADJUST <= amount <= MAX_ADJUST:
            raise UserFacingError(
                Text(
                    f"数额必须非零，且在 ±{MAX_ADJUST:,} 以内",
                    f"The amount must be non-zero and within ±{MAX_ADJUST:,}",
                )
            )
        if user.bot:
            raise UserFacingError(msg("error.bot_no_balance"))
        reason = reason.strip()  # its declared length is checked before (guard_command)
        if not reason:
            raise UserFacingError(Text("请写明原因", "Please give a reason"))
        balance = await self.bot.store.adjust_balance(
            interaction.guild_id, user.id, amount, interaction.user.id, reason,
            key=f"interaction:{interaction.id}",
        )  # fmt: skip
        # Posted in the channel for everyone, so in both languages as other public lines.
        text = msg("admin.adjusted", name=user.display_name, delta=amount, balance=balance)
        language = await self.bot.presenter.channel_language(interaction.guild_id)
        await self.bot.respond(
            interaction, public(text.keeping(user.display_name), language), ephemeral=False
        )

    @admin.command(
        name=T("tables", "牌桌"),
        description=T(
            "This server's open tables: where, who, which hand, whose turn",
            "本服务器开着的牌桌：在哪、谁在玩、第几局、轮到谁",
        ),
    )
    @app_commands.check(require_manager)
    async def tables(self, interaction: discord.Interaction[Any]) -> None:
        """Why: a server with several tables, each in its own thread, had no place that
        showed them all; a table whose players walked away (autoplay, or a lobby nobody
        starts) was found only by opening every thread."""
        content, view = await self._tables_page(interaction, 0)
        if view is None:
            await self.bot.respond(interaction, content)
        else:
            await send_with_view(interaction, content, view)

    async def on_tables_page(self, interaction: discord.Interaction[Any], page: int) -> None:
        """A page button of the list: Manage Server is checked again (it may have been
        taken away since), and the page is drawn from the tables open now."""
        if not is_manager(interaction):
            await self.bot.reply(interaction, msg("error.no_permission"))
            return
        content, view = await self._tables_page(interaction, page)
        await edit_clicked(interaction, content, view)

    async def _tables_page(
        self, interaction: discord.Interaction[Any], page: int
    ) -> tuple[str, discord.ui.View | None]:
        """Page ``page`` (from 0, kept to the last) of the open tables, with the buttons to
        the others. Why pages: one message holds 2,000 characters, about a dozen tables;
        the rest were cut off under a header that counted them all."""
        assert interaction.guild_id is not None
        # A guild's tables all live in the process that holds its shard (bot.shards).
        open_tables = [
            table for table in self.bot.manager.tables
            if table.guild_id == interaction.guild_id and table.status in ("lobby", "running")
        ]  # fmt: skip
        locale = interaction.locale
        if not open_tables:
            return say(msg("admin.no_tables"), locale), None
        lines = [
            f"- {say(await self._table_line(interaction, table), locale)}" for table in open_tables
        ]
        pages = _pages(lines, DISCORD_CONTENT_LIMIT - _TABLES_HEADER_ROOM)
        page = max(0, min(page, len(pages) - 1))
        first = sum(len(shown) for shown in pages[:page])
        shown = pages[page]
        if len(pages) == 1:
            head = msg("admin.tables", count=len(open_tables))
        else:
            head = msg("admin.tables_page", first=first + 1, last=first + len(shown),
                       count=len(open_tables))  # fmt: skip
        content = "\n".join([f"**{say(head, locale)}**", *shown])
        if len(pages) == 1:
            return content, None
        view = discord.ui.View(timeout=None)
        view.add_item(TablesPageButton(page - 1, "p", disabled=page == 0))
        view.add_item(TablesPageButton(page + 1, "n", disabled=page == len(pages) - 1))
        return content, view

    @admin.command(
        name=T("end", "结束牌桌"),
        description=T(
            "End any table of this server, free (the hand in play is not paid)",
            "结束本服务器的任一牌桌，不罚分（正在打的这一局不结算）",
        ),
    )
    @app_commands.check(require_manager)
    @app_commands.rename(table=T("table", "牌桌"))
    @app_commands.describe(
        table=T(
            "The table's id, as /mjadmin tables lists it", "牌桌编号（/麻将管理 牌桌 里列出的）"
        )
    )
    async def end(
        self, interaction: discord.Interaction[Any], table: app_commands.Range[str, 1, 100]
    ) -> None:
        """Why: /table end works only inside the table's channel, so a table stuck where
        the admin cannot go, or left running by a host who is away, could not be ended.
        Asked first: the choice may have been a mistyped id or the wrong line of a list."""
        assert interaction.guild_id is not None
        found = self._open_table(interaction.guild_id, table)
        if found is None:
            typed = str(table).replace("`", "").strip()[:40]
            raise UserFacingError(msg("admin.end_no_table", typed=typed))
        if found.seated_in_play(interaction.user.id):
            raise UserFacingError(msg("session.manager_seated"))
        line = await self._table_line(interaction, found)
        key = "admin.end_confirm" if found.status == "running" else "admin.end_confirm_lobby"
        question = msg_each(key, {"table": line.zh}, {"table": line.en}).keeping(*line.keep)
        view = discord.ui.View(timeout=None)
        view.add_item(
            AdminEndButton(found.table_id, interaction.user.id, _minutes(self.bot),
                           label=label_for("button.admin_end", str(interaction.locale)))
        )  # fmt: skip
        await send_with_view(interaction, say(question, interaction.locale), view)

    @end.autocomplete("table")
    async def _open_table_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The server's open tables as the admin types: where, rule set, lobby or hand,
        who sits there, and the id (the value, what /mjadmin tables shows)."""
        if interaction.guild_id is None or not is_manager(interaction):
            return []
        choices = []
        for table in self._open_tables(interaction.guild_id):
            shown = await self._table_choice(interaction, table)
            if current.strip().strip("`").lower() in shown.lower():
                choices.append(app_commands.Choice(name=shown, value=table.table_id))
        return choices[:25]

    async def _table_choice(
        self, interaction: discord.Interaction[Any], table: TableSession
    ) -> str:
        """A table in an autocomplete choice (100 characters, no links: Discord shows
        them as typed): its thread's name, rule set, lobby or hand, players, then its id."""
        zh_variant, en_variant = variant_names(table.variant)
        status = table.table_status()
        if status is None:
            where = msg("admin.table_lobby", seated=len(table.players), seats=table.num_seats,
                        name=await self.bot.name_of(interaction.guild, table.host_user_id))  # fmt: skip
            names = [player.name for player in table.players if not player.is_ai]
        else:
            where = status.hand_label
            names = [seat.name for seat in status.seats if not seat.is_ai]
        guild = interaction.guild
        place = guild.get_channel_or_thread(table.channel_id) if guild is not None else None
        channel = f"#{place.name} · " if place is not None else ""
        people = ", ".join(names)
        text = Text(f"{channel}{zh_variant} · {where.zh} · {people}",
                    f"{channel}{en_variant} · {where.en} · {people}",
                    (*where.keep, *names, channel))  # fmt: skip
        head = say(text, interaction.locale)
        tail = f" · {table.table_id}"
        if len(head) + len(tail) > 100:
            head = head[: 100 - len(tail) - 1] + "…"
        return head + tail

    def _open_tables(self, guild_id: int) -> list[TableSession]:
        # A guild's tables all live in the process that holds its shard (bot.shards).
        return [
            table for table in self.bot.manager.tables
            if table.guild_id == guild_id and table.status in ("lobby", "running")
        ]  # fmt: skip

    def _open_table(self, guild_id: int, typed: str) -> TableSession | None:
        """The open table of this server ``typed`` names: its id (with or without the
        list's backquotes) or its first characters (four at least, one table only, as
        /replay and /mjadmin void take a game's), or its channel (a link pasted from
        the list, or its id)."""
        typed = typed.strip().strip("`").strip()
        channel = _CHANNEL.fullmatch(typed)
        if channel is not None:
            table = self.bot.manager.by_channel(int(channel[1] or channel[2]))
        else:
            table = self.bot.manager.get(typed)
            if table is None and len(typed) >= 4:
                starting = [t for t in self._open_tables(guild_id) if t.table_id.startswith(typed)]
                table = starting[0] if len(starting) == 1 else None
        if table is None or table.guild_id != guild_id or table.status not in ("lobby", "running"):
            return None
        return table

    async def on_end_confirm(
        self, interaction: discord.Interaction[Any], table_id: str, owner: int, issued: int
    ) -> None:
        """The confirmation pressed: by whom it was for, while fresh, by a manager still,
        and the table still open (it may have ended since: nothing is done twice)."""
        if interaction.user.id != owner:
            await self.bot.reply(interaction, msg("admin.confirm_not_yours"))
            return
        if _minutes(self.bot) - issued > CONFIRM_TTL:
            await self.bot.reply(interaction, msg("admin.confirm_stale"))
            return
        if not is_manager(interaction):
            await self.bot.reply(interaction, msg("error.no_permission"))
            return
        locale = interaction.locale
        table = self.bot.manager.get(table_id)
        if table is None or table.guild_id != interaction.guild_id:
            await edit_clicked(interaction, say(msg("table.gone"), locale), None)
            return
        name = interaction.user.display_name
        result = await table.end_by_manager(interaction.user.id, name)
        if not result.ok:
            await edit_clicked(interaction, say(result.message or msg("error.generic"), locale),
                               None)  # fmt: skip
            return
        await edit_clicked(interaction, say(msg("admin.ended", table=table_id), locale), None)

    async def _table_line(self, interaction: discord.Interaction[Any], table: TableSession) -> Text:
        """One table: its thread (a link), rule set, the lobby or the hand and whose turn
        it is (with the turn's time limit), who sits there (🤖 an AI, 托管 on autoplay)."""
        zh_variant, en_variant = variant_names(table.variant)
        status = table.table_status()
        if status is None:  # the lobby
            host = await self.bot.name_of(interaction.guild, table.host_user_id)
            where = msg(
                "admin.table_lobby", seated=len(table.players), seats=table.num_seats, name=host
            )
            seats: tuple[SeatInfo, ...] = tuple(table.players)
        else:
            where = status.hand_label
            acting = [status.seats[seat].name for seat in status.acting]
            if acting:
                turn = msg("admin.table_turn", name=", ".join(acting))
                due = f" <t:{int(status.deadline)}:R>" if status.deadline else ""
                where = Text(
                    f"{where.zh} · {turn.zh}{due}", f"{where.en} · {turn.en}{due}", turn.keep
                )
            seats = status.seats
        names = [_seat_name(seat) for seat in seats]
        head = f"<#{table.channel_id}> · "
        tail = f" · {', '.join(name.zh for name in names)} · `{table.table_id}`"
        tail_en = f" · {', '.join(name.en for name in names)} · `{table.table_id}`"
        return Text(
            f"{head}{zh_variant} · {where.zh}{tail}",
            f"{head}{en_variant} · {where.en}{tail_en}",
            where.keep + tuple(seat.name for seat in seats),
        )

    @admin.command(
        name=T("void", "作废"),
        description=T(
            "Void one settled hand: its points reversed, off every board (asked first)",
            "作废已结算的一局：积分原数退回，不再计入排行榜（先确认）",
        ),
    )
    @app_commands.check(require_manager)
    @app_commands.rename(
        game=T("game", "牌局"), hand=T("hand", "第几局"), reason=T("reason", "原因")
    )
    @app_commands.describe(
        game=T(
            "Game id or its first characters (/history, /mjadmin ledger show it)",
            "牌局编号或它的前几位（/战绩、/麻将管理 账本 里有）",
        ),
        hand=T(
            "Which hand, from 1 (as /history and /replay count)",
            "第几局（从 1 开始，同 /战绩 和 /回放）",
        ),
        reason=T("Why (kept in the ledger)", "原因（记入账本）"),
    )
    async def void(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Range[str, 1, 40],
        hand: app_commands.Range[int, 1, 9999],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        """Why: a hand played in bad faith (or paid by a bug) could only be offset by
        adjustments, which leave the hand on every board and in every statistic; a void
        reverses exactly what it paid and takes it off them, once, with who and why."""
        from bot.replays import ReplayLookupError, find_game

        assert interaction.guild_id is not None
        reason = str(reason).strip()  # its declared length is checked before (guard_command)
        if not reason:
            raise UserFacingError(Text("请写明原因", "Please give a reason"))
        if not isinstance(hand, int) or not 1 <= hand <= 9999:
            raise UserFacingError(msg("error.bad_value", reason=str(hand)[:20]))
        try:
            record = await find_game(self.bot.store, str(game))
        except ReplayLookupError as error:
            raise UserFacingError(error.text) from None
        if record.guild_id != interaction.guild_id:
            raise UserFacingError(msg("replay.no_game", game=str(game)[:40]))
        game_id, number = record.game_id, hand - 1
        if record.status not in ("finished", "abandoned"):
            # The table's running totals (its standings, the match's end) count every
            # hand it played; a void would leave them and the players' records apart.
            raise UserFacingError(msg("admin.void_running", game=game_id))
        await self._check_voidable(interaction, game_id, number)
        entries = [e for e in await self.bot.store.hand_entries(game_id, number) if e.user_id]
        if not entries:
            raise UserFacingError(msg("admin.void_no_players"))
        lines = [msg("admin.void_confirm", game=game_id, hand=hand)]
        for entry in entries:
            assert entry.user_id is not None
            name = await self.bot.name_of(interaction.guild, entry.user_id)
            facts = {"name": name, "reverse": f"**{-entry.points:+,d}**",
                     "paid": f"{entry.points:+,d}"}  # fmt: skip
            capped = Text("", "")
            if entry.original_points != entry.points:
                capped = msg("admin.void_capped", points=f"{entry.original_points:+,d}")
            line = msg_each("admin.void_player", {**facts, "capped": capped.zh},
                            {**facts, "capped": capped.en}).keeping(name)  # fmt: skip
            lines.append(Text(f"- {line.zh}", f"- {line.en}", line.keep))
        lines.append(msg("admin.void_reason", typed=reason))
        question = Text(
            "\n".join(line.zh for line in lines),
            "\n".join(line.en for line in lines),
            tuple(span for line in lines for span in line.keep),
        )
        token = secrets.token_hex(4)
        self._pending_voids[token] = (interaction.guild_id, game_id, number, reason)
        view = discord.ui.View(timeout=None)
        view.add_item(
            AdminVoidButton(token, interaction.user.id, _minutes(self.bot),
                            label=label_for("button.admin_void", str(interaction.locale)))
        )  # fmt: skip
        await send_with_view(interaction, say(question, interaction.locale), view)

    async def _check_voidable(
        self, interaction: discord.Interaction[Any], game_id: str, number: int
    ) -> None:
        """Refuse a hand never settled, or one voided already (saying when, by whom, why)."""
        store = self.bot.store
        if not await store.is_settled(game_id, number):
            raise UserFacingError(msg("admin.void_not_settled", game=game_id, hand=number + 1))
        done = await store.hand_void(game_id, number)
        if done is not None:
            by = await self._ledger_name(interaction.guild, done.by_user) if done.by_user else "?"
            raise UserFacingError(
                msg("admin.void_already", game=game_id, hand=number + 1, name=by,
                    at=int(done.created_at.timestamp()), typed=done.reason)
            )  # fmt: skip

    async def on_void_confirm(
        self, interaction: discord.Interaction[Any], token: str, owner: int, issued: int
    ) -> None:
        """The void's confirmation pressed: the manager it was for, while fresh (and
        remembered: the reason lives in this process), a manager still; then the store
        voids it once, whatever happened meanwhile."""
        if interaction.user.id != owner:
            await self.bot.reply(interaction, msg("admin.confirm_not_yours"))
            return
        pending = self._pending_voids.get(token)
        if _minutes(self.bot) - issued > CONFIRM_TTL or pending is None:
            await self.bot.reply(interaction, msg("admin.confirm_stale"))
            return
        if not is_manager(interaction):
            await self.bot.reply(interaction, msg("error.no_permission"))
            return
        guild_id, game_id, number, reason = pending
        locale = interaction.locale
        try:
            rows = await self.bot.store.void_hand(
                guild_id, game_id, number, interaction.user.id, reason
            )
        except VoidRefused:
            self._pending_voids.pop(token, None)
            try:
                await self._check_voidable(interaction, game_id, number)
            except UserFacingError as error:
                await edit_clicked(interaction, say(error.text, locale), None)
                return
            raise
        self._pending_voids.pop(token, None)
        names = [await self.bot.name_of(interaction.guild, row.user_id or 0) for row in rows]
        changes = ", ".join(
            f"{name} {row.points:+,d} → {row.balance_after:,}"
            for name, row in zip(names, rows, strict=True)
        )
        done = msg("admin.voided", game=game_id, hand=number + 1, changes=changes)
        await edit_clicked(interaction, say(done.keeping(*names), locale), None)
        # Announced, as an adjustment is: the players see whose points moved and who
        # moved them (the reason stays with the managers and the players' /balance).
        admin = interaction.user.display_name
        announced = msg("admin.voided_public", name=admin, game=game_id, hand=number + 1,
                        changes=changes).keeping(admin, *names)  # fmt: skip
        language = await self.bot.presenter.channel_language(guild_id)
        await self.bot.respond(interaction, public(announced, language), ephemeral=False)

    @admin.command(
        name=T("ledger", "账本"),
        description=T(
            "The server's ledger: adjustments, penalties (or hands, openings), who made them",
            "本服务器的账本：管理员调整、罚分（或对局、开户），谁做的",
        ),
    )
    @app_commands.check(require_manager)
    @app_commands.rename(user=T("user", "用户"), kind=T("kind", "类型"), page=T("page", "页码"))
    @app_commands.describe(
        user=T("Only this user's rows (also one who left)", "只看这个用户的（离开的也可以）"),
        kind=T(
            "Which rows (default: adjustments, voids and penalties)",
            "哪类记录（默认：调整、作废和罚分）",
        ),
        page=T("Which page, from 1 (default: the newest)", "第几页，从 1 开始（默认最新）"),
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(name=T("adjustments", "管理员调整"), value="adjustment"),
            app_commands.Choice(name=T("penalties", "罚分"), value="penalty"),
            app_commands.Choice(name=T("hands", "对局"), value="hand"),
            app_commands.Choice(name=T("opening balances", "开户"), value="opening"),
            app_commands.Choice(name=T("voided hands", "作废的对局"), value="void"),
        ]
    )
    async def ledger(
        self,
        interaction: discord.Interaction[Any],
        user: discord.Member | discord.User | None = None,  # a player who left keeps rows
        kind: str | None = None,
        page: app_commands.Range[int, 1, MAX_LEDGER_PAGE] = 1,
    ) -> None:
        """Why: auditing was one user at a time and ten lines deep (/balance); an admin
        could not see every adjustment and penalty of the server, nor who made them, and
        an admin adjusting their own balance went unmarked."""
        if kind is not None and kind not in LEDGER_KINDS:
            raise UserFacingError(msg("error.bad_value", reason=str(kind)[:20]))
        if user is not None and user.bot:
            raise UserFacingError(msg("error.bot_no_balance"))
        if not 1 <= page <= MAX_LEDGER_PAGE:  # said with its range (bot.errors)
            raise UserFacingError(msg("error.bad_value", reason=str(page)))
        target = user.id if user is not None else None
        content, view = await self._ledger_page(interaction, target, kind, page - 1, None)
        if view is None:
            await self.bot.respond(interaction, content)
        else:
            await send_with_view(interaction, content, view)

    async def on_ledger_page(
        self,
        interaction: discord.Interaction[Any],
        user: int | None,
        kind: str | None,
        page: int,
        upto: int,
    ) -> None:
        """A page button: Manage Server checked again, the page read up to the same row
        as the first look (``upto``), so pages neither shift nor repeat as play goes on."""
        if not is_manager(interaction):
            await self.bot.reply(interaction, msg("error.no_permission"))
            return
        content, view = await self._ledger_page(interaction, user, kind, page, upto)
        await edit_clicked(interaction, content, view)

    async def _ledger_page(
        self,
        interaction: discord.Interaction[Any],
        user: int | None,
        kind: str | None,
        page: int,
        upto: int | None,
    ) -> tuple[str, discord.ui.View | None]:
        """Page ``page`` (from 0, kept to the last) of the rows, newest first, with ◀ ▶."""
        assert interaction.guild_id is not None
        locale = interaction.locale
        kinds = (kind,) if kind is not None else AUDIT_KINDS
        store = self.bot.store
        result = await store.guild_ledger(
            interaction.guild_id, kinds=kinds, user_id=user, upto=upto, limit=LEDGER_PAGE,
            offset=page * LEDGER_PAGE,
        )  # fmt: skip
        pages = max(1, -(-result.total // LEDGER_PAGE))
        if page >= pages and result.total:  # past the end (a typed page): the last one
            page = pages - 1
            result = await store.guild_ledger(
                interaction.guild_id, kinds=kinds, user_id=user, upto=result.upto,
                limit=LEDGER_PAGE, offset=page * LEDGER_PAGE,
            )  # fmt: skip
        what = msg(f"admin.ledger_{kind or 'audit'}")
        if user is not None:
            name = await self._ledger_name(interaction.guild, user)
            keep = () if _MENTION.fullmatch(name) else (name,)
            what = Text(f"{name} · {what.zh}", f"{name} · {what.en}", keep)
        if not result.entries:
            empty = msg_each("admin.ledger_empty", {"what": what.zh}, {"what": what.en})
            return say(empty.keeping(*what.keep), locale), None
        title = msg_each(
            "admin.ledger_title",
            {"what": what.zh, "page": page + 1, "pages": pages, "count": f"{result.total:,}"},
            {"what": what.en, "page": page + 1, "pages": pages, "count": f"{result.total:,}"},
        ).keeping(*what.keep)
        # Each row gets an equal share of the message; a long reason is cut to fit it.
        share = (DISCORD_CONTENT_LIMIT - _LEDGER_ROOM) // LEDGER_PAGE - 1
        lines = [f"**{say(title, locale)}**"]
        cut = False
        for entry in result.entries:
            line, shortened = await self._ledger_line(interaction, entry, share)
            lines.append(line)
            cut = cut or shortened
        if cut:
            lines.append(say(msg("admin.ledger_cut"), locale))
        content = fit_lines(lines)
        if pages == 1:
            return content, None
        view = discord.ui.View(timeout=None)
        view.add_item(LedgerPageButton(user, kind, page - 1, result.upto, "p", disabled=page == 0))
        view.add_item(
            LedgerPageButton(user, kind, page + 1, result.upto, "n", disabled=page >= pages - 1)
        )
        return content, view

    async def _ledger_line(
        self, interaction: discord.Interaction[Any], entry: LedgerEntry, room: int
    ) -> tuple[str, bool]:
        """One row in at most ``room`` characters (the reason cut to fit, and whether it
        was): when, whose, points, what it was; an adjustment by whom, marked when the
        admin adjusted their own balance."""
        guild = interaction.guild
        assert entry.user_id is not None  # AI seats' rows are not listed
        name = await self._ledger_name(guild, entry.user_id)
        points = f"**{entry.points:+,d}**"
        if entry.original_points != entry.points:
            capped = msg("balance.capped", points=f"{entry.original_points:+,d}")
            moved = Text(points + capped.zh, points + capped.en)
        else:
            moved = Text(points, points)
        reason = entry.reason
        if entry.kind == "adjustment":
            by = await self._ledger_name(guild, entry.by_user) if entry.by_user else "?"
            own = entry.by_user == entry.user_id
            what = msg("admin.ledger_self" if own else "admin.ledger_adjusted", name=by)
        elif entry.kind == "penalty":
            what = msg("balance.penalty" if entry.points < 0 else "balance.penalty_share")
            reason = ""  # the rule's code ("leave", "end"), said by the words above
        elif entry.kind == "hand":
            what = msg("admin.ledger_hand_line", hand=(entry.hand_number or 0) + 1)
            reason = ""
        elif entry.kind == "void":  # by whom, which hand (as /mjadmin void takes it), why
            by = await self._ledger_name(guild, entry.by_user) if entry.by_user else "?"
            what = msg("admin.ledger_void_line", hand=(entry.hand_number or 0) + 1, name=by)
        else:
            what = msg("balance.opening")
            reason = ""
        game = f" · `{entry.game_id}`" if entry.game_id else ""
        head = f"- <t:{int(entry.created_at.timestamp())}:f> · "
        locale = interaction.locale
        shown = reason
        while True:
            # The reason is what an admin typed: quoted as written, like a name (``keep``).
            zh = f"{name} · {moved.zh} · {what.zh}" + (f"：“{shown}”" if shown else "")
            en = f"{name} · {moved.en} · {what.en}" + (f": “{shown}”" if shown else "")
            keep = tuple(
                span for span in (name, *what.keep, *((shown,) if shown else ()))
                if not _MENTION.fullmatch(span)
            )  # fmt: skip
            line = head + say(Text(zh + game, en + game, keep), locale)
            if len(line) <= room or not shown:
                return line, shown != reason
            shown = shown[: max(0, len(shown) - (len(line) - room) - 1)].rstrip()
            shown = shown + "…" if shown else ""

    async def _ledger_name(self, guild: discord.Guild | None, user_id: int) -> str:
        """A name the bot knows, else a mention: Discord shows the user's name in its
        place (an adjustment can name someone the bot never saw), and nobody is pinged."""
        return await self.bot.known_name(guild, user_id) or f"<@{user_id}>"

    @admin.command(
        name=T("export", "导出"),
        description=T(
            "Every balance and the whole ledger as CSV files (Excel opens them)",
            "导出全部余额和整个账本（CSV 文件，Excel 可打开）",
        ),
    )
    @app_commands.check(require_manager)
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        """Why: the data lived only in the host's database, so a server's admin who does
        not run the bot could not keep or check it outside Discord."""
        assert interaction.guild_id is not None
        await self.bot.defer(interaction)  # a large ledger takes seconds to read
        guild = interaction.guild

        async def names_for(users: Any) -> dict[int, str]:
            """Members' names as they are now (the store keeps the last seen)."""
            found = {interaction.user.id: interaction.user.display_name}
            for user in users:
                member = guild.get_member(user) if guild is not None else None
                if member is not None:
                    found[user] = member.display_name
            return found

        result = await export_guild(
            self.bot.store, interaction.guild_id, now=self.bot.now(), names_for=names_for
        )
        limit = interaction.filesize_limit
        packed = await asyncio.to_thread(pack_export, result, limit)
        locale = interaction.locale
        done = msg("admin.exported", users=f"{result.users:,}", rows=f"{result.rows:,}")
        if packed is None:
            refused = msg("admin.export_too_big", rows=f"{result.rows:,}",
                          guild=interaction.guild_id)  # fmt: skip
            await self.bot.respond(interaction, say(refused, locale))
            return
        megabytes = f"{limit / 1024 / 1024:g}"
        text = say(done, locale)
        if packed.how == "zip":
            text += "\n" + say(msg("admin.exported_zip", limit=megabytes), locale)
        elif packed.how == "parts":
            how = msg("admin.exported_parts", limit=megabytes, parts=packed.parts,
                      messages=len(packed.messages))  # fmt: skip
            text += "\n" + say(how, locale)
        for number, files in enumerate(packed.messages):
            attachments = [discord_file(data, name) for name, data in files]
            content = text if number == 0 else f"{number + 1}/{len(packed.messages)}"
            await self.bot.respond(interaction, content, files=attachments)


def _minutes(bot: MahjongBot) -> int:
    """Now in minutes, what a confirmation's id carries to tell a stale press."""
    return int(bot.clock.now() // 60)


def _pages(lines: list[str], room: int) -> list[list[str]]:
    """``lines`` in order, as many to a page as fit in ``room`` characters (one at least)."""
    pages: list[list[str]] = [[]]
    used = 0
    for line in lines:
        if pages[-1] and used + len(line) + 1 > room:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += len(line) + 1
    return pages


def _admin_cog(interaction: discord.Interaction[Any]) -> AdminCog:
    """The cog a button of this module answers through (installed with the commands)."""
    cog = interaction.client.get_cog("AdminCog")  # type: ignore[attr-defined]
    assert isinstance(cog, AdminCog), "the admin cog is installed with the commands"
    return cog


class TablesPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mj:mt:(?P<page>[0-9]{1,4}):(?P<slot>[pn])",
):
    """◀ / ▶ under ``/mjadmin tables``: ``mj:mt:<page>:<slot>`` (``slot`` keeps the two
    apart when both lead to the same page). It carries no owner: the list is ephemeral,
    so only the manager who asked can press it, and Manage Server is checked again."""

    def __init__(self, page: int, slot: str, *, disabled: bool = False) -> None:
        page = max(0, page)
        super().__init__(
            discord.ui.Button(
                custom_id=f"mj:mt:{page}:{slot}",
                label="◀" if slot == "p" else "▶",
                disabled=disabled,
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TablesPageButton:
        return cls(int(match["page"]), match["slot"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _admin_cog(interaction)
        await cog.on_tables_page(interaction, self.page)


class AdminEndButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"mj:me:(?P<table>{TABLE_ID}):(?P<owner>[0-9]{{1,20}}):(?P<issued>[0-9]{{1,10}})",
):
    """The confirmation under ``/mjadmin end``: ``mj:me:<table>:<owner>:<issued>``, the
    table, the manager who asked and when (minutes), so another's press or a stale one
    is refused as the review views' are."""

    def __init__(self, table_id: str, owner: int, issued: int, *, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"mj:me:{table_id}:{owner}:{issued}",
                label=label or bilingual_label("button.admin_end"),
                style=discord.ButtonStyle.danger,
            )
        )
        self.table_id, self.owner, self.issued = table_id, owner, issued

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> AdminEndButton:
        return cls(match["table"], int(match["owner"]), int(match["issued"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _admin_cog(interaction)
        try:
            await cog.on_end_confirm(interaction, self.table_id, self.owner, self.issued)
        except Exception as error:
            await cog.bot._component_failed(interaction, error)


class AdminVoidButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mj:mv:(?P<token>[0-9a-f]{8}):(?P<owner>[0-9]{1,20}):(?P<issued>[0-9]{1,10})",
):
    """The confirmation under ``/mjadmin void``: ``mj:mv:<token>:<owner>:<issued>``; the
    token names the hand and the reason this process keeps (a reason does not fit in an
    id), so after a restart the press is refused as stale and nothing is voided."""

    def __init__(self, token: str, owner: int, issued: int, *, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"mj:mv:{token}:{owner}:{issued}",
                label=label or bilingual_label("button.admin_void"),
                style=discord.ButtonStyle.danger,
            )
        )
        self.token, self.owner, self.issued = token, owner, issued

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> AdminVoidButton:
        return cls(match["token"], int(match["owner"]), int(match["issued"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _admin_cog(interaction)
        try:
            await cog.on_void_confirm(interaction, self.token, self.owner, self.issued)
        except Exception as error:
            await cog.bot._component_failed(interaction, error)


class LedgerPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mj:ml:(?P<user>[0-9]{1,20}|-):(?P<kind>[a-z]{1,10}|-):(?P<page>[0-9]{1,5})"
    r":(?P<upto>[0-9]{1,19}):(?P<slot>[pn])",
):
    """◀ / ▶ under ``/mjadmin ledger``: ``mj:ml:<user>:<kind>:<page>:<upto>:<slot>``, the
    filter and the newest row of the first look. No owner, as ``TablesPageButton``: the
    list is ephemeral and Manage Server is checked again on each press."""

    def __init__(
        self,
        user: int | None,
        kind: str | None,
        page: int,
        upto: int,
        slot: str,
        *,
        disabled: bool = False,
    ) -> None:
        page = max(0, page)
        super().__init__(
            discord.ui.Button(
                custom_id=f"mj:ml:{user or '-'}:{kind or '-'}:{page}:{upto}:{slot}",
                label="◀" if slot == "p" else "▶",
                disabled=disabled,
            )
        )
        self.user, self.kind, self.page, self.upto = user, kind, page, upto

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LedgerPageButton:
        user = None if match["user"] == "-" else int(match["user"])
        kind = None if match["kind"] == "-" else match["kind"]
        return cls(user, kind, int(match["page"]), int(match["upto"]), match["slot"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _admin_cog(interaction)
        kind = self.kind if self.kind in LEDGER_KINDS else None
        await cog.on_ledger_page(interaction, self.user, kind, self.page, self.upto)


ADMIN_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    TablesPageButton,
    LedgerPageButton,
    AdminEndButton,
    AdminVoidButton,
)


def _seat_name(seat: SeatInfo) -> Text:
    if seat.is_ai:
        return Text(f"🤖 {seat.name}", f"🤖 {seat.name}")
    if seat.autoplay:
        autoplay = msg("admin.table_autoplay")
        return Text(f"{seat.name}（{autoplay.zh}）", f"{seat.name} ({autoplay.en})")
    return Text(seat.name, seat.name)
