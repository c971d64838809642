"""The private hand image as one screen: the table from the seat (others' melds and
rivers, the last discard, whose turn), the claim prompt, the 代 legend and zh-TW.

Sizes are measured on the image itself: what changes when one opponent's discard or meld
changes is that tile, so the changed box is the tile as drawn.
"""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from engine.tiles import WHITE, parse_tile
from engine.types import CHOW, KONG, PASS, PUNG, WIN, Action, Meld
from engine.views import DiscardView, PlayerView
from render import hand
from render.images import compose_hand, render_hand, render_leaderboard, render_result, render_table
from render.layout import HAND_WIDTH
from render.samples import (
    SAMPLE_LEADERBOARD,
    SAMPLE_NAMES,
    sample_claim_view,
    sample_player_view,
    sample_public_view,
    sample_win_result,
)
from render.text import label
from render.tiles import tile_height
from tests.drawn_text import assert_apart, record_calls, record_texts

PHONE_WIDTH = 360  # the hand image shown on a phone: Discord scales it to the column
PHONE = PHONE_WIDTH / HAND_WIDTH
# px on the phone: a river face read for defence (its face's ink, a little inside the tile)
MIN_TILE_ON_PHONE = 19


def _with_seat(view: PlayerView, seat: int, **changes: object) -> PlayerView:
    seats = list(view.public.seats)
    seats[seat] = replace(seats[seat], **changes)
    return replace(view, public=replace(view.public, seats=tuple(seats)))


def _changed_box(a: PlayerView, b: PlayerView) -> tuple[int, int, int, int]:
    first, second = compose_hand(a), compose_hand(b)
    assert first.size == second.size
    box = ImageChops.difference(first, second).getbbox()
    assert box is not None, "the change is not drawn"
    return box


def test_opponents_river_tiles_are_legible_on_a_360_px_phone() -> None:
    view = sample_player_view("jiaxing")
    river = view.public.seats[2].discards
    other = parse_tile("1m") if river[0].tile != parse_tile("1m") else parse_tile("9m")
    changed = _with_seat(view, 2, discards=(DiscardView(other), *river[1:]))
    left, top, right, bottom = _changed_box(view, changed)
    scale = PHONE_WIDTH / compose_hand(view).width
    assert compose_hand(view).width == HAND_WIDTH
    assert (right - left) * scale >= MIN_TILE_ON_PHONE
    assert (bottom - top) * scale >= MIN_TILE_ON_PHONE
    assert hand.TABLE_TILE >= 60  # 21.6 CSS px a tile (15.8 before)


def test_opponents_melds_are_at_least_as_large_as_their_discards() -> None:
    view = sample_player_view("jiaxing")
    river = view.public.seats[1].discards
    river_box = _changed_box(
        view, _with_seat(view, 1, discards=(DiscardView(parse_tile("9s")), *river[1:]))
    )
    pung = Meld(PUNG, (parse_tile("2m"),) * 3, from_seat=0, claimed=parse_tile("2m"))
    other_pung = Meld(PUNG, (parse_tile("8m"),) * 3, from_seat=0, claimed=parse_tile("8m"))
    meld_box = _changed_box(
        _with_seat(view, 1, melds=(pung,)), _with_seat(view, 1, melds=(other_pung,))
    )
    assert meld_box[3] - meld_box[1] >= river_box[3] - river_box[1]
    # Three tiles, one sideways: wider than three discards would be.
    assert meld_box[2] - meld_box[0] >= 3 * (river_box[2] - river_box[0]) - 4


def test_last_discard_and_whose_turn_are_marked() -> None:
    view = sample_player_view("jiaxing")
    public = view.public
    last_seat = 2
    last_tile = public.seats[last_seat].discards[-1].tile
    marked = replace(view, public=replace(public, last_discard=(last_seat, last_tile)))
    unmarked = replace(view, public=replace(public, last_discard=None))
    assert render_hand(marked) != render_hand(unmarked)
    turn_1 = replace(view, public=replace(public, current_seat=1))
    turn_3 = replace(view, public=replace(public, current_seat=3))
    assert render_hand(turn_1) != render_hand(turn_3)


