"""The presenter's request budget: coalesced table edits, skipped no-op DM edits."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from discord_harness import (
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    Harness,
    StoredMessage,
    offline_bot,
    option,
)
from test_discord_bot import ALICE, Env, open_table, start_bot, stop_bot

from bot.presenter import Text
from engine.tiles import kind_str


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    environment = await start_bot(tmp_path / "bot.db")
    yield environment
    await stop_bot(environment)


def table_message(env: Env) -> StoredMessage:
    return next(m for m in env.h.channel_messages() if "🀄" in m.payload["content"])


def table_edits(env: Env, message: StoredMessage) -> int:
    return sum(
        1 for r in env.h.remote.requests
        if r.method == "PATCH" and r.url.endswith(f"/messages/{message.id}")
    )  # fmt: skip


async def test_table_edits_are_coalesced_per_channel(env: Env) -> None:
    await open_table(env, ALICE)
    table = env.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None
    status = table.table_status()
    assert status is not None
    message = table_message(env)
    await env.h.advance(5)
    before = table_edits(env, message)
    presenter = env.bot.presenter
    # A burst: the first change goes out at once, the rest wait for the interval.
    await presenter.notice(table.table_id, CHANNEL_ID, Text("通知0", "notice 0"))
    await env.h.settle()
    assert table_edits(env, message) == before + 1
    for index in range(1, 10):
        await presenter.notice(table.table_id, CHANNEL_ID, Text(f"通知{index}", f"notice {index}"))
        await env.h.settle()
    assert table_edits(env, message) == before + 1
    await env.h.advance(1.0)
    assert table_edits(env, message) == before + 1  # still inside the 1.5 s window
    await env.h.advance(0.6)
    assert table_edits(env, message) == before + 2  # one edit with the newest state
    assert "通知9" in message.payload["content"]
    await env.h.advance(5)
    assert table_edits(env, message) == before + 2  # nothing new, nothing sent


async def test_unchanged_hand_is_not_sent_again(env: Env) -> None:
    await open_table(env, ALICE)
    table = env.bot.manager.table_of_user(ALICE)
    assert table is not None
    prompt = table.prompt_for(ALICE)
    assert prompt is not None
    requests = len(env.h.remote.requests)
    for _ in range(3):
        await env.bot.presenter.private_hand(prompt)
    await env.h.settle()
    assert len(env.h.remote.requests) == requests


async def test_a_slow_answer_is_deferred_first_then_edited(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No time left in the ack budget (a busy queue or a slow render): the click is
    deferred at once and the new hand follows as an edit of the same message."""
    from discord_harness import CALLBACK_DEFER_UPDATE, choose_move

    import bot.discord_ack as ack_module

    await open_table(env, ALICE)
    monkeypatch.setattr(ack_module, "ACK_BUDGET", 0.0)
    message = env.h.latest_dm(ALICE)
    for _ in range(20):
        if message is not None and choose_move(message) is not None:
            break
        await env.h.advance(2)
        message = env.h.latest_dm(ALICE)
    assert message is not None
    move = choose_move(message)
    assert move is not None
    record = await env.h.click(ALICE, message, move[0], move[1])
    replies = env.h.replies_to(record)
    callbacks = [r.callback_type for r in replies if r.callback_type is not None]
    assert callbacks == [CALLBACK_DEFER_UPDATE]  # acknowledged exactly once
    edits = [r for r in replies if r.path.endswith("/messages/@original")]
    assert len(edits) == 1 and any(d.startswith(b"HAND") for _, d in edits[0].files)
    assert edits[0].audience is not None and edits[0].audience.user_id == ALICE
    assert message.id == env.h.latest_dm(ALICE).id  # type: ignore[union-attr]


async def test_a_click_that_ends_a_hand_retires_its_dm(env: Env) -> None:
    """The clicked DM belongs to a hand that is over once the click is played: it keeps
    its picture, loses its buttons, and the next hand arrives as a new DM."""
    from discord_harness import CALLBACK_UPDATE, choose_move

    await open_table(env, ALICE)
    table = env.bot.manager.table_of_user(ALICE)
    assert table is not None
    message = env.h.latest_dm(ALICE)
    for _ in range(20):
        if message is not None and choose_move(message) is not None:
            break
        await env.h.advance(2)
        message = env.h.latest_dm(ALICE)
    assert message is not None
    move = choose_move(message)
    assert move is not None
    # Pretend this DM was sent for the previous hand (as after a winning click).
    env.bot.presenter._hands[(table.table_id, ALICE)].hand_number -= 1
    record = await env.h.click(ALICE, message, move[0], move[1])
    replies = env.h.replies_to(record)
    assert [r.callback_type for r in replies if r.callback_type] == [CALLBACK_UPDATE]
    assert message.components == [] and "本局结束" in message.payload["content"]
    assert message.files  # the picture stays
    newest = env.h.latest_dm(ALICE)
    assert newest is not None and newest.id != message.id
    assert any(d.startswith(b"HAND") for _, d in newest.files)


