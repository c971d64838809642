"""``/table score``: turn a few slash-command fields into a scoring case and score it.

The golden case format (``engine.scoring.case``) wants the whole table; a player typing
on a phone gives only their hand. The rest is filled in plainly: the winner sits at the
wind they named (the dealer is East), and the other hands are filler tiles that cannot
form sets, so they never change the winner's score. The case parser then validates
everything (five copies of a tile, a meld that is not one, a hand of the wrong size).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Text, is_chinese
from bot.lines import item_unit, total_line
from engine.scoring import score_hand
from engine.scoring.case import CaseError, parse_case
from engine.scoring.names import INVALID_REASONS
from engine.tiles import TileError, format_tiles, kind_str, parse_tile, parse_tiles, to_counts
from engine.types import HandResult
from engine.variants import RULE_SETS
from engine.views import PublicView, SeatView

WINDS = ("1z", "2z", "3z", "4z")


class CalculatorError(Exception):
    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


def _fail(zh: str, en: str) -> CalculatorError:
    return CalculatorError(Text(zh, en))


def parse_melds(text: str) -> list[tuple[str, list[int], bool]]:
    """``555m 345p !1111z`` -> [(type, kinds, concealed)]."""
    melds = []
    for token in text.replace(",", " ").replace("，", " ").split():
        concealed = token.startswith("!")
        kinds = sorted(parse_tiles(token.lstrip("!")))
        if len(kinds) == 4 and len(set(kinds)) == 1:
            kind = "kong"
        elif len(kinds) == 3 and len(set(kinds)) == 1:
            kind = "pung"
        elif (
            len(kinds) == 3 and kinds[0] < 27 and kinds[0] // 9 == kinds[2] // 9
            and kinds[1] == kinds[0] + 1 and kinds[2] == kinds[0] + 2
        ):  # fmt: skip
            kind = "chow"
        else:
            raise _fail(
                f"{token} 不是一副牌（顺子、刻子或杠）",
                f"{token} is not a meld (chow, pung or kong)",
            )
        if concealed and kind != "kong":
            raise _fail(f"只有杠可以暗（{token}）", f"only a kong can be concealed ({token})")
        melds.append((kind, kinds, concealed))
    return melds


def _filler(available: list[int], count: int) -> list[int]:
    """``count`` tiles that form no set: one copy per kind, kinds far apart first."""
    order = [k for start in (0, 3, 6, 1, 4, 7, 2, 5, 8) for k in (start, start + 9, start + 18)]
    order += list(range(27, 34))
    picked: list[int] = []
    while len(picked) < count:
        progress = False
        for kind in order:
            if len(picked) == count:
                break
            if available[kind] > 0:
                available[kind] -= 1
                picked.append(kind)
                progress = True
        if not progress:
            raise _fail("牌不够填满其他人的手牌", "not enough tiles left to fill the other hands")
    return picked


def build_case(
    *,
    variant: str,
    hand: str,
    win_tile: str,
    indicator: str,
    melds: str,
    by: str,
    seat_wind: str,
    prevailing_wind: str,
) -> dict[str, Any]:
    if variant not in RULE_SETS:
        raise _fail(f"未知玩法 {variant!r}", f"unknown variant {variant!r}")
    if by not in ("self_draw", "discard", "rob_kong"):
        raise _fail(f"未知胡牌方式 {by!r}", f"unknown way to win {by!r}")
    if seat_wind not in WINDS or prevailing_wind not in WINDS:
        raise _fail("风位必须是东南西北之一", "winds must be East, South, West or North")
    try:
        concealed = parse_tiles(hand)
        win = parse_tile(win_tile)
        flipped = parse_tile(indicator)
        meld_list = parse_melds(melds)
    except TileError as error:
        raise _fail(f"牌写得不对：{error}", f"bad tiles: {error}") from None
    winner = WINDS.index(seat_wind)
    left = (winner + 3) % 4
    robbed = (winner + 1) % 4
    meld_dicts = []
    for kind, kinds, concealed_kong in meld_list:
        data: dict[str, Any] = {"type": kind, "tiles": format_tiles(kinds)}
        if concealed_kong:
            data["concealed"] = True
        else:
            data["from"] = left
            data["claimed"] = kind_str(kinds[0])
        meld_dicts.append(data)
    used = [*concealed, flipped] + [k for _, kinds, _ in meld_list for k in kinds]
    players: list[dict[str, Any]] = []
    robbed_pung = by == "rob_kong"
    if robbed_pung:
        used += [win, win, win]
    available = [max(0, 4 - c) for c in to_counts(used)]
    for seat in range(4):
        if seat == winner:
            players.append({"concealed": format_tiles(concealed), "melds": meld_dicts})
        elif robbed_pung and seat == robbed:
            other = {"type": "pung", "tiles": kind_str(win) * 3, "from": (seat + 2) % 4,
                     "claimed": kind_str(win)}  # fmt: skip
            players.append({"concealed": format_tiles(_filler(available, 10)), "melds": [other]})
        else:
            players.append({"concealed": format_tiles(_filler(available, 13)), "melds": []})
    case: dict[str, Any] = {
        "variant": variant,
        "seats": 4,
        "indicator": kind_str(flipped),
        "dealer": 0,
        "prevailing_wind": prevailing_wind,
        "winner": winner,
        "win": {"tile": kind_str(win), "by": by},
        "players": players,
    }
    if by != "self_draw":
        case["win"]["from"] = robbed if by == "rob_kong" else left
    return case


def score_request(**fields: str) -> tuple[PublicView, HandResult]:
    case = build_case(**fields)  # type: ignore[arg-type]
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
    zh = is_chinese(locale)
    if not result.valid:
        reason = INVALID_REASONS.get(result.reason, (result.reason, result.reason))
        return ("不成胡：" if zh else "Not a winning hand: ") + (reason[0] if zh else reason[1])
    lines = []
    for item in result.items:
        unit = item_unit(item)
        name = item.name_zh if zh else item.name_en
        count = f" ×{item.count}" if item.count > 1 else ""
        lines.append(f"· {name}{count}: {item.value} {unit.zh if zh else unit.en}")
    total = total_line(result)  # the rule set's own formula, as on the result card
    lines.append(f"**合计 {total.zh}**" if zh else f"**Total {total.en}**")
    return "\n".join(lines)
