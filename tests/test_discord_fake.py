"""The fake Discord refuses what Discord refuses, keeps Discord's clocks, and sits below
discord.py's HTTP layer so discord.py's own retries run.

Each refusal test sends one bad body the way discord.py puts it on the wire and checks
that the answer is Discord's 400 / 50035 (or the route's own error) and that the
violation names the route, the field and the rule.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import aiohttp
import discord
import discord.http
import pytest
from discord.http import Route, handle_message_parameters
from discord.webhook import async_ as webhook_async
from discord_harness import (
    ADMIN_PERMISSIONS,
    APPLICATION_ID,
    CALLBACK_DEFER_MESSAGE,
    CALLBACK_MESSAGE,
    CHANNEL_ID,
    CREATE_PUBLIC_THREADS,
    EPHEMERAL_FLAG,
    MANAGE_THREADS,
    OTHER_CHANNEL_ID,
    SEND_MESSAGES_IN_THREADS,
    FakeDiscord,
    FakeResponse,
    Harness,
    InteractionRecord,
    _FastSleep,
    match_route,
)
from discord_rules import LOADING, SUPPRESS_NOTIFICATIONS, Violation

from bot.session import FakeClock

BASE = "https://discord.com/api/v10"
USER = 800_000_000_000_000_001
MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


@pytest.fixture
def remote() -> Iterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.clock = FakeClock()
    yield fake


@pytest.fixture
def fast_retries(remote: FakeDiscord) -> Iterator[None]:
    """discord.py's waits between retries take no real time (as the harness arranges)."""
    saved = [(module, module.asyncio) for module in (discord.http, webhook_async)]
    for module, _ in saved:
        module.asyncio = _FastSleep(remote)  # type: ignore[attr-defined, assignment]
    yield
    for module, original in saved:
        module.asyncio = original  # type: ignore[attr-defined]


async def send(
    remote: FakeDiscord,
    method: str,
    path: str,
    body: Any,
    files: list[tuple[str, bytes]] = (),  # type: ignore[assignment]
) -> tuple[int, Any]:
    """One request as discord.py encodes it: JSON, or multipart with payload_json."""
    data: Any = json.dumps(body)
    if files:
        data = aiohttp.FormData(quote_fields=False)
        data.add_field("payload_json", json.dumps(body))
        for index, (name, content) in enumerate(files):
            data.add_field(f"files[{index}]", io.BytesIO(content), filename=name)
    response = await remote.serve(method, BASE + path, data, None)
    text = await response.text()
    return response.status, json.loads(text) if text else None


def refused(remote: FakeDiscord, status: int, answer: Any, field: str, rule: str) -> Violation:
    """The request was answered 400 / 50035 and one recorded violation matches."""
    assert status == 400 and answer["code"] == 50035, (status, answer)
    violations = remote.take_violations()
    matching = [v for v in violations if field in v.field and rule in v.rule]
    assert matching, f"no violation on {field!r} saying {rule!r}: {violations}"
    assert matching[0].route.split()[0] in {"POST", "PATCH", "PUT"}
    return matching[0]


def channel_message(remote: FakeDiscord, channel_id: int = CHANNEL_ID) -> int:
    return remote._store(channel_id, remote.channel_audience(channel_id), {"content": "hi"}, []).id


def interaction(
    remote: FakeDiscord, *, kind: int = 3, message_id: int | None = None
) -> InteractionRecord:
    if kind == 3 and message_id is None:
        message_id = channel_message(remote)
    return remote.new_interaction(kind, USER, CHANNEL_ID, message_id=message_id)


def callback_path(record: InteractionRecord) -> str:
    return f"/interactions/{record.id}/{record.token}/callback"


def webhook_path(record: InteractionRecord, suffix: str = "") -> str:
    return f"/webhooks/{APPLICATION_ID}/{record.token}{suffix}"


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}


def select(custom_id: str, options: int) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id,
            "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)]}  # fmt: skip


# ---------------------------------------------------------------------- message limits


