"""Issue 13 at the table, through the strict offline harness: turn alerts, the players'
own shortcuts (auto-pass, auto-win, tsumogiri), autoplay that says so, the result card
on the DM hand, and each player's own language."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from chinese_script import simplified_left
from discord_harness import (
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    Harness,
    StoredMessage,
    TagRenderer,
    choose_move,
    offline_bot,
    option,
)

from bot.app import MahjongBot
from bot.discord_views import code_for
from bot.messages import MESSAGES
from bot.presenter import Text
from bot.scheduling import choose_ai_action
from bot.session import FakeClock, TableSession
from data import Store
from engine.match import Match
from engine.tiles import kind_str
from engine.types import Action

ALICE = 800_000_000_000_000_001
BOB = 800_000_000_000_000_002
USERS = {ALICE: ("alice", DEFAULT_PERMISSIONS), BOB: ("bob", DEFAULT_PERMISSIONS)}
CJK = re.compile(r"[\u4e00-\u9fff]")


class LocaleRenderer(TagRenderer):
    """Tags each picture with the language it was drawn in."""

    def hand(self, view: Any, names: Any, locale: str) -> bytes:
        return super().hand(view, names, locale) + f" locale={locale}".encode()

    def result(self, view: Any, result: Any, names: Any, locale: str, points: Any = None) -> bytes:
        return super().result(view, result, names, locale, points) + f" locale={locale}".encode()

    def table(self, view: Any, names: Any, locale: str) -> bytes:
        return super().table(view, names, locale) + f" locale={locale}".encode()


class Env:
    def __init__(self, harness: Harness, bot: MahjongBot, store: Store, clock: FakeClock):
        self.h = harness
        self.bot = bot
        self.store = store
        self.clock = clock


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with offline_bot(tmp_path, USERS, seed=5, renderer=LocaleRenderer()) as harness:
        bot: Any = harness.bot
        yield Env(harness, bot, bot.store, bot.manager.clock)


async def open_table(
    env: Env, *users: int, locale: str = "zh-CN", timeouts: tuple[int, int] = (30, 10)
) -> TableSession:
    host = users[0]
    await env.h.command(host, "table create", [option("variant", "taizhou"),
                                               option("discard_timeout", timeouts[0]),
                                               option("claim_timeout", timeouts[1])],
                        locale=locale)  # fmt: skip
    for user in users[1:]:
        await env.h.command(user, "table join", locale=locale)
    await env.h.command(host, "table start", locale=locale)
    table = env.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and table.status == "running"
    return table


def asked(table: TableSession, user: int) -> str:
    prompt = table.prompt_for(user)
    return prompt.kind if prompt is not None else "idle"


async def until_asked(env: Env, table: TableSession, user: int, *, step: float = 0.5) -> None:
    """Let the AI seats play until ``user`` is asked something (they answer nothing)."""
    for _ in range(200):
        if asked(table, user) != "idle":
            return
        await env.h.advance(step)
    raise AssertionError("never asked")


def alert_texts(env: Env, user: int) -> list[str]:
    return [m.payload["content"] for m in env.h.dm_alerts(user)]


async def bob_plays_or_time_passes(env: Env, table: TableSession, step: float) -> None:
    """Bob answers what he is asked (as a simple player); else ``step`` seconds pass."""
    hand = env.h.latest_dm(BOB)
    move = choose_move(hand) if hand is not None else None
    if asked(table, BOB) != "idle" and hand is not None and move is not None:
        await env.h.click(BOB, hand, move[0], move[1])
    else:
        await env.h.advance(step)


# ---------------------------------------------------------------------- turn alerts


async def test_turn_alert_reaches_the_player_and_is_deleted_after_the_move(env: Env) -> None:
    h = env.h
    table = await open_table(env, ALICE)
    await until_asked(env, table, ALICE)
    first = h.latest_dm(ALICE)
    assert first is not None
    if first.payload["edited_timestamp"] is None:
        # The hand's first DM is new, and so notifies by itself: no alert for it.
        await h.advance(6)
        assert alert_texts(env, ALICE) == []
        move = choose_move(first)
        assert move is not None
        await h.click(ALICE, first, move[0], move[1])
        await until_asked(env, table, ALICE)
    assert alert_texts(env, ALICE) == []  # a player who answers at once is not pinged
    await h.advance(5.5)
    # She clicked moments ago: at the screen, thinking. No buzz before half her time.
    assert alert_texts(env, ALICE) == []
    await h.advance(10)  # the prompt waited half its 30 s: a short new DM, which notifies
    alerts = env.h.dm_alerts(ALICE)
    assert len(alerts) == 1
    assert "🔔" in alerts[0].payload["content"]
    hand = h.latest_dm(ALICE)
    assert hand is not None
    assert f"/{hand.channel_id}/{hand.id}" in alerts[0].payload["content"]  # points at the hand
    assert alerts[0].payload["content"].count("https://") == 1  # once, in either language
    await h.advance(3)  # still one alert for this one decision
    assert len(env.h.dm_alerts(ALICE)) == 1
    move = choose_move(hand)
    assert move is not None
    await h.click(ALICE, hand, move[0], move[1])
    assert env.h.dm_alerts(ALICE) == []  # deleted once she moved: the DM does not fill up
    deletes = [r for r in h.remote.requests if r.method == "DELETE"]
    assert len(deletes) == 1 and deletes[0].audience is not None
    assert deletes[0].audience.kind == "dm" and deletes[0].audience.user_id == ALICE


async def test_a_new_hand_dm_is_not_followed_by_an_alert(env: Env) -> None:
    """The dealer's first turn arrives as a new DM, which notifies by itself."""
    env.bot._seeds = itertools.count(8)  # seed 8 seats Alice as the dealer
    table = await open_table(env, ALICE)
    assert table.seat_of(ALICE) == 0 and asked(table, ALICE) == "turn"
    first = env.h.latest_dm(ALICE)
    assert first is not None and first.payload["edited_timestamp"] is None
    await env.h.advance(8)
    assert alert_texts(env, ALICE) == []
    move = choose_move(first)  # her later prompts edit that DM: those are alerted
    assert move is not None
    await env.h.click(ALICE, first, move[0], move[1])
    await until_asked(env, table, ALICE)
    await env.h.advance(15.5)  # she is at the screen: half the time limit
    assert len(alert_texts(env, ALICE)) == 1


