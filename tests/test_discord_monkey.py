"""Random players at a real table: whatever they press or type, nothing breaks.

The other Discord tests each check one path a player takes on purpose. Players also do
what nobody planned: press a button on yesterday's hand, type a tile they do not hold,
chow out of turn, click the table's buttons while not seated, walk away mid-hand, come
back, and let the clock run. Here three seated players and one bystander do all of that
at random (seeded, so a failure replays), through discord.py's own dispatch and the
strict fake Discord, and then the match is played to its end. What must hold whatever
they did:

- no exception reaches a log (every bad input is answered, not crashed on);
- every interaction is acknowledged in time, and Discord refused no request
  (:meth:`Harness.close` fails the test on any);
- the engine state after each step is one the rules allow (tile census, hand sizes);
- the match finishes (or closes, once every player has walked out), every hand is
  settled zero-sum, and each player's balance is their starting balance plus exactly
  their ledger entries: no hand lost, none counted twice, a walk-out paid once.
"""

from __future__ import annotations

import itertools
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from chinese_script import CJK, simplified_left
from discord_harness import (
    ADMIN_PERMISSIONS,
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    FakeDiscord,
    Harness,
    InteractionRecord,
    StoredMessage,
    TagRenderer,
    choose_move,
    option,
)
from test_engine_properties import check_round

from bot.app import MahjongBot
from bot.session import FakeClock
from data import Store
from engine.tiles import name_zh
from engine.wall import tile_kinds_in_play

ALICE = 800_000_000_000_000_011
BOB = 800_000_000_000_000_012
CAROL = 800_000_000_000_000_013
DAVE = 800_000_000_000_000_014  # never sits down
EVE = 800_000_000_000_000_015  # a server manager: /mjadmin end and /mjadmin void only
SEATED = (ALICE, BOB, CAROL)
USERS = {
    ALICE: ("alice", DEFAULT_PERMISSIONS),
    BOB: ("张伟", DEFAULT_PERMISSIONS),  # a name in Simplified characters, kept so for zh-TW
    CAROL: ("carol", DEFAULT_PERMISSIONS),
    DAVE: ("dave", DEFAULT_PERMISSIONS),
    EVE: ("eve", ADMIN_PERMISSIONS),
}
STARTING_BALANCE = 1000
# Read a player's whole ledger: a Taizhou dealer stays while winning, so one match can
# run to a thousand hands and more (seed 145 at two seats: 1,158).
EVERY_ROW = 10**6

# What a manager types as a void's reason (quoted as typed in any reader's language).
TYPED_REASONS = ("放水", "bug", " ")

# What people type into a tile option: right, wrong, and nonsense.
TYPED_TILES = (
    "5m", "1p", "9s", "7z", "5z", "0m", "5M", "五万", "5万", "东", "白", "中", "發", "红中",
    "m5", "55m", "123m", "", " ", "x", "🀄", "5m5m", "wildcard", "1z 2z",
)  # fmt: skip
TYPED_CHOWS = ("", "3m4m", "4m6m", "3m 4m", "1p2p3p", "白", "ab", "5m", "3m4m5m6m")
LOCALES = ("zh-CN", "en-US", "zh-TW", "ja", "fr")
TILE_NAMES_ZH = tuple(name_zh(kind) for kind in range(34))


def visible_messages(h: Harness, user: int) -> list[StoredMessage]:
    """What ``user`` can see and press: their DMs, replies only they see, the channel
    and the table's thread."""
    public = [m for channel in channels(h) for m in h.channel_messages(channel)]
    return [*h.dm_messages(user), *h.ephemeral_messages(user), *public]


def channels(h: Harness) -> list[int]:
    return [CHANNEL_ID, *h.remote.threads]


def enabled_components(message: StoredMessage) -> list[dict[str, Any]]:
    return [
        item
        for row in message.components
        for item in row.get("components", [])
        if item.get("custom_id") and not item.get("disabled")
    ]


