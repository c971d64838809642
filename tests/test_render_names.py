"""Player names in any script draw as themselves, never as "?" or an empty box.

Each test renders a leaderboard of names in every script the issue lists, then the same
board with one character replaced by "?": a character the fonts lack is drawn as "?" by
``render.text``, so the two images would be equal and the test fails for exactly the
script (and character) that is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont, features

from render import text
from render.bidi import graphemes, levels, visual_order
from render.dates import iso_week_dates, week_dates
from render.images import compose_leaderboard
from render.samples import WORLD_NAMES_LEADERBOARD, sample_win_result
from tests.drawn_text import assert_apart, record_texts

SCRIPTS = {
    "chinese_beyond_the_ui_subset": "刘德华周杰伦",
    "latin_accents": "éü",
    "hangul": "김민준",
    "cyrillic": "ИванПетров",
    "greek": "Γιώργος",
    "kana": "さくら",
    "emoji": "🍀",
    "arabic": "محمدعلي",
    "hebrew": "נועהלוי",
    "thai": "สมชายใจดี",
    "devanagari": "प्रियाशर्मा",
}
# The sample board's names are in render/samples.py, whose characters the build script
# also puts in the UI subset; these names live only here, so they can only be drawn by
# the fallback fonts (checked below), whatever the UI subset happens to hold.
FALLBACK_ROWS = (
    (1, "劉德華 週傑倫 饕餮", 10, 2, 1),
    (2, "Şükrü Øygård Łukasz", 5, 2, 1),
    (3, "박서연 Дмитрий Ёжиков", 0, 2, 1),
    (4, "Αθηνά Ωmega", -5, 2, 1),
    (5, "ひまわり カタカナ", -5, 2, 1),
    (6, "Tiger🐯 🀄 🎉", -10, 2, 1),
    (7, "فاطمة الزهراء", -12, 2, 1),
    (8, "יוֹסֵף לוי", -15, 2, 1),
    (9, "ปิยะพงษ์ ศรีสุข", -20, 2, 1),
    (10, "प्रियंका चौधरी", -25, 2, 1),
)
FALLBACK_SCRIPTS = {
    "traditional": "劉週傑饕餮",
    "latin_extended": "ŞüØåŁ",
    "hangul": "박서연",
    "cyrillic": "ДмитрийЁж",
    "greek": "ΑθηνάΩ",
    "kana": "ひまわカタナ",
    "emoji": "🐯🀄🎉",
    "arabic": "فاطمةلزهرء",
    "hebrew": "יוֹסֵףלו",  # with the vowel points (combining marks)
    "thai": "ปิยะพงษ์ศรีสุข",  # with vowel and tone marks
    "devanagari": "प्रियंकाचौधरी",  # with the virama of the conjunct प्र
}


def _board(rows: tuple[tuple[int, str, int, int, int], ...]) -> bytes:
    return compose_leaderboard(rows, subtitle="").tobytes()


def _replace(rows: tuple, char: str) -> tuple:
    return tuple((rank, name.replace(char, "?"), *rest) for rank, name, *rest in rows)


def _check_each_character(rows: tuple, chars: str) -> None:
    original = _board(rows)
    for char in dict.fromkeys(chars):
        assert any(char in name for _rank, name, *_ in rows), char
        assert _board(_replace(rows, char)) != original, f"{char!r} draws as '?'"


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_each_character_of_the_sample_board_draws_as_itself(script: str) -> None:
    _check_each_character(WORLD_NAMES_LEADERBOARD, SCRIPTS[script])


@pytest.mark.parametrize("script", sorted(FALLBACK_SCRIPTS))
def test_each_script_draws_through_the_fallback_fonts(script: str) -> None:
    ui = text.font_codepoints(text.UI_FONT_PATH)
    assert any(ord(char) not in ui for char in FALLBACK_SCRIPTS[script])
    _check_each_character(FALLBACK_ROWS, FALLBACK_SCRIPTS[script])


def test_the_sample_board_names_every_script() -> None:
    names = "".join(name for _rank, name, *_ in WORLD_NAMES_LEADERBOARD)
    for script, chars in SCRIPTS.items():
        assert set(chars) <= set(names), script


def test_fallback_chain_picks_a_font_per_run_and_question_marks_only_the_unknown() -> None:
    runs = text.text_runs("Lucky🍀Cat 刘德华 Γ\ue000")
    paths = [path for path, _run in runs]
    assert text.EMOJI_PATH in paths
    assert runs[0] == (text.UI_FONT_PATH, "Lucky")
    assert runs[1] == (text.EMOJI_PATH, "🍀")
    assert text.safe_text("a\ue000b") == "a?b"
    # A decomposed é (e + combining acute) is composed first and finds its glyph.
    assert text.safe_text("Jose\u0301") == "José"
    # Variation selectors and joiners are dropped, not drawn as "?".
    assert text.safe_text("❤\ufe0f") == "❤"


def test_plain_labels_do_not_load_the_fallback_fonts() -> None:
    text.font_codepoints.cache_clear()
    text.text_sprite.cache_clear()
    text.text_sprite("排行榜 Alice 123", 20, (0, 0, 0))
    assert text.font_codepoints.cache_info().currsize == 1  # the UI font's list only


def test_emoji_keep_their_colour() -> None:
    sprite = text.text_sprite("🍀", 30, (255, 255, 255))
    colours = {pixel[:3] for _count, pixel in sprite.getcolors(1 << 16) or () if pixel[3] > 200}
    assert any(green > red + 40 for red, green, _blue in colours)  # a green clover


@pytest.mark.parametrize(
    ("year", "week", "zh", "en"),
    [
        (2026, 48, "11月23日–29日", "Nov 23–29"),
        (2026, 49, "11月30日–12月6日", "Nov 30 – Dec 6"),
        (2026, 53, "2026年12月28日–2027年1月3日", "Dec 28, 2026 – Jan 3, 2027"),
    ],
)
def test_iso_week_dates(year: int, week: int, zh: str, en: str) -> None:
    assert iso_week_dates(year, week, "zh") == zh
    assert iso_week_dates(year, week, "zh-TW") == zh
    assert iso_week_dates(year, week, "en") == en


def test_week_dates_take_the_first_day() -> None:
    from datetime import date

    assert week_dates(date(2026, 11, 23), "en") == "Nov 23–29"
    assert text.safe_text(iso_week_dates(2026, 53, "zh")) == iso_week_dates(2026, 53, "zh")


@pytest.mark.parametrize(
    "name", ["Bob the Builder", "W" * 32, "老" * 32, "😀😃😄😁" * 8, "Ａ😀b老" * 8]
)
@pytest.mark.parametrize("room", [30, 80, 200, 450])
def test_fit_text_keeps_the_longest_prefix_that_fits(name: str, room: int) -> None:
    """The bisection finds what shortening one character at a time found: the longest
    prefix that fits with its ellipsis (one character at least)."""
    from render.text import fit_text, text_width

    fitted = fit_text(name, 22, room)
    if text_width(name, 22) <= room:
        assert fitted == name
        return
    prefix = fitted.removesuffix("…")
    assert fitted.endswith("…") and name.startswith(prefix) and prefix
    assert len(prefix) == 1 or text_width(fitted, 22) <= room
    longer = name[: len(prefix) + 1] + "…"
    assert text_width(longer, 22) > room


@pytest.mark.parametrize("blank", ["", "   ", "\u200b\u200b", "\u3164", "\u3164 \u3164", "\u2060"])
def test_a_name_that_would_draw_nothing_is_the_seat_number(blank: str) -> None:
    """A name of spaces or invisible characters (Discord users make "empty" names with
    Hangul fillers) would leave a header of a bare wind badge: it reads 座位 N / Seat N."""
    from render.layout import seat_name

    assert seat_name([blank, "Bob"], 0, "zh") == text.label("seat", "zh", n=1)
    assert seat_name([blank, "Bob"], 0, "en") == text.label("seat", "en", n=1)
    assert seat_name([blank, "Bob"], 1, "en") == "Bob"
    assert seat_name(["\u3164Bob"], 0, "en") == "\u3164Bob"  # a visible letter: kept


def _clear_font_caches() -> None:
    for cached in (text.ui_font, text._font, text.text_sprite, text._warn_basic_layout):
        cached.cache_clear()


@pytest.fixture
def basic_layout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every font opened with Pillow's basic layout, as where libfribidi is missing."""
    truetype = ImageFont.truetype

    def basic(*args: Any, **kwargs: Any) -> ImageFont.FreeTypeFont:
        return truetype(*args, **{**kwargs, "layout_engine": ImageFont.Layout.BASIC})

    monkeypatch.setattr(ImageFont, "truetype", basic)
    _clear_font_caches()
    yield
    _clear_font_caches()  # the next test gets fonts with the real layout again


