"""A player's recent matches, hand by hand, for ``/history`` and the replay's look-ups.

Why a part of its own: history joins the games (rule set, seats, status) with the
ledger (who won each hand, what each seat was paid), which no other part reads together.
Every query is served by an index the schema already has: the player's matches by
``ledger_user_history (guild_id, user_id, kind, id)``, their hands by the unique
``ledger_hand_seat (game_id, hand_number, seat)``, games by their key.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .connection import StoreBase, _check_int

__all__ = ["GAME_PREFIX", "HandSummary", "HistoryPart", "MatchPage", "MatchSummary"]

# What a game id (``secrets.token_hex``) or a prefix of one may look like.
GAME_PREFIX = re.compile(r"[A-Za-z0-9_-]{1,40}")


@dataclass(frozen=True)
class HandSummary:
    """One settled hand of a match: who won (seat, or None for a draw) and what each
    seat's balance moved (points after caps), by seat."""

    hand_number: int
    winner_seat: int | None
    points: tuple[int, ...]
    created_at: datetime
    users: tuple[int | None, ...] = ()  # who was paid at each seat (None: an AI seat)
    voided: bool = False  # reversed by an admin (/mjadmin void): it counts nowhere


@dataclass(frozen=True)
class MatchSummary:
    game_id: str
    guild_id: int
    variant: str
    status: str
    stake: int
    seats: tuple[dict[str, Any], ...]  # seat records: seat, name, user_id, is_ai
    created_at: datetime
    finished_at: datetime | None
    hands: tuple[HandSummary, ...] = field(default=())
    left: tuple[dict[str, Any], ...] = ()  # who left mid-match: seat, user_id, name

    def seat_of(self, user_id: int) -> int | None:
        """The user's seat: from the seats recorded at the start, else from the ledger
        (a game settled without seat records, as an admin tool or an old version left)."""
        for record in self.seats:
            if record.get("user_id") == user_id and not record.get("is_ai"):
                return int(record["seat"])
        for hand in self.hands:
            if user_id in hand.users:
                return hand.users.index(user_id)
        return None

    def points_for(self, user_id: int, hand: HandSummary) -> int | None:
        """What the user was paid in ``hand``, or None if they did not hold a seat for
        it: a player who left is not charged for the hands an AI then played in their
        seat (the ledger paid that seat's row to nobody). A hand without a record of who
        held each seat falls back to the user's seat."""
        if hand.users:
            if user_id not in hand.users:
                return None
            seat: int | None = hand.users.index(user_id)
        else:
            seat = self.seat_of(user_id)
        if seat is None or seat >= len(hand.points):
            return None
        return hand.points[seat]

    def departed(self) -> list[tuple[int, int, str, int]]:
        """The players who left the match while it ran, as ``(seat, user_id, name,
        points)``: their seat went to an AI, and ``points`` is what they were paid before
        that (the seat's later hands are the AI's). From who was paid at each seat; a
        match without those records has none."""
        found: list[tuple[int, int, str, int]] = []
        played = [hand for hand in self.hands if hand.users and not hand.voided]
        if not played:
            return found
        last = played[-1].users
        names = {
            record.get("user_id"): str(record.get("name") or "")
            for record in (*self.seats, *self.left)
            if not record.get("is_ai")
        }
        for seat in range(len(last)):
            holders = dict.fromkeys(hand.users[seat] for hand in played if seat < len(hand.users))
            for user_id in holders:
                if user_id is None or user_id == last[seat]:
                    continue
                points = sum(
                    hand.points[seat]
                    for hand in played
                    if seat < len(hand.users) and hand.users[seat] == user_id
                )
                found.append((seat, user_id, names.get(user_id) or str(user_id), points))
        return found

    def hands_of(self, user_id: int) -> tuple[HandSummary, ...]:
        """The hands the user held a seat for, in order."""
        return tuple(hand for hand in self.hands if self.points_for(user_id, hand) is not None)

    def total_for(self, user_id: int) -> int:
        """The user's net points over the hands they played, as their ledger rows say (a
        voided hand: none)."""
        return sum(self.points_for(user_id, hand) or 0 for hand in self.hands if not hand.voided)


@dataclass(frozen=True)
class MatchPage:
    matches: tuple[MatchSummary, ...]
    total: int  # matches of the player (with this filter), for "page 2 of 5"


