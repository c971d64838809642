"""The public table drawn for a phone (docs/phone_images.md, items 2 and 4): a header
band, then one full-width band per seat from East in play order, each with its hidden
tiles as a number, its melds and its river in rows of large tiles; every text at 28
source px or more (10 CSS px on a 360 px wide phone), what matters at 33 to 44."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from engine.views import DiscardView, PublicView
from render import table as table_module
from render.layout import GOLD, HIGHLIGHT, LAST_DISCARD, PANEL_EDGE
from render.samples import SAMPLE_NAMES, sample_late_public_view, sample_public_view
from render.table import compose_table, render_table, table_fit
from tests.drawn_text import record_calls


def _record(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Every text (with its size), badge and tile sprite the table draws from now on."""
    seen: dict[str, list[Any]] = {"texts": [], "badges": [], "tiles": [], "backs": []}
    draw_text, badge = table_module.draw_text, table_module._badge
    tile_sprite, back_sprite = table_module.tile_sprite, table_module.back_sprite

    def text(canvas: Any, value: str, x: float, y: float, size: int, *a: Any, **k: Any) -> int:
        seen["texts"].append((value, size))
        return draw_text(canvas, value, x, y, size, *a, **k)

    def badge_(draw: Any, canvas: Any, x: float, y: float, value: str, *a: Any, **k: Any) -> int:
        seen["badges"].append(value)
        return badge(draw, canvas, x, y, value, *a, **k)

    def tile(kind: int, width: int, marker: str | None = None, **k: Any) -> Image.Image:
        seen["tiles"].append((kind, width, marker, k.get("dimmed", False)))
        return tile_sprite(kind, width, marker, **k)

    def back(width: int, **k: Any) -> Image.Image:
        seen["backs"].append(width)
        return back_sprite(width, **k)

    monkeypatch.setattr(table_module, "draw_text", text)
    monkeypatch.setattr(table_module, "_badge", badge_)
    monkeypatch.setattr(table_module, "tile_sprite", tile)
    monkeypatch.setattr(table_module, "back_sprite", back)
    return seen


