"""The public table image: every seat's hidden tiles, melds and river around a centre
panel with the indicator, the wild, the counters and whose turn it is."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.replay import RevealedSeat
from engine.variants import Variant, get_rules
from engine.views import PublicView, SeatView

from .bidi import isolate
from .layout import (
    CREAM,
    FELT,
    GOLD,
    HIGHLIGHT,
    LAST_DISCARD,
    MINUS,
    MUTED,
    PANEL,
    PANEL_DARK,
    PANEL_EDGE,
    RED_BADGE,
    TABLE_SIZE,
    badge,
    draw_meld,
    draw_text,
    encode_png,
    marker_for,
    meld_layout,
    meld_width,
    net_color,
    palette_canvas,
    paste,
    seat_name,
    signed,
    surface_draw,
)
from .text import fit_text, label, rule_set_name, text_width, wild_label, wind_name
from .tiles import back_sprite, tile_height, tile_sprite


def _positions(num_seats: int) -> tuple[str, ...]:
    """Where each seat offset from the viewer sits: play goes counter-clockwise."""
    return {
        4: ("bottom", "right", "top", "left"),
        3: ("bottom", "right", "left"),
        2: ("bottom", "top"),
    }[num_seats]


def _river_fit(count: int, width: float, height: float, largest: int) -> tuple[int, int]:
    """The largest tile width (and rows per block) that fits ``count`` discards in rows of
    six, with extra blocks of six columns side by side when the rows run out."""
    for tile_w in range(largest, 13, -1):
        tile_h = tile_height(tile_w)
        rows_fit = max(1, int(height // tile_h))
        rows_needed = max(1, math.ceil(count / 6))
        blocks = math.ceil(rows_needed / rows_fit)
        if blocks * 6 * tile_w + (blocks - 1) * 10 <= width:
            return tile_w, min(rows_fit, rows_needed)
    return 14, max(1, int(height // tile_height(14)))


def _draw_river(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat_view: SeatView,
    box: tuple[float, float, float, float],
    *,
    toward: str,
    rules: type[Variant],
    wild: int | None,
    last_discard: tuple[int, int] | None,
    tile_w: int,
    locale: str,
) -> None:
    """Discards in rows of six, the first row nearest the table's centre (``toward``)."""
    x0, y0, x1, y1 = box
    discards = seat_view.discards
    tile_h = tile_height(tile_w)
    rows = max(1, min(int((y1 - y0) // tile_h), math.ceil(len(discards) / 6)))
    blocks = max(1, math.ceil(math.ceil(len(discards) / 6) / rows))
    total_w = blocks * 6 * tile_w + (blocks - 1) * 10
    left = x0 + (x1 - x0 - total_w) / 2
    for index, discard in enumerate(discards):
        row_all, col = divmod(index, 6)
        block, row = divmod(row_all, rows)
        x = left + block * (6 * tile_w + 10) + col * tile_w
        y = y0 + row * tile_h if toward == "down" else y1 - (row + 1) * tile_h
        sprite = tile_sprite(
            discard.tile,
            tile_w,
            marker_for(discard.tile, rules, wild, locale),
            dimmed=discard.claimed,
        )
        paste(canvas, sprite, x, y)
        is_last = (
            last_discard is not None
            and last_discard[0] == seat_view.seat
            and index == len(discards) - 1
            and not discard.claimed
        )
        if is_last:
            draw.rounded_rectangle(
                (x - 2, y - 2, x + tile_w + 1, y + tile_h + 1), 6, outline=LAST_DISCARD, width=4
            )


def _draw_seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    seat_view: SeatView,
    box: tuple[float, float, float, float],
    position: str,
    name: str,
    locale: str,
    revealed: RevealedSeat | None = None,
) -> tuple[tuple[float, float, float, float], str]:
    """One seat's panel: header, hidden tiles and melds on the outer side; returns the box
    left for the river and which way its rows run (first row nearest the centre).

    ``revealed`` (a replay of a finished hand) draws the seat's tiles face up, the drawn
    one a little apart, and its concealed kongs open, in the space the backs take."""
    x0, y0, x1, y1 = box
    is_turn = view.current_seat == seat_view.seat and view.phase == "turn"
    waiting = seat_view.seat in view.waiting_on and view.phase != "turn"
    outline = HIGHLIGHT if is_turn else GOLD if waiting else PANEL_EDGE
    draw.rounded_rectangle(
        box, 16, fill=PANEL, outline=outline, width=4 if (is_turn or waiting) else 2
    )
    pad = 12
    header_h = 40
    outer_top = position == "top"
    header_y = y0 + pad if outer_top or position in ("left", "right") else y1 - pad - header_h + 4

    # Header: wind badge, dealer badge, name, score, state.
    x = x0 + pad
    x += (
        badge(draw, canvas, x, header_y, wind_name(seat_view.seat_wind, locale), PANEL_DARK, 20) + 6
    )
    if seat_view.is_dealer:
        x += badge(draw, canvas, x, header_y, label("dealer", locale), RED_BADGE, 20) + 6
    score_text = signed(seat_view.score)
    score_w = text_width(score_text, 22)
    state = ""
    if seat_view.folded:
        state = label("folded", locale)
    elif is_turn:
        state = "▶ " + label("turn", locale)
    elif waiting:
        state = "… " + label("waiting_on", locale)
    state_w = text_width(state, 18) + 8 if state else 0
    side = position in ("left", "right")
    liable = ""
    if seat_view.liable_with:
        partners = " ".join(
            wind_name(view.seats[s].seat_wind, locale) for s in seat_view.liable_with
        )
        liable = f"{label('liable', locale)} {partners}"
    # Said in the header line, left of the state: below the header the seat's tiles may
    # run the panel's whole width (14 face up in a replay). The name gives way to it,
    # down to 60 px; past that the partners go and 承包 alone stays.
    liable_w = text_width(liable, 16) + 8 if liable else 0
    name_room = x1 - pad - x - score_w - state_w - liable_w - 16
    if liable and name_room < 60:
        liable = label("liable", locale)
        name_room += liable_w - (text_width(liable, 16) + 8)
        liable_w = text_width(liable, 16) + 8
    draw_text(canvas, fit_text(name, 22, int(name_room)), x + 2, header_y + 2, 22)
    draw_text(
        canvas, score_text, x1 - pad, header_y + 2, 22, net_color(seat_view.score), anchor="r"
    )
    if state:
        draw_text(canvas, state, x1 - pad - score_w - 10, header_y + 6, 18, HIGHLIGHT, anchor="r")
    if liable_w:
        draw_text(canvas, liable, x1 - pad - score_w - 10 - state_w, header_y + 8, 16, MINUS,
                  anchor="r")  # fmt: skip

    # Hidden tiles (backs, or faces in a replay) and melds.
    back_w = (20 if side else 34) if revealed is not None else (17 if side else 26)
    meld_w = 28 if side else 40
    meld_h = tile_height(meld_w)
    back_h = tile_height(back_w)
    count = seat_view.concealed_count
    melds = revealed.melds if revealed is not None else seat_view.melds
    own = revealed is not None
    if revealed is not None:
        rules = get_rules(view.variant)
        faces = [tile_sprite(kind, back_w, marker_for(kind, rules, view.wild, locale))
                 for kind in revealed.concealed]  # fmt: skip
        if revealed.drawn is not None:
            faces.append(tile_sprite(revealed.drawn, back_w,
                                     marker_for(revealed.drawn, rules, view.wild, locale)))  # fmt: skip
        count = len(faces)

    def hidden(index: int) -> Image.Image:
        return faces[index] if revealed is not None else back_sprite(back_w)

    def gap(index: int) -> int:  # the drawn tile stands a little apart
        drawn_apart = revealed is not None and revealed.drawn is not None
        return 6 if drawn_apart and index == count - 1 else 0

    if side:
        row_y = header_y + header_h + 4
        backs_x = x0 + pad
        for i in range(count):
            paste(canvas, hidden(i), backs_x + i * back_w + gap(i), row_y)
        meld_bottom = row_y + back_h + 6 + meld_h
        river_box = (x0 + pad, meld_bottom + 10, x1 - pad, y1 - pad)
        toward = "down"
        meld_x = x0 + pad
        for meld in melds:
            entries = meld_layout(meld, seat_view.seat, view.num_seats, own=own)
            width = meld_width(entries, meld_w)
            if meld_x + width > x1 - pad:
                meld_x = x0 + pad
                meld_bottom += meld_h + 6
                river_box = (river_box[0], meld_bottom + 10, river_box[2], river_box[3])
            meld_x = draw_meld(canvas, entries, meld_x, meld_bottom, meld_w) + 8
    else:
        if outer_top:
            row_top = header_y + header_h + 2
            river_box = (x0 + pad, row_top + meld_h + 12, x1 - pad, y1 - pad)
            toward = "up"
        else:
            row_top = header_y - meld_h - 8
            river_box = (x0 + pad, y0 + pad, x1 - pad, row_top - 10)
            toward = "down"
        backs_x = x0 + pad
        for i in range(count):
            paste(canvas, hidden(i), backs_x + i * back_w + gap(i), row_top + meld_h - back_h)
        meld_x = backs_x + count * back_w + gap(count - 1) + 18
        for meld in melds:
            entries = meld_layout(meld, seat_view.seat, view.num_seats, own=own)
            meld_x = draw_meld(canvas, entries, meld_x, row_top + meld_h, meld_w) + 10
    return river_box, toward


def _draw_die(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, value: int) -> None:
    draw.rounded_rectangle((x, y, x + size, y + size), 6, fill=CREAM)
    pips = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
        5: [(0.26, 0.26), (0.74, 0.26), (0.5, 0.5), (0.26, 0.74), (0.74, 0.74)],
        6: [(0.28, 0.24), (0.72, 0.24), (0.28, 0.5), (0.72, 0.5), (0.28, 0.76), (0.72, 0.76)],
    }[max(1, min(6, value))]
    r = size * 0.1
    color = RED_BADGE if value in (1, 4) else (30, 30, 30)
    for u, v in pips:
        cx, cy = x + u * size, y + v * size
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)


