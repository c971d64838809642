"""An offline Discord for full-stack tests: real discord.py dispatch, no network.

Raw ``INTERACTION_CREATE`` payloads go through the client's own ``ConnectionState``
(``parse_interaction_create``), so the command tree, the transformers, autocomplete and
dynamic components all run exactly as in production. The two seams where discord.py
talks to Discord are replaced:

- ``HTTPClient.request`` (bot-token REST: channel messages, DMs, command sync), and
- the interaction webhook adapter (``discord.webhook.async_.async_context``: interaction
  callbacks, followups, ``@original`` edits).

Both record every request with its *audience* (a channel, one user's DM, or one user's
ephemeral view) and answer with realistic payloads. The harness touches discord.py
internals, which is why the project pins discord.py (2.7.1).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.http import Route
from discord.webhook import async_ as webhook_async

if not discord.__version__.startswith("2.7."):  # pragma: no cover - a loud, early failure
    raise RuntimeError(
        f"the offline harness is written against discord.py 2.7 internals "
        f"(ConnectionState, HTTPClient.request, the webhook adapter); found {discord.__version__}"
    )

GUILD_ID = 900_000_000_000_000_001
CHANNEL_ID = 900_000_000_000_000_010
OTHER_CHANNEL_ID = 900_000_000_000_000_011
APPLICATION_ID = 900_000_000_000_000_100
BOT_USER_ID = APPLICATION_ID
OWNER_ID = 900_000_000_000_000_500

MANAGE_GUILD = 1 << 5
DEFAULT_PERMISSIONS = (
    (
        discord.Permissions.general().value
        | discord.Permissions.text().value
        | discord.Permissions.voice().value
    )
    & ~MANAGE_GUILD
    & ~discord.Permissions.administrator.flag
)
ADMIN_PERMISSIONS = discord.Permissions.all().value

EPHEMERAL_FLAG = 1 << 6

# Interaction callback types (Discord API).
CALLBACK_MESSAGE = 4
CALLBACK_DEFER_MESSAGE = 5
CALLBACK_DEFER_UPDATE = 6
CALLBACK_UPDATE = 7
CALLBACK_AUTOCOMPLETE = 8
ACK_TYPES = {CALLBACK_MESSAGE, CALLBACK_DEFER_MESSAGE, CALLBACK_DEFER_UPDATE, CALLBACK_UPDATE}


def _snowflakes(start: int) -> Iterable[int]:
    return itertools.count(start)


@dataclass
class Audience:
    """Who can see a message: ``kind`` is "channel", "dm" or "ephemeral"."""

    kind: str
    channel_id: int | None = None
    user_id: int | None = None

    def __str__(self) -> str:
        if self.kind == "channel":
            return f"channel:{self.channel_id}"
        return f"{self.kind}:{self.user_id}"


@dataclass
class Request:
    """One request the bot made. ``files`` are (filename, bytes)."""

    transport: str  # "rest" | "webhook"
    method: str
    path: str
    url: str
    payload: dict[str, Any] | None
    files: list[tuple[str, bytes]]
    audience: Audience | None
    interaction_id: int | None = None
    callback_type: int | None = None
    status: int = 200
    at: float = 0.0

    @property
    def content(self) -> str:
        if not self.payload:
            return ""
        data = self.payload.get("data", self.payload) if self.callback_type else self.payload
        return (data or {}).get("content") or ""


@dataclass
class StoredMessage:
    id: int
    channel_id: int
    audience: Audience
    payload: dict[str, Any]
    files: list[tuple[str, bytes]] = field(default_factory=list)

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.payload.get("components") or []

    def custom_ids(self) -> list[str]:
        ids: list[str] = []
        for row in self.components:
            for component in row.get("components", []):
                if "custom_id" in component:
                    ids.append(component["custom_id"])
        return ids

    def component(self, prefix: str) -> dict[str, Any] | None:
        for row in self.components:
            for component in row.get("components", []):
                if component.get("custom_id", "").startswith(prefix):
                    return component
        return None


@dataclass
class InteractionRecord:
    id: int
    token: str
    user_id: int
    channel_id: int | None
    in_dm: bool
    message_id: int | None
    dispatched_at: float
    acked_at: float | None = None
    callback_type: int | None = None
    original_message_id: int | None = None


class _FakeResponse:
    """Just enough of aiohttp's response for discord.HTTPException."""

    def __init__(self, status: int, reason: str = "") -> None:
        self.status = status
        self.reason = reason


