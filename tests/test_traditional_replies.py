"""zh-TW readers read the bot in Traditional characters, and every name as it is written.

A Discord user whose client is set to 中文（台灣）gets replies, DM lines, buttons, menus
and the rule panel in Traditional characters; a player called 张伟 stays 张伟 in them
(names are quoted, not translated), and so does what a user typed.
"""

from __future__ import annotations

import ast
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from chinese_script import CJK, simplified_left
from discord_harness import (
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    Harness,
    choose_move,
    offline_bot,
    option,
)

from bot.i18n import for_reader, label_for, say, zh_tw
from bot.messages import MESSAGES, msg

ROOT = Path(__file__).resolve().parent.parent


def _reader_strings() -> list[tuple[str, str]]:
    """Every string literal a Discord user may read: the message table, and the constants
    of ``bot`` (less the terminal and the command line) and ``engine`` (reasons, score
    item names, rule words), docstrings left out."""
    strings = [("bot/messages.py", zh) for zh, _en in MESSAGES.values()]
    paths = [*sorted((ROOT / "bot").rglob("*.py")), *sorted((ROOT / "engine").rglob("*.py"))]
    for path in paths:
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(("bot/commands/", "bot/terminal.py", "bot/cli.py")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        strings += [
            (relative, node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and CJK.search(node.value)
        ]
    return strings


def test_every_string_a_reader_sees_converts_to_traditional_characters() -> None:
    strings = _reader_strings()
    assert len(strings) > 500  # the scan reads the code, not an empty tree
    left = {
        (where, text[:40]): simplified_left(zh_tw(text))
        for where, text in strings
        if simplified_left(zh_tw(text))
    }
    assert not left, left


def test_the_check_sees_simplified_characters() -> None:
    """The check above can fail: both kinds of Simplified character are caught."""
    assert simplified_left("机器人没有余额") == ["机", "没", "余", "额"]
    assert simplified_left(zh_tw("机器人没有余额")) == []
    assert simplified_left("张伟 胡了", ("张伟",)) == []


def test_names_and_typed_text_stay_as_written() -> None:
    assert for_reader(msg("result.win", name="张伟"), "zh-TW") == "张伟 胡了！"
    assert say(msg("balance.show", name="刘洋", balance=12), "zh-TW") == "刘洋 的餘額：12"
    typed = say(msg("play.chow_three", typed="这张"), "zh-TW")
    assert "这张" in typed and typed.startswith("吃要寫三張")
    # A name inside a longer one, and a name made of our own words, are both kept whole.
    text = msg("result.points", changes="东 张 +3 · 南 张伟 -3 · 西 胡了 0", stake=1).keeping(
        "张", "张伟", "胡了"
    )
    assert for_reader(text, "zh-TW").endswith("東 张 +3 · 南 张伟 -3 · 西 胡了 0")
    # Simplified readers and English readers are untouched.
    assert say(msg("result.win", name="张伟"), "zh-CN") == "张伟 胡了！"
    assert say(msg("result.win", name="张伟"), "en-US") == "张伟 wins!"
    assert label_for("button.back", "zh-TW") == zh_tw(MESSAGES["button.back"][0])


# ---------------------------------------------------------------------- at the table

WEI = 800_000_000_000_000_031  # 张伟, a zh-TW client
YANG = 800_000_000_000_000_032  # 刘洋, a zh-CN client
NAMES = ("张伟", "刘洋")
USERS = {WEI: (NAMES[0], DEFAULT_PERMISSIONS), YANG: (NAMES[1], DEFAULT_PERMISSIONS)}


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=11) as h:
        yield h


async def test_a_zh_tw_player_reads_the_table_in_traditional_characters(harness: Harness) -> None:
    h = harness
    locales = {WEI: "zh-TW", YANG: "zh-CN"}
    replies = [
        await h.command(
            WEI,
            "table create",
            [option("variant", "taizhou"), option("learner_aids", True)],  # 💡 lines too
            locale="zh-TW",
        ),
        await h.command(YANG, "table join", locale="zh-CN"),
    ]
    await h.command(WEI, "table start", locale="zh-TW")
    table = h.bot.manager.by_channel(CHANNEL_ID)  # type: ignore[attr-defined]
    assert table is not None and table.match is not None
    for _ in range(800):
        if table.match.results:
            break
        moved = False
        for user in (WEI, YANG):
            hand = h.latest_dm(user)
            move = choose_move(hand) if hand is not None else None
            prompt = table.prompt_for(user)
            if move is not None and hand is not None and prompt is not None:
                await h.click(user, hand, move[0], move[1], locale=locales[user])
                moved = True
        if not moved:
            await h.advance(0.5)
    assert table.match.results
    await h.advance(1)
    replies += [
        await h.command(WEI, "discard", [option("tile", "9x")], locale="zh-TW"),
        await h.command(WEI, "balance", locale="zh-TW"),
        await h.command(WEI, "history", locale="zh-TW"),
        await h.command(WEI, "stats", locale="zh-TW"),
        await h.command(WEI, "table status", locale="zh-TW"),
    ]
    texts = [h.reply_text(record) for record in replies if record.user_id == WEI]
    dms = [  # every DM text sent or edited, not just the last state of each message
        request.content
        for request in h.remote.requests
        if request.audience is not None
        and request.audience.kind == "dm"
        and request.audience.user_id == WEI
    ]
    labels = [
        str(part.get(key) or "")
        for m in h.dm_messages(WEI)
        for row in m.components
        for part in row["components"]
        for key in ("label", "placeholder")
    ]
    seen = [text for text in texts + dms + labels if CJK.search(text)]
    assert len(seen) > 10 and any("💡" in text for text in dms)
    assert not {text: simplified_left(text, NAMES) for text in seen if simplified_left(text, NAMES)}
    # The names are there, as written.
    assert any("张伟" in text for text in texts)  # /balance, /history, /stats
    assert any("餘額" in text and "张伟" in text for text in texts)
    # The hand's result card ("张伟 胡了！", "流局。"), not the next hand's first line
    # about it ("上局 张伟 胡了：…").
    cards = [text for text in dms if "胡了！" in text or "流局。" in text]
    assert cards and all("積分" in text for text in cards)
    assert all("张伟" in text and "刘洋" in text for text in cards)
    assert all("張偉" not in text and "劉洋" not in text for text in texts + dms)
    # The Simplified reader beside them still reads Simplified.
    yang = [m.payload.get("content") or "" for m in h.dm_messages(YANG)]
    assert any("轮到你" in text or "可以" in text for text in yang)


async def test_the_rules_panel_reads_in_traditional_characters(harness: Harness) -> None:
    """The host's 更多規則 panel: its text, its menus, a modal and the answer to a value."""
    h = harness
    await h.command(WEI, "table create", [option("variant", "taizhou")], locale="zh-TW")
    created = next(m for m in reversed(h.ephemeral_messages(WEI)) if m.component("mj:r:"))
    opener = next(cid for cid in created.custom_ids() if cid.endswith(":open"))
    await h.click(WEI, created, opener, locale="zh-TW")
    panel = h.ephemeral_messages(WEI)[-1]
    picker = next(cid for cid in panel.custom_ids() if cid.endswith(":pick"))
    opened = await h.click(WEI, panel, picker, ["cap"], locale="zh-TW")  # a wide range: modal
    assert opened.modal is not None
    answer = h.reply_text(await h.submit_modal(WEI, opened, ["50"], locale="zh-TW"))
    await h.click(WEI, panel, picker, ["liability"], locale="zh-TW")  # on/off: a value select
    panel = h.remote.messages[panel.id]
    texts = [panel.payload["content"], answer, json.dumps(opened.modal, ensure_ascii=False)]
    texts += [
        str(part.get(key) or "")
        for row in panel.components
        for part in row["components"]
        for key in ("label", "placeholder")
    ]
    texts += [
        option_["label"]
        for row in panel.components
        for part in row["components"]
        for option_ in part.get("options") or []
    ]
    assert "規則" in panel.payload["content"] and "封頂" in answer
    assert not {text: simplified_left(text) for text in texts if simplified_left(text)}


async def test_a_click_is_answered_in_the_language_it_came_with(harness: Harness) -> None:
    """A player who switches their client to zh-TW mid-match gets the hand they ask for
    in Traditional characters at once, not in the language remembered from before (the
    event that remembers the new one may run after the answer)."""
    h = harness
    await h.command(WEI, "table create", [option("variant", "taizhou")], locale="zh-CN")
    await h.command(WEI, "table start", locale="zh-CN")
    table = h.bot.manager.by_channel(CHANNEL_ID)  # type: ignore[attr-defined]
    assert table is not None
    await h.advance(3)  # the table message is edited at most every 1.5 s
    table_message = next(
        m for m in reversed(h.channel_messages()) if any(":hand" in c for c in m.custom_ids())
    )
    button = next(c for c in table_message.custom_ids() if c.endswith(":hand"))
    for how in ("button", "command"):
        if how == "button":
            record = await h.click(WEI, table_message, button, locale="zh-TW")
        else:
            record = await h.command(WEI, "table hand", locale="zh-TW")
        text = h.reply_text(record)
        assert CJK.search(text) and not simplified_left(text, NAMES), (how, text)
        await h.command(WEI, "balance", locale="zh-CN")  # back to Simplified
