"""Message components that survive restarts.

Every button and select is a ``DynamicItem``: its custom id carries what it is for, so the
bot needs no memory of the message to answer a click, even after a restart.

- ``mj:d:<table>:<turn>`` — the discard select on a hand (values are tiles like ``5m``);
- ``mj:a:<table>:<turn>:<action>[:<tiles>]`` — a claim/turn button (pung, kong, win, pass,
  chow, continue, fold; tiles for a chow or an own-turn kong);
- ``mj:t:<table>:<what>`` — the table/lobby buttons (join, leave, ``quit<points>``: leave
  a running match at the penalty the player confirmed, ``end<points>`` and ``endafter``:
  end it now at that penalty or after the hand in play, start, ai, hand, back);
- ``mj:o:<table>:<setting>`` — a shortcut on a private hand, named by what pressing it
  sets (``ap_off|ap_hand|ap_always`` auto-pass, ``aw_on|aw_off`` auto-win,
  ``tg_on|tg_off`` tsumogiri).

A click naming a turn that is over is answered "that turn is over" by the session
(``submit(..., turn_id)``), never by an error. The callbacks only parse the id and hand
over to the bot's ``ComponentHandler``; all the policy lives there.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord
from discord import ui

from bot.i18n import (
    MESSAGES,
    bilingual_label,
    for_reader,
    image_locale,
    label_for,
    msg,
    say,
    zh_tw,
)
from bot.messages import msg_each
from bot.presenter import LobbyInfo, PlayerToggles, PrivatePrompt, Text
from engine.tiles import format_tiles, kind_str, name_en, name_zh, parse_tile, parse_tiles
from engine.types import Action
from engine.variants import get_rules
from engine.words import ACTIONS
from render.hand import offered_claims

TABLE_ID = r"[A-Za-z0-9_-]{1,40}"

# Short action codes in custom ids (ids are limited to 100 characters).
ACTION_CODES = {
    "pung": "pung",
    "kong": "kong",
    "win": "win",
    "pass": "pass",
    "chow": "chow",
    "continue": "cont",
    "fold": "fold",
}
CODE_ACTIONS = {code: action for action, code in ACTION_CODES.items()}


class ComponentHandler(Protocol):
    """What the bot does with a parsed click (``bot.app.MahjongBot`` implements it)."""

    async def on_play_click(
        self,
        interaction: discord.Interaction[Any],
        table_id: str,
        turn_id: int,
        action: dict[str, Any],
    ) -> None: ...

    async def on_table_click(
        self, interaction: discord.Interaction[Any], table_id: str, what: str
    ) -> None: ...

    async def on_toggle_click(
        self, interaction: discord.Interaction[Any], table_id: str, setting: str
    ) -> None: ...


def _handler(interaction: discord.Interaction[Any]) -> ComponentHandler:
    return interaction.client  # type: ignore[return-value]


def tile_label(kind: int, locale: str | None = None) -> str:
    """A tile in a menu: "5m 五万 5 Characters", or one language for a known reader."""
    language = image_locale(locale) if locale is not None else None
    if language == "en":
        return f"{kind_str(kind)} {name_en(kind)}"
    if language == "zh-TW":
        return f"{kind_str(kind)} {zh_tw(name_zh(kind))}"
    return f"{kind_str(kind)} {name_zh(kind)} {name_en(kind)}"


class DiscardSelect(
    ui.DynamicItem[ui.Select[Any]],
    template=rf"mj:d:(?P<table>{TABLE_ID}):(?P<turn>[0-9]{{1,9}})",
):
    def __init__(
        self,
        table_id: str,
        turn_id: int,
        options: list[discord.SelectOption],
        placeholder: str | None = None,
    ) -> None:
        placeholder = placeholder or "{} / {}".format(*MESSAGES["hand.select_placeholder"])
        super().__init__(
            ui.Select(
                custom_id=f"mj:d:{table_id}:{turn_id}",
                placeholder=placeholder[:150],
                options=options or [discord.SelectOption(label="-", value="-")],
                min_values=1,
                max_values=1,
                disabled=not options,
            )
        )
        self.table_id = table_id
        self.turn_id = turn_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> DiscardSelect:
        assert isinstance(item, ui.Select)  # the template only matches the discard menu
        return cls(match["table"], int(match["turn"]), list(item.options))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values)
        action: dict[str, Any] = {"type": "discard", "tile": values[0] if values else None}
        await _handler(interaction).on_play_click(interaction, self.table_id, self.turn_id, action)


class ActionButton(
    ui.DynamicItem[ui.Button[Any]],
    template=rf"mj:a:(?P<table>{TABLE_ID}):(?P<turn>[0-9]{{1,9}}):(?P<code>[a-z]{{2,6}})(?::(?P<tiles>[0-9mpsz]{{2,8}}))?",
):
    def __init__(
        self,
        table_id: str,
        turn_id: int,
        code: str,
        tiles: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        custom_id = f"mj:a:{table_id}:{turn_id}:{code}" + (f":{tiles}" if tiles else "")
        super().__init__(ui.Button(custom_id=custom_id, label=label or code, style=style))
        self.table_id = table_id
        self.turn_id = turn_id
        self.code = code
        self.tiles = tiles

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(match["table"], int(match["turn"]), match["code"], match["tiles"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            action = action_from_code(self.code, self.tiles)
        except ValueError:  # a hand-made custom id: the session refuses it politely
            action = {"type": "invalid"}
        await _handler(interaction).on_play_click(interaction, self.table_id, self.turn_id, action)


class TableButton(
    ui.DynamicItem[ui.Button[Any]],
    template=rf"mj:t:(?P<table>{TABLE_ID}):(?P<what>join|leave|quit[0-9]+|end[0-9]+|endafter|start|ai|noai|hand|back)",
):
    def __init__(self, table_id: str, what: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:  # fmt: skip
        super().__init__(
            ui.Button(custom_id=f"mj:t:{table_id}:{what}", label=label or what, style=style)
        )
        self.table_id = table_id
        self.what = what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(match["table"], match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_table_click(interaction, self.table_id, self.what)


TOGGLE_SETTINGS: dict[str, tuple[str, str | bool]] = {
    "ap_off": ("auto_pass", "off"),
    "ap_hand": ("auto_pass", "hand"),
    "ap_always": ("auto_pass", "always"),
    "aw_on": ("auto_win", True),
    "aw_off": ("auto_win", False),
    "tg_on": ("tsumogiri", True),
    "tg_off": ("tsumogiri", False),
}


class ToggleButton(
    ui.DynamicItem[ui.Button[Any]],
    template=rf"mj:o:(?P<table>{TABLE_ID}):(?P<what>ap_off|ap_hand|ap_always|aw_on|aw_off|tg_on|tg_off)",
):
    """A shortcut on a private hand; its id says what pressing it sets, so a click on
    an old hand message still does what its label promised."""

    def __init__(self, table_id: str, what: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:  # fmt: skip
        super().__init__(
            ui.Button(
                custom_id=f"mj:o:{table_id}:{what}", label=label or what, style=style, row=row
            )
        )
        self.table_id = table_id
        self.what = what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> ToggleButton:
        return cls(match["table"], match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_toggle_click(interaction, self.table_id, self.what)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    DiscardSelect,
    ActionButton,
    TableButton,
    ToggleButton,
)


def action_from_code(code: str, tiles: str | None) -> dict[str, Any]:
    """The action a button stands for, as a dict the session accepts (tiles re-parsed)."""
    action_type = CODE_ACTIONS.get(code)
    if action_type is None:
        raise ValueError(f"unknown action code {code!r}")
    action: dict[str, Any] = {"type": action_type}
    if tiles:
        kinds = parse_tiles(tiles)
        if action_type == "chow":
            action["tiles"] = format_tiles(kinds)
        else:
            action["tile"] = kind_str(parse_tile(tiles))
    return action


def code_for(action: Action) -> tuple[str, str | None]:
    code = ACTION_CODES[action.type]
    if action.type == "chow" and action.tiles:
        return code, format_tiles(action.tiles)
    if action.tile is not None:
        return code, kind_str(action.tile)
    return code, None


# ---------------------------------------------------------------------- building views


_BUTTON_STYLES = {
    "win": discord.ButtonStyle.success,
    "pass": discord.ButtonStyle.secondary,
    "pung": discord.ButtonStyle.primary,
    "kong": discord.ButtonStyle.primary,
    "chow": discord.ButtonStyle.primary,
    "continue": discord.ButtonStyle.primary,
    "fold": discord.ButtonStyle.danger,
}


def _button_label(action: Action, locale: str | None = None) -> str:
    label = label_for(f"button.{action.type}", locale)
    if action.type == "chow" and action.tiles:
        label += f" {format_tiles(action.tiles)}"
    elif action.type == "kong" and action.tile is not None:
        label += f" {kind_str(action.tile)}"
    return label


def hand_view(prompt: PrivatePrompt, locale: str | None = None) -> ui.View:
    """The components under a private hand: a discard select and one button per choice,
    then the player's shortcuts (or "Back" while the seat is on autoplay), labelled in
    the player's language (``locale``; None: Chinese and English).

    Only legal actions get a component, so a button can never offer an illegal move.
    """
    view = ui.View(timeout=None)
    legal = list(prompt.view.legal)
    drawn = prompt.view.drawn
    discards = sorted({a.tile for a in legal if a.type == "discard" and a.tile is not None})
    if drawn in discards:  # the usual discard goes first, where a thumb finds it
        discards.remove(drawn)
        discards.insert(0, drawn)
    if discards:
        wild = prompt.view.public.wild
        wild_zh = get_rules(prompt.view.public.variant).wild_name_zh

        def note(kind: int) -> str | None:
            """Marks the drawn tile and the wild, so a wild is never thrown by mistake."""
            zh = [word for word, on in (("刚摸到", kind == drawn), (wild_zh, kind == wild)) if on]
            en = [
                word for word, on in (("just drawn", kind == drawn), ("wild", kind == wild)) if on
            ]
            if not zh:
                return None
            language = image_locale(locale) if locale is not None else None
            if language == "en":
                return ", ".join(en)
            if language == "zh-TW":
                return zh_tw(" ".join(zh))
            return f"{' '.join(zh)} / {', '.join(en)}"

        options = [
            discord.SelectOption(
                label=tile_label(kind, locale), value=kind_str(kind), description=note(kind)
            )
            for kind in discards
        ][:25]
        placeholder = None
        if locale is not None:
            placeholder = for_reader(msg("hand.select_placeholder"), locale)[:150]
        view.add_item(DiscardSelect(prompt.table_id, prompt.turn_id, options, placeholder))
    buttons = [a for a in legal if a.type != "discard"]
    order = ("win", "kong", "pung", "chow", "continue", "fold", "pass")
    buttons.sort(key=lambda a: (order.index(a.type) if a.type in order else 9, a.describe()))
    # Five rows at most: the menu takes one, the actions up to three, the shortcuts one.
    for action in buttons[:15]:
        code, tiles = code_for(action)
        view.add_item(
            ActionButton(
                prompt.table_id,
                prompt.turn_id,
                code,
                tiles,
                label=_button_label(action, locale)[:80],
                style=_BUTTON_STYLES.get(action.type, discord.ButtonStyle.secondary),
            )
        )
    if prompt.autoplay:
        view.add_item(
            TableButton(
                prompt.table_id,
                "back",
                label=label_for("button.back", locale),
                style=discord.ButtonStyle.primary,
            )
        )
    elif prompt.view.public.phase != "ended":
        for item in toggle_buttons(prompt.table_id, prompt.toggles, locale):
            view.add_item(item)
    return view


_NEXT_AUTO_PASS = {"off": "ap_hand", "hand": "ap_always", "always": "ap_off"}


def toggle_buttons(table_id: str, toggles: PlayerToggles, locale: str | None) -> list[ToggleButton]:
    """The shortcut buttons: each shows the setting as it is and sets the next one
    (auto-pass cycles off → this hand → always → off). Green means on."""

    def style(on: bool) -> discord.ButtonStyle:
        return discord.ButtonStyle.success if on else discord.ButtonStyle.secondary

    return [
        ToggleButton(table_id, _NEXT_AUTO_PASS.get(toggles.auto_pass, "ap_hand"),
                     label=label_for(f"toggle.auto_pass.{toggles.auto_pass}", locale)[:80],
                     style=style(toggles.auto_pass != "off"), row=4),
        ToggleButton(table_id, "aw_off" if toggles.auto_win else "aw_on",
                     label=label_for(f"toggle.auto_win.{'on' if toggles.auto_win else 'off'}",
                                     locale)[:80],
                     style=style(toggles.auto_win), row=4),
        ToggleButton(table_id, "tg_off" if toggles.tsumogiri else "tg_on",
                     label=label_for(f"toggle.tsumogiri.{'on' if toggles.tsumogiri else 'off'}",
                                     locale)[:80],
                     style=style(toggles.tsumogiri), row=4),
    ]  # fmt: skip


def lobby_view(lobby: LobbyInfo) -> ui.View:
    view = ui.View(timeout=None)
    table_id = lobby.table_id
    view.add_item(TableButton(table_id, "join", label=bilingual_label("button.join"),
                              style=discord.ButtonStyle.success))  # fmt: skip
    view.add_item(TableButton(table_id, "leave", label=bilingual_label("button.leave")))
    view.add_item(TableButton(table_id, "ai", label=bilingual_label("button.add_ai")))
    if any(player.is_ai for player in lobby.players):  # undo an Add AI pressed once too often
        view.add_item(TableButton(table_id, "noai", label=bilingual_label("button.remove_ai")))
    view.add_item(TableButton(table_id, "start", label=bilingual_label("button.start"),
                              style=discord.ButtonStyle.primary))  # fmt: skip
    return view


def leave_view(table_id: str, points: int, locale: str | None) -> ui.View:
    """The one button under "leaving costs N points": pressing it confirms N (its id says
    so: a price that changed since is asked again, never charged unseen)."""
    view = ui.View(timeout=None)
    label = label_for("button.leave_anyway", locale)
    button = TableButton(table_id, f"quit{points}", label=label, style=discord.ButtonStyle.danger)
    view.add_item(button)
    return view


def end_view(table_id: str, points: int, locale: str | None) -> ui.View:
    """The two answers under "ending now costs N points": end after this hand, free, or
    now at N (the id says N: a price that changed since is asked again)."""
    view = ui.View(timeout=None)
    later = label_for("button.end_after_hand", locale)
    view.add_item(TableButton(table_id, "endafter", label=later, style=discord.ButtonStyle.primary))
    now = label_for("button.end_now", locale)
    view.add_item(
        TableButton(table_id, f"end{points}", label=now, style=discord.ButtonStyle.danger)
    )
    return view


def table_view(table_id: str, *, back: bool = False) -> ui.View:
    """The running table's buttons: "My hand", and "I'm back" while a seat is on autoplay."""
    view = ui.View(timeout=None)
    view.add_item(TableButton(table_id, "hand", label=bilingual_label("button.my_hand"),
                              style=discord.ButtonStyle.primary))  # fmt: skip
    if back:
        view.add_item(TableButton(table_id, "back", label=bilingual_label("button.back")))
    return view


