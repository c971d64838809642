"""Taizhou 台州麻将 scoring items: each stable key with its Chinese and English name.

The scorer, the renderer, ``score --explain`` and the font subsetter all read these
(through ``Variant.item_names``), so a name is spelled once, next to the rules that
award it.
"""

from __future__ import annotations

# key -> (zh-CN, English), in display order
ITEM_NAMES: dict[str, tuple[str, str]] = {
    "exposed_pung": ("明刻", "Exposed Pung"),
    "concealed_pung": ("暗刻", "Concealed Pung"),
    "exposed_kong": ("明杠", "Exposed Kong"),
    "concealed_kong": ("暗杠", "Concealed Kong"),
    "pair": ("对子", "Seat Wind or Dragon Pair"),
    "self_draw": ("自摸", "Self-Draw"),
    "closed_wait": ("嵌档", "Closed Wait"),
    "single_wait": ("单吊", "Single Wait"),
    "all_pungs": ("对对胡", "All Pungs"),
    "win_bonus": ("胡家奖励", "Winning Bonus"),
    "seat_wind": ("门风", "Seat Wind"),
    "red_pung": ("红中", "Red Dragon Pung"),
    "green_pung": ("发财", "Green Dragon Pung"),
    "white_pung": ("白板", "White Dragon Pung"),
    "full_flush": ("清一色", "Full Flush"),
    "half_flush": ("混一色", "Half Flush"),
    "limit": ("腊子", "Limit"),
}

# A set of terminals or honors scores twice a simple one: two breakdown lines "明刻 +2"
# and "明刻 +4" read as a wrong count, so the doubled one says why, in the seed's words
# ("1、9 牌刻子、字牌刻子 4胡"). Display names only: the item's key stays the set's.
TERMINAL_SET_NAMES: dict[str, tuple[str, str]] = {
    "exposed_pung": ("明刻（一九字牌）", "Exposed Pung (terminals/honors)"),
    "concealed_pung": ("暗刻（一九字牌）", "Concealed Pung (terminals/honors)"),
    "exposed_kong": ("明杠（一九字牌）", "Exposed Kong (terminals/honors)"),
    "concealed_kong": ("暗杠（一九字牌）", "Concealed Kong (terminals/honors)"),
}
