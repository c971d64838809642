"""A match: a sequence of hands with dealer rotation, winds, the carried pool and totals.

A match is ``(variant, options, seed, seats, actions)``: each hand's wall is seeded from
the match seed and the hand number, the next hand starts as soon as one ends, and so
replaying the action list rebuilds the identical match (``Match.replay``).
"""

from __future__ import annotations

from typing import Any

from .round import Event, IllegalAction, Round
from .types import Action, HandResult
from .variants import Variant, variant_for
from .views import PlayerView, PublicView
from .wall import hand_rng


class Match:
    def __init__(
        self,
        variant: str,
        options: Any = None,
        seed: int | str = 0,
        *,
        seats: int = 4,
        scorer: Any = None,
    ) -> None:
        self.variant: Variant = variant_for(variant, options)
        self.options = self.variant.options
        if seats not in self.variant.allowed_seats:
            allowed = ", ".join(map(str, self.variant.allowed_seats))
            raise ValueError(f"{self.variant.name} is played with {allowed} seats, not {seats}")
        self.seed = seed
        self.num_seats = seats
        self.scores = [0] * seats
        self.results: list[HandResult] = []
        self.actions: list[Action] = []
        self.dealer = 0
        self.prevailing_wind = 27
        self.wind_rounds_done = 0  # Jiaxing: full prevailing winds; Taizhou: rotations
        self.carried_fan = 0
        self.finished = False
        self._scorer = scorer
        self.round: Round = self._new_round(previous_wild=None)

    # ------------------------------------------------------------------ progression
    def _new_round(self, previous_wild: int | None) -> Round:
        hand_number = len(self.results)
        return Round(
            self.variant,
            seed=f"{self.seed}:{hand_number}",
            seats=self.num_seats,
            dealer=self.dealer,
            prevailing_wind=self.prevailing_wind,
            carried_fan=self.carried_fan,
            previous_wild=previous_wild,
            hand_number=hand_number,
            scores=self.scores,
            scorer=self._scorer,
        )

    @property
    def hand_number(self) -> int:
        return len(self.results)

    @property
    def total_rounds(self) -> int:
        return int(self.options.rounds)

    def apply(self, action: Action) -> list[Event]:
        if self.finished:
            raise IllegalAction("the match is over")
        events = self.round.apply(action)
        self.actions.append(action)
        if self.round.is_over:
            events.extend(self._end_hand())
        return events

    def _end_hand(self) -> list[Event]:
        finished_round = self.round
        result = finished_round.result
        assert result is not None
        if sum(result.deltas) != 0:
            raise AssertionError(f"hand deltas are not zero-sum: {result.deltas}")
        self.results.append(result)
        for seat, delta in enumerate(result.deltas):
            self.scores[seat] += delta
        self.carried_fan = finished_round.carried_fan_after
        dealer_won = result.winner == self.dealer
        drawn = result.winner is None
        stays = dealer_won or (drawn and self.variant.dealer_stays_on_draw)
        if not stays:
            self.dealer = (self.dealer + 1) % self.num_seats
            if self.dealer == 0:
                self.wind_rounds_done += 1
                if self.variant.has_prevailing_wind:
                    self.prevailing_wind = 27 + self.wind_rounds_done % 4
        events: list[Event] = [{"type": "scores", "scores": list(self.scores)}]
        if self.wind_rounds_done >= self.total_rounds:
            self.finished = True
            events.append({"type": "match_end", "scores": list(self.scores)})
            return events
        self.round = self._new_round(previous_wild=finished_round.wild)
        events.append({"type": "new_hand", "hand_number": self.hand_number, "dealer": self.dealer})
        return events

    # ------------------------------------------------------------------ queries
    def legal_actions(self, seat: int) -> list[Action]:
        return [] if self.finished else self.round.legal_actions(seat)

    @property
    def turn_id(self) -> int:
        """Accepted actions so far in the match; a stale click names an older one."""
        return len(self.actions)

    def public_view(self) -> PublicView:
        return self.round.public_view(round_index=self.wind_rounds_done, turn_id=self.turn_id)

    def player_view(self, seat: int) -> PlayerView:
        return self.round.player_view(seat, public=self.public_view())

    # ------------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant.name,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "seats": self.num_seats,
            "actions": [a.to_json() for a in self.actions],
        }

    @classmethod
    def replay(
        cls,
        variant: str,
        options: Any,
        seed: int | str,
        actions: list[Action] | list[dict[str, Any]],
        *,
        seats: int = 4,
        scorer: Any = None,
    ) -> Match:
        match = cls(variant, options, seed, seats=seats, scorer=scorer)
        for action in actions:
            match.apply(action if isinstance(action, Action) else Action.from_json(action))
        return match

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        return cls.replay(
            data["variant"],
            data.get("options"),
            data["seed"],
            data["actions"],
            seats=data.get("seats", 4),
        )


def assign_seats(seed: int | str, players: list[Any]) -> list[Any]:
    """Seats are drawn at random from the game's seed when the match starts (RULES.md §3)."""
    order = list(players)
    hand_rng(f"seats:{seed}").shuffle(order)
    return order
