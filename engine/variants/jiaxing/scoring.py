"""Jiaxing Taitou Hu 嘉兴台头胡 scoring and payments (RULES.md §1).

Score = tai × 2^fan. The fan items do not depend on how the concealed tiles are read,
so the best reading is the one with the most tai among those that hold one of the four
qualifying hand types; a robbed kong additionally needs the robbed tile in a set.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

from ...scoring.common import (
    HONORS,
    JOKER_WIN,
    NO_WIN,
    PAIR,
    PUNG_G,
    Decomposition,
    component_plans,
    decompose,
    group_json,
    invalid_result,
    meld_group_json,
    meld_shape,
    seat_wind_of,
    seven_pairs_split,
    split_counts,
)
from ...tiles import GREEN, RED, WHITE, to_counts
from ...types import CHOW, HandResult, Payment, ScoreItem, WinContext
from .names import ITEM_NAMES

if TYPE_CHECKING:
    from . import JiaxingOptions

TYPE_TAI = {"full_flush": 4, "half_flush": 2, "all_honors": 10, "all_pungs": 2}
_DRAGON_KEYS = {RED: "red_pung", GREEN: "green_pung", WHITE: "white_pung"}

# (has_chow, honor tai keys, the decomposition that shows them)
Summary = tuple[bool, tuple[str, ...], Decomposition]


def _honor_keys(kind: int, seat_wind: int, prevailing_wind: int) -> list[str]:
    """Tai a pung or kong of ``kind`` earns on its own (dragons, seat and round wind)."""
    keys = []
    if kind in _DRAGON_KEYS:
        keys.append(_DRAGON_KEYS[kind])
    if kind == seat_wind:
        keys.append("seat_wind")
    if kind == prevailing_wind:
        keys.append("prevailing_wind")
    return keys


@lru_cache(maxsize=100_000)
def _summaries(
    suit: int,
    counts: tuple[int, ...],
    jokers: int,
    need_pair: bool,
    win: int,
    seat_wind: int,
    prevailing_wind: int,
    robbed: bool,
) -> tuple[Summary, ...]:
    """One decomposition per distinct (has chow, honor tai) of this component."""
    best: dict[tuple[bool, tuple[str, ...]], Decomposition] = {}
    for decomposition in decompose(suit, counts, jokers, need_pair, win):
        has_chow = False
        keys: list[str] = []
        refused = False
        for group_type, kinds, _, win_pos in decomposition:
            if group_type == PUNG_G:
                if suit == HONORS:
                    keys.extend(_honor_keys(kinds[0], seat_wind, prevailing_wind))
            elif group_type == PAIR:
                if robbed and win_pos >= 0:
                    refused = True  # 单吊抢杠 / pairing the robbed tile with a wild
            else:
                has_chow = True
        if refused:
            continue
        best.setdefault((has_chow, tuple(sorted(keys))), decomposition)
    return tuple((has_chow, keys, dec) for (has_chow, keys), dec in best.items())


def _hand_types(suits: set[int], honors: bool, has_chow: bool) -> list[str]:
    types = []
    if len(suits) == 1:
        types.append("half_flush" if honors else "full_flush")
    elif not suits and honors:
        types.append("all_honors")
    if not has_chow:
        types.append("all_pungs")
    return types


def _item(key: str, value: int, unit: str) -> ScoreItem:
    zh, en = ITEM_NAMES[key]
    return ScoreItem(key=key, value=value, unit=unit, name_zh=zh, name_en=en)


def _best_reading(
    ctx: WinContext[JiaxingOptions], robbed: bool
) -> tuple[bool, tuple[int, list[str], list[str], Decomposition] | None]:
    """(any winning shape at all, best (tai, type keys, honor keys, groups) or None).

    Every reading counts, a wild as a fifth copy of a kind included (RULES.md §0).
    """
    hand = ctx.players[ctx.winner]
    wild = ctx.wild
    jokers = sum(1 for tile in hand.concealed if tile == wild)
    naturals = to_counts(tile for tile in hand.concealed if tile != wild)
    parts = split_counts(naturals)
    sizes = [sum(part) for part in parts]
    win_tile = ctx.win.tile
    if win_tile == wild:
        win_suit: int | None = None
        win_code = JOKER_WIN
    else:
        win_suit = win_tile // 9
        win_code = win_tile - win_suit * 9
    seat_wind = seat_wind_of(ctx.winner, ctx.dealer, ctx.seats)
    prevailing = ctx.prevailing_wind

    meld_suits, meld_honors, meld_chow = meld_shape(hand.melds)
    meld_keys: list[str] = []
    for meld in hand.melds:
        if meld.type != CHOW:
            meld_keys.extend(_honor_keys(meld.kind, seat_wind, prevailing))

    any_shape = False
    best: tuple[int, list[str], list[str], Decomposition] | None = None
    empty: tuple[Summary, ...] = ((False, (), ()),)
    for pair_component, alloc, win_component in component_plans(sizes, jokers, win_suit):
        per_component: list[tuple[Summary, ...]] = []
        for component in range(4):
            if sizes[component] + alloc[component] == 0:
                per_component.append(empty)
                continue
            code = win_code if component == win_component else NO_WIN
            found = _summaries(
                component,
                parts[component],
                alloc[component],
                component == pair_component,
                code,
                seat_wind,
                prevailing,
                robbed,
            )
            if not found:
                break
            per_component.append(found)
        else:
            any_shape = True
            suits = meld_suits | {c for c in range(3) if sizes[c] + alloc[c]}
            honors = meld_honors or sizes[HONORS] + alloc[HONORS] > 0
            for combo in product(*per_component):
                has_chow = meld_chow or any(summary[0] for summary in combo)
                types = _hand_types(suits, honors, has_chow)
                if not types:
                    continue
                # One item per kind (seed 001: 三张以上红中，1台, "three or more Reds"):
                # wilds read as a fifth and sixth Red make a second Red pung, not a
                # second tai. Seat and prevailing wind stay two items (they stack).
                honor_keys = list(
                    dict.fromkeys(meld_keys + [key for summary in combo for key in summary[1]])
                )
                tai = sum(TYPE_TAI[key] for key in types) + len(honor_keys)
                if best is None or tai > best[0]:
                    groups = tuple(group for summary in combo for group in summary[2])
                    best = (tai, types, honor_keys, groups)
    return any_shape, best


def _seven_pairs_reading(
    ctx: WinContext[JiaxingOptions],
) -> tuple[bool, tuple[int, list[str], list[str], Decomposition] | None]:
    """Seven pairs (option ``allow_seven_pairs``): a flush or All Honors, never All Pungs.

    A robbed tile would always sit in a pair, so seven pairs can never rob a kong.
    """
    hand = ctx.players[ctx.winner]
    if not ctx.options.allow_seven_pairs or hand.melds:
        return False, None
    wild = ctx.wild
    jokers = sum(1 for tile in hand.concealed if tile == wild)
    naturals = to_counts(tile for tile in hand.concealed if tile != wild)
    split = seven_pairs_split(naturals, jokers)
    if split is None:
        return False, None
    pairs, singles, free = split
    kinds = pairs + singles
    suits = {kind // 9 for kind in kinds if kind < 27}
    honors = any(kind >= 27 for kind in kinds)
    types = _hand_types(suits, honors, has_chow=True)
    if not types:
        return True, None
    # Free joker pairs read as a kind already held, so they never spoil the flush.
    filler = kinds[0] if kinds else 27
    win_kind = ctx.win.tile
    groups: list[tuple[str, tuple[int, ...], tuple[bool, ...], int]] = []
    for kind in sorted(pairs):
        groups.append((PAIR, (kind, kind), (False, False), -1))
    for kind in sorted(singles):
        groups.append((PAIR, (kind, kind), (False, True), -1))
    groups += [(PAIR, (filler, filler), (True, True), -1)] * free
    for index, (group_type, pair_kinds, flags, _) in enumerate(groups):
        if (win_kind == wild and flags[1]) or (win_kind != wild and pair_kinds[0] == win_kind):
            groups[index] = (group_type, pair_kinds, flags, 1 if win_kind == wild else 0)
            break
    tai = sum(TYPE_TAI[key] for key in types)
    return True, (tai, types, [], tuple(groups))


def _payments(ctx: WinContext[JiaxingOptions], score: int) -> list[Payment]:
    winner = ctx.winner
    folded = set(ctx.folded)
    others = [seat for seat in range(ctx.seats) if seat != winner and seat not in folded]
    pairs = ctx.santan_pairs
    five_x = ctx.options.santan_profile == "five_x"
    if ctx.win.by == "rob_kong":
        maker = ctx.win.from_seat
        assert maker is not None
        # The kong maker alone pays: 3× without liability, else 5× per player still in.
        amount = 5 * score * len(others) if pairs else 3 * score
        return [Payment(maker, winner, amount, "rob_kong")]
    if not pairs:
        return [Payment(seat, winner, score, "win") for seat in others]
    liable = {seat for pair in pairs for seat in pair}
    partners = {b if a == winner else a for a, b in pairs if winner in (a, b)}
    payments = []
    for seat in others:
        if partners:
            multiple = 5 if seat in partners or five_x else 2
        elif seat in liable:
            multiple = 5 if five_x else 2
        else:
            multiple = 5 if five_x else 1
        payments.append(Payment(seat, winner, multiple * score, "santan"))
    return payments


def score_jiaxing(ctx: WinContext[JiaxingOptions]) -> HandResult:
    winner = ctx.winner
    hand = ctx.players[winner]
    win = ctx.win

    if win.by == "discard":
        return invalid_result(ctx, "discard_win")
    if winner in ctx.folded:
        return invalid_result(ctx, "folded")
    robbed = win.by == "rob_kong"
    any_shape, best = _best_reading(ctx, robbed)
    pairs_shape, pairs_best = _seven_pairs_reading(ctx)
    any_shape = any_shape or pairs_shape
    if pairs_best is not None and not robbed and (best is None or pairs_best[0] > best[0]):
        best = pairs_best
    if best is None:
        if robbed:
            any_shape, unrestricted = _best_reading(ctx, False)
            if unrestricted is not None or pairs_best is not None:
                return invalid_result(ctx, "rob_kong_pair_wait")
            any_shape = any_shape or pairs_shape
        return invalid_result(ctx, "no_qualifying_type" if any_shape else "not_a_winning_hand")
    tai, types, honor_keys, groups = best

    items = [_item(key, TYPE_TAI[key], "tai") for key in types]
    items += [_item(key, 1, "tai") for key in sorted(honor_keys, key=list(ITEM_NAMES).index)]
    wild = ctx.wild
    wilds_held = sum(1 for tile in hand.concealed if tile == wild)
    if wilds_held == 0 and all(wild not in meld.tiles for meld in hand.melds):
        items.append(_item("no_wilds", 1, "tai"))
        tai += 1

    self_draw = win.by == "self_draw"
    fan_keys = []
    if wilds_held >= 3:
        fan_keys.append("three_wilds")
    if self_draw and win.kong_replacement:
        fan_keys.append("kong_replacement")
    if len(hand.concealed) == 2:
        fan_keys.append("single_wait")
    if self_draw and win.last_tile:
        fan_keys.append("last_tile")
    fan = len(fan_keys)
    if win.first_draw and self_draw:
        if winner == ctx.dealer:
            fan_keys.append("heavenly_hand")
            fan += 2
        elif ctx.options.earthly_hand != "off":
            fan_keys.append("earthly_hand")
            fan += 2
    carried_used = 1 if ctx.carried_fan > 0 else 0
    if carried_used:
        fan_keys.append("carried_fan")
        fan += 1
    for key in fan_keys:
        items.append(_item(key, 2 if key in ("heavenly_hand", "earthly_hand") else 1, "fan"))

    score = tai << fan
    payments = _payments(ctx, score)
    deltas = [0] * ctx.seats
    for payment in payments:
        deltas[payment.payer] -= payment.amount
        deltas[payment.payee] += payment.amount
    arrangement = [group_json(group) for group in groups]
    arrangement += [meld_group_json(meld) for meld in hand.melds]
    return HandResult(
        variant=ctx.variant,
        valid=True,
        winner=winner,
        seats=ctx.seats,
        deltas=deltas,
        items=items,
        payments=payments,
        tai=tai,
        fan=fan,
        score=score,
        win_by=win.by,
        from_seat=win.from_seat,
        hand=hand,
        arrangement=arrangement,
        carried_fan_used=carried_used,
    )
