"""``mahjong-bot simulate``: self-play many hands and print statistics.

Its first job is a soak test of the engine: whole matches are played by simple players
through the same ``Match``/``PlayerView`` API the bot uses, every exception is caught
and counted per hand, and a clean run reports ``errors: 0``. Players are pluggable: a
player is a function ``choose(view, rng) -> Action`` registered in ``PLAYERS`` under a
name, and ``--players`` names one per seat, so stronger AI levels only add entries.

The AI levels (``easy``, ``normal``, issue 6) are registered here too, and the report
then says how each seat fared: wins, mean score per hand with its 95% interval, deal-ins
(a discard or a robbed kong that another seat won on), the draw rate and how many
decisions per second the players made. ``--players normal,easy,easy,easy`` measures the
normal AI against three easy ones.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.ai import choose_action
from engine.ai_simple import flush_policy, random_policy
from engine.match import Match
from engine.types import Action
from engine.variants import RULE_SETS, default_rule_set
from engine.views import PlayerView

Player = Callable[[PlayerView, random.Random], Action]

# A hand that has not ended after this many actions is stuck: counted as an error.
MAX_ACTIONS_PER_HAND = 2000


# The simple players live in ``engine.ai_simple`` (one home for every move chooser).
random_player = random_policy
flush_player = flush_policy


def easy_ai(view: PlayerView, rng: random.Random) -> Action:
    return choose_action(view, "easy", rng)


def normal_ai(view: PlayerView, rng: random.Random) -> Action:
    return choose_action(view, "normal", rng)


def hard_ai(view: PlayerView, rng: random.Random) -> Action:
    return choose_action(view, "hard", rng)


# name -> player. Add stronger players here (e.g. AI levels) to make them selectable.
PLAYERS: dict[str, Player] = {
    "simple": flush_player,
    "random": random_player,
    "easy": easy_ai,
    "normal": normal_ai,
    "hard": hard_ai,
}


def _player_name(player: Player) -> str:
    for name, known in PLAYERS.items():
        if known is player:
            return name
    return getattr(player, "__name__", "player")


@dataclass
class SeatStats:
    """One seat's results over the run; scores are table units per finished hand."""

    player: str
    wins: int = 0
    deal_ins: int = 0
    liable: int = 0  # times this seat became liable (Taizhou 全包 payer, Jiaxing 三摊 party)
    score_sum: float = 0.0
    score_squares: float = 0.0
    hands: int = 0

    def add(self, delta: int) -> None:
        self.hands += 1
        self.score_sum += delta
        self.score_squares += delta * delta

    def to_json(self, table_wins: int) -> dict[str, Any]:
        """``table_wins``: the hands any seat won, for ``win_share``. Why both rates:
        ``win_rate`` counts draws against every seat, and Jiaxing draws a quarter of
        its hands, so a seat's share of the won hands is what compares seats across
        rule sets (issue 16's 30 % bar reads it)."""
        mean = self.score_sum / self.hands if self.hands else 0.0
        if self.hands > 1:
            variance = (self.score_squares - self.hands * mean * mean) / (self.hands - 1)
            half = 1.96 * math.sqrt(max(0.0, variance) / self.hands)
        else:
            half = 0.0
        return {
            "player": self.player,
            "wins": self.wins,
            "win_rate": round(self.wins / self.hands, 4) if self.hands else 0.0,
            "win_share": round(self.wins / table_wins, 4) if table_wins else 0.0,
            "mean_score": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "deal_ins": self.deal_ins,
            "deal_in_rate": round(self.deal_ins / self.hands, 4) if self.hands else 0.0,
            "liable": self.liable,
        }


