"""The ``hard`` AI level: ``normal``'s search with a measured win chance and defence.

Why a separate module: ``normal`` must stay as it is (the bot runs it on every autoplay
seat), and ``hard`` spends its larger time budget on what ``normal`` estimates roughly.
Every rule here was kept because it measured better on paired deals (the same deal played
with and without it in one seat; ``benchmarks/paired_ai.py``): 400-hand self-play runs
are too noisy to rank two close players. ``docs/ai_hard.md`` keeps those figures and
the ideas that measured no better. ``hard`` is ``normal`` plus:

- **Two-step tile efficiency** (``engine.ai_hard_core``): one or two steps from ready,
  a target's chance uses the real outs of the next step, not a typical count.
- **A measured win chance** (``engine.ai_hard_core.CALIBRATION``, Jiaxing): the analytic
  chance races the wall alone, rating ready hands too high and far hands too low; a
  logistic model fitted on self-play (opponents' melds, tiles left, distance) corrects
  it for discards, kongs and claims alike.
- **Taizhou defence** (``engine.ai_hard_defence``): fitted models of "is that seat
  ready" and "would this tile win for it now" decide when to fold (two steps from ready
  against a possibly ready seat, one against a likely ready one) and, while folding,
  rank the tiles; the 全包 (full liability) cases always cost. While pushing only
  ``normal``'s danger counts: a Taizhou deal-in costs little more than another seat's
  win, so defence that slows the hand does not pay.
- **Sampled playouts** (``engine.ai_hard_sample``): over guesses of the hidden tiles
  they see every step of the hand's own shape, racing hands that end at the rate
  measured for the rule set; they only rank the shortlisted discards. In Taizhou they
  also claim the others' guessed discards: most of its wins come within five rounds,
  on claims and discards.
- **Taizhou speed floor** (``_keep_efficient``): a Taizhou hand is a race, so a discard
  that leaves the hand further from ready, or keeps under 60 % of the best outs, gives
  way to the fastest one unless that one is markedly more dangerous.
- **Tempo pung** (``_tempo_pung``, Taizhou): a pung from across or the right is taken
  even when it brings the hand no closer to ready, because it skips the others' turns.

Replayable: the calibration was fitted offline, and the playouts' guesses come from one
draw of the ``rng`` the caller passes (``AIPlayer`` seeds it from the seat, hand and
turn), so a seeded game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from . import ai as base
from . import ai_hard_core as core
from . import ai_hard_defence as defence
from . import ai_hard_sample as sample
from .shapes import shanten, white_readings
from .tiles import DRAGONS, NUM_KINDS, WHITE
from .types import CHOW, CONTINUE, DISCARD, FOLD, KONG, PASS, PUNG, Action
from .variants import get_rules
from .views import PlayerView, SeatView

# Chance an opponent is ready by exposed melds (0..4); later turns add to it.
_READY_BY_MELDS = (0.04, 0.14, 0.32, 0.58, 0.92)
_READY_PER_DISCARD = 0.018
_WAIT_BASE = 0.12  # share of a ready hand's waits one ordinary tile makes up
# Taizhou folding: our distance (shanten) and the likeliest-ready opponent's chance that
# trigger it, and the weight the danger then gets against our hand's value. Pushing (not
# folding) weighs none of it beyond ``normal``'s danger; the weight it had until stop 28
# is in ``docs/ai_hard.md``, under "Fresh deals".
_FOLD_THREAT = (0.3, 0.6)  # distance >= 2, distance >= 1
_FOLD_WEIGHT = 6.0
# The share of the wall ``hard`` expects to draw, relative to ``normal``'s
# (``Variant.ai_horizon``). Jiaxing hands run long (a third end in a draw, nobody wins on
# a discard); paired runs (300 deals each) ranked 0.7 < 1.0 < 1.3 ≈ 1.6 > 2.0 by wins and
# score, and 1.3 held up on fresh deals.
_HORIZON_SCALE = {"jiaxing": 1.3}
# How far the sampled playouts (``engine.ai_hard_sample``) move the analytic values of
# the shortlisted discards, per rule set; measured with paired deals against weight 0
# (hard as it was): Jiaxing 0.5 scored +0.55 (-0.26..1.37) and +0.67 (-0.59..1.93) per
# deal on two sets of 300 deals and won 58 and 81 hands against 47 and 74 (1.0: +0.30).
# Taizhou playouts that only draw lost with every weight and form tried (0.5: -1.7,
# 1.0: -1.9 and, taken as they are, -3.7 per deal over 300 deals; also far fewer wins).
# Claiming playouts at 0.5 (against hard without playouts, 400 deals): +0.9 with 103
# wins against 100 where drawing-only playouts scored -1.2 with 94 wins; weight 1.0
# did no better (-0.4).
_SAMPLED_WEIGHT = {"jiaxing": 0.5, "taizhou": 0.5}
# Rule sets whose playouts claim the others' guessed discards (``ai_hard_sample``).
# Tried for Jiaxing and dropped (300 deals): claiming playouts -0.60 (-1.56..0.35), 40
# guesses instead of 24 -0.39 (-1.09..0.31).
_PLAYOUT_CLAIMS = {"taizhou": True}
# How fast hands end, measured over 200 hands of ``normal`` self-play per rule set: the
# chance per round that somebody wins rises about linearly with the round's number
# (start, slope, cap): Taizhou 0.10 at round 5, 0.33 at round 8, 0.35-0.5 after;
# Jiaxing (27 % of hands drawn) 0.02 at round 9, 0.05 at 14, 0.10-0.15 after 17.
_END_RATE = {"taizhou": (3.5, 0.07, 0.45), "jiaxing": (6.0, 0.008, 0.15)}
_READY_OUTS = 5.0
# Efficiency floors per rule set (``_keep_efficient``): the share of the best discard's
# outs a discard must keep, by the distance from ready it leaves (ready, one step, ...;
# the last entry for every distance beyond).
# Every outs one step from ready as well (1.0, 1.0, 0.6) measured 119 and 111 wins,
# +1.44 and +2.82 a deal on the two sets of 400 paired deals where this measured 122
# and 110, +2.33 and +2.53: no better; nor did counting an honor or terminal wait as
# 1.5 outs (likelier to be discarded): 123 and 109 wins, +2.61 and +2.47.
# Not Jiaxing: a hand there needs two tai, which the standard distance does not see;
# with the floor, hard won 27 of 300 paired deals and scored -1.78 a deal (+0.46 without).
_OUTS_FLOOR: dict[str, tuple[float, ...]] = {"taizhou": (1.0, 0.6)}
# How much more danger (units of hand value) the faster discard may carry than the one
# ``hard``'s values chose: while folding ordinary tiles differ by about 0.6; a live
# third dragon against two dragon pungs costs 6 (``normal``'s danger, weighed always).
# Letting folds give way too (the slack on the unfolded danger) measured 121 wins,
# +2.30 a deal and 77 deal-ins on the 400 deals where this measured 122, +2.33 and 73:
# the same within the noise, so the fold stands. A slack of 0.1 measured 119 and 108
# wins, +1.58 and +2.37, 70 and 59 deal-ins (this: 122 and 110, +2.33 and +2.53, 73
# and 58): no fewer deal-ins for the wins it costs.
_SPEED_DANGER_SLACK = 0.3
# How much better a claim must look than passing, where ``hard`` differs from the rule
# set's profile.
_CLAIM_MARGIN: dict[str, float] = {}  # a ready opponent's outs, where no rate was measured
# Rule sets where ``hard`` takes a pung from across or the right that leaves the hand
# no further from ready (``_tempo_pung``).
_TEMPO_PUNG = {"taizhou": True}


# --------------------------------------------------------------------------- defence


def _ready_chance(seat_view: SeatView) -> float:
    melds = min(len(seat_view.melds), 4)
    turns = len(seat_view.discards)
    return min(0.95, _READY_BY_MELDS[melds] + _READY_PER_DISCARD * max(0, turns - 5))


def _wait_chance(
    kind: int, seat_view: SeatView, table: base._Table, passed: frozenset[int] = frozenset()
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
    view: PlayerView,
    table: base._Table,
    kind: int,
    ready_after: bool,
    my_value: float,
    reads: dict[int, defence.OpponentRead] | None = None,
) -> float:
    """Expected cost (units) of discarding ``kind``: a discard win, and liability. The
    chance of a discard win is the fitted one (``engine.ai_hard_defence``) given the
    ``reads`` of the other seats, else the hand-set tables' (``_ready_chance`` times
    ``_wait_chance``)."""
    public = view.public
    me = view.seat
    cost = 0.0
    liability_possible = public.num_seats == 4
    for seat_view in public.seats:
        other = seat_view.seat
        if other == me:
            continue
        read = None if reads is None else reads.get(other)
        hit = (
            None
            if read is None
            else defence.hit_chance(public.variant, read, kind, table.unseen[kind], table.wild)
        )
        if hit is None:
            ready = _ready_chance(seat_view)
            passed = defence.passed_since(view, other)
            hit = ready * _wait_chance(kind, seat_view, table, passed)
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


def _reads(view: PlayerView) -> dict[int, defence.OpponentRead]:
    """``engine.ai_hard_defence``'s reading of every other seat still in the hand, made
    once per decision: the threat and every weighed discard's danger read it."""
    return {
        s.seat: defence.read_opponent(view, s)
        for s in view.public.seats
        if s.seat != view.seat and not s.folded
    }


