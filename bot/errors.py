"""Errors users may read, and how any command failure becomes a bilingual message.

Why a module of its own: the cogs raise ``UserFacingError`` and must not import
``bot.app`` (which loads the cogs) to do it; the bot's error handler asks
``describe_error`` what to say, so nothing that looks like a traceback reaches a user.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.checks import NotManager
from bot.i18n import Text, msg
from bot.messages import MESSAGES
from bot.option_checks import refused_option
from bot.session import SessionError
from data import StoreError

__all__ = ["UserFacingError", "describe_error"]

log = logging.getLogger(__name__)


class UserFacingError(app_commands.AppCommandError):
    """A refusal with a reason the user should read (bad input, not allowed, ...)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


def _only_bad_value(text: Text) -> bool:
    """A refusal that says just 参数无效：<value>, naming neither option nor range."""
    return text.zh.startswith(MESSAGES["error.bad_value"][0].partition("{")[0])


def _out_of_range(interaction: discord.Interaction[Any]) -> Text | None:
    """The option outside its declared range, named as the reader's client names it:
    said instead of a bare 参数无效 (choices are checked before a command runs)."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    return refused_option(interaction.command, interaction.data or {})


def describe_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> Text:
    """What to tell the user about a failed command; an unexpected error is logged with
    its context (command, user, guild, channel) first."""
    original = getattr(error, "original", error)
    if isinstance(original, UserFacingError | SessionError):
        if _only_bad_value(original.text):
            return _out_of_range(interaction) or original.text
        return original.text
    if isinstance(original, StoreError) and str(original):
        return msg("error.bad_value", reason=str(original))
    if isinstance(error, NotManager | app_commands.MissingPermissions):
        return msg("error.no_permission")
    if isinstance(error, app_commands.NoPrivateMessage):
        return msg("error.guild_only")
    if isinstance(error, app_commands.CommandOnCooldown):
        return msg("error.cooldown", seconds=error.retry_after)
    if isinstance(error, app_commands.TransformerError):
        if isinstance(error.value, discord.User):
            # A user option that needs a member (kicking from a lobby): Discord resolves
            # one who left the server as a user without a member.
            return msg("error.user_gone")
        return _out_of_range(interaction) or msg("error.bad_value", reason=str(error.value)[:100])
    if isinstance(error, app_commands.CheckFailure):
        return msg("error.no_permission")
    command = interaction.command.qualified_name if interaction.command else "?"
    log.error(
        "command /%s by user %s in guild %s channel %s failed",
        command,
        interaction.user.id,
        interaction.guild_id,
        interaction.channel_id,
        exc_info=original,
    )
    return msg("error.generic")