def test_a_discarded_wild_is_marked_in_the_rivers() -> None:
    view = sample_player_view("jiaxing")
    wild = view.public.wild
    assert wild is not None
    river = view.public.seats[1].discards
    with_wild = _with_seat(view, 1, discards=(DiscardView(wild), *river[1:]))
    box = _changed_box(view, with_wild)
    image = compose_hand(with_wild).crop(box).convert("RGB")
    gold = {
        (r, g, b)
        for _n, (r, g, b) in image.getcolors(1 << 16) or ()
        if r > 200 and 150 < g < 215 and b < 90
    }
    assert gold, "the wild in the river has no gold marker frame"


def test_hand_image_does_not_depend_on_other_seats_concealed_tiles() -> None:
    round_module = pytest.importorskip("engine.round")
    game = round_module.Round("taizhou", seed=5, seats=4)
    # Play a few turns so every river has tiles: discard the drawn tile, pass claims.
    for _ in range(12):
        seat = game.waiting_on[0]
        legal = game.legal_actions(seat)
        move = next((a for a in legal if a.type == PASS), None) or next(
            a for a in legal if a.type == "discard"
        )
        game.apply(move)
    seat0 = 0
    before = render_hand(game.player_view(seat0))
    one, two = game.hands[1], game.hands[2]
    a = next(k for k in range(34) if one[k] > 0 and two[k] == 0)
    b = next(k for k in range(34) if two[k] > 0 and one[k] == 0)
    one[a], one[b], two[b], two[a] = one[a] - 1, one[b] + 1, two[b] - 1, two[a] + 1
    assert render_hand(game.player_view(seat0)) == before
    assert any(s.discards for s in game.player_view(seat0).public.seats[1:])


def test_claim_prompt_names_only_the_possible_claims_the_tile_and_the_discarder() -> None:
    view = sample_claim_view("jiaxing")
    assert hand.offered_claims(view) == (PUNG,)
    assert hand.claim_headline(view, SAMPLE_NAMES, "zh") == (
        "碰 七条 ← Bob the Builder",
        "Bob the Builder",
    )
    assert hand.claim_headline(view, SAMPLE_NAMES, "en")[0] == "Pung 7 Bamboo ← Bob the Builder"
    more = replace(view, legal=(Action(WIN, 0), Action(KONG, 0), *view.legal))
    assert hand.claim_headline(more, SAMPLE_NAMES, "zh")[0].startswith("胡 / 杠 / 碰 ")
    assert render_hand(more, names=SAMPLE_NAMES) != render_hand(view, names=SAMPLE_NAMES)
    # Outside a claim window (or with nothing to claim) there is no prompt.
    assert hand.claim_headline(replace(view, legal=(Action(PASS, 0),)))[0] == ""
    chow = sample_claim_view("taizhou")
    assert hand.offered_claims(chow) == (CHOW,)


def test_claim_prompt_shows_the_offered_tile_large() -> None:
    view = sample_claim_view("jiaxing")
    no_prompt = replace(view, legal=(Action(PASS, 0),))
    assert (
        compose_hand(view).height - compose_hand(no_prompt).height >= hand._HandLayout().prompt_tile
    )
    # The offered tile is drawn bigger than the hand's own tiles (43 CSS px on a phone).
    assert hand._HandLayout().prompt_tile >= 120


def test_white_legend_whenever_a_marked_white_is_drawn() -> None:
    taizhou = sample_player_view("taizhou")
    assert hand.white_legend(taizhou, "zh") == "白板代财神"
    assert hand.white_legend(taizhou, "zh-TW") == "白板代財神"
    # Not "for the Wild": White is no wild (RULES.md §2), it may be the wild's kind.
    assert hand.white_legend(taizhou, "en") == "White stands for the Wild's kind"
    assert hand.white_legend(sample_player_view("jiaxing"), "zh") is None  # no 代 there
    no_white = replace(
        taizhou,
        concealed=tuple(k for k in taizhou.concealed if k != WHITE),
        drawn=None,
        melds=tuple(m for m in taizhou.melds if m.white_as is None),
    )
    public = no_white.public
    seats = tuple(
        replace(
            s,
            discards=tuple(d for d in s.discards if d.tile != WHITE),
            melds=tuple(m for m in s.melds if m.white_as is None and WHITE not in m.tiles),
        )
        for s in public.seats
    )
    no_white = replace(no_white, public=replace(public, seats=seats))
    assert hand.white_legend(no_white, "zh") is None


