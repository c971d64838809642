"""What a host asks for when opening a table, and the one check of it.

``/table create`` checks the request before it answers (Discord shows ranges and
choices to the client but does not enforce them) and the session checks it again when
it opens the table; both call ``TableOptions.validate`` so the two can never disagree.
Everything about the rule set (its name, seat counts, option ranges) comes from the
registry, so a rule set added there is accepted here with no edit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from discord import app_commands

from bot.i18n import T, Text
from bot.option_checks import choice_names
from engine.ai import LEVELS as AI_LEVELS
from engine.variants import RULE_SETS, OptionError, Variant, get_rules

DISCARD_TIMEOUT_RANGE = (5.0, 600.0)
CLAIM_TIMEOUT_RANGE = (3.0, 300.0)
MAX_STAKE = 1_000_000


# The AI levels as ``/table create`` offers them (the command declares these choices;
# a refusal lists them by the same names).
AI_LEVEL_CHOICES = [
    app_commands.Choice(name=T("Easy", "简单"), value="easy"),
    app_commands.Choice(name=T("Normal", "普通"), value="normal"),
    app_commands.Choice(name=T("Hard", "困难"), value="hard"),
]


def rounds_description() -> app_commands.locale_str:
    """``/table create rounds``: the command declares one range for every rule set (the
    largest), so its description says each rule set's own limit (Jiaxing refuses 5)."""
    limits = [(rules, rules.options_class.rounds_range()[1]) for rules in RULE_SETS.values()]
    return T(
        "Rounds to play: " + ", ".join(
            f"{rules.short_name_en or rules.name_en} up to {most}" for rules, most in limits
        ),
        "打几圈：" + "，".join(f"{rules.name_zh}最多 {most} 圈" for rules, most in limits),
    )  # fmt: skip


class TableOptionsError(ValueError):
    """A table request that cannot be opened; ``text`` says why, in both languages."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.both())
        self.text = text


@dataclass(frozen=True)
class TableOptions:
    """A table request. ``rounds`` and the timeouts may be left out (None): the rule
    set's default and the server's settings fill them in."""

    variant: str
    num_seats: int = 4
    stake: int = 1
    rounds: int | None = None
    discard_timeout: float | None = None
    claim_timeout: float | None = None
    options: dict[str, Any] = field(default_factory=dict)
    ai_level: str | None = None  # None: the bot's default level

    def validate(self) -> Variant:
        """The table's mechanics (options parsed) if the request is playable, else
        ``TableOptionsError``; nothing is created either way."""
        # Choices named as the players' menus name them, never by their internal codes.
        if self.variant not in RULE_SETS:
            known = Text(
                "、".join(rules.name_zh for rules in RULE_SETS.values()),
                ", ".join(rules.name_en for rules in RULE_SETS.values()),
            )
            raise TableOptionsError(
                Text(
                    f"未知玩法 {self.variant[:40]!r}（可选：{known.zh}）",
                    f"unknown variant {self.variant[:40]!r} (one of: {known.en})",
                )
            )
        rules = get_rules(self.variant)
        if self.ai_level is not None and self.ai_level not in AI_LEVELS:
            levels = choice_names(AI_LEVEL_CHOICES)
            raise TableOptionsError(
                Text(
                    f"未知的电脑难度 {self.ai_level[:20]!r}（可选：{levels.zh}）",
                    f"unknown AI level {self.ai_level[:20]!r} (one of: {levels.en})",
                )
            )
        if self.rounds is not None:
            fewest, most = rules.options_class.rounds_range()
            if isinstance(self.rounds, bool) or not fewest <= self.rounds <= most:
                raise TableOptionsError(
                    Text(
                        f"{rules.name_zh}的圈数必须在 {fewest} 到 {most} 之间",
                        f"{rules.short_name_en or rules.name_en} plays {fewest} to {most} rounds",
                    )
                )
        option_values = dict(self.options)
        if self.rounds is not None:
            option_values["rounds"] = self.rounds
        try:
            mechanics = rules.make(option_values)
        except OptionError as error:
            raise TableOptionsError(
                Text(f"选项无效：{error.zh}", f"Invalid option: {error}")
            ) from error
        if self.num_seats not in rules.allowed_seats:
            allowed = "/".join(map(str, rules.allowed_seats))
            raise TableOptionsError(
                Text(
                    f"{rules.name_zh} 只能 {allowed} 人玩",
                    f"{rules.short_name_en or rules.name_en} is played by {allowed} players",
                )
            )
        try:
            mechanics.check_deal(self.num_seats)
        except OptionError as error:
            raise TableOptionsError(
                Text(f"选项无效：{error.zh}", f"Invalid option: {error}")
            ) from error
        stake = self.stake
        if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE:
            raise TableOptionsError(
                Text(
                    f"底注必须是 1 到 {MAX_STAKE} 的整数",
                    f"The stake must be a whole number from 1 to {MAX_STAKE}",
                )
            )
        timeouts: tuple[tuple[float | None, tuple[float, float], str, str], ...] = (
            (self.discard_timeout, DISCARD_TIMEOUT_RANGE, "出牌限时", "discard timeout"),
            (self.claim_timeout, CLAIM_TIMEOUT_RANGE, "吃碰限时", "claim timeout"),
        )
        for timeout, (low, high), zh, en in timeouts:
            if timeout is not None and not low <= timeout <= high:
                raise TableOptionsError(
                    Text(
                        f"{zh}必须在 {low:g} 到 {high:g} 秒之间",
                        f"The {en} must be {low:g} to {high:g} seconds",
                    )
                )
        return mechanics


__all__ = [
    "AI_LEVELS",
    "AI_LEVEL_CHOICES",
    "CLAIM_TIMEOUT_RANGE",
    "DISCARD_TIMEOUT_RANGE",
    "MAX_STAKE",
    "TableOptions",
    "TableOptionsError",
    "rounds_description",
]