def _draw_centre(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    box: tuple[float, float, float, float],
    names: Sequence[str] | None,
    locale: str,
) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, 18, fill=PANEL_DARK, outline=PANEL_EDGE, width=2)
    cx = (x0 + x1) / 2
    y = y0 + 14
    rules = get_rules(view.variant)
    draw_text(canvas, rule_set_name(rules, locale), cx, y, 24, CREAM, anchor="m")
    y += 36
    line = label("hand_no", locale, n=view.hand_number + 1)
    if rules.has_prevailing_wind:
        line += f" · {label('prevailing', locale)} {wind_name(view.prevailing_wind, locale)}"
    draw_text(canvas, line, cx, y, 20, MUTED, anchor="m")
    y += 36
    # Indicator and wild, large.
    tile_w = 52
    tile_h = tile_height(tile_w)
    has_wild = view.wild is not None
    slots: list[tuple[str, int, str | None]] = [(label("indicator", locale), view.indicator, None)]
    if view.wild is not None:
        slots.append(
            (wild_label(rules, locale), view.wild, marker_for(view.wild, rules, view.wild, locale))
        )
    span = 120
    start = cx - span * (len(slots) - 1) / 2
    for i, (caption, kind, marker) in enumerate(slots):
        sx = start + i * span
        draw_text(canvas, caption, sx, y, 18, GOLD if marker else MUTED, anchor="m")
        paste(canvas, tile_sprite(kind, tile_w, marker), sx - tile_w / 2, y + 28)
    if has_wild and view.wild != view.indicator:
        draw_text(canvas, "→", cx, y + 28 + tile_h / 2 - 16, 26, MUTED, anchor="m")
    y += 28 + tile_h + 14
    # Numbers: tiles left, carried pool, dice.
    stats = [(label("tiles_left", locale), str(view.tiles_left))]
    if rules.has_carried_fan:
        stats.append((label("pool", locale), f"{view.carried_fan}"))
    col_w = (x1 - x0 - 20) / (len(stats) + 1)
    for i, (caption, value) in enumerate(stats):
        sx = x0 + 10 + col_w * (i + 0.5)
        draw_text(canvas, caption, sx, y, 17, MUTED, anchor="m")
        draw_text(canvas, value, sx, y + 22, 28, CREAM, anchor="m")
    sx = x0 + 10 + col_w * (len(stats) + 0.5)
    draw_text(canvas, label("dice", locale), sx, y, 17, MUTED, anchor="m")
    die = 28
    _draw_die(draw, sx - die - 3, y + 26, die, view.dice[0])
    _draw_die(draw, sx + 3, y + 26, die, view.dice[1])
    y += 70
    # Whose turn / who we wait for.
    status = ""
    if view.phase == "turn" and view.current_seat is not None:
        seat = view.current_seat
        status = f"{label('turn', locale)} {wind_name(view.seats[seat].seat_wind, locale)} {isolate(seat_name(names, seat, locale))}"
    elif view.phase == "ended":
        status = label("ended", locale)
    elif view.phase in ("claim", "rob_kong", "santan"):
        key = {"claim": "claim_window", "rob_kong": "rob_kong", "santan": "santan"}[view.phase]
        if key == "claim_window" and rules.discard_wins:
            key = "claim_window_or_win"
        waiting = " ".join(wind_name(view.seats[s].seat_wind, locale) for s in view.waiting_on)
        status = f"{label(key, locale)} · {label('waiting_on', locale)} {waiting}".strip()
    if status:
        draw_text(
            canvas,
            fit_text(status, 20, int(x1 - x0 - 24)),
            cx,
            min(y, y1 - 36),
            20,
            HIGHLIGHT,
            anchor="m",
        )