class HistoryPart(StoreBase):
    """Matches with their hands (``Store`` mixes this in)."""

    async def match_history(
        self,
        guild_id: int,
        user_id: int,
        *,
        variant: str | None = None,
        limit: int = 5,
        offset: int = 0,
    ) -> MatchPage:
        """The user's matches in the guild with at least one settled hand, most recently
        played first, each with every settled hand (not only the user's)."""
        _check_int("guild_id", guild_id)
        _check_int("user_id", user_id)
        _check_int("limit", limit, minimum=1)
        _check_int("offset", offset, minimum=0)

        def body(connection: sqlite3.Connection) -> MatchPage:
            played = (
                "SELECT l.game_id, MAX(l.id) AS last_id FROM ledger AS l"
                " JOIN games AS g ON g.game_id = l.game_id"
                " WHERE l.guild_id = ?1 AND l.user_id = ?2 AND l.kind = 'hand'"
                "   AND (g.variant = ?3 OR ?3 IS NULL)"
                " GROUP BY l.game_id"
            )
            total = connection.execute(
                f"SELECT COUNT(*) FROM ({played}) AS played", (guild_id, user_id, variant)
            ).fetchone()[0]
            rows = connection.execute(
                f"SELECT game_id FROM ({played}) AS played"
                " ORDER BY last_id DESC LIMIT ?4 OFFSET ?5",
                (guild_id, user_id, variant, limit, offset),
            ).fetchall()
            ids = [str(row[0]) for row in rows]
            return MatchPage(tuple(_summaries(connection, ids)), int(total))

        return await self._read(body)

    async def match_summary(self, game_id: str) -> MatchSummary | None:
        """One match with its settled hands, or None if there is no such game."""
        found = await self._read(lambda connection: _summaries(connection, [game_id]))
        return found[0] if found else None

    async def find_games(self, prefix: str, limit: int = 5) -> list[str]:
        """Game ids starting with ``prefix`` (a whole id matches itself first), so a
        command can take the short hash a result card shows. Anything but letters,
        digits, ``_`` and ``-`` matches nothing."""
        if not isinstance(prefix, str) or not GAME_PREFIX.fullmatch(prefix):
            return []
        _check_int("limit", limit, minimum=1)
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT game_id FROM games WHERE substr(game_id, 1, ?1) = ?2"
                " ORDER BY game_id = ?2 DESC, created_at DESC, game_id LIMIT ?3",
                (len(prefix), prefix, limit),
            ).fetchall()
        )
        return [str(row[0]) for row in rows]


def _summaries(connection: sqlite3.Connection, game_ids: Sequence[str]) -> list[MatchSummary]:
    """Summaries of ``game_ids`` in that order (unknown ids are skipped)."""
    if not game_ids:
        return []
    marks = ", ".join("?" * len(game_ids))
    games = {
        row["game_id"]: row
        for row in connection.execute(
            "SELECT game_id, guild_id, variant, status, settings, meta, created_at, finished_at"
            f" FROM games WHERE game_id IN ({marks})",
            tuple(game_ids),
        ).fetchall()
    }
    hands: dict[str, dict[int, dict[str, Any]]] = {}
    for row in connection.execute(
        "SELECT l.game_id, l.hand_number, l.seat, l.user_id, l.points, l.is_winner,"
        " l.created_at, CASE WHEN v.op_id IS NULL THEN 0 ELSE 1 END AS voided"
        " FROM ledger AS l LEFT JOIN voided_hands AS v ON v.op_id = l.op_id"
        f" WHERE l.kind = 'hand' AND l.game_id IN ({marks})"
        " ORDER BY l.game_id, l.hand_number, l.seat",
        tuple(game_ids),
    ).fetchall():
        hand = hands.setdefault(row["game_id"], {}).setdefault(
            int(row["hand_number"]),
            {"winner": None, "points": {}, "users": {}, "at": row["created_at"],
             "voided": bool(row["voided"])},
        )  # fmt: skip
        seat = int(row["seat"]) if row["seat"] is not None else None
        if seat is None:
            continue
        hand["points"][seat] = int(row["points"])
        hand["users"][seat] = row["user_id"]
        if row["is_winner"]:
            hand["winner"] = seat
    summaries = []
    for game_id in game_ids:
        game = games.get(game_id)
        if game is None:
            continue
        settings = json.loads(game["settings"])
        meta = json.loads(game["meta"])
        seats = tuple(sorted(meta.get("seats") or [], key=lambda record: record.get("seat", 0)))
        game_hands = hands.get(game_id, {})
        ledger_seats = max(
            (seat + 1 for hand in game_hands.values() for seat in hand["points"]), default=0
        )
        num_seats = max(len(seats), int(settings.get("num_seats") or 0), ledger_seats)
        played = [
            HandSummary(
                hand_number=number,
                winner_seat=hand["winner"],
                points=tuple(hand["points"].get(seat, 0) for seat in range(num_seats)),
                created_at=datetime.fromisoformat(hand["at"]),
                users=tuple(hand["users"].get(seat) for seat in range(num_seats)),
                voided=hand["voided"],
            )
            for number, hand in sorted(game_hands.items())
        ]
        summaries.append(
            MatchSummary(
                game_id=game_id,
                guild_id=int(game["guild_id"]),
                variant=str(game["variant"]),
                status=str(game["status"]),
                stake=int(settings.get("stake") or 1),
                seats=seats,
                created_at=datetime.fromisoformat(game["created_at"]),
                finished_at=(
                    datetime.fromisoformat(game["finished_at"]) if game["finished_at"] else None
                ),
                hands=tuple(played),
                left=tuple(record for record in meta.get("left") or [] if isinstance(record, dict)),
            )
        )
    return summaries
