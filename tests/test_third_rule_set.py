"""A third rule set, defined in this file alone, plays everywhere the built-in ones do.

Issue 12: a rule set is one module. "Flat" (平胡麻将) is deliberately small: the round
deals and flips an indicator as for every rule set (so the indicator's kind is wild),
any four sets and a pair wins, by self-draw or on a discard, and a win is worth a flat
8 from each other seat. It is registered with ``engine.variants.register`` and plays a
whole match through ``Match`` with the AI, the terminal game (``mahjong-bot play`` fed
through stdin), the renderer and the Discord bot (slash command, AI seats, clicks).
Nothing outside this file names it: if any layer still compared rule-set names to
literals or kept its own list, one of these tests would fail.
"""

from __future__ import annotations

import argparse
import asyncio
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from discord_harness import DEFAULT_PERMISSIONS, choose_move, offline_bot, option

from bot.commands import play as play_command
from engine.ai import AIPlayer
from engine.match import Match
from engine.types import HandResult, Payment, ScoreItem, WinContext
from engine.variants import RULE_SETS, RuleOptions, Variant, get_rules, register, unregister
from engine.variants.base import is_chinese_locale

FLAT_SCORE = 8


@dataclass(frozen=True)
class FlatOptions(RuleOptions):
    """The options every round reads, and nothing else."""

    allow_seven_pairs: bool = False
    wild_copies: int = 3
    rounds: int = 1
    reserve_tiles: int = 0

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {"rounds": (1, 2), "reserve_tiles": (0, 20)}


@dataclass(frozen=True)
class Flat(Variant):
    name: ClassVar[str] = "flat"
    name_zh: ClassVar[str] = "平胡麻将"
    name_zh_tw: ClassVar[str] = "平胡麻將"
    name_en: ClassVar[str] = "Flat Mahjong"
    short_name_en: ClassVar[str] = "Flat"
    wild_name_zh: ClassVar[str] = "百搭"
    wild_name_en: ClassVar[str] = "Wild"
    allowed_seats: ClassVar[tuple[int, ...]] = (3, 4)
    discard_wins: ClassVar[bool] = True
    options_class: ClassVar[type[RuleOptions]] = FlatOptions
    ai_horizon: ClassVar[float] = 0.6
    ai_ready_boost: ClassVar[float] = 2.0
    rules_text_zh: ClassVar[str] = "**平胡麻将**：四副一将即胡，自摸或点炮，每家付 8。"
    rules_text_en: ClassVar[str] = "**Flat Mahjong**: any four sets and a pair wins; 8 from each."

    options: FlatOptions

    @classmethod
    def score(cls, ctx: WinContext) -> HandResult:
        winner = ctx.winner
        payments = [
            Payment(seat, winner, FLAT_SCORE) for seat in range(ctx.seats) if seat != winner
        ]
        deltas = [0] * ctx.seats
        for payment in payments:
            deltas[payment.payer] -= payment.amount
            deltas[payment.payee] += payment.amount
        return HandResult(
            variant=cls.name,
            valid=True,
            winner=winner,
            seats=ctx.seats,
            deltas=deltas,
            items=[ScoreItem("flat_win", FLAT_SCORE, "points", "平胡", "Flat win")],
            payments=payments,
            points=FLAT_SCORE,
            total=FLAT_SCORE,
            win_by=ctx.win.by,
            from_seat=ctx.win.from_seat,
            hand=ctx.players[winner],
        )

    @classmethod
    def format_total(cls, result: HandResult, locale: str) -> str:
        return f"每家 {result.total}" if is_chinese_locale(locale) else f"{result.total} each"


@pytest.fixture(autouse=True)
def flat_registered() -> Iterator[None]:
    register(Flat)
    try:
        yield
    finally:
        unregister(Flat.name)


def _play_with_ai(seed: int, seats: int = 4) -> Match:
    match = Match("flat", {"rounds": 1}, seed, seats=seats)
    players = [AIPlayer("normal", seed=f"{seed}:{seat}") for seat in range(seats)]
    moves = 0
    while not match.finished:
        seat = next(s for s in range(seats) if match.legal_actions(s))
        match.apply(players[seat].choose(match.player_view(seat)))
        moves += 1
        assert moves < 20_000
    return match


# ---------------------------------------------------------------------- the registry


def test_register_adds_the_rule_set_after_the_built_in_ones_and_unregister_removes_it() -> None:
    assert list(RULE_SETS)[-1] == "flat"
    assert get_rules("flat") is Flat
    with pytest.raises(ValueError, match="already registered"):
        register(Flat)
    unregister("flat")
    with pytest.raises(ValueError, match=r"unknown rule set 'flat' \(jiaxing, taizhou\)"):
        get_rules("flat")
    register(Flat)