def _threat(view: PlayerView, reads: dict[int, defence.OpponentRead] | None = None) -> float:
    """The likeliest-ready opponent's chance of being ready: fitted where the rule set
    has a model (``engine.ai_hard_defence.READY``), else the hand-set table."""
    reads = _reads(view) if reads is None else reads
    best = 0.0
    variant = view.public.variant
    for seat_view in view.public.seats:
        read = reads.get(seat_view.seat)
        if read is None:
            continue  # us, or a folded seat
        fitted = defence.ready_chance(variant, read)
        best = max(best, _ready_chance(seat_view) if fitted is None else fitted)
    return best


def _folding(view: PlayerView, distance: int, threat: float | None = None) -> bool:
    """Far from ready against a likely-ready opponent our hand is worth little and a
    deal-in ends the hand on the spot, so the safest tile should win."""
    threat = _threat(view) if threat is None else threat
    return (distance >= 2 and threat >= _FOLD_THREAT[0]) or (
        distance >= 1 and threat >= _FOLD_THREAT[1]
    )


# --------------------------------------------------------------------------- decisions


def choose(
    view: PlayerView,
    counts: list[int],
    wilds: int,
    table: base._Table,
    rng: random.Random,
) -> Action:
    """``hard``'s decision once ``engine.ai.choose_action`` has handled wins (三摊
    continue/fold: ``_choose_santan``); ``rng`` seeds the sampled playouts (one draw, where
    the rule set uses them and the hand is near ready)."""
    types = {a.type for a in view.legal}
    cache = core.ShantenCache()
    race = core.Race(
        opponent_melds=max(
            (len(s.melds) for s in view.public.seats if s.seat != view.seat and not s.folded),
            default=0,
        ),
        tiles_left=view.public.tiles_left,
    )
    horizon = _HORIZON_SCALE.get(table.variant, 1.0)
    if horizon != 1.0:
        table = replace(table, draws_left=max(1.0, table.draws_left * horizon))
    if CONTINUE in types:
        return _choose_santan(view, counts, wilds, table)
    sampled = _sampled_estimate(view, counts, wilds, table, cache, rng)
    if DISCARD in types:
        extra = None
        if get_rules(table.variant).discard_wins:  # folding only pays where discards win
            reads = _reads(view)
            threat = _threat(view, reads)

            def extra(kind: int, distance: int) -> float:
                if not _folding(view, distance, threat):
                    return 0.0
                return _FOLD_WEIGHT * _taizhou_danger(view, table, kind, False, 0.0, reads)

        kind, discard_value = core.best_discard(
            view, counts, wilds, table, cache, extra, race, sampled
        )

        def danger(kind: int, ready: bool, distance: int) -> float:
            cost = base._danger(view, table, kind, ready)
            return cost + extra(kind, distance) if extra is not None else cost

        kind = _keep_efficient(kind, counts, wilds, table, danger)
        kongs = [a for a in view.legal if a.type == KONG and a.tile is not None]
        if kongs:
            # A kong is weighed on the analytic scale: the calibration never saw the
            # replacement draw a kong brings, and near-certain calibrated chances early
            # in a hand hide it.
            _, discard_value = core.best_discard(view, counts, wilds, table, cache, extra)
        for action in kongs:
            assert action.tile is not None
            new_counts, new_table = base._after_kong(view, counts, table, action.tile)
            if not new_table.targets:
                continue
            shantens = base._shantens(new_counts, wilds, new_table)
            value = core.hand_value(new_counts, wilds, new_table, shantens, cache)
            if value * base._KONG_BONUS >= discard_value:
                return action
        return Action(DISCARD, view.seat, tile=kind)
    if PASS in types:
        return choose_claim(view, counts, wilds, table, cache, race, sampled)
    return view.legal[0]


