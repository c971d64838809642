"""The review components: history pages, replay stepping, export, and the buttons on
result posts (Replay) and match results (Rematch). Like ``bot.discord_views`` they are
``DynamicItem``s whose custom ids carry everything, so they keep working after a restart.

- ``mj:hp:<owner>:<target>:<variant|->:<page>:<issued>:<slot>`` — a history page button
  (``slot``: p previous, n next, b back to the list, so two buttons never share an id);
- ``mj:ho:<owner>:<target>:<issued>`` — the select that opens a match (values: game ids);
- ``mj:hh:<owner>:<game>`` — the select that replays one hand of that match (values: hands);
- ``mj:rs:<owner>:<game>:<hand>:<step>:<slot>`` — a replay step button (first, previous,
  next, last: ``slot`` keeps two buttons that lead to the same step apart);
- ``mj:rx:<owner>:<game>:<hand>`` — export the hand as an animation;
- ``mj:rc:<game>:<hand>`` — Replay on a hand's result post (anyone may press it);
- ``mj:rm:<game>`` — Rematch under a match's result.

``owner`` is who the view was made for: anyone else pressing it is refused, and a
history view older than ``HISTORY_TTL`` minutes (``issued``, in minutes) is refused as
stale. The callbacks only parse the id and hand over to the review cog.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol

import discord
from discord import ui

from bot.i18n import bilingual_label, label_for

__all__ = [
    "REVIEW_ITEMS",
    "HistoryMatchSelect",
    "HistoryPageButton",
    "MatchHandSelect",
    "RematchButton",
    "ReplayCardButton",
    "ReplayExportButton",
    "ReplayStepButton",
    "rematch_view",
    "replay_card_view",
]

GAME = r"[A-Za-z0-9_-]{1,40}"
USER = r"[0-9]{1,20}"
HISTORY_TTL = 15  # minutes a history view's buttons stay usable
STEP_LABELS = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}  # first, previous, next, last


class ReviewHandler(Protocol):
    """What the review cog does with a parsed click (``bot.cogs.review.ReviewCog``)."""

    async def on_history_page(
        self,
        interaction: discord.Interaction[Any],
        owner: int,
        target: int,
        variant: str | None,
        page: int,
        issued: int,
    ) -> None: ...

    async def on_history_open(
        self,
        interaction: discord.Interaction[Any],
        owner: int,
        target: int,
        issued: int,
        game_id: str,
    ) -> None: ...

    async def on_replay_open(
        self, interaction: discord.Interaction[Any], owner: int | None, game_id: str, hand: int
    ) -> None: ...

    async def on_replay_step(
        self,
        interaction: discord.Interaction[Any],
        owner: int,
        game_id: str,
        hand: int,
        step: int,
    ) -> None: ...

    async def on_replay_export(
        self, interaction: discord.Interaction[Any], owner: int, game_id: str, hand: int
    ) -> None: ...

    async def on_rematch(self, interaction: discord.Interaction[Any], game_id: str) -> None: ...


def _handler(interaction: discord.Interaction[Any]) -> ReviewHandler:
    cog = interaction.client.get_cog("ReviewCog")  # type: ignore[attr-defined]
    assert cog is not None, "the review cog is installed with the commands"
    return cog  # type: ignore[no-any-return]


class HistoryPageButton(
    ui.DynamicItem[ui.Button[Any]],
    template=rf"mj:hp:(?P<owner>{USER}):(?P<target>{USER}):(?P<variant>[a-z0-9_]{{1,20}}|-)"
    r":(?P<page>[0-9]{1,5}):(?P<issued>[0-9]{1,10}):(?P<slot>[pnb])",
):
    SLOT_LABELS: ClassVar[dict[str, str]] = {"p": "◀", "n": "▶", "b": "↩"}

    def __init__(
        self,
        owner: int,
        target: int,
        variant: str | None,
        page: int,
        issued: int,
        slot: str,
        *,
        disabled: bool = False,
    ) -> None:
        custom_id = f"mj:hp:{owner}:{target}:{variant or '-'}:{page}:{issued}:{slot}"
        super().__init__(
            ui.Button(custom_id=custom_id, label=self.SLOT_LABELS[slot], disabled=disabled)
        )
        self.owner, self.target, self.variant = owner, target, variant
        self.page, self.issued = page, issued

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> HistoryPageButton:
        variant = None if match["variant"] == "-" else match["variant"]
        page, issued = int(match["page"]), int(match["issued"])
        return cls(int(match["owner"]), int(match["target"]), variant, page, issued, match["slot"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_history_page(
            interaction, self.owner, self.target, self.variant, self.page, self.issued
        )


class HistoryMatchSelect(
    ui.DynamicItem[ui.Select[Any]],
    template=rf"mj:ho:(?P<owner>{USER}):(?P<target>{USER}):(?P<issued>[0-9]{{1,10}})",
):
    def __init__(
        self,
        owner: int,
        target: int,
        issued: int,
        options: list[discord.SelectOption],
        placeholder: str = "",
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"mj:ho:{owner}:{target}:{issued}",
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=placeholder[:150],
                disabled=not options,
            )
        )
        self.owner, self.target, self.issued = owner, target, issued

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> HistoryMatchSelect:
        assert isinstance(item, ui.Select)
        return cls(
            int(match["owner"]), int(match["target"]), int(match["issued"]), list(item.options)
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values)
        await _handler(interaction).on_history_open(
            interaction, self.owner, self.target, self.issued, values[0] if values else ""
        )


class MatchHandSelect(
    ui.DynamicItem[ui.Select[Any]],
    template=rf"mj:hh:(?P<owner>{USER}):(?P<game>{GAME})",
):
    def __init__(
        self, owner: int, game_id: str, options: list[discord.SelectOption], placeholder: str = ""
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"mj:hh:{owner}:{game_id}",
                options=options or [discord.SelectOption(label="-", value="0")],
                placeholder=placeholder[:150],
                disabled=not options,
            )
        )
        self.owner, self.game_id = owner, game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> MatchHandSelect:
        assert isinstance(item, ui.Select)
        return cls(int(match["owner"]), match["game"], list(item.options))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values)
        hand = int(values[0]) if values and values[0].isdigit() else 0
        await _handler(interaction).on_replay_open(interaction, self.owner, self.game_id, hand)


class ReplayStepButton(
    ui.DynamicItem[ui.Button[Any]],
    template=rf"mj:rs:(?P<owner>{USER}):(?P<game>{GAME}):(?P<hand>[0-9]{{1,4}})"
    r":(?P<step>[0-9]{1,5}):(?P<slot>[fpnl])",
):
    def __init__(
        self, owner: int, game_id: str, hand: int, step: int, slot: str, *, disabled: bool = False
    ) -> None:
        super().__init__(
            ui.Button(
                custom_id=f"mj:rs:{owner}:{game_id}:{hand}:{step}:{slot}",
                label=STEP_LABELS[slot],
                disabled=disabled,
                style=discord.ButtonStyle.primary
                if slot in "pn"
                else discord.ButtonStyle.secondary,
            )
        )
        self.owner, self.game_id, self.hand, self.step = owner, game_id, hand, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> ReplayStepButton:
        return cls(
            int(match["owner"]),
            match["game"],
            int(match["hand"]),
            int(match["step"]),
            match["slot"],
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_replay_step(
            interaction, self.owner, self.game_id, self.hand, self.step
        )


class ReplayExportButton(
    ui.DynamicItem[ui.Button[Any]],
    template=rf"mj:rx:(?P<owner>{USER}):(?P<game>{GAME}):(?P<hand>[0-9]{{1,4}})",
):
    def __init__(self, owner: int, game_id: str, hand: int, locale: str | None = None) -> None:
        super().__init__(
            ui.Button(
                custom_id=f"mj:rx:{owner}:{game_id}:{hand}",
                label=label_for("button.export", locale),  # the viewer is one reader's
            )
        )
        self.owner, self.game_id, self.hand = owner, game_id, hand

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> ReplayExportButton:
        return cls(int(match["owner"]), match["game"], int(match["hand"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_replay_export(
            interaction, self.owner, self.game_id, self.hand
        )


class ReplayCardButton(
    ui.DynamicItem[ui.Button[Any]],
    template=rf"mj:rc:(?P<game>{GAME}):(?P<hand>[0-9]{{1,4}})",
):
    def __init__(self, game_id: str, hand: int) -> None:
        super().__init__(
            ui.Button(custom_id=f"mj:rc:{game_id}:{hand}", label=bilingual_label("button.replay"))
        )
        self.game_id, self.hand = game_id, hand

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> ReplayCardButton:
        return cls(match["game"], int(match["hand"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_replay_open(interaction, None, self.game_id, self.hand)


class RematchButton(ui.DynamicItem[ui.Button[Any]], template=rf"mj:rm:(?P<game>{GAME})"):
    def __init__(self, game_id: str) -> None:
        super().__init__(
            ui.Button(
                custom_id=f"mj:rm:{game_id}",
                label=bilingual_label("button.rematch"),
                style=discord.ButtonStyle.success,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_rematch(interaction, self.game_id)


REVIEW_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    HistoryPageButton,
    HistoryMatchSelect,
    MatchHandSelect,
    ReplayStepButton,
    ReplayExportButton,
    ReplayCardButton,
    RematchButton,
)


def replay_card_view(game_id: str, hand: int) -> ui.View:
    """The Replay button under a hand's result post (``hand`` is 1-based)."""
    view = ui.View(timeout=None)
    view.add_item(ReplayCardButton(game_id, hand))
    return view


def rematch_view(game_id: str) -> ui.View:
    """The Rematch button under a match's final result."""
    view = ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    return view


def replay_step_view(
    owner: int, game_id: str, hand: int, step: int, steps: int, locale: str | None = None
) -> ui.View:
    view = ui.View(timeout=None)
    targets = {"f": 0, "p": max(0, step - 1), "n": min(steps, step + 1), "l": steps}
    for slot, target in targets.items():
        at_edge = (slot in "fp" and step == 0) or (slot in "nl" and step == steps)
        view.add_item(ReplayStepButton(owner, game_id, hand, target, slot, disabled=at_edge))
    view.add_item(ReplayExportButton(owner, game_id, hand, locale))
    return view
