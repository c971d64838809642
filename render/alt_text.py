"""What each image shows, in words: the alt text Discord keeps beside an attachment.

A player who uses a screen reader, or whose client has not loaded (or will not load) the
picture, has only this to play by: the hand image is the only place a player's own tiles
are shown, and the table and result images hold every meld, river and score item. So
each description says what its image says, in the image's language (Simplified,
Traditional or English, the renderers' ``locale``), with the image's own words: the same
labels, the rule set's names, the tile names players use.

Discord keeps at most 1,024 characters of a description (``DESCRIPTION_LIMIT``). What
gives way is the rivers, oldest discards first (a count says how many are left out);
only a text still too long without them would be cut, which names of Discord's 32
characters cannot make happen.

Text only: nothing is drawn, nothing read or written. Names are inserted as written
(never converted to Traditional characters).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.replay import HandReplay, RevealedSeat
from engine.tiles import name_en, name_zh
from engine.types import CHOW, KONG, PUNG, HandResult, Meld
from engine.variants import get_rules
from engine.views import PlayerView, PublicView, SeatView
from engine.words import ACTIONS, PREVAILING_WINDS, SEAT_WINDS, WIN_TYPES, WINDS

from .hand import claim_headline, white_legend
from .layout import seat_name, signed
from .leaderboard import board_entries, period_title, win_rate
from .result import (
    TablePoints,
    invalid_reason,
    item_value,
    payment_words,
    points_caption,
    seat_net,
    seat_payments,
    seat_score_text,
)
from .stats import card_figures, item_name, unit_name
from .text import chinese, in_language, label, rule_set_name, wild_label

__all__ = [
    "DESCRIPTION_LIMIT",
    "describe_hand",
    "describe_leaderboard",
    "describe_replay_frame",
    "describe_result",
    "describe_stats",
    "describe_table",
]

DESCRIPTION_LIMIT = 1024  # Discord's limit on an attachment's description

# Words only the descriptions use, (zh-CN, en, zh-TW): the images show these as pictures.
_WORDS: dict[str, tuple[str, str, str]] = {
    "hand": ("手牌", "Hand", "手牌"),
    "melds": ("亮出的牌", "Melds", "亮出的牌"),
    "discards": ("弃牌", "Discards", "棄牌"),
    "hidden": ("手牌{n}张", "{n} tiles in hand", "手牌{n}張"),
    "earlier": ("另有{n}张更早", "{n} earlier", "另有{n}張更早"),
    "claimed": ("被吃碰", "claimed", "被吃碰"),
    "from": ("←{name}", "from {name}", "←{name}"),
    "white_as": ("白板代{kind}", "White as {kind}", "白板代{kind}"),
    "turn_of": ("轮到 {name}", "{name}'s turn", "輪到 {name}"),
    "answering": ("等待 {names}", "waiting for {names}", "等待 {names}"),
    "wins": ("{name} 胡牌", "{name} wins", "{name} 胡牌"),
    "winning_tile": ("胡 {tile}", "winning tile {tile}", "胡 {tile}"),
    "net": ("输赢", "Net", "輸贏"),
    "trend": (
        "从 {first}到 {last}，最低 {low}，最高 {high}",
        "from {first} to {last}, low {low}, high {high}",
        "從 {first}到 {last}，最低 {low}，最高 {high}",
    ),
}


def _word(key: str, locale: str, **values: object) -> str:
    return in_language(_WORDS[key], locale, **values)


def _aside(text: str, locale: str) -> str:
    """``text`` in parentheses after what it qualifies: full-width in Chinese."""
    return f"（{text}）" if _zh(locale) else f" ({text})"


def _zh(locale: str) -> bool:
    return locale.startswith("zh")


def _list(parts: Iterable[str], locale: str) -> str:
    return ("，" if _zh(locale) else ", ").join(part for part in parts if part)


def _clause(parts: Iterable[str], locale: str) -> str:
    return ("；" if _zh(locale) else "; ").join(part for part in parts if part)


def tile_text(kind: int, locale: str) -> str:
    """One tile as players name it (五筒, 東風, 5 Dots)."""
    return chinese(name_zh(kind), locale) if _zh(locale) else name_en(kind)


def tiles_text(kinds: Iterable[int], locale: str) -> str:
    """Tiles grouped by suit as players say them: 一二三万 五五筒 东风, or
    1 2 3 Characters, 5 5 Dots, East Wind."""
    ordered = sorted(kinds)
    groups: list[str] = []
    for suit in range(3):
        numbers = [kind % 9 for kind in ordered if kind // 9 == suit and kind < 27]
        if not numbers:
            continue
        if _zh(locale):
            names = [name_zh(suit * 9 + number) for number in numbers]
            groups.append(chinese("".join(name[0] for name in names) + names[0][1:], locale))
        else:
            suit_name = name_en(suit * 9).split(" ", 1)[1]
            groups.append(" ".join(str(number + 1) for number in numbers) + f" {suit_name}")
    groups += [tile_text(kind, locale) for kind in ordered if kind >= 27]
    return (" " if _zh(locale) else ", ").join(groups)


def _seat_label(view: PublicView, seat: int, names: Sequence[str] | None, locale: str) -> str:
    wind = SEAT_WINDS[view.seats[seat].seat_wind].text(locale)
    return f"{wind} {seat_name(names, seat, locale)}"


def _meld_text(meld: Meld, view: PublicView, locale: str) -> str:
    if meld.type == KONG and meld.concealed:
        action = ACTIONS["concealed_kong"].text(locale)
        return f"{action} {tile_text(meld.kind, locale)}" if meld.tiles else action
    action = ACTIONS[{CHOW: "chow", PUNG: "pung"}.get(meld.type, "kong")].text(locale, short=True)
    shown = tiles_text(meld.tiles, locale) if meld.type == CHOW else tile_text(meld.kind, locale)
    text = f"{action} {shown}"
    if meld.white_as is not None:
        kind = tile_text(meld.white_as, locale)
        text += _aside(_word("white_as", locale, kind=kind), locale)
    if meld.from_seat is not None:
        source = SEAT_WINDS[view.seats[meld.from_seat].seat_wind].text(locale)
        text += (" " if not _zh(locale) else "") + _word("from", locale, name=source)
    return text


def _melds_text(melds: Iterable[Meld], view: PublicView, locale: str) -> str:
    texts = [_meld_text(meld, view, locale) for meld in melds]
    if not texts:
        return ""
    return f"{_word('melds', locale)}{_colon(locale)}{_list(texts, locale)}"


def _colon(locale: str) -> str:
    return "：" if _zh(locale) else ": "


def _concealed_text(concealed: Iterable[int], wild: int | None, variant: str, locale: str) -> str:
    """The concealed tiles with the wilds named apart (they are what the picture marks)."""
    kinds = list(concealed)
    wilds = sum(1 for kind in kinds if kind == wild)
    plain = tiles_text((kind for kind in kinds if kind != wild), locale)
    if not wilds:
        return plain
    wild_word = wild_label(get_rules(variant), locale)
    counted = f"{wild_word}×{wilds}"
    return f"{counted} {plain}" if plain else counted


def _river_text(seat_view: SeatView, locale: str, limit: int | None) -> str:
    discards = seat_view.discards
    if not discards:
        return ""
    shown = discards if limit is None else discards[len(discards) - limit :] if limit else ()
    names = []
    for discard in shown:
        name = tile_text(discard.tile, locale)
        if discard.claimed:
            name += _aside(_word("claimed", locale), locale)
        names.append(name)
    earlier = len(discards) - len(shown)
    if earlier:
        names.insert(0, _word("earlier", locale, n=earlier))
    spacer = " " if _zh(locale) else ", "
    return f"{_word('discards', locale)}{_colon(locale)}{spacer.join(names)}"


def _seat_text(
    view: PublicView,
    seat: int,
    names: Sequence[str] | None,
    locale: str,
    river_limit: int | None,
    *,
    own_hand: bool = False,
    revealed: RevealedSeat | None = None,
) -> str:
    seat_view = view.seats[seat]
    head = _seat_label(view, seat, names, locale)
    if seat_view.is_dealer:
        head += _aside(label("dealer", locale) if _zh(locale) else "dealer", locale)
    spacer = "" if _zh(locale) else " "
    score = f"{signed(seat_view.score)}{spacer}{label('score', locale)}"
    parts = [score]
    if revealed is not None:  # a replay: the hand face up
        tiles = _concealed_text(revealed.concealed, view.wild, view.variant, locale)
        parts.append(f"{_word('hand', locale)}{_colon(locale)}{tiles}")
        if revealed.drawn is not None:
            parts.append(f"{label('drawn', locale)} {tile_text(revealed.drawn, locale)}")
        parts.append(_melds_text(revealed.melds, view, locale))
    elif not own_hand:
        parts.append(_word("hidden", locale, n=seat_view.concealed_count))
        parts.append(_melds_text(seat_view.melds, view, locale))
    if seat_view.folded:
        parts.append(label("folded", locale))
    if seat_view.liable_with:
        partners = " ".join(
            SEAT_WINDS[view.seats[other].seat_wind].text(locale, short=True)
            for other in seat_view.liable_with
        )
        parts.append(f"{label('liable', locale)} {partners}")
    parts.append(_river_text(seat_view, locale, river_limit))
    return f"{head}{_colon(locale)}{_clause(parts, locale)}"


def _header(view: PublicView, locale: str) -> str:
    rules = get_rules(view.variant)
    number = label("hand_no", locale, n=view.hand_number + 1)
    title = (
        f"{rule_set_name(rules, locale)} {number}"
        if _zh(locale)
        else (f"{rule_set_name(rules, locale)}, {number}")
    )
    if rules.has_prevailing_wind:
        wind = PREVAILING_WINDS[view.prevailing_wind].text(locale)
        title += f" {wind}" if _zh(locale) else f", {wind}"
    facts = [title]
    if view.wild is not None:
        facts.append(f"{wild_label(rules, locale)} {tile_text(view.wild, locale)}")
    if view.wild != view.indicator:  # the wild is the indicator's kind: say it once
        facts.append(f"{label('indicator', locale)} {tile_text(view.indicator, locale)}")
    facts.append(f"{label('tiles_left', locale)} {view.tiles_left}")
    if rules.has_carried_fan:
        pool = f"{label('pool', locale)} {view.carried_fan}"
        bonuses = [rules.carried_fan_bonus_names[key] for key in view.carried_fan_bonuses]
        if bonuses:  # why it grew as this hand started: 包子 +1 …
            if _zh(locale):
                pool += f"（{'、'.join(f'{chinese(zh, locale)} +1' for zh, _en in bonuses)}）"
            else:
                pool += f" ({', '.join(f'{en} +1' for _zh, en in bonuses)})"
        facts.append(pool)
    facts.append(f"{label('dice', locale)} {view.dice[0]} {view.dice[1]}")
    return _list(facts, locale)


def _whose_turn(view: PublicView, names: Sequence[str] | None, locale: str) -> str:
    if view.current_seat is not None and view.phase == "turn":
        return _word("turn_of", locale, name=_seat_label(view, view.current_seat, names, locale))
    if view.waiting_on:
        waiting = _list((_seat_label(view, s, names, locale) for s in view.waiting_on), locale)
        return _word("answering", locale, names=waiting)
    return ""


def _cut(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """``text`` within Discord's limit: cut with an ellipsis only if it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fit(build: Callable[[int | None], str], limit: int = DESCRIPTION_LIMIT) -> str:
    """The description with whole rivers if it fits, else with fewer of each river's
    latest discards; cut (never mid-word in practice) only if even no rivers overflow."""
    text = ""
    for river_limit in (None, 12, 8, 5, 3, 1, 0):
        text = build(river_limit)
        if len(text) <= limit:
            return text
    return _cut(text, limit)


