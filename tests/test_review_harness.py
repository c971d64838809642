"""Issue 14 items 1-3 through the strict offline Discord: /history lists a finished match
with its opponents and results, a replay steps forward and back and ends on the stored
result, the exported animation decodes frame by frame, and Rematch starts a new match
with the same players once every human confirms (or frees the seats when they do not)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from discord_harness import CHANNEL_ID, GUILD_ID, StoredMessage, option
from PIL import Image
from test_discord_bot import ALICE, BOB, CAROL, Env, play_turn, start_bot, stop_bot

from bot.lines import standings_message
from bot.replays import find_game, load_hand
from render.alt_text import describe_replay_frame
from render.replay import render_replay_frame


async def finished_match(env: Env, *humans: int, extra: tuple[Any, ...] = ()) -> str:
    """Create, fill and play a one-round Taizhou match to its end; returns its id.
    ``extra``: more /table create options."""
    h, bot = env.h, env.bot
    created = [option("variant", "taizhou"), option("rounds", 1), *extra]
    await h.command(humans[0], "table create", created)
    for user in humans[1:]:
        await h.command(user, "table join")
    await h.command(humans[0], "table start")
    await h.advance(2)
    table = bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and table.status == "running"
    steps = 0
    while table.status == "running" and steps < 3000:
        moved = False
        for user in humans:
            if table.status == "running" and await play_turn(env, user):
                moved = True
                steps += 1
                await h.advance(1.6)
        if not moved:
            await h.advance(2)
    assert table.status == "finished"
    await h.advance(2)
    return table.table_id


def latest_ephemeral(env: Env, user: int) -> StoredMessage:
    messages = env.h.ephemeral_messages(user)
    assert messages, "no ephemeral message"
    return messages[-1]


async def _bob_leaves_in_hand_two(
    env: Env, *created: Any, seats: dict[int, int | None] | None = None
) -> Any:
    """Alice and Bob at a Taizhou table (with ``created`` options) play hand 1 to its
    settlement; in hand 2 Bob leaves, confirming the penalty, and an AI takes his seat.
    ``seats`` receives Bob's seat as it was. Returns the table."""
    h, bot = env.h, env.bot
    await h.command(ALICE, "table create", [option("variant", "taizhou"), *created])
    await h.command(BOB, "table join")
    await h.command(ALICE, "table start")
    await h.advance(2)
    table = bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and table.match is not None
    steps = 0
    while table.match.hand_number < 1 and steps < 2000:  # hand 1 settled, 2 dealt
        moved = False
        for user in (ALICE, BOB):
            if table.match.hand_number < 1 and await play_turn(env, user):
                moved, steps = True, steps + 1
                await h.advance(1.6)
        if not moved:
            await h.advance(2)
    await h.advance(3)
    assert table.status == "running" and table.match.hand_number == 1
    if seats is not None:
        seats[BOB] = table.seat_of(BOB)
    await h.command(BOB, "table leave")
    question = latest_ephemeral(env, BOB)
    await h.click(BOB, question, question.custom_ids()[0])
    assert table.seat_of(BOB) is None
    return table


def custom_id(message: StoredMessage, prefix: str, label: str | None = None) -> str:
    for row in message.components:
        for item in row.get("components", []):
            if item.get("custom_id", "").startswith(prefix) and (
                label is None or item.get("label") == label
            ):
                return str(item["custom_id"])
    raise AssertionError(f"no {prefix} {label or ''} on the message: {message.custom_ids()}")


def step_of(message: StoredMessage) -> tuple[int, int]:
    found = re.search(r"第 (\d+)/(\d+) 步", message.payload["content"])
    assert found, message.payload["content"]
    return int(found.group(1)), int(found.group(2))