def _keep_efficient(
    kind: int,
    counts: list[int],
    wilds: int,
    table: base._Table,
    danger: Callable[[int, bool, int], float],
) -> int:
    """``kind``, unless it gives up speed: a discard that leaves the hand further from
    ready (the standard sets-and-a-pair distance), or keeps fewer outs than
    ``_OUTS_FLOOR`` of the best discard at that distance (all of them once ready), is
    replaced by the discard keeping the most outs, among those whose danger
    (``danger(kind, ready, distance)``: the cost ``best_discard`` weighed, a discard win
    and the liability cases, heavier while folding) is at most ``_SPEED_DANGER_SLACK``
    above ``kind``'s: a tile kept back from a likely wait or a liability case stays kept.

    Why: ``hard``'s values follow its targets (a flush, pungs, honor tai), and in Taizhou
    the hand that gets there first wins. Measured with paired deals (``normal`` in the
    other seats; two sets of 400, the same deals with and without the rule): wins 112
    to 122 and 103 to 110 (``normal`` in that seat: 97 and 91), score per deal +1.53 to
    +2.33 and +2.50 to +2.53, deal-ins 61 to 73 and 66 to 58. A floor of 0.0 (distance
    only) and 0.8 measured as 0.6 (125, 126, 127 wins on the first set, before the
    danger check); every outs everywhere (1.0) lost (112 wins, -0.3 a deal).
    """
    floors = _OUTS_FLOOR.get(table.variant)
    if floors is None:
        return kind
    outs = _discard_outs(counts, wilds, table)
    if not outs:
        return kind  # only wilds in hand
    closest = min(distance for distance, _ in outs.values())
    most = max(count for distance, count in outs.values() if distance == closest)
    floor = floors[min(max(closest, 0), len(floors) - 1)]
    kept = outs.get(kind)
    if kept is not None and kept[0] == closest and kept[1] >= floor * most:
        return kind
    ready = closest <= 0
    limit = danger(kind, ready, closest) + _SPEED_DANGER_SLACK
    best: tuple[int, float, int] | None = None
    for other, (distance, count) in outs.items():
        if distance != closest or count < floor * most:
            continue
        cost = danger(other, ready, closest)
        if cost > limit:
            continue
        key = (-count, cost, other)
        if best is None or key < best:
            best = key
    return kind if best is None else best[2]