async def test_a_player_away_from_the_screen_is_alerted_after_five_seconds(env: Env) -> None:
    """Whoever has not clicked or typed for a minute is away: their alert goes out 5 s
    into the prompt, with most of the time limit still left to come back. One who was
    at the screen a moment ago gets it at half the time."""
    h = env.h
    table = await open_table(env, ALICE, timeouts=(120, 30))
    await until_asked(env, table, ALICE)
    first = table.prompt_for(ALICE)
    assert first is not None and first.deadline is not None
    await h.advance(30)
    # With this seed her first decision edits her hand (a new hand DM is never alerted).
    assert h.latest_dm(ALICE).payload["edited_timestamp"] is not None  # type: ignore[union-attr]
    assert alert_texts(env, ALICE) == []  # she typed /table start a moment ago
    await h.advance(31)
    assert len(alert_texts(env, ALICE)) == 1  # half of the 120 s
    # She lets it time out, and the next decision finds her away.
    await h.advance(first.deadline - env.clock.now() + 0.1)
    for _ in range(200):
        prompt = table.prompt_for(ALICE)
        if prompt is not None and prompt.deadline not in (None, first.deadline):
            break
        await h.advance(0.5)
    assert alert_texts(env, ALICE) == []  # the last one went with its prompt
    await h.advance(5.5)
    assert len(alert_texts(env, ALICE)) == 1


async def test_ping_off_sends_no_alert_and_is_remembered(env: Env) -> None:
    h = env.h
    record = await h.command(ALICE, "table ping", [option("mode", "off")])
    assert "不再" in h.reply_text(record)
    assert (await env.store.get_user_prefs(ALICE)).get("ping") is False
    table = await open_table(env, ALICE)
    await until_asked(env, table, ALICE)
    await h.advance(8)
    assert alert_texts(env, ALICE) == []


# ---------------------------------------------------------------------- shortcuts