async def test_history_opens_a_match_and_a_replay_steps_to_the_stored_result(
    tmp_path: Path,
) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        h, store = env.h, env.store
        game_id = await finished_match(env, ALICE)
        game = await store.get_game(game_id)
        assert game is not None
        ai_names = [s["name"] for s in game.meta["seats"] if s["is_ai"]]
        page = await store.match_history(GUILD_ID, ALICE)
        (match,) = page.matches
        assert match.hands

        # /history: rule set, opponents by name, each hand's winner and Alice's result.
        record = await h.command(ALICE, "history")
        text = h.reply_text(record)
        assert "台州" in text and game_id in text
        assert all(name in text for name in ai_names)
        seat = match.seat_of(ALICE)
        assert seat is not None
        for hand in match.hands:
            entries = await store.hand_entries(game_id, hand.hand_number)
            mine = next((e.points for e in entries if e.user_id == ALICE), 0)
            assert hand.points[seat] == mine
            assert f"第 {hand.hand_number + 1} 局" in text
        assert f"合计 {match.total_for(ALICE):+d}" in text
        listing = latest_ephemeral(env, ALICE)

        # Someone else's press, and a stale one, are refused clearly; nothing changes.
        before = dict(listing.payload)
        other = await h.click(BOB, listing, custom_id(listing, "mj:hp:"))
        assert "别人" in h.reply_text(other)
        assert listing.payload["content"] == before["content"]

        # Open the match: its hands, then one hand as a replay.
        await h.click(ALICE, listing, custom_id(listing, "mj:ho:"), [game_id])
        detail = latest_ephemeral(env, ALICE)
        assert "第 1 局" in detail.payload["content"]
        await h.click(ALICE, detail, custom_id(detail, "mj:hh:"), ["1"])
        replay = latest_ephemeral(env, ALICE)
        assert step_of(replay)[0] == 0
        assert replay.files and replay.files[0][1].startswith(b"\x89PNG")

        # Step forward, back, to the end and to the start.
        await h.click(ALICE, replay, custom_id(replay, "mj:rs:", "▶"))
        assert step_of(replay)[0] == 1
        await h.click(ALICE, replay, custom_id(replay, "mj:rs:", "▶"))
        await h.click(ALICE, replay, custom_id(replay, "mj:rs:", "◀"))
        assert step_of(replay)[0] == 1
        await h.click(ALICE, replay, custom_id(replay, "mj:rs:", "⏭"))
        step, steps = step_of(replay)
        assert step == steps
        loaded = await load_hand(store, game, 1)
        assert replay.files[0][1] == render_replay_frame(loaded.record, steps, names=loaded.names)
        # Its alt text says the same in words: the last move and how the hand ended.
        ending = describe_replay_frame(loaded.record, steps, loaded.names, "zh")
        assert replay.descriptions() == [ending] and ending.startswith(f"{steps}/{steps} ")
        # The last frame is the stored result: the ledger paid exactly its deltas.
        result = loaded.record.result
        assert result is not None
        paid = {e.seat: e.points for e in await store.hand_entries(game_id, 0)}
        stake = int(game.settings["stake"])
        assert [paid.get(s, 0) for s in range(4)] == [d * stake for d in result.deltas]
        assert (result.winner is None) == (match.hands[0].winner_seat is None)
        await h.click(ALICE, replay, custom_id(replay, "mj:rs:", "⏮"))
        assert step_of(replay)[0] == 0
        refused = await h.click(BOB, replay, custom_id(replay, "mj:rs:", "▶"))
        assert "别人" in h.reply_text(refused) and step_of(replay)[0] == 0

        # Export: a GIF with one frame per action plus the deal.
        await h.click(ALICE, replay, custom_id(replay, "mj:rx:"))
        exported = latest_ephemeral(env, ALICE)
        ((name, data),) = exported.files
        assert name.endswith(".gif") and len(data) < 10 * 1024 * 1024
        assert Image.open(io.BytesIO(data)).n_frames == steps + 1
        assert exported.descriptions() == [ending]

        # The Replay button on a result post works for anyone watching.
        cards = [
            m for m in h.channel_messages() if any(c.startswith("mj:rc:") for c in m.custom_ids())
        ]
        assert len(cards) == len(match.hands)
        await h.click(CAROL, cards[-1], custom_id(cards[-1], "mj:rc:"))
        assert step_of(latest_ephemeral(env, CAROL))[0] == 0

        # /replay by a prefix of the id; unknown games and hands are refused clearly.
        record = await h.command(BOB, "replay", [option("game", game_id[:6]), option("hand", 1)])
        assert step_of(latest_ephemeral(env, BOB))[0] == 0
        record = await h.command(BOB, "replay", [option("game", "zzzz"), option("hand", 1)])
        assert "没有找到牌局" in h.reply_text(record)
        record = await h.command(BOB, "replay", [option("game", game_id), option("hand", 99)])
        assert "没有第 99 局" in h.reply_text(record)
        assert (await find_game(store, game_id)).game_id == game_id

        # A history view left open too long is stale.
        env.clock._now += 20 * 60
        stale = await h.click(ALICE, detail, custom_id(detail, "mj:hp:"))
        assert "过期" in h.reply_text(stale)
        assert not h.failed_interactions()
    finally:
        await stop_bot(env)


