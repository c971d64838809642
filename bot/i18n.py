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

from bot.messages import MESSAGES, msg
from bot.presenter import Text
from engine.words import is_traditional
from render.text import traditional

__all__ = [
    "CHINESE_LOCALES",
    "MESSAGES",
    "MahjongTranslator",
    "T",
    "Text",
    "for_reader",
    "image_locale",
    "is_chinese",
    "label_for",
    "msg",
    "public",
    "say",
    "zh_tw",
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


# Simplified → Traditional for the characters of the bot's own messages that the
# renderer's table (rule-set words) lacks; a test keeps every private message Big5-clean.
_MESSAGE_TRADITIONAL = str.maketrans(
    "仅删务动厅参变启员当录择时显暂权来样欢没现电积经给继续罚脑见记设试请调败轮达这进选钟钮错闭问闲间难频题么后里于"
    "页属别应画帧传导认规则内讨论观战",
    "僅刪務動廳參變啟員當錄擇時顯暫權來樣歡沒現電積經給繼續罰腦見記設試請調敗輪達這進選鐘鈕錯閉問閒間難頻題麼後裡於"
    "頁屬別應畫幀傳導認規則內討論觀戰",
)


def zh_tw(text: str) -> str:
    """A Simplified message of the bot in Traditional characters (zh-TW readers)."""
    return traditional(text).translate(_MESSAGE_TRADITIONAL)


def image_locale(locale: str | None) -> str:
    """The renderer's language for a Discord locale: "zh" (Simplified; also when the
    locale is not known yet), "zh-TW" (Traditional) or "en"."""
    if locale is None or str(locale).lower().startswith("zh"):
        return "zh-TW" if locale is not None and is_traditional(str(locale)) else "zh"
    return "en"


def for_reader(text: Text, locale: str | None, *, bold: bool = False) -> str:
    """A private line for one player: Simplified Chinese with the English after it (the
    project's default, also when the locale is unknown), Traditional Chinese alone for
    zh-TW, English alone for everyone else."""
    language = image_locale(locale)
    if language == "zh-TW":
        line = zh_tw(text.zh)
        return f"**{line}**" if bold else line
    if language == "en":
        return f"**{text.en}**" if bold else text.en
    head = f"**{text.zh}**" if bold else text.zh
    return head if text.zh == text.en or not text.en else f"{head} · {text.en}"


def label_for(key: str, locale: str | None) -> str:
    """A component label in one player's language ("碰 Pung" when it is Simplified)."""
    zh, en = MESSAGES[key]
    language = image_locale(locale)
    if language == "zh-TW":
        return zh_tw(zh)
    if language == "en":
        return en
    return f"{zh} {en}"


def bilingual_label(key: str) -> str:
    """A short component label for everyone: "碰 Pung" (Discord labels have no locale)."""
    zh, en = MESSAGES[key]
    return f"{zh} {en}"
