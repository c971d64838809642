"""Properties of scoring over random tables, and exactness against a brute force.

The random tables are legal by construction (a pool of 136 tiles, wilds only where a
wild may be, melds claimed from the right seats), so every one must parse. The brute
force is a second, deliberately naive scorer: it tries every kind for every wild and
every White reading, every decomposition and every place for the winning tile, and
must agree with ``score_hand``'s maximum.
"""

from __future__ import annotations

import json
import random
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.scoring import score_hand
from engine.scoring.case import CaseError, parse_case, result_to_case_json
from engine.shapes import is_win_counts, is_win_reading
from engine.tiles import GREEN, RED, WHITE, is_terminal_or_honor, kind_str, to_counts
from engine.types import CHOW, KONG, PUNG, WinContext

PROPERTY_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def _take(pool: list[int], kinds: list[int]) -> bool:
    need = to_counts(kinds)
    if any(pool[kind] < count for kind, count in enumerate(need)):
        return False
    for kind in kinds:
        pool[kind] -= 1
    return True


def _tiles(kind: int, copies: int) -> str:
    return kind_str(kind)[0] * copies + kind_str(kind)[1]


def random_case(seed: int, variant: str, max_wilds: int = 3) -> dict[str, Any]:
    """A legal table at the moment of a win (the win itself may be illegal in Jiaxing)."""
    rng = random.Random(seed)
    seats = 4 if variant == "jiaxing" else rng.choice((2, 3, 4, 4))
    options: dict[str, Any] = {}
    if variant == "taizhou":
        cap = rng.choice((100, 100, 75, 41))
        rounding = rng.choice(("up", "exact"))
        options = {
            "cap": cap,
            # Exact halves of an odd limit are refused (test_deltas_are_whole_units...).
            "half_rounding": "up" if cap % 2 else rounding,
            "white_pung_tai": rng.random() < 0.3,
            "all_pungs_bonus": rng.choice((2, 4)),
            "liability": rng.random() < 0.8,
        }
    else:
        options = {"santan_profile": rng.choice(("five_x", "two_x"))}
    indicator = rng.randrange(34)
    wild = indicator
    pool = [4] * 34
    pool[indicator] -= 1
    winner = rng.randrange(seats)
    suits = [rng.randrange(3)] if rng.random() < 0.6 else rng.sample(range(3), 2)
    honors_weight = rng.choice((0.0, 0.3, 0.6))
    concealed: list[int] = []
    melds: list[dict[str, Any]] = []
    sets = 0
    attempts = 0
    while sets < 4 and attempts < 200:
        attempts += 1
        if rng.random() < honors_weight:
            kinds = [rng.randrange(27, 34)] * 3
        elif rng.random() < 0.55:
            start = rng.choice(suits) * 9 + rng.randrange(7)
            kinds = [start, start + 1, start + 2]
        else:
            kinds = [rng.choice(suits) * 9 + rng.randrange(9)] * 3
        if not _take(pool, kinds):
            continue
        sets += 1
        if wild not in kinds and rng.random() < 0.25:
            others = [seat for seat in range(seats) if seat != winner]
            if kinds[0] == kinds[1]:
                if rng.random() < 0.3 and _take(pool, [kinds[0]]):
                    if rng.random() < 0.5:
                        melds.append(
                            {"type": "kong", "tiles": _tiles(kinds[0], 4), "concealed": True}
                        )
                    else:
                        melds.append(
                            {
                                "type": "kong",
                                "tiles": _tiles(kinds[0], 4),
                                "from": rng.choice(others),
                            }
                        )
                else:
                    melds.append(
                        {"type": "pung", "tiles": _tiles(kinds[0], 3), "from": rng.choice(others)}
                    )
            else:
                melds.append(
                    {
                        "type": "chow",
                        "tiles": "".join(map(kind_str, kinds)),
                        "from": (winner - 1) % seats,
                    }
                )
        else:
            concealed.extend(kinds)
    if sets < 4:
        return random_case(seed + 7919, variant, max_wilds)
    pair_choices = [k for k in range(34) if pool[k] >= 2 and (k >= 27 or k // 9 in suits)]
    pair = rng.choice(pair_choices)
    _take(pool, [pair, pair])
    concealed += [pair, pair]
    # Natural tiles of the wild kind cannot exist (all copies are wild): they become
    # wilds, or in Taizhou a White standing in for them.
    for index, kind in enumerate(concealed):
        if (
            kind == wild
            and variant == "taizhou"
            and wild != WHITE
            and pool[WHITE]
            and rng.random() < 0.5
        ):
            pool[WHITE] -= 1
            pool[wild] += 1
            concealed[index] = WHITE
    wanted = rng.randrange(max_wilds + 1)
    rng.shuffle(concealed)
    for index in range(len(concealed)):
        if sum(1 for kind in concealed if kind == wild) >= wanted:
            break
        if concealed[index] != wild and pool[wild] > 0:
            pool[concealed[index]] += 1
            pool[wild] -= 1
            concealed[index] = wild
    if sum(1 for kind in concealed if kind == wild) > max_wilds:
        return random_case(seed + 104729, variant, max_wilds)
    win_tile = rng.choice(concealed)
    # Sometimes a robbed kong: the robbed tile is the winner's only copy, and another
    # seat holds an exposed pung of it (the other three copies).
    robbable = [
        kind
        for kind in set(concealed)
        if kind != wild and concealed.count(kind) == 1 and pool[kind] >= 3
    ]
    maker = None
    if robbable and rng.random() < 0.3:
        win_tile = rng.choice(sorted(robbable))
        maker = rng.choice([seat for seat in range(seats) if seat != winner])
        _take(pool, [win_tile] * 3)
    wall = [kind for kind in range(34) for _ in range(pool[kind])]
    rng.shuffle(wall)
    players: list[dict[str, Any]] = []
    for seat in range(seats):
        if seat == winner:
            players.append({"concealed": "".join(kind_str(k) for k in concealed), "melds": melds})
        elif seat == maker:
            hand = wall[:10]
            del wall[:10]
            source = rng.choice([s for s in range(seats) if s != maker])
            players.append(
                {
                    "concealed": "".join(kind_str(k) for k in hand),
                    "melds": [{"type": "pung", "tiles": _tiles(win_tile, 3), "from": source}],
                }
            )
        else:
            hand = wall[:13]
            del wall[:13]
            players.append({"concealed": "".join(kind_str(k) for k in hand), "melds": []})
    by = "self_draw"
    if maker is not None:
        by = "rob_kong"
    elif variant == "taizhou" and win_tile != wild and rng.random() < 0.5:
        by = "discard"
    win: dict[str, Any] = {"tile": kind_str(win_tile), "by": by}
    if by == "discard":
        win["from"] = rng.choice([seat for seat in range(seats) if seat != winner])
    if by == "rob_kong":
        win["from"] = maker
    case: dict[str, Any] = {
        "name": f"random-{variant}-{seed}",
        "variant": variant,
        "options": options,
        "seats": seats,
        "indicator": kind_str(indicator),
        "dealer": rng.randrange(seats),
        "winner": winner,
        "win": win,
        "players": players,
    }
    if variant == "jiaxing":
        case["prevailing_wind"] = kind_str(rng.randrange(27, 31))
        case["carried_fan"] = rng.choice((0, 0, 1, 2))
        if rng.random() < 0.4:
            a, b = rng.sample(range(4), 2)
            rest = [seat for seat in range(4) if seat not in (a, b, winner)]
            folded = [seat for seat in rest if rng.random() < 0.4]
            case["santan"] = {"pairs": [[a, b]], "folded": folded}
    return case


seeds = st.integers(min_value=0, max_value=10**9)


@PROPERTY_SETTINGS
@given(seed=seeds, variant=st.sampled_from(["jiaxing", "taizhou"]))
def test_deltas_sum_to_zero(seed: int, variant: str) -> None:
    result = score_hand(parse_case(random_case(seed, variant)))
    assert sum(result.deltas) == 0
    assert len(result.deltas) == result.seats
    assert all(type(delta) is int for delta in result.deltas)
    assert all(type(payment.amount) is int for payment in result.payments)
    if not result.valid:
        assert result.deltas == [0] * result.seats
    else:
        deltas = [0] * result.seats
        for payment in result.payments:
            assert payment.amount > 0
            deltas[payment.payer] -= payment.amount
            deltas[payment.payee] += payment.amount
        assert deltas == result.deltas


@PROPERTY_SETTINGS
@given(
    seed=seeds,
    cap=st.integers(min_value=1, max_value=300),
    rounding=st.sampled_from(["up", "exact"]),
)
def test_deltas_are_whole_units_for_any_cap_and_rounding(
    seed: int, cap: int, rounding: str
) -> None:
    """Points are whole units: every delta and payment is an int, and the one combination
    that would pay a half unit (exact halves of an odd limit) is refused up front."""
    case = random_case(seed, "taizhou")
    case["options"].update(cap=cap, half_rounding=rounding)
    if rounding == "exact" and cap % 2:
        with pytest.raises(CaseError, match="'cap' must be even with half_rounding 'exact'"):
            parse_case(case)
        return
    result = score_hand(parse_case(case))
    assert all(type(delta) is int for delta in result.deltas)
    assert all(type(payment.amount) is int for payment in result.payments)
    assert sum(result.deltas) == 0


@PROPERTY_SETTINGS
@given(seed=seeds)
def test_taizhou_totals_never_exceed_the_limit(seed: int) -> None:
    case = random_case(seed, "taizhou")
    result = score_hand(parse_case(case))
    assert result.valid
    cap = case["options"]["cap"]
    assert result.totals is not None
    assert all(0 <= total <= cap for total in result.totals)
    assert result.total == min(result.points << result.tai, cap)
    # Nobody pays the winner more than the limit (the dealer's full share at most).
    winner = result.winner
    for payment in result.payments:
        if payment.payee == winner and payment.reason in ("win", "limit"):
            assert payment.amount <= cap


@PROPERTY_SETTINGS
@given(seed=seeds, variant=st.sampled_from(["jiaxing", "taizhou"]), order_seed=st.integers(0, 1000))
def test_scoring_is_invariant_to_tile_order(seed: int, variant: str, order_seed: int) -> None:
    case = random_case(seed, variant)
    shuffled = json.loads(json.dumps(case))
    rng = random.Random(order_seed)
    for player in shuffled["players"]:
        tiles = [player["concealed"][i : i + 2] for i in range(0, len(player["concealed"]), 2)]
        rng.shuffle(tiles)
        player["concealed"] = " ".join(tiles)
    original = result_to_case_json(score_hand(parse_case(case)))
    reordered = result_to_case_json(score_hand(parse_case(shuffled)))
    assert original == reordered


@PROPERTY_SETTINGS
@given(seed=seeds)
def test_jiaxing_winning_shape_agrees_with_engine_shapes(seed: int) -> None:
    ctx = parse_case(random_case(seed, "jiaxing"))
    hand = ctx.players[ctx.winner]
    jokers = sum(1 for tile in hand.concealed if tile == ctx.wild)
    counts = to_counts(tile for tile in hand.concealed if tile != ctx.wild)
    result = score_hand(ctx)
    assert (result.reason != "not_a_winning_hand") == is_win_counts(counts, jokers)


@PROPERTY_SETTINGS
@given(seed=seeds)
def test_taizhou_scoring_accepts_exactly_the_readings_legality_accepts(seed: int) -> None:
    """The round offers a win when ``shapes.is_win_reading`` says so (wilds as anything,
    Whites either way); scoring must accept exactly those hands (RULES.md §0)."""
    ctx = parse_case(random_case(seed, "taizhou"))
    if ctx.win.by != "self_draw" and ctx.win.tile == ctx.wild:
        return  # a discarded wild is never won on, whatever the shape
    hand = ctx.players[ctx.winner]
    jokers = sum(1 for tile in hand.concealed if tile == ctx.wild)
    counts = to_counts(tile for tile in hand.concealed if tile != ctx.wild)
    legal = is_win_reading(counts, jokers, ctx.wild, white_stands_in=True)
    assert score_hand(ctx).valid == legal


# --- brute force ------------------------------------------------------------------------------


def _decompositions(counts: list[int], pair_needed: bool = True) -> list[list[tuple[str, int]]]:
    """Every split of natural counts into (type, kind) groups; chow kind = its lowest."""
    first = next((k for k in range(34) if counts[k]), None)
    if first is None:
        return [[]] if not pair_needed else []
    found: list[list[tuple[str, int]]] = []
    if pair_needed and counts[first] >= 2:
        counts[first] -= 2
        found += [[("pair", first), *rest] for rest in _decompositions(counts, False)]
        counts[first] += 2
    if counts[first] >= 3:
        counts[first] -= 3
        found += [[("pung", first), *rest] for rest in _decompositions(counts, pair_needed)]
        counts[first] += 3
    if first < 27 and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for kind in (first, first + 1, first + 2):
            counts[kind] -= 1
        found += [[("chow", first), *rest] for rest in _decompositions(counts, pair_needed)]
        for kind in (first, first + 1, first + 2):
            counts[kind] += 1
    return found


def _group_has(group: tuple[str, int], kind: int) -> bool:
    group_type, base = group
    if group_type == "chow":
        return base <= kind <= base + 2
    return base == kind


def brute_jiaxing(ctx: WinContext) -> int | None:
    """The most tai of any qualifying reading (robbed tile in a set), or None.

    A wild reads as any kind, a fifth copy included (RULES.md §0).
    """
    return _brute_jiaxing(ctx)[1]


def _brute_jiaxing(ctx: WinContext) -> tuple[bool, int | None]:
    hand = ctx.players[ctx.winner]
    wild = ctx.wild
    jokers = [tile for tile in hand.concealed if tile == wild]
    naturals = [tile for tile in hand.concealed if tile != wild]
    seat_wind = 27 + (ctx.winner - ctx.dealer) % ctx.seats
    best = None
    shape = False
    for reading in product(range(34), repeat=len(jokers)):
        counts = to_counts(naturals + list(reading))
        win_kind = reading[0] if ctx.win.tile == wild else ctx.win.tile
        kinds = set(naturals) | set(reading) | {k for m in hand.melds for k in m.tiles}
        suits = {k // 9 for k in kinds if k < 27}
        honors = any(k >= 27 for k in kinds)
        for dec in _decompositions(list(counts)):
            shape = True
            if ctx.win.by == "rob_kong" and not any(
                g[0] != "pair" and _group_has(g, win_kind) for g in dec
            ):
                continue
            has_chow = any(g[0] == "chow" for g in dec) or any(m.type == CHOW for m in hand.melds)
            tai = 0
            if len(suits) == 1:
                tai += 2 if honors else 4
            elif not suits:
                tai += 10
            if not has_chow:
                tai += 2
            if tai == 0:
                continue
            pung_kinds = [g[1] for g in dec if g[0] == "pung"]
            pung_kinds += [m.kind for m in hand.melds if m.type in (PUNG, KONG)]
            for kind in pung_kinds:
                tai += (
                    (kind in (RED, GREEN, WHITE))
                    + (kind == seat_wind)
                    + (kind == ctx.prevailing_wind)
                )
            if not jokers:
                tai += 1
            best = tai if best is None else max(best, tai)
    return shape, best


def brute_taizhou(ctx: WinContext) -> tuple[int, int, int] | None:
    """The best (total, points, tai) of the winner over every reading (a wild as any
    kind, a fifth copy included), or None."""
    return _brute_taizhou(ctx)


def _brute_taizhou(ctx: WinContext) -> tuple[int, int, int] | None:
    options = ctx.options
    hand = ctx.players[ctx.winner]
    wild = ctx.wild
    seat_wind = 27 + (ctx.winner - ctx.dealer) % ctx.seats
    self_draw = ctx.win.by == "self_draw"
    jokers = [tile for tile in hand.concealed if tile == wild]
    whites = [tile for tile in hand.concealed if tile == WHITE] if wild != WHITE else []
    rest = [
        tile for tile in hand.concealed if tile != wild and not (tile == WHITE and wild != WHITE)
    ]

    def tai_of(kind: int) -> int:
        return (
            (kind == seat_wind)
            + (kind in (RED, GREEN))
            + (kind == WHITE and options.white_pung_tai)
        )

    meld_points = 0
    meld_tai = 0
    for meld in hand.melds:
        if meld.type == CHOW:
            continue
        value = (2 if not meld.concealed else 4) * (4 if meld.type == KONG else 1)
        meld_points += value * (2 if is_terminal_or_honor(meld.kind) else 1)
        meld_tai += tai_of(meld.kind)
    best = None
    for white_reading in product((WHITE, wild), repeat=len(whites)):
        for reading in product(range(34), repeat=len(jokers)):
            tiles = rest + list(white_reading) + list(reading)
            counts = to_counts(tiles)
            if ctx.win.tile == wild:
                win_kind = reading[0]
            elif ctx.win.tile == WHITE and wild != WHITE:
                win_kind = white_reading[0]
            else:
                win_kind = ctx.win.tile
            kinds = set(tiles) | {k for m in hand.melds for k in m.tiles}
            suits = {k // 9 for k in kinds if k < 27}
            honors = any(k >= 27 for k in kinds)
            flush_tai = (1 if honors else 3) if len(suits) == 1 else 0
            for dec in _decompositions(list(counts)):
                for win_index, win_group in enumerate(dec):
                    if not _group_has(win_group, win_kind):
                        continue
                    points = meld_points + 10 + (2 if self_draw else 0)
                    tai = meld_tai + flush_tai
                    has_chow = any(m.type == CHOW for m in hand.melds)
                    for index, (group_type, kind) in enumerate(dec):
                        is_win = index == win_index
                        if group_type == "pung":
                            exposed = is_win and not self_draw
                            value = 2 if exposed else 4
                            points += value * (2 if is_terminal_or_honor(kind) else 1)
                            tai += tai_of(kind)
                        elif group_type == "pair":
                            if kind == seat_wind or kind in (RED, GREEN, WHITE):
                                points += 2 + (2 if is_win else 0)
                        else:
                            has_chow = True
                            if is_win and win_kind == kind + 1:
                                points += 4 if self_draw else 2
                    if not has_chow:
                        points += options.all_pungs_bonus
                    rank = (min(points << tai, options.cap), points, tai)
                    best = rank if best is None else max(best, rank)
    return best


def _brute_corpus(variant: str, count: int) -> list[WinContext]:
    corpus = []
    seed = 0
    while len(corpus) < count:
        seed += 1
        ctx = parse_case(random_case(seed * 7 + (variant == "taizhou"), variant, max_wilds=2))
        corpus.append(ctx)
    return corpus


def test_jiaxing_maximum_matches_brute_force() -> None:
    checked_with_wilds = 0
    corpus = _brute_corpus("jiaxing", 60)
    assert sum(ctx.win.by == "rob_kong" for ctx in corpus) >= 5
    for ctx in corpus:
        result = score_hand(ctx)
        expected = brute_jiaxing(ctx)
        if expected is None:
            assert not result.valid, ctx
            continue
        assert result.valid
        assert result.tai == expected, ctx
        checked_with_wilds += any(tile == ctx.wild for tile in ctx.players[ctx.winner].concealed)
    assert checked_with_wilds >= 10


def test_taizhou_maximum_matches_brute_force() -> None:
    checked_with_wilds = 0
    for ctx in _brute_corpus("taizhou", 45):
        result = score_hand(ctx)
        expected = brute_taizhou(ctx)
        assert expected is not None
        assert (result.total, result.points, result.tai) == expected, ctx
        checked_with_wilds += any(tile == ctx.wild for tile in ctx.players[ctx.winner].concealed)
    assert checked_with_wilds >= 10
