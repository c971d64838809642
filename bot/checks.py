"""Permission checks for slash commands and components.

Why a module of its own: the cogs and the bot both check permissions, and the cogs must
not import ``bot.app`` (which loads the cogs) to do it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

__all__ = ["NotManager", "is_manager", "require_manager"]


class NotManager(app_commands.CheckFailure):
    """The user lacks Manage Server."""


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, re-checked on our side: default permissions are only a client hint
    (server admins can override them per role or channel)."""
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.administrator)


def require_manager(interaction: discord.Interaction[Any]) -> bool:
    if not is_manager(interaction):
        raise NotManager("Manage Server required")
    return True
