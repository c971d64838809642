"""RULES.md §1 Jiaxing mechanics: self-draw only (with the qualifying-type gate of the
real scoring), robbing an added kong, three-claim liability and folding, the exhaustive
draw, first-draw flags and the flee penalty."""

from __future__ import annotations

from scenario import act, event_types, meld, stage, types_of

from engine.round import Round
from engine.scoring import score_hand
from engine.tiles import parse_tile
from engine.types import HandResult, WinContext

# Hands with no characters that claim nothing in the positions below.
NEUTRAL = [
    "2p4p6p8p2s4s6s8s3s5s7s6z7z",
    "1p3p5p7p1s3s5s7s2z3z4z5z6z",
    "2p4p6p8p2s4s6s8s1z2z3z4z7z",
]


class Recorder:
    """A scorer that remembers every context it was asked about."""

    def __init__(self, inner=score_hand) -> None:
        self.inner = inner
        self.contexts: list[WinContext] = []

    def __call__(self, ctx: WinContext) -> HandResult:
        self.contexts.append(ctx)
        return self.inner(ctx)


def test_a_discard_is_never_won_on_even_when_it_completes_a_flush() -> None:
    # Seat 1 waits on 5m with a Full Flush All Pungs; seat 0 discards 5m.
    round_ = stage(
        "jiaxing",
        ["5m111p234p567p789p1z", "1112223334445m", NEUTRAL[1], NEUTRAL[2]],
        scorer=None,
    )
    act(round_, "discard", 0, "5m")
    assert all("win" not in types_of(round_.legal_actions(seat)) for seat in range(4))


def test_self_draw_of_a_qualifying_hand_is_offered_real_scoring() -> None:
    round_ = stage("jiaxing", ["11122233344455m", *NEUTRAL], drawn="5m", scorer=None)
    assert "win" in types_of(round_.legal_actions(0))
    events = act(round_, "win", 0)
    assert event_types(events) == ["win", "hand_end"]
    assert round_.result is not None and round_.result.winner == 0
    assert round_.result.win_by == "self_draw" and sum(round_.result.deltas) == 0


def test_a_complete_shape_without_a_qualifying_type_is_not_a_win_real_scoring() -> None:
    round_ = stage("jiaxing", ["123m456p78s111z22z6s", *NEUTRAL], drawn="6s", scorer=None)
    assert "win" not in types_of(round_.legal_actions(0))


def test_heavenly_hand_dealer_wins_on_the_dealt_fourteen() -> None:
    recorder = Recorder()
    round_ = stage(
        "jiaxing", ["11122233344455m", *NEUTRAL], drawn="5m", first_turn=True, scorer=recorder
    )
    act(round_, "win", 0)
    assert recorder.contexts[-1].win.first_draw and recorder.contexts[-1].dealer == 0


def test_earthly_hand_first_draw_with_no_claim_before() -> None:
    recorder = Recorder()
    round_ = stage(
        "jiaxing",
        ["5p111p234p567p789p1z", "1112223334445m", NEUTRAL[1], NEUTRAL[2]],
        draws="5m",
        first_turn=True,
        scorer=recorder,
    )
    act(round_, "discard", 0, "1z")
    act(round_, "win", 1)
    assert recorder.contexts[-1].win.first_draw and recorder.contexts[-1].winner == 1


def test_no_earthly_hand_after_a_claim() -> None:
    recorder = Recorder()
    hands = ["1z111p234p567p789p5p", NEUTRAL[0], "11z3m5m7m1s3s5s7s2p4p6p8p", "1112223334445m"]
    round_ = stage("jiaxing", hands, draws="5m", first_turn=True, scorer=recorder)
    act(round_, "discard", 0, "1z")
    act(round_, "pung", 2)  # seat 2 pungs East from seat 0
    act(round_, "discard", 2, "3m")
    assert round_.waiting_on == (3,)  # seat 3 could chow or pung 3m
    act(round_, "pass", 3)
    assert round_.current_seat == 3 and round_.drawn[3] == parse_tile("5m")
    assert not round_.has_discarded[3]  # seat 3's first draw, but after a claim
    act(round_, "win", 3)
    assert not recorder.contexts[-1].win.first_draw


