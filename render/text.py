"""Fonts, bilingual labels and cached text sprites.

Only the bundled subsets in ``render/fonts/`` are ever loaded, so an image looks the same
on every machine, and a character the subset lacks is replaced by ``?`` instead of being
drawn as an empty box (player names can hold anything).
"""

from __future__ import annotations

import logging
import threading
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.variants import Variant
from engine.words import WINDS, Word, is_traditional

from .bidi import FSI, LRI, MIRRORED, PDI, RLI, graphemes, has_rtl, levels, visual_order

log = logging.getLogger(__name__)

FONT_DIR = Path(__file__).resolve().parent / "fonts"
UI_FONT_PATH = FONT_DIR / "MahjongBotSansCJKSubset-Bold.otf"
FACE_FONT_PATH = FONT_DIR / "MahjongBotSerifCJKSubset-Bold.otf"

Color = tuple[int, int, int] | tuple[int, int, int, int]

# Drawing into the shared caches happens only on a cache miss; the lock keeps two render
# threads (the bot uses asyncio.to_thread) from rasterising with one FreeType face at once.
DRAW_LOCK = threading.RLock()

# Every label the images draw, (zh-CN, en, zh-TW), beyond the domain words of ``engine.words`` and
# the rule sets' own names (``engine.variants``). The font test walks all three.
LABELS: dict[str, tuple[str, str, str]] = {
    "indicator": ("翻牌", "Indicator", "翻牌"),
    "white_stands_for": ("白板代", "White acts as", "白板代"),
    "tiles_left": ("余牌", "Tiles left", "餘牌"),
    "prevailing": ("风圈", "Round wind", "風圈"),
    "pool": ("番池", "Fan pool", "番池"),
    "dice": ("骰子", "Dice", "骰子"),
    "hand_no": ("第{n}局", "Hand {n}", "第{n}局"),
    "dealer": ("庄", "D", "莊"),
    "turn": ("轮到", "Turn", "輪到"),
    "waiting_on": ("等待", "Waiting", "等待"),
    "claim_window": ("可吃碰杠", "Claim", "可吃碰槓"),
    "claim_window_or_win": ("可吃碰杠胡", "Claim", "可吃碰槓胡"),
    "rob_kong": ("抢杠", "Rob kong", "搶槓"),
    "santan": ("三摊 跟/不跟", "3-claim: go on?", "三攤 跟/不跟"),
    "ended": ("本局结束", "Hand over", "本局結束"),
    "folded": ("不跟", "Folded", "不跟"),
    "liable": ("承包", "Liable", "承包"),
    "own_discards": ("你的弃牌", "Your discards", "你的棄牌"),
    "concealed": ("暗牌", "Hidden", "暗牌"),
    "drawn": ("摸", "Drew", "摸"),
    "waits": ("听牌", "Waits", "聽牌"),
    "no_waits": ("未听牌", "Not waiting", "未聽牌"),
    "discard_hint": ("可打", "Discard", "可打"),
    "skipped_win": ("过胡", "Skipped win", "過胡"),
    "claim_tile": ("待吃碰", "On offer", "待吃碰"),  # others may claim it: not "you may"
    "your_seat": ("你的座位", "Your seat", "你的座位"),
    "score": ("分", "pts", "分"),
    "seat": ("座位{n}", "Seat {n}", "座位{n}"),
    "winner": ("胡牌", "Winner", "胡牌"),
    "draw_title": ("流局", "Exhaustive draw", "流局"),
    "draw_note": (
        "荒庄，无人胡牌，不结算",
        "Wall exhausted: no winner, no payments",
        "荒莊，無人胡牌，不結算",
    ),
    "draw_pool": ("番池 +1", "Fan pool +1", "番池 +1"),
    "invalid_title": ("无效胡牌", "Invalid win", "無效胡牌"),
    "breakdown": ("计分明细", "Breakdown", "計分明細"),
    "payments": ("结算", "Payments", "結算"),
    "pays": ("付", "pays", "付"),
    "net": ("净得", "Net", "淨得"),
    "totals": ("各家得分", "Each seat's score", "各家得分"),
    "leaderboard": ("排行榜", "Leaderboard", "排行榜"),
    "week": ("本周", "This week", "本週"),
    "all_time": ("总榜", "All time", "總榜"),
    "rank": ("名次", "Rank", "名次"),
    "player": ("玩家", "Player", "玩家"),
    "net_points": ("净分", "Net", "淨分"),
    "hands": ("局数", "Hands", "局數"),
    "wins": ("胡牌", "Wins", "胡牌"),
    "win_rate": ("胡牌率", "Win %", "胡牌率"),
    "empty_board": ("暂无记录", "No games yet", "暫無記錄"),
    "discarded_by": ("{name} 打出", "from {name}", "{name} 打出"),
    "claim_offer": ("可以", "You may", "可以"),
    "white_legend": ("白板代{wild}", "White stands for the {wild}'s kind", "白板代{wild}"),
    "last_discard": ("刚打", "Last", "剛打"),
    "month": ("月榜", "Monthly season", "月榜"),
    "stats_title": ("个人记录", "Player stats", "個人記錄"),
    "stats_win_rate": ("胡牌率", "Win rate", "胡牌率"),
    "stats_self_draw": ("自摸率", "Self-draw share", "自摸率"),
    "stats_deal_in": ("放铳率", "Deal-in rate", "放銃率"),
    "stats_mean": ("每局均分", "Mean per hand", "每局均分"),
    "stats_net": ("输赢", "Net", "輸贏"),
    "stats_biggest": ("最大胡牌", "Biggest hand", "最大胡牌"),
    "stats_types": ("胡牌牌型", "Winning types", "胡牌牌型"),
    "stats_trend": ("余额走向", "Balance", "餘額走向"),
    "stats_all_variants": ("全部玩法", "All rule sets", "全部玩法"),
    "stats_this_week": ("本周", "This week", "本週"),
    "stats_last_week": ("上周", "Last week", "上週"),
    "stats_this_month": ("本月", "This month", "本月"),
    "stats_last_month": ("上月", "Last month", "上月"),
    "stats_all_time": ("全部", "All time", "全部"),
    "stats_times": ("{count} 次", "×{count}", "{count} 次"),
}


