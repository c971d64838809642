"""The ``hard`` AI level (issue 16): replayable, view-only, and defending on purpose."""

from __future__ import annotations

import pickle
import random

import pytest

from engine import ai as base
from engine import ai_hard, shapes
from engine.ai import AIPlayer, _read_table, choose_action
from engine.ai_hard import _folding, _live_dragon, _taizhou_danger
from engine.ai_hard_core import (
    Race,
    ShantenCache,
    calibrated_chance,
    hand_value,
    next_step_outs,
    two_step_chance,
)
from engine.match import Match
from engine.shapes import count_hand
from engine.tiles import parse_tile
from engine.types import CONTINUE, DISCARD, FOLD, PASS, PUNG, WIN, Action
from engine.views import PlayerView
from tests.scenario import act, meld, stage


def _play_match(variant: str, seed: str, levels: list[str], max_actions: int) -> Match:
    match = Match(variant, None, seed)
    players = [AIPlayer(level, f"{seed}:{seat}") for seat, level in enumerate(levels)]
    for _ in range(max_actions):
        if match.finished:
            break
        seat = match.round.waiting_on[0]
        view = match.player_view(seat)
        action = players[seat].choose(view)
        assert action in view.legal, (action, view.legal)
        match.apply(action)
    return match


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_seeded_game_with_hard_seats_replays_exactly(variant: str) -> None:
    levels = ["hard", "normal", "hard", "easy"]
    first = _play_match(variant, f"hard-replay-{variant}", levels, 400)
    second = _play_match(variant, f"hard-replay-{variant}", levels, 400)
    assert first.results, "at least one hand ends in 400 actions"
    assert first.to_json() == second.to_json()
    # The recorded actions alone rebuild the same game (what a restart relies on).
    rebuilt = Match.from_json(first.to_json())
    assert [r.deltas for r in rebuilt.results] == [r.deltas for r in first.results]


def test_hard_is_a_pure_function_of_view_and_rng_seed() -> None:
    match = Match("taizhou", None, "hard-pure")
    players = [AIPlayer("hard", seat) for seat in range(4)]
    checked = 0
    for _ in range(120):
        seat = match.round.waiting_on[0]
        view = match.player_view(seat)
        action = players[seat].choose(view)
        if checked < 25:
            again = pickle.loads(pickle.dumps(view))
            assert choose_action(again, "hard", random.Random(5)) == choose_action(
                view, "hard", random.Random(5)
            )
            assert AIPlayer("hard", seat).choose(again) == action
            checked += 1
        match.apply(action)
        if match.finished:
            break


def _two_dragon_table(
    hand: str,
    drawn: str,
    melds_of_1: list[str],
    concealed_1: str = "1p1p2s3s4s5s7s",
    live: int | None = None,
) -> PlayerView:
    melds = {1: [meld("pung", tiles, from_seat=2) for tiles in melds_of_1]}
    round_ = stage(
        "taizhou",
        [hand, concealed_1, "", ""],
        wild="1z",
        drawn=drawn,
        melds=melds,
        scorer=None,
        live=live,
    )
    return round_.player_view(0)


def test_hard_keeps_the_live_third_dragon_from_a_two_dragon_hand() -> None:
    # White (5z) is our one useless tile and discarding it makes us ready; but seat 1
    # shows pungs of Green and Red: a win on our White makes us pay the whole table.
    view = _two_dragon_table("5z123m456p789s24p66m", "5z", ["666z", "777z"])
    for seed in range(4):
        action = choose_action(view, "hard", random.Random(seed))
        assert action.type == DISCARD and action.tile != parse_tile("5z"), action
    # Without the two dragon pungs the White is simply the tile to let go.
    calm = _two_dragon_table("5z123m456p789s24p66m", "5z", [])
    assert choose_action(calm, "hard", random.Random(0)).tile == parse_tile("5z")