async def test_a_valid_message_is_stored_in_its_channel(remote: FakeDiscord) -> None:
    body = {"content": "ok", "components": [row(button("a"), button("b")), row(select("s", 25))]}
    status, answer = await send(remote, "POST", f"/channels/{CHANNEL_ID}/messages", body)
    assert status == 200 and remote.violations == []
    assert [m.id for m in remote.messages_in(CHANNEL_ID)] == [int(answer["id"])]


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"content": "x" * 2001}, "content", "at most 2000 characters"),
        ({}, "content", "empty message"),
        ({"content": "", "embeds": []}, "content", "empty message"),
        ({"components": [row(button(f"b{i}")) for i in range(6)]}, "components", "at most 5 action rows"),
        ({"components": [row(*(button(f"b{i}") for i in range(6)))]}, "components.0", "schema"),
        ({"components": [row(select("s", 3), button("b"))]}, "components.0", "alone in its action row"),
        ({"components": [row(select("s", 26))]}, "components.0", "schema"),
        ({"components": [row(button("x" * 101))]}, "components.0", "schema"),
        ({"components": [row(button("same"), button("same"))]}, "custom_id", "not unique"),
        ({"components": [row(button("same")), row(select("same", 2))]}, "custom_id", "not unique"),
        ({"embeds": [{"title": str(i)} for i in range(11)]}, "embeds", "schema"),
        ({"content": "hi", "flags": EPHEMERAL_FLAG}, "flags", "not allowed"),
        ({"content": 5}, "content", "schema"),
        ({"content": "hi", "components": [{"type": 2, "style": 2, "custom_id": "a"}]},
         "components.0", "schema"),
    ],
)  # fmt: skip
async def test_a_channel_message_breaking_a_rule_is_refused(
    remote: FakeDiscord, body: dict[str, Any], field: str, rule: str
) -> None:
    status, answer = await send(remote, "POST", f"/channels/{CHANNEL_ID}/messages", body)
    violation = refused(remote, status, answer, field, rule)
    assert violation.route == f"POST {MESSAGES}"
    assert remote.messages_in(CHANNEL_ID) == []


async def test_the_hand_written_limits_hold_where_the_schema_is_silent(
    remote: FakeDiscord,
) -> None:
    """Rows of 6 buttons, 26 options and 101-character ids are also the schema's business;
    the documented limits must hold on their own too (a later spec could drop them)."""
    from discord_rules import message_violations

    route = f"POST {MESSAGES}"
    too_many = {"components": [row(*(button(f"b{i}") for i in range(6)))]}
    assert any("at most 5 buttons" in v.rule for v in message_violations(
        route, too_many, [], allowed_flags=0, creating=True))  # fmt: skip
    options = {"components": [row(select("s", 26))]}
    assert any("at most 25 options" in v.rule for v in message_violations(
        route, options, [], allowed_flags=0, creating=True))  # fmt: skip
    long_id = {"components": [row(button("x" * 101))]}
    assert any("at most 100 characters" in v.rule for v in message_violations(
        route, long_id, [], allowed_flags=0, creating=True))  # fmt: skip
    embeds = {"embeds": [{"title": "t"}] * 11}
    assert any("at most 10 embeds" in v.rule for v in message_violations(
        route, embeds, [], allowed_flags=0, creating=True))  # fmt: skip


async def test_files_over_the_upload_limit_are_refused(remote: FakeDiscord) -> None:
    big = b"x" * (10 * 1024 * 1024 + 1)
    status, answer = await send(remote, "POST", f"/channels/{CHANNEL_ID}/messages",
                                {"content": "a"}, [("big.png", big)])  # fmt: skip
    refused(remote, status, answer, "files[0]", "a file is at most")
    half = b"x" * (6 * 1024 * 1024)
    status, answer = await send(remote, "POST", f"/channels/{CHANNEL_ID}/messages",
                                {"content": "a"}, [("a.png", half), ("b.png", half)])  # fmt: skip
    refused(remote, status, answer, "files", "the files total at most")


async def test_files_within_the_limit_are_kept(remote: FakeDiscord) -> None:
    status, answer = await send(remote, "POST", f"/channels/{CHANNEL_ID}/messages",
                                {"content": "a"}, [("a.png", b"PNG")])  # fmt: skip
    assert status == 200 and answer["attachments"][0]["filename"] == "a.png"
    assert remote.messages[int(answer["id"])].files == [("a.png", b"PNG")]


async def test_flag_64_on_a_bot_token_edit_is_refused(remote: FakeDiscord) -> None:
    message_id = channel_message(remote)
    status, answer = await send(remote, "PATCH", f"/channels/{CHANNEL_ID}/messages/{message_id}",
                                {"content": "x", "flags": EPHEMERAL_FLAG})  # fmt: skip
    refused(remote, status, answer, "flags", "not allowed")


async def test_an_edit_through_the_wrong_channel_is_unknown(remote: FakeDiscord) -> None:
    message_id = channel_message(remote)
    status, answer = await send(
        remote, "PATCH", f"/channels/{OTHER_CHANNEL_ID}/messages/{message_id}", {"content": "x"}
    )
    assert (status, answer["code"]) == (404, 10008)
    assert remote.messages[message_id].payload["content"] == "hi"
    status, _ = await send(
        remote, "PATCH", f"/channels/{CHANNEL_ID}/messages/{message_id}", {"content": "x"}
    )
    assert status == 200 and remote.messages[message_id].payload["content"] == "x"