# Simplified → Traditional for the characters of rule-set words the registry holds only in
# Simplified (wild names, score-item names): a character table, not a dictionary, so a
# word is converted character by character; every pair here is one-to-one in our words
# (腊 → 臘 as in 腊子; Big5 has 腊 too, so the Traditional test cannot catch that one).
TRADITIONAL = str.maketrans(
    "财门风杠牌张双单对边连龙碰将头兴湾赢无凤发东万钱红绿台数点会过庄还听额余计岁"
    "总乐开关坎胜着赔结净尽嵌缺断带场顺独独归圈荡条饼报杂并抢门后补数个实处为捞摊档满许输铳腊写够须奖励黄冲",
    "財門風槓牌張雙單對邊連龍碰將頭興灣贏無鳳發東萬錢紅綠台數點會過莊還聽額餘計歲"
    "總樂開關坎勝著賠結淨盡嵌缺斷帶場順獨獨歸圈蕩條餅報雜並搶門後補數個實處為撈攤檔滿許輸銃臘寫夠須獎勵黃衝",
)


def traditional(text: str) -> str:
    """``text`` with the Simplified characters of our words in their Traditional form."""
    return text.translate(TRADITIONAL)


def chinese(text: str, locale: str) -> str:
    """A Simplified Chinese string from the engine (score items, totals) for ``locale``."""
    return traditional(text) if is_traditional(locale) else text


def label(key: str, locale: str = "zh", **values: object) -> str:
    return in_language(LABELS[key], locale, **values)


def in_language(forms: tuple[str, str, str], locale: str, **values: object) -> str:
    """One of a word's (zh-CN, en, zh-TW) forms for ``locale``, ``values`` filled in."""
    zh, en, zh_tw = forms
    text = zh_tw if is_traditional(locale) else zh if locale.startswith("zh") else en
    return text.format(**values) if values else text


def word(entry: Word, locale: str, *, short: bool = False) -> str:
    """A domain word of ``engine.words`` in the image's language (zh-TW included)."""
    return entry.text(locale, short=short)