class FakeDiscord:
    """The remote side: users, channels, messages, and a log of every request."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.messages: dict[int, StoredMessage] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.dm_owner: dict[int, int] = {}  # DM channel id -> user id
        self.dm_closed: set[int] = set()
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.commands: list[dict[str, Any]] = []
        self._ids = _snowflakes(1_000_000_000_000_000_000)
        self._faults: list[list[Any]] = []  # [method, route template, status, code, times left]

    def next_id(self) -> int:
        return next(self._ids)

    def fail_next(
        self, method: str, path: str, status: int, *, times: int = 1, code: int = 0
    ) -> None:
        """The next ``times`` requests with this HTTP method and discord.py route template
        (e.g. "/channels/{channel_id}/messages/{message_id}") fail with ``status``."""
        self._faults.append([method, path, status, code, times])

    def _inject_fault(self, request: Request) -> None:
        for fault in self._faults:
            method, path, status, code, left = fault
            if left > 0 and method == request.method and path == request.path:
                fault[4] -= 1
                request.status = status
                response = _FakeResponse(status, "Injected")
                data = {"code": code, "message": f"injected {status}"}
                if status >= 500:
                    raise discord.DiscordServerError(response, data)
                if status == 404:
                    raise discord.NotFound(response, data)
                if status == 403:
                    raise discord.Forbidden(response, data)
                raise discord.HTTPException(response, data)

    # ------------------------------------------------------------------ payload builders

    def user_payload(self, user_id: int) -> dict[str, Any]:
        return self.users.get(
            user_id,
            {"id": str(user_id), "username": f"user{user_id % 10000}", "discriminator": "0",
             "global_name": None, "avatar": None},
        )  # fmt: skip

    def _message_payload(
        self, message_id: int, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        attachments = [
            {
                "id": str(self.next_id()),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.discordapp.com/attachments/{channel_id}/{message_id}/{name}",
                "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/{message_id}/{name}",
            }
            for name, data in files
        ]
        return {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "type": 0,
            "content": body.get("content") or "",
            "author": {**self.user_payload(BOT_USER_ID), "bot": True},
            "attachments": attachments,
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "tts": False,
            "timestamp": "2026-01-05T12:00:00.000000+00:00",
            "edited_timestamp": None,
            "flags": body.get("flags") or 0,
        }

    def _store(
        self,
        channel_id: int,
        audience: Audience,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
        message_id: int | None = None,
    ) -> StoredMessage:
        message_id = message_id or self.next_id()
        payload = self._message_payload(message_id, channel_id, body, files)
        stored = StoredMessage(message_id, channel_id, audience, payload, files)
        self.messages[message_id] = stored
        return stored

    def _edit(
        self, message_id: int, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> StoredMessage:
        stored = self.messages[message_id]
        for key in ("content", "components", "embeds", "flags"):
            if key in body and body[key] is not None:
                stored.payload[key] = body[key]
            elif key in body:
                stored.payload[key] = [] if key != "content" else ""
        if files or "attachments" in body:
            # Attachments the edit names by id are kept; new files are added; the rest go.
            kept_ids = {
                str(k.get("id")) for k in body.get("attachments") or [] if "filename" not in k
            }
            kept = [a for a in stored.payload["attachments"] if a["id"] in kept_ids]
            new = self._message_payload(message_id, stored.channel_id, {}, files)["attachments"]
            stored.payload["attachments"] = kept + new
            stored.files = list(files) if files else (stored.files if kept else [])
        stored.payload["edited_timestamp"] = "2026-01-05T12:00:01.000000+00:00"
        return stored

    def channel_audience(self, channel_id: int) -> Audience:
        if channel_id in self.dm_owner:
            return Audience("dm", channel_id, self.dm_owner[channel_id])
        return Audience("channel", channel_id)

    # ------------------------------------------------------------------ REST (bot token)

    async def rest(
        self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        payload, file_list = _decode(kwargs.get("json"), form, files)
        channel_id = int(route.channel_id) if route.channel_id is not None else None
        audience = self.channel_audience(channel_id) if channel_id is not None else None
        request = Request(
            "rest", route.method, route.path, route.url, payload, file_list, audience,
            at=time.perf_counter(),
        )  # fmt: skip
        self.requests.append(request)
        self._inject_fault(request)
        method, path = route.method, route.path
        if method == "POST" and path == "/users/@me/channels":
            user_id = int(payload["recipient_id"])
            channel = self.dm_channels.get(user_id) or self.next_id()
            self.dm_channels[user_id] = channel
            self.dm_owner[channel] = user_id
            request.audience = Audience("dm", channel, user_id)
            return {"id": str(channel), "type": 1, "recipients": [self.user_payload(user_id)],
                    "last_message_id": None}  # fmt: skip
        if method == "POST" and path == "/channels/{channel_id}/messages":
            assert channel_id is not None
            owner = self.dm_owner.get(channel_id)
            if owner is not None and owner in self.dm_closed:
                request.status = 403
                raise discord.Forbidden(
                    _FakeResponse(403, "Forbidden"),
                    {"code": 50007, "message": "Cannot send messages to this user"},
                )
            return self._store(channel_id, self.channel_audience(channel_id), payload or {},
                               file_list).payload  # fmt: skip
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            message_id = int(route.url.rsplit("/", 1)[1])
            if message_id not in self.messages:
                request.status = 404
                raise discord.NotFound(
                    _FakeResponse(404, "Not Found"), {"code": 10008, "message": "Unknown Message"}
                )
            return self._edit(message_id, payload or {}, file_list).payload
        if method == "PUT" and path.endswith("/commands"):
            self.commands = [
                {**command, "id": str(self.next_id()), "application_id": str(APPLICATION_ID),
                 "version": "1"}
                for command in payload or []
            ]  # fmt: skip
            return self.commands
        if method == "GET" and path.endswith("/commands"):
            return self.commands
        raise AssertionError(f"the fake Discord does not know {method} {path}")

    # ------------------------------------------------------------------ interaction webhooks

    async def webhook(
        self,
        route: Route,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Any = None,
        **kwargs: Any,
    ) -> Any:
        body, file_list = _decode(payload, multipart, files)
        path, method = route.path, route.method
        now = time.perf_counter()
        request = Request("webhook", method, path, route.url, body, file_list, None, at=now)
        self.requests.append(request)
        self._inject_fault(request)
        token = str(route.webhook_token)
        record = self.by_token.get(token)
        if record is None:
            raise AssertionError(f"unknown interaction token {token!r}")
        request.interaction_id = record.id
        if path.endswith("/callback"):
            callback_type = int((body or {})["type"])
            data = (body or {}).get("data") or {}
            request.callback_type = callback_type
            if record.callback_type is not None:
                request.status = 400
                raise discord.HTTPException(
                    _FakeResponse(400, "Bad Request"),
                    {"code": 40060, "message": "Interaction has already been acknowledged."},
                )
            record.callback_type = callback_type
            record.acked_at = now
            result: dict[str, Any] = {
                "interaction": {"id": str(record.id), "type": 3,
                                "response_message_loading": callback_type == CALLBACK_DEFER_MESSAGE,
                                "response_message_ephemeral": bool(data.get("flags", 0) & EPHEMERAL_FLAG)},
            }  # fmt: skip
            if callback_type in (CALLBACK_MESSAGE, CALLBACK_DEFER_MESSAGE):
                audience = self._reply_audience(record, data.get("flags", 0))
                request.audience = audience
                channel = record.channel_id or 0
                stored = self._store(channel, audience, data, file_list)
                record.original_message_id = stored.id
                result["interaction"]["response_message_id"] = str(stored.id)
                result["resource"] = {"type": callback_type, "message": stored.payload}
            elif callback_type in (CALLBACK_UPDATE, CALLBACK_DEFER_UPDATE):
                assert record.message_id is not None, "update on an interaction with no message"
                stored = self.messages[record.message_id]
                request.audience = stored.audience
                record.original_message_id = stored.id
                if callback_type == CALLBACK_UPDATE:
                    self._edit(stored.id, data, file_list)
                    result["resource"] = {"type": 7, "message": stored.payload}
            return result
        if "/messages/@original" in path:
            if record.original_message_id is None:
                raise discord.NotFound(
                    _FakeResponse(404), {"code": 10008, "message": "Unknown Message"}
                )
            stored = self.messages[record.original_message_id]
            request.audience = stored.audience
            if method == "PATCH":
                self._edit(stored.id, body or {}, file_list)
            return stored.payload
        if method == "POST":  # followup
            audience = self._reply_audience(record, (body or {}).get("flags", 0))
            request.audience = audience
            return self._store(record.channel_id or 0, audience, body or {}, file_list).payload
        raise AssertionError(f"the fake Discord does not know webhook {method} {path}")

    def _reply_audience(self, record: InteractionRecord, flags: int) -> Audience:
        if flags & EPHEMERAL_FLAG:
            return Audience("ephemeral", record.channel_id, record.user_id)
        if record.in_dm:
            return Audience("dm", record.channel_id, record.user_id)
        return Audience("channel", record.channel_id)


def _decode(
    payload: dict[str, Any] | None, form: Any, files: Any
) -> tuple[dict[str, Any] | None, list[tuple[str, bytes]]]:
    """The JSON body and the files of a request, however discord.py packed them."""
    body = payload
    for part in form or []:
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
    file_list: list[tuple[str, bytes]] = []
    for file in files or []:
        fp = file.fp
        position = fp.tell()
        fp.seek(0)
        file_list.append((file.filename, fp.read()))
        fp.seek(position)
    return body, file_list


class _FakeWebhookAdapter(webhook_async.AsyncWebhookAdapter):
    def __init__(self, remote: FakeDiscord) -> None:
        super().__init__()
        self.remote = remote

    async def request(self, route: Route, session: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return await self.remote.webhook(route, **kwargs)


class _NoSession:
    """Stands where aiohttp's session would be; any use of it is a bug in the harness."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the offline harness has no network session ({name})")


