"""What Discord refuses: its OpenAPI request schemas plus the documented limits they omit.

The fake Discord (``discord_harness.FakeDiscord``) runs every request body through
:func:`check_request`; each problem is a :class:`Violation` naming the route, the field and
the rule, which the fake answers with 400 / 50035 as Discord does *and* records so that a
bot swallowing the HTTP error still fails its test.

The schemas come from Discord's own ``openapi.json`` (vendored with its MIT licence in
``tests/discord_spec/``), validated with ``jsonschema``; the spec is parsed once per
process. Where the spec is looser than the documentation (content ≤ 4,000 in the spec,
2,000 documented; nothing on custom_id uniqueness, flags per route, command names ...)
the documented limit is checked here by hand. Where the spec is stricter than what
Discord accepts, the gap is an explicit allowance in :func:`_spec` with its reason.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).resolve().parent / "discord_spec" / "openapi.json"

MAX_CONTENT = 2000  # documented; the spec says 4,000 for channel messages
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_EMBEDS = 10
MAX_FILES = 10
MAX_UPLOAD = 10 * 1024 * 1024  # the interaction's attachment_size_limit for an unboosted guild
MAX_COMMAND_OPTIONS = 25
MAX_DESCRIPTION = 100
MAX_CHOICES = 25
MAX_CHOICE_VALUE = 100  # a string choice's value (documented; the spec allows 6,000)
MAX_COMMAND_SIZE = 8000  # names, descriptions and values of a command, counted together
MAX_EMBED_TOTAL = 6000  # the characters of all a message's embeds together
NAME_PATTERN = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")

SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_VOICE_MESSAGE = 1 << 13
IS_COMPONENTS_V2 = 1 << 15

# The message flags each kind of request may set (Discord's documentation of each route).
FLAGS_CHANNEL_CREATE = (
    SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2
)
FLAGS_EDIT = SUPPRESS_EMBEDS | IS_COMPONENTS_V2
FLAGS_INTERACTION_REPLY = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
FLAGS_DEFERRED_REPLY = EPHEMERAL  # a deferred ("thinking") reply sets visibility only
FLAGS_FOLLOWUP = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2

SELECT_TYPES = {3, 5, 6, 7, 8}
BUTTON = 2
ACTION_ROW = 1


@dataclass(frozen=True)
class Violation:
    """One refused request: ``route`` is "METHOD template", ``field`` a dotted path."""

    route: str
    field: str
    rule: str

    def __str__(self) -> str:
        return f"{self.route}: {self.field or '(body)'}: {self.rule}"


@functools.cache
def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    # Allowance: the spec types snowflakes as decimal strings, but Discord parses integer
    # snowflakes too, and discord.py sends some as JSON numbers (``recipient_id`` of
    # POST /users/@me/channels, attachment ``id``s it numbers itself on upload).
    schemas["SnowflakeType"] = {
        "anyOf": [dict(schemas["SnowflakeType"]), {"type": "integer", "minimum": 0}]
    }
    return spec


@functools.cache
def _registry() -> Registry:  # type: ignore[type-arg]
    return Registry().with_resource("discord-openapi", DRAFT202012.create_resource(_spec()))


def _discriminant(validator: Any, member: dict[str, Any]) -> tuple[str, Any]:
    """What a union member accepts at a glance: ("null", None) for ``{"type": "null"}``,
    ("type", {enum}) for an object whose ``type`` property is an enum, else ("any", None)."""
    key = id(member)
    known = _DISCRIMINANTS.get(key)
    if known is not None:
        return known[1]
    contents = member
    if "$ref" in member:
        contents = validator._resolver.lookup(member["$ref"]).contents
    if contents.get("type") == "null" and len(contents) == 1:
        found: tuple[str, Any] = ("null", None)
    else:
        enum = ((contents.get("properties") or {}).get("type") or {}).get("enum")
        found = ("type", frozenset(enum)) if isinstance(enum, list) else ("any", None)
    _DISCRIMINANTS[key] = (member, found)  # keeps ``member`` alive so its id stays its own
    return found


_DISCRIMINANTS: dict[int, tuple[dict[str, Any], tuple[str, Any]]] = {}


def _candidates(validator: Any, members: list[Any], instance: Any) -> list[Any]:
    """The members a value can be meant for. Discord's unions are tagged: a component or a
    callback names its kind in ``type``, and null is its own member; validating only the
    tagged member is what Discord does, and it keeps a 40-component message from being
    checked against every component kind (seconds per request otherwise)."""
    chosen = []
    for member in members:
        if not isinstance(member, dict):
            chosen.append(member)
            continue
        kind, values = _discriminant(validator, member)
        if kind == "null" and instance is not None:
            continue
        if kind != "null" and instance is None and member.get("type") != "null":
            chosen.append(member)
            continue
        if kind == "type" and isinstance(instance, dict) and instance.get("type") not in values:
            continue
        chosen.append(member)
    return chosen or members


def _tagged_union(validator: Any, members: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """``anyOf``/``oneOf`` over the tagged members only; the spec writes Discord's unions
    both ways and means "exactly one" by either (tests/discord_spec/README.md)."""
    candidates = _candidates(validator, members, instance)
    all_errors: list[Any] = []
    passed = 0
    for index, member in enumerate(candidates):
        errors = list(validator.descend(instance, member, schema_path=index))
        if not errors:
            passed += 1
            break
        all_errors.extend(errors)
    if not passed:
        yield jsonschema.ValidationError(
            f"{instance!r:.200} is not valid under any of the given schemas", context=all_errors
        )


_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, {"anyOf": _tagged_union, "oneOf": _tagged_union}
)


@functools.cache
def _validator(spec_path: str, method: str) -> jsonschema.protocols.Validator | None:
    """The JSON-body validator of one spec route, built once per process."""
    operation = _spec()["paths"].get(spec_path, {}).get(method.lower())
    if operation is None or "requestBody" not in operation:
        return None
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    wrapped = {"$schema": "https://json-schema.org/draft/2020-12/schema", **_rebase(schema)}
    return _Validator(wrapped, registry=_registry())


def _rebase(schema: Any) -> Any:
    """Point the spec's local ``#/components/...`` refs at the registered spec document."""
    if isinstance(schema, dict):
        return {
            key: ("discord-openapi" + value if key == "$ref" and value.startswith("#") else
                  _rebase(value))
            for key, value in schema.items()
        }  # fmt: skip
    if isinstance(schema, list):
        return [_rebase(item) for item in schema]
    return schema


