"""Every image says in words what it shows: the alt text beside each attachment.

A player with a screen reader, or whose client does not load the picture, plays from
this text alone, so the hand's description must hold exactly the player's tiles, in the
image's language, within Discord's 1,024 characters.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, date, datetime
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
from scenario import pick

from data import BiggestHand, PlayerStats
from engine.match import Match
from engine.tiles import name_en, parse_tiles
from engine.variants import get_rules
from engine.views import DiscardView, PlayerView
from render.alt_text import (
    DESCRIPTION_LIMIT,
    describe_hand,
    describe_leaderboard,
    describe_result,
    describe_stats,
    describe_table,
    tiles_text,
)
from render.samples import (
    SAMPLE_NAMES,
    sample_claim_view,
    sample_draw_result,
    sample_public_view,
    sample_win_result,
)

VARIANTS = ("jiaxing", "taizhou")
LOCALES = ("zh", "zh-TW", "en")
_ENGLISH_KINDS = {name_en(kind): kind for kind in range(34)}
_SUITS = {"Characters": 0, "Dots": 9, "Bamboo": 18}


def _read_english_tiles(text: str) -> list[int]:
    """The tiles of an English tile list, read back: ``1 1 3 Characters, East Wind``."""
    kinds: list[int] = []
    for group in text.split(", "):
        numbers, _, suit = group.rpartition(" ")
        if suit in _SUITS and numbers and all(part.isdigit() for part in numbers.split()):
            kinds += [_SUITS[suit] + int(number) - 1 for number in numbers.split()]
        else:
            kinds.append(_ENGLISH_KINDS[group])
    return kinds


def _hand_read_back(description: str) -> tuple[int, list[int], int | None]:
    """(wilds, the other concealed tiles, the drawn tile) as the English description says."""
    line = next(line for line in description.splitlines() if line.startswith("Hand: "))
    parts = line.removeprefix("Hand: ").split("; ")
    wilds, tiles = 0, parts[0]
    counted = re.match(r"Wild×(\d+) ?", tiles)
    if counted:
        wilds, tiles = int(counted.group(1)), tiles[counted.end() :]
    drawn = next((p.removeprefix("Drew ") for p in parts if p.startswith("Drew ")), None)
    return (
        wilds,
        _read_english_tiles(tiles) if tiles else [],
        _ENGLISH_KINDS[drawn] if drawn else None,
    )


def _views_of_random_games(count: int) -> list[PlayerView]:
    """Every seat's view at random moments of random seeded games, both rule sets."""
    views: list[PlayerView] = []
    rng = random.Random(5)
    for game in range(count):
        variant = VARIANTS[game % 2]
        seats = 4 if variant == "jiaxing" else (4, 3, 2)[game // 2 % 3]  # Taizhou: 2-4
        match = Match(variant, {}, seed=1000 + game, seats=seats)
        for step in range(400):
            if match.finished or match.results:
                break
            round_ = match.round
            if step % 9 == 0:
                views += [match.player_view(seat) for seat in range(seats)]
            seat = rng.choice(round_.waiting_on)
            match.apply(pick(match.legal_actions(seat), rng))
    return views


def test_a_hand_description_holds_exactly_the_players_tiles() -> None:
    """Read back, the description gives every concealed tile, the wilds counted apart
    and the drawn tile set apart: nothing missing, nothing added."""
    views = _views_of_random_games(12)
    assert len(views) > 250 and {view.public.num_seats for view in views} == {2, 3, 4}
    with_wilds = with_drawn = 0
    for view in views:
        wild = view.public.wild
        wilds, tiles, drawn = _hand_read_back(describe_hand(view, SAMPLE_NAMES, "en"))
        assert wilds == sum(1 for kind in view.concealed if kind == wild)
        assert Counter(tiles) == Counter(kind for kind in view.concealed if kind != wild)
        assert drawn == view.drawn
        with_wilds += wilds > 0
        with_drawn += drawn is not None
    assert with_wilds > 20 and with_drawn > 50  # the read-back saw both cases


def test_the_read_back_sees_a_wrong_tile() -> None:
    """The check above can fail: a hand described one tile off reads back differently."""
    view = sample_claim_view("jiaxing")
    wrong = replace(view, concealed=tuple(sorted((*view.concealed[:-1], 0))))
    _wilds, tiles, _drawn = _hand_read_back(describe_hand(wrong, SAMPLE_NAMES, "en"))
    plain = [kind for kind in view.concealed if kind != view.public.wild]
    assert Counter(tiles) != Counter(plain)


def test_tiles_read_as_players_group_them() -> None:
    kinds = parse_tiles("1123m55p789s17z")
    assert tiles_text(kinds, "zh") == "一一二三万 五五筒 七八九条 东风 红中"
    assert tiles_text(kinds, "zh-TW") == "一一二三萬 五五筒 七八九條 東風 紅中"
    assert tiles_text(kinds, "en") == (
        "1 1 2 3 Characters, 5 5 Dots, 7 8 9 Bamboo, East Wind, Red Dragon"
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_description_reads_in_the_images_language(variant: str) -> None:
    """zh-TW in Traditional characters, English without Chinese; names as written."""
    public, result, _tile = sample_win_result(variant)
    draw_view, draw = sample_draw_result(variant)
    for locale in LOCALES:
        texts = [
            describe_table(sample_public_view(variant), SAMPLE_NAMES, locale),
            describe_hand(sample_claim_view(variant), SAMPLE_NAMES, locale),
            describe_result(public, result, SAMPLE_NAMES, locale),
            describe_result(draw_view, draw, SAMPLE_NAMES, locale),
        ]
        for text in texts:
            assert 0 < len(text) <= DESCRIPTION_LIMIT
            assert all(name in text for name in SAMPLE_NAMES[:2]) or text == texts[3]
            if locale == "zh-TW":
                assert not simplified_left(text, SAMPLE_NAMES), text
            if locale == "en":
                stripped = text
                for name in SAMPLE_NAMES:
                    stripped = stripped.replace(name, "")
                assert not CJK.search(stripped), text


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_result_description_lists_every_score_item_and_the_total(variant: str) -> None:
    public, result, _tile = sample_win_result(variant)
    text = describe_result(public, result, SAMPLE_NAMES, "en")
    assert all(item.name_en in text for item in result.items)
    assert result.items and get_rules(variant).format_total(result, "en") in text
    assert str(result.total or result.score) in text.splitlines()[-2]  # the total line
    assert all(f"{delta:+d}" in text for delta in result.deltas)
    zh = describe_result(public, result, SAMPLE_NAMES, "zh")
    assert all(item.name_zh in zh for item in result.items)


def test_a_long_hand_fits_in_discords_limit_keeping_the_latest_discards() -> None:
    """Late in a hand, with long English names and long rivers, the oldest discards give
    way first; each seat's latest discard is still said."""
    public = sample_public_view("taizhou")
    rng = random.Random(3)
    seats = tuple(
        replace(
            seat,
            discards=tuple(DiscardView(rng.randrange(34)) for _ in range(24)),
        )
        for seat in public.seats
    )
    names = ["A player with a really long name" + str(i) for i in range(4)]
    long_public = replace(public, seats=seats)
    for locale in LOCALES:
        text = describe_table(long_public, names, locale)
        assert len(text) <= DESCRIPTION_LIMIT
        from_east = seats[public.dealer :] + seats[: public.dealer]
        for seat, line in zip(from_east, text.splitlines()[2:], strict=True):
            latest = seat.discards[-1].tile
            said = name_en(latest) if locale == "en" else None
            assert said is None or line.rstrip().endswith(said), line
        view = replace(sample_claim_view("taizhou"), public=long_public)
        assert len(describe_hand(view, names, locale)) <= DESCRIPTION_LIMIT
    english = describe_table(long_public, names, "en")
    assert "earlier" in english  # it did have to drop some


# ---------------------------------------------------------------------- through Discord

WEI = 800_000_000_000_000_041  # a zh-TW client
ANNA = 800_000_000_000_000_042  # an English client
NAMES = ("张伟", "Anna")
USERS = {WEI: (NAMES[0], DEFAULT_PERMISSIONS), ANNA: (NAMES[1], DEFAULT_PERMISSIONS)}


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=21) as h:
        yield h


async def test_every_picture_the_bot_sends_carries_its_description(harness: Harness) -> None:
    """DM hands in each reader's language with exactly their tiles, the table and the
    result card in the channel's; the fake refuses a description over Discord's limit."""
    h = harness
    locales = {WEI: "zh-TW", ANNA: "en-US"}
    await h.command(WEI, "table create", [option("variant", "jiaxing")], locale="zh-TW")
    await h.command(ANNA, "table join", locale="en-US")
    await h.command(WEI, "table start", locale="zh-TW")
    table = h.bot.manager.by_channel(CHANNEL_ID)  # type: ignore[attr-defined]
    assert table is not None and table.match is not None
    checked = 0
    pictures: set[tuple[str, str]] = set()
    for _ in range(800):
        if table.match.results:
            break
        moved = False
        for user in (WEI, ANNA):
            hand = h.latest_dm(user)
            prompt = table.prompt_for(user)
            if hand is not None and prompt is not None:
                (description,) = hand.descriptions()
                assert description is not None
                if user == ANNA:
                    wilds, tiles, drawn = _hand_read_back(description)
                    view, wild = prompt.view, prompt.view.public.wild
                    assert wilds == sum(1 for kind in view.concealed if kind == wild)
                    assert Counter(tiles) == Counter(k for k in view.concealed if k != wild)
                    assert drawn == view.drawn
                    checked += 1
                else:
                    assert "手牌：" in description and "张伟" in description
                    assert not simplified_left(description, NAMES)
            move = choose_move(hand) if hand is not None else None
            if move is not None and hand is not None and prompt is not None:
                await h.click(user, hand, move[0], move[1], locale=locales[user])
                moved = True
        # Time moves on as players think: the table message's edits go out.
        await h.advance(0.2 if moved else 0.5)
        pictures.update(
            (attachment["filename"], attachment.get("description") or "")
            for message in h.remote.messages.values()
            if message.audience.kind == "channel"
            for attachment in message.payload["attachments"]
        )
    assert table.match.results and checked > 5
    await h.advance(1)
    pictures.update(
        (attachment["filename"], attachment.get("description") or "")
        for message in h.remote.messages.values()
        if message.audience.kind == "channel"
        for attachment in message.payload["attachments"]
    )
    assert {name for name, _description in pictures} == {"table.png", "result.png"}
    assert len(pictures) >= 4  # the table's description followed the play
    for _name, description in pictures:
        assert description and len(description) <= DESCRIPTION_LIMIT
        assert "张伟" in description and "Anna" in description


def _sample_stats() -> PlayerStats:
    biggest = BiggestHand(
        points=240, variant="taizhou", game_id="g1", hand_number=3,
        created_at=datetime(2026, 11, 20, 21, 5, tzinfo=UTC),
        items=(("concealed_pung", 4, "points"), ("self_draw", 1, "tai")),
    )  # fmt: skip
    return PlayerStats(
        user_id=1, variant=None, first_day=None, end_day=None, hands=40, wins=10,
        self_draws=4, deal_ins=6, deal_in_hands=30, net=350, biggest=biggest,
        win_types=(("taizhou", "self_draw", 4), ("jiaxing", "all_pungs", 2)),
        trend=((date(2026, 11, 1), 1000), (date(2026, 11, 9), 940), (date(2026, 11, 20), 1350)),
    )  # fmt: skip


def test_a_stats_card_description_says_its_figures_biggest_hand_types_and_balance() -> None:
    stats = _sample_stats()
    english = describe_stats(stats, "张伟", "All time · all rule sets", "en")
    assert english.splitlines() == [
        "Player stats · 张伟 · All time · all rule sets",
        "Hands 40, Win rate 25%, Self-draw share 40%, Deal-in rate 20%, Mean per hand +8.8,"
        " Net +350",
        "Biggest hand: +240 (2026-11-20): Concealed Pung 4 points, Self-Draw 1 tai",
        "Winning types: Self-Draw ×4, All Pungs ×2",
        "Balance: from 1000 (2026-11-01) to 1350 (2026-11-20), low 940, high 1350",
    ]
    chinese = describe_stats(stats, "张伟", "全部", "zh")
    assert "胡牌率 25%" in chinese and "最大胡牌：+240（2026-11-20）：暗刻 4" in chinese
    assert "余额走向：从 1000（2026-11-01）到 1350（2026-11-20），最低 940，最高 1350" in chinese
    traditional = describe_stats(stats, "张伟", "全部", "zh-TW")
    assert simplified_left(traditional, ("张伟",)) == [] and "张伟" in traditional
    empty = replace(stats, hands=0, wins=0, net=0, biggest=None, win_types=(), trend=())
    assert describe_stats(empty, "x", "y", "en").splitlines()[1].startswith("Hands 0, Win rate -")
    assert len(describe_stats(empty, "x", "y", "en").splitlines()) == 2


def test_a_leaderboard_description_reads_each_row_as_the_picture_shows_it() -> None:
    rows = [(1, "张伟", 120, 12, 3), (2, "Bob", -40, 10, 0), (3, "無名", 0, 0, 0)]
    assert describe_leaderboard(rows, "week", "11月23日–29日", "zh").splitlines() == [
        "排行榜 · 本周 · 11月23日–29日",
        "1. 张伟 +120（局数 12，胡牌 3，胡牌率 25%）",
        "2. Bob -40（局数 10，胡牌 0，胡牌率 0%）",
        "3. 無名 0（局数 0，胡牌 0，胡牌率 -）",
    ]
    english = describe_leaderboard(rows, "all_time", "The Server", "en")
    assert english.splitlines()[1] == "1. 张伟 +120 (Hands 12, Wins 3, Win rate 25%)"
    traditional = describe_leaderboard(rows, "month", "2026-11", "zh-TW")
    assert traditional.startswith("排行榜 · 月榜 · 2026-11\n1. 张伟 ")
    assert simplified_left(traditional, ("张伟",)) == []
    assert describe_leaderboard([], "week", "", "en") == "Leaderboard · This week\nNo games yet"
    many = [(rank, "名" * 32, 10**6, 10**4, 10**3) for rank in range(1, 40)]
    assert len(describe_leaderboard(many, "week", "", "zh")) <= DESCRIPTION_LIMIT


def test_a_result_description_says_each_seats_payments_as_the_card_folds_them() -> None:
    """The card lists each seat's payments under its net (the winner's equal receipts on
    one "×3" line), and each seat's own score where the rule set keeps one: the alt text
    says them in the same words, in each seat's part of the net line."""
    from render.result import seat_payments

    public, result, _tile = sample_win_result("taizhou")
    text = describe_result(public, result, SAMPLE_NAMES, "zh")
    net_line = text.splitlines()[-1]
    assert "收 南 西 北 腊子 +100 ×3" in net_line and "互算" in net_line
    assert result.totals is not None and all(f"得分 {n}" in net_line for n in result.totals)
    for seat in range(len(result.deltas)):
        for entry in seat_payments(result, seat, "zh", fold=seat == result.winner):
            assert f"{entry.reason} {entry.amount_text}" in net_line
    jiaxing, won, _tile = sample_win_result("jiaxing")
    assert "from South West North win +12 ×3" in describe_result(jiaxing, won, SAMPLE_NAMES, "en")
