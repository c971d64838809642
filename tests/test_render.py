"""Tile sprites and the four images: distinct faces, correct layouts, sizes within Discord's
limits, determinism, and no way to draw what a viewer may not see."""

from __future__ import annotations

import hashlib
import inspect
import io
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine.tiles import parse_tile
from engine.types import CHOW, KONG, PUNG, HandResult, Meld, PlayerHand
from engine.variants import get_rules
from engine.views import DiscardView, PlayerView, PublicView
from render import render_hand, render_leaderboard, render_result, render_table
from render.layout import fit_meld_width as _fit_meld_width
from render.layout import meld_layout as _meld_layout
from render.layout import meld_width as _meld_width
from render.layout import signed
from render.samples import (
    SAMPLE_LEADERBOARD,
    SAMPLE_NAMES,
    sample_draw_result,
    sample_player_view,
    sample_public_view,
    sample_waiting_view,
    sample_win_result,
)
from render.table import _river_fit
from render.text import label, safe_text
from render.tiles import (
    GOLD,
    IVORY,
    IVORY_SHADE,
    MASTER_HEIGHT,
    MASTER_WIDTH,
    back_sprite,
    master_face,
    tile_height,
    tile_sprite,
)
from tests.drawn_text import assert_apart, record_calls, record_texts

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ONE_MB = 1024 * 1024


def _digest(image: Image.Image) -> str:
    return hashlib.sha256(image.tobytes()).hexdigest()


# --------------------------------------------------------------------------- tiles


@pytest.mark.parametrize("width", [20, 40, 66])
def test_every_face_renders_and_all_34_differ_from_each_other_and_the_back(width: int) -> None:
    digests = set()
    for kind in range(34):
        sprite = tile_sprite(kind, width)
        assert sprite.size == (width, tile_height(width))
        assert sprite.mode == "RGBA"
        digests.add(_digest(sprite))
    assert len(digests) == 34
    assert _digest(back_sprite(width)) not in digests


