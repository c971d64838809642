"""A game is ``(variant, options, seed, actions)``: actions, melds, events and results are
JSON, and replaying the actions rebuilds an identical state (issue 2 item 7)."""

from __future__ import annotations

import json
import random

import pytest
from scenario import pick

from engine.match import Match
from engine.round import IllegalAction, Round
from engine.tiles import parse_tile, parse_tiles
from engine.types import Action, Meld


@pytest.mark.parametrize(
    "action",
    [
        Action("discard", 2, tile=parse_tile("7z")),
        Action("chow", 1, tiles=tuple(parse_tiles("345s"))),
        Action("pung", 3),
        Action("kong", 0),
        Action("kong", 0, tile=parse_tile("9p")),
        Action("win", 1),
        Action("pass", 2),
        Action("continue", 3),
        Action("fold", 2),
    ],
)
def test_action_json_round_trip(action: Action) -> None:
    data = json.loads(json.dumps(action.to_json()))
    assert Action.from_json(data) == action


def test_action_json_uses_notation() -> None:
    assert Action("discard", 2, tile=parse_tile("7z")).to_json() == {
        "type": "discard",
        "seat": 2,
        "tile": "7z",
    }
    assert Action("chow", 1, tiles=(18, 19, 20)).to_json()["tiles"] == "123s"


@pytest.mark.parametrize(
    "meld",
    [
        Meld("chow", (3, 4, 5), from_seat=0, claimed=4, white_as=5),
        Meld("pung", (27, 27, 27), from_seat=3, claimed=27),
        Meld("kong", (9, 9, 9, 9), concealed=True),
        Meld("kong", (1, 1, 1, 1), from_seat=2, claimed=1, added=True),
    ],
)
def test_meld_json_round_trip(meld: Meld) -> None:
    assert Meld.from_json(json.loads(json.dumps(meld.to_json()))) == meld


def play_random(match: Match, seed: int, max_actions: int = 400) -> list[dict]:
    rng = random.Random(seed)
    log: list[dict] = []
    while not match.finished and len(match.actions) < max_actions:
        seat = rng.choice(match.round.waiting_on)
        events = match.apply(pick(match.legal_actions(seat), rng))
        log.append({"turn_id": match.turn_id, "snapshot": match.round.snapshot()})
        json.dumps(events)
    return log


@pytest.mark.parametrize(
    ("variant", "seats", "options"),
    [
        ("jiaxing", 4, None),
        ("taizhou", 4, {"multi_win_priority": "after_discarder"}),
        ("taizhou", 3, {"remove_suits": 1}),
        ("taizhou", 2, {"wild_copies": 4}),
    ],
)
def test_replaying_the_saved_actions_rebuilds_the_same_match(
    variant: str, seats: int, options: dict | None
) -> None:
    match = Match(variant, options, "replay-seed", seats=seats)
    play_random(match, seed=5, max_actions=600)
    saved = json.loads(json.dumps(match.to_json()))
    assert saved["variant"] == variant and saved["seed"] == "replay-seed"
    replayed = Match.from_json(saved)
    assert replayed.round.snapshot() == match.round.snapshot()
    assert replayed.scores == match.scores and replayed.dealer == match.dealer
    assert [r.to_json() for r in replayed.results] == [r.to_json() for r in match.results]
    assert replayed.public_view() == match.public_view()
    for seat in range(seats):
        assert replayed.player_view(seat) == match.player_view(seat)


def test_replaying_a_prefix_rebuilds_each_intermediate_state() -> None:
    match = Match("taizhou", None, 77)
    log = play_random(match, seed=3, max_actions=120)
    actions = [a.to_json() for a in match.actions]
    for index in (0, 17, 59, len(actions) - 1):
        prefix = Match.replay("taizhou", None, 77, actions[: index + 1])
        assert prefix.round.snapshot() == log[index]["snapshot"]
        assert prefix.turn_id == log[index]["turn_id"]


def test_a_tampered_action_log_is_refused() -> None:
    match = Match("jiaxing", None, 12)
    play_random(match, seed=1, max_actions=30)
    actions = [a.to_json() for a in match.actions]
    actions[5] = {"type": "discard", "seat": (actions[5]["seat"] + 1) % 4, "tile": "1m"}
    with pytest.raises(IllegalAction):
        Match.replay("jiaxing", None, 12, actions)


def test_same_seed_same_round_different_seed_different_round() -> None:
    assert Round("jiaxing", seed="s").snapshot() == Round("jiaxing", seed="s").snapshot()
    assert Round("jiaxing", seed="s").snapshot() != Round("jiaxing", seed="t").snapshot()


def test_hand_results_are_json() -> None:
    match = Match("taizhou", None, 31)
    play_random(match, seed=2, max_actions=2000)
    assert match.results
    for result in match.results:
        data = json.loads(json.dumps(result.to_json()))
        assert data["variant"] == "taizhou" and sum(data["deltas"]) == 0