@pytest.mark.parametrize("locale", ["zh-TW", "en"])
def test_every_image_follows_the_locale(locale: str) -> None:
    ended, result, win_tile = sample_win_result("taizhou")
    pairs = [
        (
            render_hand(sample_player_view("taizhou")),
            render_hand(sample_player_view("taizhou"), locale=locale),
        ),
        (
            render_table(sample_public_view("taizhou")),
            render_table(sample_public_view("taizhou"), locale=locale),
        ),
        (
            render_result(ended, result, win_tile=win_tile),
            render_result(ended, result, win_tile=win_tile, locale=locale),
        ),
        (
            render_leaderboard(SAMPLE_LEADERBOARD),
            render_leaderboard(SAMPLE_LEADERBOARD, locale=locale),
        ),
    ]
    for simplified, other in pairs:
        assert simplified != other
        with Image.open(io.BytesIO(other)) as image:
            assert image.width > 0


def test_the_claim_line_and_alert_offer_only_the_claims_the_seat_has() -> None:
    """The line above a hand and the DM alert say which claims this seat may make, in
    each language with its own tile name: a Jiaxing pung is never offered as 吃碰杠胡
    (no discard wins there), and an English reader reads 7 Bamboo, not 七条."""
    from bot.discord_views import prompt_headline, prompt_text
    from bot.presenter import PrivatePrompt

    view = sample_claim_view("jiaxing")
    prompt = PrivatePrompt("t1", 1, view.seat, view, "claim", None, 1, "jiaxing")
    assert prompt_headline(prompt, "zh-CN") == "**可以碰：7s 七条** · You may pung 7 Bamboo"
    assert prompt_headline(prompt, "en-US") == "**You may pung 7 Bamboo**"
    alert = prompt_text(prompt, "alert")
    assert (alert.zh, alert.en) == ("🔔 可以碰：7s 七条", "🔔 You may pung 7 Bamboo")
    more = replace(prompt, view=replace(view, legal=(Action(WIN, 0), Action(KONG, 0), *view.legal)))
    assert prompt_text(more).zh == "可以胡、杠、碰：7s 七条"
    assert prompt_text(more).en == "You may win, kong or pung 7 Bamboo"
    assert prompt_text(replace(prompt, kind="turn")).zh == "轮到你了"


@pytest.mark.parametrize("locale", ["en", "zh", "zh-TW"])
@pytest.mark.parametrize("name", ["Bob the Builder", "W" * 32, "老" * 32])
def test_the_hand_header_never_draws_one_text_over_another(
    monkeypatch: pytest.MonkeyPatch, locale: str, name: str
) -> None:
    """The header's left side (name, turn, rule set and hand number) stops where the
    right side (tiles left, indicator, wild) begins: an English title ran under "Tiles
    left" for a name as ordinary as "Bob the Builder"."""
    drawn = record_texts(monkeypatch, hand)
    view = sample_player_view("jiaxing")
    view = replace(view, public=replace(view.public, hand_number=11, tiles_left=103))
    render_hand(view, names=[name, "Alice", "老王", "小明"], locale=locale)
    layout = hand._HandLayout()
    header = [text for text in drawn if text.y < layout.header_h]  # its two rows
    assert len(header) >= 5  # name, indicator, wild; title, tiles left
    # Each row as one line, whatever each text's size (a row by the middle of its ink).
    row = [int(text.y + 0.79 * text.size >= layout.header_row) for text in header]
    assert set(row) == {0, 1}
    assert_apart([replace(text, y=100 * r) for text, r in zip(header, row, strict=True)])
    assert any("12" in text.text for text in header)  # the hand number stays
    assert any("103" in text.text for text in header)  # and the tiles left


