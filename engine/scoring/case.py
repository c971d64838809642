"""The scoring-case format of ``shared/golden/README.md``: parse, validate, print.

A case is the table at the moment a hand ends with a win. Validation is strict because
a case is typed by hand: every impossible table (a fifth copy of a tile, a meld that is
not a meld, a hand of the wrong size) is refused with a one-line message naming the
problem, instead of being scored into a plausible but meaningless number.
"""

from __future__ import annotations

from typing import Any

from ..tiles import (
    NUM_KINDS,
    WHITE,
    WINDS,
    TileError,
    format_tiles,
    kind_str,
    parse_tiles,
    to_counts,
)
from ..types import CHOW, KONG, PUNG, HandResult, Meld, PlayerHand, WinContext, WinInfo
from ..variants import RULE_SETS, OptionError, Variant


class CaseError(ValueError):
    """A malformed or impossible case; the message is one line naming the problem."""


_CASE_KEYS = {
    "name",
    "variant",
    "options",
    "seats",
    "indicator",
    "dealer",
    "prevailing_wind",
    "carried_fan",
    "dice",
    "winner",
    "win",
    "santan",
    "players",
    "expect",
    # free text, ignored
    "comment",
    "description",
    "note",
    "notes",
}
_WIN_KEYS = {"tile", "by", "from", "kong_replacement", "last_tile", "first_draw"}
_PLAYER_KEYS = {"concealed", "melds", "discards"}
_MELD_KEYS = {"type", "tiles", "from", "claimed", "concealed", "added", "white_as"}
_SANTAN_KEYS = {"pairs", "folded"}
_WIN_BY = ("self_draw", "discard", "rob_kong")


