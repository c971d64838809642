"""The AI's shanten memo and its per-discard pass give exactly the uncached values.

Why: ``engine.ai`` answers most shanten questions from a memo keyed by the parts of a
hand a target reads (a suit's counts, the honors' counts, the multiset of counts for all
pungs) and computes a whole discard's worth of them in ``_after_each_discard``. A key
that missed something a target depends on would change decisions only now and then;
these checks compare every value with the plain ``engine.shapes`` functions on many
random hands, with jokers, of every size the AI meets, including counts of five.
"""

from __future__ import annotations

import random

import pytest

from engine import ai, shapes
from engine.shapes import (
    ALL_KINDS,
    HONOR_KINDS,
    MAN_KINDS,
    PIN_KINDS,
    SOU_KINDS,
    shanten_of_groups,
    shanten_restricted,
)
from engine.variants import get_rules

_WHOLE_GROUP_MASKS = (
    MAN_KINDS,
    PIN_KINDS | HONOR_KINDS,
    SOU_KINDS,
    HONOR_KINDS,
    MAN_KINDS | PIN_KINDS,
    MAN_KINDS | SOU_KINDS | HONOR_KINDS,
)


def _random_hand(rng: random.Random, size: int) -> tuple[list[int], int]:
    """A hand of ``size`` tiles (natural counts, jokers); now and then five of a kind,
    as a fifth-copy wild rule set allows, and kinds bunched in few suits like flushes
    (or in four kinds: many pungs and kongs)."""
    counts = [0] * 34
    kinds = rng.sample(range(34), rng.choice((4, 5, 8, 34)))
    wilds = rng.choice((0, 0, 0, 1, 2, 3))
    wilds = min(wilds, size - 1)
    placed = 0
    while placed < size - wilds:
        kind = rng.choice(kinds)
        if counts[kind] < (5 if rng.random() < 0.02 else 4):
            counts[kind] += 1
            placed += 1
    return counts, wilds


def _plain(target: ai._Target, counts: list[int], wilds: int) -> int:
    return ai._target_shanten_of(target, counts, wilds)


