"""Winning shapes with wilds (RULES.md §0 "Winning shape", "Wild tiles"), waits, shanten.

The fast table-driven functions are checked against a slow recursive solver written
here, which is obviously correct by construction (the first remaining tile must sit in
some set or the pair; every other member is a natural tile or a joker), and against the
riichi ``mahjong`` package where its rules coincide (no jokers, regular hands).
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import TileError, is_winning_hand, parse_tiles, winning_tiles
from engine._shape_tables import entry_scalar, load_tables
from engine.shapes import (
    ALL_KINDS,
    HONOR_KINDS,
    MAN_KINDS,
    PIN_KINDS,
    count_hand,
    group_entries,
    group_entry,
    hand_waits,
    is_win_counts,
    is_win_reading,
    kinds_mask,
    shanten,
    shanten_pungs,
    shanten_restricted,
    waits_counts,
    white_readings,
)
from engine.tiles import from_counts, parse_tile, to_counts

SETTINGS = settings(
    derandomize=True,
    deadline=None,
    max_examples=1500,
    suppress_health_check=[HealthCheck.too_slow],
)


# --- the slow, obviously correct reference ----------------------------------------------


@cache
def reference_win(
    counts: tuple[int, ...], jokers: int, need_pair: bool = True, allowed: int = ALL_KINDS
) -> bool:
    """Sets (and one pair if ``need_pair``) using every natural tile and every joker.

    Jokers may only stand for ``allowed`` kinds, natural tiles must be allowed kinds.
    """
    first = next((kind for kind in range(34) if counts[kind]), None)
    if first is None:
        if allowed == 0:
            return jokers == 0 and not need_pair
        if need_pair:
            return jokers >= 2 and (jokers - 2) % 3 == 0
        return jokers % 3 == 0
    if not (allowed >> first) & 1:
        return False

    rest = list(counts)
    rest[first] -= 1
    options: list[tuple[list[int], int, bool]] = []
    # the pair: first + (natural or joker)
    if need_pair:
        if rest[first]:
            pair_rest = list(rest)
            pair_rest[first] -= 1
            options.append((pair_rest, jokers, False))
        if jokers:
            options.append((list(rest), jokers - 1, False))
    # pungs: first + two more of first, each natural or joker
    for naturals in range(min(2, rest[first]) + 1):
        if 2 - naturals <= jokers:
            pung_rest = list(rest)
            pung_rest[first] -= naturals
            options.append((pung_rest, jokers - (2 - naturals), need_pair))
    # chows containing first, inside its suit, only of allowed kinds
    if first < 27:
        rank = first % 9
        for low in (first - 2, first - 1, first):
            if low < first - rank or low + 2 > first - rank + 8:
                continue
            others = [kind for kind in (low, low + 1, low + 2) if kind != first]
            if not all((allowed >> kind) & 1 for kind in others):
                continue
            for use_natural in itertools.product((True, False), repeat=2):
                chow_rest = list(rest)
                spent = 0
                feasible = True
                for kind, natural in zip(others, use_natural, strict=True):
                    if natural:
                        if chow_rest[kind] == 0:
                            feasible = False
                        chow_rest[kind] -= 1
                    else:
                        spent += 1
                if feasible and spent <= jokers:
                    options.append((chow_rest, jokers - spent, need_pair))
    return any(reference_win(tuple(option), left, pair, allowed) for option, left, pair in options)


def reference_win_pungs(counts: tuple[int, ...], jokers: int, allowed: int = ALL_KINDS) -> bool:
    """All pungs and a pair: no chows, so every kind's naturals split on their own."""
    if any(counts[kind] and not (allowed >> kind) & 1 for kind in range(34)):
        return False
    for pair_kind in [kind for kind in range(34) if (allowed >> kind) & 1]:
        trial = list(counts)
        spent = 0
        take = min(trial[pair_kind], 2)
        trial[pair_kind] -= take
        spent += 2 - take
        for count in trial:
            spent += (-count) % 3
        if spent <= jokers and (jokers - spent) % 3 == 0:
            return True
    return False


def reference_seven_pairs(counts: tuple[int, ...], jokers: int) -> bool:
    if sum(counts) + jokers != 14:
        return False
    singles = sum(count % 2 for count in counts)
    return singles <= jokers


