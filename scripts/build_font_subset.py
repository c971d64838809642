#!/usr/bin/env python3
"""Rebuild the bundled font subsets in ``render/fonts/`` from Debian's ``fonts-noto-cjk``.

The renderer must never draw a glyph the bundled font lacks (it would silently come out as
a box), and the full CJK fonts are tens of megabytes. So we keep two small subsets:

- a Sans Bold subset for every label, name and number the images draw, and
- a Serif Bold subset for the big characters on tile faces (萬, 東, 中, 發, numerals),
  which look closer to real engraved tiles in a serif.

Characters are gathered from the source tree (every CJK character in ``engine/``,
``render/`` and ``bot/`` ``.py`` files, so new score-item names are picked up by simply
re-running this script) plus the fixed lists below (ASCII, punctuation, symbols and a
margin of common characters for player names).

The SIL Open Font License lets us modify and redistribute the fonts, but a Modified
Version may not use a Reserved Font Name: the upstream notice reserves "Source", and
"Noto" is a Google trademark, so the subsets are renamed "MahjongBot Sans/Serif CJK
Subset". Run with ``apt-get install fonts-noto-cjk`` done::

    python3 scripts/build_font_subset.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = ROOT / "render" / "fonts"
SOURCE_DIRS = ("engine", "render", "bot")
NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
SIMPLIFIED_CHINESE_INDEX = 2  # order in the Debian .ttc files: JP, KR, SC, TC, HK

SANS_SOURCE = NOTO_DIR / "NotoSansCJK-Bold.ttc"
SERIF_SOURCE = NOTO_DIR / "NotoSerifCJK-Bold.ttc"
SANS_FILE = "MahjongBotSansCJKSubset-Bold.otf"
SERIF_FILE = "MahjongBotSerifCJKSubset-Bold.otf"
SANS_FAMILY = "MahjongBot Sans CJK Subset"
SERIF_FAMILY = "MahjongBot Serif CJK Subset"

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
    collection = TTCollection(str(path))
    return collection.fonts[SIMPLIFIED_CHINESE_INDEX]


def _rename(font: TTFont, family: str) -> None:
    """Replace every primary name with ours, as OFL §3 requires for a Modified Version."""
    style = "Bold"
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


def build_subset(source: Path, chars: set[str], family: str, out_path: Path) -> int:
    font = _load_member(source)
    cmap = font.getBestCmap()
    present = sorted(ch for ch in chars if ord(ch) in cmap)
    missing = sorted(ch for ch in chars if ord(ch) not in cmap and not ch.isspace())
    if missing:
        print(f"  not in {source.name} (skipped): {''.join(missing)}", file=sys.stderr)
    options = subset.Options()
    options.layout_features = ["kern", "liga", "locl", "palt", "vert"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(ch) for ch in present])
    subsetter.subset(font)
    _rename(font, family)
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
    args = parser.parse_args(argv)
    for source in (SANS_SOURCE, SERIF_SOURCE):
        if not source.exists():
            print(f"{source} not found: apt-get install fonts-noto-cjk", file=sys.stderr)
            return 1
    ui_chars = set(ASCII) | set(PUNCTUATION_AND_SYMBOLS) | set(COMMON_CHARS)
    ui_chars |= set(TILE_FACE_CHARS) | gather_source_chars()
    ui_chars = {ch for ch in ui_chars if ch.isprintable() or ch == " "}
    face_chars = set(TILE_FACE_CHARS) | set("0123456789 ")
    for source, chars, family, file_name in (
        (SANS_SOURCE, ui_chars, SANS_FAMILY, SANS_FILE),
        (SERIF_SOURCE, face_chars, SERIF_FAMILY, SERIF_FILE),
    ):
        out_path = args.out / file_name
        count = build_subset(source, chars, family, out_path)
        write_charset(out_path)
        size_kb = out_path.stat().st_size / 1024
        print(f"{out_path.relative_to(ROOT)}: {count} characters, {size_kb:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
