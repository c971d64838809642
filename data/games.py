"""Games: records, seating (one open table per channel, one seat per user), the action
log that restores a running table, and the settlement bookkeeping of finished ones."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from .connection import StoreBase, _check_int, _dumps, _iso
from .models import (
    GAME_STATUSES,
    ActionConflictError,
    DuplicateGameError,
    GameRecord,
    StoredAction,
    StoreError,
    UnknownGameError,
)

_APPEND_BATCH_CHECK = """
    SELECT
        (SELECT json_group_array(json_array(j.key, a.action))
           FROM json_each(?1) AS j
           JOIN game_actions AS a
             ON a.game_id = json_extract(j.value, '$[0]') AND a.seq = json_extract(j.value, '$[1]')),
        (SELECT json_group_array(j.key)
           FROM json_each(?1) AS j
          WHERE NOT EXISTS (SELECT 1 FROM games AS g WHERE g.game_id = json_extract(j.value, '$[0]')))
"""

_APPEND_ROW_INSERT = (
    "INSERT INTO game_actions (game_id, seq, hand_number, action, created_at)"
    " VALUES (?, ?, ?, ?, ?)"
)

_APPEND_BATCH_INSERT = """
    INSERT INTO game_actions (game_id, seq, hand_number, action, created_at)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
           json_extract(value, '$[3]'), ?2
      FROM json_each(?1)
"""


# PostgreSQL does both in one statement, run as its own transaction (one round trip
# instead of BEGIN, check, insert and COMMIT; jsonb, ``WITH ORDINALITY`` numbers from 1):
# what is stored and which games are missing, as the check above, and the first row of
# every other key written. ``$1`` holds each key's
# first row ``[game_id, seq, hand_number, action]``; the count written is returned too.
_APPEND_BATCH_ONE_STATEMENT_PG = """
    WITH input AS (
        SELECT j.ord - 1 AS position, j.value ->> 0 AS game_id, (j.value ->> 1)::bigint AS seq,
               (j.value ->> 2)::bigint AS hand_number, j.value ->> 3 AS action
          FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS j (value, ord)
    ), stored AS (
        SELECT i.position, a.action
          FROM input AS i
          JOIN game_actions AS a ON a.game_id = i.game_id AND a.seq = i.seq
    ), missing AS (
        SELECT i.position
          FROM input AS i
         WHERE NOT EXISTS (SELECT 1 FROM games AS g WHERE g.game_id = i.game_id)
    ), written AS (
        INSERT INTO game_actions (game_id, seq, hand_number, action, created_at)
        SELECT i.game_id, i.seq, i.hand_number, i.action, $2
          FROM input AS i
         WHERE NOT EXISTS (SELECT 1 FROM stored AS s WHERE s.position = i.position)
           AND NOT EXISTS (SELECT 1 FROM missing AS m WHERE m.position = i.position)
        RETURNING 1
    )
    SELECT (SELECT COALESCE(json_agg(json_build_array(s.position, s.action)), '[]'::json)
              FROM stored AS s),
           (SELECT COALESCE(json_agg(m.position), '[]'::json) FROM missing AS m),
           (SELECT count(*) FROM written)
