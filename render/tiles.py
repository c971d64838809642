"""Tile sprites drawn by our own code: 34 faces, a back and the wild markers.

Each face is drawn once on a large master canvas (``MASTER_WIDTH`` wide, at least four
times any size the images use) and downscaled with LANCZOS, which gives smooth circles and
strokes without any anti-aliasing of our own. Sprites are cached per (kind, width, marker,
rotation, dimming), so composing an image is only pasting.

Markers: a wild gets a gold frame and a tag with its rule set's name for it (the marker
is that name, ``"百搭"`` or ``"财神"``, from ``engine.variants``); ``"white"`` marks a White
that may stand for the wild kind (白板代) with a teal frame and a 代 tag.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from engine.variants import RULE_SETS

from .text import DRAW_LOCK, face_font, traditional, ui_font

MASTER_WIDTH = 288
MASTER_HEIGHT = 384
ASPECT = MASTER_HEIGHT / MASTER_WIDTH
EDGE = 22  # the coloured back layer showing under the face (3D thickness)
RADIUS = 30

IVORY = (250, 246, 234)
IVORY_SHADE = (226, 219, 198)
BACK_GREEN = (24, 110, 82)
BACK_GREEN_DARK = (14, 76, 56)
BACK_GREEN_LIGHT = (52, 150, 112)
INK = (28, 32, 40)
RED = (196, 36, 42)
GREEN = (22, 122, 60)
BLUE = (26, 74, 156)
GOLD = (226, 168, 24)
TEAL = (0, 150, 160)
WHITE_FRAME = (44, 96, 170)

WHITE_MARKER = "white"
WHITE_TAG = "代"


def wild_markers() -> tuple[str, ...]:
    """Every rule set's name for its wild, in registry order, in Simplified and (zh-TW
    images) Traditional characters: the wild markers."""
    names = [rules.wild_name_zh for rules in RULE_SETS.values() if rules.wild_name_zh]
    return tuple(dict.fromkeys([*names, *(traditional(name) for name in names)]))


# Every marker a face can carry (``None`` is a plain face).
MARKERS: tuple[str | None, ...] = (None, *wild_markers(), WHITE_MARKER)


def marker_tag(marker: str) -> str:
    """The text on a marker's tag: the wild's own name, or 代 for a White stand-in."""
    return WHITE_TAG if marker == WHITE_MARKER else marker


Box = tuple[float, float, float, float]


def tile_height(width: int) -> int:
    return round(width * ASPECT)


# --------------------------------------------------------------------------- shapes


def _base(face_color: tuple[int, int, int], back_color: tuple[int, int, int]) -> Image.Image:
    """A blank tile: the back layer below, the face on top, transparent corners."""
    image = Image.new("RGBA", (MASTER_WIDTH, MASTER_HEIGHT), (*back_color, 0))
    draw = ImageDraw.Draw(image)
    right, bottom = MASTER_WIDTH - 1, MASTER_HEIGHT - 1
    draw.rounded_rectangle((0, 0, right, bottom), RADIUS, fill=BACK_GREEN_DARK)
    draw.rounded_rectangle((0, 0, right, bottom - 4), RADIUS, fill=back_color)
    draw.rounded_rectangle((0, 0, right, bottom - EDGE), RADIUS, fill=IVORY_SHADE)
    draw.rounded_rectangle((3, 2, right - 3, bottom - EDGE - 5), RADIUS - 3, fill=face_color)
    return image


def _face_box() -> Box:
    return (26.0, 26.0, MASTER_WIDTH - 26.0, MASTER_HEIGHT - EDGE - 28.0)


def _disc(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: tuple) -> None:
    """A filled circle of radius ``r`` around (cx, cy): the brush behind every dot and eye."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)