def test_win_on_a_kong_replacement_and_on_the_last_tile_are_flagged() -> None:
    recorder = Recorder()
    round_ = stage(
        "jiaxing", ["11112223334445m", *NEUTRAL], drawn="1m", back="5m", live=1, scorer=recorder
    )
    act(round_, "kong", 0, "1m")
    assert round_.drawn[0] == parse_tile("5m") and round_.tiles_left == 0
    act(round_, "win", 0)
    win = recorder.contexts[-1].win
    assert win.kong_replacement and win.last_tile


# ---------------------------------------------------------------- robbing the kong

ROB_MAKER = "5p123m456m78m56z"  # plus an exposed pung of 5p: adding the drawn 5p
ROB_SEAT1 = "34p111p222p888p99p"  # waits 2p/5p, Full Flush
ROB_SEAT3 = "67p111z222z333z44z"  # waits 5p/8p, Half Flush
ROB_IDLE = "1s2s3s4s6s8s1m3m5m7m3z5z6z"  # waits on nothing useful


def _rob_position(seat1: str, seat3: str, scorer=None) -> Round:
    return stage(
        "jiaxing",
        [ROB_MAKER, seat1, NEUTRAL[0], seat3],
        melds={0: [meld("pung", "555p", from_seat=3)]},
        drawn="5p",
        back="1s",
        scorer=scorer,
    )


def test_rob_kong_window_opens_and_the_robber_wins_real_scoring() -> None:
    round_ = _rob_position(ROB_SEAT1, ROB_IDLE)
    events = act(round_, "kong", 0, "5p")
    assert event_types(events) == ["added_kong", "rob_window"]
    assert round_.phase == "rob_kong" and round_.waiting_on == (1,)
    assert types_of(round_.legal_actions(1)) == {"win", "pass"}
    act(round_, "win", 1)
    result = round_.result
    assert result is not None and result.winner == 1 and result.win_by == "rob_kong"
    assert {payment.payer for payment in result.payments} == {0}  # the kong maker pays alone


def test_passing_the_rob_completes_the_kong_with_a_replacement() -> None:
    round_ = _rob_position(ROB_SEAT1, ROB_IDLE)
    act(round_, "kong", 0, "5p")
    events = act(round_, "pass", 1)
    assert "kong_made" in event_types(events)
    assert round_.melds[0][0].added and round_.drawn[0] == parse_tile("1s")


def test_rob_kong_priority_first_after_the_kong_maker() -> None:
    round_ = _rob_position(ROB_SEAT1, ROB_SEAT3)
    act(round_, "kong", 0, "5p")
    assert round_.waiting_on == (1, 3)
    act(round_, "win", 3)
    assert round_.phase == "rob_kong" and round_.waiting_on == (1,)  # seat 1 comes first
    act(round_, "win", 1)
    assert round_.result is not None and round_.result.winner == 1


def test_rob_kong_later_robber_wins_when_the_first_passes() -> None:
    round_ = _rob_position(ROB_SEAT1, ROB_SEAT3)
    act(round_, "kong", 0, "5p")
    act(round_, "pass", 1)
    act(round_, "win", 3)
    assert round_.result is not None and round_.result.winner == 3


def test_no_rob_on_a_pair_wait_with_a_wild_real_scoring() -> None:
    # Seat 3 holds a wild and four honor pungs: 5p would only pair with the wild.
    round_ = _rob_position(ROB_IDLE, "9s111z222z333z444z")
    events = act(round_, "kong", 0, "5p")
    assert event_types(events) == ["added_kong", "kong_made", "draw"]