def reference_waits(
    counts: tuple[int, ...], jokers: int, wild_kind: int | None, seven_pairs: bool = False
) -> list[int]:
    waits = []
    for kind in range(34):
        if kind == wild_kind:
            trial, trial_jokers = counts, jokers + 1
        else:
            grown = list(counts)
            grown[kind] += 1
            trial, trial_jokers = tuple(grown), jokers
        if reference_win(trial, trial_jokers) or (
            seven_pairs and reference_seven_pairs(trial, trial_jokers)
        ):
            waits.append(kind)
    return waits


def reference_shanten(
    counts: tuple[int, ...], jokers: int, allowed: int = ALL_KINDS, pungs_only: bool = False
) -> int:
    """Fewest tiles to replace (a replaced tile may become anything: a joker) for a win.

    A 3n+1 hand first draws one tile (a joker, the best draw). Shanten = replacements
    needed, minus one, counting the draw.
    """
    total = sum(counts) + jokers
    drawn = 1 if total % 3 == 1 else 0
    naturals = [kind for kind in range(34) for _ in range(counts[kind])]
    for replaced in range(len(naturals) + 1):
        seen = set()
        for removed in itertools.combinations(naturals, replaced):
            if removed in seen:
                continue
            seen.add(removed)
            trial = list(counts)
            for kind in removed:
                trial[kind] -= 1
            trial_jokers = jokers + replaced + drawn
            if pungs_only:
                ok = reference_win_pungs(tuple(trial), trial_jokers, allowed)
            else:
                ok = reference_win(tuple(trial), trial_jokers, True, allowed)
            if ok:
                return replaced + drawn - 1
    raise AssertionError("a hand of jokers always wins")


# --- hand generators ----------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn, sizes: tuple[int, ...], max_jokers: int = 4) -> tuple:
    """(counts, jokers): often built from sets so that wins and near wins are common,
    from a narrow band of kinds so that chows and pairs interact."""
    size = draw(st.sampled_from(sizes))
    jokers = draw(st.integers(0, min(max_jokers, size)))
    naturals = size - jokers
    style = draw(st.sampled_from(("sets", "narrow", "wide")))
    counts = [0] * 34
    if style == "sets":
        pool: list[int] = []
        while len(pool) < naturals + 2:
            if draw(st.booleans()):
                start = draw(st.sampled_from([s * 9 + r for s in range(3) for r in range(7)]))
                pool += [start, start + 1, start + 2]
            else:
                pool += [draw(st.integers(0, 33))] * draw(st.sampled_from((2, 3)))
        order = draw(st.permutations(pool))
        for kind in order:
            if sum(counts) == naturals:
                break
            if counts[kind] < 4:
                counts[kind] += 1
    band = [*range(9), 27, 28] if style == "narrow" else list(range(34))
    while sum(counts) < naturals:
        kind = draw(st.sampled_from(band))
        if counts[kind] < 4:
            counts[kind] += 1
    return tuple(counts), jokers


# --- basic rules --------------------------------------------------------------------------


def test_four_sets_and_a_pair_is_a_win() -> None:
    assert is_winning_hand("123m456p789s111z22z")
    assert is_winning_hand("111222333m44455s")  # pungs or chows, either reading
    assert not is_winning_hand("123m456p789s111z23z")


def test_honors_form_no_chows() -> None:
    assert not is_winning_hand("123z456z777z123m11p")
    assert not is_winning_hand("567z11m")
    assert is_winning_hand("111z555z777z123m11p")


def test_chows_stay_inside_one_suit() -> None:
    assert not is_winning_hand("89m1p11z")  # 8m 9m 1p is no chow
    assert not is_winning_hand("9m12p11z")


def test_joker_stands_for_any_tile() -> None:
    assert is_winning_hand("13m5p11z", wild="5p")  # 5p plays 2m
    assert is_winning_hand("123m456p789s1z222z5p", wild="5p")  # 5p pairs 1z
    assert is_winning_hand("123m456p789s77z5p5p5p", wild="5p")  # three jokers as a pung


