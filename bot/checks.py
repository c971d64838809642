"""Permission checks for slash commands and components.

Why a module of its own: the cogs and the bot both check permissions, and the cogs must
not import ``bot.app`` (which loads the cogs) to do it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.presenter import Text

__all__ = [
    "NotManager",
    "is_manager",
    "missing_permissions",
    "missing_table_permissions",
    "require_manager",
]


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


# What the bot needs in any channel that holds a table: to see it, post the table message
# with its picture, and read that message back to edit it. In a thread, posting is Send
# Messages in Threads. (Names of ``discord.Permissions`` attributes.)
TABLE_PERMISSIONS = ("view_channel", "send_messages", "attach_files", "read_message_history")
TABLE_PERMISSIONS_IN_THREAD = (
    "view_channel", "send_messages_in_threads", "attach_files", "read_message_history"
)  # fmt: skip
# What the weekly leaderboard post needs in its channel.
LEADERBOARD_PERMISSIONS = ("view_channel", "send_messages", "attach_files")
# Each permission as Discord's client names it, zh-CN and English.
PERMISSION_NAMES: dict[str, tuple[str, str]] = {
    "view_channel": ("查看频道", "View Channel"),
    "send_messages": ("发送消息", "Send Messages"),
    "create_public_threads": ("创建公开子区", "Create Public Threads"),
    "send_messages_in_threads": ("在子区中发送消息", "Send Messages in Threads"),
    "attach_files": ("附加文件", "Attach Files"),
    "read_message_history": ("阅读消息历史", "Read Message History"),
}


def missing_permissions(have: discord.Permissions, needed: tuple[str, ...]) -> Text | None:
    """The ``needed`` permissions ``have`` lacks, named as the Discord client names them
    (Chinese with the English beside it); None when none is missing."""
    if have.administrator:
        return None
    missing = [name for name in needed if not getattr(have, name)]
    if not missing:
        return None
    return permission_names(missing)


def permission_names(names: list[str]) -> Text:
    """Permissions as the Discord client names them (Chinese with the English beside)."""
    return Text(
        "、".join(f"{PERMISSION_NAMES[name][0]}（{PERMISSION_NAMES[name][1]}）" for name in names),
        ", ".join(PERMISSION_NAMES[name][1] for name in names),
    )


def missing_table_permissions(interaction: discord.Interaction[Any]) -> Text | None:
    """What the bot lacks in the interaction's channel to run a table there.

    Why ask before opening: Discord delivers a slash command in a channel the bot cannot
    post in, so without this check the host is told a table opened and then nothing
    appears (each refused post also counts toward Discord's invalid-request limit). The
    interaction carries the bot's permissions there (``app_permissions``)."""
    in_thread = isinstance(interaction.channel, discord.Thread)
    needed = TABLE_PERMISSIONS_IN_THREAD if in_thread else TABLE_PERMISSIONS
    return missing_permissions(interaction.app_permissions, needed)