def _dot(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: tuple) -> None:
    """A traditional dot: coloured ring, ivory gap, coloured centre with a light eye."""
    _disc(draw, cx, cy, r, color)
    inner = r * 0.72
    _disc(draw, cx, cy, inner, IVORY)
    core = r * 0.5
    _disc(draw, cx, cy, core, color)
    eye = r * 0.16
    _disc(draw, cx, cy, eye, IVORY)


def _disc_ring(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    count: int,
    at: float,
    size: float,
    color: tuple,
) -> None:
    """``count`` discs of radius ``size`` × r, evenly round a circle of radius ``at`` × r."""
    for i in range(count):
        angle = 2 * math.pi * i / count
        _disc(draw, cx + math.cos(angle) * r * at, cy + math.sin(angle) * r * at, r * size, color)


def _big_dot(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The one of dots: a large ornate disc (blue rim, green ring, red flower centre)."""
    _disc(draw, cx, cy, r, BLUE)
    _disc(draw, cx, cy, r * 0.86, IVORY)
    _disc(draw, cx, cy, r * 0.74, GREEN)
    _disc_ring(draw, cx, cy, r, 16, 0.62, 0.06, IVORY)  # small beads on the green band
    _disc(draw, cx, cy, r * 0.5, IVORY)
    _disc(draw, cx, cy, r * 0.42, RED)
    _disc_ring(draw, cx, cy, r, 8, 0.25, 0.09, IVORY)  # the flower's petals
    _disc(draw, cx, cy, r * 0.1, GOLD)


# Dots: (u, v, colour) where 0 and 1 put the dot's edge on the face box's edge, and the
# dot radius as a fraction of the box width.
_B, _G, _R = BLUE, GREEN, RED
DOT_LAYOUTS: dict[int, tuple[float, list[tuple[float, float, tuple]]]] = {
    2: (0.27, [(0.5, 0.0, _G), (0.5, 1.0, _B)]),
    3: (0.22, [(0.0, 0.0, _B), (0.5, 0.5, _R), (1.0, 1.0, _G)]),
    4: (0.23, [(0.0, 0.0, _B), (1.0, 0.0, _G), (0.0, 1.0, _G), (1.0, 1.0, _B)]),
    5: (
        0.2,
        [(0.0, 0.0, _B), (1.0, 0.0, _G), (0.5, 0.5, _R), (0.0, 1.0, _G), (1.0, 1.0, _B)],
    ),
    6: (
        0.185,
        [
            (0.08, 0.0, _G),
            (0.92, 0.0, _G),
            (0.08, 0.54, _R),
            (0.92, 0.54, _R),
            (0.08, 1.0, _R),
            (0.92, 1.0, _R),
        ],
    ),
    7: (
        0.15,
        [
            (0.0, 0.0, _G),
            (0.5, 0.13, _G),
            (1.0, 0.26, _G),
            (0.15, 0.66, _R),
            (0.85, 0.66, _R),
            (0.15, 1.0, _R),
            (0.85, 1.0, _R),
        ],
    ),
    8: (0.145, [(u, v, _B) for v in (0.0, 1 / 3, 2 / 3, 1.0) for u in (0.12, 0.88)]),
    9: (
        0.16,
        [(u, v, c) for v, c in ((0.0, _B), (0.5, _R), (1.0, _G)) for u in (0.0, 0.5, 1.0)],
    ),
}


def _draw_dots(draw: ImageDraw.ImageDraw, rank: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    if rank == 1:
        r = min(width, height) * 0.48
        _big_dot(draw, (x0 + x1) / 2, (y0 + y1) / 2, r)
        return
    factor, layout = DOT_LAYOUTS[rank]
    r = factor * width
    # Keep the outermost dots inside the box whatever its aspect.
    for u, v, color in layout:
        cx = x0 + r + u * (width - 2 * r)
        cy = y0 + r + v * (height - 2 * r)
        _dot(draw, cx, cy, r, color)


def _stick(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    length: float,
    thickness: float,
    color: tuple,
    angle: float = 0.0,
) -> None:
    """A bamboo stick: a rounded stalk with three nodes, at ``angle`` radians from vertical."""
    dx, dy = math.sin(angle), -math.cos(angle)  # along the stick (up)
    nx, ny = -dy, dx  # across
    half, t = length / 2, thickness / 2

    def quad(a: float, b: float, w: float) -> list[tuple[float, float]]:
        return [
            (cx + dx * a + nx * w, cy + dy * a + ny * w),
            (cx + dx * b + nx * w, cy + dy * b + ny * w),
            (cx + dx * b - nx * w, cy + dy * b - ny * w),
            (cx + dx * a - nx * w, cy + dy * a - ny * w),
        ]

    draw.polygon(quad(-half + t, half - t, t), fill=color)
    for end in (-half + t, half - t):
        ex, ey = cx + dx * end, cy + dy * end
        _disc(draw, ex, ey, t, color)
    dark = tuple(int(c * 0.55) for c in color[:3])
    light = tuple(min(255, int(c + (255 - c) * 0.55)) for c in color[:3])
    # the light streak along the stalk
    draw.polygon(quad(-half + t * 1.2, half - t * 1.2, t * 0.22), fill=light)
    # the nodes: bulges at the ends and in the middle
    for at in (-half + t * 0.9, 0.0, half - t * 0.9):
        draw.polygon(quad(at - t * 0.32, at + t * 0.32, t * 1.18), fill=dark)


# Bamboo: (u, v, colour, angle) with the stick length and thickness as box fractions.
BAMBOO_LAYOUTS: dict[int, tuple[float, float, list[tuple[float, float, tuple, float]]]] = {
    2: (0.42, 0.2, [(0.5, 0.25, _G, 0.0), (0.5, 0.75, _B, 0.0)]),
    3: (0.42, 0.18, [(0.5, 0.25, _G, 0.0), (0.25, 0.75, _B, 0.0), (0.75, 0.75, _B, 0.0)]),
    4: (
        0.42,
        0.18,
        [
            (0.25, 0.25, _B, 0.0),
            (0.75, 0.25, _G, 0.0),
            (0.25, 0.75, _G, 0.0),
            (0.75, 0.75, _B, 0.0),
        ],
    ),
    5: (
        0.42,
        0.16,
        [
            (0.16, 0.25, _G, 0.0),
            (0.84, 0.25, _B, 0.0),
            (0.5, 0.5, _R, 0.0),
            (0.16, 0.75, _B, 0.0),
            (0.84, 0.75, _G, 0.0),
        ],
    ),
    6: (0.42, 0.15, [(u, v, _G, 0.0) for v in (0.25, 0.75) for u in (0.17, 0.5, 0.83)]),
    7: (
        0.29,
        0.15,
        [(0.5, 0.16, _R, 0.0)] + [(u, v, _G, 0.0) for v in (0.5, 0.84) for u in (0.17, 0.5, 0.83)],
    ),
    8: (
        0.43,
        0.13,
        [
            (0.1, 0.25, _G, 0.0),
            (0.36, 0.25, _G, 0.42),
            (0.64, 0.25, _G, -0.42),
            (0.9, 0.25, _G, 0.0),
            (0.1, 0.75, _B, 0.0),
            (0.36, 0.75, _B, -0.42),
            (0.64, 0.75, _B, 0.42),
            (0.9, 0.75, _B, 0.0),
        ],
    ),
    9: (
        0.29,
        0.15,
        [(u, v, _R if u == 0.5 else _G, 0.0) for v in (0.16, 0.5, 0.84) for u in (0.17, 0.5, 0.83)],
    ),
}


def _draw_bamboo(draw: ImageDraw.ImageDraw, rank: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    if rank == 1:
        _draw_bird(draw, box)
        return
    length_frac, thick_frac, layout = BAMBOO_LAYOUTS[rank]
    length = length_frac * height
    thickness = thick_frac * width
    for u, v, color, angle in layout:
        cx = x0 + thickness / 2 + u * (width - thickness)
        cy = y0 + v * height
        _stick(draw, cx, cy, length, thickness, color, angle)


def _draw_bird(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """The one of bamboo: a small bird (sparrow/peacock) perched on a stalk."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def p(u: float, v: float) -> tuple[float, float]:
        return (x0 + u * w, y0 + v * h)

    # the stalk it perches on
    _stick(draw, x0 + 0.5 * w, y0 + 0.87 * h, 0.9 * w, 0.1 * w, GREEN, math.pi / 2)
    # tail feathers fanning down-left
    for i, color in enumerate((BLUE, GREEN, BLUE, GREEN, RED)):
        angle = math.radians(200 + i * 14)
        tip = (0.42 + 0.5 * math.cos(angle), 0.56 - 0.42 * math.sin(angle))
        base = p(0.46, 0.56)
        tx, ty = p(*tip)
        nx, ny = -(ty - base[1]), tx - base[0]
        norm = math.hypot(nx, ny) or 1
        spread = 0.07 * w
        draw.polygon(
            [
                base,
                (tx + nx / norm * spread, ty + ny / norm * spread),
                (tx - nx / norm * spread, ty - ny / norm * spread),
            ],
            fill=color,
        )
        _disc(draw, tx, ty, spread, color)
        eye = spread * 0.45
        _disc(draw, tx, ty, eye, GOLD)
    # body and breast
    draw.ellipse((*p(0.3, 0.36), *p(0.8, 0.72)), fill=GREEN)
    draw.ellipse((*p(0.5, 0.42), *p(0.82, 0.7)), fill=RED)
    # wing
    draw.chord((*p(0.3, 0.4), *p(0.7, 0.66)), 150, 330, fill=BLUE)
    # head, crest, eye and beak
    draw.ellipse((*p(0.58, 0.16), *p(0.86, 0.4)), fill=GREEN)
    for i in range(3):
        cx, cy = p(0.64 + i * 0.07, 0.1 + abs(i - 1) * 0.03)
        r = 0.035 * w
        draw.line([p(0.7, 0.2), (cx, cy)], fill=BLUE, width=max(2, int(0.02 * w)))
        _disc(draw, cx, cy, r, RED)
    ex, ey = p(0.75, 0.25)
    r = 0.045 * w
    _disc(draw, ex, ey, r, IVORY)
    _disc(draw, ex, ey, r * 0.5, INK)
    draw.polygon([p(0.84, 0.24), p(0.98, 0.3), p(0.84, 0.33)], fill=GOLD)
    # legs
    for u in (0.52, 0.62):
        draw.line([p(u, 0.7), p(u - 0.02, 0.84)], fill=RED, width=max(3, int(0.03 * w)))


def _glyph(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: Box,
    color: tuple,
    *,
    fill_height: float = 1.0,
    font_getter=face_font,
) -> None:
    """Draw ``text`` with its ink centred in ``box``, as large as the box allows."""
    x0, y0, x1, y1 = box
    target_w, target_h = x1 - x0, (y1 - y0) * fill_height
    size = int(target_h * 1.25)
    for _ in range(6):
        font = font_getter(size)
        left, top, right, bottom = font.getbbox(text)
        ink_w, ink_h = right - left, bottom - top
        scale = min(target_w / ink_w, target_h / ink_h)
        if 0.97 <= scale <= 1.0:
            break
        size = max(8, int(size * scale * 0.99))
    font = font_getter(size)
    left, top, right, bottom = font.getbbox(text)
    x = (x0 + x1) / 2 - (left + right) / 2
    y = (y0 + y1) / 2 - (top + bottom) / 2
    draw.text((x, y), text, font=font, fill=color)


ZH_NUMERALS = "一二三四五六七八九"
WIND_FACES = "東南西北"
WIND_INDEX = "ESWN"


def _draw_characters(draw: ImageDraw.ImageDraw, rank: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    # Clear of the corner index at the left; centred, so 二 and 三 narrow a little.
    inset = INDEX_CLEARANCE / MASTER_WIDTH
    numeral_box = (x0 + inset * w, y0, x1 - inset * w, y0 + 0.4 * h)
    if rank == 1:  # a lone horizontal stroke: keep it from stretching into a bar
        numeral_box = (x0 + 0.22 * w, y0, x1 - 0.22 * w, y0 + 0.4 * h)
    _glyph(draw, ZH_NUMERALS[rank - 1], numeral_box, INK, fill_height=0.55 if rank == 1 else 1.0)
    _glyph(draw, "萬", (x0, y0 + 0.46 * h, x1, y1), RED)
    _corner_index(draw, str(rank), box)


# The Latin index: its ink a fifth of the tile's width tall, so that a phone showing a
# 56 px river tile at 36 % still draws it 4 px tall (an English reader's only way to tell
# 萬 numerals and 東南西北 apart); the faces' glyphs keep clear of it.
INDEX_SIZE = 78  # font size on the master: digits and capitals 58 px tall (0.2 × 288)
INDEX_COLOR = (78, 84, 104)
INDEX_CLEARANCE = 0.2 * MASTER_WIDTH  # the numerals' box starts this far in (both sides)


def _corner_index(draw: ImageDraw.ImageDraw, text: str, box: Box) -> None:
    """The Latin index in the top-left corner, for players who do not read 萬 or 東:
    its ink starts just above and left of the face box (inside a marker's frame)."""
    font = ui_font(INDEX_SIZE)
    left, top, _right, _bottom = font.getbbox(text)
    draw.text((box[0] - 10 - left, box[1] - 12 - top), text, font=font, fill=INDEX_COLOR)


def _draw_honor(draw: ImageDraw.ImageDraw, kind: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    if kind < 31:
        # Below the corner index: the glyph's top sits under the index's ink.
        _glyph(draw, WIND_FACES[kind - 27], (x0, y0 + 0.17 * (y1 - y0), x1, y1), INK)
        _corner_index(draw, WIND_INDEX[kind - 27], box)
    elif kind == 31:  # White: a framed blank
        inset_x, inset_y = (x1 - x0) * 0.06, (y1 - y0) * 0.05
        frame = (x0 + inset_x, y0 + inset_y, x1 - inset_x, y1 - inset_y)
        draw.rounded_rectangle(frame, 10, outline=WHITE_FRAME, width=12)
        inner = (frame[0] + 22, frame[1] + 22, frame[2] - 22, frame[3] - 22)
        draw.rounded_rectangle(inner, 6, outline=WHITE_FRAME, width=5)
    elif kind == 32:
        _glyph(draw, "發", box, GREEN, fill_height=0.8)
    else:
        _glyph(draw, "中", box, RED, fill_height=0.8)


def _draw_marker(draw: ImageDraw.ImageDraw, marker: str) -> Box:
    """Frame and tag for a wild or a White stand-in; returns the box left for the face."""
    color = TEAL if marker == WHITE_MARKER else GOLD
    right, bottom = MASTER_WIDTH - 1, MASTER_HEIGHT - 1 - EDGE - 5
    draw.rounded_rectangle((3, 2, right - 3, bottom), RADIUS - 3, outline=color, width=16)
    tag = marker_tag(marker)
    tag_h = 78
    tag_box = (3, bottom - tag_h, right - 3, bottom)
    draw.rounded_rectangle(tag_box, RADIUS - 3, fill=color)
    draw.rectangle((3, bottom - tag_h, right - 3, bottom - tag_h + RADIUS), fill=color)
    _glyph(
        draw,
        tag,
        (tag_box[0] + 20, tag_box[1] + 10, tag_box[2] - 20, tag_box[3] - 10),
        IVORY if marker == WHITE_MARKER else (120, 20, 10),
        font_getter=ui_font,
    )
    return (36.0, 34.0, MASTER_WIDTH - 36.0, bottom - tag_h - 10.0)


# --------------------------------------------------------------------------- masters


@cache
def master_face(kind: int, marker: str | None = None) -> Image.Image:
    """The full-size drawing of one face; everything smaller is resampled from it."""
    if not 0 <= kind < 34:
        raise ValueError(f"tile kind {kind} is out of range 0..33")
    if marker is not None and marker != WHITE_MARKER and marker not in wild_markers():
        raise ValueError(f"unknown marker {marker!r}")
    with DRAW_LOCK:
        return _draw_face(kind, marker)


def _draw_face(kind: int, marker: str | None) -> Image.Image:
    image = _base(IVORY, BACK_GREEN)
    draw = ImageDraw.Draw(image)
    box = _face_box()
    if marker is not None:
        box = _draw_marker(draw, marker)
    suit, rank = kind // 9, kind % 9 + 1
    if suit == 0:
        _draw_characters(draw, rank, box)
    elif suit == 1:
        _draw_dots(draw, rank, box)
    elif suit == 2:
        _draw_bamboo(draw, rank, box)
    else:
        _draw_honor(draw, kind, box)
    return image


@cache
def master_back() -> Image.Image:
    image = _base(BACK_GREEN, BACK_GREEN)
    draw = ImageDraw.Draw(image)
    right, bottom = MASTER_WIDTH - 1, MASTER_HEIGHT - 1 - EDGE - 5
    draw.rounded_rectangle((3, 2, right - 3, bottom), RADIUS - 3, fill=BACK_GREEN_LIGHT)
    draw.rounded_rectangle((22, 20, right - 22, bottom - 18), RADIUS - 12, fill=BACK_GREEN)
    cx, cy = MASTER_WIDTH / 2, bottom / 2
    r = 46
    draw.regular_polygon((cx, cy, r), 4, rotation=45, fill=BACK_GREEN_LIGHT)
    draw.regular_polygon((cx, cy, r * 0.55), 4, rotation=45, fill=BACK_GREEN)
    return image


# --------------------------------------------------------------------------- sprites


def _shrink(master: Image.Image, width: int) -> Image.Image:
    return master.resize((width, tile_height(width)), Image.Resampling.LANCZOS)


def _dim(image: Image.Image) -> Image.Image:
    """Greyed out: a claimed discard still shown in the river."""
    alpha = image.getchannel("A")
    grey = Image.new("RGBA", image.size, (110, 110, 110, 255))
    blended = Image.blend(image, grey, 0.45)
    blended.putalpha(alpha)
    return blended


@cache
def tile_sprite(
    kind: int,
    width: int,
    marker: str | None = None,
    *,
    rotated: bool = False,
    dimmed: bool = False,
) -> Image.Image:
    """The face of ``kind`` ``width`` pixels wide (before rotation), RGBA.

    ``rotated`` turns it 90° (a claimed tile in a meld); ``dimmed`` greys it (a claimed
    discard). The result is shared: paste it, never draw on it.
    """
    sprite = _shrink(master_face(kind, marker), width)
    if dimmed:
        sprite = _dim(sprite)
    if rotated:
        sprite = sprite.transpose(Image.Transpose.ROTATE_90)
    return sprite


@cache
def back_sprite(width: int, *, rotated: bool = False) -> Image.Image:
    sprite = _shrink(master_back(), width)
    if rotated:
        sprite = sprite.transpose(Image.Transpose.ROTATE_90)
    return sprite


def clear_cache() -> None:
    """Forget every sprite (the benchmark uses this to time a cold start)."""
    for cached in (master_face, master_back, tile_sprite, back_sprite):
        cached.cache_clear()