async def test_a_bot_token_edit_of_an_ephemeral_message_is_refused(remote: FakeDiscord) -> None:
    record = interaction(remote, kind=2)
    status, answer = await send(remote, "POST", callback_path(record),
                                {"type": CALLBACK_MESSAGE,
                                 "data": {"content": "secret", "flags": EPHEMERAL_FLAG}})  # fmt: skip
    assert status == 200
    message_id = int(answer["resource"]["message"]["id"])
    status, answer = await send(
        remote, "PATCH", f"/channels/{CHANNEL_ID}/messages/{message_id}", {"content": "x"}
    )
    assert (status, answer["code"]) == (404, 10008)
    assert any("ephemeral" in v.rule for v in remote.take_violations())
    assert remote.messages[message_id].payload["content"] == "secret"


# ---------------------------------------------------------------------- interactions


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"type": CALLBACK_MESSAGE, "data": {"content": "x" * 2001}}, "data.content", "schema"),
        ({"type": CALLBACK_MESSAGE, "data": {"content": ""}}, "data.content", "empty message"),
        ({"type": CALLBACK_DEFER_MESSAGE, "data": {"flags": SUPPRESS_NOTIFICATIONS}},
         "data.flags", "not allowed"),
        ({"type": 7, "data": {"content": "x", "flags": EPHEMERAL_FLAG}}, "data.flags", "not allowed"),
        ({"type": 7, "data": {"components": [row(button("a"), button("a"))]}},
         "custom_id", "not unique"),
        ({"type": 8, "data": {"choices": [{"name": str(i), "value": str(i)} for i in range(30)]}},
         "data", "schema"),
        ({"type": 42}, "type", "schema"),
    ],
)  # fmt: skip
async def test_an_interaction_callback_breaking_a_rule_is_refused(
    remote: FakeDiscord, body: dict[str, Any], field: str, rule: str
) -> None:
    record = interaction(remote, kind=4 if body["type"] == 8 else 3)
    status, answer = await send(remote, "POST", callback_path(record), body)
    refused(remote, status, answer, field, rule)
    assert record.callback_type is None  # a refused callback acknowledges nothing


async def test_thirty_autocomplete_choices_break_the_documented_limit() -> None:
    from discord_rules import autocomplete_violations

    data = {"choices": [{"name": str(i), "value": str(i)} for i in range(30)]}
    [violation] = autocomplete_violations("POST callback", data)
    assert violation.field == "data.choices" and "at most 25" in violation.rule


async def test_flags_on_a_followup_and_on_a_webhook_edit(remote: FakeDiscord) -> None:
    record = interaction(remote, kind=2)
    assert (await send(remote, "POST", callback_path(record),
                       {"type": CALLBACK_MESSAGE, "data": {"content": "a"}}))[0] == 200  # fmt: skip
    status, answer = await send(remote, "PATCH", webhook_path(record, "/messages/@original"),
                                {"content": "b", "flags": EPHEMERAL_FLAG})  # fmt: skip
    refused(remote, status, answer, "flags", "not allowed")
    status, answer = await send(remote, "POST", webhook_path(record),
                                {"content": "c", "flags": 1 << 1})  # fmt: skip
    refused(remote, status, answer, "flags", "not allowed")
    status, _ = await send(remote, "POST", webhook_path(record),
                           {"content": "c", "flags": EPHEMERAL_FLAG | SUPPRESS_NOTIFICATIONS})  # fmt: skip
    assert status == 200


async def test_an_acknowledgement_after_three_seconds_is_an_unknown_interaction(
    remote: FakeDiscord,
) -> None:
    record = interaction(remote)
    remote.clock._now += 3.2
    status, answer = await send(remote, "POST", callback_path(record), {"type": 6})
    assert (status, answer["code"]) == (404, 10062)
    assert record.failed and record.callback_type is None
    in_time = interaction(remote)
    remote.clock._now += 2.9
    assert (await send(remote, "POST", callback_path(in_time), {"type": 6}))[0] == 200
    assert not in_time.failed


