"""The table message: one per table, edited in place, edits coalesced per channel; and
the result posts that follow a hand (see ``bot.discord_presenter``)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_retry import retry_discord
from bot.discord_review import rematch_view, replay_card_view
from bot.discord_views import lobby_view, table_view
from bot.i18n import MESSAGES, in_readers_script, in_server_script, msg, public
from bot.lines import (
    carried_fan_text,
    event_line,
    name_at,
    result_texts,
    rule_set_name,
    standings_message,
)
from bot.presenter import LobbyInfo, TableStatus, Text
from engine.tiles import format_tiles, kind_str, name_zh
from engine.types import HandResult
from engine.variants import RULE_SETS, get_rules
from render.alt_text import describe_result, describe_table
from render.result import TablePoints

if TYPE_CHECKING:
    pass
from bot.discord_core import (
    NO_MENTIONS,
    PresenterCore,
    TableMessage,
    seat_names,
)

log = logging.getLogger(__name__)

THREAD_ARCHIVED = 50083  # Discord's code for an edit in an archived thread
UNKNOWN_CHANNEL = 10003  # Discord's code for a channel (or thread) that does not exist
# How long a finished table's presenter state outlives it (late clicks, result cards).
FORGET_AFTER = 300.0


class TableMessages(PresenterCore):
    """The public side of ``DiscordPresenter``: lobby, table, notices and results."""

    async def close(self) -> None:
        """Send what is still queued (the last table edits), then stop the timers."""
        for channel_id in list(self._flush_scheduled):
            self._spawn(self._flush_channel(channel_id), f"flush-{channel_id}")
        await self.wait_idle()
        for timer in [*self._timers, *self._parked]:  # a retry in backoff is given up
            timer.cancel()

    def _table(self, table_id: str, channel_id: int) -> TableMessage:
        record = self._tables.get(table_id)
        if record is None:
            record = self._tables[table_id] = TableMessage(table_id, channel_id)
        return record

    async def lobby_changed(self, lobby: LobbyInfo) -> None:
        record = self._table(lobby.table_id, lobby.channel_id)
        record.lobby = lobby
        if lobby.status in ("finished", "closed"):
            record.final = True
        self._mark_dirty(record)

    async def table_changed(self, status: TableStatus) -> None:
        record = self._table(status.table_id, status.channel_id)
        record.status = status
        _add_moves(record, status)
        self._mark_dirty(record)

    def restore_moves(self, status: TableStatus, moves: list[TableStatus]) -> None:
        """After a restart: the hand's move lines as they were, from the replayed log
        (``moves``, oldest first); the table is announced next, which shows them."""
        record = self._table(status.table_id, status.channel_id)
        for move in moves:
            _add_moves(record, move)

    async def notice(self, table_id: str, channel_id: int, text: Text) -> None:
        record = self._table(table_id, channel_id)
        record.notices.append(text)
        self._mark_dirty(record)

    async def rematch_call(
        self, table_id: str, channel_id: int, game_id: str, text: Text, user_ids: list[int]
    ) -> None:
        """Posted where the rematch's lobby is, mentioning only the players it waits for
        (the lobby's own line is an edit, which pings nobody), with the Rematch button:
        the button they were told to press was on the last match's standings, further
        up (or in an archived thread)."""
        if channel_id in self._gone_channels:
            return
        language = await self.table_language(self._table(table_id, channel_id))
        view = rematch_view(game_id)
        in_readers_script(view, language)
        mentions = " ".join(f"<@{user_id}>" for user_id in user_ids)
        content = f"{mentions} 📣 {public(text, language)}".strip()[:2000]
        allowed = discord.AllowedMentions(
            users=[discord.Object(user_id) for user_id in user_ids],
            everyone=False,
            roles=False,
            replied_user=False,
        )
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            sent = await retry_discord(
                lambda: channel.send(content, allowed_mentions=allowed, view=view),
                self._backoff,
                f"rematch call of {table_id}",
            )
        except discord.HTTPException as error:  # the lobby line still says it
            log.warning("could not post the rematch call of %s: %s", table_id, error)
            return
        if sent is not None:
            self._rematch_calls[table_id] = (channel_id, sent.id, content)

    async def rematch_started(self, table_id: str, channel_id: int) -> None:
        """The rematch began: its call stops asking anyone to press (its button would
        only answer that it had started), struck through with a line saying so."""
        call = self._rematch_calls.pop(table_id, None)
        if call is None or call[0] in self._gone_channels:
            return
        call_channel, message_id, content = call
        language = await self.table_language(self._table(table_id, channel_id))
        started = public(msg("rematch.started"), language)
        edited = f"~~{content}~~\n✅ {started}"[:2000]
        message = self.bot.get_partial_messageable(call_channel).get_partial_message(message_id)
        try:
            await message.edit(content=edited, view=None, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:  # deleted by someone: nothing to correct
            log.info("could not mark the rematch call of %s started: %s", table_id, error)

    def _mark_dirty(self, record: TableMessage) -> None:
        record.dirty = True
        record.version += 1
        channel_id = record.channel_id
        if channel_id in self._flush_scheduled:
            return
        self._flush_scheduled.add(channel_id)
        due = self._last_flush.get(channel_id, float("-inf")) + self.min_interval
        if due <= self.clock.now():
            self._spawn(self._flush_channel(channel_id), f"flush-{channel_id}")
        else:
            self._timer(self._flush_later(channel_id, due), str(channel_id))

    async def _flush_later(self, channel_id: int, due: float) -> None:
        await self.clock.sleep_until(due)
        self._spawn(self._flush_channel(channel_id), f"flush-{channel_id}")

    def channel_gone(self, channel_id: int) -> None:
        """The channel (or thread) was deleted, or the bot left its server: nothing is
        posted there any more (each try would only be refused)."""
        self._gone_channels.add(channel_id)

    async def _flush_channel(self, channel_id: int) -> None:
        self._flush_scheduled.discard(channel_id)
        if channel_id in self._gone_channels:
            return
        for record in list(self._tables.values()):
            if record.channel_id == channel_id and record.dirty:
                record.dirty = False
                self._last_flush[channel_id] = self.clock.now()
                version = record.version
                try:
                    await retry_discord(
                        lambda record=record: self._send_table(record),  # type: ignore[misc]
                        self._backoff,
                        f"table message of {record.table_id}",
                        still_wanted=lambda record=record, version=version: (  # type: ignore[misc]
                            record.version == version
                        ),
                    )
                except Exception:
                    log.exception("could not update the table message of %s", record.table_id)
                self._last_flush[channel_id] = self.clock.now()

    async def _load_table_message(self, record: TableMessage) -> None:
        if record.loaded:
            return
        record.loaded = True
        with contextlib.suppress(Exception):
            game = await self.store.get_game(record.table_id)
            stored = (game.meta if game else {}).get("discord_table_message")
            if stored and record.message_id is None:
                record.message_id = int(stored[1])
            parent = (game.settings if game else {}).get("parent_channel_id")
            if parent is not None:
                record.parent_id = int(parent)

    @staticmethod
    def _phase(record: TableMessage) -> str:
        """lobby | running | finished | closed, from whatever the session told us last
        (after a restart there is a status but no lobby)."""
        lobby = record.lobby
        if lobby is not None and lobby.status in ("finished", "closed"):
            return lobby.status
        if record.final:
            return "finished"
        if lobby is not None and lobby.status == "lobby":
            return "lobby"
        return "running" if record.status is not None else "lobby"

    def _table_content(self, record: TableMessage, language: str = "zh") -> str:
        lines: list[str] = []
        status, lobby = record.status, record.lobby
        phase = self._phase(record)
        if lobby is not None:
            variant, seats, stake = lobby.variant, lobby.num_seats, lobby.stake
        elif status is not None:
            variant, seats, stake = status.public.variant, status.public.num_seats, status.stake
        else:
            variant, seats, stake = "?", 0, 0
        try:
            name = rule_set_name(variant)
        except ValueError:  # neither a lobby nor a status yet: nothing to name
            name = Text(variant, variant)
        zh, en = name.zh, name.en
        title = msg("lobby.title", variant=zh, seats=seats, stake=stake)
        title_en = msg("lobby.title", variant=en, seats=seats, stake=stake)
        lines.append(f"🀄 **{title.zh}** · {title_en.en}")
        if status is not None and phase == "running":
            lines.append(f"{status.hand_label.zh} · {status.hand_label.en}")
            lines.append(_scores_line(status))
            bonus = carried_fan_text(status.public)
            if bonus is not None:
                lines.append(f"-# {bonus.zh} · {bonus.en}")
            lines += [line for line, _names in record.moves]
            lines.append(_status_line(status))
        elif lobby is not None and phase == "lobby":
            players = ", ".join(
                f"<@{p.user_id}>" if p.user_id and not p.is_ai else f"🤖 {p.name}"
                for p in lobby.players
            )
            players_text = players or "{} / {}".format(msg("lobby.empty").zh, msg("lobby.empty").en)
            label = msg("lobby.players")
            lines.append(f"{label.zh} / {label.en}: {players_text}")
            hint = msg("lobby.hint" if lobby.ai_fill else "lobby.hint_no_fill")
            lines.append(f"-# {hint.zh} · {hint.en}")
        else:
            done = msg("table.finished" if phase == "finished" else "table.ended")
            lines.append(f"{done.zh} · {done.en}")
        for text in record.notices:
            lines.append(f"📣 {text.zh} · {text.en}")
        keep = [name for text in record.notices for name in text.keep]
        if status is not None:
            keep += seat_names(status)
        keep += [name for _line, names in record.moves for name in names]  # seats since renamed
        if lobby is not None:
            keep += [player.name for player in lobby.players]
        return in_server_script("\n".join(lines), language, keep)[:2000]

    async def _send_table(self, record: TableMessage) -> None:
        await self._load_table_message(record)
        if record.archived:
            return  # the finished table's thread is closed; its last state stays
        if record.final:
            # Edited where it is, not sent again below the last result: the standings
            # and their Rematch button end the thread.
            record.repost = False
        language = await self.table_language(record)
        content = self._table_content(record, language)
        lobby = record.lobby
        phase = self._phase(record)
        image_state = None
        if record.status is not None:
            image_state = replace(record.status.public, turn_id=0, waiting_on=())
        # "I'm back" shows only while someone is on autoplay: for anyone else it did nothing.
        autoplay = record.status is not None and any(s.autoplay for s in record.status.seats)
        view_kind = (phase, tuple(p.user_id for p in lobby.players) if lobby else (), autoplay)
        shown = (content, image_state, view_kind)
        if record.message_id is not None and shown == record.sent and not record.repost:
            await self._archive_if_done(record)
            return  # an edit would change nothing anyone can see
        files: list[discord.File] = []
        if record.status is not None:
            names = seat_names(record.status)
            picture = await self.picture(
                self.renderer.table, describe_table, record.status.public, names, language
            )
            files = [picture.file("table.png")]
        view: discord.ui.View | None = None
        if phase == "running":
            view = table_view(record.table_id, back=autoplay)
        elif phase == "lobby" and lobby is not None:
            view = lobby_view(lobby)
        if view is not None:
            in_readers_script(view, language)
        channel = self.bot.get_partial_messageable(record.channel_id)
        if record.message_id is not None and not record.repost:
            message = channel.get_partial_message(record.message_id)
            try:
                await message.edit(
                    content=content, attachments=files, view=view, allowed_mentions=NO_MENTIONS
                )
                record.sent = shown
                await self._archive_if_done(record)
                return
            except discord.NotFound:
                record.message_id = None
            except discord.HTTPException as error:
                if error.code != THREAD_ARCHIVED:
                    raise
                # Discord archived the thread while nobody posted (the bot was down for
                # a day): a new message reopens it, and the old one goes below.
                record.repost = True
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": NO_MENTIONS}
        if files:
            kwargs["files"] = files
        if view is not None:
            kwargs["view"] = view
        try:
            sent = await channel.send(**kwargs)
        except discord.Forbidden as error:
            self._channel_closed(record.channel_id, record.status, "table message", error)
            return
        except discord.NotFound as error:
            if error.code != UNKNOWN_CHANNEL:
                raise
            # Deleted while the bot was not listening (down, or another process's
            # shard): close its tables as the deletion event would have.
            close = getattr(self.bot, "close_tables_in", None)
            if close is not None and record.channel_id not in self._gone_channels:
                self.channel_gone(record.channel_id)
                self._spawn(close({record.channel_id}, msg("table.channel_deleted")),
                            f"gone-{record.channel_id}")  # fmt: skip
            return
        self._channel_open(record.channel_id)
        replaced, record.message_id = record.message_id, sent.id
        record.repost = False
        record.sent = shown
        with contextlib.suppress(Exception):
            await self.store.update_game_meta(
                record.table_id, discord_table_message=[record.channel_id, sent.id]
            )
        if replaced is not None:
            # Sent anew below a result: the old one goes, so there is one live table
            # message and it is the latest thing in the channel (or thread).
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(replaced).delete()
        await self._archive_if_done(record)

    def _channel_closed(
        self, channel_id: int, status: TableStatus | None, what: str, error: discord.Forbidden
    ) -> None:
        """Discord refused a post in a table's channel: an admin took a permission away
        mid-match (``/table create`` checks them first). The match goes on by DM; the log
        and the seated players hear of it once, the players with their next hand."""
        if channel_id in self._closed_channels:
            return
        self._closed_channels.add(channel_id)
        log.warning(
            "channel %s refuses the bot's %s (%s %s): a permission was taken away; "
            "the table goes on by DM", channel_id, what, error.status, error.code,
        )  # fmt: skip
        for seat in status.seats if status is not None else ():
            if seat.user_id is not None and not seat.is_ai:
                self._notes[seat.user_id] = msg("table.channel_closed")

    def _channel_open(self, channel_id: int) -> None:
        """A post went through: a later refusal is news again."""
        self._closed_channels.discard(channel_id)

    async def _archive_if_done(self, record: TableMessage) -> None:
        """Once a finished (or closed) table's last table message and standings are out:
        archive its thread (it drops from the channel's list of active threads and stays
        readable; best effort: without Manage Threads Discord archives it by itself after
        a day of silence), and let the presenter forget the table a little later."""
        if record.standings_due:
            return
        phase = self._phase(record)
        if phase not in ("finished", "closed") or record.dirty:
            return
        if record.sent is None or record.sent[2][0] != phase:
            return
        self.forget_later(record.table_id)
        if record.parent_id is None or record.archived:
            return
        record.archived = True
        try:
            await self.bot.http.edit_channel(record.channel_id, archived=True)
        except discord.HTTPException as error:
            log.info("could not archive the thread of table %s: %s", record.table_id, error)

    def forget_later(self, table_id: str) -> None:
        """A table is over and everything it shows is out: after ``FORGET_AFTER`` (late
        clicks and result cards come first) drop what the presenter keeps for it. Why: a
        bot runs for months; without this every table ever played stayed in memory (its
        last status with every river, its DM message records, its posts)."""
        if table_id in self._forgetting:
            return
        self._forgetting.add(table_id)
        due = self.clock.now() + FORGET_AFTER

        async def forget() -> None:
            await self.clock.sleep_until(due)
            self._forget(table_id)

        self._timer(forget(), f"forget-{table_id}")

    def _forget(self, table_id: str) -> None:
        self._forgetting.discard(table_id)
        record = self._tables.get(table_id)
        post = self._posts.get(table_id)
        if (record is not None and (record.dirty or record.standings_due)) or (
            post is not None and not post.done()
        ):
            self.forget_later(table_id)  # something came up meanwhile: later, then
            return
        self._tables.pop(table_id, None)
        self._posts.pop(table_id, None)
        self._hands_loading.pop(table_id, None)
        for key in [key for key in self._hands if key[0] == table_id]:
            del self._hands[key]
        for key in [key for key in self._last_hand if key[0] == table_id]:
            del self._last_hand[key]
        self._dm_notice_sent = {key for key in self._dm_notice_sent if key[0] != table_id}
        for message_id in [m for m, table in self._carded.items() if table == table_id]:
            del self._carded[message_id]
        if record is not None and record.parent_id is not None:  # its own thread: done too
            self._last_flush.pop(record.channel_id, None)
            self._closed_channels.discard(record.channel_id)
            self._gone_channels.discard(record.channel_id)

    async def hand_result(self, status: TableStatus, result: HandResult, points: list[int]) -> None:
        record = self._table(status.table_id, status.channel_id)
        record.status = status
        names = seat_names(status)
        self._post_in_order(status.table_id, self._post_result(status, result, points, names))

    def _post_in_order(self, table_id: str, post: Awaitable[Any]) -> None:
        """Result posts of one table go out in the order they happened, though each
        renders in the background (a match total must not overtake the last hand)."""
        previous = self._posts.get(table_id)

        async def chained() -> None:
            if previous is not None and not previous.done():
                # Parked while the earlier post is still out: that post is the work in
                # progress (or itself parked in a retry's backoff, which only the clock
                # ends; counting this waiter as busy then would stall wait_idle for good).
                async with self._parked_while():
                    with contextlib.suppress(Exception):
                        await previous
            await post

        self._posts[table_id] = self._spawn(chained(), f"post-{table_id}")

    async def _post_result(
        self, status: TableStatus, result: HandResult, points: list[int], names: list[str]
    ) -> None:
        if status.channel_id in self._gone_channels:
            return
        head, body = result_texts(result, names, points, status.stake)
        language = await self.channel_language(status.guild_id)
        content = in_server_script(
            f"**{head.zh}** {head.en}\n{body.zh}\n-# {body.en}", language, names
        )
        moved = TablePoints(tuple(points), status.stake)  # the card says what the text says
        picture = await self.picture(
            self.renderer.result, describe_result, status.public, result, names, language, moved
        )
        view = replay_card_view(status.table_id, status.public.hand_number + 1)
        in_readers_script(view, language)
        channel = self.bot.get_partial_messageable(status.channel_id)
        try:
            await retry_discord(
                lambda: channel.send(content=content[:2000], file=picture.file("result.png"),
                                     allowed_mentions=NO_MENTIONS, view=view),
                self._backoff,
                f"result card of {status.table_id}",
            )  # fmt: skip
        except discord.Forbidden as error:
            self._channel_closed(status.channel_id, status, "result card", error)
            return
        self._channel_open(status.channel_id)
        # In a table's thread the result went out below the table message: send the
        # table anew under it (its next change was going out anyway), so the live table
        # stays in view. A table in a channel keeps its one message, as before threads.
        record = self._table(status.table_id, status.channel_id)
        await self._load_table_message(record)
        if record.parent_id is not None:
            record.repost = True
            self._mark_dirty(record)

    async def match_result(self, status: TableStatus, totals: list[int], points: list[int]) -> None:
        record = self._table(status.table_id, status.channel_id)
        # The last hand's view holds the scores it started with: the final table shows
        # the totals the standings above it give, not those before the last hand.
        seats = tuple(
            replace(seat_view, score=total)
            for seat_view, total in zip(status.public.seats, totals, strict=True)
        )
        record.status = replace(status, public=replace(status.public, seats=seats))
        record.final = True
        names = seat_names(status)
        record.standings_due = True
        self._post_in_order(status.table_id, self._post_standings(record, points, names))
        self._mark_dirty(record)

    async def _split_departed(
        self, game_id: str, totals: list[int]
    ) -> tuple[list[int], list[tuple[str, int]]]:
        """A seat's total added up its player's hands and, after they left, the AI's in
        their seat, all under the AI's name: the leaver's hands are theirs again, on a
        line of their own, and the seat keeps what the AI made. The ledger says who was
        paid for each hand; without it (a read failing) the seats stay as they are."""
        try:
            summary = await self.store.match_summary(game_id)
        except Exception:  # the standings go out regardless
            log.warning("could not read match %s for its standings", game_id, exc_info=True)
            return totals, []
        if summary is None:
            return totals, []
        seats = list(totals)
        departed: list[tuple[str, int]] = []
        for seat, _user_id, name, points in summary.departed():
            if seat < len(seats):
                seats[seat] -= points
                departed.append((name, points))
        return seats, departed

    async def _post_standings(
        self, record: TableMessage, totals: list[int], names: list[str]
    ) -> None:
        """The match totals where the table is, and in the channel a table thread hangs
        off (people who never opened the thread see how it ended)."""
        if record.channel_id in self._gone_channels:
            record.standings_due = False
            return
        try:
            await self._load_table_message(record)
            stake = record.status.stake if record.status is not None else 1
            winds = _seat_winds(record.status)
            totals, departed = await self._split_departed(record.table_id, totals)
            text = standings_message(
                "result.match", names, totals, winds, departed=departed, stake=stake
            )
            language = await self.table_language(record)
            view = rematch_view(record.table_id)
            in_readers_script(view, language)
            channel = self.bot.get_partial_messageable(record.channel_id)
            try:
                await retry_discord(
                    lambda: channel.send(
                        public(text, language)[:2000], allowed_mentions=NO_MENTIONS, view=view
                    ),
                    self._backoff,
                    f"match result of {record.table_id}",
                )
            except discord.Forbidden as error:
                self._channel_closed(record.channel_id, record.status, "match result", error)
            if record.parent_id is not None:
                parent = self.bot.get_partial_messageable(record.parent_id)
                line = standings_message(
                    "thread.standings",
                    names,
                    totals,
                    winds,
                    departed=departed,
                    thread=f"<#{record.channel_id}>",
                    stake=stake,
                )
                try:
                    await retry_discord(
                        lambda: parent.send(
                            public(line, language)[:2000], allowed_mentions=NO_MENTIONS
                        ),
                        self._backoff,
                        f"standings of {record.table_id} in the channel",
                    )
                except discord.Forbidden as error:
                    self._channel_closed(record.parent_id, None, "standings line", error)
        finally:
            record.standings_due = False
        await self._archive_if_done(record)


def _seat_winds(status: TableStatus | None) -> list[int] | None:
    """Each seat's wind in the last hand (what the last table picture shows)."""
    if status is None:
        return None
    return [seat.seat_wind for seat in status.public.seats]


def variant_names(variant: str) -> tuple[str, str]:
    """(Chinese, short English) name of a rule set; an unknown name is shown as is."""

    rules = RULE_SETS.get(variant)
    if rules is None:
        return variant, variant
    return rules.name_zh, rules.short_name_en or rules.name_en


def _seat_label(status: TableStatus, seat: int) -> str:
    info = status.seats[seat] if seat < len(status.seats) else None
    if info is None:
        return f"#{seat + 1}"
    if info.user_id and not info.is_ai:
        return f"<@{info.user_id}>"
    return f"🤖 {info.name}"


def _scores_line(status: TableStatus) -> str:
    """The match scores by seat, East first: "-# 东 alice 0 · 南 AI 1 +12 · …". The table
    image has them, but on a phone its labels are 6-8 px high; they change only between
    hands, so the line costs no edit."""
    names = seat_names(status)
    public_view = status.public
    parts = []
    for seat in sorted(range(public_view.num_seats), key=lambda s: public_view.seats[s].seat_wind):
        seat_view = public_view.seats[seat]
        wind = "东南西北"[seat_view.seat_wind - 27]
        score = f"{seat_view.score:+,d}" if seat_view.score else "0"
        parts.append(f"{wind} {name_at(names, seat)} {score}")
    return "-# " + " · ".join(parts)


def _status_line(status: TableStatus) -> str:
    public_view = status.public
    if public_view.phase == "ended":
        text = msg("table.status.ended")
        return f"{text.zh} · {text.en}"
    if public_view.phase == "turn" and public_view.current_seat is not None:
        line = f"▶ {_seat_label(status, public_view.current_seat)} " + "{} · {}".format(
            *MESSAGES["table.status.turn"]
        )
    else:
        # Not naming who is still deciding keeps a pass from changing the message, so
        # a pass costs no table edit (and does not reveal who could have claimed).
        key = {"santan": "table.status.santan", "rob_kong": "table.status.rob_kong"}.get(
            public_view.phase, "table.status.claims"
        )
        if key == "table.status.claims" and get_rules(public_view.variant).discard_wins:
            key = "table.status.claims_or_win"
        line = "⏳ {} · {}".format(*MESSAGES[key])
    if status.deadline is not None:
        line += f" · ⏱ <t:{int(status.deadline)}:R>"
    line += f" · 🀫 {public_view.tiles_left}"
    return line


def _add_moves(record: TableMessage, status: TableStatus) -> None:
    """The lines of the move ``status`` follows, once per (hand, turn)."""
    key = (status.public.hand_number, status.public.turn_id)
    if key == record.moves_key:
        return
    if key[0] != record.moves_key[0]:
        record.moves.clear()  # a new hand starts with no moves
    record.moves_key = key
    names = tuple(seat_names(status))
    record.moves.extend((line, names) for line in _move_lines(status, names))


def _move_lines(status: TableStatus, names: Sequence[str]) -> list[str]:
    """The moves of the action ``status`` follows, each as the table message shows it,
    from its public events only (a claim names its tiles and whose discard it took). Not
    from the action itself: a chow answered while the window is open is no move yet (a
    pung may take the tile), and who answered what is private (``respond``)."""
    return [
        f"-# {line}"
        for event in status.events
        if (line := event_line(event, names, _tile_text, format_tiles)) is not None
    ]


def _tile_text(kind: int) -> str:
    return f"{kind_str(kind)} {name_zh(kind)}"