async def random_click(
    h: Harness, rng: random.Random, user: int, locale: str
) -> list[InteractionRecord]:
    """Press any enabled component on any message the user can see, stale or not; a
    select gets values its own (possibly outdated) options offered, as a client sends."""
    pressable = [(m, c) for m in visible_messages(h, user) for c in enabled_components(m)]
    if not pressable:
        return []
    message, component = rng.choice(pressable)
    values = None
    if "options" in component:
        low = component.get("min_values", 1)
        high = min(component.get("max_values", 1), len(component["options"]))
        chosen = rng.sample(component["options"], rng.randint(low, max(low, high)))
        values = [choice["value"] for choice in chosen]
    record = await h.click(user, message, component["custom_id"], values, locale=locale)
    if record.modal is not None and rng.random() < 0.7:
        inputs = [item for row in record.modal["components"] for item in row["components"]]
        typed = [rng.choice(TYPED_TILES + TYPED_CHOWS) for _ in inputs]
        return [record, await h.submit_modal(user, record, typed, locale=locale)]
    return [record]


async def manager_command(
    h: Harness, rng: random.Random, locale: str, name: str, options: list[dict[str, Any]]
) -> list[InteractionRecord]:
    """A manager's command that asks first (/mjadmin end, /mjadmin void), confirmed at
    once, later (a stale press) or never, as a manager may."""
    records = [await h.command(EVE, name, options, locale=locale, channel_id=CHANNEL_ID)]
    mine = h.ephemeral_messages(EVE)
    question = mine[-1] if mine else None
    if question is not None and question.custom_ids() and rng.random() < 0.7:
        if rng.random() < 0.2:
            await h.advance(rng.choice((60, 16 * 60)))  # a press after the question aged
        records.append(await h.click(EVE, question, question.custom_ids()[0], locale=locale))
    return records


async def random_command(
    h: Harness, rng: random.Random, user: int, locale: str, game_id: str
) -> list[InteractionRecord]:
    """A command with options as a client may send them: Discord checks neither
    ranges nor choices, so numbers out of range and choices that were never offered
    arrive too."""
    someone = rng.choice((*SEATED, DAVE))
    name, options = rng.choice(
        [
            ("discard", [option("tile", rng.choice(TYPED_TILES) or "x")]),
            ("chow", [option("tiles", rng.choice(TYPED_CHOWS))] if rng.random() < 0.7 else []),
            ("pung", []),
            ("kong", [option("tile", rng.choice(TYPED_TILES) or "x")] if rng.random() < 0.5 else []),
            ("win", []),
            ("pass", []),
            ("table hand", []),
            ("table status", []),
            ("table back", []),
            ("table join", []),
            ("table start", []),
            ("table ping", [option("mode", rng.choice(("on", "off")))]),
            ("table dm", [option("mode", rng.choice(("on", "off")))]),
            ("balance", [option("user", str(someone), kind=6)] if rng.random() < 0.5 else []),
            ("help", []),
            ("table kick", [option("user", str(someone), kind=6)]),
            ("mjadmin tables", []),
            ("history", [option("user", str(someone), kind=6)] if rng.random() < 0.5 else []),
            ("replay", [option("game", rng.choice((game_id, game_id[:4], "zzzz", "%"))),
                        option("hand", rng.choice((1, 2, 0, -3, 99, 10**6)))]),
            ("stats", [option("period", rng.choice(("week", "month", "all", "ever")))]),
            ("leaderboard", [option("period", rng.choice(("weekly", "alltime", "yearly"))),
                             option("weeks_ago", rng.choice((0, 1, -1, 10**6))),
                             option("variant", rng.choice(("taizhou", "jiaxing", "riichi")))]),
            ("table create", [option("variant", rng.choice(("taizhou", "jiaxing", "sichuan"))),
                              option("seats", rng.choice((4, 3, 1, 5))),
                              option("stake", rng.choice((1, 0, -5, 10**9)))]),
        ]
    )  # fmt: skip
    where = rng.choice(channels(h))
    return [await h.command(user, name, options, locale=locale, channel_id=where)]


