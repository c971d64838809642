"""Realistic hand-built views for tests, the demo and the benchmark.

They are built the way the round builds them (a ``PublicView`` holds no concealed tiles
and hides concealed kongs' kinds), so the images they produce look like real play without
needing a game to be driven to a particular state.

Every function takes a rule set's name and reads what it needs from the registry
(``engine.variants.get_rules``): the carried pool, the prevailing wind and whether a
White stands in for the wild. The sample hands come in two kinds, chosen by that last
flag, since a hand that shows a White standing in needs other tiles than one that
does not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.tiles import parse_tile, parse_tiles
from engine.types import (
    CHOW,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    Action,
    HandResult,
    Meld,
    PlayerHand,
)
from engine.variants import RULE_SETS, Variant, get_rules
from engine.views import DiscardView, PlayerView, PublicView, SeatView

if TYPE_CHECKING:
    from engine.replay import HandReplay

DEFAULT_RULE_SET = next(iter(RULE_SETS))  # the registry's first
SAMPLE_NAMES = ("小明 Ming", "Alice", "老王", "Bob the Builder")


@dataclass(frozen=True)
class _SampleHand:
    """Seat 0's side of a sample: the wild, its concealed tiles (without the drawn one),
    the tile it draws (and wins with), its waits between turns, and the dice."""

    wild: str
    concealed: str
    drawn: str
    win_tile: str
    waits: str
    dice: tuple[int, int]


# Wilds only: two wild 5p make 777s and a 7z pair, any rule set with wilds scores it.
_WILDS_ONLY = _SampleHand("5p", "1117s7s5p5p", "7z", "7z", "1s7s7z", (3, 3))
# A White in a chow stands in for the wild 3s; the win is on a 5z pair.
_WHITE_STANDS_IN = _SampleHand("3s", "45p3s5z", "8p", "5z", "3p6p5z", (2, 5))


def _sample_hand(rules: type[Variant]) -> _SampleHand:
    return _WHITE_STANDS_IN if rules.white_substitutes_wild else _WILDS_ONLY


# Discard rivers per seat (rows of six when drawn).
_RIVERS = (
    "1z9m2p8s4z7p1s3m",
    "9p2z1m7s3z5m9s",
    "4z1p8m6z2s9p3p",
    "3z7m1s2z8p6s",
)


def _river(text: str, claimed_at: dict[int, int] | None = None) -> tuple[DiscardView, ...]:
    claimed_at = claimed_at or {}
    return tuple(
        DiscardView(tile, claimed=index in claimed_at, by_seat=claimed_at.get(index))
        for index, tile in enumerate(parse_tiles(text))
    )


def _hide_concealed_kongs(melds: tuple[Meld, ...]) -> tuple[Meld, ...]:
    return tuple(Meld(m.type, (), concealed=True) if m.concealed else m for m in melds)


def sample_public_view(variant: str = DEFAULT_RULE_SET, seats: int = 4) -> PublicView:
    """A mid-hand table: melds of every kind, claimed discards, seat 1 to play."""
    rules = get_rules(variant)
    sample = _sample_hand(rules)
    indicator = wild = parse_tile(sample.wild)  # the indicator's kind is wild (RULES §0)
    carried_fan = 2 if rules.has_carried_fan else 0
    prevailing = 28 if rules.has_prevailing_wind else 27  # the South round shows the wind
    seat0_melds = own_melds(variant, seats)
    melds_by_seat: list[tuple[Meld, ...]] = [
        _hide_concealed_kongs(seat0_melds),
        (Meld(PUNG, (33, 33, 33), from_seat=0, claimed=33),),
        (Meld(CHOW, tuple(parse_tiles("345m")), from_seat=1, claimed=parse_tile("4m")),),
        (Meld(KONG, (30,) * 4, concealed=True), Meld(PUNG, (2,) * 3, from_seat=1, claimed=2)),
    ]
    claimed_from = {0: {2: 3 % seats}, 1: {}, 2: {}, 3: {}}
    seat_views = []
    for seat in range(seats):
        melds = _hide_concealed_kongs(melds_by_seat[seat])
        exposed_tiles = sum(3 for _ in melds)
        discards = _river(_RIVERS[seat], claimed_from.get(seat))
        seat_views.append(
            SeatView(
                seat=seat,
                seat_wind=27 + (seat - 0) % seats,
                is_dealer=seat == 0,
                concealed_count=13 - exposed_tiles + (1 if seat == 1 else 0),
                melds=melds,
                discards=discards,
                score=(24, -12, 0, -12)[seat] if seats == 4 else (12, -6, -6)[seat % 3],
            )
        )
    last_seat = 0
    return PublicView(
        variant=variant,
        num_seats=seats,
        hand_number=3,
        dealer=0,
        prevailing_wind=prevailing,
        round_index=0,
        indicator=indicator,
        wild=wild,
        dice=sample.dice,
        tiles_left=47,
        carried_fan=carried_fan,
        phase="turn",
        current_seat=1,
        waiting_on=(),
        last_discard=(last_seat, seat_views[last_seat].discards[-1].tile),
        seats=tuple(seat_views),
        turn_id=57,
    )


def own_melds(variant: str, seats: int = 4) -> tuple[Meld, ...]:
    """Seat 0's melds as it sees them: a pung from the opposite seat, a concealed kong."""
    melds = [
        Meld(PUNG, (32, 32, 32), from_seat=2, claimed=32),
        Meld(KONG, (parse_tile("9s"),) * 4, concealed=True),
    ]
    if get_rules(variant).white_substitutes_wild:
        # A White standing in for the wild kind (3s) inside a chow.
        melds.append(
            Meld(
                CHOW,
                tuple(parse_tiles("234s")),
                from_seat=seats - 1,  # a chow only comes from the left player
                claimed=parse_tile("2s"),
                white_as=20,
            )
        )
    return tuple(melds)


