"""Every scoring item's stable key and its Chinese and English names, in one place.

The renderer, the CLI's ``--explain`` and the font subsetter all read these, so a name
is spelled once and every glyph it needs can be collected from here.
"""

from __future__ import annotations

# key -> (zh-CN, English)
JIAXING_NAMES: dict[str, tuple[str, str]] = {
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
    "carried_fan": ("带番", "Carried Bonus Fan"),
}

TAIZHOU_NAMES: dict[str, tuple[str, str]] = {
    "exposed_pung": ("明刻", "Exposed Pung"),
    "concealed_pung": ("暗刻", "Concealed Pung"),
    "exposed_kong": ("明杠", "Exposed Kong"),
    "concealed_kong": ("暗杠", "Concealed Kong"),
    "pair": ("对子", "Seat Wind or Dragon Pair"),
    "self_draw": ("自摸", "Self-Draw"),
    "closed_wait": ("嵌档", "Closed Wait"),
    "single_wait": ("单吊", "Single Wait"),
    "all_pungs": ("对对胡", "All Pungs"),
    "win_bonus": ("胡牌", "Winning Bonus"),
    "seat_wind": ("门风", "Seat Wind"),
    "red_pung": ("红中", "Red Dragon Pung"),
    "green_pung": ("发财", "Green Dragon Pung"),
    "white_pung": ("白板", "White Dragon Pung"),
    "full_flush": ("清一色", "Full Flush"),
    "half_flush": ("混一色", "Half Flush"),
    "limit": ("腊子", "Limit"),
}

NAMES: dict[str, dict[str, tuple[str, str]]] = {
    "jiaxing": JIAXING_NAMES,
    "taizhou": TAIZHOU_NAMES,
}

# Words used around the items (units, payment reasons, headings) by the explain output.
UNIT_NAMES: dict[str, tuple[str, str]] = {
    "tai": ("台", "tai"),
    "fan": ("番", "fan"),
    "points": ("胡", "points"),
}

PAYMENT_REASONS: dict[str, tuple[str, str]] = {
    "win": ("胡牌", "win"),
    "rob_kong": ("抢杠", "robbing the kong"),
    "santan": ("三摊", "three-claim liability"),
    "liability": ("全包", "full liability"),
    "limit": ("腊子", "limit"),
    "settlement": ("互算", "settlement between non-winners"),
}

INVALID_REASONS: dict[str, tuple[str, str]] = {
    "discard_win": ("嘉兴台头胡只能自摸", "Jiaxing wins only by self-draw"),
    "not_a_winning_hand": ("不成和牌", "not four sets and a pair"),
    "no_qualifying_type": (
        "不满足清一色、混一色、全老头、对对和",
        "no qualifying hand type (Full/Half Flush, All Honors, All Pungs)",
    ),
    "rob_kong_pair_wait": ("单吊抢杠或百搭配将，不许抢杠", "robbing on a pair wait is not allowed"),
    "wild_discard": ("百搭/财神打出后不能胡", "a discarded wild cannot be won on"),
    "folded": ("已不跟，不能胡", "a folded player cannot win"),
}

WIN_BY: dict[str, tuple[str, str]] = {
    "self_draw": ("自摸", "self-draw"),
    "discard": ("放铳", "on a discard"),
    "rob_kong": ("抢杠", "robbing a kong"),
}

TEXT: dict[str, tuple[str, str]] = {
    "winner": ("胡家", "winner"),
    "seat": ("座位", "seat"),
    "dealer": ("庄家", "dealer"),
    "score": ("得分", "score"),
    "total": ("合计", "total"),
    "payments": ("支付", "payments"),
    "deltas": ("输赢", "net"),
    "arrangement": ("牌型", "arrangement"),
    "invalid": ("不能胡", "not a legal win"),
    "non_winners": ("未胡玩家", "non-winners"),
    "wild": ("百搭/财神", "wild"),
    "from_seat": ("出牌", "from seat"),
    "jiaxing": ("嘉兴台头胡", "Jiaxing Taitou Hu"),
    "taizhou": ("台州麻将", "Taizhou"),
}


def item_names(variant: str, key: str) -> tuple[str, str]:
    return NAMES[variant][key]


def all_chinese_text() -> str:
    """Every Chinese string here, for the font subset."""
    tables = [*NAMES.values(), UNIT_NAMES, PAYMENT_REASONS, INVALID_REASONS, WIN_BY, TEXT]
    return "".join(zh for table in tables for zh, _ in table.values())
