"""An offline Discord for full-stack tests: real discord.py dispatch and HTTP, no network.

Raw ``INTERACTION_CREATE`` payloads go through the client's own ``ConnectionState``
(``parse_interaction_create``), so the command tree, the transformers, autocomplete and
dynamic components all run exactly as in production. Discord's servers are replaced one
level below discord.py: :class:`FakeSession` stands where aiohttp's ``ClientSession``
stands, so discord.py's ``HTTPClient.request`` (bot-token routes) and its interaction
webhook adapter (callbacks, followups, ``@original``) run for real, with their rate-limit
buckets and retries, and :class:`FakeDiscord` answers what Discord would answer:

- every body is checked against Discord's OpenAPI request schema of its route and the
  documented limits (``discord_rules``); a violation is answered 400 / 50035 and recorded,
  and :meth:`Harness.close` fails the test on any (even if the bot swallowed the error);
- an interaction not acknowledged within 3 s of the fake clock gets 10062, a token older
  than 15 minutes gets 50027, a deferred reply's first followup replaces the "thinking"
  message with the defer's visibility;
- messages live in their channel: an edit through another channel is 404 / 10008;
- ``fail_next`` injects HTTP failures that discord.py's own retry logic sees.

The harness touches discord.py internals, which is why the project pins discord.py (2.7.1).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import discord
import discord.http
from discord.webhook import async_ as webhook_async
from discord_rules import (
    FLAGS_CHANNEL_CREATE,
    FLAGS_DEFERRED_REPLY,
    FLAGS_EDIT,
    FLAGS_FOLLOWUP,
    FLAGS_INTERACTION_REPLY,
    LOADING,
    Violation,
    autocomplete_violations,
    command_violations,
    form_errors,
    message_violations,
    schema_violations,
    spec_has_route,
)
from multidict import CIMultiDict

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
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
ATTACH_FILES = 1 << 15
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
THREAD_PERMISSIONS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
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
CALLBACK_MODAL = 9
ACK_TYPES = {CALLBACK_MESSAGE, CALLBACK_DEFER_MESSAGE, CALLBACK_DEFER_UPDATE, CALLBACK_UPDATE}
NONCE_WINDOW = 120.0  # seconds Discord keeps an enforced nonce ("a few minutes")


def _snowflakes(start: int) -> Iterator[int]:
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

    def descriptions(self) -> list[str | None]:
        """Each attachment's alt text, as Discord keeps it."""
        return [attachment.get("description") for attachment in self.payload["attachments"]]

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
    kind: int = 3  # the interaction type: 2 command, 3 component, 4 autocomplete
    dispatched_clock: float = 0.0  # on the fake clock: Discord's 3 s and 15 min count from here
    acked_clock: float | None = None
    failed: bool = False  # acknowledged too late: Discord answered 10062 and the user saw a failure
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None  # the modal this interaction answered with (type 9)


@dataclass
class FaultRule:
    """``fail_next``'s pending answers for one (method, route template)."""

    method: str
    path: str
    status: int
    remaining: int
    code: int


@dataclass
class Thread:
    id: int
    parent_id: int
    name: str
    archived: bool = False
    locked: bool = False


# (method, discord.py's route template, the spec's path for the same route)
ROUTES: list[tuple[str, str, str]] = [
    ("POST", "/users/@me/channels", "/users/@me/channels"),
    ("POST", "/channels/{channel_id}/messages", "/channels/{channel_id}/messages"),
    ("GET", "/channels/{channel_id}/messages", "/channels/{channel_id}/messages"),
    ("GET", "/channels/{channel_id}/messages/{message_id}",
     "/channels/{channel_id}/messages/{message_id}"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}",
     "/channels/{channel_id}/messages/{message_id}"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}",
     "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads",
     "/channels/{channel_id}/messages/{message_id}/threads"),
    ("PATCH", "/channels/{channel_id}", "/channels/{channel_id}"),
    ("GET", "/applications/{application_id}/commands", "/applications/{application_id}/commands"),
    ("PUT", "/applications/{application_id}/commands", "/applications/{application_id}/commands"),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands",
     "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands",
     "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
     "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}", "/webhooks/{webhook_id}/{webhook_token}"),
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
     "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
     "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
     "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
     "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
     "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
]  # fmt: skip


def _template_regex(template: str) -> re.Pattern[str]:
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
    return re.compile(f"^{pattern}$")


_ROUTE_PATTERNS = [(m, t, s, _template_regex(t)) for m, t, s in ROUTES]


def match_route(method: str, path: str) -> tuple[str, str, dict[str, str]] | None:
    """(discord.py template, spec path, parameters) of a request path; literal segments
    such as ``@original`` win over a parameter because they are listed first."""
    for route_method, template, spec_path, pattern in _ROUTE_PATTERNS:
        found = pattern.match(path)
        if route_method == method and found:
            return template, spec_path, found.groupdict()
    return None


class HTTPError(Exception):
    """An answer other than 2xx; ``violations`` are the rules the body broke."""

    def __init__(
        self, status: int, code: int, message: str, violations: list[Violation] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.violations = violations or []

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.violations:
            body["errors"] = form_errors(self.violations)
        return body


REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized",
           403: "Forbidden", 404: "Not Found", 429: "Too Many Requests",
           500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
           504: "Gateway Timeout"}  # fmt: skip


