"""Replay images (issue 14 item 2): a frame per action with every hand open, and the
whole hand as an animation that decodes to exactly those frames."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops
from test_hand_replay import played_match

from engine.replay import replay_hand
from render.layout import shared_palette
from render.replay import (
    compose_replay_frame,
    encode_gif,
    frame_layout,
    render_replay_animation,
    render_replay_frame,
)
from render.table import table_fit

NAMES = ("小明 Ming", "Alice", "老王", "Bob the Builder")


@pytest.fixture(scope="module")
def record():  # type: ignore[no-untyped-def]
    _match, log = played_match("jiaxing", seed=11, hands=1)
    return replay_hand("jiaxing", None, 11, log, 0)


def test_a_frame_is_a_png_of_the_open_table(record) -> None:  # type: ignore[no-untyped-def]
    png = render_replay_frame(record, 3, names=NAMES)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 1000
    # Out-of-range steps show the nearest end instead of failing.
    assert render_replay_frame(record, 10_000, names=NAMES) == render_replay_frame(
        record, record.steps, names=NAMES
    )
    assert render_replay_frame(record, -5, names=NAMES) == render_replay_frame(
        record, 0, names=NAMES
    )


def test_open_hands_differ_from_the_live_table(record) -> None:  # type: ignore[no-untyped-def]
    from render.table import compose_table

    frame = record.frames[0]
    live = compose_table(frame.public, names=NAMES)
    opened = compose_table(frame.public, names=NAMES, revealed=frame.hands)
    assert live.tobytes() != opened.tobytes()


@pytest.mark.parametrize("fmt", ["gif", "apng"])
def test_the_animation_has_one_frame_per_action_and_ends_on_the_result(
    record,
    fmt: str,  # type: ignore[no-untyped-def]
) -> None:
    data = render_replay_animation(record, names=NAMES, fmt=fmt)
    assert len(data) < 10 * 1024 * 1024
    image = Image.open(io.BytesIO(data))
    assert image.format == ("GIF" if fmt == "gif" else "PNG")
    assert image.n_frames == record.steps + 1
    image.seek(image.n_frames - 1)
    layout = frame_layout(record, names=NAMES)
    last = compose_replay_frame(
        record.frames[-1], record.steps, names=NAMES, palette=False, layout=layout
    )
    expected = last.quantize(palette=shared_palette(), dither=Image.Dither.NONE).convert("RGB")
    assert image.convert("RGB").tobytes() == expected.tobytes()


def _mapped_rgb_frame(record, step: int) -> Image.Image:  # type: ignore[no-untyped-def]
    """The reference: the frame composed in RGB, then mapped onto the shared palette."""
    rgb = compose_replay_frame(record.frames[step], record.steps, names=NAMES, palette=False)
    return rgb.quantize(palette=shared_palette(), dither=Image.Dither.NONE)


def test_frames_composed_on_the_palette_equal_rgb_frames_mapped(record) -> None:  # type: ignore[no-untyped-def]
    """Composing on the palette (fast) must give the very pixels of composing in RGB and
    mapping the result: every sprite's soft edge is blended over the right colour."""
    for step in range(record.steps + 1):
        fast = compose_replay_frame(record.frames[step], record.steps, names=NAMES)
        assert fast.mode == "P"
        assert fast.tobytes() == _mapped_rgb_frame(record, step).tobytes(), step


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_the_frame_png_decodes_to_the_rgb_reference(record, locale: str) -> None:  # type: ignore[no-untyped-def]
    step = record.steps // 2
    decoded = Image.open(io.BytesIO(render_replay_frame(record, step, names=NAMES, locale=locale)))
    layout = frame_layout(record, names=NAMES, locale=locale)
    rgb = compose_replay_frame(
        record.frames[step],
        record.steps,
        names=NAMES,
        locale=locale,
        palette=False,
        layout=layout,
    )
    reference = rgb.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    assert decoded.size == reference.size
    assert decoded.convert("RGB").tobytes() == reference.convert("RGB").tobytes()