def describe_table(
    view: PublicView,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    *,
    revealed: Sequence[RevealedSeat] | None = None,
    caption: str = "",
) -> str:
    """The shared table picture in words: the hand's facts, whose turn, and each seat's
    score, hidden tiles (``revealed``: its tiles face up), melds and river, East first."""

    def build(river_limit: int | None) -> str:
        lines = [caption, _header(view, locale), _whose_turn(view, names, locale)]
        for offset in range(view.num_seats):  # East (the dealer) first, then in play order
            seat = (view.dealer + offset) % view.num_seats
            shown = revealed[seat] if revealed is not None else None
            lines.append(_seat_text(view, seat, names, locale, river_limit, revealed=shown))
        return "\n".join(line for line in lines if line)

    return _fit(build)


def describe_replay_frame(
    record: HandReplay, step: int, names: Sequence[str] | None = None, locale: str = "zh"
) -> str:
    """A replay frame in words: the move that led here, then the open table."""
    index = max(0, min(step, record.steps))
    frame = record.frames[index]
    public, action = frame.public, frame.action
    caption = f"{frame.step}/{record.steps}"
    if action is not None and action.seat < len(public.seats):
        concealed = action.type == "kong" and any(
            event.get("type") == "concealed_kong" for event in frame.events
        )
        verb = ACTIONS["concealed_kong" if concealed else action.type].text(locale)
        tiles = list(action.tiles or ()) or ([action.tile] if action.tile is not None else [])
        caption += f" {_seat_label(public, action.seat, names, locale)} {verb}"
        if tiles:
            caption += f" {tiles_text(tiles, locale)}"
    table = describe_table(public, names, locale, revealed=frame.hands, caption=caption)
    if public.result is None:
        return table
    result = describe_result(public, public.result, names, locale)
    combined = f"{table}\n{result}"
    return combined if len(combined) <= DESCRIPTION_LIMIT else result