class FakeResponse:
    """What discord.py reads of an aiohttp response: status, reason, headers, text."""

    def __init__(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = REASONS.get(status, "")
        self.headers: CIMultiDict[str] = CIMultiDict(headers or {})
        self._text = "" if body is None else json.dumps(body)
        if body is not None:
            self.headers["Content-Type"] = "application/json"

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def json(self) -> Any:
        return json.loads(self._text)

    async def read(self) -> bytes:
        return self._text.encode()

    def release(self) -> None:
        return None


class _RequestContext:
    def __init__(self, remote: FakeDiscord, method: str, url: str, kwargs: dict[str, Any]):
        self._call = (remote, method, url, kwargs)

    async def __aenter__(self) -> FakeResponse:
        remote, method, url, kwargs = self._call
        return await remote.serve(method, url, kwargs.get("data"), kwargs.get("params"))

    async def __aexit__(self, *exc: object) -> None:
        return None


class FakeSession:
    """Stands where discord.py's ``aiohttp.ClientSession`` stands: every request discord.py
    makes (its bot-token ``HTTPClient`` and the interaction webhook adapter alike) arrives
    here as method, URL and body, after discord.py's own rate limiting and before its retry
    logic, and the answer goes back as an HTTP response."""

    closed = False

    def __init__(self, remote: FakeDiscord) -> None:
        self.remote = remote

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        return _RequestContext(self.remote, method, url, kwargs)

    async def close(self) -> None:
        self.closed = True

    async def ws_connect(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the offline harness has no gateway")


class FakeDiscord:
    """The remote side: users, channels, messages, and a log of every request.

    It answers HTTP through :meth:`session`; bodies are checked against Discord's request
    schemas and documented limits (``discord_rules``). A broken rule is answered 400/50035
    and kept in ``violations``, which :meth:`Harness.close` turns into a test failure.
    ``clock`` (a ``FakeClock`` or None for real time) times the 3-second acknowledgement
    and the 15-minute token life.
    """

    ACK_DEADLINE = 3.0
    TOKEN_LIFETIME = 15 * 60.0

    def __init__(self, first_id: int = 1_000_000_000_000_000_000) -> None:
        """``first_id``: where its snowflakes start (a Discord seen by another process
        takes other ids, so a message copied between them keeps its own)."""
        self.requests: list[Request] = []
        self.messages: dict[int, StoredMessage] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.dm_owner: dict[int, int] = {}  # DM channel id -> user id
        self.dm_closed: set[int] = set()
        self.threads: dict[int, Thread] = {}
        # Permissions a channel's overwrites deny the bot there (``Harness.deny_bot_in``).
        self.channel_denials: dict[int, int] = {}
        self.deleted_channels: set[int] = set()  # ``Harness.delete_channel``
        # The bot's permissions in guild channels: interactions report them as
        # ``app_permissions`` and the thread routes check them (403 / 50013 without).
        # By default the bot lacks the thread permissions (as invited before tables had
        # threads), so a table opens in the channel itself; ``Harness(threads=True)``
        # grants them.
        self.bot_permissions: int = ADMIN_PERMISSIONS & ~THREAD_PERMISSIONS
        # Gateway events Discord sends the bot after a request (THREAD_CREATE, ...): the
        # harness dispatches them through discord.py's ConnectionState.
        self.gateway: Any = None
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.violations: list[Violation] = []
        self.faults: list[FaultRule] = []
        self.retry_sleeps: list[float] = []  # seconds discord.py asked to sleep before a retry
        self.clock: Any = None
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}  # enforce_nonce dedupe
        self._ids = _snowflakes(first_id)

    def next_id(self) -> int:
        return next(self._ids)

    def now(self) -> float:
        return float(self.clock.now()) if self.clock is not None else time.monotonic()

    def session(self) -> FakeSession:
        return FakeSession(self)

    # ------------------------------------------------------------------ fault injection

    def fail_next(
        self, method: str, path: str, status: int, *, times: int = 1, code: int = 0
    ) -> None:
        """Answer the next ``times`` requests of ``method`` on the discord.py route template
        ``path`` with ``status`` (a JSON body carrying ``code``). The answers are real HTTP
        answers, so discord.py's retries apply: a 502 once is retried and then succeeds; a
        429 carries ``retry_after`` and is waited out."""
        if not any(m == method and t == path for m, t, _s in ROUTES):
            raise AssertionError(f"the fake Discord has no route {method} {path}")
        self.faults.append(FaultRule(method, path, status, times, code))

    def _take_fault(self, method: str, template: str) -> FaultRule | None:
        for rule in self.faults:
            if rule.method == method and rule.path == template and rule.remaining > 0:
                rule.remaining -= 1
                if rule.remaining == 0:
                    self.faults.remove(rule)
                return rule
        return None

    def new_interaction(
        self,
        kind: int,
        user_id: int,
        channel_id: int | None,
        *,
        in_dm: bool = False,
        message_id: int | None = None,
    ) -> InteractionRecord:
        """Register an interaction Discord is about to deliver; its clocks start now."""
        interaction_id = self.next_id() + 4_000_000_000_000_000_000
        record = InteractionRecord(
            interaction_id, f"tok{interaction_id}", user_id, channel_id, in_dm, message_id,
            time.perf_counter(), kind=kind, dispatched_clock=self.now(),
        )  # fmt: skip
        self.interactions[interaction_id] = record
        self.by_token[record.token] = record
        return record

    def connect(self, http: discord.http.HTTPClient) -> None:
        """What ``HTTPClient.static_login`` sets up, with the fake session in aiohttp's
        place (interactions take their session from the client too)."""
        http._HTTPClient__session = self.session()  # type: ignore[attr-defined]
        http._global_over = asyncio.Event()
        http._global_over.set()
        http.token = "offline-harness-token"

    def take_violations(self) -> list[Violation]:
        """The violations so far, forgotten (for tests that provoke them on purpose)."""
        found, self.violations = self.violations, []
        return found

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
        # The uploads are described in the body's attachments, in upload order (with
        # their alt text, ``description``); entries without a filename keep old ones.
        described = [entry for entry in body.get("attachments") or [] if "filename" in entry]
        attachments = []
        for index, (name, data) in enumerate(files):
            attachment = {
                "id": str(self.next_id()),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.discordapp.com/attachments/{channel_id}/{message_id}/{name}",
                "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/{message_id}/{name}",
            }
            if index < len(described) and described[index].get("description"):
                attachment["description"] = described[index]["description"]
            attachments.append(attachment)
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
                stored.payload[key] = [] if key not in ("content", "flags") else (
                    "" if key == "content" else 0)  # fmt: skip
        if files or "attachments" in body:
            # Attachments the edit names by id are kept; new files are added; the rest go.
            kept_ids = {
                str(k.get("id")) for k in body.get("attachments") or [] if "filename" not in k
            }
            kept = [a for a in stored.payload["attachments"] if a["id"] in kept_ids]
            new = self._message_payload(message_id, stored.channel_id, body, files)["attachments"]
            stored.payload["attachments"] = kept + new
            stored.files = list(files) if files else (stored.files if kept else [])
        stored.payload["edited_timestamp"] = "2026-01-05T12:00:01.000000+00:00"
        return stored

    def channel_audience(self, channel_id: int) -> Audience:
        if channel_id in self.dm_owner:
            return Audience("dm", channel_id, self.dm_owner[channel_id])
        return Audience("channel", channel_id)

    def messages_in(self, channel_id: int) -> list[StoredMessage]:
        """The messages one channel (or thread, or DM) holds, oldest first."""
        return [m for m in self.messages.values() if m.channel_id == channel_id]

    # ------------------------------------------------------------------ HTTP

    async def serve(self, method: str, url: str, data: Any, params: Any) -> FakeResponse:
        """Answer one HTTP request as Discord would."""
        arrived = time.perf_counter()  # when Discord has the request; checking it is ours
        path = url.split("/api/v10", 1)[-1].split("?", 1)[0]
        matched = match_route(method, path)
        if matched is None:
            raise AssertionError(f"the fake Discord does not know {method} {path}")
        template, spec_path, parts = matched
        body, files = _decode_body(data)
        webhook = template.startswith(("/webhooks/", "/interactions/"))
        request = Request("webhook" if webhook else "rest", method, template, url.split("?")[0],
                          body, files, None, at=arrived)  # fmt: skip
        self.requests.append(request)
        if webhook and parts["webhook_token"] in self.by_token:
            request.interaction_id = self.by_token[parts["webhook_token"]].id
        fault = self._take_fault(method, template)
        if fault is not None:
            request.status = fault.status
            if fault.status == 429:
                retry_after = 0.25
                return FakeResponse(429, {"message": "You are being rate limited.",
                                          "retry_after": retry_after, "global": False,
                                          "code": fault.code},
                                    {"Via": "1.1 google", "Retry-After": str(retry_after)})  # fmt: skip
            return FakeResponse(fault.status, {"code": fault.code,
                                               "message": REASONS.get(fault.status, "error")})  # fmt: skip
        route_name = f"{method} {template}"
        try:
            # PATCH /channels/{id} is a union of every channel kind's update; a thread is
            # held to the thread's own schema.
            thread_update = (template == "/channels/{channel_id}"
                             and int(parts["channel_id"]) in self.threads)  # fmt: skip
            violations = schema_violations(
                route_name, spec_path, method, body,
                schema_name="UpdateThreadRequestPartial" if thread_update else None,
            ) if method in ("POST", "PATCH", "PUT") and spec_has_route(spec_path, method) else []  # fmt: skip
            if violations:
                raise HTTPError(400, 50035, "Invalid Form Body", violations)
            if webhook:
                result = self._webhook(request, template, parts, body, files)
            else:
                result = self._rest(request, template, parts, body, files, params)
        except HTTPError as error:
            request.status = error.status
            self.violations.extend(error.violations)
            return FakeResponse(error.status, error.body())
        if result is None:
            request.status = 204
            return FakeResponse(204, None)
        if template.endswith("/threads"):  # Discord answers a new thread with 201 Created
            request.status = 201
            return FakeResponse(201, result)
        return FakeResponse(200, result)

    def _refuse(self, request: Request, violations: list[Violation]) -> None:
        if violations:
            raise HTTPError(400, 50035, "Invalid Form Body", violations)

    # ------------------------------------------------------------------ bot-token routes

    def _rest(
        self,
        request: Request,
        template: str,
        parts: dict[str, str],
        payload: Any,
        files: list[tuple[str, bytes]],
        params: Any = None,
    ) -> Any:
        method = request.method
        route = f"{method} {template}"
        channel_id = int(parts["channel_id"]) if "channel_id" in parts else None
        if channel_id is not None:
            request.audience = self.channel_audience(channel_id)
            if channel_id in self.deleted_channels:
                raise HTTPError(404, 10003, "Unknown Channel")
        if template == "/users/@me/channels":
            user_id = int(payload["recipient_id"])
            channel = self.dm_channels.get(user_id) or self.next_id()
            self.dm_channels[user_id] = channel
            self.dm_owner[channel] = user_id
            request.audience = Audience("dm", channel, user_id)
            return {"id": str(channel), "type": 1, "recipients": [self.user_payload(user_id)],
                    "last_message_id": None}  # fmt: skip
        if template == "/channels/{channel_id}/messages" and method == "GET":
            # A channel's history, newest first, as the bot token sees it (no ephemerals).
            assert channel_id is not None
            limit = int((params or {}).get("limit", 50))
            visible = [m for m in self.messages.values()
                       if m.channel_id == channel_id and m.audience.kind != "ephemeral"]  # fmt: skip
            return [m.payload for m in sorted(visible, key=lambda m: -m.id)[:limit]]
        if template == "/channels/{channel_id}/messages":
            assert channel_id is not None
            nonce = (payload or {}).get("nonce")
            if nonce is not None and (payload or {}).get("enforce_nonce"):
                # Discord answers a repeated nonce from the same author, for a few minutes,
                # with the message it already created instead of a second one.
                seen = self.nonces.get((channel_id, str(nonce)))
                if (
                    seen is not None
                    and self.now() - seen[1] < NONCE_WINDOW
                    and seen[0] in self.messages
                ):
                    return self.messages[seen[0]].payload
            self._refuse(request, message_violations(route, payload, files,
                                                     allowed_flags=FLAGS_CHANNEL_CREATE,
                                                     creating=True, kind="channel-create"))  # fmt: skip
            owner = self.dm_owner.get(channel_id)
            if owner is not None and owner in self.dm_closed:
                raise HTTPError(403, 50007, "Cannot send messages to this user")
            thread = self.threads.get(channel_id)
            if owner is None:  # a guild channel or thread: Discord checks the bot's rights
                post = SEND_MESSAGES_IN_THREADS if thread is not None else SEND_MESSAGES
                needed = VIEW_CHANNEL | post | (ATTACH_FILES if files else 0)
                granted = self.bot_permissions & ~self.channel_denials.get(channel_id, 0)
                if granted & needed != needed:
                    raise HTTPError(403, 50013, "Missing Permissions")
            if thread is not None and thread.archived:
                if thread.locked:
                    raise HTTPError(400, 50083, "Thread is archived")
                thread.archived = False  # a message unarchives an unlocked thread
            created = self._store(channel_id, self.channel_audience(channel_id), payload or {},
                                  files)  # fmt: skip
            if nonce is not None:
                self.nonces[(channel_id, str(nonce))] = (created.id, self.now())
            return created.payload
        if template == "/channels/{channel_id}/messages/{message_id}":
            assert channel_id is not None
            stored = self._message_in(channel_id, int(parts["message_id"]))
            if stored.audience.kind == "ephemeral":
                raise HTTPError(404, 10008, "Unknown Message", [Violation(
                    route, "message_id",
                    "an ephemeral message cannot be reached with the bot token "
                    "(edit it through its interaction token)")])  # fmt: skip
            if method == "GET":
                return stored.payload
            if method == "DELETE":
                del self.messages[stored.id]
                return None
            thread = self.threads.get(channel_id)
            if thread is not None and thread.archived:
                raise HTTPError(400, 50083, "Thread is archived")
            self._refuse(request, message_violations(route, payload, files,
                                                     allowed_flags=FLAGS_EDIT, creating=False, kind="channel-edit"))  # fmt: skip
            return self._edit(stored.id, payload or {}, files).payload
        if template == "/channels/{channel_id}/messages/{message_id}/threads":
            assert channel_id is not None
            stored = self._message_in(channel_id, int(parts["message_id"]))
            if channel_id in self.threads or channel_id in self.dm_owner:
                raise HTTPError(400, 50024, "Cannot execute action on this channel type")
            if not self.bot_permissions & CREATE_PUBLIC_THREADS:
                raise HTTPError(403, 50013, "Missing Permissions")
            if stored.id in self.threads:
                raise HTTPError(400, 160004, "A thread has already been created for this message")
            thread = Thread(stored.id, channel_id, str(payload["name"]))
            self.threads[thread.id] = thread
            self._send_event("THREAD_CREATE", {**self._thread_payload(thread),
                                               "newly_created": True})  # fmt: skip
            return self._thread_payload(thread)
        if template == "/channels/{channel_id}":
            assert channel_id is not None
            thread = self.threads.get(channel_id)
            if thread is None:
                raise HTTPError(404, 10003, "Unknown Channel")
            closing = payload.get("archived") or payload.get("locked")
            if closing and not self.bot_permissions & MANAGE_THREADS:
                raise HTTPError(403, 50013, "Missing Permissions")
            for key in ("archived", "locked"):
                if payload.get(key) is not None:
                    setattr(thread, key, bool(payload[key]))
            if payload.get("name"):
                thread.name = str(payload["name"])
            self._send_event("THREAD_UPDATE", self._thread_payload(thread))
            return self._thread_payload(thread)
        if template.endswith("/commands"):
            # A server's own commands are apart from the global ones: Discord lists both
            # in that server's picker (each command twice when both are synced).
            guild = int(parts["guild_id"]) if "guild_id" in parts else None
            if method == "PUT":
                self._refuse(request, command_violations(route, payload))
                registered = [
                    {**command, "id": str(self.next_id()), "application_id": str(APPLICATION_ID),
                     "version": "1"}
                    for command in payload or []
                ]  # fmt: skip
                if guild is None:
                    self.commands = registered
                else:
                    self.guild_commands[guild] = registered
            return self.commands if guild is None else self.guild_commands.get(guild, [])
        raise AssertionError(f"the fake Discord does not serve {route}")

    def _message_in(self, channel_id: int, message_id: int) -> StoredMessage:
        """A message through its own channel; any other channel does not know it."""
        stored = self.messages.get(message_id)
        if stored is None or stored.channel_id != channel_id:
            raise HTTPError(404, 10008, "Unknown Message")
        return stored

    def _send_event(self, name: str, payload: dict[str, Any]) -> None:
        """Deliver a gateway event after the answer, as Discord does (asynchronously)."""
        if self.gateway is not None:
            asyncio.get_running_loop().call_soon(self.gateway, name, payload)

    def channel_payload(self, channel_id: int, guild_id: int = GUILD_ID) -> dict[str, Any]:
        """The ``channel`` object an interaction in a guild channel (or thread) carries."""
        thread = self.threads.get(channel_id)
        if thread is not None:
            payload = {**self._thread_payload(thread), "permissions": str(self.bot_permissions)}
            return {**payload, "guild_id": str(guild_id)}
        return {"id": str(channel_id), "type": 0, "name": "mahjong", "guild_id": str(guild_id),
                "position": 0, "permission_overwrites": []}  # fmt: skip

    def _thread_payload(self, thread: Thread) -> dict[str, Any]:
        return {"id": str(thread.id), "type": 11, "guild_id": str(GUILD_ID),
                "parent_id": str(thread.parent_id), "name": thread.name,
                "owner_id": str(BOT_USER_ID), "message_count": 0, "member_count": 1,
                "rate_limit_per_user": 0, "flags": 0,
                "thread_metadata": {"archived": thread.archived, "locked": thread.locked,
                                    "auto_archive_duration": 1440,
                                    "archive_timestamp": "2026-01-05T12:00:00.000000+00:00"}}  # fmt: skip

    # ------------------------------------------------------------------ interaction webhooks

    def _webhook(
        self,
        request: Request,
        template: str,
        parts: dict[str, str],
        body: Any,
        files: list[tuple[str, bytes]],
    ) -> Any:
        method = request.method
        route = f"{method} {template}"
        record = self.by_token.get(parts["webhook_token"])
        if record is None:
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        request.interaction_id = record.id
        if self.now() - record.dispatched_clock > self.TOKEN_LIFETIME:
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        if template.endswith("/callback"):
            return self._callback(request, record, route, body or {}, files)
        if template.endswith("/messages/@original") or template.endswith("/{message_id}"):
            message_id = (
                record.original_message_id if template.endswith("@original")
                else int(parts["message_id"])
            )  # fmt: skip
            stored = self.messages.get(message_id) if message_id is not None else None
            if stored is None or not self._answers(record, stored.id):
                raise HTTPError(404, 10008, "Unknown Message")
            request.audience = stored.audience
            if method == "GET":
                return stored.payload
            if method == "DELETE":
                del self.messages[stored.id]
                return None
            self._refuse(request, message_violations(route, body, files, allowed_flags=FLAGS_EDIT,
                                                     creating=False, kind="webhook-edit"))  # fmt: skip
            if stored.payload.get("flags", 0) & LOADING:
                stored.payload["flags"] &= ~LOADING
            self._edit(stored.id, _keep_flags(body or {}, stored), files)
            return stored.payload
        # POST /webhooks/{id}/{token}: a followup
        if record.callback_type is None:
            raise HTTPError(404, 10015, "Unknown Webhook")
        self._refuse(request, message_violations(route, body, files, allowed_flags=FLAGS_FOLLOWUP,
                                                 creating=True, kind="followup"))  # fmt: skip
        original = self.messages.get(record.original_message_id or 0)
        if (record.callback_type == CALLBACK_DEFER_MESSAGE and original is not None
                and original.payload.get("flags", 0) & LOADING):  # fmt: skip
            # The first followup after a deferred reply *is* the reply: it replaces the
            # "thinking" message and keeps the defer's visibility, whatever its own flags.
            original.payload["flags"] &= ~LOADING
            request.audience = original.audience
            self._edit(original.id, _keep_flags(body or {}, original), files)
            return original.payload
        audience = self._reply_audience(record, (body or {}).get("flags") or 0)
        request.audience = audience
        stored = self._store(record.channel_id or 0, audience, body or {}, files)
        record.followup_ids.append(stored.id)
        return stored.payload

    def _answers(self, record: InteractionRecord, message_id: int) -> bool:
        return message_id == record.original_message_id or message_id in record.followup_ids

    def _callback(
        self,
        request: Request,
        record: InteractionRecord,
        route: str,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
    ) -> Any:
        callback_type = int(body["type"])
        data = body.get("data") or {}
        request.callback_type = callback_type
        if record.callback_type is not None:
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if self.now() - record.dispatched_clock > self.ACK_DEADLINE:
            record.failed = True
            raise HTTPError(404, 10062, "Unknown interaction")
        if callback_type == CALLBACK_MESSAGE:
            self._refuse(request, message_violations(route, data, files,
                                                     allowed_flags=FLAGS_INTERACTION_REPLY,
                                                     creating=True, prefix="data.", kind="interaction-reply"))  # fmt: skip
        elif callback_type == CALLBACK_DEFER_MESSAGE:
            self._refuse(request, message_violations(route, data, files,
                                                     allowed_flags=FLAGS_DEFERRED_REPLY,
                                                     creating=False, prefix="data.", kind="interaction-reply"))  # fmt: skip
        elif callback_type == CALLBACK_UPDATE:
            self._refuse(request, message_violations(route, data, files, allowed_flags=FLAGS_EDIT,
                                                     creating=False, prefix="data.", kind="interaction-update"))  # fmt: skip
        elif callback_type == CALLBACK_AUTOCOMPLETE:
            self._refuse(request, autocomplete_violations(route, data))
        elif callback_type == CALLBACK_MODAL:
            if record.kind not in (2, 3):  # a modal cannot answer a modal submission
                raise HTTPError(400, 50035, "Invalid Form Body: a modal cannot open a modal")
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise HTTPError(
                    400, 50035, "Invalid Form Body: modal needs custom_id, title, components"
                )
            record.modal = data
        if callback_type in (CALLBACK_UPDATE, CALLBACK_DEFER_UPDATE) and record.message_id is None:
            raise HTTPError(400, 40004, "Interaction has no message to update")
        record.callback_type = callback_type
        record.acked_at = request.at
        record.acked_clock = self.now()
        flags = data.get("flags") or 0
        result: dict[str, Any] = {
            "interaction": {"id": str(record.id), "type": record.kind,
                            "response_message_loading": callback_type == CALLBACK_DEFER_MESSAGE,
                            "response_message_ephemeral": bool(flags & EPHEMERAL_FLAG)},
        }  # fmt: skip
        if callback_type in (CALLBACK_MESSAGE, CALLBACK_DEFER_MESSAGE):
            audience = self._reply_audience(record, flags)
            request.audience = audience
            stored_body = dict(data)
            if callback_type == CALLBACK_DEFER_MESSAGE:
                stored_body["flags"] = flags | LOADING
            stored = self._store(record.channel_id or 0, audience, stored_body, files)
            record.original_message_id = stored.id
            result["interaction"]["response_message_id"] = str(stored.id)
            result["resource"] = {"type": callback_type, "message": stored.payload}
        elif callback_type in (CALLBACK_UPDATE, CALLBACK_DEFER_UPDATE):
            assert record.message_id is not None
            stored = self.messages[record.message_id]
            request.audience = stored.audience
            record.original_message_id = stored.id
            if callback_type == CALLBACK_UPDATE:
                self._edit(stored.id, _keep_flags(data, stored), files)
                result["resource"] = {"type": 7, "message": stored.payload}
        return result

    def _reply_audience(self, record: InteractionRecord, flags: int) -> Audience:
        if flags & EPHEMERAL_FLAG:
            return Audience("ephemeral", record.channel_id, record.user_id)
        if record.in_dm:
            return Audience("dm", record.channel_id, record.user_id)
        return Audience("channel", record.channel_id)


def _keep_flags(body: dict[str, Any], stored: StoredMessage) -> dict[str, Any]:
    """An edit cannot change a message's visibility: EPHEMERAL stays as it was."""
    if "flags" not in body or body["flags"] is None:
        return body
    kept = stored.payload.get("flags", 0) & EPHEMERAL_FLAG
    return {**body, "flags": (body["flags"] & ~EPHEMERAL_FLAG) | kept}


def _decode_body(data: Any) -> tuple[Any, list[tuple[str, bytes]]]:
    """The JSON body and the files of a request, as discord.py put them on the wire."""
    if data is None:
        return None, []
    if isinstance(data, (str, bytes)):
        return json.loads(data), []
    if isinstance(data, aiohttp.FormData):
        body: Any = None
        files: list[tuple[str, bytes]] = []
        for type_options, _headers, value in data._fields:
            name = type_options.get("name")
            if name == "payload_json":
                body = json.loads(value if isinstance(value, str) else value.decode())
            elif type_options.get("filename") is not None:
                position = value.tell()
                files.append((str(type_options["filename"]), value.read()))
                value.seek(position)
        return body, files
    raise AssertionError(f"the fake Discord cannot read a body of type {type(data).__name__}")


class _FastSleep:
    """``asyncio`` as seen by discord.http and discord.webhook.async_: the same module, but
    ``sleep`` (the waits before a retry and on a 429) is recorded and returns at once,
    so retry tests take no real time while discord.py's retry logic runs unchanged."""

    def __init__(self, remote: FakeDiscord) -> None:
        self._remote = remote

    async def sleep(self, delay: float, result: Any = None) -> Any:
        if delay > 0:
            self._remote.retry_sleeps.append(delay)
        await _real_asyncio.sleep(0)
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(_real_asyncio, name)


_real_asyncio = asyncio


def guild_payload(
    members: dict[int, tuple[str, int]],
    guild_id: int = GUILD_ID,
    channel_id: int = CHANNEL_ID,
    other_channel_id: int = OTHER_CHANNEL_ID,
) -> dict[str, Any]:
    """A GUILD_CREATE-like payload: one guild, two text channels, members with permissions.

    ``members`` maps user id -> (name, permission bits); each member gets a role with
    those bits, as Discord computes permissions from roles.
    """
    roles = [{"id": str(guild_id), "name": "@everyone", "permissions": "0", "position": 0,
              "color": 0, "hoist": False, "managed": False, "mentionable": False}]  # fmt: skip
    member_payloads = []
    # The bot's own member, which Discord sends with every guild (no privileged intent
    # needed): ``guild.me``. Its role grants everything but Administrator, so a channel's
    # overwrites can take a permission away (``Harness.deny_bot_in``).
    bot_role = ADMIN_PERMISSIONS & ~discord.Permissions.administrator.flag
    for user_id, (name, permissions) in {**members, BOT_USER_ID: ("mahjong", bot_role)}.items():
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
        {"id": str(channel_id), "type": 0, "name": "mahjong", "position": 0,
         "permission_overwrites": [], "guild_id": str(guild_id)},
        {"id": str(other_channel_id), "type": 0, "name": "leaderboard", "position": 1,
         "permission_overwrites": [], "guild_id": str(guild_id)},
    ]  # fmt: skip
    return {
        "id": str(guild_id), "name": "Test Guild", "owner_id": str(OWNER_ID), "roles": roles,
        "channels": channels, "members": member_payloads, "member_count": len(member_payloads),
        "emojis": [], "stickers": [], "features": [], "threads": [], "voice_states": [],
        "presences": [], "large": False, "preferred_locale": "zh-CN", "unavailable": False,
    }  # fmt: skip


