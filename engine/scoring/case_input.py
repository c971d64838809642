"""A scoring case from the few fields a player types (the ``/table score`` command).

The case format (``case.py``) wants the whole table; a player typing on a phone gives
only their hand. The rest is filled in plainly: the winner sits at the wind they named
(the dealer is East), and the other hands are filler tiles that cannot form sets, so
they never change the winner's score. The result is an ordinary case dict, validated
by ``parse_case`` like any case ``mahjong-bot score`` reads, so the slash command and the
CLI judge a hand by the same rules. Pure: no Discord, no I/O.
"""

from __future__ import annotations

from typing import Any

from ..tiles import (
    WHITE,
    TileError,
    format_tiles,
    kind_str,
    name_zh,
    parse_tile,
    parse_tiles,
    to_counts,
)
from ..variants import get_rules
from ..variants.options import VARIANTS
from .case import CaseError

WINDS = ("1z", "2z", "3z", "4z")
WIN_BY = ("self_draw", "discard", "rob_kong")


class CaseInputError(CaseError):
    """Bad typed input; ``zh`` and ``en`` say what is wrong, for the player."""

    def __init__(self, zh: str, en: str) -> None:
        super().__init__(en)
        self.zh = zh
        self.en = en


def _is_chow(kinds: list[int]) -> bool:
    return (
        len(kinds) == 3
        and kinds[0] < 27
        and kinds[0] // 9 == kinds[2] // 9
        and kinds[1] == kinds[0] + 1
        and kinds[2] == kinds[0] + 2
    )


def parse_melds(text: str, white_as: int | None = None) -> list[tuple[str, list[int], bool]]:
    """``555m 345p !1111z`` -> [(type, kinds, concealed)].

    ``white_as`` is the kind a White may stand for in a chow (Taizhou, a suited wild):
    ``46p5z`` is then the chow 456p, kept as typed so the case records the White.
    """
    melds = []
    for token in text.replace(",", " ").replace("，", " ").split():
        concealed = token.startswith("!")
        kinds = sorted(parse_tiles(token.lstrip("!")))
        if len(kinds) == 4 and len(set(kinds)) == 1:
            kind = "kong"
        elif len(kinds) == 3 and len(set(kinds)) == 1:
            kind = "pung"
        elif _is_chow(kinds) or (
            white_as is not None
            and WHITE in kinds
            and white_as not in kinds
            and _is_chow(sorted([*(k for k in kinds if k != WHITE), white_as]))
            and kinds.count(WHITE) == 1
        ):
            kind = "chow"
        else:
            raise CaseInputError(
                f"{token} 不是一副牌（顺子、刻子或杠）",
                f"{token} is not a meld (chow, pung or kong)",
            )
        if concealed and kind != "kong":
            raise CaseInputError(
                f"只有杠可以暗（{token}）", f"only a kong can be concealed ({token})"
            )
        melds.append((kind, kinds, concealed))
    return melds


def _filler(available: list[int], count: int) -> list[int]:
    """``count`` tiles that form no set: one copy per kind, kinds far apart first."""
    order = [k for start in (0, 3, 6, 1, 4, 7, 2, 5, 8) for k in (start, start + 9, start + 18)]
    order += list(range(27, 34))
    picked: list[int] = []
    while len(picked) < count:
        progress = False
        for kind in order:
            if len(picked) == count:
                break
            if available[kind] > 0:
                available[kind] -= 1
                picked.append(kind)
                progress = True
        if not progress:
            raise CaseInputError(
                "牌不够填满其他人的手牌", "not enough tiles left to fill the other hands"
            )
    return picked


