"""``easy``'s short cut to its discard gives exactly what the full per-discard pass gives.

Why: an ``easy`` decision needs only the fewest shanten after a discard and which
discards reach it (``engine.ai._easy_discards``), and it skips every target and every
discard that provably cannot change that answer: a target's shanten never drops when a
tile leaves the hand, and a discard from a group a target does not read leaves it where
it was. If either fact failed for some hand, ``easy`` would play differently now and
then; these checks compare the short cut with the plain pass (``_after_each_discard``,
itself checked against ``engine.shapes`` in ``test_ai_memo``) on many random hands with
jokers, including complete hands (where no discard keeps the lowest floor) and five of
a kind, and check the two facts on the shipped shape tables.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import ai, shapes
from engine._shape_tables import INFEASIBLE, NEED_BASE
from engine.ai import choose_action
from engine.match import Match
from engine.variants import get_rules
from engine.views import PlayerView
from tests.test_ai_memo import _random_hand


def _plain_easy(
    counts: list[int], wilds: int, targets: tuple[ai._Target, ...], candidates: list[int]
) -> tuple[int, list[int]]:
    per_kind = ai._after_each_discard(counts, wilds, targets, candidates)
    best = min(min(values) for values in per_kind.values())
    return best, [kind for kind in candidates if min(per_kind[kind]) == best]


def _complete_hand(rng: random.Random, sets: int) -> tuple[list[int], int]:
    """Sets and a pair (some of them flushes or honors), with 0-2 of the tiles jokers."""
    counts = [0] * 34
    suit = rng.randrange(4)
    for _ in range(sets):
        group = suit if rng.random() < 0.7 else rng.randrange(4)
        if group < 3 and rng.random() < 0.5:
            low = group * 9 + rng.randrange(7)
            for kind in (low, low + 1, low + 2):
                counts[kind] += 1
        else:
            counts[27 + rng.randrange(7) if group == 3 else group * 9 + rng.randrange(9)] += 3
    counts[rng.randrange(34)] += 2
    wilds = 0
    for _ in range(rng.choice((0, 0, 1, 2))):
        held = [kind for kind in range(34) if counts[kind]]
        counts[rng.choice(held)] -= 1
        wilds += 1
    return counts, wilds


@pytest.mark.parametrize("warm", [False, True])
@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_easy_discards_equal_the_full_pass(variant: str, warm: bool) -> None:
    """Once with the memos as earlier tests left them, once more with every hand's
    answers already in them (so that a memo key read by the short cut that named
    another hand's entry would show)."""
    all_targets = ai._variant_targets(get_rules(variant).ai_profile)
    rng = random.Random(f"{variant}:easy")
    fallbacks = 0
    if warm:  # the same hands once over: their entries are in the memos now
        test_easy_discards_equal_the_full_pass(variant, warm=False)
    for round_number in range(3000):
        if round_number % 3 == 0:
            counts, wilds = _complete_hand(rng, rng.choice((0, 1, 2, 3, 4)))
        else:
            counts, wilds = _random_hand(rng, rng.choice((2, 5, 8, 11, 14)))
        if max(counts) > 4 and sum(counts) + wilds > 14:
            continue
        targets = tuple(t for t in all_targets if rng.random() < 0.8) or all_targets
        candidates = [kind for kind in range(34) if counts[kind]]
        if not candidates:
            continue
        before = list(counts)
        expected = _plain_easy(counts, wilds, targets, candidates)
        assert ai._easy_discards(counts, wilds, targets, candidates) == expected, (counts, wilds)
        assert ai._easy_discards_by_floors(counts, wilds, targets, candidates) == expected
        # a claim asks only whether the hand gets below its shanten: answered exactly
        # when it does, and never as below when it does not
        below = expected[0] + rng.choice((-1, 0, 1))
        answer = ai._easy_discards(counts, wilds, targets, candidates, below=below)
        assert answer == expected if expected[0] < below else answer[0] >= below
        assert counts == before  # the hand is given back as it came
        floors = [ai._target_shanten(t, counts, wilds) for t in targets]
        fallbacks += expected[0] > min(floors)
    assert fallbacks > 20  # the general loop was exercised too


def test_a_shape_table_need_never_drops_when_a_tile_leaves_the_group() -> None:
    """The fact behind the floors, on a sample of the shipped entries: every (sets,
    pair) need of a group is at least the need of the group with one more tile."""
    shapes.preload()
    rng = random.Random("monotone")
    for group, table in ((0, shapes._SUIT_TABLE), (3, shapes._HONOR_TABLE)):
        patterns = rng.sample(sorted(table), 20_000)
        for pattern in patterns:
            entry = table[pattern]
            for rank, copies in enumerate(pattern):
                if not copies:
                    continue
                fewer = bytearray(pattern)
                fewer[rank] -= 1
                smaller = shapes.group_entry(group, bytes(fewer))
                assert all(
                    smaller[NEED_BASE + slot] >= entry[NEED_BASE + slot] for slot in range(10)
                ), (pattern, rank)


def test_combining_groups_in_any_order_gives_the_whole_hand_shanten() -> None:
    rng = random.Random("combine")
    for _ in range(3000):
        counts, wilds = _random_hand(rng, rng.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14)))
        if max(counts) > 4:
            continue
        packed = bytes(counts)
        entries = [shapes.group_entry(g, packed[a:b]) for g, (a, b) in ai._SPANS]
        sets = (sum(counts) + wilds) // 3
        last = rng.randrange(4)
        rest = [entry for index, entry in enumerate(entries) if index != last]
        rng.shuffle(rest)
        needed = shapes.finish_combined(shapes.combine_entries(rest, sets), entries[last], sets)
        assert max(needed - wilds - 1, -1) == shapes.shanten(counts, wilds)


