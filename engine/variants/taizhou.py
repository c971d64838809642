"""Taizhou mahjong 台州麻将 (RULES.md §2): 财神 wilds, White stands in for them, discard wins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .base import Variant
from .options import TaizhouOptions

if TYPE_CHECKING:
    from engine.types import HandResult


@dataclass(frozen=True)
class Taizhou(Variant):
    name: ClassVar[str] = "taizhou"
    name_zh: ClassVar[str] = "台州麻将"
    name_en: ClassVar[str] = "Taizhou Mahjong"
    name_zh_tw: ClassVar[str] = "台州麻將"
    options_class: ClassVar[type] = TaizhouOptions
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

    @classmethod
    def format_total(cls, result: HandResult, locale: str) -> str:
        """Total = points × 2^tai, and the limit (腊子) when it caps the product."""
        product = result.points << result.tai
        zh = locale.startswith("zh")
        if zh:
            text = f"{result.points}胡 × 2^{result.tai}台 = {product}"
        else:
            text = f"{result.points} pts × 2^{result.tai} tai = {product}"
        if product > result.total:
            text += f" → {result.total}（腊子）" if zh else f" → {result.total} (limit)"
        return text
