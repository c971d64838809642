"""Bilingual text for the Discord side: the command translator and the messages users read.

Chinese (zh-CN) comes first, English is the fallback. Command strings are written as
``T("english", "中文")`` right where the command is declared, so a translation can never
drift away from the string it translates; the translator only reads it back out.
Replies meant for one user follow that user's Discord locale; public channel lines carry
both languages, since a channel has no single locale.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.presenter import Text

__all__ = [
    "CHINESE_LOCALES",
    "MESSAGES",
    "MahjongTranslator",
    "T",
    "Text",
    "is_chinese",
    "msg",
    "public",
    "say",
]

# Discord locales that get the Chinese strings. zh-TW users read simplified Chinese
# more easily than English, so they get it too rather than the fallback.
CHINESE_LOCALES = (discord.Locale.chinese, discord.Locale.taiwan_chinese)


def T(english: str, chinese: str) -> app_commands.locale_str:
    """A command-facing string: English is the default Discord shows, Chinese the zh-CN one."""
    return app_commands.locale_str(english, zh=chinese)


class MahjongTranslator(app_commands.Translator):
    """Reads the Chinese attached by ``T`` back out for the Chinese locales."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if locale in CHINESE_LOCALES:
            return string.extras.get("zh")
        return None


def is_chinese(locale: discord.Locale | str | None) -> bool:
    if locale is None:
        return True
    return str(locale).lower().startswith("zh")


def say(text: Text, locale: discord.Locale | str | None) -> str:
    """The text for one reader: Chinese for Chinese locales, English for everyone else."""
    return text.zh if is_chinese(locale) else text.en


def public(text: Text) -> str:
    """A channel line, read by many locales at once: Chinese, then English."""
    if text.zh == text.en or not text.en:
        return text.zh
    return f"{text.zh}\n-# {text.en}"