@dataclass
class Stats:
    variant: str
    seats: int
    hands: int = 0
    wins: int = 0
    draws: int = 0
    errors: int = 0
    matches: int = 0
    actions: int = 0
    wins_by: Counter[str] = field(default_factory=Counter)
    wins_by_seat: list[int] = field(default_factory=list)
    error_samples: list[str] = field(default_factory=list)
    seconds: float = 0.0
    seat_stats: list[SeatStats] = field(default_factory=list)
    decisions: int = 0
    decision_seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        scored = self.hands - self.errors
        return {
            "variant": self.variant,
            # Per-seat results in seat order (issue 6); the table size is ``num_seats``.
            "seats": [seat.to_json(self.wins) for seat in self.seat_stats],
            "num_seats": self.seats,
            "draw_rate": round(self.draws / scored, 4) if scored else 0.0,
            "decisions": self.decisions,
            "decisions_per_second": (
                round(self.decisions / self.decision_seconds, 1) if self.decision_seconds else None
            ),
            "hands": self.hands,
            "wins": self.wins,
            "draws": self.draws,
            "errors": self.errors,
            "seconds": round(self.seconds, 3),
            "matches": self.matches,
            "actions": self.actions,
            "wins_by": dict(sorted(self.wins_by.items())),
            "wins_by_seat": self.wins_by_seat,
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "error_samples": self.error_samples,
        }


def simulate(
    variant: str,
    *,
    seats: int = 4,
    hands: int = 100,
    seed: int | str = 0,
    options: dict[str, Any] | None = None,
    players: list[Player] | None = None,
) -> Stats:
    """Play whole matches until ``hands`` hands have been played (the last match may stop
    early). An exception ends its hand and its match: it is counted, and a new match
    starts, so one engine bug cannot hide the rest of the run."""
    players = players or [flush_player] * seats
    if len(players) != seats:
        raise ValueError(f"{len(players)} players for {seats} seats")
    stats = Stats(
        variant=variant,
        seats=seats,
        wins_by_seat=[0] * seats,
        seat_stats=[SeatStats(_player_name(player)) for player in players],
    )
    rngs = [random.Random(f"simulate:{seed}:{seat}") for seat in range(seats)]
    started = time.perf_counter()
    while stats.hands < hands:
        match = Match(variant, options, f"{seed}:{stats.matches}", seats=seats)
        stats.matches += 1
        while not match.finished and stats.hands < hands:
            try:
                result, santan_pairs = _play_hand(match, players, rngs, stats)
            except Exception:  # a bug anywhere in the engine or a player
                stats.hands += 1
                stats.errors += 1
                if len(stats.error_samples) < 5:
                    stats.error_samples.append(traceback.format_exc(limit=4))
                break
            stats.hands += 1
            for seat in _liable_seats(result, santan_pairs):
                stats.seat_stats[seat].liable += 1
            for seat, delta in enumerate(result.deltas):
                stats.seat_stats[seat].add(delta)
            if result.winner is None:
                stats.draws += 1
            else:
                stats.wins += 1
                stats.wins_by[result.win_by or "?"] += 1
                stats.wins_by_seat[result.winner] += 1
                stats.seat_stats[result.winner].wins += 1
                if result.win_by in ("discard", "rob_kong") and result.from_seat is not None:
                    stats.seat_stats[result.from_seat].deal_ins += 1
    stats.seconds = time.perf_counter() - started
    return stats


def _liable_seats(result: Any, santan_pairs: set[tuple[int, int]]) -> list[int]:
    """Seats that became liable this hand, once per liability: each party of each Jiaxing
    three-claim pair, and the Taizhou 全包 payer (a ``liability`` payment)."""
    seats = [seat for pair in sorted(santan_pairs) for seat in pair]
    seats += [p.payer for p in result.payments if p.reason == "liability"]
    return seats


def _play_hand(
    match: Match, players: list[Player], rngs: list[random.Random], stats: Stats
) -> tuple[Any, set[tuple[int, int]]]:
    """Play one hand to its end: (its result, the three-claim pairs formed in it), the
    pairs read from the public views (each seat's ``liable_with``) as the hand goes."""
    hand_number = match.hand_number
    santan_pairs: set[tuple[int, int]] = set()
    for _ in range(MAX_ACTIONS_PER_HAND):
        waiting = match.round.waiting_on
        if not waiting:
            raise RuntimeError(f"nobody to act in phase {match.round.phase}")
        seat = waiting[0]
        view = match.player_view(seat)
        for seat_view in view.public.seats:
            for partner in seat_view.liable_with:
                santan_pairs.add((min(seat_view.seat, partner), max(seat_view.seat, partner)))
        started = time.perf_counter()
        action = players[seat](view, rngs[seat])
        stats.decision_seconds += time.perf_counter() - started
        stats.decisions += 1
        match.apply(action)
        stats.actions += 1
        if match.hand_number != hand_number:
            return match.results[-1], santan_pairs
    raise RuntimeError(f"hand {hand_number} did not end after {MAX_ACTIONS_PER_HAND} actions")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", choices=tuple(RULE_SETS), default=default_rule_set())
    parser.add_argument("--seats", type=int, default=4, help="4 (Taizhou also 3 or 2)")
    parser.add_argument("--hands", type=int, default=100, help="hands to play in all")
    parser.add_argument("--seed", default="0", help="makes the whole run reproducible")
    parser.add_argument(
        "--options", default=None, help="variant options as JSON, e.g. '{\"remove_suits\": 1}'"
    )
    parser.add_argument(
        "--players",
        default="simple",
        help=f"one player per seat, comma-separated, or one for all ({', '.join(PLAYERS)}); "
        "e.g. normal,easy,easy,easy",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def parse_players(text: str, seats: int) -> list[Player]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise ValueError(f"--players names {len(names)} players for {seats} seats")
    unknown = [name for name in names if name not in PLAYERS]
    if unknown:
        raise ValueError(f"unknown player {unknown[0]!r} (known: {', '.join(PLAYERS)})")
    return [PLAYERS[name] for name in names]


def run(args: argparse.Namespace) -> int:
    try:
        options = json.loads(args.options) if args.options else None
        players = parse_players(args.players, args.seats)
        stats = simulate(
            args.variant,
            seats=args.seats,
            hands=args.hands,
            seed=args.seed,
            options=options,
            players=players,
        )
    except ValueError as error:  # bad seats, options or players: a usage error
        print(f"mahjong-bot simulate: {error}", file=sys.stderr)
        return 2
    data = stats.to_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        rows = [
            ("variant 玩法", f"{stats.variant} ({stats.seats} seats)"),
            ("hands 局数", stats.hands),
            ("wins 胡牌", f"{stats.wins} {dict(stats.wins_by)}"),
            ("draws 流局", stats.draws),
            ("errors 错误", stats.errors),
            ("seconds 秒", f"{stats.seconds:.2f} ({data['hands_per_second']} hands/s)"),
            ("draw rate 流局率", f"{data['draw_rate']:.1%}"),
            ("decisions/s 决策/秒", data["decisions_per_second"]),
        ]
        for label, value in rows:
            print(f"{label:<14} {value}")
        print(
            f"{'seat 座位':<9}{'player 玩家':<12}{'wins 和':>8}{'win% 和率':>11}"
            f"{'share 占和':>11}{'mean 均分':>11}{'95% CI 区间':>22}"
            f"{'deal-ins 放铳':>15}{'liable 包牌':>12}"
        )
        for index, seat in enumerate(data["seats"]):
            low, high = seat["ci95"]
            print(
                f"{index:<9}{seat['player']:<12}{seat['wins']:>8}{seat['win_rate']:>11.1%}"
                f"{seat['win_share']:>11.1%}{seat['mean_score']:>11.2f}"
                f"{f'[{low:.2f}, {high:.2f}]':>22}{seat['deal_ins']:>15}{seat['liable']:>12}"
            )
        for sample in stats.error_samples:
            print(sample, file=sys.stderr)
    return 1 if stats.errors else 0