def sample_player_view(variant: str = DEFAULT_RULE_SET, seats: int = 4) -> PlayerView:
    """Seat 0 has just drawn: a concealed hand with wilds (and Whites where they stand in)."""
    public = sample_public_view(variant, seats)
    public = replace(public, current_seat=0, turn_id=58)
    sample = _sample_hand(get_rules(variant))
    concealed = tuple(sorted(parse_tiles(sample.concealed)))
    drawn = parse_tile(sample.drawn)
    hand = (*concealed, drawn)
    legal = tuple(Action(DISCARD, 0, tile=kind) for kind in sorted(set(hand)))
    return PlayerView(
        seat=0,
        public=public,
        concealed=concealed,
        drawn=drawn,
        legal=legal,
        melds=own_melds(variant, seats),
    )


def sample_waiting_view(variant: str = DEFAULT_RULE_SET) -> PlayerView:
    """Seat 0 between turns with 13 tiles and a wait, a discard on offer."""
    view = sample_player_view(variant)
    sample = _sample_hand(get_rules(variant))
    concealed = tuple(sorted(parse_tiles(sample.concealed)))
    waits = tuple(parse_tiles(sample.waits))
    return replace(view, concealed=concealed, drawn=None, legal=(), waits=waits, claim_tile=None)


# Concealed tiles of seats 1-3 when seat 0 wins the sample hand (their melds are the
# sample table's), so that non-winners' points and the payments are real.
_OTHER_CONCEALED = ("123m456p78p2z2z3z6z", "1m1m1m4p5p6p7s8s9s1z", "6m7m8m2p2p6s")


def sample_win_result(variant: str = DEFAULT_RULE_SET) -> tuple[PublicView, HandResult, int]:
    """An ended hand won by seat 0 by self-draw, scored by the real scorer."""
    from engine.scoring import score_hand
    from engine.types import WinContext, WinInfo
    from engine.variants import make_options

    public = sample_public_view(variant)
    sample = _sample_hand(get_rules(variant))
    win_tile = parse_tile(sample.win_tile)
    concealed = sample.concealed
    hand = PlayerHand(
        concealed=tuple(sorted((*parse_tiles(concealed), win_tile))),
        melds=own_melds(variant),
    )
    table_melds = (
        (),
        (Meld(PUNG, (33, 33, 33), from_seat=0, claimed=33),),
        (Meld(CHOW, tuple(parse_tiles("345m")), from_seat=1, claimed=parse_tile("4m")),),
        (Meld(KONG, (30,) * 4, concealed=True), Meld(PUNG, (2,) * 3, from_seat=1, claimed=2)),
    )
    players = [hand] + [
        PlayerHand(concealed=tuple(sorted(parse_tiles(_OTHER_CONCEALED[seat - 1]))), melds=melds)
        for seat, melds in enumerate(table_melds)
        if seat
    ]
    context = WinContext(
        variant=variant,
        options=make_options(variant),
        seats=4,
        indicator=public.indicator,
        wild=public.wild,
        dealer=public.dealer,
        winner=0,
        win=WinInfo(tile=win_tile, by="self_draw"),
        players=tuple(players),
        prevailing_wind=public.prevailing_wind,
        carried_fan=public.carried_fan,
        dice=public.dice,
    )
    result = score_hand(context)
    if not result.valid:  # pragma: no cover - the sample hands are legal wins
        raise AssertionError(f"sample {variant} hand does not score: {result.reason}")
    result.hand = hand
    ended = replace(public, phase="ended", current_seat=None, result=result)
    return ended, result, win_tile


