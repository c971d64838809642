"""The ``hard`` AI level: the normal evaluation, sharpened by lookahead, real scores and defence.

Why a separate module: ``normal`` must stay as fast as it is (the bot runs it on every
autoplay seat), and ``hard`` spends its budget on things ``normal`` does not do at all.

What ``hard`` adds, all computed from the ``PlayerView`` alone:

- **Sampled lookahead.** For the most promising discards it plays the remaining wall
  forward many times (draws sampled from the tiles it cannot see, a greedy discard after
  each draw toward the target that discard aims at) and blends the share of rollouts
  that complete with the analytic Poisson estimate of ``normal``. The samples come from
  the ``rng`` the caller passes (seeded per seat and turn), so a game replays exactly.
- **Real scores.** When a discard leaves the hand waiting, each wait is scored by the
  real scorer (``engine.scoring``) as a self-draw, and on a discard in Taizhou: a Jiaxing
  wait that completes no qualifying hand type is worth nothing, a Taizhou wait is worth
  its points and tai up to the cap.
- **Defence.** Each opponent gets a chance of being ready (from its melds and how long
  the hand has run) and each tile a chance of being its wait (no honor wait once every
  copy is in sight, fewer waits on what it threw away, off-suit tiles safe against a
  flush); a Taizhou discard win costs what we would pay plus the hand we give up, and a
  discard that would make us liable (全包: third dragon to a two-dragon hand, a live
  dragon while we are ready, feeding a flush its third claim) costs the whole table's
  payment. Jiaxing keeps ``normal``'s claim-feeding and three-claim model, weighted up.
- **三摊 by expected value.** Continue when our chance of winning times what the liable
  payments bring exceeds the liable pair's chance of winning times what we would pay.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from functools import lru_cache
from typing import Any

from . import ai as base
from . import ai_hard_core as core
from .scoring import score_hand
from .shapes import waits_counts
from .tiles import DRAGONS, NUM_KINDS
from .types import (
    CHOW,
    CONTINUE,
    DISCARD,
    FOLD,
    KONG,
    PUNG,
    Action,
    PlayerHand,
    WinContext,
    WinInfo,
)
from .variants import get_rules
from .variants.options import make_options
from .views import PlayerView, SeatView

# Two-step efficiency: for how many of the best discards, and up to which shanten (the
# search grows fast with distance; far hands keep the analytic estimate).
_TWO_STEP_CANDIDATES = 3
_TWO_STEP_MAX_SHANTEN = 2
# One "unit" of value in ``engine.ai``: a Jiaxing tai paid by each player, a plain
# Taizhou win (about thirteen points with the winning bonus). Real scores are turned
# into units with these.
_UNIT_POINTS = {"jiaxing": 1.0, "taizhou": 13.0}
# Chance an opponent is ready by exposed melds (0..4); later turns add to it.
_READY_BY_MELDS = (0.04, 0.14, 0.32, 0.58, 0.92)
_READY_PER_DISCARD = 0.018
_WAIT_BASE = 0.12  # share of a ready hand's waits one ordinary tile makes up
_JIAXING_DANGER_WEIGHT = 1.6
# Taizhou defence: the weight of a discard win in the plain case, and when folding
# (our distance >= 2 against an opponent this likely ready, or >= 1 against this one).
_TAIZHOU_DANGER_WEIGHT = 1.0
_FOLD_THREAT = (0.5, 0.8)
_FOLD_WEIGHT = 6.0  # normal's claim-feeding model, taken more seriously
# A Jiaxing third claim from one player (三摊) makes us liable for 5x payments: only
# when it leaves us at most this many steps from ready.
_THIRD_CLAIM_MAX_SHANTEN = 1


# Target values (units) where ``hard`` disagrees with ``normal``: a Taizhou full flush
# usually reaches the 100 cap (about eight plain wins), a half flush doubles the points
# and brings its honor pungs' tai. Names are ``engine.ai`` target names without the suit.
_TARGET_VALUES: dict[str, dict[str, float]] = {
    "jiaxing": {},
    "taizhou": {"full_flush": 3.0, "half_flush": 1.5, "pungs": 1.3},
}
# Claims must beat passing by this factor. Taizhou is a race (any shape wins on any
# discard), so a claim that speeds the hand up is taken even at a small loss of points.
_CLAIM_MARGIN = {"jiaxing": 1.0, "taizhou": 0.95}


def _retarget(table: base._Table) -> base._Table:
    """``table`` with ``hard``'s target values."""
    values = _TARGET_VALUES[table.variant]
    if not values:
        return table
    targets = tuple(
        replace(t, value=values.get(t.name.rstrip("012"), t.value)) for t in table.targets
    )
    return replace(table, targets=targets)


