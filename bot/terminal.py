"""Text rendering of tiles, hands, tables and results, and the terminal presenter.

``mahjong-bot play`` drives the same ``TableSession`` as Discord; this module is how it
shows things: Unicode mahjong tiles (🀇…) by default, or plain notation (``5m``, ``E``,
``C``) with ``--plain`` or when the terminal's encoding cannot print the glyphs. The
command parser lives here too, next to the help text that documents it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from engine.tiles import TileError, format_tiles, parse_tile, parse_tiles
from engine.types import (
    CHOW,
    CONTINUE,
    DISCARD,
    FOLD,
    KONG,
    PASS,
    PUNG,
    WIN,
    Action,
    ActionType,
    HandResult,
    Meld,
)
from engine.variants import get_rules
from engine.views import PlayerView, PublicView
from engine.words import ACTIONS, WINDS

from .lines import (
    carried_fan_text,
    changes_text,
    event_line,
    hand_label,
    item_unit,
    name_at,
    payment_line,
    ranked,
    total_line,
    wild_name,
    win_by_text,
)
from .presenter import LastHand, LobbyInfo, PrivatePrompt, SeatInfo, TableStatus, Text

_HONOR_LETTERS = ("E", "S", "W", "N", "P", "F", "C")  # what parse_tiles reads back


def tile_glyph(kind: int) -> str:
    """The Unicode mahjong tile for a kind (Mahjong Tiles block, U+1F000…)."""
    if kind < 9:
        return chr(0x1F007 + kind)  # characters 🀇
    if kind < 18:
        return chr(0x1F019 + kind - 9)  # dots 🀙
    if kind < 27:
        return chr(0x1F010 + kind - 18)  # bamboo 🀐
    return chr((0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)[kind - 27])


def tile_plain(kind: int) -> str:
    if kind < 27:
        return f"{kind % 9 + 1}{'mps'[kind // 9]}"
    return _HONOR_LETTERS[kind - 27]


WILD_MARK = "*"  # follows a wild tile, so 百搭/财神 stand out in a row of glyphs


def tile_text(kind: int, plain: bool = False, wild: int | None = None) -> str:
    text = tile_plain(kind) if plain else tile_glyph(kind)
    return text + WILD_MARK if wild is not None and kind == wild else text


def tiles_text(kinds: Sequence[int], plain: bool = False, wild: int | None = None) -> str:
    return " ".join(tile_text(k, plain, wild) for k in kinds)


def glyphs_supported(stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "🀇🀄".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def meld_text(meld: Meld, plain: bool = False) -> str:
    if meld.concealed and not meld.tiles:
        return "[🀫🀫🀫🀫]" if not plain else "[? ? ? ?]"
    label = ACTIONS["concealed_kong" if meld.concealed else meld.type].zh
    return f"{label}[{tiles_text(meld.tiles, plain)}]"


def table_text(
    public: PublicView, names: Sequence[str], plain: bool = False, me: int | None = None
) -> str:
    """The public table: header, then one block per seat (wind, score, melds, river)."""
    wild_label = wild_name(public.variant)
    lines = [
        f"== {hand_label(public).both()} ==",
        f"翻牌 Indicator {tile_text(public.indicator, plain)}   "
        + (
            f"{wild_label.zh} {wild_label.en} {tile_text(public.wild, plain)}   "
            if public.wild is not None
            else ""
        )
        + f"余牌 Tiles left {public.tiles_left}"
        + (f"   番池 Carried fan {public.carried_fan}" if public.carried_fan else ""),
    ]
    bonus = carried_fan_text(public)
    if bonus is not None:
        lines.append(f"{bonus.zh} · {bonus.en}")
    for seat_view in public.seats:
        seat = seat_view.seat
        marks = []
        if seat_view.is_dealer:
            marks.append("庄 dealer")
        if seat_view.folded:
            marks.append("不跟 folded")
        if seat == me:
            marks.append("你 you")
        if seat in public.waiting_on and public.phase != "ended":
            marks.append("等待 waiting")
        wind = WINDS[seat_view.seat_wind]
        head = (
            f"[{wind.zh}{wind.short}] {name_at(names, seat)}"
            f"  {seat_view.score:+d}  手牌 {seat_view.concealed_count}"
        )
        if marks:
            head += "  (" + ", ".join(marks) + ")"
        lines.append(head)
        if seat_view.melds:
            lines.append("    " + "  ".join(meld_text(m, plain) for m in seat_view.melds))
        if seat_view.discards:
            river = []
            for discard in seat_view.discards:
                text = tile_text(discard.tile, plain, public.wild)
                river.append(f"({text})" if discard.claimed else text)
            lines.append("    河 " + " ".join(river))
    return "\n".join(lines)


def hand_text(view: PlayerView, plain: bool = False) -> str:
    wild = view.public.wild
    concealed = tiles_text(view.concealed, plain, wild)
    line = f"你的牌 Your hand: {concealed}"
    if view.drawn is not None:
        line += f"  + {tile_text(view.drawn, plain, wild)}"
    if wild is not None and wild in view.all_concealed:
        wild_word = wild_name(view.public.variant)
        line += f"   ({WILD_MARK} = {wild_word.zh} {wild_word.en})"
    lines = [line]
    if not plain:
        notation = format_tiles(view.concealed)
        if view.drawn is not None:
            notation += f" + {tile_plain(view.drawn)}"
        lines.append(f"    ({notation})")
    if view.melds:
        lines.append("亮牌 Melds: " + "  ".join(meld_text(m, plain) for m in view.melds))
    if view.claim_tile is not None:
        lines.append(f"可以吃碰的牌 Tile on offer: {tile_text(view.claim_tile, plain)}")
    if view.waits:
        lines.append(f"听 Waiting on: {tiles_text(view.waits, plain)}")
    return "\n".join(lines)


def action_command(action: Action) -> str:
    """The command that plays ``action`` (what ``help`` and the prompt suggest)."""
    if action.type == DISCARD and action.tile is not None:
        return f"d {tile_plain(action.tile)}"
    if action.type == CHOW and action.tiles:
        return f"chow {format_tiles(action.tiles)}"
    if action.type == KONG and action.tile is not None:
        return f"kong {tile_plain(action.tile)}"
    return action.type


def legal_text(view: PlayerView) -> str:
    discards = [a for a in view.legal if a.type == DISCARD]
    others = [action_command(a) for a in view.legal if a.type != DISCARD]
    parts = []
    if discards:
        tiles = " ".join(tile_plain(a.tile) for a in discards if a.tile is not None)
        parts.append(f"d <tile> ({tiles})")
    parts += others
    line = "可选 Options: " + " | ".join(parts) + "   [help 帮助]"
    if view.public.phase == "santan":  # a rare choice: say what each one costs
        line += (
            "\n    三摊：跟 = 继续打，能胡，按三摊规则输赢；不跟 = 自动摸打，不能吃碰胡，也不付分"
            "\n    Three claims: continue = play on, may win, settle by the three-claim rules;"
            " fold = auto-play, no claims or win, pay nothing"
        )
    return line


def result_text(
    result: HandResult,
    names: Sequence[str],
    points: Sequence[int],
    plain: bool = False,
    *,
    wild: int | None = None,
    balance: Sequence[int] | None = None,
) -> str:
    """The itemised result of one hand, bilingual, with each seat's points (and the
    running balance when the caller keeps one)."""
    lines = []
    if result.winner is None:
        lines.append("== 流局 / Exhaustive draw ==")
        if get_rules(result.variant).has_carried_fan:  # a draw feeds the carried pool (黄番)
            lines.append("    番池 +1 / Carried fan +1")
    else:
        by = win_by_text(result, names)  # and whose discard (or kong) it was
        lines.append(f"== {name_at(names, result.winner)} 胡了 / wins ({by}) ==")
        if result.hand is not None:
            hand = tiles_text(result.hand.concealed, plain, wild)
            melds = "  ".join(meld_text(m, plain) for m in result.hand.melds)
            lines.append(f"    {hand}  {melds}".rstrip())
        for item in result.items:
            count = f" ×{item.count}" if item.count != 1 else ""
            unit = item_unit(item).both()
            lines.append(f"    {item.name_zh} {item.name_en}{count}: {item.value} {unit}")
        total = total_line(result)
        summary = [f"{total.zh} / {total.en}"]
        if result.carried_fan_used:
            summary.append(f"用番池 carried fan used {result.carried_fan_used}")
        lines.append("    " + "; ".join(summary))
        for payment in result.payments:
            lines.append(f"    {payment_line(payment, names, result)}")
    lines.append("    输赢 Points: " + changes_text(names, points))
    if balance is not None:
        lines.append("    本场累计 Match so far: " + changes_text(names, balance))
    return "\n".join(lines)


def event_text(
    event: dict[str, Any], names: Sequence[str], plain: bool = False, wild: int | None = None
) -> str | None:
    """One line for a public engine event (``bot.lines.event_line``), tiles as typed here."""
    return event_line(
        event,
        names,
        lambda kind: tile_text(kind, plain, wild),
        lambda kinds: tiles_text(kinds, plain),
    )


HELP = """\
命令 Commands:
  d 5m | discard 5m | 5m   打出一张牌 discard a tile (honours: E S W N P F C or 1z-7z)
  chow 345m                吃 claim a chow (the three tiles, the claimed one included)
  pung                     碰 claim a pung
  kong 5m | kong           杠 a kong (on your turn name the tile; on a discard no tile)
  win                      胡 win
  pass                     过 pass on a claim
  continue | fold          三摊: 跟 continue or 不跟 fold
  (empty line)             默认：打刚摸的牌 / 过 / 跟 — the timeout default, shown
                           before the prompt: discard the drawn tile / pass / continue
  hand                     再看一次 show the table and your hand again
  help | quit              帮助 this help / 退出 quit (the match is abandoned)