def test_joker_may_stand_for_its_own_kind() -> None:
    assert is_winning_hand("46m5m11z", wild="5m")  # only reading: 5m as itself
    assert is_winning_hand("4m5m6m11z", wild="5m")


def test_joker_may_make_a_fifth_copy() -> None:
    assert is_winning_hand("1111m2z", wild="2z")  # 111m + 1m with a joker as 1m
    assert winning_tiles("1111m123p456p789p") == ["1m"]  # shape only: 5th copy listed


def test_joker_only_pair() -> None:
    assert is_winning_hand("123m456p789s111z5s5s", wild="5s")
    assert is_winning_hand("123m5s5s", wild="5s")


def test_all_jokers() -> None:
    assert is_winning_hand("5s5s", wild="5s")
    assert is_winning_hand("5s5s5s5s5s", wild="5s")
    assert is_win_counts([0] * 34, 14)
    assert not is_win_counts([0] * 34, 3)  # 3 tiles is not 3n+2


@pytest.mark.parametrize(
    ("hand", "broken"),
    [
        ("11m", "12m"),
        ("123m11z", "124m11z"),
        ("123m456m11z", "123m457m11z"),
        ("123m456m789m11z", "123m456m789m12z"),
        ("123m456m789m111p11z", "123m456m789m112p11z"),
    ],
)
def test_every_size_3n_plus_2_from_2_to_14_can_win(hand: str, broken: str) -> None:
    assert is_winning_hand(hand)
    assert not is_winning_hand(broken)


@pytest.mark.parametrize("size", [0, 1, 3, 4, 6, 12, 13, 15, 17])
def test_is_winning_hand_wrong_size_raises(size: int) -> None:
    with pytest.raises(TileError, match="concealed tiles"):
        is_winning_hand([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16][:size])


@pytest.mark.parametrize("size", [0, 2, 3, 5, 14, 16])
def test_winning_tiles_wrong_size_raises(size: int) -> None:
    with pytest.raises(TileError, match="concealed tiles"):
        winning_tiles(list(range(size)))


def test_count_api_rejects_wrong_totals_for_waits_and_shanten() -> None:
    with pytest.raises(TileError):
        waits_counts([0] * 34, 2)
    with pytest.raises(TileError):
        shanten(to_counts(parse_tiles("123m")), 0)


def test_seven_pairs_only_when_enabled() -> None:
    hand = "1122m3344p5566s77z"
    assert not is_winning_hand(hand)
    assert is_winning_hand(hand, seven_pairs=True)
    assert is_winning_hand("1122m3344p5566s7z1s", wild="1s", seven_pairs=True)
    assert is_winning_hand("1111m2233p4455s66z", seven_pairs=True)  # four alike = two pairs
    assert not is_winning_hand("1122m3344p5567s77z", seven_pairs=True)
    assert winning_tiles("1122m3344p5566s7z") == []
    assert winning_tiles("1122m3344p5566s7z", seven_pairs=True) == ["7z"]


def test_seven_pairs_needs_fourteen_tiles() -> None:
    assert not is_win_counts(to_counts(parse_tiles("1133m5577p99s")), 0, seven_pairs=True)
    assert not is_winning_hand("1133m5577p", seven_pairs=True)  # four pairs are no win


def test_waits_are_sorted_tile_strings() -> None:
    assert winning_tiles("123m456m789m1z") == ["1z"]
    assert winning_tiles("1112345678999m") == [f"{rank}m" for rank in range(1, 10)]
    assert winning_tiles("23m456p789s111z22z") == ["1m", "4m"]


def test_waits_list_the_wild_kind_when_drawing_it_completes() -> None:
    assert winning_tiles("123m456m789m1z", wild="5p") == ["5p", "1z"]
    # 1z is wild here: the joker pairs any drawn tile
    assert winning_tiles("123m456m789m1z", wild=27) == [
        f"{r}{s}" for s in "mps" for r in range(1, 10)
    ] + [f"{r}z" for r in range(1, 8)]
    assert winning_tiles("19m19p19s1234567z", wild="5p") == []  # not waiting: no wild


def test_waits_with_a_joker_in_hand() -> None:
    # 12m + joker + 456p789s111z + 2z: the joker pairs 2z or finishes a set
    waits = winning_tiles("12m456p789s111z2z5s", wild="5s")
    assert "3m" in waits and "2z" in waits and "5s" in waits