def _ink_components(kind: int) -> int:
    """Connected blobs of ink (anything not ivory) inside the face, at half resolution."""
    image = master_face(kind).resize(
        (MASTER_WIDTH // 2, MASTER_HEIGHT // 2), Image.Resampling.NEAREST
    )
    pixels = image.load()
    x0, y0, x1, y1 = 10, 10, MASTER_WIDTH // 2 - 10, (MASTER_HEIGHT - 42) // 2 - 10

    def ink(x: int, y: int) -> bool:
        r, g, b, a = pixels[x, y]
        if a < 200:
            return False
        for base, tolerance in ((IVORY, 90), (IVORY_SHADE, 40)):
            if sum(abs(c - d) for c, d in zip((r, g, b), base, strict=True)) < tolerance:
                return False
        return True

    seen: set[tuple[int, int]] = set()
    count = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            if (x, y) in seen or not ink(x, y):
                continue
            count += 1
            stack = [(x, y)]
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if x0 <= nx < x1 and y0 <= ny < y1 and (nx, ny) not in seen and ink(nx, ny):
                        seen.add((nx, ny))
                        stack.append((nx, ny))
    return count


@pytest.mark.parametrize("rank", range(2, 10))
def test_dots_show_rank_separate_dots(rank: int) -> None:
    # Each dot is a ring and a core separated by an ivory gap: two blobs per dot, and any
    # overlap between dots would merge blobs.
    assert _ink_components(9 + rank - 1) == 2 * rank


@pytest.mark.parametrize("rank", [2, 3, 4, 5, 6, 7, 9])
def test_bamboo_shows_rank_separate_sticks(rank: int) -> None:
    assert _ink_components(18 + rank - 1) == rank


def test_eight_bamboo_is_two_joined_rows_as_on_real_tiles() -> None:
    # The slanted middle sticks touch their neighbours: an M over a W.
    assert _ink_components(18 + 7) == 2


def _ink_box(image: Image.Image, colour: tuple[int, int, int], within: int = 12) -> Any:
    """The box of ``image``'s opaque pixels within ``within`` (per channel) of ``colour``."""
    rgb = image.convert("RGB")
    mask = Image.new("L", image.size, 0)
    pixels = getattr(rgb, "get_flattened_data", rgb.getdata)()  # Pillow 12+ renamed it
    mask.putdata(
        [255 if all(abs(c - t) <= within for c, t in zip(p, colour, strict=True)) else 0
         for p in pixels]
    )  # fmt: skip
    return mask.getbbox()


# 萬 tiles (their rank) and winds (E S W N) carry the Latin index; each with a marker too.
_INDEXED = [*range(9), *range(27, 31)]


@pytest.mark.parametrize("kind", _INDEXED)
@pytest.mark.parametrize("marker", [None, "百搭"])
def test_the_corner_index_is_a_fifth_of_the_tile_wide_and_clear_of_the_face(
    kind: int, marker: str | None
) -> None:
    """An English reader tells 萬 ranks and 東南西北 apart only by the Latin index: at
    34 px on the 288 px master it was 1.3 to 2.5 px on a phone. Its ink is now about a
    fifth of the tile's width tall, and the face's own glyph keeps clear of it."""
    from render.tiles import INDEX_COLOR, INK, RED

    face = master_face(kind, marker)
    index = _ink_box(face, INDEX_COLOR, within=6)
    assert index is not None, "no index drawn"
    left, top, right, bottom = index
    assert bottom - top >= 0.18 * MASTER_WIDTH, (bottom - top) / MASTER_WIDTH
    assert left < MASTER_WIDTH / 3 and bottom < MASTER_HEIGHT / 4  # the top-left corner
    # Nothing of the numeral, 萬 or the wind's glyph within a few pixels of the index.
    around = face.crop((left - 4, top - 4, right + 4, bottom + 4))
    assert _ink_box(around, INK, within=40) is None
    assert _ink_box(around, RED, within=40) is None


def test_the_corner_index_reads_on_a_river_tile_on_a_phone() -> None:
    """At 56 px (a river tile), the index is about 11 px tall: 4 px on a phone."""
    from render.tiles import INDEX_COLOR

    sprite = tile_sprite(parse_tile("7m"), 56)
    box = _ink_box(sprite, INDEX_COLOR, within=40)
    assert box is not None and box[3] - box[1] >= 9


def _colour_share(image: Image.Image, predicate) -> float:
    flattened = getattr(image, "get_flattened_data", image.getdata)  # Pillow 12+ renamed it
    pixels = [p for p in flattened() if p[3] > 200]
    return sum(1 for p in pixels if predicate(p)) / len(pixels)


def test_red_dragon_is_red_green_dragon_green_white_is_a_blank_frame() -> None:
    def is_red(p: tuple) -> bool:
        return p[0] > 150 and p[1] < 90 and p[2] < 90

    def is_green(p: tuple) -> bool:
        return p[1] > p[0] + 50 and p[1] > p[2] + 30

    red, green, white = master_face(33), master_face(32), master_face(31)
    assert _colour_share(red, is_red) > 0.05
    assert _colour_share(green, is_red) == 0
    assert _colour_share(white, is_red) == 0
    # Green 發's face ink is green; the back layer is green on every tile, so compare.
    assert _colour_share(green, is_green) > _colour_share(white, is_green) + 0.05


def test_wild_markers_add_a_gold_frame_and_differ_by_variant_tag() -> None:
    kind = parse_tile("5p")
    plain = tile_sprite(kind, 66)
    baida = tile_sprite(kind, 66, get_rules("jiaxing").wild_name_zh)  # 百搭
    caishen = tile_sprite(kind, 66, get_rules("taizhou").wild_name_zh)  # 财神
    white = tile_sprite(31, 66, "white")
    assert len({_digest(plain), _digest(baida), _digest(caishen)}) == 3
    assert _digest(white) != _digest(tile_sprite(31, 66))

    def near_gold(p: tuple) -> bool:
        return sum(abs(c - g) for c, g in zip(p[:3], GOLD, strict=True)) < 40

    assert _colour_share(baida, near_gold) > 0.1
    assert _colour_share(plain, near_gold) < 0.01


def test_rotated_and_dimmed_sprites() -> None:
    sprite = tile_sprite(0, 40, rotated=True)
    assert sprite.size == (tile_height(40), 40)
    assert _digest(tile_sprite(0, 40, dimmed=True)) != _digest(tile_sprite(0, 40))
    assert back_sprite(30, rotated=True).size == (tile_height(30), 30)


def test_bad_kind_or_marker_is_refused() -> None:
    with pytest.raises(ValueError):
        master_face(34)
    with pytest.raises(ValueError):
        master_face(0, "gold")


# --------------------------------------------------------------------------- images


def _all_images() -> dict[str, bytes]:
    images: dict[str, bytes] = {}
    for variant in ("jiaxing", "taizhou"):
        for locale in ("zh", "en"):
            key = f"{variant}-{locale}"
            images[f"hand-{key}"] = render_hand(
                sample_player_view(variant), names=SAMPLE_NAMES, locale=locale, highlight=[18]
            )
            images[f"waiting-{key}"] = render_hand(
                sample_waiting_view(variant), names=SAMPLE_NAMES, locale=locale
            )
            ended, _result, win_tile = sample_win_result(variant)
            images[f"win-{key}"] = render_result(
                ended, names=SAMPLE_NAMES, locale=locale, win_tile=win_tile
            )
            images[f"draw-{key}"] = render_result(
                sample_draw_result(variant)[0], names=SAMPLE_NAMES, locale=locale
            )
        seat_counts = (4,) if variant == "jiaxing" else (4, 3, 2)
        for seats in seat_counts:
            images[f"table-{variant}-{seats}"] = render_table(
                sample_public_view(variant, seats), names=SAMPLE_NAMES
            )
    images["leaderboard"] = render_leaderboard(SAMPLE_LEADERBOARD, subtitle="2026-W48")
    images["leaderboard-empty"] = render_leaderboard([], period="all_time", locale="en")
    return images


@pytest.fixture(scope="module")
def all_images() -> dict[str, bytes]:
    return _all_images()


def test_images_are_pngs_under_1_mb_and_within_discord_limits(all_images: dict[str, bytes]) -> None:
    for name, data in all_images.items():
        assert data.startswith(PNG_SIGNATURE), name
        assert len(data) < ONE_MB, (name, len(data))
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
        # Discord shows images up to a few thousand pixels; phones want ~1000 px wide.
        assert 600 <= width <= 1200, (name, image.size)
        assert 150 <= height <= 1600, (name, image.size)


def test_hand_is_about_a_phone_screen_wide_and_table_a_column_of_seat_bands(
    all_images: dict[str, bytes],
) -> None:
    with Image.open(io.BytesIO(all_images["hand-jiaxing-zh"])) as hand:
        assert 900 <= hand.width <= 1100
    heights = {}
    for seats in (4, 3, 2):
        with Image.open(io.BytesIO(all_images[f"table-taizhou-{seats}"])) as table:
            assert table.width == 1000
            heights[seats] = table.height
    # One band a seat under the header: fewer seats, a shorter image.
    assert heights[4] > heights[3] > heights[2]
    with Image.open(io.BytesIO(all_images["table-jiaxing-4"])) as table:
        assert table.size == (1000, heights[4])


def test_rendering_is_deterministic() -> None:
    view = sample_public_view("taizhou", 3)
    assert render_table(view) == render_table(view)
    hand = sample_player_view("jiaxing")
    assert render_hand(hand) == render_hand(hand)


def test_locale_and_names_change_the_image() -> None:
    view = sample_public_view("jiaxing")
    assert render_table(view, locale="zh") != render_table(view, locale="en")
    assert render_table(view) != render_table(view, names=SAMPLE_NAMES)


def test_renderers_take_views_only() -> None:
    player = sample_player_view("jiaxing")
    public = player.public
    assert inspect.signature(render_hand).parameters["view"].annotation in (
        PlayerView,
        "PlayerView",
    )
    assert inspect.signature(render_table).parameters["view"].annotation in (
        PublicView,
        "PublicView",
    )
    with pytest.raises(TypeError):
        render_hand(public)  # type: ignore[arg-type]
    # A private view can never be posted to the channel by mistake.
    with pytest.raises(TypeError):
        render_table(player)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        render_result(player)  # type: ignore[arg-type]


def _with_seat_melds(view: PublicView, seat: int, melds: tuple[Meld, ...]) -> PublicView:
    seats = list(view.seats)
    seats[seat] = replace(seats[seat], melds=melds)
    return replace(view, seats=tuple(seats))


def test_table_never_shows_a_concealed_kongs_kind_even_if_handed_one() -> None:
    view = sample_public_view("jiaxing")
    north = _with_seat_melds(view, 3, (Meld(KONG, (30,) * 4, concealed=True),))
    dots = _with_seat_melds(view, 3, (Meld(KONG, (13,) * 4, concealed=True),))
    hidden = _with_seat_melds(view, 3, (Meld(KONG, (), concealed=True),))
    assert render_table(north) == render_table(dots) == render_table(hidden)
    exposed = _with_seat_melds(view, 3, (Meld(KONG, (30,) * 4, from_seat=1, claimed=30),))
    assert render_table(exposed) != render_table(north)


def test_table_and_hand_images_do_not_depend_on_other_seats_hidden_tiles() -> None:
    round_module = pytest.importorskip("engine.round")
    game = round_module.Round("jiaxing", seed=11, seats=4)
    table_before = render_table(game.public_view())
    hand_before = render_hand(game.player_view(0))
    # Swap a hidden tile between seats 1 and 2: counts stay, contents change.
    one, two = game.hands[1], game.hands[2]
    a = next(k for k in range(34) if one[k] > 0 and two[k] == 0)
    b = next(k for k in range(34) if two[k] > 0 and one[k] == 0)
    one[a], one[b], two[b], two[a] = one[a] - 1, one[b] + 1, two[b] - 1, two[a] + 1
    assert render_table(game.public_view()) == table_before
    assert render_hand(game.player_view(0)) == hand_before
    # The hand image does show seat 0's own tiles (so the check above could fail).
    own = game.hands[0]
    c = next(k for k in range(34) if own[k] > 0 and own[k] < 4 and k != game.wild)
    d = next(k for k in range(34) if own[k] == 0 and k != game.wild and k != game.indicator)
    own[c], own[d] = own[c] - 1, own[d] + 1
    assert render_hand(game.player_view(0)) != hand_before


# --------------------------------------------------------------------------- layout


def test_claimed_tile_lies_sideways_on_the_side_it_came_from() -> None:
    pung = (33, 33, 33)
    for from_seat, position in ((3, 0), (2, 1), (1, 2)):  # left, opposite, right of seat 0
        entries = _meld_layout(Meld(PUNG, pung, from_seat=from_seat, claimed=33), 0, 4, own=True)
        sideways = [i for i, (_, turned, _) in enumerate(entries) if turned]
        assert sideways == [position]
    chow = Meld(CHOW, (2, 3, 4), from_seat=3, claimed=3)
    entries = _meld_layout(chow, 0, 4, own=False)
    assert entries[0] == (3, True, False)
    assert [kind for kind, _, _ in entries[1:]] == [2, 4]


def test_concealed_kong_is_face_down_in_the_middle_for_its_owner_and_hidden_for_others() -> None:
    kong = Meld(KONG, (26,) * 4, concealed=True)
    assert [kind for kind, _, _ in _meld_layout(kong, 0, 4, own=True)] == [26, None, None, 26]
    assert [kind for kind, _, _ in _meld_layout(kong, 0, 4, own=False)] == [None] * 4


def test_taizhou_white_stand_in_is_drawn_as_a_marked_white() -> None:
    chow = Meld(CHOW, (19, 20, 21), from_seat=3, claimed=19, white_as=20)
    entries = _meld_layout(chow, 0, 4, own=True)
    assert (31, False, True) in entries
    assert 20 not in [kind for kind, _, _ in entries]


def test_taizhou_a_chowed_discarded_white_lies_sideways_as_the_claimed_tile() -> None:
    # Wild 5p: the left player's discarded White was chowed as 5p beside 4p 6p (RULES §2).
    chow = Meld(CHOW, (12, 13, 14), from_seat=3, claimed=31, white_as=13)
    entries = _meld_layout(chow, 0, 4, own=True)
    assert entries[0] == (31, True, True)  # the left player's tile, leftmost and sideways
    assert [kind for kind, sideways, _ in entries if not sideways] == [12, 14]


def test_rivers_run_in_rows_of_about_a_dozen_large_tiles_and_shrink_only_when_very_long() -> None:
    """A river is one row of large tiles while short, then rows of 14 tiles at least
    56 px wide (20 CSS px on a phone) for a whole four-seat hand (about 20 discards);
    only a river longer than two rows (a two-seat wall) makes the tiles smaller."""
    short_w, short_row, short_rows = _river_fit(8, 4)
    assert short_rows == 1 and short_w >= 64 and short_row * short_w <= 1000
    for count in (14, 20, 24, 28):
        width, per_row, rows = _river_fit(count, 4)
        assert width >= 56 and 12 <= per_row <= 14 and rows == math.ceil(count / per_row)
        assert rows * tile_height(width) <= 2 * tile_height(56) + 4
    # Fewer seats give each river more rows before its tiles shrink.
    assert _river_fit(36, 3)[0] >= 56 and _river_fit(50, 2)[0] >= 56
    width, per_row, rows = _river_fit(80, 2)
    assert width < 56 and per_row > 14 and per_row * width <= 1000 - 2 * 18
    view = sample_public_view("taizhou", 2)
    long_river = tuple(DiscardView(k % 34) for k in range(46))
    seats = (replace(view.seats[0], discards=long_river), view.seats[1])
    data = render_table(replace(view, seats=seats, last_discard=(0, long_river[-1].tile)))
    with Image.open(io.BytesIO(data)) as image:
        assert image.width == 1000


def test_names_with_unknown_characters_and_long_names_still_render() -> None:
    assert safe_text("Lucky🍀Cat") == "Lucky🍀Cat"
    assert safe_text("a\ue000\U00013000b") == "a??b"  # no bundled font has these
    names = ("🀄" * 3 + "\ue000", "x" * 200, "", "王")
    data = render_table(sample_public_view("jiaxing"), names=names)
    assert data.startswith(PNG_SIGNATURE)


def test_invalid_result_and_leaderboard_rows_as_objects() -> None:
    view = sample_public_view("jiaxing")
    invalid = HandResult(
        variant="jiaxing", valid=False, winner=None, seats=4, deltas=[0] * 4, reason="discard_win"
    )
    assert render_result(view, invalid).startswith(PNG_SIGNATURE)

    class Row:
        def __init__(self, rank: int, name: str, net: int, hands: int, wins: int) -> None:
            self.rank, self.name, self.net, self.hands, self.wins = rank, name, net, hands, wins

    rows = [Row(*row) for row in SAMPLE_LEADERBOARD]
    assert render_leaderboard(rows) == render_leaderboard(SAMPLE_LEADERBOARD)


def test_result_without_a_result_is_an_error() -> None:
    with pytest.raises(ValueError):
        render_result(sample_public_view("jiaxing"))


def test_concurrent_renders_from_threads_match_a_serial_render() -> None:
    # The bot renders with asyncio.to_thread; cache misses in parallel must not corrupt.
    from concurrent.futures import ThreadPoolExecutor

    from render import tiles as tiles_module

    tiles_module.clear_cache()
    views = [sample_public_view("taizhou", seats) for seats in (4, 3, 2)] * 3
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(render_table, views))
    assert parallel == [render_table(view) for view in views]