def _discard_outs(counts: list[int], wilds: int, table: base._Table) -> dict[int, tuple[int, int]]:
    """(distance, outs) after each discard: the standard sets-and-a-pair distance and
    the unseen tiles whose draw would shorten it. Outs are counted only for the
    discards at the shortest distance (0 for the others): nothing reads them elsewhere,
    and counting them is most of the cost."""
    wild = table.wild
    white_reads = _white_reads(table)

    def distance(hand: list[int]) -> int:
        return _standard_distance(hand, wilds, table)

    distances = _distances_after_discards(counts, wilds, table)
    if not distances:
        return {}
    closest = min(distances.values())
    # A draw shortens the distance only next to a tile held (the same honor, or a suit
    # tile within two ranks); a White also as the wild's kind, and a wild always.
    near: set[int] = set()
    for kind in range(NUM_KINDS):
        if counts[kind]:
            near.update(_NEAR[kind])
    if white_reads:
        assert wild is not None
        near.add(WHITE)
        near.update(_NEAR[wild])
    unseen = table.unseen
    jokers = 0
    if wild is not None:
        jokers = unseen[wild]
        near.discard(wild)
    draws = [draw for draw in sorted(near) if unseen[draw]]
    result: dict[int, tuple[int, int]] = {}
    for kind, after in distances.items():
        if after != closest:
            result[kind] = (after, 0)
            continue
        counts[kind] -= 1
        outs = jokers
        for draw in draws:
            if draw == kind:
                continue
            counts[draw] += 1
            if distance(counts) < after:
                outs += unseen[draw]
            counts[draw] -= 1
        counts[kind] += 1
        result[kind] = (after, outs)
    return result


