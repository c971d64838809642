"""Per-seat deadlines: when a waiting seat must act, and when a stage is new.

Why: a claim window is answered by several seats at once; a seat that is still thinking
keeps its deadline while the others answer, and only a new stage (a new draw, a new
window) starts a fresh one. ``stage_signature`` names the stage so the session can tell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.match import Match

__all__ = [
    "AUTOPLAY_AFTER_TIMEOUTS",
    "RETRY_SECONDS",
    "UNATTENDED_HANDS",
    "UNATTENDED_SECONDS",
    "UNATTENDED_WARNING_HANDS",
    "UNATTENDED_WARNING_SECONDS",
    "Due",
    "stage_signature",
]

AUTOPLAY_AFTER_TIMEOUTS = 3
RETRY_SECONDS = 5.0  # a timer-driven move that failed is tried again after this
# A running table none of whose players has made a move of their own (or pressed Back,
# asked for autoplay, changed a shortcut) for this long, or through this many whole
# hands, is closed: with every seat on autoplay or on shortcuts (auto-pass and
# auto-discard make a seat that never times out) it would play itself for ever when its
# dealer keeps winning, moving points between absent players.
UNATTENDED_SECONDS = 600.0
UNATTENDED_HANDS = 20
# The channel is warned this long (or this many hands) before, so someone still around
# can keep the table.
UNATTENDED_WARNING_SECONDS = 120.0
UNATTENDED_WARNING_HANDS = 2


@dataclass(slots=True)
class Due:
    """When a waiting seat must act: ``signature`` names the stage (a new draw, a new
    window), so a seat waiting in the same claim window keeps its deadline while others
    answer, and a new stage always gets a fresh one. (Slots: one is made per move at
    every table and lives until the next, an object fewer for the collector each.)"""

    signature: tuple[Any, ...]
    ai: bool
    at: float
    since_turn: int


def stage_signature(match: Match) -> tuple[Any, ...]:
    round_ = match.round
    view_discards = sum(map(len, round_.discards))
    view_melds = sum(map(len, round_.melds))
    return (
        match.hand_number,
        round_.phase,
        round_.current_seat,
        round_.wall.drawable,
        view_discards,
        view_melds,
        len(round_.folded),
    )
