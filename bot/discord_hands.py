"""Private hands: one DM per player per hand, edited in place; the ephemeral fallback
for closed DMs; a click answered by its own new hand (see ``bot.discord_presenter``).

Also here, because they live in the same DM: the turn alert (a short new DM, which is
what makes a phone buzz, sent only when a prompt has waited ``ALERT_DELAY`` seconds, or
half its time for a player at the screen, and deleted once the player moved, so an
attentive player costs no request and the DM does not fill up) and the result card that
replaces the hand when it ends."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_views import hand_facts, hand_view, prompt_headline, prompt_text
from bot.i18n import for_reader, image_locale, in_server_script, msg, public, say
from bot.lines import name_at, result_texts
from bot.presenter import LastHand, PrivatePrompt, TableStatus, Text
from engine.types import HandResult
from render.alt_text import describe_hand, describe_result
from render.result import TablePoints

if TYPE_CHECKING:
    pass
from bot.discord_ack import AckGuard, edit_clicked
from bot.discord_core import (
    NO_MENTIONS,
    HandJob,
    HandMessage,
    LiveEphemeral,
    Picture,
    PresenterCore,
    ResultCard,
    TurnAlert,
    seat_names,
)

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007


INTERACTION_TOKEN_LIFETIME = 14 * 60.0  # Discord allows 15 minutes; keep a margin

# A prompt left unanswered this long gets a turn alert (at most half its time limit): a
# player who is watching answers sooner and never gets one.
ALERT_DELAY = 5.0
# A player who clicked or typed within this many seconds is at the screen: thinking, not
# away. Their alert waits for half the time limit, so one who takes 7 s a move is not
# buzzed on every decision (19 to 25 times a hand at 5 s), and one who stalls is still
# told with half the time left.
AT_SCREEN_SECONDS = 60.0
AT_SCREEN_SHARE = 0.5
ALERT_KINDS = ("turn", "claim", "rob_kong", "santan")


class PrivateHands(PresenterCore):
    """The private side of ``DiscordPresenter``: prompts, DMs, ephemerals and prefs."""

    async def prefs(self, user_id: int) -> dict[str, Any]:
        cached = self._prefs.get(user_id)
        if cached is None:
            try:
                loaded = await self.store.get_user_prefs(user_id)
            except Exception:
                log.exception("could not read prefs of user %s", user_id)
                loaded = {}
            # Two readers can overlap (a click's locale, a command's setting): the first
            # one cached wins, so a setting made meanwhile is not overwritten by an
            # older read.
            cached = self._prefs.setdefault(user_id, loaded)
        return cached

    async def set_pref(self, user_id: int, key: str, value: Any) -> None:
        prefs = await self.prefs(user_id)
        if value is None:
            prefs.pop(key, None)
        else:
            prefs[key] = value
        await self.store.set_user_pref(user_id, key, value)

    async def reader_locale(self, user_id: int) -> str | None:
        """The player's locale: as last seen, else as saved (None: never seen)."""
        locale = self.locale_of(user_id)
        if locale is None:
            stored = (await self.prefs(user_id)).get("locale")
            if isinstance(stored, str) and stored:
                locale = self._locales[user_id] = stored
        return locale

    async def answer_locale(
        self, user_id: int, interaction: discord.Interaction[Any] | None
    ) -> str | None:
        """The language to answer a player's own interaction in: the one it came with (the
        player may just have switched their client's language, and the event that
        remembers it can run after this answer), else the remembered one."""
        if interaction is not None and interaction.user.id == user_id and interaction.locale:
            return str(interaction.locale)
        return await self.reader_locale(user_id)

    async def save_locale(self, user_id: int, locale: str) -> None:
        """Keep a player's locale for after a restart (best effort)."""
        with contextlib.suppress(Exception):
            if (await self.prefs(user_id)).get("locale") != locale:
                await self.set_pref(user_id, "locale", locale)

    async def pings(self, user_id: int) -> bool:
        """``/table ping``: turn alerts are on unless the player turned them off."""
        return (await self.prefs(user_id)).get("ping") is not False

    async def set_ping(self, user_id: int, on: bool) -> None:
        await self.set_pref(user_id, "ping", None if on else False)
        if not on:
            self._withdraw_alert(user_id)

    async def uses_dm(self, user_id: int) -> bool:
        prefs = await self.prefs(user_id)
        return not prefs.get("dms_closed") and prefs.get("hand_delivery", "dm") == "dm"

    async def set_delivery(self, user_id: int, dm: bool) -> bool:
        """``/table dm on|off``. Turning DMs on also forgets a remembered 403: the user
        says they opened their DMs, which is the one time a retry is not blind. True
        when their DMs had failed: the reply must not promise DMs a closed inbox refuses,
        and a failure again is announced again (the earlier notice is up the channel)."""
        had_failed = bool((await self.prefs(user_id)).get("dms_closed"))
        await self.set_pref(user_id, "hand_delivery", "dm" if dm else "ephemeral")
        if dm:
            await self.set_pref(user_id, "dms_closed", None)
            self._dm_notice_sent = {key for key in self._dm_notice_sent if key[1] != user_id}
        return had_failed

    def register_click(self, user_id: int, interaction: discord.Interaction[Any]) -> None:
        """A click on a hand is about to be submitted: if it changes that hand, the new
        hand becomes the click's own response."""
        self._clicks[user_id] = interaction

    def release_click(self, user_id: int, interaction: discord.Interaction[Any]) -> bool:
        """After the submit: True if the presenter took the click over (it will answer)."""
        if self._clicks.get(user_id) is interaction:
            del self._clicks[user_id]
        if interaction.id in self._taken:
            self._taken.discard(interaction.id)
            return True
        return False

    async def private_hand(self, prompt: PrivatePrompt) -> None:
        user_id = prompt.user_id
        self._track_alert(prompt)
        click = self._clicks.pop(user_id, None)
        if click is not None:
            self._taken.add(click.id)
        queued = self._jobs.get(user_id)
        if queued is not None and click is None:
            click = queued.click
        self._jobs[user_id] = HandJob(prompt, click)
        worker = self._workers.get(user_id)
        if worker is None or worker.done():
            self._workers[user_id] = self._spawn(self._hand_worker(user_id), f"hand-{user_id}")

    async def _hand_worker(self, user_id: int) -> None:
        """Delivers the newest prompt of one user (prompts queued meanwhile are
        superseded), then the result cards of hands that ended, in order."""
        while user_id in self._jobs or self._cards.get(user_id):
            if user_id not in self._jobs:
                card = self._cards[user_id].pop(0)
                try:
                    await self._deliver_card(user_id, card)
                except Exception:
                    log.exception("could not show the result card to user %s", user_id)
                continue
            job = self._jobs.pop(user_id)
            try:
                await self._deliver(job)
            except Exception:
                log.exception("could not deliver the hand of user %s", user_id)
                if job.click is not None:
                    with contextlib.suppress(discord.HTTPException):
                        await AckGuard.of(job.click).defer()
        self._cards.pop(user_id, None)

    def _hand_content(self, prompt: PrivatePrompt, locale: str | None = None) -> str:
        lines = [prompt_headline(prompt, locale), hand_facts(prompt, locale)]
        if prompt.note is not None:
            lines.append(f"📌 {for_reader(prompt.note, locale)}")
        if prompt.aids is not None:
            if image_locale(locale) == "zh":  # both languages: the English a line below
                lines += [f"💡 {prompt.aids.zh}", f"-# 💡 {prompt.aids.en}"]
            else:
                lines.append(f"💡 {for_reader(prompt.aids, locale)}")
        note = self._notes.pop(prompt.user_id, None)
        if note is not None:
            lines.append(f"⚠️ {for_reader(note, locale)}")
        return "\n".join(lines)

    def _dm_content(self, prompt: PrivatePrompt, locale: str | None) -> str:
        """The DM hand's text, however it is edited (the bot's edit, or the answer to a
        click on it): the hand, the table's link under it and, through a new hand, how
        the last one ended as its first line. A new hand's DM is what notifies (the
        result card is an edit further up, which notifies nobody); the line stays
        through the hand's edits, so the lines below never move."""
        content = self._hand_content(prompt, locale) + self._table_link(prompt, locale)
        last = self._last_hand.get((prompt.table_id, prompt.user_id))
        if last is not None and last[0] == prompt.view.public.hand_number - 1:
            content = f"-# {for_reader(last[1], locale)}\n{content}"
        return content

    def _table_link(self, prompt: PrivatePrompt, locale: str | None) -> str:
        """A line under a DM hand that opens the table (its thread): the DM is where the
        player acts, the table is where the others' moves and the results show."""
        record = self._tables.get(prompt.table_id)
        if record is None or record.status is None:
            return ""
        link = f"https://discord.com/channels/{record.status.guild_id}/{record.channel_id}"
        return f"\n-# 🀄 {for_reader(msg('hand.table_link'), locale)} {link}"  # the link once

    async def _hand_picture(self, prompt: PrivatePrompt, locale: str | None = None) -> Picture:
        names = self._names_for(prompt.table_id, prompt.view.public.num_seats)
        language = image_locale(locale) if locale is not None else self.locale
        return await self.picture(self.renderer.hand, describe_hand, prompt.view, names, language)

    def _names_for(self, table_id: str, count: int) -> list[str]:
        record = self._tables.get(table_id)
        return seat_names(record.status if record else None, count)

    async def _deliver(self, job: HandJob) -> None:
        prompt = job.prompt
        user_id = prompt.user_id
        locale = await self.answer_locale(user_id, job.click)
        signature = (*hand_signature(prompt), locale)
        if job.click is not None and not await self._closes_old_hand(job.click, prompt):
            await self._answer_click(job.click, prompt, signature, locale)
            return
        if await self.uses_dm(user_id) and await self._deliver_dm(prompt, signature, locale):
            return
        await self._refresh_live(prompt, signature, locale)

    async def _closes_old_hand(
        self, click: discord.Interaction[Any], prompt: PrivatePrompt
    ) -> bool:
        """A click that ended a hand (a win, the last discard) is answered by retiring
        that hand's DM (picture kept, components removed); the new hand gets its own DM."""
        message = click.message
        await self._load_hands(prompt.table_id)
        record = self._hands.get((prompt.table_id, prompt.user_id))
        if message is None or record is None or record.message_id != message.id:
            return False
        if record.hand_number == prompt.view.public.hand_number:
            return False
        done = for_reader(msg("table.status.ended"), await self.answer_locale(click.user.id, click))
        guard = AckGuard.of(click)
        if message.id in self._carded:  # it shows the hand's result already: keep that
            await guard.defer()
            guard.done()
            return True
        await edit_clicked(click, done, None)
        return True

    async def _answer_click(
        self,
        click: discord.Interaction[Any],
        prompt: PrivatePrompt,
        signature: tuple[Any, ...],
        locale: str | None = None,
    ) -> None:
        """Answer a click on a hand with the new hand (one request), within the budget."""
        guard = AckGuard.of(click)
        render = asyncio.ensure_future(self._hand_picture(prompt, locale))
        await self._load_hands(prompt.table_id)  # after a restart: which message is the DM
        picture: Picture | None = None
        with contextlib.suppress(TimeoutError):
            picture = await asyncio.wait_for(asyncio.shield(render), guard.remaining())
        view = hand_view(prompt, locale)
        message = click.message
        record = self._hands.get((prompt.table_id, prompt.user_id))
        on_dm = message is not None and record is not None and record.message_id == message.id
        # A click on the DM hand answers with the DM's whole text: built as an ephemeral
        # hand's, the last hand's line and the table's link went at the first move.
        content = self._dm_content(prompt, locale) if on_dm else self._hand_content(prompt, locale)
        answered = False
        async with guard.lock:
            if picture is not None and not click.response.is_done():
                await click.response.edit_message(
                    content=content, attachments=[picture.file("hand.png")], view=view
                )
                answered = True
            elif not click.response.is_done():
                await click.response.defer()
        guard.done()
        if not answered:  # deferred (slow render or busy table): edit the message after
            picture = picture if picture is not None else await render
            await click.edit_original_response(
                content=content, attachments=[picture.file("hand.png")], view=view
            )
        if on_dm and record is not None:
            record.signature = signature
        elif message is not None and message.flags.ephemeral:
            self._live[prompt.user_id] = LiveEphemeral(click, self.clock.now(), signature)

    async def _dm_channel(self, user_id: int) -> int:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            prefs = await self.prefs(user_id)
            stored = prefs.get("dm_channel")
            if isinstance(stored, int):
                channel_id = stored
            else:
                data = await self.bot.http.start_private_message(user_id)
                channel_id = int(data["id"])
                with contextlib.suppress(Exception):
                    await self.set_pref(user_id, "dm_channel", channel_id)
            self._dm_channels[user_id] = channel_id
        return channel_id

    async def _load_hands(self, table_id: str) -> None:
        """Once per table and process: the DM hand messages a previous process sent.
        Concurrent callers (one worker per player) all wait for the same load."""
        loading = self._hands_loading.get(table_id)
        if loading is None:
            loading = self._hands_loading[table_id] = asyncio.ensure_future(
                self._read_hands(table_id)
            )
        await asyncio.shield(loading)

    async def _read_hands(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            game = await self.store.get_game(table_id)
            stored = (game.meta if game else {}).get("discord_hands") or {}
            for user, (hand_number, channel_id, message_id) in stored.items():
                self._hands.setdefault(
                    (table_id, int(user)),
                    HandMessage(int(hand_number), int(channel_id), int(message_id)),
                )

    async def _save_hands(self, table_id: str) -> None:
        stored = {
            str(user): [record.hand_number, record.channel_id, record.message_id]
            for (table, user), record in self._hands.items()
            if table == table_id
        }
        with contextlib.suppress(Exception):
            await self.store.update_game_meta(table_id, discord_hands=stored)

    async def _deliver_dm(
        self, prompt: PrivatePrompt, signature: tuple[Any, ...], locale: str | None = None
    ) -> bool:
        """Send or edit the DM hand; False when DMs turn out to be closed."""
        user_id = prompt.user_id
        key = (prompt.table_id, user_id)
        await self._load_hands(prompt.table_id)
        record = self._hands.get(key)
        hand_number = prompt.view.public.hand_number
        same_hand = record is not None and record.hand_number == hand_number
        if same_hand and record is not None and record.signature == signature:
            return True
        if not same_hand and prompt.kind == "idle" and prompt.view.public.phase == "ended":
            return True
        picture = await self._hand_picture(prompt, locale)
        content = self._dm_content(prompt, locale)
        view = hand_view(prompt, locale)
        if same_hand and record is not None:
            message = self.bot.get_partial_messageable(
                record.channel_id, type=discord.ChannelType.private
            ).get_partial_message(record.message_id)
            try:
                await message.edit(
                    content=content, attachments=[picture.file("hand.png")], view=view
                )
                record.signature = signature
                return True
            except discord.NotFound:
                pass  # the user deleted it: send a fresh one below
        try:
            channel_id = await self._dm_channel(user_id)
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            sent = await channel.send(
                content=content,
                file=picture.file("hand.png"),
                view=view,
                allowed_mentions=NO_MENTIONS,
            )
        except discord.Forbidden as error:
            if not _is_dm_closed(error):
                raise
            await self._dms_closed(prompt)
            return False
        self._hands[key] = HandMessage(hand_number, channel_id, sent.id, signature)
        alert = self._alerts.get(user_id)
        if alert is not None and alert.timer is not None and prompt.kind in ALERT_KINDS:
            alert.timer.cancel()  # a new hand DM notifies by itself: no second buzz for it
        await self._save_hands(prompt.table_id)
        return True

    async def _dms_closed(self, prompt: PrivatePrompt) -> None:
        user_id = prompt.user_id
        log.info("user %s has DMs closed; serving their hand ephemerally", user_id)
        with contextlib.suppress(Exception):
            await self.set_pref(user_id, "dms_closed", True)
        key = (prompt.table_id, user_id)
        if key in self._dm_notice_sent:
            return
        self._dm_notice_sent.add(key)
        record = self._tables.get(prompt.table_id)
        if record is None:
            return
        text = msg("table.dm_closed_notice", mention=f"<@{user_id}>")
        channel = self.bot.get_partial_messageable(record.channel_id)
        language = await self.table_language(record)
        await channel.send(public(text, language), allowed_mentions=NO_MENTIONS)

    async def _refresh_live(
        self, prompt: PrivatePrompt, signature: tuple[Any, ...], locale: str | None = None
    ) -> None:
        """Keep an ephemeral hand current through its interaction token while it lives."""
        live = self._live.get(prompt.user_id)
        if live is None or live.signature == signature:
            return
        if self.clock.now() - live.since > INTERACTION_TOKEN_LIFETIME:
            del self._live[prompt.user_id]
            return
        picture = await self._hand_picture(prompt, locale)
        try:
            await live.interaction.edit_original_response(
                content=self._hand_content(prompt, locale),
                attachments=[picture.file("hand.png")],
                view=hand_view(prompt, locale),
            )
            live.signature = signature
        except discord.HTTPException:
            self._live.pop(prompt.user_id, None)

    async def show_hand(self, interaction: discord.Interaction[Any], prompt: PrivatePrompt) -> None:
        """The "My hand" button and ``/table hand``: the hand as an ephemeral reply."""
        guard = AckGuard.of(interaction)
        locale = await self.answer_locale(prompt.user_id, interaction)
        render = asyncio.ensure_future(self._hand_picture(prompt, locale))
        content = self._hand_content(prompt, locale)
        view = hand_view(prompt, locale)
        picture: Picture | None = None
        with contextlib.suppress(TimeoutError):
            picture = await asyncio.wait_for(asyncio.shield(render), guard.remaining())
        answered = False
        async with guard.lock:
            if picture is not None and not interaction.response.is_done():
                await interaction.response.send_message(
                    content=content, file=picture.file("hand.png"), view=view, ephemeral=True
                )
                answered = True
            elif not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
        guard.done()
        if not answered:
            picture = picture if picture is not None else await render
            await interaction.edit_original_response(
                content=content, attachments=[picture.file("hand.png")], view=view
            )
        self._live[prompt.user_id] = LiveEphemeral(
            interaction, self.clock.now(), (*hand_signature(prompt), locale)
        )

    # ------------------------------------------------------------------ turn alerts
    def _track_alert(self, prompt: PrivatePrompt) -> None:
        """Arm a turn alert for a prompt that asks something, or withdraw the one of a
        prompt that is over. A prompt repeated for the same decision (same kind and
        deadline) keeps its alert, so there is at most one per turn."""
        user_id = prompt.user_id
        alert = self._alerts.get(user_id)
        asks = prompt.kind in ALERT_KINDS and prompt.deadline is not None
        if alert is not None:
            if (
                asks
                and alert.table_id == prompt.table_id
                and alert.kind == prompt.kind
                and (alert.turn_id == _alert_key(prompt))
            ):
                return
            self._withdraw_alert(user_id)
        if not asks or prompt.deadline is None:
            return
        now = self.clock.now()
        left = max(0.0, prompt.deadline - now)
        delay = min(ALERT_DELAY, left / 2)
        seen = self._last_seen.get(user_id)
        if seen is not None and now - seen <= AT_SCREEN_SECONDS:
            delay = max(delay, left * AT_SCREEN_SHARE)
        at = now + delay
        alert = TurnAlert(prompt.table_id, _alert_key(prompt), prompt.kind)
        self._alerts[user_id] = alert
        alert.timer = self._timer(self._alert_later(user_id, alert, prompt, at), f"alert-{user_id}")

    def _withdraw_alert(self, user_id: int) -> None:
        """The player moved (or the question went away): stop the alert's timer and
        delete the alert if it was sent."""
        alert = self._alerts.pop(user_id, None)
        if alert is None:
            return
        alert.withdrawn = True
        if alert.timer is not None and not alert.timer.done():
            alert.timer.cancel()
        if alert.message_id is not None:
            self._spawn(self._delete_alert(alert), f"unalert-{user_id}")

    def withdraw_alerts(self, table_id: str) -> None:
        """The match is over: no alert of it stays in anyone's DM."""
        for user_id, alert in list(self._alerts.items()):
            if alert.table_id == table_id:
                self._withdraw_alert(user_id)

    async def _alert_later(
        self, user_id: int, alert: TurnAlert, prompt: PrivatePrompt, at: float
    ) -> None:
        await self.clock.sleep_until(at)
        if self._alerts.get(user_id) is alert and not alert.withdrawn:
            self._spawn(self._send_alert(user_id, alert, prompt), f"alert-{user_id}")

    async def _send_alert(self, user_id: int, alert: TurnAlert, prompt: PrivatePrompt) -> None:
        """A short new DM (a new message is what notifies; an edit does not), pointing
        at the hand; for a player without DMs (closed, or hands shown privately) a
        message mentioning them where the table is. None for a player who turned alerts
        off."""
        if not await self.pings(user_id):
            return
        if not await self.uses_dm(user_id):
            await self._send_channel_alert(user_id, alert, prompt)
            return
        locale = await self.reader_locale(user_id)
        lines = [for_reader(prompt_text(prompt, "alert"), locale, bold=True)]
        if prompt.note is not None:  # private: a DM is the player's own
            lines.append(for_reader(prompt.note, locale))
        record = self._hands.get((prompt.table_id, user_id))
        if record is not None:
            link = f"https://discord.com/channels/@me/{record.channel_id}/{record.message_id}"
            lines.append(f"👉 {link}")  # once: a phone's notification shows little
        channel_id = await self._dm_channel(user_id)
        channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        try:
            sent = await channel.send(content="\n".join(lines), allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as error:
            if not _is_dm_closed(error):
                return
            # Closed again (after /table dm on): this turn's alert still has to reach
            # them, where the table is; later hands go the ephemeral way.
            with contextlib.suppress(discord.HTTPException):
                await self._dms_closed(prompt)
            await self._send_channel_alert(user_id, alert, prompt)
            return
        alert.channel_id, alert.message_id = channel_id, sent.id
        if alert.withdrawn:  # the player moved while it was on its way
            await self._delete_alert(alert)

    async def _send_channel_alert(
        self, user_id: int, alert: TurnAlert, prompt: PrivatePrompt
    ) -> None:
        """The alert of a player whose hand is not in a DM: in the table's channel (its
        thread), mentioning only them, so it notifies them and nobody else; deleted once
        they move, as a DM alert is."""
        table = self._tables.get(prompt.table_id)
        if table is None or table.channel_id in self._gone_channels:
            return
        # Seen by the whole channel: in the channel's language and script, as its other
        # lines (Traditional on a zh-TW server), both languages side by side.
        asked, hint = prompt_text(prompt, "alert"), msg("alert.no_dm")
        language = await self.table_language(table)
        content = in_server_script(
            f"<@{user_id}> **{asked.zh}** · {asked.en}\n-# {hint.zh} · {hint.en}", language
        )
        channel = self.bot.get_partial_messageable(table.channel_id)
        mention = discord.AllowedMentions(
            users=[discord.Object(user_id)], everyone=False, roles=False, replied_user=False
        )
        try:
            sent = await channel.send(content=content[:2000], allowed_mentions=mention)
        except discord.HTTPException:
            return  # the channel refuses the bot: the table message says so already
        alert.channel_id, alert.message_id = table.channel_id, sent.id
        alert.in_table_channel = True
        if alert.withdrawn:
            await self._delete_alert(alert)

    async def _delete_alert(self, alert: TurnAlert) -> None:
        if alert.channel_id is None or alert.message_id is None:
            return
        kind = None if alert.in_table_channel else discord.ChannelType.private
        message = self.bot.get_partial_messageable(alert.channel_id, type=kind).get_partial_message(
            alert.message_id
        )
        alert.message_id = None
        with contextlib.suppress(discord.NotFound):
            await message.delete()

    # ------------------------------------------------------------------ result cards
    async def dm_result_cards(
        self, status: TableStatus, result: HandResult, points: list[int]
    ) -> None:
        """After a hand, each DM player's hand message of that hand becomes the result
        card, so they see the outcome where they played (after their last hand edit)."""
        await self._load_hands(status.table_id)
        self.remember_last_hand(status, LastHand(status.public.hand_number, result, points))
        for info in status.seats:
            if info.is_ai or info.user_id is None:
                continue
            user_id = info.user_id
            record = self._hands.get((status.table_id, user_id))
            if record is None or record.hand_number != status.public.hand_number:
                continue
            card = ResultCard(status, result, list(points), record.channel_id, record.message_id)
            self._cards.setdefault(user_id, []).append(card)
            worker = self._workers.get(user_id)
            if worker is None or worker.done():
                self._workers[user_id] = self._spawn(self._hand_worker(user_id), f"hand-{user_id}")

    def remember_last_hand(self, status: TableStatus, last: LastHand) -> None:
        """What the next hand's DM starts with, for each player: "上局 Bob 胡了：你 -8
        积分" (kept in memory; a restart rebuilds it from the replayed log)."""
        names = seat_names(status)
        for seat, info in enumerate(status.seats):
            if info.is_ai or info.user_id is None or seat >= len(last.points):
                continue
            summary = _last_hand_text(last.result, names, seat, last.points[seat])
            self._last_hand[(status.table_id, info.user_id)] = (last.hand_number, summary)

    async def _deliver_card(self, user_id: int, card: ResultCard) -> None:
        locale = await self.reader_locale(user_id)
        language = image_locale(locale) if locale is not None else self.locale
        names = seat_names(card.status)
        moved = TablePoints(tuple(card.points), card.status.stake)  # as the text below says
        picture = await self.picture(
            self.renderer.result, describe_result, card.status.public, card.result, names,
            language, moved,
        )  # fmt: skip
        head, body = result_texts(card.result, names, card.points, card.status.stake)
        content = f"{for_reader(head, locale, bold=True)}\n{for_reader(body, locale)}"
        message = self.bot.get_partial_messageable(
            card.channel_id, type=discord.ChannelType.private
        ).get_partial_message(card.message_id)
        with contextlib.suppress(discord.NotFound):  # the player deleted it
            await message.edit(
                content=content[:2000], attachments=[picture.file("result.png")], view=None
            )
            self._carded[card.message_id] = card.status.table_id

    async def table_gone(self, table_id: str, user_ids: list[int], reason: Text) -> None:
        """A table closed because its channel is gone: each player's DM hand says why."""
        await self.close_hands(table_id, user_ids, reason, mark="⚠️ ")

    async def close_hands(
        self, table_id: str, user_ids: Iterable[int], reason: Text, *, mark: str = ""
    ) -> None:
        """The table is over for these players (ended, closed, left, its channel gone):
        each DM hand says why and loses its buttons and menu (the picture stays), and a
        turn alert still pending is taken back. A hand already showing its result card,
        or closed once, stays as it is. Best effort: a player without a DM hand learns it
        from the next click."""
        await self._load_hands(table_id)
        for user_id in user_ids:
            alert = self._alerts.get(user_id)
            if alert is not None and alert.table_id == table_id:
                self._withdraw_alert(user_id)
            record = self._hands.get((table_id, user_id))
            if record is None or record.signature == ("gone",):
                continue
            record.signature = ("gone",)
            if record.message_id in self._carded:
                continue
            locale = await self.reader_locale(user_id)
            message = self.bot.get_partial_messageable(
                record.channel_id, type=discord.ChannelType.private
            ).get_partial_message(record.message_id)
            with contextlib.suppress(discord.HTTPException):
                await message.edit(content=f"{mark}{for_reader(reason, locale)}"[:2000], view=None)

    async def error(self, user_id: int, text: Text) -> None:
        """Answer the user's open click if there is one; otherwise the note rides along
        with their next hand update (no extra request, no unsolicited DM)."""
        click = self._clicks.pop(user_id, None)
        if click is not None:
            self._taken.add(click.id)
            guard = AckGuard.of(click)
            async with guard.lock:
                if click.response.is_done():
                    await click.followup.send(say(text, click.locale), ephemeral=True)
                else:
                    await click.response.send_message(say(text, click.locale), ephemeral=True)
            guard.done()
        else:
            self._notes[user_id] = text


def _last_hand_text(result: HandResult, names: list[str], seat: int, points: int) -> Text:
    """How the last hand ended for ``seat``: "上局 Bob 胡了：你 -8 积分"."""
    change = f"{points:+,d}"
    if result.winner is None:
        return msg("hand.last_draw", points=change) if points else msg("hand.last_draw_even")
    if result.winner == seat:
        return msg("hand.last_won", points=change)
    return msg("hand.last_lost", name=name_at(names, result.winner), points=change)


def _alert_key(prompt: PrivatePrompt) -> int:
    """What names one decision across repeated prompts: its deadline (a seat keeps its
    deadline while others answer the same claim window), else the turn."""
    return int(prompt.deadline * 1000) if prompt.deadline is not None else prompt.turn_id


def hand_signature(prompt: PrivatePrompt) -> tuple[Any, ...]:
    """What the player sees: equal signatures mean an edit would change nothing."""
    view = prompt.view
    actionable = prompt.kind != "idle"
    return (
        prompt.table_id,
        view.public.hand_number,
        view.concealed,
        view.drawn,
        view.melds,
        prompt.kind,
        tuple(a.describe() for a in view.legal) if actionable else (),
        prompt.turn_id if actionable else None,
        prompt.autoplay,
        prompt.toggles,
        prompt.note,
    )


def _is_dm_closed(error: discord.HTTPException) -> bool:
    return error.status == 403 and error.code == DM_CLOSED_CODE
