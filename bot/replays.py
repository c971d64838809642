"""Finding a finished hand and rebuilding it for review: what ``/replay``, the replay
buttons and ``mahjong-bot replay`` share (no discord.py here).

A hand is named by its game (the full id or a prefix of it, as result cards and
``/history`` show it) and its 1-based number. The hand is rebuilt from the stored seed,
rules and action log (``engine.replay``), never from stored images, and only once it has
ended: a hand still being played is refused, so a replay never shows a live table.
Rebuilt hands are kept in a small cache, since an ended hand never changes and stepping
through one asks for it on every click.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from data import GameRecord
from engine.replay import HandReplay, ReplayError, replay_hand

from .messages import msg
from .presenter import Text

__all__ = ["LoadedHand", "ReplayLookupError", "find_game", "load_hand", "seat_names_of"]

CACHE_SIZE = 32
_cache: OrderedDict[tuple[str, int], HandReplay] = OrderedDict()


class ReplayLookupError(LookupError):
    """No such game or hand, or the hand has not ended: ``text`` says which, bilingually."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


@dataclass(frozen=True)
class LoadedHand:
    game: GameRecord
    record: HandReplay
    names: tuple[str, ...]  # by seat

    @property
    def hand_label(self) -> int:
        """The hand's number as players read it (1-based)."""
        return self.record.hand_number + 1


def seat_names_of(game: GameRecord) -> tuple[str, ...]:
    """Names by seat from the seats recorded at the start of the match."""
    seats = sorted(game.meta.get("seats") or [], key=lambda record: record.get("seat", 0))
    count = int(game.settings.get("num_seats") or len(seats) or 4)
    names = [f"#{seat + 1}" for seat in range(count)]
    for record in seats:
        seat = int(record.get("seat", 0))
        if 0 <= seat < count and record.get("name"):
            names[seat] = str(record["name"])
    return tuple(names)


async def find_game(store: Any, name: str) -> GameRecord:
    """The game whose id is ``name`` or starts with it; refuses unknown and ambiguous names."""
    name = (name or "").strip()
    ids = await store.find_games(name, limit=2) if name else []
    if not ids:
        raise ReplayLookupError(msg("replay.no_game", game=name[:40]))
    if len(ids) > 1 and ids[0] != name:
        raise ReplayLookupError(msg("replay.ambiguous", game=name[:40]))
    game = await store.get_game(ids[0])
    if game is None:  # deleted in between
        raise ReplayLookupError(msg("replay.no_game", game=name[:40]))
    return game


async def load_hand(store: Any, game: GameRecord, hand: int) -> LoadedHand:
    """Hand ``hand`` (1-based) of ``game``, rebuilt off the event loop (cached)."""
    key = (game.game_id, hand)
    record = _cache.get(key)
    if record is None:
        if hand < 1:
            raise ReplayLookupError(msg("replay.no_hand", hand=hand))
        rows = await store.load_action_records(game.game_id)
        if not any(row.hand_number == hand - 1 for row in rows):
            raise ReplayLookupError(msg("replay.no_hand", hand=hand))
        actions = [(row.hand_number, row.action) for row in rows if row.hand_number < hand]
        seats = int(game.settings.get("num_seats") or len(game.meta.get("seats") or []) or 4)
        try:
            record = await asyncio.to_thread(
                replay_hand, game.variant, game.options, game.seed, actions, hand - 1, seats=seats
            )
        except ReplayError as error:
            raise ReplayLookupError(msg("replay.not_over", hand=hand)) from error
        _cache[key] = record
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    else:
        _cache.move_to_end(key)
    return LoadedHand(game, record, seat_names_of(game))