def test_live_dragon_costs_more_while_ready_against_a_developed_hand() -> None:
    # Seat 1 has three melds. Our Red (7z) is live: discarding it while we are ready
    # risks 全包 case 3 (we would pay the whole table), so it costs more than the same
    # discard when we are not ready, and more than a dragon somebody already showed.
    view = _two_dragon_table("123m456p789s345m6m7z", "7z", ["222s", "444s", "888p"], "1p1p5s6s")
    counts, _ = count_hand(view.all_concealed, view.public.wild)
    table = _read_table(view, counts)
    red, green = parse_tile("7z"), parse_tile("6z")
    ready = _taizhou_danger(view, table, red, True, 0.5)
    not_ready = _taizhou_danger(view, table, red, False, 0.5)
    assert ready > not_ready * 1.5
    assert not_ready > 0  # seat 1 may be waiting on it all the same
    shown = stage(
        "taizhou",
        ["123m456p789s345m6m6z", "1p1p5s6s", "", ""],
        wild="1z",
        drawn="6z",
        melds={1: [meld("pung", t, from_seat=2) for t in ("222s", "444s", "888p")]},
        scorer=None,
    )
    act(shown, "discard", 0, "6z")  # Green is no longer live once discarded
    assert not _live_dragon(shown.player_view(1), green)
    assert _live_dragon(view, red)


def _santan_view(concealed: str) -> PlayerView:
    """Seat 2 asked to continue or fold: seat 1 just made its third claim from seat 0."""
    melds = {1: [meld("pung", "111s", from_seat=0), meld("pung", "333s", from_seat=0)]}
    round_ = stage(
        "jiaxing",
        ["2s5s6s7s8s9s2m3m4m5m6m7m8m9m", "2s2s4s4s5s6s7s", concealed, "1p2p3p4p5p6p7p8p9p1z2z3z4z"],
        wild="9p",
        drawn="2s",
        melds=melds,
        scorer=None,
    )
    round_.claim_counts[(1, 0)] = 2  # staging does not count the staged claims
    act(round_, "discard", 0, "2s")
    round_.apply(Action(PUNG, 1))
    assert round_.phase == "santan"
    return round_.player_view(2)


def test_hard_folds_far_behind_and_continues_when_ready_under_santan() -> None:
    # Far: a scattered hand, and the liable pair shows three bamboo pungs -> fold.
    far = _santan_view("1m4m7m2p5p8p3z5z7z1z2z6z4s")
    assert choose_action(far, "hard", random.Random(0)).type == FOLD
    # Ready on a full flush in characters: the 5x payments are ours to collect.
    close = _santan_view("111m234m567m88m6z6z")
    assert choose_action(close, "hard", random.Random(0)).type == CONTINUE


def test_hard_folds_one_step_from_ready_under_santan_where_normal_continues() -> None:
    # One step from a characters half flush (the 1p must go, then 8m needs a partner):
    # normal continues this early (many tiles left), but a continuing player pays 5x
    # whoever wins and the liable party is about as close, so hard folds.
    one_step = _santan_view("111m234m567m8m6z6z1p")
    assert min(_shantens_of(one_step)) == 1
    assert choose_action(one_step, "normal", random.Random(0)).type == CONTINUE
    assert choose_action(one_step, "hard", random.Random(0)).type == FOLD
    ready = _santan_view("111m234m567m89m6z6z")
    assert min(_shantens_of(ready)) == 0
    assert choose_action(ready, "hard", random.Random(0)).type == CONTINUE


def _shantens_of(view: PlayerView) -> list[int]:
    counts, wilds = count_hand(view.all_concealed, view.public.wild)
    return base._shantens(counts, wilds, _read_table(view, counts))


def test_hard_takes_a_legal_win() -> None:
    round_ = stage(
        "jiaxing", ["111p222p333p456p99p", "", "", ""], wild="9s", drawn="6p", scorer=None
    )
    assert choose_action(round_.player_view(0), "hard").type == WIN


