"""The shared table's language: the server's preferred locale, or the admin's choice.

A server that is not a Community server cannot change its preferred locale from en-US,
so its table picture would stay English for players who read Chinese;
``/mjadmin settings channel_language`` fixes the language of everything a channel shows
(the table picture and message, hand results, standings, the leaderboard).
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from chinese_script import CJK, simplified_left
from discord_harness import (
    ADMIN_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    Harness,
    offline_bot,
    option,
)
from test_issue13_at_table import LocaleRenderer as PictureLanguages

from bot.app import MahjongBot
from bot.session import FakeClock
from data import Store

HOST = 800_000_000_000_000_041  # 张伟
ADMIN = 800_000_000_000_000_042
USERS = {HOST: ("张伟", DEFAULT_PERMISSIONS), ADMIN: ("admin", ADMIN_PERMISSIONS)}


class LocaleRenderer(PictureLanguages):
    """Tags the leaderboard too with the language it was drawn in."""

    def leaderboard(self, *args: Any) -> bytes:
        return f"BOARD locale={args[-1]}".encode()


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    # A server that never chose a locale: Discord's default, en-US.
    async with offline_bot(
        tmp_path, USERS, seed=3, renderer=LocaleRenderer(), guild_locale="en-US"
    ) as h:
        yield h


def table_pictures(h: Harness) -> list[bytes]:
    return [
        data
        for request in h.remote.requests
        if request.audience is not None and request.audience.kind == "channel"
        for _name, data in request.files
        if data.startswith(b"TABLE")
    ]


def readable(payload: dict[str, Any]) -> str:
    """A message's text with its buttons' labels."""
    data = payload.get("data", payload)
    labels = [
        str(item.get("label") or "")
        for row in data.get("components") or []
        for item in row.get("components") or []
    ]
    return "\n".join([str(data.get("content") or ""), *labels])


def table_text(h: Harness) -> str:
    message = next(m for m in reversed(h.channel_messages()) if m.custom_ids())
    labels = [c.get("label", "") for row in message.components for c in row["components"]]
    return "\n".join([message.payload.get("content") or "", *labels])


async def test_an_admin_chooses_the_language_of_the_shared_table(harness: Harness) -> None:
    h = harness
    # Unset, the table follows the server's preferred locale (en-US here), and the
    # settings say so.
    shown = h.reply_text(await h.command(ADMIN, "mjadmin settings"))
    assert "牌桌语言 `channel_language`: auto → en-US" in shown, shown
    await h.command(HOST, "table create", [option("variant", "taizhou")])
    await h.command(HOST, "table start")
    await h.advance(2)
    assert table_pictures(h)[-1].endswith(b"locale=en")

    # Traditional Chinese: the picture, the message and its buttons; 张伟 stays 张伟.
    record = await h.command(ADMIN, "mjadmin settings", [option("channel_language", "zh-TW")])
    assert "牌桌语言 `channel_language`: zh-TW" in h.reply_text(record)
    await h.advance(30)  # the next turns edit the table
    assert table_pictures(h)[-1].endswith(b"locale=zh-TW")
    text = table_text(h)
    assert CJK.search(text) and not simplified_left(text, ("张伟",)), text

    # Simplified with English beside it, and back to the server's own locale.
    await h.command(ADMIN, "mjadmin settings", [option("channel_language", "zh-CN")])
    await h.advance(30)
    assert table_pictures(h)[-1].endswith(b"locale=zh")
    assert "台州麻将" in table_text(h) and "我的手牌 My hand" in table_text(h)
    await h.command(ADMIN, "mjadmin settings", [option("channel_language", "auto")])
    await h.advance(30)
    assert table_pictures(h)[-1].endswith(b"locale=en")


async def test_a_value_discord_did_not_offer_is_refused(harness: Harness) -> None:
    """Discord does not enforce choices: a forged value changes nothing."""
    h = harness
    record = await h.command(ADMIN, "mjadmin settings", [option("channel_language", "klingon")])
    assert "klingon" in h.reply_text(record)
    settings = await h.bot.store.get_settings(GUILD_ID)  # type: ignore[attr-defined]
    assert settings.channel_language == "auto"
    refused = await h.command(HOST, "mjadmin settings", [option("channel_language", "en")])
    assert (await h.bot.store.get_settings(GUILD_ID)).channel_language == "auto"  # type: ignore[attr-defined]
    assert h.reply_text(refused)


async def test_the_setting_outlives_a_restart_and_reaches_the_leaderboard(
    harness: Harness,
) -> None:
    h = harness
    await h.command(ADMIN, "mjadmin settings", [option("channel_language", "zh-TW")])
    bot: Any = h.bot
    # A new process reads it from the store before any interaction tells it anything.
    bot.presenter._channel_languages.clear()
    assert await bot.presenter.channel_language(GUILD_ID) == "zh-TW"
    await h.command(HOST, "table create", [option("variant", "jiaxing")])
    await h.command(HOST, "table start")
    await h.advance(2)
    assert table_pictures(h)[-1].endswith(b"locale=zh-TW")
    for _ in range(60):  # the host sleeps: timeouts, then autoplay play the hand out
        await h.advance(30)
    # Everything the channel was shown (table, results, buttons) is in Traditional too.
    shown = [
        readable(request.payload or {})
        for request in h.remote.requests
        if request.audience is not None and request.audience.kind == "channel"
    ]
    assert any("胡" in text or "流局" in text for text in shown)  # a hand's result is there
    assert not [text for text in shown if simplified_left(text, ("张伟",))]
    record = await h.command(HOST, "leaderboard", [option("period", "alltime")])
    text = h.reply_text(record)
    assert CJK.search(text) and not simplified_left(text, ("张伟",)), text
    assert any(
        data == b"BOARD locale=zh-TW"
        for request in h.replies_to(record)
        for _name, data in request.files
    )


async def test_a_restarted_bot_draws_the_table_in_the_servers_locale_at_once(
    harness: Harness, tmp_path: Path
) -> None:
    """The server's locale arrives with interactions; it is kept, so that after a
    restart the restored table is not redrawn in another language until someone clicks."""
    h = harness
    await h.command(HOST, "table create", [option("variant", "taizhou")])
    await h.command(HOST, "table start")
    await h.advance(2)
    assert table_pictures(h)[-1].endswith(b"locale=en")
    assert (await h.bot.store.get_settings(GUILD_ID)).preferred_locale == "en-US"  # type: ignore[attr-defined]
    clock: Any = h.bot.manager.clock  # type: ignore[attr-defined]
    await h.close()
    await h.bot.store.close()  # type: ignore[attr-defined]

    store = await Store.open(tmp_path / "bot.db")
    bot = MahjongBot(store, clock=FakeClock(clock.now() + 5), renderer=LocaleRenderer(),  # type: ignore[arg-type]
                     ai_delay=0.0, leaderboard_interval=None, seeds=itertools.count(3))  # fmt: skip
    again = Harness(bot, USERS, bot.manager.clock, remote=h.remote)  # type: ignore[arg-type]
    before = len(table_pictures(again))
    await again.start()
    try:
        for _ in range(4):  # nobody interacts: the AI seats and the host's timeouts play
            await again.advance(30)
        redrawn = table_pictures(again)[before:]
        assert redrawn and all(data.endswith(b"locale=en") for data in redrawn)
    finally:
        await again.close()
        await store.close()


async def test_a_servers_first_table_is_announced_in_its_language(tmp_path: Path) -> None:
    """The first command a fresh bot gets from a zh-TW server opens a table: its thread's
    name and starter message are already in Traditional characters (the host's name as
    written), though the event that notes the server's locale may run after the command."""
    clock = FakeClock()
    store = await Store.open(tmp_path / "bot.db")
    bot = MahjongBot(store, clock=clock, renderer=LocaleRenderer(), ai_delay=0.0,  # type: ignore[arg-type]
                     leaderboard_interval=None, seeds=itertools.count(3))  # fmt: skip
    h = Harness(bot, USERS, clock, threads=True)
    h.guild_locale = "zh-TW"
    await h.start()
    try:
        await h.command(HOST, "table create", [option("variant", "jiaxing")], locale="zh-CN")
        names = [thread.name for thread in h.remote.threads.values()]
        starters = [m.payload.get("content") or "" for m in h.channel_messages()]
        assert names and starters
        for text in [*names, *starters]:
            assert "张伟" in text and not simplified_left(text, ("张伟",)), text
    finally:
        await h.close()
        await store.close()