def guild_payload(members: dict[int, tuple[str, int]]) -> dict[str, Any]:
    """A GUILD_CREATE-like payload: one guild, two text channels, members with permissions.

    ``members`` maps user id -> (name, permission bits); each member gets a role with
    those bits, as Discord computes permissions from roles.
    """
    roles = [{"id": str(GUILD_ID), "name": "@everyone", "permissions": "0", "position": 0,
              "color": 0, "hoist": False, "managed": False, "mentionable": False}]  # fmt: skip
    member_payloads = []
    for user_id, (name, permissions) in members.items():
        role_id = user_id + 1
        roles.append({"id": str(role_id), "name": f"r{name}", "permissions": str(permissions),
                      "position": 1, "color": 0, "hoist": False, "managed": False,
                      "mentionable": False})  # fmt: skip
        member_payloads.append(
            {
                "user": {
                    "id": str(user_id),
                    "username": name,
                    "discriminator": "0",
                    "global_name": name,
                    "avatar": None,
                },
                "roles": [str(role_id)],
                "joined_at": "2025-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
            }
        )
    channels = [
        {"id": str(CHANNEL_ID), "type": 0, "name": "mahjong", "position": 0,
         "permission_overwrites": [], "guild_id": str(GUILD_ID)},
        {"id": str(OTHER_CHANNEL_ID), "type": 0, "name": "leaderboard", "position": 1,
         "permission_overwrites": [], "guild_id": str(GUILD_ID)},
    ]  # fmt: skip
    return {
        "id": str(GUILD_ID), "name": "Test Guild", "owner_id": str(OWNER_ID), "roles": roles,
        "channels": channels, "members": member_payloads, "member_count": len(member_payloads),
        "emojis": [], "stickers": [], "features": [], "threads": [], "voice_states": [],
        "presences": [], "large": False, "preferred_locale": "zh-CN", "unavailable": False,
    }  # fmt: skip


