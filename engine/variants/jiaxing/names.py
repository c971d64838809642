"""Jiaxing Taitou Hu 嘉兴台头胡 scoring items: each stable key with its Chinese and English name.

The scorer, the renderer, ``score --explain`` and the font subsetter all read these
(through ``Variant.item_names``), so a name is spelled once, next to the rules that
award it.
"""

from __future__ import annotations

# What adds a fan to the carried pool when a hand starts (RULES.md §1): the round's key
# -> (zh-CN, English). The pool's own item is "carried_fan" above.
CARRIED_FAN_BONUS_NAMES: dict[str, tuple[str, str]] = {
    "honor_wild": ("老头黄", "Honor Wild"),  # the wild kind is an honor
    "dice_doubles": ("包子", "Dice Doubles"),  # both dice show the same number
    "repeat_wild": ("百搭连庄", "Repeat Wild"),  # the same wild kind as the hand before
}

# key -> (zh-CN, English), in display order
ITEM_NAMES: dict[str, tuple[str, str]] = {
    "full_flush": ("清一色", "Full Flush"),
    "half_flush": ("混一色", "Half Flush"),
    "all_honors": ("全老头", "All Honors"),
    "all_pungs": ("对对和", "All Pungs"),
    "red_pung": ("红中", "Red Dragon Pung"),
    "green_pung": ("发财", "Green Dragon Pung"),
    "white_pung": ("白板", "White Dragon Pung"),
    "seat_wind": ("门风", "Seat Wind"),
    "prevailing_wind": ("风圈", "Prevailing Wind"),
    "no_wilds": ("无百搭", "No Wilds"),
    "three_wilds": ("三百搭", "Three Wilds"),
    "kong_replacement": ("杠上开花", "Win on Kong Replacement"),
    "single_wait": ("单吊", "Single Wait"),
    "last_tile": ("海底捞月", "Last Tile"),
    "heavenly_hand": ("天和", "Heavenly Hand"),
    "earthly_hand": ("地和", "Earthly Hand"),
    "carried_fan": ("番池", "Carried Bonus Fan"),
}
