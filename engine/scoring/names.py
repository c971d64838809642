"""The words every rule set's results share (units, payment and refusal reasons, headings).

Each rule set's own scoring items live in its package (``engine/variants/<name>/names.py``,
read as ``Variant.item_names``); these tables are the words around them. The renderer,
the CLI's ``--explain`` and the font subsetter all read them, so a word is spelled once
and every glyph it needs can be collected from here.
"""

from __future__ import annotations

from ..types import HandResult, Payment

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
    "settlement": ("互算", "between non-winners"),  # short: a card repeats it on every line
}


def payment_multiple(payment: Payment, result: HandResult) -> int | None:
    """How many times the hand's score a payment is, where its reason pays a multiple
    (Jiaxing: a robbed kong 3×, three-claim liability 5× or 2×, RULES.md §1), so a card
    can say "三摊 ×5" beside an amount its score line does not explain; else None."""
    if payment.reason not in ("rob_kong", "santan") or result.score <= 0:
        return None
    multiple, rest = divmod(payment.amount, result.score)
    return multiple if rest == 0 and multiple > 1 else None


INVALID_REASONS: dict[str, tuple[str, str]] = {
    "discard_win": ("嘉兴台头胡只能自摸", "Jiaxing wins only by self-draw"),
    "not_a_winning_hand": ("不是四副一将", "not four sets and a pair"),
    "no_qualifying_type": (
        "不满足清一色、混一色、全老头、对对和",
        "no qualifying hand type (Full/Half Flush, All Honors, All Pungs)",
    ),
    "rob_kong_pair_wait": (
        "单吊抢杠或百搭配将，不许抢杠",
        "robbing is not allowed on a pair wait, or to pair the tile with a wild",
    ),
    "wild_in_meld": (
        "百搭/财神不能吃、碰、杠",
        "a wild cannot be used in a chow, pung or kong",
    ),
    "wild_discard": ("百搭/财神打出后不能胡", "a discarded wild cannot be won on"),
    "folded": ("已不跟，不能胡", "a folded player cannot win"),
}


def invalid_reason_text(reason: str | None, wild_zh: str = "") -> tuple[str, str]:
    """Why a win is refused, (Chinese, English). The table names the wild 百搭/财神 (the
    reasons are shared); given the rule set's own word for it (``Variant.wild_name_zh``:
    百搭 in Jiaxing, 财神 in Taizhou), the Chinese says that word alone, as its players do."""
    zh, en = INVALID_REASONS.get(reason or "", (str(reason), str(reason)))
    if wild_zh:
        zh = zh.replace("百搭/财神", wild_zh)
    return zh, en


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
    "white": ("白板", "White"),
    "from_seat": ("出牌", "from seat"),
}


def all_chinese_text() -> str:
    """Every Chinese string here and in every registered rule set's item names, for the
    font subset."""
    from ..variants import RULE_SETS

    item_tables = [
        table for rules in RULE_SETS.values() for table in (rules.item_names, rules.item_alt_names)
    ]
    tables = [*item_tables, UNIT_NAMES, PAYMENT_REASONS, INVALID_REASONS, WIN_BY, TEXT]
    return "".join(zh for table in tables for zh, _ in table.values())
