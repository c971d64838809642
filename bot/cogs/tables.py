"""``/table …``: open, join, start and end tables; status, your hand, rules, DMs, the calculator.

Every value Discord sends is re-validated here (Discord shows ranges and choices to the
client but does not enforce them), then again by the session, which owns the rules.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import UserFacingError, is_manager
from bot.discord_presenter import VARIANT_NAMES, seat_names
from bot.i18n import T, Text, msg, say
from bot.session import CLAIM_TIMEOUT_RANGE, DISCARD_TIMEOUT_RANGE, MAX_STAKE, SessionError
from engine.variants import variant_for
from engine.variants.options import OPTIONS_BY_VARIANT, VARIANTS

if TYPE_CHECKING:
    from bot.app import MahjongBot

VARIANT_CHOICES = [
    app_commands.Choice(name=T("Jiaxing Taitou Hu", "嘉兴台头胡"), value="jiaxing"),
    app_commands.Choice(name=T("Taizhou", "台州麻将"), value="taizhou"),
]
SEAT_CHOICES = [
    app_commands.Choice(name=T("4 players", "4 人"), value=4),
    app_commands.Choice(name=T("3 players (Taizhou)", "3 人（台州）"), value=3),
    app_commands.Choice(name=T("2 players (Taizhou)", "2 人（台州）"), value=2),
]

RULES = {
    "jiaxing": Text(
        "**嘉兴台头胡**（硬自摸，两台起胡）\n"
        "• 只能自摸；抢补杠算自摸（单吊或与百搭成对不能抢）。\n"
        "• 翻开一张定百搭，同种其余三张为百搭，可当任何牌，不能用于吃碰杠。\n"
        "• 必须是台型之一：清一色 4台、混一色 2台、全老头 10台、对对和 2台（对对和可与其他叠加）。\n"
        "• 加台：中/发/白刻 各1台，门风刻 1台，风圈刻 1台，无百搭 1台。\n"
        "• 番（每番翻倍）：三百搭、杠上开花、单吊、海底捞月 各1番；天和、地和 2番；"
        "番池每胡取1番（老头黄、包子、百搭连庄、流局各加1番入池）。\n"
        "• 得分 = 台 × 2^番，另外三家各付。\n"
        "• 三摊：一家吃碰杠同一家的牌三次，两家互为承包方；其余玩家选择跟或不跟，不跟者自动摸打、不付分。",
        "**Jiaxing Taitou Hu** (hard self-draw, two tai to win)\n"
        "• Self-draw only; robbing an added kong counts as self-draw (not on a pair wait or a "
        "wild pair).\n"
        "• The flipped indicator makes the other three copies wild (百搭): any tile, never in "
        "a claimed meld.\n"
        "• The hand must be Full Flush 4, Half Flush 2, All Honors 10 or All Pungs 2 tai "
        "(All Pungs stacks with the others).\n"
        "• More tai: Red/Green/White pung 1 each, seat-wind pung 1, prevailing-wind pung 1, "
        "No Wilds 1.\n"
        "• Fan (each doubles): Three Wilds, Kong Replacement, Single Wait, Last Tile 1 each; "
        "Heavenly/Earthly Hand 2; one fan from the carried pool per win.\n"
        "• Score = tai × 2^fan, paid by each of the other three.\n"
        "• Three claims between the same two players make them liable (三摊); the others "
        "continue or fold (folded players auto-play and pay nothing).",
    ),
    "taizhou": Text(
        "**台州麻将**（2–4 人，可点炮）\n"
        "• 翻开一张定财神，同种其余三张为财神；白板可替代财神那张牌，也可还原为白板。\n"
        "• 四副一将即可胡，自摸或点炮；一炮只一人胡，从庄家起按顺序优先；过胡后摸牌前不能再胡同一张。\n"
        "• 胡数：明刻 2/4、暗刻 4/8、明杠 8/16、暗杠 16/32（么九字牌取大数）；门风/中发白对 2。"
        "胡家另加：自摸 2、嵌档 2（自摸 4）、单吊门风或中发白 2、对对胡 4、胡牌 10。\n"
        "• 台（每台翻倍）：门风刻、中、发 各1台，清一色 3台，混一色 1台。封顶 100（腊子）。\n"
        "• 庄闲之间全额，闲闲之间一半；未胡者之间按胡数差互算。\n"
        "• 全包：清一色吃碰同一家三次；碰了两种箭牌再点第三种；听牌时点生箭牌（3台以上或清一色听牌免包）。\n"
        "• 最后留 16 张不摸；摸完最后一张再打一张，只能胡不能吃碰杠。",
        "**Taizhou Mahjong** (2–4 players, discard wins)\n"
        "• The indicator makes the other three copies wild (财神); White may stand for the "
        "wild's own kind or stay White.\n"
        "• Any four sets and a pair wins, by self-draw or on a discard; one winner per "
        "discard, priority from the dealer; a skipped win locks that tile until your next "
        "draw.\n"
        "• Points (胡): exposed/concealed pung 2/4, exposed/concealed kong 8/16 (double for "
        "terminals and honors); seat-wind or dragon pair 2. Winner adds self-draw 2, closed "
        "wait 2 (4 on self-draw), single wait on seat wind/dragon 2, all pungs 4, win 10.\n"
        "• Tai (each doubles): seat-wind, Red, Green pung 1 each; Full Flush 3; Half Flush 1. "
        "Limit 100.\n"
        "• Dealer pays and collects in full, non-dealers half; non-winners settle their "
        "differences too.\n"
        "• Full liability for feeding a full flush three times, the third dragon, or a live "
        "dragon while waiting (exempt with 3+ tai or a full-flush wait).\n"
        "• The last 16 tiles stay in the wall; the last discard may only be won on.",
    ),
}


def _check(condition: bool, zh: str, en: str) -> None:
    if not condition:
        raise UserFacingError(Text(zh, en))


def validate_create(
    variant: str,
    seats: int,
    stake: int,
    rounds: int | None,
    discard_timeout: int | None,
    claim_timeout: int | None,
) -> None:
    """Discord does not enforce choices or ranges: check everything on our side."""
    _check(variant in VARIANTS, f"未知玩法 {variant!r}", f"unknown variant {variant!r}")
    allowed = variant_for(variant).allowed_seats
    _check(
        seats in allowed,
        f"{VARIANT_NAMES[variant][0]} 只能 {'/'.join(map(str, allowed))} 人玩",
        f"{VARIANT_NAMES[variant][1]} is played by {'/'.join(map(str, allowed))} players",
    )
    _check(1 <= stake <= MAX_STAKE, f"底注必须在 1 到 {MAX_STAKE} 之间",
           f"the stake must be 1 to {MAX_STAKE}")  # fmt: skip
    if rounds is not None:
        low, high = OPTIONS_BY_VARIANT[variant].RANGES["rounds"]
        _check(low <= rounds <= high, f"圈数必须在 {low} 到 {high} 之间",
               f"rounds must be {low} to {high}")  # fmt: skip
    for timeout, (low, high), zh, en in (
        (discard_timeout, DISCARD_TIMEOUT_RANGE, "出牌限时", "discard timeout"),
        (claim_timeout, CLAIM_TIMEOUT_RANGE, "吃碰限时", "claim timeout"),
    ):
        if timeout is not None:
            _check(low <= timeout <= high, f"{zh}必须在 {low:g} 到 {high:g} 秒之间",
                   f"the {en} must be {low:g} to {high:g} s")  # fmt: skip


class TablesCog(commands.Cog):
    table = app_commands.Group(
        name=T("table", "牌桌"),
        description=T("Mahjong tables: open, join, play", "麻将牌桌：开桌、加入、对局"),
        guild_only=True,
    )

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

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
    )
    @app_commands.describe(
        variant=T("Rule set (default: the server's)", "规则（默认用服务器设置）"),
        seats=T("Number of players", "玩家人数"),
        stake=T("Points per table unit", "每个单位的积分"),
        rounds=T("Prevailing-wind rounds to play", "打几圈"),
        discard_timeout=T("Seconds to discard (5-600)", "出牌限时（5-600 秒）"),
        claim_timeout=T("Seconds to claim (3-300)", "吃碰胡限时（3-300 秒）"),
        ai_fill=T("Fill empty seats with AI at start", "开始时用电脑补满空位"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, seats=SEAT_CHOICES)
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
    ) -> None:
        assert interaction.guild_id is not None
        if variant is None:
            variant = (await self.bot.store.get_settings(interaction.guild_id)).default_variant
        validate_create(variant, seats, stake, rounds, discard_timeout, claim_timeout)
        user = interaction.user
        table = await self.bot.manager.create_table(
            interaction.guild_id,
            interaction.channel_id or 0,
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
        )
        name = VARIANT_NAMES[table.variant]
        text = msg("table.created", variant=name[0], seats=seats, stake=stake)
        if not _is_zh(interaction):
            text = msg("table.created", variant=name[1], seats=seats, stake=stake)
        await self.bot.reply(interaction, text)

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
        table = self.bot.table_of(interaction.user.id)
        result = await table.leave(interaction.user.id)
        await self.bot.reply(interaction, msg("table.left") if result.ok else _why(result))

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
        table = self.bot.table_here(interaction)
        result = await table.end(interaction.user.id, is_admin=is_manager(interaction))
        await self.bot.reply(interaction, msg("table.ended") if result.ok else _why(result))

    # ------------------------------------------------------------------ play helpers

    @table.command(
        name=T("status", "状态"), description=T("Show this channel's table", "查看本频道的牌桌")
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        table = self.bot.table_here(interaction)
        status = table.table_status()
        lobby = table.lobby_info()
        if status is None:
            players = ", ".join(p.name for p in lobby.players) or "-"
            name = VARIANT_NAMES[lobby.variant]
            text = Text(
                f"{name[0]} · 等待开始 · 玩家：{players}",
                f"{name[1]} · waiting to start · players: {players}",
            )
            await self.bot.reply(interaction, text)
            return
        await self.bot.defer(interaction)
        names = seat_names(status)
        renderer = self.bot.presenter.renderer
        png = await asyncio.to_thread(renderer.table, status.public, names, "zh")
        scores = ", ".join(f"{names[s.seat]} {s.score:+d}" for s in status.public.seats)
        content = f"{status.hand_label.zh} · {status.hand_label.en}\n{scores}"
        await self.bot.respond(
            interaction, content, file=discord.File(io.BytesIO(png), "table.png")
        )

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
            variant = table.variant if table is not None else "jiaxing"
        if variant not in RULES:
            raise UserFacingError(msg("error.bad_value", reason=str(variant)[:40]))
        text = RULES[variant]
        content = say(text, interaction.locale)
        if table is not None and table.variant == variant:
            options = ", ".join(f"{k}={v}" for k, v in table.options.items())
            content += f"\n-# {options}"
        await self.bot.respond(interaction, content)

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
        await self.bot.presenter.set_delivery(interaction.user.id, mode == "on")
        await self.bot.reply(interaction, msg("dm.on" if mode == "on" else "dm.off"))

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
        melds=T("melds", "副露"),
        by=T("by", "方式"),
        seat_wind=T("seat_wind", "门风"),
        prevailing_wind=T("prevailing_wind", "圈风"),
    )
    @app_commands.describe(
        hand=T(
            "Concealed tiles incl. the winning tile, e.g. 123m456p789s1155z",
            "暗牌（含胡的牌），如 123m456p789s1155z",
        ),
        win_tile=T("The winning tile, e.g. 5z", "胡的那张牌，如 5z"),
        indicator=T("The flipped tile deciding the wilds", "翻开定百搭/财神的牌"),
        variant=T("Rule set", "规则"),
        melds=T(
            "Exposed melds, e.g. 555m 345p; !1111z = concealed kong",
            "副露，如 555m 345p；!1111z 为暗杠",
        ),
        by=T("How it was won", "胡牌方式"),
        seat_wind=T("The winner's seat wind", "胡家门风"),
        prevailing_wind=T("The prevailing wind", "圈风"),
    )
    @app_commands.choices(
        variant=VARIANT_CHOICES,
        by=[
            app_commands.Choice(name=T("self-draw", "自摸"), value="self_draw"),
            app_commands.Choice(name=T("on a discard", "点炮"), value="discard"),
            app_commands.Choice(name=T("robbing a kong", "抢杠"), value="rob_kong"),
        ],
        seat_wind=(
            winds := [
                app_commands.Choice(name=T("East", "东"), value="1z"),
                app_commands.Choice(name=T("South", "南"), value="2z"),
                app_commands.Choice(name=T("West", "西"), value="3z"),
                app_commands.Choice(name=T("North", "北"), value="4z"),
            ]
        ),
        prevailing_wind=winds,
    )
    async def score(
        self,
        interaction: discord.Interaction[Any],
        hand: app_commands.Range[str, 2, 80],
        win_tile: app_commands.Range[str, 1, 10],
        indicator: app_commands.Range[str, 1, 10],
        variant: str = "jiaxing",
        melds: app_commands.Range[str, 0, 80] | None = None,
        by: str = "self_draw",
        seat_wind: str = "1z",
        prevailing_wind: str = "1z",
    ) -> None:
        from bot.cogs.calculator import CalculatorError, score_request

        try:
            view, result = score_request(
                variant=variant, hand=hand, win_tile=win_tile, indicator=indicator,
                melds=melds or "", by=by, seat_wind=seat_wind, prevailing_wind=prevailing_wind,
            )  # fmt: skip
        except CalculatorError as error:
            raise UserFacingError(error.text) from None
        await self.bot.defer(interaction)
        names = ["胡家 Winner", "下家 Right", "对家 Opposite", "上家 Left"][: view.num_seats]
        renderer = self.bot.presenter.renderer
        png = await asyncio.to_thread(renderer.result, view, result, names, "zh")
        from bot.cogs.calculator import summary

        await self.bot.respond(
            interaction,
            summary(result, interaction.locale),
            file=discord.File(io.BytesIO(png), "score.png"),
        )


def _why(result: Any) -> Text:
    return result.message or msg("error.generic")


def _is_zh(interaction: discord.Interaction[Any]) -> bool:
    return str(interaction.locale).startswith("zh")


__all__ = ["SessionError", "TablesCog", "validate_create"]