def _white_reads(table: base._Table) -> bool:
    """A White in hand may be read as the wild's kind (Taizhou)."""
    wild = table.wild
    return get_rules(table.variant).white_substitutes_wild and wild not in (None, WHITE)


def _standard_distance(hand: list[int], wilds: int, table: base._Table) -> int:
    """The sets-and-a-pair shanten of a 3n+1 or 3n+2 hand, a White read either way."""
    if _white_reads(table) and hand[WHITE]:
        assert table.wild is not None
        return min(shanten(reading, wilds) for reading in white_readings(hand, table.wild))
    return shanten(hand, wilds)


def _distances_after_discards(counts: list[int], wilds: int, table: base._Table) -> dict[int, int]:
    """The standard distance (``_standard_distance``) after each discard of a 3n+2 hand."""
    distances: dict[int, int] = {}
    for kind in range(NUM_KINDS):
        if counts[kind]:
            counts[kind] -= 1
            distances[kind] = _standard_distance(counts, wilds, table)
            counts[kind] += 1
    return distances


def _near_kinds(kind: int) -> tuple[int, ...]:
    if kind >= 27:
        return (kind,)
    first = kind - kind % 9
    return tuple(k for k in range(kind - 2, kind + 3) if first <= k < first + 9)


_NEAR = tuple(_near_kinds(kind) for kind in range(NUM_KINDS))


def _choose_santan(view: PlayerView, counts: list[int], wilds: int, table: base._Table) -> Action:
    """Continue 跟 under three-claim liability (三摊) only with a ready hand; fold 不跟
    otherwise.

    Why not ``normal``'s rule (continue one step from ready while the liable pair is
    not yet four melds up or 30 tiles are left): a continuing player pays five times
    whoever wins, and a liable party with three claimed melds is usually a step from
    winning itself. Measured (``benchmarks/santan_decisions.py``) over 5,000 hands of
    ``normal`` self-play (seeds 16 and 17, 1,000 hands each; 18 and 19, 1,500), the
    290 decisions ended: continuing ready +10.7 points on average (55 decisions, 95 %
    interval +-12.7; 21 won), continuing one step away -15.3 (49, +-11.4; 4 won, the
    liable party 26), two steps away -15.0 (10); folding costs nothing (0). So the
    expected value of continuing is positive only when ready."""
    if not table.targets:
        return Action(FOLD, view.seat)
    best = min(base._shantens(counts, wilds, table))
    return Action(CONTINUE if best <= 0 else FOLD, view.seat)


def _end_hazard(view: PlayerView, table: base._Table) -> Callable[[int], float]:
    """The chance that another seat wins in our ``r``-th round from now.

    Where measured (``_END_RATE``) it is the rule set's rate at that round of the hand:
    the playouts first raced opponents made ready by ``_ready_chance``, and those hands
    ran twice as long as real ones (Taizhou hands with ``normal`` players end in about
    five rounds), so every far hand looked twice as likely to finish. Elsewhere each
    opponent wins at a ready hand's rate (a few outs among the unseen tiles, met on its
    draw and, where discards win, in the others' discards) once ready."""
    public = view.public
    active = max(1, sum(1 for s in public.seats if not s.folded))
    others_share = (active - 1) / active
    turn = len(public.seats[view.seat].discards)
    fitted = _END_RATE.get(table.variant)
    if fitted is not None:
        start, slope, cap = fitted

        def measured(ahead: int) -> float:
            return others_share * min(cap, max(0.0, slope * (turn + ahead - start)))

        return measured
    rules = get_rules(table.variant)
    seen = 1.0 + (0.4 * (active - 1) if rules.discard_wins else 0.0)
    win_rate = min(0.9, _READY_OUTS / table.unseen_total * seen)
    chances = [_ready_chance(s) for s in public.seats if s.seat != view.seat and not s.folded]

    def modelled(ahead: int) -> float:
        survive = 1.0
        for chance in chances:
            survive *= 1.0 - min(0.95, chance + _READY_PER_DISCARD * ahead) * win_rate
        return 1.0 - survive

    return modelled


