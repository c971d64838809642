"""``hard``'s reading of the other seats: the chance that a discard is won on.

Why a fitted model: where discards win (Taizhou), a deal-in hands an opponent the hand.
The first defence guessed the chance from two hand-set tables (an opponent's chance of
being ready by its melds and turns, times a tile's share of a ready hand's waits), and
``hard`` dealt in as often as ``normal``. This module reads the same public facts, and
a few more (what the opponent threw away near the tile and in its suit, the copies left
in sight, a tile the opponent let go by since its last turn), into one logistic model
per question, fitted on self-play where the answer is known: at every discard, which
tiles each other seat would have won on (``benchmarks/fit_deal_in.py``).

Two models share the opponent's features:

- ``READY``: is the seat ready (waiting) now, from its melds, turns and discards;
- ``HIT``: would a discard of this kind complete its hand now, which adds the tile's
  features to those.

Both are fitted against ``normal`` opponents, the AI the bot seats beside people; the
fit script prints how well each ranks held-out decisions against the hand-set tables
they replace. ``engine.ai_hard`` folds by the fitted readiness and, while folding,
ranks its tiles by the fitted deal-in chance (why not while pushing: its docstring).
The reading is a pure function of the view, so a game replays exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .tiles import DRAGONS, WHITE
from .views import PlayerView, SeatView

# Coefficients, in the order of ``opponent_features`` then ``tile_features``; printed by
# ``benchmarks/fit_deal_in.py --variant taizhou --hands 1500 --holdout 500`` (normal
# self-play; on its 500 held-out hands: deal-in log loss 0.0496 against the tables'
# 0.0540, readiness 0.2685 against 0.2980).
READY: dict[str, tuple[float, ...]] = {
    "taizhou": (-5.6479, 0.7267, 1.3654, 2.2527, 4.1936, 8.9248, -3.9093, -0.4244),
}
HIT: dict[str, tuple[float, ...]] = {
    "taizhou": (
        -8.5455, 0.5108, 0.9119, 0.9184, 1.2858, 8.9892, -3.7601, 0.1594,  # the seat
        -1.1156, 0.4872, 0.8961, 0.7692, -1.5924, -1.368, -0.7035, -1.0047, -0.5752,
        -0.3019, -3.0328, -0.4267, -0.4559, 0.021, 0.0838, -0.1115, 0.8916, 0.8498,  # the tile
    ),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class OpponentRead:
    """What one decision reads of one other seat, once for every tile it weighs."""

    seat: int
    features: tuple[float, ...]
    discarded: frozenset[int]  # kinds it threw away this hand
    passed: frozenset[int]  # kinds it let go by since its last turn
    melded_suits: frozenset[int]  # suits (0-2) of its exposed melds
    suit_share: tuple[float, float, float, float]  # its discards by suit and honors
    valued_honors: frozenset[int]  # its seat wind and the dragons: tai for it


def opponent_features(seat_view: SeatView, tiles_left: int) -> tuple[float, ...]:
    """Readiness features: exposed melds (one-hot 1-4, none the baseline), turns
    (discards, and their square: readiness rises and saturates), and the wall left."""
    melds = min(len(seat_view.melds), 4)
    turns = len(seat_view.discards) / 10.0
    return (
        1.0,
        float(melds == 1),
        float(melds == 2),
        float(melds == 3),
        float(melds == 4),
        turns,
        turns * turns,
        tiles_left / 100.0,
    )


def passed_since(view: PlayerView, other: int) -> frozenset[int]:
    """Kinds discarded after ``other``'s last turn that it let go by: the latest discard
    of each seat between it and us in play order. A seat that could have won on one of
    them would have, and a skipped win locks the kind until its next draw, so none of
    them can win for it now."""
    public = view.public
    kinds: set[int] = set()
    seat = (other + 1) % public.num_seats
    while seat != view.seat:
        discards = public.seats[seat].discards
        if discards:
            kinds.add(discards[-1].tile)
        seat = (seat + 1) % public.num_seats
    return frozenset(kinds)


def read_opponent(view: PlayerView, seat_view: SeatView) -> OpponentRead:
    discarded = frozenset(d.tile for d in seat_view.discards)
    by_suit = [0, 0, 0, 0]
    for discard in seat_view.discards:
        by_suit[discard.tile // 9 if discard.tile < 27 else 3] += 1
    total = max(1, len(seat_view.discards))
    return OpponentRead(
        seat=seat_view.seat,
        features=opponent_features(seat_view, view.public.tiles_left),
        discarded=discarded,
        passed=passed_since(view, seat_view.seat),
        melded_suits=frozenset(m.kind // 9 for m in seat_view.melds if m.tiles and m.kind < 27),
        suit_share=(
            by_suit[0] / total,
            by_suit[1] / total,
            by_suit[2] / total,
            by_suit[3] / total,
        ),
        valued_honors=frozenset((seat_view.seat_wind, *DRAGONS)),
    )


def tile_features(
    read: OpponentRead, kind: int, unseen: int, wild: int | None
) -> tuple[float, ...]:
    """The tile's features against one opponent: honor or rank class, copies still out
    of our sight (fewer copies, fewer hands can wait on it), the opponent's own discards
    of it and near it (suji: three apart), its suits, and a White that may stand for the
    wild's kind."""
    honor = kind >= 27
    copies = min(unseen, 3)
    if honor:
        rank_class = (0.0, 0.0, 0.0)
        suit_share = read.suit_share[3]
        near_discarded = 0.0
        suji = 0.0
        off_suit = on_suit = 0.0
        valued = float(kind in read.valued_honors)
    else:
        rank = kind % 9
        distance = min(rank, 8 - rank)  # 0 terminal .. 4 the five
        rank_class = (float(distance == 1), float(distance == 2), float(distance >= 3))
        suit = kind // 9
        suit_share = read.suit_share[suit]
        low = kind - rank
        near_discarded = float(
            any(
                other in read.discarded
                for other in (kind - 2, kind - 1, kind + 1, kind + 2)
                if low <= other < low + 9
            )
        )
        suji = float(
            any(other in read.discarded for other in (kind - 3, kind + 3) if low <= other < low + 9)
        )
        melded = read.melded_suits
        off_suit = float(len(melded) == 1 and suit not in melded)
        on_suit = float(suit in melded)
        valued = 0.0
    return (
        float(honor),
        *rank_class,
        float(honor and copies == 0),
        float(honor and copies == 1),
        float(honor and copies == 2),
        float(not honor and copies == 0),
        float(not honor and copies == 1),
        float(not honor and copies == 2),
        float(kind in read.discarded),
        near_discarded,
        suji,
        suit_share,
        off_suit,
        on_suit,
        valued,
        float(kind == WHITE and wild is not None and wild != WHITE),
    )


