"""Builders for scoring cases used by the test_scoring_* modules (no tests here).

``make_case`` writes a case in the golden format with the winner's tiles given and the
other seats filled with harmless tiles (one copy per kind, no honors, never tenpai) so
that a test states only what it is about.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.scoring import score_hand
from engine.scoring.case import parse_case, result_to_case_json
from engine.tiles import kind_str, parse_tiles, to_counts
from engine.types import HandResult

# Spaced suited kinds: 13 singletons that never make a set, a pair or a wait.
_FILLER_ORDER = [
    0,
    2,
    4,
    6,
    8,
    10,
    12,
    14,
    16,
    18,
    20,
    22,
    24,
    1,
    3,
    5,
    7,
    9,
    11,
    13,
    15,
    17,
    19,
    21,
    23,
    25,
    26,
]


def _meld_tiles(meld: dict[str, Any]) -> list[int]:
    return parse_tiles(meld["tiles"])


def make_case(
    variant: str,
    concealed: str,
    win: str,
    *,
    by: str = "self_draw",
    from_seat: int | None = None,
    melds: list[dict[str, Any]] | None = None,
    winner: int = 0,
    dealer: int = 0,
    seats: int = 4,
    indicator: str = "9p",
    options: dict[str, Any] | None = None,
    others: dict[int, dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A case dict; ``others`` gives explicit hands for some non-winning seats."""
    others = others or {}
    players: list[dict[str, Any] | None] = [None] * seats
    players[winner] = {"concealed": concealed, "melds": melds or []}
    for seat, hand in others.items():
        players[seat] = {"concealed": hand.get("concealed", ""), "melds": hand.get("melds", [])}
        if "discards" in hand:
            players[seat]["discards"] = hand["discards"]
    used = to_counts(parse_tiles(indicator))
    wild = parse_tiles(indicator)[0]
    for player in players:
        if player is None:
            continue
        for kind in parse_tiles(player["concealed"]):
            used[kind] += 1
        for meld in player["melds"]:
            for kind in _meld_tiles(meld):
                used[kind] += 1
        for kind in parse_tiles(player.get("discards", "")):
            used[kind] += 1
    for seat in range(seats):
        if players[seat] is not None:
            continue
        tiles: list[int] = []
        for kind in _FILLER_ORDER[seat * 2 :] + _FILLER_ORDER[: seat * 2]:
            if len(tiles) == 13:
                break
            if kind != wild and used[kind] < 4:
                used[kind] += 1
                tiles.append(kind)
        assert len(tiles) == 13, "not enough filler tiles"
        players[seat] = {"concealed": "".join(kind_str(kind) for kind in tiles), "melds": []}
    win_data: dict[str, Any] = {"tile": win, "by": by}
    if from_seat is not None:
        win_data["from"] = from_seat
    for flag in ("kong_replacement", "last_tile", "first_draw"):
        if flag in extra:
            win_data[flag] = extra.pop(flag)
    case: dict[str, Any] = {
        "name": "test",
        "variant": variant,
        "options": options or {},
        "seats": seats,
        "indicator": indicator,
        "dealer": dealer,
        "winner": winner,
        "win": win_data,
        "players": players,
    }
    case.update(extra)
    return copy.deepcopy(case)


def score(case: dict[str, Any]) -> HandResult:
    return score_hand(parse_case(case))


def score_json(case: dict[str, Any]) -> dict[str, Any]:
    return result_to_case_json(score(case))


def item_values(result: HandResult) -> dict[str, int]:
    """key -> total value (value × count, summed over lines with the same key)."""
    values: dict[str, int] = {}
    for item in result.items:
        values[item.key] = values.get(item.key, 0) + item.value * item.count
    return values


def pung(tiles: str, from_seat: int) -> dict[str, Any]:
    return {"type": "pung", "tiles": tiles, "from": from_seat}


def chow(tiles: str, from_seat: int) -> dict[str, Any]:
    return {"type": "chow", "tiles": tiles, "from": from_seat}


def kong(tiles: str, from_seat: int | None = None, *, added: bool = False) -> dict[str, Any]:
    meld: dict[str, Any] = {"type": "kong", "tiles": tiles}
    if from_seat is None:
        meld["concealed"] = True
    else:
        meld["from"] = from_seat
    if added:
        meld["added"] = True
    return meld