def test_a_rob_kong_prompt_says_rob_the_kong_and_whose_kong() -> None:
    """In a rob-kong window the tile comes from the seat adding to its exposed pung, not
    from the last discard (someone else's, earlier): the prompt says 抢杠 and names it."""
    view = sample_claim_view("jiaxing")
    tile = view.claim_tile
    assert tile is not None
    public = view.public
    maker = 3
    seats = tuple(
        replace(s, melds=(*s.melds, Meld(PUNG, (tile,) * 3, from_seat=1))) if s.seat == maker else s
        for s in public.seats
    )
    other = next(k for k in range(27) if k != tile)
    robbing = replace(
        view,
        public=replace(
            public,
            phase="rob_kong",
            seats=seats,
            last_discard=(2, other),
            current_seat=None,
            waiting_on=(0,),
        ),
        legal=(Action(WIN, 0), Action(PASS, 0)),
    )
    headline, who = hand.claim_headline(robbing, SAMPLE_NAMES, "zh")
    assert headline.startswith("抢杠 ") and who == SAMPLE_NAMES[maker]
    assert hand.claim_headline(robbing, SAMPLE_NAMES, "en")[0].startswith("Rob Kong 7 Bamboo ← ")


def test_the_table_strip_says_waiting_not_turn_for_seats_asked_to_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a claim window nobody has the turn: the seats the table waits for are marked
    等待 / Waiting (the table image says so too), not 轮到 / Turn."""
    badges = record_calls(monkeypatch, hand, "badge", 4)
    view = sample_claim_view("jiaxing")
    waiting = replace(view, public=replace(view.public, current_seat=None, waiting_on=(0, 2, 3)))
    render_hand(waiting, names=SAMPLE_NAMES, locale="en")
    assert badges.count("Waiting") == 2 and "Turn" not in badges  # seats 2 and 3 in the strip


def test_a_wait_list_cut_short_says_how_many_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand (with wilds) can wait on many kinds; the image shows the waits (56 px
    tiles) beside the hand where they fit, else in a row under it, as many as that row
    holds: the caption then says how many it left out (听牌 +N), since a list read as
    complete tells the player wrong waits."""
    from render.samples import sample_waiting_view

    drawn = record_texts(monkeypatch, hand)
    view = sample_waiting_view("jiaxing")
    waits = tuple(range(20))
    render_hand(replace(view, waits=waits), names=SAMPLE_NAMES, locale="en")
    cut = [text.text for text in drawn if text.text.startswith("Waits +")]
    assert len(cut) == 1 and 20 - 15 <= int(cut[0].split("+")[1]) < 20  # 15 a row at most
    drawn.clear()
    render_hand(replace(view, waits=waits[:12]), names=SAMPLE_NAMES, locale="en")
    assert not any(text.text.startswith("Waits +") for text in drawn)  # a dozen fit


def test_the_table_strip_shows_who_folded_and_who_is_liable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Jiaxing 三摊 (RULES.md §1): the table image marks folded players and liable pairs;
    the strip under a hand now does too, so a player sees it on their own screen."""
    badges = record_calls(monkeypatch, hand, "badge", 4)
    view = sample_player_view("jiaxing")
    seats = list(view.public.seats)
    seats[1] = replace(seats[1], folded=True)
    seats[2] = replace(seats[2], liable_with=(0,))
    seats[3] = replace(seats[3], liable_with=(0, 1))
    public = replace(view.public, seats=tuple(seats), current_seat=0)
    render_hand(replace(view, public=public), names=SAMPLE_NAMES, locale="en")
    assert {"Folded", "Liable E", "Liable E S"} <= set(badges)


@pytest.mark.parametrize(("locale", "tag"), [("zh", "财神"), ("zh-TW", "財神"), ("en", "财神")])
def test_the_wild_tiles_tag_is_in_the_images_script(
    monkeypatch: pytest.MonkeyPatch, locale: str, tag: str
) -> None:
    """A zh-TW image tagged Taizhou's wild tiles 财神 in Simplified beside its own 財神
    label; the tag follows the image's script (English images keep the Chinese word)."""
    markers = record_calls(monkeypatch, hand, "tile_sprite", 2)
    render_hand(sample_player_view("taizhou"), names=SAMPLE_NAMES, locale=locale)
    assert tag in markers
    assert ({"财神", "財神"} - {tag}).isdisjoint(markers)


