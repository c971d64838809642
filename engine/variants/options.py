"""The shared base of every rule set's options dataclass, named exactly as in RULES.md.

Each rule set declares its own options class in its module (``engine/variants/<name>.py``)
with its ranges and defaults; this base validates an options dict the same way for all
of them (an unknown option is an error, never ignored), so scoring, the round, the CLI
and the bot all refuse the same bad input.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar


class OptionError(ValueError):
    """An unknown option name or a value outside its allowed set. The message is English
    (what a log or the CLI prints); ``zh`` says the same in Chinese for the host who set
    the table up."""

    def __init__(self, message: str, zh: str = "") -> None:
        super().__init__(message)
        self.zh = zh or message


@dataclass(frozen=True)
class RuleOptions:
    """A rule set's options class subclasses this and declares its fields.

    The round reads four options of every rule set, so each class must declare them with
    its own defaults; they are only announced here (for the type checker), not declared,
    so that each class keeps its own field order in stored options."""

    if TYPE_CHECKING:
        rounds: int  # prevailing-wind rounds (or dealer rotations) in a match
        reserve_tiles: int  # tiles left in the wall when the hand is drawn
        wild_copies: int  # 3: the indicator leaves play; 4: all four copies are wild
        allow_seven_pairs: bool

    # name -> allowed values (a tuple) or a (min, max) range for ints.
    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {}
    RANGES: ClassVar[dict[str, tuple[int, int]]] = {}
    # name -> the seat counts at which the option has any effect (absent: every count).
    SEATS_ONLY: ClassVar[dict[str, tuple[int, ...]]] = {}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RuleOptions:
        data = dict(data or {})
        names = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in names:
                known = ", ".join(sorted(names))
                raise OptionError(
                    f"unknown option {key!r} (known: {known})", f"没有选项 {key!r}（可用：{known}）"
                )
            default = getattr(cls, key, None)
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise OptionError(
                        f"option {key!r} must be true or false, got {value!r}",
                        f"选项 {key!r} 只能是 true 或 false，收到 {value!r}",
                    )
            elif isinstance(default, int):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise OptionError(
                        f"option {key!r} must be an integer, got {value!r}",
                        f"选项 {key!r} 需要整数，收到 {value!r}",
                    )
                low, high = cls.RANGES.get(key, (0, 10**6))
                if not low <= value <= high:
                    raise OptionError(
                        f"option {key!r} must be in {low}..{high}, got {value}",
                        f"选项 {key!r} 必须在 {low} 到 {high} 之间，收到 {value}",
                    )
            if key in cls.CHOICES and value not in cls.CHOICES[key]:
                allowed = ", ".join(map(str, cls.CHOICES[key]))
                raise OptionError(
                    f"option {key!r} must be one of {allowed}, got {value!r}",
                    f"选项 {key!r} 只能是 {allowed} 之一，收到 {value!r}",
                )
            kwargs[key] = value
        return cls(**kwargs)

    @classmethod
    def rounds_range(cls) -> tuple[int, int]:
        """How many rounds a table may be set to play (the slash command re-checks it)."""
        return cls.RANGES.get("rounds", (1, 1))

    @classmethod
    def applies(cls, name: str, seats: int) -> bool:
        """Whether option ``name`` has any effect at a table of ``seats`` players: the
        scoring asks it, and the rules shown to players say when it does not."""
        only = cls.SEATS_ONLY.get(name)
        return only is None or seats in only

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __post_init__(self) -> None:
        self.check_consistent()

    def check_consistent(self) -> None:
        """Constraints between options (``from_dict`` checks each value alone): run on
        every construction, so a table, the calculator and ``mahjong-bot score`` all
        refuse the same combination with the same ``OptionError``."""


if TYPE_CHECKING:
    # Provided by ``__getattr__`` below from the registry; declared for the type checker.
    VARIANTS: tuple[str, ...]


def make_options(variant: str, data: dict[str, Any] | None = None) -> RuleOptions:
    """``data`` parsed by ``variant``'s options class (``OptionError`` on bad input)."""
    from . import RULE_SETS

    if variant not in RULE_SETS:
        known = ", ".join(RULE_SETS)
        raise OptionError(
            f"unknown variant {variant!r} ({known})", f"没有玩法 {variant!r}（可用：{known}）"
        )
    return RULE_SETS[variant].options_class.from_dict(data)


def __getattr__(name: str) -> Any:
    # ``VARIANTS`` follows the registry (a rule set registered later shows up too).
    if name == "VARIANTS":
        from . import RULE_SETS

        return tuple(RULE_SETS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