# ---------------------------------------------------------------- three-claim liability


def _santan_position(claims_so_far: int, scorer=None, **kwargs) -> Round:
    """Seat 1 has claimed ``claims_so_far`` melds from seat 0; seat 0 discards 5m next,
    which seat 1 can chow (46m) and nobody else can claim. Seat 2 could chow seat 1's
    8p with its 67p."""
    melds = [meld("pung", "222p", from_seat=0), meld("pung", "777s", from_seat=0)]
    round_ = stage(
        "jiaxing",
        [
            "5m111p3p567p789p1z2z",
            "46m1s3s5s7s8p" + ["999m888m", "999m", ""][claims_so_far],
            "1m3m6m2s4s6s8s7p4p6p3z5z6z",
            "7m8m9m3p1s2s3s3z4z5z6z7z7z",
        ],
        melds={1: melds[:claims_so_far]},
        scorer=scorer,
        **kwargs,
    )
    if claims_so_far:
        round_.claim_counts[(1, 0)] = claims_so_far
    return round_


def test_third_claim_from_one_discarder_pauses_for_continue_or_fold() -> None:
    round_ = _santan_position(2)
    act(round_, "discard", 0, "5m")
    events = act(round_, "chow", 1, tiles="456m")
    assert "santan" in event_types(events)
    assert round_.phase == "santan" and round_.waiting_on == (2, 3)
    assert types_of(round_.legal_actions(2)) == {"continue", "fold"}
    assert round_.legal_actions(1) == [] and round_.santan_pairs == [(0, 1)]
    act(round_, "fold", 2)
    assert round_.phase == "santan"
    act(round_, "continue", 3)
    assert round_.phase == "turn" and round_.current_seat == 1 and round_.after_claim
    assert round_.folded == {2}
    view = round_.public_view()
    assert view.seats[2].folded and view.seats[0].liable_with == (1,)


def test_two_claims_do_not_pause() -> None:
    round_ = _santan_position(1)
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    assert round_.phase == "turn" and round_.santan_pairs == []


def test_claims_count_per_ordered_pair() -> None:
    round_ = _santan_position(2)
    round_.claim_counts = {(1, 0): 1, (1, 2): 1, (0, 1): 1}
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    assert round_.claim_counts[(1, 0)] == 2 and round_.phase == "turn"


def test_a_pair_already_liable_does_not_pause_again() -> None:
    round_ = _santan_position(2)
    round_.santan_pairs = [(0, 1)]
    round_.claim_counts[(0, 1)] = 3  # the pair became liable the other way round
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    assert round_.phase == "turn" and round_.santan_pairs == [(0, 1)]


def test_an_added_kong_does_not_count_as_a_claim() -> None:
    round_ = stage(
        "jiaxing",
        [
            "5m11p3p567p789p1z2z4z",
            "2p46m1s3s5s7s8p",
            "1m3m6m2s4s6s8s7p4p6p3z5z6z",
            "7m8m9m3p1s2s3s3z4z5z1p6z",
        ],
        melds={1: [meld("pung", "222p", from_seat=0), meld("pung", "777s", from_seat=0)]},
        turn=1,
        drawn="2p",
        back="9p",
    )
    round_.claim_counts[(1, 0)] = 2
    act(round_, "kong", 1, "2p")
    assert round_.claim_counts[(1, 0)] == 2 and round_.phase == "turn"
    assert round_.melds[1][0].added and round_.santan_pairs == []


