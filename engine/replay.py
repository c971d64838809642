"""One finished hand, step by step, rebuilt from the match's seed and its action log.

Why a module of its own: a hand record (牌谱) must be rebuilt exactly the way the hand
was played, so it goes through the same ``Match`` the table ran (same seeds, same
rules), never through stored pictures. Once the hand is over nothing in it is secret
any more, so every frame also carries each seat's concealed tiles and its own melds with
concealed kongs face up: the review shows every hand open.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .match import Match
from .round import TURN, Event, Round
from .tiles import from_counts
from .types import Action, HandResult, Meld
from .views import PublicView

__all__ = [
    "HandReplay",
    "ReplayError",
    "ReplayFrame",
    "RevealedSeat",
    "replay_hand",
]


class ReplayError(ValueError):
    """The hand cannot be replayed: it is not in the log, or it has not ended yet."""


@dataclass(frozen=True)
class RevealedSeat:
    """One seat's tiles, face up: what the hand record shows once the hand is over."""

    concealed: tuple[int, ...]  # sorted, without ``drawn``
    drawn: int | None  # the tile just drawn by the seat to move, shown apart
    melds: tuple[Meld, ...]  # concealed kongs with their kind visible


@dataclass(frozen=True)
class ReplayFrame:
    """The table after ``step`` actions of the hand (step 0: the deal)."""

    step: int
    public: PublicView
    hands: tuple[RevealedSeat, ...]
    action: Action | None  # the action that led here (None for the deal)
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class HandReplay:
    hand_number: int
    num_seats: int
    variant: str
    frames: tuple[ReplayFrame, ...]

    @property
    def result(self) -> HandResult | None:
        """The hand's result as the last frame shows it (None only if it never ended)."""
        return self.frames[-1].public.result

    @property
    def steps(self) -> int:
        """Actions in the hand: the last frame's index."""
        return len(self.frames) - 1


def _revealed(round_: Round) -> tuple[RevealedSeat, ...]:
    seats = []
    for seat in range(round_.num_seats):
        counts = list(round_.hands[seat])
        drawn = round_.drawn[seat] if round_.phase == TURN and round_.current_seat == seat else None
        if drawn is not None and counts[drawn] > 0:
            counts[drawn] -= 1
        else:
            drawn = None
        seats.append(RevealedSeat(tuple(from_counts(counts)), drawn, tuple(round_.melds[seat])))
    result = round_.result
    if result is not None and result.winner is not None and result.hand is not None:
        seats[result.winner] = _winning_hand(round_, result)
    return tuple(seats)


def _winning_hand(round_: Round, result: HandResult) -> RevealedSeat:
    """The winner's hand as it won, the winning tile apart: a tile won off a discard (or
    a robbed kong) never entered the winner's concealed tiles, so it comes from the
    result's hand; a self-drawn one is the tile drawn last."""
    assert result.winner is not None and result.hand is not None
    winner = result.winner
    tiles = sorted(result.hand.concealed)
    remaining = list(round_.hands[winner])
    extra = []
    for kind in tiles:
        if remaining[kind] > 0:
            remaining[kind] -= 1
        else:
            extra.append(kind)
    win_tile = extra[0] if extra else round_.drawn[winner]
    if win_tile is not None and win_tile in tiles:
        tiles.remove(win_tile)
    else:
        win_tile = None
    return RevealedSeat(tuple(tiles), win_tile, tuple(round_.melds[winner]))


def _frame(
    match: Match, round_: Round, step: int, action: Action | None, events: Iterable[Event]
) -> ReplayFrame:
    public = replace(
        round_.public_view(), round_index=match.wind_rounds_done, turn_id=len(match.actions)
    )
    result = public.result
    if result is not None:  # the last frame shows each seat's total after this hand
        seats = tuple(
            replace(seat_view, score=seat_view.score + result.deltas[index])
            for index, seat_view in enumerate(public.seats)
        )
        public = replace(public, seats=seats)
    public_events = tuple(event for event in events if "private" not in event)
    return ReplayFrame(step, public, _revealed(round_), action, public_events)


def replay_hand(
    variant: str,
    options: Any,
    seed: int | str,
    actions: Sequence[tuple[int, dict[str, Any] | Action]],
    hand_number: int,
    *,
    seats: int = 4,
) -> HandReplay:
    """Every frame of hand ``hand_number`` (0-based) of a match.

    ``actions`` are the match's logged actions in order, each with the hand it belongs to
    (the store's ``(hand_number, action)``); the hands before are replayed silently to
    reach the right dealer, winds and carried pool. Raises ``ReplayError`` if the log has
    no such hand or the hand has not ended (its record would show a live table).
    """
    if hand_number < 0:
        raise ReplayError(f"没有第 {hand_number + 1} 局 / no hand {hand_number + 1}")
    match = Match(variant, options, seed, seats=seats)
    parsed = [
        (int(number), action if isinstance(action, Action) else Action.from_json(action))
        for number, action in actions
    ]
    if not any(number == hand_number for number, _ in parsed):
        raise ReplayError(f"没有第 {hand_number + 1} 局 / no hand {hand_number + 1} in this game")
    frames: list[ReplayFrame] = []
    for number, action in parsed:
        if number > hand_number:
            break
        if number == hand_number and not frames:
            frames.append(_frame(match, match.round, 0, None, ()))
        round_ = match.round
        events = match.apply(action)
        if number == hand_number:
            frames.append(_frame(match, round_, len(frames), action, events))
            if round_.is_over:
                break
    if not frames or frames[-1].public.result is None:
        raise ReplayError(
            f"第 {hand_number + 1} 局还没结束 / hand {hand_number + 1} has not ended yet"
        )
    return HandReplay(hand_number, seats, match.variant.name, tuple(frames))
