"""The round's cheaper views and actions are the same values as the plain ones.

Why: at a thousand tables the round builds views and legal actions a thousand times a
second, so it keeps what a seat's tiles give (its sorted tiles, its waits) by the tiles,
hands out shared action objects and fills its frozen views without ``__init__``
(``engine.views.built``). None of that may show: a view must equal one built the plain
way, an edit of a position must never be answered from before the edit, and nothing a
consumer gets may be changed in place.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import choose_action
from engine.match import Match
from engine.round import Round
from engine.tiles import from_counts
from engine.types import Action, Meld
from engine.views import DiscardView, PlayerView, PublicView, SeatView, built


def _plain_player_view(round_: Round, seat: int, public: PublicView) -> PlayerView:
    counts = list(round_.hands[seat])
    drawn = round_.drawn[seat] if round_.phase == "turn" and round_.current_seat == seat else None
    if drawn is not None:
        counts[drawn] -= 1
    return PlayerView(
        seat=seat,
        public=public,
        concealed=tuple(from_counts(counts)),
        drawn=drawn,
        legal=tuple(
            round_._turn_actions(seat)
            if round_.phase == "turn" and seat == round_.current_seat
            else round_.legal_actions(seat)
        ),
        melds=tuple(round_.melds[seat]),
        skipped_win=tuple(sorted(round_.skipped_win[seat])),
        claim_tile=round_.window.tile if round_.window is not None else None,
        waits=_plain_winning_waits(round_, seat),
    )


def _plain_winning_waits(round_: Round, seat: int) -> tuple[int, ...]:
    """The shape's waits on which a win would be valid, worked out afresh each time."""
    if sum(round_.hands[seat]) % 3 != 1:
        return ()
    return tuple(
        tile
        for tile in round_.waits(seat)
        if round_.preview_win(seat, tile, "self_draw") is not None
        or (round_.variant.discard_wins and round_.preview_win(seat, tile, "discard") is not None)
    )


def _plain_seat_view(round_: Round, seat: int) -> SeatView:
    fresh = round_._new_seat_view(seat)
    return SeatView(**{f.name: getattr(fresh, f.name) for f in dataclasses.fields(SeatView)})


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_every_view_of_a_game_equals_the_plain_one(variant: str) -> None:
    match = Match(variant, None, f"views:{variant}")
    rng = random.Random(variant)
    for _ in range(400):
        if match.finished:
            break
        round_ = match.round
        public = match.public_view()
        assert public == PublicView(
            **{f.name: getattr(public, f.name) for f in dataclasses.fields(PublicView)}
        )
        for seat in range(round_.num_seats):
            assert public.seats[seat] == _plain_seat_view(round_, seat)
            view = round_.player_view(seat, public=public)
            assert view == _plain_player_view(round_, seat, public)
            assert repr(view) == repr(_plain_player_view(round_, seat, public))
        seat = round_.waiting_on[0]
        match.apply(choose_action(match.player_view(seat), "easy", rng))


def test_an_edited_hand_shows_in_the_next_view() -> None:
    match = Match("jiaxing", None, "views-edit")
    round_ = match.round
    seat = (round_.dealer + 1) % round_.num_seats
    before = round_.player_view(seat)
    held = next(kind for kind in range(34) if round_.hands[seat][kind] and kind != round_.wild)
    missing = next(
        kind for kind in range(27) if not round_.hands[seat][kind] and kind != round_.wild
    )
    round_.hands[seat][held] -= 1  # a test's in-place edit, clearing no cache
    round_.hands[seat][missing] += 1
    after = round_.player_view(seat)
    assert missing in after.concealed and missing not in before.concealed
    assert after.waits == _plain_winning_waits(round_, seat)


def test_built_views_are_frozen_and_equal_to_constructed_ones() -> None:
    fields: dict[str, Any] = {
        "seat": 2,
        "seat_wind": 29,
        "is_dealer": False,
        "concealed_count": 13,
        "melds": (),
        "discards": (),
        "folded": False,
        "score": -4,
        "liable_with": (1,),
    }
    view = built(SeatView, fields)
    assert view == SeatView(**fields)
    assert hash(view) == hash(SeatView(**fields))
    assert repr(view) == repr(SeatView(**fields))
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.score = 0  # type: ignore[misc]


