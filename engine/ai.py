"""AI players for both rule sets, deciding every action from a ``PlayerView`` alone.

Why a view and never the round: an AI seat sits at the same table as humans (empty seats,
players on autoplay after three timeouts), so it must not know what a human at its seat
could not. Everything here is computed from the seat's own tiles and the public table.

How it plays. A hand only pays when it reaches a *target*: in Jiaxing one of the
qualifying types (flush in one suit with or without honors, all honors, all pungs), in
Taizhou any shape, worth more as a flush or all pungs. For each target the AI knows the
shanten with wilds (``engine.shapes``) and, at ``normal``, the tiles that improve it
counted from what is still unseen. It turns them into a rough chance of completing the
target with the draws left (a Poisson tail: the first improvement arrives at rate
``draws_left × improving_tiles / unseen_tiles``, later ones at typical rates for their
shanten), multiplies by what the target is worth,
and keeps the discard with the best expected value, minus a penalty for discards that
feed a three-claim liability (Jiaxing) or a full liability (Taizhou). Claims compare the
value of the hand after the claim with the value of passing; continue/fold under
three-claim liability compares how close the AI is with how strong the liable pair looks.

Levels:
- ``easy``: target-aware shanten-greedy discards with random tie-breaks, no tile
  efficiency, no defence, claims whenever legal and on target, always continues.
- ``normal``: all of the above plus efficiency, target values, defence and liability.
- ``hard``: ``normal``'s search plus two-step tile efficiency (real outs one and two
  steps from ready), a Jiaxing win chance corrected by a model fitted on self-play
  (``benchmarks/calibrate_hard.py``), claims valued with it, and a Taizhou fold against a
  likely-ready opponent (``engine.ai_hard``); ahead of ``normal`` in paired play, but not
  yet by a significant margin (``benchmarks/paired_ai.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from ._shape_tables import INFEASIBLE, NEED_BASE
from .ai_simple import flush_policy, greedy_policy, random_policy
from .shapes import (
    ALL_KINDS,
    HONOR_KINDS,
    MAN_KINDS,
    PIN_KINDS,
    SOU_KINDS,
    combine_entries,
    count_hand,
    finish_combined,
    group_entries,
    group_entry,
    merge_entry,
    shanten,
    shanten_of_entries,
    shanten_pungs,
    shanten_restricted,
    two_group_need,
)
from .tiles import DRAGONS, GREEN, NUM_KINDS, RED, WHITE
from .types import CHOW, CONTINUE, DISCARD, FOLD, KONG, PASS, PUNG, WIN, Action, Meld, MeldType
from .variants import get_rules
from .variants.base import AIProfile
from .views import PlayerView, SeatView

LEVELS = ("easy", "normal", "hard")
# Weak seeded move choosers for soak tests and demos (``engine.ai_simple``), accepted by
# ``choose_action`` but not offered as table levels.
POLICIES = {"random": random_policy, "simple": flush_policy, "greedy": greedy_policy}
_SUIT_MASKS = (MAN_KINDS, PIN_KINDS, SOU_KINDS)
_FAR = 13  # caps the "infeasible" marker of restricted shanten (a 14-tile hand is < 13)
# Weight of one unit of "danger" (a probability-like 0..1) against target value units.
_FEED_LIABILITY_COST = 2.0  # Jiaxing: handing an opponent its third claim from us
_READY_IGNORES_LIABILITY = True  # ...unless we can be ready (the paired runs toggle it)
_WHITE_LAST_IN_TIES = True  # see ``_best_discard`` (the paired runs toggle it)
_FULL_LIABILITY_COST = 4.0  # Taizhou: paying the whole table for a liable discard
# Typical improving tiles at shanten 0, 1, 2, 3+ (later steps of a plan use these).
_TYPICAL_OUTS = (6.0, 14.0, 22.0, 28.0)
_INV_TYPICAL_OUTS = tuple(1.0 / outs for outs in _TYPICAL_OUTS)
_MAX_OUTS = 60.0  # more improving tiles than any hand has: an upper bound for pruning
_KONG_BONUS = 1.2  # a kong draws a replacement tile (and scores in Taizhou)
_FEED_COST = 0.2  # Jiaxing: handing any opponent a claim in the suit it collects
_DEAL_IN_COST = 0.5  # Taizhou: letting a threatening opponent win now
# The share of the remaining wall a seat can expect to draw before the hand ends, and how
# much faster a ready hand finishes, are the rule set's (``Variant.ai_horizon`` and
# ``Variant.ai_ready_boost``), so a new rule set needs no entry here.


class AIError(ValueError):
    """The view offers nothing to decide (no legal action for this seat)."""


@dataclass(frozen=True)
class _Target:
    """A hand the AI can aim for: which kinds it may hold and whether chows are allowed."""

    name: str
    mask: int  # allowed kinds (bit k = kind k)
    pungs_only: bool
    value: float  # rough worth of completing it, in units of a plain/cheap win


@dataclass
class _Table:
    """What the AI derives once per decision from the view."""

    variant: str
    seat: int
    wild: int | None
    melds: tuple[Meld, ...]
    draws_left: float  # own draws expected before the wall runs out
    seat_wind: int
    prevailing_wind: int
    targets: tuple[_Target, ...]
    view: PlayerView  # what ``unseen`` is counted from, on first use
    _unseen: tuple[list[int], int] | None = None

    @property
    def unseen(self) -> list[int]:
        """Copies per kind not visible to this seat. Counted when first asked: ``easy``
        never asks, and it costs a walk over every river and meld."""
        if self._unseen is None:
            unseen = _visible_unseen(self.view)
            self._unseen = (unseen, max(1, sum(unseen)))
        return self._unseen[0]

    @property
    def unseen_total(self) -> int:
        if self._unseen is None:
            self.unseen  # noqa: B018 (counts them)
        assert self._unseen is not None
        return self._unseen[1]


# --------------------------------------------------------------------------- helpers


def _target_shanten(
    target: _Target, counts: list[int], wilds: int, packed: bytes | None = None
) -> int:
    """The target's shanten (capped at ``_FAR``), memoised by what it depends on.

    Why: a decision asks this for every target after every candidate discard (and, at
    ``normal``, after every improving draw), ~50-500 times, and a thousand tables ask it
    a thousand times a second. The value is a pure function of the tiles the target may
    use, the jokers and the hand size (a flush ignores the other suits but for the count
    of sets they leave), and hands share those parts across seats and tables, so most
    calls are one dictionary lookup. A group is keyed by its table entry
    (``shapes.group_entry``: 450,000 count patterns share 8,500 entries, each one
    object for the life of the process, so its ``id`` names it). ``packed`` is
    ``bytes(counts)`` when the caller has it already.
    """
    if packed is None:
        try:
            packed = bytes(counts)
        except (ValueError, TypeError):  # not 0..255 counts: not a hand worth caching
            return _target_shanten_of(target, counts, wilds)
    spans = _MEMO_SPANS.get(target.mask)
    if spans is None:
        spans = _MEMO_SPANS[target.mask] = _memo_spans(target.mask)
    if target.pungs_only:
        # All pungs depends only on the multiset of counts held (``shapes._pung_shanten``):
        # how many kinds hold one, two, three and four copies.
        if target.mask != ALL_KINDS:
            return _target_shanten_of(target, counts, wilds)
        ones, twos, threes, fours = (
            packed.count(1),
            packed.count(2),
            packed.count(3),
            packed.count(4),
        )
        held = ones + 2 * twos + 3 * threes + 4 * fours
        if held != sum(packed):  # a count above four: outside the memo's key
            return _target_shanten_of(target, counts, wilds)
        key: tuple[object, ...] = (wilds, held, ones, twos, threes, fours)
    elif not spans:  # the whole hand matters (no memo: hands rarely repeat whole)
        return _target_shanten_of(target, counts, wilds)
    else:
        total = sum(packed)
        entries = [group_entry(start // 9, packed[start:stop]) for start, stop in spans]
        key = (wilds, total, *map(id, entries))
    memo = _SHANTEN_MEMO.get((target.mask, target.pungs_only))
    if memo is None:
        memo = _SHANTEN_MEMO[(target.mask, target.pungs_only)] = {}
    value = memo.get(key)
    if value is None:
        if target.pungs_only:
            value = _target_shanten_of(target, counts, wilds)
        else:
            value = min(shanten_of_entries(entries, total, wilds), _FAR)
        if len(memo) >= _SHANTEN_MEMO_LIMIT:
            memo.clear()  # rare: a bounded memo, refilled by what is played now
        memo[key] = value
    return value


def _target_shanten_of(target: _Target, counts: list[int], wilds: int) -> int:
    if target.pungs_only:
        if target.mask == ALL_KINDS:
            value = shanten_pungs(counts, wilds)
        else:
            value = shanten_restricted(counts, wilds, target.mask, pungs_only=True)
    elif target.mask == ALL_KINDS:
        value = shanten(counts, wilds)
    else:
        value = shanten_restricted(counts, wilds, target.mask)
    return value if value < _FAR else _FAR


_GROUP_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))  # the kinds of each suit and the honors
_ALL_GROUPS: tuple[int, ...] = (0, 1, 2, 3)
_SPANS = tuple(enumerate(_GROUP_SPANS))


def _memo_spans(mask: int) -> tuple[tuple[int, int], ...]:
    """The kind ranges a restricted target's shanten reads: its whole suits or honors.
    Empty when it reads the whole hand (every kind) or only part of a group (then the
    memo key would have to be the whole hand anyway)."""
    if mask == ALL_KINDS:
        return ()
    spans = []
    for start, stop in _GROUP_SPANS:
        group_bits = (mask >> start) & ((1 << (stop - start)) - 1)
        if group_bits == 0:
            continue
        if group_bits != (1 << (stop - start)) - 1:
            return ()
        spans.append((start, stop))
    return tuple(spans)


# (mask, pungs only) -> {key -> shanten}; see ``_target_shanten``. The keys are small
# ((jokers, tiles, the ids of a target's group entries), or the histogram of counts for
# all pungs) and recur across seats and tables: a few tens of thousands.
_SHANTEN_MEMO: dict[tuple[int, bool], dict[tuple[object, ...], int]] = {}
_SHANTEN_MEMO_LIMIT = 200_000
_MEMO_SPANS: dict[int, tuple[tuple[int, int], ...]] = {}


def _meld_fits(target: _Target, meld: Meld) -> bool:
    if target.pungs_only and meld.type == CHOW:
        return False
    if not meld.tiles:
        return True  # another seat's concealed kong: kind hidden (never our own melds)
    return all(target.mask >> kind & 1 for kind in meld.tiles)


def _poisson_at_least(needed: int, rate: float) -> float:
    """P(Poisson(rate) >= needed): the chance of ``needed`` improvements in time."""
    if needed <= 0:
        return 1.0
    term = math.exp(-rate)
    below = term
    for i in range(1, needed):
        term *= rate / i
        below += term
    return max(0.0, 1.0 - below)


def _visible_unseen(view: PlayerView) -> list[int]:
    """4 minus every copy this seat can see: own tiles and melds, every river, every
    exposed meld (a claimed tile is already counted in its river) and the indicator."""
    public = view.public
    seen = [0] * NUM_KINDS
    for kind in view.all_concealed:
        seen[kind] += 1
    seen[public.indicator] += 1
    for seat_view in public.seats:
        for discard in seat_view.discards:
            seen[discard.tile] += 1
        melds = view.melds if seat_view.seat == view.seat else seat_view.melds
        for meld in melds:
            tiles = list(meld.faces)
            if meld.claimed is not None and meld.claimed in tiles:
                tiles.remove(meld.claimed)
            for kind in tiles:
                seen[kind] += 1
    return [max(0, 4 - count) for count in seen]


def _honor_bonus(counts: list[int], table: _Table) -> float:
    """Extra worth from honor pungs that score tai (dragons, seat/prevailing wind)."""
    bonus = 0.0
    rules = get_rules(table.variant)
    scoring = {RED, GREEN, table.seat_wind}
    if rules.ai_profile.white_pung_scores:
        scoring.add(WHITE)
    if rules.has_prevailing_wind:
        scoring.add(table.prevailing_wind)
    for kind in scoring:
        if kind == table.wild:
            continue
        held = counts[kind]
        if held >= 3:
            bonus += 1.0
        elif held == 2:
            bonus += 0.4
    for meld in table.melds:
        if meld.type != CHOW and meld.tiles and meld.kind in scoring:
            bonus += 1.0
    return bonus


def _targets_for(variant: str, counts: list[int], melds: Sequence[Meld]) -> tuple[_Target, ...]:
    """The targets open to this seat, valued for this hand. Melds already exposed rule
    some out (a chow ends all pungs; a meld in another suit ends that flush)."""
    profile = get_rules(variant).ai_profile
    cached = _TARGETS.get(variant)
    if cached is None or cached[0] is not profile:  # a rule set registered again
        cached = _TARGETS[variant] = (profile, _variant_targets(profile))
    targets = cached[1]
    if not melds:
        return targets
    # ``_meld_fits`` for every meld at once: the melds' kinds must all be inside a
    # target, and a chow rules out all pungs.
    used = 0
    chow = False
    for meld in melds:
        chow = chow or meld.type == CHOW
        for kind in meld.tiles:
            used |= 1 << kind
    # One tuple per (rule set, kinds in melds, chow): ``_easy_discards`` keeps its plans
    # by the tuple's identity, so a new tuple per decision would plan every target again.
    key = (variant, used, chow)
    filtered = _FILTERED_TARGETS.get(key)
    if filtered is None or filtered[0] is not targets:
        if len(_FILTERED_TARGETS) >= _FILTERED_TARGETS_LIMIT:
            _FILTERED_TARGETS.clear()
        filtered = _FILTERED_TARGETS[key] = (
            targets,
            tuple(t for t in targets if not used & ~t.mask and not (chow and t.pungs_only)),
        )
    return filtered[1]


# rule set name -> (its AI profile, its targets): built once, a decision only filters them
_TARGETS: dict[str, tuple[object, tuple[_Target, ...]]] = {}
# (rule set name, kinds in melds as bits, a chow among them) -> (the rule set's targets
# they were filtered from, the targets left); bounded, as meld kinds vary without end
_FILTERED_TARGETS: dict[tuple[str, int, bool], tuple[tuple[_Target, ...], tuple[_Target, ...]]] = {}
_FILTERED_TARGETS_LIMIT = 4096


def _variant_targets(profile: AIProfile) -> tuple[_Target, ...]:
    """Every target of a rule set with its value, from its AI profile (in plain wins)."""
    targets: list[_Target] = []
    full, half = profile.full_flush, profile.half_flush
    honors, pungs = profile.all_honors, profile.all_pungs
    if profile.any_shape_wins:
        targets.append(_Target("any", ALL_KINDS, False, 1.0))
    for suit, mask in enumerate(_SUIT_MASKS):
        targets.append(_Target(f"full_flush{suit}", mask, False, full))
        targets.append(_Target(f"half_flush{suit}", mask | HONOR_KINDS, False, half))
    if honors:
        targets.append(_Target("honors", HONOR_KINDS, False, honors))
    targets.append(_Target("pungs", ALL_KINDS, True, pungs))
    return tuple(targets)


def _read_table(view: PlayerView, counts: list[int]) -> _Table:
    public = view.public
    me = public.seats[view.seat]
    active = sum(1 for s in public.seats if not s.folded) or 1
    return _Table(
        variant=public.variant,
        seat=view.seat,
        wild=public.wild,
        melds=view.melds,
        view=view,
        draws_left=max(1.0, public.tiles_left / active * get_rules(public.variant).ai_horizon),
        seat_wind=me.seat_wind,
        prevailing_wind=public.prevailing_wind,
        targets=_targets_for(public.variant, counts, view.melds),
    )


# --------------------------------------------------------------------------- evaluation


def _improving_kinds(target: _Target, counts: list[int]) -> list[int]:
    """Kinds worth testing as improving draws: near held tiles, inside the target."""
    kinds: list[int] = []
    mask = target.mask
    for kind in range(NUM_KINDS):
        if not mask >> kind & 1:
            continue
        if counts[kind]:
            kinds.append(kind)
        elif target.pungs_only or kind >= 27:
            continue
        else:
            rank = kind % 9
            low = kind - rank
            if any(
                counts[other]
                for other in range(max(low, kind - 2), min(low + 8, kind + 2) + 1)
                if other != kind
            ):
                kinds.append(kind)
    return kinds


def _ukeire(target: _Target, counts: list[int], wilds: int, current: int, table: _Table) -> int:
    """Unseen tiles whose draw lowers this target's shanten (wilds always do)."""
    total = 0
    unseen = table.unseen
    for kind in _improving_kinds(target, counts):
        if kind == table.wild or not unseen[kind]:
            continue
        counts[kind] += 1
        if _target_shanten(target, counts, wilds) < current:
            total += unseen[kind]
        counts[kind] -= 1
    if table.wild is not None and current >= 0:
        total += unseen[table.wild]
    return total


