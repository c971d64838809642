"""The ``hard`` AI level: ``normal``'s search with a measured win chance and defence.

Why a separate module: ``normal`` must stay as it is (the bot runs it on every autoplay
seat), and ``hard`` spends its larger time budget on what ``normal`` estimates roughly.

How it was built: every change was measured with paired hands (the same deal played
once with ``hard`` and once with ``normal`` in one seat, the seat rotating;
``benchmarks/paired_ai.py``), because 400-hand self-play runs are too noisy to rank two
close players. ``hard`` is ``normal`` plus:

- **Two-step tile efficiency** (``engine.ai_hard_core``): for targets one or two steps
  from ready, the chance of completing them uses the real outs of the next step (the
  best discard after each improving draw) instead of a typical count.
- **A measured win chance** (``engine.ai_hard_core.CALIBRATION``): the analytic chance
  races the wall alone; sampled self-play showed it rates ready hands far too high and
  far hands too low, and ignores how far the opponents are. ``hard`` maps it through a
  logistic model fitted on those samples (opponents' melds, tiles left, distance), for
  its discards, kongs and claims alike (its claim rule is ``normal``'s, valued this way).
  Jiaxing only: Taizhou's fit did no better than the analytic chance (``CALIBRATION``).
- **Taizhou defence**: each discard pays a per-opponent danger: the chance that seat
  is ready (its melds and how long the hand has run) times the chance the tile is its
  wait (no wait on a tile it let pass since its last draw, fewer on what it threw away,
  honors by copies left, off-suit tiles against a flush), plus the 全包 liability cases.
  When our best discard leaves us two or more steps from ready against an opponent
  possibly ready (one step against one likely ready) hard folds and the danger weighs
  ``_FOLD_WEIGHT``. Otherwise ``hard`` pushes and weighs only ``normal``'s danger: a
  weight on this danger while pushing (1.5, stop 16 to 28) measured well on the deals it
  was tuned on and cost wins on fresh ones (see "Fresh deals" below).

- **A fitted reading of the others** (``engine.ai_hard_defence``): logistic models of
  "is that seat ready" and "would this tile win for it now", fitted on self-play where
  the answer is known. On 500 held-out hands they beat the hand-set tables above (log
  loss 0.054 to 0.050 for a deal-in, 0.298 to 0.269 for readiness; the riskiest fifth
  of the tiles weighed holds 75 % of the deal-ins, against 58 %). The fitted readiness
  decides when to fold, and while folding the fitted deal-in chance ranks the tiles.
  Against the tables, on two sets of 400 paired deals: 123 and 110 wins (122 and 110),
  69 and 56 deal-ins (73 and 58), +2.02 and +2.57 a deal (+2.33 and +2.53); in
  ``simulate`` (seeds 16, 17, 18; 400 hands) 72, 60 and 55 deal-ins against 76, 66 and
  74. Not while pushing: there the sharper model kept hard off more tiles it needed, over
  two sets of 400 paired deals 218 wins against 232 and +0.87 a deal against +2.43
  (deal-ins 114 against 131); at half and a quarter of its weight it was no better
  on wins than the tables (113 and 118 against 122 on one set). Where discards win a
  deal-in costs little more than another seat's win (the discarder pays no extra: -12.6
  a deal-in against -17.7 for another win by the others, in 400 deals), so defence
  that slows the hand does not pay.

- **Sampled playouts** (``engine.ai_hard_sample``): the analytic chance sees at most
  two steps of real outs; playouts over guesses of the hidden tiles see every step of
  the hand's own shape, racing hands that end at the rate measured for the rule set.
  They only *rank* the shortlisted discards (their spread, rescaled, moves the analytic
  values): taken as they are they rate ready hands lower than the analytic chance, and
  ``normal``'s danger costs, tuned against the analytic scale, then weighed too much.
  In Taizhou, playouts that only draw lost at every weight (fewer wins): most Taizhou
  wins come within five rounds, on claims and discards. There the playouts claim
  (``_PLAYOUT_CLAIMS``): the others' guessed discards are pung-, chow- (from the left)
  and, for a ready hand, win-able.

- **Taizhou speed floor** (``_keep_efficient``): ``hard``'s values follow its targets,
  and a Taizhou hand is a race (the winner draws five to eight tiles). A discard that
  leaves the hand further from ready by the standard distance, or keeps under 60 % of
  the best outs (any fewer once ready), gives way to the discard with the most outs,
  unless that one is markedly more dangerous (a liability case). A pure-speed player
  (fewest steps, most outs, nothing else) had won as often as ``hard`` (114 and 112
  wins in 400 paired deals, against ``normal``'s 97) but scored far less (-0.3 against
  +1.5 a deal): the floor keeps ``hard``'s choice wherever it is about as fast.

Tried and dropped this round (Taizhou, the same 400 paired deals; the floor and tables
as they are measured 122 wins, 73 deal-ins, +2.33 a deal): among discards as fast as
the chosen one (90 % or 75 % of its outs), the one the fitted model rates least likely
to be won on (121 and 115 wins, 72 and 73 deal-ins); outs a claim could also bring
counted up to three times (120 and 118 wins); a ready hand's waits weighted by a fitted
chance that the others throw them (124 and 105 wins on two sets, against 122 and 110);
full flush worth 8 plain wins and a half flush 3.5 (120 wins, +1.93), or full flush 8
alone (122, +2.35); honor pungs and pairs that score tai worth more (120 and 121 wins).
In Jiaxing (300 paired deals; as it is: 59 wins, +0.46 a deal): the speed floor
measured to the nearest qualifying target (59 and 61 wins; +0.45 at best); playouts
from three steps from ready instead of two (57, +0.04); kongs on our turn taken more
readily (a kong's hand worth 2.0 times, or any multiple, of the best discard's instead
of 1.2: 59 and 58 wins, +0.44 and +0.42). Taizhou with twice the playouts: 122 wins
against 123, +2.01 against +2.02; folding thresholds 0.4/0.7 and 0.2/0.5 on the fitted
readiness: 121 and 122 wins against 123, 75 and 67 deal-ins against 69.

Measured and left out in the round after (Taizhou, paired deals 0-399, where ``hard`` as
it is measured 123 wins, 69 deal-ins, +2.02 a deal): taking every chow or pung that
shortens the standard distance (123, 69, +2.05: ``hard`` already takes them); declaring
every kong (no change: 26 offers in 400 deals); hand worth scaled by the points its
pungs, kongs and honor pairs would score (120 wins, +1.33); the playouts' end rate
scaled by the others' fitted readiness against its average at that turn (121, +1.12); a
full flush within one or two steps of the standard distance exempt from the speed floor
(122 and 123 wins, +2.5; ten deals changed, the gain one capped hand); ready waits on
tiles in our own river, which ``normal``'s tables rate safe (three deals changed); and,
as the discard rule, a logistic ranking learned from 42,000 positions of ``normal``
self-play (96 wins, -1.80); the hand's non-winner total (what settlement between
non-winners pays) added to its worth (weights 1, 2 and 4: -0.14, +0.53 and +0.17 a deal
against ``hard``, -0.38 at weight 2 on deals 400-799). A cheating check bounds what
defence can still give: swapping every discard that would deal in for a tile no one
waits on (the same distance, 60 % of the outs) halved the deal-ins (33) for two more
wins and +0.24 a deal, because in Taizhou a ready seat soon wins on another discard.
Jiaxing (paired deals 300-599; ``hard`` 74 wins and +0.72 a deal, ``normal`` in that
seat 73 and +0.65): without playouts 74 wins (+0.24 +-0.28 a deal against ``hard``),
horizon scale 1.0 65, without the calibration 66 (and 62 against 59 on deals 0-299).

Searching the whole table (stop 27; ``benchmarks/search_headroom.py``): copies of the
hand dealt by ``Round.determinized`` and played out with ``normal`` in every seat, for
``hard``'s choice and the other discards as close to ready, at most one step away. With
300 playouts a candidate (125 Taizhou positions) such a search beats ``hard``'s choice by
+1.5 points a position [0.5, 2.5] (+0.7 points of win chance), at 2.2 such positions a
deal. That costs 33 s a position. What fits in play does not get there. Paired, Taizhou
deals 0-399, against ``hard``'s 123 wins and +2.02 a deal: 16 playouts a candidate,
best mean taken, 108 wins and +1.15 (1.6 s a decision); 32 playouts, switching only at a
paired z of 2, 124 wins and +2.74 (+0.71 +-1.00 a deal; 3.3 s a decision). A search
inside the budget needs a simulator about a hundred times faster than the engine's
playouts (about 27 ms each), or ``hard``'s values taught what the search prefers.

Forking the real hand (stop 28; ``benchmarks/decision_forks.py``): a decision's worth is
measured by playing the same moment on twice (``Round.copy``: the same wall, hidden tiles
and seeds), as ``hard`` chose and the other way; the two results differ only by that
decision, and on the same deals they equal the paired runs' differences exactly (28 of
30 deals checked; the other two had a second such decision). One rule came of it, for
Taizhou: a pung from across or the right taken although it brings the hand no closer
to ready (``_tempo_pung``: it skips the others' turns). Tried and dropped: a hand
becoming ready waits on the most pairs (a pung when it comes), keeping at least half
the outs. Over three sets of deals (10000-13999, 30000-31038; 493 moments) such a wait
scored +5.8 points [2.5, 9.0] over ``hard``'s; it was the best of a dozen splits tried on
the first set, and it did not hold up: paired over 1,600 deals -0.25 +-0.65 a deal
(106 deals changed), and with the rule in place, on fresh deals (50000-50599), the wait
on fewer pairs that ``hard`` had given up scored +5.6 [-1.5, 12.7] over its choice (138
moments). Nothing else measured better than ``hard``'s own choice: same-distance
discards one and two steps from ready (a random one of them against ``hard``'s, 15,900
moments: -0.6 and +0.0 points a moment; a linear model of 14 features of the hand,
cross-validated, +0.3 +-0.4 and +0.2 +-0.5), Taizhou chows, and in Jiaxing any claim
(882 deals, 2,769 windows) or discard (``hard``'s choice better than a random one of the
same distance by 2.4, 1.6 and 0.6 points ready, one and two steps away).

Tried and dropped (paired runs, 300 deals each; see the commit log): reading opponents'
concealed tiles out of the live wall by the suits they collect, weighting outs an
opponent already threw away, a lower claim margin, a heavier Jiaxing feeding cost and a
shorter horizon. None beat ``normal`` beyond the noise of fresh deals. Also dropped:
Jiaxing flush-of-pungs targets worth both tai (All Pungs stacks with a flush), -0.08 a
deal against hard without them over 1,700 paired deals; in Taizhou, a constant added
to every target's value (speed over size; 0.5 and 1.5: no more wins, -0.8 and -1.8 a
deal) and a cost for discards the others may claim (0.1 and 0.3: fewer wins, -1.6 and
-7.0 a deal), each against hard without it on the same 300 deals. With the speed floor,
two claim rules measured the same as without on two sets of 400 deals: passing a claim
that does not shorten the standard distance (121 and 110 wins against 122 and 110),
and taking one that does where the values pass (122 and 108; +2.27 and +2.04 a deal
against +2.33 and +2.53).

Fresh deals (stop 29): most of the figures above were measured on the same paired deals
(0-399, Taizhou), and on fresh deals ``hard`` as it stood after stop 28 was barely
better than ``normal``: +0.14 a deal over 5,600 deals (70000-70399, 70400-70799,
90000-91599, 92000-95199; +2.04, +0.15, -0.84 and +0.39 by set), 1,468 wins against
1,414 and 859 deal-ins against 989. Ablations on deals 90000-91599 (1,600 deals each,
paired against that ``hard``): without the sampled playouts -1.35 +-0.84 a deal (22
fewer wins), without the speed floor -0.80 +-0.91 (33 fewer), without the tempo pung
-0.27 +-0.43, never folding +0.71 +-0.47 (13 more wins, 36 more deal-ins), and without
the danger weight while pushing +1.47 +-1.67 (25 more wins, 12 fewer deal-ins). That
held on 92000-95199 (+0.46 +-1.12, 23 more wins, 19 fewer deal-ins) and 95200-98399
(+0.53 +-1.06, 29 more wins, 14 more deal-ins): over the 8,000 deals +0.69 +-0.70 a
deal, 2,116 wins against 2,039, 1,244 deal-ins against 1,261, so that weight is gone.
Without it, against ``normal`` on deals 90000-95199: +0.78 a deal, 1,308 wins against
1,215, 711 deal-ins against 841. Its gain is largest as the dealer (seat 0 of deals
92000-95199: +1.81 a deal, 258 wins against 227 of 800; the other seats +0.24 to +0.71),
which ``simulate``'s seat 0, first dealer of every match, sees more often. On top of
that, and no better (paired, deals 90000-91599): folding later (thresholds 0.5/0.8:
+0.19 +-0.46, 41 more deal-ins), sampled weight 1.0 (+0.29 +-0.60), fold weight 3 (+0.06
+-0.24). With the weight still in, keeping its safest tiles off the shortlist unless
folding measured -0.08 +-0.72. Stop 30, on the same deals against ``hard`` as it is
(422 wins, 233 deal-ins): speed floors (1.0, 0.8), (1.0, 0.4) and (1.0, 0.8, 0.6)
-0.11 +-0.72, -0.14 +-0.37 and +0.08 +-0.31 (428, 415 and 426 wins); playouts from
three steps from ready -0.85 +-1.00 (407 wins); 48 guesses instead of 24 -0.34 +-0.76
(413 wins); as the dealer only (400 deals), folding sooner (0.2/0.45) -1.79 +-1.70 and
never folding +0.28 +-1.12 (102 and 105 wins against 106; 61 and 77 deal-ins against
65), and weighing its own danger at 1.5 while pushing: -0.15 +-4.36
here and -4.32 +-2.96 on the dealer's 800 deals of 92000-95199 (227 wins against 258).
Jiaxing (deals 90000-90799) with the tempo pung: -0.19 +-0.41, 142 wins either way; the
playout weight 1.0 (+9 wins there) again on 90800-92399: -0.01 +-0.23, 312 wins against
303, too little to move the win share.

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
# is in the module docstring, under "Fresh deals".
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
