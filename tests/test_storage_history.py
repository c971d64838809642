"""``Store.match_history`` / ``match_summary`` / ``find_games``: a player's matches with
their rule set, seats and each hand's winner and points, paged; games by id prefix."""

from __future__ import annotations

from pathlib import Path

from data import SettlementEntry, Store

GUILD = 1
ALICE, BOB = 11, 12


def seats(*users: int | None) -> list[dict]:
    return [
        {"seat": seat, "name": f"u{user}" if user else f"AI {seat}", "user_id": user,
         "is_ai": user is None, "ai_level": "normal"}
        for seat, user in enumerate(users)
    ]  # fmt: skip


async def played(
    store: Store, game_id: str, variant: str, users: list[int | None], winners: list[int | None]
) -> None:
    """A finished game whose hand ``n`` was won by seat ``winners[n]`` (None: a draw)."""
    await store.create_game(game_id, GUILD, None, variant, {}, [], 7,
                            settings={"num_seats": len(users), "stake": 10}, status="running")  # fmt: skip
    await store.update_game_meta(game_id, seats=seats(*users))
    for hand, winner in enumerate(winners):
        units = [0] * len(users)
        if winner is not None:
            units = [-1] * len(users)
            units[winner] = len(users) - 1
        entries = [
            SettlementEntry(seat=seat, user_id=user, units=units[seat], is_winner=seat == winner)
            for seat, user in enumerate(users)
        ]
        await store.settle_hand(GUILD, game_id, hand, entries, 10)
    await store.set_game_status(game_id, "finished")


async def test_history_lists_matches_newest_first_with_hands_and_opponents(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "h.db") as store:
        await played(store, "aaaa0001", "taizhou", [ALICE, BOB, None, None], [1, None, 0])
        await played(store, "bbbb0002", "jiaxing", [None, ALICE, None, None], [2])
        await played(store, "cccc0003", "taizhou", [BOB, None, None, None], [0])  # not Alice's
        page = await store.match_history(GUILD, ALICE)
        assert page.total == 2
        assert [m.game_id for m in page.matches] == ["bbbb0002", "aaaa0001"]
        first = page.matches[1]
        assert first.variant == "taizhou" and first.stake == 10 and first.status == "finished"
        assert [s["name"] for s in first.seats] == ["u11", "u12", "AI 2", "AI 3"]
        assert [h.winner_seat for h in first.hands] == [1, None, 0]
        assert first.hands[0].points == (-10, 30, -10, -10)
        assert first.total_for(ALICE) == -10 + 0 + 30
        assert first.seat_of(BOB) == 1 and first.seat_of(999) is None
        # Paging and the rule-set filter.
        second_page = await store.match_history(GUILD, ALICE, limit=1, offset=1)
        assert [m.game_id for m in second_page.matches] == ["aaaa0001"] and second_page.total == 2
        jiaxing = await store.match_history(GUILD, ALICE, variant="jiaxing")
        assert [m.game_id for m in jiaxing.matches] == ["bbbb0002"] and jiaxing.total == 1
        assert (await store.match_history(GUILD + 1, ALICE)).total == 0
        summary = await store.match_summary("cccc0003")
        assert summary is not None and summary.hands[0].winner_seat == 0
        assert await store.match_summary("nope") is None


async def test_games_are_found_by_a_prefix_of_their_id(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "h.db") as store:
        await played(store, "abc123", "taizhou", [ALICE, None, None, None], [0])
        await played(store, "abc999", "taizhou", [ALICE, None, None, None], [0])
        await played(store, "abc", "taizhou", [ALICE, None, None, None], [0])
        assert await store.find_games("abc1") == ["abc123"]
        assert (await store.find_games("abc"))[0] == "abc"  # the whole id first
        assert sorted(await store.find_games("abc")) == ["abc", "abc123", "abc999"]
        assert await store.find_games("zzz") == []
        assert await store.find_games("a%") == []  # never a pattern
        assert await store.find_games("") == []
