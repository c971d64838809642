"""Every rule option of a table reachable from Discord: the "more rules" panel of a lobby.

``/table create`` answers with a 更多规则 / More rules button. The host opens a panel
listing every option of the table's rule set (read from its options class: fields,
``CHOICES`` and ``RANGES``, so a rule set added to the registry is covered with no edit
here), picks one, and sets it with a select (yes/no, a choice, a small range) or a modal
text box (a wide integer range). Discord enforces none of this, so every value is parsed
here and then checked by ``TableOptions.validate`` — the same check the session and the
engine run — and a bad value gets a bilingual reason and changes nothing.

Custom ids (``DynamicItem``, so a click on an old panel is answered, not dropped):
``mj:r:<table>:open`` (the button), ``mj:r:<table>:pick`` (choose an option),
``mj:r:<table>:v:<option>`` (choose its value); the modal is ``mj:r:<table>:m:<option>``.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.discord_ack import AckGuard
from bot.i18n import Text, in_readers_script, is_chinese, label_for, msg, say
from bot.table_options import TableOptions, TableOptionsError
from engine.variants import RULE_SETS

if TYPE_CHECKING:
    from bot.session import TableSession

TABLE_ID = r"[A-Za-z0-9_-]{1,40}"
OPTION = r"[a-z0-9_]{1,40}"
MAX_SELECT = 25  # Discord's limit of options in one select

# Option names as players know them. An option missing here is still listed, by its name.
OPTION_LABELS: dict[str, tuple[str, str]] = {
    "allow_seven_pairs": ("七对", "Seven pairs"),
    "wild_copies": ("{wild}张数", "Wild copies"),
    "santan_profile": ("三摊赔付", "Three-claim payments"),
    "earthly_hand": ("地和", "Earthly hand"),
    "dealer_on_draw": ("流局庄家", "Dealer after a draw"),
    "rounds": ("圈数", "Rounds"),
    "reserve_tiles": ("留牌张数", "Reserve tiles"),
    "flee_penalty": ("离桌罚分", "Leaving penalty"),
    "remove_suits": ("去掉花色数", "Suits removed"),
    "multi_win_priority": ("多家可胡时的顺序", "Who wins when several can"),
    "all_pungs_bonus": ("对对胡胡数", "All Pungs bonus"),
    "white_pung_tai": ("白板刻算台", "White pung scores tai"),
    "cap": ("封顶", "Cap"),
    "half_rounding": ("闲家减半取整", "Half-payment rounding"),
    "liability": ("全包", "Full liability"),
}

VALUE_LABELS: dict[tuple[str, Any], tuple[str, str]] = {
    ("santan_profile", "five_x"): ("都付五倍", "everyone pays 5×"),
    ("santan_profile", "two_x"): (
        "承包方之间五倍，其余两倍或一倍",
        "5× between liable parties, else 2× or 1×",
    ),
    ("earthly_hand", "first_draw"): ("首摸自摸算地和", "a first-draw self-draw counts"),
    ("earthly_hand", "off"): ("不算", "off"),
    ("dealer_on_draw", "rotate"): ("轮庄", "the deal passes"),
    ("dealer_on_draw", "stay"): ("连庄", "the dealer stays"),
    ("multi_win_priority", "from_dealer"): ("从庄家起", "from the dealer"),
    ("multi_win_priority", "after_discarder"): ("从放铳者下家起", "after the discarder"),
    ("half_rounding", "up"): ("进位", "round up"),
    ("half_rounding", "exact"): ("精确", "exact"),
    ("wild_copies", 3): ("3 张（翻牌离场）", "3 (indicator leaves play)"),
    ("wild_copies", 4): ("4 张", "4 (all four copies)"),
}


@dataclass(frozen=True)
class OptionSpec:
    """One option of a rule set as the panel offers it."""

    name: str
    kind: str  # "bool", "choice" or "int"
    default: Any
    values: tuple[Any, ...] = ()  # bool/choice, or a small int range spelled out
    low: int | None = None
    high: int | None = None
    wild_name_zh: str = "百搭"  # the rule set's word for its wild (财神 in Taizhou)

    def label(self, zh: bool) -> str:
        names = OPTION_LABELS.get(self.name)
        if names is None:
            return self.name
        return names[0].format(wild=self.wild_name_zh) if zh else names[1]

    def range_text(self, zh: bool) -> str:
        if self.kind == "int" and self.low is not None:
            return f"{self.low}–{self.high}"
        return "/".join(value_text(self.name, value, zh) for value in self.values)


def option_specs(variant: str) -> list[OptionSpec]:
    """Every option of ``variant``'s options class, in declaration order."""
    rules = RULE_SETS[variant]
    options_class = rules.options_class
    wild = rules.wild_name_zh or "百搭"
    specs = []
    for field in fields(options_class):
        default = getattr(options_class, field.name)
        choices = options_class.CHOICES.get(field.name)
        if isinstance(default, bool):
            specs.append(OptionSpec(field.name, "bool", default, (True, False), wild_name_zh=wild))
        elif choices is not None:
            specs.append(
                OptionSpec(field.name, "choice", default, tuple(choices), wild_name_zh=wild)
            )
        elif isinstance(default, int):
            low, high = options_class.RANGES.get(field.name, (0, 10**6))
            small = tuple(range(low, high + 1)) if high - low < MAX_SELECT else ()
            specs.append(
                OptionSpec(field.name, "int", default, small, low, high, wild_name_zh=wild)
            )
        else:  # a free-form option no rule set has yet: offered by the modal
            specs.append(OptionSpec(field.name, "text", default, wild_name_zh=wild))
    return specs