"""


@dataclass(frozen=True)
class Command:
    """A terminal command that is not a move: help, quit, hand, default."""

    name: str


class CommandError(ValueError):
    """An unreadable command; the message is shown as is."""


_VERBS: dict[str, ActionType] = {
    "d": DISCARD,
    "discard": DISCARD,
    "打": DISCARD,
    "chow": CHOW,
    "chi": CHOW,
    "吃": CHOW,
    "pung": PUNG,
    "pong": PUNG,
    "peng": PUNG,
    "碰": PUNG,
    "kong": KONG,
    "gang": KONG,
    "杠": KONG,
    "win": WIN,
    "hu": WIN,
    "胡": WIN,
    "pass": PASS,
    "guo": PASS,
    "过": PASS,
    "continue": CONTINUE,
    "跟": CONTINUE,
    "fold": FOLD,
    "不跟": FOLD,
}
_SPECIAL = {
    "help": "help",
    "h": "help",
    "?": "help",
    "帮助": "help",
    "quit": "quit",
    "q": "quit",
    "exit": "quit",
    "退出": "quit",
    "hand": "hand",
    "table": "hand",
    "": "default",
}


def parse_command(line: str, view: PlayerView) -> Action | Command:
    """Read one line typed at the prompt into an action for ``view.seat`` (or a Command)."""
    text = line.strip()
    words = text.split()
    verb = words[0].lower() if words else ""
    rest = " ".join(words[1:])
    if verb in _SPECIAL and not rest:
        return Command(_SPECIAL[verb])
    seat = view.seat
    action_type = _VERBS.get(verb)
    if action_type is None:
        # A bare tile discards it: "5m".
        try:
            return Action(DISCARD, seat, tile=parse_tile(text))
        except ValueError:
            raise CommandError(
                f"看不懂 {text!r}，输入 help 查看命令 / Unknown command {text!r}; type help"
            ) from None
    try:
        if action_type == DISCARD:
            if not rest:
                raise CommandError("打哪张牌？/ Discard which tile? e.g. d 5m")
            return Action(DISCARD, seat, tile=parse_tile(rest))
        if action_type == CHOW:
            if rest:
                return Action(CHOW, seat, tiles=tuple(sorted(parse_tiles(rest))))
            return _only(view, CHOW, "chow 345m")
        if action_type == KONG:
            if rest:
                kind = parse_tile(rest)
                if any(a.type == KONG and a.tile == kind for a in view.legal):
                    return Action(KONG, seat, tile=kind)
                return (
                    Action(KONG, seat) if view.claim_tile == kind else Action(KONG, seat, tile=kind)
                )
            return _only(view, KONG, "kong 5m")
    except CommandError:
        raise
    except TileError as error:
        raise CommandError(f"牌名无效：{error.zh} / Invalid tile: {error.en}") from None
    except ValueError as error:
        raise CommandError(f"牌名无效 / Invalid tile: {error}") from None
    return Action(action_type, seat)


def _only(view: PlayerView, action_type: ActionType, example: str) -> Action:
    matches = [a for a in view.legal if a.type == action_type]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        return Action(action_type, view.seat)  # the session explains why it is not legal
    options = ", ".join(action_command(a) for a in matches)
    raise CommandError(f"请指明 / Say which one ({example}): {options}")


class TerminalPresenter:
    """Prints the table for one human at a terminal; writes PNGs with ``images_dir``."""

    def __init__(
        self,
        out: TextIO,
        user_id: int,
        *,
        plain: bool = False,
        images_dir: Path | None = None,
    ) -> None:
        self.out = out
        self.user_id = user_id
        self.plain = plain or not glyphs_supported(out)
        self.images_dir = images_dir
        self.names: list[str] = []
        self.hand_shown: int | None = None
        self.image_errors = 0
        self.images_written = 0
        self.balance: list[int] = []  # each seat's points summed over the hands shown
        if images_dir is not None:
            images_dir.mkdir(parents=True, exist_ok=True)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _remember(self, seats: Sequence[SeatInfo]) -> None:
        self.names = [f"{info.name}{' (托管 auto)' if info.autoplay else ''}" for info in seats]

    def _write_image(self, name: str, render: Any) -> None:
        if self.images_dir is None:
            return
        try:
            data = render()
        except Exception as error:  # an image is a nicety; the game goes on without it
            self.image_errors += 1
            if self.image_errors == 1:
                self.say(f"(图片生成失败 / could not render {name}: {error})")
            return
        (self.images_dir / name).write_bytes(data)
        self.images_written += 1

    # ------------------------------------------------------------------ Presenter
    async def lobby_changed(self, lobby: LobbyInfo) -> None:
        if lobby.status == "running":
            self.say(f"牌局开始 / The match begins: {lobby.variant}, {lobby.num_seats} seats")

    async def table_changed(self, status: TableStatus) -> None:
        self._remember(status.seats)
        if status.public.hand_number != self.hand_shown and status.public.phase != "ended":
            self.hand_shown = status.public.hand_number
            dealer = name_at(self.names, status.public.dealer)
            self.say("")
            self.say(
                f"--- {status.hand_label.zh} 庄 {dealer} / {status.hand_label.en}, dealer {dealer} ---"
            )
        for event in status.events:
            line = event_text(event, self.names, self.plain, status.public.wild)
            if line:
                self.say("  " + line)

    async def private_hand(self, prompt: PrivatePrompt) -> None:
        if prompt.user_id != self.user_id or prompt.kind == "idle":
            return
        self.show_prompt(prompt)

    def show_prompt(self, prompt: PrivatePrompt) -> None:
        view = prompt.view
        self.say("")
        self.say(table_text(view.public, self.names, self.plain, me=view.seat))
        self.say(hand_text(view, self.plain))
        self.say(legal_text(view))
        if prompt.note is not None:  # who is liable and what 三摊 costs; a drawn wild kept
            self.say(f"    {prompt.note.zh}\n    {prompt.note.en}")
        stamp = f"{view.public.hand_number:02d}-{prompt.turn_id:05d}"
        if self.images_dir is not None:
            from render import render_hand, render_table

            names = list(self.names)
            self._write_image(
                f"{stamp}-table.png",
                lambda: render_table(view.public, names=names, perspective=view.seat),
            )
            self._write_image(f"{stamp}-hand.png", lambda: render_hand(view, names=names))

    async def hand_result(self, status: TableStatus, result: HandResult, points: list[int]) -> None:
        self._remember(status.seats)
        for event in status.events:
            line = event_text(event, self.names, self.plain, status.public.wild)
            if line:
                self.say("  " + line)
        if len(self.balance) != len(points):
            self.balance = [0] * len(points)
        self.balance = [total + value for total, value in zip(self.balance, points, strict=True)]
        self.say("")
        self.say(
            result_text(
                result,
                self.names,
                points,
                self.plain,
                wild=status.public.wild,
                balance=self.balance,
            )
        )
        if self.images_dir is not None:
            from render import render_result

            names = list(self.names)
            self._write_image(
                f"{status.public.hand_number:02d}-result.png",
                lambda: render_result(status.public, result, names=names),
            )

    async def match_result(self, status: TableStatus, totals: list[int], points: list[int]) -> None:
        self._remember(status.seats)
        self.say("")
        self.say("== 终局 / Match over ==")
        for rank, seat in ranked(totals):  # best first, as the Discord table's standings
            name = name_at(self.names, seat)
            self.say(f"    {rank}. {name}: {totals[seat]:+d} 分 units, {points[seat]:+d} 点 points")

    async def notice(self, table_id: str, channel_id: int, text: Text) -> None:
        self.say(f"* {text.both()}")

    async def error(self, user_id: int, text: Text) -> None:
        if user_id == self.user_id:
            self.say(f"! {text.both()}")

    async def withdraw_notice(self, table_id: str, channel_id: int, text: Text) -> None:
        """A terminal cannot take back a printed line; the next notice supersedes it."""

    async def table_restored(
        self, status: TableStatus, moves: list[TableStatus], last_hand: LastHand | None
    ) -> None:
        """The terminal game is not restored after a restart: nothing to rebuild."""

    async def rematch_call(
        self, table_id: str, channel_id: int, game_id: str, text: Text, user_ids: list[int]
    ) -> None:
        self.say(f"* {text.both()}")

    async def rematch_started(self, table_id: str, channel_id: int) -> None:
        """The table's start, printed next, says it."""


__all__ = [
    "HELP",
    "Command",
    "CommandError",
    "TerminalPresenter",
    "action_command",
    "event_text",
    "hand_text",
    "legal_text",
    "parse_command",
    "result_text",
    "table_text",
    "tile_glyph",
    "tile_plain",
    "tile_text",
    "tiles_text",
]