def test_notation_in_and_out() -> None:
    kinds = parse_tiles("一万二万三万四筒五筒六筒七条八条九条东东东中中")
    assert is_winning_hand(kinds)
    assert is_winning_hand("一万二万三万四筒五筒六筒七条八条九条东东东中红中".replace("红中", "中"))
    assert winning_tiles(parse_tiles("123m456m789m1z")) == ["1z"]
    assert winning_tiles("123m456m789m E") == ["1z"]
    assert is_winning_hand("123m456m789m1z2z", wild=28)


def test_restriction_masks_from_kinds_or_bits() -> None:
    assert kinds_mask([0, 27]) == 1 | 1 << 27
    assert kinds_mask(MAN_KINDS | HONOR_KINDS) == MAN_KINDS | HONOR_KINDS
    counts = to_counts(parse_tiles("123m456m789m111z2z"))
    assert shanten_restricted(counts, 0, MAN_KINDS | HONOR_KINDS) == 0
    assert shanten_restricted(counts, 0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 28]) == 0
    assert shanten_restricted(counts, 0, PIN_KINDS) == 13  # all 14 tiles must be replaced
    with pytest.raises(TileError):
        kinds_mask([34])


def test_count_hand_splits_wilds_from_naturals() -> None:
    counts, jokers = count_hand(parse_tiles("11m5p5p"), 13)
    assert jokers == 2 and counts[0] == 2 and counts[13] == 0


# --- cross-checks against the reference ---------------------------------------------------


@SETTINGS
@given(hands((2, 5, 8, 11, 14)))
def test_win_detection_matches_reference(hand: tuple) -> None:
    counts, jokers = hand
    assert is_win_counts(counts, jokers) == reference_win(counts, jokers)
    assert is_win_counts(counts, jokers, seven_pairs=True) == (
        reference_win(counts, jokers) or reference_seven_pairs(counts, jokers)
    )


@SETTINGS
@given(hands((1, 4, 7, 10, 13)), st.integers(0, 33))
def test_waits_match_reference(hand: tuple, wild_seed: int) -> None:
    counts, jokers = hand
    # in play the wild kind is never held as a natural tile
    free = [kind for kind in range(34) if counts[kind] == 0]
    wild_kind = free[wild_seed % len(free)] if free else None
    assert waits_counts(counts, jokers, wild_kind) == reference_waits(counts, jokers, wild_kind)
    if sum(counts) + jokers == 13:
        assert waits_counts(counts, jokers, wild_kind, True) == reference_waits(
            counts, jokers, wild_kind, True
        )


def test_random_hands_with_zero_to_four_jokers_match_reference() -> None:
    """Thousands of plain random hands (no construction bias), seeded."""
    rng = random.Random(7)
    wall = [kind for kind in range(34) for _ in range(4)]
    for _ in range(3000):
        size = rng.choice((2, 5, 8, 11, 14))
        jokers = rng.randint(0, min(4, size))
        counts = tuple(to_counts(rng.sample(wall, size - jokers)))
        assert is_win_counts(counts, jokers) == reference_win(counts, jokers), counts


def test_shipped_table_matches_the_scalar_dp() -> None:
    suit_table, honor_table = load_tables()
    rng = random.Random(3)
    for key in rng.sample(sorted(suit_table), 150):
        assert suit_table[key] == entry_scalar(tuple(key), True)
    for key in rng.sample(sorted(honor_table), 100):
        assert honor_table[key] == entry_scalar(tuple(key), False)


def test_five_natural_copies_fall_back_to_the_scalar_dp() -> None:
    counts = to_counts(parse_tiles("11111m123p"))
    assert is_win_counts(counts, 0)  # 111m 11m 123p: shape only
    four = tuple(to_counts(parse_tiles("1111m")))
    assert waits_counts(four, 0) == reference_waits(four, 0, None) == [0]


# --- mahjong package (riichi) cross-checks, joker-free --------------------------------------

try:
    from mahjong.agari import Agari as RiichiAgari
    from mahjong.shanten import Shanten as RiichiShanten