def test_a_kong_claim_as_third_claim_draws_its_replacement_after_the_pause() -> None:
    round_ = stage(
        "jiaxing",
        [
            "5m111p3p567p789p1z2z",
            "555m1s3s5s7s8p",
            "1m3m6m2s4s6s8s7p4p6p3z5z6z",
            "7m8m9m3p1s2s3s3z4z5z6z7z7z",
        ],
        melds={1: [meld("pung", "222p", from_seat=0), meld("pung", "777s", from_seat=0)]},
        back="9p",
    )
    round_.claim_counts[(1, 0)] = 2
    act(round_, "discard", 0, "5m")
    act(round_, "kong", 1)
    assert round_.phase == "santan" and round_.drawn[1] is None
    act(round_, "continue", 2)
    act(round_, "continue", 3)
    assert round_.current_seat == 1 and round_.drawn[1] == parse_tile("9p")


def test_folded_seat_draws_and_discards_by_itself_and_never_claims() -> None:
    round_ = _santan_position(2, draws="1z6z")
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    act(round_, "fold", 2)
    act(round_, "continue", 3)
    # Seat 2 holds 67p: unfolded it would be offered a chow of seat 1's 8p.
    events = act(round_, "discard", 1, "8p")
    assert round_.legal_actions(2) == []
    types = event_types(events)
    assert types == ["discard", "draw", "auto_discard", "discard", "draw"]
    assert events[3]["seat"] == 2 and events[3]["tile"] == "1z"  # it threw what it drew
    assert round_.current_seat == 3 and round_.drawn[3] == parse_tile("6z")


def test_unfolded_seat_would_have_claimed_that_chow() -> None:
    round_ = _santan_position(2)
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    act(round_, "continue", 2)
    act(round_, "continue", 3)
    act(round_, "discard", 1, "8p")
    assert round_.phase == "claim" and "chow" in types_of(round_.legal_actions(2))


def test_folded_seat_cannot_win_on_its_draw_nor_rob_nor_claim() -> None:
    round_ = stage(
        "jiaxing",
        ["5p111p234p567p789p1z", "2p5m1s3s5s7s8s2z3z4z5z6z7z", "1112223334445m", NEUTRAL[0]],
        draws="6s5m",
    )
    round_.folded = {2}
    round_.santan_pairs = [(0, 3)]
    act(round_, "discard", 0, "1z")
    events = act(round_, "discard", 1, "5m")  # seat 2 could pung 5m: folded, it may not
    assert event_types(events)[:4] == ["discard", "draw", "auto_discard", "discard"]
    assert round_.discards[2][-1].tile == parse_tile("5m")  # its winning draw, thrown away
    assert not round_.is_over


def test_flee_penalty_base_then_folded_and_others_under_liability() -> None:
    round_ = _santan_position(2, options={"flee_penalty": 40})
    assert [round_.flee_penalty(seat) for seat in range(4)] == [40] * 4
    act(round_, "discard", 0, "5m")
    act(round_, "chow", 1, tiles="456m")
    act(round_, "fold", 2)
    act(round_, "continue", 3)
    assert [round_.flee_penalty(seat) for seat in range(4)] == [108, 108, 72, 108]


# ---------------------------------------------------------------- exhaustive draw


def test_last_drawable_tile_discarded_ends_the_hand_without_claims() -> None:
    round_ = _santan_position(0, live=0)
    events = act(round_, "discard", 0, "5m")  # seat 1 could chow it
    assert event_types(events) == ["discard", "exhaustive_draw", "hand_end"]
    assert round_.is_over and round_.result is not None
    assert round_.result.winner is None and round_.result.deltas == [0, 0, 0, 0]
    assert round_.result.reason == "exhaustive_draw"


def test_reserve_tiles_option_keeps_tiles_behind() -> None:
    round_ = _santan_position(0, live=0, options={"reserve_tiles": 10})
    assert len(round_.wall.tiles) == 10
    act(round_, "discard", 0, "5m")
    assert round_.is_over and len(round_.wall.tiles) == 10


def test_one_tile_left_play_goes_on() -> None:
    round_ = _santan_position(0, live=1)
    act(round_, "discard", 0, "5m")
    assert round_.phase == "claim"
    act(round_, "pass", 1)
    assert round_.current_seat == 1 and round_.tiles_left == 0


