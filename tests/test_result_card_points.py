"""The result card at a table says what the text says: at stake 2 the text gave "AI 1
+264 … bob -92" and the DM "you -92 points" while the card drew the units (+132, -46)
with no word of the stake (found by a player-experience audit). The card now gets the
points the ledger moved (after any cap) with the stake, in the channel and on the DM."""

from __future__ import annotations

import re
from pathlib import Path

from discord_harness import GUILD_ID, Harness, choose_move, offline_bot, option

from bot.session import TableSession

ALICE = 800_000_000_000_000_001
USERS = {ALICE: ("alice", 0)}
CARD = re.compile(rb"RESULT winner=(\S+) points=\[([^\]]*)\] stake=(\d+)")


async def _first_hand(h: Harness, stake: int) -> TableSession:
    await h.command(ALICE, "table create", [option("variant", "taizhou"), option("stake", stake)])
    await h.command(ALICE, "table start")
    table = h.bot.manager.table_of_user(ALICE)  # type: ignore[attr-defined]
    assert table is not None and table.match is not None
    for _ in range(600):
        if table.status != "running" or table.match.results:
            break
        hand = h.latest_dm(ALICE)
        move = choose_move(hand) if hand is not None else None
        prompt = table.prompt_for(ALICE)
        if move is not None and hand is not None and prompt is not None:
            await h.click(ALICE, hand, move[0], move[1])
        else:
            await h.advance(0.5)
    assert table.match.results
    await h.advance(2)
    return table


def _cards(messages: list[object]) -> list[tuple[list[int], int]]:
    found = []
    for message in messages:
        for _name, data in message.files:  # type: ignore[attr-defined]
            match = CARD.match(data)
            if match is not None:
                points = [int(value) for value in match.group(2).decode().split(", ")]
                found.append((points, int(match.group(3))))
    return found


async def test_the_card_gets_the_points_the_text_and_the_ledger_give(tmp_path: Path) -> None:
    """In the channel and on the DM hand: each seat's points, units × stake, the numbers
    the text beside the card lists."""
    async with offline_bot(tmp_path, USERS, seed=5, renderer=None) as h:
        table = await _first_hand(h, stake=2)
        result = table.match.results[0]  # type: ignore[union-attr]
        assert any(result.deltas), "the seed's first hand should move points"
        expected = [delta * 2 for delta in result.deltas]
        channel = _cards(h.channel_messages())
        dm = _cards(h.dm_messages(ALICE))
        assert channel == [(expected, 2)] and dm == [(expected, 2)]
        text = next(m for m in h.channel_messages() if _cards([m])).payload["content"]
        assert "底注 2" in text
        for points in expected:
            assert f"{points:+d}" in text


async def test_a_capped_hand_shows_the_capped_points(tmp_path: Path) -> None:
    """A per-hand cap makes the ledger differ from units × stake: the card gets what the
    ledger moved (the text says the same), and draws the cap as a line of its own."""
    async with offline_bot(tmp_path, USERS, seed=5, renderer=None) as h:
        await h.bot.store.update_settings(GUILD_ID, hand_cap=50)  # type: ignore[attr-defined]
        await _first_hand(h, stake=2)
        history = await h.bot.store.history(GUILD_ID, ALICE, limit=5)  # type: ignore[attr-defined]
        assert history and history[0].points != history[0].original_points  # capped
        (points, stake), *_ = _cards(h.channel_messages())
        assert stake == 2 and max(abs(value) for value in points) <= 50
        assert _cards(h.dm_messages(ALICE))[0][0] == points