class Harness:
    """Drives one bot: log it in offline, dispatch interactions, wait for the work to settle.

    ``users`` maps user id -> (name, permissions). ``clock`` is the fake clock the bot's
    sessions and presenter use; ``advance`` moves it and lets due timers run. ``threads``
    grants (True) or withholds (False) the bot's thread permissions.
    """

    def __init__(
        self,
        bot: discord.Client,
        users: dict[int, tuple[str, int]],
        clock: Any = None,
        remote: FakeDiscord | None = None,
        *,
        guild_id: int = GUILD_ID,
        channel_id: int = CHANNEL_ID,
        other_channel_id: int = OTHER_CHANNEL_ID,
        threads: bool | None = None,
    ):
        """``guild_id`` and its channels: another guild for a second bot process (one
        ``remote`` shared by two harnesses is one Discord serving two shards)."""
        self.bot = bot
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.other_channel_id = other_channel_id
        self.remote = remote or FakeDiscord()  # pass the old one to "restart" against it
        if threads is not None:  # the bot may (or may not) run each table in a thread
            self.remote.bot_permissions = (
                ADMIN_PERMISSIONS if threads else ADMIN_PERMISSIONS & ~THREAD_PERMISSIONS
            )
        self.users = users
        self.clock = clock
        self.remote.clock = clock
        for user_id, (name, _perms) in users.items():
            self.remote.users[user_id] = {"id": str(user_id), "username": name,
                                          "discriminator": "0", "global_name": name,
                                          "avatar": None}  # fmt: skip
        self._patched: list[tuple[Any, Any]] = []
        self.guild_locale = "zh-CN"  # the guild's preferred locale, sent with each interaction
        # The server's upload limit Discord sends with each interaction (10 MiB without
        # boosts); a test may lower it to see what the bot does with a larger file.
        self.attachment_size_limit = 10 * 1024 * 1024

    async def start(self) -> None:
        """What ``login`` + ``connect`` would do, without a gateway or a token: discord.py's
        HTTP client gets the fake session (interactions take theirs from it)."""
        bot = self.bot
        self.remote.connect(bot.http)
        fast = _FastSleep(self.remote)
        for module in (discord.http, webhook_async):
            self._patched.append((module, module.asyncio))
            module.asyncio = fast  # type: ignore[attr-defined, assignment]
        await bot._async_setup_hook()
        state = bot._connection
        state.user = discord.ClientUser(state=state, data={**self.remote.user_payload(BOT_USER_ID),  # type: ignore[typeddict-item]
                                                           "id": str(BOT_USER_ID),
                                                           "username": "mahjong", "bot": True,
                                                           "verified": True, "mfa_enabled": False})  # fmt: skip
        state.application_id = APPLICATION_ID
        await bot.setup_hook()
        state._add_guild_from_data(guild_payload(self.users, self.guild_id, self.channel_id,  # type: ignore[arg-type]
                                                 self.other_channel_id))  # fmt: skip
        self.remote.gateway = self._dispatch_event
        await self.settle()

    def deny_bot_in(self, channel_id: int, bits: int) -> None:
        """A channel's overwrite takes ``bits`` away from the bot: the fake refuses its
        posts there, and the bot's cache learns it as from Discord (CHANNEL_UPDATE)."""
        self.remote.channel_denials[channel_id] = bits
        channel = self.bot.get_channel(channel_id)
        assert isinstance(channel, discord.TextChannel)
        self._dispatch_event("CHANNEL_UPDATE", {
            "id": str(channel_id), "type": 0, "name": channel.name, "position": channel.position,
            "permission_overwrites": [
                {"id": str(BOT_USER_ID), "type": 1, "allow": "0", "deny": str(bits)}
            ] if bits else [],
        })  # fmt: skip

    def delete_channel(self, channel_id: int, *, tell_the_bot: bool = True) -> None:
        """An admin deletes a channel or thread: its messages go and every request to it
        gets 404 Unknown Channel. ``tell_the_bot``: the bot gets CHANNEL_DELETE (or
        THREAD_DELETE) as over its gateway; False: it was not listening (down)."""
        remote = self.remote
        remote.deleted_channels.add(channel_id)
        for message_id in [m.id for m in remote.messages.values() if m.channel_id == channel_id]:
            del remote.messages[message_id]
        thread = remote.threads.pop(channel_id, None)
        if not tell_the_bot:
            return
        if thread is not None:
            self._dispatch_event("THREAD_DELETE", {
                "id": str(channel_id), "type": 11, "parent_id": str(thread.parent_id),
            })  # fmt: skip
        else:
            channel = self.bot.get_channel(channel_id)
            assert isinstance(channel, discord.TextChannel)
            self._dispatch_event("CHANNEL_DELETE", {
                "id": str(channel_id), "type": 0, "name": channel.name,
                "position": channel.position, "permission_overwrites": [],
            })  # fmt: skip

    def _dispatch_event(self, name: str, payload: dict[str, Any]) -> None:
        """A gateway event through discord.py's own parser (``THREAD_CREATE`` puts the
        thread in the guild's cache, as on a real connection)."""
        parser = getattr(self.bot._connection, f"parse_{name.lower()}")
        parser({**payload, "guild_id": str(self.guild_id)})

    async def close(self) -> None:
        """Shut the bot down; then fail if any request broke Discord's rules, even one whose
        400 the bot caught and carried on from."""
        close = getattr(self.bot, "shutdown", None)
        if close is not None:
            await close()
        while self._patched:
            module, original = self._patched.pop()
            module.asyncio = original
        violations = self.remote.take_violations()
        if violations:
            raise AssertionError(
                "Discord would have refused these requests:\n"
                + "\n".join(f"  - {violation}" for violation in violations)
            )

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
        in_dm = channel_id is not None and channel_id in self.remote.dm_owner
        record = self.remote.new_interaction(
            kind, user_id, channel_id if in_dm else (channel_id or self.channel_id), in_dm=in_dm
        )
        interaction_id, token = record.id, record.token
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(APPLICATION_ID), "type": kind,
            "token": token, "version": 1, "locale": locale,
            "app_permissions": str(self.remote.bot_permissions),
            "attachment_size_limit": self.attachment_size_limit, "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
        }  # fmt: skip
        if in_dm:
            payload["channel"] = {"id": str(channel_id), "type": 1,
                                  "recipients": [self.remote.user_payload(user_id)]}  # fmt: skip
            payload["channel_id"] = str(channel_id)
            payload["user"] = self.remote.user_payload(user_id)
            payload["context"] = 1
        else:
            channel_id = channel_id or self.channel_id
            payload.update({"guild_id": str(self.guild_id), "guild_locale": self.guild_locale,
                            "channel_id": str(channel_id), "member": self._member(user_id),
                            "channel": self.remote.channel_payload(channel_id, self.guild_id),
                            "context": 0})  # fmt: skip
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
        record.dispatched_clock = self.remote.now()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        if settle:
            await self.settle()
        return record

    async def end_table(
        self, user_id: int, *, channel_id: int | None = None, locale: str = "zh-CN"
    ) -> InteractionRecord:
        """``/table end``, paying the price when it asks (a seated player ending a hand
        in play): what a test that only needs the table gone means."""
        record = await self.command(user_id, "table end", channel_id=channel_id, locale=locale)
        for message in reversed(self.ephemeral_messages(user_id)):
            now = [id_ for id_ in message.custom_ids() if re.fullmatch(r"mj:t:\w+:end\d+", id_)]
            if now and message.id in (record.original_message_id, *record.followup_ids):
                return await self.click(user_id, message, now[0], locale=locale)
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
        record.dispatched_clock = self.remote.now()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        if settle:
            await self.settle()
        return record

    async def submit_modal(
        self,
        user_id: int,
        opened_by: InteractionRecord,
        values: list[str],
        *,
        locale: str = "zh-CN",
        settle: bool = True,
    ) -> InteractionRecord:
        """Fill in the text inputs of the modal ``opened_by`` answered with, in order, and
        submit it (interaction type 5), as the Discord client does."""
        modal = opened_by.modal
        assert modal is not None, "that interaction did not open a modal"
        payload, record = self._base(5, user_id, opened_by.channel_id, locale)
        record.kind = 5
        rows = []
        inputs = [item for row in modal["components"] for item in row.get("components", [])]
        assert len(inputs) == len(values), f"the modal has {len(inputs)} inputs"
        for item, value in zip(inputs, values, strict=True):
            rows.append({"type": 1, "components": [{"type": 4, "custom_id": item["custom_id"],
                                                    "value": value}]})  # fmt: skip
        payload["data"] = {"custom_id": modal["custom_id"], "components": rows}
        record.dispatched_at = time.perf_counter()
        record.dispatched_clock = self.remote.now()
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
                    "permissions": str(ADMIN_PERMISSIONS), "guild_id": str(self.guild_id),
                }  # fmt: skip
        return resolved

    def _command_id(self, name: str) -> str:
        top = name.split()[0]
        for command in (*self.remote.guild_commands.get(self.guild_id, ()), *self.remote.commands):
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
            # A task that parks itself (the bot renames a Discord retry waiting out its
            # backoff on the fake clock to ``mj-parked-…``) stops being work while we wait.
            had_work = bool(pending)
            # Only a hang should trip this: a hand replay's GIF, rendered off the loop,
            # took over 10 s on a two-core machine running three other suites.
            deadline = asyncio.get_running_loop().time() + 60
            while pending:
                _done, stuck = await asyncio.wait(pending, timeout=0.05)
                pending = [task for task in stuck if _is_work(task)]
                if pending and asyncio.get_running_loop().time() > deadline:
                    names = sorted(task.get_name() for task in pending)
                    raise AssertionError(f"work did not finish: {names}")
            for _ in range(5):
                await asyncio.sleep(0)
            idle = getattr(self.bot, "wait_idle", None)
            if idle is not None:
                await idle()
            quiet = quiet + 1 if not had_work and len(self.remote.requests) == before else 0

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
        """The newest DM with a picture (a hand or a result card). A turn alert is text
        only and points at the hand, so a player reading their DMs skips it."""
        messages = [m for m in self.dm_messages(user_id) if m.files or m.components]
        return messages[-1] if messages else None

    def latest_hand(self, user_id: int) -> StoredMessage | None:
        """The message a player acts on now: their newest DM with a picture, else (DMs
        closed or off) the newest reply only they see."""
        ephemeral = self.ephemeral_messages(user_id)
        return self.latest_dm(user_id) or (ephemeral[-1] if ephemeral else None)

    def dm_alerts(self, user_id: int) -> list[StoredMessage]:
        """The turn alerts a user's DM holds now (text only; deleted ones are gone)."""
        return [m for m in self.dm_messages(user_id) if not m.files and not m.components]

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

    def failed_interactions(self) -> list[InteractionRecord]:
        """Interactions Discord refused to acknowledge (too late: 10062) — clicks the user
        saw fail with "This interaction failed"."""
        return [record for record in self.remote.interactions.values() if record.failed]

    def ack_latencies(self) -> list[float]:
        """Seconds from dispatch to the acknowledging callback, per acknowledged interaction."""
        return [
            record.acked_at - record.dispatched_at
            for record in self.remote.interactions.values()
            if record.acked_at is not None and record.callback_type in ACK_TYPES
        ]