def test_every_frame_of_a_hand_is_one_size_with_its_tiles_at_one_size(record) -> None:  # type: ignore[no-untyped-def]
    """The table grows as the rivers do (a second row), but an animation's frames must
    be one size and stepping through a hand must not make the picture jump: every frame
    is laid out for the hand's longest river, as tall as its tallest frame, with each
    seat's open hand at one tile width and in one place."""
    first, last = record.frames[0], record.frames[-1]
    assert (
        table_fit(first.public, revealed=first.hands)[0]
        < table_fit(last.public, revealed=last.hands)[0]
    )
    sizes = {
        Image.open(io.BytesIO(render_replay_frame(record, step, names=NAMES))).size
        for step in (0, record.steps // 2, record.steps)
    }
    assert len(sizes) == 1
    data = render_replay_animation(record, names=NAMES)
    image = Image.open(io.BytesIO(data))
    assert image.size == next(iter(sizes))
    layout = frame_layout(record, names=NAMES)
    assert image.size == (1000, layout.height + 64)
    hands = [table_fit(f.public, names=NAMES, revealed=f.hands, river_room=layout.river_room,
                       hands=layout.hands)[1] for f in record.frames]  # fmt: skip
    for seat in range(4):
        assert len({(fit[seat].tile_w, fit[seat].own_row) for fit in hands}) == 1


def test_gif_frames_decode_to_what_was_drawn() -> None:
    palette = shared_palette()
    frames = []
    for shade in (0, 40, 40, 90):
        canvas = Image.new("RGB", (60, 40), (22, 78, 58))
        canvas.paste((244, 239, 224), (shade % 50, 5, shade % 50 + 10, 15))
        frames.append(canvas.quantize(palette=palette, dither=Image.Dither.NONE))
    data = encode_gif(frames, [100, 100, 100, 500])
    image = Image.open(io.BytesIO(data))
    assert image.n_frames == 4  # an unchanged frame is still a frame of its own
    for index, frame in enumerate(frames):
        image.seek(index)
        assert image.convert("RGB").tobytes() == frame.convert("RGB").tobytes()
    with pytest.raises(ValueError):
        encode_gif([], [])


def test_the_liable_label_is_drawn_on_free_panel_not_over_a_seats_tiles() -> None:
    """A Jiaxing 三摊 pair is marked 承包 on both seats' panels. On a side panel the open
    hand runs the panel's whole width, so the label lives in the header line there: what
    the label changes must have been bare panel before (no tile, no text under it)."""
    from dataclasses import replace

    from engine.replay import RevealedSeat
    from render.layout import PANEL

    _match, log = played_match("jiaxing", seed=1, hands=1)
    record = replay_hand("jiaxing", None, 1, log, 0)
    frame = next(f for f in record.frames if any(s.liable_with for s in f.public.seats))
    liable = [s.seat for s in frame.public.seats if s.liable_with]
    assert 0 in liable and any(seat in (1, 3) for seat in liable)  # the bottom and a side
    # Every liable seat holds a full concealed hand and its drawn tile: the widest row.
    full = RevealedSeat(concealed=tuple(range(9, 22)), drawn=22, melds=())
    frame = replace(frame, hands=tuple(
        full if seat in liable else hand for seat, hand in enumerate(frame.hands)
    ))  # fmt: skip
    for seat in liable:
        seats = tuple(
            replace(s, liable_with=()) if s.seat == seat else s for s in frame.public.seats
        )
        bare = replace(frame, public=replace(frame.public, seats=seats))
        marked = compose_replay_frame(frame, record.steps, palette=False)
        unmarked = compose_replay_frame(bare, record.steps, palette=False)
        box = ImageChops.difference(marked, unmarked).getbbox()
        assert box is not None, f"seat {seat}: no label drawn"
        assert box[3] - box[1] <= 32  # one line of 30 px text
        under = unmarked.crop(box)
        colors = under.getcolors(under.width * under.height)  # getdata() goes in Pillow 14
        assert {color for _, color in colors} == {PANEL}, f"seat {seat}: the label covers {box}"


def test_stepping_through_a_hand_lays_it_out_once(record, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Each ◀ ▶ click renders one frame of the same (cached) record: its layout over
    every frame of the hand is worked out on the first click only."""
    from render import replay as replay_module

    calls: list[object] = []
    original = replay_module.frame_layout

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(replay_module, "frame_layout", counting)
    monkeypatch.setattr(replay_module, "_LAYOUTS", type(replay_module._LAYOUTS)())
    for step in (1, 2, 3):
        render_replay_frame(record, step, names=NAMES)
    assert calls == [record]
    render_replay_frame(record, 1, names=NAMES, locale="en")  # another language: its own
    assert len(calls) == 2


def test_a_win_caption_says_how_without_naming_the_winner_twice(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The last frame's caption names the seat that won on its left ("N Bob the Builder
    wins"); its right says how (自摸 / self-draw), which a second copy of a long name
    used to push off the end at 30 px."""
    from render import replay as replay_module
    from render.samples import sample_hand_replay
    from tests.drawn_text import record_texts

    won = sample_hand_replay("jiaxing", 2024, 4)
    assert won.result is not None and won.result.winner is not None
    names = ("小明 Ming", "Alice", "老王", "Bob the Builder")
    drawn = record_texts(monkeypatch, replay_module)
    compose_replay_frame(won.frames[-1], won.steps, names=names, locale="en")
    last = drawn[-1].text
    assert last.startswith("Winner ") and not last.endswith("…")
    assert names[won.result.winner] not in last