def test_a_move_line_says_only_what_the_table_may_see() -> None:
    """A concealed kong keeps its tile secret; an added kong is one move (补杠), not one
    line when declared and another when it stands; a claim answered while the window is
    open is no move (a pung may take the tile; who answered is private): before, its
    action was written at once, so a chow that lost to a pung stayed on the table and
    one that won was written twice (found by a table read-through)."""
    from bot.discord_table import _move_lines
    from bot.presenter import SeatInfo, TableStatus
    from engine.match import Match
    from engine.types import CHOW, KONG, Action

    public = Match("taizhou", None, 1, seats=2).public_view()
    seats = (SeatInfo(0, "Ann", 1), SeatInfo(1, "Bob", 2))
    names = ["Ann", "Bob"]

    def lines(action: Action, *events: dict[str, object]) -> list[str]:
        status = TableStatus(
            table_id="t", guild_id=1, channel_id=2, seats=seats, public=public,
            deadline=None, acting=(), stake=1, events=events, last_action=action,
        )  # fmt: skip
        return _move_lines(status, names)

    kong = Action(KONG, 0, tile=4)
    assert lines(kong, {"type": "concealed_kong", "seat": 0}) == ["-# Ann 暗杠 concealed kong"]
    assert lines(kong, {"type": "added_kong", "seat": 0, "tile": "5m"},
                 {"type": "kong_made", "seat": 0, "tile": "5m"}) == [
        "-# Ann 补杠 adds a kong 5m 五万"
    ]  # fmt: skip
    assert lines(Action(KONG, 1, tile=4), {"type": "kong_made", "seat": 0, "tile": "5m"}) == []
    assert lines(Action(CHOW, 1, tiles=(3, 4, 5))) == []  # answered, window still open


async def test_every_move_at_a_table_of_ai_reaches_the_table_message(tmp_path: Path) -> None:
    """AI seats move every second and the table message is edited at most every 1.5 s:
    showing only the last move skipped about a fifth of them (a discard nobody saw named).
    The message lists the latest moves, so each reaches at least one edit; a claim names
    its tiles and whose discard it took."""
    users = {ALICE: ("alice", DEFAULT_PERMISSIONS)}
    async with offline_bot(tmp_path, users, seed=3, ai_delay=1.0) as h:
        await h.command(ALICE, "table create", [option("variant", "taizhou")])
        await h.command(ALICE, "table start")
        table = h.bot.manager.by_channel(CHANNEL_ID)  # type: ignore[attr-defined]
        assert table is not None
        assert (await table.autoplay(ALICE)).ok  # four machine seats at the bot's pace
        match = table.match
        assert match is not None
        rounds = {}
        for _ in range(120):
            rounds[id(match.round)] = match.round  # each hand's moves, as it ends
            await h.advance(0.5)
        shown = "\n".join(
            r.content for r in h.remote.requests
            if r.audience is not None and r.audience.kind == "channel" and "🀄" in r.content
        )  # fmt: skip
        names = [seat.name for seat in table.seats]
        # The last discard of a hand is the result post's (the next hand clears the list).
        discards = [
            a for r in rounds.values()
            for a in [a for a in r.actions if a.type == "discard"][: -1 if r.is_over else None]
        ]  # fmt: skip
        assert len(discards) >= 20
        for action in discards:
            assert f"{names[action.seat]} 打出 discards {kind_str(action.tile)}" in shown
        claims = [line for line in shown.splitlines() if " ← " in line]
        assert all(re.search(r"(碰|吃|杠) \w+ \S+ ← ", line) for line in claims)


@asynccontextmanager
async def paced_table(tmp_path: Path) -> AsyncIterator[tuple[Harness, Any]]:
    """Alice's Taizhou table at the bot's own pace (AI pauses of 1 s), her seat on
    autoplay: four machine seats moving as a real table's AI seats do."""
    users = {ALICE: ("alice", DEFAULT_PERMISSIONS)}
    async with offline_bot(tmp_path, users, seed=3, ai_delay=1.0) as h:
        await h.command(ALICE, "table create", [option("variant", "taizhou")])
        await h.command(ALICE, "table start")
        table = h.bot.manager.by_channel(CHANNEL_ID)  # type: ignore[attr-defined]
        assert table is not None and table.match is not None
        assert (await table.autoplay(ALICE)).ok
        yield h, table


async def test_the_next_hand_waits_a_moment_after_a_result(tmp_path: Path) -> None:
    """At the bot's pace an AI dealer opened the next hand a second after the result
    went up: the table pauses four AI pauses first (a human dealer's clock starts after
    it, though they may play at once)."""
    async with paced_table(tmp_path) as (h, table):
        assert table.match is not None
        first = table.match.round
        while table.match.round is first:
            await h.advance(0.25)
        ended_at = h.bot.manager.clock.now()  # type: ignore[attr-defined]
        second = table.match.round
        while not second.actions:
            await h.advance(0.25)
        waited = h.bot.manager.clock.now() - ended_at  # type: ignore[attr-defined]
        assert 4.0 <= waited <= 5.5


async def test_the_table_message_says_the_match_scores_in_text(tmp_path: Path) -> None:
    """The scores are in the table image, where a phone shows them 8 px high: the message
    says them too, East first, and changes them only between hands."""
    async with paced_table(tmp_path) as (h, table):
        assert table.match is not None
        while not table.match.results:
            await h.advance(0.5)
        await h.advance(2)  # the next hand's table message, in the pause after the result
        message = next(m for m in h.channel_messages() if "🀄" in m.payload["content"])
        [line] = [x for x in message.payload["content"].splitlines() if x.startswith("-# 东 ")]
        public = table.match.public_view()
        expected = []
        for seat in sorted(range(4), key=lambda s: public.seats[s].seat_wind):
            score = table.match.scores[seat]
            expected.append(f"{table.seats[seat].name} {f'{score:+,d}' if score else '0'}")
        assert [part.split(" ", 1)[1] for part in line[3:].split(" · ")] == expected
        assert any(table.match.scores)
