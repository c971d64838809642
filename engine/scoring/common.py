"""Arrangement enumeration with jokers, shared by both scorers.

A winning hand is four sets and a pair; sets never cross a suit, so the concealed tiles
split into four independent *components* (characters, dots, bamboo, honors). Each
component is decomposed on its own count vector with a number of jokers allotted to it,
and the decompositions are memoised: the same suit pattern turns up in hand after hand,
which is what makes exact maximisation affordable (RULES.md asks for the best reading,
and a wrong count is the one bug the players will not forgive).

A group is ``(type, kinds, joker_flags, win_pos)``: ``kinds`` are the kinds the group
counts as (sorted), ``joker_flags[i]`` says whether position ``i`` is a wild tile read as
``kinds[i]``, and ``win_pos`` is the position of the winning tile (or -1). A joker may
read as any kind of its component, so a joker-only group is enumerated over every kind
of the suit; the scorers then keep only readings that change the score. A wild stands
for any tile, a fifth copy of a kind included (RULES.md §0), so no reading is refused for
the copies it makes: these are the readings ``engine.shapes`` judges legal, and the best
of them is scored.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import product
from typing import cast

from ..tiles import format_tiles, kind_str
from ..types import CHOW, HandResult, Meld, WinContext

PAIR, PUNG_G, CHOW_G = "pair", "pung", "chow"
NO_WIN = -1
JOKER_WIN = 100  # the winning tile is a wild tile, placed wherever it scores best
HONORS = 3

Group = tuple[str, tuple[int, ...], tuple[bool, ...], int]
Decomposition = tuple[Group, ...]

_SIZE = (9, 9, 9, 7)


def seat_wind_of(seat: int, dealer: int, seats: int) -> int:
    """The dealer is East; winds follow play order (RULES.md §0)."""
    return 27 + (seat - dealer) % seats


def invalid_result(ctx: WinContext, reason: str) -> HandResult:
    """A refused win: nobody pays, and ``reason`` says why (every rule set reports alike)."""
    return HandResult(
        variant=ctx.variant,
        valid=False,
        winner=ctx.winner,
        seats=ctx.seats,
        deltas=[0] * ctx.seats,
        win_by=ctx.win.by,
        from_seat=ctx.win.from_seat,
        reason=reason,
        hand=ctx.players[ctx.winner],
    )


def meld_shape(melds: Sequence[Meld]) -> tuple[set[int], bool, bool]:
    """(suits, any honor, any chow) of the exposed melds, for the flush and pung tests."""
    suits: set[int] = set()
    honors = False
    has_chow = False
    for meld in melds:
        for kind in meld.tiles:
            if kind >= 27:
                honors = True
            else:
                suits.add(kind // 9)
        if meld.type == CHOW:
            has_chow = True
    return suits, honors, has_chow


def split_counts(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )


def _with_win_marks(
    group_type: str,
    offsets: tuple[int, ...],
    jokers_used: tuple[bool, ...],
    base: int,
    win: int,
    counts_after: tuple[int, ...],
    jokers_after: int,
) -> Iterator[tuple[Group, int]]:
    """Yield the group with each possible placement of a pending winning tile.

    The winning tile is either placed in this group (at a position holding that tile:
    a natural copy of its kind, or a joker when the winning tile is a wild) or left
    pending for a later group, if a copy remains for it.
    """
    kinds = tuple(base + offset for offset in offsets)
    if win == NO_WIN:
        yield (group_type, kinds, jokers_used, -1), NO_WIN
        return
    seen_positions: set[tuple[int, bool]] = set()
    for position, (offset, is_joker) in enumerate(zip(offsets, jokers_used, strict=True)):
        if win == JOKER_WIN:
            if not is_joker:
                continue
        elif is_joker or offset != win:
            continue
        # Identical positions (two natural copies in one pung) give the same reading.
        key = (position, is_joker) if group_type == CHOW_G else (offset, is_joker)
        if key in seen_positions:
            continue
        seen_positions.add(key)
        yield (group_type, kinds, jokers_used, position), NO_WIN
    # Or leave it for a later group, if a copy of it is left there.
    still_possible = jokers_after > 0 if win == JOKER_WIN else counts_after[win] > 0
    if still_possible:
        yield (group_type, kinds, jokers_used, -1), win


@lru_cache(maxsize=200_000)
def decompose(
    suit: int, counts: tuple[int, ...], jokers: int, need_pair: bool, win: int
) -> tuple[Decomposition, ...]:
    """Every way to split one component into sets (and the pair if ``need_pair``).

    ``win`` is NO_WIN, the offset of a natural winning tile in this component, or
    JOKER_WIN. The winning tile must end up in exactly one group.
    """
    size = _SIZE[suit]
    base = 27 if suit == HONORS else suit * 9
    first = -1
    for index in range(size):
        if counts[index]:
            first = index
            break
    results: list[Decomposition] = []

    def extend(
        group_type: str, offsets: tuple[int, ...], jokers_used: tuple[bool, ...], pair_left: bool
    ) -> None:
        new_counts = list(counts)
        used_jokers = 0
        for offset, is_joker in zip(offsets, jokers_used, strict=True):
            if is_joker:
                used_jokers += 1
            else:
                new_counts[offset] -= 1
        if used_jokers > jokers or min(new_counts) < 0:
            return
        counts_after = tuple(new_counts)
        jokers_after = jokers - used_jokers
        for group, win_after in _with_win_marks(
            group_type, offsets, jokers_used, base, win, counts_after, jokers_after
        ):
            for rest in decompose(suit, counts_after, jokers_after, pair_left, win_after):
                results.append((group, *rest))

    if first < 0:
        # Only jokers are left: they form whole groups of any kind in the component.
        if jokers == 0:
            return ((),) if not need_pair and win == NO_WIN else ()
        if win not in (NO_WIN, JOKER_WIN):
            return ()
        if need_pair:
            if jokers >= 2:
                for offset in range(size):
                    extend(PAIR, (offset, offset), (True, True), False)
        elif jokers >= 3:
            for offset in range(size):
                extend(PUNG_G, (offset, offset, offset), (True, True, True), False)
            if suit != HONORS:
                for start in range(7):
                    extend(CHOW_G, (start, start + 1, start + 2), (True, True, True), False)
        return tuple(dict.fromkeys(results))

    natural = counts[first]
    if need_pair:
        if natural >= 2:
            extend(PAIR, (first, first), (False, False), False)
        extend(PAIR, (first, first), (False, True), False)
    for natural_in_pung in (3, 2, 1):
        if natural >= natural_in_pung:
            flags = (False,) * natural_in_pung + (True,) * (3 - natural_in_pung)
            extend(PUNG_G, (first, first, first), flags, need_pair)
    if suit != HONORS:
        for start in (first - 2, first - 1, first):
            if start < 0 or start > 6:
                continue
            offsets = (start, start + 1, start + 2)
            choices: list[tuple[bool, ...]] = []
            for offset in offsets:
                if offset < first:
                    choices.append((True,))
                elif offset == first:
                    choices.append((False,))
                else:
                    choices.append((False, True) if counts[offset] else (True,))
            for flags in product(*choices):
                extend(CHOW_G, offsets, tuple(flags), need_pair)
    return tuple(dict.fromkeys(results))


_ALLOCATIONS: dict[int, tuple[tuple[int, int, int, int], ...]] = {}


def joker_allocations(jokers: int) -> tuple[tuple[int, int, int, int], ...]:
    if jokers not in _ALLOCATIONS:
        _ALLOCATIONS[jokers] = tuple(
            cast(tuple[int, int, int, int], alloc)
            for alloc in product(range(jokers + 1), repeat=4)
            if sum(alloc) == jokers
        )
    return _ALLOCATIONS[jokers]


def component_plans(
    sizes: Sequence[int], jokers: int, win_suit: int | None
) -> Iterator[tuple[int, tuple[int, int, int, int], int]]:
    """(pair component, jokers per component, component holding the winning tile).

    ``win_suit`` is the component of a natural winning tile, or None when the winning
    tile is a joker (then any component that received a joker may hold it).
    """
    for pair_component in range(4):
        for alloc in joker_allocations(jokers):
            ok = True
            for component in range(4):
                tiles = sizes[component] + alloc[component]
                if component == pair_component:
                    if tiles < 2 or tiles % 3 != 2:
                        ok = False
                        break
                elif tiles % 3:
                    ok = False
                    break
            if not ok:
                continue
            if win_suit is not None:
                yield pair_component, alloc, win_suit
            else:
                for component in range(4):
                    if alloc[component]:
                        yield pair_component, alloc, component


def seven_pairs_split(
    counts: Sequence[int], jokers: int
) -> tuple[list[int], list[int], int] | None:
    """(natural pairs, singles a joker mates, free joker pairs) or None.

    Seven pairs over exactly 14 concealed tiles, as ``engine.shapes`` counts them: four
    alike are two pairs, a joker mates any single and two jokers pair each other.
    """
    if sum(counts) + jokers != 14:
        return None
    pairs: list[int] = []
    singles: list[int] = []
    for kind, count in enumerate(counts):
        pairs.extend([kind] * (count // 2))
        if count % 2:
            singles.append(kind)
    if len(singles) > jokers:
        return None
    return pairs, singles, (jokers - len(singles)) // 2


def meld_group_json(meld: Meld) -> dict[str, object]:
    data: dict[str, object] = {
        "type": meld.type,
        "tiles": format_tiles(meld.tiles),
        "exposed": not meld.concealed,
    }
    if meld.concealed:
        data["concealed"] = True
    if meld.from_seat is not None:
        data["from"] = meld.from_seat
    if meld.white_as is not None:
        data["white_as"] = kind_str(meld.white_as)
    return data


def group_json(
    group: Group, white_reads: int | None = None, exposed: bool = False
) -> dict[str, object]:
    """A concealed group for display: its kinds, what the wilds read as, the winning tile."""
    group_type, kinds, jokers_used, win_pos = group
    data: dict[str, object] = {"type": group_type, "tiles": format_tiles(kinds)}
    wild_reads = [kind for kind, is_joker in zip(kinds, jokers_used, strict=True) if is_joker]
    if wild_reads:
        data["wilds"] = format_tiles(wild_reads)
    if white_reads is not None:
        whites = [
            kind
            for kind, is_joker in zip(kinds, jokers_used, strict=True)
            if not is_joker and kind == white_reads
        ]
        if whites:
            data["white_as"] = format_tiles(whites)
    if win_pos >= 0:
        data["win"] = kind_str(kinds[win_pos])
    if exposed:
        data["exposed"] = True
    return data