def _target_values(counts: list[int], table: _Table) -> list[float]:
    bonus = _honor_bonus(counts, table)
    if get_rules(table.variant).ai_profile.honor_tai_add:
        return [t.value + bonus for t in table.targets]
    return [t.value * (1.0 + 0.8 * bonus) for t in table.targets]


def _win_chance(shanten_now: int, improving: float, table: _Table) -> float:
    """Rough chance to complete a target ``shanten_now + 1`` improvements away in time.

    The first step's rate comes from the tiles that improve the hand now; later steps use
    typical counts for their shanten (a tenpai hand has fewer outs than a far one), so a
    wide but slow hand does not beat a narrower hand that is a whole step closer. The
    steps are then treated as one Poisson process with the same mean time.
    """
    steps = shanten_now + 1
    if steps <= 0:
        return 1.0
    ready = get_rules(table.variant).ai_ready_boost
    inverse = 1.0 / max(improving * (ready if shanten_now == 0 else 1.0), 0.5)
    for later in range(shanten_now):
        typical = _INV_TYPICAL_OUTS[later if later < len(_INV_TYPICAL_OUTS) else -1]
        inverse += typical / ready if later == 0 else typical
    rate = table.draws_left * steps / (inverse * table.unseen_total)
    return _poisson_at_least(steps, rate)