needs_raqm = pytest.mark.skipif(not features.check("raqm"), reason="shaping needs libraqm")


def test_a_shaped_script_stays_one_run_across_its_spaces_marks_and_joiners() -> None:
    """Arabic letters join and Thai and Devanagari marks stack only inside one run: a
    space, a mark or a joiner going to another font would cut the word's shaping."""
    assert text.text_runs("محمد علي") == [(text.NAMES_ARABIC_PATH, "محمد علي")]
    assert text.text_runs("สมชาย ใจดี") == [(text.NAMES_THAI_PATH, "สมชาย ใจดี")]
    assert text.text_runs("क्\u200dष राम") == [(text.NAMES_DEVANAGARI_PATH, "क्\u200dष राम")]
    assert text.text_runs("عبد\u200cالله") == [(text.NAMES_ARABIC_PATH, "عبد\u200cالله")]
    # Elsewhere joiners are still dropped, and a space after a Latin word is the UI font's.
    assert text.safe_text("a\u200db דוד\u200d") == "ab דוד"
    assert text.text_runs("Ali محمد")[0] == (text.UI_FONT_PATH, "Ali ")


def test_right_to_left_runs_are_placed_right_to_left() -> None:
    runs = text.visual_runs("Ali محمد 打出 דוד כהן")
    assert [(path.name, run, rtl) for path, run, rtl in runs] == [
        (text.UI_FONT_PATH.name, "Ali ", False),
        (text.NAMES_ARABIC_PATH.name, "محمد", True),
        (text.NAMES_ARABIC_PATH.name, " ", False),
        (text.UI_FONT_PATH.name, "打出 ", False),
        (text.NAMES_HEBREW_PATH.name, "דוד כהן", True),
    ]
    # Two right-to-left words in different fonts: the first one read is drawn rightmost.
    runs = text.visual_runs("דוד محمد")
    assert [run for _path, run, _rtl in runs] == ["محمد", "דוד "]


