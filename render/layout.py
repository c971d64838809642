"""What every image shares: colours, the PNG encoder and its palette, cached text and
badges, tile markers and melds drawn as tiles.

The images themselves live one per module (``render.hand``, ``render.table``,
``render.result``, ``render.leaderboard``). Composing is pasting cached sprites
(``render.tiles``) and cached text (``render.text``); the image is mapped onto one
shared palette (the table and replay frames are composed on it to begin with) and
written by ``render.png``, which keeps a warm image in a few milliseconds and every
image far below Discord's upload limits.

Nothing here knows a rule set by name: what differs between rule sets (the wild's tag,
whether a White stands in for it) is read from ``engine.variants.get_rules``.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from engine.tiles import WHITE
from engine.types import Meld
from engine.variants import Variant

from .png import encode_palette_png
from .text import INVISIBLE, Color, chinese, label, text_sprite, text_width
from .tiles import MARKERS, WHITE_MARKER, back_sprite, tile_height, tile_sprite

FELT = (22, 78, 58)
PANEL = (31, 98, 74)
PANEL_DARK = (18, 62, 46)
PANEL_EDGE = (58, 130, 100)
CREAM = (244, 239, 224)
MUTED = (172, 204, 188)
GOLD = (246, 196, 64)
RED_BADGE = (200, 44, 48)
HIGHLIGHT = (255, 214, 64)
LAST_DISCARD = (255, 84, 64)
PLUS = (112, 226, 140)
MINUS = (255, 128, 118)
MEDALS = {1: (236, 186, 40), 2: (196, 204, 214), 3: (205, 127, 50)}  # leaderboard ranks

HAND_WIDTH = 1000
TABLE_SIZE = 1000


# --------------------------------------------------------------------------- helpers


def encode_png(image: Image.Image) -> bytes:
    """Palette PNG: a quarter of the RGB size and several times faster to encode.

    Mapping onto one shared palette (``shared_palette``) takes about two milliseconds for
    a whole table, where building a palette per image (FASTOCTREE) takes several; every
    image is made of the same sprites, backgrounds and text colours, so one palette fits.
    An image composed in palette mode already (``palette_canvas``) skips the mapping.
    The PNG itself is written by ``render.png`` (its deflate is the bulk of the cost).
    """
    if image.mode != "P":
        image = image.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    return encode_palette_png(image)


@cache
def shared_palette() -> Image.Image:
    """A 256-colour palette quantised once from a sheet of everything the images draw:
    every face (plain, dimmed, marked) and the back on each background, and text and
    badges in every colour, so anti-aliased edges have their in-between shades."""
    backgrounds = (FELT, PANEL, PANEL_DARK)
    tile_w = 40
    tile_h = tile_height(tile_w)
    columns = 36
    sprites = [tile_sprite(kind, tile_w) for kind in range(34)]
    sprites += [tile_sprite(kind, tile_w, dimmed=True) for kind in range(34)]
    sprites += [
        tile_sprite(kind, tile_w, marker) for kind in (5, 13, 31, 33) for marker in MARKERS[1:]
    ]
    sprites += [back_sprite(tile_w)]
    rows_per_background = math.ceil(len(sprites) / columns)
    text_rows = 6
    sheet_h = len(backgrounds) * (rows_per_background * tile_h + text_rows * 40)
    sheet = Image.new("RGB", (columns * tile_w, sheet_h), FELT)
    draw = ImageDraw.Draw(sheet)
    text_colours = (CREAM, MUTED, GOLD, HIGHLIGHT, PLUS, MINUS, (40, 30, 10))
    badge_fills = (RED_BADGE, PANEL_EDGE, *MEDALS.values(), LAST_DISCARD, HIGHLIGHT, GOLD)
    y = 0
    for background in backgrounds:
        block_h = rows_per_background * tile_h + text_rows * 40
        draw.rectangle((0, y, sheet.width, y + block_h), fill=background)
        for index, sprite in enumerate(sprites):
            row, column = divmod(index, columns)
            paste(sheet, sprite, column * tile_w, y + row * tile_h)
        ty = y + rows_per_background * tile_h
        for i, colour in enumerate(text_colours):
            draw_text(
                sheet,
                "東南西北 中發 Alice 0123456789 +-",
                4 + (i % 2) * 720,
                ty + (i // 2) * 40,
                24,
                colour,
            )
        for i, fill in enumerate(badge_fills):
            bx = 4 + i * 130
            draw.rounded_rectangle((bx, ty + 160, bx + 120, ty + 196), radius=18, fill=fill)
            draw_text(
                sheet,
                "庄 1 百搭",
                bx + 6,
                ty + 162,
                22,
                CREAM if fill == RED_BADGE else (40, 30, 10),
            )
        y += block_h
    return sheet.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def paste(
    canvas: Image.Image, sprite: Image.Image, x: float, y: float, backdrop: Color | None = None
) -> None:
    """Paste a cached RGBA sprite through its own alpha onto an RGB(A) or palette canvas.

    Straight to the core image: ``Image.paste``'s argument checks cost as much as the
    copy for a tile-sized sprite, and a table pastes over a hundred of them (a replay
    export, a hundred tables). Both images are always loaded (new or cached sprites).
    On a palette canvas (``palette_canvas``) the sprite goes in as its palette version
    over the one colour under it (``backdrop`` when the caller knows it, as a badge does
    for its label); over several colours it is blended with what is there."""
    left, top = int(x), int(y)
    width, height = sprite.size
    box = (left, top, left + width, top + height)
    target = canvas.im
    if canvas.mode == "P":  # a table pastes a hundred sprites: keep this path lean
        versions = _PALETTED.get(id(sprite)) or _palette_versions(sprite)
        under: int | None
        if backdrop is not None:
            under = palette_index(backdrop)
        else:
            under = _flat_backdrop(target, box, canvas.size)
            if under is None:
                _paste_blended(canvas, sprite, box, versions.mask)
                return
        indices = versions.over.get(under) or _paletted_version(sprite, versions, under)
        target.paste(indices, box, versions.mask)
        return
    core = sprite.im
    target.paste(core, box, core)


# --------------------------------------------------------------------------- palette mode
#
# The table and the replay frames are composed straight on the shared palette: a frame
# is then one byte a pixel to fill and paste, and needs no mapping before the PNG (that
# mapping was a fifth of a replay frame). Every sprite is pasted over one flat colour
# (a panel, a badge, the caption band), so its palette version over that colour, cached,
# gives the very pixels that composing in RGB and mapping the result would give.

# The colours flat areas are filled with, in the order that wins when two of them fall on
# one palette entry: a sprite's soft edges are blended over the colour itself, as in RGB.
_BACKDROPS = (FELT, PANEL, PANEL_DARK, PANEL_EDGE, RED_BADGE, CREAM, GOLD, HIGHLIGHT)


@cache
def palette_index(color: tuple[int, ...]) -> int:
    """The shared palette's entry for ``color``: the one mapping an RGB image gives it."""
    pixel = Image.new("RGB", (1, 1), color[:3])
    return pixel.quantize(palette=shared_palette(), dither=Image.Dither.NONE).tobytes()[0]