def _check_keys(data: dict[str, Any], allowed: set[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            known = ", ".join(
                sorted(k for k in allowed if k not in ("comment", "description", "note", "notes"))
            )
            raise CaseError(f"unknown key {key!r} in {where} (known: {known})")


def _rule_sets_with(flag: str) -> str:
    """The registered rule sets whose capability ``flag`` is set, for an error message
    that tells the reader where an option does belong ("Jiaxing", "Taizhou")."""
    names = [
        rules.short_name_en or rules.name for rules in RULE_SETS.values() if getattr(rules, flag)
    ]
    return "/".join(names) or "no registered rule set's"


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(f"{what} must be an integer, got {value!r}")
    if not low <= value <= high:
        raise CaseError(f"{what} must be in {low}..{high}, got {value}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise CaseError(f"{what} must be true or false, got {value!r}")
    return value


def _tiles(value: Any, what: str) -> list[int]:
    if not isinstance(value, str):
        raise CaseError(f"{what} must be a string of tiles like '123m45p', got {value!r}")
    try:
        return parse_tiles(value)
    except TileError as error:
        raise CaseError(f"{what}: {error}") from None


def _tile(value: Any, what: str) -> int:
    kinds = _tiles(value, what)
    if len(kinds) != 1:
        raise CaseError(f"{what} must be exactly one tile, got {value!r}")
    return kinds[0]


def _parse_meld(
    data: Any,
    owner: int,
    seats: int,
    rules: type[Variant],
    wild: int,
    where: str,
    *,
    wild_allowed: bool = False,
) -> tuple[Meld, list[int]]:
    """The meld and the physical tiles it holds (a White standing in counts as a White).

    ``wild_allowed`` (the winner's melds) lets a meld with a wild through, for the scorer
    to call the win illegal (``wild_in_meld``): asking whether such a hand wins is a
    fair question with the answer no. Anyone else's is a table that cannot exist."""
    if not isinstance(data, dict):
        raise CaseError(f"{where} must be an object like {{'type': 'pung', 'tiles': '777z'}}")
    _check_keys(data, _MELD_KEYS, where)
    meld_type = data.get("type")
    if meld_type not in (CHOW, PUNG, KONG):
        raise CaseError(f"{where}: type must be chow, pung or kong, got {meld_type!r}")
    if "tiles" not in data:
        raise CaseError(f"{where}: missing 'tiles'")
    kinds = sorted(_tiles(data["tiles"], f"{where} tiles"))
    white_as_text = data.get("white_as")
    # The golden format has no 'white_as': where a White stands in for the wild (Taizhou),
    # a chow can only hold the wild's kind through a White (wilds are never melded), so
    # either spelling of that chow ("46p5z" or "456p" with 5p wild) means exactly one thing.
    if (
        white_as_text is None
        and rules.white_substitutes_wild
        and meld_type == CHOW
        and wild != WHITE
        and (WHITE in kinds) != (wild in kinds)
    ):
        white_as_text = kind_str(wild)
    if white_as_text is not None and WHITE in kinds and meld_type == CHOW:
        # The White may be written as itself ("78p5z") or as what it stands for ("789p").
        stands_for = _tile(white_as_text, f"{where} white_as")
        if stands_for not in kinds:
            kinds.remove(WHITE)
            kinds = sorted([*kinds, stands_for])
    shown = format_tiles(kinds) if kinds else "''"
    if meld_type == CHOW:
        if (
            len(kinds) != 3
            or kinds[0] >= 27
            or kinds[0] // 9 != kinds[2] // 9
            or kinds[1] != kinds[0] + 1
            or kinds[2] != kinds[0] + 2
        ):
            raise CaseError(f"{where}: {shown} is not a chow (three consecutive tiles of one suit)")
    elif meld_type == PUNG:
        if len(kinds) != 3 or len(set(kinds)) != 1:
            raise CaseError(f"{where}: {shown} is not a pung (three alike)")
    elif len(kinds) != 4 or len(set(kinds)) != 1:
        raise CaseError(f"{where}: {shown} is not a kong (four alike)")
    concealed = _bool(data.get("concealed", False), f"{where} concealed")
    added = _bool(data.get("added", False), f"{where} added")
    from_seat = data.get("from")
    if from_seat is not None:
        from_seat = _int(from_seat, f"{where} from", 0, seats - 1)
        if from_seat == owner:
            raise CaseError(
                f"{where}: 'from' is seat {owner} itself; a meld is claimed from another seat"
            )
    if concealed:
        if meld_type != KONG:
            raise CaseError(f"{where}: only a kong can be concealed")
        if from_seat is not None or added:
            raise CaseError(
                f"{where}: a concealed kong is not claimed ('from'/'added' not allowed)"
            )
    if added and meld_type != KONG:
        raise CaseError(f"{where}: only a kong can be added")
    if meld_type == CHOW and from_seat is not None and from_seat != (owner - 1) % seats:
        raise CaseError(
            f"{where}: chow claimed from seat {from_seat}, but a chow comes only from the left player (seat {(owner - 1) % seats})"
        )
    claimed = None
    if data.get("claimed") is not None:
        claimed = _tile(data["claimed"], f"{where} claimed")
        # A claimed White in a chow is the discarded White standing for the wild's kind.
        stood_in = claimed == WHITE and white_as_text is not None and meld_type == CHOW
        if claimed not in kinds and not stood_in:
            raise CaseError(f"{where}: claimed tile {kind_str(claimed)} is not in {shown}")
    physical = list(kinds)
    white_as = None
    if white_as_text is not None:
        white_as = _tile(white_as_text, f"{where} white_as")
        if not rules.white_substitutes_wild or meld_type != CHOW:
            where_white_stands_in = _rule_sets_with("white_substitutes_wild")
            raise CaseError(
                f"{where}: white_as (White standing for the wild) is only for "
                f"{where_white_stands_in} chows"
            )
        if white_as != wild or wild == WHITE:
            raise CaseError(f"{where}: White can stand only for the wild kind {kind_str(wild)}")
        if white_as not in kinds:
            raise CaseError(f"{where}: white_as {kind_str(white_as)} is not in {shown}")
        physical.remove(white_as)
        physical.append(WHITE)
    if wild in physical and not wild_allowed:
        raise CaseError(
            f"{where}: {shown} uses a wild tile ({kind_str(wild)}); wilds cannot be melded"
        )
    meld = Meld(
        type=meld_type,
        tiles=tuple(kinds),
        from_seat=from_seat,
        claimed=claimed,
        concealed=concealed,
        added=added,
        white_as=white_as,
    )
    return meld, physical


def parse_case(data: Any) -> WinContext:
    """Validate a case (a dict in the golden format) and build its ``WinContext``."""
    if not isinstance(data, dict):
        raise CaseError("a case must be a JSON object")
    _check_keys(data, _CASE_KEYS, "the case")
    variant = data.get("variant")
    if not isinstance(variant, str) or variant not in RULE_SETS:
        raise CaseError(f"variant must be one of {', '.join(RULE_SETS)}, got {variant!r}")
    rules = RULE_SETS[variant]
    raw_options = data.get("options", {})
    if raw_options is None:
        raw_options = {}
    if not isinstance(raw_options, dict):
        raise CaseError(f"options must be an object, got {raw_options!r}")
    try:
        options = rules.options_class.from_dict(raw_options)
    except OptionError as error:
        raise CaseError(str(error)) from None
    seats = _int(data.get("seats", 4), "seats", 2, 4)
    if seats not in rules.allowed_seats:
        allowed = " or ".join(map(str, rules.allowed_seats))
        raise CaseError(f"{variant} is played by {allowed} seats, not {seats}")
    if "indicator" not in data:
        raise CaseError("missing 'indicator' (the flipped tile that decides the wilds)")
    indicator = _tile(data["indicator"], "indicator")
    wild = indicator
    dealer = _int(data.get("dealer", 0), "dealer", 0, seats - 1)
    prevailing = _tile(data.get("prevailing_wind", "1z"), "prevailing_wind")
    if prevailing not in WINDS:
        raise CaseError(f"prevailing_wind must be a wind (1z-4z), got {kind_str(prevailing)}")
    carried_fan = _int(data.get("carried_fan", 0), "carried_fan", 0, 1000)
    dice = data.get("dice")
    if dice is not None:
        if not isinstance(dice, list) or len(dice) != 2:
            raise CaseError(f"dice must be a list of two numbers 1-6, got {dice!r}")
        dice = (_int(dice[0], "dice", 1, 6), _int(dice[1], "dice", 1, 6))
    if "winner" not in data:
        raise CaseError("missing 'winner'")
    winner = _int(data["winner"], "winner", 0, seats - 1)

    win_data = data.get("win")
    if not isinstance(win_data, dict):
        raise CaseError("missing 'win' object ({'tile': ..., 'by': ...})")
    _check_keys(win_data, _WIN_KEYS, "win")
    if "tile" not in win_data:
        raise CaseError("win: missing 'tile'")
    win_tile = _tile(win_data["tile"], "win tile")
    by = win_data.get("by")
    if by not in _WIN_BY:
        raise CaseError(f"win.by must be one of {', '.join(_WIN_BY)}, got {by!r}")
    win_from = win_data.get("from")
    if by == "self_draw":
        if win_from is not None:
            raise CaseError("win.from is only for a discard or a robbed kong, not a self-draw")
    else:
        if win_from is None:
            raise CaseError(f"win.from is required for a win by {by}")
        win_from = _int(win_from, "win.from", 0, seats - 1)
        if win_from == winner:
            raise CaseError(f"win.from is the winner (seat {winner}) itself")
    kong_replacement = _bool(win_data.get("kong_replacement", False), "win.kong_replacement")
    last_tile = _bool(win_data.get("last_tile", False), "win.last_tile")
    first_draw = _bool(win_data.get("first_draw", False), "win.first_draw")
    if kong_replacement and by != "self_draw":
        raise CaseError("win.kong_replacement is only possible on a self-draw")
    if first_draw and by != "self_draw":
        raise CaseError("win.first_draw is only possible on a self-draw")

    players_data = data.get("players")
    if not isinstance(players_data, list):
        raise CaseError("missing 'players' (a list, one per seat)")
    if len(players_data) != seats:
        raise CaseError(f"players lists {len(players_data)} seats but the case has {seats}")
    players: list[PlayerHand] = []
    physical: list[int] = [indicator] if options.wild_copies == 3 else []
    seen: set[int] = set()
    for seat, player in enumerate(players_data):
        where = f"players[{seat}]"
        if not isinstance(player, dict):
            raise CaseError(f"{where} must be an object with 'concealed' and 'melds'")
        _check_keys(player, _PLAYER_KEYS, where)
        if "concealed" not in player:
            raise CaseError(f"{where}: missing 'concealed'")
        concealed = _tiles(player["concealed"], f"{where} concealed")
        melds_data = player.get("melds", [])
        if not isinstance(melds_data, list):
            raise CaseError(f"{where} melds must be a list")
        melds = []
        for index, meld_data in enumerate(melds_data):
            meld, meld_physical = _parse_meld(
                meld_data, seat, seats, rules, wild, f"{where} meld {index + 1}",
                wild_allowed=seat == winner,
            )  # fmt: skip
            melds.append(meld)
            physical.extend(meld_physical)
            seen.update(meld_physical)  # faces: a White standing in is a White shown
        if len(melds) > 4:
            raise CaseError(f"{where} has {len(melds)} melds; a hand has at most 4 sets")
        discards = _tiles(player.get("discards", ""), f"{where} discards")
        physical.extend(discards)
        seen.update(discards)
        physical.extend(concealed)
        expected = 14 if seat == winner else 13
        size = len(concealed) + 3 * len(melds)
        if size != expected:
            role = "the winner" if seat == winner else "a non-winner"
            raise CaseError(
                f"{where} holds {len(concealed)} concealed tiles and {len(melds)} melds "
                f"({size} counting a kong as 3); {role} needs {expected}"
            )
        players.append(PlayerHand(concealed=tuple(concealed), melds=tuple(melds)))

    removed = {0: (), 1: (0,), 2: (0, 2)}[getattr(options, "remove_suits", 0)]
    for kind in physical:
        if kind < 27 and kind // 9 in removed:
            raise CaseError(
                f"{kind_str(kind)} is on the table but remove_suits={getattr(options, 'remove_suits', 0)} took that suit out"
            )
    counts = to_counts(physical)
    for kind in range(NUM_KINDS):
        if counts[kind] > 4:
            extra = " and the indicator" if options.wild_copies == 3 and kind == indicator else ""
            raise CaseError(
                f"{counts[kind]} copies of {kind_str(kind)} on the table (hands, melds, discards{extra}); there are only 4"
            )
    if win_tile not in players[winner].concealed:
        raise CaseError(
            f"the winning tile {kind_str(win_tile)} is not among the winner's concealed tiles"
        )
    if by == "rob_kong":
        assert win_from is not None
        if not any(meld.type == PUNG and meld.kind == win_tile for meld in players[win_from].melds):
            raise CaseError(
                f"rob_kong from seat {win_from}, but that seat has no exposed pung of {kind_str(win_tile)} to add to"
            )

    # The flags must fit the table they describe (they add fan, so a contradiction would
    # score a hand that cannot happen).
    if kong_replacement and not any(meld.is_kong for meld in players[winner].melds):
        raise CaseError(
            "win.kong_replacement, but the winner has no kong: a replacement tile is drawn "
            "only after a kong"
        )
    if first_draw and any(meld.is_kong for meld in players[winner].melds):
        raise CaseError(
            "win.first_draw, but the winner has a kong: a win after one's own kong is on "
            "its replacement, not on the dealt hand or the first draw"
        )
    if first_draw:
        for seat, hand in enumerate(players):
            for meld in hand.melds:
                if meld.from_seat is not None:
                    raise CaseError(
                        f"win.first_draw, but seat {seat} claimed {format_tiles(meld.tiles)}: "
                        "a claim came before the winner's first draw"
                    )

    pairs: list[tuple[int, int]] = []
    folded: list[int] = []
    santan = data.get("santan")
    if santan is not None:
        if not rules.has_three_claim_liability:
            raise CaseError(
                "santan (three-claim liability) is a "
                f"{_rule_sets_with('has_three_claim_liability')} rule, not a {variant} one"
            )
        if not isinstance(santan, dict):
            raise CaseError("santan must be an object {'pairs': [[a, b]], 'folded': [...]}")
        _check_keys(santan, _SANTAN_KEYS, "santan")
        raw_pairs = santan.get("pairs", [])
        if not isinstance(raw_pairs, list):
            raise CaseError("santan.pairs must be a list of seat pairs")
        for pair in raw_pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise CaseError(f"santan pair {pair!r} must be two seats")
            a = _int(pair[0], "santan pair seat", 0, seats - 1)
            b = _int(pair[1], "santan pair seat", 0, seats - 1)
            if a == b:
                raise CaseError(f"santan pair {pair!r} names one seat twice")
            pairs.append((min(a, b), max(a, b)))
        raw_folded = santan.get("folded", [])
        if not isinstance(raw_folded, list):
            raise CaseError("santan.folded must be a list of seats")
        liable = {seat for pair in pairs for seat in pair}
        for seat in raw_folded:
            seat = _int(seat, "santan folded seat", 0, seats - 1)
            if seat in liable:
                raise CaseError(f"seat {seat} is a liable party and cannot fold")
            folded.append(seat)
        if folded and not pairs:
            raise CaseError("santan.folded without any liable pair: nobody could have folded")

    expect = data.get("expect")
    if expect is not None and not isinstance(expect, dict):
        raise CaseError("expect must be an object")

    return WinContext(
        variant=variant,
        options=options,
        seats=seats,
        indicator=indicator,
        wild=wild,
        dealer=dealer,
        winner=winner,
        win=WinInfo(
            tile=win_tile,
            by=by,
            from_seat=win_from,
            kong_replacement=kong_replacement,
            last_tile=last_tile,
            first_draw=first_draw,
        ),
        players=tuple(players),
        prevailing_wind=prevailing,
        carried_fan=carried_fan,
        dice=dice,
        santan_pairs=tuple(dict.fromkeys(pairs)),
        folded=tuple(sorted(set(folded))),
        seen_before=frozenset(seen),
    )


def result_to_case_json(result: HandResult) -> dict[str, Any]:
    """The result with the keys a case's ``expect`` names, plus the breakdown."""
    data: dict[str, Any] = {"valid": result.valid}
    if not result.valid:
        data["reason"] = result.reason
        data["deltas"] = list(result.deltas)
        return data
    data.update(RULE_SETS[result.variant].result_json(result))
    data["deltas"] = list(result.deltas)
    data["winner"] = result.winner
    data["by"] = result.win_by
    data["items"] = [item.to_json() for item in result.items]
    data["payments"] = [payment.to_json() for payment in result.payments]
    if result.per_seat_items is not None:
        data["per_seat_items"] = [
            [item.to_json() for item in items] for items in result.per_seat_items
        ]
    if result.arrangement is not None:
        data["arrangement"] = result.arrangement
    return data
