"""Commands named in the bot's replies as the reader's Discord client lists them.

Why: a zh-CN client lists the commands by their Chinese names (/牌桌 开桌), so a Chinese
reply that said "用 /table create 开一桌" named a command the reader could not find by
typing what it said. A message names a command as ``{/table create}``; ``msg`` fills
it in for each language from the command tree's own translations (the ``T`` names the
cogs declare), never from a copy that could drift. When the bot knows the commands' ids
(it synced them, or fetched them for /help) the name becomes a mention, ``</table
create:ID>``, which Discord shows in the reader's own language and opens on a click.

The ids are process-wide, as the commands are: one bot per process registers them
(``MahjongBot`` sets them whenever it learns or forgets them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = [
    "COMMAND_FIELD",
    "command_paths",
    "fill_commands",
    "set_command_ids",
    "written_command",
]

# ``{/table create}`` in a message: the command, named for the reader.
COMMAND_FIELD = re.compile(r"\{/([a-z_]+(?: [a-z_]+)*)\}")

_ids: dict[str, int] = {}
_chinese: dict[str, str] | None = None


def set_command_ids(ids: Mapping[str, int] | None) -> None:
    """The top-level commands' ids (None or empty: not known, so names are written)."""
    _ids.clear()
    _ids.update(ids or {})


def _walk(commands: Any, parent_zh: str = "") -> Iterator[tuple[str, str]]:
    for command in commands:
        locale_name = getattr(command, "_locale_name", None)
        extras = getattr(locale_name, "extras", {}) if locale_name is not None else {}
        chinese = extras.get("zh") or command.name
        path_zh = f"{parent_zh} {chinese}".strip()
        yield command.qualified_name, path_zh
        yield from _walk(getattr(command, "commands", ()), path_zh)


def command_paths() -> dict[str, str]:
    """Every command and group by its English path, with its zh-CN path."""
    global _chinese
    if _chinese is None:
        # Imported here: the cogs import the messages this module fills in.
        from bot.app import COGS

        _chinese = dict(
            pair for cog in COGS for pair in _walk(getattr(cog, "__cog_app_commands__", ()))
        )
    return _chinese


def written_command(path: str, language: str) -> str:
    """``path`` for a reader of ``language`` ("zh" or "en"): a mention when its id is
    known, else the name as their client lists it (zh-TW readers get the Chinese in
    Traditional characters with the rest of the reply, as the translator gives it)."""
    paths = command_paths()
    if path not in paths:
        raise KeyError(f"no command /{path}")
    top = path.split()[0]
    if top in _ids:
        return f"</{path}:{_ids[top]}>"
    return f"`/{paths[path] if language == 'zh' else path}`"


def fill_commands(template: str, language: str) -> str:
    """``template`` with each ``{/command}`` written for a reader of ``language``."""
    return COMMAND_FIELD.sub(lambda found: written_command(found.group(1), language), template)