def spec_has_route(spec_path: str, method: str) -> bool:
    return method.lower() in _spec()["paths"].get(spec_path, {})


def _dotted(path: Iterator[Any] | Any) -> str:
    return ".".join(str(part) for part in path)


def schema_violations(
    route: str, spec_path: str, method: str, body: Any, *, schema_name: str | None = None
) -> list[Violation]:
    """Errors against the route's request schema (or the named component schema, where
    the route's union is looser than the channel it targets, e.g. a thread)."""
    return list(_schema_violations(route, spec_path, method, json.dumps(body), schema_name))


@functools.lru_cache(maxsize=4096)
def _schema_violations(
    route: str, spec_path: str, method: str, body_json: str, schema_name: str | None
) -> tuple[Violation, ...]:
    """Memoised on the body's JSON: a bot sends the same body (a defer, an unchanged
    row of buttons ...) many times, and a full component message costs ~10 ms to check."""
    body = json.loads(body_json)
    validator = _named_validator(schema_name) if schema_name else _validator(spec_path, method)
    if validator is None:
        return ()
    found = []
    for error in validator.iter_errors(body):
        best = _deepest(error)
        where = _dotted(best.absolute_path)
        found.append(Violation(route, where, f"schema: {best.message[:300]}"))
    return tuple(found)


@functools.cache
def _named_validator(schema_name: str) -> jsonschema.protocols.Validator:
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$ref": f"discord-openapi#/components/schemas/{schema_name}"}  # fmt: skip
    return _Validator(schema, registry=_registry())


def _deepest(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """The error that names the field, not the union around it.

    A failed ``anyOf``/``oneOf`` holds every member's errors; the member meant is the one
    whose ``type`` discriminator (or JSON type) matched, and among those the
    one with the fewest errors. Descend into it until an error has no members."""
    while error.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)

        def rank(errors: list[jsonschema.ValidationError]) -> tuple[int, int]:
            typed = any(
                list(e.relative_path) == ["type"]
                or (not list(e.relative_path) and e.validator == "type")
                for e in errors
            )  # the member is for another kind (or JSON type) of value
            return (1 if typed else 0, len(errors))

        chosen = min(branches.values(), key=rank)
        error = max(chosen, key=lambda e: len(list(e.absolute_path)))
    return error