def test_four_kongs_waits_and_offers_fit_in_the_hand_and_result_images() -> None:
    melds = (
        Meld(KONG, (0,) * 4, from_seat=1, claimed=0),
        Meld(KONG, (27,) * 4, from_seat=2, claimed=27, added=True),
        Meld(KONG, (26,) * 4, concealed=True),
        Meld(KONG, (33,) * 4, from_seat=3, claimed=33),
    )
    entries = [_meld_layout(meld, 0, 4, own=True) for meld in melds]
    width = _fit_meld_width(entries, 600, 50, 16)
    assert width < 50
    assert sum(_meld_width(e, width) + 16 for e in entries) <= 600
    view = replace(
        sample_player_view("taizhou"),
        concealed=(12,),
        drawn=None,
        legal=(),
        melds=melds,
        waits=(12, 20, 31),
        claim_tile=12,
        skipped_win=(5,),
    )
    with Image.open(io.BytesIO(render_hand(view))) as image:
        assert image.width == 1000
    ended, result, _ = sample_win_result("taizhou")
    result = replace(result, hand=PlayerHand(concealed=(12, 12), melds=melds))
    assert render_result(ended, result, win_tile=12).startswith(PNG_SIGNATURE)


def test_warm_up_fills_the_sprite_cache() -> None:
    from render import tiles as tiles_module
    from render import warm_up

    tiles_module.clear_cache()
    warm_up()
    assert tiles_module.master_face.cache_info().currsize == 34 * len(tiles_module.MARKERS)