class Harness:
    """Drives one bot: log it in offline, dispatch interactions, wait for the work to settle.

    ``users`` maps user id -> (name, permissions). ``clock`` is the fake clock the bot's
    sessions and presenter use; ``advance`` moves it and lets due timers run.
    """

    def __init__(
        self,
        bot: discord.Client,
        users: dict[int, tuple[str, int]],
        clock: Any = None,
        remote: FakeDiscord | None = None,
    ):
        self.bot = bot
        self.remote = remote or FakeDiscord()  # pass the old one to "restart" against it
        self.users = users
        self.clock = clock
        for user_id, (name, _perms) in users.items():
            self.remote.users[user_id] = {"id": str(user_id), "username": name,
                                          "discriminator": "0", "global_name": name,
                                          "avatar": None}  # fmt: skip
        self._token = None

    async def start(self) -> None:
        """What ``login`` + ``connect`` would do, without a gateway or a token."""
        bot = self.bot
        bot.http.request = self.remote.rest  # type: ignore[method-assign]
        bot.http._HTTPClient__session = _NoSession()  # type: ignore[attr-defined]
        self._token = webhook_async.async_context.set(_FakeWebhookAdapter(self.remote))
        await bot._async_setup_hook()
        state = bot._connection
        state.user = discord.ClientUser(state=state, data={**self.remote.user_payload(BOT_USER_ID),
                                                           "id": str(BOT_USER_ID),
                                                           "username": "mahjong", "bot": True,
                                                           "verified": True, "mfa_enabled": False})  # fmt: skip
        state.application_id = APPLICATION_ID
        await bot.setup_hook()
        state._add_guild_from_data(guild_payload(self.users))  # type: ignore[arg-type]
        await self.settle()

    async def close(self) -> None:
        close = getattr(self.bot, "shutdown", None)
        if close is not None:
            await close()
        if self._token is not None:
            webhook_async.async_context.reset(self._token)
            self._token = None

    # ------------------------------------------------------------------ dispatch

    def _member(self, user_id: int) -> dict[str, Any]:
        _name, permissions = self.users[user_id]
        return {
            "user": self.remote.user_payload(user_id),
            "roles": [str(user_id + 1)],
            "permissions": str(permissions),
            "joined_at": "2025-01-01T00:00:00+00:00",
            "deaf": False, "mute": False, "flags": 0, "nick": None, "avatar": None,
        }  # fmt: skip

    def _base(
        self, kind: int, user_id: int, channel_id: int | None, locale: str
    ) -> tuple[dict[str, Any], InteractionRecord]:
        interaction_id = self.remote.next_id() + 4_000_000_000_000_000_000
        token = f"tok{interaction_id}"
        in_dm = channel_id is not None and channel_id in self.remote.dm_owner
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(APPLICATION_ID), "type": kind,
            "token": token, "version": 1, "locale": locale, "app_permissions": str(ADMIN_PERMISSIONS),
            "attachment_size_limit": 10 * 1024 * 1024, "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
        }  # fmt: skip
        if in_dm:
            payload["channel"] = {"id": str(channel_id), "type": 1,
                                  "recipients": [self.remote.user_payload(user_id)]}  # fmt: skip
            payload["channel_id"] = str(channel_id)
            payload["user"] = self.remote.user_payload(user_id)
            payload["context"] = 1
        else:
            channel_id = channel_id or CHANNEL_ID
            payload.update({"guild_id": str(GUILD_ID), "guild_locale": "zh-CN",
                            "channel_id": str(channel_id), "member": self._member(user_id),
                            "channel": {"id": str(channel_id), "type": 0, "name": "mahjong",
                                        "guild_id": str(GUILD_ID), "position": 0,
                                        "permission_overwrites": []},
                            "context": 0})  # fmt: skip
        record = InteractionRecord(
            interaction_id, token, user_id, channel_id, in_dm, None, time.perf_counter()
        )
        self.remote.interactions[interaction_id] = record
        self.remote.by_token[token] = record
        return payload, record

    async def command(
        self,
        user_id: int,
        name: str,
        options: list[dict[str, Any]] | None = None,
        *,
        channel_id: int | None = None,
        locale: str = "zh-CN",
        settle: bool = True,
    ) -> InteractionRecord:
        """Invoke ``/name`` (``"table create"`` for a subcommand) with raw option dicts."""
        payload, record = self._base(2, user_id, channel_id, locale)
        payload["data"] = _command_data(name, options or [], self._command_id(name))
        payload["data"]["resolved"] = self._resolved(options or [])
        if "guild_id" in payload:
            payload["data"]["guild_id"] = payload["guild_id"]
        record.dispatched_at = time.perf_counter()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        if settle:
            await self.settle()
        return record

    async def autocomplete(
        self,
        user_id: int,
        name: str,
        options: list[dict[str, Any]],
        *,
        locale: str = "zh-CN",
    ) -> list[dict[str, Any]]:
        """Type into a focused option (mark it ``"focused": True``); returns the choices."""
        payload, record = self._base(4, user_id, None, locale)
        payload["data"] = _command_data(name, options, self._command_id(name))
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        answers = [
            r for r in self.remote.requests
            if r.interaction_id == record.id and r.callback_type == CALLBACK_AUTOCOMPLETE
        ]  # fmt: skip
        assert answers, "autocomplete was not answered"
        return answers[-1].payload["data"]["choices"]  # type: ignore[index]

    async def click(
        self,
        user_id: int,
        message: StoredMessage | int,
        custom_id: str,
        values: list[str] | None = None,
        *,
        locale: str = "zh-CN",
        settle: bool = True,
    ) -> InteractionRecord:
        """Press a button (or choose ``values`` in a select) on a message Discord holds."""
        stored = self.remote.messages[message] if isinstance(message, int) else message
        channel_id = stored.channel_id
        payload, record = self._base(3, user_id, channel_id, locale)
        record.message_id = stored.id
        component = None
        for row in stored.components:
            for item in row.get("components", []):
                if item.get("custom_id") == custom_id:
                    component = item
        assert component is not None, f"{custom_id!r} is not on message {stored.id}"
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            data["values"] = values
        payload["data"] = data
        message_payload = dict(stored.payload)
        if stored.audience.kind == "ephemeral":
            message_payload["flags"] = message_payload.get("flags", 0) | EPHEMERAL_FLAG
        payload["message"] = message_payload
        record.dispatched_at = time.perf_counter()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        if settle:
            await self.settle()
        return record

    def _resolved(self, options: list[dict[str, Any]]) -> dict[str, Any]:
        """Discord resolves user and channel options into full objects next to the ids."""
        resolved: dict[str, Any] = {}
        for item in options:
            if item["type"] == 6:
                user_id = int(item["value"])
                member = self._member(user_id) if user_id in self.users else None
                resolved.setdefault("users", {})[str(user_id)] = self.remote.user_payload(user_id)
                if member is not None:
                    member = {k: v for k, v in member.items() if k != "user"}
                    resolved.setdefault("members", {})[str(user_id)] = member
            elif item["type"] == 7:
                channel_id = str(item["value"])
                resolved.setdefault("channels", {})[channel_id] = {
                    "id": channel_id, "type": 0, "name": "leaderboard",
                    "permissions": str(ADMIN_PERMISSIONS), "guild_id": str(GUILD_ID),
                }  # fmt: skip
        return resolved

    def _command_id(self, name: str) -> str:
        top = name.split()[0]
        for command in self.remote.commands:
            if command["name"] == top:
                return command["id"]
        return str(abs(hash(top)) % 10**18)

    # ------------------------------------------------------------------ waiting

    async def settle(self, rounds: int = 3) -> None:
        """Run until discord.py's and the bot's pending work is done and nothing new starts.

        Timers waiting on the fake clock stay asleep (they run on ``advance``).
        """
        quiet = 0
        while quiet < rounds:
            before = len(self.remote.requests)
            pending = [
                task for task in asyncio.all_tasks()
                if task is not asyncio.current_task() and not task.done() and _is_work(task)
            ]  # fmt: skip
            if pending:
                _done, stuck = await asyncio.wait(pending, timeout=10)
                if stuck:
                    names = sorted(task.get_name() for task in stuck)
                    raise AssertionError(f"work did not finish: {names}")
            for _ in range(5):
                await asyncio.sleep(0)
            idle = getattr(self.bot, "wait_idle", None)
            if idle is not None:
                await idle()
            quiet = quiet + 1 if not pending and len(self.remote.requests) == before else 0

    async def advance(self, seconds: float) -> None:
        """Move the fake clock forward (timers due by then fire), then settle."""
        assert self.clock is not None, "this harness has no fake clock"
        step = 0.5
        remaining = seconds
        while remaining > 1e-9:
            delta = min(step, remaining)
            result = self.clock.advance(delta)
            if asyncio.iscoroutine(result):
                await result
            remaining -= delta
            await self.settle()

    # ------------------------------------------------------------------ reading what happened

    def dm_messages(self, user_id: int) -> list[StoredMessage]:
        channel = self.remote.dm_channels.get(user_id)
        return [m for m in self.remote.messages.values() if m.channel_id == channel and channel]

    def latest_dm(self, user_id: int) -> StoredMessage | None:
        messages = self.dm_messages(user_id)
        return messages[-1] if messages else None

    def channel_messages(self, channel_id: int = CHANNEL_ID) -> list[StoredMessage]:
        return [
            m for m in self.remote.messages.values()
            if m.channel_id == channel_id and m.audience.kind == "channel"
        ]  # fmt: skip

    def ephemeral_messages(self, user_id: int) -> list[StoredMessage]:
        return [
            m for m in self.remote.messages.values()
            if m.audience.kind == "ephemeral" and m.audience.user_id == user_id
        ]  # fmt: skip

    def replies_to(self, record: InteractionRecord) -> list[Request]:
        return [r for r in self.remote.requests if r.interaction_id == record.id]

    def reply_text(self, record: InteractionRecord) -> str:
        """All text the user saw in answer to one interaction."""
        texts = []
        for request in self.replies_to(record):
            body = request.payload or {}
            data = body.get("data", body) if request.callback_type else body
            if isinstance(data, dict):
                texts.append(data.get("content") or "")
                for embed in data.get("embeds") or []:
                    texts.append(embed.get("title") or "")
                    texts.append(embed.get("description") or "")
        return "\n".join(t for t in texts if t)

    def ack_latencies(self) -> list[float]:
        """Seconds from dispatch to the acknowledging callback, per acknowledged interaction."""
        return [
            record.acked_at - record.dispatched_at
            for record in self.remote.interactions.values()
            if record.acked_at is not None and record.callback_type in ACK_TYPES
        ]


