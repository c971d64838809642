"""``hard``'s Monte-Carlo estimate (``engine.ai_hard_sample``): guesses drawn only from
what the seat cannot see, every tile of the table once per guess, replayable, and a
sampled chance that follows the live outs."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import ai as base
from engine import ai_hard, ai_hard_sample
from engine.ai import AIPlayer, _read_table, choose_action
from engine.ai_hard_core import ShantenCache
from engine.ai_hard_sample import Sampler, determinise, hidden_pool
from engine.match import Match
from engine.shapes import count_hand
from engine.tiles import NUM_KINDS, parse_tile
from engine.types import DISCARD
from engine.views import DiscardView, PlayerView
from tests.scenario import stage


def _midgame_views(variant: str, seed: str, count: int) -> list[PlayerView]:
    """Views of seats on their turn, taken along a seeded game of ``normal`` players."""
    match = Match(variant, None, seed)
    players = [AIPlayer("normal", seat) for seat in range(4)]
    views: list[PlayerView] = []
    for _ in range(2000):
        if match.finished or len(views) >= count:
            break
        seat = match.round.waiting_on[0]
        view = match.player_view(seat)
        if any(a.type == DISCARD for a in view.legal) and view.public.turn_id % 7 == 3:
            views.append(view)
        match.apply(players[seat].choose(view))
    assert len(views) >= count
    return views


def _visible(view: PlayerView) -> list[int]:
    """Every tile this seat sees, one entry per physical tile (as RULES.md counts them)."""
    public = view.public
    seen = [*view.all_concealed, public.indicator]
    for seat_view in public.seats:
        seen += [d.tile for d in seat_view.discards]
        melds = view.melds if seat_view.seat == view.seat else seat_view.melds
        for meld in melds:
            tiles = list(meld.tiles)
            if meld.white_as is not None and meld.white_as in tiles:
                tiles.remove(meld.white_as)
                tiles.append(parse_tile("5z"))
            if meld.claimed is not None and meld.claimed in tiles:
                tiles.remove(meld.claimed)  # the claimed tile is counted in its river
            seen += tiles
    return seen


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_every_guess_holds_the_136_tiles_once_and_only_unseen_ones(variant: str) -> None:
    for view in _midgame_views(variant, f"sample-census-{variant}", 4):
        public = view.public
        pool = hidden_pool(view)
        visible = _visible(view)
        for seed in range(3):
            guess = determinise(view, pool, random.Random(seed))
            guessed = list(guess.wall) + list(guess.rest)
            for seat, hand in guess.hands.items():
                assert len(hand) == public.seats[seat].concealed_count
                guessed += hand
            for kinds in guess.hidden_kongs.values():
                guessed += [kind for kind in kinds for _ in range(4)]
            # Only tiles this seat cannot see are dealt, and all of them.
            assert sorted(guessed) == pool
            census = [0] * NUM_KINDS
            for kind in visible + guessed:
                census[kind] += 1
            assert census == [4] * NUM_KINDS, census
            assert len(guess.wall) == public.tiles_left
            assert len(guess.rest) == 16 if variant == "taizhou" else len(guess.rest) == 0


def test_guesses_read_only_the_view() -> None:
    # Two rounds that differ only in tiles seat 0 cannot see (the others' hands and the
    # wall's order) give seat 0 the same guesses.
    hand = "1m2m3m7m8m9m4s5s6s3s3s4p6p8p"
    first = stage("taizhou", [hand, "1p1p", "2p2p", "9p9p"], wild="1z", drawn="8p", seed=1)
    second = stage("taizhou", [hand, "2s2s", "7s7s", "1z1z"], wild="1z", drawn="8p", seed=1)
    views = [r.player_view(0) for r in (first, second)]
    assert views[0] == views[1]
    guesses = [determinise(v, hidden_pool(v), random.Random(9)) for v in views]
    assert guesses[0] == guesses[1]
    assert first.hands != second.hands


def _ready_choice(visible_fives: int) -> PlayerView:
    """Taizhou, our turn: 123m 789m 456s 33s and 4p6p8p. Throwing 8p waits on 5p (a
    closed wait), throwing 4p waits on 7p; ``visible_fives`` copies of 5p lie in seat
    1's river."""
    round_ = stage("taizhou", ["1m2m3m7m8m9m4s5s6s3s3s4p6p8p", "", "", ""], wild="1z", drawn="8p")
    view = round_.player_view(0)
    seats = list(view.public.seats)
    five = parse_tile("5p")
    seats[1] = replace(seats[1], discards=tuple(DiscardView(five) for _ in range(visible_fives)))
    return replace(view, public=replace(view.public, seats=tuple(seats)))


def _sampled_values(view: PlayerView, seed: int) -> dict[str, float]:
    counts, wilds = count_hand(view.all_concealed, view.public.wild)
    table = _read_table(view, counts)
    sampler = Sampler(view, table, ShantenCache(), random.Random(seed), lambda ahead: 0.05)
    values = {}
    for name in ("4p", "8p"):
        kind = parse_tile(name)
        counts[kind] -= 1
        values[name] = sampler.value(counts, wilds, table, base._shantens(counts, wilds, table))
        counts[kind] += 1
    return values


