"""Learner aids for one seat: its waits with how many of each are still unseen, a score
preview for each wait, and a tile-efficiency hint for the discard.

Everything is computed from what that seat may know: its own tiles and the public table
(``PlayerView``), never another seat's hand or the wall's order; the waits are the
round's own (``Round.waits``: wilds, White standing in for the wild in Taizhou, seven
pairs when allowed), and a preview is the rule set's scorer run on the hand completed by
that tile, so a wait that would not make a valid win (Jiaxing's qualifying types) says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .shapes import hand_waits, shanten
from .wall import tile_kinds_in_play

if TYPE_CHECKING:
    from .round import Round
    from .views import PlayerView


@dataclass(frozen=True)
class WaitAid:
    tile: int
    unseen: int  # copies this seat has not seen (its own hand, discards, melds, indicator)
    self_draw_units: int | None  # what the seat would win by self-draw (None: not a win)
    discard_units: int | None = None  # on a discard, where discards win (None: no/invalid)


@dataclass(frozen=True)
class DiscardHint:
    tile: int  # the suggested discard
    shanten: int  # after it: 0 = ready (waiting), 1 = one tile from ready, ...
    useful: int  # unseen tiles that would bring the hand closer after it (ukeire)
    waits: tuple[int, ...] = ()  # when the discard leaves the hand ready


@dataclass(frozen=True)
class LearnerAids:
    waits: tuple[WaitAid, ...]
    hint: DiscardHint | None


def unseen_counts(view: PlayerView, remove_suits: int = 0) -> list[int]:
    """Copies of each kind this seat has not seen: 4 of each kind in play, less its own
    tiles and melds, every discard (a claimed one once: it is in the claimer's meld), the
    exposed melds and the indicator."""
    remaining = [0] * 34
    for kind in tile_kinds_in_play(remove_suits):
        remaining[kind] = 4
    seen = list(view.all_concealed)
    seen += [tile for meld in view.melds for tile in meld.tiles]
    for seat in view.public.seats:
        seen += [discard.tile for discard in seat.discards if not discard.claimed]
        if seat.seat != view.seat:
            seen += [tile for meld in seat.melds for tile in meld.tiles]
    seen.append(view.public.indicator)
    for kind in seen:
        remaining[kind] = max(0, remaining[kind] - 1)
    return remaining


def learner_aids(round_: Round, seat: int, view: PlayerView) -> LearnerAids:
    """The aids for ``seat`` now: waits (if its concealed tiles are 3n+1) or, on its own
    turn (3n+2), the discard that keeps the hand closest to ready with the most tiles."""
    unseen = unseen_counts(view, int(getattr(round_.options, "remove_suits", 0)))
    tiles = len(view.all_concealed)
    if tiles % 3 == 1:
        waits = tuple(_wait_aid(round_, seat, tile, unseen) for tile in round_.waits(seat))
        return LearnerAids(waits, None)
    if tiles % 3 == 2:
        return LearnerAids((), _discard_hint(round_, seat, unseen))
    return LearnerAids((), None)


def _wait_aid(round_: Round, seat: int, tile: int, unseen: list[int]) -> WaitAid:
    self_draw = round_.preview_win(seat, tile, "self_draw")
    on_discard = round_.preview_win(seat, tile, "discard") if round_.variant.discard_wins else None
    return WaitAid(tile, unseen[tile], self_draw, on_discard)


def _discard_hint(round_: Round, seat: int, unseen: list[int]) -> DiscardHint | None:
    counts, wilds = round_._natural_counts(seat)
    wild = round_.wild
    best: tuple[int, int, int] | None = None  # (shanten, -useful, tile)
    for tile in range(34):
        if counts[tile] == 0:
            continue
        counts[tile] -= 1
        after = shanten(counts, wilds)
        useful = 0
        for draw in range(34):
            if draw == wild or unseen[draw] == 0:
                continue
            counts[draw] += 1
            if shanten(counts, wilds) < after:
                useful += unseen[draw]
            counts[draw] -= 1
        if wild is not None and after >= 0:
            useful += unseen[wild]  # a wild drawn always helps
        counts[tile] += 1
        key = (after, -useful, tile)
        if best is None or key < best:
            best = key
    if best is None:  # nothing but wilds in hand: keep them
        return None
    after, minus_useful, tile = best
    waits: tuple[int, ...] = ()
    if after == 0:
        counts[tile] -= 1
        waits = tuple(
            hand_waits(counts, wilds, wild,
                       seven_pairs=bool(round_.options.allow_seven_pairs) and not round_.melds[seat],
                       white_stands_in=round_.variant.white_substitutes_wild)
        )  # fmt: skip
        counts[tile] += 1
    return DiscardHint(tile, after, -minus_useful, waits)


__all__ = ["DiscardHint", "LearnerAids", "WaitAid", "learner_aids", "unseen_counts"]