def test_an_invalid_win_card_shows_the_hand_it_is_about(monkeypatch: pytest.MonkeyPatch) -> None:
    """The calculator's "无效胡牌" card said why (no qualifying type) beside no tiles: the
    reason reads against the hand, which is drawn as a winning hand is."""
    import render.result as result_module
    from bot.cogs.calculator import score_request
    from render.alt_text import describe_result

    view, result = score_request(
        variant="jiaxing", hand="123m456p789s55s", win_tile="5s", indicator="9p",
        melds="234m", by="self_draw", seat_wind="1z", prevailing_wind="1z",
    )  # fmt: skip
    assert not result.valid and result.hand is not None
    tiles = record_calls(monkeypatch, result_module, "tile_sprite", 0)
    png = render_result(view, result, names=["东家", "南家", "西家", "北家"], locale="zh")
    assert sorted(tiles[: len(result.hand.concealed)]) == sorted(result.hand.concealed)
    assert Image.open(io.BytesIO(png)).height > 300
    described = describe_result(view, result, ["东家", "南家", "西家", "北家"], "zh")
    assert "手牌" in described and "无效胡牌" in described  # the alt text says it too


# --------------------------------------------------------------------------- on a phone


def _sample_views() -> list[tuple[str, PlayerView]]:
    from render.samples import sample_waiting_view

    return [
        (f"{variant}-{kind}", build(variant))
        for variant in ("jiaxing", "taizhou")
        for kind, build in (
            ("turn", sample_player_view),
            ("claim", sample_claim_view),
            ("waiting", sample_waiting_view),
        )
    ]


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_no_text_in_the_hand_image_is_too_small_for_a_phone(
    monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    """At 36 % (a 360 px wide phone) the header's 摸 / Drew was 5.8 CSS px, names and 余牌
    7.2, 可以 7.9: now no text is under 30 source px (11 CSS px), and what a player looks
    for (own name, tiles left, the claim headline, the waits' caption) is 36 to 44."""
    drawn = record_texts(monkeypatch, hand)
    badges = record_calls(monkeypatch, hand, "badge", 6)
    for _name, view in _sample_views():
        render_hand(view, names=SAMPLE_NAMES, locale=locale)
    assert drawn and badges
    assert min(text.size for text in drawn) >= 30, min(drawn, key=lambda text: text.size)
    assert min(badges) >= 30

    def size_of(text: str) -> int:
        return max(t.size for t in drawn if t.text.startswith(text))

    assert size_of(SAMPLE_NAMES[0]) >= 40  # own name
    assert size_of(label("tiles_left", locale)) >= 36
    assert size_of(label("waits", locale)) >= 36
    headline, _who = hand.claim_headline(sample_claim_view("jiaxing"), SAMPLE_NAMES, locale)
    assert size_of(headline) >= 44
    assert size_of(label("drawn", locale)) >= 30
    assert size_of(label("claim_offer", locale)) >= 30
    for name in SAMPLE_NAMES[1:]:  # the other seats' names in the strip
        assert size_of(name) >= 32


def _tiles_drawn(
    monkeypatch: pytest.MonkeyPatch, view: PlayerView
) -> list[tuple[int | None, int, float, float]]:
    """Every tile ``render_hand`` pastes: (kind, or None for a back, width, x, y)."""
    made: dict[int, tuple[int | None, int]] = {}
    pasted: list[tuple[int | None, int, float, float]] = []
    tile_sprite, back_sprite, paste = hand.tile_sprite, hand.back_sprite, hand.paste

    def tile(kind: int, width: int, *args: object, **kwargs: object) -> Image.Image:
        sprite = tile_sprite(kind, width, *args, **kwargs)  # type: ignore[arg-type]
        made[id(sprite)] = (kind, width)
        return sprite

    def back(width: int, **kwargs: object) -> Image.Image:
        sprite = back_sprite(width, **kwargs)  # type: ignore[arg-type]
        made[id(sprite)] = (None, width)
        return sprite

    def pasting(
        canvas: Image.Image, sprite: Image.Image, x: float, y: float, *rest: object
    ) -> None:
        if id(sprite) in made:
            pasted.append((*made[id(sprite)], x, y))
        paste(canvas, sprite, x, y, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(hand, "tile_sprite", tile)
    monkeypatch.setattr(hand, "back_sprite", back)
    monkeypatch.setattr(hand, "paste", pasting)
    render_hand(view, names=SAMPLE_NAMES)
    return pasted


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_indicator_wild_and_waits_are_drawn_50_px_wide_by_the_hand(
    monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    """The indicator and the wild were 36 px (13 CSS px) in the header, the waits 38 in
    a corner under the melds: now they are at least 50 px wide, and the waits stand
    beside the hand, or in the row right under it when the hand fills its row."""
    from render.samples import sample_waiting_view

    view = sample_waiting_view(variant)
    public = view.public
    tiles = _tiles_drawn(monkeypatch, view)
    header = [t for t in tiles if t[3] < hand._HandLayout().header_h]
    assert {kind for kind, _w, _x, _y in header} == {public.indicator, public.wild}
    assert min(width for _k, width, _x, _y in header) >= 50
    own_w = max(width for _k, width, _x, _y in tiles)  # the concealed row's tiles
    own_y = min(y for _k, width, _x, y in tiles if width == own_w)
    strip_top = min(y for _k, width, _x, y in tiles if width == hand.TABLE_TILE)
    waits = [t for t in tiles if t[0] in view.waits and t[1] < own_w and t[3] < strip_top]
    assert len(waits) == len(view.waits) and min(t[1] for t in waits) >= 50
    own_bottom = own_y + tile_height(own_w)
    for _kind, width, _x, y in waits:  # beside the hand: within its row
        assert own_y <= y and y + tile_height(width) <= own_bottom + 1
    # A 13-tile hand leaves no room beside it: the waits go right under it.
    thirteen = replace(view, concealed=tuple(sorted([0, 0, 0, *range(1, 8), 8, 8, 8])), melds=())
    monkeypatch.undo()
    tiles = _tiles_drawn(monkeypatch, thirteen)
    own_w = max(width for _k, width, _x, _y in tiles)
    own_bottom = min(y for _k, width, _x, y in tiles if width == own_w) + tile_height(own_w)
    strip_top = min(y for _k, width, _x, y in tiles if width == hand.TABLE_TILE)
    waits = [t for t in tiles if t[0] in view.waits and t[1] < own_w and t[3] < strip_top]
    assert waits and all(own_bottom <= y <= own_bottom + 40 for _k, _w, _x, y in waits)
    assert all(y + tile_height(w) < strip_top for _k, w, _x, y in waits)


def test_the_strip_draws_each_seats_hidden_tiles_as_a_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The others' hidden tiles: one back and "×10", not a row of 6 px backs nobody can
    count on a phone; the strip's tiles are 60 px wide (21.6 CSS px)."""
    drawn = record_texts(monkeypatch, hand)
    view = sample_player_view("jiaxing")
    view = _with_seat(view, 2, concealed_count=10)
    tiles = _tiles_drawn(monkeypatch, view)
    others = [view.public.seats[seat] for seat in (1, 2, 3)]
    counts = [text.text for text in drawn if text.text.startswith("×")]
    assert counts == [f"×{seat.concealed_count}" for seat in others]
    assert "×10" in counts
    # One back each (a concealed kong's backs are drawn with its meld, at strip size).
    small_backs = [t for t in tiles if t[0] is None and t[1] < hand.TABLE_TILE]
    assert len(small_backs) == len(others)
    river = [t for t in tiles if t[0] is not None and t[1] == hand.TABLE_TILE]
    assert len(river) >= sum(len(seat.discards) for seat in others)


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_a_late_river_is_drawn_whole_in_rows(variant: str) -> None:
    """A Taizhou player reads whole rivers for defence: a river longer than a row wraps
    to the next (15 tiles a row), oldest first, rather than losing its first discards."""
    view = sample_player_view(variant)
    long_river = tuple(DiscardView(kind % 27) for kind in range(22))
    one_row = compose_hand(_with_seat(view, 2, discards=long_river[:15], melds=()))
    two_rows = compose_hand(_with_seat(view, 2, discards=long_river, melds=()))
    assert one_row.height == compose_hand(view).height
    assert two_rows.height - one_row.height >= tile_height(hand.TABLE_TILE)


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_a_mid_hand_and_a_claim_stay_about_1200_px_tall(variant: str) -> None:
    """Taller than before (561 to 747 px) for text and tiles a phone can read, and by a
    row for the seat's own river (about 106 px), but a mid-hand view and a claim still
    fit about a phone screen and a half."""
    for view in (sample_player_view(variant), sample_claim_view(variant)):
        assert compose_hand(view, names=SAMPLE_NAMES).height <= 1200


@pytest.mark.parametrize("locale", ["zh", "en"])
@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_the_hand_png_is_composed_on_the_palette_with_the_rgb_images_pixels(
    monkeypatch: pytest.MonkeyPatch, variant: str, locale: str
) -> None:
    """The phone-first image has half as many pixels again: ``render_hand`` composes it
    on the shared palette (as the table does) rather than mapping an RGB image, and the
    pixels are those the mapping gives (badges' text kept inside its pill)."""
    from render.layout import shared_palette

    encoded = record_calls(monkeypatch, hand, "encode_png", 0)
    for view in (sample_player_view(variant), sample_claim_view(variant)):
        decoded = Image.open(io.BytesIO(render_hand(view, names=SAMPLE_NAMES, locale=locale)))
        rgb = compose_hand(view, names=SAMPLE_NAMES, locale=locale)
        assert rgb.mode == "RGB"
        reference = rgb.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
        assert decoded.tobytes() == reference.tobytes()
    assert [image.mode for image in encoded] == ["P", "P"]


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_the_seats_own_river_and_state_are_drawn_under_its_hand(
    monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    """A player sees their own discards at a real table (Taizhou's skipped win reads
    against them, and so does defence): the strip showed only the others' rivers, and
    the alt text listed the player's own. Now their river is a band of its own, the
    first under the hand, at the strip's tile size, led by their wind and "你的弃牌",
    with their 承包 / 不跟 where the others' bands show it; no band before the first
    discard."""
    from render.alt_text import describe_hand

    view = sample_player_view("jiaxing")
    own = view.public.seats[0]
    assert own.discards
    liable = _with_seat(view, 0, liable_with=(1,))
    tiles = _tiles_drawn(monkeypatch, liable)
    monkeypatch.undo()
    strip = [t for t in tiles if t[1] == hand.TABLE_TILE and t[0] is not None]
    first_row = min(y for _k, _w, _x, y in strip)
    own_row = sorted((x, kind) for kind, _w, x, y in strip if y == first_row)
    assert [kind for _x, kind in own_row] == [discard.tile for discard in own.discards]
    others = [t for t in strip if (t[2], t[0]) not in own_row]
    assert others and all(y > first_row for _k, _w, _x, y in others)  # then the others

    caption = label("own_discards", locale)
    texts = record_texts(monkeypatch, hand)
    badges = record_calls(monkeypatch, hand, "badge", 4)
    render_hand(liable, names=SAMPLE_NAMES, locale=locale)
    state = f"{label('liable', locale)} {'南' if locale == 'zh' else 'S'}"
    assert [text.size for text in texts if text.text == caption] == [32] and state in badges
    assert label("liable", locale) in describe_hand(liable, SAMPLE_NAMES, locale)
    # Folded: its band says so.
    badges.clear()
    render_hand(_with_seat(view, 0, folded=True), names=SAMPLE_NAMES, locale=locale)
    assert label("folded", locale) in badges
    # Nothing discarded and nothing to say: no band; a river costs one row and a margin.
    texts.clear()
    empty = _with_seat(view, 0, discards=())
    render_hand(empty, names=SAMPLE_NAMES, locale=locale)
    assert caption not in [text.text for text in texts]
    band = compose_hand(view).height - compose_hand(empty).height
    assert band == tile_height(hand.TABLE_TILE) + 4 + 22


@pytest.mark.parametrize(
    ("locale", "caption"), [("zh", "待吃碰"), ("zh-TW", "待吃碰"), ("en", "On offer")]
)
def test_a_tile_on_offer_to_others_is_not_captioned_as_the_viewers_option(
    monkeypatch: pytest.MonkeyPatch, locale: str, caption: str
) -> None:
    """The tile in a claim window, on the hand of a player with no claim on it (their own
    discard, say): 可吃碰 read as "you may chow or pung" to a Chinese player."""
    drawn = record_texts(monkeypatch, hand)
    view = sample_claim_view("jiaxing")
    watching = replace(view, legal=(Action(PASS, view.seat),))
    render_hand(watching, names=list(SAMPLE_NAMES), locale=locale)
    texts = [text.text for text in drawn]
    assert caption in texts and "可吃碰" not in texts, texts
