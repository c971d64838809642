"""Tile kinds and the notation of RULES.md §0.

A tile kind is a small int 0..33 so that hands can be count vectors (``list[int]`` of
length 34) and suit slices: characters 0-8, dots 9-17, bamboo 18-26, honors 27-33
(East, South, West, North, White, Green, Red). Physical tiles are ids 0..135 where
``tile_id // 4`` is the kind; the engine tracks ids so that 136 tiles are always
accounted for.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

NUM_KINDS = 34
SUITS = "mpsz"
_KIND_STRS = tuple(f"{kind % 9 + 1}{SUITS[kind // 9]}" for kind in range(NUM_KINDS))
MAN, PIN, SOU, HONOR = 0, 1, 2, 3

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)

# Honor letters accepted by the parser: E S W N, White = P, Green = F, Red = C.
HONOR_LETTERS = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH, "P": WHITE, "F": GREEN, "C": RED}

_ZH_NUMERALS = "一二三四五六七八九"
_ZH_SUIT = {0: "万", 1: "筒", 2: "条"}
_ZH_HONORS = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
_EN_SUIT = {0: "Characters", 1: "Dots", 2: "Bamboo"}
_EN_HONORS_LONG = (
    "East Wind",
    "South Wind",
    "West Wind",
    "North Wind",
    "White Dragon",
    "Green Dragon",
    "Red Dragon",
)


class TileError(ValueError):
    """Bad tile notation or an impossible tile multiset; the message says what is wrong.

    ``str(error)`` (and ``en``) is English; ``zh`` says the same in Chinese, because a
    player who types a tile wrong reads the reason in their own language. Errors only a
    program can cause (a kind out of range) have no translation and repeat the English.
    """

    def __init__(self, en: str, zh: str | None = None) -> None:
        super().__init__(en)
        self.en = en
        self.zh = zh or en


def is_honor(kind: int) -> bool:
    return kind >= 27


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def is_terminal_or_honor(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def kind_str(kind: int) -> str:
    """The canonical two-character form, e.g. ``5m`` or ``7z``."""
    if not 0 <= kind < NUM_KINDS:
        raise TileError(f"tile kind {kind} is out of range 0..33")
    return _KIND_STRS[kind]  # every event of every move names a tile: formatted once


def name_zh(kind: int) -> str:
    if kind >= 27:
        return _ZH_HONORS[kind - 27]
    return _ZH_NUMERALS[kind % 9] + _ZH_SUIT[kind // 9]


def name_en(kind: int) -> str:
    if kind >= 27:
        return _EN_HONORS_LONG[kind - 27]
    return f"{kind % 9 + 1} {_EN_SUIT[kind // 9]}"


def tile_name(kind: int, locale: str = "zh") -> str:
    return name_zh(kind) if locale.startswith("zh") else name_en(kind)


def _build_chinese_names() -> dict[str, int]:
    names: dict[str, int] = {}
    suit_aliases = {0: ("万", "萬"), 1: ("筒", "饼", "餅"), 2: ("条", "索", "條")}
    for suit, aliases in suit_aliases.items():
        for rank in range(9):
            for alias in aliases:
                names[_ZH_NUMERALS[rank] + alias] = suit * 9 + rank
                names[str(rank + 1) + alias] = suit * 9 + rank
    honor_aliases = [
        ("东风", "东", "東風", "東"),
        ("南风", "南", "南風"),
        ("西风", "西", "西風"),
        ("北风", "北", "北風"),
        ("白板", "白", "白板"),
        ("发财", "发", "發", "發財", "青发"),
        ("红中", "中", "紅中"),
    ]
    for offset, aliases in enumerate(honor_aliases):
        for alias in aliases:
            names[alias] = 27 + offset
    return names


CHINESE_NAMES = _build_chinese_names()
_CHINESE_SORTED = sorted(CHINESE_NAMES, key=len, reverse=True)
_ENGLISH_WORDS = {
    "east": EAST,
    "south": SOUTH,
    "west": WEST,
    "north": NORTH,
    "white": WHITE,
    "green": GREEN,
    "red": RED,
}


def parse_tiles(text: str | Iterable[int]) -> list[int]:
    """Parse notation into a list of tile kinds, in the order written.

    Accepts ``123m456p11z``, honor letters (``E S W N P F C``), Chinese names
    (``一万五筒东风红中``) and separators (spaces, commas). A list of ints passes through
    after a range check, so engine callers can hand over kinds directly.
    """
    if not isinstance(text, str):
        kinds = list(text)
        for kind in kinds:
            if not isinstance(kind, int) or not 0 <= kind < NUM_KINDS:
                raise TileError(f"tile kind {kind!r} is out of range 0..33")
        return kinds
    result: list[int] = []
    pending_digits = ""
    pending_at = 0
    i = 0
    # Full-width forms (１ｍ, ５Ｐ, "，") are what a Chinese input method types in its
    # full-width mode: read as their ASCII twins. A suit letter after digits may be a
    # capital (5M): honor letters never follow digits, so 5S is not 5 and South.
    s = unicodedata.normalize("NFKC", text).strip()
    while i < len(s):
        ch = s[i]
        if ch.isdigit() and ch.isascii():
            if not pending_digits:
                pending_at = i
            pending_digits += ch
            i += 1
            continue
        if pending_digits and ch.lower() in "mpsz":
            ch = ch.lower()
            for digit_index, digit in enumerate(pending_digits):
                rank = int(digit)
                where = pending_at + digit_index + 1
                if ch == "z":
                    if not 1 <= rank <= 7:
                        raise TileError(
                            f"'{digit}z' at position {where} in {text!r}: "
                            "honors are 1z-7z (East, South, West, North, White, Green, Red)",
                            f"{text!r} 第 {where} 个字符的 '{digit}z' 不是牌："
                            "字牌只有 1z–7z（东、南、西、北、白、发、中）",
                        )
                elif not 1 <= rank <= 9:
                    raise TileError(
                        f"'{digit}{ch}' at position {where} in {text!r}: "
                        "suited tiles are numbered 1-9",
                        f"{text!r} 第 {where} 个字符的 '{digit}{ch}' 不是牌：数牌只有 1–9",
                    )
                result.append("mpsz".index(ch) * 9 + rank - 1)
            pending_digits = ""
            i += 1
            continue
        if pending_digits:
            # Digits may be followed by a Chinese suit character: 5万, 3筒.
            if len(pending_digits) == 1 and s[pending_at : i + 1] in CHINESE_NAMES:
                result.append(CHINESE_NAMES[s[pending_at : i + 1]])
                pending_digits = ""
                i += 1
                continue
            raise TileError(
                f"digits {pending_digits!r} at position {pending_at + 1} in {text!r} "
                "are not followed by a suit letter m, p, s or z",
                f"{text!r} 第 {pending_at + 1} 个字符起的数字 {pending_digits!r} "
                "后面要跟花色字母 m、p、s 或 z",
            )
        if ch in " ,;、，\t\n_-|":
            i += 1
            continue
        # Whole English words first: "White" must not read as W(est) + "hite".
        word = re.match(r"[A-Za-z]+", s[i:])
        if word and word.group(0).lower() in _ENGLISH_WORDS:
            result.append(_ENGLISH_WORDS[word.group(0).lower()])
            i += len(word.group(0))
            continue
        if ch in HONOR_LETTERS:
            result.append(HONOR_LETTERS[ch])
            i += 1
            continue
        for name in _CHINESE_SORTED:
            if s.startswith(name, i):
                result.append(CHINESE_NAMES[name])
                i += len(name)
                break
        else:
            raise TileError(
                f"unknown tile {ch!r} at position {i + 1} in {text!r} "
                "(use notation like 123m456p789s1234567z, E S W N P F C, or 一万/东风)",
                f"{text!r} 第 {i + 1} 个字符 {ch!r} 不是牌"
                "（写法如 123m456p789s1234567z、E S W N P F C，或 一万、东风）",
            )
    if pending_digits:
        raise TileError(
            f"digits {pending_digits!r} at the end of {text!r} need a suit letter m, p, s or z",
            f"{text!r} 末尾的数字 {pending_digits!r} 后面要跟花色字母 m、p、s 或 z",
        )
    return result


def parse_tile(text: str | int) -> int:
    """Parse exactly one tile."""
    if isinstance(text, int):
        return parse_tiles([text])[0]
    kinds = parse_tiles(text)
    if len(kinds) != 1:
        raise TileError(
            f"expected one tile, got {len(kinds)} in {text!r}",
            f"要写一张牌，{text!r} 里是 {len(kinds)} 张",
        )
    return kinds[0]


def format_tiles(kinds: Iterable[int], *, sort: bool = True) -> str:
    """Compact notation, suits grouped: ``[0,1,2,27]`` -> ``123m1z``.

    With ``sort=False`` the order is kept and runs of the same suit are grouped only
    when adjacent.
    """
    seq = sorted(kinds) if sort else list(kinds)
    out: list[str] = []
    digits = ""
    suit = -1
    for kind in seq:
        if not 0 <= kind < NUM_KINDS:
            raise TileError(f"tile kind {kind} is out of range 0..33")
        if kind // 9 != suit and digits:
            out.append(digits + SUITS[suit])
            digits = ""
        suit = kind // 9
        digits += str(kind % 9 + 1)
    if digits:
        out.append(digits + SUITS[suit])
    return "".join(out)


def to_counts(kinds: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    return counts


def from_counts(counts: list[int]) -> list[int]:
    """The kinds of a count vector in order (every player view lists its tiles so)."""
    tiles: list[int] = []
    for kind in range(NUM_KINDS):
        copies = counts[kind]
        if copies:
            tiles += (kind,) * copies  # half the time of a nested comprehension
    return tiles


def check_copies(kinds: Iterable[int], what: str = "tiles") -> None:
    """Raise if any kind appears more than four times."""
    counts = to_counts(kinds)
    for kind, count in enumerate(counts):
        if count > 4:
            raise TileError(f"{what} hold {count} copies of {kind_str(kind)}; there are only 4")