def test_a_table_after_a_claim_copies_every_field() -> None:
    """``_with_melds`` builds the table by hand; a field added to ``_Table`` must be
    copied there too."""
    assert tuple(field.name for field in dataclasses.fields(ai._Table)) == ai._TABLE_FIELDS


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_lowest_shanten_equals_the_least_target_shanten(variant: str) -> None:
    """``_lowest_shanten`` (an ``easy`` claim's shanten now) is ``min(_shantens(...))``
    for hands of every size a claim meets, jokers and five of a kind included."""
    all_targets = ai._variant_targets(get_rules(variant).ai_profile)
    rng = random.Random(f"{variant}:lowest")
    for round_number in range(3000):
        if round_number % 3 == 0:
            counts, wilds = _complete_hand(rng, rng.choice((0, 1, 2, 3, 4)))
            held = [kind for kind in range(34) if counts[kind]]
            if held:
                counts[rng.choice(held)] -= 1  # a 3n+1 hand one tile from complete
        else:
            counts, wilds = _random_hand(rng, rng.choice((1, 4, 7, 10, 13, 2, 5, 8, 11, 14)))
        if sum(counts) + wilds > 14 or sum(counts) + wilds == 0:
            continue
        targets = tuple(t for t in all_targets if rng.random() < 0.8) or all_targets
        expected = min(
            ai._target_shanten_of(target, counts, wilds) if max(counts) > 4 else
            ai._target_shanten(target, counts, wilds)
            for target in targets
        )  # fmt: skip
        assert ai._lowest_shanten(counts, wilds, targets) == expected, (counts, wilds)
    assert ai._lowest_shanten([0] * 33 + [1], 0, ()) == ai._FAR


def _claim_views(variant: str, wanted: int) -> list[PlayerView]:
    """Views of seats offered a claim (no win) in seeded games of easy players."""
    views: list[PlayerView] = []
    game = 0
    while len(views) < wanted:
        match = Match(variant, None, f"claims:{variant}:{game}")
        game += 1
        while not match.finished and len(views) < wanted:
            seat = match.round.waiting_on[0]
            view = match.player_view(seat)
            kinds = {action.type for action in view.legal}
            if "pass" in kinds and "win" not in kinds:
                views.append(view)
            match.apply(choose_action(view, "easy", random.Random(f"{game}:{match.turn_id}")))
    return views


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_easy_claims_equal_the_general_claim_choice(variant: str) -> None:
    """``_choose_claim_easy`` answers as ``_choose_claim`` at ``easy`` does, and leaves
    the random stream where it leaves it."""
    claimed = 0
    for index, view in enumerate(_claim_views(variant, 300)):
        counts, wilds = shapes.count_hand(view.all_concealed, view.public.wild)
        table = ai._read_table(view, counts)
        plain_rng, easy_rng = random.Random(index), random.Random(index)
        expected = ai._choose_claim(view, list(counts), wilds, table, "easy", plain_rng)
        assert ai._choose_claim_easy(view, list(counts), wilds, easy_rng) == expected
        assert easy_rng.getstate() == plain_rng.getstate()
        claimed += expected.type != "pass"
    assert claimed > 20  # many claims taken, not only passes


def test_two_group_need_and_slots_equal_the_general_merge() -> None:
    """A half flush's floor and the splits that reach it, read off the two entries
    (``shapes.two_group_need``, ``_two_group_slots``), equal the general merge of the groups
    (``combine_entries`` and ``finish_combined``) and ``_floor_slots`` over it, for
    every count of sets and every tiles needed that some split reaches."""
    rng = random.Random("two groups")
    checked = 0
    for _ in range(3000):
        counts, _ = _random_hand(rng, rng.choice((2, 5, 8, 11, 14)))
        packed = bytes(counts)
        entries = [shapes.group_entry(g, packed[a:b]) for g, (a, b) in ai._SPANS]
        suit = rng.randrange(3)
        first, second = (entries[suit], entries[3])
        if rng.random() < 0.5:
            first, second = second, first
        for sets in range(5):
            merged = shapes.combine_entries([first], sets)
            needed = shapes.finish_combined(merged, second, sets)
            # the merge stops at INFEASIBLE; past it both mean "cannot" (capped at _FAR)
            assert min(shapes.two_group_need(first, second, sets), INFEASIBLE) == needed
            for target in range(needed, needed + 3):
                assert ai._two_group_slots(first, second, sets, target) == ai._floor_slots(
                    merged, second, sets, target
                )
            checked += 1
    assert checked == 15_000


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_a_half_flush_floor_without_the_memo_equals_its_target_shanten(variant: str) -> None:
    """``_lowest_shanten`` reads a half flush off its two entries; it still equals the
    least ``_target_shanten`` over the targets, hand after hand (with jokers)."""
    rng = random.Random(f"half flush {variant}")
    targets = ai._targets_for(variant, [0] * 34, ())
    for _ in range(2000):
        counts, wilds = _random_hand(rng, rng.choice((1, 4, 7, 10, 13, 2, 5, 8, 11, 14)))
        if max(counts) > 4:
            continue
        half_flushes = tuple(t for t in targets if t.name.startswith("half_flush"))
        for target in half_flushes:
            assert ai._lowest_shanten(counts, wilds, (target,)) == min(
                ai._target_shanten_of(target, counts, wilds), ai._FAR
            )