def _sampled_estimate(
    view: PlayerView,
    counts: list[int],
    wilds: int,
    table: base._Table,
    cache: core.ShantenCache,
    rng: random.Random,
) -> core.Sampled | None:
    """The blend of the analytic value with the sampled playouts, for this decision's
    hands (None where the rule set gives the playouts no weight). One draw from ``rng``
    seeds every guess of the decision."""
    weight = _SAMPLED_WEIGHT.get(table.variant, 0.0)
    if weight <= 0.0 or not table.targets:
        return None
    if min(base._shantens(counts, wilds, table)) > sample.MAX_SHANTEN:
        return None  # far from ready: playouts rarely complete, the analytic rate rules
    end_hazard = _end_hazard(view, table)
    seed = rng.getrandbits(64)
    samplers: list[sample.Sampler] = []  # built on first use: most claim windows pass

    def blended(hands: list[core.Hand]) -> list[float]:
        if not samplers:
            samplers.append(
                sample.Sampler(
                    view,
                    table,
                    cache,
                    random.Random(seed),
                    end_hazard,
                    claims=_PLAYOUT_CLAIMS.get(table.variant, False),
                )
            )
        sampler = samplers[0]
        analytic = [hand[4] for hand in hands]
        playouts = [sampler.value(c, w, t, shantens) for c, w, t, shantens, _ in hands]
        # The playouts rank the hands; the analytic values keep the level that the
        # danger costs were tuned against (playouts rate ready hands lower, so taken as
        # they are they made every discard look dangerous by comparison).
        mean_playouts = sum(playouts) / len(playouts)
        if mean_playouts <= 0.0:
            return analytic
        scale = sum(analytic) / len(analytic) / mean_playouts
        return [
            a + weight * scale * (p - mean_playouts)
            for a, p in zip(analytic, playouts, strict=True)
        ]

    return blended


def choose_claim(
    view: PlayerView,
    counts: list[int],
    wilds: int,
    table: base._Table,
    cache: core.ShantenCache,
    race: core.Race,
    sampled: core.Sampled | None = None,
) -> Action:
    """``normal``'s claim rule (a claim must move the hand on and look better than
    passing; a 三摊 third claim only when it leaves us one step from ready) valued with
    ``hard``'s calibrated search, so a claim and a pass are weighed on the same scale as
    its discards."""
    claimed = view.claim_tile
    claims = [a for a in view.legal if a.type in (CHOW, PUNG, KONG)]
    passing = Action(PASS, view.seat)
    if claimed is None or not claims:
        return passing
    public = view.public
    rules = get_rules(public.variant)
    discarder = public.last_discard[0] if public.last_discard else None
    now = base._shantens(counts, wilds, table)
    now_best = min(now) if now else base._FAR
    options: list[tuple[Action, core.Hand]] = []
    for action in claims:
        after = base._after_claim(view, action, counts, claimed)
        if after is None:
            continue
        new_counts, melds = after
        new_table = base._with_melds(table, melds, new_counts)
        if not new_table.targets:
            continue
        if action.type == KONG:
            shantens = base._shantens(new_counts, wilds, new_table)
            after_best = min(shantens)
        else:
            after_best = base._FAR
            for kind in range(len(new_counts)):
                if not new_counts[kind]:
                    continue
                new_counts[kind] -= 1
                after_best = min(after_best, min(base._shantens(new_counts, wilds, new_table)))
                new_counts[kind] += 1
        if not (after_best < now_best or (action.type == KONG and after_best <= now_best)):
            continue
        third_claim = (
            rules.has_three_claim_liability
            and discarder is not None
            and base._claims_from(view.melds, discarder) == 2
            and discarder not in public.seats[view.seat].liable_with
        )
        if third_claim and after_best > 1:
            continue
        if action.type == KONG:
            shantens = base._shantens(new_counts, wilds, new_table)
            value = base._KONG_BONUS * core.hand_value(
                new_counts, wilds, new_table, shantens, cache, race
            )
            hand: core.Hand = (new_counts, wilds, new_table, shantens, value)
        else:
            kind, value = core.best_discard(
                view, new_counts, wilds, new_table, cache, None, race, sampled
            )
            new_counts[kind] -= 1
            shantens = base._shantens(new_counts, wilds, new_table)
            hand = (new_counts, wilds, new_table, shantens, value)
        options.append((action, hand))
    if not options:
        return _tempo_pung(view, counts, wilds, table, claims) or passing
    baseline = core.hand_value(counts, wilds, table, now, cache, race)
    values = [hand[4] for _, hand in options]
    if sampled is not None:
        # Claiming and passing ranked on the same guesses, like two discards.
        adjusted = sampled([(counts, wilds, table, now, baseline), *(h for _, h in options)])
        baseline, values = adjusted[0], adjusted[1:]
    best_value, best_action = max(
        zip(values, (a for a, _ in options), strict=True), key=lambda item: item[0]
    )
    margin = _CLAIM_MARGIN.get(public.variant, rules.ai_profile.claim_margin)
    if best_value > baseline * margin + 1e-9:
        return best_action
    return _tempo_pung(view, counts, wilds, table, claims) or passing


