"""Lines a prompt needs that its headline cannot say alone: only the table knows them.

Why: ``prompt_text`` words a prompt from the player's view, which has neither the seat
names nor the table's options nor the player's shortcuts. The 三摊 choice explained
folding but not what continuing costs (that depends on ``santan_profile`` and on who is
liable); auto-discard silently skipped a drawn wild and the turn ran out its time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.words import SEAT_WINDS

from .messages import msg_each
from .presenter import SeatInfo, Text

__all__ = ["santan_note", "wild_kept_note"]


def _seat(round_: Any, seats: Sequence[SeatInfo], seat: int) -> tuple[str, str, str]:
    """(zh, en, name): the seat as the table calls it, 东家 alice / East seat alice."""
    wind = SEAT_WINDS[round_.seat_wind(seat)]
    name = seats[seat].name
    return f"{wind.zh} {name}", f"{wind.en} {name}", name


def santan_note(round_: Any, seats: Sequence[SeatInfo]) -> Text:
    """Who is liable to whom and what Continue and Fold each cost, under the table's
    three-claim payments (RULES.md §1, ``santan_profile``)."""
    zh_pairs, en_pairs, names = [], [], []
    for first, second in round_.santan_pairs:
        a_zh, a_en, a_name = _seat(round_, seats, first)
        b_zh, b_en, b_name = _seat(round_, seats, second)
        zh_pairs.append(f"{a_zh} ↔ {b_zh}")
        en_pairs.append(f"{a_en} ↔ {b_en}")
        names += [a_name, b_name]
    profile = getattr(round_.options, "santan_profile", "five_x")
    key = "hand.santan_two_x" if profile == "two_x" else "hand.santan_five_x"
    text = msg_each(key, {"pairs": "、".join(zh_pairs)}, {"pairs": "; ".join(en_pairs)})
    return text.keeping(*names)


def wild_kept_note(wild_zh: str, wild_en: str) -> Text:
    """Auto-discard leaves a drawn wild to the player: said, or the turn just waits."""
    return msg_each("hand.wild_not_auto", {"wild": wild_zh}, {"wild": wild_en})