def _hand_value(
    counts: list[int], wilds: int, table: _Table, shantens: list[int], precise: bool
) -> float:
    """Expected worth of a 3n+1 hand: max over targets of value × P(complete in time).

    Without ``precise`` the first step uses a typical number of outs too (no ukeire),
    which is what the first pruning pass uses.
    """
    values = _target_values(counts, table)
    rough = []
    for index, current in enumerate(shantens):
        typical = _TYPICAL_OUTS[min(current, len(_TYPICAL_OUTS) - 1)]
        rough.append(values[index] * _win_chance(current, typical, table))
    if not precise:
        return max(rough, default=0.0)
    best = 0.0
    # Most promising first; a target that could not win even with every unseen tile
    # improving it is skipped, which saves most of the ukeire work on far targets.
    for index in sorted(range(len(shantens)), key=lambda i: -rough[i]):
        current = shantens[index]
        if values[index] * _win_chance(current, _MAX_OUTS, table) <= best:
            continue
        improving = float(_ukeire(table.targets[index], counts, wilds, current, table))
        worth = values[index] * _win_chance(current, improving, table)
        if worth > best:
            best = worth
    return best


def _shantens(counts: list[int], wilds: int, table: _Table) -> list[int]:
    packed = bytes(counts)
    return [_target_shanten(t, counts, wilds, packed) for t in table.targets]


# --------------------------------------------------------------------------- defence


def _claims_from(melds: Sequence[Meld], discarder: int) -> int:
    return sum(1 for m in melds if m.from_seat == discarder and not m.concealed)