"""


class ChannelBusyError(StoreError, ValueError):
    """The channel already has an open (lobby or running) table."""


class AlreadySeatedError(StoreError, ValueError):
    """The user already holds a seat at an open table."""


class GamesPart(StoreBase):
    """Games, seating and the action log (``Store`` mixes this in)."""

    async def create_game(
        self,
        game_id: str,
        guild_id: int,
        channel_id: int | None,
        variant: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int,
        settings: dict[str, Any] | None = None,
        status: str = "lobby",
        seated_user: int | None = None,
    ) -> GameRecord:
        """Record a new table; raises ``DuplicateGameError`` if the id is taken.

        An open game (lobby or running) in a channel that already has one raises
        ``ChannelBusyError``; ``seated_user`` (the host) is seated in the same transaction
        and raises ``AlreadySeatedError`` if seated elsewhere. Nothing is written then.
        """
        if not isinstance(game_id, str) or not game_id:
            raise ValueError("game_id must be a non-empty string")
        _check_int("guild_id", guild_id)
        _check_int("seed", seed)
        _check_status(status)
        now = _iso(self._now(None))
        values = (
            game_id, guild_id, channel_id, variant, _dumps(options), _dumps(seats), seed,
            _dumps(settings or {}), status, now, now,
        )  # fmt: skip

        def body(connection: sqlite3.Connection) -> GameRecord:
            if connection.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone():
                raise DuplicateGameError(f"牌局已存在 / game {game_id!r} already exists")
            try:
                connection.execute(
                    "INSERT INTO games (game_id, guild_id, channel_id, variant, options, seats,"
                    " seed, settings, status, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    values,
                )
                if seated_user is not None:
                    connection.execute(
                        "INSERT INTO seated_users (user_id, game_id) VALUES (?, ?)",
                        (seated_user, game_id),
                    )
            except sqlite3.IntegrityError as error:
                raise _seating_error(error, game_id) from error
            return _load_game(connection, game_id)  # type: ignore[return-value]

        return await self._write(body)

    async def get_game(self, game_id: str) -> GameRecord | None:
        return await self._read(lambda connection: _load_game(connection, game_id))

    async def set_game_status(self, game_id: str, status: str) -> None:
        """Move a game to 'lobby', 'running', 'finished' or 'abandoned'.

        The first move to finished or abandoned stamps ``finished_at``.
        """
        _check_status(status)
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> None:
            try:
                cursor = connection.execute(
                    "UPDATE games SET status = ?1, updated_at = ?2,"
                    " finished_at = CASE WHEN ?1 IN ('finished', 'abandoned')"
                    "                    THEN COALESCE(finished_at, ?2) ELSE NULL END"
                    " WHERE game_id = ?3",
                    (status, now, game_id),
                )
            except sqlite3.IntegrityError as error:  # reopening in a channel taken since
                raise _seating_error(error, game_id) from error
            if cursor.rowcount == 0:
                raise UnknownGameError(f"没有这个牌局 / no game {game_id!r}")
            if status in ("finished", "abandoned"):
                connection.execute("DELETE FROM seated_users WHERE game_id = ?", (game_id,))

        await self._write(body)

    async def seat_user(self, game_id: str, user_id: int) -> bool:
        """Seat ``user_id`` at the open game ``game_id``: the database's half of "one open
        seat per user". Returns False if already seated there; raises
        ``AlreadySeatedError`` if seated at another game."""
        _check_int("user_id", user_id)

        def body(connection: sqlite3.Connection) -> bool:
            row = connection.execute(
                "SELECT game_id FROM seated_users WHERE user_id = ?", (user_id,)
            ).fetchone()
            if row is not None:
                if row[0] == game_id:
                    return False
                raise AlreadySeatedError(
                    f"已在另一张桌上 / user {user_id} is already seated at {row[0]}"
                )
            try:
                connection.execute(
                    "INSERT INTO seated_users (user_id, game_id) VALUES (?, ?)", (user_id, game_id)
                )
            except sqlite3.IntegrityError as error:  # the foreign key: no such game
                raise UnknownGameError(f"没有这个牌局 / no game {game_id!r}") from error
            return True

        return await self._write(body)

    async def unseat_user(self, game_id: str, user_id: int) -> None:
        """Free the user's seat at ``game_id`` (left the lobby or the running match)."""

        def body(connection: sqlite3.Connection) -> None:
            connection.execute(
                "DELETE FROM seated_users WHERE user_id = ? AND game_id = ?", (user_id, game_id)
            )

        await self._write(body)

    async def seated_game(self, user_id: int) -> str | None:
        """The open game ``user_id`` is seated at, if any."""
        row = await self._read(
            lambda connection: connection.execute(
                "SELECT game_id FROM seated_users WHERE user_id = ?", (user_id,)
            ).fetchone()
        )
        return str(row[0]) if row is not None else None

    async def settled_hands(self, game_id: str) -> set[int]:
        """The hand numbers of ``game_id`` that have been paid out."""
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT hand_number FROM ledger_ops WHERE game_id = ? AND kind = 'hand'",
                (game_id,),
            ).fetchall()
        )
        return {int(row[0]) for row in rows}

    async def games_to_check_settlement(self) -> list[GameRecord]:
        """Finished or abandoned games that may hold an ended but unsettled hand.

        A game whose every hand in its action log has a settlement is certainly settled;
        one with fewer settlements than hands either stopped mid-hand or lost a settlement,
        and only replaying its log tells which. Games already checked are skipped."""
        return await self._read(
            lambda connection: _load_games(
                connection,
                "WHERE g.status IN ('finished', 'abandoned') AND g.settlement_checked = 0"
                " AND (SELECT COUNT(DISTINCT a.hand_number) FROM game_actions AS a"
                "      WHERE a.game_id = g.game_id)"
                "   > (SELECT COUNT(*) FROM ledger_ops AS o"
                "      WHERE o.game_id = g.game_id AND o.kind = 'hand')"
                " ORDER BY g.created_at, g.game_id",
                (),
            )
        )

    async def mark_settlement_checked(self, game_id: str) -> None:
        """Every ended hand of this closed game is settled: start-up need not replay it."""

        def body(connection: sqlite3.Connection) -> None:
            connection.execute(
                "UPDATE games SET settlement_checked = 1"
                " WHERE game_id = ? AND status IN ('finished', 'abandoned')",
                (game_id,),
            )

        await self._write(body)

    async def update_game_meta(self, game_id: str, **values: Any) -> dict[str, Any]:
        """Merge JSON values into the game's ``meta`` (None removes a key); returns the result."""
        encoded = dict(values)
        _dumps(encoded)  # fail early, outside the transaction, if not JSON-serialisable
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> dict[str, Any]:
            row = connection.execute(
                "SELECT meta FROM games WHERE game_id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise UnknownGameError(f"没有这个牌局 / no game {game_id!r}")
            meta = json.loads(row[0])
            for key, value in encoded.items():
                if value is None:
                    meta.pop(key, None)
                else:
                    meta[key] = value
            connection.execute(
                "UPDATE games SET meta = ?, updated_at = ? WHERE game_id = ?",
                (_dumps(meta), now, game_id),
            )
            return meta

        return await self._write(body)

    async def set_lobby_options(self, game_id: str, options: dict[str, Any]) -> bool:
        """Replace a lobby's rule options (the host's "more rules" step); False if the game
        is no longer a lobby. Replays read these, so they must be what the match plays by."""
        encoded = _dumps(options)
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> bool:
            cursor = connection.execute(
                "UPDATE games SET options = ?, updated_at = ? WHERE game_id = ? AND status = 'lobby'",
                (encoded, now, game_id),
            )
            return cursor.rowcount == 1

        return await self._write(body)

    async def append_action(
        self, game_id: str, seq: int, action: dict[str, Any], hand_number: int
    ) -> bool:
        """Append one action (``engine.types.Action.to_json()``) to the game's log.

        Idempotent: the same ``seq`` with the same action again returns False; the same
        ``seq`` with a different action raises ``ActionConflictError``, since replay would
        otherwise rebuild a different game than the one played.
        """
        _check_int("seq", seq, minimum=0)
        _check_int("hand_number", hand_number, minimum=0)
        text = _dumps(action)
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> bool:
            row = connection.execute(
                "SELECT action FROM game_actions WHERE game_id = ? AND seq = ?", (game_id, seq)
            ).fetchone()
            if row is not None:
                if row[0] == text:
                    return False
                raise ActionConflictError(
                    f"game {game_id!r} already has a different action at seq {seq}: {row[0]}"
                )
            try:
                connection.execute(
                    "INSERT INTO game_actions (game_id, seq, hand_number, action, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq, hand_number, text, now),
                )
            except sqlite3.IntegrityError as error:  # the foreign key: no such game
                raise UnknownGameError(f"没有这个牌局 / no game {game_id!r}") from error
            return True

        return await self._write(body)

    async def append_actions(
        self, rows: Sequence[tuple[str, int, dict[str, Any] | str, int]]
    ) -> list[bool | Exception]:
        """Append many actions (``(game_id, seq, action, hand_number)`` each) in ONE
        transaction: a group commit. An ``action`` given as a ``str`` is taken as its
        canonical JSON text already (``canonical_json`` of the dict): the journal keeps
        the text of the actions that recur, instead of encoding each move anew.

        Why: every write is a round trip to SQLite's thread and the store runs one at a
        time, so a thousand tables appending one row each top out at the round-trip rate
        (~800/s). One transaction for everything that queued up meanwhile costs one round
        trip and one commit, however many rows it holds. The transaction is also a fixed
        four statements whatever the batch size (the rows travel as one JSON array): each
        statement hands the GIL back and forth, and while the event loop is busy each
        hand-back can wait a whole switch interval (``sys.getswitchinterval()``), so a
        statement per row would make a big batch slow exactly when it is big. On
        PostgreSQL the check and the insert are one statement, which is its own
        transaction: one round trip per batch. Where the store commits on the loop's own
        thread (``StoreBase._write_inline``) there is no hand-back to pay, and a plain
        insert of the rows comes first; only a batch it refuses takes the careful path.

        Per-row outcome, in order, with exactly ``append_action``'s semantics:

        * ``True`` — written (durable once this call returns);
        * ``False`` — the same ``seq`` with the same action was already stored (or appears
          earlier in this batch): nothing written, like a retry;
        * an exception *instance* (not raised) — ``ActionConflictError`` (a different
          action is stored under that ``seq``, or is written by an earlier row of this
          batch),
          ``UnknownGameError`` (no such game), or the ``TypeError``/``ValueError`` of a
          malformed ``seq``/``hand_number``. That row is not written; **every other row is
          still committed**, so one table's bad row never costs another table its write.

        Only a failure of the transaction itself (disk full, database locked past the
        busy timeout, closed store) is raised, and then none of the rows is written.
        """
        refused = False  # the plain insert of the whole batch failed already
        if getattr(self, "_inline", None) is not None:
            try:
                written = await self._append_fresh_inline(rows)
            except sqlite3.IntegrityError:
                refused = True
            else:
                if written is not None:
                    return written
        outcomes: list[bool | Exception | None] = [None] * len(rows)
        # (game_id, seq) -> its rows in this batch, as (index, hand_number, canonical text)
        by_key: dict[tuple[str, int], list[tuple[int, int, str]]] = {}
        for index, (game_id, seq, action, hand_number) in enumerate(rows):
            try:
                _check_int("seq", seq, minimum=0)
                _check_int("hand_number", hand_number, minimum=0)
                text = action if isinstance(action, str) else _dumps(action)
            except (TypeError, ValueError) as error:
                outcomes[index] = error
                continue
            by_key.setdefault((game_id, seq), []).append((index, hand_number, text))
        if not by_key:
            return [outcome if outcome is not None else False for outcome in outcomes]
        keys = list(by_key)
        now = _iso(self._now(None))

        def judge(stored_json: str, missing_json: str) -> list[list[Any]]:
            """Each row's outcome from what is stored and which games are missing; the
            rows to write (each fresh key's first row)."""
            stored = {int(position): text for position, text in json.loads(stored_json)}
            missing = set(json.loads(missing_json))
            fresh = []
            for position, (game_id, seq) in enumerate(keys):
                key_rows = by_key[(game_id, seq)]
                if position in missing:
                    for index, _, _ in key_rows:
                        outcomes[index] = UnknownGameError(f"没有这个牌局 / no game {game_id!r}")
                    continue
                kept = stored.get(position)
                if kept is None:  # the key's first row is written; later ones are retries
                    index, hand_number, kept = key_rows[0]
                    fresh.append([game_id, seq, hand_number, kept])
                    outcomes[index] = True
                    key_rows = key_rows[1:]
                for index, _, text in key_rows:
                    outcomes[index] = False if text == kept else _conflict(game_id, seq, kept)
            return fresh

        one_statement = getattr(self, "_write_statement", None)
        if one_statement is not None:  # PostgreSQL: the check and the insert as one statement
            firsts = []
            for game_id, seq in keys:
                _, hand_number, text = by_key[(game_id, seq)][0]
                firsts.append([game_id, seq, hand_number, text])
            stored_json, missing_json, written = await one_statement(
                _APPEND_BATCH_ONE_STATEMENT_PG, (json.dumps(firsts), now)
            )
            fresh = judge(stored_json, missing_json)
            if written != len(fresh):  # the statement and ``judge`` disagree: a bug
                raise StoreError(f"append_actions wrote {written} rows, expected {len(fresh)}")
            return [outcome if outcome is not None else False for outcome in outcomes]
        if getattr(self, "_inline", None) is not None and not refused:
            # On the loop's own thread no statement hands the GIL over, so the plain
            # insert of each key's first row is the cheapest transaction. It fails as a
            # whole (and is rolled back) if some key is stored already or some game is
            # missing; the careful transaction below then tells each row's outcome.
            plain_rows = [
                (game_id, seq, key_rows[0][1], key_rows[0][2], now)
                for (game_id, seq), key_rows in by_key.items()
            ]

            def insert_firsts(connection: sqlite3.Connection) -> None:
                connection.executemany(_APPEND_ROW_INSERT, plain_rows)

            try:
                await self._write_inline(insert_firsts)
            except sqlite3.IntegrityError:
                pass
            else:
                for (game_id, seq), key_rows in by_key.items():
                    index, _, kept = key_rows[0]
                    outcomes[index] = True
                    for index, _, text in key_rows[1:]:
                        outcomes[index] = False if text == kept else _conflict(game_id, seq, kept)
                return [outcome if outcome is not None else False for outcome in outcomes]
        payload = json.dumps([[game_id, seq] for game_id, seq in keys])

        def body(connection: sqlite3.Connection) -> None:
            # One statement finds what is already stored and which games do not exist.
            stored_json, missing_json = connection.execute(
                _APPEND_BATCH_CHECK, (payload,)
            ).fetchone()
            fresh = judge(stored_json, missing_json)
            if fresh:
                # Nothing else writes in between: the store's lock and BEGIN IMMEDIATE.
                connection.execute(_APPEND_BATCH_INSERT, (json.dumps(fresh), now))

        await self._write_inline(body)  # bounded: four statements, whatever the batch
        return [outcome if outcome is not None else False for outcome in outcomes]

    async def _append_fresh_inline(
        self, rows: Sequence[tuple[str, int, dict[str, Any] | str, int]]
    ) -> list[bool | Exception] | None:
        """``append_actions`` of a batch that is all fresh: every row well formed, no
        ``(game_id, seq)`` twice, none stored yet and every game there (the journal's
        usual batch). One plain insert on the loop's own thread (``_write_inline``)
        writes it and every row is ``True``. None when some row is malformed or a key
        repeats; ``sqlite3.IntegrityError`` (the insert rolled back as a whole) when some
        row is stored already or its game is missing: ``append_actions`` then tells each
        row's outcome the careful way. Why apart: the per-row bookkeeping that tells the
        outcomes of a mixed batch cost more than the insert of a usual one."""
        now = _iso(self._now(None))
        plain: list[tuple[str, int, int, str, str]] = []
        keys = set()
        for game_id, seq, action, hand_number in rows:
            if (
                seq.__class__ is not int
                or hand_number.__class__ is not int
                or seq < 0
                or hand_number < 0
                or (game_id, seq) in keys
            ):
                return None
            keys.add((game_id, seq))
            try:
                text = action if isinstance(action, str) else _dumps(action)
            except (TypeError, ValueError):
                return None
            plain.append((game_id, seq, hand_number, text, now))

        def insert(connection: sqlite3.Connection) -> None:
            connection.executemany(_APPEND_ROW_INSERT, plain)

        await self._write_inline(insert)
        return [True] * len(plain)

    async def load_actions(
        self, game_id: str, hand_number: int | None = None
    ) -> list[dict[str, Any]]:
        """The game's actions in ``seq`` order (optionally one hand's), as stored JSON dicts."""
        return [record.action for record in await self.load_action_records(game_id, hand_number)]

    async def load_action_records(
        self, game_id: str, hand_number: int | None = None
    ) -> list[StoredAction]:
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT seq, hand_number, action, created_at FROM game_actions"
                " WHERE game_id = ?1 AND (hand_number = ?2 OR ?2 IS NULL) ORDER BY seq",
                (game_id, hand_number),
            ).fetchall()
        )
        return [
            StoredAction(
                seq=int(row[0]),
                hand_number=int(row[1]),
                action=json.loads(row[2]),
                created_at=datetime.fromisoformat(row[3]),
            )
            for row in rows
        ]

    async def running_games(self, statuses: Iterable[str] = ("running",)) -> list[GameRecord]:
        """Games to resume after a restart (by default those 'running'), oldest first."""
        statuses = tuple(statuses)
        for status in statuses:
            _check_status(status)
        marks = ", ".join("?" * len(statuses))
        return await self._read(
            lambda connection: _load_games(
                connection,
                f"WHERE g.status IN ({marks}) ORDER BY g.created_at, g.game_id",
                statuses,
            )
        )

    async def finished_games(self, guild_id: int, limit: int = 10) -> list[GameRecord]:
        """Finished and abandoned games of a guild, most recently ended first."""
        return await self._read(
            lambda connection: _load_games(
                connection,
                "WHERE g.guild_id = ? AND g.status IN ('finished', 'abandoned')"
                " ORDER BY g.finished_at DESC, g.game_id LIMIT ?",
                (guild_id, limit),
            )
        )


