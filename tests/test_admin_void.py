"""``/mjadmin void``: a server manager voids one settled hand (played in bad faith, paid by
a bug): named as /history and /mjadmin ledger show it (the game id, or its first
characters, and the hand from 1), asked first with what each player gets back (what was
credited, after caps), confirmed by a button only that manager may press while fresh;
then reversed once, shown voided in /history, /mjadmin ledger and /balance."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import (
    ADMIN_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    GUILD_ID,
    Harness,
    offline_bot,
    option,
)

from bot.cogs import admin
from data import SettlementEntry, Store

MANAGER = 800_000_000_000_000_701
OTHER_MANAGER = 800_000_000_000_000_702
ALICE = 800_000_000_000_000_703
BOB = 800_000_000_000_000_704
USERS = {
    MANAGER: ("Manager", ADMIN_PERMISSIONS),
    OTHER_MANAGER: ("Mod", ADMIN_PERMISSIONS),
    ALICE: ("小美", DEFAULT_PERMISSIONS),
    BOB: ("Bob", DEFAULT_PERMISSIONS),
}
GAME = "ab12cd34ef56"


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with offline_bot(tmp_path, USERS, seed=701) as harness:
        store: Store = harness.bot.store  # type: ignore[attr-defined]
        await store.update_settings(GUILD_ID, hand_cap=100)
        await store.create_game(GAME, GUILD_ID, None, "jiaxing", {}, [], 1,
                                settings={"num_seats": 4, "stake": 10}, status="running")  # fmt: skip
        users = [ALICE, BOB, None, None]
        seats = [
            {"seat": seat, "name": USERS[user][0] if user else f"AI {seat}", "user_id": user,
             "is_ai": user is None, "ai_level": "normal"}
            for seat, user in enumerate(users)
        ]  # fmt: skip
        await store.update_game_meta(GAME, seats=seats)
        for number, units in enumerate(([24, -8, -8, -8], [-1, 2, -1, 0])):
            entries = [SettlementEntry(s, users[s], units[s], units[s] > 0) for s in range(4)]
            assert await store.settle_hand(GUILD_ID, GAME, number, entries, 10)
        await store.set_game_status(GAME, "finished")
        for user in USERS:
            await harness.command(user, "balance")  # names the bot has seen
        yield harness


def _store(h: Harness) -> Store:
    return h.bot.store  # type: ignore[attr-defined, no-any-return]


async def _balances(h: Harness) -> tuple[int, int]:
    return (
        await _store(h).get_balance(GUILD_ID, ALICE),
        await _store(h).get_balance(GUILD_ID, BOB),
    )


async def test_a_manager_voids_a_hand_named_as_history_shows_it(h: Harness) -> None:
    # Where the admin finds the hand: /history and /mjadmin ledger name the game and hand.
    history = h.reply_text(await h.command(MANAGER, "history", [option("user", str(ALICE), 6)]))
    assert f"`{GAME}`" in history and "第 1 局 小美 胡 **+100**" in history
    ledger = h.reply_text(await h.command(MANAGER, "mjadmin ledger", [option("kind", "hand")]))
    assert f"第 1 局 · `{GAME}`" in ledger
    before = await _balances(h)

    asked = await h.command(
        MANAGER, "mjadmin void",
        [option("game", GAME[:6]), option("hand", 1), option("reason", "故意放铳 *刷分*")],
    )  # fmt: skip
    question = h.reply_text(asked)
    assert question.splitlines()[1:3] == [
        "- 小美：**-100**（这一局入账 +100，封顶前 +240）",
        "- Bob：**+34**（这一局入账 -34，封顶前 -80）",
    ]
    assert f"作废牌局 `{GAME}` 的第 1 局？" in question and "“故意放铳 \\*刷分\\*”" in question
    assert await _balances(h) == before  # asked, not done
    message = h.ephemeral_messages(MANAGER)[-1]
    (confirm,) = message.custom_ids()
    assert confirm.startswith("mj:mv:")

    other = await h.click(OTHER_MANAGER, message, confirm)
    assert h.reply_text(other) == "这个确认按钮属于另一位管理员的命令。"
    assert await _balances(h) == before

    await h.click(MANAGER, message, confirm)
    assert not message.components
    assert message.payload["content"].startswith(f"已作废牌局 `{GAME}` 的第 1 局：小美 -100 → ")
    # Told to the channel, as an adjustment is (the reason stays with the managers).
    announced = h.channel_messages()[-1].payload["content"]
    assert announced.startswith(
        f"管理员 Manager 作废了牌局 `{GAME}` 的第 1 局，积分退回：小美 -100 → "
    )
    assert "Manager voided hand 1 of match" in announced and "刷分" not in announced
    assert await _balances(h) == (before[0] - 100, before[1] + 34)
    voids = await _store(h).guild_ledger(GUILD_ID, kinds=("void",))
    assert {(e.user_id, e.points, e.by_user, e.reason) for e in voids.entries} == {
        (ALICE, -100, MANAGER, "故意放铳 *刷分*"), (BOB, 34, MANAGER, "故意放铳 *刷分*"),
    }  # fmt: skip

    # A second void of the same hand: refused with who did it and why; nothing changes.
    again = await h.command(
        MANAGER, "mjadmin void",
        [option("game", GAME), option("hand", 1), option("reason", "again")],
    )  # fmt: skip
    assert h.reply_text(again).startswith(f"牌局 {GAME} 的第 1 局已经作废过了（Manager，<t:")
    assert await _balances(h) == (before[0] - 100, before[1] + 34)
    # The question asked before the first void, pressed after it: refused the same way.
    assert (await _store(h).guild_ledger(GUILD_ID, kinds=("void",))).total == 2

    # /history marks it and leaves it out of the total; the ledger and /balance show it.
    history = h.reply_text(await h.command(MANAGER, "history", [option("user", str(ALICE), 6)]))
    assert "第 1 局 小美 胡 ~~+100~~ 已作废" in history and "合计 -10" in history
    ledger = h.reply_text(await h.command(MANAGER, "mjadmin ledger", locale="en-US"))
    assert "**Ledger · adjustments, voids and penalties · page 1 of 1, 2 rows**" in ledger
    assert f"小美 · **-100** · hand 1 voided by Manager: “故意放铳 \\*刷分\\*” · `{GAME}`" in ledger
    only = h.reply_text(await h.command(MANAGER, "mjadmin ledger", [option("kind", "void")]))
    assert only.startswith("**账本 · 作废的对局 · 第 1/1 页，共 2 条**")
    balance = h.reply_text(await h.command(ALICE, "balance"))
    assert "作废一局，Manager 操作 · **-100**" in balance


async def test_a_question_answered_twice_voids_once(h: Harness) -> None:
    for _ in range(2):
        await h.command(MANAGER, "mjadmin void",
                        [option("game", GAME), option("hand", 2), option("reason", "bug")])  # fmt: skip
    first, second = h.ephemeral_messages(MANAGER)[-2:]
    before = await _balances(h)
    await h.click(MANAGER, first, first.custom_ids()[0])
    await h.click(MANAGER, second, second.custom_ids()[0])
    assert second.payload["content"].startswith(f"牌局 {GAME} 的第 2 局已经作废过了")
    assert await _balances(h) == (before[0] + 10, before[1] - 20)


async def test_wrong_hands_stale_questions_and_players_change_nothing(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await _balances(h)
    cases = {
        "nosuch": (1, "没有找到牌局 nosuch"),
        GAME: (3, f"牌局 {GAME} 的第 3 局没有结算过"),
    }
    for game, (hand, said) in cases.items():
        record = await h.command(MANAGER, "mjadmin void",
                                 [option("game", game), option("hand", hand),
                                  option("reason", "x")])  # fmt: skip
        assert said in h.reply_text(record), h.reply_text(record)
    record = await h.command(MANAGER, "mjadmin void",
                             [option("game", GAME), option("hand", 1), option("reason", "   ")])  # fmt: skip
    assert h.reply_text(record) == "请写明原因"
    refused = await h.command(ALICE, "mjadmin void",
                              [option("game", GAME), option("hand", 1), option("reason", "x")])  # fmt: skip
    assert "管理服务器" in h.reply_text(refused)

    now = admin._minutes
    with monkeypatch.context() as patch:  # a question asked long ago
        patch.setattr(admin, "_minutes", lambda bot: now(bot) - admin.CONFIRM_TTL - 1)
        await h.command(MANAGER, "mjadmin void",
                        [option("game", GAME), option("hand", 1), option("reason", "x")])  # fmt: skip
    old = h.ephemeral_messages(MANAGER)[-1]
    record = await h.click(MANAGER, old, old.custom_ids()[0])
    assert h.reply_text(record) == "这个确认已过期，请重新使用命令。"
    # A question from before a restart: the reason it carried is gone, so is the void.
    await h.command(MANAGER, "mjadmin void",
                    [option("game", GAME), option("hand", 1), option("reason", "x")])  # fmt: skip
    cog = h.bot.get_cog("AdminCog")
    assert isinstance(cog, admin.AdminCog)
    cog._pending_voids.clear()
    restarted = h.ephemeral_messages(MANAGER)[-1]
    record = await h.click(MANAGER, restarted, restarted.custom_ids()[0])
    assert h.reply_text(record) == "这个确认已过期，请重新使用命令。"
    assert await _balances(h) == before
    assert (await _store(h).guild_ledger(GUILD_ID, kinds=("void",))).total == 0


async def test_a_hand_of_a_match_still_played_is_not_voided(h: Harness) -> None:
    """The table's running totals (its standings, the match's end) count every hand it
    played: a void in a running match left the table saying -34 where the player's
    /history said -26. Refused, naming the way (end it first); nothing changes."""
    await _store(h).set_game_status(GAME, "running")
    before = await _balances(h)
    record = await h.command(MANAGER, "mjadmin void",
                             [option("game", GAME), option("hand", 1), option("reason", "x")])  # fmt: skip
    text = h.reply_text(record)
    assert text.startswith(f"牌局 `{GAME}` 还在进行") and "`/麻将管理 结束牌桌`" in text
    assert not h.ephemeral_messages(MANAGER)[-1].components
    assert await _balances(h) == before


async def test_the_replay_of_a_voided_hand_says_so(h: Harness) -> None:
    """/replay of a voided hand said nothing of it while /history struck it through."""
    from types import SimpleNamespace

    from bot.cogs.review import ReviewCog
    from bot.replays import LoadedHand

    await h.command(MANAGER, "mjadmin void",
                    [option("game", GAME), option("hand", 1), option("reason", "bug")])  # fmt: skip
    question = h.ephemeral_messages(MANAGER)[-1]
    await h.click(MANAGER, question, question.custom_ids()[0])
    cog = h.bot.get_cog("ReviewCog")
    assert isinstance(cog, ReviewCog)
    game = await _store(h).get_game(GAME)
    for number, voided in ((0, True), (1, False)):
        hand = SimpleNamespace(hand_number=number, steps=40)
        loaded = LoadedHand(game, hand, ())  # type: ignore[arg-type]
        zh = await cog._caption(loaded, 3, "zh-CN")
        en = await cog._caption(loaded, 3, "en-US")
        assert zh.startswith(f"牌局 {GAME} 第 {number + 1} 局 · 第 3/40 步")
        assert ("（这一局已作废，不计分）" in zh) is voided
        assert en.endswith("(this hand was voided: it counts for nothing)") is voided
