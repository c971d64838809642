"""The bundled font: renamed per the OFL, small, and holding every glyph the images draw.

A character missing from the subset would silently come out as an empty box, so every
string the renderer can draw is checked against the font's character map: our labels,
the domain words of ``engine.words``, every rule set's names and total formula (from the
registry, so a new rule set is covered as soon as it is registered), the score-item names
of ``engine/scoring`` and of each rule set's ``scoring.py`` and ``names.py`` (collected
from their source, so new items are covered as soon as they are written) and the tile
names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from engine import words
from engine.tiles import name_en, name_zh
from engine.types import HandResult
from engine.variants import RULE_SETS
from render import text, tiles
from render.samples import SAMPLE_NAMES

ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = ROOT / "render" / "fonts"


def _cmap(path: Path) -> set[int]:
    with TTFont(str(path), lazy=True) as font:
        return set(font.getBestCmap())


def _string_literals(path: Path) -> list[str]:
    """Every string constant in a module except docstrings (those are never drawn)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def _missing(strings: list[str], cmap: set[int]) -> dict[str, str]:
    missing: dict[str, str] = {}
    for string in strings:
        absent = "".join(sorted({ch for ch in string if ord(ch) not in cmap and ch != "\n"}))
        if absent:
            missing[string] = absent
    return missing


def _drawable_strings() -> list[str]:
    strings: list[str] = []
    for zh, en, zh_tw in text.LABELS.values():
        strings += [zh, en, zh_tw]
    strings += _word_strings()
    strings += _rule_set_strings()
    strings += [tiles.marker_tag(marker) for marker in tiles.MARKERS if marker is not None]
    strings += [name_zh(kind) for kind in range(34)] + [name_en(kind) for kind in range(34)]
    strings += [text.traditional(name_zh(kind)) for kind in range(34)]
    strings += list(SAMPLE_NAMES)
    strings += [str(n) for n in range(-100, 1000)] + ["+", "-", "%", "×", "→", "←", "…", "▶", "·"]
    for module in sorted((ROOT / "render").glob("*.py")):
        # samples.py: its leaderboard has an emoji on purpose; alt_text.py: text for
        # screen readers beside the image, never drawn; bidi.py: bidi controls and
        # mirrored brackets, never drawn as labels.
        if module.name not in ("samples.py", "alt_text.py", "bidi.py"):
            strings += _string_literals(module)
    return strings


def _word_strings() -> list[str]:
    """Every form of every domain word: Simplified, English, short and Traditional."""
    tables = (
        words.WINDS,
        words.SEAT_WINDS,
        words.PREVAILING_WINDS,
        words.DRAGONS,
        words.UNITS,
        words.WIN_TYPES,
        words.ACTIONS,
    )
    return [
        form
        for table in tables
        for word in table.values()
        for form in (word.zh, word.en, word.short, word.zh_tw)
        if form
    ]


def _rule_set_strings() -> list[str]:
    """Each rule set's names and its total formula, capped and not, in both languages."""
    strings: list[str] = []
    for name, rules in RULE_SETS.items():
        strings += [rules.name_zh, rules.name_en, rules.wild_name_zh, rules.wild_name_en]
        strings += [rules.display_name("zh-TW"), text.traditional(rules.wild_name_zh)]
        for total in (100, 10**6):  # at the limit (where a rule set has one) and below it
            result = HandResult(
                name, True, 0, 4, [0] * 4, tai=3, fan=2, score=12, points=52, total=total
            )
            strings += [rules.format_total(result, "zh"), rules.format_total(result, "en")]
            strings.append(text.traditional(rules.format_total(result, "zh")))
    return strings


def _scoring_strings() -> list[str]:
    """Every non-ASCII string written in engine/scoring and in each rule set's scorer and
    item names (engine/variants/<name>/): item names, reasons, headings."""
    from engine.scoring.names import all_chinese_text

    modules = [*(ROOT / "engine" / "scoring").glob("*.py")]
    modules += (ROOT / "engine" / "variants").glob("*/scoring.py")
    modules += (ROOT / "engine" / "variants").glob("*/names.py")
    strings: list[str] = []
    for module in sorted(modules):
        strings += [s for s in _string_literals(module) if any(ord(ch) > 0x7F for ch in s)]
    strings.append(all_chinese_text())
    return strings


def test_ui_font_covers_every_string_the_images_draw() -> None:
    assert _missing(_drawable_strings(), _cmap(text.UI_FONT_PATH)) == {}


def test_ui_font_covers_every_scoring_name() -> None:
    strings = _scoring_strings()
    strings += [text.traditional(string) for string in strings]  # zh-TW result cards
    if not strings:
        pytest.skip("engine/scoring has no names yet")
    missing = _missing(strings, _cmap(text.UI_FONT_PATH))
    assert missing == {}, "re-run scripts/build_font_subset.py"


def test_face_font_covers_every_tile_face_character() -> None:
    face = tiles.ZH_NUMERALS + tiles.WIND_FACES + "萬發中"
    assert _missing([face], _cmap(text.FACE_FONT_PATH)) == {}


