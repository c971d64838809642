"""The wall: a seeded shuffle, two dice, the indicator and the reserve.

Live draws come from the front, kong replacements from the back (the far end), and no
draw of either kind takes the wall below the variant's reserve (RULES.md §0). The dice
are kept for display and Jiaxing's dice bonus; since the shuffle is already uniform,
breaking the wall at the dice position would not change any probability, so the wall
is simply read from its front.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .tiles import NUM_KINDS


def hand_rng(seed: int | str) -> random.Random:
    """A generator seeded from a string, so the stream is the same on every platform."""
    return random.Random(f"mahjong-bot:{seed}")


def tile_kinds_in_play(remove_suits: int = 0) -> list[int]:
    """Kinds in play: Taizhou's ``remove_suits`` drops characters, then bamboo."""
    removed: set[int] = set()
    if remove_suits >= 1:
        removed.update(range(0, 9))
    if remove_suits >= 2:
        removed.update(range(18, 27))
    return [kind for kind in range(NUM_KINDS) if kind not in removed]


@dataclass
class Wall:
    tiles: list[int]  # remaining kinds, front = next live draw, back = next replacement
    dice: tuple[int, int]
    reserve: int
    indicator: int | None = None
    total: int = 0
    drawn_from_back: int = 0
    indicator_in_wall: bool = field(default=False)

    @classmethod
    def shuffled(cls, seed: int | str, *, reserve: int = 0, remove_suits: int = 0) -> Wall:
        rng = hand_rng(seed)
        tiles = [kind for kind in tile_kinds_in_play(remove_suits) for _ in range(4)]
        rng.shuffle(tiles)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        return cls(tiles=tiles, dice=dice, reserve=reserve, total=len(tiles))

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn before the reserve (never negative)."""
        left = len(self.tiles) - self.reserve  # asked several times per move: no ``max``
        return left if left > 0 else 0

    def draw(self) -> int:
        if self.drawable <= 0:
            raise IndexError("the live wall is exhausted")
        return self.tiles.pop(0)

    def draw_replacement(self) -> int:
        if self.drawable <= 0:
            raise IndexError("the live wall is exhausted")
        self.drawn_from_back += 1
        return self.tiles.pop()

    def flip_indicator(self, *, keep_in_wall: bool) -> int:
        """Flip the tile at the far end. With ``keep_in_wall`` it stays drawable
        (``wild_copies`` 4: all four copies are wild); otherwise it leaves play."""
        if keep_in_wall:
            self.indicator = self.tiles[-1]
            self.indicator_in_wall = True
        else:
            self.indicator = self.tiles.pop()
        return self.indicator