@pytest.mark.parametrize("mask", _WHOLE_GROUP_MASKS)
def test_shanten_of_groups_equals_restricted_shanten(mask: int) -> None:
    rng = random.Random(mask)
    spans = [(start, stop) for start, stop in ai._GROUP_SPANS if mask >> start & 1]
    for _ in range(3000):
        counts, wilds = _random_hand(rng, rng.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14)))
        packed = bytes(counts)
        parts = [(start // 9, packed[start:stop]) for start, stop in spans]
        expected = shanten_restricted(counts, wilds, mask)
        assert shanten_of_groups(parts, sum(counts), wilds) == expected, (counts, wilds)


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_memoised_target_shanten_equals_the_plain_functions(variant: str) -> None:
    targets = ai._variant_targets(get_rules(variant).ai_profile)
    rng = random.Random(variant)
    for _ in range(4000):
        counts, wilds = _random_hand(rng, rng.choice((1, 4, 7, 10, 13, 2, 5, 8, 11, 14)))
        for target in targets:
            # twice: the second answer comes from the memo
            assert ai._target_shanten(target, counts, wilds) == _plain(target, counts, wilds)
            assert ai._target_shanten(target, counts, wilds) == _plain(target, counts, wilds)


_PATTERNS: dict[tuple[int, int], bytes] = {}


def _pattern_of(group: int, entry_id: int) -> bytes:
    """A group's counts whose table entry is the object with this id."""
    if (0 if group < 3 else 3, entry_id) not in _PATTERNS:  # (five of a kind: added since)
        for table_group, table in ((0, shapes._SUIT_TABLE), (3, shapes._HONOR_TABLE)):
            for pattern, entry in table.items():
                if sum(pattern) <= 14:
                    _PATTERNS.setdefault((table_group, id(entry)), pattern)
    return _PATTERNS[(0 if group < 3 else 3, entry_id)]


def _check_every_memo_entry(targets: tuple[ai._Target, ...]) -> None:
    """Rebuild a hand from each stored key and compare: a key built wrongly stores a
    right value under the wrong hand, which only this catches (a group keyed by its
    entry's id is rebuilt from a count pattern with that entry)."""
    for target in targets:
        memo = ai._SHANTEN_MEMO.get((target.mask, target.pungs_only), {})
        for key, value in memo.items():
            wilds, total = int(key[0]), int(key[1])  # type: ignore[call-overload]
            counts = [0] * 34
            if target.pungs_only:
                kind = 0
                for copies, how_many in zip((1, 2, 3, 4), key[2:], strict=True):
                    assert isinstance(how_many, int)
                    for _ in range(how_many):
                        counts[kind] = copies
                        kind += 1
            else:
                spans = ai._memo_spans(target.mask)
                for (start, stop), entry_id in zip(spans, key[2:], strict=True):
                    assert isinstance(entry_id, int)
                    counts[start:stop] = _pattern_of(start // 9, entry_id)
                # the rest of the hand as singles in groups the target does not read
                free = [k for k in range(34) if not target.mask >> k & 1]
                for kind in free[: total - sum(counts)]:
                    counts[kind] = 1
                if sum(counts) != total:
                    continue  # (not rebuildable with singles: every group is read)
            assert sum(counts) == total
            assert value == _plain(target, counts, wilds), (target.name, key)


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_after_each_discard_equals_shanten_after_each_discard(variant: str) -> None:
    all_targets = ai._variant_targets(get_rules(variant).ai_profile)
    ai._SHANTEN_MEMO.clear()
    rng = random.Random(f"{variant}:discards")
    for _ in range(1500):
        counts, wilds = _random_hand(rng, rng.choice((2, 5, 8, 11, 14)))
        # some seats have melds that rule targets out: any subset may be asked
        targets = tuple(t for t in all_targets if rng.random() < 0.8) or all_targets
        candidates = [kind for kind in range(34) if counts[kind]]
        before = list(counts)
        per_kind = ai._after_each_discard(counts, wilds, targets, candidates)
        assert counts == before  # the hand is given back as it came
        assert sorted(per_kind) == candidates
        for kind in candidates:
            counts[kind] -= 1
            expected = [_plain(target, counts, wilds) for target in targets]
            counts[kind] += 1
            assert per_kind[kind] == expected, (counts, wilds, kind)
    _check_every_memo_entry(all_targets)


def test_the_memo_keys_whole_group_targets_by_their_groups_only() -> None:
    """A flush's value does not depend on which other-suit tiles are held (only on how
    many): two hands that differ only there share one memo entry. Group entries are
    shared objects: equal patterns give the very same entry."""
    assert shapes.group_entry(0, bytes([1, 1, 1, 0, 0, 0, 0, 0, 0])) is shapes.group_entry(
        1, bytes([1, 1, 1, 0, 0, 0, 0, 0, 0])
    )
    target = ai._Target("full_flush0", MAN_KINDS, False, 1.0)
    assert ai._memo_spans(MAN_KINDS | HONOR_KINDS) == ((0, 9), (27, 34))
    assert ai._memo_spans(ALL_KINDS) == ()
    assert ai._memo_spans(0b111) == ()  # part of a suit: the memo is not used
    memo = ai._SHANTEN_MEMO.setdefault((MAN_KINDS, False), {})
    first = [1, 1, 1, 2, 0, 0, 0, 0, 0] + [1, 1, 1] + [0] * 22
    second = [1, 1, 1, 2, 0, 0, 0, 0, 0] + [0] * 18 + [1, 1, 1, 0, 0, 0, 0]
    ai._target_shanten(target, first, 0)
    size = len(memo)
    assert ai._target_shanten(target, second, 0) == _plain(target, second, 0)
    assert len(memo) == size
