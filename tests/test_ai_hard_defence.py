"""``hard``'s fitted reading of the other seats (``engine.ai_hard_defence``, issue 16)."""

from __future__ import annotations

import math
import random

from benchmarks.fit_deal_in import collect
from engine import ai_hard_defence as defence
from engine.ai import choose_action
from engine.match import Match
from engine.tiles import parse_tile
from engine.views import PlayerView


def _log_loss(pairs: list[tuple[float, bool]]) -> float:
    total = 0.0
    for chance, happened in pairs:
        chance = min(max(chance, 1e-6), 1.0 - 1e-6)
        total -= math.log(chance if happened else 1.0 - chance)
    return total / len(pairs)


def test_fitted_reading_predicts_deal_ins_and_readiness_better_than_the_tables() -> None:
    """On fresh self-play hands (a seed the fit never saw), the fitted models must beat
    the hand-set tables they replace: a broken feature, a coefficient out of order or a
    model that stopped reading the opponent fails here."""
    ready_rows, hit_rows = collect("taizhou", 25, "test")
    assert len(hit_rows) > 5_000 and sum(1 for row in hit_rows if row[2]) > 30
    fitted_hits = [
        (defence._logistic(defence.HIT["taizhou"], tuple(opponent + tile)), happened)
        for opponent, tile, happened, _ in hit_rows
    ]
    table_hits = [(table, happened) for _, _, happened, table in hit_rows]
    assert _log_loss(fitted_hits) < 0.95 * _log_loss(table_hits)

    fitted_ready = [
        (defence._logistic(defence.READY["taizhou"], tuple(features)), happened)
        for features, happened, _ in ready_rows
    ]
    table_ready = [(table, happened) for _, happened, table in ready_rows]
    assert _log_loss(fitted_ready) < 0.95 * _log_loss(table_ready)


def _late_view() -> PlayerView:
    """A Taizhou hand some turns in, from seat 0's view at its discard."""
    match = Match("taizhou", None, "defence-view")
    for _ in range(400):
        seat = match.round.waiting_on[0]
        view = match.player_view(seat)
        if seat == 0 and view.public.phase == "turn" and len(view.public.seats[0].discards) >= 5:
            return view
        match.apply(choose_action(view, "normal", random.Random(view.public.turn_id)))
    raise AssertionError("no late discard for seat 0")


def test_a_wild_or_a_tile_let_go_by_is_never_won_on() -> None:
    view = _late_view()
    public = view.public
    wild = public.wild
    assert wild is not None
    for seat_view in public.seats[1:]:
        read = defence.read_opponent(view, seat_view)
        assert defence.hit_chance("taizhou", read, wild, 3, wild) == 0.0
        for kind in read.passed:
            assert defence.hit_chance("taizhou", read, kind, 3, wild) == 0.0
    # The seat just before us let nothing go by since its turn; the one before that let
    # its right neighbour's discard go by.
    assert not defence.read_opponent(view, public.seats[3]).passed
    latest = public.seats[3].discards[-1].tile
    assert latest in defence.read_opponent(view, public.seats[2]).passed


def test_readiness_and_danger_rise_with_melds_and_turns_and_fall_for_its_own_discards() -> None:
    """What a player of these rules knows: three melds up late in the hand is likely
    ready; a tile the seat threw away itself is rarely its wait; a fresh middle tile is
    riskier than a terminal."""
    view = _late_view()
    seat_view = view.public.seats[1]
    read = defence.read_opponent(view, seat_view)
    early = defence.OpponentRead(
        read.seat,
        (1.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.04, 0.8),
        frozenset(),
        frozenset(),
        frozenset(),
        (0.3, 0.3, 0.2, 0.2),
        read.valued_honors,
    )
    late = defence.OpponentRead(
        read.seat,
        (1.0, 0.0, 0.0, 1.0, 0.0, 0.8, 0.64, 0.3),
        frozenset({parse_tile("5p")}),
        frozenset(),
        frozenset(),
        (0.3, 0.3, 0.2, 0.2),
        read.valued_honors,
    )

    def ready(read: defence.OpponentRead) -> float:
        chance = defence.ready_chance("taizhou", read)
        assert chance is not None
        return chance

    def hit(read: defence.OpponentRead, tile: str) -> float:
        chance = defence.hit_chance("taizhou", read, parse_tile(tile), 3, None)
        assert chance is not None
        return chance

    assert ready(late) > 3 * ready(early)
    assert hit(late, "5m") > hit(early, "5m")
    assert hit(late, "5m") > hit(late, "1m")
    assert hit(late, "5m") > 2 * hit(late, "5p")  # it threw a 5p away itself