def render_table(
    view: PublicView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int = 0,
) -> bytes:
    """The public table as the channel sees it, seat ``perspective`` at the bottom."""
    if not isinstance(view, PublicView):
        raise TypeError("render_table takes a PublicView, nothing else")
    return encode_png(
        compose_table(view, names=names, locale=locale, perspective=perspective, palette=True)
    )


def compose_table(
    view: PublicView,
    *,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    perspective: int = 0,
    revealed: Sequence[RevealedSeat] | None = None,
    header: int = 0,
    palette: bool = False,
) -> Image.Image:
    """The table as an RGB image; ``revealed`` (one entry per seat) opens every hand, for
    the replay of a hand that is over (``render.replay``), and ``header`` leaves that
    many rows of felt above the table for a caption. ``palette`` composes it on the
    shared palette instead (``render.layout.palette_canvas``): the same pixels that
    mapping the RGB image would give, in about half the time and with no mapping left
    for the PNG."""
    size = TABLE_SIZE
    positions = _positions(view.num_seats)
    gap = 8
    band = 300  # top and bottom panels' height
    side_w = 330
    # Three seats leave the top empty and two leave the sides empty: drop that space.
    top_h = band if "top" in positions else 0
    middle_h = 400 if "left" in positions or "right" in positions else 330
    height = top_h + middle_h + band
    canvas_size = (size, header + height)
    canvas = palette_canvas(canvas_size, FELT) if palette else Image.new("RGB", canvas_size, FELT)
    draw = surface_draw(canvas)
    middle = (header + top_h + gap, header + top_h + middle_h - gap)
    boxes = {
        "bottom": (gap, header + top_h + middle_h + gap, size - gap, header + height - gap),
        "top": (gap, header + gap, size - gap, header + band - gap),
        "left": (gap, middle[0], side_w - gap, middle[1]),
        "right": (size - side_w + gap, middle[0], size - gap, middle[1]),
    }
    occupied = set()
    rivers = []
    for seat_view in view.seats:
        position = positions[(seat_view.seat - perspective) % view.num_seats]
        occupied.add(position)
        river_box, toward = _draw_seat(
            canvas,
            draw,
            view,
            seat_view,
            boxes[position],
            position,
            isolate(seat_name(names, seat_view.seat, locale)),
            locale,
            revealed[seat_view.seat] if revealed is not None else None,
        )
        rivers.append((seat_view, river_box, toward))
    # One river tile size for the whole table, the largest every river fits in.
    rules = get_rules(view.variant)
    river_w = min(
        _river_fit(len(seat_view.discards), box[2] - box[0], box[3] - box[1], 48)[0]
        for seat_view, box, _ in rivers
    )
    for seat_view, river_box, toward in rivers:
        _draw_river(
            canvas,
            draw,
            seat_view,
            river_box,
            toward=toward,
            rules=rules,
            wild=view.wild,
            last_discard=view.last_discard,
            tile_w=river_w,
            locale=locale,
        )
    centre_left = side_w + gap if "left" in occupied else gap + 160
    centre_right = size - side_w - gap if "right" in occupied else size - gap - 160
    _draw_centre(
        canvas, draw, view, (centre_left, middle[0], centre_right, middle[1]), names, locale
    )
    return canvas