def test_what_a_view_hands_out_cannot_be_changed_in_place() -> None:
    match = Match("taizhou", None, "views-frozen")
    seat = match.round.current_seat
    assert seat is not None
    view = match.player_view(seat)
    assert isinstance(view.legal, tuple) and isinstance(view.concealed, tuple)
    assert isinstance(view.waits, tuple)
    shared = view.legal[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        shared.tile = 5  # type: ignore[misc]
    listed = match.legal_actions(seat)
    listed.clear()  # the caller's own list
    assert match.player_view(seat).legal == view.legal
    assert Action("discard", seat, tile=view.concealed[0]) in match.legal_actions(seat)


def _near_win(rng: random.Random, tiles: int, wild: int | None) -> list[int]:
    """Counts (the wild kind and Whites included) of ``tiles`` tiles, most of them one
    tile from a win: sets and a pair, or seven pairs, less a tile, now and then a tile
    swapped, jokers and Whites sprinkled in."""
    hand = [0] * 34
    if tiles == 13 and rng.random() < 0.3:
        for kind in rng.sample(range(34), 7):
            hand[kind] += 2
    else:
        for _ in range(tiles // 3):
            if rng.random() < 0.5:
                low = rng.randrange(3) * 9 + rng.randrange(7)
                for kind in (low, low + 1, low + 2):
                    hand[kind] += 1
            else:
                hand[rng.randrange(34)] += 3
        hand[rng.randrange(34)] += 2
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        held = [kind for kind in range(34) if hand[kind]]
        hand[rng.choice(held)] -= 1
        hand[rng.choice((wild if wild is not None else 31, 31, rng.randrange(34)))] += 1
    while sum(hand) > tiles:
        held = [kind for kind in range(34) if hand[kind]]
        hand[rng.choice(held)] -= 1
    return hand if max(hand) <= 4 else _near_win(rng, tiles, wild)


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_a_discard_outside_the_waits_never_wins(variant: str) -> None:
    """``Round._may_win_on`` may skip the shape check of another seat's discard only when
    the check would fail: every tile that completes some reading is a wait."""
    round_ = Round(variant, seed="gate")
    rng = random.Random(f"gate:{variant}")
    wins = 0
    for _ in range(1500):
        seat = rng.randrange(4)
        round_.wild = rng.choice((None, 31, 13, 27, rng.randrange(34)))
        melds = rng.randrange(3)
        round_.melds[seat] = [Meld("pung", (33, 33, 33))] * melds
        round_.hands[seat] = _near_win(rng, 13 - 3 * melds, round_.wild)
        for tile in range(34):
            wins_on_it = round_._shape_ok(seat, tile)
            wins += wins_on_it
            if wins_on_it:
                assert round_._may_win_on(seat, tile), (round_.hands[seat], round_.wild, tile)
    assert wins > 300  # the check met many winning tiles


def test_from_counts_lists_every_copy_in_kind_order() -> None:
    rng = random.Random("from_counts")
    for _ in range(3000):
        counts = [rng.choice((0, 0, 0, 1, 2, 3, 4, 5)) for _ in range(34)]
        assert from_counts(counts) == [kind for kind in range(34) for _ in range(counts[kind])]


def _scratch_public_view(match: Match) -> PublicView:
    """The match's public view with every view cache of the round forgotten first."""
    round_ = match.round
    round_._seat_views.clear()
    round_._settled_discard_views = [() for _ in range(round_.num_seats)]
    return match.public_view()


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    variant=st.sampled_from(["jiaxing", "taizhou"]),
    level=st.sampled_from(["easy", "random"]),
)
def test_views_kept_between_actions_equal_views_built_from_scratch(
    seed: int, variant: str, level: str
) -> None:
    """The seat views kept from one action to the next (``Round._seat_views_now``) and the
    shared discard views give exactly what a round with no kept views gives, after
    every action of a seeded game, a claim and a hand's end included; a view built
    after ``apply`` never shows the position before it."""
    match = Match(variant, None, f"kept-views:{seed}")
    rng = random.Random(seed)
    for _ in range(160):
        if match.finished:
            break
        kept = match.public_view()
        assert kept.turn_id == match.turn_id
        scratch = _scratch_public_view(match)
        assert kept == scratch and repr(kept) == repr(scratch)
        for seat_view, fresh in zip(kept.seats, scratch.seats, strict=True):
            assert seat_view.discards == fresh.discards
        seat = match.round.waiting_on[0]
        match.apply(choose_action(match.player_view(seat), level, rng))
        after = match.public_view()
        assert after != kept and after == _scratch_public_view(match)


def test_a_seat_view_follows_edits_of_what_it_shows() -> None:
    """Each thing a seat view shows, changed by hand with no cache cleared, shows in the
    next public view: the latest discard claimed, the seat's tiles, its fold, its score,
    its melds, a liability pair, the dealer."""
    match = Match("jiaxing", None, "seat-view-edits")
    for _ in range(8):
        seat = match.round.waiting_on[0]
        match.apply(match.round.default_action(seat))  # type: ignore[arg-type]
    round_ = match.round
    seat = next(s for s in range(4) if round_.discards[s])
    edits = [
        lambda: setattr(round_.discards[seat][-1], "claimed", True),
        lambda: setattr(round_.discards[seat][-1], "by_seat", (seat + 1) % 4),
        lambda: round_.hands[seat].__setitem__(33, round_.hands[seat][33] + 1),
        lambda: round_.folded.add(seat),
        lambda: round_.scores.__setitem__(seat, round_.scores[seat] + 5),
        lambda: round_.melds[seat].append(Meld("pung", (33, 33, 33), from_seat=0, claimed=33)),
        lambda: round_.santan_pairs.append((seat, (seat + 1) % 4)),
        lambda: setattr(round_, "dealer", (round_.dealer + 1) % 4),
    ]
    for edit in edits:
        # Read before the edit: a view's seats are built when first read, and an edit
        # by hand (unlike an action) does not build the views made before it.
        before = match.public_view().seats[seat]
        edit()
        after = match.public_view()
        assert after.seats[seat] != before
        assert after == _scratch_public_view(match)


def test_views_have_slots_and_survive_pickling() -> None:
    """A view is one object (no instance dictionary) and still a plain frozen value."""
    match = Match("taizhou", None, "views-slots")
    for _ in range(30):
        seat = match.round.waiting_on[0]
        match.apply(match.round.default_action(seat))  # type: ignore[arg-type]
    seat = match.round.waiting_on[0]
    view = match.player_view(seat)
    river_seat = next(s.seat for s in view.public.seats if s.discards)
    river = view.public.seats[river_seat].discards
    for value in (view, view.public, view.public.seats[0], river[0]):
        assert not hasattr(value, "__dict__")
        again = pickle.loads(pickle.dumps(value))
        assert again == value and hash(again) == hash(value)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, 3)
    assert dataclasses.replace(view.public, turn_id=7).turn_id == 7
    # one shared object per (tile, claimed, by whom): rivers of every table share them
    other = Match("jiaxing", None, "views-slots-other")
    fresh_river = _scratch_public_view(match).seats[river_seat].discards
    assert all(shared is fresh for shared, fresh in zip(river, fresh_river, strict=True))
    assert DiscardView(river[0].tile, river[0].claimed, river[0].by_seat) == river[0]
    assert other.public_view().seats[0].discards == ()