def _logistic(coefs: tuple[float, ...], features: tuple[float, ...]) -> float:
    z = 0.0
    for coef, value in zip(coefs, features, strict=True):
        z += coef * value
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def ready_chance(variant: str, read: OpponentRead) -> float | None:
    """The fitted chance that the seat is ready (None where no model was fitted)."""
    coefs = READY.get(variant)
    return None if coefs is None else _logistic(coefs, read.features)


def hit_chance(
    variant: str, read: OpponentRead, kind: int, unseen: int, wild: int | None
) -> float | None:
    """The fitted chance that a discard of ``kind`` completes the seat's hand now (None
    where no model was fitted). A wild can never be won on; a tile the seat let go by
    since its last turn cannot either."""
    coefs = HIT.get(variant)
    if coefs is None:
        return None
    if kind == wild or kind in read.passed:
        return 0.0
    return _logistic(coefs, read.features + tile_features(read, kind, unseen, wild))


FEATURE_NAMES = (
    "bias",
    "melds1",
    "melds2",
    "melds3",
    "melds4",
    "turns",
    "turns2",
    "tiles_left",
)
TILE_FEATURE_NAMES = (
    "honor",
    "rank28",
    "rank37",
    "rank456",
    "honor_out0",
    "honor_out1",
    "honor_out2",
    "suit_out0",
    "suit_out1",
    "suit_out2",
    "discarded",
    "near_discarded",
    "suji",
    "suit_share",
    "off_suit",
    "on_suit",
    "valued_honor",
    "white_as_wild",
)