def _with_melds(table: base._Table, melds: tuple[Any, ...], counts: list[int]) -> base._Table:
    return _retarget(base._with_melds(table, melds, counts))


@lru_cache(maxsize=4)
def _default_options(variant: str) -> Any:
    return make_options(variant)


# --------------------------------------------------------------------------- real scores


def _wait_score(view: PlayerView, concealed14: tuple[int, ...], tile: int, by: str) -> float:
    """The real scorer's worth to us, in units, of winning with ``concealed14`` (0 if it is
    no legal win, e.g. a Jiaxing hand with no qualifying type)."""
    public = view.public
    players = []
    for seat_view in public.seats:
        if seat_view.seat == view.seat:
            players.append(PlayerHand(concealed14, view.melds))
        else:
            players.append(PlayerHand((), tuple(m for m in seat_view.melds if m.tiles)))
    discarder = (view.seat + 1) % public.num_seats if by == "discard" else None
    context = WinContext(
        variant=public.variant,
        options=_default_options(public.variant),
        seats=public.num_seats,
        indicator=public.indicator,
        wild=public.wild,
        dealer=public.dealer,
        winner=view.seat,
        win=WinInfo(tile=tile, by=by, from_seat=discarder),
        players=tuple(players),
        prevailing_wind=public.prevailing_wind,
        carried_fan=public.carried_fan,
        dice=public.dice,
    )
    try:
        result = score_hand(context)
    except Exception:  # an unusual hand the scorer rejects is simply not counted
        return 0.0
    if not result.valid:
        return 0.0
    if public.variant == "jiaxing":
        return float(result.score) / _UNIT_POINTS["jiaxing"]
    return float(min(result.total, 100)) / _UNIT_POINTS["taizhou"]


def _ready_value(
    view: PlayerView, hand13: list[int], counts: list[int], wilds: int, table: base._Table
) -> tuple[float, float]:
    """(live winning tiles, mean real score in units) of a waiting 13-tile hand."""
    try:
        waits = waits_counts(counts, wilds, table.wild)
    except Exception:
        return 0.0, 0.0
    live = 0.0
    worth = 0.0
    by = "self_draw" if view.public.variant == "jiaxing" else "discard"
    for kind in waits:
        if kind == table.wild:
            continue
        copies = table.unseen[kind]
        if not copies:
            continue
        score = _wait_score(view, tuple(sorted((*hand13, kind))), kind, by)
        if score <= 0:
            continue
        live += copies
        worth += copies * score
    if table.wild is not None and live:
        live += table.unseen[table.wild]
        worth += table.unseen[table.wild] * (worth / max(live - table.unseen[table.wild], 1))
    return live, (worth / live if live else 0.0)


# --------------------------------------------------------------------------- two-step efficiency


class _ShantenCache:
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


def _ukeire_cached(
    target: base._Target,
    counts: list[int],
    wilds: int,
    current: int,
    table: base._Table,
    cache: _ShantenCache,
) -> int:
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


