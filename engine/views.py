"""What one seat may see (``PlayerView``) and what the channel sees (``PublicView``).

Everything outside the engine (renderer, AI, bot, terminal) works from these, so a
concealed tile cannot leak by accident: a ``PublicView`` holds no concealed tiles at all
and hides the kind of concealed kongs; a ``PlayerView`` adds only its own seat's tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from .types import Action, HandResult, Meld, Phase

_View = TypeVar("_View")
_new_object = object.__new__


def built(cls: type[_View], fields: dict[str, Any]) -> _View:
    """A frozen view from every one of its fields (none left to its default), equal in
    every way to ``cls(**fields)``.

    Why: the round builds a public view, a player view and a seat view or two for every
    action, at a thousand tables a second, and a frozen dataclass's ``__init__`` sets
    each field through ``object.__setattr__`` (about 1.5 µs for a seat view, 3 µs for a
    public view); filling the instance dictionary at once costs a fifth of that. The
    object is the same (same fields, still frozen to its consumers). Only the engine,
    which knows every field, calls this.
    """
    view = _new_object(cls)
    view.__dict__.update(fields)
    return view


@dataclass(frozen=True)
class DiscardView:
    tile: int
    claimed: bool = False  # taken by another seat's meld (drawn greyed in the river)
    by_seat: int | None = None


@dataclass(frozen=True)
class SeatView:
    """The public face of one seat."""

    seat: int
    seat_wind: int  # 27..30, relative to the dealer
    is_dealer: bool
    concealed_count: int
    melds: tuple[Meld, ...]  # concealed kongs have ``tiles == ()`` to hide their kind
    discards: tuple[DiscardView, ...]
    folded: bool = False
    score: int = 0  # match total so far, table units
    liable_with: tuple[int, ...] = ()  # Jiaxing three-claim liability partners


@dataclass(frozen=True)
class PublicView:
    variant: str
    num_seats: int
    hand_number: int  # 0-based within the match
    dealer: int
    prevailing_wind: int  # Jiaxing; Taizhou always East
    round_index: int  # completed prevailing-wind rounds (Jiaxing) or rotations (Taizhou)
    indicator: int
    wild: int | None
    dice: tuple[int, int]
    tiles_left: int  # drawable tiles before the reserve
    carried_fan: int  # Jiaxing pool; 0 in Taizhou
    phase: Phase
    current_seat: int | None  # whose turn it is (phase "turn")
    waiting_on: tuple[int, ...]  # seats that still have to answer (claim/rob/santan)
    last_discard: tuple[int, int] | None  # (seat, kind) of the discard on the table
    seats: tuple[SeatView, ...]
    turn_id: int  # increases with every accepted action; stale clicks name an old one
    result: HandResult | None = None


@dataclass(frozen=True)
class PlayerView:
    """One seat's private view: the public table plus its own concealed tiles and choices."""

    seat: int
    public: PublicView
    concealed: tuple[int, ...]  # sorted, the drawn tile excluded when ``drawn`` is set
    drawn: int | None  # the tile just drawn, shown apart
    legal: tuple[Action, ...]
    melds: tuple[Meld, ...] = ()  # own melds with concealed kongs' kinds visible
    skipped_win: tuple[int, ...] = ()  # Taizhou 过胡 lock: kinds you may not win on
    claim_tile: int | None = None  # the tile offered in a claim/rob window
    waits: tuple[int, ...] = field(default=())  # tiles that would complete the hand (if 13)

    @property
    def all_concealed(self) -> tuple[int, ...]:
        if self.drawn is None:
            return self.concealed
        return (*self.concealed, self.drawn)