async def good_move(h: Harness, user: int, locale: str) -> list[InteractionRecord]:
    """What a player paying attention does: act on their newest hand."""
    message = h.latest_hand(user)
    move = choose_move(message) if message is not None else None
    if message is None or move is None:
        return []
    return [await h.click(user, message, move[0], move[1], locale=locale)]


# Phrases of one language that must not reach a reader of the other: the parser's and
# the refusals' reasons are translated, not passed through.
ENGLISH_REASONS = ("unknown tile", "expected one tile", "not legal now", "players[", ": tiles")
CHINESE_REASONS = ("不是牌", "现在不能这样做", "牌写得不对", "吃要写三张")


def check_languages(h: Harness, asked: dict[int, str]) -> None:
    for interaction_id, locale in asked.items():
        text = h.reply_text(h.remote.interactions[interaction_id])
        foreign = ENGLISH_REASONS if locale.startswith("zh") else CHINESE_REASONS
        assert not any(phrase in text for phrase in foreign), (locale, text)


def check_private_script(h: Harness, records: list[InteractionRecord], locale: str) -> None:
    """A reader's answer (text, buttons, menus), as it stands right after the action, is
    in their script: a zh-TW reader's holds no Simplified character, an English (or
    other) reader's no Chinese but the tile names beside tiles (``6s 六条``, the names
    players use at the table). Names stay as written. (Later edits through the same
    interaction, such as a "My hand" reply kept up to date, follow the player's
    language of that later moment.)"""
    if locale.startswith("zh") and locale != "zh-TW":
        return
    names = tuple(name for name, _permissions in USERS.values())
    for record in records:
        private = "\n".join(
            readable_text(request)
            for request in h.replies_to(record)
            if request.audience is not None and request.audience.kind != "channel"
        )
        if locale == "zh-TW":
            assert not simplified_left(private, names), private
            continue
        rest = private  # less what it quotes: names, tile names, what the user typed
        quoted = (*names, *TILE_NAMES_ZH, *TYPED_TILES, *TYPED_CHOWS, *TYPED_REASONS)
        for word in sorted((word for word in quoted if word.strip()), key=len, reverse=True):
            rest = rest.replace(word, "")
        assert not CJK.search(rest), private


def check_channel_script(h: Harness) -> None:
    """Everything a zh-TW server's channels were shown (tables, results, standings, the
    starter and name of a table's thread) is in Traditional characters; names as written."""
    names = tuple(name for name, _permissions in USERS.values())
    shown = [
        readable_text(request)
        for request in h.remote.requests
        if request.audience is not None and request.audience.kind == "channel"
    ]
    shown += [thread.name for thread in h.remote.threads.values()]
    assert any(CJK.search(text) for text in shown)
    assert not [text for text in shown if simplified_left(text, names)]


def readable_text(request: Any) -> str:
    """A reply's text with its buttons' and menus' labels and its pictures' alt text."""
    payload = request.payload or {}
    data = payload.get("data", payload) if request.callback_type else payload
    parts = [request.content]
    parts += [str(item.get("description") or "") for item in (data or {}).get("attachments") or []]
    for row in (data or {}).get("components") or []:
        for item in row.get("components") or []:
            parts += [str(item.get("label") or ""), str(item.get("placeholder") or "")]
            parts += [str(option.get("label") or "") for option in item.get("options") or []]
    return "\n".join(parts)


def check_table(table: Any) -> None:
    """The engine state is one the rules allow, whatever was pressed (the random-play
    property test's own check: tile census, hand sizes, somebody to act)."""
    if table.match is not None:
        check_round(table.match.round, tile_kinds_in_play(0))


