"""Fonts, bilingual labels and cached text sprites.

Only the bundled subsets in ``render/fonts/`` are ever loaded, so an image looks the same
on every machine, and a character the subset lacks is replaced by ``?`` instead of being
drawn as an empty box (player names can hold anything).
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.variants import Variant
from engine.words import WINDS

FONT_DIR = Path(__file__).resolve().parent / "fonts"
UI_FONT_PATH = FONT_DIR / "MahjongBotSansCJKSubset-Bold.otf"
FACE_FONT_PATH = FONT_DIR / "MahjongBotSerifCJKSubset-Bold.otf"

Color = tuple[int, int, int] | tuple[int, int, int, int]

# Drawing into the shared caches happens only on a cache miss; the lock keeps two render
# threads (the bot uses asyncio.to_thread) from rasterising with one FreeType face at once.
DRAW_LOCK = threading.RLock()

# Every label the images draw, (zh, en), beyond the domain words of ``engine.words`` and
# the rule sets' own names (``engine.variants``). The font test walks all three.
LABELS: dict[str, tuple[str, str]] = {
    "indicator": ("翻牌", "Indicator"),
    "white_stands_for": ("白板代", "White acts as"),
    "tiles_left": ("余牌", "Tiles left"),
    "prevailing": ("风圈", "Round wind"),
    "pool": ("番池", "Fan pool"),
    "dice": ("骰子", "Dice"),
    "hand_no": ("第{n}局", "Hand {n}"),
    "dealer": ("庄", "D"),
    "turn": ("轮到", "Turn"),
    "waiting_on": ("等待", "Waiting"),
    "claim_window": ("可吃碰杠胡", "Claim"),
    "rob_kong": ("抢杠", "Rob kong"),
    "santan": ("三摊 跟/不跟", "3-claim: go on?"),
    "ended": ("本局结束", "Hand over"),
    "folded": ("不跟", "Folded"),
    "liable": ("承包", "Liable"),
    "concealed": ("暗牌", "Hidden"),
    "drawn": ("摸", "Drew"),
    "waits": ("听牌", "Waits"),
    "no_waits": ("未听牌", "Not waiting"),
    "discard_hint": ("可打", "Discard"),
    "skipped_win": ("过胡", "Skipped win"),
    "claim_tile": ("可吃碰", "On offer"),
    "your_seat": ("你的座位", "Your seat"),
    "score": ("分", "pts"),
    "seat": ("座位{n}", "Seat {n}"),
    "winner": ("胡牌", "Winner"),
    "draw_title": ("流局", "Exhaustive draw"),
    "draw_note": ("荒庄，无人胡牌，不结算", "Wall exhausted: no winner, no payments"),
    "draw_pool": ("番池 +1", "Fan pool +1"),
    "invalid_title": ("无效和牌", "Invalid win"),
    "breakdown": ("计分明细", "Breakdown"),
    "payments": ("结算", "Payments"),
    "pays": ("付", "pays"),
    "net": ("净得", "Net"),
    "totals": ("各家得分", "Each seat's score"),
    "leaderboard": ("排行榜", "Leaderboard"),
    "week": ("本周", "This week"),
    "all_time": ("总榜", "All time"),
    "rank": ("名次", "Rank"),
    "player": ("玩家", "Player"),
    "net_points": ("净分", "Net"),
    "hands": ("局数", "Hands"),
    "wins": ("胡牌", "Wins"),
    "win_rate": ("胜率", "Win %"),
    "empty_board": ("暂无记录", "No games yet"),
}


def label(key: str, locale: str = "zh", **values: object) -> str:
    zh, en = LABELS[key]
    text = zh if locale.startswith("zh") else en
    return text.format(**values) if values else text


def wind_name(wind: int, locale: str = "zh") -> str:
    """A wind as one character (东) or letter (E): seat badges and the round wind."""
    return WINDS[wind].pick(locale, short=True)


def rule_set_name(rules: type[Variant], locale: str = "zh") -> str:
    return rules.name_zh if locale.startswith("zh") else rules.name_en


def wild_label(rules: type[Variant], locale: str = "zh") -> str:
    """What the rule set calls its wild (百搭, 财神) over the wild tile."""
    return rules.wild_name_zh if locale.startswith("zh") else rules.wild_name_en


@cache
def ui_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(UI_FONT_PATH), size)


@cache
def face_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FACE_FONT_PATH), size)


@lru_cache(maxsize=2)
def font_codepoints(path: Path = UI_FONT_PATH) -> frozenset[int]:
    """The characters a bundled font has, from the list written beside it by
    ``scripts/build_font_subset.py`` (so fontTools is not needed at run time)."""
    text = path.with_suffix(".chars.txt").read_text(encoding="utf-8").rstrip("\n")
    return frozenset(ord(ch) for ch in text)


def safe_text(text: str) -> str:
    """``text`` with every character the UI font lacks replaced by ``?``."""
    codepoints = font_codepoints()
    return "".join(ch if ord(ch) in codepoints or ch in "\n" else "?" for ch in text)


@lru_cache(maxsize=4096)
def text_sprite(text: str, size: int, color: Color) -> Image.Image:
    """``text`` drawn once in the UI font on a transparent, tightly cropped canvas.

    Composing an image pastes these instead of re-rasterising the same labels every
    time, which keeps a warm render in the low milliseconds.
    """
    with DRAW_LOCK:
        font = ui_font(size)
        text = safe_text(text)
        left, _top, right, _bottom = font.getbbox(text)
        ascent, descent = font.getmetrics()
        width = max(1, int(right - min(0, left)) + 2)
        canvas = Image.new("RGBA", (width, ascent + descent), (*color[:3], 0))
        ImageDraw.Draw(canvas).text((-min(0, left) + 1, 0), text, font=font, fill=color)
        return canvas


def text_width(text: str, size: int) -> int:
    return text_sprite(text, size, (0, 0, 0)).width


def fit_text(text: str, size: int, max_width: int) -> str:
    """Shorten ``text`` with an ellipsis until it fits ``max_width`` pixels."""
    if text_width(text, size) <= max_width:
        return text
    while len(text) > 1 and text_width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…"
