"""What one seat may see (``PlayerView``) and what the channel sees (``PublicView``).

Everything outside the engine (renderer, AI, bot, terminal) works from these, so a
concealed tile cannot leak by accident: a ``PublicView`` holds no concealed tiles at all
and hides the kind of concealed kongs; a ``PlayerView`` adds only its own seat's tiles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from .tiles import NUM_KINDS
from .types import Action, HandResult, Meld, Phase

_View = TypeVar("_View")
_new_object = object.__new__
_MAKERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}


def maker(cls: type[_View], omit: tuple[str, ...] = ()) -> Callable[..., _View]:
    """A constructor of the frozen view class ``cls`` that takes every field by keyword
    (none left to its default) and gives an object equal in every way to ``cls(**fields)``.

    Why: the round builds a public view, a player view and a seat view or two for every
    action, at a thousand tables a second, and a frozen dataclass's ``__init__`` sets
    each field through ``object.__setattr__`` (about 1.7 µs for a seat view). This one
    is generated for the class: it stores each field through its slot's descriptor,
    in less than half the time, and the views have slots, so an object is one block
    for the collector to walk, not an object and its dictionary. Only the engine, which
    knows every field, calls this. With ``omit``, those fields are left unset (a
    subclass that fills them in later, ``engine.round``'s unbuilt seats).
    """
    made = _MAKERS.get((cls, omit))
    if made is None:
        names = [f.name for f in fields(cls) if f.name not in omit]  # type: ignore[arg-type]
        namespace: dict[str, Any] = {"_new": _new_object, "_cls": cls}
        lines = [f"def make(*, {', '.join(names)}):", "    view = _new(_cls)"]
        for name in names:
            namespace[f"_set_{name}"] = getattr(cls, name).__set__
            lines.append(f"    _set_{name}(view, {name})")
        lines.append("    return view")
        exec("\n".join(lines), namespace)  # the names are the class's own fields
        made = _MAKERS[(cls, omit)] = namespace["make"]
    return made


def built(cls: type[_View], values: dict[str, Any]) -> _View:
    """``maker(cls)`` called with a dictionary of every field."""
    return maker(cls)(**values)


@dataclass(frozen=True, slots=True)
class DiscardView:
    tile: int
    claimed: bool = False  # taken by another seat's meld (drawn greyed in the river)
    by_seat: int | None = None


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
    # What added to the carried pool as this hand started (Jiaxing's 老头黄, 包子, 百搭连庄)
    carried_fan_bonuses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
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
    # Copies of each of the 34 kinds among ``all_concealed`` (the drawn tile and the wild
    # kind's tiles included), as the round keeps them: the AI reads its hand from these
    # instead of counting the tiles again at every decision. The engine's views are made
    # with them; any other construction (a test's view, ``dataclasses.replace``) counts
    # them in ``__post_init__``, so they always describe this view's own tiles.
    counts: bytes = b""

    def __post_init__(self) -> None:
        counts = [0] * NUM_KINDS
        for kind in self.all_concealed:
            counts[kind] += 1
        object.__setattr__(self, "counts", bytes(counts))

    @property
    def all_concealed(self) -> tuple[int, ...]:
        if self.drawn is None:
            return self.concealed
        return (*self.concealed, self.drawn)
