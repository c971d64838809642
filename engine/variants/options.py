"""Option dataclasses for each rule set, named exactly as in RULES.md.

They live apart from the variant logic so that scoring, the round and the CLI can all
validate an options dict the same way (an unknown option is an error, never ignored).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar


class OptionError(ValueError):
    """An unknown option name or a value outside its allowed set."""


@dataclass(frozen=True)
class _Options:
    # name -> allowed values (a tuple) or a (min, max) range for ints.
    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {}
    RANGES: ClassVar[dict[str, tuple[int, int]]] = {}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> _Options:
        data = dict(data or {})
        names = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in names:
                known = ", ".join(sorted(names))
                raise OptionError(f"unknown option {key!r} (known: {known})")
            default = getattr(cls, key, None)
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise OptionError(f"option {key!r} must be true or false, got {value!r}")
            elif isinstance(default, int):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise OptionError(f"option {key!r} must be an integer, got {value!r}")
                low, high = cls.RANGES.get(key, (0, 10**6))
                if not low <= value <= high:
                    raise OptionError(f"option {key!r} must be in {low}..{high}, got {value}")
            if key in cls.CHOICES and value not in cls.CHOICES[key]:
                allowed = ", ".join(map(str, cls.CHOICES[key]))
                raise OptionError(f"option {key!r} must be one of {allowed}, got {value!r}")
            kwargs[key] = value
        return cls(**kwargs)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def check_playable(self) -> None:
        """Constraints a table must meet beyond scoring a single hand; ``OptionError``."""


@dataclass(frozen=True)
class JiaxingOptions(_Options):
    """嘉兴台头胡 options (RULES.md §0, §1)."""

    allow_seven_pairs: bool = False
    wild_copies: int = 3
    santan_profile: str = "five_x"
    earthly_hand: str = "first_draw"
    dealer_on_draw: str = "rotate"
    rounds: int = 1
    reserve_tiles: int = 0
    flee_penalty: int = 32

    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {
        "wild_copies": (3, 4),
        "santan_profile": ("five_x", "two_x"),
        "earthly_hand": ("first_draw", "off"),
        "dealer_on_draw": ("rotate", "stay"),
    }
    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "rounds": (1, 4),
        "reserve_tiles": (0, 40),
        "flee_penalty": (0, 10000),
    }


@dataclass(frozen=True)
class TaizhouOptions(_Options):
    """台州麻将 options (RULES.md §0, §2)."""

    allow_seven_pairs: bool = False
    wild_copies: int = 3
    remove_suits: int = 0
    multi_win_priority: str = "from_dealer"
    all_pungs_bonus: int = 4
    white_pung_tai: bool = False
    cap: int = 100
    half_rounding: str = "up"
    liability: bool = True
    rounds: int = 1
    reserve_tiles: int = 16

    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {
        "wild_copies": (3, 4),
        "remove_suits": (0, 1, 2),
        "multi_win_priority": ("from_dealer", "after_discarder"),
        "all_pungs_bonus": (2, 4),
        "half_rounding": ("up", "exact"),
    }

    def check_playable(self) -> None:
        # Every Taizhou total below the limit is even, so only an odd limit makes an exact
        # half fractional; the calculator shows it, but the ledger books whole units.
        if self.half_rounding == "exact" and self.cap % 2:
            raise OptionError(
                f"option 'cap' must be even with half_rounding 'exact' (got {self.cap}): "
                "half of an odd limit is not a whole unit"
            )

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "cap": (1, 100000),
        "rounds": (1, 8),
        "reserve_tiles": (0, 60),
    }


OPTIONS_BY_VARIANT: dict[str, type[_Options]] = {
    "jiaxing": JiaxingOptions,
    "taizhou": TaizhouOptions,
}

VARIANTS = tuple(OPTIONS_BY_VARIANT)


def make_options(variant: str, data: dict[str, Any] | None = None) -> _Options:
    if variant not in OPTIONS_BY_VARIANT:
        raise OptionError(f"unknown variant {variant!r} (jiaxing or taizhou)")
    return OPTIONS_BY_VARIANT[variant].from_dict(data)