@cache
def _backdrop_colors() -> dict[int, tuple[int, int, int]]:
    entries = shared_palette().getpalette("RGB") or []
    colors = {index: (entries[3 * index], entries[3 * index + 1], entries[3 * index + 2])
              for index in range(len(entries) // 3)}  # fmt: skip
    for color in reversed(_BACKDROPS):
        colors[palette_index(color)] = color
    return colors


class _PaletteVersions:
    """A sprite's mask (its pixels that are not fully transparent) and its palette
    versions over each backdrop entry, as core images ready to paste."""

    __slots__ = ("mask", "over")

    def __init__(self, sprite: Image.Image) -> None:
        alpha = sprite.getchannel("A")
        self.mask: Any = alpha.point(lambda value: 255 if value else 0).convert("1").im
        self.over: dict[int, Any] = {}


# id(sprite) -> its palette versions; an entry goes when its sprite does.
_PALETTED: dict[int, _PaletteVersions] = {}


def _forget_paletted(key: int) -> None:
    _PALETTED.pop(key, None)


def _palette_versions(sprite: Image.Image) -> _PaletteVersions:
    key = id(sprite)
    versions = _PALETTED.get(key)
    if versions is None:
        versions = _PALETTED[key] = _PaletteVersions(sprite)
        weakref.finalize(sprite, _forget_paletted, key)
    return versions


def _paletted_version(sprite: Image.Image, versions: _PaletteVersions, backdrop: int) -> Any:
    """``sprite`` blended over palette entry ``backdrop``'s colour and mapped onto the
    shared palette."""
    flat = Image.new("RGB", sprite.size, _backdrop_colors()[backdrop])
    flat.im.paste(sprite.im, (0, 0, *sprite.size), sprite.im)
    indices = flat.quantize(palette=shared_palette(), dither=Image.Dither.NONE).im
    versions.over[backdrop] = indices
    return indices


def _flat_backdrop(
    target: Any, box: tuple[int, int, int, int], size: tuple[int, int]
) -> int | None:
    """The palette entry under a sprite's box when its centre and four corners agree
    (a panel, the felt, the caption band), else ``None``: text running over a tile."""
    left, top = max(box[0], 0), max(box[1], 0)
    right, bottom = min(box[2], size[0]) - 1, min(box[3], size[1]) - 1
    if right < left or bottom < top:  # wholly off the canvas: nothing shows
        return None
    under: int = target.getpixel(((left + right) // 2, (top + bottom) // 2))
    for corner in ((left, top), (right, top), (left, bottom), (right, bottom)):
        if target.getpixel(corner) != under:
            return None
    return under


@cache
def _exact_palette() -> list[int]:
    """The shared palette with each backdrop entry set to the colour it stands for."""
    entries = list(shared_palette().getpalette("RGB") or [])
    for index, color in _backdrop_colors().items():
        entries[3 * index : 3 * index + 3] = color
    return entries


def _paste_blended(
    canvas: Image.Image, sprite: Image.Image, box: tuple[int, int, int, int], mask: Any
) -> None:
    """A sprite over several colours: blend it in RGB with the pixels under it (read
    back through the palette) and map the result; a few of a frame's pastes at most."""
    region = canvas.crop(box)
    region.putpalette(_exact_palette())
    blended = region.convert("RGB")
    blended.im.paste(sprite.im, (0, 0, *sprite.size), sprite.im)
    indices = blended.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    canvas.im.paste(indices.im, box, mask)


def palette_canvas(size: tuple[int, int], color: tuple[int, int, int]) -> Image.Image:
    """A blank palette canvas on the shared palette, filled with ``color``; draw on it
    with ``surface_draw`` and ``paste``, encode it with ``encode_png`` as it is."""
    canvas = Image.new("P", size, palette_index(color))
    canvas.putpalette(shared_palette().getpalette("RGB") or [])
    return canvas


class _PaletteDraw(ImageDraw.ImageDraw):
    """ImageDraw on a shared-palette canvas that takes RGB colours like an RGB one."""

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        if isinstance(ink, tuple):
            ink = palette_index(ink)
        if isinstance(fill, tuple):
            fill = palette_index(fill)
        return super()._getink(ink, fill)


def surface_draw(canvas: Image.Image) -> ImageDraw.ImageDraw:
    """``ImageDraw.Draw`` for an RGB canvas or a palette one (``palette_canvas``), so the
    same drawing code composes either."""
    return _PaletteDraw(canvas) if canvas.mode == "P" else ImageDraw.Draw(canvas)


def draw_text(
    canvas: Image.Image,
    text: str,
    x: float,
    y: float,
    size: int,
    color: Color = CREAM,
    *,
    anchor: str = "l",
    backdrop: Color | None = None,
) -> int:
    """Paste cached text with its left edge (``"l"``), centre (``"m"``) or right (``"r"``)
    at ``x`` and its line box starting at ``y``; returns the width. ``backdrop``: the
    colour the text is on, where the caller knows it (see ``paste``)."""
    sprite = text_sprite(text, size, color)
    if anchor == "m":
        x -= sprite.width / 2
    elif anchor == "r":
        x -= sprite.width
    paste(canvas, sprite, x, y, backdrop)
    return sprite.width


def seat_name(names: Sequence[str] | None, seat: int, locale: str) -> str:
    """The seat's name as drawn, or "座位 N" / "Seat N" where it would draw nothing (no
    name, or only spaces and invisible characters: a header of a bare wind badge)."""
    if names is not None and seat < len(names) and names[seat]:
        name = str(names[seat])
        if any(not char.isspace() and ord(char) not in INVISIBLE for char in name):
            return name
    return label("seat", locale, n=seat + 1)


def marker_for(kind: int, rules: type[Variant], wild: int | None, locale: str = "zh") -> str | None:
    """Which marker a tile carries: the wild kind (tagged with the rule set's name for
    its wild, in Traditional characters on a zh-TW image: 財神), or a White that may
    stand in for the wild where the rule set says so."""
    if wild is not None and kind == wild:
        return chinese(rules.wild_name_zh, locale) or None
    if rules.white_substitutes_wild and kind == WHITE and wild is not None and wild != WHITE:
        return WHITE_MARKER
    return None


def badge_width(text: str, size: int = 22) -> int:
    """How wide ``badge`` draws ``text``: a layout can leave room for it first."""
    return max(size + 10, text_width(text, size) + 14)


def ink_top(center: float, size: int) -> float:
    """The ``draw_text`` top that centres a line of ``size`` px text's ink on ``center``
    (the UI font's ink runs from about 0.3 to 1.28 of the size below the line's top)."""
    return center - 0.79 * size


def badge(
    draw: ImageDraw.ImageDraw,
    canvas: Image.Image,
    x: float,
    y: float,
    text: str,
    fill: Color,
    size: int = 22,
    color: Color = CREAM,
    *,
    width: int | None = None,
    height: int | None = None,
) -> int:
    """A rounded label (seat wind, dealer, whose turn); returns its width. The text's ink
    is centred in the pill: a fixed offset from the top puts it low at large sizes, and
    its soft lower edge outside a small pill. ``width`` and ``height`` let an image with
    roomier badges keep them."""
    width = width or badge_width(text, size)
    height = height or size + 12
    draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2, fill=fill)
    top = ink_top(y + height / 2, size)
    draw_text(canvas, text, x + width / 2, top, size, color, anchor="m", backdrop=fill)
    return width


def signed(value: int) -> str:
    """``+8``, ``-4``, ``0``; thousands grouped (``-123,456``) as the balances are."""
    return f"{value:+,}" if value else "0"


def net_color(value: int) -> Color:
    return PLUS if value > 0 else MINUS if value < 0 else CREAM


# --------------------------------------------------------------------------- melds


def meld_layout(
    meld: Meld, seat: int, num_seats: int, *, own: bool
) -> list[tuple[int | None, bool, bool]]:
    """The tiles of a meld as drawn: (kind or None for a back, sideways, is_white_stand_in).

    The claimed tile lies sideways at the side of the seat it came from: left player
    leftmost, opposite in the middle, right player rightmost. A concealed kong shows its
    two middle tiles face down to its owner and all four face down to everyone else
    (the public view does not know the kind).
    """
    if meld.concealed:
        if not meld.tiles or not own:
            return [(None, False, False)] * 4
        kind = meld.tiles[0]
        return [
            (kind, False, False),
            (None, False, False),
            (None, False, False),
            (kind, False, False),
        ]
    tiles: list[int] = sorted(meld.tiles)
    white_index = None
    if meld.white_as is not None and meld.white_as in tiles:
        white_index = tiles.index(meld.white_as)
    entries: list[tuple[int | None, bool, bool]] = [
        (WHITE if i == white_index else kind, False, i == white_index)
        for i, kind in enumerate(tiles)
    ]
    if meld.claimed is None or meld.from_seat is None:
        return entries
    claimed_index = next(
        # A chowed discarded White (白板代 rule sets) is the stand-in itself: it lies sideways.
        (i for i, (kind, _, _) in enumerate(entries) if kind == meld.claimed),
        0,
    )
    claimed = entries.pop(claimed_index)
    claimed = (claimed[0], True, claimed[2])
    relative = (meld.from_seat - seat) % num_seats
    if relative == num_seats - 1:  # left player (上家)
        position = 0
    elif relative == 1:  # right player (下家)
        position = len(entries)
    else:  # opposite
        position = len(entries) // 2
    entries.insert(position, claimed)
    return entries


def meld_width(entries: list[tuple[int | None, bool, bool]], width: int) -> int:
    height = tile_height(width)
    return sum(height if sideways else width for _, sideways, _ in entries)


def fit_meld_width(
    melds: list[list[tuple[int | None, bool, bool]]], room: float, preferred: int, gap: int
) -> int:
    """The largest tile width (down to 28) at which ``melds`` fit in ``room`` pixels."""
    for width in range(preferred, 28, -1):
        if sum(meld_width(entries, width) + gap for entries in melds) <= room:
            return width
    return 28


def draw_meld(
    canvas: Image.Image,
    entries: list[tuple[int | None, bool, bool]],
    x: float,
    bottom: float,
    width: int,
) -> float:
    """Draw a meld with its tiles standing on ``bottom``; returns the x after it (a wild
    in a meld is drawn plain, a White standing in for another tile is marked)."""
    height = tile_height(width)
    for kind, sideways, stand_in in entries:
        if kind is None:
            sprite = back_sprite(width)
        else:
            marker = WHITE_MARKER if stand_in else None
            sprite = tile_sprite(kind, width, marker, rotated=sideways)
        top = bottom - (width if sideways else height)
        paste(canvas, sprite, x, top)
        x += height if sideways else width
    return x
