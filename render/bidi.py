"""Bidirectional ordering and grapheme clusters for drawing names.

Pillow draws one run of text with one font, so ``render.text`` cuts text into runs and
places them side by side itself; with Arabic or Hebrew names it must also decide the
order of those runs on the line, which is what the Unicode Bidirectional Algorithm
(UAX #9) does. libraqm has its own bidi pass, but only inside the one run it is given
(and a machine without libfribidi has no libraqm at all), so the ordering *between* runs
is done here, from ``unicodedata`` alone.

This is enough of UAX #9 for names inside our labels, not all of it: one left-to-right
paragraph (every label is Chinese or English); isolates (FSI, LRI, RLI … PDI) and the
marks LRM, RLM and ALM; the weak (W1–W7), neutral (N1, N2) and implicit (I1, I2) rules;
trailing whitespace (L1) and reordering (L2). Left out: explicit embeddings and overrides
(LRE, RLE, LRO, RLO, PDF are ignored, as if removed by X9), bracket pairs (N0) and
mirroring beyond the common brackets. A name is drawn with its own direction when
composed labels isolate it (``isolate``), so "محمد: +5" keeps "+5" on the right.

``graphemes`` splits text into user-perceived characters (extended grapheme clusters,
UAX #29, without Hangul jamo sequences and prepended marks): truncation must not cut a
letter from its marks, nor a Devanagari conjunct in two, and a right-to-left run drawn
without libraqm is reversed cluster by cluster so marks stay on their letter.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

FSI, LRI, RLI, PDI = "\u2068", "\u2066", "\u2067", "\u2069"
_INITIATORS = frozenset({"LRI", "RLI", "FSI"})
_NEUTRAL = frozenset({"B", "S", "WS", "ON", "LRI", "RLI", "FSI", "PDI"})
# X9: embeddings, overrides and boundary neutrals (ZWJ, ZWNJ) take no part in resolution.
_REMOVED = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "BN"})
_MAX_DEPTH = 60  # nested isolates beyond this are treated as neutrals (UAX #9 allows 125)


def _bidi_class(char: str) -> str:
    return unicodedata.bidirectional(char) or "L"


def has_rtl(text: str) -> bool:
    """Whether ``text`` can draw anything right to left: without a right-to-left letter,
    Arabic number or RLI every character of a left-to-right paragraph is at an even
    level, which draws as plain left to right (callers skip the bidi pass then)."""
    return any(_bidi_class(char) in ("R", "AL", "AN", "RLI") for char in text)


def isolate(name: str) -> str:
    """``name`` between FSI and PDI when it has right-to-left text, so that composing it
    into a label ("{name} 打出", "name: +5") neither reorders the label's own text around
    it nor lets the label's numbers join the name's direction; other names are returned
    as they are (they cannot reorder a left-to-right label)."""
    return f"{FSI}{name}{PDI}" if has_rtl(name) else name


def levels(text: str) -> list[int]:
    """The embedding level of each character of ``text`` as one left-to-right paragraph:
    even levels draw left to right, odd ones right to left."""
    types = [_bidi_class(char) for char in text]
    result = [0] * len(text)
    _resolve_span(types, 0, len(text), 0, result, 0)
    # Removed characters (ZWJ between two Arabic letters) take the level before them, so
    # they stay inside the run of their neighbours.
    previous: int | None = None
    for index, kind in enumerate(types):
        if kind in _REMOVED:
            result[index] = previous if previous is not None else _next_level(types, result, index)
        else:
            previous = result[index]
    # L1: trailing whitespace and isolate marks, and segment separators with the
    # whitespace before them, go to the paragraph's level.
    trailing = True
    for index in range(len(text) - 1, -1, -1):
        kind = types[index]
        if kind in ("S", "B"):
            result[index] = 0
            trailing = True
        elif trailing and kind in ("WS", "LRI", "RLI", "FSI", "PDI", *_REMOVED):
            result[index] = 0
        else:
            trailing = False
    return result


def _next_level(types: list[str], result: list[int], index: int) -> int:
    for later in range(index + 1, len(types)):
        if types[later] not in _REMOVED:
            return result[later]
    return 0


def _matching_pdi(types: list[str], start: int, end: int) -> int:
    """Index of the PDI closing the isolate opened at ``start`` (``end`` if none)."""
    depth = 0
    for index in range(start + 1, end):
        if types[index] in _INITIATORS:
            depth += 1
        elif types[index] == "PDI":
            if depth == 0:
                return index
            depth -= 1
    return end


def _first_strong_is_rtl(types: list[str], start: int, end: int) -> bool:
    """P2/P3 for an FSI: the first strong character, skipping nested isolates."""
    index = start
    while index < end:
        kind = types[index]
        if kind in _INITIATORS:
            index = _matching_pdi(types, index, end) + 1
            continue
        if kind in ("L", "R", "AL"):
            return kind != "L"
        index += 1
    return False


def _resolve_span(
    types: list[str], start: int, end: int, level: int, result: list[int], depth: int
) -> None:
    """Resolve the isolating run sequence ``types[start:end]`` at ``level``: its isolates'
    contents are resolved on their own (recursively), and each isolate counts as one
    neutral here (its initiator and PDI)."""
    sequence: list[int] = []
    index = start
    while index < end:
        kind = types[index]
        sequence.append(index)
        if kind in _INITIATORS and depth < _MAX_DEPTH:
            close = _matching_pdi(types, index, end)
            rtl = kind == "RLI" or (kind == "FSI" and _first_strong_is_rtl(types, index + 1, close))
            inner = level + (1 if (level % 2 == 0) == rtl else 2)
            _resolve_span(types, index + 1, close, inner, result, depth + 1)
            if close < end:
                sequence.append(close)
            index = close + 1
        else:
            index += 1
    kept = [i for i in sequence if types[i] not in _REMOVED]
    resolved = _resolve_types(
        [types[i] if depth < _MAX_DEPTH or types[i] not in _INITIATORS else "ON" for i in kept],
        "R" if level % 2 else "L",
    )
    for i, kind in zip(kept, resolved, strict=True):
        if level % 2 == 0:
            result[i] = level + (1 if kind == "R" else 2 if kind in ("AN", "EN") else 0)
        else:
            result[i] = level + (1 if kind in ("L", "EN", "AN") else 0)


def _resolve_types(types: list[str], edge: str) -> list[str]:
    """Rules W1–W7, N1 and N2 on one isolating run sequence whose start and end of
    sequence (sos, eos) are ``edge``: every type comes back as L, R, EN or AN."""
    types = list(types)
    count = len(types)
    # W1: a non-spacing mark takes the type of what it follows (ON after an isolate).
    for i, kind in enumerate(types):
        if kind == "NSM":
            before = types[i - 1] if i else edge
            types[i] = "ON" if before in _INITIATORS or before == "PDI" else before
    # W2: a European number after Arabic letters is an Arabic number; W3: AL is R.
    strong = edge
    for i, kind in enumerate(types):
        if kind in ("L", "R", "AL"):
            strong = kind
        elif kind == "EN" and strong == "AL":
            types[i] = "AN"
    types = ["R" if kind == "AL" else kind for kind in types]
    # W4: one separator between two numbers of a kind is part of the number.
    for i in range(1, count - 1):
        before, kind, after = types[i - 1], types[i], types[i + 1]
        if (kind == "ES" and before == after == "EN") or (
            kind == "CS" and before == after and before in ("EN", "AN")
        ):
            types[i] = before
    # W5: terminators (%, $, +/- signs' kin) next to a European number join it.
    i = 0
    while i < count:
        if types[i] != "ET":
            i += 1
            continue
        j = i
        while j < count and types[j] == "ET":
            j += 1
        if (i > 0 and types[i - 1] == "EN") or (j < count and types[j] == "EN"):
            types[i:j] = ["EN"] * (j - i)
        i = j
    # W6: other separators and terminators are neutral.
    types = ["ON" if kind in ("ES", "ET", "CS") else kind for kind in types]
    # W7: a European number in left-to-right text is left to right.
    strong = edge
    for i, kind in enumerate(types):
        if kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            types[i] = "L"
    # N1: neutrals between two runs of one direction take it (numbers count as R);
    # N2: the rest take the sequence's own direction.
    i = 0
    while i < count:
        if types[i] not in _NEUTRAL:
            i += 1
            continue
        j = i
        while j < count and types[j] in _NEUTRAL:
            j += 1
        before = _direction(types[i - 1]) if i > 0 else edge
        after = _direction(types[j]) if j < count else edge
        types[i:j] = [before if before == after else edge] * (j - i)
        i = j
    return types


def _direction(kind: str) -> str:
    return "L" if kind == "L" else "R"


def visual_order(run_levels: Sequence[int]) -> list[int]:
    """L2: the indices of runs (or characters) at ``run_levels`` in drawing order, left to
    right: from the highest level down to 1, every maximal stretch at that level or
    higher is reversed."""
    order = list(range(len(run_levels)))
    if not run_levels:
        return order
    for level in range(max(run_levels), 0, -1):
        i = 0
        while i < len(order):
            if run_levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and run_levels[order[j]] >= level:
                j += 1
            order[i:j] = reversed(order[i:j])
            i = j
    return order


# Glyph mirroring for right-to-left runs drawn without libraqm (which mirrors itself).
MIRRORED = str.maketrans("()[]{}<>«»‹›", ")(][}{><»«›‹")

# Grapheme_Cluster_Break=Extend/SpacingMark characters beyond the marks (categories M*):
# the joiners, Thai and Lao SARA AM, emoji modifiers and tags.
_JOINERS = ("\u200c", "\u200d")
_ZWJ = "\u200d"
# The viramas that link Indic conjuncts (Indic_Conjunct_Break=Linker) and the consonants
# they link (InCB=Consonant: Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam).
_LINKERS = frozenset("\u094d\u09cd\u0acd\u0b4d\u0c4d\u0d4d")
_CONSONANTS = (
    (0x0915, 0x0939),
    (0x0958, 0x095F),
    (0x0978, 0x097F),
    (0x0995, 0x09B9),
    (0x0A95, 0x0AB9),
    (0x0B15, 0x0B39),
    (0x0C15, 0x0C39),
    (0x0D15, 0x0D3A),
)


def _is_extend(char: str) -> bool:
    code = ord(char)
    return (
        unicodedata.category(char).startswith("M")
        or char in _JOINERS
        or code in (0x0E33, 0x0EB3)
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
    )


def _is_control(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Zl", "Zp", "Cf") and char not in _JOINERS


def _is_pictographic(char: str) -> bool:
    code = ord(char)
    return code >= 0x1F000 or (0x2600 <= code <= 0x27BF) or unicodedata.category(char) == "So"


def _is_regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _joins(cluster: str, char: str) -> bool:
    """Whether ``char`` continues the grapheme cluster ``cluster`` (UAX #29 rules GB3–GB13,
    without the Hangul jamo and prepend rules)."""
    last = cluster[-1]
    if last == "\r":
        return char == "\n"
    if _is_control(last) or _is_control(char):
        return False
    if _is_extend(char):
        return True
    core = cluster.rstrip(_ZWJ)
    if core and core[-1] in _LINKERS:
        return any(start <= ord(char) <= end for start, end in _CONSONANTS)
    if last == _ZWJ and _is_pictographic(char):
        bases = [c for c in cluster if not _is_extend(c)]
        return bool(bases) and _is_pictographic(bases[-1])
    if _is_regional(char) and _is_regional(last):
        return sum(_is_regional(c) for c in cluster) % 2 == 1
    return False


def graphemes(text: str) -> list[str]:
    """``text`` cut into grapheme clusters: a letter with its marks and joiners, a
    Devanagari conjunct (क्ष), an emoji with its modifiers or ZWJ sequence, a flag."""
    clusters: list[str] = []
    for char in text:
        if clusters and _joins(clusters[-1], char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters
