"""Guild settings and per-user preferences."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import fields, replace
from datetime import date
from typing import Any

from .connection import StoreBase, _check_int, _dumps, _iso
from .models import (
    GuildSettings,
    SettingsError,
    validate_setting,
)


class SettingsPart(StoreBase):
    """Guild settings and per-user preferences (``Store`` mixes this in)."""

    async def get_settings(self, guild_id: int) -> GuildSettings:
        return await self._read(lambda connection: _load_settings(connection, guild_id))

    async def update_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Validate and store setting changes; raises ``SettingsError`` naming the bad one."""
        _check_int("guild_id", guild_id)
        if not changes:
            raise SettingsError("没有要修改的设置", "no settings to change")
        clean = {name: validate_setting(name, value) for name, value in changes.items()}
        stored = {
            name: value.isoformat() if isinstance(value, date) else value
            for name, value in clean.items()
        }
        if "ai_hands_on_boards" in stored:  # an INTEGER column on both backends
            stored["ai_hands_on_boards"] = int(stored["ai_hands_on_boards"])
        now = _iso(self._now(None))

        def body(connection: sqlite3.Connection) -> GuildSettings:
            connection.execute(
                "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, now),
            )
            # Column names come from GuildSettings' fields (validated above), never input.
            assignments = ", ".join(f"{name} = ?" for name in stored)
            boards = "ai_hands_on_boards" in stored
            before = _load_settings(connection, guild_id) if boards else None
            connection.execute(
                f"UPDATE guild_settings SET {assignments}, updated_at = ? WHERE guild_id = ?",
                (*stored.values(), now, guild_id),
            )
            after = _load_settings(connection, guild_id)
            if before is not None and before.ai_hands_on_boards != after.ai_hands_on_boards:
                # The boards always read as the setting says, past weeks included.
                from .ledger import rebuild_boards

                rebuild_boards(connection, guild_id)
            return after

        return await self._write(body)

    async def rule_defaults(self, guild_id: int, variant: str) -> dict[str, Any]:
        """The server's defaults for ``variant``'s options (only the ones it changed)."""
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT name, value FROM guild_rule_defaults WHERE guild_id = ? AND variant = ?"
                " ORDER BY name",
                (guild_id, variant),
            ).fetchall()
        )
        return {str(name): json.loads(value) for name, value in rows}

    async def set_rule_defaults(
        self, guild_id: int, variant: str, defaults: dict[str, Any]
    ) -> dict[str, Any]:
        """Replace the server's defaults for ``variant`` (the caller validated them with the
        rule set's own check); an empty dict goes back to the rule set's defaults."""
        _check_int("guild_id", guild_id)
        rows = [(guild_id, variant, name, _dumps(value)) for name, value in defaults.items()]

        def body(connection: sqlite3.Connection) -> None:
            connection.execute(
                "DELETE FROM guild_rule_defaults WHERE guild_id = ? AND variant = ?",
                (guild_id, variant),
            )
            connection.executemany(
                "INSERT INTO guild_rule_defaults (guild_id, variant, name, value)"
                " VALUES (?, ?, ?, ?)",
                rows,
            )

        await self._write(body)
        return dict(defaults)

    async def set_user_pref(self, user_id: int, key: str, value: Any) -> None:
        """Remember a per-user preference (e.g. "dms_closed": True); None forgets it."""
        _check_int("user_id", user_id)
        if not isinstance(key, str) or not key:
            raise ValueError("key must be a non-empty string")
        text = None if value is None else _dumps(value)

        def body(connection: sqlite3.Connection) -> None:
            if text is None:
                connection.execute(
                    "DELETE FROM user_prefs WHERE user_id = ? AND key = ?", (user_id, key)
                )
            else:
                connection.execute(
                    "INSERT INTO user_prefs (user_id, key, value) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
                    (user_id, key, text),
                )

        await self._write(body)

    async def get_user_prefs(self, user_id: int) -> dict[str, Any]:
        rows = await self._read(
            lambda connection: connection.execute(
                "SELECT key, value FROM user_prefs WHERE user_id = ?", (user_id,)
            ).fetchall()
        )
        return {row[0]: json.loads(row[1]) for row in rows}


def _load_settings(connection: sqlite3.Connection, guild_id: int) -> GuildSettings:
    row = connection.execute(
        "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    if row is None:
        return GuildSettings(guild_id=guild_id)
    values = {f.name: row[f.name] for f in fields(GuildSettings)}
    values["ai_hands_on_boards"] = bool(values["ai_hands_on_boards"])
    if values["last_leaderboard_week"] is not None:
        values["last_leaderboard_week"] = date.fromisoformat(values["last_leaderboard_week"])
    return replace(GuildSettings(guild_id=guild_id), **values)