def test_actions_compare_as_the_generated_comparison_does() -> None:
    """``Action.__eq__`` is written out for speed; it answers as the dataclass one would:
    equal exactly when the class and every field are, and consistent with the hash."""
    rng = random.Random("action-eq")
    kinds = ("discard", "chow", "pung", "kong", "win", "pass")
    actions = [
        Action(
            rng.choice(kinds),  # type: ignore[arg-type]
            rng.randrange(3),
            tile=rng.choice((None, 0, 1)),
            tiles=rng.choice((None, (0, 1, 2), (1, 2, 3))),
        )
        for _ in range(300)
    ]
    fields = [f.name for f in dataclasses.fields(Action)]
    for first in actions:
        for second in actions[:60]:
            same = all(getattr(first, name) == getattr(second, name) for name in fields)
            assert (first == second) is same and (first != second) is not same
            if same:
                assert hash(first) == hash(second)
    assert Action("pass", 0) != ("pass", 0, None, None)
    assert Action("pass", 0).__eq__(object()) is NotImplemented


def test_the_round_keeps_only_the_latest_turns_legal_actions() -> None:
    """A turn's legal actions are kept for that turn only: a hand does not pile up a
    list per turn (each one more object for the collector), and the turn's list is
    still the one handed out again and again within the turn."""
    match = Match("jiaxing", None, "turn-legal-kept")
    rng = random.Random(5)
    for _ in range(60):
        round_ = match.round
        seat = round_.waiting_on[0]
        view = match.player_view(seat)
        if round_.phase == "turn":
            assert round_._legal(seat) is view.legal
        match.apply(choose_action(view, "easy", rng))
        kept = [key for key in match.round._win_cache if key[0] == "turn"]
        assert len(kept) <= 1