async def until_backoff(
    remote: FakeDiscord,
    clock: Any,
    task: asyncio.Task[Any],
    failures: int,
    sleepers_before: int,
    status: int = 503,
) -> bool:
    """Wait (real time, at most 10 s) until ``task`` has met its ``failures``-th ``status``
    answer and sleeps on the fake ``clock`` (more sleepers than the ``sleepers_before``
    counted before it started); False if it finished instead.

    For a task the test started itself: ``settle`` does not wait for it, and between two
    attempts it may read the database in real time, so moving the fake clock before its
    backoff is registered would wake nothing (a fixed number of ``advance`` calls can all
    pass, on a slow machine, before the first retry is even due).
    """
    for _ in range(2000):
        if task.done():
            return False
        met = sum(r.status == status for r in remote.requests)
        if met >= failures and clock.pending > sleepers_before:
            return True
        await asyncio.sleep(0.005)
    raise AssertionError(f"no backoff after {failures} answers {status} in 10 s")


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


@contextlib.asynccontextmanager
async def offline_bot(
    tmp_path: Path,
    users: dict[int, tuple[str, int]],
    seed: int,
    *,
    threads: bool | None = None,
    renderer: Any = None,
    guild_locale: str | None = None,
    ai_delay: float = 0.0,
) -> AsyncIterator[Harness]:
    """A bot on a fresh SQLite store, with the tag renderer (or ``renderer``) and no AI
    delay (or ``ai_delay`` seconds of the fake clock a move), logged in against a fresh
    fake Discord (a server whose preferred locale is ``guild_locale``, zh-CN by
    default); closed (and checked for violations) on the way out."""
    from bot.app import MahjongBot
    from bot.session import FakeClock
    from data import Store

    clock = FakeClock()
    store = await Store.open(tmp_path / "bot.db")
    bot = MahjongBot(store, clock=clock, renderer=renderer or TagRenderer(), ai_delay=ai_delay,
                     leaderboard_interval=None, seeds=itertools.count(seed))  # fmt: skip
    h = Harness(bot, users, clock, threads=threads)
    if guild_locale is not None:
        h.guild_locale = guild_locale
    await h.start()
    try:
        yield h
    finally:
        await h.close()
        await store.close()