def wind_name(wind: int, locale: str = "zh") -> str:
    """A wind as one character (东) or letter (E): seat badges and the round wind."""
    return WINDS[wind].text(locale, short=True)


def rule_set_name(rules: type[Variant], locale: str = "zh") -> str:
    return (
        rules.display_name(locale)
        if is_traditional(locale)
        else (rules.name_zh if locale.startswith("zh") else rules.name_en)
    )


def wild_label(rules: type[Variant], locale: str = "zh") -> str:
    """What the rule set calls its wild (百搭, 财神) over the wild tile."""
    if is_traditional(locale):
        return traditional(rules.wild_name_zh)
    return rules.wild_name_zh if locale.startswith("zh") else rules.wild_name_en


@cache
def ui_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(UI_FONT_PATH), size)


@cache
def face_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FACE_FONT_PATH), size)


@lru_cache(maxsize=16)
def font_codepoints(path: Path = UI_FONT_PATH) -> frozenset[int]:
    """The characters a bundled font has, from the list written beside it by
    ``scripts/build_font_subset.py`` (so fontTools is not needed at run time)."""
    text = path.with_suffix(".chars.txt").read_text(encoding="utf-8").rstrip("\n")
    return frozenset(ord(ch) for ch in text)


# Player names can be in any script. Pillow draws a run of text with one font and cannot
# fall back per glyph, so text is split into runs by the first font of this chain that has
# each character. The UI font (labels, common Chinese) comes first so ordinary text stays
# one run; the others are opened only when a name needs them, keeping cold start fast.
NAMES_CJK_PATH = FONT_DIR / "MahjongBotNamesCJK-Bold.otf"
NAMES_LATIN_PATH = FONT_DIR / "MahjongBotNamesLatin-Bold.ttf"
NAMES_ARABIC_PATH = FONT_DIR / "MahjongBotNamesArabic-Bold.ttf"
NAMES_HEBREW_PATH = FONT_DIR / "MahjongBotNamesHebrew-Bold.ttf"
NAMES_THAI_PATH = FONT_DIR / "MahjongBotNamesThai-Bold.ttf"
NAMES_DEVANAGARI_PATH = FONT_DIR / "MahjongBotNamesDevanagari-Bold.ttf"
EMOJI_PATH = FONT_DIR / "MahjongBotEmoji.ttf"
FALLBACK_CHAIN: tuple[Path, ...] = (
    UI_FONT_PATH,
    NAMES_CJK_PATH,
    NAMES_LATIN_PATH,
    NAMES_ARABIC_PATH,
    NAMES_HEBREW_PATH,
    NAMES_THAI_PATH,
    NAMES_DEVANAGARI_PATH,
    EMOJI_PATH,
)
# The fonts of scripts that are shaped as a whole (letters join, marks stack, conjuncts
# form): a run in one of them keeps the marks, spaces (and, for Arabic and Devanagari,
# the joiners) that follow, when the font has them, so "محمد علي" is shaped as one run
# instead of being cut at the space into runs of other fonts.
SHAPED_FONTS = frozenset(
    {NAMES_ARABIC_PATH, NAMES_HEBREW_PATH, NAMES_THAI_PATH, NAMES_DEVANAGARI_PATH}
)
JOINING_FONTS = frozenset({NAMES_ARABIC_PATH, NAMES_DEVANAGARI_PATH})
JOINERS = frozenset({0x200C, 0x200D})  # ZWNJ, ZWJ: they choose Arabic and Devanagari forms
EMOJI_NATIVE_SIZE = 109  # the colour bitmap strike: the only size FreeType opens it at
# Selectors and joiners have no glyph of their own: dropped rather than drawn as "?"
# (ZWNJ and ZWJ are kept inside an Arabic or Devanagari run, see SHAPED_FONTS). With them
# the blank fillers Discord users take for an "empty" name (Hangul fillers, the word
# joiner, a soft hyphen), which draw nothing either, and the bidi marks and isolates
# (LRM, RLM, ALM, LRE…PDF, LRI…PDI), which only steer the order of the line (``bidi``).
BIDI_CONTROLS = frozenset({0x200E, 0x200F, 0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})
INVISIBLE = (
    frozenset(
        {0x200B, 0x200C, 0x200D, 0xFE0E, 0xFE0F, 0x2060, 0x00AD, 0x115F, 0x1160, 0x3164, 0xFFA0}
    )
    | BIDI_CONTROLS
)