def sample_draw_result(variant: str = DEFAULT_RULE_SET) -> tuple[PublicView, HandResult]:
    public = sample_public_view(variant)
    result = HandResult.draw(variant, public.num_seats)
    ended = replace(public, phase="ended", current_seat=None, tiles_left=0, result=result)
    return ended, result


# Player names in every script the images must draw (issue 13: 刘?华 must not happen):
# Chinese beyond the UI subset, accents, Hangul, Cyrillic, Greek, kana, an emoji, and the
# shaped scripts: Arabic and Hebrew (right to left), Devanagari and Thai.
WORLD_NAMES_LEADERBOARD = (
    (1, "刘德华", 1280, 42, 15),
    (2, "周杰伦", 960, 38, 12),
    (3, "José Müller", 415, 51, 14),
    (4, "محمد علي", 300, 33, 10),
    (5, "김민준", 120, 12, 3),
    (6, "प्रिया शर्मा", 40, 25, 6),
    (7, "Иван Петров", -85, 30, 7),
    (8, "Γιώργος", -240, 27, 5),
    (9, "נועה לוי", -330, 21, 4),
    (10, "さくら", -610, 44, 8),
    (11, "สมชาย ใจดี", -900, 36, 6),
    (12, "Lucky🍀Cat", -1840, 60, 9),
)


def sample_claim_view(variant: str = DEFAULT_RULE_SET) -> PlayerView:
    """Seat 0 in a claim window on the left player's discard, with the claims its hand
    allows (a pung of 7s with the wilds-only sample, a chow of 4-5-6p with the White one)."""
    view = sample_waiting_view(variant)
    sample = _sample_hand(get_rules(variant))
    public = view.public
    left = public.num_seats - 1
    if sample is _WILDS_ONLY:
        offered = parse_tile("7s")
        legal = (Action(PUNG, 0), Action(PASS, 0))
    else:
        offered = parse_tile("6p")
        legal = (Action(CHOW, 0, tiles=tuple(parse_tiles("456p"))), Action(PASS, 0))
    seats = list(public.seats)
    seats[left] = replace(seats[left], discards=(*seats[left].discards, DiscardView(offered)))
    public = replace(
        public,
        phase="claim",
        current_seat=None,
        waiting_on=(0,),
        last_discard=(left, offered),
        seats=tuple(seats),
        turn_id=59,
    )
    return replace(view, public=public, legal=legal, claim_tile=offered, waits=())


SAMPLE_LEADERBOARD = (
    (1, "老王", 1280, 42, 15),
    (2, "Alice", 960, 38, 12),
    (3, "小明 Ming", 415, 51, 14),
    (4, "Bob the Builder", 120, 12, 3),
    (5, "陈师傅", -85, 30, 7),
    (6, "Zhang Wei 张伟", -240, 27, 5),
    (7, "Lucky🍀Cat", -610, 44, 8),
    (8, "Guest", -1840, 60, 9),
)


def sample_hand_replay(
    variant: str = DEFAULT_RULE_SET,
    seed: int = 2024,
    seats: int = 4,
    tries: int = 20,
    *,
    won: bool = True,
) -> HandReplay:
    """The first hand of a match played by ``engine.ai``'s greedy policy, rebuilt as a
    replay: the first seed from ``seed`` on whose hand is won, else the first seed's.
    With ``won=False`` nobody declares a win, so the hand runs until the wall is spent
    (the longest a hand gets: the benchmark's worst case).

    Why played and not built: a replay is a sequence of real moves (draws, claims,
    kongs, a win), which only the round itself produces."""
    import random

    from engine.ai import greedy_policy
    from engine.match import Match
    from engine.replay import replay_hand

    first: HandReplay | None = None
    for offset in range(tries):
        match = Match(variant, None, seed + offset, seats=seats)
        rng = random.Random(seed + offset)
        log: list[tuple[int, Action]] = []
        while not match.results:
            seat = match.round.waiting_on[0]
            view = match.round.player_view(seat)
            action = greedy_policy(view, rng, allow_win=won)
            match.apply(action)
            log.append((0, action))
        record = replay_hand(variant, None, seed + offset, log, 0, seats=seats)
        first = first or record
        if not won or (record.result is not None and record.result.winner is not None):
            return record
    assert first is not None
    return first


def sample_late_public_view(
    variant: str = DEFAULT_RULE_SET, seats: int = 4, seed: int = 2024, tiles_left: int = 10
) -> PublicView:
    """A late table from a hand played to the last tile (``sample_hand_replay`` with no
    win): the first turn with ``tiles_left`` or fewer tiles left, rivers of about twenty
    tiles at four seats, melds and claimed discards as real play leaves them. The image
    tests bound the table's height with it."""
    record = sample_hand_replay(variant, seed, seats, won=False)
    for frame in record.frames:
        public = frame.public
        if public.phase == "turn" and public.tiles_left <= tiles_left:
            return public
    return record.frames[-1].public