async def test_rematch_starts_when_every_human_confirms(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        h, bot, store = env.h, env.bot, env.store
        chosen = (option("stake", 3), option("discard_timeout", 45), option("learner_aids", True))
        old_id = await finished_match(env, ALICE, BOB, extra=chosen)
        old = await store.get_game(old_id)
        assert old is not None and old.settings["learner_aids"] is True
        final = [
            m for m in h.channel_messages() if any(c.startswith("mj:rm:") for c in m.custom_ids())
        ]
        assert len(final) == 1
        button = custom_id(final[0], "mj:rm:")

        outsider = await h.click(CAROL, final[0], button)
        assert "只有这场的玩家" in h.reply_text(outsider)
        asked = await h.click(ALICE, final[0], button)
        assert "等其他玩家在 120 秒内确认" in h.reply_text(asked)  # not "confirmed"
        table = bot.manager.by_channel(CHANNEL_ID)
        assert table is not None and table.status == "lobby" and table.table_id != old_id
        # BOB's seat is held: CAROL cannot take it while the rematch waits for him.
        held = await h.command(CAROL, "table join")
        assert "留给上一场" in h.reply_text(held)
        await h.click(BOB, final[0], button)
        await h.advance(2)
        assert table.status == "running"
        # The "asked for a rematch" line leaves the table once the match is under way.
        live = [m for m in h.channel_messages() if "🀄" in (m.payload.get("content") or "")]
        assert not any("发起再来一场" in m.payload["content"] for m in live[-1:])
        new = await store.get_game(table.table_id)
        assert new is not None
        assert sorted(u for u in (s["user_id"] for s in new.meta["seats"]) if u) == sorted(
            [ALICE, BOB]
        )
        assert new.variant == old.variant and new.options == old.options
        # Everything the host chose comes back (the learner aids were dropped).
        assert {k: v for k, v in new.settings.items() if k != "host_user_id"} == {
            k: v for k, v in old.settings.items() if k != "host_user_id"
        }
        assert new.seed != old.seed
        again = await h.click(BOB, final[0], button)
        assert "已经开始" in h.reply_text(again)
    finally:
        await stop_bot(env)


async def test_an_unconfirmed_rematch_frees_the_held_seats(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db")
    try:
        h, bot = env.h, env.bot
        await finished_match(env, ALICE, BOB)
        final = [
            m for m in h.channel_messages() if any(c.startswith("mj:rm:") for c in m.custom_ids())
        ]
        await h.click(ALICE, final[0], custom_id(final[0], "mj:rm:"))
        table = bot.manager.by_channel(CHANNEL_ID)
        assert table is not None and table.status == "lobby"
        await h.advance(125)
        assert "无人确认" in h.channel_messages()[-1].payload["content"] or any(
            "无人确认" in m.payload["content"] for m in h.channel_messages()
        )
        joined = await h.command(CAROL, "table join")
        assert table.is_member(CAROL), h.reply_text(joined)
        assert table.status == "lobby"
    finally:
        await stop_bot(env)


async def test_result_posts_name_the_stake_their_points_are_multiplied_by(tmp_path: Path) -> None:
    """The result card counts the table's points, the post under it balance points
    (× the stake): at any stake but 1 the two disagreed with nothing to say why. Each
    post now names the stake, and its numbers are the card's times it."""
    env = await start_bot(tmp_path / "bot.db")
    try:
        await finished_match(env, ALICE)
        posts = "\n".join(m.payload.get("content") or "" for m in env.h.channel_messages())
        assert "积分变化（底注 1）：" in posts and "Points (stake 1): " in posts
        assert "整场结束。总积分（底注 1）：" in posts
        dm = "\n".join(m.payload.get("content") or "" for m in env.h.dm_messages(ALICE))
        assert "积分变化（底注 1）：" in dm
    finally:
        await stop_bot(env)


async def test_history_counts_only_the_hands_a_player_held_the_seat_for(tmp_path: Path) -> None:
    """Bob leaves during hand 2 and an AI finishes the match in his seat: /history
    charged him for the AI's hands too (the audit's "total -108" against /balance's
    -92). His total and hand rows are now only the hands he played, as the ledger is."""
    env = await start_bot(tmp_path / "bot.db")
    try:
        h, store = env.h, env.store
        table = await _bob_leaves_in_hand_two(env, option("stake", 2))
        assert table.match is not None
        steps = 0
        while table.status == "running" and table.match.hand_number < 2 and steps < 2000:
            if not await play_turn(env, ALICE):
                await h.advance(2)
            else:
                steps += 1
                await h.advance(1.6)
        await h.advance(3)
        (match,) = (await store.match_history(GUILD_ID, BOB)).matches
        assert len(match.hands) >= 2  # the AI's hand in his seat is settled
        rows = await store.history(GUILD_ID, BOB, kinds=("hand",))
        assert [row.hand_number for row in rows] == [0]
        played = sum(row.points for row in rows)
        assert match.total_for(BOB) == played
        assert match.points_for(BOB, match.hands[1]) is None

        text = h.reply_text(await h.command(BOB, "history"))
        assert f"合计 {played:+d}" in text
        assert "第 1 局" in text and "第 2 局" not in text
        # Alice played every hand: hers are all there and add up to her ledger.
        text = h.reply_text(await h.command(ALICE, "history"))
        hers = await store.history(GUILD_ID, ALICE, limit=100, kinds=("hand",))
        assert f"合计 {sum(row.points for row in hers):+d}" in text
        assert "第 2 局" in text
        # The match's own listing still shows every hand, his figure only where he sat.
        listing = latest_ephemeral(env, BOB)
        await h.click(BOB, listing, custom_id(listing, "mj:ho:"), [match.game_id])
        detail = latest_ephemeral(env, BOB)
        assert "第 2 局" in detail.payload["content"]
        options = next(
            item["options"]
            for row in detail.components
            for item in row["components"]
            if item.get("custom_id", "").startswith("mj:hh:")
        )
        described = {o["value"]: o.get("description") for o in options}
        assert described["1"] == f"{played:+d}" and described.get("2") is None
    finally:
        await stop_bot(env)


async def test_the_rematch_call_pings_the_held_players_and_carries_the_button(
    tmp_path: Path,
) -> None:
    """The rematch notice told the others to press 「再来一场」, a button on the last
    match's standings (further up, or in an archived thread), not on the new lobby, and
    pinged nobody (a line edited into the lobby notifies no one). It is now a message of
    its own that mentions only the players it waits for, with the button on it; one who
    sat down with the lobby's Join confirms with it too (that was refused as seated)."""
    env = await start_bot(tmp_path / "bot.db")
    try:
        h, bot = env.h, env.bot
        old_id = await finished_match(env, ALICE, BOB)
        final = [m for m in h.channel_messages() if f"mj:rm:{old_id}" in m.custom_ids()]
        await h.click(ALICE, final[0], f"mj:rm:{old_id}")
        await h.advance(2)
        table = bot.manager.by_channel(CHANNEL_ID)
        assert table is not None and table.status == "lobby"
        calls = [
            m
            for m in h.channel_messages()
            if f"mj:rm:{old_id}" in m.custom_ids() and m.id != final[0].id
        ]
        assert len(calls) == 1
        (call,) = calls
        content = call.payload["content"]
        assert content.startswith(f"<@{BOB}> ") and f"<@{ALICE}>" not in content
        assert "请在 120 秒内点下面的「再来一场」确认" in content
        assert "Press “Rematch” below within 120 s" in content
        sent = next(
            r.payload
            for r in h.remote.requests
            if r.method == "POST" and isinstance(r.payload, dict)
            and r.payload.get("content") == content
        )  # fmt: skip
        mentions = sent["allowed_mentions"]
        assert mentions["parse"] == [] and [str(u) for u in mentions["users"]] == [str(BOB)]
        # The lobby's own line no longer sends anyone to a button it does not have.
        lobby = [m for m in h.channel_messages() if f"mj:t:{table.table_id}:join" in m.custom_ids()]
        assert "等其他玩家在 120 秒内确认" in lobby[-1].payload["content"]
        # Bob sits down with Join first, then confirms on the call: the match starts.
        await h.click(BOB, lobby[-1], f"mj:t:{table.table_id}:join")
        assert table.is_member(BOB) and table.status == "lobby"
        record = await h.click(BOB, call, f"mj:rm:{old_id}")
        assert "已确认再来一场" in h.reply_text(record)
        await h.advance(2)
        assert table.status == "running"
        # The call no longer asks anyone to press: struck through, no button, saying so.
        (call,) = [m for m in h.channel_messages() if m.id == call.id]
        assert call.custom_ids() == []
        assert call.payload["content"].startswith(f"~~<@{BOB}> ")
        assert call.payload["content"].endswith(
            "✅ 大家都确认了，再来一场已开始。\n-# Everyone confirmed: the rematch has started."
        )
        assert not h.remote.violations
    finally:
        await stop_bot(env)


def test_standings_rank_the_players_best_first_with_ties_sharing_a_place() -> None:
    """The match's totals were listed by seat; they are by rank, tied players sharing a
    place (then seat order), each with the seat wind beside the name."""
    text = standings_message(
        "result.match", ["alice", "bob", "AI 1", "AI 2"], [0, 40, 0, -40], [27, 28, 29, 30], stake=1
    )
    assert text.zh == (
        "整场结束。总积分（底注 1）：1. 南家 bob +40、2. 东家 alice +0、2. 西家 AI 1 +0、"
        "4. 北家 AI 2 -40"
    )
    assert text.en.endswith(
        "1. South seat bob +40, 2. East seat alice +0, 2. West seat AI 1 +0, 4. North seat AI 2 -40"
    )


async def test_the_final_standings_post_lists_by_rank(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db", seed=5)
    try:
        game_id = await finished_match(env, ALICE, BOB)
        match = await env.store.match_summary(game_id)
        assert match is not None
        totals = [sum(hand.points[seat] for hand in match.hands) for seat in range(4)]
        names = [str(record["name"]) for record in match.seats]
        post = next(
            m.payload["content"]
            for m in env.h.channel_messages()
            if (m.payload.get("content") or "").startswith("整场结束")
        )
        listed = re.findall(r"(\d+)\. ([东南西北])家 (.+?) ([+-]\d+)", post.splitlines()[0])
        assert sorted(name for _rank, _wind, name, _total in listed) == sorted(names)
        values = [int(total) for _rank, _wind, _name, total in listed]
        assert values == sorted(totals, reverse=True)
        for rank, _wind, name, total in listed:
            assert int(rank) == 1 + sum(1 for value in totals if value > int(total))
            assert totals[names.index(name)] == int(total)
    finally:
        await stop_bot(env)


def test_a_player_who_left_is_ranked_on_a_line_of_their_own() -> None:
    """After Bob left, his seat's total (his hands and then the AI's in his seat) stood
    under the AI's name alone: the AI 'lost 40' that Bob had lost. His hands are his
    again, marked as gone, and the seat keeps only what the AI made."""
    text = standings_message(
        "result.match",
        ["alice", "AI 3", "AI 1", "AI 2"],
        [10, 6, 0, -30],
        [27, 28, 29, 30],
        departed=[("bob", 14)],
        stake=1,
    )
    assert text.zh.endswith(
        "1. bob（已离桌） +14、2. 东家 alice +10、3. 南家 AI 3 +6、4. 西家 AI 1 +0、"
        "5. 北家 AI 2 -30"
    )
    assert "1. bob (left) +14, 2. East seat alice +10" in text.en
    assert "bob" in text.keep


async def test_the_standings_split_a_seat_its_player_left(tmp_path: Path) -> None:
    env = await start_bot(tmp_path / "bot.db", seed=11)
    try:
        h, store = env.h, env.store
        seats_before: dict[int, int | None] = {}
        table = await _bob_leaves_in_hand_two(env, option("rounds", 1), seats=seats_before)
        bob_seat = seats_before[BOB]
        assert bob_seat is not None
        steps = 0
        while table.status == "running" and steps < 5000:
            if await play_turn(env, ALICE):
                steps += 1
                await h.advance(1.6)
            else:
                await h.advance(2)
        await h.advance(3)
        assert table.status == "finished"
        match = await store.match_summary(table.table_id)
        assert match is not None and len(match.hands) >= 4
        his = match.total_for(BOB)
        seat_total = sum(hand.points[bob_seat] for hand in match.hands)
        post = next(
            m.payload["content"]
            for m in h.channel_messages()
            if (m.payload.get("content") or "").startswith("整场结束")
        )
        first = post.splitlines()[0]
        assert f"bob（已离桌） {his:+d}" in first
        listed = {
            name: int(total)
            for _rank, name, total in re.findall(
                r"(\d+)\. (?:[东南西北]家 )?(.+?) ([+-]\d+)", first
            )
        }
        assert len(listed) == 5 and listed["bob（已离桌）"] == his
        (ai_in_his_seat,) = [n for n in listed if n.startswith("AI") and "bob" in n]
        assert listed[ai_in_his_seat] == seat_total - his
        assert sum(listed.values()) == sum(sum(hand.points) for hand in match.hands)
    finally:
        await stop_bot(env)