def describe_hand(view: PlayerView, names: Sequence[str] | None = None, locale: str = "zh") -> str:
    """One player's hand picture in words: their own tiles first (the drawn tile apart,
    wilds named), melds, waits and any claim on offer, then the other seats."""
    public = view.public

    def build(river_limit: int | None) -> str:
        colon = _colon(locale)
        own = [f"{_word('hand', locale)}{colon}"]
        own[0] += _concealed_text(view.concealed, public.wild, public.variant, locale)
        if view.drawn is not None:
            own.append(f"{label('drawn', locale)} {tile_text(view.drawn, locale)}")
        own.append(_melds_text(view.melds, public, locale))
        if view.waits:
            own.append(f"{label('waits', locale)}{colon}{tiles_text(view.waits, locale)}")
        if view.skipped_win:
            skipped = tiles_text(view.skipped_win, locale)
            own.append(f"{label('skipped_win', locale)}{colon}{skipped}")
        lines = [
            _header(public, locale),
            _whose_turn(public, names, locale),
            _seat_text(public, view.seat, names, locale, river_limit, own_hand=True),
            _clause(own, locale),
            _offer_text(view, names, locale),
            white_legend(view, locale) or "",
        ]
        for offset in range(1, public.num_seats):
            seat = (view.seat + offset) % public.num_seats
            lines.append(_seat_text(public, seat, names, locale, river_limit))
        return "\n".join(line for line in lines if line)

    return _fit(build)