def _is_work(task: asyncio.Task[Any]) -> bool:
    """Tasks the harness waits for: discord.py's dispatch and the bot's named work tasks."""
    name = task.get_name()
    return name.startswith(("CommandTree-invoker", "discord-ui-", "mj-work", "discord.py: on_"))


def _command_data(name: str, options: list[dict[str, Any]], command_id: str) -> dict[str, Any]:
    parts = name.split()
    nested = options
    for sub in reversed(parts[1:]):
        nested = [{"name": sub, "type": 1, "options": nested}]
    return {"id": command_id, "name": parts[0], "type": 1, "options": nested}


def option(name: str, value: Any, kind: int | None = None, focused: bool = False) -> dict[str, Any]:
    """A raw option as Discord sends it; ``kind`` defaults from the value's Python type."""
    if kind is None:
        kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3
    data: dict[str, Any] = {"name": name, "type": kind, "value": value}
    if focused:
        data["focused"] = True
    return data


# ---------------------------------------------------------------------- test helpers


class TagRenderer:
    """A renderer whose "images" say what they show, so tests can check who got what.

    A hand image names its seat and tiles; nothing else contains ``HAND``.
    """

    def hand(self, view: Any, names: Any, locale: str) -> bytes:
        return f"HAND seat={view.seat} tiles={list(view.all_concealed)}".encode()

    def table(self, view: Any, names: Any, locale: str) -> bytes:
        return f"TABLE turn={view.turn_id}".encode()

    def result(self, view: Any, result: Any, names: Any, locale: str) -> bytes:
        return f"RESULT winner={result.winner}".encode()

    def leaderboard(self, rows: Any, period: str, subtitle: str, locale: str) -> bytes:
        return f"BOARD {period} {len(list(rows))}".encode()


def choose_move(message: StoredMessage) -> tuple[str, list[str] | None] | None:
    """A simple player: win if offered, else continue/pass a claim, else discard the
    drawn tile (the last option), else any button. None when nothing is offered."""
    ids = [cid for cid in message.custom_ids() if cid.startswith("mj:a:")]
    for code in (":win", ":cont", ":pass"):
        for custom_id in ids:
            if code in custom_id:
                return custom_id, None
    select = message.component("mj:d:")
    if select is not None and not select.get("disabled"):
        return select["custom_id"], [select["options"][-1]["value"]]
    if ids:
        return ids[0], None
    return None