def _brute_next_step_outs(
    target: base._Target, counts: list[int], wilds: int, current: int, table: base._Table
) -> float:
    """The two-step definition spelled out with no cache and no pruning of draws."""
    total, weight = 0.0, 0
    for kind in range(34):
        if kind == table.wild or not table.unseen[kind]:
            continue
        counts[kind] += 1
        if base._target_shanten(target, counts, wilds) < current:
            best = 0
            for discard in range(34):
                if counts[discard]:
                    counts[discard] -= 1
                    if base._target_shanten(target, counts, wilds) == current - 1:
                        best = max(best, base._ukeire(target, counts, wilds, current - 1, table))
                    counts[discard] += 1
            total += table.unseen[kind] * best
            weight += table.unseen[kind]
        counts[kind] -= 1
    return total / weight if weight else 0.0


@pytest.mark.parametrize(
    "hand", ["123m456p78s3z3z59m1p", "13m455p789s2266z8m", "1122m3356p79s1z2z3z"]
)
def test_two_step_outs_match_the_definition(hand: str) -> None:
    view = stage("taizhou", [hand, "", "", ""], wild="9p", scorer=None).player_view(0)
    counts, wilds = count_hand(view.all_concealed, view.public.wild)
    table = _read_table(view, counts)
    for target in table.targets:
        current = base._target_shanten(target, counts, wilds)
        if not 1 <= current <= 2:
            continue
        expected = _brute_next_step_outs(target, list(counts), wilds, current, table)
        got = next_step_outs(target, list(counts), wilds, current, table, ShantenCache())
        assert got == pytest.approx(expected), target.name


def test_two_step_chance_rewards_a_wider_next_step() -> None:
    view = stage("jiaxing", ["123m456p78s3z3z59m1p", "", "", ""], wild="9p", scorer=None)
    player = view.player_view(0)
    counts, _ = count_hand(player.all_concealed, player.public.wild)
    table = _read_table(player, counts)
    narrow = two_step_chance(1, 12.0, 2.0, table)
    wide = two_step_chance(1, 12.0, 16.0, table)
    assert 0.0 < narrow < wide < 1.0
    # With the typical count for the next step it is normal's estimate exactly.
    assert two_step_chance(1, 12.0, base._TYPICAL_OUTS[0], table) == pytest.approx(
        base._win_chance(1, 12.0, table)
    )


def test_hard_folds_only_against_a_likely_ready_opponent() -> None:
    # Three melds up with 40 tiles left (every seat has thrown ten or so): likely ready.
    threatening = _two_dragon_table(
        "1m4m7m2p5p8p3s6s9s1z2z3z4z5z", "5z", ["222s", "444s", "888p"], "1p1p5s6s", live=40
    )
    # Nothing claimed, nothing thrown yet: the start of the hand.
    calm = _two_dragon_table("1m4m7m2p5p8p3s6s9s1z2z3z4z5z", "5z", [])
    assert _folding(threatening, 3)
    assert not _folding(threatening, 0)
    assert not _folding(calm, 3)


# ----------------------------------------------------------------- calibration, defence


def test_calibration_lowers_a_ready_chance_and_more_so_against_developed_opponents() -> None:
    # Measured: a ready Jiaxing half flush the analytic race rated 0.86 won about 0.68 of
    # the time (typically against opponents with melds, half the wall gone).
    typical = Race(opponent_melds=2, tiles_left=40)
    ready = calibrated_chance("jiaxing", "half_flush1", 0, 0.86, 0, typical)
    assert 0.6 < ready < 0.86
    threatened = calibrated_chance("jiaxing", "half_flush1", 0, 0.86, 0, Race(4, 40))
    assert threatened < ready - 0.1
    # Fewer tiles left, less time: lower again.
    assert calibrated_chance("jiaxing", "half_flush1", 0, 0.86, 0, Race(2, 15)) < ready


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_calibrated_chance_rises_with_the_analytic_chance(variant: str) -> None:
    race = Race(opponent_melds=1, tiles_left=50)
    for target in ("full_flush0", "half_flush2", "pungs", "any"):
        for shanten in range(4):
            chances = [
                calibrated_chance(variant, target, shanten, p / 20, 1, race) for p in range(1, 20)
            ]
            assert chances == sorted(chances), (target, shanten)
            assert all(0.0 < c < 1.0 for c in chances)
    # A rule set with no fitted model keeps the analytic chance.
    assert calibrated_chance("no-such-rules", "any", 1, 0.3, 0, race) == 0.3