async def test_a_token_older_than_fifteen_minutes_is_invalid(remote: FakeDiscord) -> None:
    record = interaction(remote, kind=2)
    await send(remote, "POST", callback_path(record), {"type": CALLBACK_DEFER_MESSAGE})
    remote.clock._now += 14 * 60
    assert (await send(remote, "PATCH", webhook_path(record, "/messages/@original"),
                       {"content": "still fine"}))[0] == 200  # fmt: skip
    remote.clock._now += 61
    status, answer = await send(remote, "PATCH", webhook_path(record, "/messages/@original"),
                                {"content": "too late"})  # fmt: skip
    assert (status, answer["code"]) == (401, 50027)
    status, answer = await send(remote, "POST", webhook_path(record), {"content": "too late"})
    assert (status, answer["code"]) == (401, 50027)


@pytest.mark.parametrize(
    ("defer_flags", "followup_flags", "kind"),
    [(EPHEMERAL_FLAG, 0, "ephemeral"), (0, EPHEMERAL_FLAG, "channel"),
     (EPHEMERAL_FLAG, EPHEMERAL_FLAG, "ephemeral")],
)  # fmt: skip
async def test_a_deferred_reply_followup_replaces_the_thinking_message(
    remote: FakeDiscord, defer_flags: int, followup_flags: int, kind: str
) -> None:
    record = interaction(remote, kind=2)
    status, answer = await send(remote, "POST", callback_path(record),
                                {"type": CALLBACK_DEFER_MESSAGE, "data": {"flags": defer_flags}})  # fmt: skip
    thinking = int(answer["resource"]["message"]["id"])
    assert remote.messages[thinking].payload["flags"] & LOADING
    status, answer = await send(remote, "POST", webhook_path(record),
                                {"content": "done", "flags": followup_flags})  # fmt: skip
    assert status == 200 and int(answer["id"]) == thinking
    stored = remote.messages[thinking]
    assert stored.payload["content"] == "done" and not stored.payload["flags"] & LOADING
    assert stored.audience.kind == kind
    assert bool(stored.payload["flags"] & EPHEMERAL_FLAG) == (kind == "ephemeral")
    # The next followup is a message of its own, with its own visibility.
    status, answer = await send(remote, "POST", webhook_path(record),
                                {"content": "more", "flags": EPHEMERAL_FLAG})  # fmt: skip
    assert int(answer["id"]) != thinking
    assert remote.messages[int(answer["id"])].audience.kind == "ephemeral"


async def test_a_second_acknowledgement_is_refused(remote: FakeDiscord) -> None:
    record = interaction(remote)
    assert (await send(remote, "POST", callback_path(record), {"type": 6}))[0] == 200
    status, answer = await send(remote, "POST", callback_path(record), {"type": 6})
    assert (status, answer["code"]) == (400, 40060)


# ---------------------------------------------------------------------- commands


def command(**fields: Any) -> dict[str, Any]:
    return {"name": "table", "description": "Tables", "type": 1, **fields}


def string_option(name: str, **fields: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "d", **fields}


@pytest.mark.parametrize(
    ("commands", "field", "rule"),
    [
        ([command(name="Table")], "0.name", "lowercase"),
        ([command(name="my table")], "0.name", "must match"),
        ([command(options=[string_option("o" * 33)])], "0.options.0.name", "schema"),
        ([command(options=[string_option("Seat")])], "0.options.0.name", "lowercase"),
        ([command(options=[string_option(f"o{i}") for i in range(26)])], "0.options", "schema"),
        ([command(description="d" * 101)], "0.description", "schema"),
        ([command(options=[string_option("a"), string_option("a")])], "0.options", "unique"),
        ([command(options=[string_option("a", choices=[{"name": str(i), "value": str(i)}
                                                        for i in range(26)])])],
         "0.options.0", "schema"),
    ],
)  # fmt: skip
async def test_a_command_breaking_a_naming_rule_is_refused(
    remote: FakeDiscord, commands: list[dict[str, Any]], field: str, rule: str
) -> None:
    status, answer = await send(remote, "PUT", f"/applications/{APPLICATION_ID}/commands", commands)
    refused(remote, status, answer, field, rule)
    assert remote.commands == []


def test_the_hand_written_command_rules_hold_where_the_schema_is_silent() -> None:
    from discord_rules import command_violations

    too_long = [command(options=[string_option("o" * 33)])]
    assert any("must match" in v.rule for v in command_violations("PUT", too_long))
    too_many = [command(options=[string_option(f"o{i}") for i in range(26)])]
    assert any("at most 25 options" in v.rule for v in command_violations("PUT", too_many))
    wordy = [command(description="d" * 101)]
    assert any("description is at most 100" in v.rule for v in command_violations("PUT", wordy))
    assert command_violations("PUT", [command(name="点数"), command(name="मेज़")]) == []


