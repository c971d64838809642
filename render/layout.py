"""What every image shares: colours, the PNG encoder and its palette, cached text and
badges, tile markers and melds drawn as tiles.

The images themselves live one per module (``render.hand``, ``render.table``,
``render.result``, ``render.leaderboard``). Composing is pasting cached sprites
(``render.tiles``) and cached text (``render.text``); the PNG is mapped onto one shared
palette and saved with light compression, which keeps a warm hand image in a few
milliseconds and every image far below Discord's upload limits.

Nothing here knows a rule set by name: what differs between rule sets (the wild's tag,
whether a White stands in for it) is read from ``engine.variants.get_rules``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from engine.tiles import WHITE
from engine.types import Meld
from engine.variants import Variant

from .text import Color, label, text_sprite, text_width
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

    Mapping onto one shared palette (``shared_palette``) takes about a millisecond for
    a whole table, where building a palette per image (FASTOCTREE) takes several; every
    image is made of the same sprites, backgrounds and text colours, so one palette fits.
    """
    quantized = image.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    quantized.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


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


def paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste a cached RGBA sprite through its own alpha onto an RGB(A) canvas.

    Straight to the core image: ``Image.paste``'s argument checks cost as much as the
    copy for a tile-sized sprite, and a table pastes over a hundred of them (a replay
    export, a hundred tables). Both images are always loaded (new or cached sprites)."""
    left, top = int(x), int(y)
    core = sprite.im
    canvas.im.paste(core, (left, top, left + sprite.width, top + sprite.height), core)


def draw_text(
    canvas: Image.Image,
    text: str,
    x: float,
    y: float,
    size: int,
    color: Color = CREAM,
    *,
    anchor: str = "l",
) -> int:
    """Paste cached text with its left edge (``"l"``), centre (``"m"``) or right (``"r"``)
    at ``x`` and its line box starting at ``y``; returns the width."""
    sprite = text_sprite(text, size, color)
    if anchor == "m":
        x -= sprite.width / 2
    elif anchor == "r":
        x -= sprite.width
    paste(canvas, sprite, x, y)
    return sprite.width


def seat_name(names: Sequence[str] | None, seat: int, locale: str) -> str:
    if names is not None and seat < len(names) and names[seat]:
        return str(names[seat])
    return label("seat", locale, n=seat + 1)


def marker_for(kind: int, rules: type[Variant], wild: int | None) -> str | None:
    """Which marker a tile carries: the wild kind (tagged with the rule set's name for
    its wild), or a White that may stand in for the wild where the rule set says so."""
    if wild is not None and kind == wild:
        return rules.wild_name_zh or None
    if rules.white_substitutes_wild and kind == WHITE and wild is not None and wild != WHITE:
        return WHITE_MARKER
    return None


def badge(
    draw: ImageDraw.ImageDraw,
    canvas: Image.Image,
    x: float,
    y: float,
    text: str,
    fill: Color,
    size: int = 22,
    color: Color = CREAM,
) -> int:
    """A rounded label (seat wind, dealer); returns its width."""
    width = max(size + 10, text_width(text, size) + 14)
    height = size + 12
    draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2, fill=fill)
    draw_text(canvas, text, x + width / 2, y + 3, size, color, anchor="m")
    return width


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


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
