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
from dataclasses import dataclass

from . import ai as base
from .tiles import NUM_KINDS
from .variants import get_rules
from .views import PlayerView

# Two-step efficiency is searched up to this shanten (the search grows fast with
# distance; far hands keep the analytic estimate, where it matters little).
TWO_STEP_MAX_SHANTEN = 2

# Calibration of the analytic chance against measured outcomes. The analytic chance
# (``two_step_chance``) treats our hand as racing nobody: measured over 500 self-play
# hands of ``normal`` per rule set, a ready Jiaxing half flush it rated 0.86 won 0.68 of
# the time, a Taizhou hand three steps away it rated 0.04 won 0.15, and every opponent
# meld on the table cut the real chance. A logistic model per target family maps
# (analytic chance, distance, the most melds any opponent shows, tiles left, our own
# melds) to the measured chance; ``benchmarks/calibrate_hard.py`` refits it.
# Coefficients: intercept, logit(analytic chance), ready, one step, two steps,
# opponent melds / 4, tiles left / 100, own melds / 4.
CALIBRATION: dict[str, dict[str, tuple[float, ...]]] = {
    "jiaxing": {
        "pungs": (0.608, 1.3159, -1.5955, -0.7962, 0.1806, -1.197, 2.1513, -0.503),
        "half_flush": (-0.1564, 0.9567, -0.5567, -0.4975, 0.0648, -1.3296, 2.613, -0.6743),
        "full_flush": (0.3323, 0.7907, -0.3262, -0.4337, 0.052, -1.2764, 0.7756, 0.2509),
    },
}
# Taizhou has a fit too (``calibrate_hard.py --variant taizhou``: far hands win about
# 0.15 where the analytic chance says 0.04) but it is not used: it compresses the
# values of near hands, so ``normal``'s danger costs, tuned against the analytic scale,
# outweigh them (a ready hand at the start kept back for a 0.03 liability risk), and in
# paired runs it did no better than the analytic chance.


# A second estimate of the values of the hands one decision compares, given each hand as
# (counts, jokers, table, shantens, its analytic value): ``hard`` blends its sampled
# estimate in through it.
Hand = tuple[list[int], int, base._Table, list[int], float]
Sampled = Callable[[list[Hand]], list[float]]


@dataclass(frozen=True)
class Race:
    """What the calibration reads from the table besides our hand: how far the
    opponents have come (the most melds one shows) and how much wall is left."""

    opponent_melds: int
    tiles_left: int


def calibration_family(variant: str, target_name: str) -> str | None:
    """The fitted model for a target, or None where the rule set has none."""
    models = CALIBRATION.get(variant)
    if models is None:
        return None
    family = target_name.rstrip("012")
    return family if family in models else "half_flush"


def calibrated_chance(
    variant: str, target_name: str, shanten: int, chance: float, own_melds: int, race: Race
) -> float:
    """The measured chance of completing a target that the analytic model rates
    ``chance``: its logistic calibration (unchanged for a rule set without one)."""
    family = calibration_family(variant, target_name)
    if family is None or shanten < 0:
        return chance
    coefs = CALIBRATION[variant][family]
    clipped = min(max(chance, 1e-3), 1.0 - 1e-3)
    z = (
        coefs[0]
        + coefs[1] * math.log(clipped / (1.0 - clipped))
        + (coefs[2 + shanten] if shanten <= 2 else 0.0)
        + coefs[5] * min(race.opponent_melds, 4) / 4
        + coefs[6] * race.tiles_left / 100
        + coefs[7] * min(own_melds, 4) / 4
    )
    return 1.0 / (1.0 + math.exp(-z))


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
    race: Race | None = None,
) -> float:
    """``base._hand_value(precise=True)`` with two-step efficiency for near targets and,
    given the ``race``, the calibrated chance."""
    values = base._target_values(counts, table)
    rough = []
    for index, current in enumerate(shantens):
        typical = base._TYPICAL_OUTS[min(current, len(base._TYPICAL_OUTS) - 1)]
        rough.append(values[index] * base._win_chance(current, typical, table))
    best = 0.0
    # Claimed melds only: the fit saw almost no concealed kongs, and a kong must not
    # look worse for the meld it adds (it keeps the hand closed and draws a tile).
    own_melds = sum(1 for meld in table.melds if not meld.concealed)

    def calibrate(name: str, current: int, chance: float) -> float:
        if race is None:
            return chance
        return calibrated_chance(table.variant, name, current, chance, own_melds, race)

    for index in sorted(range(len(shantens)), key=lambda i: -rough[i]):
        current = shantens[index]
        target = table.targets[index]
        bound = calibrate(target.name, current, base._win_chance(current, base._MAX_OUTS, table))
        if values[index] * bound <= best:
            continue
        improving = float(ukeire(target, counts, wilds, current, table, cache))
        if 1 <= current <= TWO_STEP_MAX_SHANTEN:
            later = next_step_outs(target, counts, wilds, current, table, cache)
            chance = two_step_chance(current, improving, later, table)
        else:
            chance = base._win_chance(current, improving, table)
        worth = values[index] * calibrate(target.name, current, chance)
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
    race: Race | None = None,
    sampled: Sampled | None = None,
) -> tuple[int, float]:
    """(kind, expected value after it) for a 3n+2 hand: ``normal``'s search and danger,
    ``hand_value`` for the shortlisted discards. ``extra_danger(kind, distance)`` adds a
    cost per discard given our best shanten after the discard (``hard``'s folding);
    ``sampled`` blends in a second estimate of each shortlisted hand's value."""
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
    tenpai_now = min(min(v) for v in per_kind.values()) <= 0
    dangers = {k: base._danger(view, table, k, tenpai_now) for k in candidates}
    if extra_danger is not None:
        distance = min(min(v) for v in per_kind.values())
        for kind in candidates:
            dangers[kind] += extra_danger(kind, distance)
    shortlist = base._shortlist(candidates, rough, dangers)
    values: dict[int, float] = {}
    for kind in shortlist:
        counts[kind] -= 1
        values[kind] = hand_value(counts, wilds, table, per_kind[kind], cache, race)
        counts[kind] += 1
    if sampled is not None and len(shortlist) > 1:
        hands = []
        for kind in shortlist:
            counts[kind] -= 1
            hands.append((list(counts), wilds, table, per_kind[kind], values[kind]))
            counts[kind] += 1
        values = dict(zip(shortlist, sampled(hands), strict=True))
    return base._least_costly(shortlist, values, dangers)
