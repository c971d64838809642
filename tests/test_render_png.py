"""The palette PNG writer (``render.png``): what it writes must decode, with Pillow, to
exactly the indices and colours it was given, whichever deflate backend wrote it."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from render import png
from render.layout import encode_png, shared_palette
from render.png import encode_palette_png


def _zlib_level_1(data: bytes) -> bytes:
    return zlib.compress(data, 1)


BACKENDS = [pytest.param(None, id="default"), pytest.param(_zlib_level_1, id="zlib")]


def _striped(width: int, height: int, colours: int) -> Image.Image:
    """A P image that uses every one of ``colours`` entries, in runs and single pixels."""
    image = Image.new("P", (width, height))
    image.putdata([((x // 3) * 7 + y * 13 + (x * y) % 5) % colours
                   for y in range(height) for x in range(width)])  # fmt: skip
    image.putpalette([(i * 37 + c * 91) % 256 for i in range(colours) for c in range(3)])
    return image


@pytest.mark.parametrize("deflate", BACKENDS)
@pytest.mark.parametrize(("width", "height", "colours"), [(1, 1, 1), (7, 3, 5), (301, 97, 256)])
def test_png_decodes_to_the_same_indices_and_palette(
    deflate: object, width: int, height: int, colours: int
) -> None:
    image = _striped(width, height, colours)
    data = encode_palette_png(image, deflate=deflate)  # type: ignore[arg-type]
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.format == "PNG" and decoded.mode == "P"
    assert decoded.size == (width, height)
    assert decoded.tobytes() == image.tobytes()
    assert decoded.getpalette() == image.getpalette()
    assert decoded.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_chunks_are_well_formed() -> None:
    """Every chunk's CRC and length are right (Pillow does not check IEND's), and the
    IDAT is one zlib stream of the rows, each with filter byte 0."""
    image = _striped(20, 4, 9)
    data = encode_palette_png(image)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, kinds, idat = 8, [], b""
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        payload = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + payload), kind
        kinds.append(kind)
        if kind == b"IDAT":
            idat += payload
        offset += 12 + length
    assert offset == len(data)
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    rows = zlib.decompress(idat)
    raw = image.tobytes()
    assert rows == b"".join(b"\x00" + raw[y * 20 : (y + 1) * 20] for y in range(4))


def test_only_palette_images_are_taken() -> None:
    with pytest.raises(ValueError, match="P image"):
        encode_palette_png(Image.new("RGB", (4, 4)))


def test_the_isal_backend_is_in_use() -> None:
    """``isal`` is a dependency (pyproject.toml): without it every image still encodes,
    through zlib, but a replay frame takes several milliseconds more."""
    assert png.DEFLATE_BACKEND == "isal"


def test_encode_png_maps_rgb_and_keeps_palette_images() -> None:
    rgb = Image.new("RGB", (50, 30), (22, 78, 58))
    rgb.paste((244, 239, 224), (10, 10, 30, 20))
    mapped = rgb.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    from_rgb = Image.open(io.BytesIO(encode_png(rgb)))
    from_palette = Image.open(io.BytesIO(encode_png(mapped)))
    assert from_rgb.tobytes() == from_palette.tobytes() == mapped.tobytes()


@pytest.mark.parametrize(("variant", "seats"), [("jiaxing", 4), ("taizhou", 4), ("jiaxing", 3),
                                                ("jiaxing", 2)])  # fmt: skip
def test_the_table_png_decodes_to_the_rgb_table_mapped(variant: str, seats: int) -> None:
    """The table is composed on the palette: its PNG shows the very pixels of the table
    composed in RGB and mapped onto the palette."""
    from render.samples import SAMPLE_NAMES, sample_public_view
    from render.table import compose_table, render_table

    view = sample_public_view(variant, seats)
    decoded = Image.open(io.BytesIO(render_table(view, names=SAMPLE_NAMES)))
    rgb = compose_table(view, names=SAMPLE_NAMES)
    reference = rgb.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    assert decoded.tobytes() == reference.tobytes()


def test_palette_versions_of_a_sprite_go_with_the_sprite() -> None:
    """Text sprites live in a bounded cache: the palette versions made for one must not
    outlive it, or every name ever drawn would stay in memory."""
    import gc

    from render import layout

    canvas = layout.palette_canvas((40, 30), layout.PANEL)
    sprite = Image.new("RGBA", (10, 8), (244, 239, 224, 128))
    layout.paste(canvas, sprite, 5, 5)
    key = id(sprite)
    assert set(layout._PALETTED[key].over) == {layout.palette_index(layout.PANEL)}
    # The half-transparent sprite was blended over the panel, exactly as in RGB.
    rgb = Image.new("RGB", (40, 30), layout.PANEL)
    layout.paste(rgb, sprite, 5, 5)
    mapped = rgb.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    assert canvas.tobytes() == mapped.tobytes()
    del sprite
    gc.collect()
    assert key not in layout._PALETTED


def test_text_over_a_tile_and_the_panel_is_blended_with_what_is_under_it() -> None:
    """A label that runs over tiles (a side seat's 包 line over a long open hand) has no
    one colour under it: its soft edges are blended with the tile and the panel as in
    RGB, not tinted with the panel's colour over the tile."""
    from render import layout
    from render.tiles import tile_sprite

    def compose(canvas: Image.Image) -> Image.Image:
        layout.paste(canvas, tile_sprite(0, 40), 4, 4)
        layout.paste(canvas, tile_sprite(9, 40), 44, 4)
        layout.draw_text(canvas, "Liable S 包", 30, 20, 18, layout.MINUS)
        return canvas

    fast = compose(layout.palette_canvas((160, 70), layout.PANEL)).convert("RGB")
    rgb = compose(Image.new("RGB", (160, 70), layout.PANEL))
    mapped = rgb.quantize(palette=shared_palette(), dither=Image.Dither.NONE).convert("RGB")

    def error(image: Image.Image) -> int:
        """How far ``image`` is from the true RGB composition, summed over the pixels."""
        return sum(abs(a - b) for a, b in zip(image.tobytes(), rgb.tobytes(), strict=True))

    # Read back through the palette, a tile's pixels are a shade off their RGB colours, so
    # a few fringe pixels land on a neighbouring entry; a panel-coloured halo over the
    # tiles would be several times as far off as mapping the RGB composition.
    assert error(fast) <= 1.15 * error(mapped)