def _offer_text(view: PlayerView, names: Sequence[str] | None, locale: str) -> str:
    """The claim on offer, as the picture's prompt reads it ("可以 碰 / 杠 七条 ← 老王")."""
    headline, _who = claim_headline(view, names, locale)
    return f"{label('claim_offer', locale)} {headline}" if headline else ""


def _hand_line(view: PublicView, result: HandResult, locale: str) -> str:
    """The (claimed) winning hand: concealed tiles, melds and the winning tile."""
    assert result.hand is not None
    hand = [
        _concealed_text(result.hand.concealed, view.wild, view.variant, locale),
        _melds_text(result.hand.melds, view, locale),
    ]
    if result.win_tile is not None:
        hand.append(_word("winning_tile", locale, tile=tile_text(result.win_tile, locale)))
    return f"{_word('hand', locale)}{_colon(locale)}{_clause(hand, locale)}"


def describe_result(
    view: PublicView,
    result: HandResult | None = None,
    names: Sequence[str] | None = None,
    locale: str = "zh",
    points: TablePoints | None = None,
) -> str:
    """The result card in words: who won how, the winning hand, every score item and the
    total, and each seat's change (``points``: in the points the ledger moved, as the
    card draws them)."""
    result = result if result is not None else view.result
    if result is None:
        raise ValueError("the view has no result: the hand has not ended")
    lines: list[str] = []
    winner = result.winner if result.valid else None
    if winner is None:
        if result.valid:
            lines.append(label("draw_note", locale))
        else:
            lines.append(f"{label('invalid_title', locale)}{_colon(locale)}")
            lines[-1] += invalid_reason(result.reason, locale, view.variant)
            if result.hand is not None and result.winner is not None:
                lines.append(_hand_line(view, result, locale))  # as the card draws it
        if result.valid and get_rules(view.variant).has_carried_fan:
            lines.append(label("draw_pool", locale))
    else:
        head = _word("wins", locale, name=_seat_label(view, winner, names, locale))
        how = WIN_TYPES.get(result.win_by or "")
        if how is not None:
            head += f" · {how.text(locale)}"
        if result.from_seat is not None and result.win_by != "self_draw":
            head += " " + _word(
                "from", locale, name=_seat_label(view, result.from_seat, names, locale)
            )
        lines.append(head)
        if result.hand is not None:
            lines.append(_hand_line(view, result, locale))
        items = []
        for item in result.items:
            name = chinese(item.name_zh, locale) if _zh(locale) else item.name_en
            items.append(f"{name} {item_value(item, locale)}")
        if items:
            lines.append(f"{label('breakdown', locale)}{_colon(locale)}{_clause(items, locale)}")
        total = get_rules(result.variant).format_total(result, "zh" if _zh(locale) else "en")
        lines.append(chinese(total, locale))
    detailed = "\n".join([*lines, _net_line(view, result, names, locale, points, details=True)])
    if len(detailed) <= DESCRIPTION_LIMIT:
        return detailed
    brief = _net_line(view, result, names, locale, points, details=False)
    return _cut("\n".join([*lines, brief]))