def _eager(view: PublicView) -> PublicView:
    """The same view as a plain ``PublicView`` (every field read now)."""
    return PublicView(**{f.name: getattr(view, f.name) for f in dataclasses.fields(view)})


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**6), variant=st.sampled_from(["jiaxing", "taizhou"])
)
def test_a_public_view_read_after_later_actions_shows_the_position_it_was_made_in(
    seed: int, variant: str
) -> None:
    """A public view's seats are built when first read; one still held when the round
    moves on is built first, so it shows the position it was made in, however late it
    is read (a presenter reading a status after the next moves)."""
    match = Match(variant, None, f"unbuilt:{seed}")
    rng = random.Random(seed)
    held: list[tuple[PublicView, PublicView]] = []
    for _ in range(60):
        if match.finished:
            break
        view = match.public_view()
        if rng.random() < 0.5:
            held.append((view, _eager(match.public_view())))  # read now, from a twin
        seat = match.round.waiting_on[0]
        match.apply(rng.choice(match.round.legal_actions(seat)))
    for late, at_the_time in held:
        assert late == at_the_time and at_the_time == late
        assert hash(late) == hash(at_the_time) and repr(late) == repr(at_the_time)


def test_a_public_view_nobody_reads_or_holds_never_builds_its_seats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The saving: a view dropped before the next action (the AI read its wild and
    rule set only) costs no seat views; one read, or held over the action, does."""
    builds: list[Round] = []
    real = Round._seat_views_now

    def counted(self: Round) -> Any:
        builds.append(self)
        return real(self)

    monkeypatch.setattr(Round, "_seat_views_now", counted)
    match = Match("jiaxing", None, "unbuilt-saving")
    for _ in range(10):
        view = match.public_view()
        assert view.wild == match.round.wild and view.variant == "jiaxing"
        del view
        seat = match.round.waiting_on[0]
        match.apply(match.round.default_action(seat))  # type: ignore[arg-type]
    assert builds == []
    held = match.public_view()
    seat = match.round.waiting_on[0]
    match.apply(match.round.default_action(seat))  # type: ignore[arg-type]
    assert len(builds) == 1  # built before the move, not when read
    assert held.seats is held.seats and len(builds) == 1


def test_views_read_on_worker_threads_while_the_round_moves_show_their_own_position() -> None:
    """A renderer reads a status's view on a worker thread while the loop thread applies
    the next move: whichever builds the seats first, the view shows the position it
    was made in, and no read fails."""
    import sys
    import threading

    match = Match("taizhou", None, "unbuilt-threads")
    held: list[tuple[PublicView, PublicView]] = []
    failures: list[BaseException] = []

    def read(view: PublicView) -> None:
        try:
            view.seats  # noqa: B018 - builds it, perhaps while the round moves
        except BaseException as error:  # pragma: no cover - reported below
            failures.append(error)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter allows
    try:
        for _ in range(80):
            if match.finished:
                break
            view = match.public_view()
            held.append((view, _eager(match.public_view())))
            reader = threading.Thread(target=read, args=(view,))
            reader.start()
            seat = match.round.waiting_on[0]
            match.apply(match.round.default_action(seat))  # type: ignore[arg-type]
            reader.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert all(late == at_the_time for late, at_the_time in held)
