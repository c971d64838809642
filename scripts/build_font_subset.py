#!/usr/bin/env python3
"""Rebuild the bundled font subsets in ``render/fonts/`` from Debian's Noto fonts.

The renderer must never draw a glyph the bundled font lacks (it would silently come out as
a box), and the full CJK fonts are tens of megabytes. So we keep small subsets:

- a Sans Bold subset for every label, name and number the images draw (the UI font, loaded
  at start-up, kept small so the first image stays fast),
- a Serif Bold subset for the big characters on tile faces (萬, 東, 中, 發, numerals),
  which look closer to real engraved tiles in a serif,

and, for player names (which can be written in any script), fallback fonts the renderer
loads only when a name needs them (``render.text`` splits text into runs by the first font
in the chain UI → names CJK → names Latin → Arabic → Hebrew → Thai → Devanagari → emoji
that has each character):

- names CJK: all of GB2312, Big5's 5,401 common Traditional characters,
  every Hangul syllable, kana and CJK punctuation, from Noto Sans CJK SC Bold;
- names Latin: Latin with accents (Latin-1, Extended-A/B, Additional), Greek and
  Cyrillic, from Noto Sans Bold (``fonts-noto-core``);
- names Arabic, Hebrew, Thai and Devanagari: each script's Unicode block(s) from its Noto
  Sans Bold (``fonts-noto-core``), with every OpenType layout feature kept: these scripts
  are shaped (Arabic joining, Devanagari conjuncts, Thai mark stacking), and the short
  feature list of the CJK and Latin subsets drops the lookups shaping needs;
- emoji: every single-code-point emoji of Noto Color Emoji (``fonts-noto-color-emoji``),
  a bitmap (CBDT) font drawn at its native size and scaled; sequences (ZWJ families,
  flags) are not kept and draw as their parts.

Characters are gathered from the source tree (every CJK character in ``engine/``,
``render/`` and ``bot/`` ``.py`` files, so new score-item names are picked up by simply
re-running this script) plus the fixed lists below (ASCII, punctuation, symbols and a
margin of common characters for player names).

The SIL Open Font License lets us modify and redistribute the fonts, but a Modified
Version may not use a Reserved Font Name: the upstream notice reserves "Source", and
"Noto" is a Google trademark, so the subsets are renamed "MahjongBot Sans/Serif CJK
Subset"; the fallbacks likewise. Run with the Debian packages installed::

    apt-get install fonts-noto-cjk fonts-noto-core fonts-noto-color-emoji

    python3 scripts/build_font_subset.py
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = ROOT / "render" / "fonts"
SOURCE_DIRS = ("engine", "render", "bot")
NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
NOTO_TTF_DIR = Path("/usr/share/fonts/truetype/noto")
SIMPLIFIED_CHINESE_INDEX = 2  # order in the Debian .ttc files: JP, KR, SC, TC, HK

SANS_SOURCE = NOTO_DIR / "NotoSansCJK-Bold.ttc"
SERIF_SOURCE = NOTO_DIR / "NotoSerifCJK-Bold.ttc"
SANS_FILE = "MahjongBotSansCJKSubset-Bold.otf"
SERIF_FILE = "MahjongBotSerifCJKSubset-Bold.otf"
SANS_FAMILY = "MahjongBot Sans CJK Subset"
SERIF_FAMILY = "MahjongBot Serif CJK Subset"

NAMES_CJK_FILE = "MahjongBotNamesCJK-Bold.otf"
NAMES_CJK_FAMILY = "MahjongBot Names CJK"
LATIN_SOURCE = NOTO_TTF_DIR / "NotoSans-Bold.ttf"
NAMES_LATIN_FILE = "MahjongBotNamesLatin-Bold.ttf"
NAMES_LATIN_FAMILY = "MahjongBot Names Latin"
EMOJI_SOURCE = NOTO_TTF_DIR / "NotoColorEmoji.ttf"
EMOJI_FILE = "MahjongBotEmoji.ttf"
EMOJI_FAMILY = "MahjongBot Emoji"

# The complex-script name fonts: (source, file, family, Unicode ranges). Each keeps ALL
# layout features (see ``build_subset``). Space, no-break space, ZWNJ/ZWJ and the dotted
# circle go in every one: spaces and joiners stay inside a shaped run (so "محمد علي" is
# shaped as one run), and HarfBuzz draws a stray mark on a dotted circle.
SHAPED_COMMON = ((0x0020, 0x0020), (0x00A0, 0x00A0), (0x200C, 0x200D), (0x25CC, 0x25CC))
SHAPED_FONTS: tuple[tuple[Path, str, str, tuple[tuple[int, int], ...]], ...] = (
    (
        NOTO_TTF_DIR / "NotoSansArabic-Bold.ttf",
        "MahjongBotNamesArabic-Bold.ttf",
        "MahjongBot Names Arabic",
        ((0x0600, 0x06FF), (0x0750, 0x077F)),  # Arabic, Arabic Supplement
    ),
    (
        NOTO_TTF_DIR / "NotoSansHebrew-Bold.ttf",
        "MahjongBotNamesHebrew-Bold.ttf",
        "MahjongBot Names Hebrew",
        ((0x0590, 0x05FF), (0xFB1D, 0xFB4F)),  # Hebrew, its presentation forms
    ),
    (
        NOTO_TTF_DIR / "NotoSansThai-Bold.ttf",
        "MahjongBotNamesThai-Bold.ttf",
        "MahjongBot Names Thai",
        ((0x0E00, 0x0E7F),),
    ),
    (
        NOTO_TTF_DIR / "NotoSansDevanagari-Bold.ttf",
        "MahjongBotNamesDevanagari-Bold.ttf",
        "MahjongBot Names Devanagari",
        ((0x0900, 0x097F), (0xA8E0, 0xA8FF)),  # Devanagari, Devanagari Extended
    ),
)
ALL_LAYOUT_FEATURES = ["*"]
# Enough for CJK and Latin (kerning, ligatures, the Traditional forms of ``locl``).
SHORT_LAYOUT_FEATURES = ["kern", "liga", "locl", "palt", "vert"]


def _double_byte(codec: str, leads: range, trails: list[int]) -> set[str]:
    """Every character a double-byte legacy encoding can write (GB2312, Big5, KS X 1001)."""
    chars: set[str] = set()
    for lead in leads:
        for trail in trails:
            try:
                chars.add(bytes((lead, trail)).decode(codec))
            except UnicodeDecodeError:
                continue
    return chars


def _ranges(*spans: tuple[int, int]) -> set[str]:
    return {chr(code) for start, end in spans for code in range(start, end + 1)}


def names_cjk_chars() -> set[str]:
    """All of GB2312, Big5's common characters (its level 1: lead bytes A1–C6; level 2's
    7,652 rare characters would add about 2.5 MB), every Hangul syllable, kana and CJK
    punctuation."""
    gb2312 = _double_byte("gb2312", range(0xA1, 0xF8), list(range(0xA1, 0xFF)))
    big5 = _double_byte("big5", range(0xA1, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    return (
        gb2312
        | big5
        | _ranges(
            (0x3000, 0x303F),  # CJK punctuation
            (0x3040, 0x30FF),  # hiragana, katakana
            (0x31F0, 0x31FF),  # katakana phonetic extensions
            (0x3130, 0x318F),  # Hangul compatibility jamo
            (0xAC00, 0xD7A3),  # Hangul syllables
            (0xFF01, 0xFFEF),  # full- and half-width forms
        )
    )


def names_latin_chars() -> set[str]:
    """Latin with accents, IPA, Greek and Cyrillic, and the punctuation names use."""
    return _ranges(
        (0x0020, 0x007E),
        (0x00A0, 0x024F),  # Latin-1, Extended-A and -B
        (0x0250, 0x02FF),  # IPA, spacing modifiers
        (0x0300, 0x036F),  # combining accents
        (0x0370, 0x03FF),  # Greek
        (0x0400, 0x052F),  # Cyrillic and its supplement
        (0x1E00, 0x1FFF),  # Latin Extended Additional, Greek Extended
        (0x2000, 0x206F),  # general punctuation
        (0x20A0, 0x20CF),  # currency
    )


def emoji_chars(source: Path) -> set[str]:
    """Every single code point the colour emoji font maps, beyond ASCII (it also maps
    digits, ``#`` and ``*`` for keycaps, which the text fonts draw)."""
    with TTFont(str(source), lazy=True) as font:
        return {chr(code) for code in font.getBestCmap() if code > 0x7F}


# The tile faces: numerals over 萬, winds and dragons (traditional forms, as engraved).
TILE_FACE_CHARS = "一二三四五六七八九萬東南西北中發白"

ASCII = "".join(chr(code) for code in range(0x20, 0x7F))
PUNCTUATION_AND_SYMBOLS = (
    "，。、：；！？（）【】《》「」『』“”‘’…—–·・～￥％＋－×÷＝＜＞／"
    "→←↑↓↔⇄▲▼△▽▶◀●○◎■□◆◇★☆✓♦♥♠♣"
    "①②③④⑤⑥⑦⑧⑨⑩±°′″‰№"
    "０１２３４５６７８９"
)
# A margin for player names and future labels: frequent characters and common surnames.
COMMON_CHARS = (
    "的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生"
    "自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与"
    "好看学进种将还分此心前面又定见只主没公从已向动工长手知理眼志点话开外业高回正明全"
    "新最实现问力使相两表水第样月本情总部特很通走加期重美先信百名提文意少万记口入利做"
    "门位东南西北王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖"
    "田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦"
    "邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤小老大阿明华红英玲芳"
    "伟强军磊洋勇艳杰娟涛超秀霞平刚桂丽敏静燕飞龙凤云海波鹏宇浩天佳欣怡梦雪晨阳月星"
    "风雨山川春夏秋冬花草木火土金水心爱乐喜福寿安康宝贝猫狗熊虎鸡鸭鱼鸟猪牛羊兔蛇"
    "神仙佛魔鬼王帝皇后君侠客哥姐弟妹爸妈爷奶叔姨友朋同伴队员机器电脑游戏玩局赛赢输"
    "赌钱币分数胜负庄闲碰吃杠胡听摸打出牌张番台底翻倍包赔付收支总计排行榜周本季年全"
    "部历史记录名次玩家昵称积分净胜场局数胜率平均最高低今昨明早晚中午夜点刻秒"
)


def gather_source_chars() -> set[str]:
    """Every non-ASCII character in the project's Python sources (labels, score names)."""
    chars: set[str] = set()
    for directory in SOURCE_DIRS:
        for path in sorted((ROOT / directory).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            chars.update(ch for ch in text if ord(ch) > 0x7F)
    return chars


def _load_member(path: Path) -> TTFont:
    if path.suffix == ".ttc":
        return TTCollection(str(path)).fonts[SIMPLIFIED_CHINESE_INDEX]
    return TTFont(str(path))


def _rename(font: TTFont, family: str, style: str = "Bold") -> None:
    """Replace every primary name with ours, as OFL §3 requires for a Modified Version."""
    postscript = family.replace(" ", "") + "-" + style
    full = f"{family} {style}"
    name_table = font["name"]
    replacements = {
        1: family,
        2: style,
        3: f"1.000;MahjongBot;{postscript}",
        4: full,
        6: postscript,
        16: family,
        17: style,
    }
    original_description = f"Subset of {name_table.getDebugName(4)} made by mahjong-bot."
    name_table.names = [
        record
        for record in name_table.names
        if record.nameID not in replacements and record.nameID not in (7, 10, 18, 21, 22)
    ]
    for name_id, value in replacements.items():
        name_table.setName(value, name_id, 3, 1, 0x409)
        name_table.setName(value, name_id, 1, 0, 0)
    name_table.setName(original_description, 10, 3, 1, 0x409)
    if "CFF " in font:
        cff = font["CFF "].cff
        top = cff.topDictIndex[0]
        cff.fontNames = [postscript]
        top.FullName = full
        top.FamilyName = family
        if hasattr(top, "Notice"):
            del top.Notice
        top.rawDict["FullName"] = full
        top.rawDict["FamilyName"] = family


def build_subset(
    source: Path,
    chars: set[str],
    family: str,
    out_path: Path,
    *,
    style: str = "Bold",
    layout_features: list[str] = SHORT_LAYOUT_FEATURES,
) -> int:
    font = _load_member(source)
    cmap = font.getBestCmap()
    present = sorted(ch for ch in chars if ord(ch) in cmap)
    missing = sorted(
        ch
        for ch in chars
        if ord(ch) not in cmap and not ch.isspace() and unicodedata.category(ch) != "Cn"
    )
    if missing and len(chars) < 5000:  # the name fonts are ranges, gaps there are expected
        print(f"  not in {source.name} (skipped): {''.join(missing)}", file=sys.stderr)
    options = subset.Options()
    options.layout_features = layout_features
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(ch) for ch in present])
    subsetter.subset(font)
    _rename(font, family, style)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    font.recalcTimestamp = False  # same input, same bytes: re-runs do not churn git
    font.save(str(out_path))
    return len(present)


