"""What a rule set must say about the mechanics of a hand.

The round asks these questions and nothing else, so adding a third regional rule set is
one new file with one new subclass (its scoring lives beside the others in
``engine.scoring``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .options import OPTIONS_BY_VARIANT


@dataclass(frozen=True)
class Variant:
    name: ClassVar[str] = ""
    name_zh: ClassVar[str] = ""
    name_en: ClassVar[str] = ""
    wild_name_zh: ClassVar[str] = ""
    wild_name_en: ClassVar[str] = ""
    allowed_seats: ClassVar[tuple[int, ...]] = (4,)
    discard_wins: ClassVar[bool] = False  # may a discard be won on?
    has_three_claim_liability: ClassVar[bool] = False
    white_substitutes_wild: ClassVar[bool] = False
    has_prevailing_wind: ClassVar[bool] = False
    has_carried_fan: ClassVar[bool] = False
    last_discard_winnable: ClassVar[bool] = (
        False  # after the last draw, one more discard may be won on
    )
    dealer_stays_on_draw: ClassVar[bool] = False

    options: Any

    def reserve(self) -> int:
        return int(self.options.reserve_tiles)

    def remove_suits(self) -> int:
        return int(getattr(self.options, "remove_suits", 0))

    def win_order(self, discarder: int, dealer: int, seats: int) -> list[int]:
        """Seats in the order they get priority when several can win on one tile."""
        start = (discarder + 1) % seats
        return [(start + i) % seats for i in range(seats) if (start + i) % seats != discarder]


def variant_for(name: str, options: Any | dict[str, Any] | None = None) -> Variant:
    from .jiaxing import Jiaxing
    from .taizhou import Taizhou

    classes: dict[str, type[Variant]] = {"jiaxing": Jiaxing, "taizhou": Taizhou}
    if name not in classes:
        raise ValueError(f"unknown variant {name!r} (jiaxing or taizhou)")
    if options is None or isinstance(options, dict):
        options = OPTIONS_BY_VARIANT[name].from_dict(options)
    options.check_playable()
    return classes[name](options)
