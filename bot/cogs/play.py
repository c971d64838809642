"""``/discard /chow /pung /kong /win /pass`` (打 吃 碰 杠 胡 过): play by typing.

Short to type, for the current turn (``turn_id`` None): the buttons are quicker, but
typing works everywhere, including a phone that hides components. Tile options
autocomplete from your own hand's legal moves; the typed value is re-parsed and the
session re-checks legality, since Discord enforces neither.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_views import tile_label
from bot.errors import UserFacingError
from bot.i18n import T, Text, msg
from bot.refusals import bad_tiles
from engine.tiles import (
    TileError,
    format_tiles,
    kind_str,
    name_en,
    name_zh,
    parse_tile,
    parse_tiles,
)
from engine.words import ACTIONS, Word

if TYPE_CHECKING:
    from bot.app import MahjongBot

TILE_HELP = T("A tile: 5m, 3p, 7s, 1z… or 五万 / 东风", "一张牌：5m、3p、7s、1z… 或 五万、东风")


def _matches(typed: str, kind: int) -> bool:
    typed = unicodedata.normalize("NFKC", typed).strip().lower()  # ５ｍ as 5m (parse_tiles)
    if not typed:
        return True
    haystack = f"{kind_str(kind)} {name_zh(kind)} {name_en(kind)}".lower()
    if typed in haystack:
        return True
    try:
        return parse_tile(typed) == kind
    except TileError:
        return False


def _tile_choices(
    kinds: set[int], current: str, locale: str | None = None
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the legal kinds matching what is typed so far (Discord shows 25), named
    in the typist's language."""
    return [
        app_commands.Choice(name=tile_label(kind, locale), value=kind_str(kind))
        for kind in sorted(kinds)
        if _matches(current, kind)
    ][:25]


def _tile(value: str) -> str:
    try:
        return kind_str(parse_tile(value))
    except TileError as error:
        raise UserFacingError(bad_tiles(error)) from None


def done_text(action: dict[str, Any]) -> Text:
    """The confirmation of a typed move, in both languages: "✔ 已打出 5m 五万"."""
    word = ACTIONS.get(str(action["type"])) or Word(str(action["type"]), str(action["type"]))
    zh = en = ""
    if action.get("tile"):
        kind = parse_tile(str(action["tile"]))
        zh, en = f" {kind_str(kind)} {name_zh(kind)}", f" {kind_str(kind)} {name_en(kind)}"
    elif action.get("tiles"):
        zh = en = f" {action['tiles']}"
    done = msg("play.done", move=f"{word.zh}{zh}", move_en=f"{word.short or word.en}{en}")
    return Text(f"✔ {done.zh}", f"✔ {done.en}")


class PlayCog(commands.Cog):
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    async def _submit(self, interaction: discord.Interaction[Any], action: dict[str, Any]) -> None:
        # Typed in a DM, for a table another shard's process holds: its owner answers.
        if self.bot.manager.table_of_user(
            interaction.user.id
        ) is None and await self.bot.route_typed_move(interaction, action, done_text(action)):
            return
        table = self.bot.table_of(interaction.user.id)
        result = await table.submit(interaction.user.id, action, None)
        if result.ok:
            await self.bot.reply(interaction, done_text(action))
        else:
            await self.bot.reply(interaction, result.message or msg("error.generic"))

    def _legal(self, user_id: int) -> list[Any]:
        table = self.bot.manager.table_of_user(user_id)
        prompt = table.prompt_for(user_id) if table is not None else None
        return list(prompt.view.legal) if prompt is not None else []

    # ------------------------------------------------------------------ commands

    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.command(name=T("discard", "打"), description=T("Discard a tile", "打出一张牌"))
    @app_commands.rename(tile=T("tile", "牌"))
    @app_commands.describe(tile=TILE_HELP)
    async def discard(
        self, interaction: discord.Interaction[Any], tile: app_commands.Range[str, 1, 12]
    ) -> None:
        await self._submit(interaction, {"type": "discard", "tile": _tile(tile)})

    @discard.autocomplete("tile")
    async def discard_tiles(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        kinds = {a.tile for a in self._legal(interaction.user.id) if a.type == "discard"}
        return _tile_choices(kinds, current, str(interaction.locale))

    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.command(name=T("chow", "吃"), description=T("Chow the discard", "吃上家打出的牌"))
    @app_commands.rename(tiles=T("tiles", "顺子"))
    @app_commands.describe(
        tiles=T("The chow, e.g. 345m (optional if only one)", "顺子，如 345m（只有一种时可省略）")
    )
    async def chow(
        self,
        interaction: discord.Interaction[Any],
        tiles: app_commands.Range[str, 0, 20] | None = None,
    ) -> None:
        options = [a for a in self._legal(interaction.user.id) if a.type == "chow" and a.tiles]
        if tiles:
            try:
                kinds = sorted(parse_tiles(tiles))
            except TileError as error:
                raise UserFacingError(bad_tiles(error)) from None
            if len(kinds) != 3:
                raise UserFacingError(msg("play.chow_three", typed=tiles[:20]))
            chosen = format_tiles(kinds)
        elif not options:
            self.bot.table_of(interaction.user.id)  # not seated: that is the answer
            raise UserFacingError(msg("play.no_chow"))
        elif len(options) > 1:
            named = [format_tiles(chow.tiles or ()) for chow in options]
            raise UserFacingError(
                msg("play.which_chow", choices_zh="、".join(named), choices_en=", ".join(named))
            )
        else:
            chosen = format_tiles(options[0].tiles or ())
        await self._submit(interaction, {"type": "chow", "tiles": chosen})

    @chow.autocomplete("tiles")
    async def chow_tiles(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        chows = [a.tiles for a in self._legal(interaction.user.id) if a.type == "chow" and a.tiles]
        names = [format_tiles(t) for t in chows]
        return [app_commands.Choice(name=n, value=n) for n in names if current.strip() in n][:25]

    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.command(name=T("pung", "碰"), description=T("Pung the discard", "碰别人打出的牌"))
    async def pung(self, interaction: discord.Interaction[Any]) -> None:
        await self._submit(interaction, {"type": "pung"})

    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.command(
        name=T("kong", "杠"),
        description=T(
            "Kong: claim the discard, or name a tile on your turn",
            "杠：明杠别人打的牌，或在自己回合指定暗杠/补杠",
        ),
    )
    @app_commands.rename(tile=T("tile", "牌"))
    @app_commands.describe(
        tile=T("For a concealed or added kong on your turn", "自己回合的暗杠或补杠")
    )
    async def kong(
        self,
        interaction: discord.Interaction[Any],
        tile: app_commands.Range[str, 1, 12] | None = None,
    ) -> None:
        action: dict[str, Any] = {"type": "kong"}
        if tile:
            action["tile"] = _tile(tile)
        await self._submit(interaction, action)

    @kong.autocomplete("tile")
    async def kong_tiles(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        kinds = {
            a.tile
            for a in self._legal(interaction.user.id)
            if a.type == "kong" and a.tile is not None
        }
        return _tile_choices(kinds, current, str(interaction.locale))

    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.command(name=T("win", "胡"), description=T("Declare a win", "胡牌"))
    async def win(self, interaction: discord.Interaction[Any]) -> None:
        await self._submit(interaction, {"type": "win"})

    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.command(
        name=T("pass", "过"), description=T("Pass on the claim", "过（不吃不碰不胡）")
    )
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self._submit(interaction, {"type": "pass"})