async def press(env: Env, user: int, setting: str) -> StoredMessage:
    """Press a shortcut on the user's DM hand (the click is answered by the new hand)."""
    hand = env.h.latest_dm(user)
    assert hand is not None
    table = env.bot.manager.table_of_user(user)
    assert table is not None
    await env.h.click(user, hand, f"mj:o:{table.table_id}:{setting}")
    return hand


async def test_auto_pass_means_no_claim_prompt_and_no_wait(env: Env) -> None:
    h = env.h
    table = await open_table(env, ALICE)
    await press(env, ALICE, "ap_hand")
    hand = await press(env, ALICE, "ap_always")  # the button cycles: off → hand → always
    assert any(cid.endswith(":ap_off") for cid in hand.custom_ids())  # shows it is on
    assert (await env.store.get_user_prefs(ALICE)).get("auto_pass") == "always"
    seat = table.seat_of(ALICE)
    assert seat is not None and table.match is not None
    # The bold line above a hand that asks for a claim: "**可以碰、杠：…" (its verbs vary).
    claim_headline = "**" + MESSAGES["hand.claim"][0].split("{")[0]
    start = len(h.remote.requests)
    passes = 0
    for _ in range(120):
        if table.status != "running":
            break
        round_ = table.match.round
        # The table never waits on her for a claim she could only pass or take.
        if round_.phase in ("claim", "rob_kong") and seat in round_.waiting_on:
            assert any(a.type == "win" for a in table.match.legal_actions(seat))
        if asked(table, ALICE) == "turn":
            hand_message = h.latest_dm(ALICE)
            assert hand_message is not None
            move = choose_move(hand_message)
            assert move is not None
            await h.click(ALICE, hand_message, move[0], move[1])
        else:
            await h.advance(0.5)
        passes = sum(
            1 for a in table.match.actions if a.seat == seat and a.type == "pass"
        )  # fmt: skip
    assert passes > 0  # she had claims to answer, and they were answered for her
    for request in h.remote.requests[start:]:
        content = str((request.payload or {}).get("content") or "")
        data = (request.payload or {}).get("data") or {}
        content += str(data.get("content") or "") if isinstance(data, dict) else ""
        if claim_headline in content:  # a claim prompt reached her only to offer a win
            assert ":win" in str(request.payload)
    assert table._timeouts.get(seat, 0) == 0


async def play_like_the_ai(env: Env, table: TableSession, user: int) -> None:
    """Make ``user``'s move as the AI would, by clicking their DM hand."""
    prompt = table.prompt_for(user)
    hand = env.h.latest_dm(user)
    assert prompt is not None and hand is not None
    action = choose_ai_action(prompt.view, "normal", random.Random(prompt.turn_id))
    if action.type == "discard" and action.tile is not None:
        await env.h.click(user, hand, f"mj:d:{table.table_id}:{prompt.turn_id}",
                          [kind_str(action.tile)])  # fmt: skip
        return
    code, tiles = code_for(action)
    custom_id = f"mj:a:{table.table_id}:{prompt.turn_id}:{code}" + (f":{tiles}" if tiles else "")
    await env.h.click(user, hand, custom_id)


async def test_auto_win_takes_the_win_without_offering_it(env: Env) -> None:
    h = env.h
    table = await open_table(env, ALICE)
    await press(env, ALICE, "aw_on")
    assert (await env.store.get_user_prefs(ALICE)).get("auto_win") is True
    seat = table.seat_of(ALICE)
    assert seat is not None and table.match is not None
    start = len(h.remote.requests)
    for _ in range(3000):
        if table.status != "running":
            break
        if asked(table, ALICE) != "idle":
            await play_like_the_ai(env, table, ALICE)
        else:
            await h.advance(0.5)
    mine = [a for a in table.match.actions if a.seat == seat]
    assert any(a.type == "win" for a in mine)  # she won (this seed), and never pressed Win:
    assert not any(":win" in str(r.payload) for r in h.remote.requests[start:])


