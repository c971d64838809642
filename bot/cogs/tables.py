"""``/table …``: open, join, start and end tables; status, your hand, rules, DMs, the calculator.

Every value Discord sends is re-validated here (Discord shows ranges and choices to the
client but does not enforce them), then again by the session, which owns the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import missing_table_permissions
from bot.discord_presenter import seat_names, variant_names
from bot.discord_threads import busy_channel_refusal, give_up_place, open_table_place
from bot.errors import UserFacingError
from bot.i18n import T, Text, image_locale, in_server_script, msg, say
from bot.lines import rule_set_name
from bot.messages import msg_each
from bot.rules_flow import more_rules_button, options_lines, send_with_view
from bot.session import CHANNEL_BUSY, SessionError
from bot.table_options import (
    AI_LEVEL_CHOICES,
    MAX_STAKE,
    TableOptions,
    TableOptionsError,
    rounds_description,
)
from engine.variants import RULE_SETS, default_rule_set, get_rules
from render.alt_text import describe_result, describe_table

if TYPE_CHECKING:
    from bot.app import MahjongBot


def variant_choices() -> list[app_commands.Choice[str]]:
    """One slash-command choice per registered rule set, in registry order."""
    return [
        app_commands.Choice(name=T(rules.name_en, rules.name_zh), value=name)
        for name, rules in RULE_SETS.items()
    ]


def refresh_variant_choices(cog: commands.Cog, *param_names: str) -> None:
    """Rebuild the rule-set choices of ``cog``'s commands from the registry.

    The decorators run when this module is imported; the cog is built later (when the
    bot loads it), so a rule set registered in between still shows up in the menus."""
    pending: list[Any] = list(cog.__cog_app_commands__)
    while pending:
        command = pending.pop()
        if isinstance(command, app_commands.Group):
            pending.extend(command.commands)
            continue
        for param in command._params.values():
            if param.name in param_names and param.choices:
                param.choices = variant_choices()


VARIANT_CHOICES = variant_choices()
WIND_CHOICES = [
    app_commands.Choice(name=T("East", "东"), value="1z"),
    app_commands.Choice(name=T("South", "南"), value="2z"),
    app_commands.Choice(name=T("West", "西"), value="3z"),
    app_commands.Choice(name=T("North", "北"), value="4z"),
]
SEAT_CHOICES = [
    app_commands.Choice(name=T("4 players", "4 人"), value=4),
    app_commands.Choice(name=T("3 players (Taizhou)", "3 人（台州）"), value=3),
    app_commands.Choice(name=T("2 players (Taizhou)", "2 人（台州）"), value=2),
]


def validate_create(
    variant: str,
    seats: int,
    stake: int,
    rounds: int | None,
    discard_timeout: int | None,
    claim_timeout: int | None,
    ai_level: str | None = None,
) -> None:
    """Discord does not enforce choices or ranges: check everything on our side, with
    the same check the session runs (``TableOptions.validate``)."""
    request = TableOptions(
        variant, seats, stake, rounds, discard_timeout, claim_timeout, ai_level=ai_level
    )
    try:
        request.validate()
    except TableOptionsError as error:
        raise UserFacingError(error.text) from None


class TablesCog(commands.Cog):
    table = app_commands.Group(
        name=T("table", "牌桌"),
        description=T("Mahjong tables: open, join, play", "麻将牌桌：开桌、加入、对局"),
        # One way to say where a command works, the current one (``contexts``); the
        # flag behind the deprecated ``dm_permission`` is kept in agreement with it.
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
    )

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        refresh_variant_choices(self, "variant")
        # Built with the cog, as the choices are: a rule set registered since says its own.
        self.create._params["rounds"].description = rounds_description()

    # ------------------------------------------------------------------ lobby

    @table.command(
        name=T("create", "开桌"), description=T("Open a table in this channel", "在本频道开一桌")
    )
    @app_commands.rename(
        variant=T("variant", "玩法"),
        seats=T("seats", "人数"),
        stake=T("stake", "底注"),
        rounds=T("rounds", "圈数"),
        discard_timeout=T("discard_timeout", "出牌限时"),
        claim_timeout=T("claim_timeout", "吃碰限时"),
        ai_fill=T("ai_fill", "电脑补位"),
        ai_level=T("ai_level", "电脑难度"),
        learner_aids=T("learner_aids", "学习辅助"),
    )
    @app_commands.describe(
        variant=T("Rule set (default: the server's)", "规则（默认用服务器设置）"),
        seats=T("Number of players", "玩家人数"),
        stake=T("Balance points per point of table score", "牌桌上 1 分折合多少积分"),
        rounds=rounds_description(),
        discard_timeout=T("Seconds to discard (5-600)", "出牌限时（5-600 秒）"),
        claim_timeout=T("Seconds to claim (3-300)", "吃碰限时（3-300 秒）"),
        ai_fill=T("Fill empty seats with AI at start", "开始时用电脑补满空位"),
        ai_level=T(
            "AI strength for AI seats and autoplay (default: normal)",
            "电脑玩家和托管的难度（默认：普通）",
        ),
        learner_aids=T(
            "Show each player (privately) their waits, score previews and a discard hint",
            "在各自手牌消息里显示听牌、得分预估和出牌建议（仅本人可见）",
        ),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.choices(seats=SEAT_CHOICES)
    @app_commands.choices(ai_level=AI_LEVEL_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        variant: str | None = None,
        seats: int = 4,
        stake: app_commands.Range[int, 1, MAX_STAKE] = 1,
        rounds: app_commands.Range[int, 1, 8] | None = None,
        discard_timeout: app_commands.Range[int, 5, 600] | None = None,
        claim_timeout: app_commands.Range[int, 3, 300] | None = None,
        ai_fill: bool = True,
        ai_level: str | None = None,
        learner_aids: bool = False,
    ) -> None:
        assert interaction.guild_id is not None
        if variant is None:
            variant = (await self.bot.store.get_settings(interaction.guild_id)).default_variant
        validate_create(variant, seats, stake, rounds, discard_timeout, claim_timeout, ai_level)
        missing = missing_table_permissions(interaction)
        if missing is not None:
            raise UserFacingError(
                msg_each("table.no_permissions", {"missing": missing.zh}, {"missing": missing.en})
            )
        user = interaction.user
        manager = self.bot.manager
        await manager.check_create(interaction.guild_id, user.id)
        name = variant_names(variant)  # the short one for the thread's title in the list
        full = rule_set_name(variant)  # as the lobby, the table and the images name it
        table_facts = {"host": user.display_name, "seats": seats, "stake": stake}
        starter = msg_each(
            "thread.starter",
            {**table_facts, "variant": full.zh},
            {**table_facts, "variant": full.en},
        )
        thread_title = msg_each(
            "thread.name",
            {"variant": name[0], "host": user.display_name},
            {"variant": name[1], "host": user.display_name},
        )
        language = await self.bot.presenter.channel_language(interaction.guild_id)
        host = (user.display_name,)
        # The channel list shows one name: in the server's table language.
        title = thread_title.en if language == "en" else thread_title.zh
        place = await open_table_place(
            self.bot,
            interaction,
            Text(in_server_script(starter.zh, language, host), starter.en),
            in_server_script(title, language, host),
        )
        try:
            table = await manager.create_table(
                interaction.guild_id,
                place.channel_id,
                user.id,
                user.display_name,
                variant=variant,
                num_seats=seats,
                stake=stake,
                rounds=rounds,
                discard_timeout=discard_timeout,
                claim_timeout=claim_timeout,
                ai_fill=ai_fill,
                seed=self.bot.next_seed(),
                ai_level=ai_level,
                parent_channel_id=place.parent_id,
                learner_aids=learner_aids is True,
            )
        except SessionError as error:
            await give_up_place(self.bot, place)
            if place.parent_id is None and error.text == CHANNEL_BUSY:
                raise SessionError(busy_channel_refusal(interaction)) from error
            raise
        text = msg("table.created", variant=full.zh, seats=seats, stake=stake)
        if not _is_zh(interaction):
            text = msg("table.created", variant=full.en, seats=seats, stake=stake)
        if place.parent_id is not None:
            where = msg("thread.created", thread=f"<#{place.channel_id}>")
            text = Text(f"{text.zh}{where.zh}", f"{text.en} {where.en}")
        # The "more rules" step: every option of the rule set, for the host, before the start.
        hint = Text(
            "可点「更多规则」修改全部规则选项。", "Use More rules to set every rule option."
        )
        await send_with_view(
            interaction,
            say(text, interaction.locale) + "\n" + say(hint, interaction.locale),
            more_rules_button(table.table_id, str(interaction.locale)),
        )

    @table.command(
        name=T("join", "加入"),
        description=T("Sit down at this channel's table", "加入本频道的牌桌"),
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        table = self.bot.table_here(interaction)
        result = await table.join(interaction.user.id, interaction.user.display_name)
        await self.bot.reply(interaction, msg("table.joined") if result.ok else _why(result))

    @table.command(
        name=T("leave", "离开"),
        description=T(
            "Leave your table (a penalty applies mid-match)", "离开牌桌（对局中离开会被罚分）"
        ),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.leave_table(
            interaction, self.bot.table_of(interaction.user.id), confirmed=None
        )

    @table.command(
        name=T("kick", "踢出"),
        description=T(
            "Remove a player from the lobby (host only, before the start)",
            "请一位玩家离开大厅（仅房主，开局前）",
        ),
    )
    @app_commands.rename(user=T("user", "用户"))
    @app_commands.describe(user=T("Who to remove", "请谁离开"))
    async def kick(self, interaction: discord.Interaction[Any], user: discord.Member) -> None:
        table = self.bot.table_here(interaction)
        result = await table.remove_player(interaction.user.id, user.id)
        done = msg("table.removed", name=user.display_name)
        await self.bot.reply(interaction, done if result.ok else _why(result))

    @table.command(
        name=T("start", "开始"), description=T("Start the match (host only)", "开始对局（仅房主）")
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        table = self.bot.table_here(interaction)
        result = await table.start(interaction.user.id)
        await self.bot.reply(interaction, msg("table.started") if result.ok else _why(result))

    @table.command(
        name=T("end", "结束"),
        description=T(
            "Close this channel's table (host or Manage Server)", "结束本频道的牌桌（房主或管理员）"
        ),
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.end_table(interaction, self.bot.table_here(interaction), confirmed=None)

    # ------------------------------------------------------------------ play helpers

    @table.command(
        name=T("status", "状态"), description=T("Show this channel's table", "查看本频道的牌桌")
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        table = self.bot.table_here(interaction)
        status = table.table_status()
        lobby = table.lobby_info()
        if status is None:
            players = [p.name for p in lobby.players]
            name = rule_set_name(lobby.variant)
            text = Text(
                f"{name.zh} · 等待开始 · 玩家：{'、'.join(players) or '-'}",
                f"{name.en} · waiting to start · players: {', '.join(players) or '-'}",
            ).keeping(*(p.name for p in lobby.players))
            await self.bot.reply(interaction, text)
            return
        await self.bot.defer(interaction)
        names = seat_names(status)
        presenter = self.bot.presenter
        picture = await presenter.picture(
            presenter.renderer.table,
            describe_table,
            status.public,
            names,
            image_locale(str(interaction.locale)),
        )
        scores = ", ".join(f"{names[s.seat]} {s.score:+d}" for s in status.public.seats)
        content = f"{say(status.hand_label, interaction.locale)}\n{scores}"
        await self.bot.respond(interaction, content, file=picture.file("table.png"))

    @table.command(
        name=T("hand", "手牌"), description=T("Show your hand privately", "私下查看你的手牌")
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = self.bot.table_of(interaction.user.id)
        await self.bot.show_hand(interaction, table)

    @table.command(
        name=T("back", "回来"),
        description=T("Leave autoplay and play yourself again", "取消托管，自己继续打"),
    )
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        table = self.bot.table_of(interaction.user.id)
        result = await table.back(interaction.user.id)
        await self.bot.reply(interaction, msg("table.back") if result.ok else _why(result))

    @table.command(name=T("rules", "规则"), description=T("How the rule sets play", "规则说明"))
    @app_commands.rename(variant=T("variant", "玩法"))
    @app_commands.describe(variant=T("Rule set", "规则"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], variant: str | None = None
    ) -> None:
        table = self.bot.manager.by_channel(interaction.channel_id or 0)
        if variant is None:
            variant = table.variant if table is not None else default_rule_set()
        if variant not in RULE_SETS:
            raise UserFacingError(msg("error.bad_value", reason=str(variant)[:40]))
        rules = get_rules(variant)
        text = Text(rules.rules_text_zh or rules.name_zh, rules.rules_text_en or rules.name_en)
        if table is not None and table.variant == variant:
            seats = table.num_seats
            zh_lines = ["**本桌规则选项**", *options_lines(variant, table.options, True, seats)]
            en_lines = [
                "**This table's rule options**",
                *options_lines(variant, table.options, False, seats),
            ]
            text = Text(
                text.zh + "\n\n" + "\n".join(zh_lines), text.en + "\n\n" + "\n".join(en_lines)
            )
        # One Text through say(): a zh-TW reader gets the option lines in Traditional too.
        await self.bot.respond(interaction, say(text, interaction.locale))

    @table.command(
        name=T("dm", "私信"),
        description=T(
            "Receive your hand by DM (on) or only privately here (off)", "手牌是否私信发送"
        ),
    )
    @app_commands.rename(mode=T("mode", "方式"))
    @app_commands.describe(
        mode=T(
            "on: DM me my hand; off: only the My hand button",
            "开：私信发手牌；关：只用「我的手牌」按钮",
        )
    )
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=T("on", "开"), value="on"),
            app_commands.Choice(name=T("off", "关"), value="off"),
        ]
    )
    async def dm(self, interaction: discord.Interaction[Any], mode: str) -> None:
        if mode not in ("on", "off"):
            raise UserFacingError(msg("error.bad_value", reason=str(mode)[:20]))
        had_failed = await self.bot.presenter.set_delivery(interaction.user.id, mode == "on")
        if mode == "off":
            await self.bot.reply(interaction, msg("dm.off"))
        else:
            await self.bot.reply(interaction, msg("dm.on_but_closed" if had_failed else "dm.on"))

    @table.command(
        name=T("ping", "提醒"),
        description=T("A DM alert when it is your turn (on/off)", "轮到你时私信提醒（开/关）"),
    )
    @app_commands.rename(mode=T("mode", "方式"))
    @app_commands.describe(
        mode=T("on: alert me (default); off: no alerts", "开：提醒我（默认）；关：不提醒")
    )
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=T("on", "开"), value="on"),
            app_commands.Choice(name=T("off", "关"), value="off"),
        ]
    )
    async def ping(self, interaction: discord.Interaction[Any], mode: str) -> None:
        if mode not in ("on", "off"):
            raise UserFacingError(msg("error.bad_value", reason=str(mode)[:20]))
        await self.bot.presenter.set_ping(interaction.user.id, mode == "on")
        await self.bot.reply(interaction, msg("ping.on" if mode == "on" else "ping.off"))

    # ------------------------------------------------------------------ calculator

    @table.command(
        name=T("score", "算分"),
        description=T(
            "Score a winning hand: tiles and context → breakdown", "算分器：输入牌和情况，得到明细"
        ),
    )
    @app_commands.rename(
        hand=T("hand", "手牌"),
        win_tile=T("win_tile", "胡的牌"),
        indicator=T("indicator", "翻牌"),
        variant=T("variant", "玩法"),
        melds=T("melds", "亮牌"),
        by=T("by", "方式"),
        seat_wind=T("seat_wind", "门风"),
        prevailing_wind=T("prevailing_wind", "风圈"),
    )
    @app_commands.describe(
        hand=T(
            "Concealed tiles incl. the winning tile, e.g. 123m456m789m11555z",
            "暗牌（含胡的牌），如 123m456m789m11555z",
        ),
        win_tile=T("The winning tile, e.g. 5z", "胡的那张牌，如 5z"),
        indicator=T("The flipped tile deciding the wilds", "翻开定百搭/财神的牌"),
        variant=T("Rule set", "规则"),
        melds=T(
            "Exposed melds, e.g. 555m 345p (chows from the left, pungs from the others); "
            "!1111z = concealed kong",
            "亮出的牌，如 555m 345p（吃的算上家打的，碰杠算另两家）；!1111z 为暗杠",
        ),
        by=T("How it was won", "胡牌方式"),
        seat_wind=T("The winner's seat wind", "胡家门风"),
        prevailing_wind=T("The prevailing wind", "风圈"),
    )
    @app_commands.choices(
        variant=VARIANT_CHOICES,
        by=[
            app_commands.Choice(name=T("self-draw", "自摸"), value="self_draw"),
            app_commands.Choice(name=T("on a discard", "捉冲"), value="discard"),
            app_commands.Choice(name=T("robbing a kong", "抢杠"), value="rob_kong"),
        ],
        seat_wind=WIND_CHOICES,
        prevailing_wind=WIND_CHOICES,
    )
    async def score(
        self,
        interaction: discord.Interaction[Any],
        hand: app_commands.Range[str, 2, 80],
        win_tile: app_commands.Range[str, 1, 10],
        indicator: app_commands.Range[str, 1, 10],
        variant: str | None = None,
        melds: app_commands.Range[str, 0, 80] | None = None,
        by: str = "self_draw",
        seat_wind: str = "1z",
        prevailing_wind: str = "1z",
    ) -> None:
        from bot.cogs.calculator import CalculatorError, score_request

        try:
            view, result = score_request(
                variant=variant or default_rule_set(), hand=hand, win_tile=win_tile, indicator=indicator,
                melds=melds or "", by=by, seat_wind=seat_wind, prevailing_wind=prevailing_wind,
            )  # fmt: skip
        except CalculatorError as error:
            raise UserFacingError(error.text) from None
        await self.bot.defer(interaction)
        language = image_locale(str(interaction.locale))
        names = list(_CALCULATOR_SEATS[language][: view.num_seats])
        presenter = self.bot.presenter
        picture = await presenter.picture(
            presenter.renderer.result, describe_result, view, result, names, language
        )
        from bot.cogs.calculator import summary

        await self.bot.respond(
            interaction, summary(result, interaction.locale), file=picture.file("score.png")
        )


# The calculator's seats, named from the winner's place, as the picture draws names: as
# they are written, so in each of the renderer's languages.
_CALCULATOR_SEATS = {
    "zh": ("胡家", "下家", "对家", "上家"),
    "zh-TW": ("胡家", "下家", "對家", "上家"),
    "en": ("Winner", "Right", "Opposite", "Left"),
}


def _why(result: Any) -> Text:
    return result.message or msg("error.generic")


def _is_zh(interaction: discord.Interaction[Any]) -> bool:
    return str(interaction.locale).startswith("zh")


__all__ = ["SessionError", "TablesCog", "validate_create"]