_ASKING = ("claim", "rob_kong", "santan")


def prompt_text(prompt: PrivatePrompt, prefix: str = "hand") -> Text:
    """What ``prompt`` asks, in both languages: the ``hand.*`` line above a hand or the
    ``alert.*`` DM. A claim names only the claims this seat may make on the tile (a
    Jiaxing player is never offered 胡 on a discard), and each language its own tile name."""
    view = prompt.view
    key = prompt.kind  # an alert is only sent for a turn, a claim, a robbed kong or 三摊
    if prefix == "hand":
        key = {"turn": "your_turn"}.get(key, key if key in _ASKING else "idle")
        if prompt.autoplay:
            key = "autoplay"
    if view.claim_tile is None or key not in ("claim", "rob_kong"):
        return msg(f"{prefix}.{key}")
    claims = [ACTIONS[kind] for kind in offered_claims(view)]
    zh = {
        "tile": f"{kind_str(view.claim_tile)} {name_zh(view.claim_tile)}",
        "verbs": "、".join(action.zh for action in claims) or "吃碰杠",
    }
    english = [action.short or action.en for action in claims] or ["claim"]
    en = {
        "tile": name_en(view.claim_tile),
        "verbs": " or ".join([", ".join(english[:-1]), english[-1]] if english[1:] else english),
    }
    return msg_each(f"{prefix}.{key}", zh, en)