# Every user-facing message the Discord layer writes itself (the session brings its own
# ``Text`` values). Placeholders use str.format names.
MESSAGES: dict[str, tuple[str, str]] = {
    "error.generic": (
        "出了点问题，请稍后再试。",
        "Something went wrong; please try again in a moment.",
    ),
    "error.no_permission": (
        "需要「管理服务器」权限。",
        "You need the Manage Server permission for that.",
    ),
    "error.guild_only": (
        "这个命令只能在服务器频道里使用。",
        "This command only works in a server channel.",
    ),
    "error.cooldown": (
        "太快了，请 {seconds:.0f} 秒后再试。",
        "Slow down; try again in {seconds:.0f} s.",
    ),
    "error.bad_value": ("参数无效：{reason}", "Invalid value: {reason}"),
    "table.none_here": (
        "这个频道没有牌桌。用 /table create 开一桌。",
        "No table in this channel. Use /table create to open one.",
    ),
    "table.none_yours": ("你不在任何牌桌上。", "You are not seated at any table."),
    "table.not_seated": ("你不在这张牌桌上。", "You are not seated at this table."),
    "table.gone": ("这张牌桌已经结束了。", "That table has ended."),
    "table.stale": (
        "这一步已经过去了，请看最新的手牌消息。",
        "That turn is over; use your latest hand message.",
    ),
    "table.not_running": ("牌局还没开始。", "The match has not started yet."),
    "table.created": (
        "已开桌：{variant}，{seats} 人，底注 {stake}。",
        "Table opened: {variant}, {seats} seats, stake {stake}.",
    ),
    "table.finished": ("整场结束。", "The match is over."),
    "table.ended": ("牌桌已结束。", "The table has been closed."),
    "table.started": (
        "开始了！手牌已私信发送，或点牌桌上的「我的手牌」。",
        "Started! Your hand is in your DMs, or press “My hand” on the table.",
    ),
    "table.joined": ("已加入。", "You joined the table."),
    "table.left": ("已离开。", "You left the table."),
    "table.back": ("已取消托管，欢迎回来。", "Autoplay is off; welcome back."),
    "table.nothing_to_do": ("现在不用你出手。", "Nothing for you to do right now."),
    "table.dm_closed_notice": (
        "{mention} 的私信无法送达，手牌将通过牌桌消息上的「我的手牌」按钮（仅自己可见）显示。",
        "{mention} cannot receive DMs; their hand is shown privately through the table's “My hand” button.",
    ),
    "dm.on": ("手牌将私信发送给你。", "Your hand will be sent to you by DM."),
    "dm.off": (
        "手牌只在「我的手牌」按钮和 /table hand 中私下显示（不发私信）。",
        "Your hand is shown only privately via the “My hand” button and /table hand (no DMs).",
    ),
    "dm.retry": (
        "已重新启用私信，下次轮到你时会再试着私信你。",
        "DMs re-enabled; the next prompt will try a DM again.",
    ),
    "hand.your_turn": ("轮到你了", "Your turn"),
    "hand.claim": ("可以吃碰杠胡：{tile}", "You may claim {tile}"),
    "hand.rob_kong": ("可以抢杠：{tile}", "You may rob the kong: {tile}"),
    "hand.santan": (
        "三摊：跟还是不跟？（不跟：自动摸打，不能吃碰胡，也不付分）",
        "Three claims: continue or fold? (fold: auto-play, no claims or win, pay nothing)",
    ),
    "hand.idle": ("等待其他玩家", "Waiting for the other players"),
    "hand.deadline": ("截止 {when}", "deadline {when}"),
    "hand.select_placeholder": ("选择要打出的牌", "Choose a tile to discard"),
    "hand.autoplay": (
        "你正处于托管中，点「回来」继续自己打。",
        "You are on autoplay; press “Back” to play yourself.",
    ),
    "table.status.turn": ("出牌", "to play"),
    "table.status.claims": ("等待吃碰胡", "Claims open"),
    "table.status.santan": ("三摊：等待选择跟或不跟", "Three claims: waiting for continue or fold"),
    "table.status.ended": ("本局结束", "Hand over"),
    "lobby.title": (
        "{variant} · {seats} 人 · 底注 {stake}",
        "{variant} · {seats} seats · stake {stake}",
    ),
    "lobby.players": ("玩家", "Players"),
    "lobby.empty": ("（还没有人）", "(nobody yet)"),
    "lobby.hint": (
        "点「加入」入座，房主点「开始」。",
        "Press Join to sit down; the host presses Start.",
    ),
    "result.win": ("{name} 胡了！", "{name} wins!"),
    "result.draw": ("流局。", "Exhaustive draw."),
    "result.points": ("积分变化：{changes}", "Points: {changes}"),
    "result.match": ("整场结束。总分：{changes}", "Match over. Totals: {changes}"),
    "score.invalid": ("不成胡：{reason}", "Not a winning hand: {reason}"),
    "balance.show": ("{name} 的余额：{balance}", "{name}'s balance: {balance}"),
    "leaderboard.empty": ("这段时间还没有对局。", "No hands played in that period."),
    "leaderboard.week": ("{start} 起的一周排行榜", "Leaderboard for the week of {start}"),
    "leaderboard.alltime": ("总排行榜", "All-time leaderboard"),
    "history.empty": ("还没有记录。", "No history yet."),
    "admin.settings": ("当前设置：\n{settings}", "Current settings:\n{settings}"),
    "admin.adjusted": (
        "已调整 {name} 的余额 {delta:+d}，现在是 {balance}。",
        "Adjusted {name}'s balance by {delta:+d}; it is now {balance}.",
    ),
    "button.join": ("加入", "Join"),
    "button.leave": ("离开", "Leave"),
    "button.start": ("开始", "Start"),
    "button.add_ai": ("加电脑", "Add AI"),
    "button.my_hand": ("我的手牌", "My hand"),
    "button.back": ("回来", "Back"),
    "button.pass": ("过", "Pass"),
    "button.pung": ("碰", "Pung"),
    "button.kong": ("杠", "Kong"),
    "button.win": ("胡", "Win"),
    "button.chow": ("吃", "Chow"),
    "button.continue": ("跟", "Continue"),
    "button.fold": ("不跟", "Fold"),
}


def msg(key: str, **values: object) -> Text:
    """The message ``key`` in both languages, with ``values`` filled in."""
    zh, en = MESSAGES[key]
    return Text(zh.format(**values), en.format(**values))


def bilingual_label(key: str) -> str:
    """A short component label for everyone: "碰 Pung" (Discord labels have no locale)."""
    zh, en = MESSAGES[key]
    return f"{zh} {en}"