def test_carried_pool_grows_on_draw_and_gives_one_to_a_win() -> None:
    round_ = _santan_position(0, live=0)
    round_.carried_fan = 2
    act(round_, "discard", 0, "5m")
    assert round_.carried_fan_after == 3
    round_ = stage("jiaxing", ["11122233344455m", *NEUTRAL], drawn="5m")
    round_.carried_fan = 2
    act(round_, "win", 0)
    assert round_.carried_fan_after == 1


# ---------------------------------------------------------------- rules settled in issue 12

# Hands that hold no 5p, 7p, 1s, 1z or 9s and claim nothing.
PLAIN = ["1m3m5m7m9m2p4p6p8p2s4s6s8s", "2m4m6m8m1p3p3s5s7s2z3z4z5z"]


def test_round_offers_a_win_whose_only_qualifying_reading_needs_a_fifth_copy() -> None:
    # RULES.md §0, issue 12: wild 9s; the dealer self-draws 5p holding 5p 7777p 111s
    # 111z and three wilds. Only 555p 777p 111s 111z + 77p (a fifth 7p) qualifies: All
    # Pungs 2 + seat wind 1 + prevailing wind 1 = 4 tai, Three Wilds 1 fan = 8 from each.
    round_ = stage(
        "jiaxing", ["5p7777p111s111z9s9s9s", PLAIN[0], PLAIN[1], PLAIN[0]], drawn="5p", wild="9s"
    )
    round_.carried_fan = 0
    assert "win" in types_of(round_.legal_actions(0))
    act(round_, "win", 0)
    assert round_.result is not None and round_.result.score == 8
    assert round_.result.deltas == [24, -8, -8, -8]


def test_earthly_hand_survives_another_players_concealed_kong() -> None:
    # The dealer declares a concealed kong on its first turn; seat 1 then self-draws a
    # Full Flush on its first draw: a concealed kong is not a claim, so Earthly Hand.
    recorder = Recorder()
    round_ = stage(
        "jiaxing",
        ["1111m2p4p6p8p2s4s6s8s3s5z", "2223334445556m", NEUTRAL[1], NEUTRAL[2]],
        drawn="5z",
        draws="6m",
        back="7z",
        first_turn=True,
        scorer=recorder,
    )
    round_.carried_fan = 0
    act(round_, "kong", 0, "1m")
    act(round_, "discard", 0, "7z")
    assert "win" in types_of(round_.legal_actions(1))
    act(round_, "win", 1)
    assert recorder.contexts[-1].win.first_draw
    result = round_.result
    assert result is not None and "earthly_hand" in {item.key for item in result.items}


def test_earthly_hand_not_after_ones_own_kong() -> None:
    # Seat 1 declares a concealed kong on its first draw and wins on the replacement:
    # that is not its first draw.
    recorder = Recorder()
    round_ = stage(
        "jiaxing",
        ["1z111p234p567p789p5p", "222333444555m6m", NEUTRAL[1], NEUTRAL[2]],
        draws="5m",
        back="6m",
        first_turn=True,
        scorer=recorder,
    )
    act(round_, "discard", 0, "1z")
    act(round_, "kong", 1, "5m")
    act(round_, "win", 1)
    assert not recorder.contexts[-1].win.first_draw