except ImportError:  # only these cross-checks need it
    RiichiAgari = RiichiShanten = None  # type: ignore[assignment,misc]
needs_riichi = pytest.mark.skipif(RiichiAgari is None, reason="riichi mahjong package missing")


def _riichi_special(counts: tuple[int, ...]) -> bool:
    """Seven distinct pairs or thirteen orphans: wins in riichi, not here by default."""
    if sum(counts) != 14:
        return False
    if sum(1 for count in counts if count == 2) == 7:
        return True
    orphans = (0, 8, 9, 17, 18, 26, *range(27, 34))
    return all(counts[kind] for kind in orphans) and sum(counts[k] for k in orphans) == 14


@needs_riichi
def test_joker_free_wins_match_mahjong_package() -> None:
    agari = RiichiAgari
    rng = random.Random(11)
    wall = [kind for kind in range(34) for _ in range(4)]
    wins = 0
    for _ in range(4000):
        size = rng.choice((2, 5, 8, 11, 14))
        pool = wall if rng.random() < 0.3 else [k for k in wall if k < 9 or k >= 30]
        counts = tuple(to_counts(rng.sample(pool, size)))
        expected = agari.is_agari(list(counts)) and not _riichi_special(counts)
        assert is_win_counts(counts, 0) == expected, counts
        wins += expected
    assert wins > 50  # the narrow pool makes wins common enough to mean something


@needs_riichi
def test_joker_free_shanten_matches_mahjong_package() -> None:
    calculate = RiichiShanten.calculate_shanten_for_regular_hand
    rng = random.Random(13)
    wall = [kind for kind in range(34) for _ in range(4)]
    for _ in range(1500):
        size = rng.choice((13, 14))
        pool = wall if rng.random() < 0.5 else [k for k in wall if k < 18 or k >= 31]
        counts = to_counts(rng.sample(pool, size))
        assert shanten(counts, 0) == calculate(counts), counts


# --- shanten against brute force -------------------------------------------------------------


@settings(derandomize=True, deadline=None, max_examples=300)
@given(hands((1, 2, 4, 5, 7, 8), max_jokers=2))
def test_shanten_matches_brute_force(hand: tuple) -> None:
    counts, jokers = hand
    assert shanten(counts, jokers) == reference_shanten(counts, jokers)


def test_shanten_known_values() -> None:
    assert shanten(to_counts(parse_tiles("123m456m789m111z22z")), 0) == -1
    assert shanten(to_counts(parse_tiles("123m456m789m111z2z")), 0) == 0
    assert shanten(to_counts(parse_tiles("123m456m789m111z")), 1) == -1 + 1  # 13 tiles
    assert shanten(to_counts(parse_tiles("147m258p369s1234z")), 0) == 8
    assert shanten(to_counts(parse_tiles("147m258p369s123z")), 1) == 7  # a joker saves one
    assert shanten([0] * 34, 14) == -1


RESTRICTIONS = {
    "half flush in characters": MAN_KINDS | HONOR_KINDS,
    "full flush in dots": PIN_KINDS,
    "all honors": HONOR_KINDS,
    "terminals and honors": kinds_mask([0, 8, 9, 17, 18, 26, *range(27, 34)]),
    "partial suit": kinds_mask([0, 1, 2, 3, 5, 6, 30]),
}


@pytest.mark.parametrize("name", sorted(RESTRICTIONS))
def test_restricted_shanten_matches_brute_force(name: str) -> None:
    allowed = RESTRICTIONS[name]
    rng = random.Random(name)
    pool = [k for k in range(34) for _ in range(4) if k < 9 or 9 <= k < 12 or k >= 27]
    for _ in range(60):
        size = rng.choice((2, 4, 5, 7, 8))
        jokers = rng.randint(0, 2)
        counts = tuple(to_counts(rng.sample(pool, size - jokers)))
        assert shanten_restricted(counts, jokers, allowed) == reference_shanten(
            counts, jokers, allowed
        ), counts
        assert shanten_restricted(counts, jokers, allowed, pungs_only=True) == (
            reference_shanten(counts, jokers, allowed, pungs_only=True)
        ), counts


