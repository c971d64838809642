"""Pure, deterministic rules for Jiaxing Taitou Hu (嘉兴台头胡) and Taizhou (台州麻将) mahjong.

The small public API lives here; everything else is importable from its module.
"""

from .shapes import is_winning_hand, winning_tiles
from .tiles import TileError, format_tiles, parse_tile, parse_tiles

__all__ = [
    "TileError",
    "format_tiles",
    "is_winning_hand",
    "parse_tile",
    "parse_tiles",
    "winning_tiles",
]
