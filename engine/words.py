"""The game's own words, the same under every rule set: winds, dragons, units, win types
and action verbs, in Simplified Chinese, English and Traditional Chinese.

Render (images), the terminal game, the Discord presenter, ``score --explain`` and the
calculator all read these, so a wind or a verb is spelled one way everywhere. Words that
differ between rule sets (a rule set's name, its wild's name, its total formula) belong
to the rule set and come from ``engine.variants.get_rules``. Pure data: no I/O, no
imports beyond the standard library.

``Word.pick`` gives Simplified Chinese or English; ``Word.text`` adds Traditional Chinese
for zh-TW readers, which images (their bundled fonts cover both scripts) and text
surfaces use alike.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ACTIONS",
    "DRAGONS",
    "PREVAILING_WINDS",
    "SEAT_WINDS",
    "UNITS",
    "WINDS",
    "WIN_TYPES",
    "Word",
    "is_traditional",
    "wind",
]


def is_traditional(locale: str) -> bool:
    """zh-TW, zh-HK and zh-Hant read Traditional characters."""
    lowered = locale.lower().replace("_", "-")
    return lowered.startswith(("zh-tw", "zh-hk", "zh-mo", "zh-hant"))


@dataclass(frozen=True)
class Word:
    """One word in three written forms; ``short`` is the English used where room is
    tight (an image badge, a tile row) and defaults to ``en``."""

    zh: str
    en: str
    zh_tw: str = ""
    short: str = ""

    def pick(self, locale: str, *, short: bool = False) -> str:
        """Simplified Chinese for any ``zh`` locale, else English."""
        if locale.lower().startswith("zh"):
            return self.zh
        return (self.short or self.en) if short else self.en

    def text(self, locale: str, *, short: bool = False) -> str:
        """Like ``pick``, with Traditional Chinese for zh-TW readers."""
        if is_traditional(locale):
            return self.zh_tw or self.zh
        return self.pick(locale, short=short)

    def both(self) -> str:
        """``"碰 pung"``: the inline bilingual form the terminal and text lines use."""
        return self.zh if self.zh == self.en else f"{self.zh} {self.en}"


# Wind tile kinds (27..30, as in engine.tiles) -> the wind's one-character name.
WINDS: dict[int, Word] = {
    27: Word("东", "East", "東", "E"),
    28: Word("南", "South", "南", "S"),
    29: Word("西", "West", "西", "W"),
    30: Word("北", "North", "北", "N"),
}
# A seat's wind (东家 "East seat") and the prevailing wind of a round (东风圈 "East round").
SEAT_WINDS: dict[int, Word] = {
    kind: Word(f"{w.zh}家", f"{w.en} seat", f"{w.zh_tw}家", f"{w.short} seat")
    for kind, w in WINDS.items()
}
PREVAILING_WINDS: dict[int, Word] = {
    kind: Word(f"{w.zh}风圈", f"{w.en} round", f"{w.zh_tw}風圈", f"{w.short} round")
    for kind, w in WINDS.items()
}

# Dragon tile kinds (31..33) -> their names.
DRAGONS: dict[int, Word] = {
    31: Word("白板", "White", "白板"),
    32: Word("发财", "Green", "發財"),
    33: Word("红中", "Red", "紅中"),
}

# Score units, keyed as ``ScoreItem.unit`` names them.
UNITS: dict[str, Word] = {
    "tai": Word("台", "tai", "台"),
    "fan": Word("番", "fan", "番"),
    "points": Word("胡", "points", "胡", "pts"),
    "type": Word("台", "tai", "台"),  # a qualifying hand type counts in tai
}

# How a hand was won, keyed as ``HandResult.win_by`` names it: the winner's side (捉冲,
# the Taizhou seed's word, wins on a discard; the discarder's 放铳 is a payment's reason).
WIN_TYPES: dict[str, Word] = {
    "self_draw": Word("自摸", "self-draw", "自摸", "Self-draw"),
    "discard": Word("捉冲", "on a discard", "捉衝", "On discard"),
    "rob_kong": Word("抢杠胡", "robbing a kong", "搶槓胡", "Robbed kong"),
}

# What a player does, keyed as ``engine.types`` action types (and the concealed kong
# event) name it; ``en`` is the third person a move line reads ("A 碰 pungs 3s").
ACTIONS: dict[str, Word] = {
    "discard": Word("打出", "discards", "打出", "discard"),
    "chow": Word("吃", "chows", "吃", "chow"),
    "pung": Word("碰", "pungs", "碰", "pung"),
    "kong": Word("杠", "kongs", "槓", "kong"),
    "concealed_kong": Word("暗杠", "concealed kong", "暗槓"),
    "added_kong": Word("补杠", "adds a kong", "補槓", "added kong"),
    "win": Word("胡", "wins", "胡", "win"),
    "pass": Word("过", "passes", "過", "pass"),
    "continue": Word("跟", "continues", "跟", "continue"),
    "fold": Word("不跟", "folds", "不跟", "fold"),
}


def wind(kind: int) -> Word:
    """The wind named by a wind tile kind (27 East … 30 North)."""
    return WINDS[kind]