# Allowances: fields Discord accepts in a message body although the body's schema does not
# list them. Discord ignores unknown fields, but the fake refuses them (a misspelt
# "component" would otherwise vanish silently); these are the known, harmless ones.
EXTRA_MESSAGE_FIELDS = {
    # discord.py's handle_message_parameters puts ``tts`` in every message body, edits and
    # interaction updates included; the spec lists it only where a message is created.
    "tts",
}

# The schema of the message body of each kind of request (for the unknown-field check).
MESSAGE_SCHEMAS = {
    "channel-create": "MessageCreateRequest",
    "channel-edit": "MessageEditRequestPartial",
    "interaction-reply": "IncomingWebhookInteractionRequest",
    "interaction-update": "IncomingWebhookUpdateForInteractionCallbackRequestPartial",
    "followup": "IncomingWebhookRequestPartial",
    "webhook-edit": "IncomingWebhookUpdateRequestPartial",
}


def unknown_field_violations(
    route: str, body: dict[str, Any] | None, kind: str, prefix: str = ""
) -> list[Violation]:
    known = set(_spec()["components"]["schemas"][MESSAGE_SCHEMAS[kind]].get("properties", {}))
    return [
        Violation(
            route,
            prefix + key,
            f"unknown field for {MESSAGE_SCHEMAS[kind]} (Discord ignores it; a typo?)",
        )
        for key in (body or {})
        if key not in known and key not in EXTRA_MESSAGE_FIELDS
    ]


# ---------------------------------------------------------------------- documented limits


def message_violations(
    route: str,
    body: dict[str, Any] | None,
    files: list[tuple[str, bytes]],
    *,
    allowed_flags: int,
    creating: bool,
    prefix: str = "",
    kind: str | None = None,
) -> list[Violation]:
    """Limits of a message body (create or edit) that the schema does not encode, and
    (given its ``kind``, a key of ``MESSAGE_SCHEMAS``) fields its schema does not know."""
    found: list[Violation] = []
    body = body or {}
    if kind is not None:
        found.extend(unknown_field_violations(route, body, kind, prefix))

    def bad(field: str, rule: str) -> None:
        found.append(Violation(route, prefix + field, rule))

    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        bad("content", f"content is at most {MAX_CONTENT} characters (got {len(content)})")
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        bad("embeds", f"at most {MAX_EMBEDS} embeds (got {len(embeds)})")
    embed_total = sum(_embed_size(embed) for embed in embeds if isinstance(embed, dict))
    if embed_total > MAX_EMBED_TOTAL:
        bad("embeds", f"embeds total at most {MAX_EMBED_TOTAL} characters (got {embed_total})")
    flags = body.get("flags") or 0
    if isinstance(flags, int) and flags & ~allowed_flags:
        bad(
            "flags",
            f"flags {flags & ~allowed_flags} are not allowed here (allowed {allowed_flags})",
        )
    components = body.get("components") or []
    if not (isinstance(flags, int) and flags & IS_COMPONENTS_V2):
        found.extend(_component_violations(route, prefix, components))
    if len(files) > MAX_FILES:
        bad("files", f"at most {MAX_FILES} files (got {len(files)})")
    total = 0
    for index, (name, data) in enumerate(files):
        total += len(data)
        if len(data) > MAX_UPLOAD:
            bad(
                f"files[{index}]", f"{name}: a file is at most {MAX_UPLOAD} bytes (got {len(data)})"
            )
    if total > MAX_UPLOAD:
        bad("files", f"the files total at most {MAX_UPLOAD} bytes (got {total})")
    # Content of only whitespace counts as none (Discord strips it: 50006).
    has_content = isinstance(content, str) and content.strip()
    if creating and not (has_content or embeds or components or files or body.get("sticker_ids")
                         or body.get("poll")):  # fmt: skip
        bad("content", "cannot send an empty message (no content, embeds, components or files)")
    return found