def _net_line(
    view: PublicView,
    result: HandResult,
    names: Sequence[str] | None,
    locale: str,
    points: TablePoints | None,
    *,
    details: bool,
) -> str:
    """Each seat's change as the card's seat rows show it (points at a table, under the
    card's caption): with ``details``, the seat's own score (where the rule set keeps
    one), 不跟 where it folded, and the payments that make up its net, folded as drawn
    (the winner's equal receipts on one line); without them where the text would not
    fit."""
    winner = result.winner if result.valid else None
    changes = []
    for seat in range(len(result.deltas)):
        change = f"{_seat_label(view, seat, names, locale)} {seat_net(result, seat, points):+d}"
        parts = []
        if winner is not None and view.seats[seat].folded:
            parts.append(label("folded", locale))
        if details and winner is not None:
            if result.totals is not None and seat < len(result.totals):
                parts.append(seat_score_text(result.totals[seat], locale))
            for entry in seat_payments(result, seat, locale, fold=seat == winner, points=points):
                if len(entry.others) == 1:
                    others = _seat_label(view, entry.others[0], names, locale)
                else:
                    others = " ".join(
                        WINDS[view.seats[other].seat_wind].text(locale) for other in entry.others
                    )
                words = payment_words(entry, others, locale)
                parts.append(f"{words} {entry.reason} {entry.amount_text}")
        if parts:
            change += _aside(_list(parts, locale), locale)
        changes.append(change)
    title = points_caption(points, result, locale) or _word("net", locale)
    return f"{title}{_colon(locale)}{_list(changes, locale)}"


def describe_leaderboard(rows: Iterable[Any], period: str, subtitle: str, locale: str) -> str:
    """The board in words: its title, then each rank with the name, net points, hands,
    wins and win rate the picture's columns show (``render_leaderboard``'s arguments)."""
    title = (label("leaderboard", locale), period_title(period, locale), subtitle)
    lines = [" · ".join(part for part in title if part)]
    entries = board_entries(rows)
    if not entries:
        lines.append(label("empty_board", locale))
    for rank, name, net, hands, wins in entries:
        figures = [f"{label(key, locale)} {value}" for key, value in
                   (("hands", hands), ("wins", wins), ("stats_win_rate", win_rate(wins, hands)))]  # fmt: skip
        lines.append(f"{rank}. {name} {signed(net)}{_aside(_list(figures, locale), locale)}")
    return _cut("\n".join(lines))


def describe_stats(stats: Any, name: str, subtitle: str, locale: str) -> str:
    """The statistics card in words (``render_stats``'s arguments): the six figures, the
    biggest hand with its items, the most frequent winning types and the balance's
    course over the period."""
    lines = [f"{label('stats_title', locale)} · {name} · {subtitle}"]
    figures = card_figures(stats)
    lines.append(_list((f"{label(key, locale)} {value}" for key, value in figures.items()), locale))
    biggest = stats.biggest
    if biggest is not None:
        items = _list(
            (f"{item_name(biggest.variant, key, locale)} {value} {unit_name(unit, locale)}"
             for key, value, unit in biggest.items[:5]),
            locale,
        )  # fmt: skip
        when = biggest.created_at.date().isoformat()
        lines.append(
            f"{label('stats_biggest', locale)}{_colon(locale)}+{biggest.points}"
            f"{_aside(when, locale)}{_colon(locale) if items else ''}{items}"
        )
    if stats.win_types:
        types = _list(
            (f"{item_name(variant, key, locale)} {label('stats_times', locale, count=count)}"
             for variant, key, count in stats.win_types[:5]),
            locale,
        )  # fmt: skip
        lines.append(f"{label('stats_types', locale)}{_colon(locale)}{types}")
    if stats.trend:
        (first_day, first), (last_day, last) = stats.trend[0], stats.trend[-1]
        first_text = f"{first}{_aside(first_day.isoformat(), locale)}"
        if len(stats.trend) == 1:
            course = first_text
        else:
            balances = [balance for _day, balance in stats.trend]
            course = _word(
                "trend", locale, first=first_text,
                last=f"{last}{_aside(last_day.isoformat(), locale)}",
                low=min(balances), high=max(balances),
            )  # fmt: skip
        lines.append(f"{label('stats_trend', locale)}{_colon(locale)}{course}")
    return _cut("\n".join(lines))
