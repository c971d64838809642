"""Winning shapes with wild tiles: is it a win, which tiles complete it, and shanten.

RULES.md §0: a win is sets (chows, pungs) and one pair over the concealed tiles, 3n+2 of
them once exposed melds are removed. Wild tiles are jokers standing for any kind, their
own included. This module judges the *shape* only: a joker may make a fifth copy of a
kind, and nothing here checks which tiles are still live.

The round, the scoring gate and the AI call the count-vector functions many times per
decision, so they never search over tile lists: each of the four groups (three suits,
honors) is looked up in a precomputed per-group table (``engine._shape_tables``) and a
hand is four lookups plus a little arithmetic against the joker count.

Count-vector API (the hot path):
    ``counts`` is 34 natural (non-wild) tile counts, ``wilds`` the jokers held.
    is_win_counts(counts, wilds, seven_pairs=False) -> bool
    waits_counts(counts, wilds, wild_kind, seven_pairs=False) -> list[int]
    shanten(counts, wilds) -> int
    shanten_restricted(counts, wilds, allowed, pungs_only=False) -> int
    shanten_pungs(counts, wilds) -> int

Hand API (the one place the round, scoring, liability and the calculator ask):
    white_readings(counts, wild_kind) -> list[list[int]]
    is_win_reading(counts, wilds, wild_kind, seven_pairs, white_stands_in) -> bool
    hand_waits(counts, wilds, wild_kind, seven_pairs, white_stands_in) -> list[int]

Notation API: is_winning_hand(tiles, wild=None) and winning_tiles(tiles, wild=None).
"""

from __future__ import annotations

import threading
from bisect import insort
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ._shape_tables import (
    HONOR_RANKS,
    INFEASIBLE,
    MASK0_BASE,
    MASK2_BASE,
    MASK_SLOTS,
    NEED_BASE,
    SUIT_RANKS,
    entry_scalar,
    load_tables,
    needs_scalar,
)
from .tiles import NUM_KINDS, WHITE, TileError, kind_str, parse_tile, parse_tiles

__all__ = [
    "ALL_KINDS",
    "HONOR_KINDS",
    "MAN_KINDS",
    "PIN_KINDS",
    "SOU_KINDS",
    "combine_entries",
    "count_hand",
    "finish_combined",
    "group_entries",
    "group_entry",
    "hand_waits",
    "is_win_counts",
    "is_win_reading",
    "is_winning_hand",
    "kinds_mask",
    "merge_entry",
    "preload",
    "shanten",
    "shanten_of_entries",
    "shanten_of_groups",
    "shanten_pungs",
    "shanten_restricted",
    "waits_counts",
    "white_readings",
    "winning_tiles",
]

# Filled on first use (see ``preload``): importing ``engine`` stays cheap for processes
# that never judge a hand, and the hot path pays nothing, because an empty table simply
# sends the first lookup to the fallback path, which loads.
_SUIT_TABLE: dict[bytes, tuple[int, ...]] = {}
_HONOR_TABLE: dict[bytes, tuple[int, ...]] = {}
_load_lock = threading.Lock()
_loaded = False


def preload() -> None:
    """Load the shipped tables now (about 0.1 s) instead of on the first hand judged."""
    global _loaded
    with _load_lock:
        if _loaded:
            return
        suit, honor = load_tables()
        _SUIT_TABLE.update(suit)
        _HONOR_TABLE.update(honor)
        _loaded = True


# Kind bitmasks for ``shanten_restricted``: bit k stands for tile kind k.
MAN_KINDS = 0x1FF
PIN_KINDS = 0x1FF << 9
SOU_KINDS = 0x1FF << 18
HONOR_KINDS = 0x7F << 27
ALL_KINDS = (1 << NUM_KINDS) - 1
_GROUP_FULL = (0x1FF, 0x1FF, 0x1FF, 0x7F)
_LAST_MASK = MASK_SLOTS - 1

# Mask of ranks in group g -> the kinds they stand for, in kind order.
_MASK_KINDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(group * 9 + rank for rank in range(ranks) if mask >> rank & 1)
        for mask in range(1 << ranks)
    )
    for group, ranks in enumerate((SUIT_RANKS, SUIT_RANKS, SUIT_RANKS, HONOR_RANKS))
)
_ALL_KIND_LIST = tuple(range(NUM_KINDS))
_MAX_HAND = 14