def _gaps(sprite: Image.Image) -> int:
    """How many stretches of empty columns lie between a sprite's inked columns."""
    alpha = sprite.getchannel("A")
    inked = [
        alpha.crop((x, 0, x + 1, sprite.height)).getbbox() is not None for x in range(sprite.width)
    ]
    first, last = inked.index(True), len(inked) - inked[::-1].index(True)
    return sum(1 for x in range(first + 1, last) if not inked[x] and inked[x - 1])


@needs_raqm
def test_arabic_letters_are_joined() -> None:
    """Under libraqm the letters of "محمد" (no dots) are joined into one stroke: no empty
    column between them, where the same letters kept apart by ZWNJ (isolated forms, or
    letters drawn one run each) leave a gap between each pair."""
    size, ink = 40, (0, 0, 0)
    assert "?" not in text.safe_text("محمد")
    assert _gaps(text.text_sprite("محمد", size, ink)) == 0
    assert _gaps(text.text_sprite("\u200c".join("محمد"), size, ink)) >= 3


@needs_raqm
def test_devanagari_conjuncts_are_formed() -> None:
    """क्ष drawn shaped is one conjunct glyph, narrower than क, virama and ष side by side."""
    ink = (0, 0, 0)
    shaped = text.text_sprite("क्ष", 40, ink).width
    assert shaped < text.text_sprite("क्\u200cष", 40, ink).width  # ZWNJ: the half-form-free spelling


def test_dots_below_the_baseline_are_not_clipped() -> None:
    """Arabic dots under ي reach below the UI font's descent: the sprite grows down."""
    ascent, descent = text.ui_font(30).getmetrics()
    sprite = text.text_sprite("علي يي", 30, (0, 0, 0))
    bbox = sprite.getbbox()
    assert bbox is not None and bbox[3] > ascent + descent  # ink where the line box ended
    # All of it: as deep below the baseline as the font draws it on a roomy canvas.
    font = text._font(text.NAMES_ARABIC_PATH, 30)
    roomy = Image.new("L", (300, 200), 0)
    ImageDraw.Draw(roomy).text((10, 100), "علي يي", font=font, fill=255, anchor="ls")
    roomy_box = roomy.getbbox()
    assert roomy_box is not None and bbox[3] >= ascent + roomy_box[3] - 100
    assert text.text_sprite("Alice 刘", 30, (0, 0, 0)).height == ascent + descent


@pytest.mark.parametrize(
    "name",
    ["क्षत्रिय" * 4, "ปิยะพงษ์ ศรีสุข" * 3, "Jose\u0301 " * 8, "יוֹסֵף " * 6, "👍🏽🇯🇵" * 8],
)
@pytest.mark.parametrize("room", [40, 60, 90, 130, 170])
def test_fit_text_cuts_between_grapheme_clusters(name: str, room: int) -> None:
    fitted = text.fit_text(name, 22, room)
    prefix = fitted.removesuffix("…")
    clusters = graphemes(name)
    assert graphemes(prefix) == clusters[: len(graphemes(prefix))]


