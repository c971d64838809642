"""``hard``'s sampled estimate: play the next draws out over guessed walls.

Why sample at all when ``engine.ai_hard_core`` already has an analytic chance: the
analytic chance sees one step of real outs (two at most) and typical counts after that,
treats the wall as a stream of independent draws, and cannot see a ready Taizhou hand
winning on the tiles the others throw away. A playout over one concrete guess of the
hidden tiles sees the hand's real shape at every step (a wild drawn, a second step whose
outs are already gone), and its end: our completion races the others' (the caller's
chance per round that somebody else wins). Averaged over a few dozen guesses it is a
sampled chance times the value of the hand actually completed.

Why a ready playout stops drawing: whether one of a ready hand's few outs turns up in
the rounds left is most of a playout's noise, and its expectation is known (the live
outs among the hidden tiles, on our draws and, where discards win, in the others'
discards), so the playout takes that expectation from there on. The playouts are
greedy (keep a draw that lowers the shanten, throw the least connected tile that keeps
it), which is why ``hard`` uses them to rank its candidates rather than as values in
their own right (``engine.ai_hard``).

Why claims (``claims=True``, Taizhou): a hand that only draws is too slow a model where
most hands end within five rounds, on pungs, chows and discards. A claiming playout
also guesses what the others throw away before each of our draws (each draws its wall
tile and throws it, or swaps it for a tile of its guessed hand) and takes a pung from
anyone, or a chow from the left-hand player, when that lowers the shanten; the claim
replaces that round's draw.

What it may read: only the seat's ``PlayerView``. The hidden tiles are what this seat
cannot see (4 copies of each kind minus every visible copy), dealt at random into the
opponents' concealed hands (and their hidden concealed kongs), the drawable wall and the
reserve, so every guess holds each of the table's tiles once.

Why the same guesses for every candidate: two discards are compared on the same walls
(common random numbers), so the difference of their estimates is far less noisy than
either estimate; with 24 guesses the ranking of two close discards is stable.

Why it replays: the guesses come from a generator seeded by one draw from the ``rng`` the
caller passes (``AIPlayer`` derives it from the seat, hand and turn), so a seeded game
with ``hard`` seats replays exactly and the same view with the same seed gets the same
decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from . import ai as base
from . import ai_hard_core as core
from .tiles import NUM_KINDS
from .variants import get_rules
from .views import PlayerView

SAMPLES = 24  # guesses of the hidden tiles per decision
# Decisions whose best hand is further from ready than this keep the analytic estimate:
# a playout of a far hand rarely completes, and its improve-only policy plays it badly.
MAX_SHANTEN = 2
# Playouts follow one target each; a candidate keeps its best few (by analytic worth).
TARGETS_PER_CANDIDATE = 2
# The chance an opponent throws away the tile it just drew: what lets a ready hand win
# on a discard (Taizhou) besides its own draws.
_DISCARDED_DRAW = 0.4


@dataclass(frozen=True)
class Determinisation:
    """One guess of every tile this seat cannot see."""

    hands: dict[int, tuple[int, ...]]  # opponent seat -> its concealed tiles
    hidden_kongs: dict[int, tuple[int, ...]]  # opponent seat -> kinds of its concealed kongs
    wall: tuple[int, ...]  # the drawable wall in draw order
    rest: tuple[int, ...]  # below the drawable wall (the reserve)
    wild: int | None = None  # the table's wild kind (opponents keep those)


def hidden_pool(view: PlayerView) -> list[int]:
    """Every tile this seat cannot see, one entry per physical tile, in kind order."""
    return [kind for kind, copies in enumerate(base._visible_unseen(view)) for _ in range(copies)]


def determinise(view: PlayerView, pool: list[int], rng: random.Random) -> Determinisation:
    """Deal ``pool`` (``hidden_pool``) at random into the places this seat cannot see.

    A concealed kong of an opponent is four of one kind: it takes a kind of which all
    four copies are hidden (four arbitrary tiles if none is left)."""
    tiles = list(pool)
    rng.shuffle(tiles)
    public = view.public
    hands: dict[int, tuple[int, ...]] = {}
    kongs: dict[int, tuple[int, ...]] = {}
    for seat_view in public.seats:
        if seat_view.seat == view.seat:
            continue
        hidden = sum(1 for meld in seat_view.melds if not meld.tiles)
        kinds: list[int] = []
        for _ in range(hidden):
            whole = [kind for kind in range(NUM_KINDS) if tiles.count(kind) >= 4]
            if whole:
                kind = whole[rng.randrange(len(whole))]
                for _ in range(4):
                    tiles.remove(kind)
                kinds.append(kind)
            else:
                del tiles[:4]
        kongs[seat_view.seat] = tuple(kinds)
        take = min(seat_view.concealed_count, len(tiles))
        hands[seat_view.seat] = tuple(tiles[:take])
        del tiles[:take]
    drawable = min(public.tiles_left, len(tiles))
    return Determinisation(
        hands, kongs, tuple(tiles[:drawable]), tuple(tiles[drawable:]), public.wild
    )


@dataclass(frozen=True)
class _Playout:
    """What one guess means for us: our own next draws, the round in which another
    seat wins (the hand ends before our draw in it) and, where the playouts claim, the
    tiles the others throw away before each of our draws (with whether the left-hand
    player, the one a chow may come from, threw it)."""

    own: tuple[int, ...]
    end: int
    offers: tuple[tuple[tuple[int, bool], ...], ...] = ()


def _guess_discards(
    guess: Determinisation,
    order: list[int],
    before: int,
    left: int,
    rounds: int,
    generator: random.Random,
) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """What the others throw away before each of our next ``rounds`` draws, on one guess.

    ``order`` is the others in play order from the first to draw after us; ``before``
    of them (the last ones) still draw before our first draw. Each draws its wall tile
    and throws it away at ``_DISCARDED_DRAW`` odds, else a tile of its guessed hand
    (never a wild: nobody gives one away). Where the tile comes from matters: it is a
    tile of the hidden pool, so the playout claims only what could really be thrown."""
    hands = {seat: list(tiles) for seat, tiles in guess.hands.items()}
    wall = guess.wall
    position = 0
    offers: list[tuple[tuple[int, bool], ...]] = []
    for round_index in range(rounds):
        drawing = order[len(order) - before :] if round_index == 0 else order
        thrown: list[tuple[int, bool]] = []
        for seat in drawing:
            if position >= len(wall):
                break
            drawn = wall[position]
            position += 1
            hand = hands.get(seat)
            if hand and generator.random() >= _DISCARDED_DRAW:
                index = generator.randrange(len(hand))
                if hand[index] != guess.wild:
                    hand[index], drawn = drawn, hand[index]
            thrown.append((drawn, seat == left))
        position += 1  # our own draw
        offers.append(tuple(thrown))
    return tuple(offers)


class _HandState:
    """A 3n+1 hand met in a playout, for one target: its shanten, and which draws lower
    it, each tested the first time it is drawn (most kinds never are)."""

    __slots__ = ("cache", "counts", "current", "known", "packed", "target", "wilds")

    def __init__(
        self, target: base._Target, packed: bytes, wilds: int, cache: core.ShantenCache
    ) -> None:
        self.target = target
        self.packed = packed
        self.wilds = wilds
        self.counts = list(packed)
        self.cache = cache
        self.current = cache.get(target, self.counts, wilds)
        self.known: dict[int, bool] = {}

    def improves(self, kind: int) -> bool:
        """Does drawing ``kind`` (not a joker) lower the shanten? Only a kind inside the
        target, held or (in a suit, for chows) within two of a held tile, can."""
        known = self.known.get(kind)
        if known is not None:
            return known
        target, counts = self.target, self.counts
        if not target.mask >> kind & 1:
            result = False
        elif counts[kind]:
            result = self._lowers(kind)
        elif target.pungs_only or kind >= 27:
            result = False
        else:
            low = kind - kind % 9
            near = any(counts[k] for k in range(max(low, kind - 2), min(low + 8, kind + 2) + 1))
            result = near and self._lowers(kind)
        self.known[kind] = result
        return result

    def _lowers(self, kind: int) -> bool:
        self.counts[kind] += 1
        lower = self.cache.get(self.target, self.counts, self.wilds) < self.current
        self.counts[kind] -= 1
        return lower


class Sampler:
    """The sampled value of hands for one decision (one set of guesses for all of them).

    ``end_hazard(r)`` is the chance that another seat wins in our ``r``-th round from now
    (before our draw in it): each guess draws when the hand ends for us from it."""

    def __init__(
        self,
        view: PlayerView,
        table: base._Table,
        cache: core.ShantenCache,
        rng: random.Random,
        end_hazard: Callable[[int], float],
        samples: int | None = None,
        claims: bool = False,
    ) -> None:
        self.table = table
        self.claims = claims
        self.cache = cache
        self.wild = table.wild
        public = view.public
        rules = get_rules(public.variant)
        self.discard_wins = rules.discard_wins
        active = max(1, sum(1 for s in public.seats if not s.folded))
        # Whose draws come before ours: after our discard everyone else's; in a claim
        # window those after the discarder.
        if public.last_discard is not None and public.current_seat != view.seat:
            discarder = public.last_discard[0]
            before = 0
            seat = (discarder + 1) % public.num_seats
            while seat != view.seat:
                before += 0 if public.seats[seat].folded else 1
                seat = (seat + 1) % public.num_seats
        else:
            before = active - 1
        # The others in play order from the first after us; the last is our left-hand
        # neighbour, the only one a chow may be claimed from.
        order = [
            (view.seat + step) % public.num_seats
            for step in range(1, public.num_seats)
            if not public.seats[(view.seat + step) % public.num_seats].folded
        ]
        left = (view.seat - 1) % public.num_seats
        pool = hidden_pool(view)
        hidden_total = max(1, len(pool))
        # What a ready hand of ours sees per round: its own draw and, where discards win,
        # the tiles the others throw away.
        seen_per_round = 1.0 + (_DISCARDED_DRAW * (active - 1) if self.discard_wins else 0.0)
        self.seen_per_round = seen_per_round
        self.hidden_total = hidden_total
        generator = random.Random(rng.getrandbits(64))
        self.playouts: list[_Playout] = []
        for _ in range(SAMPLES if samples is None else samples):
            guess = determinise(view, pool, generator)
            wall = guess.wall
            # Our draws: after ``before`` tiles, every ``active``-th tile of the wall.
            own = wall[before::active]
            end = len(own)
            for index in range(len(own)):
                if generator.random() < end_hazard(index):
                    end = index
                    break
            offers: tuple[tuple[tuple[int, bool], ...], ...] = ()
            if claims:
                offers = _guess_discards(guess, order, before, left, end, generator)
            self.playouts.append(_Playout(own, end, offers))
        # Memo shared by every candidate: hands met in a playout (their shanten and which
        # draws improve them, tested as they are drawn), and the hand after a draw.
        self._states: dict[tuple[str, bytes, int], _HandState] = {}
        self._steps: dict[tuple[str, bytes, int, int], tuple[bytes, int, int]] = {}
        self._claimed: dict[tuple[str, bytes, int, int, bool], tuple[bytes, int, int] | None] = {}

    # ------------------------------------------------------------------ playout steps

    def _state(self, target: base._Target, packed: bytes, wilds: int) -> _HandState:
        key = (target.name, packed, wilds)
        state = self._states.get(key)
        if state is None:
            state = self._states[key] = _HandState(target, packed, wilds, self.cache)
        return state

    def _step(
        self, target: base._Target, packed: bytes, wilds: int, drawn: int
    ) -> tuple[bytes, int, int]:
        """(hand, jokers, shanten) after an improving draw and the greedy discard; shanten
        -1 means the draw completes the hand (the hand is then the 3n+2 one)."""
        key = (target.name, packed, wilds, drawn)
        step = self._steps.get(key)
        if step is not None:
            return step
        counts = list(packed)
        if drawn == self.wild:
            wilds += 1
        else:
            counts[drawn] += 1
        after = self.cache.get(target, counts, wilds)
        if after < 0:
            step = (bytes(counts), wilds, -1)
        else:
            hand, value = self._throw(target, counts, wilds, after)
            step = (hand, wilds, value)
        self._steps[key] = step
        return step

    def _throw(
        self, target: base._Target, counts: list[int], wilds: int, keep: int
    ) -> tuple[bytes, int]:
        """(hand, shanten) of a 3n+2 hand after the greedy discard: the least connected
        tile that keeps shanten ``keep`` (outside the target first, then by how many own
        tiles sit next to it), else the one that loses least."""

        def connection(kind: int) -> tuple[int, int, int]:
            inside = target.mask >> kind & 1
            if kind >= 27:
                near = counts[kind]
            else:
                low = kind - kind % 9
                near = sum(counts[k] for k in range(max(low, kind - 2), min(low + 8, kind + 2) + 1))
            return (inside, near, kind)

        held = sorted((k for k in range(NUM_KINDS) if counts[k]), key=connection)
        best_kind, best_value = held[0], base._FAR + 1
        for kind in held:
            counts[kind] -= 1
            value = self.cache.get(target, counts, wilds)
            counts[kind] += 1
            if value < best_value:
                best_kind, best_value = kind, value
            if value <= keep:
                break
        counts[best_kind] -= 1
        return bytes(counts), best_value

    def _claim(
        self, target: base._Target, state: _HandState, tile: int, from_left: bool
    ) -> tuple[bytes, int, int] | None:
        """(hand, jokers, shanten) after the best pung (or, from the left-hand player,
        chow) of ``tile`` and the greedy discard, when that lowers the shanten; None
        when no claim does. Why: claims are what make a Taizhou hand fast (most of its
        wins come within five rounds), and a playout that only draws rates every hand
        that counts on them too slow."""
        key = (target.name, state.packed, state.wilds, tile, from_left)
        if key in self._claimed:
            return self._claimed[key]
        counts = state.counts
        uses: list[tuple[int, int]] = []
        if target.mask >> tile & 1:
            if counts[tile] >= 2:
                uses.append((tile, tile))
            if from_left and tile < 27 and not target.pungs_only:
                rank = tile % 9
                for low in (tile - 2, tile - 1, tile):
                    if low < tile - rank or low + 2 > tile - rank + 8:
                        continue
                    pair = tuple(k for k in (low, low + 1, low + 2) if k != tile)
                    if all(counts[k] for k in pair) and all(target.mask >> k & 1 for k in pair):
                        uses.append((pair[0], pair[1]))
        best: tuple[bytes, int, int] | None = None
        for first, second in uses:
            after = list(counts)
            after[first] -= 1
            after[second] -= 1
            hand, value = self._throw(target, after, state.wilds, state.current - 1)
            if value < state.current and (best is None or value < best[2]):
                best = (hand, state.wilds, value)
        self._claimed[key] = best
        return best

    def _play(
        self, target: base._Target, index: int, packed: bytes, wilds: int, table: base._Table
    ) -> float:
        """Mean value won over the guesses, playing for ``target`` alone."""
        total = 0.0
        wild = self.wild
        start = self._state(target, packed, wilds)
        values: dict[bytes, float] = {}
        finishes: dict[tuple[bytes, int], tuple[float, float]] = {}
        for playout in self.playouts:
            state = start
            own, end = playout.own, playout.end
            for round_index in range(end):
                if state.current >= end - round_index and not playout.offers:
                    break  # more steps to go than draws left
                if state.current == 0:
                    key = (state.packed, state.wilds)
                    finish = finishes.get(key)
                    if finish is None:
                        finish = finishes[key] = self._finish(state, table, index)
                    per_round, ready_value = finish
                    total += ready_value * (1.0 - (1.0 - per_round) ** (end - round_index))
                    break
                if playout.offers:
                    claimed = None
                    for offered, from_left in playout.offers[round_index]:
                        if offered != wild and state.counts[offered] >= 1:
                            claimed = self._claim(target, state, offered, from_left)
                            if claimed is not None:
                                break
                    if claimed is not None:
                        # The claim takes the place of this round's draw.
                        state = self._state(target, claimed[0], claimed[1])
                        continue
                tile = own[round_index]
                if tile != wild and not state.improves(tile):
                    continue
                hand, jokers, after = self._step(target, state.packed, state.wilds, tile)
                if after >= 0:
                    state = self._state(target, hand, jokers)
                    continue
                # Completed from one step away (a joker, or a hand whose shanten drops
                # by two).
                value = values.get(hand)
                if value is None:
                    value = values[hand] = base._target_values(list(hand), table)[index]
                total += value
                break
        return total / max(1, len(self.playouts))

    def _finish(self, state: _HandState, table: base._Table, index: int) -> tuple[float, float]:
        """(chance per round of completing, value) of a ready hand: its live outs among
        the hidden tiles, met on our draw and (where discards win) in the others'
        discards. Why not play the wait out too: whether one of a few outs turns up is
        most of a playout's noise, and its expectation is known."""
        unseen = self.table.unseen
        outs = 0
        for kind in base._improving_kinds(state.target, state.counts):
            if kind != self.wild and state.improves(kind):
                outs += unseen[kind]
        share = outs / self.hidden_total
        jokers = unseen[self.wild] / self.hidden_total if self.wild is not None else 0.0
        # A joker completes on our own draw only (a discarded wild cannot be won on).
        miss = (1.0 - min(1.0, share + jokers)) * (1.0 - min(1.0, share)) ** (
            self.seen_per_round - 1.0
        )
        value = base._target_values(state.counts, table)[index]
        return 1.0 - miss, value

    def value(
        self, counts: list[int], wilds: int, table: base._Table, shantens: list[int]
    ) -> float:
        """The sampled worth of a 3n+1 hand: for the targets the analytic estimate rates
        best, the mean value completed in time over the guesses; the best target's."""
        if not table.targets or not self.playouts:
            return 0.0
        values = base._target_values(counts, table)
        rough = []
        for index, current in enumerate(shantens):
            typical = base._TYPICAL_OUTS[min(current, len(base._TYPICAL_OUTS) - 1)]
            rough.append(values[index] * base._win_chance(current, typical, table))
        order = sorted(range(len(shantens)), key=lambda i: (-rough[i], i))
        top = rough[order[0]]
        packed = bytes(counts)
        best = 0.0
        for index in order[:TARGETS_PER_CANDIDATE]:
            if rough[index] < 0.3 * top or shantens[index] >= base._FAR:
                continue
            best = max(best, self._play(table.targets[index], index, packed, wilds, table))
        return best
