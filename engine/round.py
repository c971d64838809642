"""One hand as a state machine: deal, draws, discards, claims, kongs, wins, draws.

``legal_actions(seat)`` lists exactly what a seat may do now and ``apply(action)``
validates against that list (nothing else validates), changes the state and returns the
events. An illegal action raises ``IllegalAction`` and changes nothing. Drawing is never
an action: the round draws for whoever's turn starts, so a hand is fully determined by
``(variant, options, seed, actions)`` and replays exactly.

Phases:
- ``turn``: ``current_seat`` holds 3n+2 tiles and discards, declares a kong or wins.
- ``claim``: a discard is on the table; the seats in ``waiting_on`` answer (claim or
  pass). Priority win > pung/kong > chow; the window closes as soon as no pending seat
  could outrank the best answer so far.
- ``rob_kong``: an added kong may be robbed by a seat that can win on its tile.
- ``santan``: Jiaxing three-claim liability (三摊): the other players choose to continue
  (跟) or fold (不跟) before play goes on.
- ``ended``: ``result`` holds the scored ``HandResult``.
"""

from __future__ import annotations

import copy
import random
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from .shapes import hand_waits, is_win_counts, is_win_reading
from .tiles import NUM_KINDS, WHITE, format_tiles, from_counts, is_honor, kind_str, to_counts
from .types import (
    CHOW,
    CONTINUE,
    DISCARD,
    FOLD,
    KONG,
    PASS,
    PUNG,
    WIN,
    Action,
    HandResult,
    Meld,
    Phase,
    PlayerHand,
    WinContext,
    WinInfo,
)
from .variants import Variant, variant_for
from .views import DiscardView, PlayerView, PublicView, SeatView, maker
from .wall import Wall

TURN: Final = "turn"
CLAIM: Final = "claim"
ROB_KONG: Final = "rob_kong"
SANTAN: Final = "santan"
ENDED: Final = "ended"
_PRIORITY = {WIN: 3, PUNG: 2, KONG: 2, CHOW: 1, PASS: 0}

Event = dict[str, Any]


class IllegalAction(ValueError):
    """An action that is not legal now; the round is unchanged."""


# Actions are frozen values, so the round hands out the same object for the same move
# instead of building a dozen per turn (a turn's discards, every answer in a window).
_SHARED_SEATS = 4
_DISCARD_ACTIONS = tuple(
    tuple(Action(DISCARD, seat, tile=kind) for kind in range(NUM_KINDS))
    for seat in range(_SHARED_SEATS)
)
_PLAIN_ACTIONS = {
    kind: tuple(Action(kind, seat) for seat in range(_SHARED_SEATS))
    for kind in (WIN, PASS, PUNG, KONG, CONTINUE, FOLD)
}


def _discard_action(seat: int, tile: int) -> Action:
    if seat < _SHARED_SEATS:
        return _DISCARD_ACTIONS[seat][tile]
    return Action(DISCARD, seat, tile=tile)


def _plain_action(kind: Any, seat: int) -> Action:
    """``Action(kind, seat)`` for a move without tiles (win, pass, pung, kong of a
    discard, continue, fold)."""
    if seat < _SHARED_SEATS:
        return _PLAIN_ACTIONS[kind][seat]
    return Action(kind, seat)


# Every discard's view, shared: a river's views are values, and one object per discard
# of every table would be that many more objects for the collector to walk.
_DISCARD_VIEWS = {
    (tile, claimed, by_seat): DiscardView(tile, claimed, by_seat)
    for tile in range(NUM_KINDS)
    for claimed in (False, True)
    for by_seat in (None, *range(_SHARED_SEATS))
}
_make_seat_view = maker(SeatView)
_make_public_view = maker(PublicView)
_make_player_view = maker(PlayerView)
_PUBLIC_FIELDS = tuple(f.name for f in fields(PublicView))


class _UnbuiltSeatsView(PublicView):
    """A ``PublicView`` whose ``seats`` are built from its round when first read.

    Why: a public view is made after every action (the table's status names it, and
    the next AI decision's view holds it), but its seats are the costly part (every
    seat's face compared with what it was built from, a river or two rebuilt: a tenth
    of an action's CPU at 1,000 AI tables), and often nobody reads them: the ``easy``
    AI reads the wild and the rule set, and a presenter may keep only the latest
    status of a table. A view still unbuilt, and still held by someone, when its round
    is about to change is built then (``Round.apply`` first thing), so what it shows
    is always the position it was made in. In every other way it is the
    ``PublicView`` with those fields: equal to it, with its hash and its repr.
    """

    __slots__ = ("__weakref__", "_round")

    def __getattr__(self, name: str) -> Any:
        # Reached only for a slot never set: the seats of an unbuilt view.
        if name != "seats":
            raise AttributeError(name)
        # One build at a time, process-wide: a renderer may read a status's view on a
        # worker thread while the loop thread's ``Round.apply`` builds it before the
        # move; whichever comes second finds it built, and the move waits for it.
        with _BUILD_LOCK:
            try:
                return _GET_SEATS(self)  # built by the other thread meanwhile
            except AttributeError:
                pass
            try:
                round_ = _UNBUILT_ROUND.__get__(self)
            except AttributeError:  # a copy (``replace``, unpickling) has every field
                raise AttributeError(name) from None
            seats = round_._seat_views_now()
            _SET_SEATS(self, seats)
            _UNBUILT_ROUND.__delete__(self)  # the round is not kept alive by its views
            return seats

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PublicView):
            return NotImplemented
        return tuple(getattr(self, name) for name in _PUBLIC_FIELDS) == tuple(
            getattr(other, name) for name in _PUBLIC_FIELDS
        )

    __hash__ = PublicView.__hash__

    def __repr__(self) -> str:
        text = PublicView.__repr__(self)
        return "PublicView" + text[len(type(self).__qualname__) :]


_make_unbuilt_public_view = maker(_UnbuiltSeatsView, omit=("seats",))
_UNBUILT_ROUND: Any = _UnbuiltSeatsView.__dict__["_round"]
_SET_SEATS = PublicView.__dict__["seats"].__set__
_GET_SEATS = PublicView.__dict__["seats"].__get__
_BUILD_LOCK = threading.Lock()


def _discard_view(discard: _Discard) -> DiscardView:
    view = _DISCARD_VIEWS.get((discard.tile, discard.claimed, discard.by_seat))
    return view or DiscardView(discard.tile, discard.claimed, discard.by_seat)


# Keys of a private event (one carrying ``"private": seat``) that only that seat may see.
PRIVATE_KEYS = frozenset({"tile", "tiles"})


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """The events as ``seat`` may see them (``None``: the public channel).

    A private event (a draw) keeps its tile only for its own seat; everyone else learns
    that the draw happened, not what it was. A hidden one (an answer in a claim window,
    which would tell who could claim) is not shown to others at all. Callers outside the engine send players
    only this, so a draw cannot leak by accident.
    """
    visible: list[Event] = []
    for event in events:
        owner = event.get("private")
        if owner is None or owner == seat:
            visible.append(dict(event))
        elif event.get("hidden"):
            continue  # others may not even learn that it happened
        else:
            visible.append({k: v for k, v in event.items() if k not in PRIVATE_KEYS})
    return visible


