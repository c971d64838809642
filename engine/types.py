"""Value types shared by the round, scoring, views and everything outside the engine.

All of them are plain, immutable and JSON-serialisable (``to_json``/``from_json``), since a
game is stored as ``(variant, options, seed, actions)`` and results go into the ledger.
Tiles are kinds (ints 0..33, see ``engine.tiles``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Generic, Literal, TypeVar

from .tiles import WHITE, format_tiles, kind_str, parse_tile, parse_tiles

if TYPE_CHECKING:
    from .variants.options import RuleOptions

# The options class of the rule set a ``WinContext`` is scored under (``JiaxingOptions``,
# ``TaizhouOptions``, ...): a scorer declares ``WinContext[JiaxingOptions]`` so its option
# reads are checked; the dispatcher (``scoring.score_hand``) picks the scorer by the same
# name the options were parsed for, which is what makes that narrowing sound.
OptionsT = TypeVar("OptionsT", bound="RuleOptions")

# Meld types. The constants are ``Final`` so the type checker reads each as its literal
# and a misspelt type string is an error, not a silently dead branch.
MeldType = Literal["chow", "pung", "kong"]
CHOW: Final = "chow"
PUNG: Final = "pung"
KONG: Final = "kong"

# Action types. Drawing is not an action: the round draws for the player whose turn
# starts, so the only randomness is the seeded wall.
ActionType = Literal["discard", "chow", "pung", "kong", "win", "pass", "continue", "fold"]
DISCARD: Final = "discard"
WIN: Final = "win"
PASS: Final = "pass"
CONTINUE: Final = "continue"  # three-claim liability: keep playing (跟)
FOLD: Final = "fold"  # three-claim liability: fold (不跟)

# Phases of a round, as ``PublicView.phase`` reports them.
Phase = Literal["turn", "claim", "rob_kong", "santan", "ended"]


@dataclass(frozen=True)
class Meld:
    """An exposed (or declared concealed) meld.

    ``tiles`` are the kinds the meld counts as. In Taizhou a White standing in for the
    wild kind inside a chow is recorded in ``white_as``: the kind it stands for (the
    physical tile is White). ``claimed`` is the kind taken from ``from_seat``'s discard
    (None for concealed kongs). ``added`` marks a kong made by adding to a pung.
    """

    type: MeldType
    tiles: tuple[int, ...]
    from_seat: int | None = None
    claimed: int | None = None
    concealed: bool = False
    added: bool = False
    white_as: int | None = None

    @property
    def kind(self) -> int:
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.type == KONG

    @property
    def faces(self) -> tuple[int, ...]:
        """The tiles as they lie on the table: a White where one stands in for the wild's
        kind. What the others have seen (live tiles, unseen counts) is faces, not kinds."""
        if self.white_as is None or self.white_as not in self.tiles:
            return self.tiles
        tiles = list(self.tiles)
        tiles.remove(self.white_as)
        return (*tiles, WHITE)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "tiles": format_tiles(self.tiles)}
        if self.from_seat is not None:
            data["from"] = self.from_seat
        if self.claimed is not None:
            data["claimed"] = kind_str(self.claimed)
        if self.concealed:
            data["concealed"] = True
        if self.added:
            data["added"] = True
        if self.white_as is not None:
            data["white_as"] = kind_str(self.white_as)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meld:
        return cls(
            type=data["type"],
            tiles=tuple(sorted(parse_tiles(data["tiles"]))),
            from_seat=data.get("from"),
            claimed=parse_tile(data["claimed"]) if data.get("claimed") else None,
            concealed=bool(data.get("concealed", False)),
            added=bool(data.get("added", False)),
            white_as=parse_tile(data["white_as"]) if data.get("white_as") else None,
        )


@dataclass(frozen=True)
class Action:
    """One move by one seat.

    - ``discard``: ``tile`` is the kind discarded.
    - ``chow``: ``tiles`` are the three kinds of the chow (the claimed one included).
    - ``pung``: claim the current discard.
    - ``kong``: with no ``tile`` during a claim window, claim the discard as an exposed
      kong; on your own turn ``tile`` names the kind for a concealed or added kong.
    - ``win``: self-draw, win on a discard or rob a kong, whatever the window offers.
    - ``pass``, ``continue``, ``fold``.
    """

    type: ActionType
    seat: int
    tile: int | None = None
    tiles: tuple[int, ...] | None = None

    def __eq__(self, other: object) -> bool:
        """The generated ``__eq__`` builds two tuples of all four fields per call; an
        action is compared with the listed legal ones before every move (once by the
        session, once by ``Round.apply``), and most differ in the tile, checked first."""
        if self is other:
            return True
        if other.__class__ is not Action:
            return NotImplemented
        assert isinstance(other, Action)
        return (
            self.tile == other.tile
            and self.type == other.type
            and self.seat == other.seat
            and self.tiles == other.tiles
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "seat": self.seat}
        if self.tile is not None:
            data["tile"] = kind_str(self.tile)
        if self.tiles is not None:
            data["tiles"] = format_tiles(self.tiles)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        return cls(
            type=data["type"],
            seat=int(data["seat"]),
            tile=parse_tile(data["tile"]) if data.get("tile") is not None else None,
            tiles=tuple(sorted(parse_tiles(data["tiles"]))) if data.get("tiles") else None,
        )

    def describe(self) -> str:
        parts: list[str] = [self.type]
        if self.tile is not None:
            parts.append(kind_str(self.tile))
        if self.tiles is not None:
            parts.append(format_tiles(self.tiles))
        return " ".join(parts)


@dataclass(frozen=True)
class WinInfo:
    """How the hand was won (golden format ``win``)."""

    tile: int
    by: str  # "self_draw" | "discard" | "rob_kong"
    from_seat: int | None = None
    kong_replacement: bool = False
    last_tile: bool = False
    first_draw: bool = False


@dataclass(frozen=True)
class PlayerHand:
    """One seat's tiles when the hand ends. The winner's ``concealed`` includes the winning tile."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()