class TagRenderer:
    """A renderer whose "images" say what they show, so tests can check who got what.

    A hand image names its seat and tiles; nothing else contains ``HAND``.
    """

    def hand(self, view: Any, names: Any, locale: str) -> bytes:
        return f"HAND seat={view.seat} tiles={list(view.all_concealed)}".encode()

    def table(self, view: Any, names: Any, locale: str) -> bytes:
        scores = [seat.score for seat in view.seats]
        return f"TABLE turn={view.turn_id} scores={scores}".encode()

    def result(self, view: Any, result: Any, names: Any, locale: str, points: Any = None) -> bytes:
        """The winner, and the points the card shows (the ledger's, at a table)."""
        moved = f" points={list(points.points)} stake={points.stake}" if points else ""
        return f"RESULT winner={result.winner}{moved}".encode()

    def leaderboard(self, rows: Any, period: str, subtitle: str, locale: str) -> bytes:
        return f"BOARD {period} {len(list(rows))} {subtitle}".encode()

    def stats(self, stats: Any, name: str, subtitle: str, locale: str) -> bytes:
        """The figures exactly as the card draws them (``render.stats.card_figures``)."""
        from render.stats import card_figures

        figures = {**card_figures(stats), "biggest": stats.biggest.points if stats.biggest else 0}
        return ("STATS " + json.dumps(figures, sort_keys=True)).encode()


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