def _tempo_pung(
    view: PlayerView, counts: list[int], wilds: int, table: base._Table, claims: list[Action]
) -> Action | None:
    """A pung to take although it brings the hand no closer to ready (``_TEMPO_PUNG``):
    claimed from a seat other than the left-hand player, it skips the turns of the seats
    in between, and it must leave the hand no further from ready (sets and a pair, the
    best discard after it).

    Why: the values weigh a claim by the hand it leaves, as if the table waited for us;
    in a Taizhou race a pung from across or the right also takes one or two draws away
    from the others. Measured by playing each such window on both ways from the same
    moment (``benchmarks/decision_forks.py``; Taizhou deals 14000-15695, ``hard`` as
    it was): where ``hard`` passed such a pung, taking it was worth +11.6 points [7.2,
    16.0] over 196 windows; the same pung from the left-hand player +0.1 [-7.9, 8.0]
    over 62. With the rule, on fresh deals (40000-40799): claiming +11.7 [0.3, 23.1]
    over the 64 windows it took, passing still right from the left (-2.1, 32 windows).
    Paired over 2,000 deals (0-1999): +0.36 +-0.49 a deal, 145 deals changed.
    """
    if not _TEMPO_PUNG.get(table.variant, False):
        return None
    public = view.public
    if public.last_discard is None or view.claim_tile is None:
        return None
    discarder = public.last_discard[0]
    if discarder == (view.seat - 1) % public.num_seats:
        return None  # the left-hand player: nobody's turn is skipped
    third_claim = base._claims_from(view.melds, discarder) == 2
    if third_claim and get_rules(public.variant).has_three_claim_liability:
        return None  # a third claim from one player has its own rule
    now = _standard_distance(counts, wilds, table)
    for action in claims:
        if action.type != PUNG:
            continue
        after = _distance_after_claim(view, action, counts, wilds, table)
        if after is not None and after <= now:
            return action
    return None


def _distance_after_claim(
    view: PlayerView, action: Action, counts: list[int], wilds: int, table: base._Table
) -> int | None:
    """The standard distance (``_standard_distance``) after a claim of the window's tile
    and, for a chow or pung, the best discard after it; None when the claim's tiles are
    not held naturally."""
    assert view.claim_tile is not None
    after = base._after_claim(view, action, counts, view.claim_tile)
    if after is None:
        return None
    new_counts = after[0]
    if action.type == KONG:
        return _standard_distance(new_counts, wilds, table)
    return min(_distances_after_discards(new_counts, wilds, table).values(), default=base._FAR)