def test_safe_text_reports_what_the_font_lacks() -> None:
    assert text.safe_text("东南西北 Alice") == "东南西北 Alice"
    assert text.safe_text("a\ue000b") == "a?b"  # private use: no bundled font has it
    assert text.safe_text("a🀄b") == "a🀄b"  # the emoji font has the red dragon


def test_zh_tw_strings_are_traditional() -> None:
    # Big5 holds Traditional characters only; a Simplified one (财, 杠, 听) left in a zh-TW
    # string cannot be encoded, so this fails when a label or the conversion table lacks it.
    strings = [zh_tw for _zh, _en, zh_tw in text.LABELS.values()]
    strings += [text.traditional(string) for string in _scoring_strings() + _rule_set_strings()]
    simplified: set[str] = set()
    for string in strings:
        for char in string:
            if ord(char) >= 0x2E80:
                try:
                    char.encode("big5")
                except UnicodeEncodeError:
                    simplified.add(char)
    assert simplified == set()
    assert text.label("dealer", "zh-TW") == "莊" and text.label("dealer", "zh-CN") == "庄"


ALL_FONTS = [*text.FALLBACK_CHAIN, text.FACE_FONT_PATH]
# Size limits per font (bytes): the UI font is read at start-up, the rest only for names.
SIZE_LIMITS = {
    text.UI_FONT_PATH: 400 * 1024,
    text.FACE_FONT_PATH: 400 * 1024,
    text.NAMES_CJK_PATH: 6 * 1024 * 1024,
    text.NAMES_LATIN_PATH: 400 * 1024,
    text.NAMES_ARABIC_PATH: 200 * 1024,
    text.NAMES_HEBREW_PATH: 50 * 1024,
    text.NAMES_THAI_PATH: 50 * 1024,
    text.NAMES_DEVANAGARI_PATH: 200 * 1024,
    text.EMOJI_PATH: 3.5 * 1024 * 1024,
}


def test_bundled_fonts_stay_under_twelve_megabytes() -> None:
    total = sum(path.stat().st_size for path in FONT_DIR.iterdir())
    assert total < 12 * 1024 * 1024


@pytest.mark.parametrize("path", ALL_FONTS, ids=lambda path: path.name)
def test_fonts_are_small_renamed_subsets(path: Path) -> None:
    assert path.stat().st_size < SIZE_LIMITS[path]
    with TTFont(str(path)) as font:
        names = {record.nameID: record.toUnicode() for record in font["name"].names}
        postscript = font["CFF "].cff.fontNames[0] if "CFF " in font else names[6]
    # OFL §3: a Modified Version may not use the Reserved Font Name ("Source"), and
    # "Noto" is a trademark; the primary names must be ours.
    for name_id in (1, 4, 6, 16):
        if name_id in names:
            assert "MahjongBot" in names[name_id]
            assert "Noto" not in names[name_id] and "Source" not in names[name_id]
    assert "Noto" not in postscript and "Source" not in postscript
    assert "Open Font License" in names[13]


def test_licence_and_readme_ship_with_the_fonts() -> None:
    licence = (FONT_DIR / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Reserved Font Name" in licence
    readme = (FONT_DIR / "README.md").read_text(encoding="utf-8")
    assert "MahjongBot Sans CJK Subset" in readme and "build_font_subset.py" in readme
    for path in ALL_FONTS:
        assert path.name in readme  # each bundled font is described


@pytest.mark.parametrize("path", ALL_FONTS, ids=lambda path: path.name)
def test_charset_beside_each_font_matches_its_character_map(path: Path) -> None:
    # The renderer reads the .chars.txt list at run time (no fontTools needed); a stale
    # list would let a missing glyph through as a box.
    listed = text.font_codepoints(path)
    assert listed == {code for code in _cmap(path) if code >= 0x20}


def test_traditional_result_words() -> None:
    # 腊 is in Big5 too (a different word), so the Big5 check above cannot see it.
    assert text.chinese("腊子", "zh-TW") == "臘子"
    assert text.chinese("腊子", "zh-CN") == "腊子"
    assert text.wild_label(RULE_SETS["taizhou"], "zh-TW") == "財神"


def test_traditional_characters_use_traditional_glyph_forms() -> None:
    from PIL import Image, ImageDraw

    assert text.han_language("莊家") == "zh-Hant"
    assert text.han_language("庄家 Alice") is None and text.han_language("김민준") is None
    # The Simplified font draws 莊 with mainland forms unless told the text is zh-Hant.
    font = text.ui_font(40)
    plain = Image.new("RGBA", (60, 70), (0, 0, 0, 0))
    ImageDraw.Draw(plain).text((1, 0), "莊", font=font, fill=(0, 0, 0))
    assert (
        text.text_sprite("莊", 40, (0, 0, 0)).tobytes()
        != plain.crop((0, 0, *text.text_sprite("莊", 40, (0, 0, 0)).size)).tobytes()
    )
