"""Learner aids: waits with unseen counts, score previews equal to the real scoring of
that win (wilds included, both rule sets), a discard hint, and only in the player's own
hand message when the table turned them on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import CHANNEL_ID, option
from scenario import stage
from test_discord_bot import ALICE, Env, play_turn, start_bot, stop_bot

from engine.aids import learner_aids, unseen_counts
from engine.shapes import shanten
from engine.tiles import kind_str, parse_tile, parse_tiles

TURN = "5m111p234p567p789p1z"  # the seat to play: 14 tiles, 1z just drawn
OTHERS = ["2p4p6p8p2s4s6s8s3s5s7s6z7z", "1m3m5m7m1s3s5s7s2z3z4z5z6z"]


def _real_self_draw(variant: str, hand: str, tile: int) -> int | None:
    """Stage the seat holding ``hand`` with ``tile`` just drawn, and score that win."""
    name = kind_str(tile)
    try:
        round_ = stage(variant, [hand + name, TURN[:-2], *OTHERS], drawn=name, scorer=None)
    except ValueError:  # the filler hands hold every copy: this win cannot be staged
        return "unstageable"  # type: ignore[return-value]
    result = round_._scored_win(0, "self_draw", tile, None)
    return None if result is None else int(result.deltas[0])


@pytest.mark.parametrize(
    ("variant", "hand"),
    [
        ("taizhou", "1112223334445m"),
        ("taizhou", "123m456p789p7s99s5z"),  # 9s is the wild kind: two jokers in the hand
        ("jiaxing", "1112223335578m"),  # full flush: valid wins
        ("jiaxing", "123m456p78s111z22z"),  # no qualifying type
        ("jiaxing", "111m999m22m3m456m9s"),  # a wild in a full flush
    ],
)
def test_waits_and_previews_match_the_real_scoring(variant: str, hand: str) -> None:
    # Seat 0 waits (13 tiles) while seat 1 is to play.
    round_ = stage(variant, [hand, TURN, *OTHERS], turn=1, drawn="1z", scorer=None)
    view = round_.player_view(0)
    aids = learner_aids(round_, 0, view)
    assert [wait.tile for wait in aids.waits] == round_.waits(0) and aids.waits
    unseen = unseen_counts(view)
    previews = set()
    for wait in aids.waits:
        assert wait.unseen == unseen[wait.tile]
        if unseen[wait.tile] == 0:
            continue  # no copy left to stage the win with
        real = _real_self_draw(variant, hand, wait.tile)
        if real == "unstageable":
            continue
        assert wait.self_draw_units == real, wait
        previews.add(wait.self_draw_units)
    if variant == "jiaxing":
        assert all(wait.discard_units is None for wait in aids.waits)  # self-draw only
    else:
        # A discarded wild cannot be won on; natural tiles can.
        assert any(wait.discard_units is not None for wait in aids.waits)
    assert previews


def test_unseen_counts_use_only_what_the_seat_sees() -> None:
    round_ = stage("taizhou", ["1112223334445m", TURN, *OTHERS], turn=1, drawn="1z", scorer=None)
    view = round_.player_view(0)
    unseen = unseen_counts(view)
    own = parse_tiles("1112223334445m")
    assert unseen[own[0]] == 1 and unseen[parse_tile("4m")] == 1
    # 5m: one in the hand; seat 1 holds another, which seat 0 cannot see.
    assert unseen[parse_tile("5m")] == 3
    assert unseen[parse_tile("9s")] == 3  # the indicator is visible


def test_discard_hint_picks_the_fastest_discard() -> None:
    hand = "123m456p789p78s11z5z"  # 14 tiles: discarding 5z leaves it ready on 6s/9s
    round_ = stage("taizhou", [hand, TURN[:-2], *OTHERS], drawn="5z", scorer=None)
    view = round_.player_view(0)
    aids = learner_aids(round_, 0, view)
    assert aids.hint is not None and not aids.waits
    assert aids.hint.tile == parse_tile("5z") and aids.hint.shanten == 0 and aids.hint.waits
    counts, wilds = round_._natural_counts(0)
    for tile in range(34):
        if counts[tile]:
            counts[tile] -= 1
            assert shanten(counts, wilds) >= aids.hint.shanten
            counts[tile] += 1


# ---------------------------------------------------------------------- through Discord


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    environment = await start_bot(tmp_path / "bot.db", seed=3)
    yield environment
    await stop_bot(environment)


async def _play_some(env: Env, learner: bool) -> None:
    options = [option("variant", "taizhou")]
    if learner:
        options.append(option("learner_aids", True))
    await env.h.command(ALICE, "table create", options)
    await env.h.command(ALICE, "table start")
    await env.h.advance(2)
    table = env.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and table.learner_aids is learner
    for _ in range(40):
        if table.status != "running":
            break
        if not await play_turn(env, ALICE):
            await env.h.advance(2)
        await env.h.advance(1.6)


async def test_aids_only_in_the_players_own_hand_and_only_when_on(env: Env) -> None:
    await _play_some(env, learner=True)
    own = env.h.dm_messages(ALICE) + env.h.ephemeral_messages(ALICE)
    assert any("💡" in (m.payload.get("content") or "") for m in own)
    for message in env.h.channel_messages(CHANNEL_ID):
        assert "💡" not in (message.payload.get("content") or "")


async def test_aids_are_off_by_default(env: Env) -> None:
    await _play_some(env, learner=False)
    own = env.h.dm_messages(ALICE) + env.h.ephemeral_messages(ALICE)
    assert own and not any("💡" in (m.payload.get("content") or "") for m in own)


def test_aids_do_not_call_a_hand_that_cannot_win_waiting() -> None:
    """Jiaxing (RULES.md §1): a shape complete on its waits with no qualifying type on
    any of them is not 听牌; the aids list the tiles and say none would win, as the hand
    image shows no waits."""
    from bot.aids import aids_text

    round_ = stage(
        "jiaxing", ["123m456p78s111z22z", TURN, *OTHERS], turn=1, drawn="1z", scorer=None
    )
    view = round_.player_view(0)
    aids = learner_aids(round_, 0, view)
    assert aids.waits and view.waits == ()
    text = aids_text(aids, stake=1)
    assert text.zh.startswith("牌型听了，但这些牌都不成胡：") and "听牌（" not in text.zh
    assert text.en.startswith("A ready shape, but none of these would be a valid win: ")

    full_flush = stage(
        "jiaxing", ["1112223335578m", TURN, *OTHERS], turn=1, drawn="1z", scorer=None
    )
    text = aids_text(learner_aids(full_flush, 0, full_flush.player_view(0)), stake=1)
    assert text.zh.startswith("听牌（共剩")