def test_the_sampled_chance_follows_the_live_outs(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three of the four 5p gone: the playouts complete the 7p wait (four live, and the
    # jokers) clearly more often than the 5p wait (one live, and the jokers); with every
    # 5p live the two waits are alike. Averaged over a few seeds (24 guesses each).
    seeds = range(4)
    dead = [_sampled_values(_ready_choice(3), seed) for seed in seeds]
    live = [_sampled_values(_ready_choice(0), seed) for seed in seeds]
    dead_gap = sum(v["4p"] - v["8p"] for v in dead) / len(seeds)
    live_gap = sum(v["4p"] - v["8p"] for v in live) / len(seeds)
    assert dead_gap > 0.15, dead
    assert abs(live_gap) < 0.08, live
    assert sum(v["8p"] for v in live) > sum(v["8p"] for v in dead) + 0.5
    # Decided on the sampled estimate alone, hard keeps the wait with live outs.
    view = _ready_choice(3)
    monkeypatch.setitem(ai_hard._SAMPLED_WEIGHT, "taizhou", 1.0)
    action = choose_action(view, "hard", random.Random(0))
    assert action.type == DISCARD and action.tile == parse_tile("4p"), action


def test_the_same_view_and_seed_give_the_same_guesses_and_decision() -> None:
    view = _ready_choice(2)
    assert _sampled_values(view, 4) == _sampled_values(view, 4)
    assert choose_action(view, "hard", random.Random(3)) == choose_action(
        view, "hard", random.Random(3)
    )
    pool = hidden_pool(view)
    one = determinise(view, pool, random.Random(1))
    assert one == determinise(view, pool, random.Random(1))
    assert one != determinise(view, pool, random.Random(2))


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_a_seeded_hard_game_replays_through_the_sampled_estimate(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    original = ai_hard_sample.Sampler.__init__

    def counting(self: Sampler, *args: object, **kwargs: object) -> None:
        built.append(1)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ai_hard_sample.Sampler, "__init__", counting)
    # The weight the rule set gives its playouts, whichever it is: replayable either way.
    monkeypatch.setitem(ai_hard._SAMPLED_WEIGHT, variant, 0.5)

    def play() -> object:
        match = Match(variant, None, f"sample-replay-{variant}")
        players = [
            AIPlayer(level, f"s:{seat}") for seat, level in enumerate(["hard"] * 2 + ["normal"] * 2)
        ]
        for _ in range(300):
            if match.finished:
                break
            seat = match.round.waiting_on[0]
            match.apply(players[seat].choose(match.player_view(seat)))
        return match.to_json()

    first = play()
    used = len(built)
    assert used > 5, "the game's hard decisions went through the sampled estimate"
    assert play() == first


# ----------------------------------------------------------------- claims in playouts


def _pairs_view() -> PlayerView:
    """Taizhou, our turn: pairs of 1m, 5p, 9s and East, two chow shapes and a lone
    South; one step from ready only once two of the pairs become pungs."""
    others = [
        "2m3m4m6m7m8m2p3p4p6s7s8s5z",
        "3m3m6p7p8p1s2s4s5s6s6z6z9m",
        "1p2p3p4s4s7m8m9m9p9p3z3z4z",
    ]
    round_ = stage("taizhou", ["1m1m5p5p9s9s1z1z4m5m7p8p2z3s", *others], wild="7z", drawn="3s")
    return round_.player_view(0)


def test_guessed_discards_come_from_the_hidden_tiles_in_play_order() -> None:
    view = _pairs_view()
    pool = hidden_pool(view)
    guess = determinise(view, pool, random.Random(3))
    offers = ai_hard_sample._guess_discards(guess, [1, 2, 3], 3, 3, 6, random.Random(4))
    assert len(offers) == 6
    hidden = set(pool)
    for thrown in offers:
        # Each of the three others throws once a round; only seat 3 (our left) may be
        # chowed from, and it throws last, just before our draw.
        assert [left for _, left in thrown] == [False, False, True]
        assert all(tile in hidden for tile, _ in thrown)
    # Half of them or so are the drawn tile itself: the rest come from the guessed hands.
    wall_draws = [t for i, t in enumerate(guess.wall[:24]) if i % 4 != 3]
    thrown_tiles = [tile for thrown in offers for tile, _ in thrown]
    assert 0 < sum(a == b for a, b in zip(thrown_tiles, wall_draws, strict=True)) < 18


def test_claiming_playouts_rate_a_hand_of_pairs_higher() -> None:
    # Four pairs wait for pungs: a Taizhou hand takes them from anyone's discard. The
    # same guesses with the claims played rate the hand clearly higher than drawing only.
    view = _pairs_view()
    counts, wilds = count_hand(view.all_concealed, view.public.wild)
    counts[parse_tile("2z")] -= 1
    table = _read_table(view, counts)
    shantens = base._shantens(counts, wilds, table)
    drawing, claiming = 0.0, 0.0
    for seed in range(4):
        for claims in (False, True):
            sampler = Sampler(
                view, table, ShantenCache(), random.Random(seed), lambda ahead: 0.05, claims=claims
            )
            worth = sampler.value(list(counts), wilds, table, shantens)
            if claims:
                claiming += worth
            else:
                drawing += worth
    assert claiming > drawing * 1.3 + 0.05, (claiming, drawing)


def test_a_playout_claims_only_what_lowers_the_shanten() -> None:
    view = _pairs_view()
    counts, wilds = count_hand(view.all_concealed, view.public.wild)
    counts[parse_tile("2z")] -= 1
    table = _read_table(view, counts)
    sampler = Sampler(view, table, ShantenCache(), random.Random(1), lambda ahead: 0.05, True)
    target = next(t for t in table.targets if t.name == "any")
    state = sampler._state(target, bytes(counts), wilds)
    pung = sampler._claim(target, state, parse_tile("5p"), from_left=False)
    assert pung is not None and pung[2] == state.current - 1
    # 6m chows onto 4m5m only from the left-hand player; a lone 2m helps nothing.
    assert sampler._claim(target, state, parse_tile("6m"), from_left=True) is not None
    assert sampler._claim(target, state, parse_tile("6m"), from_left=False) is None
    assert sampler._claim(target, state, parse_tile("2s"), from_left=True) is None