@pytest.mark.parametrize(
    ("seed", "variant"),
    [(seed, variant) for seed in range(3) for variant in ("taizhou", "jiaxing")],
)
async def test_random_players_cannot_break_a_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, seed: int, variant: str
) -> None:
    caplog.set_level(logging.WARNING)
    rng = random.Random(seed * 1000 + len(variant))
    # The table itself is drawn too: Taizhou's two- and three-seat tables, a table in
    # its own thread or in the channel, a player whose DMs are closed, each AI level.
    seats = rng.choice((4, 4, 3, 2)) if variant == "taizhou" else 4
    threads = rng.random() < 0.5
    ai_level = rng.choice(("easy", "normal", "hard"))
    restart_at = rng.randrange(20, 200) if rng.random() < 0.5 else None
    clock = FakeClock()
    # The server's preferred locale (not drawn from ``rng``: each seed's play stays as
    # it was): a zh-TW server's channel reads Traditional, across a restart too.
    guild_locale = ("zh-CN", "en-US", "zh-TW")[seed % 3]

    async def start_bot(remote: FakeDiscord | None) -> tuple[MahjongBot, Harness, Store]:
        store = await Store.open(tmp_path / "bot.db")
        bot = MahjongBot(store, clock=clock, renderer=TagRenderer(), ai_delay=0.0,
                         leaderboard_interval=None, seeds=itertools.count(seed))  # fmt: skip
        h = Harness(bot, USERS, clock, remote=remote, threads=threads)
        h.guild_locale = guild_locale
        await h.start()
        return bot, h, store

    remote = FakeDiscord()
    if rng.random() < 0.5:
        remote.dm_closed.add(rng.choice(SEATED))
    bot, h, store = await start_bot(remote)
    asked: dict[int, str] = {}  # interaction id -> the locale it was sent in
    try:
        await h.command(ALICE, "table create", [option("variant", variant),
                                                option("seats", seats),
                                                option("ai_level", ai_level),
                                                option("discard_timeout", 20),
                                                option("claim_timeout", 5)])  # fmt: skip
        table = bot.manager.table_of_user(ALICE)
        assert table is not None
        where = table.channel_id
        await h.command(DAVE, "table start", channel_id=where)  # not the host: refused
        for user in SEATED[1:]:
            await h.command(user, "table join", channel_id=where)
        await h.command(ALICE, "table start", channel_id=where)
        await h.advance(2)
        assert table.status == "running"
        seated = [user for user in SEATED if table.seat_of(user) is not None]
        assert len(seated) == min(seats, len(SEATED))

        for step in range(200):
            if table.status != "running":
                break
            if step == restart_at:
                # The bot restarts mid-match (a deploy): the new process restores the
                # table from the store, and the old messages' buttons keep working.
                await h.close()
                await store.close()
                clock = FakeClock(clock.now() + 5)
                bot, h, store = await start_bot(remote)
                restored = bot.manager.get(table.table_id)
                assert restored is not None and restored.status == "running"
                table = restored
            user = rng.choice((*SEATED, DAVE))
            locale = rng.choice(LOCALES)
            roll = rng.random()
            records: list[InteractionRecord] = []
            if roll < 0.40:
                records = await good_move(h, user, locale)
            elif roll < 0.65:
                records = await random_click(h, rng, user, locale)
            elif roll < 0.85:
                records = await random_command(h, rng, user, locale, table.table_id)
            elif roll < 0.86:
                records = [await h.command(user, "table leave", locale=locale, channel_id=where)]
            elif roll < 0.863:  # asked first mid-hand: ends only on a button pressed later
                records = [await h.command(user, "table end", locale=locale, channel_id=where)]
            elif roll < 0.865:  # a manager ends it from the main channel, free for all
                typed = rng.choice((table.table_id, table.table_id[:5], "nope"))
                records = await manager_command(
                    h, rng, locale, "mjadmin end", [option("table", typed)]
                )
            else:
                await h.advance(rng.choice((0.5, 2, 6, 25)))
            asked.update((record.id, locale) for record in records)
            check_private_script(h, records, locale)
            check_table(table)

        # Then everyone plays properly (or times out into autoplay) to the end.
        for _ in range(4000):
            if table.status != "running":
                break
            for user in seated:
                await good_move(h, user, "zh-CN")
            await h.advance(2)
            check_table(table)
        # Who walked out (by command or by the table's button): once all of them have, the
        # table closes, otherwise the match plays to its end, unless nobody played a move of
        # their own for too long (every seat on autoplay or shortcuts): then it closes too.
        left = {user for user in seated if table.seat_of(user) is None}
        await h.advance(2)  # the table message's last edit goes out
        said = "\n".join(m.payload.get("content") or "" for m in h.channel_messages(where))
        unattended = "Nobody has played a move of their own" in said
        game = await store.get_game(table.table_id)
        assert game is not None
        ended_by = game.meta.get("ended_by")  # /table end, now (after the hand: finished)
        closed = left == set(seated) or unattended or ended_by is not None
        assert table.status == ("closed" if closed else "finished")
        await h.advance(2)

        results = table.match.results
        for result in results:
            assert sum(result.deltas) == 0, result
        every_kind = ("opening", "hand", "penalty", "adjustment", "void")
        paid_hands: dict[int, list[int]] = {}
        for user in seated:
            balance = await store.get_balance(GUILD_ID, user)
            ledger = await store.history(GUILD_ID, user, limit=EVERY_ROW, kinds=every_kind)
            assert balance == sum(entry.points for entry in ledger)
            assert [e.points for e in ledger if e.kind == "opening"] == [STARTING_BALANCE]
            hands = sorted(e.hand_number or 0 for e in ledger if e.kind == "hand")
            assert len(hands) == len(set(hands)), "a hand counted twice"
            paid_hands[user] = hands
            walk_outs = [e for e in ledger if e.kind == "penalty" and e.points < 0]
            if user not in left:
                assert len(hands) == len(results), "a hand left unpaid"
                assert len(walk_outs) <= (user == ended_by), "an end pays once, others never"
            else:
                assert len(walk_outs) <= 1, "one walk-out, one penalty at most"
        # Who walked out was paid the hands before, and none after.
        every_hand = next((paid_hands[u] for u in seated if u not in left), None)
        for user in left:
            if every_hand is not None:
                assert paid_hands[user] == every_hand[: len(paid_hands[user])]

        # After the match: the result cards' buttons (replays, rematch), the review
        # commands, more clock. A rematch may start and be played at random too.
        for _step in range(40):
            user = rng.choice((*SEATED, DAVE))
            locale = rng.choice(LOCALES)
            roll = rng.random()
            records = []
            if roll < 0.45:
                records = await random_click(h, rng, user, locale)
            elif roll < 0.48:  # a manager voids a hand of the match (or a wrong one)
                hand = rng.choice((1, 2, len(results), len(results) + 1, 0))
                reason = rng.choice(TYPED_REASONS)
                records = await manager_command(
                    h, rng, locale, "mjadmin void",
                    [option("game", table.table_id), option("hand", hand), option("reason", reason)],
                )  # fmt: skip
            elif roll < 0.75:
                records = await random_command(h, rng, user, locale, table.table_id)
            elif roll < 0.9:
                records = await good_move(h, user, locale)
            else:
                await h.advance(rng.choice((0.5, 2, 30)))
            asked.update((record.id, locale) for record in records)
            check_private_script(h, records, locale)
        await h.advance(121)  # a rematch's hold on the seats runs out
        for user in SEATED:
            balance = await store.get_balance(GUILD_ID, user)  # first: it may open one
            ledger = await store.history(GUILD_ID, user, limit=EVERY_ROW, kinds=every_kind)
            assert balance == sum(e.points for e in ledger)
            voided = [e.hand_number for e in ledger if e.kind == "void"]
            assert len(voided) == len(set(voided)), "a hand voided twice"
            for entry in ledger:  # a void takes back exactly what that hand paid
                if entry.kind == "void":
                    (paid,) = [e.points for e in ledger if e.kind == "hand"
                               and (e.game_id, e.hand_number) == (entry.game_id, entry.hand_number)]  # fmt: skip
                    assert entry.points == -paid
        assert all(r.acked_at is not None for r in h.remote.interactions.values())
        assert h.failed_interactions() == []
        check_languages(h, asked)
        if guild_locale == "zh-TW":
            check_channel_script(h)
    finally:
        await h.close()
        await store.close()
    problems = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not problems, "\n".join(
        f"{r.name}: {r.getMessage()}\n{r.exc_text or ''}" for r in problems
    )
