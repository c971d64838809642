"""Taizhou mahjong 台州麻将 (RULES.md §2): 财神 wilds, White stands in for them, discard wins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Variant


@dataclass(frozen=True)
class Taizhou(Variant):
    name: ClassVar[str] = "taizhou"
    name_zh: ClassVar[str] = "台州麻将"
    name_en: ClassVar[str] = "Taizhou Mahjong"
    wild_name_zh: ClassVar[str] = "财神"
    wild_name_en: ClassVar[str] = "Wild"
    allowed_seats: ClassVar[tuple[int, ...]] = (2, 3, 4)
    discard_wins: ClassVar[bool] = True
    white_substitutes_wild: ClassVar[bool] = True
    last_discard_winnable: ClassVar[bool] = True

    def win_order(self, discarder: int, dealer: int, seats: int) -> list[int]:
        """``multi_win_priority``: from the dealer in play order (the seed), or after the discarder."""
        start = dealer if self.options.multi_win_priority == "from_dealer" else discarder + 1
        order = [(start + i) % seats for i in range(seats)]
        return [seat for seat in order if seat != discarder]