def _embed_size(embed: dict[str, Any]) -> int:
    """The characters Discord counts toward the 6,000 of a message's embeds."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        size += len(field.get("name") or "") + len(field.get("value") or "")
    return size


def _component_violations(
    route: str, prefix: str, components: list[dict[str, Any]]
) -> list[Violation]:
    found: list[Violation] = []
    if len(components) > MAX_ROWS:
        found.append(
            Violation(
                route,
                prefix + "components",
                f"at most {MAX_ROWS} action rows (got {len(components)})",
            )
        )
    seen: set[str] = set()
    for row_index, row in enumerate(components):
        where = f"{prefix}components.{row_index}"
        if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
            found.append(Violation(route, where, "a top-level component must be an action row"))
            continue
        items = row.get("components") or []
        kinds = [item.get("type") for item in items if isinstance(item, dict)]
        selects = sum(1 for kind in kinds if kind in SELECT_TYPES)
        if selects and len(items) > 1:
            found.append(Violation(route, where, "a select menu must be alone in its action row"))
        if kinds.count(BUTTON) > MAX_ROW_BUTTONS:
            found.append(Violation(route, where, f"an action row holds at most {MAX_ROW_BUTTONS} "
                                                 f"buttons (got {kinds.count(BUTTON)})"))  # fmt: skip
        for item_index, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            item_where = f"{where}.components.{item_index}"
            custom_id = item.get("custom_id")
            if isinstance(custom_id, str):
                if len(custom_id) > MAX_CUSTOM_ID:
                    found.append(Violation(route, item_where + ".custom_id",
                                           f"custom_id is at most {MAX_CUSTOM_ID} characters "
                                           f"(got {len(custom_id)})"))  # fmt: skip
                if custom_id in seen:
                    found.append(Violation(route, item_where + ".custom_id",
                                           f"custom_id {custom_id!r} is not unique in the message"))  # fmt: skip
                seen.add(custom_id)
            options = item.get("options")
            if isinstance(options, list) and len(options) > MAX_SELECT_OPTIONS:
                found.append(Violation(route, item_where + ".options",
                                       f"a select has at most {MAX_SELECT_OPTIONS} options "
                                       f"(got {len(options)})"))  # fmt: skip
            if isinstance(options, list):
                found.extend(_select_violations(route, item_where, item, options))
    return found


def _select_violations(
    route: str, where: str, select: dict[str, Any], options: list[Any]
) -> list[Violation]:
    """A string select's options against each other and its value counts."""
    found: list[Violation] = []
    values = [option.get("value") for option in options if isinstance(option, dict)]
    if len(values) != len(set(values)):
        found.append(Violation(route, where + ".options",
                               "option values must be unique "
                               "(SELECT_COMPONENT_OPTION_VALUE_DUPLICATED)"))  # fmt: skip
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if isinstance(low, int) and low > len(options):
        found.append(Violation(route, where + ".min_values",
                               f"min_values {low} is more than the {len(options)} options"))  # fmt: skip
    defaults = sum(1 for option in options if isinstance(option, dict) and option.get("default"))
    if isinstance(high, int) and defaults > high:
        found.append(Violation(route, where + ".options",
                               f"{defaults} default options but max_values is {high}"))  # fmt: skip
    return found


def autocomplete_violations(route: str, data: dict[str, Any] | None) -> list[Violation]:
    choices = (data or {}).get("choices") or []
    if len(choices) > MAX_CHOICES:
        return [Violation(route, "data.choices",
                          f"at most {MAX_CHOICES} autocomplete choices (got {len(choices)})")]  # fmt: skip
    return _choice_value_violations(route, "data.choices", choices)


def _choice_value_violations(route: str, where: str, choices: list[Any]) -> list[Violation]:
    return [
        Violation(
            route,
            f"{where}.{index}.value",
            f"a choice's value is at most {MAX_CHOICE_VALUE} characters",
        )
        for index, choice in enumerate(choices)
        if isinstance(choice, dict)
        and isinstance(choice.get("value"), str)
        and len(choice["value"]) > MAX_CHOICE_VALUE
    ]


def command_violations(route: str, commands: Any) -> list[Violation]:
    """Name and size rules of application commands (bulk overwrite)."""
    found: list[Violation] = []
    for index, command in enumerate(commands or []):
        if isinstance(command, dict):
            chat_input = command.get("type", 1) == 1
            found.extend(_named_violations(route, f"{index}", command, chat_input))
            size = _command_size(command)
            if size > MAX_COMMAND_SIZE:
                found.append(Violation(route, f"{index}",
                                       f"a command's names, descriptions and values total at "
                                       f"most {MAX_COMMAND_SIZE} characters (got {size})"))  # fmt: skip
    return found


