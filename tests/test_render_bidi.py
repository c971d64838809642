"""The bidi pass and the grapheme clusters of ``render.bidi``.

The expected lines were made with python-bidi 0.6 (a full UAX #9, not a dependency) as
``get_display(text, base_dir="L")``, bidi controls removed: our pass must order names the
way a full implementation does for these shapes (names in left-to-right labels, numbers,
neutrals between runs, isolates).
"""

from __future__ import annotations

import pytest

from render.bidi import MIRRORED, graphemes, isolate, levels, visual_order

FSI, PDI = "\u2068", "\u2069"
CONTROLS = "\u2066\u2067\u2068\u2069\u200e\u200f\u200d"

VISUAL = [
    ("from محمد علي", "from يلع دمحم"),
    ("محمد علي 打出", "يلع دمحم 打出"),
    ("Bob → محمد 123", "Bob → 123 دمحم"),
    ("محمد ١٢٣ (Ali)", "١٢٣ دمحم (Ali)"),
    ("דוד כהן: +5", "5+ :ןהכ דוד"),  # why labels isolate names: "+5" joins the name
    ("Ali (علي) 李雷", "Ali (يلع) 李雷"),
    ("מיכל 2024 כהן", "ןהכ 2024 לכימ"),
    ("E דוד 1,234.5%", "E 1,234.5% דוד"),
    ("x \u200fy", "x y"),
    (f"{FSI}דוד כהן{PDI}: +5", "ןהכ דוד: +5"),
    (f"{FSI}Ali محمد{PDI} → {FSI}محمد Ali{PDI} 12", "Ali دمحم → Ali دمحم 12"),
    (f"E {FSI}محمد{PDI}: -12", "E دمحم: -12"),
    ("שלום!", "םולש!"),
    ("דוד $5", "$5 דוד"),
]


def _display(text: str) -> str:
    """``text`` in drawing order, one character at a time (what L2 does to glyphs)."""
    char_levels = levels(text)
    shown = (
        text[i].translate(MIRRORED) if char_levels[i] % 2 else text[i]
        for i in visual_order(char_levels)
    )
    return "".join(char for char in shown if char not in CONTROLS)


@pytest.mark.parametrize(("logical", "visual"), VISUAL)
def test_lines_are_ordered_as_the_bidi_algorithm_orders_them(logical: str, visual: str) -> None:
    assert _display(logical) == visual


def test_left_to_right_text_stays_at_level_zero() -> None:
    assert levels("Alice 123 刘德华 (x)") == [0] * len("Alice 123 刘德华 (x)")
    assert levels("") == []


def test_joiners_and_trailing_spaces_take_their_neighbours_level() -> None:
    # ZWJ (a boundary neutral) stays inside the Arabic word; a trailing space goes back to
    # the paragraph's level (L1), so it is not drawn inside the right-to-left run.
    assert levels("عبد\u200dالله") == [1] * 8
    assert levels("دوד ") == [1, 1, 1, 0]


def test_isolate_only_wraps_names_that_need_it() -> None:
    assert isolate("Alice") == "Alice" and isolate("刘德华") == "刘德华"
    assert isolate("محمد") == f"{FSI}محمد{PDI}"
    assert isolate("דוד 7") == f"{FSI}דוד 7{PDI}"


@pytest.mark.parametrize(
    "text",
    [
        "\u2068" * 200 + "محمد",
        "\u2069\u2069x",
        "\u202eabc\u202c",
        "\u2067\u2066\u2068",
        "\u0651" * 5,
    ],
)
def test_malformed_controls_never_fail(text: str) -> None:
    assert len(levels(text)) == len(text)


@pytest.mark.parametrize(
    ("text", "clusters"),
    [
        ("क्षत्रिय", ["क्ष", "त्रि", "य"]),  # conjuncts are one cluster (GB9c)
        ("श्री", ["श्री"]),
        ("สมชาย ใจดี", ["ส", "ม", "ช", "า", "ย", " ", "ใ", "จ", "ดี"]),
        ("ฝ้ำ", ["ฝ้ำ"]),  # a tone mark and SARA AM stay on their consonant
        ("שָׁלוֹם", ["שָׁ", "ל", "וֹ", "ם"]),
        ("عبد\u200dالله", ["ع", "ب", "د\u200d", "ا", "ل", "ل", "ه"]),
        ("👨\u200d👩\u200d👧🇨🇳👍🏽", ["👨\u200d👩\u200d👧", "🇨🇳", "👍🏽"]),
        ("e\u0301\r\n", ["e\u0301", "\r\n"]),
        (f"{FSI}ab{PDI}", [FSI, "a", "b", PDI]),
    ],
)
def test_grapheme_clusters(text: str, clusters: list[str]) -> None:
    assert graphemes(text) == clusters


def test_grapheme_clusters_agree_with_the_regex_module() -> None:
    """Where the third-party ``regex`` module is installed, its ``\\X`` (a full UAX #29)
    agrees with ours on names of every script we draw."""
    regex = pytest.importorskip("regex")
    for name in (
        "महेश क्षत्रिय ह्\u200dय",
        "สมชาย ใจดี ปุ่ ฝ้ำ",
        "محمد علي عبد\u200dالله ِي",
        "שָׁלוֹם כהן",
        "Zoë 👍🏽🇯🇵 김민준 José",
    ):
        assert graphemes(name) == regex.findall(r"\X", name), name