def font_for(char: str) -> Path | None:
    """The first font of ``FALLBACK_CHAIN`` that has ``char`` (None: none has it)."""
    code = ord(char)
    for path in FALLBACK_CHAIN:
        if code in font_codepoints(path):
            return path
    return None


def _stays_in_run(char: str, path: Path) -> bool:
    """Whether ``char`` stays in a run of ``path`` it follows rather than going to the
    first font of the chain: a mark, a space or (Arabic, Devanagari) a joiner after a
    shaped script's letter, where that font has it, so shaping sees the whole word."""
    if path not in SHAPED_FONTS:
        return False
    code = ord(char)
    if code in JOINERS:
        kept = path in JOINING_FONTS
    else:
        category = unicodedata.category(char)
        kept = category.startswith("M") or category == "Zs"
    return kept and code in font_codepoints(path)


def _drawn_chars(text: str) -> list[tuple[str, Path, int]]:
    """Each character of ``text`` that is drawn, in logical order, with its font and its
    bidi level (``bidi.levels``; all 0 for text without right-to-left characters).

    ``text`` is NFC-normalised first (a decomposed é finds its glyph); a character no font
    has becomes ``?`` in the UI font; invisible ones are dropped after the bidi pass has
    seen them (an RLM or an FSI steers the order, it is not drawn)."""
    text = unicodedata.normalize("NFC", text)
    char_levels = levels(text) if has_rtl(text) else [0] * len(text)
    drawn: list[tuple[str, Path, int]] = []
    ui_codepoints = font_codepoints(UI_FONT_PATH)
    for char, level in zip(text, char_levels, strict=True):
        code = ord(char)
        if drawn and _stays_in_run(char, drawn[-1][1]):
            drawn.append((char, drawn[-1][1], level))
            continue
        if code in INVISIBLE:
            continue
        path = UI_FONT_PATH if code in ui_codepoints or char == "\n" else font_for(char)
        if path is None:
            path, char = UI_FONT_PATH, "?"
        drawn.append((char, path, level))
    return drawn


def text_runs(text: str) -> list[tuple[Path, str]]:
    """``text`` cut into runs that each one font can draw, in logical (reading) order;
    see ``_drawn_chars`` for what is normalised, replaced and dropped."""
    runs: list[tuple[Path, str]] = []
    for char, path, _level in _drawn_chars(text):
        if runs and runs[-1][0] == path:
            runs[-1] = (path, runs[-1][1] + char)
        else:
            runs.append((path, char))
    return runs


def visual_runs(text: str) -> list[tuple[Path, str, bool]]:
    """``text`` cut into runs of one font and one direction, in drawing order (left to
    right): (font, the run's characters in logical order, whether it is right to left).
    A right-to-left run is shaped and reversed when it is drawn (``_run_sprite``)."""
    runs: list[tuple[Path, str, int]] = []
    for char, path, level in _drawn_chars(text):
        if runs and runs[-1][0] == path and runs[-1][2] == level:
            runs[-1] = (path, runs[-1][1] + char, level)
        else:
            runs.append((path, char, level))
    order = visual_order([level for _path, _run, level in runs])
    return [(runs[i][0], runs[i][1], runs[i][2] % 2 == 1) for i in order]


def han_language(run: str) -> str | None:
    """``"zh-Hant"`` for a run with a Traditional-only character (one GB2312 lacks: 莊,
    將, 劉), so the CJK fonts' ``locl`` feature draws Traditional glyph forms (a 莊 drawn
    with the Simplified font's forms looks mainland-style to a zh-TW reader); else None."""
    for char in run:
        if ord(char) >= 0x3400 and not 0xAC00 <= ord(char) <= 0xD7A3:
            try:
                char.encode("gb2312")
            except UnicodeEncodeError:
                return "zh-Hant"
    return None


def _raqm(font: ImageFont.FreeTypeFont) -> bool:
    return font.layout_engine == ImageFont.Layout.RAQM


