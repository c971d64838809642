"""Option values a command declares but Discord does not enforce: a value that is not
one of the option's choices, a number outside its range, a text of the wrong length.

Why: Discord's client offers only the declared choices and ranges, but the API takes
any value (a client with stale commands, a hand-made request). Each command refused such
a value its own way, most with a bare 参数无效：<value> that named neither the option
nor what it takes, some listing internal codes (easy/normal/hard). One check before
every command reads the command tree itself, so the refusal names the option as the
reader's client names it and lists the choices by the names its menu shows: the
declarations are the one source, never a copy of them here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from discord import AppCommandOptionType, app_commands

from bot.i18n import Text
from bot.messages import msg_each

__all__ = ["choice_names", "refused_option"]

_GROUPING = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)
_NUMBERS = (AppCommandOptionType.integer, AppCommandOptionType.number)
_KIND_MESSAGES = {
    AppCommandOptionType.integer: "error.option_kind.whole",
    AppCommandOptionType.number: "error.option_kind.number",
    AppCommandOptionType.boolean: "error.option_kind.yes_no",
    AppCommandOptionType.string: "error.option_kind.text",
}


def _chinese(name: app_commands.locale_str | None, english: str) -> str:
    """The zh-CN name declared with ``T`` (the translator's own source), else English."""
    extras: Mapping[str, Any] = name.extras if name is not None else {}
    return str(extras.get("zh") or english)


def _given_options(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The command's own options, below its subcommand group and subcommand."""
    options: list[Mapping[str, Any]] = list(data.get("options") or [])
    while len(options) == 1 and options[0].get("type") in _GROUPING:
        options = list(options[0].get("options") or [])
    return options


def choice_names(choices: Iterable[app_commands.Choice[Any]]) -> Text:
    """The choices as a menu lists them: zh-CN as declared with ``T``, else English."""
    listed = [(_chinese(choice._locale_name, choice.name), choice.name) for choice in choices]
    return Text("、".join(zh for zh, _ in listed), ", ".join(en for _, en in listed))


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}" if value % 1 else str(int(value))


def _bounds_text(
    key: str, option: Text, low: float | None, high: float | None, typed: str | None = None
) -> Text:
    """The range message: both ends, or the one end the declaration has; ``typed`` is
    the number sent (a text too long is not repeated)."""
    suffix = (
        "range" if low is not None and high is not None else "min" if low is not None else "max"
    )
    values = {"low": _number(low), "high": _number(high)}
    if typed is not None:
        values["typed"] = typed
    return msg_each(
        f"{key}.{suffix}", {"option": option.zh, **values}, {"option": option.en, **values}
    )


def _within(amount: float, low: float | None, high: float | None) -> bool:
    return (low is None or amount >= low) and (high is None or amount <= high)


def _same(value: Any, declared: Any) -> bool:
    """Equal, and not a bool standing for 1 or 0 (``True == 1`` in Python)."""
    return bool(value == declared) and isinstance(value, bool) == isinstance(declared, bool)


def _wrong_kind(kind: AppCommandOptionType, value: Any, option: Text) -> Text | None:
    """The refusal of a value of another type than the option's (a text for a number,
    a number for a yes/no): the commands compare and store what they get, and a text
    reaching ``1 <= page`` was a crash the user read as "try again"."""
    exact = not isinstance(value, bool)
    if kind is AppCommandOptionType.integer:
        fits = exact and isinstance(value, int)
    elif kind is AppCommandOptionType.number:
        fits = exact and isinstance(value, int | float)
    elif kind is AppCommandOptionType.boolean:
        fits = not exact
    elif kind is AppCommandOptionType.string:
        fits = isinstance(value, str)
    else:
        return None  # users, channels, roles: discord.py resolves them (TransformerError)
    if fits:
        return None
    typed = f'"{str(value)[:40]}"' if isinstance(value, str) else str(value)[:40]
    return msg_each(
        _KIND_MESSAGES[kind],
        {"option": option.zh, "typed": typed},
        {"option": option.en, "typed": typed},
    )


def refused_option(command: Any, data: Mapping[str, Any], *, ranges: bool = True) -> Text | None:
    """Why a slash command's option values are refused, or None when each is one the
    command declares (only options given are checked: a missing optional one takes its
    default in the command). ``ranges=False`` checks the types, choices and text lengths
    only: before a command runs, since many commands say more about their number ranges
    than a declaration can (the unit, the thousands separators, why zero is refused),
    while a text's length needs no more than its count (and a cut text loses words)."""
    if not isinstance(command, app_commands.Command):
        return None
    parameters = {parameter.display_name: parameter for parameter in command.parameters}
    for given in _given_options(data):
        parameter = parameters.get(str(given.get("name")))
        if parameter is None:
            continue
        value: Any = given.get("value")
        typed = str(value)[:40]  # what they sent, shown as typed text (escaped, kept as is)
        option = Text(
            _chinese(parameter.locale_name, parameter.display_name), parameter.display_name
        )
        choices = parameter.choices
        if choices:  # compared as they are: a text "5" is not the choice 5
            if any(_same(value, choice.value) for choice in choices):
                continue
            names = choice_names(choices)
            return msg_each(
                "error.option_choice",
                {"option": option.zh, "choices": names.zh, "typed": typed},
                {"option": option.en, "choices": names.en, "typed": typed},
            )
        wrong = _wrong_kind(parameter.type, value, option)
        if wrong is not None:
            return wrong
        low, high = parameter.min_value, parameter.max_value
        if low is None and high is None:
            continue
        if parameter.type in _NUMBERS:
            if not ranges:
                continue
            if _within(value, low, high):  # of the option's type (``_wrong_kind``)
                continue
            whole = parameter.type is AppCommandOptionType.integer
            key = "error.option_whole" if whole else "error.option_number"
            return _bounds_text(key, option, low, high, typed)
        if parameter.type is AppCommandOptionType.string:
            if _within(len(value), low, high):
                continue
            return _bounds_text("error.option_length", option, low, high)
    return None