def _height(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        assert image.width == 1000
        return image.height


def _box_of(image: Image.Image, color: tuple[int, int, int]) -> tuple[int, int, int, int]:
    """The bounding box of the pixels of ``color`` in an RGB image."""
    data, pattern = image.tobytes(), bytes(color)
    xs, ys = [], []
    index = data.find(pattern)
    while index >= 0:
        if index % 3 == 0:
            y, x = divmod(index // 3, image.width)
            xs.append(x)
            ys.append(y)
        index = data.find(pattern, index + 1)
    assert xs, f"no {color} drawn"
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def _band_tops(view: PublicView) -> dict[int, tuple[int, int]]:
    """Each seat's band (top, bottom) as ``compose_table`` lays it out."""
    plan = table_module._plan(view, None, None, SAMPLE_NAMES, "zh", None)
    top = table_module.MARGIN + table_module.HEADER_H + table_module.MARGIN
    tops = {}
    for band in plan.bands:
        tops[band.seat_view.seat] = (top, top + band.height)
        top += band.height + table_module.MARGIN
    return tops


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_a_late_four_seat_hand_stays_under_1150_px_with_rivers_of_56_px_tiles(
    monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    """Rivers of about twenty tiles and a few melds: two rows of 14 tiles a seat, at
    least 56 px wide, and the whole table at most about a phone screen and a half."""
    view = sample_late_public_view(variant, 4)
    assert max(len(seat.discards) for seat in view.seats) >= 16
    assert sum(len(seat.melds) for seat in view.seats) >= 4
    seen = _record(monkeypatch)
    assert _height(render_table(view, names=SAMPLE_NAMES)) <= 1150
    discards = sum(len(seat.discards) for seat in view.seats)
    river = seen["tiles"][-discards:]
    assert [kind for kind, *_ in river] == [
        d.tile for offset in range(4) for d in view.seats[(view.dealer + offset) % 4].discards
    ]
    assert min(width for _, width, _, _ in river) >= 56


def test_short_rivers_draw_larger_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _record(monkeypatch)
    view = sample_public_view("jiaxing")
    render_table(view, names=SAMPLE_NAMES)
    discards = sum(len(seat.discards) for seat in view.seats)
    assert min(width for _, width, _, _ in seen["tiles"][-discards:]) >= 64


@pytest.mark.parametrize("locale", ["zh", "en"])
@pytest.mark.parametrize(("variant", "seats"), [("jiaxing", 4), ("taizhou", 3), ("taizhou", 2)])
def test_no_text_is_under_28_px_and_what_matters_is_33_to_44(
    monkeypatch: pytest.MonkeyPatch, variant: str, seats: int, locale: str
) -> None:
    seen = _record(monkeypatch)
    view = sample_late_public_view(variant, seats)
    render_table(view, names=SAMPLE_NAMES, locale=locale)
    sizes = dict(seen["texts"])
    assert min(size for _, size in seen["texts"]) >= 28
    important = [*SAMPLE_NAMES[:seats], str(view.tiles_left)]
    important += [table_module.signed(seat.score) for seat in view.seats]
    turn = table_module.label("turn", locale)
    important += [text for text, _ in seen["texts"] if text.startswith(turn + " ")]
    for text in important:
        shown = next(t for t in sizes if t == text or t == table_module.isolate(text))
        assert 33 <= sizes[shown] <= 44, (text, sizes[shown])


def test_hidden_tiles_are_one_back_and_a_number_per_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _record(monkeypatch)
    view = sample_public_view("jiaxing")
    render_table(view, names=SAMPLE_NAMES)
    counts = [f"×{seat.concealed_count}" for seat in view.seats]
    assert [text for text, _ in seen["texts"] if text.startswith("×")] == counts
    assert len(seen["backs"]) == 4  # one back a seat, not a row of them


def test_the_bands_run_from_east_in_play_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 2 deals: its band (东) comes first, then 3, 0 and 1 (南 西 北)."""
    view = sample_public_view("jiaxing")
    seats = tuple(
        replace(s, seat_wind=27 + (s.seat - 2) % 4, is_dealer=s.seat == 2) for s in view.seats
    )
    view = replace(view, dealer=2, seats=seats)
    seen = _record(monkeypatch)
    render_table(view, names=SAMPLE_NAMES)
    assert [b for b in seen["badges"] if b in "东南西北"] == list("东南西北")
    names = [text for text, _ in seen["texts"] if text in map(table_module.isolate, SAMPLE_NAMES)]
    assert names == [table_module.isolate(SAMPLE_NAMES[seat]) for seat in (2, 3, 0, 1)]
    assert seen["badges"].count("庄") == 1


def test_the_header_says_the_hand_its_tiles_and_whose_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _record(monkeypatch)
    view = sample_public_view("jiaxing")
    render_table(view, names=SAMPLE_NAMES)
    texts = [text for text, _ in seen["texts"]]
    assert "嘉兴台头胡" in texts and "第4局 · 风圈 南" in texts
    assert {"翻牌", "百搭", "余牌", "47", "番池", "2", "骰子"} <= set(texts)
    assert f"轮到 南 {table_module.isolate('Alice')}" in texts
    assert seen["tiles"][:2] == [(view.indicator, 48, None, False), (view.wild, 48, "百搭", False)]
    seen["texts"].clear()
    render_table(sample_public_view("taizhou"), names=SAMPLE_NAMES)
    texts = [text for text, _ in seen["texts"]]
    assert "财神" in texts and "番池" not in texts and not any("风圈" in t for t in texts)


def test_the_turn_seat_is_outlined_and_the_last_discard_framed() -> None:
    """The seat to play has a band outlined in yellow, the others the plain edge; the
    discard on the table is framed in red, and no frame is drawn once it is claimed."""
    view = sample_public_view("jiaxing")
    image = compose_table(view, names=SAMPLE_NAMES)
    tops = _band_tops(view)
    x = table_module.MARGIN + 1
    for seat, (top, bottom) in tops.items():
        edge = image.getpixel((x, (top + bottom) // 2))
        assert edge == (HIGHLIGHT if seat == view.current_seat else PANEL_EDGE), seat
    left, top, right, bottom = _box_of(image, LAST_DISCARD)
    river_w = table_module.RIVER_MAX  # eight tiles a river: one row of the largest
    last_x = table_module.MARGIN + table_module.PAD + 7 * river_w  # seat 0's 8th tile
    assert tops[0][0] < top < bottom < tops[0][1]  # in the dealer's (seat 0's) band
    assert last_x - 4 <= left and right <= last_x + river_w + 4  # around its last tile
    seat0 = view.seats[0]
    claimed = (*seat0.discards[:-1], DiscardView(seat0.discards[-1].tile, claimed=True))
    taken = replace(view, seats=(replace(seat0, discards=claimed), *view.seats[1:]))
    image = compose_table(taken, names=SAMPLE_NAMES)
    assert LAST_DISCARD not in {color for _, color in image.getcolors(1 << 20) or []}


def test_seats_asked_to_claim_are_outlined_and_named_in_the_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = sample_public_view("jiaxing")
    claim = replace(view, phase="claim", current_seat=None, waiting_on=(2, 3))
    seen = _record(monkeypatch)
    image = compose_table(claim, names=SAMPLE_NAMES)
    for seat, (top, bottom) in _band_tops(claim).items():
        edge = image.getpixel((table_module.MARGIN + 1, (top + bottom) // 2))
        assert edge == (GOLD if seat in (2, 3) else PANEL_EDGE), seat
    texts = [text for text, _ in seen["texts"]]
    assert "可吃碰杠 · 等待 西 北" in texts and texts.count("… 等待") == 2
    # In English the header's line is full: the seats are named whole, 30 px, without
    # the word their bands say ("… Waiting"); one seat fits with it.
    seen["texts"].clear()
    render_table(claim, names=SAMPLE_NAMES, locale="en")
    assert ("Claim · W N", 30) in seen["texts"]
    seen["texts"].clear()
    render_table(replace(claim, waiting_on=(3,)), names=SAMPLE_NAMES, locale="en")
    assert ("Claim · Waiting N", 30) in seen["texts"]


def test_liability_folding_claimed_discards_and_wilds_are_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Jiaxing 三摊: both seats of a liable pair say 承包 and whom with; a folded seat
    says 不跟; a claimed discard stays in its river greyed; a wild in a river is tagged."""
    view = sample_public_view("jiaxing")
    seats = list(view.seats)
    seats[0] = replace(seats[0], liable_with=(3,))
    seats[3] = replace(seats[3], liable_with=(0,))
    seats[2] = replace(
        seats[2], folded=True, discards=(*seats[2].discards, DiscardView(view.wild or 0))
    )
    seen = _record(monkeypatch)
    render_table(replace(view, seats=tuple(seats)), names=SAMPLE_NAMES)
    texts = [text for text, _ in seen["texts"]]
    assert "承包 北" in texts and "承包 东" in texts and "不跟" in texts
    claimed = sum(d.claimed for s in seats for d in s.discards)
    assert claimed and sum(dimmed for *_, dimmed in seen["tiles"]) == claimed
    assert (view.wild, table_module.RIVER_MAX, "百搭", False) in seen["tiles"]


def test_a_finished_hand_shows_every_seats_tiles_face_up(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.replay import RevealedSeat

    view = sample_public_view("taizhou")
    revealed = [
        RevealedSeat(
            concealed=tuple(range(s.seat, s.seat + s.concealed_count)), drawn=None, melds=s.melds
        )
        for s in view.seats
    ]
    seen = _record(monkeypatch)
    compose_table(view, names=SAMPLE_NAMES, revealed=revealed)
    kinds = [kind for kind, *_ in seen["tiles"]]
    for hand in revealed:
        assert all(kinds.count(kind) >= 1 for kind in hand.concealed)
    assert not any(text.startswith("×") for text, _ in seen["texts"]) and not seen["backs"]


def test_the_player_a_table_is_drawn_for_is_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    badges = record_calls(monkeypatch, table_module, "_badge", 4)
    render_table(sample_public_view("jiaxing"), names=SAMPLE_NAMES, locale="en")
    assert "Your seat" not in badges
    render_table(sample_public_view("jiaxing"), names=SAMPLE_NAMES, locale="en", perspective=2)
    assert badges.count("Your seat") == 1


def test_a_fixed_height_pads_the_table_and_a_river_room_keeps_tile_size() -> None:
    view = sample_public_view("taizhou", 3)
    natural, _hands = table_fit(view)
    padded = compose_table(view, height=natural + 100)
    assert padded.height == natural + 100
    assert compose_table(view).height == natural
    roomy, _ = table_fit(view, river_room=30)
    assert roomy > natural  # laid out for longer rivers: more rows