@dataclass(slots=True)
class _Discard:
    tile: int
    claimed: bool = False
    by_seat: int | None = None


@dataclass
class _Window:
    """An open claim or rob-kong window."""

    tile: int
    from_seat: int
    options: dict[int, list[Action]]
    responses: dict[int, Action] = field(default_factory=dict)
    final: bool = False  # Taizhou: the discard after the last drawable tile
    opened_at: int = 0  # turn_id when the window opened: wins are scored as offered then


@dataclass
class _SantanPause:
    pair: tuple[int, int]
    pending: set[int]
    then_replacement: bool  # the claim was a kong: draw a replacement after the pause


def _default_scorer(ctx: WinContext) -> HandResult:
    from .scoring import score_hand

    return score_hand(ctx)


class Round:
    """One hand. Build it through ``Match`` for a whole game, or directly for tests."""

    def __init__(
        self,
        variant: str | Variant,
        options: Any = None,
        seed: int | str = 0,
        *,
        seats: int = 4,
        dealer: int = 0,
        prevailing_wind: int = 27,
        carried_fan: int = 0,
        previous_wild: int | None = None,
        hand_number: int = 0,
        scores: list[int] | None = None,
        scorer: Callable[[WinContext], HandResult] | None = None,
    ) -> None:
        self.variant: Variant = (
            variant if isinstance(variant, Variant) else variant_for(variant, options)
        )
        self.options = self.variant.options
        if seats not in self.variant.allowed_seats:
            allowed = ", ".join(map(str, self.variant.allowed_seats))
            raise ValueError(f"{self.variant.name} is played with {allowed} seats, not {seats}")
        if not 0 <= dealer < seats:
            raise ValueError(f"dealer {dealer} is not a seat of {seats}")
        self.seed = seed
        self.num_seats = seats
        self.dealer = dealer
        self.prevailing_wind = prevailing_wind if self.variant.has_prevailing_wind else 27
        self.hand_number = hand_number
        self.scores = list(scores) if scores is not None else [0] * seats
        self._scorer = scorer or _default_scorer

        self.wall = Wall.shuffled(
            seed, reserve=self.variant.reserve(), remove_suits=self.variant.remove_suits()
        )
        self.variant.check_deal(seats)
        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(seats)]
        self.melds: list[list[Meld]] = [[] for _ in range(seats)]
        self.discards: list[list[_Discard]] = [[] for _ in range(seats)]
        # Views of each river's settled discards (all but the last: only a seat's latest
        # discard can still be claimed), so a public view does not rebuild whole rivers.
        self._settled_discard_views: list[tuple[DiscardView, ...]] = [() for _ in range(seats)]
        # seat -> (its view, what the view was built from: see ``_seat_views_now``)
        self._seat_views: dict[int, tuple[Any, ...]] = {}
        # Public views made since the last action whose seats may still be unbuilt
        # (``_UnbuiltSeatsView``): built before the next action changes the round.
        self._unbuilt_views: list[weakref.ref[_UnbuiltSeatsView]] = []
        # (a seat's tile counts, its drawn tile) -> its concealed tiles without the drawn
        # one, for ``player_view``; (its counts, has melds, the wild) -> its waits
        self._hand_views: dict[tuple[bytes, int | None], tuple[int, ...]] = {}
        self._waits: dict[tuple[bytes, bool, int | None], tuple[int, ...]] = {}
        # (seat, its counts, its melds, folded) -> the waits that would win (``winning_waits``)
        self._winning_waits: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self.drawn: list[int | None] = [None] * seats
        self.folded: set[int] = set()
        self.claim_counts: dict[tuple[int, int], int] = {}
        self.santan_pairs: list[tuple[int, int]] = []
        self.skipped_win: list[set[int]] = [set() for _ in range(seats)]
        self.has_discarded = [False] * seats
        self.any_claim = False
        self.seen: set[int] = set()  # kinds discarded or exposed so far (Taizhou liability)

        self.phase: Phase = TURN
        self.current_seat: int | None = dealer
        self.after_claim = False  # a claimed chow/pung: discard only
        self.after_kong = False  # the drawn tile was a kong replacement
        self.window: _Window | None = None
        self.rob_meld_index: int | None = None
        self.santan: _SantanPause | None = None
        self.last_discard: tuple[int, int] | None = None
        self.result: HandResult | None = None
        self.turn_id = 0
        self.actions: list[Action] = []
        # The position's cache: scored wins and a turn's legal actions, keyed by turn_id
        # (and what else they read); edits of a position by hand (tests) clear it.
        self._win_cache: dict[tuple[Any, ...], Any] = {}
        self._turn_key: tuple[Any, ...] = ()  # the key of the turn's legal actions in it

        self._deal()
        # Carried bonus fan (Jiaxing): added at the start of each hand.
        self.carried_fan_bonuses: list[str] = []
        if self.variant.has_carried_fan:
            if self.wild is not None and is_honor(self.wild):
                self.carried_fan_bonuses.append("honor_wild")
            if self.wall.dice[0] == self.wall.dice[1]:
                self.carried_fan_bonuses.append("dice_doubles")
            if previous_wild is not None and previous_wild == self.wild:
                self.carried_fan_bonuses.append("repeat_wild")
        self.carried_fan = carried_fan + len(self.carried_fan_bonuses)

    # ------------------------------------------------------------------ setup
    def _deal(self) -> None:
        for _ in range(13):
            for offset in range(self.num_seats):
                seat = (self.dealer + offset) % self.num_seats
                self.hands[seat][self.wall.draw()] += 1
        keep = int(self.options.wild_copies) == 4
        self.indicator = self.wall.flip_indicator(keep_in_wall=keep)
        self.wild: int | None = self.indicator
        tile = self.wall.draw()
        self.hands[self.dealer][tile] += 1
        self.drawn[self.dealer] = tile

    # ------------------------------------------------------------------ helpers
    @property
    def is_over(self) -> bool:
        return self.phase == ENDED

    @property
    def tiles_left(self) -> int:
        return self.wall.drawable

    def seat_wind(self, seat: int) -> int:
        return 27 + (seat - self.dealer) % self.num_seats

    def concealed_tiles(self, seat: int) -> list[int]:
        return from_counts(self.hands[seat])

    def _natural(self, seat: int, kind: int) -> int:
        """Copies of ``kind`` usable in a claimed meld (wild tiles never are)."""
        if kind == self.wild:
            return 0
        return self.hands[seat][kind]

    def _white_can_stand_for(self, kind: int) -> bool:
        return (
            self.variant.white_substitutes_wild
            and self.wild is not None
            and self.wild != WHITE
            and kind == self.wild
        )

    @property
    def waiting_on(self) -> tuple[int, ...]:
        if self.phase in (CLAIM, ROB_KONG) and self.window is not None:
            return tuple(
                sorted(seat for seat in self.window.options if seat not in self.window.responses)
            )
        if self.phase == SANTAN and self.santan is not None:
            return tuple(sorted(self.santan.pending))
        if self.phase == TURN and self.current_seat is not None:
            return (self.current_seat,)
        return ()

    @property
    def public_waiting_on(self) -> tuple[int, ...]:
        """``waiting_on`` as the table may see it. In a claim or rob window every seat
        that is still playing is shown as considering the tile: naming only the seats
        that can claim would tell everyone who holds a pair of it."""
        if self.phase in (CLAIM, ROB_KONG) and self.window is not None:
            source = self.window.from_seat
            return tuple(
                seat for seat in range(self.num_seats) if seat != source and seat not in self.folded
            )
        return self.waiting_on

    # ------------------------------------------------------------------ win checks
    def _player_hands(
        self, winner: int | None = None, extra: int | None = None, robbed_from: int | None = None
    ) -> tuple[PlayerHand, ...]:
        hands = []
        for seat in range(self.num_seats):
            tiles = self.concealed_tiles(seat)
            if seat == winner and extra is not None:
                tiles = sorted([*tiles, extra])
            if seat == robbed_from and extra is not None:
                tiles.remove(extra)
            hands.append(PlayerHand(concealed=tuple(tiles), melds=tuple(self.melds[seat])))
        return tuple(hands)

    def waits(self, seat: int) -> list[int]:
        """Kinds that would complete ``seat``'s 3n+1 concealed tiles (empty otherwise):
        ``shapes.hand_waits``, the rule scoring and liability use too."""
        counts, wilds = self._natural_counts(seat)
        return hand_waits(
            counts,
            wilds,
            self.wild,
            seven_pairs=self._seven_pairs_allowed(seat),
            white_stands_in=self.variant.white_substitutes_wild,
        )

    def _hand_waits(self, seat: int) -> tuple[int, ...]:
        """``waits(seat)``, kept by what it is computed from (the seat's tiles, whether
        it has melds, the wild): every view and every discard of the others asks it."""
        hand = self.hands[seat]
        if sum(hand) % 3 != 1:
            return ()  # only a 3n+1 hand waits (``hand_waits``): a seat in its turn
        key = (bytes(hand), bool(self.melds[seat]), self.wild)
        waits = self._waits.get(key)
        if waits is None:
            if len(self._waits) >= 512:
                self._waits.clear()
            waits = self._waits[key] = tuple(self.waits(seat))
        return waits

    def winning_waits(self, seat: int) -> tuple[int, ...]:
        """The waits (``waits``) on which the seat's hand would make a valid win, by
        self-draw or, where discards win, on a discard: what a player calls 听牌. A
        shape that cannot qualify (Jiaxing: three chows in three suits are no flush, no
        all pungs) completes on its waits and still never wins there, and showing it
        as 听牌 tells the player they are ready when they are not."""
        waits = self._hand_waits(seat)
        if not waits or not self.variant.wins_need_a_type:
            return waits  # every shape wins on a self-draw: nothing to score
        key = (seat, bytes(self.hands[seat]), tuple(self.melds[seat]), seat in self.folded)
        found = self._winning_waits.get(key)
        if found is None:
            if len(self._winning_waits) >= 512:
                self._winning_waits.clear()
            found = self._winning_waits[key] = tuple(
                tile
                for tile in waits
                if self.preview_win(seat, tile, "self_draw") is not None
                or (
                    self.variant.discard_wins
                    and self.preview_win(seat, tile, "discard") is not None
                )
            )
        return found

    def preview_win(self, seat: int, tile: int, by: str) -> int | None:
        """The seat's units if ``tile`` completed its hand now (by self-draw, or on a
        discard from the next seat), scored by the rule set's own scorer; None if that
        would not be a valid win. For previews only: the hand is not changed."""
        if by == "self_draw":
            context = self._win_context(seat, "self_draw", tile, None, False)
            context = replace(
                context,
                players=self._player_hands(seat, tile),
                win=replace(context.win, tile=tile, kong_replacement=False, first_draw=False,
                            last_tile=False),
            )  # fmt: skip
        else:
            from_seat = (seat + 1) % self.num_seats
            context = self._win_context(seat, "discard", tile, from_seat, False)
        result = self._scorer(context)
        if not result.valid or result.winner != seat:
            return None
        return int(result.deltas[seat])

    def _may_win_on(self, seat: int, tile: int) -> bool:
        """False only when ``tile`` cannot complete the seat's hand: a cheap gate before
        ``_shape_ok`` on another seat's discard. A tile that makes some reading win is
        a wait of that reading (``hand_waits`` takes the union over the same readings,
        with a White standing in for the wild's kind), so a tile outside the waits of
        a 3n+1 hand never wins; any other hand size is left to ``_shape_ok``."""
        tiles = sum(self.hands[seat])
        if tiles % 3 != 1 or tiles > 13:
            return True
        return tile in self._hand_waits(seat)

    def _natural_counts(self, seat: int, extra: int | None = None) -> tuple[list[int], int]:
        """(natural counts, wilds) of ``seat``'s concealed tiles, plus ``extra`` if given."""
        counts = list(self.hands[seat])
        if extra is not None:
            counts[extra] += 1
        wilds = 0
        if self.wild is not None:
            wilds = counts[self.wild]
            counts[self.wild] = 0
        return counts, wilds

    def _seven_pairs_allowed(self, seat: int) -> bool:
        return bool(self.options.allow_seven_pairs) and not self.melds[seat]

    def _tenpai_seats(self) -> frozenset[int]:
        return frozenset(seat for seat in range(self.num_seats) if self.waits(seat))

    def _win_context(
        self, seat: int, by: str, tile: int, from_seat: int | None, final: bool
    ) -> WinContext:
        extra = tile if by != "self_draw" else None
        last = self.wall.drawable == 0 if by == "self_draw" else final
        # Heavenly/Earthly Hand: no discard of one's own yet, no chow, pung or exposed kong
        # by anyone (``any_claim``), and no kong of one's own (the win would be on its
        # replacement, not the first draw). Another seat's concealed kong is not a claim.
        first_draw = (
            by == "self_draw"
            and not self.has_discarded[seat]
            and not self.any_claim
            and not self.melds[seat]
        )
        return WinContext(
            variant=self.variant.name,
            options=self.options,
            seats=self.num_seats,
            indicator=self.indicator,
            wild=self.wild,
            dealer=self.dealer,
            winner=seat,
            win=WinInfo(
                tile=tile,
                by=by,
                from_seat=from_seat,
                kong_replacement=by == "self_draw" and self.after_kong,
                last_tile=last,
                first_draw=first_draw,
            ),
            players=self._player_hands(seat, extra, from_seat if by == "rob_kong" else None),
            prevailing_wind=self.prevailing_wind,
            carried_fan=self.carried_fan,
            dice=self.wall.dice,
            santan_pairs=tuple(self.santan_pairs),
            folded=tuple(sorted(self.folded)),
            seen_before=frozenset(self.seen),
            tenpai=self._tenpai_seats() if by != "self_draw" else None,
        )

    def _self_draw_shape_ok(self, seat: int) -> bool:
        """``_shape_ok(seat, None)`` for the hand as it is, straight from its counts when
        it has one reading only (no White that may stand in for the wild). Why: every
        turn asks whether the draw wins and almost none does; the scored-win cache, the
        reading helpers and a copy of the counts cost more than the answer."""
        hand = self.hands[seat]
        wild = self.wild
        if wild is None:
            return is_win_counts(hand, 0, self._seven_pairs_allowed(seat))
        if self.variant.white_substitutes_wild and wild != WHITE and hand[WHITE]:
            return self._shape_ok(seat, None)
        wilds = hand[wild]
        if wilds:
            hand = list(hand)
            hand[wild] = 0
        return is_win_counts(hand, wilds, self._seven_pairs_allowed(seat))

    def _shape_ok(self, seat: int, extra: int | None) -> bool:
        """A cheap gate before scoring: the same readings scoring maximises over, so it
        never turns away a win scoring would accept."""
        counts, wilds = self._natural_counts(seat, extra)
        return is_win_reading(
            counts,
            wilds,
            self.wild,
            seven_pairs=self._seven_pairs_allowed(seat),
            white_stands_in=self.variant.white_substitutes_wild,
        )

    def _scored_win(
        self,
        seat: int,
        by: str,
        tile: int,
        from_seat: int | None,
        final: bool = False,
        at: int | None = None,
    ) -> HandResult | None:
        """The scored win if it is legal. ``at`` names the turn_id whose position is meant:
        a window's win is scored as it stood when the window opened (the discard not yet
        counted as seen), not after the answers that closed it."""
        key = (self.turn_id if at is None else at, seat, by, tile, from_seat, final)
        if key not in self._win_cache:
            extra = tile if by != "self_draw" else None
            if not self._shape_ok(seat, extra):
                return None
            self._win_cache[key] = self._scorer(self._win_context(seat, by, tile, from_seat, final))
        result: HandResult = self._win_cache[key]
        return result if result.valid else None

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int) -> list[Action]:
        return list(self._legal(seat))

    def _legal(self, seat: int) -> tuple[Action, ...]:
        """``legal_actions`` as the round's own tuple (callers get a copy)."""
        if not 0 <= seat < self.num_seats or self.phase == ENDED:
            return ()
        if self.phase == TURN:
            if seat != self.current_seat:
                return ()
            # A turn's choices are asked for by the view, the AI and ``apply`` (each
            # checks a self-drawn win): computed once per position, in the position's
            # cache beside the scored wins (whoever edits a position by hand clears it).
            # The key holds the seat's own tiles too, so even an edit that forgets to
            # clear it is not answered from before the edit.
            key = (
                "turn",
                self.turn_id,
                seat,
                bytes(self.hands[seat]),
                self.drawn[seat],
                self.after_claim,
                self.wall.drawable,
                len(self.melds[seat]),
                seat in self.folded,
                self.wild,
            )
            cached: tuple[Action, ...] | None = self._win_cache.get(key)
            if cached is None:
                # Only the latest turn's list is ever asked again: the one before goes,
                # rather than a hand's worth of lists staying for the collector to walk.
                self._win_cache.pop(self._turn_key, None)
                self._turn_key = key
                cached = self._win_cache[key] = tuple(self._turn_actions(seat))
            return cached
        if self.phase in (CLAIM, ROB_KONG):
            assert self.window is not None
            if seat in self.window.options and seat not in self.window.responses:
                return tuple(self.window.options[seat])
            return ()
        if self.phase == SANTAN:
            assert self.santan is not None
            if seat in self.santan.pending:
                return (_plain_action(CONTINUE, seat), _plain_action(FOLD, seat))
        return ()

    def _turn_actions(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        actions: list[Action] = []
        if not self.after_claim and seat not in self.folded:
            drawn = self.drawn[seat]
            if (
                drawn is not None
                and self._self_draw_shape_ok(seat)
                and self._scored_win(seat, "self_draw", drawn, None)
            ):
                actions.append(_plain_action(WIN, seat))
            if self.wall.drawable > 0:
                if 4 in hand:
                    for kind in range(NUM_KINDS):
                        if hand[kind] == 4 and kind != self.wild:
                            actions.append(Action(KONG, seat, tile=kind))
                for meld in self.melds[seat]:
                    if meld.type == PUNG and self._natural(seat, meld.kind) >= 1:
                        actions.append(Action(KONG, seat, tile=meld.kind))
        if seat < _SHARED_SEATS:
            discards = _DISCARD_ACTIONS[seat]
            actions += [discards[kind] for kind in range(NUM_KINDS) if hand[kind]]
        else:
            actions += [Action(DISCARD, seat, tile=kind) for kind in range(NUM_KINDS) if hand[kind]]
        return actions

    def _claim_options(self, seat: int, tile: int, discarder: int, final: bool) -> list[Action]:
        if seat in self.folded or tile == self.wild:
            return []
        options: list[Action] = []
        if (
            self.variant.discard_wins
            and tile not in self.skipped_win[seat]
            and self._may_win_on(seat, tile)
            and self._scored_win(seat, "discard", tile, discarder, final)
        ):
            options.append(_plain_action(WIN, seat))
        if final:
            return [*options, _plain_action(PASS, seat)] if options else []
        natural = self._natural(seat, tile)
        if natural >= 2:
            options.append(_plain_action(PUNG, seat))
        if natural >= 3 and self.wall.drawable > 0:
            options.append(_plain_action(KONG, seat))
        chow_kind = self._chow_kind(tile)
        if seat == (discarder + 1) % self.num_seats and chow_kind is not None:
            base = chow_kind - chow_kind % 9
            for low in range(max(base, chow_kind - 2), min(chow_kind, base + 6) + 1):
                chow = (low, low + 1, low + 2)
                if self._chow_source(seat, chow, chow_kind) is not None:
                    options.append(Action(CHOW, seat, tiles=chow))
        if options:
            options.append(_plain_action(PASS, seat))
        return options

    def _chow_kind(self, tile: int) -> int | None:
        """The kind a discard counts as in a chow, or None if it cannot be chowed.

        A suited tile is itself. In Taizhou a discarded White may be chowed as the wild's
        kind, as it may be won on (RULES.md §2): the White fills the gap of the wilds.
        """
        if tile < 27:
            return tile
        if tile == WHITE and self.wild is not None and self._white_can_stand_for(self.wild):
            return self.wild if self.wild < 27 else None
        return None

    def _chow_source(self, seat: int, chow: tuple[int, int, int], claimed: int) -> int | None:
        """How a chow would be made from the hand around the ``claimed`` kind: None if
        impossible, else the kind a White from the hand stands for (-1: no White used)."""
        white_as = -1
        for kind in chow:
            if kind == claimed:
                continue
            if self._natural(seat, kind) >= 1:
                continue
            if self._white_can_stand_for(kind) and self.hands[seat][WHITE] >= 1:
                white_as = kind
                continue
            return None
        return white_as

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> list[Event]:
        """Apply one legal action; raise ``IllegalAction`` (state unchanged) otherwise."""
        if self._unbuilt_views:
            self._build_unbuilt_views()
        if self.phase == ENDED:
            raise IllegalAction("the hand is over")
        legal = self._legal(action.seat)
        # Identity first: an AI hands back one of the listed actions, and ``in`` alone
        # compares it field by field with each action listed before it.
        for listed in legal:
            if listed is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(self._why_illegal(action, list(legal)))
        events: list[Event] = []
        self.actions.append(action)
        self.turn_id += 1
        if self.phase == TURN:
            self._apply_turn(action, events)
        elif self.phase in (CLAIM, ROB_KONG):
            assert self.window is not None
            self.window.responses[action.seat] = action
            # Who answered what would tell the table who could claim: private.
            events.append(
                {
                    "type": "respond",
                    "seat": action.seat,
                    "action": action.type,
                    "private": action.seat,
                    "hidden": True,
                }
            )
            self._maybe_close_window(events)
        elif self.phase == SANTAN:
            self._apply_santan(action, events)
        return events

    def _why_illegal(self, action: Action, legal: list[Action]) -> str:
        if not 0 <= action.seat < self.num_seats:
            return f"seat {action.seat} is not at this table"
        if not legal:
            if self.phase == TURN:
                return f"it is seat {self.current_seat}'s turn, not seat {action.seat}'s"
            return f"seat {action.seat} has nothing to answer now"
        kinds = {a.type for a in legal}
        if action.type not in kinds:
            allowed = ", ".join(sorted(kinds))
            return f"{action.type} is not possible now (you may: {allowed})"
        if action.type == DISCARD:
            return f"you hold no {kind_str(action.tile) if action.tile is not None else 'tile'} to discard"
        if action.type == CHOW:
            shown = ", ".join(format_tiles(a.tiles or ()) for a in legal if a.type == CHOW)
            return f"that chow is not possible (possible: {shown})"
        if action.type == KONG:
            return "that kong is not possible"
        return f"{action.describe()} is not possible now"

    def _apply_turn(self, action: Action, events: list[Event]) -> None:
        seat = action.seat
        if action.type == WIN:
            drawn = self.drawn[seat]
            assert drawn is not None
            # Scored as offered by legal_actions, one turn_id ago (apply counted this one).
            result = self._scored_win(seat, "self_draw", drawn, None, at=self.turn_id - 1)
            assert result is not None
            self._finish(
                result,
                events,
                {"type": "win", "seat": seat, "by": "self_draw", "tile": kind_str(drawn)},
            )
        elif action.type == DISCARD:
            assert action.tile is not None
            self._discard(seat, action.tile, events)
        elif action.type == KONG:
            assert action.tile is not None
            self._own_kong(seat, action.tile, events)

    def _discard(self, seat: int, tile: int, events: list[Event]) -> None:
        self.hands[seat][tile] -= 1
        self.drawn[seat] = None
        self.after_claim = False
        self.after_kong = False
        self.has_discarded[seat] = True
        self.discards[seat].append(_Discard(tile))
        self.last_discard = (seat, tile)
        events.append({"type": "discard", "seat": seat, "tile": kind_str(tile)})
        final = self.wall.drawable == 0
        if final and not self.variant.last_discard_winnable:
            self._exhaustive_draw(events)
            return
        options = {}
        for offset in range(1, self.num_seats):
            other = (seat + offset) % self.num_seats
            opts = self._claim_options(other, tile, seat, final)
            if opts:
                options[other] = opts
        self.seen.add(tile)
        if not options:
            if final:
                self._exhaustive_draw(events)
            else:
                self._next_draw((seat + 1) % self.num_seats, events)
            return
        self.window = _Window(
            tile=tile, from_seat=seat, options=options, final=final, opened_at=self.turn_id
        )
        self.phase = CLAIM
        self.current_seat = None
        events.append({"type": "claim_window", "tile": kind_str(tile), "from": seat})

    def _own_kong(self, seat: int, kind: int, events: list[Event]) -> None:
        for index, meld in enumerate(self.melds[seat]):
            if meld.type == PUNG and meld.kind == kind:
                robbers = {}
                for offset in range(1, self.num_seats):
                    other = (seat + offset) % self.num_seats
                    options = self._rob_options(other, kind, seat)
                    if options:
                        robbers[other] = options
                events.append({"type": "added_kong", "seat": seat, "tile": kind_str(kind)})
                if robbers:
                    self.window = _Window(
                        tile=kind, from_seat=seat, options=robbers, opened_at=self.turn_id
                    )
                    self.rob_meld_index = index
                    self.phase = ROB_KONG
                    self.current_seat = None
                    events.append(
                        {
                            "type": "rob_window",
                            "tile": kind_str(kind),
                            "from": seat,
                        }
                    )
                else:
                    self._complete_added_kong(seat, index, events)
                return
        # Concealed kong: not a claim, so it leaves others' Earthly Hand alone (RULES §1).
        self.hands[seat][kind] -= 4
        self.drawn[seat] = None
        self.melds[seat].append(Meld(KONG, (kind,) * 4, concealed=True))
        events.append({"type": "concealed_kong", "seat": seat})
        self._replacement_draw(seat, events)

    def _rob_options(self, seat: int, kind: int, maker: int) -> list[Action]:
        """Win or pass when ``seat`` may rob ``maker``'s added kong of ``kind``; else none."""
        if seat in self.folded or kind in self.skipped_win[seat]:
            return []
        if not self._scored_win(seat, "rob_kong", kind, maker):
            return []
        return [Action(WIN, seat), Action(PASS, seat)]

    def _complete_added_kong(self, seat: int, index: int, events: list[Event]) -> None:
        old = self.melds[seat][index]
        self.hands[seat][old.kind] -= 1
        self.drawn[seat] = None
        self.any_claim = True
        self.melds[seat][index] = Meld(
            KONG, (old.kind,) * 4, from_seat=old.from_seat, claimed=old.claimed, added=True
        )
        self.seen.add(old.kind)
        events.append({"type": "kong_made", "seat": seat, "tile": kind_str(old.kind)})
        self._replacement_draw(seat, events)

    def _replacement_draw(self, seat: int, events: list[Event]) -> None:
        tile = self.wall.draw_replacement()
        self._give(seat, tile, events, replacement=True)

    def _next_draw(self, seat: int, events: list[Event]) -> None:
        if self.wall.drawable <= 0:
            self._exhaustive_draw(events)
            return
        self._give(seat, self.wall.draw(), events, replacement=False)

    def _give(self, seat: int, tile: int, events: list[Event], *, replacement: bool) -> None:
        self.hands[seat][tile] += 1
        self.drawn[seat] = tile
        self.skipped_win[seat].clear()
        self.phase = TURN
        self.current_seat = seat
        self.after_claim = False
        self.after_kong = replacement
        self.window = None
        events.append(
            {
                "type": "draw",
                "seat": seat,
                "tile": kind_str(tile),
                "private": seat,
                "replacement": replacement,
            }
        )
        if seat in self.folded:
            # A folded player draws and discards automatically (三摊 不跟).
            events.append({"type": "auto_discard", "seat": seat})
            self._discard(seat, tile, events)

    # ------------------------------------------------------------------ windows
    def _maybe_close_window(self, events: list[Event]) -> None:
        window = self.window
        assert window is not None
        order = self.variant.win_order(window.from_seat, self.dealer, self.num_seats)
        best: Action | None = None
        for seat in order:
            response = window.responses.get(seat)
            if response is None:
                continue
            if best is None or _PRIORITY[response.type] > _PRIORITY[best.type]:
                best = response
        best_level = _PRIORITY[best.type] if best is not None else 0
        for seat in order:
            if seat in window.responses or seat not in window.options:
                continue
            potential = max(_PRIORITY[a.type] for a in window.options[seat])
            if potential > best_level:
                return
            if (
                potential == best_level == _PRIORITY[WIN]
                and best is not None
                and order.index(seat) < order.index(best.seat)
            ):
                return
            if best is None:
                return  # everyone so far passed; wait for the rest
        self._close_window(best, events)

    def _close_window(self, best: Action | None, events: list[Event]) -> None:
        window = self.window
        assert window is not None
        rob = self.phase == ROB_KONG
        # Skipped win 过胡: whoever could win and did not is locked on this kind.
        if self.variant.discard_wins:
            for seat, options in window.options.items():
                could_win = any(a.type == WIN for a in options)
                if could_win and (best is None or best.seat != seat or best.type != WIN):
                    self.skipped_win[seat].add(window.tile)
        if best is not None and best.type == WIN:
            by = "rob_kong" if rob else "discard"
            result = self._scored_win(
                best.seat, by, window.tile, window.from_seat, window.final, at=window.opened_at
            )
            assert result is not None
            if not rob:
                self.discards[window.from_seat][-1].claimed = True
                self.discards[window.from_seat][-1].by_seat = best.seat
            self._finish(
                result,
                events,
                {
                    "type": "win",
                    "seat": best.seat,
                    "by": by,
                    "tile": kind_str(window.tile),
                    "from": window.from_seat,
                },
            )
            return
        self.window = None
        if rob:
            maker = window.from_seat
            assert self.rob_meld_index is not None
            index, self.rob_meld_index = self.rob_meld_index, None
            self._complete_added_kong(maker, index, events)
            return
        if best is None or best.type == PASS:
            if window.final:
                self._exhaustive_draw(events)
            else:
                self._next_draw((window.from_seat + 1) % self.num_seats, events)
            return
        self._claim(best, window, events)

    def _claim(self, action: Action, window: _Window, events: list[Event]) -> None:
        seat, tile, discarder = action.seat, window.tile, window.from_seat
        hand = self.hands[seat]
        white_as: int | None = None
        if action.type == CHOW:
            assert action.tiles is not None
            chow_kind = self._chow_kind(tile)
            assert chow_kind is not None
            source = self._chow_source(seat, action.tiles, chow_kind)  # type: ignore[arg-type]
            assert source is not None
            if chow_kind != tile:
                white_as = chow_kind  # the discarded White stands for the wild's kind
            for kind in action.tiles:
                if kind == chow_kind:
                    continue
                if kind == source:
                    hand[WHITE] -= 1
                    white_as = kind
                else:
                    hand[kind] -= 1
            # ``claimed`` is the face taken from the river: a White when it stood in.
            meld = Meld(
                CHOW, tuple(action.tiles), from_seat=discarder, claimed=tile, white_as=white_as
            )
        elif action.type == PUNG:
            hand[tile] -= 2
            meld = Meld(PUNG, (tile,) * 3, from_seat=discarder, claimed=tile)
        else:
            hand[tile] -= 3
            meld = Meld(KONG, (tile,) * 4, from_seat=discarder, claimed=tile)
        self.melds[seat].append(meld)
        self.discards[discarder][-1].claimed = True
        self.discards[discarder][-1].by_seat = seat
        self.seen.update(meld.faces)  # a White in a chow is a White shown (live dragons)
        self.any_claim = True
        self.skipped_win[seat].clear()
        events.append({"type": "claim", "seat": seat, "meld": meld.to_json(), "from": discarder})
        is_kong = action.type == KONG
        # Claims on a folded player's discards do not count toward three-claim liability.
        if self.variant.has_three_claim_liability and discarder not in self.folded:
            key = (seat, discarder)
            self.claim_counts[key] = self.claim_counts.get(key, 0) + 1
            pair = (min(seat, discarder), max(seat, discarder))
            if self.claim_counts[key] == 3 and pair not in self.santan_pairs:
                self.santan_pairs.append(pair)
                # Asked: whoever is neither a liable party (of any pair) nor folded.
                liable = {party for liable_pair in self.santan_pairs for party in liable_pair}
                pending = {
                    s for s in range(self.num_seats) if s not in liable and s not in self.folded
                }
                events.append({"type": "santan", "pair": list(pair)})
                if pending:
                    self.santan = _SantanPause(pair=pair, pending=pending, then_replacement=is_kong)
                    self.phase = SANTAN
                    self.current_seat = seat
                    return
        self._after_claim(seat, is_kong, events)

    def _after_claim(self, seat: int, is_kong: bool, events: list[Event]) -> None:
        self.santan = None
        if is_kong:
            self._replacement_draw(seat, events)
            return
        self.phase = TURN
        self.current_seat = seat
        self.after_claim = True
        self.after_kong = False
        self.drawn[seat] = None

    def _apply_santan(self, action: Action, events: list[Event]) -> None:
        pause = self.santan
        assert pause is not None
        pause.pending.discard(action.seat)
        if action.type == FOLD:
            self.folded.add(action.seat)
        events.append({"type": "santan_choice", "seat": action.seat, "choice": action.type})
        if not pause.pending:
            claimer = self.current_seat
            assert claimer is not None
            self._after_claim(claimer, pause.then_replacement, events)

    # ------------------------------------------------------------------ ending
    def _finish(self, result: HandResult, events: list[Event], win_event: Event) -> None:
        self.result = result
        self.phase = ENDED
        self.current_seat = None
        self.window = None
        events.append(win_event)
        events.append({"type": "hand_end", "deltas": list(result.deltas)})

    def _exhaustive_draw(self, events: list[Event]) -> None:
        self.result = HandResult.draw(self.variant.name, self.num_seats)
        self.phase = ENDED
        self.current_seat = None
        self.window = None
        events.append({"type": "exhaustive_draw"})
        events.append({"type": "hand_end", "deltas": list(self.result.deltas)})

    @property
    def carried_fan_after(self) -> int:
        """The pool handed to the next hand: a win takes one fan, a draw adds one."""
        if self.result is None or not self.variant.has_carried_fan:
            return self.carried_fan
        if self.result.winner is None:
            return self.carried_fan + 1
        return max(0, self.carried_fan - 1)

    # ------------------------------------------------------------------ timeouts, leaving
    def default_action(self, seat: int) -> Action | None:
        """The safe default on a timeout: discard the drawn tile (else the last tile in
        hand), pass a claim, continue under three-claim liability.

        "The last tile in hand" is the last one the player sees: hands are shown wilds
        first, then by suit (``render.hand``), so after a claim a timeout throws the
        highest natural tile, never a wild while the hand holds anything else."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        if self.phase == TURN:
            drawn = self.drawn[seat]
            if drawn is not None and Action(DISCARD, seat, tile=drawn) in legal:
                return Action(DISCARD, seat, tile=drawn)
            wild = self.wild
            discards = [a for a in legal if a.type == DISCARD]
            return max(discards, key=lambda action: (action.tile != wild, action.tile or 0))
        if self.phase == SANTAN:
            return Action(CONTINUE, seat)
        return Action(PASS, seat)

    def flee_penalty(self, seat: int) -> int:
        """Units a player pays for leaving this hand (the rule set's ``flee_penalty``)."""
        liability_active = bool(self.santan_pairs) and self.phase != ENDED
        return self.variant.flee_penalty(seat, liability_active, seat in self.folded)

    # ------------------------------------------------------------------ views
    def _seat_views_now(self) -> tuple[SeatView, ...]:
        """Every seat's public face, each rebuilt only when something it shows changed:
        a public view is built after every action, and most actions change one seat or
        two. What a kept view shows is compared field by field with what it was built
        from (no key object per call; no melds and no pairs compare as the shared empty
        tuple), in one loop over the seats."""
        kept = self._seat_views
        pairs = tuple(self.santan_pairs) if self.santan_pairs else ()
        dealer = self.dealer
        num_seats = self.num_seats
        folded = self.folded
        scores = self.scores
        hands = self.hands
        rivers = self.discards
        melds_of = self.melds
        views = []
        for seat in range(num_seats):
            river = rivers[seat]
            last = river[-1] if river else None
            melds = melds_of[seat]
            cached = kept.get(seat)
            if (
                cached is not None
                and cached[1] == len(river)
                and cached[2] is last
                and (last is None or (cached[3] == last.claimed and cached[4] == last.by_seat))
                and cached[5] == sum(hands[seat])
                and cached[6] == (seat in folded)
                and cached[7] == scores[seat]
                and cached[8] == (tuple(melds) if melds else ())
                and cached[9] == pairs
                and cached[10] == dealer
                and cached[11] == num_seats
            ):
                views.append(cached[0])
                continue
            view = self._new_seat_view(seat)
            kept[seat] = (
                view,
                len(river),
                last,
                None if last is None else last.claimed,
                None if last is None else last.by_seat,
                view.concealed_count,
                view.folded,
                view.score,
                tuple(melds) if melds else (),
                pairs,
                dealer,
                num_seats,
            )
            views.append(view)
        return tuple(views)

    def _new_seat_view(self, seat: int) -> SeatView:
        own = self.melds[seat]
        melds = (
            tuple(Meld(m.type, (), concealed=True) if m.concealed else m for m in own)
            if own
            else ()
        )
        pairs = self.santan_pairs
        liable = (
            tuple(sorted({b if a == seat else a for a, b in pairs if seat in (a, b)}))
            if pairs
            else ()
        )
        return _make_seat_view(
            seat=seat,
            seat_wind=self.seat_wind(seat),
            is_dealer=seat == self.dealer,
            concealed_count=sum(self.hands[seat]),
            melds=melds,
            discards=self._discard_views(seat),
            folded=seat in self.folded,
            score=self.scores[seat],
            liable_with=liable,
        )

    def _discard_views(self, seat: int) -> tuple[DiscardView, ...]:
        """The river as views: a discard's view is fixed once the seat has discarded
        again (a claim takes only the latest discard), so those are built once."""
        river = self.discards[seat]
        if not river:
            return ()
        settled = self._settled_discard_views[seat]
        if len(settled) < len(river) - 1:
            settled += tuple([_discard_view(d) for d in river[len(settled) : -1]])
            self._settled_discard_views[seat] = settled
        return (*settled, _discard_view(river[-1]))

    def public_view(self, *, round_index: int = 0, turn_id: int | None = None) -> PublicView:
        """``round_index`` and ``turn_id`` are the match's (``Match.public_view``), passed
        in rather than replaced afterwards: one view built per call, not two. Its seats
        are built when first read (``_UnbuiltSeatsView``)."""
        view = _make_unbuilt_public_view(
            variant=self.variant.name,
            num_seats=self.num_seats,
            hand_number=self.hand_number,
            dealer=self.dealer,
            prevailing_wind=self.prevailing_wind,
            round_index=round_index,
            indicator=self.indicator,
            wild=self.wild,
            dice=self.wall.dice,
            tiles_left=self.wall.drawable,
            carried_fan=self.carried_fan,
            phase=self.phase,
            current_seat=self.current_seat if self.phase == TURN else None,
            waiting_on=self.public_waiting_on,
            last_discard=self.last_discard,
            turn_id=self.turn_id if turn_id is None else turn_id,
            result=self.result,
            carried_fan_bonuses=tuple(self.carried_fan_bonuses),
        )
        _UNBUILT_ROUND.__set__(view, self)
        unbuilt = self._unbuilt_views
        if len(unbuilt) >= 64:  # asked again and again with no action (an ended hand)
            unbuilt[:] = [ref for ref in unbuilt if ref() is not None]
        unbuilt.append(weakref.ref(view))
        return view

    def _build_unbuilt_views(self) -> None:
        """Build the seats of every public view made since the last action that someone
        still holds, before the round changes under them."""
        views = self._unbuilt_views
        for ref in views:
            view = ref()
            if view is not None:
                view.seats  # noqa: B018 - reading it builds it (and makes no view)
        views.clear()

    def player_view(self, seat: int, public: PublicView | None = None) -> PlayerView:
        hand = self.hands[seat]
        drawn = self.drawn[seat] if self.phase == TURN and self.current_seat == seat else None
        # A seat's tiles and waits are asked again and again between its moves (every
        # claim window, every view): kept by what they are computed from, the tiles.
        key = (bytes(hand), drawn)
        concealed = self._hand_views.get(key)
        if concealed is None:
            counts = list(hand)
            if drawn is not None:
                counts[drawn] -= 1
            if len(self._hand_views) >= 512:
                self._hand_views.clear()
            concealed = self._hand_views[key] = tuple(from_counts(counts))
        claim_tile = self.window.tile if self.window is not None else None
        skipped = self.skipped_win[seat]
        melds = self.melds[seat]
        return _make_player_view(
            seat=seat,
            public=public or self.public_view(),
            concealed=concealed,
            drawn=drawn,
            legal=self._legal(seat),
            melds=tuple(melds) if melds else (),
            skipped_win=tuple(sorted(skipped)) if skipped else (),
            claim_tile=claim_tile,
            waits=self.winning_waits(seat),
            counts=key[0],
        )

    # ------------------------------------------------------------------ integrity
    def tile_census(self) -> list[int]:
        """Physical tiles per kind across wall, hands, melds, discards and the indicator;
        every kind in play must count 4 (tests rely on it)."""
        counts = [0] * NUM_KINDS
        for kind in self.wall.tiles:
            counts[kind] += 1
        if not self.wall.indicator_in_wall:
            counts[self.indicator] += 1
        for seat in range(self.num_seats):
            for kind in range(NUM_KINDS):
                counts[kind] += self.hands[seat][kind]
            for meld in self.melds[seat]:
                for kind in meld.faces:
                    counts[kind] += 1
                if meld.claimed is not None:
                    counts[meld.claimed] -= 1  # counted in the discarder's river too
            for discard in self.discards[seat]:
                counts[discard.tile] += 1
        return counts

    def determinized(self, seat: int, rng: random.Random) -> Round:
        """A copy of the hand in which every tile ``seat`` cannot see is dealt again.

        Why: a search that plays the rest of the hand out must not read the real hidden
        tiles. Playing out copies dealt like this measures outcomes from what ``seat``
        knows. The others' concealed tiles, the kinds of their concealed kongs and the
        live wall (with the replacement end) are pooled and shuffled; each hand keeps
        its size, a drawn tile stays drawn, and a hidden concealed kong takes a kind
        whose four copies are all in the pool (uniformly among them; the exact
        posterior would weight kinds by how they were dealt, which no search here
        reads). Everything public, and ``seat``'s own tiles, stay as they are; the copy
        shares nothing mutable with this round, so it may be played to its end.
        """
        if not 0 <= seat < self.num_seats:
            raise ValueError(f"seat {seat} is not a seat of {self.num_seats}")
        clone = self.copy()
        clone._redeal_hidden(seat, rng)
        return clone

    def copy(self) -> Round:
        """An exact copy of the hand, to be played on apart from this one.

        Why: measuring one decision's worth plays the same moment on twice, each way
        (``benchmarks/decision_forks.py``); the copy shares only what never changes (the
        rule set, its options and the scorer), so the two cannot disturb each other."""
        shared = (self.variant, self.options, self._scorer)
        return copy.deepcopy(self, {id(item): item for item in shared})

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        others = [other for other in range(self.num_seats) if other != seat]
        # A flipped indicator left in the wall (``wild_copies`` 4) is seen by all and stays
        # put, until the first replacement draw takes it from the far end.
        flipped_in_wall = self.wall.indicator_in_wall and self.wall.drawn_from_back == 0
        live = self.wall.tiles[:-1] if flipped_in_wall else self.wall.tiles
        pool = list(live)
        for other in others:
            pool += from_counts(self.hands[other])
        hidden_kongs = [
            (other, index)
            for other in others
            for index, meld in enumerate(self.melds[other])
            if meld.concealed
        ]
        for other, index in hidden_kongs:
            pool += self.melds[other][index].tiles
        rng.shuffle(pool)
        for other, index in hidden_kongs:
            in_pool = to_counts(pool)
            kind = rng.choice([k for k in range(NUM_KINDS) if in_pool[k] >= 4])
            for _ in range(4):
                pool.remove(kind)
            meld = self.melds[other][index]
            self.melds[other][index] = replace(meld, tiles=(kind,) * len(meld.tiles))
        for other in others:
            size = sum(self.hands[other])
            dealt, pool = pool[:size], pool[size:]
            self.hands[other] = to_counts(dealt)
            if self.drawn[other] is not None:
                self.drawn[other] = dealt[-1]
        self.wall.tiles = pool + ([self.wall.tiles[-1]] if flipped_in_wall else [])
        # Every cache below is keyed by what the old tiles were.
        self._win_cache.clear()
        self._seat_views.clear()
        self._hand_views.clear()
        self._waits.clear()
        self._winning_waits.clear()
        self._unbuilt_views.clear()
        self._turn_key = ()
        window = self.window
        if window is not None and self.phase in (CLAIM, ROB_KONG):
            # Who else may claim or rob was worked out from the old hands: ask again,
            # and forget the others' answers (they answered holding other tiles).
            for other in others:
                window.options.pop(other, None)
                window.responses.pop(other, None)
                if other == window.from_seat:
                    continue
                if self.phase == CLAIM:
                    options = self._claim_options(
                        other, window.tile, window.from_seat, window.final
                    )
                else:
                    options = self._rob_options(other, window.tile, window.from_seat)
                if options:
                    window.options[other] = options
            self._maybe_close_window([])  # nobody may be left to answer

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data, for replay checks."""
        return {
            "phase": self.phase,
            "current": self.current_seat,
            "wall": list(self.wall.tiles),
            "hands": [list(h) for h in self.hands],
            "melds": [[m.to_json() for m in ms] for ms in self.melds],
            "discards": [[(d.tile, d.claimed, d.by_seat) for d in ds] for ds in self.discards],
            "drawn": list(self.drawn),
            "folded": sorted(self.folded),
            "santan": [list(p) for p in self.santan_pairs],
            "skipped": [sorted(s) for s in self.skipped_win],
            "turn_id": self.turn_id,
            "result": self.result.to_json() if self.result else None,
            # Everything else that steers what happens next, so that two states that
            # compare equal really are the same position.
            "indicator": self.indicator,
            "wild": self.wild,
            "dice": list(self.wall.dice),
            "after_claim": self.after_claim,
            "after_kong": self.after_kong,
            "has_discarded": list(self.has_discarded),
            "any_claim": self.any_claim,
            "last_discard": list(self.last_discard) if self.last_discard else None,
            "claim_counts": sorted([t, d, n] for (t, d), n in self.claim_counts.items()),
            "window": self._window_snapshot(),
            "santan_pending": sorted(self.santan.pending) if self.santan else None,
            "carried_fan": self.carried_fan,
            "seen": sorted(self.seen),
        }

    def _window_snapshot(self) -> dict[str, Any] | None:
        window = self.window
        if window is None:
            return None
        return {
            "tile": window.tile,
            "from": window.from_seat,
            "final": window.final,
            "options": {
                str(seat): [a.to_json() for a in actions]
                for seat, actions in sorted(window.options.items())
            },
            "responses": {
                str(seat): action.to_json() for seat, action in sorted(window.responses.items())
            },
        }