def test_second_liable_pair_asks_only_players_neither_liable_nor_folded() -> None:
    # Seats 0 and 1 are already liable to each other. Seat 2 has claimed twice from seat
    # 1 and now pungs seat 1's 5m: a second pair (1, 2). Seat 0 is a liable party, so
    # only seat 3 is asked to continue or fold.
    round_ = stage(
        "jiaxing",
        [
            "1m3m7m9m2p4p6p1s5s7s9s6z7z",
            "5m6z1z2z3z",
            "55m1p3p9p7z4z",
            "2m4m6m8m1p3p5p2s4s6s8s1z2z",
        ],
        melds={
            1: [
                meld("pung", "222p", from_seat=0),
                meld("pung", "777s", from_seat=0),
                meld("pung", "333s", from_seat=0),
            ],
            2: [meld("pung", "888p", from_seat=1), meld("pung", "444s", from_seat=1)],
        },
        turn=1,
        drawn="6z",
    )
    round_.santan_pairs = [(0, 1)]
    round_.claim_counts = {(1, 0): 3, (2, 1): 2}
    act(round_, "discard", 1, "5m")
    assert round_.waiting_on == (2,)
    events = act(round_, "pung", 2)
    assert "santan" in event_types(events) and round_.santan_pairs == [(0, 1), (1, 2)]
    assert round_.phase == "santan" and round_.waiting_on == (3,)
    assert round_.legal_actions(0) == []
    act(round_, "continue", 3)
    assert round_.phase == "turn" and round_.current_seat == 2


def test_claims_on_a_folded_players_discards_do_not_count_toward_liability() -> None:
    # Seat 2 has folded (seats 0 and 1 are liable). Seat 3 has claimed twice from seat 2
    # before; its pung of seat 2's automatic discard is not a third claim.
    round_ = stage(
        "jiaxing",
        [
            "1m3m7m9m2p4p6p1s5s7s9s6z7z",
            "9m1p3p7p9p1s3s5s7s2z3z4z6z7z",
            "1m3m7m2p4p6p8p2s4s6s8s2z3z",
            "55m1p3p9p7z4z4z",
        ],
        melds={3: [meld("pung", "888p", from_seat=2), meld("pung", "444s", from_seat=2)]},
        turn=1,
        drawn="9m",
        draws="5m",
    )
    round_.santan_pairs = [(0, 1)]
    round_.folded = {2}
    round_.claim_counts = {(3, 2): 2}
    events = act(round_, "discard", 1, "9m")
    assert event_types(events)[:4] == ["discard", "draw", "auto_discard", "discard"]
    assert round_.waiting_on == (3,)
    events = act(round_, "pung", 3)
    assert "santan" not in event_types(events)
    assert round_.santan_pairs == [(0, 1)] and round_.claim_counts == {(3, 2): 2}
    assert round_.phase == "turn" and round_.current_seat == 3


def test_a_hand_that_cannot_qualify_is_not_shown_as_waiting() -> None:
    """RULES.md §1: a Jiaxing win must be a qualifying type. Three chows in three suits
    and two honor pairs complete a shape on either pair, but a pung of one is still no
    flush, no half flush and no all pungs: the player's view listed 听牌 on tiles that
    can never win. Its waits (``PlayerView.waits``, drawn as 听牌) are only the winning
    ones; the shape's own waits stay for what needs them (liability, the aids' 不成胡)."""
    mixed = "123m456p678s1155z"
    half_flush = "123m456m678m1155z"
    quiet = "2p4p6p8p2s4s6s8s3s5s7s1p3p"  # no honors: the two waiting hands hold them all
    round_ = stage("jiaxing", [quiet, mixed, half_flush, quiet], scorer=None)
    one, five = parse_tile("1z"), parse_tile("5z")
    assert {one, five} <= set(round_.waits(1)) and {one, five} <= set(round_.waits(2))
    assert round_.player_view(1).waits == ()
    assert round_.player_view(2).waits == tuple(round_.waits(2))  # the wild's kind too


def test_a_folded_player_is_not_shown_as_waiting() -> None:
    """三摊: a player who folded cannot win (RULES.md §1), so no 听牌 either."""
    half_flush = "123m456m678m1155z"
    round_ = stage("jiaxing", [NEUTRAL[0], half_flush, NEUTRAL[1], NEUTRAL[2]], scorer=None)
    assert round_.player_view(1).waits
    round_.folded.add(1)
    assert round_.player_view(1).waits == ()