def _next_step_outs(
    target: base._Target,
    counts: list[int],
    wilds: int,
    current: int,
    table: base._Table,
    cache: _ShantenCache,
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
                    outs = _ukeire_cached(target, counts, wilds, current - 1, table, cache)
                    if outs > best:
                        best = outs
                counts[discard] += 1
            total += copies * best
            weight += copies
        counts[kind] -= 1
    return total / weight if weight else 0.0


def _two_step_chance(
    current: int, first_outs: float, next_outs: float, table: base._Table
) -> float:
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


# --------------------------------------------------------------------------- defence


def _ready_chance(seat_view: SeatView) -> float:
    melds = min(len(seat_view.melds), 4)
    turns = len(seat_view.discards)
    return min(0.95, _READY_BY_MELDS[melds] + _READY_PER_DISCARD * max(0, turns - 5))


def _passed_since(view: PlayerView, other: int) -> set[int]:
    """Kinds discarded after ``other``'s last discard that it let go by: the latest
    discard of each seat between it and us in play order. A player who could have won
    on one of them would have (and a skipped win locks the kind until its next draw)."""
    public = view.public
    kinds: set[int] = set()
    seat = (other + 1) % public.num_seats
    while seat != view.seat:
        discards = public.seats[seat].discards
        if discards:
            kinds.add(discards[-1].tile)
        seat = (seat + 1) % public.num_seats
    return kinds


def _wait_chance(
    kind: int, seat_view: SeatView, table: base._Table, passed: set[int] | None = None
) -> float:
    """Chance that a ready opponent waits on ``kind`` (Taizhou discard wins)."""
    if kind == table.wild:
        return 0.0  # a discarded wild can be neither claimed nor won on
    if passed and kind in passed:
        return 0.1 * _WAIT_BASE
    unseen = table.unseen[kind]
    if kind >= 27:
        weight = (0.0, 0.35, 1.1, 0.7, 0.4)[unseen]
    else:
        rank = kind % 9
        weight = (0.6, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.6)[rank]
        if unseen == 0:
            weight *= 0.6  # only an edge/closed chow wait is left
        suits = base._apparent_suits(seat_view.melds)
        if len(suits) == 1 and len(seat_view.melds) >= 2 and kind // 9 not in suits:
            weight *= 0.35  # a one-suit hand rarely waits outside its suit
    if any(d.tile == kind for d in seat_view.discards):
        weight *= 0.4
    return weight * _WAIT_BASE


def _live_dragon(view: PlayerView, kind: int) -> bool:
    """Nobody discarded or exposed this dragon before (Taizhou liability case 3)."""
    for seat_view in view.public.seats:
        if any(d.tile == kind for d in seat_view.discards):
            return False
        if any(m.tiles and kind in m.tiles for m in seat_view.melds):
            return False
    return True


def _taizhou_danger(
    view: PlayerView, table: base._Table, kind: int, ready_after: bool, my_value: float
) -> float:
    """Expected cost (units) of discarding ``kind``: a discard win, and liability."""
    public = view.public
    me = view.seat
    cost = 0.0
    liability_possible = public.num_seats == 4
    for seat_view in public.seats:
        other = seat_view.seat
        if other == me:
            continue
        ready = _ready_chance(seat_view)
        wait = _wait_chance(kind, seat_view, table, _passed_since(view, other))
        hit = ready * wait
        # What we pay them (full with the dealer involved, else half), a bit more for a
        # developed hand, and the hand we give up by ending it now.
        dealer_involved = seat_view.is_dealer or public.seats[me].is_dealer
        payment = (1.5 if dealer_involved else 0.75) * (1.0 + 0.35 * len(seat_view.melds))
        cost += hit * (payment + my_value)
        if not liability_possible:
            continue
        melds = seat_view.melds
        dragon_pungs = {m.kind for m in melds if m.tiles and m.type != CHOW and m.kind in DRAGONS}
        everyone = 2.0 * payment + 1.0  # we pay what the whole table owed the winner
        if kind in DRAGONS and len(dragon_pungs) == 2 and kind not in dragon_pungs:
            cost += everyone * max(hit * 4.0, 0.25 * (1 if table.unseen[kind] >= 1 else 0))
        suits = base._apparent_suits(melds)
        if len(suits) == 1 and kind < 27 and kind // 9 in suits:
            fed = sum(
                1
                for m in melds
                if m.from_seat == me and m.tiles and m.kind < 27 and m.kind // 9 in suits
            )
            if fed >= 2:
                cost += everyone * (0.25 + hit)
        if ready_after and kind in DRAGONS and kind != table.wild and _live_dragon(view, kind):
            cost += everyone * hit
    return cost


def _threat(view: PlayerView) -> float:
    """The likeliest-ready opponent's chance of being ready."""
    return max(
        (_ready_chance(s) for s in view.public.seats if s.seat != view.seat and not s.folded),
        default=0.0,
    )


def _danger_weight(view: PlayerView, distance: int) -> float:
    """How much a Taizhou discard win weighs against our own chances. Far from ready
    against a likely-ready opponent our hand is worth little and a deal-in ends the
    hand on the spot, so the safest tile wins (folding); otherwise the plain estimate."""
    threat = _threat(view)
    if distance >= 2 and threat >= _FOLD_THREAT[0]:
        return _FOLD_WEIGHT
    if distance >= 1 and threat >= _FOLD_THREAT[1]:
        return _FOLD_WEIGHT
    return _TAIZHOU_DANGER_WEIGHT


def _danger(
    view: PlayerView,
    table: base._Table,
    kind: int,
    ready_after: bool,
    my_value: float,
    weight: float = 1.0,
) -> float:
    if table.variant == "taizhou":
        return weight * _taizhou_danger(view, table, kind, ready_after, my_value)
    return _JIAXING_DANGER_WEIGHT * base._danger(view, table, kind, ready_after)


# --------------------------------------------------------------------------- discards


def _offense(
    view: PlayerView,
    counts: list[int],
    wilds: int,
    table: base._Table,
    shantens: list[int],
    cache: _ShantenCache,
    deep: bool,
) -> float:
    """Expected worth (units) of this 3n+1 hand: the analytic estimate per target, the
    real scorer's value when the hand is waiting, and two-step efficiency on request."""
    values = base._target_values(counts, table)
    best, best_index, best_outs = 0.0, -1, 0.0
    for index, current in enumerate(shantens):
        if values[index] * base._win_chance(current, base._MAX_OUTS, table) <= best:
            continue
        improving = float(
            _ukeire_cached(table.targets[index], counts, wilds, current, table, cache)
        )
        worth = values[index] * base._win_chance(current, improving, table)
        if worth > best:
            best, best_index, best_outs = worth, index, improving
    if best_index < 0:
        return 0.0
    current = shantens[best_index]
    if current == 0 and min(shantens) == 0:
        hand13 = [kind for kind in range(NUM_KINDS) for _ in range(counts[kind])]
        hand13 += [table.wild] * wilds if table.wild is not None else []
        live, worth = _ready_value(view, hand13, counts, wilds, table)
        if live <= 0:
            return best * 0.2  # waiting on nothing that scores: only by changing waits
        boost = get_rules(table.variant).ai_ready_boost
        chance = 1.0 - math.exp(-table.draws_left * live * boost / table.unseen_total)
        return chance * worth
    if deep and 1 <= current <= _TWO_STEP_MAX_SHANTEN:
        target = table.targets[best_index]
        next_outs = _next_step_outs(target, counts, wilds, current, table, cache)
        return values[best_index] * _two_step_chance(current, best_outs, next_outs, table)
    return best


def best_discard(
    view: PlayerView,
    counts: list[int],
    wilds: int,
    table: base._Table,
    cache: _ShantenCache,
    deep: bool = True,
) -> tuple[int, float]:
    """(kind, expected value after discarding it, danger included) for a 3n+2 hand."""
    candidates = [kind for kind in range(NUM_KINDS) if counts[kind]]
    if not candidates:
        assert table.wild is not None
        return table.wild, 0.0
    if not table.targets:
        return min(candidates, key=lambda k: _danger(view, table, k, False, 0.0)), 0.0
    per_kind: dict[int, list[int]] = {}
    rough: dict[int, float] = {}
    for kind in candidates:
        counts[kind] -= 1
        per_kind[kind] = base._shantens(counts, wilds, table)
        rough[kind] = base._hand_value(counts, wilds, table, per_kind[kind], precise=False)
        counts[kind] += 1
    ordered = sorted(candidates, key=lambda k: (-rough[k], k))
    top = rough[ordered[0]]
    shortlist = [k for k in ordered[:6] if rough[k] >= top * 0.4] or ordered[:1]
    offense: dict[int, float] = {}
    for kind in shortlist:
        counts[kind] -= 1
        offense[kind] = _offense(
            view,
            counts,
            wilds,
            table,
            per_kind[kind],
            cache,
            deep,
        )
        counts[kind] += 1
    my_value = max(offense.values(), default=0.0)
    distance = min(min(shantens) for shantens in per_kind.values())
    weight = _danger_weight(view, distance) if table.variant == "taizhou" else 1.0
    dangers = {
        kind: _danger(view, table, kind, min(per_kind[kind]) <= 0, my_value, weight)
        for kind in candidates
    }
    # Safe discards outside the shortlist are scored too: folding is a discard choice.
    for kind in sorted(candidates, key=lambda k: (dangers[k], -rough[k], k))[:3]:
        if kind not in offense:
            counts[kind] -= 1
            offense[kind] = _offense(view, counts, wilds, table, per_kind[kind], cache, deep)
            counts[kind] += 1
    best_kind, best_score = shortlist[0], -math.inf
    for kind in sorted(offense):
        score = offense[kind] - dangers[kind]
        if score > best_score + 1e-12:
            best_kind, best_score = kind, score
    return best_kind, best_score


def _choose_turn(
    view: PlayerView, counts: list[int], wilds: int, table: base._Table, cache: _ShantenCache
) -> Action:
    kind, discard_value = best_discard(view, counts, wilds, table, cache)
    for action in view.legal:
        if action.type != KONG or action.tile is None:
            continue
        kong_kind = action.tile
        added = any(m.type == PUNG and m.kind == kong_kind for m in view.melds)
        new_counts = list(counts)
        if added:
            new_counts[kong_kind] -= 1
            melds = view.melds
        else:
            new_counts[kong_kind] -= 4
            melds = (*view.melds, base.Meld(KONG, (kong_kind,) * 4, concealed=True))
        new_table = _with_melds(table, melds, new_counts)
        if not new_table.targets:
            continue
        shantens = base._shantens(new_counts, wilds, new_table)
        value = _offense(view, new_counts, wilds, new_table, shantens, cache, False)
        # An added kong can be robbed (Taizhou: by anyone ready; Jiaxing: a self-draw
        # win for the robber, paid by us alone), so it must be worth the exposure.
        robbed = 0.0
        if added:
            robbed = sum(
                _ready_chance(s) * _wait_chance(kong_kind, s, table) * 3.0
                for s in view.public.seats
                if s.seat != view.seat and not s.folded
            )
        if value * base._KONG_BONUS - robbed >= discard_value:
            return action
    return Action(DISCARD, view.seat, tile=kind)


def _choose_claim(
    view: PlayerView, counts: list[int], wilds: int, table: base._Table, cache: _ShantenCache
) -> Action:
    """Claim when the best discard after the claim (lookahead, real scores and defence
    included) beats keeping the hand; a Jiaxing third claim from one player (三摊) only
    when it leaves us at most one step from winning."""
    passing = Action("pass", view.seat)
    claimed = view.claim_tile
    claims = [a for a in view.legal if a.type in (CHOW, PUNG, KONG)]
    if claimed is None or not claims:
        return passing
    public = view.public
    discarder = public.last_discard[0] if public.last_discard else None
    third_claim = (
        public.variant == "jiaxing"
        and discarder is not None
        and base._claims_from(view.melds, discarder) == 2
        and discarder not in public.seats[view.seat].liable_with
    )
    best_value, best_action = -math.inf, passing
    for action in claims:
        after = base._after_claim(view, action, counts, claimed)
        if after is None:
            continue
        new_counts, melds = after
        new_table = _with_melds(table, melds, new_counts)
        if not new_table.targets:
            continue
        if action.type == KONG:
            shantens = base._shantens(new_counts, wilds, new_table)
            if third_claim and min(shantens) > _THIRD_CLAIM_MAX_SHANTEN:
                continue
            value = base._KONG_BONUS * _offense(
                view, new_counts, wilds, new_table, shantens, cache, False
            )
        else:
            if third_claim:
                after_best = base._FAR
                for kind in range(NUM_KINDS):
                    if new_counts[kind]:
                        new_counts[kind] -= 1
                        after_best = min(after_best, *base._shantens(new_counts, wilds, new_table))
                        new_counts[kind] += 1
                if after_best > _THIRD_CLAIM_MAX_SHANTEN:
                    continue
            _, value = best_discard(view, new_counts, wilds, new_table, cache, deep=False)
        if value > best_value:
            best_value, best_action = value, action
    if best_action is passing:
        return passing
    _, pass_value = best_discard_after_pass(view, counts, wilds, table, cache)
    if best_value > pass_value * _CLAIM_MARGIN[table.variant] + 1e-9:
        return best_action
    return passing


def best_discard_after_pass(
    view: PlayerView, counts: list[int], wilds: int, table: base._Table, cache: _ShantenCache
) -> tuple[None, float]:
    """Worth of the 13-tile hand we keep by passing a claim."""
    shantens = base._shantens(counts, wilds, table)
    return None, _offense(view, counts, wilds, table, shantens, cache, False)


# --------------------------------------------------------------------------- 三摊


def _choose_santan(
    view: PlayerView, counts: list[int], wilds: int, table: base._Table, cache: _ShantenCache
) -> Action:
    """Continue when what we expect to win under 5× payments beats what we expect to pay."""
    public = view.public
    if not table.targets:
        return Action(FOLD, view.seat)
    shantens = base._shantens(counts, wilds, table)
    worth = _offense(view, counts, wilds, table, shantens, cache, True)
    values = base._target_values(counts, table)
    best_value = max(values) if values else 1.0
    my_chance = min(1.0, worth / best_value) if best_value > 0 else 0.0
    liable = [s for s in public.seats if s.liable_with and s.seat != view.seat]
    others = [
        s
        for s in public.seats
        if s.seat != view.seat and not s.folded and s not in liable and not s.liable_with
    ]
    # Who else wins before us, and what a win in this hand typically costs (Jiaxing tai,
    # about three with the flush types that dominate, five-fold under liability).
    typical = 3.0
    threat = sum(_ready_chance(s) + 0.1 * len(s.melds) for s in liable)
    threat += 0.5 * sum(_ready_chance(s) for s in others)
    threat = min(threat, 0.95)
    payers = len(liable) + len(others)
    gain = worth * 5.0 * payers
    loss = threat * (1 - my_chance) * typical * 5.0
    return Action(CONTINUE if gain >= loss else FOLD, view.seat)


def choose(
    view: PlayerView, counts: list[int], wilds: int, table: Any, rng: random.Random
) -> Action:
    """``hard``'s decision once ``engine.ai.choose_action`` has handled wins. It draws
    nothing from ``rng`` (every estimate is deterministic), so a game replays exactly."""
    types = {a.type for a in view.legal}
    if _CORE:
        return _choose_core(view, counts, wilds, table, rng, types)
    table = _retarget(table)
    cache = _ShantenCache()
    if CONTINUE in types:
        return _choose_santan(view, counts, wilds, table, cache)
    if DISCARD in types:
        return _choose_turn(view, counts, wilds, table, cache)
    if "pass" in types:
        return _choose_claim(view, counts, wilds, table, cache)
    return view.legal[0]


_CORE = True


def _choose_core(
    view: PlayerView,
    counts: list[int],
    wilds: int,
    table: base._Table,
    rng: random.Random,
    types: set[str],
) -> Action:
    cache = core.ShantenCache()
    if CONTINUE in types:
        return base._choose_santan(view, counts, wilds, table, "normal")
    if DISCARD in types:
        extra = None
        if table.variant == "taizhou":

            def extra(kind: int, distance: int) -> float:
                weight = _danger_weight(view, distance)
                if weight < _FOLD_WEIGHT:
                    return 0.0
                return weight * _taizhou_danger(view, table, kind, False, 0.0)

        kind, discard_value = core.best_discard(view, counts, wilds, table, cache, extra)
        for action in view.legal:
            if action.type != KONG or action.tile is None:
                continue
            kong_kind = action.tile
            added = any(m.type == PUNG and m.kind == kong_kind for m in view.melds)
            new_counts = list(counts)
            if added:
                new_counts[kong_kind] -= 1
                melds = view.melds
            else:
                new_counts[kong_kind] -= 4
                melds = (*view.melds, base.Meld(KONG, (kong_kind,) * 4, concealed=True))
            new_table = base._with_melds(table, melds, new_counts)
            if not new_table.targets:
                continue
            shantens = base._shantens(new_counts, wilds, new_table)
            value = core.hand_value(new_counts, wilds, new_table, shantens, cache)
            if value * base._KONG_BONUS >= discard_value:
                return action
        return Action(DISCARD, view.seat, tile=kind)
    if "pass" in types:
        return base._choose_claim(view, counts, wilds, table, "normal", rng)
    return view.legal[0]
