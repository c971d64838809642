"""What a prompt says beyond its headline, through the strict offline Discord: the 三摊
choice names the liable pair and what continuing costs under the table's
``santan_profile`` (it explained folding only), and auto-discard says when it leaves a
drawn wild to the player (the turn waited its full time in silence)."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord_harness import (
    CHANNEL_ID,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    StoredMessage,
    choose_move,
    offline_bot,
    option,
)
from test_discord_bot import ALICE, Env, start_bot, stop_bot

from bot.session import TableSession
from engine.words import SEAT_WINDS

# With this seed and Alice claiming everything, the AIs' third claim from one player
# asks her to continue or fold in the third hand (found by trying seeds).
SANTAN_SEED = 17


def _claiming(message: StoredMessage) -> tuple[str, list[str] | None] | None:
    ids = [c for c in message.custom_ids() if c.startswith("mj:a:")]
    for code in (":win", ":kong", ":pung", ":chow", ":cont"):
        for custom_id in ids:
            if code in custom_id:
                return custom_id, None
    return choose_move(message)


async def _until_santan(env: Env, profile: str) -> TableSession:
    h = env.h
    await env.store.set_rule_defaults(GUILD_ID, "jiaxing", {"santan_profile": profile})
    await h.command(ALICE, "table create", [option("variant", "jiaxing")], locale="zh-CN")
    await h.command(ALICE, "table start", locale="zh-CN")
    await h.advance(2)
    table = env.bot.manager.by_channel(CHANNEL_ID)
    assert table is not None and table.options["santan_profile"] == profile
    for _ in range(400):
        assert table.status == "running", "the match ended without a 三摊 choice"
        prompt = table.prompt_for(ALICE)
        if prompt is not None and prompt.kind == "santan":
            await h.advance(0.5)
            return table
        message = h.latest_hand(ALICE)
        move = _claiming(message) if message and prompt and prompt.kind != "idle" else None
        if move is None:
            await h.advance(2)
            continue
        await h.click(ALICE, message, move[0], move[1], locale="zh-CN")  # type: ignore[arg-type]
        await h.advance(1.6)
    raise AssertionError("no 三摊 choice reached Alice")


@pytest.mark.parametrize(
    ("profile", "zh_cost", "en_cost"),
    [
        ("five_x", "别人胡你付 5 倍", "you pay 5× to whoever wins"),
        ("two_x", "承包方胡，你付胡牌分的 2 倍", "if a liable player wins you pay 2× the score"),
    ],
)
async def test_the_santan_choice_says_who_is_liable_and_what_continuing_costs(
    tmp_path: Path, profile: str, zh_cost: str, en_cost: str
) -> None:
    env = await start_bot(tmp_path / "bot.db", seed=SANTAN_SEED)
    try:
        table = await _until_santan(env, profile)
        assert table.match is not None
        round_ = table.match.round
        [(first, second)] = round_.santan_pairs
        names = [
            (SEAT_WINDS[round_.seat_wind(seat)], table.seats[seat].name) for seat in (first, second)
        ]
        hand = env.h.latest_hand(ALICE)
        assert hand is not None
        content = hand.payload["content"]
        assert "三摊：跟还是不跟？" in content
        pair = " ↔ ".join(f"{wind.zh} {name}" for wind, name in names)
        assert f"承包方：{pair}" in content
        assert zh_cost in content and "不跟：自动摸打" in content
        # RULES.md §1: a robbed kong is paid by the kong maker alone, liable or not.
        assert "抢杠胡只由杠牌的人付" in content
        assert "a robbed kong is paid by the kong maker alone" in content
        assert f"Liable: {' ↔ '.join(f'{w.en} {n}' for w, n in names)}" in content
        assert en_cost in content
        # The DM alert that makes the phone buzz says it too.
        deadline = table.prompt_for(ALICE).deadline  # type: ignore[union-attr]
        while not env.h.dm_alerts(ALICE) and env.clock.now() < deadline - 2:
            await env.h.advance(1)
        [alert] = env.h.dm_alerts(ALICE)
        assert f"承包方：{pair}" in alert.payload["content"]
        assert zh_cost in alert.payload["content"]
    finally:
        await stop_bot(env)


async def test_auto_discard_says_when_it_leaves_a_drawn_wild_to_the_player(
    tmp_path: Path,
) -> None:
    """Seed 21, Taizhou: Alice turns auto-discard on and draws the wild (9m) in the
    first hand. The turn waited the full time with nothing said, then the timeout threw
    the wild and counted toward autoplay; the hand and its DM alert now say why."""
    async with offline_bot(tmp_path, {ALICE: ("alice", DEFAULT_PERMISSIONS)}, seed=21) as h:
        created = [option("variant", "taizhou"), option("discard_timeout", 30)]
        await h.command(ALICE, "table create", created, locale="en-US")
        await h.command(ALICE, "table start", locale="en-US")
        table = h.bot.manager.by_channel(CHANNEL_ID)
        assert table is not None and table.match is not None
        hand = h.latest_hand(ALICE)
        assert hand is not None
        toggle = next(c for c in hand.custom_ids() if c.endswith(":tg_on"))
        await h.click(ALICE, hand, toggle, locale="en-US")
        round_ = table.match.round
        seat = table.seat_of(ALICE)
        assert seat is not None
        for _ in range(120):
            prompt = table.prompt_for(ALICE)
            if prompt and prompt.kind == "turn" and round_.drawn[seat] == round_.wild:
                break
            await h.advance(0.5)
        else:
            raise AssertionError("Alice never drew the wild")
        await h.advance(0.5)
        hand = h.latest_hand(ALICE)
        assert hand is not None
        note = "You drew the wild: auto-discard never throws it for you; choose your discard."
        assert note in hand.payload["content"]
        while not h.dm_alerts(ALICE):
            await h.advance(1)
        assert note in h.dm_alerts(ALICE)[-1].payload["content"]
        # In Chinese, with the rule set's own word for the wild (台州: 财神).
        record = await h.command(ALICE, "table hand", locale="zh-CN")
        assert "摸到财神：自动摸打不替你打财神，请自己出牌。" in h.reply_text(record)
