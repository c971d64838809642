"""``hard``'s discard search: ``normal``'s evaluation with two-step tile efficiency.

Why a copy of ``normal``'s loop rather than a call: the loop's inner value is where
``hard`` differs (the second step's real outs instead of a typical count), and
``engine.ai`` must keep ``normal`` exactly as it is. Measured with paired hands (the same
deal played once with ``hard`` and once with ``normal`` in one seat), ``hard``'s earlier
rollout/real-score/defence evaluation lost to ``normal`` in both rule sets, so this
module starts from ``normal`` and adds only what the paired runs showed to help.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from . import ai as base
from .tiles import NUM_KINDS
from .variants import get_rules
from .views import PlayerView

# Two-step efficiency is searched up to this shanten (the search grows fast with
# distance; far hands keep the analytic estimate, where it matters little).
TWO_STEP_MAX_SHANTEN = 2


class ShantenCache:
    """Per-decision memo of target shanten: the two-step search meets the same hands again
    and again (a different discard, then the same draw and discard)."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, bytes, int], int] = {}

    def get(self, target: base._Target, counts: list[int], wilds: int) -> int:
        key = (target.name, bytes(counts), wilds)
        value = self.values.get(key)
        if value is None:
            value = base._target_shanten(target, counts, wilds)
            self.values[key] = value
        return value


def ukeire(
    target: base._Target,
    counts: list[int],
    wilds: int,
    current: int,
    table: base._Table,
    cache: ShantenCache,
) -> int:
    """``base._ukeire`` through the cache."""
    total = 0
    unseen = table.unseen
    for kind in base._improving_kinds(target, counts):
        if kind == table.wild or not unseen[kind]:
            continue
        counts[kind] += 1
        if cache.get(target, counts, wilds) < current:
            total += unseen[kind]
        counts[kind] -= 1
    if table.wild is not None and current >= 0:
        total += unseen[table.wild]
    return total


def next_step_outs(
    target: base._Target,
    counts: list[int],
    wilds: int,
    current: int,
    table: base._Table,
    cache: ShantenCache,
) -> float:
    """Mean improving tiles one step later: over each improving draw (weighted by its
    live copies), the best ukeire after the best discard that keeps the gain.

    Why: ``normal`` charges every later step a typical number of outs, so two hands with
    equal first-step outs look alike even when one turns into a wide wait and the other
    into a single-tile wait. This is the classic two-step tile efficiency."""
    unseen = table.unseen
    total = 0.0
    weight = 0
    for kind in base._improving_kinds(target, counts):
        copies = unseen[kind]
        if kind == table.wild or not copies:
            continue
        counts[kind] += 1
        if cache.get(target, counts, wilds) < current:
            best = 0
            for discard in range(NUM_KINDS):
                if not counts[discard]:
                    continue
                counts[discard] -= 1
                if cache.get(target, counts, wilds) == current - 1:
                    outs = ukeire(target, counts, wilds, current - 1, table, cache)
                    if outs > best:
                        best = outs
                counts[discard] += 1
            total += copies * best
            weight += copies
        counts[kind] -= 1
    return total / weight if weight else 0.0


def two_step_chance(current: int, first_outs: float, next_outs: float, table: base._Table) -> float:
    """``base._win_chance`` with the second step's real outs in place of a typical count."""
    steps = current + 1
    if steps <= 0:
        return 1.0
    ready = get_rules(table.variant).ai_ready_boost
    inverse = 1.0 / max(first_outs * (ready if current == 0 else 1.0), 0.5)
    for later in range(current):
        if later == current - 1:
            inverse += 1.0 / max(next_outs * (ready if later == 0 else 1.0), 0.5)
        else:
            typical = base._INV_TYPICAL_OUTS[min(later, len(base._INV_TYPICAL_OUTS) - 1)]
            inverse += typical / ready if later == 0 else typical
    rate = table.draws_left * steps / (inverse * table.unseen_total)
    return base._poisson_at_least(steps, rate)


def hand_value(
    counts: list[int],
    wilds: int,
    table: base._Table,
    shantens: list[int],
    cache: ShantenCache,
) -> float:
    """``base._hand_value(precise=True)`` with two-step efficiency for near targets."""
    values = base._target_values(counts, table)
    rough = []
    for index, current in enumerate(shantens):
        typical = base._TYPICAL_OUTS[min(current, len(base._TYPICAL_OUTS) - 1)]
        rough.append(values[index] * base._win_chance(current, typical, table))
    best = 0.0
    for index in sorted(range(len(shantens)), key=lambda i: -rough[i]):
        current = shantens[index]
        if values[index] * base._win_chance(current, base._MAX_OUTS, table) <= best:
            continue
        target = table.targets[index]
        improving = float(ukeire(target, counts, wilds, current, table, cache))
        if 1 <= current <= TWO_STEP_MAX_SHANTEN:
            later = next_step_outs(target, counts, wilds, current, table, cache)
            worth = values[index] * two_step_chance(current, improving, later, table)
        else:
            worth = values[index] * base._win_chance(current, improving, table)
        if worth > best:
            best = worth
    return best


def best_discard(
    view: PlayerView,
    counts: list[int],
    wilds: int,
    table: base._Table,
    cache: ShantenCache,
    extra_danger: Callable[[int, int], float] | None = None,
) -> tuple[int, float]:
    """(kind, expected value after it) for a 3n+2 hand: ``normal``'s search and danger,
    ``hand_value`` for the shortlisted discards. ``extra_danger(kind, distance)`` adds a
    cost per discard given our best shanten after the discard (``hard``'s folding)."""
    candidates = [kind for kind in range(NUM_KINDS) if counts[kind]]
    if not candidates:
        assert table.wild is not None
        return table.wild, 0.0
    if not table.targets:
        return candidates[0], 0.0
    per_kind: dict[int, list[int]] = {}
    for kind in candidates:
        counts[kind] -= 1
        per_kind[kind] = [cache.get(t, counts, wilds) for t in table.targets]
        counts[kind] += 1
    rough: dict[int, float] = {}
    for kind in candidates:
        counts[kind] -= 1
        rough[kind] = base._hand_value(counts, wilds, table, per_kind[kind], precise=False)
        counts[kind] += 1
    ordered = sorted(candidates, key=lambda k: (-rough[k], k))
    top = rough[ordered[0]]
    shortlist = [k for k in ordered[:6] if rough[k] >= top * 0.5] or ordered[:1]
    tenpai_now = min(min(v) for v in per_kind.values()) <= 0
    dangers = {k: base._danger(view, table, k, tenpai_now) for k in candidates}
    if extra_danger is not None:
        distance = min(min(v) for v in per_kind.values())
        for kind in candidates:
            dangers[kind] += extra_danger(kind, distance)
    if any(dangers.values()):
        safer = sorted(candidates, key=lambda k: (dangers[k], -rough[k], k))[:2]
        shortlist += [k for k in safer if k not in shortlist]
    best_kind, best_score = shortlist[0], -math.inf
    for kind in shortlist:
        counts[kind] -= 1
        value = hand_value(counts, wilds, table, per_kind[kind], cache)
        counts[kind] += 1
        score = value - dangers[kind]
        if score > best_score + 1e-12:
            best_kind, best_score = kind, score
    return best_kind, best_score