def spec_of(variant: str, name: str) -> OptionSpec:
    for spec in option_specs(variant):
        if spec.name == name:
            return spec
    raise TableOptionsError(
        Text(f"没有这个选项：{name}", f"There is no option {name!r} in this rule set")
    )


def value_text(name: str, value: Any, zh: bool) -> str:
    if isinstance(value, bool):
        return ("开" if value else "关") if zh else ("on" if value else "off")
    names = VALUE_LABELS.get((name, value))
    if names is None:
        return str(value)
    return names[0] if zh else names[1]


def value_key(value: Any) -> str:
    """A value as a select option's value string (parsed back by ``parse_value``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_value(spec: OptionSpec, raw: str) -> Any:
    """The typed value of what a select or the modal sent; ``TableOptionsError`` if it is
    not even the right type (ranges and choices are left to ``TableOptions.validate``)."""
    raw = raw.strip()
    if spec.kind == "choice":
        # A choice may be typed as the panel shows it (都付五倍, "the dealer stays"), not
        # only by its key (five_x, stay).
        for value in spec.values:
            shown = (value_text(spec.name, value, True), value_text(spec.name, value, False))
            if raw.casefold() in (shown[0].casefold(), shown[1].casefold()):
                return value
    if spec.kind == "bool":
        lowered = raw.lower()
        if lowered in ("true", "on", "yes", "1", "开", "是"):
            return True
        if lowered in ("false", "off", "no", "0", "关", "否"):
            return False
        raise TableOptionsError(
            Text(f"{spec.label(True)} 只能是 开/关", f"{spec.label(False)} must be on or off")
        )
    if spec.kind == "int" or (spec.kind == "choice" and isinstance(spec.default, int)):
        if not re.fullmatch(r"[+-]?\d{1,12}", raw):
            raise TableOptionsError(
                Text(
                    f"{spec.label(True)} 需要整数（{spec.range_text(True)}），收到 {raw[:20]!r}",
                    f"{spec.label(False)} must be a whole number "
                    f"({spec.range_text(False)}), got {raw[:20]!r}",
                )
            )
        return int(raw)
    return raw


def with_option(table: TableSession, name: str, value: Any) -> dict[str, Any]:
    """The table's options with one changed, checked exactly as a new table's would be
    (``TableOptions.validate``: the rule set's ranges, choices and consistency checks).
    Returns the options as the engine normalises them; raises ``TableOptionsError``."""
    check_value(spec_of(table.variant, name), value)
    candidate = {**table.options, name: value}
    request = TableOptions(
        table.variant,
        table.num_seats,
        table.stake,
        discard_timeout=table.discard_timeout,
        claim_timeout=table.claim_timeout,
        options=candidate,
    )
    return request.validate().options.to_dict()


def check_value(spec: OptionSpec, value: Any) -> None:
    """Refuse a value outside the option's range or choices, named as the rules panel
    names them (从庄家起, not from_dealer): the engine's own check, which follows, speaks
    in its keys. Raises ``TableOptionsError``."""
    name = spec.name
    out_of_range = (
        spec.low is not None
        and isinstance(value, int)
        and not (spec.low <= value <= (spec.high if spec.high is not None else value))
    )
    if out_of_range or (spec.kind in ("choice", "bool") and value not in spec.values):
        default = value_text(name, spec.default, True), value_text(name, spec.default, False)
        raise TableOptionsError(
            Text(
                f"{spec.label(True)}只能是 {spec.range_text(True)}（默认 {default[0]}），"
                f"收到 {value!r}；规则未改",
                f"{spec.label(False)} must be {spec.range_text(False)} (default {default[1]}), "
                f"got {value!r}; nothing changed",
            )
        )


def panel_text(table: TableSession, zh: bool, note: Text | None = None) -> str:
    """Every option with its current value, range and default; changed ones in bold."""
    lines = [
        "**更多规则**（仅房主，开局前）" if zh else "**More rules** (host only, before the start)"
    ]
    lines += options_lines(table.variant, table.options, zh, table.num_seats)
    if note is not None:
        lines.append("")
        lines.append(note.zh if zh else note.en)
    return "\n".join(lines)[:2000]


def options_lines(
    variant: str, options: dict[str, Any], zh: bool, seats: int | None = None
) -> list[str]:
    """One line per option: its value (bold when not the rule set's default), then the
    default when it differs and the other choices (or the range). Each value is said
    once: the line named the current value up to three times (as itself, in the list of
    choices and as the default). At a table of ``seats`` players, an option that has no
    effect there says so instead (全包 is 4 players only: 开 at a 2-player table misled)."""
    options_class = RULE_SETS[variant].options_class
    lines = []
    for spec in option_specs(variant):
        if seats is not None and not options_class.applies(spec.name, seats):
            only = "/".join(map(str, options_class.SEATS_ONLY[spec.name]))
            label = f"• {spec.label(zh)} `{spec.name}`: "
            lines.append(
                label + f"本桌 {seats} 人，不适用（仅 {only} 人时生效）"
                if zh
                else label + f"does not apply at {seats} players ({only} players only)"
            )
            continue
        current = options.get(spec.name, spec.default)
        shown = value_text(spec.name, current, zh)
        notes = []
        if current == spec.default:
            notes.append("默认" if zh else "default")
        else:
            shown = f"**{shown}**"
            default = value_text(spec.name, spec.default, zh)
            notes.append(f"默认 {default}" if zh else f"default {default}")
        if spec.kind in ("choice", "bool"):
            others = [v for v in spec.values if v not in (current, spec.default)]
            if others:
                choices = "/".join(value_text(spec.name, v, zh) for v in others)
                notes.append(f"也可 {choices}" if zh else f"or {choices}")
        else:
            notes.append(f"可设 {spec.range_text(zh)}" if zh else f"range {spec.range_text(zh)}")
        rest = f"（{'；'.join(notes)}）" if zh else f" ({'; '.join(notes)})"
        lines.append(f"• {spec.label(zh)} `{spec.name}`: {shown}{rest}")
    return lines


def defaults_text(variant: str, defaults: dict[str, Any]) -> Text:
    """The server's defaults for ``variant`` as ``/mjadmin rules`` shows them."""
    rules = RULE_SETS[variant]
    return Text(
        "\n".join([f"**{rules.name_zh}** · 本服务器默认规则", *options_lines(variant, defaults, True)]),
        "\n".join([f"**{rules.short_name_en or rules.name_en}** · this server's default rules",
                   *options_lines(variant, defaults, False)]),
    )  # fmt: skip


def panel_view(table: TableSession, zh: bool, spec: OptionSpec | None = None) -> ui.View:
    """The option picker, and below it the chosen option's value select (if it has one)."""
    view = ui.View(timeout=None)
    view.add_item(RulesPick(table.table_id, table.variant, zh))
    if spec is not None and spec.values:
        view.add_item(RulesValue(table.table_id, spec, table.options.get(spec.name), zh))
    return view


def more_rules_button(table_id: str, locale: str | None = None) -> ui.View:
    """The button under ``/table create``'s answer, labelled for the host who reads it."""
    view = ui.View(timeout=None)
    view.add_item(RulesButton(table_id, locale))
    return view


# ---------------------------------------------------------------------- components


class RulesButton(ui.DynamicItem[ui.Button[Any]], template=rf"mj:r:(?P<table>{TABLE_ID}):open"):
    def __init__(self, table_id: str, locale: str | None = None) -> None:
        super().__init__(
            ui.Button(
                custom_id=f"mj:r:{table_id}:open",
                label=label_for("button.more_rules", locale),
                style=discord.ButtonStyle.secondary,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> RulesButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        table = await _host_table(interaction, self.table_id)
        if table is None:
            return
        content, view = _panel(table, interaction)
        await interaction.response.send_message(content, view=view, ephemeral=True)


class RulesPick(ui.DynamicItem[ui.Select[Any]], template=rf"mj:r:(?P<table>{TABLE_ID}):pick"):
    def __init__(self, table_id: str, variant: str | None = None, zh: bool = True) -> None:
        options = [
            discord.SelectOption(
                label=f"{spec.label(zh)}"[:100],
                value=spec.name,
                description=(f"{spec.name} · {spec.range_text(zh)}")[:100],
            )
            for spec in (option_specs(variant) if variant in RULE_SETS else [])
        ][:MAX_SELECT] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            ui.Select(
                custom_id=f"mj:r:{table_id}:pick",
                placeholder="选择要改的规则 · Choose a rule to change"
                if zh
                else "Choose a rule to change",
                options=options,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> RulesPick:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        table = await _host_table(interaction, self.table_id)
        if table is None:
            return
        values = _selected(interaction)
        try:
            spec = spec_of(table.variant, str(values[0]) if values else "")
        except TableOptionsError as error:
            await _refuse(interaction, error.text)
            return
        if spec.values:
            content, view = _panel(table, interaction, spec=spec)
            await interaction.response.edit_message(content=content, view=view)
            return
        await interaction.response.send_modal(RulesModal(table, spec, interaction.locale))


class RulesValue(
    ui.DynamicItem[ui.Select[Any]],
    template=rf"mj:r:(?P<table>{TABLE_ID}):v:(?P<option>{OPTION})",
):
    def __init__(
        self, table_id: str, spec: OptionSpec | str, current: Any = None, zh: bool = True
    ) -> None:
        name = spec if isinstance(spec, str) else spec.name
        options = [discord.SelectOption(label="-", value="-")]
        if isinstance(spec, OptionSpec):
            shown = spec.default if current is None else current
            options = [
                discord.SelectOption(
                    label=value_text(spec.name, value, zh)[:100],
                    value=value_key(value),
                    default=value == shown,
                )
                for value in spec.values[:MAX_SELECT]
            ]
        label = spec.label(zh) if isinstance(spec, OptionSpec) else name
        super().__init__(
            ui.Select(
                custom_id=f"mj:r:{table_id}:v:{name}", placeholder=label[:150], options=options
            )
        )
        self.table_id = table_id
        self.option = name

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> RulesValue:
        return cls(match["table"], match["option"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = _selected(interaction) or [""]
        await set_option(interaction, self.table_id, self.option, str(values[0]), edit=True)


class RulesModal(ui.Modal):
    """A text box for an option with a wide range; its range and default are shown."""

    def __init__(
        self, table: TableSession, spec: OptionSpec, locale: discord.Locale | str | None
    ) -> None:
        def words(chinese: str, english: str) -> str:
            return say(Text(chinese, english), locale)  # zh-TW: Traditional

        # Discord refuses a modal title over 45 characters (an unlabelled option shows
        # its raw name, up to 40).
        title = words(f"更多规则 · {spec.label(True)}", f"More rules · {spec.label(False)}")
        super().__init__(title=title[:45], custom_id=f"mj:r:{table.table_id}:m:{spec.name}")
        self.table_id = table.table_id
        self.option = spec.name
        current = table.options.get(spec.name, spec.default)
        self.value: ui.TextInput[Any] = ui.TextInput(
            label=words(f"{spec.label(True)} ({spec.range_text(True)})",
                        f"{spec.label(False)} ({spec.range_text(False)})")[:45],
            placeholder=words(f"默认 {spec.default}", f"default {spec.default}")[:100],
            default=str(current),
            max_length=12,
        )  # fmt: skip
        self.add_item(self.value)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await set_option(interaction, self.table_id, self.option, self.value.value, edit=False)


async def set_option(
    interaction: discord.Interaction[Any], table_id: str, name: str, raw: str, *, edit: bool
) -> None:
    """Parse, validate with the engine's check, then apply to the lobby (and the stored
    game, so a replay plays by the same rules); on a bad value, a reason and no change."""
    table = await _host_table(interaction, table_id)
    if table is None:
        return
    try:
        spec = spec_of(table.variant, name)
        options = with_option(table, name, parse_value(spec, raw))
    except TableOptionsError as error:
        await _refuse(interaction, error.text)
        return
    result = await table.set_options(interaction.user.id, options)
    if not result.ok:
        await _refuse(interaction, result.message or msg("error.generic"))
        return
    note = Text(
        f"已设置 {spec.label(True)} = {value_text(name, options[name], True)}",
        f"Set {spec.label(False)} = {value_text(name, options[name], False)}",
    )
    content, view = _panel(table, interaction, note)
    if edit:
        await interaction.response.edit_message(content=content, view=view)
    else:
        await interaction.response.send_message(content, view=view, ephemeral=True)


def _panel(
    table: TableSession,
    interaction: discord.Interaction[Any],
    note: Text | None = None,
    spec: OptionSpec | None = None,
) -> tuple[str, ui.View]:
    """The panel's text and components in the clicker's language and script."""
    locale = interaction.locale
    content = say(Text(panel_text(table, True, note), panel_text(table, False, note)), locale)
    view = panel_view(table, is_chinese(locale), spec)
    in_readers_script(view, locale)
    return content, view


async def _host_table(interaction: discord.Interaction[Any], table_id: str) -> TableSession | None:
    """The lobby this panel is for, if the clicker hosts it; otherwise say why."""
    manager = getattr(interaction.client, "manager", None)
    table = manager.get(table_id) if manager is not None else None
    if table is None:
        await _refuse(interaction, msg("table.gone"))
        return None
    if table.host_user_id != interaction.user.id:
        await _refuse(interaction, Text("只有房主可以改规则", "Only the host can change the rules"))
        return None
    if table.status != "lobby":
        await _refuse(
            interaction, Text("对局已开始，规则不能再改", "The match has started: rules are fixed")
        )
        return None
    return table


def _selected(interaction: discord.Interaction[Any]) -> list[str]:
    """The values chosen in the select that was used (Discord sends them as strings)."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(value) for value in data.get("values") or []]


async def _refuse(interaction: discord.Interaction[Any], text: Text) -> None:
    content = say(text, interaction.locale)
    with contextlib.suppress(discord.HTTPException):
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True)
        else:
            await interaction.response.send_message(content, ephemeral=True)


async def send_with_view(
    interaction: discord.Interaction[Any], content: str, view: ui.View
) -> None:
    """Answer (or follow up, once deferred) with components, under the ack guard's lock."""
    guard = interaction.extras.get("ack_guard")
    lock = guard.lock if isinstance(guard, AckGuard) else contextlib.nullcontext()
    async with lock:
        if interaction.response.is_done():
            await interaction.followup.send(content, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(content, view=view, ephemeral=True)
    if isinstance(guard, AckGuard):
        guard.done()


RULES_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (RulesButton, RulesPick, RulesValue)

__all__ = [
    "OPTION_LABELS",
    "RULES_ITEMS",
    "OptionSpec",
    "RulesModal",
    "check_value",
    "defaults_text",
    "more_rules_button",
    "option_specs",
    "options_lines",
    "panel_text",
    "parse_value",
    "send_with_view",
    "set_option",
    "with_option",
]