@dataclass(frozen=True)
class WinContext(Generic[OptionsT]):
    """Everything scoring needs about a won hand: the golden-case format as a value.

    ``santan_pairs`` are unordered liable pairs (three-claim liability, Jiaxing);
    ``folded`` the seats that folded. ``claim_counts[(taker, discarder)]`` is not needed
    by scoring (the round turns it into pairs). ``discards_before`` and ``exposed_before``
    serve Taizhou's live-dragon liability (case 3): the kinds any player discarded or
    exposed before the winning discard. ``tenpai`` lists seats that were waiting when
    the winning discard was made (Taizhou liability case 3 and its exemption).
    """

    variant: str
    options: OptionsT  # the rule set's own options class (``Variant.options_class``)
    seats: int
    indicator: int
    wild: int | None
    dealer: int
    winner: int
    win: WinInfo
    players: tuple[PlayerHand, ...]
    prevailing_wind: int = 27
    carried_fan: int = 0
    dice: tuple[int, int] | None = None
    santan_pairs: tuple[tuple[int, int], ...] = ()
    folded: tuple[int, ...] = ()
    seen_before: frozenset[int] | None = None  # kinds discarded/exposed before the win
    tenpai: frozenset[int] | None = None  # seats waiting when the winning discard fell


@dataclass(frozen=True)
class ScoreItem:
    """One line of the itemised breakdown: a stable key, its value and both names.

    ``unit`` says what the value counts: "tai", "fan", "points" (胡) or "type" (a
    qualifying hand type's tai in Jiaxing, listed with unit "tai").
    """

    key: str
    value: int
    unit: str
    name_zh: str
    name_en: str
    count: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "value": self.value,
            "unit": self.unit,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "count": self.count,
        }


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int
    amount: int
    reason: str = "win"

    def to_json(self) -> dict[str, Any]:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "reason": self.reason,
        }


@dataclass
class HandResult:
    """The outcome of one hand: who won how, the itemised score and the payments.

    ``deltas`` are net changes per seat in table units and always sum to zero. A draw
    has ``winner`` None and zero deltas. Jiaxing fills ``tai``/``fan``/``score``;
    Taizhou fills ``points``/``tai``/``total``/``totals``.
    """

    variant: str
    valid: bool
    winner: int | None
    seats: int
    deltas: list[int]
    items: list[ScoreItem] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    tai: int = 0
    fan: int = 0
    score: int = 0
    points: int = 0
    total: int = 0
    totals: list[int] | None = None
    win_by: str | None = None
    from_seat: int | None = None
    reason: str = ""  # why invalid, or "exhaustive_draw"
    per_seat_items: list[list[ScoreItem]] | None = None  # Taizhou: each seat's own points
    hand: PlayerHand | None = None  # the winning hand, for display
    arrangement: list[dict[str, Any]] | None = None  # the chosen reading, for display
    carried_fan_used: int = 0  # Jiaxing: fan taken from the carried pool by this win
    win_tile: int | None = None  # the winning tile (self-draw, discard or robbed kong)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"variant": self.variant, "valid": self.valid}
        if not self.valid:
            data["reason"] = self.reason
            return data
        data.update(
            {
                "winner": self.winner,
                "deltas": list(self.deltas),
                "items": [item.to_json() for item in self.items],
                "payments": [p.to_json() for p in self.payments],
            }
        )
        if self.win_by:
            data["by"] = self.win_by
        from .variants import get_rules  # the rule set says which totals it fills

        data.update(get_rules(self.variant).result_json(self))
        if self.reason:
            data["reason"] = self.reason
        if self.arrangement is not None:
            data["arrangement"] = self.arrangement
        return data

    @classmethod
    def draw(cls, variant: str, seats: int) -> HandResult:
        return cls(
            variant=variant,
            valid=True,
            winner=None,
            seats=seats,
            deltas=[0] * seats,
            reason="exhaustive_draw",
        )
