"""What one action costs: work done once per position, not once per caller.

Why: at a thousand tables every action's CPU is multiplied a thousand times a second
(``benchmarks/bench_sessions.py``, issue 15). These pin the savings that keep it down —
a turn's legal actions computed once for the view, the AI and ``apply`` — and that the
saving never answers from a stale position — and a table's timer and deadlines
handled with as little as a move needs.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from bot.recording import RecordingPresenter
from bot.scheduling import _Wake
from bot.session import FakeClock, SystemClock, TableManager, TableSession
from data import Store
from engine.match import Match
from engine.round import Round
from engine.types import Action


def _turn_position(seed: str = "cost") -> Match:
    match = Match("jiaxing", seed=seed)
    assert match.round.phase == "turn"
    return match


def test_a_turn_computes_its_legal_actions_once_for_view_and_apply() -> None:
    match = _turn_position()
    seat = match.round.current_seat
    assert seat is not None
    with mock.patch.object(
        Round, "_turn_actions", autospec=True, side_effect=Round._turn_actions
    ) as turn_actions:
        view = match.player_view(seat)
        assert match.legal_actions(seat) == list(view.legal)
        discard = next(action for action in view.legal if action.type == "discard")
        match.apply(discard)
    assert turn_actions.call_count == 1


def test_an_edited_hand_is_never_answered_from_before_the_edit() -> None:
    match = _turn_position("cost-edit")
    round_ = match.round
    seat = round_.current_seat
    assert seat is not None
    before = round_.legal_actions(seat)
    kind = next(kind for kind in range(27) if round_.hands[seat][kind] == 0)
    held = next(
        kind for kind in range(34) if round_.hands[seat][kind] and kind != round_.drawn[seat]
    )
    round_.hands[seat][held] -= 1  # a test's in-place edit, without clearing any cache
    round_.hands[seat][kind] += 1
    after = round_.legal_actions(seat)
    assert Action("discard", seat, tile=kind) in after
    assert Action("discard", seat, tile=kind) not in before


def test_the_cached_list_is_the_callers_own() -> None:
    match = _turn_position("cost-copy")
    seat = match.round.current_seat
    assert seat is not None
    first = match.legal_actions(seat)
    first.clear()
    assert match.legal_actions(seat)


async def _all_ai_table(
    tmp_path: Path, clock: Any, ai_delay: float
) -> tuple[Store, TableManager, TableSession]:
    store = await Store.open(tmp_path / "cost.db", synchronous="NORMAL")
    manager = TableManager(store, RecordingPresenter(), clock, ai_delay=ai_delay, ai_level="easy")
    table = await manager.create_table(
        1, 10, 100, "host", variant="jiaxing", seed=3, seat_host=False
    )
    await table.start(100)
    return store, manager, table


async def test_the_system_clock_wakes_a_table_with_a_loop_timer_not_a_task(tmp_path: Path) -> None:
    """One loop timer per re-arm (not a task, a future and a timer), and shutdown leaves
    none of them behind."""
    store, manager, table = await _all_ai_table(tmp_path, SystemClock(), ai_delay=0.002)
    try:
        assert table.match is not None
        for _ in range(200):
            if table.match.turn_id >= 12:
                break
            await asyncio.sleep(0.005)
        assert table.match.turn_id >= 12  # the table plays on its own
        assert isinstance(table._timer, _Wake)
        timer = table._timer
    finally:
        await manager.shutdown()
        await store.close()
    assert timer.done()  # cancelled by the shutdown
    turn = table.match.turn_id
    await asyncio.sleep(0.02)
    assert table.match.turn_id == turn


async def test_an_ai_action_walks_the_dues_twice_not_three_times(tmp_path: Path) -> None:
    """Once when its timer fires and once after the move is applied; the loop that looks
    for the next due seat does not walk them again for the same position."""
    clock = FakeClock()
    store, manager, table = await _all_ai_table(tmp_path, clock, ai_delay=1.0)
    try:
        await manager.wait_idle()
        assert table.match is not None
        with mock.patch.object(
            TableSession, "_refresh_dues", autospec=True, side_effect=TableSession._refresh_dues
        ) as refresh:
            turn = table.match.turn_id
            for _ in range(20):
                await clock.advance(1.0)
            played = table.match.turn_id - turn
        assert played >= 15
        assert refresh.call_count <= 2 * played + 2
    finally:
        await manager.shutdown()
        await store.close()


def test_a_public_view_rebuilds_only_the_seats_that_changed() -> None:
    match = _turn_position("cost-seats")
    seat = match.round.current_seat
    assert seat is not None
    first = match.public_view()
    discard = next(action for action in match.legal_actions(seat) if action.type == "discard")
    match.apply(discard)
    with mock.patch.object(
        Round, "_new_seat_view", autospec=True, side_effect=Round._new_seat_view
    ) as rebuilt:
        second = match.public_view()
        second.seats  # noqa: B018 - built when first read (``engine.round``'s unbuilt seats)
    changed = {view.seat for view in second.seats if view != first.seats[view.seat]}
    assert seat in changed
    assert {call.args[1] for call in rebuilt.call_args_list} == changed
    # and the view equals one built from scratch
    match.round._seat_views.clear()
    assert match.public_view() == second


_ACTION_TYPES = ("discard", "chow", "pung", "kong", "win", "pass", "continue", "fold")


@given(
    st.tuples(
        st.sampled_from(_ACTION_TYPES),
        st.integers(0, 3),
        st.none() | st.integers(0, 33),
        st.none() | st.tuples(st.integers(0, 33), st.integers(0, 33), st.integers(0, 33)),
    ),
    st.tuples(
        st.sampled_from(_ACTION_TYPES),
        st.integers(0, 3),
        st.none() | st.integers(0, 33),
        st.none() | st.tuples(st.integers(0, 33), st.integers(0, 33), st.integers(0, 33)),
    ),
)
def test_action_equality_is_field_equality(
    first: tuple[Any, int, int | None, tuple[int, ...] | None],
    second: tuple[Any, int, int | None, tuple[int, ...] | None],
) -> None:
    """``Action.__eq__`` is written out (tile first, the field that usually differs)
    for speed; it must agree with comparing all fields, and with the hash."""
    a, b = Action(*first), Action(*second)
    assert (a == b) == (first == second)
    assert (a != b) == (first != second)
    assert a == Action(*first) and hash(a) == hash(Action(*first))
    assert a != first  # not equal to a tuple of the same fields
