"""Player names in any script draw as themselves, never as "?" or an empty box.

Each test renders a leaderboard of names in every script the issue lists, then the same
board with one character replaced by "?": a character the fonts lack is drawn as "?" by
``render.text``, so the two images would be equal and the test fails for exactly the
script (and character) that is missing.
"""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageFont

from render import text
from render.dates import iso_week_dates, week_dates
from render.images import compose_leaderboard
from render.samples import WORLD_NAMES_LEADERBOARD

SCRIPTS = {
    "chinese_beyond_the_ui_subset": "刘德华周杰伦",
    "latin_accents": "éü",
    "hangul": "김민준",
    "cyrillic": "ИванПетров",
    "greek": "Γιώργος",
    "kana": "さくら",
    "emoji": "🍀",
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
)
FALLBACK_SCRIPTS = {
    "traditional": "劉週傑饕餮",
    "latin_extended": "ŞüØåŁ",
    "hangul": "박서연",
    "cyrillic": "ДмитрийЁж",
    "greek": "ΑθηνάΩ",
    "kana": "ひまわカタナ",
    "emoji": "🐯🀄🎉",
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