def charset_path(font_path: Path) -> Path:
    return font_path.with_suffix(".chars.txt")


def write_charset(font_path: Path) -> None:
    """The characters the subset maps, as text beside it: the renderer reads this at run
    time (fontTools is a build-time tool, not a runtime dependency) to draw ``?`` instead
    of a box for characters the font lacks. A test checks it matches the font."""
    with TTFont(str(font_path)) as font:
        codepoints = sorted(font.getBestCmap())
    text = "".join(chr(code) for code in codepoints if code >= 0x20)
    charset_path(font_path).write_text(text + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=FONT_DIR, help="output folder")
    parser.add_argument(
        "--only", nargs="*", default=None, metavar="FILE", help="rebuild just these font files"
    )
    args = parser.parse_args(argv)
    shaped = [source for source, *_rest in SHAPED_FONTS]
    for source in (SANS_SOURCE, SERIF_SOURCE, LATIN_SOURCE, EMOJI_SOURCE, *shaped):
        if not source.exists():
            print(
                f"{source} not found: apt-get install fonts-noto-cjk fonts-noto-core"
                " fonts-noto-color-emoji",
                file=sys.stderr,
            )
            return 1
    ui_chars = set(ASCII) | set(PUNCTUATION_AND_SYMBOLS) | set(COMMON_CHARS)
    ui_chars |= set(TILE_FACE_CHARS) | gather_source_chars()
    ui_chars = {ch for ch in ui_chars if ch.isprintable() or ch == " "}
    face_chars = set(TILE_FACE_CHARS) | set("0123456789 ")
    builds = [
        (SANS_SOURCE, ui_chars, SANS_FAMILY, SANS_FILE, "Bold", SHORT_LAYOUT_FEATURES),
        (SERIF_SOURCE, face_chars, SERIF_FAMILY, SERIF_FILE, "Bold", SHORT_LAYOUT_FEATURES),
        (
            SANS_SOURCE,
            names_cjk_chars(),
            NAMES_CJK_FAMILY,
            NAMES_CJK_FILE,
            "Bold",
            SHORT_LAYOUT_FEATURES,
        ),
        (
            LATIN_SOURCE,
            names_latin_chars(),
            NAMES_LATIN_FAMILY,
            NAMES_LATIN_FILE,
            "Bold",
            SHORT_LAYOUT_FEATURES,
        ),
        (
            EMOJI_SOURCE,
            emoji_chars(EMOJI_SOURCE),
            EMOJI_FAMILY,
            EMOJI_FILE,
            "Regular",
            SHORT_LAYOUT_FEATURES,
        ),
    ]
    for source, file_name, family, spans in SHAPED_FONTS:
        chars = _ranges(*spans, *SHAPED_COMMON)
        builds.append((source, chars, family, file_name, "Bold", ALL_LAYOUT_FEATURES))
    for source, chars, family, file_name, style, features in builds:
        if args.only and file_name not in args.only:
            continue
        out_path = args.out / file_name
        count = build_subset(source, chars, family, out_path, style=style, layout_features=features)
        write_charset(out_path)
        size_kb = out_path.stat().st_size / 1024
        shown = out_path.relative_to(ROOT) if out_path.is_relative_to(ROOT) else out_path
        print(f"{shown}: {count} characters, {size_kb:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