def test_warm_up_draws_a_late_tables_smaller_river_tiles() -> None:
    """A four-seat hand's late rivers shrink to RIVER_MIN tiles, which the first late
    table of a process drew cold (about 380 ms against 25 warm)."""
    from render import tiles as tiles_module
    from render import warm_up
    from render.layout import encode_png
    from render.samples import sample_late_public_view
    from render.table import compose_table

    view = sample_late_public_view()
    tiles_module.clear_cache()
    warm_up()
    drawn = tiles_module.tile_sprite.cache_info().misses
    encode_png(compose_table(view, palette=True))
    assert tiles_module.tile_sprite.cache_info().misses == drawn


def test_render_names_no_rule_set_and_reads_the_registry_instead() -> None:
    """Render branches on a rule set's flags and names, never on its registry key."""
    for module in sorted((Path(__file__).resolve().parent.parent / "render").glob("*.py")):
        source = module.read_text(encoding="utf-8").lower()
        assert "jiaxing" not in source and "taizhou" not in source, module.name


def test_a_new_rule_set_renders_from_its_flags_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from typing import ClassVar

    from engine import variants
    from engine.variants import Variant
    from render import table as table_module

    class SouthRound(Variant):
        name: ClassVar[str] = "south_round"
        name_zh: ClassVar[str] = "南风麻将"
        name_en: ClassVar[str] = "South Round"
        wild_name_zh: ClassVar[str] = "百搭"
        wild_name_en: ClassVar[str] = "Joker"
        has_prevailing_wind: ClassVar[bool] = True
        has_carried_fan: ClassVar[bool] = False

    monkeypatch.setitem(variants.RULE_SETS, "south_round", SouthRound)
    drawn: list[str] = []
    original = table_module.draw_text

    def record(canvas: Any, text: str, *args: Any, **kwargs: Any) -> int:
        drawn.append(text)
        return original(canvas, text, *args, **kwargs)

    monkeypatch.setattr(table_module, "draw_text", record)
    view = sample_public_view("south_round")
    assert render_table(view, locale="en").startswith(PNG_SIGNATURE)
    assert "South Round" in drawn and "Joker" in drawn
    assert any("Round wind S" in text for text in drawn)  # has_prevailing_wind
    assert "Fan pool" not in drawn  # no carried pool
    assert render_hand(sample_player_view("south_round")).startswith(PNG_SIGNATURE)