def _direction(font: ImageFont.FreeTypeFont, rtl: bool) -> str | None:
    """``direction`` for a run, where the font can take it (libraqm): the run's own, so
    libraqm neither guesses it from the run's first letter nor reorders a run the bidi
    pass already placed. The basic layout refuses any direction (see ``_language``)."""
    if not _raqm(font):
        return None
    return "rtl" if rtl else "ltr"


def _language(font: ImageFont.FreeTypeFont, text: str) -> str | None:
    """``language`` for a Traditional run, where the font can take it. Pillow's wheels
    lay text out with libraqm only when the system has libfribidi (Debian: libfribidi0,
    an optional package a minimal server lacks); without it a font falls back to the
    basic layout, which refuses any ``language`` with a KeyError: every image with a
    Traditional character (a zh-TW table, 發 on the palette) would fail. There the run
    is drawn in the font's default (Simplified) forms instead, and the log says why."""
    language = han_language(text)
    if language is not None and not _raqm(font):
        _warn_basic_layout()
        return None
    return language


@cache
def _warn_basic_layout() -> None:
    log.warning(
        "Pillow lays text out without libraqm (install libfribidi, Debian: libfribidi0): "
        "Traditional characters are drawn in their Simplified glyph forms, Arabic letters "
        "unjoined, Thai and Devanagari unshaped"
    )


def safe_text(text: str) -> str:
    """``text`` as it will be drawn: characters no bundled font has replaced by ``?``."""
    return "".join(run for _path, run in text_runs(text))


@cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    if path == EMOJI_PATH:
        return ImageFont.truetype(str(path), EMOJI_NATIVE_SIZE)
    return ImageFont.truetype(str(path), size)


def _basic_text(text: str, rtl: bool) -> str:
    """What the basic layout (no libraqm: no shaping, no bidi) must be given to show a run:
    the joiners dropped (it would draw their glyphs) and a right-to-left run reversed
    grapheme cluster by cluster (a letter keeps its marks after it) with its brackets
    mirrored. Arabic letters then draw unjoined, Thai and Devanagari unshaped: readable,
    never a crash."""
    text = "".join(char for char in text if ord(char) not in JOINERS)
    if rtl:
        text = "".join(reversed(graphemes(text))).translate(MIRRORED)
    return text


def _run_sprite(
    path: Path, text: str, rtl: bool, size: int, color: Color, height: int, baseline: int
) -> Image.Image:
    """One run drawn on a canvas ``height`` tall with its baseline at ``baseline``."""
    if path == EMOJI_PATH:
        return _emoji_run(text[::-1] if rtl else text, size, height)
    font = _font(path, size)
    if not _raqm(font):
        text = _basic_text(text, rtl)
    direction = _direction(font, rtl)
    left, _top, right, _bottom = font.getbbox(text, direction=direction)
    ascent, _descent = font.getmetrics()
    width = max(1, int(right - min(0, left)) + 1)
    canvas = Image.new("RGBA", (width, height), (*color[:3], 0))
    ImageDraw.Draw(canvas).text(
        (-min(0, left), baseline - ascent),
        text,
        font=font,
        fill=color,
        direction=direction,
        language=_language(font, text),
    )
    return canvas


def _ink_below(path: Path, text: str, rtl: bool, size: int) -> int:
    """How far (pixels) a shaped run's ink reaches below its baseline: Arabic dots under
    a final ي or a kasra go deeper than the UI font's descent, and would be cut off by a
    sprite only as tall as the UI font's line."""
    font = _font(path, size)
    if not _raqm(font):
        text = _basic_text(text, rtl)
    _left, _top, _right, bottom = font.getbbox(text, anchor="ls", direction=_direction(font, rtl))
    return max(0, int(bottom))


