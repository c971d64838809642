"""``/table score``: turn a few slash-command fields into a scoring case and score it.

The case is built by ``engine.scoring.case_input`` (the engine side, shared with any
other front end) and validated by the case parser like every case ``mahjong-bot score``
reads (five copies of a tile, a meld that is not one, a hand of the wrong size); this
module only turns its errors into bilingual text and the result into a view.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Text, say
from bot.lines import item_unit, total_line
from engine.scoring import case_input, score_hand
from engine.scoring.case import CaseError, parse_case
from engine.scoring.case_input import CaseInputError
from engine.scoring.names import invalid_reason_text
from engine.types import HandResult
from engine.variants import get_rules
from engine.views import PublicView, SeatView


class CalculatorError(Exception):
    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


def _fail(zh: str, en: str) -> CalculatorError:
    return CalculatorError(Text(zh, en))


def build_case(**fields: str) -> dict[str, Any]:
    """The case for the typed fields (``engine.scoring.case_input``), errors bilingual."""
    try:
        return case_input.build_case(**fields)  # type: ignore[arg-type]
    except CaseInputError as error:
        raise _fail(error.zh, error.en) from None


def score_request(**fields: str) -> tuple[PublicView, HandResult]:
    case = build_case(**fields)
    try:
        context = parse_case(case)
    except CaseError as error:
        raise _fail(f"这手牌不成立：{error}", f"impossible hand: {error}") from None
    result = score_hand(context)
    seats = tuple(
        SeatView(
            seat=seat,
            seat_wind=27 + (seat - context.dealer) % 4,
            is_dealer=seat == context.dealer,
            concealed_count=len(hand.concealed),
            melds=hand.melds,
            discards=(),
        )
        for seat, hand in enumerate(context.players)
    )
    view = PublicView(
        variant=context.variant, num_seats=4, hand_number=0, dealer=context.dealer,
        prevailing_wind=context.prevailing_wind, round_index=0, indicator=context.indicator,
        wild=context.wild, dice=(1, 1), tiles_left=0, carried_fan=0, phase="ended",
        current_seat=None, waiting_on=(), last_discard=None, seats=seats, turn_id=0,
        result=result,
    )  # fmt: skip
    if result.hand is None:
        from dataclasses import replace

        result = replace(result, hand=context.players[context.winner])
    return view, result


def summary(result: HandResult, locale: discord.Locale | str | None) -> str:
    """The breakdown as a reply: the items, then the rule set's own formula."""
    if not result.valid:
        zh, en = invalid_reason_text(result.reason, get_rules(result.variant).wild_name_zh)
        return say(Text(f"不成胡：{zh}", f"Not a winning hand: {en}"), locale)
    zh_lines, en_lines = [], []
    for item in result.items:
        unit = item_unit(item)
        count = f" ×{item.count}" if item.count > 1 else ""
        zh_lines.append(f"· {item.name_zh}{count}: {item.value} {unit.zh}")
        en_lines.append(f"· {item.name_en}{count}: {item.value} {unit.en}")
    total = total_line(result)  # the rule set's own formula, as on the result card
    zh_lines.append(f"**合计 {total.zh}**")
    en_lines.append(f"**Total {total.en}**")
    return say(Text("\n".join(zh_lines), "\n".join(en_lines)), locale)
