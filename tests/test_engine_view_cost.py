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
import random
from typing import Any

import pytest

from engine.ai import choose_action
from engine.match import Match
from engine.round import Round
from engine.tiles import from_counts
from engine.types import Action
from engine.views import PlayerView, PublicView, SeatView, built


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
        waits=tuple(round_.waits(seat)),
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
    assert after.waits == tuple(round_.waits(seat))


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