async def test_tsumogiri_discards_the_drawn_tile_without_a_click(env: Env) -> None:
    """With auto-pass and tsumogiri on, a whole match plays itself: each of her discards
    is the tile she just drew, and she never times out; but a drawn wild is not thrown
    for her: she is asked, as without the shortcut."""
    h = env.h
    table = await open_table(env, ALICE)
    for setting in ("ap_hand", "ap_always", "tg_on"):
        await press(env, ALICE, setting)
    prefs = await env.store.get_user_prefs(ALICE)
    assert prefs.get("tsumogiri") is True
    seat = table.seat_of(ALICE)
    assert seat is not None and table.match is not None
    asked_on_a_wild = 0
    for _ in range(600):
        if table.status != "running":
            break
        if asked(table, ALICE) == "turn":  # only a drawn wild (or a win) asks her
            round_ = table.match.round
            wins = any(a.type == "win" for a in table.match.legal_actions(seat))
            assert round_.drawn[seat] == round_.wild or wins
            asked_on_a_wild += not wins
            hand = h.latest_dm(ALICE)
            move = choose_move(hand) if hand is not None else None
            assert move is not None
            await h.click(ALICE, hand, move[0], move[1])  # type: ignore[arg-type]
        else:
            await h.advance(1)
    assert table.status == "finished" and table.match is not None
    replay = Match(table.variant, table.options, table.seed, seats=table.num_seats)
    checked = wild_draws = 0
    for action in table.match.actions:
        drawn = replay.round.drawn[seat]
        if action.seat == seat and action.type == "discard" and drawn is not None:
            if drawn == replay.round.wild:
                wild_draws += 1
            else:
                assert action.tile == drawn
                checked += 1
        replay.apply(action)
    assert checked > 10 and asked_on_a_wild >= wild_draws
    assert table._timeouts.get(seat, 0) == 0 and not table.seats[seat].autoplay


async def test_tsumogiri_never_throws_a_drawn_wild(env: Env) -> None:
    """A drawn 财神 is the best tile of the wall: auto-discard leaves it to the player
    (she is asked, as without the shortcut); any other drawn tile goes at once."""
    table = await open_table(env, ALICE)
    seat = table.seat_of(ALICE)
    assert seat is not None and table.match is not None
    await until_asked(env, table, ALICE)
    round_ = table.match.round
    assert asked(table, ALICE) == "turn" and round_.drawn[seat] is not None
    assert (await table.set_toggle(ALICE, "tsumogiri", True)).ok
    drawn, wild = round_.drawn[seat], round_.wild
    assert drawn is not None and wild is not None
    if drawn != wild:
        assert table._auto_action(seat) == Action("discard", seat, tile=drawn)
    # The same turn with the wild drawn instead (the hand holds it in the drawn tile's place).
    round_.hands[seat][drawn] -= 1
    round_.hands[seat][wild] += 1
    round_.drawn[seat] = wild
    round_._win_cache.clear()
    if not any(a.type == "win" for a in table.match.legal_actions(seat)):
        assert table._auto_action(seat) is None


# ---------------------------------------------------------------------- autoplay


async def test_autoplay_says_so_in_the_dm_and_back_leaves_it(env: Env) -> None:
    h = env.h
    table = await open_table(env, ALICE, BOB, timeouts=(5, 3))
    seat = table.seat_of(ALICE)
    assert seat is not None
    for _ in range(400):  # she answers nothing (Bob does): after three timeouts, autoplay
        await bob_plays_or_time_passes(env, table, 1)
        if table.seats[seat].autoplay:
            break
    assert table.seats[seat].autoplay
    table_message = next(m for m in h.channel_messages() if "🀄" in m.payload["content"])
    await h.advance(2)
    assert "进入托管" in table_message.payload["content"]
    await h.advance(1)  # the AI plays on for her; her hand shows it, saying so
    hand = h.latest_dm(ALICE)
    assert hand is not None
    autoplay_text = MESSAGES["hand.autoplay"][0]
    assert autoplay_text in hand.payload["content"]
    back = f"mj:t:{table.table_id}:back"
    assert back in hand.custom_ids()
    await h.click(ALICE, hand, back)
    assert not table.seats[seat].autoplay
    hand = h.latest_dm(ALICE)
    assert hand is not None
    assert autoplay_text not in hand.payload["content"] and back not in hand.custom_ids()
    await h.advance(2)
    assert "进入托管" not in table_message.payload["content"]  # the stale notice is gone


# ---------------------------------------------------------------------- result card


