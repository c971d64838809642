"""Taizhou 台州麻将 scoring, settlement and full liability (RULES.md §2).

Every seat scores points 胡 and tai 台; total = points × 2^tai, capped at the limit 腊子.
The winner reads its wilds and Whites (White or the wild's kind) whichever way gives the
highest total; the winning tile's place matters (closed wait, single wait, and a pung
completed by a winning discard counts as exposed), so it is part of the reading.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from typing import TYPE_CHECKING

from ...scoring.common import (
    CHOW_G,
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
from ...shapes import hand_waits, white_readings
from ...tiles import GREEN, RED, WHITE, is_terminal_or_honor, to_counts
from ...types import CHOW, KONG, PUNG, HandResult, Meld, Payment, ScoreItem, WinContext
from .names import ITEM_NAMES, TERMINAL_SET_NAMES

if TYPE_CHECKING:
    from . import TaizhouOptions

_DRAGON_TAI = {RED: "red_pung", GREEN: "green_pung", WHITE: "white_pung"}
POINT_ORDER = [
    "exposed_pung",
    "concealed_pung",
    "exposed_kong",
    "concealed_kong",
    "pair",
    "self_draw",
    "closed_wait",
    "single_wait",
    "all_pungs",
    "win_bonus",
]
TAI_ORDER = ["seat_wind", "red_pung", "green_pung", "white_pung", "full_flush", "half_flush"]

# (has_chow, tai keys, points, decomposition)
Summary = tuple[bool, tuple[str, ...], int, Decomposition]


# RULES.md §2 table: a simple set's points; a set of terminals or honors twice that.
_SIMPLE_SET_POINTS = {
    "exposed_pung": 2,
    "concealed_pung": 4,
    "exposed_kong": 8,
    "concealed_kong": 16,
}


def _set_points(kind: int, exposed: bool, kong: bool) -> tuple[str, int]:
    key = f"{'exposed' if exposed else 'concealed'}_{'kong' if kong else 'pung'}"
    value = _SIMPLE_SET_POINTS[key]
    return key, value * 2 if is_terminal_or_honor(kind) else value


def _tai_key(kind: int, seat_wind: int, white_pung_tai: bool) -> list[str]:
    keys = []
    if kind == seat_wind:
        keys.append("seat_wind")
    if kind in _DRAGON_TAI and (kind != WHITE or white_pung_tai):
        keys.append(_DRAGON_TAI[kind])
    return keys


def _pair_scores(kind: int, seat_wind: int) -> bool:
    return kind == seat_wind or kind in (RED, GREEN, WHITE)


def _group_items(
    group: tuple[str, tuple[int, ...], tuple[bool, ...], int],
    seat_wind: int,
    on_discard: bool,
    self_draw: bool,
    white_pung_tai: bool,
) -> tuple[list[tuple[str, int]], list[str]]:
    """Point items and tai keys of one concealed group of the winner."""
    group_type, kinds, _, win_pos = group
    points: list[tuple[str, int]] = []
    tai: list[str] = []
    if group_type == PUNG_G:
        # A pung the winning discard completes counts as exposed.
        points.append(_set_points(kinds[0], exposed=win_pos >= 0 and on_discard, kong=False))
        tai = _tai_key(kinds[0], seat_wind, white_pung_tai)
    elif group_type == PAIR:
        if _pair_scores(kinds[0], seat_wind):
            points.append(("pair", 2))
            if win_pos >= 0:
                points.append(("single_wait", 2))
    elif win_pos == 1:
        points.append(("closed_wait", 4 if self_draw else 2))
    return points, tai


@lru_cache(maxsize=100_000)
def _summaries(
    suit: int,
    counts: tuple[int, ...],
    jokers: int,
    need_pair: bool,
    win: int,
    seat_wind: int,
    on_discard: bool,
    self_draw: bool,
    white_pung_tai: bool,
) -> tuple[Summary, ...]:
    """The highest-point decomposition per distinct (has chow, tai keys) of a component."""
    best: dict[tuple[bool, tuple[str, ...]], tuple[int, Decomposition]] = {}
    for decomposition in decompose(suit, counts, jokers, need_pair, win):
        has_chow = False
        points = 0
        tai: list[str] = []
        for group in decomposition:
            if group[0] == CHOW_G:
                has_chow = True
            group_points, group_tai = _group_items(
                group, seat_wind, on_discard, self_draw, white_pung_tai
            )
            points += sum(value for _, value in group_points)
            tai.extend(group_tai)
        key = (has_chow, tuple(sorted(tai)))
        if key not in best or points > best[key][0]:
            best[key] = (points, decomposition)
    return tuple((key[0], key[1], points, dec) for key, (points, dec) in best.items())


def _meld_items(
    melds: tuple[Meld, ...], seat_wind: int, white_pung_tai: bool
) -> tuple[list[tuple[str, int]], list[str]]:
    points: list[tuple[str, int]] = []
    tai: list[str] = []
    for meld in melds:
        if meld.type == CHOW:
            continue
        points.append(_set_points(meld.kind, exposed=not meld.concealed, kong=meld.type == KONG))
        tai.extend(_tai_key(meld.kind, seat_wind, white_pung_tai))
    return points, tai


def _flush(suits: set[int], honors: bool) -> str | None:
    if len(suits) == 1:
        return "half_flush" if honors else "full_flush"
    return None


FLUSH_TAI = {"full_flush": 3, "half_flush": 1}


def _item(key: str, value: int, unit: str, count: int = 1) -> ScoreItem:
    zh, en = ITEM_NAMES[key]
    if key in _SIMPLE_SET_POINTS and value > _SIMPLE_SET_POINTS[key]:
        zh, en = TERMINAL_SET_NAMES[key]  # twice the simple set's points
    return ScoreItem(key=key, value=value, unit=unit, name_zh=zh, name_en=en, count=count)


def _itemise(point_items: list[tuple[str, int]], tai_keys: list[str]) -> list[ScoreItem]:
    """Group equal (key, value) lines with a count, in a stable order."""
    grouped: dict[tuple[str, int], int] = {}
    for key, value in sorted(point_items, key=lambda kv: (POINT_ORDER.index(kv[0]), kv[1])):
        grouped[(key, value)] = grouped.get((key, value), 0) + 1
    items = [_item(key, value, "points", count) for (key, value), count in grouped.items()]
    tai_grouped: dict[str, int] = {}
    for key in sorted(tai_keys, key=TAI_ORDER.index):
        tai_grouped[key] = tai_grouped.get(key, 0) + 1
    for key, count in tai_grouped.items():
        items.append(_item(key, FLUSH_TAI.get(key, 1), "tai", count))
    return items


def _cap(points: int, tai: int, cap: int) -> int:
    return min(points << tai, cap)


def _natural_counts(concealed: tuple[int, ...], wild: int | None) -> tuple[list[int], int]:
    """(natural counts, jokers) of concealed tiles."""
    jokers = sum(1 for tile in concealed if tile == wild)
    return to_counts(tile for tile in concealed if tile != wild), jokers


def _wild_white_readings(
    concealed: tuple[int, ...], wild: int | None, win_tile: int
) -> list[tuple[list[int], int, int]]:
    """(natural counts, jokers, winning tile's kind or -1 for a joker) per White reading."""
    naturals, jokers = _natural_counts(concealed, wild)
    readings_of_whites = white_readings(naturals, wild)
    win_kind = -1 if win_tile == wild else win_tile
    whites = len(readings_of_whites) - 1
    readings = []
    for as_wild, counts in enumerate(readings_of_whites):
        if win_kind == WHITE and whites:
            # The winning White may be one of those read as the wild's kind, or not.
            if as_wild < whites:
                readings.append((counts, jokers, WHITE))
            if as_wild > 0:
                assert wild is not None
                readings.append((counts, jokers, wild))
        else:
            readings.append((counts, jokers, win_kind))
    return readings


class _Best:
    """The winner's best reading so far, ordered by (total, points, tai)."""

    def __init__(self) -> None:
        self.rank: tuple[int, int, int] | None = None
        self.groups: Decomposition = ()
        self.suits: set[int] = set()
        self.honors = False
        self.seven_pairs = False


def _seven_pairs_into(
    best: _Best, ctx: WinContext[TaizhouOptions], seat_wind: int, self_draw: bool
) -> None:
    """Seven pairs (option ``allow_seven_pairs``): honor pairs, waits and flushes only."""
    hand = ctx.players[ctx.winner]

    def scores(kind: int) -> bool:
        return _pair_scores(kind, seat_wind)

    # Kinds a free pair of jokers may usefully read as: a scoring honor, or any suit.
    candidates = sorted({seat_wind, RED, GREEN, WHITE, 4, 13, 22})
    for counts, jokers, win_kind in _wild_white_readings(hand.concealed, ctx.wild, ctx.win.tile):
        split = seven_pairs_split(counts, jokers)
        if split is None:
            continue
        pairs, singles, free = split
        for free_kinds in combinations_with_replacement(candidates, free):
            groups = [(PAIR, (k, k), (False, False), -1) for k in pairs]
            groups += [(PAIR, (k, k), (False, True), -1) for k in singles]
            groups += [(PAIR, (k, k), (True, True), -1) for k in free_kinds]
            kinds = [group[1][0] for group in groups]
            suits = {kind // 9 for kind in kinds if kind < 27}
            honors = any(kind >= 27 for kind in kinds)
            flush = _flush(suits, honors)
            tai = FLUSH_TAI[flush] if flush else 0
            base_points = 10 + (2 if self_draw else 0) + sum(2 for kind in kinds if scores(kind))
            for index, (_, pair_kinds, flags, _) in enumerate(groups):
                if win_kind < 0:
                    if not flags[1]:
                        continue
                    win_pos = 1
                elif flags[0] or pair_kinds[0] != win_kind:
                    continue
                else:
                    win_pos = 0
                points = base_points + (2 if scores(pair_kinds[0]) else 0)
                rank = (_cap(points, tai, ctx.options.cap), points, tai)
                if best.rank is None or rank > best.rank:
                    chosen = list(groups)
                    chosen[index] = (PAIR, pair_kinds, flags, win_pos)
                    best.rank = rank
                    best.groups = tuple(chosen)
                    best.suits = suits
                    best.honors = honors
                    best.seven_pairs = True


def score_winner(
    ctx: WinContext[TaizhouOptions],
) -> tuple[list[ScoreItem], int, int, int, _Best] | None:
    """(items, points, tai, total, reading) of the winner, or None if no winning shape."""
    options = ctx.options
    hand = ctx.players[ctx.winner]
    seat_wind = seat_wind_of(ctx.winner, ctx.dealer, ctx.seats)
    by = ctx.win.by
    self_draw = by == "self_draw"
    on_discard = not self_draw
    white_tai = bool(options.white_pung_tai)

    meld_points, meld_tai = _meld_items(hand.melds, seat_wind, white_tai)
    meld_point_sum = sum(value for _, value in meld_points)
    meld_suits, meld_honors, meld_chow = meld_shape(hand.melds)
    fixed_points = meld_point_sum + 10 + (2 if self_draw else 0)
    cap = options.cap
    all_pungs_bonus = options.all_pungs_bonus

    best = _Best()
    empty: tuple[Summary, ...] = ((False, (), 0, ()),)
    for counts, jokers, win_kind in _wild_white_readings(hand.concealed, ctx.wild, ctx.win.tile):
        parts = split_counts(counts)
        sizes = [sum(part) for part in parts]
        if win_kind < 0:
            win_suit: int | None = None
            win_code = JOKER_WIN
        else:
            win_suit = win_kind // 9
            win_code = win_kind - win_suit * 9
        for pair_component, alloc, win_component in component_plans(sizes, jokers, win_suit):
            per_component: list[tuple[Summary, ...]] = []
            for component in range(4):
                if sizes[component] + alloc[component] == 0:
                    per_component.append(empty)
                    continue
                found = _summaries(
                    component,
                    parts[component],
                    alloc[component],
                    component == pair_component,
                    win_code if component == win_component else NO_WIN,
                    seat_wind,
                    on_discard,
                    self_draw,
                    white_tai,
                )
                if not found:
                    break
                per_component.append(found)
            else:
                suits = meld_suits | {c for c in range(3) if sizes[c] + alloc[c]}
                honors = meld_honors or sizes[HONORS] + alloc[HONORS] > 0
                flush = _flush(suits, honors)
                flush_tai = FLUSH_TAI[flush] if flush else 0
                for combo in product(*per_component):
                    has_chow = meld_chow
                    points = fixed_points
                    tai = len(meld_tai) + flush_tai
                    for summary in combo:
                        has_chow = has_chow or summary[0]
                        tai += len(summary[1])
                        points += summary[2]
                    if not has_chow:
                        points += all_pungs_bonus
                    rank = (_cap(points, tai, cap), points, tai)
                    if best.rank is None or rank > best.rank:
                        best.rank = rank
                        best.groups = tuple(g for summary in combo for g in summary[3])
                        best.suits = suits
                        best.honors = honors
    if options.allow_seven_pairs and not hand.melds:
        _seven_pairs_into(best, ctx, seat_wind, self_draw)
    if best.rank is None:
        return None

    # Recount the chosen reading item by item: the breakdown is the score.
    point_items = list(meld_points)
    tai_keys = list(meld_tai)
    has_chow = meld_chow
    for group in best.groups:
        has_chow = has_chow or group[0] == CHOW_G
        group_points, group_tai = _group_items(group, seat_wind, on_discard, self_draw, white_tai)
        point_items += group_points
        tai_keys += group_tai
    if self_draw:
        point_items.append(("self_draw", 2))
    if not has_chow and not best.seven_pairs:
        point_items.append(("all_pungs", all_pungs_bonus))
    point_items.append(("win_bonus", 10))
    flush = _flush(best.suits, best.honors)
    if flush:
        tai_keys.append(flush)
    points = sum(value for _, value in point_items)
    tai = sum(FLUSH_TAI.get(key, 1) for key in tai_keys)
    total = _cap(points, tai, cap)
    assert (total, points, tai) == best.rank, "itemised score differs from the maximised one"
    items = _itemise(point_items, tai_keys)
    if points << tai > cap:
        items.append(_item("limit", cap, "points"))
    return items, points, tai, total, best


def score_non_winner(
    ctx: WinContext[TaizhouOptions], seat: int
) -> tuple[list[ScoreItem], int, int, int]:
    """A non-winner's own points: no wilds, natural pungs and honor pairs, own melds."""
    options = ctx.options
    hand = ctx.players[seat]
    seat_wind = seat_wind_of(seat, ctx.dealer, ctx.seats)
    white_tai = bool(options.white_pung_tai)
    point_items, tai_keys = _meld_items(hand.melds, seat_wind, white_tai)
    counts = to_counts(hand.concealed)
    for kind, count in enumerate(counts):
        if count >= 3:
            point_items.append(_set_points(kind, exposed=False, kong=False))
            tai_keys.extend(_tai_key(kind, seat_wind, white_tai))
        elif count == 2 and _pair_scores(kind, seat_wind):
            point_items.append(("pair", 2))
    points = sum(value for _, value in point_items)
    tai = len(tai_keys)
    total = _cap(points, tai, options.cap)
    items = _itemise(point_items, tai_keys)
    if points << tai > options.cap:
        items.append(_item("limit", options.cap, "points"))
    return items, points, tai, total


def _hand_tai(ctx: WinContext[TaizhouOptions], seat: int) -> int:
    return score_non_winner(ctx, seat)[2]


def _waits(ctx: WinContext[TaizhouOptions], seat: int) -> list[int]:
    """``seat``'s waits by the one rule of ``engine.shapes`` (as the round reads them)."""
    hand = ctx.players[seat]
    naturals, jokers = _natural_counts(hand.concealed, ctx.wild)
    return hand_waits(
        naturals,
        jokers,
        ctx.wild,
        seven_pairs=bool(ctx.options.allow_seven_pairs) and not hand.melds,
        white_stands_in=True,
    )


def is_tenpai(ctx: WinContext[TaizhouOptions], seat: int) -> bool:
    if ctx.tenpai is not None:
        return seat in ctx.tenpai
    return bool(_waits(ctx, seat))


def waits_on_full_flush(ctx: WinContext[TaizhouOptions], seat: int) -> bool:
    """Would some tile ``seat`` waits on give a one-suit, no-honor hand?

    Jokers read in any suit, so the hand is one suit when its naturals and melds are
    (in some reading of its Whites) and it waits on a tile of that suit. A completing
    tile of another suit or an honor would pair or pung with jokers alone, and a tile of
    the flush suit does the same, so checking the waits in that suit is enough.
    """
    hand = ctx.players[seat]
    naturals, jokers = _natural_counts(hand.concealed, ctx.wild)
    meld_kinds = [kind for meld in hand.melds for kind in meld.tiles]
    seven = bool(ctx.options.allow_seven_pairs) and not hand.melds
    for reading in white_readings(naturals, ctx.wild):
        kinds = meld_kinds + [kind for kind in range(len(reading)) if reading[kind]]
        if any(kind >= 27 for kind in kinds):
            continue
        suits = {kind // 9 for kind in kinds}
        if len(suits) > 1:
            continue
        waits = hand_waits(reading, jokers, None, seven_pairs=seven)
        if any(kind < 27 and (not suits or kind // 9 in suits) for kind in waits):
            return True
    return False


def _seen_before(ctx: WinContext[TaizhouOptions]) -> frozenset[int]:
    if ctx.seen_before is not None:
        return ctx.seen_before
    return frozenset(kind for hand in ctx.players for meld in hand.melds for kind in meld.tiles)


def liable_seat(
    ctx: WinContext[TaizhouOptions], flush: str | None, flush_suits: set[int]
) -> tuple[int, int] | None:
    """(liable seat, liability case 1-3) under 全包, after the exemptions, or None."""
    if not ctx.options.applies("liability", ctx.seats) or not ctx.options.liability:
        return None
    winner = ctx.winner
    hand = ctx.players[winner]
    candidates: list[tuple[int, int]] = []
    if flush == "full_flush":
        (suit,) = flush_suits
        claimed: dict[int, int] = {}
        for meld in hand.melds:
            if meld.concealed or meld.from_seat is None or meld.kind // 9 != suit:
                continue
            claimed[meld.from_seat] = claimed.get(meld.from_seat, 0) + 1
        candidates += [(seat, 1) for seat, count in claimed.items() if count >= 3]
    tile = ctx.win.tile
    discarder = ctx.win.from_seat
    if ctx.win.by != "self_draw" and discarder is not None and tile in (WHITE, GREEN, RED):
        exposed_dragons = {
            meld.kind
            for meld in hand.melds
            if meld.type in (PUNG, KONG) and not meld.concealed and meld.kind in (WHITE, GREEN, RED)
        }
        if exposed_dragons == {WHITE, GREEN, RED} - {tile}:
            candidates.append((discarder, 2))
        elif tile not in _seen_before(ctx) and is_tenpai(ctx, discarder):
            candidates.append((discarder, 3))
    for seat, case in candidates:
        if seat == winner:
            continue
        if _hand_tai(ctx, seat) >= 3 or waits_on_full_flush(ctx, seat):
            continue
        return seat, case
    return None


def score_taizhou(ctx: WinContext[TaizhouOptions]) -> HandResult:
    options = ctx.options
    winner = ctx.winner
    hand = ctx.players[winner]
    win = ctx.win
    seats = ctx.seats

    if win.by != "self_draw" and win.tile == ctx.wild:
        return invalid_result(ctx, "wild_discard")
    scored = score_winner(ctx)
    if scored is None:
        return invalid_result(ctx, "not_a_winning_hand")
    items, points, tai, total, best = scored

    totals = [0] * seats
    per_seat_items: list[list[ScoreItem]] = [[] for _ in range(seats)]
    totals[winner] = total
    per_seat_items[winner] = items
    for seat in range(seats):
        if seat != winner:
            seat_items, _, _, seat_total = score_non_winner(ctx, seat)
            totals[seat] = seat_total
            per_seat_items[seat] = seat_items

    def share(amount: int, a: int, b: int) -> int:
        if ctx.dealer in (a, b):
            return amount
        # "up" rounds an odd half up; "exact" pays the unrounded half, which is whole
        # because every total is even once an odd ``cap`` is refused with "exact"
        # (``TaizhouOptions.check_consistent``), so both are the ceiling.
        return -(-amount // 2)

    at_limit = points << tai >= options.cap
    owed = {
        seat: options.cap if at_limit else share(total, seat, winner)
        for seat in range(seats)
        if seat != winner
    }
    payments: list[Payment] = []
    liability = liable_seat(ctx, _flush(best.suits, best.honors), best.suits)
    if liability is not None:
        payments.append(Payment(liability[0], winner, sum(owed.values()), "liability"))
    else:
        reason = "limit" if at_limit else "win"
        payments += [
            Payment(seat, winner, amount, reason) for seat, amount in owed.items() if amount
        ]
    others = [seat for seat in range(seats) if seat != winner]
    for a, b in combinations(others, 2):
        diff = totals[a] - totals[b]
        if diff:
            payer, payee = (b, a) if diff > 0 else (a, b)
            amount = share(abs(diff), a, b)
            if amount:
                payments.append(Payment(payer, payee, amount, "settlement"))
    deltas = [0] * seats
    for payment in payments:
        deltas[payment.payer] -= payment.amount
        deltas[payment.payee] += payment.amount
    white_reads = ctx.wild if ctx.wild is not None and ctx.wild != WHITE else None
    arrangement = [
        group_json(
            group,
            white_reads,
            exposed=group[0] == PUNG_G and group[3] >= 0 and win.by != "self_draw",
        )
        for group in best.groups
    ]
    arrangement += [meld_group_json(meld) for meld in hand.melds]
    return HandResult(
        variant=ctx.variant,
        valid=True,
        winner=winner,
        seats=seats,
        deltas=deltas,
        items=items,
        payments=payments,
        points=points,
        tai=tai,
        total=total,
        totals=totals,
        win_by=win.by,
        from_seat=win.from_seat,
        per_seat_items=per_seat_items,
        hand=hand,
        arrangement=arrangement,
    )