def _emoji_run(text: str, size: int, height: int) -> Image.Image:
    """Colour emoji drawn at the bitmap font's native size, then scaled to the text size
    (about one em, centred on the line box)."""
    target = max(1, round(size * 1.05))
    sprites = [_emoji_glyph(char, target) for char in text]
    gap = max(1, size // 24)
    width = sum(sprite.width for sprite in sprites) + gap * (len(sprites) + 1)
    canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    x = gap
    for sprite in sprites:
        canvas.paste(sprite, (x, max(0, (height - target) // 2)), sprite)
        x += sprite.width + gap
    return canvas


@lru_cache(maxsize=2048)
def _emoji_glyph(char: str, height: int) -> Image.Image:
    """One emoji scaled to ``height`` pixels. Why cached: drawing the 109 px bitmap and
    resampling it costs a few milliseconds, and a name of 32 emoji is drawn again for
    every width ``fit_text`` tries (seconds for a board of such names, under DRAW_LOCK)."""
    font = _font(EMOJI_PATH, height)
    left, top, right, bottom = (int(edge) for edge in font.getbbox(char))
    glyph = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(glyph).text((-left, -top), char, font=font, embedded_color=True)
    scale = height / max(glyph.height, 1)
    return glyph.resize((max(1, round(glyph.width * scale)), height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4096)
def text_sprite(text: str, size: int, color: Color) -> Image.Image:
    """``text`` drawn once on a transparent, tightly cropped canvas, each run in the first
    font of the fallback chain that has its characters, on the UI font's baseline.

    Composing an image pastes these instead of re-rasterising the same labels every
    time, which keeps a warm render in the low milliseconds.
    """
    with DRAW_LOCK:
        font = ui_font(size)
        ascent, descent = font.getmetrics()
        runs = visual_runs(text)
        if not runs or (len(runs) == 1 and runs[0][0] == UI_FONT_PATH and not runs[0][2]):
            text = runs[0][1] if runs else ""
            left, _top, right, _bottom = font.getbbox(text)
            width = max(1, int(right - min(0, left)) + 2)
            canvas = Image.new("RGBA", (width, ascent + descent), (*color[:3], 0))
            ImageDraw.Draw(canvas).text(
                (-min(0, left) + 1, 0), text, font=font, fill=color, language=_language(font, text)
            )
            return canvas
        # The sprite grows downwards (the baseline stays where the UI font puts it) when
        # a shaped run's ink goes below the UI font's descent.
        below = max(
            (_ink_below(path, run, rtl, size) for path, run, rtl in runs if path in SHAPED_FONTS),
            default=0,
        )
        height = ascent + max(descent, below)
        pieces = [
            _run_sprite(path, run, rtl, size, color, height, ascent) for path, run, rtl in runs
        ]
        canvas = Image.new(
            "RGBA", (sum(piece.width for piece in pieces) + 2, height), (*color[:3], 0)
        )
        x = 1
        for piece in pieces:
            canvas.alpha_composite(piece, (x, 0))
            x += piece.width
        return canvas


def text_width(text: str, size: int) -> int:
    return text_sprite(text, size, (0, 0, 0)).width


def _shortened(text: str, end: int) -> str:
    """``text[:end]`` with an ellipsis, and a PDI for each isolate the cut leaves open: the
    ellipsis stays inside an isolated name (after a right-to-left name's last letter, so on
    its left), and the label's text after the name is not drawn inside the isolate."""
    prefix = text[:end]
    depth = 0
    for char in prefix:
        if char in (FSI, LRI, RLI):
            depth += 1
        elif char == PDI and depth:
            depth -= 1
    return prefix + "…" + PDI * depth


def fit_text(text: str, size: int, max_width: int) -> str:
    """Shorten ``text`` with an ellipsis until it fits ``max_width`` pixels: the longest
    prefix that fits, found by bisection (a width is measured by drawing, so trying one
    character fewer at a time drew a 32-character name up to 32 times). The text is cut
    only between grapheme clusters: a cut inside one would leave a letter without its
    marks, half a Devanagari conjunct, or a dangling joiner."""
    if text_width(text, size) <= max_width:
        return text
    ends: list[int] = []
    for cluster in graphemes(text):
        ends.append((ends[-1] if ends else 0) + len(cluster))
    if not ends:
        return text
    fits, too_long = 1, len(ends)  # a one-cluster prefix is the shortest we give
    while too_long - fits > 1:
        middle = (fits + too_long) // 2
        if text_width(_shortened(text, ends[middle - 1]), size) <= max_width:
            fits = middle
        else:
            too_long = middle
    return _shortened(text, ends[fits - 1])