async def test_dm_player_gets_the_result_card_on_their_hand_message(env: Env) -> None:
    h = env.h
    table = await open_table(env, ALICE)
    assert table.match is not None
    for _ in range(600):
        if table.status != "running" or table.match.results:
            break
        hand = h.latest_dm(ALICE)
        move = choose_move(hand) if hand is not None else None
        if move is not None and hand is not None and asked(table, ALICE) != "idle":
            await h.click(ALICE, hand, move[0], move[1])
        else:
            await h.advance(0.5)
    assert table.match.results
    await h.advance(1)
    cards = [m for m in h.dm_messages(ALICE) if any(d.startswith(b"RESULT") for _, d in m.files)]
    assert len(cards) == 1
    card = cards[0]
    assert card.components == []  # the ended hand keeps no buttons
    assert ("胡了" in card.payload["content"]) or ("流局" in card.payload["content"])
    assert h.dm_messages(ALICE).index(card) < len(h.dm_messages(ALICE)) - 1  # the next hand follows
    # The next hand's DM is the one that notifies: it says how the last hand ended, with
    # her points (the card above is an edit, which notifies nobody).
    result = table.match.results[0]
    seat = table.seat_of(ALICE)
    assert seat is not None
    newest = h.latest_dm(ALICE)
    assert newest is not None and newest.id != card.id
    summary = newest.payload["content"].splitlines()[0]
    assert "Last hand" in summary  # zh-CN readers get the English too
    if result.winner is None:
        assert "流局" in summary
    elif result.winner == seat:
        assert "你胡了" in summary
    else:
        assert f"{table.seats[result.winner].name} 胡了" in summary
    # Once the table is over and its last messages are out, the presenter keeps nothing
    # of it (a bot runs for months): hand records and last-hand lines alike.
    await h.end_table(ALICE)
    await h.advance(301)
    presenter = env.bot.presenter
    assert not [key for key in presenter._last_hand if key[0] == table.table_id]
    assert not [key for key in presenter._hands if key[0] == table.table_id]


# ---------------------------------------------------------------------- languages


async def test_each_player_gets_their_own_language(env: Env) -> None:
    h = env.h
    table = await open_table(env, ALICE, BOB)
    # Each player's locale comes with their interactions and is remembered.
    await h.command(ALICE, "table hand", locale="en-US")
    await h.command(BOB, "table hand", locale="zh-TW")
    assert (await env.store.get_user_prefs(ALICE)).get("locale") == "en-US"
    for user, locale in ((ALICE, "en"), (BOB, "zh-TW")):
        await until_asked(env, table, user)  # a new prompt: drawn in their language
        hand = h.latest_dm(user)
        assert hand is not None
        data = next(d for _, d in hand.files if d.startswith(b"HAND"))
        assert data.endswith(f"locale={locale}".encode()), data
    # /table status and /table score answer privately, so their images follow the reader.
    await h.command(ALICE, "table status", locale="en-US")
    private_tables = [
        d for r in h.remote.requests if r.audience is not None and r.audience.kind == "ephemeral"
        for _, d in r.files if d.startswith(b"TABLE")
    ]  # fmt: skip
    assert private_tables and private_tables[-1].endswith(b"locale=en"), private_tables[-1:]
    alice = h.latest_dm(ALICE)
    assert alice is not None and not CJK.search(alice.payload["content"])
    labels = [c.get("label", "") for row in alice.components for c in row["components"]]
    assert "Auto-pass: off" in labels and not any(CJK.search(label) for label in labels)
    bob = h.latest_dm(BOB)
    assert bob is not None
    labels = [c.get("label", "") for row in bob.components for c in row["components"]]
    assert "自動過：關" in labels
    headline = bob.payload["content"]
    assert "等待" in headline or "輪到你了" in headline or "可以" in headline
    assert "轮" not in headline and "Your turn" not in headline
    # The channel keeps the guild's language (zh-CN here), not any one player's.
    tables = [
        d for r in h.remote.requests if r.audience is not None and r.audience.kind == "channel"
        for _, d in r.files if d.startswith(b"TABLE")
    ]  # fmt: skip
    assert tables and tables[-1].endswith(b"locale=zh")
    assert all(
        r.audience is None or r.audience.kind != "channel" or not any(
            d.startswith(b"HAND") for _, d in r.files
        )
        for r in h.remote.requests
    )  # fmt: skip