def test_rules_the_schema_leaves_to_the_documentation() -> None:
    """What Discord refuses although the spec's schemas allow it (each found missing in
    an audit of the fake): a select's option values and counts, a choice value over 100,
    localized names, option order, choices beside autocomplete, a command's 8,000
    characters, embeds' 6,000 and content of whitespace only."""
    from discord_rules import autocomplete_violations, command_violations, message_violations

    def message(body: dict[str, Any]) -> list[str]:
        violations = message_violations("POST", body, [], allowed_flags=0, creating=True)
        return [v.rule for v in violations]

    def select(options: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
        menu = {"type": 3, "custom_id": "s", "options": options, **fields}
        return {"content": "x", "components": [{"type": 1, "components": [menu]}]}

    def option(value: str, **fields: Any) -> dict[str, Any]:
        return {"label": value, "value": value, **fields}

    assert message(select([option("a"), option("b")])) == []
    assert any("unique" in rule for rule in message(select([option("a"), option("a")])))
    two_defaults = select([option("a", default=True), option("b", default=True)])
    assert any("max_values is 1" in rule for rule in message(two_defaults))
    assert (
        message(select([option("a", default=True), option("b", default=True)], max_values=2)) == []
    )
    assert any("min_values 3" in rule for rule in message(select([option("a")], min_values=3)))
    assert any("empty message" in rule for rule in message({"content": " \n "}))
    embeds = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    assert any("embeds total" in rule for rule in message({"embeds": embeds}))

    def rules(commands: list[dict[str, Any]]) -> list[str]:
        return [v.rule for v in command_violations("PUT", commands)]

    assert rules([command(name_localizations={"zh-CN": "牌桌", "zh-TW": "牌桌"})]) == []
    assert any(
        "not a locale" in rule for rule in rules([command(name_localizations={"zh": "牌桌"})])
    )
    assert any("lowercase" in rule for rule in rules([command(name_localizations={"fr": "Table"})]))
    assert any(
        "name pattern" in rule for rule in rules([command(name_localizations={"zh-CN": "牌 桌"})])
    )
    out_of_order = command(options=[string_option("a"), string_option("b", required=True)])
    assert any("required options" in rule for rule in rules([out_of_order]))
    both = string_option("a", autocomplete=True, choices=[{"name": "x", "value": "x"}])
    assert any("not both" in rule for rule in rules([command(options=[both])]))
    long_value = string_option("a", choices=[{"name": "x", "value": "v" * 101}])
    assert any("value is at most 100" in rule for rule in rules([command(options=[long_value])]))
    # 25 options of 100-character descriptions, each with 25 choices: far over 8,000.
    choices = [{"name": f"c{i}" * 30, "value": f"v{i}"} for i in range(25)]
    big = command(
        options=[string_option(f"o{i}", description="d" * 100, choices=choices) for i in range(25)]
    )
    assert any("8000" in rule for rule in rules([big]))
    answer = {"choices": [{"name": "x", "value": "v" * 101}]}
    assert any("at most 100" in v.rule for v in autocomplete_violations("POST", answer))


# ---------------------------------------------------------------------- threads


async def test_threads_start_take_messages_and_archive(remote: FakeDiscord) -> None:
    remote.bot_permissions = ADMIN_PERMISSIONS
    message_id = channel_message(remote)
    status, thread = await send(remote, "POST", f"/channels/{CHANNEL_ID}/messages/{message_id}/threads",
                                {"name": "table 1", "auto_archive_duration": 1440})  # fmt: skip
    assert status == 201 and thread["type"] == 11 and thread["parent_id"] == str(CHANNEL_ID)
    thread_id = int(thread["id"])
    status, sent = await send(remote, "POST", f"/channels/{thread_id}/messages", {"content": "in"})
    assert status == 200 and remote.messages_in(thread_id)[0].id == int(sent["id"])
    status, answer = await send(remote, "POST", f"/channels/{thread_id}/messages",
                                {"content": "x" * 2001})  # fmt: skip
    refused(remote, status, answer, "content", "at most 2000")
    status, archived = await send(remote, "PATCH", f"/channels/{thread_id}", {"archived": True})
    assert status == 200 and archived["thread_metadata"]["archived"] is True
    status, answer = await send(remote, "PATCH", f"/channels/{thread_id}", {"archived": "yes"})
    refused(remote, status, answer, "", "schema")
    # An edit of the thread's message through the parent channel is unknown.
    status, answer = await send(
        remote, "PATCH", f"/channels/{CHANNEL_ID}/messages/{sent['id']}", {"content": "y"}
    )
    assert (status, answer["code"]) == (404, 10008)


async def test_threads_need_their_permissions_and_a_channel_that_holds_threads(
    remote: FakeDiscord,
) -> None:
    """Without Create Public Threads Discord answers 403 / 50013; without Send Messages in
    Threads a post in a thread is refused the same way; a thread cannot be started from a
    message in a thread (400 / 50024)."""
    message_id = channel_message(remote)
    path = f"/channels/{CHANNEL_ID}/messages/{message_id}/threads"
    remote.bot_permissions = ADMIN_PERMISSIONS & ~CREATE_PUBLIC_THREADS
    status, answer = await send(remote, "POST", path, {"name": "t"})
    assert (status, answer["code"]) == (403, 50013) and not remote.threads
    remote.bot_permissions = ADMIN_PERMISSIONS
    status, thread = await send(remote, "POST", path, {"name": "t"})
    assert status == 201
    thread_id = int(thread["id"])
    remote.bot_permissions = ADMIN_PERMISSIONS & ~SEND_MESSAGES_IN_THREADS
    status, answer = await send(remote, "POST", f"/channels/{thread_id}/messages", {"content": "x"})
    assert (status, answer["code"]) == (403, 50013) and not remote.messages_in(thread_id)
    remote.bot_permissions = ADMIN_PERMISSIONS
    status, inner = await send(remote, "POST", f"/channels/{thread_id}/messages", {"content": "x"})
    status, answer = await send(
        remote, "POST", f"/channels/{thread_id}/messages/{inner['id']}/threads", {"name": "t"}
    )
    assert (status, answer["code"]) == (400, 50024)
    # Archiving needs Manage Threads; a message in an archived thread cannot be edited.
    remote.bot_permissions = ADMIN_PERMISSIONS & ~MANAGE_THREADS
    status, answer = await send(remote, "PATCH", f"/channels/{thread_id}", {"archived": True})
    assert (status, answer["code"]) == (403, 50013) and not remote.threads[thread_id].archived
    remote.bot_permissions = ADMIN_PERMISSIONS
    status, _ = await send(remote, "PATCH", f"/channels/{thread_id}", {"archived": True})
    assert status == 200 and remote.threads[thread_id].archived
    status, answer = await send(
        remote, "PATCH", f"/channels/{thread_id}/messages/{inner['id']}", {"content": "y"}
    )
    assert (status, answer["code"]) == (400, 50083)
    assert remote.take_violations() == []


async def test_thread_names_and_unknown_parents_are_refused(remote: FakeDiscord) -> None:
    remote.bot_permissions = ADMIN_PERMISSIONS
    message_id = channel_message(remote)
    path = f"/channels/{CHANNEL_ID}/messages/{message_id}/threads"
    status, answer = await send(remote, "POST", path, {"name": "n" * 101})
    refused(remote, status, answer, "name", "schema")
    status, answer = await send(remote, "POST", path, {"auto_archive_duration": 1440})
    refused(remote, status, answer, "", "schema")
    status, answer = await send(
        remote, "POST", f"/channels/{OTHER_CHANNEL_ID}/messages/{message_id}/threads", {"name": "t"}
    )
    assert (status, answer["code"]) == (404, 10008)
    status, answer = await send(remote, "PATCH", f"/channels/{CHANNEL_ID}", {"archived": True})
    assert (status, answer["code"]) == (404, 10003)


async def test_threads_through_discord_py(remote: FakeDiscord) -> None:
    remote.bot_permissions = ADMIN_PERMISSIONS
    http = discord.http.HTTPClient(None)  # type: ignore[arg-type]
    remote.connect(http)
    message_id = channel_message(remote)
    thread = await http.start_thread_with_message(
        CHANNEL_ID, message_id, name="table", auto_archive_duration=60
    )
    params = handle_message_parameters(content="hello thread")
    sent = await http.send_message(int(thread["id"]), params=params)
    await http.edit_channel(int(thread["id"]), archived=True)
    assert remote.threads[int(thread["id"])].archived
    assert remote.messages[int(sent["id"])].channel_id == int(thread["id"])
    assert remote.violations == []


# ---------------------------------------------------------------------- allowances


async def test_discord_py_numeric_snowflakes_are_allowed(remote: FakeDiscord) -> None:
    """Allowance: discord.py sends ``recipient_id`` as a JSON number; Discord takes it."""
    status, answer = await send(remote, "POST", "/users/@me/channels", {"recipient_id": USER})
    assert status == 200 and remote.dm_owner[int(answer["id"])] == USER
    status, answer = await send(remote, "POST", "/users/@me/channels", {"recipient_id": "x1"})
    refused(remote, status, answer, "recipient_id", "schema")


# ---------------------------------------------------------------------- below discord.py


@pytest.fixture
def http(remote: FakeDiscord, fast_retries: None) -> discord.http.HTTPClient:
    client = discord.http.HTTPClient(None)  # type: ignore[arg-type]
    remote.connect(client)
    return client


def post_hello(http: discord.http.HTTPClient) -> Any:
    params = handle_message_parameters(content="hello")
    return http.send_message(CHANNEL_ID, params=params)


async def test_a_502_is_retried_by_discord_py_and_succeeds(
    remote: FakeDiscord, http: discord.http.HTTPClient
) -> None:
    remote.fail_next("POST", MESSAGES, 502)
    sent = await post_hello(http)
    attempts = [r for r in remote.requests if r.path == MESSAGES]
    assert [r.status for r in attempts] == [502, 200]
    assert remote.retry_sleeps == [1] and int(sent["id"]) in remote.messages


async def test_a_429_is_waited_out_by_discord_py(
    remote: FakeDiscord, http: discord.http.HTTPClient
) -> None:
    remote.fail_next("POST", MESSAGES, 429, times=2)
    await post_hello(http)
    assert [r.status for r in remote.requests] == [429, 429, 200]
    assert remote.retry_sleeps == [0.25, 0.25]


async def test_a_503_reaches_the_caller(remote: FakeDiscord, http: discord.http.HTTPClient) -> None:
    remote.fail_next("POST", MESSAGES, 503, code=0)
    with pytest.raises(discord.DiscordServerError):
        await post_hello(http)
    assert len(remote.requests) == 1 and remote.messages == {}


async def test_exhausted_retries_reach_the_caller(
    remote: FakeDiscord, http: discord.http.HTTPClient
) -> None:
    remote.fail_next("POST", MESSAGES, 502, times=5)
    with pytest.raises(discord.DiscordServerError):
        await post_hello(http)
    assert len(remote.requests) == 5 and remote.retry_sleeps == [1, 3, 5, 7, 9]


async def test_a_refusal_reaches_discord_py_as_a_form_error(
    remote: FakeDiscord, http: discord.http.HTTPClient
) -> None:
    params = handle_message_parameters(content="x" * 2001)
    with pytest.raises(discord.HTTPException) as raised:
        await http.send_message(CHANNEL_ID, params=params)
    assert raised.value.code == 50035 and "content" in str(raised.value)
    assert remote.take_violations()


async def test_fault_injection_on_the_webhook_adapter(
    remote: FakeDiscord, fast_retries: None
) -> None:
    """Interaction routes go through discord.py's webhook adapter, which retries any 5xx."""
    record = interaction(remote, kind=2)
    adapter = webhook_async.AsyncWebhookAdapter()
    session = remote.session()
    params = handle_message_parameters(content="hi")
    callback = {"type": CALLBACK_MESSAGE, "data": params.payload}
    remote.fail_next("POST", "/interactions/{webhook_id}/{webhook_token}/callback", 500)
    await adapter.request(
        Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
              webhook_id=record.id, webhook_token=record.token),
        session, payload=callback,  # type: ignore[arg-type]
    )  # fmt: skip
    assert [r.status for r in remote.requests] == [500, 200]
    assert record.callback_type == CALLBACK_MESSAGE
    remote.fail_next("PATCH", ORIGINAL, 404, code=10008)
    with pytest.raises(discord.NotFound):
        await adapter.edit_original_interaction_response(
            APPLICATION_ID, record.token, session=session, proxy=None, proxy_auth=None,  # type: ignore[arg-type]
            payload={"content": "edited"},
        )  # fmt: skip