@pytest.mark.parametrize("variant", ["taizhou", "jiaxing"])
@pytest.mark.parametrize("locale", ["en", "zh"])
def test_the_result_card_never_draws_one_text_over_another(
    monkeypatch: pytest.MonkeyPatch, variant: str, locale: str
) -> None:
    """Long names are cut where the card's columns meet: the title's winner before the
    rule set and hand number, the discarder under it, each seat's name before its own
    score and net, a payment's other seat before its reason and amount (one line for
    each payment a seat made or received: none is dropped), two score items on a row."""
    from render import result as result_module

    drawn = record_texts(monkeypatch, result_module)
    ended, result, win_tile = sample_win_result(variant)
    discard = replace(result, win_by="discard", from_seat=2)
    names = ["W" * 32, "M" * 32, "老" * 32, "Ｗ" * 32]
    result_module.render_result(ended, discard, names=names, locale=locale, win_tile=win_tile)
    assert_apart(drawn)
    words = ("付 ", "收 ") if locale == "zh" else ("to ", "from ")
    payments = [text.text for text in drawn if text.text.startswith(words)]
    lines = sum(
        len(result_module.seat_payments(discard, seat, locale, fold=seat == discard.winner))
        for seat in range(len(discard.deltas))
    )
    assert payments and len(payments) == lines
    assert all(text.count("…") <= 1 for text in payments)
    names_drawn = [text.text for text in drawn if "W" * 8 in text.text or "老" * 4 in text.text]
    assert any(text.startswith("← ") for text in names_drawn)  # the discarder is there


def test_a_payment_that_is_a_multiple_of_the_score_says_so() -> None:
    """RULES.md §1: a robbed kong's maker pays 3×, three-claim liability 5× (or 2×)."""
    from engine.scoring.names import payment_multiple
    from engine.types import Payment

    _ended, result, _tile = sample_win_result("jiaxing")
    score = result.score
    assert score > 0
    assert payment_multiple(Payment(1, 0, 5 * score, "santan"), result) == 5
    assert payment_multiple(Payment(1, 0, 3 * score, "rob_kong"), result) == 3
    assert payment_multiple(Payment(1, 0, score, "win"), result) is None
    assert payment_multiple(Payment(1, 0, score, "santan"), result) is None  # 1×: nothing to say


def test_a_seven_digit_net_takes_room_from_the_name_on_the_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nets are grouped by thousands (-1,234,567, as balances are) and the name is cut
    short of them: a 32-letter name ran into a seven-digit net."""
    from render import leaderboard as board

    drawn = record_texts(monkeypatch, board)
    rows = [(1, "W" * 32, 1_234_567, 10, 1), (2, "老" * 32, -1_234_567, 10, 0)]
    render_leaderboard(rows, locale="en")
    nets = [text for text in drawn if text.text in ("+1,234,567", "-1,234,567")]
    assert len(nets) == 2
    for net in nets:
        names = [text for text in drawn if text.y == net.y and text.text.endswith("…")]
        assert names and all(name.right <= net.left for name in names)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_seat_header_never_draws_one_text_over_another(
    monkeypatch: pytest.MonkeyPatch, seats: int
) -> None:
    """A seat's header line holds its name, its score, its state and (三摊) whom it is
    liable with: on a wide panel the liable text sat in the middle over a long name, on
    a side panel with a big score the name had no room left and overlapped it."""
    from render import table as table_module

    drawn = record_texts(monkeypatch, table_module)
    public = sample_public_view("taizhou" if seats < 4 else "jiaxing", seats)
    partners = [(1,), (0,), (), ()]
    views = tuple(
        replace(s, liable_with=partners[s.seat], score=-123_456 if s.seat % 2 else 98_765)
        for s in public.seats
    )
    names = ["W" * 32, "老" * 32, "M" * 32, "Ｗ" * 32][:seats]
    render_table(replace(public, seats=views), names=names, locale="en")
    assert_apart(drawn, line_height=10)
    assert any(text.text.startswith("Liable") for text in drawn)


# --------------------------------------------------------------------------- on a phone


def _record_sizes(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[tuple[str, int]]:
    """Every (text, size) ``module`` draws from now on."""
    drawn: list[tuple[str, int]] = []
    original = module.draw_text

    def recording(canvas: Any, text: str, x: float, y: float, size: int, *args: Any,
                  **kwargs: Any) -> int:  # fmt: skip
        drawn.append((text, size))
        return int(original(canvas, text, x, y, size, *args, **kwargs))

    monkeypatch.setattr(module, "draw_text", recording)
    return drawn


def _golden_result(file: str, name: str) -> tuple[PublicView, HandResult]:
    """A golden case scored and set on an ended view, as the calculator's card is."""
    import json

    from engine.scoring import score_hand
    from engine.scoring.case import parse_case
    from engine.views import SeatView

    cases = json.loads((Path(__file__).parent / "golden" / file).read_text(encoding="utf-8"))
    context = parse_case(next(case for case in cases if case["name"] == name))
    result = score_hand(context)
    result.hand = context.players[context.winner]
    result.win_tile = context.win.tile
    seats = tuple(
        SeatView(seat=seat, seat_wind=27 + (seat - context.dealer) % context.seats,
                 is_dealer=seat == context.dealer, concealed_count=len(hand.concealed),
                 melds=hand.melds, discards=())
        for seat, hand in enumerate(context.players)
    )  # fmt: skip
    view = replace(
        sample_public_view(context.variant),
        num_seats=context.seats, dealer=context.dealer, indicator=context.indicator,
        wild=context.wild, seats=seats, phase="ended", current_seat=None, result=result,
    )  # fmt: skip
    return view, result