def test_ready_hand_value_rises_with_live_outs() -> None:
    # Ready on 3p (closed wait) in a half flush of dots; as copies of 3p appear in the
    # rivers the hand's calibrated value must fall.
    def value_with_rivers(river: str) -> float:
        round_ = stage(
            "jiaxing",
            ["1p2p4p5p6p7p8p9p1z1z1z2z2z", river, "", ""],
            wild="9m",
            scorer=None,
        )
        view = round_.player_view(0)
        counts, wilds = count_hand(view.all_concealed, view.public.wild)
        table = _read_table(view, counts)
        shantens = base._shantens(counts, wilds, table)
        assert min(shantens) == 0
        race = Race(opponent_melds=0, tiles_left=view.public.tiles_left)
        return hand_value(counts, wilds, table, shantens, ShantenCache(), race)

    live = value_with_rivers("")
    assert live > 0
    assert value_with_rivers("3p") < live
    assert value_with_rivers("3p3p") < value_with_rivers("3p")


def test_hard_far_from_ready_does_not_deal_into_an_obvious_flush_wait() -> None:
    # Seat 1 shows three bamboo pungs (a likely-ready bamboo flush). Our hand is two
    # steps from ready and its loneliest tile is the 5s: calm, that is the discard; with
    # the flush on the table hard lets an honor go instead.
    hand = "1m2m3m5m6m2p3p7p8p9p1z4z5s3z"
    threat = _two_dragon_table(hand, "3z", ["222s", "444s", "888s"], "6s6s7s9s")
    calm = _two_dragon_table(hand, "3z", [])
    assert choose_action(calm, "hard", random.Random(0)).tile == parse_tile("5s")
    chosen = choose_action(threat, "hard", random.Random(0))
    assert chosen.type == DISCARD and chosen.tile != parse_tile("5s")


def _taizhou_turn_views(seed: str, count: int) -> list[PlayerView]:
    """Views of seats on their turn (no win offered) along a seeded game of ``normal``s."""
    match = Match("taizhou", None, seed)
    players = [AIPlayer("normal", seat) for seat in range(4)]
    views: list[PlayerView] = []
    for _ in range(3000):
        if match.finished or len(views) >= count:
            break
        seat = match.round.waiting_on[0]
        view = match.player_view(seat)
        types = {a.type for a in view.legal}
        if DISCARD in types and WIN not in types and view.public.turn_id % 3 == 0:
            views.append(view)
        match.apply(players[seat].choose(view))
    assert len(views) >= count
    return views


def test_hard_weighs_its_taizhou_danger_only_while_folding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Pushing, hard weighs only ``normal``'s danger (the liability cases among it): a
    # weight on its own deal-in danger while pushing cost wins on fresh deals. Folding,
    # its danger decides. Made enormous and arbitrary, it must move folding discards
    # and leave every pushing one as it was.
    views = [
        view
        for seed in ("hard-danger-folding", "hard-keeps-speed")
        for view in _taizhou_turn_views(seed, 30)
    ]

    def best_distance_folds(view: PlayerView) -> bool:
        counts, wilds = count_hand(view.all_concealed, view.public.wild)
        table = _read_table(view, counts)
        held = [kind for kind, copies in enumerate(counts) if copies]
        after = base._after_each_discard(counts, wilds, table.targets, held)
        # The distance ``best_discard`` hands to the folding test: our best after any discard.
        return _folding(view, min(min(shantens) for shantens in after.values()))

    before = [choose_action(view, "hard", random.Random(3)) for view in views]
    monkeypatch.setattr(
        ai_hard, "_taizhou_danger", lambda view, table, kind, *rest: 50.0 * ((kind * 7) % 11)
    )
    after = [choose_action(view, "hard", random.Random(3)) for view in views]
    folds = [best_distance_folds(view) for view in views]
    assert any(folds) and not all(folds), folds
    for view, fold, old, new in zip(views, folds, before, after, strict=True):
        if not fold:
            assert old == new, (view.public.turn_id, old, new)
    assert any(old != new for fold, old, new in zip(folds, before, after, strict=True) if fold)