def _check_typed_hand(
    concealed: list[int],
    meld_list: list[tuple[str, list[int], bool]],
    win: int,
    flipped: int,
    used: list[int],
    robbed_pung: bool,
) -> None:
    """What a player can get wrong typing a hand, said in their words before the case
    format's own checks would say it in its terms ("players[0] holds 13 concealed
    tiles…", written for case files)."""
    size = len(concealed) + 3 * len(meld_list)
    if size != 14:
        raise CaseInputError(
            f"手牌 {len(concealed)} 张、亮出的牌 {len(meld_list)} 副，合计 {size} 张（杠算 3 张）；"
            "胡牌是 14 张，胡的那张也写在手牌里",
            f"{len(concealed)} tiles in hand and {len(meld_list)} "
            f"meld{'' if len(meld_list) == 1 else 's'} make {size} "
            "(a kong counting 3); a winning hand has 14, the winning tile written in the hand",
        )
    for _kind, kinds, _concealed in meld_list:
        if flipped in kinds:
            shown = format_tiles(kinds, sort=False)
            raise CaseInputError(
                f"亮出的牌 {shown} 里有 {kind_str(flipped)}：翻出 {kind_str(flipped)}，"
                f"所以 {kind_str(flipped)} 是百搭（财神），百搭不能吃、碰、杠",
                f"the meld {shown} holds {kind_str(flipped)}, the wild kind "
                f"({kind_str(flipped)} is flipped); wilds cannot be melded",
            )
    if win not in concealed:
        raise CaseInputError(
            f"胡的那张 {kind_str(win)} 也要写在手牌里",
            f"the winning tile {kind_str(win)} must be written in the hand too",
        )
    for kind, count in enumerate(to_counts(used)):
        if count > 4:
            also_zh = also_en = ""
            if kind == flipped:
                also_zh, also_en = "（含翻出的那张）", " (the flipped indicator included)"
            if robbed_pung and kind == win:
                also_zh, also_en = "（含被抢杠的三张）", " (the robbed kong's three included)"
            raise CaseInputError(
                f"{kind_str(kind)} {name_zh(kind)} 有 {count} 张{also_zh}；每种牌只有 4 张",
                f"{count} copies of {kind_str(kind)}{also_en}; there are only 4",
            )


def build_case(
    *,
    variant: str,
    hand: str,
    win_tile: str,
    indicator: str,
    melds: str,
    by: str,
    seat_wind: str,
    prevailing_wind: str,
) -> dict[str, Any]:
    """The case dict (golden format) for a hand typed as a few fields."""
    if variant not in VARIANTS:
        raise CaseInputError(f"未知玩法 {variant!r}", f"unknown variant {variant!r}")
    if by not in WIN_BY:
        raise CaseInputError(f"未知胡牌方式 {by!r}", f"unknown way to win {by!r}")
    if seat_wind not in WINDS or prevailing_wind not in WINDS:
        raise CaseInputError("风位必须是东南西北之一", "winds must be East, South, West or North")
    try:
        concealed = parse_tiles(hand)
        win = parse_tile(win_tile)
        flipped = parse_tile(indicator)
        white_stands_in = get_rules(variant).white_substitutes_wild  # Taizhou 白板代
        stands_for = flipped if white_stands_in and flipped < 27 else None
        meld_list = parse_melds(melds, stands_for)
    except TileError as error:
        raise CaseInputError(f"牌写得不对：{error.zh}", f"bad tiles: {error.en}") from None
    winner = WINDS.index(seat_wind)
    left = (winner + 3) % 4
    robbed = (winner + 1) % 4
    # Whose discards the typed melds were claimed from decides 全包 (three from one
    # player in a full flush): a chow can only come from the left, so chows do; pungs
    # and kongs, which the fields cannot place, alternate between the other two seats,
    # so no player is made liable by how the calculator filled in what nobody typed.
    others = [(winner + 2) % 4, (winner + 1) % 4]
    meld_dicts = []
    for kind, kinds, concealed_kong in meld_list:
        data: dict[str, Any] = {"type": kind, "tiles": format_tiles(kinds)}
        if concealed_kong:
            data["concealed"] = True
        else:
            if kind == "chow":
                data["from"] = left
            else:
                data["from"] = others[0]
                others.reverse()
            data["claimed"] = kind_str(kinds[0])
        meld_dicts.append(data)
    used = [*concealed, flipped] + [k for _, kinds, _ in meld_list for k in kinds]
    players: list[dict[str, Any]] = []
    robbed_pung = by == "rob_kong"
    if robbed_pung:
        used += [win, win, win]
    _check_typed_hand(concealed, meld_list, win, flipped, used, robbed_pung)
    available = [max(0, 4 - c) for c in to_counts(used)]
    for seat in range(4):
        if seat == winner:
            players.append({"concealed": format_tiles(concealed), "melds": meld_dicts})
        elif robbed_pung and seat == robbed:
            other = {
                "type": "pung",
                "tiles": kind_str(win) * 3,
                "from": (seat + 2) % 4,
                "claimed": kind_str(win),
            }
            players.append({"concealed": format_tiles(_filler(available, 10)), "melds": [other]})
        else:
            players.append({"concealed": format_tiles(_filler(available, 13)), "melds": []})
    case: dict[str, Any] = {
        "variant": variant,
        "seats": 4,
        "indicator": kind_str(flipped),
        "dealer": 0,
        "prevailing_wind": prevailing_wind,
        "winner": winner,
        "win": {"tile": kind_str(win), "by": by},
        "players": players,
    }
    if by != "self_draw":
        case["win"]["from"] = robbed if by == "rob_kong" else left
    return case
