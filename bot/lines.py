"""The lines players read about a game, built once for every text surface.

The terminal game (``bot.terminal``), the Discord presenter, ``mahjong-bot score
--explain`` and the calculator cog all describe moves, hands and results; they build
those lines here so that a move or a total reads the same everywhere. Words come from
``engine.words`` (winds, units, win types, verbs) and from the rule set itself
(``engine.variants.get_rules``: its name, its wild's name, its total formula), never from
a comparison with a rule set's name.

Pure: no discord.py, no PIL, no I/O. Each surface passes what only it knows, such as how
it writes a tile (a glyph, ``5m`` or ``5m 五万``) or a player (a name or a mention).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.scoring.names import PAYMENT_REASONS, payment_multiple
from engine.tiles import kind_str, name_en, name_zh, parse_tile
from engine.types import CONTINUE, Action, HandResult, Meld, Payment, ScoreItem
from engine.variants import get_rules
from engine.views import PublicView
from engine.words import ACTIONS, PREVAILING_WINDS, SEAT_WINDS, UNITS, WIN_TYPES, Word

from .messages import msg, msg_each
from .presenter import Text

__all__ = [
    "changes_text",
    "event_line",
    "hand_label",
    "item_unit",
    "move_line",
    "name_at",
    "payment_line",
    "ranked",
    "rule_set_name",
    "total_line",
    "wild_name",
    "win_by_text",
]


def rule_set_name(variant: str) -> Text:
    """The rule set's display name (嘉兴台头胡 / Jiaxing Taitou Hu)."""
    rules = get_rules(variant)
    return Text(rules.name_zh, rules.name_en)


def carried_fan_text(public: PublicView) -> Text | None:
    """What this hand added to the carried pool as it started (Jiaxing: 老头黄 Honor Wild,
    包子 Dice Doubles, 百搭连庄 Repeat Wild), named as players call them; None when
    nothing did. The table shows the pool; this says why it grew."""
    names = get_rules(public.variant).carried_fan_bonus_names
    bonuses = [names.get(key, (key, key)) for key in public.carried_fan_bonuses]
    if not bonuses:
        return None
    zh = "、".join(f"{chinese} +1" for chinese, _english in bonuses)
    en = ", ".join(f"{english} +1" for _chinese, english in bonuses)
    return Text(
        f"本局番池加番：{zh}（番池 {public.carried_fan}）",
        f"Added to the fan pool this hand: {en} (pool {public.carried_fan})",
    )


def wild_name(variant: str) -> Text:
    """What the rule set calls its wild (百搭, 财神)."""
    rules = get_rules(variant)
    return Text(rules.wild_name_zh, rules.wild_name_en)


def hand_label(public: PublicView) -> Text:
    """``东风圈 第2局`` / ``East round, hand 2``; just the hand number where the rule set
    has no prevailing wind."""
    number = public.hand_number + 1
    if not get_rules(public.variant).has_prevailing_wind:
        return Text(f"第{number}局", f"Hand {number}")
    wind = PREVAILING_WINDS[public.prevailing_wind]
    return Text(f"{wind.zh} 第{number}局", f"{wind.en}, hand {number}")


def total_line(result: HandResult) -> Text:
    """The total formula as the rule set writes it (``3台 × 4（2番）= 12``)."""
    rules = get_rules(result.variant)
    return Text(rules.format_total(result, "zh"), rules.format_total(result, "en"))


def item_unit(item: ScoreItem) -> Word:
    """The unit a score item counts in (台, 番, 胡); an unknown unit reads as its key."""
    return UNITS.get(item.unit) or Word(item.unit, item.unit)


def win_by_text(result: HandResult, names: Sequence[str] | None = None) -> str:
    """How the hand was won, and from whom when it was not a self-draw, bilingual
    inline: ``捉冲 on a discard ← B``."""
    word = WIN_TYPES.get(result.win_by or "") or Word(result.win_by or "", result.win_by or "")
    if result.win_by != "self_draw" and result.from_seat is not None:
        return f"{word.both()} ← {name_at(names, result.from_seat)}"
    return word.both()


def move_line(who: str, action: str, detail: str = "", source: str = "") -> str:
    """One public move, bilingual inline: ``A 碰 pungs 3p 3p 3p ← B``.

    ``action`` is an action type or ``"concealed_kong"``; ``detail`` is the tile(s) as the
    surface writes them; ``source`` names whose discard was claimed.
    """
    word = ACTIONS.get(action) or Word(action, action)
    line = f"{who} {word.both()}"
    if detail:
        line += f" {detail}"
    if source:
        line += f" ← {source}"
    return line


def event_line(
    event: dict[str, Any],
    names: Sequence[str],
    tile: Callable[[int], str],
    tiles: Callable[[Sequence[int]], str],
) -> str | None:
    """One line for a public engine event, or None for the ones not worth a line.

    ``tile``/``tiles`` write tiles the surface's way (a glyph, plain notation).
    """
    kind = event.get("type")
    who = name_at(names, int(event["seat"])) if "seat" in event else ""
    if kind == "discard":
        return move_line(who, "discard", tile(parse_tile(event["tile"])))
    if kind == "claim":
        meld = Meld.from_json(event["meld"])
        source = name_at(names, int(event["from"])) if "from" in event else ""
        return move_line(who, meld.type, tiles(meld.tiles), source)
    if kind == "concealed_kong":
        return move_line(who, "concealed_kong")
    if kind == "added_kong":
        # Said once, when declared (a robbable one is announced before the rob window);
        # its "kong_made" when it stands is no second move.
        return move_line(who, "added_kong", tile(parse_tile(event["tile"])))
    if kind == "win":
        return move_line(who, "win", tile(parse_tile(event["tile"])))
    if kind == "santan":
        first, second = event["pair"]
        return f"三摊 Three claims: {name_at(names, first)} & {name_at(names, second)}"
    if kind == "santan_choice":
        return move_line(who, "continue" if event["choice"] == CONTINUE else "fold")
    if kind == "exhaustive_draw":
        return "流局 Exhaustive draw"
    return None