def hand_facts(prompt: PrivatePrompt, locale: str | None = None) -> str:
    """What a player glances for, as text under the headline: tiles left, the wild and
    (once ready) the waits. The image holds them too, but on a phone it is shown about
    360 px wide, where its small text is 6-8 px high; a message's text stays legible."""
    view = prompt.view
    public = view.public
    rules = get_rules(public.variant)
    zh = [f"余牌 {public.tiles_left}"]
    en = [f"{public.tiles_left} tiles left"]
    if public.wild is not None:
        zh.append(f"{rules.wild_name_zh} {name_zh(public.wild)}")
        en.append(f"{rules.wild_name_en}: {kind_str(public.wild)} {name_en(public.wild)}")
    if view.waits:
        shown = view.waits[:9]
        more = f" +{len(view.waits) - len(shown)}" if len(view.waits) > len(shown) else ""
        zh.append("听 " + " ".join(name_zh(kind) for kind in shown) + more)
        en.append("waiting on " + " ".join(kind_str(kind) for kind in shown) + more)
    return "-# " + say(Text(" · ".join(zh), " · ".join(en)), locale)  # one language: short


def prompt_headline(prompt: PrivatePrompt, locale: str | None = None) -> str:
    """The one-line text above a hand: what is being asked, in the player's language
    (both languages while it is not known)."""
    line = for_reader(prompt_text(prompt), locale, bold=True)
    if prompt.deadline is not None and prompt.kind != "idle":
        line += f" · ⏱ <t:{int(prompt.deadline)}:R>"
    return line
