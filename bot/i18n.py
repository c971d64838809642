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


def bilingual_label(key: str) -> str:
    """A short component label for everyone: "碰 Pung" (Discord labels have no locale)."""
    zh, en = MESSAGES[key]
    return f"{zh} {en}"