def payment_line(
    payment: Payment, names: Sequence[str] | None = None, result: HandResult | None = None
) -> str:
    """``A → B: 8 (胡牌 win)``; ``(三摊 three-claim liability ×5)`` where the payment is a
    multiple of ``result``'s score."""
    zh, en = PAYMENT_REASONS.get(payment.reason, (payment.reason, payment.reason))
    reason = zh if zh == en else f"{zh} {en}"
    multiple = payment_multiple(payment, result) if result is not None else None
    if multiple is not None:
        reason += f" ×{multiple}"
    payer, payee = name_at(names, payment.payer), name_at(names, payment.payee)
    return f"{payer} → {payee}: {payment.amount} ({reason})"


def result_texts(
    result: HandResult, names: Sequence[str], points: Sequence[int], stake: int
) -> tuple[Text, Text]:
    """The two lines a hand's result is posted with, in the channel and on each DM hand:
    who won (or the draw), and each seat's points at the table's stake; "nobody wins or
    loses" where a row of +0 would say nothing."""
    if result.winner is not None:
        head = msg("result.win", name=names[result.winner])
    else:
        head = msg("result.draw")
    if not any(points):
        return head, msg("result.no_points")
    return head, changes_message("result.points", names, points, stake=stake)


def timed_out_text(action: Action, left: int) -> Text:
    """What a timeout played for the player, and how many more before autoplay:
    "超时，已替你打出 5z 白板（再超时 2 次将转为电脑托管）"."""
    if action.type == "discard" and action.tile is not None:
        tile = action.tile
        zh = f"打出 {kind_str(tile)} {name_zh(tile)}"
        en = f"discarded {kind_str(tile)} ({name_en(tile)})"
    else:  # a claim passed, or (三摊) continue
        word = ACTIONS.get(action.type)
        zh = f"选择「{word.zh}」" if word is not None else action.type
        en = {"pass": "passed", "continue": "continued"}.get(action.type, action.type)
    return msg_each("session.timed_out", {"move": zh, "left": left}, {"move": en, "left": left})


def changes_text(names: Sequence[str], values: Sequence[int], separator: str = ", ") -> str:
    """Each seat's change or total: ``A +8, B -4, C -4``."""
    return separator.join(f"{name_at(names, seat)} {value:+d}" for seat, value in enumerate(values))


def changes_message(key: str, names: Sequence[str], values: Sequence[int], **other: object) -> Text:
    """The message ``key`` with each seat's change or total as its ``{changes}``: listed
    with the Chinese enumeration comma 、 in the Chinese line, commas in the English one;
    the names kept as written."""
    chinese = {**other, "changes": changes_text(names, values, "、")}
    english = {**other, "changes": changes_text(names, values)}
    return msg_each(key, chinese, english).keeping(*names)


def ranked(totals: Sequence[int]) -> list[tuple[int, int]]:
    """(rank, seat), best first: tied seats share a rank (the next one skips, as in
    sport) and stay in seat order."""
    order = sorted(range(len(totals)), key=lambda seat: -totals[seat])
    return [(1 + sum(1 for other in order if totals[other] > totals[seat]), seat) for seat in order]


def standings_message(
    key: str,
    names: Sequence[str],
    totals: Sequence[int],
    winds: Sequence[int] | None = None,
    departed: Sequence[tuple[str, int]] = (),
    **other: object,
) -> Text:
    """The message ``key`` with the match's totals as its ``{changes}``, best first:
    ``1. 东家 A +40、2. 南家 B +0、2. 西家 C +0、4. 北家 D -40``. Tied players share a
    rank (the next rank skips, as in sport) and stay in seat order; each keeps the seat
    wind it had in the last hand (``winds``: wind tile kinds by seat), as the table
    picture above showed it. ``departed``: players who left mid-match, ``(name,
    points)``, ranked among the others and marked as gone (their seat's total in
    ``totals`` is then only what the AI that took it made)."""
    zh: list[str] = []
    en: list[str] = []
    everyone = [*totals, *(points for _name, points in departed)]
    for rank, index in ranked(everyone):
        if index >= len(totals):
            name = departed[index - len(totals)][0]
            zh.append(f"{rank}. {name}（已离桌） {everyone[index]:+d}")
            en.append(f"{rank}. {name} (left) {everyone[index]:+d}")
            continue
        seat = index
        wind = SEAT_WINDS.get(winds[seat]) if winds is not None and seat < len(winds) else None
        name = name_at(names, seat)
        zh.append(f"{rank}. {wind.zh + ' ' if wind else ''}{name} {totals[seat]:+d}")
        en.append(f"{rank}. {wind.en + ' ' if wind else ''}{name} {totals[seat]:+d}")
    chinese = {**other, "changes": "、".join(zh)}
    english = {**other, "changes": ", ".join(en)}
    return msg_each(key, chinese, english).keeping(*names, *(name for name, _ in departed))


def name_at(names: Sequence[str] | None, seat: int) -> str:
    """Seat ``seat``'s name, or "seat N" where ``names`` has none for it."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"
