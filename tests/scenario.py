"""Stage a Round in an exact position, so each rule can be tested on purpose.

A real Round is built from a seed and then its hands, melds, wall, wild and turn are
overwritten. Every tile not placed by the test goes to the wall (or, when the test asks
for a short wall, to the rivers), so the 136-tile census still holds and the round's own
integrity checks stay meaningful on staged positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.round import Round, _Discard
from engine.tiles import NUM_KINDS, parse_tile, parse_tiles, to_counts
from engine.types import Action, HandResult, Meld, WinContext
from engine.wall import tile_kinds_in_play


def fake_scorer(ctx: WinContext) -> HandResult:
    """Accept every winning shape and pay 1 from each other seat; mechanics tests that
    must not depend on the scoring tables use it."""
    deltas = [-1] * ctx.seats
    deltas[ctx.winner] = ctx.seats - 1
    return HandResult(ctx.variant, True, ctx.winner, ctx.seats, deltas, win_by=ctx.win.by)


def meld(kind: str, tiles: str, from_seat: int | None = None, **extra: Any) -> Meld:
    """A staged meld: ``meld("pung", "555p", from_seat=2)``; a claimed meld's claimed
    tile defaults to its first tile."""
    kinds = tuple(sorted(parse_tiles(tiles)))
    concealed = bool(extra.pop("concealed", False))
    claimed = extra.pop("claimed", None)
    if claimed is None and from_seat is not None:
        claimed = kinds[0]
    elif isinstance(claimed, str):
        claimed = parse_tile(claimed)
    return Meld(kind, kinds, from_seat=from_seat, claimed=claimed, concealed=concealed, **extra)


def stage(
    variant: str,
    hands: Sequence[str],
    *,
    wild: str | None = "9s",
    turn: int = 0,
    drawn: str | None = None,
    draws: str = "",
    back: str = "",
    live: int | None = None,
    melds: dict[int, list[Meld]] | None = None,
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    scorer: Callable[[WinContext], HandResult] | None = None,
    first_turn: bool = False,
    seed: int = 7,
) -> Round:
    """A Round at ``turn``'s turn with exactly these tiles.

    - ``hands``: each seat's concealed tiles; the seat in turn holds 3n+2 and ``drawn``
      (one of them) is its just-drawn tile.
    - ``wild``: the indicator kind (its other copies are wild); None keeps the seed's.
    - ``draws``: the next live draws in order; ``back``: the next kong replacements in
      order. Other tiles fill the wall between them.
    - ``live``: the number of drawable tiles left (the rest of the unplaced tiles go to
      the rivers so that nothing is lost).
    - ``first_turn``: nobody has discarded yet (heavenly/earthly hand positions).
    ``scorer`` None (the default) is the real scoring; ``fake_scorer`` accepts any shape.
    """
    round_ = Round(
        variant,
        options,
        seed,
        seats=len(hands),
        dealer=dealer,
        scorer=scorer,
    )
    seats = len(hands)
    pool = [0] * NUM_KINDS
    for kind in tile_kinds_in_play(round_.variant.remove_suits()):
        pool[kind] = 4

    def take(kinds: Sequence[int], what: str) -> None:
        for kind in kinds:
            if pool[kind] <= 0:
                raise ValueError(f"staging: no copy of kind {kind} left for {what}")
            pool[kind] -= 1

    if wild is not None:
        round_.indicator = parse_tile(wild)
        round_.wild = round_.indicator
        round_.wall.indicator = round_.indicator
    keep_indicator = int(round_.options.wild_copies) == 4
    round_.wall.indicator_in_wall = keep_indicator
    if not keep_indicator:
        take([round_.indicator], "the indicator")

    round_.hands = []
    for seat, text in enumerate(hands):
        kinds = parse_tiles(text)
        take(kinds, f"seat {seat}'s hand")
        round_.hands.append(to_counts(kinds))
    round_.melds = [[] for _ in range(seats)]
    round_.discards = [[] for _ in range(seats)]
    for seat, seat_melds in (melds or {}).items():
        for staged in seat_melds:
            tiles = list(staged.tiles)
            if staged.white_as is not None:
                tiles.remove(staged.white_as)
                tiles.append(parse_tile("5z"))
            take(tiles, f"seat {seat}'s meld")
            round_.melds[seat].append(staged)
            if staged.claimed is not None and staged.from_seat is not None:
                pool[staged.claimed] += 1  # the claimed tile sits in the river too
                take([staged.claimed], "the river")
                round_.discards[staged.from_seat].append(
                    _Discard(staged.claimed, claimed=True, by_seat=seat)
                )
    front = parse_tiles(draws)
    replacements = parse_tiles(back)
    take(front, "the draws")
    take(replacements, "the replacements")
    filler = [kind for kind in range(NUM_KINDS) for _ in range(pool[kind])]
    random.Random(seed).shuffle(filler)
    reserve = round_.wall.reserve
    if live is not None:
        wanted_filler = max(0, live + reserve - len(front) - len(replacements))
        spill, filler = filler[wanted_filler:], filler[:wanted_filler]
        for index, kind in enumerate(spill):
            round_.discards[index % seats].append(_Discard(kind))
    round_.wall.tiles = [*front, *filler, *reversed(replacements)]
    if live is not None and round_.wall.drawable != live:
        raise ValueError(f"staging: cannot leave {live} drawable tiles")

    round_.drawn = [None] * seats
    round_.phase = "turn"
    round_.current_seat = turn
    round_.after_claim = False
    round_.after_kong = False
    round_.window = None
    if drawn is not None:
        kind = parse_tile(drawn)
        if not round_.hands[turn][kind]:
            raise ValueError("staging: the drawn tile must be in the hand of the seat in turn")
        round_.drawn[turn] = kind
    round_.has_discarded = [not first_turn] * seats
    round_.any_claim = any(round_.melds[seat] for seat in range(seats))
    round_.seen = {d.tile for river in round_.discards for d in river}
    for seat_melds in round_.melds:
        for staged in seat_melds:
            if not staged.concealed:
                round_.seen.update(staged.tiles)
    round_.last_discard = None
    round_.skipped_win = [set() for _ in range(seats)]
    round_._win_cache.clear()
    round_.actions = []
    round_.turn_id = 0
    assert all(count in (0, 4) for count in round_.tile_census()), round_.tile_census()
    return round_


def act(round_: Round, kind: str, seat: int, tile: str | None = None, tiles: str | None = None):
    """Apply one action written briefly: ``act(r, "discard", 0, "5m")``."""
    action = Action(
        kind,
        seat,
        tile=parse_tile(tile) if tile is not None else None,
        tiles=tuple(sorted(parse_tiles(tiles))) if tiles is not None else None,
    )
    return round_.apply(action)


def types_of(actions: Sequence[Action]) -> set[str]:
    return {action.type for action in actions}


def event_types(events: Sequence[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def rig_self_draw_win(round_: Round, seat: int) -> None:
    """Turn ``seat``'s 14 concealed tiles (its turn, just drawn, no melds) into four
    pungs and a pair by swapping tiles with the wall, keeping the census: an All Pungs
    hand wins under both variants' real scoring."""
    assert round_.phase == "turn" and round_.current_seat == seat and not round_.melds[seat]
    pool = to_counts([*round_.wall.tiles, *round_.concealed_tiles(seat)])
    usable = [kind for kind in range(NUM_KINDS) if kind != round_.wild and kind != 31]
    pungs = [kind for kind in usable if pool[kind] >= 3][:4]
    pair = next(kind for kind in usable if pool[kind] >= 2 and kind not in pungs)
    hand = [kind for kind in pungs for _ in range(3)] + [pair, pair]
    assert len(hand) == 14, "not enough tiles left to rig a win"
    remaining = to_counts(hand)
    for kind in round_.concealed_tiles(seat):
        remaining[kind] -= 1
    # remaining > 0: take from the wall; < 0: give back to the wall.
    new_wall: list[int] = []
    for kind in round_.wall.tiles:
        if remaining[kind] > 0:
            remaining[kind] -= 1
        else:
            new_wall.append(kind)
    for kind in range(NUM_KINDS):
        new_wall.extend([kind] * -min(0, remaining[kind]))
    round_.wall.tiles = new_wall
    round_.hands[seat] = to_counts(hand)
    round_.drawn[seat] = pungs[0]
    round_._win_cache.clear()


def play_defaults_until(round_: Round, stop: Callable[[Round], bool], apply=None) -> None:
    """Play every seat's timeout default (discard the drawn tile, pass) until ``stop``."""
    apply = apply or round_.apply
    while not round_.is_over and not stop(round_):
        seat = round_.waiting_on[0]
        action = round_.default_action(seat)
        assert action is not None
        apply(action)


def pick(legal: list[Action], rng: random.Random) -> Action:
    """Random legal play biased towards the interesting: wins, claims and kongs often,
    a fold now and then, otherwise a random discard or a pass."""
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action.type, []).append(action)
    if "win" in by_type and rng.random() < 0.8:
        return by_type["win"][0]
    claims = by_type.get("pung", []) + by_type.get("kong", []) + by_type.get("chow", [])
    if claims and rng.random() < 0.6:
        return rng.choice(claims)
    if "fold" in by_type:
        return rng.choice([by_type["fold"][0], by_type["continue"][0]])
    return rng.choice(legal)