def test_fit_text_keeps_an_isolated_name_closed() -> None:
    """The ellipsis stays inside the name's isolate and the isolate is closed, so the
    label's text after the name ("…: +5") is not drawn inside the right-to-left name."""
    fitted = text.fit_text("\u2068محمد عبد الرحمن الكبير\u2069", 22, 90)
    assert fitted.startswith("\u2068محمد") and fitted.endswith("…\u2069")
    runs = text.visual_runs(fitted + ": +5")
    assert runs[-1][1] == ": +5" and not runs[-1][2]


@pytest.mark.parametrize("script", sorted(FALLBACK_SCRIPTS))
def test_without_libraqm_every_script_still_draws(basic_layout: None, script: str) -> None:
    """Without libraqm nothing is shaped, and the basic layout refuses ``direction`` and
    ``language``: names still draw (Arabic unjoined, right-to-left runs reversed by the
    renderer), each character as itself."""
    _check_each_character(FALLBACK_ROWS, FALLBACK_SCRIPTS[script])
    for line in ("E \u2068محمد علي\u2069: +5", "क्\u200dष ﷺ", "from \u2068שָׁלוֹם (א)\u2069"):
        sprite = text.text_sprite(line, 20, (0, 0, 0, 255))
        assert sprite.getbbox() is not None


def test_without_libraqm_right_to_left_runs_are_reversed_by_cluster() -> None:
    assert text._basic_text("שָׁלוֹם (א)", rtl=True) == "(א) םוֹלשָׁ"
    assert text._basic_text("عبد\u200dالله", rtl=True) == "هللادبع"
    assert text._basic_text("क्\u200dष", rtl=False) == "क्ष"


def test_without_libraqm_traditional_text_still_draws(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Pillow lays text out with libraqm only where the system has libfribidi, which a
    minimal server may lack: there every font uses the basic layout, which raised a
    KeyError for the ``language`` a Traditional run is drawn with, so no zh-TW image
    (nor any table: the palette is drawn with 發) could be made."""
    truetype = ImageFont.truetype

    def basic(*args: Any, **kwargs: Any) -> ImageFont.FreeTypeFont:
        return truetype(*args, **{**kwargs, "layout_engine": ImageFont.Layout.BASIC})

    monkeypatch.setattr(ImageFont, "truetype", basic)
    _clear_font_caches()
    try:
        for line in ("莊家 發財", "劉德華 · 張學友", "台頭胡 Alice 🍀"):
            sprite = text.text_sprite(line, 20, (0, 0, 0, 255))
            assert sprite.getbbox() is not None and sprite.width > 40
        assert "libfribidi" in caplog.text
    finally:
        _clear_font_caches()  # the next test gets fonts with the real layout again


def _visual_positions(line: str) -> list[int]:
    """Where each character of ``line`` is drawn, counted from the left."""
    order = visual_order(levels(line))
    positions = [0] * len(line)
    for place, index in enumerate(order):
        positions[index] = place
    return positions


def test_a_right_to_left_name_does_not_reorder_the_label_around_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A word beside an Arabic or Hebrew name ("محمد: -8", "to محمد") could join the
    name's direction and be drawn on its other side; composed labels isolate the name,
    so a seat's payment reads "to"/"from" and the seat's wind before the name, and the
    seat's own score and net (drawn apart now) stay where they are put."""
    from render import bidi
    from render import result as result_module

    drawn = record_texts(monkeypatch, result_module)
    ended, result, win_tile = sample_win_result("jiaxing")
    discard = replace(result, win_by="discard", from_seat=2, totals=[120, -8, 5, -117])
    names = ["محمد علي", "דוד כהן", "فاطمة ٢", "Bob"]
    result_module.render_result(ended, discard, names=names, locale="en", win_tile=win_tile)
    payments = [
        drawn_text.text for drawn_text in drawn if drawn_text.text.startswith(("to ", "from "))
    ]
    scores = [
        drawn_text.text for drawn_text in drawn if re.fullmatch(r"score -?\d+", drawn_text.text)
    ]
    assert len(scores) == 4 and payments
    assert_apart(drawn)
    right_to_left = [line for line in payments if any(bidi.isolate(n) in line for n in names[:3])]
    assert right_to_left  # the folded "from S W N" names no one
    for line in right_to_left:
        mark = line.index(" ", line.index(" ") + 1)  # after "to E" / "from S"
        positions = _visual_positions(line)
        assert all(positions[i] < positions[mark] for i in range(mark)), line
        assert all(positions[i] > positions[mark] for i in range(mark + 1, len(line))), line