def test_restricted_to_everything_equals_plain_shanten() -> None:
    rng = random.Random(17)
    wall = [kind for kind in range(34) for _ in range(4)]
    for _ in range(300):
        counts = to_counts(rng.sample(wall, rng.choice((13, 14))))
        assert shanten_restricted(counts, 0, ALL_KINDS) == shanten(counts, 0)


@settings(derandomize=True, deadline=None, max_examples=300)
@given(hands((1, 2, 4, 5, 7, 8), max_jokers=2))
def test_all_pungs_shanten_matches_brute_force(hand: tuple) -> None:
    counts, jokers = hand
    assert shanten_pungs(counts, jokers) == reference_shanten(counts, jokers, pungs_only=True)


def test_all_pungs_shanten_known_values() -> None:
    assert shanten_pungs(to_counts(parse_tiles("111m222p333s444z55z")), 0) == -1
    assert shanten_pungs(to_counts(parse_tiles("123m456m789m111z22z")), 0) == 5
    # 666z, a joker and three of the pairs make four pungs after two draws
    assert shanten_pungs(to_counts(parse_tiles("11m22p33s44z55z666z")), 1) == 1
    assert shanten_pungs(to_counts(parse_tiles("11m22p33s44z666z")), 2) == 0


# --- the one waits rule (issue 12) --------------------------------------------------------------


def test_one_waits_rule_seven_pairs_only_with_the_option() -> None:
    # 11m 22m 33p 55p 77s 11z and a single 9s: a seven-pairs wait on 9s and no
    # sets-and-a-pair wait. RULES.md §0: seven pairs only under allow_seven_pairs, so the
    # hand waits on 9s exactly when the option is on (round, scoring and liability alike).
    counts, wilds = count_hand(parse_tiles("1122m3355p779s11z"), None)
    assert hand_waits(counts, wilds, None, seven_pairs=True) == parse_tiles("9s")
    assert hand_waits(counts, wilds, None, seven_pairs=False) == []


def test_white_readings_keep_the_printed_hand_first() -> None:
    counts, _ = count_hand(parse_tiles("5z5z4p"), None)
    readings = white_readings(counts, parse_tile("5p"))
    assert [from_counts(reading) for reading in readings] == [
        parse_tiles("4p5z5z"),
        parse_tiles("4p5p5z"),
        parse_tiles("4p5p5p"),
    ]
    assert white_readings(counts, parse_tile("5z")) == [counts]  # White wild: only White
    assert white_readings(counts, None) == [counts]


def test_a_white_standing_in_joins_the_waits_and_the_wins() -> None:
    # Wild 5p: 4p 6p wait on 5p; a White read as 5p completes them too.
    counts, wilds = count_hand(parse_tiles("4p6p111m222m333m44s"), parse_tile("5p"))
    assert hand_waits(counts, wilds, parse_tile("5p")) == parse_tiles("5p")
    assert hand_waits(counts, wilds, parse_tile("5p"), white_stands_in=True) == parse_tiles("5p5z")
    won, wilds = count_hand(parse_tiles("4p5z6p111m222m333m44s"), parse_tile("5p"))
    assert not is_win_reading(won, wilds, parse_tile("5p"))
    assert is_win_reading(won, wilds, parse_tile("5p"), white_stands_in=True)


def test_hand_waits_of_a_hand_of_the_wrong_size_are_empty() -> None:
    for tiles in ("11m2m", "11122233344455m"):  # 3n and 3n+2 tiles: no waits
        counts, wilds = count_hand(parse_tiles(tiles), None)
        assert hand_waits(counts, wilds, None) == []


def test_group_entries_are_the_groups_own_entries() -> None:
    """``group_entries`` hands out the very objects ``group_entry`` does (the AI keys
    memos by their identity), five of a kind included."""
    rng = random.Random("group-entries")
    for _ in range(2000):
        counts = [rng.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(34)]
        if rng.random() < 0.05:
            counts[rng.randrange(34)] = 5
        packed = bytes(counts)
        spans = ((0, 9), (9, 18), (18, 27), (27, 34))
        expected = [group_entry(group, packed[a:b]) for group, (a, b) in enumerate(spans)]
        entries = group_entries(packed)
        assert len(entries) == 4
        assert all(got is want for got, want in zip(entries, expected, strict=True))
