"""A table in its own thread: ``/table create`` posts a short message in the channel and
starts a thread from it; the lobby, the live table message and the results live in the
thread, so one channel can hold several tables and spectators follow the one they like.

Why threads: a table in the channel itself scrolls its live message away under every
result post and chat line, and one channel could hold one table only. A thread is a
channel of its own (its id is the table's ``channel_id``), so everything that keys a
table by channel (the store's one-open-table-per-channel index, the coalesced table
edits) holds per thread unchanged.

Without the permissions a thread needs, in a channel that cannot hold threads (a thread
itself, a voice channel's chat), or when Discord refuses the thread anyway, the table
opens in the channel as before: nothing is lost but the tidiness.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any, Final, Literal

import discord

from bot.checks import permission_names
from bot.discord_core import NO_MENTIONS
from bot.i18n import Text, msg
from bot.messages import msg_each

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100  # characters Discord accepts in a thread name
# Minutes of silence before Discord archives the thread by itself: a day, longer than a
# lobby may idle (it closes after 10 minutes) or a hand can last.
AUTO_ARCHIVE_MINUTES: Final[Literal[1440]] = 1440
# What the bot needs, besides sending in the channel, to run a table in a thread.
THREAD_PERMISSION_NAMES = ("create_public_threads", "send_messages_in_threads")
THREAD_PERMISSIONS = discord.Permissions(**dict.fromkeys(THREAD_PERMISSION_NAMES, True))


@dataclass(frozen=True)
class TablePlace:
    """Where a new table lives: ``channel_id`` is its thread, or the channel itself when
    ``parent_id`` is None."""

    channel_id: int
    parent_id: int | None = None
    starter_id: int | None = None


def can_hold_threads(interaction: discord.Interaction[Any]) -> bool:
    """A text or announcement channel where the bot may start and post in threads.
    ``app_permissions`` are the bot's permissions in that channel, sent with every
    interaction, so no request is spent on a thread that would be refused."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):  # threads, voice chats, DMs, forums
        return False
    return THREAD_PERMISSIONS.is_subset(interaction.app_permissions)


def busy_channel_refusal(interaction: discord.Interaction[Any]) -> Text:
    """A second table refused because this channel holds one and no thread could be had:
    what would let it open (it said only 这个频道已经有一张桌了). In a table's thread,
    the channel itself; in a channel where the bot may not start threads, those
    permissions (each table then gets a thread) or another channel; else another channel."""
    if isinstance(interaction.channel, discord.Thread):
        return msg("table.busy_thread")
    have = interaction.app_permissions  # as can_hold_threads reads them
    lacking = [name for name in THREAD_PERMISSION_NAMES if not getattr(have, name)]
    if not lacking or not isinstance(interaction.channel, discord.TextChannel):
        return msg("table.busy_channel")
    missing = permission_names(lacking)
    return msg_each("table.busy_no_threads", {"missing": missing.zh}, {"missing": missing.en})


def thread_name(text: str) -> str:
    """A thread name Discord accepts: one line, at most 100 characters."""
    name = " ".join(text.split())
    if len(name) > THREAD_NAME_LIMIT:
        name = name[: THREAD_NAME_LIMIT - 1] + "…"
    return name or "mahjong"


async def open_table_place(
    bot: discord.Client, interaction: discord.Interaction[Any], starter: Text, name: str
) -> TablePlace:
    """Post ``starter`` in the interaction's channel and start a thread named ``name``
    from it; the channel itself when a thread cannot be had."""
    channel_id = interaction.channel_id or 0
    if not can_hold_threads(interaction):
        return TablePlace(channel_id)
    channel = bot.get_partial_messageable(channel_id)
    try:
        message = await channel.send(f"{starter.zh}\n-# {starter.en}", allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as error:
        log.warning("channel %s: could not post a table's starter message (%s); "
                    "the table opens in the channel", channel_id, error)  # fmt: skip
        return TablePlace(channel_id)
    try:
        thread = await bot.http.start_thread_with_message(
            channel_id,
            message.id,
            name=thread_name(name),
            auto_archive_duration=AUTO_ARCHIVE_MINUTES,
        )
    except discord.HTTPException as error:
        log.warning("channel %s: could not start a table thread (%s); "
                    "the table opens in the channel", channel_id, error)  # fmt: skip
        with contextlib.suppress(discord.HTTPException):
            await message.delete()  # the starter would point at a thread that is not there
        return TablePlace(channel_id)
    return TablePlace(int(thread["id"]), channel_id, message.id)


async def give_up_place(bot: discord.Client, place: TablePlace) -> None:
    """A thread was opened but its table was then refused (a race with another command):
    remove the starter and archive the empty thread, so nothing points at a table that
    does not exist."""
    if place.parent_id is None:
        return
    with contextlib.suppress(discord.HTTPException):
        if place.starter_id is not None:
            await (
                bot.get_partial_messageable(place.parent_id)
                .get_partial_message(place.starter_id)
                .delete()
            )
    with contextlib.suppress(discord.HTTPException):
        await bot.http.edit_channel(place.channel_id, archived=True)