def _slow_entry(counts: Sequence[int], start: int, stop: int) -> tuple[int, ...]:
    """An entry for a group outside the shipped table (five or more natural copies)."""
    key = tuple(counts[start:stop])
    if any(not isinstance(count, int) or count < 0 for count in key):
        raise TileError(f"tile counts must be non-negative ints, got {list(key)}")
    table = _HONOR_TABLE if start == 27 else _SUIT_TABLE
    entry = entry_scalar(key, start != 27)
    if sum(key) <= 2 * _MAX_HAND:
        table[bytes(key)] = entry
    return entry


def _entries(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The four group entries; the fast path is inlined in the callers, this is the rest."""
    if not _loaded:
        preload()
    result = []
    for start, stop, table in (
        (0, 9, _SUIT_TABLE),
        (9, 18, _SUIT_TABLE),
        (18, 27, _SUIT_TABLE),
        (27, 34, _HONOR_TABLE),
    ):
        try:
            result.append(table[bytes(counts[start:stop])])
        except (KeyError, ValueError, TypeError):
            result.append(_slow_entry(counts, start, stop))
    return tuple(result)


def _seven_pairs_win(counts: Sequence[int], wilds: int) -> bool:
    """Seven pairs over exactly 14 tiles; four alike count as two pairs, a joker mates
    any single and two jokers pair each other."""
    if sum(counts) + wilds != _MAX_HAND:
        return False
    singles = 0
    for count in counts:
        singles += count & 1
    return singles <= wilds


def is_win_counts(counts: Sequence[int], wilds: int, seven_pairs: bool = False) -> bool:
    """Whether 34 natural counts plus ``wilds`` jokers (3n+2 <= 14 tiles) form a win.

    Each group's entry holds the fewest jokers that make all its tiles sets only
    (``[0]``) and the extra jokers if it also holds the pair (``[1]``); the pair sits in
    the cheapest group, or is two jokers. Leftover jokers form joker pungs, which works
    exactly when the leftover is a multiple of three (the tile count is then 3n+2).
    """
    try:
        key = bytes(counts)
        man = _SUIT_TABLE[key[0:9]]
        pin = _SUIT_TABLE[key[9:18]]
        sou = _SUIT_TABLE[key[18:27]]
        honor = _HONOR_TABLE[key[27:34]]
    except (KeyError, ValueError, TypeError):
        man, pin, sou, honor = _entries(counts)
    need = man[0] + pin[0] + sou[0] + honor[0] + min(man[1], pin[1], sou[1], honor[1], 2)
    if need <= wilds and (wilds - need) % 3 == 0:
        return True
    return seven_pairs and _seven_pairs_win(counts, wilds)


def waits_counts(
    counts: Sequence[int],
    wilds: int,
    wild_kind: int | None = None,
    seven_pairs: bool = False,
) -> list[int]:
    """Kinds whose draw completes a 3n+1 hand (<= 13 tiles), in kind order.

    Drawing the wild kind adds a joker, which completes the hand exactly when some
    natural tile does; so the wild kind is listed whenever the list is not empty.
    Per group, the entry holds masks of ranks whose addition fits a joker budget, so
    the group's waits are two mask lookups given what the other groups need.
    """
    total = sum(counts) + wilds
    if total % 3 != 1 or total > _MAX_HAND - 1:
        raise TileError(
            f"听牌需要 3n+1 张手牌 / waits need 3n+1 concealed tiles (1..13), got {total}"
        )
    try:
        key = bytes(counts)
        man = _SUIT_TABLE[key[0:9]]
        pin = _SUIT_TABLE[key[9:18]]
        sou = _SUIT_TABLE[key[18:27]]
        honor = _HONOR_TABLE[key[27:34]]
    except (KeyError, ValueError, TypeError):
        man, pin, sou, honor = _entries(counts)
    sets_only = man[0] + pin[0] + sou[0] + honor[0]
    pair_man, pair_pin, pair_sou, pair_honor = man[1], pin[1], sou[1], honor[1]
    result: list[int] = []
    for group, entry, pair_elsewhere in (
        (0, man, min(pair_pin, pair_sou, pair_honor, 2)),
        (1, pin, min(pair_man, pair_sou, pair_honor, 2)),
        (2, sou, min(pair_man, pair_pin, pair_honor, 2)),
        (3, honor, min(pair_man, pair_pin, pair_sou, 2)),
    ):
        # jokers left for this group when it holds the pair / when the pair is elsewhere
        budget = wilds - sets_only + entry[0]
        budget_sets_only = budget - pair_elsewhere
        mask = 0
        if budget >= 0:
            mask = entry[MASK2_BASE + (budget if budget < _LAST_MASK else _LAST_MASK)]
        if budget_sets_only >= 0:
            mask |= entry[
                MASK0_BASE + (budget_sets_only if budget_sets_only < _LAST_MASK else _LAST_MASK)
            ]
        if mask:
            result += _MASK_KINDS[group][mask]
    if seven_pairs and total == _MAX_HAND - 1:
        result = _add_seven_pairs_waits(result, counts, wilds)
    if wild_kind is not None and result and wild_kind not in result:
        insort(result, wild_kind)
    return result


def _add_seven_pairs_waits(result: list[int], counts: Sequence[int], wilds: int) -> list[int]:
    singles = [kind for kind in range(NUM_KINDS) if counts[kind] & 1]
    if len(singles) + 1 <= wilds:
        return list(_ALL_KIND_LIST)  # any draw becomes one more single for a joker
    if len(singles) - 1 <= wilds:
        return sorted(set(result).union(singles))
    return result


def white_readings(counts: Sequence[int], wild_kind: int | None) -> list[list[int]]:
    """Natural counts with 0, 1, … of the Whites read as the wild's kind (RULES.md §2).

    Taizhou's White fills the gap the three wild copies leave: each White may stay White
    or count as a natural tile of the wild's kind, so a hand with w Whites has w + 1
    readings. The first reading is the hand as printed. When the wild kind is White
    itself (or there is no wild) the White stands only for itself: one reading.
    """
    readings = [list(counts)]
    if wild_kind is None or wild_kind == WHITE:
        return readings
    for as_wild in range(1, counts[WHITE] + 1):
        reading = list(counts)
        reading[WHITE] -= as_wild
        reading[wild_kind] += as_wild
        readings.append(reading)
    return readings


def is_win_reading(
    counts: Sequence[int],
    wilds: int,
    wild_kind: int | None,
    *,
    seven_pairs: bool = False,
    white_stands_in: bool = False,
) -> bool:
    """Whether some reading of the hand wins: jokers as anything (a fifth copy too) and,
    with ``white_stands_in`` (Taizhou), each White as itself or the wild's kind.

    This is the legality rule of RULES.md §0 ("if any reading makes a legal win, the hand
    wins"); scoring maximises over exactly these readings, so a shape this accepts is
    one scoring can read.
    """
    if not white_stands_in or wild_kind is None or wild_kind == WHITE or not counts[WHITE]:
        return is_win_counts(counts, wilds, seven_pairs)  # the one reading: the hand itself
    readings = white_readings(counts, wild_kind)
    return any(is_win_counts(reading, wilds, seven_pairs) for reading in readings)


def hand_waits(
    counts: Sequence[int],
    wilds: int,
    wild_kind: int | None,
    *,
    seven_pairs: bool = False,
    white_stands_in: bool = False,
) -> list[int]:
    """The tiles (kinds, sorted) whose draw or discard completes a 3n+1 hand: the one
    waits/tenpai rule (tenpai when not empty) of the round, scoring and liability.

    ``seven_pairs`` is the ``allow_seven_pairs`` option for a hand with no melds; with
    ``white_stands_in`` (Taizhou) the Whites held are read both ways, and a White that
    arrives counts as a wait too whenever a natural tile of the wild's kind would
    complete the hand, since it may be read as one. The wild kind itself is listed
    whenever anything is (an arriving wild is a joker).
    """
    total = sum(counts) + wilds
    if total % 3 != 1 or total > _MAX_HAND - 1:
        return []
    found: set[int] = set()
    readings = white_readings(counts, wild_kind) if white_stands_in else [list(counts)]
    for reading in readings:
        found.update(waits_counts(reading, wilds, None, seven_pairs))
    if not found:
        return []
    if white_stands_in and wild_kind is not None and wild_kind != WHITE and wild_kind in found:
        found.add(WHITE)
    if wild_kind is not None:
        found.add(wild_kind)
    return sorted(found)


def shanten(counts: Sequence[int], wilds: int) -> int:
    """Standard sets-and-a-pair shanten with jokers: -1 complete, 0 waiting.

    For 3n+1 or 3n+2 tiles with ``n = tiles // 3`` sets required (exposed melds already
    removed). The distance is the fewest tiles missing from any complete target, summed
    over groups from the tables; each joker fills one missing tile.
    """
    total = sum(counts) + wilds
    if total % 3 == 0 or total > _MAX_HAND:
        raise TileError(
            f"向听数需要 3n+1 或 3n+2 张 / shanten needs 3n+1 or 3n+2 tiles (<= 14), got {total}"
        )
    try:
        key = bytes(counts)
        man = _SUIT_TABLE[key[0:9]]
        pin = _SUIT_TABLE[key[9:18]]
        sou = _SUIT_TABLE[key[18:27]]
        honor = _HONOR_TABLE[key[27:34]]
    except (KeyError, ValueError, TypeError):
        man, pin, sou, honor = _entries(counts)
    needed = _combine_active((man, pin, sou, honor), total // 3)
    result = needed - wilds - 1
    return result if result > -1 else -1


@lru_cache(maxsize=65536)
def _restricted_needs(key: bytes, chows: bool, allowed_ranks: int) -> tuple[int, ...]:
    """A pseudo entry whose needs only use the allowed ranks (others are discarded)."""
    return (0, 0, *needs_scalar(tuple(key), chows, allowed_ranks))


def kinds_mask(kinds: Iterable[int] | int) -> int:
    """A 34-bit kind mask from kinds (or a mask passed through)."""
    if isinstance(kinds, int):
        return kinds & ALL_KINDS
    mask = 0
    for kind in kinds:
        if not 0 <= kind < NUM_KINDS:
            raise TileError(f"tile kind {kind} is out of range 0..33")
        mask |= 1 << kind
    return mask


def shanten_restricted(
    counts: Sequence[int],
    wilds: int,
    allowed: Iterable[int] | int,
    pungs_only: bool = False,
) -> int:
    """Shanten toward a target that may only use the ``allowed`` kinds.

    ``allowed`` is a 34-bit kind mask (``MAN_KINDS | HONOR_KINDS`` for a half flush in
    characters, ``HONOR_KINDS`` for all honors) or an iterable of kinds. Tiles of other
    kinds count as discards. Whole-group masks cost the same as ``shanten``; a partial
    group (say terminals only) is computed once per distinct group key and cached.
    With ``pungs_only`` no chows are allowed (all pungs).
    """
    mask = kinds_mask(allowed)
    total = sum(counts) + wilds
    if total % 3 == 0 or total > _MAX_HAND:
        raise TileError(
            f"向听数需要 3n+1 或 3n+2 张 / shanten needs 3n+1 or 3n+2 tiles (<= 14), got {total}"
        )
    if pungs_only:
        return _pung_shanten(counts, wilds, mask, total // 3)
    try:
        key = bytes(counts)
    except (ValueError, TypeError):
        key = None
    # Only the groups the target may use take part: a group outside it adds nothing to
    # the min-plus combination (its tiles are all discarded), so a full flush is one
    # lookup and a half flush one two-group merge instead of the four-group one.
    active = []
    for group in range(4):
        group_mask = (mask >> (9 * group)) & _GROUP_FULL[group]
        if group_mask == 0:
            continue
        start = 9 * group
        stop = 34 if group == 3 else start + 9
        if group_mask == _GROUP_FULL[group]:
            table = _HONOR_TABLE if group == 3 else _SUIT_TABLE
            entry = table.get(key[start:stop]) if key is not None else None
            active.append(entry if entry is not None else _entries(counts)[group])
        else:
            active.append(_restricted_needs(bytes(counts[start:stop]), group < 3, group_mask))
    needed = _combine_active(active, total // 3)
    if needed >= INFEASIBLE:
        return INFEASIBLE
    result = needed - wilds - 1
    return result if result > -1 else -1


def shanten_of_groups(groups: Sequence[tuple[int, bytes]], tiles: int, wilds: int) -> int:
    """``shanten_restricted`` for a target made of whole groups (suits, honors), from
    each group's counts as bytes, ``(group, counts)`` in group order, and the number of
    natural tiles in the whole hand (the other groups' tiles are all discards).

    Why: the AI keeps each group's counts packed and asks this for many hands that differ
    in one group only (``engine.ai``); the answer is ``shanten_restricted``'s exactly.
    """
    return shanten_of_entries([group_entry(group, key) for group, key in groups], tiles, wilds)


def group_entry(group: int, key: bytes) -> tuple[int, ...]:
    """The table entry of one group's counts (group 0-2 a suit, 3 the honors).

    Entries are shared: the shipped tables hold about 7,300 distinct suit entries and
    1,200 honor entries for 450,000 count patterns, each one object that lives as long
    as the process (an entry computed for a pattern outside them is stored too, for any
    hand of at most 28 tiles), so the AI may key a memo by ``id(entry)``.
    """
    table = _HONOR_TABLE if group == 3 else _SUIT_TABLE
    entry = table.get(key)
    if entry is None:
        if not _loaded:
            preload()
        entry = table.get(key)
    if entry is None:  # five or more copies: outside the shipped table
        start = 9 * group
        counts = [0] * NUM_KINDS
        counts[start : start + len(key)] = key
        entry = _slow_entry(counts, start, 34 if group == 3 else start + 9)
    return entry


def group_entries(packed: bytes) -> list[tuple[int, ...]]:
    """``group_entry`` of the four groups of a hand's 34 counts (``bytes(counts)``).

    Why: the AI reads all four for every decision and every claim it weighs; four
    lookups in one go, with ``group_entry`` only for a pattern outside the tables.
    """
    try:
        return [
            _SUIT_TABLE[packed[0:9]],
            _SUIT_TABLE[packed[9:18]],
            _SUIT_TABLE[packed[18:27]],
            _HONOR_TABLE[packed[27:34]],
        ]
    except KeyError:  # tables not loaded yet, or five of a kind
        return [
            group_entry(0, packed[0:9]),
            group_entry(1, packed[9:18]),
            group_entry(2, packed[18:27]),
            group_entry(3, packed[27:34]),
        ]


def shanten_of_entries(entries: Sequence[Sequence[int]], tiles: int, wilds: int) -> int:
    """``shanten_of_groups`` from the groups' entries (``group_entry``)."""
    total = tiles + wilds
    if total % 3 == 0 or total > _MAX_HAND:
        raise TileError(
            f"向听数需要 3n+1 或 3n+2 张 / shanten needs 3n+1 or 3n+2 tiles (<= 14), got {total}"
        )
    sets = total // 3
    if len(entries) == 2:  # a half flush: ``_combine_active``'s last step alone
        needed = two_group_need(entries[0], entries[1], sets)
    else:
        needed = _combine_active(entries, sets)
    if needed >= INFEASIBLE:
        return INFEASIBLE
    result = needed - wilds - 1
    return result if result > -1 else -1


def two_group_need(first: Sequence[int], second: Sequence[int], sets: int) -> int:
    """Tiles needed for ``sets`` sets and the pair over two groups' entries (a half
    flush), before jokers: ``_combine_active``'s last step alone, the first group taking
    ``own`` sets and the second the rest. The AI's half-flush floors call it directly
    (a memo keyed by the two entries missed on most lookups at a thousand tables)."""
    needed = INFEASIBLE
    mine = NEED_BASE
    theirs = NEED_BASE + 2 * sets
    for _ in range(sets + 1):
        value = first[mine] + second[theirs + 1]
        if value < needed:
            needed = value
        value = first[mine + 1] + second[theirs]
        if value < needed:
            needed = value
        mine += 2
        theirs -= 2
    return needed


def combine_entries(entries: Sequence[Sequence[int]], sets: int) -> tuple[list[int], list[int]]:
    """Tiles needed over several groups for 0..``sets`` sets, without and with the pair:
    ``_combine_active``'s merge of ``entries`` before its final step.

    Why: the AI asks the whole-hand shanten after each discard, and a discard changes
    one group only; the other three groups' merge is the same for every discard from
    that group, so it is done once (``finish_combined`` adds the changed group). The
    merge is a min-plus convolution, which does not depend on the order of the groups,
    so the answer is ``_combine_active``'s exactly.
    """
    base = NEED_BASE
    first = entries[0]
    no_pair = [first[base + 2 * m] for m in range(sets + 1)]
    with_pair = [first[base + 2 * m + 1] for m in range(sets + 1)]
    for entry in entries[1:]:
        no_pair, with_pair = merge_entry(no_pair, with_pair, entry, sets)
    return no_pair, with_pair


def merge_entry(
    no_pair: list[int], with_pair: list[int], entry: Sequence[int], sets: int
) -> tuple[list[int], list[int]]:
    """One more group (``entry``) merged into ``combine_entries``' lists."""
    base = NEED_BASE
    merged_no_pair = []
    merged_with_pair = []
    for total in range(sets + 1):
        best_no_pair = INFEASIBLE
        best_with_pair = INFEASIBLE
        for own in range(total + 1):
            at = base + 2 * (total - own)
            value = no_pair[own] + entry[at]
            if value < best_no_pair:
                best_no_pair = value
            value = no_pair[own] + entry[at + 1]
            if value < best_with_pair:
                best_with_pair = value
            value = with_pair[own] + entry[at]
            if value < best_with_pair:
                best_with_pair = value
        merged_no_pair.append(best_no_pair)
        merged_with_pair.append(best_with_pair)
    return merged_no_pair, merged_with_pair


def finish_combined(combined: tuple[list[int], list[int]], entry: Sequence[int], sets: int) -> int:
    """Tiles needed for ``sets`` sets and the pair over ``combine_entries``' groups plus
    one more group (``entry``): ``_combine_active``'s final step."""
    no_pair, with_pair = combined
    best = INFEASIBLE
    at = NEED_BASE + 2 * sets
    for own in range(sets + 1):
        value = no_pair[own] + entry[at + 1]
        if value < best:
            best = value
        value = with_pair[own] + entry[at]
        if value < best:
            best = value
        at -= 2
    return best


def _combine_active(entries: Sequence[Sequence[int]], sets: int) -> int:
    """Fewest missing tiles for ``sets`` sets and one pair spread over the groups given
    (all four for plain shanten, only those a target uses otherwise: the others are all
    discards, the neutral element of the combination).

    Entries store tiles needed at ``NEED_BASE + 2*m + p``; groups merge pairwise (a
    min-plus convolution over the number of sets), only the final group is evaluated
    at exactly ``sets`` sets and one pair. A single group is capped at ``INFEASIBLE``.
    """
    if not entries:
        return INFEASIBLE
    base = NEED_BASE
    last = entries[-1]
    if len(entries) == 1:
        value = last[base + 2 * sets + 1]
        return value if value < INFEASIBLE else INFEASIBLE
    return finish_combined(combine_entries(entries[:-1], sets), last, sets)


def shanten_pungs(counts: Sequence[int], wilds: int) -> int:
    """Shanten toward all pungs and a pair (no chows), with jokers."""
    total = sum(counts) + wilds
    if total % 3 == 0 or total > _MAX_HAND:
        raise TileError(
            f"向听数需要 3n+1 或 3n+2 张 / shanten needs 3n+1 or 3n+2 tiles (<= 14), got {total}"
        )
    return _pung_shanten(counts, wilds, ALL_KINDS, total // 3)


def _pung_shanten(counts: Sequence[int], wilds: int, mask: int, sets: int) -> int:
    """Greedy, exact for pungs: a kind given q pungs and r pairs uses min(count, 3q+2r)
    tiles, whose marginal gains only shrink, so the best pungs are the largest gains once
    the pair's kind is fixed (or the pair goes to a kind held nowhere, gaining nothing)."""
    if mask == 0:
        return INFEASIBLE
    if mask == ALL_KINDS:
        held = [count for count in counts if count]
    else:
        held = [counts[kind] for kind in range(NUM_KINDS) if counts[kind] and (mask >> kind) & 1]
    # The answer depends only on how many copies of each kind are held, not on which
    # kinds: the multiset of counts is the key, and a hand has few distinct ones.
    held.sort()
    key = (*held, -wilds, -sets)  # counts are positive, so the tail cannot be confused
    cached = _PUNG_CACHE.get(key)
    if cached is not None:
        return cached
    result = _pung_shanten_of(held, wilds, sets)
    if len(_PUNG_CACHE) < _PUNG_CACHE_LIMIT:
        _PUNG_CACHE[key] = result
    return result


_PUNG_CACHE: dict[tuple[int, ...], int] = {}
_PUNG_CACHE_LIMIT = 100_000  # distinct (counts multiset, jokers, sets): a few thousand occur


def _pung_shanten_of(held: list[int], wilds: int, sets: int) -> int:
    gains: list[int] = []
    for count in held:
        gains += _PUNG_GAINS[count] if count < len(_PUNG_GAINS) else _pung_gains(count)
    gains.sort(reverse=True)
    best_used = sum(gains[:sets])
    # kinds holding the same count are interchangeable as the pair's kind
    for count in set(held):
        pair_gain = count if count < 2 else 2
        pung_gains = list(gains)
        for gain in _pung_gains(count):
            pung_gains.remove(gain)
        pung_gains += _pung_gains(count - pair_gain)
        pung_gains.sort(reverse=True)
        used = pair_gain + sum(pung_gains[:sets])
        if used > best_used:
            best_used = used
    result = 3 * sets + 2 - best_used - wilds - 1
    return result if result > -1 else -1


def _pung_gains(count: int) -> list[int]:
    """Tiles each successive pung on one kind uses: 3, 3, ..., then the remainder."""
    gains = []
    while count > 0:
        gains.append(count if count < 3 else 3)
        count -= 3
    return gains


_PUNG_GAINS = tuple(_pung_gains(count) for count in range(8))


# --- notation API -----------------------------------------------------------------------


def count_hand(kinds: Iterable[int], wild_kind: int | None) -> tuple[list[int], int]:
    """(natural counts, jokers) for a list of kinds, tiles of ``wild_kind`` being jokers."""
    counts = [0] * NUM_KINDS
    wilds = 0
    for kind in kinds:
        if kind == wild_kind:
            wilds += 1
        else:
            counts[kind] += 1
    return counts, wilds


def _prepare(
    tiles: str | Iterable[int], wild: str | int | None, sizes: tuple[int, ...], what: str
) -> tuple[list[int], int, int | None]:
    kinds = parse_tiles(tiles)
    if len(kinds) not in sizes:
        raise TileError(
            f"{what} 需要 {'/'.join(map(str, sizes))} 张暗牌 / {what} needs "
            f"{', '.join(map(str, sizes))} concealed tiles, got {len(kinds)}"
        )
    wild_kind = None if wild is None else parse_tile(wild)
    counts, wilds = count_hand(kinds, wild_kind)
    return counts, wilds, wild_kind


def is_winning_hand(
    tiles: str | Iterable[int], wild: str | int | None = None, *, seven_pairs: bool = False
) -> bool:
    """Whether the concealed tiles (3n+2: 2, 5, 8, 11 or 14) form a winning shape.

    ``wild`` is the wild kind (``"2z"`` or a kind int); its tiles act as jokers.
    >>> is_winning_hand("123m456m789m1z2z", wild="2z")
    True
    """
    counts, wilds, _ = _prepare(tiles, wild, (2, 5, 8, 11, 14), "is_winning_hand")
    return is_win_counts(counts, wilds, seven_pairs)


def winning_tiles(
    tiles: str | Iterable[int], wild: str | int | None = None, *, seven_pairs: bool = False
) -> list[str]:
    """Tiles (sorted, as notation) whose draw completes 3n+1 concealed tiles.

    >>> winning_tiles("123m456m789m1z")
    ['1z']
    """
    counts, wilds, wild_kind = _prepare(tiles, wild, (1, 4, 7, 10, 13), "winning_tiles")
    return [kind_str(kind) for kind in waits_counts(counts, wilds, wild_kind, seven_pairs)]
