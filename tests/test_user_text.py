"""What users wrote (display names, typed text) as Discord shows it, and answers that
outgrow one message: a name is shown literally (no masked link, bold or highlighted
mention under the bot's name), the bot's own words around it are still converted for
zh-TW readers, and the guide and the match history keep every part they offer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from chinese_script import simplified_left
from discord_harness import ADMIN_PERMISSIONS, DEFAULT_PERMISSIONS, Harness, offline_bot, option

from bot.cogs.guide import GUIDE_COMMANDS
from bot.cogs.review import ReviewCog
from bot.discord_core import fit_lines
from bot.i18n import escape_user_text, for_reader, public, say, with_user_text
from bot.messages import msg
from data.history import HandSummary, MatchSummary

PLAYER = 810_000_000_000_000_001
MANAGER = 810_000_000_000_000_002
MARKED = 810_000_000_000_000_003
# Display names a real server allows (32 characters at most).
LINK = "[Free Nitro](https://evil.co/x)"
MARKS = "**Bob||`# ~~>"
PING = "@everyone <@&900000000000000001>"
USERS = {
    PLAYER: (LINK, DEFAULT_PERMISSIONS),
    MANAGER: ("Manager", ADMIN_PERMISSIONS),
    MARKED: (MARKS, DEFAULT_PERMISSIONS),
}


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=71) as harness:
        yield harness


def test_a_name_is_escaped_character_by_character() -> None:
    assert escape_user_text(LINK) == r"\[Free Nitro\]\(https\://evil\.co/x\)"
    assert escape_user_text(MARKS) == r"\*\*Bob\|\|\`\# \~\~\>"
    assert escape_user_text(PING) == r"\@everyone \<\@&900000000000000001\>"
    assert escape_user_text("老王 Wang") == "老王 Wang"  # nothing to escape: unchanged


def test_every_way_a_line_reaches_discord_escapes_the_names_it_keeps() -> None:
    text = msg("result.win", name=LINK)
    escaped = escape_user_text(LINK)
    for line in (
        public(text, "zh"),
        public(text, "zh-TW"),
        public(text, "en"),
        say(text, "zh-CN"),
        say(text, "zh-TW"),
        say(text, "en-US"),
        for_reader(text, None),
        for_reader(text, "zh-TW"),
        for_reader(text, "en-US", bold=True),
    ):
        assert escaped in line and LINK not in line, line


def test_a_name_never_breaks_the_bots_own_markup() -> None:
    # A name of punctuation only counts where it stands apart: the bot's "-#" and "**"
    # stay; nothing inside a mention or a timestamp is touched.
    line = "-# 老王 **+8** · - · <@810000000000000001> <t:1796068800:R>"
    keep = ["-", "**", "0", "t:1", "810000000000000001"]
    assert (
        with_user_text(line, keep)
        == r"-# 老王 **+8** · \- · <@810000000000000001> <t:1796068800:R>"
    )
    assert with_user_text("胡家 ** 胡", ["**"]) == r"胡家 \*\* 胡"


def test_zh_tw_converts_the_bots_words_but_not_a_chinese_name() -> None:
    name = "张*三"
    line = say(msg("session.autoplay_off", name=name), "zh-TW")
    assert line == r"张\*三 回來了"  # 来 → 來 in the bot's words; the name as written
    # Taiwan's words, not only its characters: a message is 訊息 (Discord's zh-TW says
    # 傳送訊息 where zh-CN says 发送消息), and the leave question reads as Taiwan writes.
    question = say(msg("table.leave_confirm", points=32), "zh-TW")
    assert "這條訊息" in question and not simplified_left(question)


async def test_names_in_public_and_private_answers_are_shown_literally(h: Harness) -> None:
    balance = h.reply_text(
        await h.command(PLAYER, "balance", [option("user", str(MARKED), kind=6)])
    )
    assert escape_user_text(MARKS) in balance and MARKS not in balance
    adjusted = await h.command(
        MANAGER,
        "mjadmin adjust",
        [option("user", str(PLAYER), kind=6), option("amount", 5), option("reason", "x")],
    )
    announcement = h.reply_text(adjusted)
    assert LINK not in announcement
    # Posted for the channel: both languages, as the other public lines.
    assert f"已调整 {escape_user_text(LINK)} 的余额 +5" in announcement
    assert f"Adjusted {escape_user_text(LINK)}'s balance by +5" in announcement


async def test_a_managers_guide_with_command_mentions_comes_whole_in_two_messages(
    h: Harness,
) -> None:
    await h.bot.tree.sync()  # as in production: the command ids are known, so mentions
    h.bot._command_ids = None
    for locale in ("en-US", "zh-CN", "zh-TW"):
        record = await h.command(MANAGER, "help", locale=locale)
        replies = [request.payload or {} for request in h.replies_to(record)]
        contents = [body.get("data", body).get("content", "") for body in replies]
        assert all(0 < len(content) <= 2000 for content in contents), locale
        assert not any(content.endswith("…") for content in contents)  # nothing was cut
        whole = "\n".join(contents)
        for name in GUIDE_COMMANDS:
            assert f"</{name}:" in whole, (locale, name)
    english = await h.command(MANAGER, "help", locale="en-US")
    assert len(h.replies_to(english)) == 2  # the answer, then the admin section
    assert not h.remote.violations


def _match(game_id: str, hands: int) -> MatchSummary:
    """A finished Taizhou match of three people with 32-character names and an AI."""
    when = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
    people = [
        {"seat": seat, "name": name * 32, "user_id": 100 + seat, "is_ai": False}
        for seat, name in enumerate("ＡＢＣ")
    ]
    seats = (*people, {"seat": 3, "name": "电脑", "user_id": None, "is_ai": True})
    played = tuple(
        HandSummary(number, (number + 1) % 4, (3, -1, -1, -1), when) for number in range(hands)
    )
    return MatchSummary(game_id, 1, "taizhou", "finished", 1, seats, when, when, played)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_history_page_lists_every_match_its_menu_offers(locale: str) -> None:
    cog = ReviewCog.__new__(ReviewCog)
    title = "**" + "Ａ" * 32 + " · page 1/3**"
    share = (2000 - len(title)) // 5 - 1  # as the page divides itself among five matches
    lines = [cog._match_line(_match(f"g{i:011d}", 6), 100, 100, locale, share) for i in range(5)]
    page = fit_lines([title, *lines])
    assert all(f"`g{i:011d}`" in page for i in range(5))
    # One long match (eight rounds with many repeated deals: 80 hands) still shows, with
    # its first hands and how many more.
    long_line = cog._match_line(_match("abcdef123456", 80), 100, 100, locale, 2000 - len(title))
    page = fit_lines([title, long_line])
    assert "`abcdef123456`" in page and len(page) <= 2000
    more = "… " if locale == "en-US" else "…另有 "
    assert more in page
    assert page.count("Hand " if locale == "en-US" else "第 ") < 80


@pytest.mark.parametrize("hands", [6, 80])
def test_a_matchs_hands_listed_are_the_hands_its_menu_offers(hands: int) -> None:
    cog = ReviewCog.__new__(ReviewCog)
    match = _match("abcdef123456", hands)
    content, shown = cog._match_detail(match, 100, 100, "en-US")
    assert len(content) <= 2000 and 0 < len(shown) <= 25
    assert [hand.hand_number for hand in shown] == [
        hand.hand_number for hand in match.hands[-len(shown) :]
    ]  # the latest hands
    listed = [line for line in content.splitlines() if line.startswith("Hand ")]
    assert len(listed) == len(shown)
    assert all(f"Hand {hand.hand_number + 1} " in content for hand in shown)
    earlier = hands - len(shown)
    assert (f"{earlier} earlier hands not listed" in content) == (earlier > 0)
    assert hands == 6 or earlier > 0


@pytest.mark.parametrize(
    ("variant", "phase", "expected"),
    [
        ("jiaxing", "claim", "⏳ 等待吃碰杠 · Claims open"),  # no discard wins in Jiaxing
        ("taizhou", "claim", "⏳ 等待吃碰杠胡 · Claims open"),
        ("taizhou", "rob_kong", "⏳ 等待抢杠 · The kong may be robbed"),
        (
            "jiaxing",
            "santan",
            "⏳ 三摊：等待选择跟或不跟 · Three claims: waiting for continue or fold",
        ),
    ],
)
def test_the_tables_status_line_says_what_the_table_waits_for(
    variant: str, phase: str, expected: str
) -> None:
    from bot.discord_table import _status_line
    from bot.presenter import SeatInfo, TableStatus
    from render.samples import sample_public_view

    public = replace(sample_public_view(variant), phase=phase, current_seat=None)
    seats = tuple(SeatInfo(seat, f"P{seat}", None, True) for seat in range(public.num_seats))
    status = TableStatus("t1", 1, 2, seats, public, None, (), 1)
    assert _status_line(status) == f"{expected} · 🀫 {public.tiles_left}"


async def test_the_score_calculators_own_example_scores(h: Harness) -> None:
    """/table score's option help gives an example hand; typed as shown it was refused
    (13 tiles with the winning tile left out). It is a winning hand in both rule sets."""
    import re

    from bot.cogs.calculator import score_request

    table = h.bot.tree.get_command("table")
    score = table.get_command("score")  # type: ignore[union-attr]
    described = {p.name: str(p.description) for p in score.parameters}  # type: ignore[union-attr]
    hand = re.search(r"e\.g\. (\S+)", described["hand"])
    win = re.search(r"e\.g\. (\S+)", described["win_tile"])
    assert hand is not None and win is not None
    for variant in ("jiaxing", "taizhou"):
        _view, result = score_request(
            variant=variant, hand=hand.group(1), win_tile=win.group(1), indicator="9s",
            melds="", by="self_draw", seat_wind="1z", prevailing_wind="1z",
        )  # fmt: skip
        assert result.valid, (variant, result.reason)


async def test_the_lobby_says_who_fills_the_empty_seats(h: Harness) -> None:
    """A new player saw "4 人" with one name and no word on how the rest fill: Start
    fills them with the computer, unless the table was opened without AI fill."""
    await h.command(PLAYER, "table create", [option("variant", "taizhou")])
    await h.advance(1)
    lobby = [m for m in h.channel_messages() if "🀄" in (m.payload.get("content") or "")][-1]
    assert "空位由电脑补上" in lobby.payload["content"]
    await h.command(PLAYER, "table end")
    await h.command(
        PLAYER, "table create", [option("variant", "taizhou"), option("ai_fill", False)]
    )
    await h.advance(1)
    lobby = [m for m in h.channel_messages() if "🀄" in (m.payload.get("content") or "")][-1]
    assert "坐满后房主点「开始」" in lobby.payload["content"]


async def test_a_move_line_keeps_its_name_escaped_after_the_seat_is_renamed(h: Harness) -> None:
    """A player who leaves mid-hand becomes "电脑 (name)": their earlier move lines on the
    table message still hold the old name, which must stay escaped (it was escaped only
    while it was a seat's name)."""
    await h.command(MARKED, "table create", [option("variant", "taizhou")])
    await h.command(MARKED, "table start")
    presenter = h.bot.presenter  # type: ignore[attr-defined]
    table = h.bot.manager.table_of_user(MARKED)  # type: ignore[attr-defined]
    assert table is not None
    record = presenter._tables[table.table_id]
    status = record.status
    assert status is not None
    renamed = tuple(replace(seat, name=f"电脑 ({seat.name})") for seat in status.seats)
    record.status = replace(status, seats=renamed)
    record.moves.clear()
    record.moves.append((f"-# {MARKS} 打出 discards 5m 五万", (MARKS,)))
    content = presenter._table_content(record)
    assert f"{escape_user_text(MARKS)} 打出" in content and MARKS not in content