# Capped (腊子) with 互算 on a discard; liability (全包) with 互算; Jiaxing's 三摊 ×5.
GOLDEN_CARDS = (
    ("audit2_taizhou.json", "tz2-limit-nondealer-winner"),
    ("audit2_taizhou.json", "tz2-liab1-kong-limit-settlement"),
    ("taizhou.json", "tz-full-flush-liability"),
    ("audit2_jiaxing.json", "jx2-a37-santan-5x-winner-liable"),
)


@pytest.mark.parametrize("locale", ["zh", "en", "zh-TW"])
def test_the_result_card_reads_on_a_phone(monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    """phone_images.md item 5: a phone shows the card at 36 %, so nothing is drawn under
    28 px (10 CSS px), score items at 30 or more, a seat's payment lines (whom, why,
    how much: "收 西 北", "三摊 ×5", "互算", whose reasons were 28 px, their ink 7 to 10
    CSS px) at 32, the title, nets and total at 40 or more, and the winning hand's
    tiles (and melds) at least 70 px wide."""
    from render import result as result_module

    sizes = _record_sizes(monkeypatch, result_module)
    tiles = record_calls(monkeypatch, result_module, "tile_sprite", 1)
    melds = record_calls(monkeypatch, result_module, "draw_meld", 4)
    cards = [sample_win_result(variant)[:2] for variant in ("jiaxing", "taizhou")]
    cards += [_golden_result(file, name) for file, name in GOLDEN_CARDS]
    for view, result in cards:
        sizes.clear()
        result_module.render_result(view, result, names=SAMPLE_NAMES, locale=locale)
        drawn: dict[str, int] = {}
        for text, size in sizes:  # a net and a payment can be the same number
            drawn[text] = max(size, drawn.get(text, 0))
        assert min(size for _text, size in sizes) >= 28
        for item in result.items:
            name = result_module.item_name(item, locale)
            assert drawn[name] >= 30 and drawn[result_module.item_value(item, locale)] >= 30
        total = result_module.chinese(
            get_rules(result.variant).format_total(result, "en" if locale == "en" else "zh"),
            locale,
        )
        assert drawn[total] >= 40
        for delta in result.deltas:
            assert drawn[signed(delta)] >= 40
        lines = [text for text, size in sizes if text.startswith(("付 ", "收 ", "to ", "from "))]
        assert lines and all(drawn[line] >= 32 for line in lines)
        entries = [
            entry
            for seat in range(len(result.deltas))
            for entry in result_module.seat_payments(result, seat, locale, fold=True)
        ]
        assert entries and all(drawn[entry.reason] >= 32 for entry in entries)
        assert all(drawn[entry.amount_text] >= 32 for entry in entries)
    assert tiles and min(tiles) >= 70 and melds and min(melds) >= 70
    for variant in ("jiaxing", "taizhou"):
        sizes.clear()
        result_module.render_result(sample_draw_result(variant)[0], locale=locale)
        drawn = dict(sizes)  # a draw: short, but readable
        assert min(drawn.values()) >= 28 and drawn[label("draw_note", locale)] >= 32
        assert drawn[label("draw_title", locale)] >= 42 and drawn["0"] >= 40


@pytest.mark.parametrize(("file", "name"), GOLDEN_CARDS)
def test_each_seats_payments_add_up_to_its_net(file: str, name: str) -> None:
    """Payments are folded into the seats' rows: each payment is under its payer and its
    payee (the winner's equal receipts on one "×3" line), so a row's amounts add up to
    the net drawn above them, and no payment is left out."""
    from render.result import seat_payments

    _view, result = _golden_result(file, name)
    assert result.payments
    for seat, delta in enumerate(result.deltas):
        entries = seat_payments(result, seat, "zh", fold=seat == result.winner)
        assert sum(entry.amount * len(entry.others) for entry in entries) == delta
        made = [p for p in result.payments if seat in (p.payer, p.payee)]
        assert sum(len(entry.others) for entry in entries) == len(made)
    winner_lines = seat_payments(result, result.winner or 0, "zh", fold=True)
    assert len(winner_lines) <= len({(p.amount, p.reason) for p in result.payments})


def test_the_limit_and_the_settlement_are_on_the_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """A capped Taizhou hand says 腊子 in its items, its total ("→ 100（腊子）") and its
    payments, and the non-winners' 互算 with each seat's own score (得分)."""
    from render import result as result_module

    drawn = record_texts(monkeypatch, result_module)
    view, result = _golden_result("audit2_taizhou.json", "tz2-limit-nondealer-winner")
    result_module.render_result(view, result, names=SAMPLE_NAMES)
    texts = [text.text for text in drawn]
    assert "腊子" in texts and "100胡" in texts and "互算" in texts
    assert any(text.endswith("→ 100（腊子）") for text in texts)
    assert result.totals is not None
    assert all(f"得分 {value}" in texts for value in result.totals)


def test_the_board_and_the_stats_card_read_on_a_phone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone shows the 900 px board and stats card at 40 %: their data (ranks, names,
    nets, counts, figures) at 30 px or more, headers, labels and the chart's axis at 26."""
    from bot.commands.render_demo import sample_player_stats
    from render import leaderboard as board_module
    from render import stats as stats_module

    board = _record_sizes(monkeypatch, board_module)
    board_module.render_leaderboard(SAMPLE_LEADERBOARD, subtitle="2026-W48", locale="en")
    assert min(size for _text, size in board) >= 26
    for rank, name, net, hands, wins in SAMPLE_LEADERBOARD:
        drawn = dict(board)
        assert drawn[str(rank)] >= 30 and drawn[signed(net)] >= 30 and drawn[name] >= 30
        assert drawn[str(hands)] >= 30 and drawn[str(wins)] >= 30
    card = _record_sizes(monkeypatch, stats_module)
    stats = sample_player_stats()
    stats_module.render_stats(stats, name="小明 Ming", subtitle="全部", locale="zh")
    assert min(size for _text, size in card) >= 26
    drawn = dict(card)
    assert all(drawn[value] >= 30 for value in stats_module.card_figures(stats).values())
    low, high = min(v for _d, v in stats.trend), max(v for _d, v in stats.trend)
    assert drawn[str(low)] >= 26 and drawn[str(high)] >= 26  # the axis
    assert drawn[stats.trend[0][0].isoformat()] >= 26  # and its first day


def test_a_lone_score_item_keeps_its_value_at_the_cards_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two items a row where they fit, but a lone item (a plain 胡家奖励 win) is one
    column: its value at the card's right edge, not halfway across beside nothing."""
    from render import result as result_module

    drawn = record_texts(monkeypatch, result_module)
    ended, result, win_tile = sample_win_result("taizhou")
    for count, edges in ((1, 1), (2, 2)):
        drawn.clear()
        shown = replace(result, items=result.items[:count])
        result_module.render_result(ended, shown, win_tile=win_tile)
        values = {result_module.item_value(item, "zh") for item in shown.items}
        rights = {round(text.right) for text in drawn if text.text in values}
        assert len(rights) == edges and max(rights) == 1000 - result_module.MARGIN


def test_the_result_board_and_stats_card_are_composed_on_the_shared_palette() -> None:
    """As the table is: the phone-first cards are taller (a result card about 1,300 px),
    and composing them in palette mode skips mapping an RGB canvas onto the palette
    before the PNG, which made the taller card cheaper than the old one."""
    from bot.commands.render_demo import sample_player_stats
    from render.leaderboard import compose_leaderboard
    from render.result import compose_result
    from render.stats import compose_stats

    ended, result, win_tile = sample_win_result("taizhou")
    images = [
        compose_result(ended, result, names=SAMPLE_NAMES, win_tile=win_tile),
        compose_result(sample_draw_result("jiaxing")[0]),
        compose_leaderboard(SAMPLE_LEADERBOARD),
        compose_stats(sample_player_stats(), name="小明 Ming", subtitle="全部"),
    ]
    assert all(image.mode == "P" for image in images)


def test_a_winning_tile_alone_on_its_row_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A closed hand's 14 tiles do not fit one row at phone size (72 px): the winning tile
    goes to the next row, named beside it ("胡 一萬"), not left there unexplained; a hand
    whose melds share that row needs no caption."""
    from render import result as result_module

    drawn = record_texts(monkeypatch, result_module)
    view, result = _golden_result("audit2_jiaxing.json", "jx2-a37-santan-5x-winner-liable")
    assert result.hand is not None and len(result.hand.concealed) == 14
    result_module.render_result(view, result, locale="zh-TW")
    assert "胡 一萬" in [text.text for text in drawn]
    drawn.clear()
    ended, won, win_tile = sample_win_result("taizhou")
    result_module.render_result(ended, won, win_tile=win_tile, locale="en")
    assert not any(text.text.startswith("winning tile") for text in drawn)


@pytest.mark.parametrize(
    ("text", "size", "height"),
    [("东", 30, None), ("自摸", 22, None), ("庄", 28, 42), ("Turn", 30, None)],
)
def test_a_badge_centres_its_text_in_the_pill(text: str, size: int, height: int | None) -> None:
    """Every pill label (seat wind, dealer, whose turn, the win's kind) has its text's ink
    in the middle of the pill: set a fixed 3 px below the top, it sat 3-6 px low and its
    lower edge touched a small pill's rim (the hand and table images each kept a local
    copy that centred it; now the one ``layout.badge`` does)."""
    from PIL import ImageDraw

    from render.layout import badge

    canvas = Image.new("RGB", (200, 80), (0, 0, 0))
    top = 10
    badge(
        ImageDraw.Draw(canvas),
        canvas,
        10,
        top,
        text,
        (200, 0, 0),
        size,
        (255, 255, 255),
        height=height,
    )
    pill_height = height or size + 12
    ink_rows = [
        y
        for y in range(canvas.height)
        if any(min(canvas.getpixel((x, y))[1:]) > 128 for x in range(canvas.width))  # type: ignore[index]
    ]
    ink_centre = (ink_rows[0] + ink_rows[-1]) / 2
    assert abs(ink_centre - (top + pill_height / 2)) <= 1.5, (ink_rows[0], ink_rows[-1])


# --------------------------------------------------------------------------- at a table


def _is_net(text: Any, result_module: Any) -> bool:
    """A seat's net: net-sized, at the card's right edge (the title is at its left)."""
    edge = 1000 - result_module.MARGIN
    return bool(text.size == result_module.NET_SIZE and abs(text.right - edge) <= 1)


def _capped_points(result: HandResult, stake: int, cap: int) -> Any:
    from data.caps import apply_caps
    from render.result import TablePoints

    moved = apply_caps([delta * stake for delta in result.deltas], [cap] * len(result.deltas))
    return TablePoints(tuple(moved), stake)


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_at_a_table_the_card_shows_the_points_the_ledger_moved(
    monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    """At stake 2 the text said "bob -92" and the card "-46" (units, no stake said): a
    table's card shows each seat's points as the ledger moved them under the text's own
    words ("积分变化（底注 2）"), each payment × the stake, so its lines still add up to
    the net; where a cap cut the points, a line says by how much ("封顶 原 -92 +42"). The
    alt text says the same numbers."""
    from render import result as result_module
    from render.alt_text import describe_result
    from render.result import TablePoints

    drawn = record_texts(monkeypatch, result_module)
    view, result = _golden_result("audit2_taizhou.json", "tz2-limit-nondealer-winner")
    stake = 2
    doubled = TablePoints(tuple(delta * stake for delta in result.deltas), stake)
    capped = _capped_points(result, stake, cap=50)
    assert capped.points != doubled.points  # the cap cut this hand
    for points in (doubled, capped):
        drawn.clear()
        result_module.render_result(view, result, names=SAMPLE_NAMES, locale=locale, points=points)
        texts = [text.text for text in drawn]
        caption = "积分变化（底注 2）" if locale == "zh" else "Points (stake 2)"
        assert caption in texts
        nets = [text.text for text in drawn if _is_net(text, result_module)]
        assert nets == [signed(value) for value in points.points]
        for seat, value in enumerate(points.points):
            entries = result_module.seat_payments(
                result, seat, locale, fold=seat == result.winner, points=points
            )
            assert sum(entry.amount * max(1, len(entry.others)) for entry in entries) == value
            assert all(entry.amount_text in texts for entry in entries)
            was = result.deltas[seat] * stake
            cap_lines = [entry for entry in entries if entry.capped]
            assert len(cap_lines) == (value != was)
            if value != was:
                assert cap_lines[0].amount == value - was and signed(was) in cap_lines[0].reason
        described = describe_result(view, result, SAMPLE_NAMES, locale, points)
        assert caption in described
        assert all(f"{SAMPLE_NAMES[seat]} {value:+d}" in described
                   for seat, value in enumerate(points.points))  # fmt: skip
    # Without a table's points (the calculator, a replay) the card stays in units.
    drawn.clear()
    result_module.render_result(view, result, names=SAMPLE_NAMES, locale=locale)
    nets = [text.text for text in drawn if _is_net(text, result_module)]
    assert nets == [signed(delta) for delta in result.deltas]
    assert not any("底注" in text.text or "stake" in text.text for text in drawn)


@pytest.mark.parametrize(("locale", "tag"), [("zh", "不跟"), ("en", "Folded")])
def test_a_seat_that_folded_its_three_claim_says_so_on_the_card(
    monkeypatch: pytest.MonkeyPatch, locale: str, tag: str
) -> None:
    """Jiaxing 三摊 (RULES.md §1): a seat that chose not to go on pays nothing, and the
    card showed it as a bare "南 AI 2 0"; it says 不跟 / Folded there, as the table and
    the hand strips do, and the alt text too."""
    from render import result as result_module
    from render.alt_text import describe_result

    drawn = record_texts(monkeypatch, result_module)
    # Seats 1 and 2 liable to each other, seat 3 folded: it pays nothing.
    view, result = _golden_result("audit2_jiaxing.json", "jx2-a38-santan-5x-continuing-folded")
    folder = 3
    assert result.deltas[folder] == 0
    seats = tuple(replace(s, folded=s.seat == folder) for s in view.seats)
    folded = replace(view, seats=seats)
    result_module.render_result(folded, result, names=SAMPLE_NAMES, locale=locale)
    tags = [text for text in drawn if text.text == tag]
    name = next(text for text in drawn if text.text.endswith(SAMPLE_NAMES[folder]))
    assert len(tags) == 1 and abs(tags[0].y - name.y) < 12  # on the folded seat's line
    assert_apart(drawn)
    assert tag in describe_result(folded, result, SAMPLE_NAMES, locale)
    drawn.clear()
    result_module.render_result(view, result, names=SAMPLE_NAMES, locale=locale)
    assert not any(text.text == tag for text in drawn)


def test_an_english_card_names_each_payer_in_full_beside_its_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """互算's English name was "settlement between non-winners", repeated on every such
    line, and at phone size it cut the names beside it ("to N Bob the…"): it is shorter
    now, still saying who settles."""
    from engine.scoring.names import PAYMENT_REASONS
    from render import result as result_module

    assert PAYMENT_REASONS["settlement"] == ("互算", "between non-winners")
    drawn = record_texts(monkeypatch, result_module)
    view, result = _golden_result("audit2_taizhou.json", "tz2-limit-nondealer-winner")
    result_module.render_result(view, result, names=SAMPLE_NAMES, locale="en")
    lines = [text.text for text in drawn if text.text.startswith(("to ", "from "))]
    assert any(text.text == "between non-winners" for text in drawn)
    assert lines and not any(line.endswith("…") for line in lines)