def test_private_messages_read_in_traditional_characters() -> None:
    """Every message a zh-TW player may read privately converts to Big5-clean text."""
    from bot.i18n import for_reader  # imported here: the module runs against older code too

    for key, (chinese, _english) in MESSAGES.items():
        text = for_reader(Text(chinese, ""), "zh-TW")
        # Only the Chinese characters count (a ⚠ or an emoji is no script).
        assert simplified_left(text) == [], (key, text)


async def test_typed_discard_is_confirmed_in_the_readers_language(env: Env) -> None:
    h = env.h
    table = await open_table(env, ALICE)
    await until_asked(env, table, ALICE)
    while asked(table, ALICE) != "turn":
        await h.advance(0.5)
    prompt = table.prompt_for(ALICE)
    assert prompt is not None
    tile = next(a.tile for a in prompt.view.legal if a.type == "discard")
    assert tile is not None
    record = await h.command(ALICE, "discard", [option("tile", kind_str(tile))], locale="zh-CN")
    text = h.reply_text(record)
    assert text.startswith("✔") and "打出" in text and kind_str(tile) in text
    from bot.cogs.play import done_text  # the English reader's line

    english = done_text({"type": "discard", "tile": kind_str(tile)}).en
    assert english.startswith("✔") and "discard" in english and not CJK.search(english)


async def test_every_command_says_where_it_works_with_contexts() -> None:
    """One way, the current one: each top-level command names its ``contexts``; the
    deprecated ``dm_permission`` discord.py still sends only agrees with it."""
    import discord
    from discord.ext import commands

    from bot.app import install_commands

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    await install_commands(bot)
    payloads = [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    assert payloads
    for payload in payloads:
        contexts = payload.get("contexts")
        assert contexts, payload["name"]
        assert payload["dm_permission"] == (1 in contexts), payload["name"]
    by_name = {payload["name"]: payload["contexts"] for payload in payloads}
    assert by_name["table"] == [0] and by_name["discard"] == [0, 1]  # typed moves work in DMs


async def test_the_channel_table_follows_the_guilds_locale(env: Env) -> None:
    env.h.guild_locale = "en-US"
    await open_table(env, ALICE)
    await env.h.advance(2)
    tables = [d for r in env.h.remote.requests for _, d in r.files if d.startswith(b"TABLE")]
    assert tables and all(d.endswith(b"locale=en") for d in tables)


async def test_a_timeout_is_said_on_the_hand_with_how_many_before_autoplay(env: Env) -> None:
    """A timeout played a default move that looked like the player's own (the table's
    line reads the same); her hand now says what was played for her and how many more
    timeouts in a row put her on autoplay (RULES.md §3: three)."""
    h = env.h
    table = await open_table(env, ALICE, BOB, timeouts=(5, 3))
    seat = table.seat_of(ALICE)
    assert seat is not None
    for _ in range(200):
        if table._timeouts.get(seat, 0) >= 1:
            break
        await bob_plays_or_time_passes(env, table, 1)
    assert table._timeouts.get(seat, 0) == 1
    for _ in range(60):  # her next hand update carries the note
        if any("超时，已替你" in (m.payload.get("content") or "") for m in h.dm_messages(ALICE)):
            break
        await bob_plays_or_time_passes(env, table, 0.5)
    notes = [m.payload.get("content") or "" for m in h.dm_messages(ALICE)]
    assert any("超时，已替你" in note and "再超时 2 次将转为电脑托管" in note for note in notes)


async def test_the_dm_hand_links_the_table_it_belongs_to(env: Env) -> None:
    """A DM holds only the hand: the others' moves and the results are at the table, so
    each DM hand opens it (the table's thread when it has one) in one click."""
    table = await open_table(env, ALICE)
    await until_asked(env, table, ALICE)
    hand = env.h.latest_dm(ALICE)
    assert hand is not None
    content = hand.payload["content"]
    link = f"https://discord.com/channels/{GUILD_ID}/{table.channel_id}"
    assert link in content and content.count("https://") == 1
    assert "牌桌" in content.splitlines()[-1]