def test_hard_taizhou_discard_keeps_the_fastest_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    # In Taizhou the first hand ready wins: where hard's values (a flush, pungs, honor
    # tai) would pick a discard that leaves the hand further from ready, or keeps too few
    # of the outs, ``_keep_efficient`` takes the discard with the most outs instead.
    views = _taizhou_turn_views("hard-keeps-speed", 45)

    def shape(view: PlayerView, kind: int) -> tuple[int, int, int, int]:
        counts, wilds = count_hand(view.all_concealed, view.public.wild)
        outs = ai_hard._discard_outs(counts, wilds, _read_table(view, counts))
        closest = min(distance for distance, _ in outs.values())
        most = max(count for distance, count in outs.values() if distance == closest)
        return (*outs[kind], closest, most)

    with_rule = [choose_action(view, "hard", random.Random(2)) for view in views]
    monkeypatch.setattr(ai_hard, "_OUTS_FLOOR", {})
    without = [choose_action(view, "hard", random.Random(2)) for view in views]
    changed = [
        (view, fast, slow)
        for view, fast, slow in zip(views, with_rule, without, strict=True)
        if fast != slow
    ]
    assert changed, "the rule never changed a discard along this game"
    for view, fast, slow in changed:
        assert fast.tile is not None and slow.tile is not None
        distance, outs, closest, most = shape(view, fast.tile)
        slow_distance, slow_outs, _, _ = shape(view, slow.tile)
        assert distance == closest
        assert (slow_distance, -slow_outs) > (distance, -outs)
        if closest == 0:
            assert outs == most  # once ready, every out counts


def _pung_window(thrower: int) -> PlayerView:
    """Seat 0 holds 5m5m 234p 678p 34s 12m 6z (one step from ready, 55m its only pair)
    and ``thrower`` has just discarded a 5m."""
    hands = ["5m5m2p3p4p6p7p8p3s4s1m2m6z", "", "", ""]
    fillers = [
        "1z2z3z4z6z7z1s2s3s4s6s7s8s",
        "2z3z4z6z7z1s2s3s4s6s7s8s8s",
        "1z1z2z3z4z6z7z1s1s2s3s4s6s",
    ]
    for seat in (1, 2, 3):
        hands[seat] = fillers[seat - 1] + ("5m" if seat == thrower else "")
    hands[thrower] = hands[thrower][2:]  # 13 + the 5m it throws: 14 tiles in turn
    round_ = stage("taizhou", hands, wild="9s", turn=thrower, live=40, scorer=None)
    act(round_, "discard", thrower, "5m")
    while round_.waiting_on[0] != 0:
        act(round_, "pass", round_.waiting_on[0])
    return round_.player_view(0)


@pytest.mark.parametrize("thrower", [1, 2])
def test_hard_takes_a_taizhou_pung_from_across_or_the_right_that_keeps_its_distance(
    thrower: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = _pung_window(thrower)
    counts, wilds = base._hand_counts(view, view.public.wild)
    after = list(counts)
    after[parse_tile("5m")] -= 2
    after[parse_tile("6z")] -= 1  # the best discard after the pung
    # The pung brings the hand no closer to ready: 55m was its pair.
    assert shapes.shanten(after, wilds) == shapes.shanten(counts, wilds) == 1
    assert choose_action(view, "hard", random.Random(0)).type == PUNG
    # Without the tempo rule hard's values pass it: the rule is what takes it.
    monkeypatch.setitem(ai_hard._TEMPO_PUNG, "taizhou", False)
    assert choose_action(view, "hard", random.Random(0)).type == PASS


def test_hard_leaves_the_same_pung_from_the_left_hand_player() -> None:
    # The left-hand player's discard is followed by our own turn: a pung skips nobody.
    view = _pung_window(3)
    assert {a.type for a in view.legal} == {PUNG, PASS}
    assert choose_action(view, "hard", random.Random(0)).type == PASS