def _apparent_suits(melds: Sequence[Meld]) -> set[int]:
    return {m.kind // 9 for m in melds if m.tiles and m.kind < 27}


_CLAIM_CHANCE = (0.0, 0.0, 0.06, 0.15, 0.25)  # by unseen copies: someone holds a pair


def _suit_interest(seat_view: SeatView) -> tuple[float, float, float]:
    """How likely a seat is collecting each suit, from its melds and what it throws away
    (Jiaxing players must flush or pung, so a suit they keep discarding is not theirs)."""
    weights = []
    discarded = [0, 0, 0]
    for discard in seat_view.discards:
        if discard.tile < 27:
            discarded[discard.tile // 9] += 1
    melded = [0, 0, 0]
    for meld in seat_view.melds:
        if meld.tiles and meld.kind < 27:
            melded[meld.kind // 9] += 1
    for suit in range(3):
        weights.append(math.exp(1.5 * melded[suit] - 0.6 * discarded[suit]))
    total = sum(weights)
    return (weights[0] / total, weights[1] / total, weights[2] / total)


def _danger(view: PlayerView, table: _Table, kind: int, tenpai_after: bool) -> float:
    """How costly discarding ``kind`` looks, in target-value units (normal level)."""
    public = view.public
    me = view.seat
    cost = 0.0
    rules = get_rules(public.variant)
    for seat_view in public.seats:
        other = seat_view.seat
        if other == me or seat_view.folded:
            continue
        melds = seat_view.melds
        suits = _apparent_suits(melds)
        one_suit = len(suits) == 1
        in_their_suit = one_suit and kind < 27 and kind // 9 in suits
        if rules.has_three_claim_liability:
            # Feeding claims speeds up a flush or all-pungs hand; a third claim from us
            # also makes us liable (三摊, 5× payments).
            claimable = _CLAIM_CHANCE[table.unseen[kind]]
            if kind < 27 and other == (me + 1) % public.num_seats:
                claimable += 0.25
            want = _suit_interest(seat_view)[kind // 9] if kind < 27 else 0.5
            cost += _FEED_COST * want * claimable
            # A ready hand does not fear the liability: 三摊 multiplies every payment of
            # the hand, its own win's too, and breaking the hand to keep the tile cost
            # more than it saved (measured: docs/ai_hard.md, "三摊 and a ready hand").
            if (
                me not in seat_view.liable_with
                and _claims_from(melds, me) == 2
                and not (tenpai_after and _READY_IGNORES_LIABILITY)
            ):
                cost += _FEED_LIABILITY_COST * want * min(1.0, claimable * 2)
            continue
        # Full liability (全包, Taizhou) and dealing in where discards win.
        dragon_pungs = {m.kind for m in melds if m.tiles and m.type != CHOW and m.kind in DRAGONS}
        if kind in DRAGONS and len(dragon_pungs) == 2 and kind not in dragon_pungs:
            cost += _FULL_LIABILITY_COST
        if in_their_suit and len(melds) >= 2:
            fed = sum(
                1
                for m in melds
                if m.from_seat == me and m.tiles and m.kind < 27 and m.kind // 9 in suits
            )
            if fed >= 2:
                cost += _FULL_LIABILITY_COST * 0.6
            elif len(melds) >= 3:
                cost += _DEAL_IN_COST * 0.5
        if len(melds) >= 3 and not in_their_suit and table.unseen[kind] >= 2:
            cost += _DEAL_IN_COST * 0.2
    if (
        rules.has_full_liability
        and tenpai_after
        and kind in DRAGONS
        and table.unseen[kind] == 3
        and kind != table.wild
    ):
        # A live dragon discarded while we are waiting: liable if someone wins on it,
        # which needs a pair or a single wait on it (more likely from a developed hand).
        developed = max(len(s.melds) for s in public.seats if s.seat != me)
        cost += _FULL_LIABILITY_COST * (0.03 + 0.03 * developed)
    return cost


# --------------------------------------------------------------------------- decisions


# How ``_after_each_discard`` reads one target for a discard in one group: (target index,
# its memo or None for no memo, the memo key's parts before and after the group's
# counts, the groups the target reads; the last three empty for all pungs).
_Reader = tuple[
    int, dict[tuple[object, ...], int] | None, tuple[object, ...], tuple[object, ...],
    tuple[int, ...],
]  # fmt: skip


def _after_each_discard(
    counts: list[int], wilds: int, targets: tuple[_Target, ...], candidates: list[int]
) -> dict[int, list[int]]:
    """Every target's shanten after each candidate discard: ``_target_shanten`` of
    ``counts`` minus that kind, for each target, read from the same memo.

    Why a loop of its own: this is most of an ``easy`` decision and the first pass of a
    ``normal`` one. A discard changes one group of kinds only, so a target that does not
    read that group keeps one value for all such discards, and the memo keys of the
    others are built from the hand's four groups once instead of from the whole hand
    per call.
    """
    packed = bytes(counts)
    total = sum(packed) - 1  # tiles held after the discard
    groups = group_entries(packed)
    histogram = [packed.count(copies) for copies in range(5)]
    plain_histogram = sum(copies * histogram[copies] for copies in range(5)) == total + 1
    discarded_groups = {kind // 9 if kind < 27 else 3 for kind in candidates}
    # Per target: its value for any discard it does not read (None: it reads them all,
    # or no such discard is a candidate), and per group the targets reading it with how
    # to key them: (index, memo or None, key before the group's counts, key after).
    base: list[int | None] = []
    readers: list[list[_Reader]] = [[], [], [], []]
    whole: list[int] = []  # targets of any shape over the whole hand
    for index, target in enumerate(targets):
        spans = _MEMO_SPANS.get(target.mask)
        if spans is None:
            spans = _MEMO_SPANS[target.mask] = _memo_spans(target.mask)
        memo = _SHANTEN_MEMO.get((target.mask, target.pungs_only))
        if memo is None:
            memo = _SHANTEN_MEMO[(target.mask, target.pungs_only)] = {}
        if not target.pungs_only and target.mask == ALL_KINDS:
            # Any shape reads the whole hand (no memo): the other groups' merge is shared
            # by every discard from one group (``shapes.combine_entries``).
            base.append(None)
            whole.append(index)
            continue
        if target.pungs_only or not spans:
            base.append(None)
            keyed = target.pungs_only and target.mask == ALL_KINDS and plain_histogram
            for group in range(4):  # every discard changes it: keyed by the histogram
                readers[group].append((index, memo if keyed else None, (), (), ()))
            continue
        reads = tuple(start // 9 for start, _ in spans)
        value = None
        if any(group not in reads for group in discarded_groups):
            # A discard outside the target leaves its groups as they are: the hand's own.
            key: tuple[object, ...] = (wilds, total, *(id(groups[g]) for g in reads))
            value = memo.get(key)
            if value is None:
                entries = [groups[g] for g in reads]
                value = min(shanten_of_entries(entries, total, wilds), _FAR)
                if len(memo) >= _SHANTEN_MEMO_LIMIT:
                    memo.clear()
                memo[key] = value
        base.append(value)
        for group in reads:
            if group not in discarded_groups:
                continue
            position = reads.index(group)
            head: tuple[object, ...] = (wilds, total, *(id(groups[g]) for g in reads[:position]))
            tail: tuple[object, ...] = tuple(id(groups[g]) for g in reads[position + 1 :])
            readers[group].append((index, memo, head, tail, reads))
    others: dict[int, tuple[list[int], list[int]]] = {}
    sets = (total + wilds) // 3
    if whole:
        for group in discarded_groups:
            others[group] = _other_groups(groups, group, sets)
    per_kind: dict[int, list[int]] = {}
    for kind in candidates:
        group = kind // 9 if kind < 27 else 3
        counts[kind] -= 1
        start, stop = _GROUP_SPANS[group]
        moved = group_entry(group, bytes(counts[start:stop]))
        moved_id = id(moved)
        values = list(base)
        if whole:
            # ``shanten`` of the hand after this discard, capped like ``_target_shanten``
            needed = finish_combined(others[group], moved, sets) - wilds - 1
            value = -1 if needed < -1 else needed if needed < _FAR else _FAR
            for index in whole:
                values[index] = value
        for index, memo, before, after, used in readers[group]:
            if memo is None:
                values[index] = _target_shanten(targets[index], counts, wilds)
                continue
            if before:
                key = (*before, moved_id, *after) if after else (*before, moved_id)
            else:  # all pungs: the histogram of counts after this discard
                held = packed[kind]
                key = (
                    wilds,
                    total,
                    histogram[1] + (held == 2) - (held == 1),
                    histogram[2] + (held == 3) - (held == 2),
                    histogram[3] + (held == 4) - (held == 3),
                    histogram[4] - (held == 4),
                )
            value = memo.get(key)
            if value is None:
                if used:
                    entries = [moved if g == group else groups[g] for g in used]
                    value = min(shanten_of_entries(entries, total, wilds), _FAR)
                else:
                    value = _target_shanten_of(targets[index], counts, wilds)
                if len(memo) >= _SHANTEN_MEMO_LIMIT:
                    memo.clear()
                memo[key] = value
            values[index] = value
        counts[kind] += 1
        per_kind[kind] = values  # type: ignore[assignment]  # every None was replaced
    return per_kind


def _easy_discards_by_floors(
    counts: list[int], wilds: int, targets: tuple[_Target, ...], candidates: list[int]
) -> tuple[int, list[int]]:
    """(fewest shanten over every target after a discard, the candidates reaching it in
    kind order): what ``easy`` reads from ``_after_each_discard``, computed for the
    targets that can reach it only.

    Why it may skip targets: a target's shanten never drops when a tile leaves the hand
    (the tables count tiles missing from the best arrangement, and a tile removed can
    only add to what is missing; all pungs counts the tiles it can use), so the target's
    shanten of the hand before the discard is a floor for every discard. A target whose
    floor is above the best found can neither beat it nor tie with it. Usually one or
    two targets sit at the lowest floor and reach it, and the others are never asked.
    """
    packed = bytes(counts)
    floors = [_target_shanten(target, counts, wilds, packed) for target in targets]
    lowest = min(floors)
    chosen = tuple(t for t, floor in zip(targets, floors, strict=True) if floor == lowest)
    per_kind = _after_each_discard(counts, wilds, chosen, candidates)
    best = {kind: min(values) for kind, values in per_kind.items()}
    best_shanten = min(best.values())
    if best_shanten > lowest:  # nothing reached its floor: ask those that could tie
        more = tuple(t for t, f in zip(targets, floors, strict=True) if lowest < f <= best_shanten)
        if more:
            for kind, values in _after_each_discard(counts, wilds, more, candidates).items():
                value = min(values)
                if value < best[kind]:
                    best[kind] = value
            best_shanten = min(best.values())
    return best_shanten, [kind for kind in candidates if best[kind] == best_shanten]


def _easy_discards(
    counts: list[int],
    wilds: int,
    targets: tuple[_Target, ...],
    candidates: list[int],
    below: int | None = None,
) -> tuple[int, list[int]]:
    """``_easy_discards_by_floors`` without its general loop, for the usual case: some
    target at the lowest floor keeps it after a discard.

    Why it can stop early: a discard from a group a target does not read leaves that
    target's shanten at its floor exactly (the other groups are unchanged and a hand
    of 3n+2 tiles asks for as many sets as one of 3n+1), so such a candidate is tied
    without any work. A candidate inside a lowest-floor target is tied as soon as one
    of those targets keeps its floor. For a target over several groups that is a look
    at a few numbers: the floor is the least of (the other groups' merge + this group's
    need) over the ways to split the sets and the pair between them, and a discard
    never lowers a need, so it keeps the floor exactly when it leaves this group's need
    unchanged in one of the splits that reach the floor. A one-group target is one
    table read; all pungs asks its memo. When no candidate keeps the lowest floor the
    general loop answers.

    With ``below`` (a claim asks whether it gets below the shanten it has), a hand
    whose lowest floor is not below it answers (that floor, no candidates) at once:
    no discard can get below a floor.
    """
    packed = bytes(counts)
    total = sum(packed) - 1  # natural tiles after the discard
    if not candidates or (total + wilds) % 3 != 1:
        return _easy_discards_by_floors(counts, wilds, targets, candidates)
    sets = (total + wilds) // 3
    at = NEED_BASE + 2 * sets + 1  # an entry's tiles needed for ``sets`` sets and the pair
    groups = group_entries(packed)
    kind_groups = list(map(_KIND_GROUP.__getitem__, candidates))
    floors: list[int] = []
    plans = _plans(targets)  # with the groups each target reads
    # per target over several groups: group -> the other groups' merge, as asked
    rests: list[dict[int, tuple[list[int], list[int]]] | None] = []
    for target, (how, target_reads) in zip(targets, plans, strict=True):
        if how == _ONE_GROUP:
            value = groups[target_reads[0]][at] - wilds - 1
            floors.append(-1 if value < -1 else value if value < _FAR else _FAR)
            rests.append(None)
        elif how == _SOME_GROUPS:
            if len(target_reads) == 2:  # a half flush: its two groups' splits, no memo
                value = two_group_need(groups[target_reads[0]], groups[target_reads[1]], sets)
                value = value - wilds - 1
                floors.append(-1 if value < -1 else value if value < _FAR else _FAR)
                rests.append({})
                continue
            key: tuple[int, ...] = (
                wilds,
                total + 1,
                *[id(groups[group]) for group in target_reads],
            )
            memo = _SHANTEN_MEMO.get((target.mask, False))
            if memo is None:
                memo = _SHANTEN_MEMO[(target.mask, False)] = {}
            value = memo.get(key, -2)
            if value == -2:
                entries = [groups[group] for group in target_reads]
                needed = finish_combined(combine_entries(entries[:-1], sets), entries[-1], sets)
                value = needed - wilds - 1
                value = -1 if value < -1 else value if value < _FAR else _FAR
                if len(memo) >= _SHANTEN_MEMO_LIMIT:
                    memo.clear()
                memo[key] = value
            floors.append(value)
            rests.append({})
        elif how == _WHOLE_HAND:
            group = kind_groups[0]
            merged = _other_groups(groups, group, sets)
            value = finish_combined(merged, groups[group], sets) - wilds - 1
            floors.append(-1 if value < -1 else value if value < _FAR else _FAR)
            rests.append({group: merged})
        elif how == _PUNGS:
            floors.append(_target_shanten(target, counts, wilds, packed))
            rests.append(None)
        else:
            return _easy_discards_by_floors(counts, wilds, targets, candidates)
    lowest = min(floors)
    if below is not None and lowest >= below:
        return lowest, []
    # the cheapest checks first: one group, then several, all pungs last
    chosen = [index for index, floor in enumerate(floors) if floor == lowest]
    read_by_all: tuple[int, ...] | set[int] = plans[chosen[0]][1]
    if len(chosen) > 1:
        chosen.sort(key=lambda index: 2 if targets[index].pungs_only else rests[index] is not None)
        read_by_all = set(plans[chosen[0]][1]).intersection(
            *[plans[index][1] for index in chosen[1:]]
        )
    tied: list[int] = []
    inside: list[tuple[int, int]] = []
    for kind, group in zip(candidates, kind_groups, strict=True):
        if group in read_by_all:
            inside.append((kind, group))
        else:
            tied.append(kind)
    if inside and -1 < lowest < _FAR:
        # No clamping or capping at this floor: a target keeps it exactly when its
        # tiles needed stay the same, which is decided per group (a mask of the ranks
        # whose discard keeps a split that reaches the floor) and, for all pungs, per
        # number of copies held.
        needed = lowest + wilds + 1
        undecided = inside
        histogram: list[int] | None = None  # kinds held once, twice, ... (all pungs)
        pungs_memo = _SHANTEN_MEMO.get((ALL_KINDS, True), {})
        for index in chosen:
            target = targets[index]
            rest = rests[index]
            kept: dict[int, int] = {}  # group (or copies held, for all pungs) -> keeps
            still: list[tuple[int, int]] = []
            for kind, group in undecided:
                if target.pungs_only:
                    held = packed[kind]
                    keeps = kept.get(held)
                    if keeps is None:
                        # ``_target_shanten``'s memo key after the discard, from the
                        # histogram of counts (as ``_after_each_discard`` keys it)
                        if histogram is None:
                            histogram = [packed.count(copies) for copies in range(5)]
                            if sum(c * histogram[c] for c in range(5)) != total + 1:
                                pungs_memo = {}  # a count above four: not keyed so
                        after: int | None = pungs_memo.get(
                            (
                                wilds,
                                total,
                                histogram[1] + (held == 2) - (held == 1),
                                histogram[2] + (held == 3) - (held == 2),
                                histogram[3] + (held == 4) - (held == 3),
                                histogram[4] - (held == 4),
                            )
                        )
                        if after is None:
                            counts[kind] -= 1
                            after = _target_shanten(target, counts, wilds)
                            counts[kind] += 1
                        keeps = kept[held] = after == lowest
                    if keeps:
                        tied.append(kind)
                    else:
                        still.append((kind, group))
                    continue
                mask = kept.get(group)
                if mask is None:
                    entry = groups[group]
                    if rest is None:
                        slots: tuple[int, ...] = (at,)
                    elif len(plans[index][1]) == 2:  # a half flush: the other group as it is
                        first, second = plans[index][1]
                        slots = _two_group_slots(
                            groups[second if first == group else first], entry, sets, needed
                        )
                    else:
                        others = rest.get(group)
                        if others is None:
                            others = rest[group] = _other_groups(
                                groups, group, sets, plans[index][1]
                            )
                        slots = _floor_slots(others, entry, sets, needed)
                    start, stop = _GROUP_SPANS[group]
                    mask = kept[group] = _keeping_ranks(group, packed[start:stop], entry, slots)
                if mask >> (kind - 9 * group) & 1:
                    tied.append(kind)
                else:
                    still.append((kind, group))
            undecided = still
            if not undecided:
                break
        if not tied:
            return _easy_discards_by_floors(counts, wilds, targets, candidates)
        tied.sort()
    elif inside:
        return _easy_discards_by_floors(counts, wilds, targets, candidates)
    return lowest, tied


# How ``_easy_discards`` reads a target: one group's need, a merge of some groups, the
# whole hand (any shape), the all-pungs memo, or (a target of part of a group) the
# general loop; with the groups it reads.
_ONE_GROUP, _SOME_GROUPS, _WHOLE_HAND, _PUNGS, _GENERAL = range(5)
# id of a targets tuple -> (that tuple, kept alive so the id stays its own; their plans)
_TARGET_PLANS: dict[
    int, tuple[tuple[_Target, ...], tuple[tuple[int, tuple[int, ...]], ...]]
] = {}  # fmt: skip
_KIND_GROUP = tuple(kind // 9 if kind < 27 else 3 for kind in range(NUM_KINDS))


def _plans(targets: tuple[_Target, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """``_plan`` of each target, kept by the tuple (``_targets_for`` shares them)."""
    plans = _TARGET_PLANS.get(id(targets))
    if plans is None or plans[0] is not targets:
        if len(_TARGET_PLANS) >= _FILTERED_TARGETS_LIMIT + 16:  # ``_targets_for``'s tuples
            _TARGET_PLANS.clear()
        plans = _TARGET_PLANS[id(targets)] = (targets, tuple(_plan(t) for t in targets))
    return plans[1]


def _lowest_shanten(counts: list[int], wilds: int, targets: tuple[_Target, ...]) -> int:
    """``min(_shantens(...))`` over ``targets`` (``_FAR`` when there are none), as an
    ``easy`` claim asks it: the hand's four group entries are looked up once and a
    target of one group is one read of its entry, as in ``_easy_discards``' floors."""
    packed = bytes(counts)
    tiles = sum(packed)
    if (tiles + wilds) % 3 == 0 or tiles + wilds > 14:  # not a hand: as ``_shantens`` fails
        return min([_FAR, *(_target_shanten(t, counts, wilds, packed) for t in targets)])
    sets = (tiles + wilds) // 3
    at = NEED_BASE + 2 * sets + 1  # ``sets`` sets and the pair
    groups = group_entries(packed)
    lowest = _FAR
    for target, (how, reads) in zip(targets, _plans(targets), strict=True):
        if how == _ONE_GROUP:
            value = groups[reads[0]][at] - wilds - 1
            value = -1 if value < -1 else value if value < _FAR else _FAR
        elif how == _SOME_GROUPS and len(reads) == 2:  # a half flush: no memo needed
            needed = two_group_need(groups[reads[0]], groups[reads[1]], sets)
            value = _FAR if needed >= INFEASIBLE else needed - wilds - 1
            value = -1 if value < -1 else value if value < _FAR else _FAR
        elif how == _SOME_GROUPS:  # ``_target_shanten``'s memo and key
            key = (wilds, tiles, *[id(groups[group]) for group in reads])
            memo = _SHANTEN_MEMO.get((target.mask, False))
            if memo is None:
                memo = _SHANTEN_MEMO[(target.mask, False)] = {}
            value = memo.get(key, -2)
            if value == -2:
                entries = [groups[group] for group in reads]
                value = min(shanten_of_entries(entries, tiles, wilds), _FAR)
                if len(memo) >= _SHANTEN_MEMO_LIMIT:
                    memo.clear()
                memo[key] = value
        else:
            value = _target_shanten(target, counts, wilds, packed)
        if value < lowest:
            lowest = value
    return lowest


def _two_group_slots(
    other: Sequence[int], entry: Sequence[int], sets: int, needed: int
) -> tuple[int, ...]:
    """``_floor_slots`` when the rest is one group (``other``'s entry as it is), without
    building the rest's lists: its no-pair and pair needs for ``own`` sets are read off
    the entry at ``NEED_BASE + 2 * own`` and the next position."""
    slots = []
    position = NEED_BASE + 2 * sets
    mine = NEED_BASE
    for _ in range(sets + 1):  # the other group takes ``own`` sets
        if other[mine] + entry[position + 1] == needed:
            slots.append(position + 1)
        if other[mine + 1] + entry[position] == needed:
            slots.append(position)
        position -= 2
        mine += 2
    return tuple(slots)


def _plan(target: _Target) -> tuple[int, tuple[int, ...]]:
    if target.pungs_only:
        return (_PUNGS if target.mask == ALL_KINDS else _GENERAL), _ALL_GROUPS
    if target.mask == ALL_KINDS:
        return _WHOLE_HAND, _ALL_GROUPS
    spans = _memo_spans(target.mask)
    if not spans:
        return _GENERAL, _ALL_GROUPS
    reads = tuple(start // 9 for start, _ in spans)
    return (_ONE_GROUP if len(reads) == 1 else _SOME_GROUPS), reads


def _floor_slots(
    rest: tuple[list[int], list[int]], entry: tuple[int, ...], sets: int, needed: int
) -> tuple[int, ...]:
    """The positions in ``entry`` (the sets and pair its group takes) of the splits that
    need exactly ``needed`` tiles with the other groups' merge ``rest``."""
    no_pair, with_pair = rest
    slots = []
    position = NEED_BASE + 2 * sets
    for own in range(sets + 1):  # the other groups take ``own`` sets
        if no_pair[own] + entry[position + 1] == needed:
            slots.append(position + 1)
        if with_pair[own] + entry[position] == needed:
            slots.append(position)
        position -= 2
    return tuple(slots)


def _keeping_ranks(
    group: int, pattern: bytes, entry: tuple[int, ...], slots: tuple[int, ...]
) -> int:
    """Bit r set when discarding rank r of ``pattern`` (a group's counts, whose entry is
    ``entry``) leaves its tiles needed unchanged at one of ``slots``. A pure function of
    the pattern and the slots, memoised: a group's counts and the splits reaching the
    floor recur across turns, seats and tables."""
    key = (pattern, slots)
    mask = _KEEPING.get(key)
    if mask is None:
        mask = 0
        fewer = bytearray(pattern)
        for rank, copies in enumerate(pattern):
            if not copies:
                continue
            fewer[rank] -= 1
            moved = group_entry(group, bytes(fewer))
            fewer[rank] += 1
            for slot in slots:
                if moved[slot] == entry[slot]:
                    mask |= 1 << rank
                    break
        if len(_KEEPING) >= _MERGE_MEMO_LIMIT:
            _KEEPING.clear()
        _KEEPING[key] = mask
    return mask


# (a group's counts, entry positions) -> ranks whose discard keeps one of them. This and
# the pair merges below hold small values; 50,000 of each is a few megabytes.
_MERGE_MEMO_LIMIT = 50_000
_KEEPING: dict[tuple[bytes, tuple[int, ...]], int] = {}


def _other_groups(
    groups: list[tuple[int, ...]],
    group: int,
    sets: int,
    reads: tuple[int, ...] = _ALL_GROUPS,
) -> tuple[list[int], list[int]]:
    """``shapes.combine_entries`` of the groups in ``reads`` but ``group``. For the whole
    hand it is one merge onto a memoised pair (characters and dots, or bamboo and
    honors): a seat's next turn usually leaves one of the two pairs as it was."""
    if len(reads) == 2:  # a half flush: the other group's entry as it is
        other = groups[reads[0] if reads[1] == group else reads[1]]
        key = (sets, id(other))
        merged = _SINGLE_GROUPS.get(key)
        if merged is None:
            if len(_SINGLE_GROUPS) >= _MERGE_MEMO_LIMIT:
                _SINGLE_GROUPS.clear()
            merged = _SINGLE_GROUPS[key] = combine_entries((other,), sets)
        return merged
    if len(reads) != 4:
        return combine_entries([groups[g] for g in reads if g != group], sets)
    if group < 2:
        return _merge_onto(_pair_merge(groups[2], groups[3], sets), groups[1 - group], sets)
    return _merge_onto(_pair_merge(groups[0], groups[1], sets), groups[5 - group], sets)


def _pair_merge(
    first: tuple[int, ...], second: tuple[int, ...], sets: int
) -> tuple[list[int], list[int]]:
    key = (sets, id(first), id(second))
    merged = _PAIR_MERGES.get(key)
    if merged is None:
        if len(_PAIR_MERGES) >= _MERGE_MEMO_LIMIT:
            _PAIR_MERGES.clear()
        merged = _PAIR_MERGES[key] = combine_entries((first, second), sets)
    return merged


def _merge_onto(
    merged: tuple[list[int], list[int]], entry: tuple[int, ...], sets: int
) -> tuple[list[int], list[int]]:
    return merge_entry(merged[0], merged[1], entry, sets)


# (sets, id of a group entry) -> its lists, as ``combine_entries`` gives them
_SINGLE_GROUPS: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
# (sets, ids of two group entries) -> their merge; entries live as long as the process
_PAIR_MERGES: dict[tuple[int, int, int], tuple[list[int], list[int]]] = {}


def _best_discard(
    view: PlayerView,
    counts: list[int],
    wilds: int,
    table: _Table,
    level: str,
    rng: random.Random,
    per_kind: dict[int, list[int]] | None = None,
) -> tuple[int, float]:
    """(kind, expected value after it) for a 3n+2 hand. Wilds are discarded only when
    nothing else is held. ``per_kind`` is ``_after_each_discard`` of this hand when the
    caller has it already."""
    candidates = [kind for kind in range(NUM_KINDS) if counts[kind]]
    if not candidates:
        assert table.wild is not None
        return table.wild, 0.0
    if not table.targets:
        # No target can be reached any more (should not happen): shed the loneliest tile.
        return rng.choice(candidates), 0.0
    if level == "easy":
        if per_kind is None:
            best_shanten, tied = _easy_discards(counts, wilds, table.targets, candidates)
        else:
            best_shanten = min(min(v) for v in per_kind.values())
            tied = [k for k in candidates if min(per_kind[k]) == best_shanten]
        return rng.choice(tied), float(-best_shanten)
    # Pass 1: shanten of every target after each discard.
    if per_kind is None:
        per_kind = _after_each_discard(counts, wilds, table.targets, candidates)
    rough: dict[int, float] = {}
    for kind in candidates:
        counts[kind] -= 1
        rough[kind] = _hand_value(counts, wilds, table, per_kind[kind], precise=False)
        counts[kind] += 1
    tenpai_now = min(min(v) for v in per_kind.values()) <= 0
    dangers = {k: _danger(view, table, k, tenpai_now) for k in candidates}
    shortlist = _shortlist(candidates, rough, dangers)
    if WHITE in shortlist and _WHITE_LAST_IN_TIES and _white_stands_in(view, table):
        # ``normal`` values a White as White, but it may also stand for the wild's kind
        # (Taizhou 白板代): of two discards that look as good, it is the one to keep.
        shortlist = [kind for kind in shortlist if kind != WHITE] + [WHITE]
    values: dict[int, float] = {}
    for kind in shortlist:
        counts[kind] -= 1
        values[kind] = _hand_value(counts, wilds, table, per_kind[kind], precise=True)
        counts[kind] += 1
    return _least_costly(shortlist, values, dangers)


def _white_stands_in(view: PlayerView, table: _Table) -> bool:
    """Whether a held White may be read as the wild's kind in this hand."""
    rules = get_rules(view.public.variant)
    return rules.white_substitutes_wild and table.wild is not None and table.wild != WHITE


def _shortlist(
    candidates: list[int], rough: dict[int, float], dangers: dict[int, float]
) -> list[int]:
    """The discards worth a precise value: the six best by the rough value (those at
    least half the best), and the two safest, because a safe but slower discard may win.
    Shared by ``normal`` and ``hard`` so their searches look at the same discards."""
    ordered = sorted(candidates, key=lambda k: (-rough[k], k))
    top = rough[ordered[0]]
    shortlist = [k for k in ordered[:6] if rough[k] >= top * 0.5] or ordered[:1]
    if any(dangers.values()):
        safer = sorted(candidates, key=lambda k: (dangers[k], -rough[k], k))[:2]
        shortlist += [k for k in safer if k not in shortlist]
    return shortlist


def _least_costly(
    shortlist: list[int], values: dict[int, float], dangers: dict[int, float]
) -> tuple[int, float]:
    """(kind, value less danger) of the best shortlisted discard; ties go to the earlier
    one in the shortlist, which keeps a seeded game's choices stable."""
    best_kind, best_score = shortlist[0], -math.inf
    for kind in shortlist:
        score = values[kind] - dangers[kind]
        if score > best_score + 1e-12:
            best_kind, best_score = kind, score
    return best_kind, best_score


def _easy_discard(
    counts: list[int],
    wilds: int,
    wild: int | None,
    targets: tuple[_Target, ...],
    rng: random.Random,
) -> int:
    """``_best_discard``'s kind at ``easy``, from what it reads at that level."""
    candidates = [kind for kind in range(NUM_KINDS) if counts[kind]]
    if not candidates:
        assert wild is not None
        return wild
    if not targets:
        return rng.choice(candidates)
    return rng.choice(_easy_discards(counts, wilds, targets, candidates)[1])


def _current_value(counts: list[int], wilds: int, table: _Table, precise: bool) -> float:
    return _hand_value(counts, wilds, table, _shantens(counts, wilds, table), precise)


def _claim_tiles(action: Action, claimed: int, wild: int | None = None) -> list[int]:
    """Own tiles a claim uses (the claimed tile excluded)."""
    if action.type == CHOW:
        tiles = list(action.tiles or ())
        # A discarded White chowed in Taizhou stands for the wild's kind in the chow.
        tiles.remove(claimed if claimed in tiles or wild is None else wild)
        return tiles
    if action.type == PUNG:
        return [claimed, claimed]
    return [claimed, claimed, claimed]


def _after_claim(
    view: PlayerView, action: Action, counts: list[int], claimed: int
) -> tuple[list[int], tuple[Meld, ...]] | None:
    """Own counts and melds after a claim, or None if the tiles are not held naturally
    (a Taizhou White standing in for the wild's kind is read as that White)."""
    new_counts = list(counts)
    for kind in _claim_tiles(action, claimed, view.public.wild):
        if new_counts[kind] > 0:
            new_counts[kind] -= 1
        elif new_counts[WHITE] > 0:
            new_counts[WHITE] -= 1
        else:
            return None
    tiles = tuple(sorted(action.tiles)) if action.type == CHOW and action.tiles else ()
    if action.type == PUNG:
        tiles = (claimed,) * 3
    elif action.type == KONG:
        tiles = (claimed,) * 4
    public = view.public
    discarder = public.last_discard[0] if public.last_discard else None
    # Only chow, pung and kong claims reach here (``_claim_tiles`` returned None otherwise).
    meld = Meld(cast(MeldType, action.type), tiles, from_seat=discarder, claimed=claimed)
    return new_counts, (*view.melds, meld)


def _after_kong(
    view: PlayerView, counts: list[int], table: _Table, kong_kind: int
) -> tuple[list[int], _Table]:
    """The concealed counts and table after declaring a kong of ``kong_kind`` on our turn:
    an added kong uses one tile from hand, a concealed kong four (a new meld)."""
    new_counts = list(counts)
    if any(m.type == PUNG and m.kind == kong_kind for m in view.melds):
        new_counts[kong_kind] -= 1
        melds = view.melds
    else:
        new_counts[kong_kind] -= 4
        melds = (*view.melds, Meld(KONG, (kong_kind,) * 4, concealed=True))
    return new_counts, _with_melds(table, melds, new_counts)


_TABLE_FIELDS = (
    "variant", "seat", "wild", "melds", "draws_left", "seat_wind", "prevailing_wind",
    "targets", "view", "_unseen",
)  # fmt: skip


def _with_melds(table: _Table, melds: tuple[Meld, ...], counts: list[int]) -> _Table:
    """The same table for a hypothetical hand after a claim or kong (``replace`` by
    hand: ``dataclasses.replace`` reads the fields each time, five times slower)."""
    return _Table(
        variant=table.variant,
        seat=table.seat,
        wild=table.wild,
        melds=melds,
        draws_left=table.draws_left,
        seat_wind=table.seat_wind,
        prevailing_wind=table.prevailing_wind,
        targets=_targets_for(table.variant, counts, melds),
        view=table.view,
        _unseen=table._unseen,
    )


def _claim_offer(view: PlayerView) -> tuple[int | None, list[Action], Action]:
    """What a claim window offers the seat: the claimed tile, the claims it may make, and
    its pass (the listed one, so a choice returns one of ``view.legal``)."""
    legal = view.legal
    claims = [a for a in legal if a.type in (CHOW, PUNG, KONG)]
    passing = next((a for a in legal if a.type == PASS), None) or Action(PASS, view.seat)
    return view.claim_tile, claims, passing


def _choose_claim(
    view: PlayerView, counts: list[int], wilds: int, table: _Table, level: str, rng: random.Random
) -> Action:
    claimed, claims, passing = _claim_offer(view)
    if claimed is None or not claims:
        return passing
    public = view.public
    discarder = public.last_discard[0] if public.last_discard else None
    now = _shantens(counts, wilds, table)
    now_best = min(now) if now else _FAR
    options: list[tuple[float, Action]] = []
    for action in claims:
        after = _after_claim(view, action, counts, claimed)
        if after is None:
            continue
        new_counts, melds = after
        new_table = _with_melds(table, melds, new_counts)
        if not new_table.targets:
            continue  # the claim would leave no reachable target
        if action.type == KONG:
            # Replacement draw follows: the hand is 3n+1 again at once.
            shantens = _shantens(new_counts, wilds, new_table)
            after_best = min(shantens)
        else:
            held = [kind for kind in range(NUM_KINDS) if new_counts[kind]]
            if level == "easy":  # only the best shanten matters, not each discard's
                after_best = (
                    _easy_discards(new_counts, wilds, new_table.targets, held, below=now_best)[0]
                    if held
                    else _FAR
                )
            else:
                after_discard = _after_each_discard(new_counts, wilds, new_table.targets, held)
                after_best = min([_FAR, *(min(values) for values in after_discard.values())])
        # A claim must move us on (a kong may keep the shanten: it still draws a tile).
        improves = after_best < now_best or (action.type == KONG and after_best <= now_best)
        if not improves:
            continue
        if level == "easy":
            options.append((float(now_best - after_best) + rng.random() * 1e-3, action))
            continue
        third_claim = (
            get_rules(public.variant).has_three_claim_liability
            and discarder is not None
            and _claims_from(view.melds, discarder) == 2
            and discarder not in public.seats[view.seat].liable_with
        )
        # A third claim from one player makes both liable (三摊): only when it leaves us
        # close to winning, since we then pay 5× for anyone else's win.
        if third_claim and after_best > 1:
            continue
        if action.type == KONG:
            value = _KONG_BONUS * _hand_value(
                new_counts, wilds, new_table, _shantens(new_counts, wilds, new_table), True
            )
        else:
            _, value = _best_discard(view, new_counts, wilds, new_table, level, rng, after_discard)
        options.append((value, action))
    if not options:
        return passing
    if level == "easy":
        return max(options, key=lambda item: item[0])[1]
    baseline = _current_value(counts, wilds, table, precise=True)
    value, action = max(options, key=lambda item: item[0])
    # Where concealed pungs score double (Taizhou) a claim must be clearly better; where
    # a concealed hand earns nothing (Jiaxing) any gain will do.
    margin = get_rules(public.variant).ai_profile.claim_margin
    return action if value > baseline * margin + 1e-9 else passing


def _choose_claim_easy(
    view: PlayerView, counts: list[int], wilds: int, rng: random.Random
) -> Action:
    """``_choose_claim`` at ``easy``, which reads only the targets: no table is built
    for the hand or for each claim (``_read_table``, ``_with_melds``), and the lowest
    shanten now is ``_lowest_shanten``. The same answer and the same draws from ``rng``.
    """
    claimed, claims, passing = _claim_offer(view)
    if claimed is None or not claims:
        return passing
    variant = view.public.variant
    now_best = _lowest_shanten(counts, wilds, _targets_for(variant, counts, view.melds))
    options: list[tuple[float, Action]] = []
    for action in claims:
        after = _after_claim(view, action, counts, claimed)
        if after is None:
            continue
        new_counts, melds = after
        targets = _targets_for(variant, new_counts, melds)
        if not targets:
            continue  # the claim would leave no reachable target
        if action.type == KONG:  # the replacement draw makes the hand 3n+1 again
            after_best = _lowest_shanten(new_counts, wilds, targets)
        else:
            held = [kind for kind in range(NUM_KINDS) if new_counts[kind]]
            after_best = (
                _easy_discards(new_counts, wilds, targets, held, below=now_best)[0]
                if held
                else _FAR
            )
        if after_best < now_best or (action.type == KONG and after_best <= now_best):
            options.append((float(now_best - after_best) + rng.random() * 1e-3, action))
    if not options:
        return passing
    return max(options, key=lambda item: item[0])[1]


def _choose_turn(
    view: PlayerView, counts: list[int], wilds: int, table: _Table, level: str, rng: random.Random
) -> Action:
    legal = view.legal
    kongs = [a for a in legal if a.type == KONG and a.tile is not None]
    kind, discard_value = _best_discard(view, counts, wilds, table, level, rng)
    for action in kongs:
        assert action.tile is not None
        new_counts, new_table = _after_kong(view, counts, table, action.tile)
        if not new_table.targets:
            continue
        shantens = _shantens(new_counts, wilds, new_table)
        if level == "easy":
            counts[kind] -= 1
            now = min(_shantens(counts, wilds, table))
            counts[kind] += 1
            if min(shantens) <= now:
                return action
            continue
        value = _hand_value(new_counts, wilds, new_table, shantens, precise=True)
        if value * _KONG_BONUS >= discard_value:
            return action
    return Action(DISCARD, view.seat, tile=kind)


def _choose_santan(
    view: PlayerView, counts: list[int], wilds: int, table: _Table, level: str
) -> Action:
    """Continue (跟) when close enough to win; fold (不跟) when far and the pair is strong."""
    if level == "easy":
        return Action(CONTINUE, view.seat)
    best = min(_shantens(counts, wilds, table)) if table.targets else _FAR
    public = view.public
    liable = [s for s in public.seats if s.liable_with and s.seat != view.seat]
    strongest = max((len(s.melds) for s in liable), default=0)
    if best <= 0:
        return Action(CONTINUE, view.seat)
    if best == 1 and (strongest <= 3 or public.tiles_left >= 30):
        return Action(CONTINUE, view.seat)
    if best == 2 and strongest <= 3 and public.tiles_left >= 50:
        return Action(CONTINUE, view.seat)
    return Action(FOLD, view.seat)


def choose_action(
    view: PlayerView, level: str = "normal", rng: random.Random | None = None
) -> Action:
    """The AI's action for this view: a pure function of ``(view, level, rng state)``.
    ``level`` is one of ``LEVELS`` or a simple policy of ``POLICIES``."""
    if level not in LEVELS and level not in POLICIES:
        raise ValueError(f"unknown AI level {level!r} ({', '.join(LEVELS)})")
    legal = view.legal
    if not legal:
        raise AIError(f"seat {view.seat} has nothing to decide now")
    rng = rng or random.Random(0)
    if level in POLICIES:
        return POLICIES[level](view, rng)
    types = {a.type for a in legal}
    if WIN in types:
        for action in legal:
            if action.type == WIN:
                return action  # a legal win always pays (the round has already scored it)
    wild = view.public.wild
    counts, wilds = _hand_counts(view, wild)
    if level == "easy" and CONTINUE not in types and DISCARD in types and KONG not in types:
        # ``_choose_turn`` without a kong to weigh: only the targets are read
        targets = _targets_for(view.public.variant, counts, view.melds)
        kind = _easy_discard(counts, wilds, wild, targets, rng)
        # The listed action itself, not an equal new one: it is kept in the match's
        # record, and a thousand tables' records are what the collector walks.
        for action in legal:
            if action.tile == kind and action.type == DISCARD:
                return action
        return Action(DISCARD, view.seat, tile=kind)
    if level == "easy" and CONTINUE not in types and DISCARD not in types and PASS in types:
        return _choose_claim_easy(view, counts, wilds, rng)
    table = _read_table(view, counts)
    if level == "hard":
        from . import ai_hard  # imports this module's helpers, so imported late

        return ai_hard.choose(view, counts, wilds, table, rng)
    if CONTINUE in types:
        return _choose_santan(view, counts, wilds, table, level)
    if DISCARD in types:
        return _choose_turn(view, counts, wilds, table, level, rng)
    if PASS in types:
        return _choose_claim(view, counts, wilds, table, level, rng)
    return legal[0]


def _hand_counts(view: PlayerView, wild: int | None) -> tuple[list[int], int]:
    """``count_hand(view.all_concealed, wild)`` from the counts the view carries."""
    counts = list(view.counts)
    if len(counts) != NUM_KINDS:  # a view object made without its counts
        return count_hand(view.all_concealed, wild)
    wilds = 0
    if wild is not None:
        wilds = counts[wild]
        counts[wild] = 0
    return counts, wilds


class AIPlayer:
    """A seat's AI. Each decision draws its randomness from ``(seed, hand, turn, seat)``,
    so the same view always gets the same answer, whatever was asked before."""

    def __init__(self, level: str = "normal", seed: int | str = 0) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r} ({', '.join(LEVELS)})")
        self.level = level
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        public = view.public
        rng = random.Random(f"{self.seed}:{public.hand_number}:{public.turn_id}:{view.seat}")
        return choose_action(view, self.level, rng)

    def __repr__(self) -> str:
        return f"AIPlayer(level={self.level!r}, seed={self.seed!r})"
