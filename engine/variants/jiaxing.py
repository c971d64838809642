"""Jiaxing Taitou Hu 嘉兴台头胡 (RULES.md §1): self-draw only, a 百搭 wild, three-claim liability."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Variant


@dataclass(frozen=True)
class Jiaxing(Variant):
    name: ClassVar[str] = "jiaxing"
    name_zh: ClassVar[str] = "嘉兴台头胡"
    name_en: ClassVar[str] = "Jiaxing Taitou Hu"
    wild_name_zh: ClassVar[str] = "百搭"
    wild_name_en: ClassVar[str] = "Wild"
    allowed_seats: ClassVar[tuple[int, ...]] = (4,)
    discard_wins: ClassVar[bool] = False
    has_three_claim_liability: ClassVar[bool] = True
    has_prevailing_wind: ClassVar[bool] = True
    has_carried_fan: ClassVar[bool] = True

    @property
    def dealer_stays_on_draw(self) -> bool:  # type: ignore[override]
        return self.options.dealer_on_draw == "stay"