def _seating_error(error: sqlite3.IntegrityError, game_id: str) -> StoreError:
    """Name the seating rule a failed INSERT broke (SQLite says which index or key)."""
    text = str(error)
    if "seated_users" in text:
        return AlreadySeatedError(f"已在另一张桌上 / already seated at another table ({game_id})")
    if "games.channel_id" in text or "games_one_open_per_channel" in text:
        return ChannelBusyError("这个频道已经有一张桌了 / the channel already has an open table")
    return DuplicateGameError(f"牌局已存在 / game {game_id!r} already exists")


def _conflict(game_id: str, seq: int, stored: str) -> ActionConflictError:
    return ActionConflictError(
        f"game {game_id!r} already has a different action at seq {seq}: {stored}"
    )


def _check_status(status: str) -> None:
    if status not in GAME_STATUSES:
        raise ValueError(f"unknown game status {status!r} (one of {', '.join(GAME_STATUSES)})")


def _load_game(connection: sqlite3.Connection, game_id: str) -> GameRecord | None:
    games = _load_games(connection, "WHERE g.game_id = ?", (game_id,))
    return games[0] if games else None


def _load_games(
    connection: sqlite3.Connection, where: str, params: Sequence[Any]
) -> list[GameRecord]:
    rows = connection.execute(
        "SELECT g.*, (SELECT COUNT(*) FROM game_actions AS a WHERE a.game_id = g.game_id)"
        f" AS action_count FROM games AS g {where}",
        tuple(params),
    ).fetchall()
    return [
        GameRecord(
            game_id=row["game_id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            variant=row["variant"],
            options=json.loads(row["options"]),
            seats=json.loads(row["seats"]),
            seed=row["seed"],
            settings=json.loads(row["settings"]),
            meta=json.loads(row["meta"]),
            status=row["status"],
            created_at=datetime.fromisoformat(row["created_at"]),
            updated_at=datetime.fromisoformat(row["updated_at"]),
            finished_at=datetime.fromisoformat(row["finished_at"]) if row["finished_at"] else None,
            action_count=int(row["action_count"]),
        )
        for row in rows
    ]
