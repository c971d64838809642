"""Bilingual text for the Discord side: the command translator and the messages users read.

Chinese (zh-CN) comes first, English is the fallback. Command strings are written as
``T("english", "中文")`` right where the command is declared, so a translation can never
drift away from the string it translates; the translator only reads it back out.
Replies meant for one user follow that user's Discord locale; public channel lines carry
both languages, since a channel has no single locale.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

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
    "chinese_for",
    "for_reader",
    "image_locale",
    "in_readers_script",
    "in_server_script",
    "is_chinese",
    "label_for",
    "msg",
    "public",
    "say",
    "zh_tw",
]

# Discord locales that get the Chinese strings (zh-TW in Traditional characters).
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
        chinese = string.extras.get("zh")
        if locale == discord.Locale.taiwan_chinese and chinese is not None:
            return zh_tw(chinese)
        if locale in CHINESE_LOCALES:
            return chinese
        return None


def is_chinese(locale: discord.Locale | str | None) -> bool:
    if locale is None:
        return True
    return str(locale).lower().startswith("zh")


def say(text: Text, locale: discord.Locale | str | None) -> str:
    """The text for one reader: Chinese for Chinese locales (Traditional characters for
    zh-TW), English for everyone else."""
    return chinese_for(text, locale) if is_chinese(locale) else with_user_text(text.en, text.keep)


def public(text: Text, language: str = "zh") -> str:
    """A channel line, read by many locales at once: Chinese (Traditional where the
    server's ``language`` is zh-TW), then English."""
    both = text.zh if text.zh == text.en or not text.en else f"{text.zh}\n-# {text.en}"
    return in_server_script(both, language, text.keep)


def in_server_script(content: str, language: str, keep: Iterable[str] = ()) -> str:
    """A channel's composed text (Chinese and English side by side) in its server's
    script: Traditional characters where the server's preferred language, which its
    table pictures are drawn in, is zh-TW; ``keep`` (names) as written, escaped as
    ``with_user_text`` does."""
    if language == "zh-TW":
        return zh_tw(content, tuple(keep))
    return with_user_text(content, keep)


# Simplified → Traditional (as Taiwan writes it) for the characters of the bot's own
# messages that the renderer's table (rule-set words) lacks. A character table, so each
# entry is the reading our messages use (几 幾, 周 週 as in 本週, 托 託 as in 託管, 里 裡);
# the few words a character alone gets wrong, and those Taiwan says with another word
# (服务器 伺服器, 子区 討論串), come first. Characters that read the same in Taiwan stay
# (台 as in 台數, 胡, 吃, 同). A test holds every reply a zh-TW reader can get to these
# tables.
_MESSAGE_PHRASES = (
    ("复制", "複製"),
    # Words Taiwan writes differently, not only in other characters.
    ("服务器", "伺服器"),
    ("默认", "預設"),
    ("设置", "設定"),
    ("账本", "帳本"),
    ("子区", "討論串"),
    ("创建", "建立"),  # 建立公開討論串, as the zh-TW client names the permission
    ("消息", "訊息"),
)
_MESSAGE_TRADITIONAL = str.maketrans(
    "仅删务动厅参变启员当录择时显暂权来样欢没现电积经给继续罚脑见记设试请调败轮达这进选钟钮错闭问闲间难频题么后里于"
    "页属别应画帧传导认规则内讨论观战几机种确离托周范与据复刚两从优决况减区叠号响围图学帮库态户状简细终统绩编议误说"
    "谁负账辅顶项预黄习语体随阅读历摆换让该转诉废检类码笔压缩运长隐适",
    "僅刪務動廳參變啟員當錄擇時顯暫權來樣歡沒現電積經給繼續罰腦見記設試請調敗輪達這進選鐘鈕錯閉問閒間難頻題麼後裡於"
    "頁屬別應畫幀傳導認規則內討論觀戰幾機種確離託週範與據復剛兩從優決況減區疊號響圍圖學幫庫態戶狀簡細終統績編議誤說"
    "誰負賬輔頂項預黃習語體隨閱讀歷擺換讓該轉訴廢檢類碼筆壓縮運長隱適",
)


def _traditional_words(text: str) -> str:
    for simplified, traditional_form in _MESSAGE_PHRASES:
        text = text.replace(simplified, traditional_form)
    return traditional(text).translate(_MESSAGE_TRADITIONAL)


def zh_tw(text: str, keep: tuple[str, ...] = ()) -> str:
    """A Simplified message of the bot in Traditional characters (zh-TW readers), with
    each of ``keep`` (player names, what a user typed) left as written, escaped as
    ``with_user_text`` does."""
    return with_user_text(text, keep, _traditional_words)


# Every ASCII character Discord's markdown reads (emphasis, spoilers, code, quotes,
# headings, lists, masked links, mentions, custom emoji, autolinks). A backslash before
# ASCII punctuation shows the character itself, so escaping one that would not have
# been read costs nothing.
_MARKDOWN_CHARACTERS = re.compile(r"([\\*_~|`>#\[\]()<@:!.-])")


def escape_user_text(span: str) -> str:
    """A display name or typed text as Discord shows it literally: ``[x](https://…)``
    makes no link under the bot's name, ``**`` no bold, ``@everyone`` and ``<@&id>`` no
    highlighted mention (nothing pings anyway: every message allows no mentions)."""
    return _MARKDOWN_CHARACTERS.sub(r"\\\1", span)


# Discord's own tokens in the bot's text: mentions (<@id>, <#id>, <@&id>), timestamps
# (<t:…:R>), custom emoji and command mentions (</table create:id>).
_DISCORD_TOKEN = re.compile(r"<[@#:/a-zA-Z][^<>\n]*>")


def _span_pattern(span: str) -> str:
    """The pattern that finds ``span`` in a line: anywhere when it holds a letter or a
    digit, else only with whitespace (or the line's edge) on both sides."""
    if any(char.isalnum() for char in span):
        return re.escape(span)
    return rf"(?<!\S){re.escape(span)}(?!\S)"


def with_user_text(
    text: str, keep: Iterable[str], convert: Callable[[str], str] = lambda part: part
) -> str:
    """``text`` as Discord content: the bot's own words through ``convert`` (Traditional
    characters for zh-TW), each of ``keep`` (names, what a user typed) escaped instead,
    so a name is neither converted nor read as markdown.

    A name is found by its text, so two guards keep the bot's own markup whole: nothing
    inside a ``<…>`` token (a mention, a timestamp) is touched, and a name of punctuation
    only ("-", "**") counts only standing apart (it could otherwise be the ``-#`` or
    ``**`` of the bot's own lines; alone it can make no link or mention)."""
    spans = sorted({span for span in keep if span}, key=len, reverse=True)
    if not spans:
        return convert(text)
    pattern = re.compile("|".join(_span_pattern(span) for span in spans))
    tokens = [match.span() for match in _DISCORD_TOKEN.finditer(text)]
    pieces: list[str] = []
    start = 0
    for quoted in pattern.finditer(text):
        if any(low < quoted.end() and quoted.start() < high for low, high in tokens):
            continue  # inside <@id> or <t:…:R>: the bot's markup, left as it is
        pieces += [convert(text[start : quoted.start()]), escape_user_text(quoted.group())]
        start = quoted.end()
    pieces.append(convert(text[start:]))
    return "".join(pieces)


def chinese_for(text: Text, locale: discord.Locale | str | None) -> str:
    """``text``'s Chinese as a Chinese reader reads it: Traditional for zh-TW."""
    if locale is not None and is_traditional(str(locale)):
        return zh_tw(text.zh, text.keep)
    return with_user_text(text.zh, text.keep)


def in_readers_script(view: discord.ui.View, locale: discord.Locale | str | None) -> None:
    """Rewrite ``view``'s Chinese labels (buttons, selects) in Traditional characters for
    a zh-TW reader; leave them as they are for anyone else."""
    if locale is None or not is_traditional(str(locale)):
        return
    for child in view.children:
        item = child.item if isinstance(child, discord.ui.DynamicItem) else child
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = zh_tw(item.label)
        elif isinstance(item, discord.ui.Select):
            if item.placeholder:
                item.placeholder = zh_tw(item.placeholder)
            for option in item.options:
                option.label = zh_tw(option.label)
                if option.description:
                    option.description = zh_tw(option.description)


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
        line = chinese_for(text, locale)
        return f"**{line}**" if bold else line
    english = with_user_text(text.en, text.keep)
    if language == "en":
        return f"**{english}**" if bold else english
    chinese = chinese_for(text, locale)
    head = f"**{chinese}**" if bold else chinese
    return head if text.zh == text.en or not text.en else f"{head} · {english}"


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