def test_options_are_validated_by_the_rule_sets_own_class() -> None:
    from engine.variants import OptionError, make_options

    assert make_options("flat", {"rounds": 2}) == FlatOptions(rounds=2)
    with pytest.raises(OptionError, match="unknown option 'cap'"):
        make_options("flat", {"cap": 100})
    with pytest.raises(OptionError, match=r"rounds.*1\.\.2"):
        make_options("flat", {"rounds": 3})


# ---------------------------------------------------------------------- Match


def test_a_whole_match_through_match_with_the_ai() -> None:
    match = _play_with_ai(seed=11)
    assert match.results
    wins = [r for r in match.results if r.winner is not None]
    assert wins, "the AI won no hand in a whole match of Flat"
    for result in match.results:
        assert result.variant == "flat"
        assert sum(result.deltas) == 0
        if result.winner is not None:
            assert result.deltas[result.winner] == FLAT_SCORE * (match.num_seats - 1)
            assert result.to_json()["total"] == FLAT_SCORE
    assert match.scores == [sum(r.deltas[seat] for r in match.results) for seat in range(4)]
    # Discard wins are the rule set's to allow: at least one seed wins on a discard.
    by = {r.win_by for seed in (11, 12, 13) for r in _play_with_ai(seed).results if r.winner}
    assert "discard" in by
    # The replay (what the journal relies on) reaches the same scores.
    again = Match.from_json(match.to_json())
    assert again.scores == match.scores


# ---------------------------------------------------------------------- the terminal game


def test_a_whole_match_in_the_terminal_game(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    play_command.add_arguments(parser)  # the --variant choices come from the registry now
    db = str(tmp_path / "play.db")
    argv = ["--variant", "flat", "--seed", "3", "--db", db, "--ai-level", "easy", "--name", "Me"]
    args = parser.parse_args(argv)
    out = io.StringIO()
    code = asyncio.run(play_command.play(args, io.StringIO("\n" * 3000), out))
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert "百搭 Wild" in text  # the table header names the rule set's wild
    assert "风圈" not in text  # Flat has no prevailing wind
    assert f"每家 {FLAT_SCORE} / {FLAT_SCORE} each" in text or "流局" in text


# ---------------------------------------------------------------------- the renderer


def test_hand_table_and_result_images_render() -> None:
    from render import render_hand, render_result, render_table

    match = _play_with_ai(seed=11)
    names = ["东家", "南家", "西家", "北家"]
    live = Match("flat", None, 11)
    view = live.player_view(live.round.dealer)
    for locale in ("zh", "en"):
        for png in (
            render_hand(view, names=names, locale=locale),
            render_table(view.public, names=names, locale=locale),
        ):
            assert png.startswith(b"\x89PNG")
    # The result card of the first win, drawn over the table as it stood at the win.
    replayed = Match("flat", {"rounds": 1}, 11)
    for action in match.actions:
        before = replayed.public_view()
        replayed.apply(action)
        if replayed.results and replayed.results[-1].winner is not None:
            break
    result = replayed.results[-1]
    assert result.winner is not None
    for locale in ("zh", "en"):
        png = render_result(before, result, names=names, locale=locale, win_tile=result.win_tile)
        assert png.startswith(b"\x89PNG")


# ---------------------------------------------------------------------- Discord


async def test_a_whole_match_on_discord_with_ai_seats(tmp_path: Path) -> None:
    alice = 800_000_000_000_000_001
    async with offline_bot(tmp_path, {alice: ("alice", DEFAULT_PERMISSIONS)}, seed=5) as h:
        bot: Any = h.bot
        store = bot.store
        # The slash command offers the registered rule set (choices built with the cog).
        payload: Any = bot.tree.get_command("table")
        assert payload is not None
        create = payload.get_command("create")
        choices = {c.value for c in create._params["variant"].choices}
        assert "flat" in choices
        # ...and the rounds option says its limit among the others'.
        rounds = create._params["rounds"].description
        assert "Flat up to 2" in rounds.message and "平胡麻将最多 2 圈" in rounds.extras["zh"]
        record = await h.command(alice, "table create", [option("variant", "flat")])
        assert "平胡麻将" in h.reply_text(record)
        await h.command(alice, "table start")
        await h.advance(2)
        table = bot.manager.table_of_user(alice)
        assert table is not None and table.status == "running"
        assert table.variant == "flat"
        clicks = 0
        while table.status == "running" and clicks < 3000:
            message = h.latest_hand(alice)
            move = choose_move(message) if message is not None else None
            if move is not None:
                await h.click(alice, message, move[0], move[1])
                clicks += 1
                await h.advance(1.6)
            else:
                await h.advance(2)
        assert table.status == "finished"
        await h.advance(2)
        history = await store.history(table.guild_id, alice, limit=100)
        assert len(history) == len(table.match.results)
        balance = await store.get_balance(table.guild_id, alice)
        assert balance == 1000 + sum(entry.points for entry in history)