def _longest(item: dict[str, Any], field: str) -> int:
    """A field's size as Discord counts it: its longest localization or itself."""
    forms = [item.get(field) or "", *((item.get(f"{field}_localizations") or {}).values())]
    return max(len(str(form)) for form in forms)


def _command_size(item: dict[str, Any]) -> int:
    size = _longest(item, "name") + _longest(item, "description")
    if isinstance(item.get("value"), str):
        size += len(item["value"])
    for child in [*(item.get("options") or []), *(item.get("choices") or [])]:
        if isinstance(child, dict):
            size += _command_size(child)
    return size


def _named_violations(
    route: str, where: str, item: dict[str, Any], check_name: bool
) -> list[Violation]:
    found: list[Violation] = []
    name = item.get("name")
    if check_name and isinstance(name, str):
        if not NAME_PATTERN.match(name) or "\u00a0" in name:
            found.append(Violation(route, where + ".name",
                                   rf"name {name!r} must match ^[-_\p{{L}}\p{{N}}\p{{sc=Deva}}"
                                   rf"\p{{sc=Thai}}]{{1,32}}$"))  # fmt: skip
        elif name != name.lower():
            found.append(Violation(route, where + ".name", f"name {name!r} must be lowercase"))
    description = item.get("description")
    if isinstance(description, str) and len(description) > MAX_DESCRIPTION:
        found.append(Violation(route, where + ".description",
                               f"description is at most {MAX_DESCRIPTION} characters"))  # fmt: skip
    for field in ("name_localizations", "description_localizations"):
        for locale, text in (item.get(field) or {}).items():
            if locale not in _locales():
                found.append(Violation(route, f"{where}.{field}",
                                       f"{locale!r} is not a locale Discord has"))  # fmt: skip
            elif (
                field == "name_localizations"
                and check_name
                and isinstance(text, str)
                and (not NAME_PATTERN.match(text) or text != text.lower())
            ):
                found.append(Violation(route, f"{where}.{field}.{locale}",
                                       f"localized name {text!r} must match the name pattern "
                                       "and be lowercase"))  # fmt: skip
    options = item.get("options") or []
    required = [bool(o.get("required")) for o in options if isinstance(o, dict)]
    if any(later and not earlier for earlier, later in itertools.pairwise(required)):
        found.append(Violation(route, where + ".options",
                               "required options must come before optional ones"))  # fmt: skip
    if len(options) > MAX_COMMAND_OPTIONS:
        found.append(Violation(route, where + ".options",
                               f"at most {MAX_COMMAND_OPTIONS} options (got {len(options)})"))  # fmt: skip
    names = [o.get("name") for o in options if isinstance(o, dict)]
    if len(names) != len(set(names)):
        found.append(Violation(route, where + ".options", "option names must be unique"))
    for index, option in enumerate(options):
        if isinstance(option, dict):
            found.extend(_named_violations(route, f"{where}.options.{index}", option, True))
            choices = option.get("choices") or []
            if len(choices) > MAX_CHOICES:
                found.append(Violation(route, f"{where}.options.{index}.choices",
                                       f"at most {MAX_CHOICES} choices"))  # fmt: skip
            if choices and option.get("autocomplete"):
                found.append(Violation(route, f"{where}.options.{index}",
                                       "an option has choices or autocomplete, not both"))  # fmt: skip
            found.extend(
                _choice_value_violations(route, f"{where}.options.{index}.choices", choices)
            )
    return found


@functools.cache
def _locales() -> frozenset[str]:
    """The locales Discord has (the spec's ``AvailableLocalesEnum``)."""
    schema = _spec()["components"]["schemas"]["AvailableLocalesEnum"]
    return frozenset(member["const"] for member in schema["oneOf"])


def form_errors(violations: list[Violation]) -> dict[str, Any]:
    """Discord's nested ``errors`` object of a 50035 answer (what discord.py flattens)."""
    errors: dict[str, Any] = {}
    for violation in violations:
        node = errors
        for part in [p for p in violation.field.split(".") if p] or ["_body"]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append(
            {"code": "BASE_TYPE_INVALID", "message": violation.rule}
        )
    return errors
