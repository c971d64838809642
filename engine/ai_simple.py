"""Simple seeded move choosers: legal, cheap and deliberately weak.

Why they live beside the real levels: the soak test (``simulate --players random``), the
render demo and tests need players that exercise the engine without playing well, and
keeping every move chooser in ``engine`` means one place decides what a legal, seeded
choice looks like. ``engine.ai.choose_action`` accepts their names (``POLICIES``).
"""

from __future__ import annotations

import random

from .shapes import count_hand, shanten
from .types import CHOW, CONTINUE, DISCARD, FOLD, KONG, PASS, PUNG, WIN, Action
from .views import PlayerView


def random_policy(view: PlayerView, rng: random.Random) -> Action:
    """Legal and seeded, but not silly: always wins when it can, claims now and then,
    continues under three-claim liability most of the time, otherwise discards a random
    tile (never passes a turn away, since a turn has no pass)."""
    legal = list(view.legal)
    if not legal:
        raise ValueError(f"seat {view.seat} has no legal action")
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action.type, []).append(action)
    if WIN in by_type:
        return by_type[WIN][0]
    if CONTINUE in by_type:
        return by_type[CONTINUE][0] if rng.random() < 0.8 else by_type[FOLD][0]
    kongs = by_type.get(KONG, [])
    if kongs and rng.random() < 0.5:
        return rng.choice(kongs)
    if PUNG in by_type and rng.random() < 0.5:
        return by_type[PUNG][0]
    if CHOW in by_type and rng.random() < 0.3:
        return rng.choice(by_type[CHOW])
    if DISCARD in by_type:
        return rng.choice(by_type[DISCARD])
    return by_type[PASS][0] if PASS in by_type else rng.choice(legal)


def _main_suit(view: PlayerView) -> int:
    """The suit this seat holds most of (melds included, wilds not)."""
    counts = [0, 0, 0]
    tiles = [*view.all_concealed, *(kind for meld in view.melds for kind in meld.tiles)]
    for kind in tiles:
        if kind < 27 and kind != view.public.wild:
            counts[kind // 9] += 1
    return counts.index(max(counts))


def flush_policy(view: PlayerView, rng: random.Random) -> Action:
    """A random player that leans towards one suit plus honors, so that hands do reach
    Jiaxing's qualifying types now and then and the scoring gets exercised too."""
    legal = list(view.legal)
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action.type, []).append(action)
    if WIN in by_type or CONTINUE in by_type or not legal:
        return random_policy(view, rng)
    suit = _main_suit(view)

    def on_suit(kind: int | None) -> bool:
        return kind is not None and (kind >= 27 or kind // 9 == suit)

    if KONG in by_type and rng.random() < 0.7:
        return rng.choice(by_type[KONG])
    claimed = view.claim_tile
    if PUNG in by_type and on_suit(claimed) and rng.random() < 0.8:
        return by_type[PUNG][0]
    if CHOW in by_type and on_suit(claimed) and rng.random() < 0.6:
        return rng.choice(by_type[CHOW])
    discards = by_type.get(DISCARD, [])
    if discards:
        off_suit = [a for a in discards if not on_suit(a.tile) and a.tile != view.public.wild]
        if off_suit and rng.random() < 0.9:
            return rng.choice(off_suit)
        keep_wilds = [a for a in discards if a.tile != view.public.wild] or discards
        return rng.choice(keep_wilds)
    return by_type[PASS][0] if PASS in by_type else rng.choice(legal)


def greedy_policy(view: PlayerView, rng: random.Random, allow_win: bool = True) -> Action:
    """Win when allowed, claim now and then, keep wilds and discard the tile that leaves
    the fewest tiles from a win: demo hands (``render-demo``) look like play, and with
    ``allow_win`` False a demo round runs on until the view it wants has come up."""
    legal = list(view.legal)
    wins = [a for a in legal if a.type == WIN]
    if wins and allow_win:
        return wins[0]
    claims = [a for a in legal if a.type in ("pung", "kong", "chow")]
    if claims and rng.random() < 0.4:
        return rng.choice(claims)
    discards = [a for a in legal if a.type == DISCARD]
    if not discards:
        return next((a for a in legal if a.type in ("pass", "continue")), legal[0])
    wild = view.public.wild
    hand = list(view.all_concealed)

    def after(action: Action) -> tuple[int, float]:
        assert action.tile is not None  # a discard names its tile
        rest = list(hand)
        rest.remove(action.tile)
        counts, wilds = count_hand(rest, wild)
        return (shanten(counts, wilds) + (9 if action.tile == wild else 0), rng.random())

    return min(discards, key=after)
