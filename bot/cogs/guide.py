"""``/help`` (帮助): how to play here, in the reader's language, with the commands as
links.

Why a command of its own: a player new to the server sees a list of twenty slash
commands and does not know which one starts a game, that the hand comes by DM, or how to
write a tile when typing. The answer names each command as a clickable mention
(``</table create:ID>``: Discord opens the command with its options when it is clicked),
which needs the command's id: the ids come from the bot's own command sync, or, when this
process did not sync, from one fetch of the registered commands, kept for the life of
the process. Without them the names are written out in the reader's language. Server
managers also get the admin commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import is_manager
from bot.command_names import written_command
from bot.discord_core import DISCORD_CONTENT_LIMIT
from bot.i18n import MESSAGES, T, Text, say

if TYPE_CHECKING:
    from bot.app import MahjongBot

# The guide, a section a pair of (Chinese, English) lines; {table create} and the like
# are the commands, filled in as mentions (or names) for the reader.
_SECTIONS: tuple[tuple[tuple[str, str], ...], ...] = (
    (
        ("**开桌**", "**Start a game**"),
        (
            "{table create} 开一桌：玩法、人数、底注、圈数、电脑补位和难度；牌桌在本频道新开的"
            "子区里，大厅有{lobby_buttons}按钮。",
            "{table create} opens a table: rule set, seats, stake, rounds, AI seats and their "
            "level; it opens in a new thread of this channel, whose lobby has {lobby_buttons} "
            "buttons.",
        ),
        (
            "{table join} {table leave}（对局中先告诉你罚多少，确认才离开） {table start} · "
            "{table kick} 房主把人请出大厅 · {table end}（房主或管理员；一局打到一半时，"
            "可以打完这局再结束，现在结束要像离开一样罚分）",
            "{table join} {table leave} (mid-match it first says the penalty and leaves on "
            "your confirmation) {table start} · {table kick} the host removes someone from "
            "the lobby · {table end} (the host or a manager; in the middle of a hand, end "
            "after it, or now at the leaving penalty)",
        ),
    ),
    (
        ("**打牌**", "**Play**"),
        (
            "手牌私信给你，下面是出牌菜单和只在能用时出现的{claim_buttons}按钮；私信关闭时用 "
            "{table hand} 查看。{table dm} 选私信或只在频道里私下看。",
            "Your hand comes by DM, with a discard menu and {claim_buttons} buttons shown "
            "only when they can be used; with DMs closed, {table hand} shows it. {table dm} "
            "chooses DMs or private-only hands.",
        ),
        (
            "也可以打字：{discard} {chow} {pung} {kong} {win} {pass}。牌这样写：5m 五万、3p "
            "三筒、7s 七条、1z–4z 或 E S W N 东南西北、5z 或 P 白板、6z 或 F 发财、7z 或 C 红中，"
            "也可以直接写中文。",
            "Or type: {discard} {chow} {pung} {kong} {win} {pass}. Tiles are written 5m "
            "(5 Characters), 3p (3 Dots), 7s (7 Bamboo), 1z–4z or E S W N (winds), 5z or P "
            "(White), 6z or F (Green), 7z or C (Red), or in Chinese (五万, 东风).",
        ),
        (
            "手牌下的快捷：自动过、自动胡、自动摸打。{table ping} 轮到你时私信提醒；超时自动"
            "出牌或过（连续三次超时转为电脑托管，{table back} 回来）。{table status} 看牌桌。",
            "Shortcuts under the hand: Auto-pass, Auto-win, Auto-discard drawn tile. "
            "{table ping} sends a DM when it is your turn. When time runs out the bot discards "
            "the drawn tile or passes for you; after three timeouts in a row the computer "
            "plays for you until {table back}. {table status} shows the table.",
        ),
    ),
    (
        ("**规则和算分**", "**Rules and scoring**"),
        (
            "{table rules} 玩法规则；{table score} 算分器：写一手牌，看每一项怎么算。",
            "{table rules} explains a rule set; {table score} scores a hand you write, item "
            "by item.",
        ),
    ),
    (
        ("**积分和战绩**", "**Points and records**"),
        (
            "{balance} 余额和最近的变动 · {leaderboard} 周榜、月榜、总榜（可只看一种玩法） · "
            "{stats} 统计 · {history} 最近的对局 · {replay} 回放一局",
            "{balance} your points and their latest changes · {leaderboard} weekly, monthly "
            "and all-time boards (of one rule set, if you like) · {stats} statistics · "
            "{history} recent matches · {replay} a hand's replay",
        ),
    ),
)

_ADMIN_SECTION: tuple[tuple[str, str], ...] = (
    ("**管理（需要“管理服务器”权限）**", "**Managing (needs Manage Server)**"),
    (
        "{mjadmin settings} 时区、排行榜频道、出牌和吃碰的时限、默认玩法、初始积分、入座最低积分、"
        "最高底注、封顶、频道语言、AI 局是否计入排行榜 · "
        "{mjadmin rules} 新桌的默认规则 · {mjadmin adjust} 调整某人的积分（记入账本） · "
        "{mjadmin tables} 开着的牌桌：在哪、谁在玩、轮到谁 · "
        "{mjadmin end} 在任何地方结束一张牌桌（先确认；不罚分，正在打的一局不结算） · "
        "{mjadmin void} 作废已结算的一局：积分原数退回，不再计入排行榜和统计（先确认，记入账本） · "
        "{mjadmin ledger} 全服账本：每笔调整和作废（谁做的）和罚分 · "
        "{mjadmin export} 导出全部余额和账本（CSV）",
        "{mjadmin settings} time zone, leaderboard channel, time limits, default rule set, "
        "starting balance, minimum balance to sit, highest stake, caps, channel language, "
        "whether hands with AI seats count on the boards · "
        "{mjadmin rules} the rules new tables "
        "start with · {mjadmin adjust} change someone's points (kept in the ledger) · "
        "{mjadmin tables} the open tables: where, who, whose turn · "
        "{mjadmin end} end any table from anywhere (asked first; free, the hand in play is "
        "not paid) · {mjadmin void} void a settled hand: its points reversed, off the boards "
        "and statistics (asked first, kept in the ledger) · "
        "{mjadmin ledger} the server's ledger: every adjustment and void (and who made it) "
        "and penalty · {mjadmin export} every balance and the ledger as CSV files",
    ),
)


# Button rows the guide names, with the buttons' own labels (bot.messages).
_BUTTONS = {
    "lobby_buttons": ("button.join", "button.leave", "button.add_ai", "button.remove_ai",
                      "button.start"),
    "claim_buttons": ("button.chow", "button.pung", "button.kong", "button.win", "button.pass"),
}  # fmt: skip


def guide_messages(
    mention: dict[str, str], *, manager: bool, locale: discord.Locale | str | None
) -> list[str]:
    """The guide for one reader, as messages Discord accepts: whole sections packed into
    messages of at most 2,000 characters (command mentions, ``</table create:ID>``, make
    a manager's English guide longer than one). ``mention`` maps each command's
    qualified name to how it is written for them (a mention, or its name)."""
    sections = _SECTIONS + ((_ADMIN_SECTION,) if manager else ())
    fields = dict(mention)
    for field, keys in _BUTTONS.items():
        labels = [MESSAGES[key] for key in keys]
        both = Text("、".join(zh for zh, _en in labels), ", ".join(en for _zh, en in labels))
        fields[field] = say(both, locale)
    messages: list[str] = []
    for section in sections:
        lines = [say(Text(zh, en), locale) for zh, en in section]
        block = "\n".join(line.format_map(fields) for line in lines)
        joined = f"{messages[-1]}\n\n{block}" if messages else block
        if messages and len(joined) <= DISCORD_CONTENT_LIMIT:
            messages[-1] = joined
        else:
            messages.append(block)
    return messages


def _used_commands() -> list[str]:
    """Every command the guide names, as ``{table create}`` fields."""
    import string

    names: list[str] = []
    for section in (*_SECTIONS, _ADMIN_SECTION):
        for pair in section:
            for text in pair:
                fields = (field for _, field, _, _ in string.Formatter().parse(text) if field)
                names += [field for field in fields if field not in _BUTTONS]
    return list(dict.fromkeys(names))


GUIDE_COMMANDS = _used_commands()


class GuideCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=T("help", "帮助"),
        description=T(
            "How to play here: starting a table, the hand, typing tiles, points",
            "怎么玩：开桌、手牌、打字出牌、积分",
        ),
    )
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.command_ids()  # known from here on: the names become mentions
        locale = interaction.locale
        mention = {name: _written(name, locale) for name in GUIDE_COMMANDS}
        for text in guide_messages(mention, manager=is_manager(interaction), locale=locale):
            await self.bot.respond(interaction, text)  # the second one is a follow-up


def _written(name: str, locale: Any) -> str:
    """``</table create:ID>`` when the command's id is known (Discord shows it in the
    reader's language and opens it on a click), else its name as the reader's client
    lists it (the guide's lines are put in the reader's script before it goes in)."""
    return say(Text(written_command(name, "zh"), written_command(name, "en")), locale)