def test_fault_injection_names_a_known_route(remote: FakeDiscord) -> None:
    with pytest.raises(AssertionError):
        remote.fail_next("POST", "/channels/{channel_id}/typing", 500)
    assert match_route("PATCH", "/webhooks/1/t/messages/@original") is not None
    assert match_route("PATCH", "/webhooks/1/t/messages/@original")[0] == ORIGINAL  # type: ignore[index]


async def test_a_violation_the_bot_swallows_still_fails_the_test(remote: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.none())
    harness = Harness(client, {}, remote.clock, remote=remote)
    await harness.start()
    try:
        await post_hello(client.http)
        params = handle_message_parameters(content="x" * 2001)
        with pytest.raises(discord.HTTPException):
            await client.http.send_message(CHANNEL_ID, params=params)
    finally:
        with pytest.raises(AssertionError, match="content is at most 2000"):
            await harness.close()
        await client.close()
    assert remote.violations == []


def test_fake_response_reads_like_aiohttp() -> None:
    response = FakeResponse(400, {"code": 50035})
    assert response.headers["content-type"] == "application/json"


# ---------------------------------------------------------------------- through the harness


class _SlowClient(discord.Client):
    """Acknowledges every interaction with a deferred update, whenever it gets to run."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.defer()
        except discord.NotFound as error:
            self.refusals.append(error.code)

    refusals: list[int]


async def test_a_click_acknowledged_after_three_seconds_fails(tmp_path: Any) -> None:
    clock = FakeClock()
    client = _SlowClient(intents=discord.Intents.none())
    client.refusals = []
    harness = Harness(client, {USER: ("alice", 0)}, clock)
    await harness.start()
    try:
        message = harness.remote._store(CHANNEL_ID, harness.remote.channel_audience(CHANNEL_ID),
                                        {"components": [row(button("go"))]}, [])  # fmt: skip
        on_time = await harness.click(USER, message, "go")
        assert on_time.callback_type == 6 and not on_time.failed
        late = await harness.click(USER, message, "go", settle=False)
        clock._now += 3.5  # the bot's event loop was busy for 3.5 s before the handler ran
        await harness.settle()
        assert late.failed and late.callback_type is None
        assert client.refusals == [10062]
        assert harness.failed_interactions() == [late]
    finally:
        await harness.close()
        await client.close()


async def test_a_502_on_a_table_edit_is_retried_by_discord_py(tmp_path: Any) -> None:
    from test_discord_bot import ALICE, open_table, start_bot, stop_bot

    from bot.presenter import Text

    env = await start_bot(tmp_path / "bot.db")
    try:
        await open_table(env, ALICE)
        await env.h.advance(5)
        table = env.bot.manager.by_channel(CHANNEL_ID)
        assert table is not None
        env.h.remote.fail_next("PATCH", MESSAGE, 502)
        await env.bot.presenter.notice(table.table_id, CHANNEL_ID, Text("通知", "notice"))
        await env.h.settle()
        edits = [r for r in env.h.remote.requests if r.method == "PATCH" and r.path == MESSAGE]
        assert [r.status for r in edits[-2:]] == [502, 200]
        assert env.h.remote.retry_sleeps == [1]
        assert any("通知" in m.payload["content"] for m in env.h.channel_messages())
    finally:
        await stop_bot(env)


async def test_a_503_on_a_table_edit_reaches_the_bot_which_carries_on(tmp_path: Any) -> None:
    from test_discord_bot import ALICE, open_table, start_bot, stop_bot

    from bot.presenter import Text

    env = await start_bot(tmp_path / "bot.db")
    try:
        await open_table(env, ALICE)
        await env.h.advance(5)
        table = env.bot.manager.by_channel(CHANNEL_ID)
        assert table is not None
        env.h.remote.fail_next("PATCH", MESSAGE, 503)
        await env.bot.presenter.notice(table.table_id, CHANNEL_ID, Text("通知一", "notice 1"))
        await env.h.settle()
        edits = [r for r in env.h.remote.requests if r.method == "PATCH" and r.path == MESSAGE]
        assert edits[-1].status == 503  # not retried: discord.py raises it to the bot
        assert not any("通知一" in m.payload["content"] for m in env.h.channel_messages())
        await env.h.advance(2)
        await env.bot.presenter.notice(table.table_id, CHANNEL_ID, Text("通知二", "notice 2"))
        await env.h.advance(2)
        assert any("通知二" in m.payload["content"] for m in env.h.channel_messages())
    finally:
        await stop_bot(env)


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        (
            "POST",
            f"/channels/{CHANNEL_ID}/messages",
            {"content": "a", "component": []},
            "component",
        ),
        ("POST", f"/channels/{CHANNEL_ID}/messages", {"content": "a", "embed": {}}, "embed"),
    ],
)
async def test_an_unknown_message_field_is_refused_but_tts_is_allowed(
    remote: FakeDiscord, method: str, path: str, body: dict[str, Any], field: str
) -> None:
    """Discord drops unknown fields silently; the fake refuses them so a typo shows. The
    allowance: discord.py's ``tts`` on every message body, edits included."""
    status, answer = await send(remote, method, path, body)
    refused(remote, status, answer, field, "unknown field")
    message_id = channel_message(remote)
    status, _ = await send(remote, "PATCH", f"/channels/{CHANNEL_ID}/messages/{message_id}",
                           {"content": "b", "tts": False})  # fmt: skip
    assert status == 200 and remote.violations == []
