"""``mahjong-bot score FILE|-``: score hands described as golden-format cases.

Prints JSON (one object, or a list for a list of cases) with the keys a case's ``expect``
names plus the itemised breakdown; ``--explain`` prints a bilingual breakdown instead.
Bad input is one line on stderr and exit code 2, never a traceback: the command is
meant for people typing cases by hand. In a list, a case that cannot be read is an
``{"name": ..., "error": ...}`` entry in its place and the rest are still scored (the
exit code is still 2). It imports only the engine and the pure ``bot.lines``, so it starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.lines import item_unit, payment_line, rule_set_name, total_line, win_by_text
from engine.scoring import score_hand
from engine.scoring.case import CaseError, parse_case, result_to_case_json
from engine.scoring.names import TEXT, invalid_reason_text
from engine.tiles import TileError
from engine.types import HandResult, WinContext
from engine.variants import RULE_SETS

PROG = "mahjong-bot score"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="a JSON case or list of cases; '-' reads stdin"
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="print a bilingual human breakdown instead of JSON",
    )


class _InputError(Exception):
    def __init__(self, where: str, problem: str) -> None:
        super().__init__(problem)
        self.where = where
        self.problem = problem


def _read(path: str) -> Any:
    where = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise _InputError(where, f"cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise _InputError(where, "not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _InputError(
            where, f"invalid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:  # json's C decoder recurses once per nesting level
        raise _InputError(where, "invalid JSON: nested too deeply") from None
    except ValueError as error:  # e.g. an integer over sys.get_int_max_str_digits() digits
        raise _InputError(where, f"invalid JSON: {error}") from None


def _case_name(case: Any, index: int, many: bool) -> str:
    if isinstance(case, dict) and isinstance(case.get("name"), str) and case["name"]:
        return case["name"]
    return f"case {index + 1}" if many else "case"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _explain(name: str, ctx: WinContext, result: HandResult) -> str:
    rule_set = rule_set_name(ctx.variant)
    lines = [f"== {name} · {rule_set.zh} {rule_set.en} =="]
    winner_zh, winner_en = TEXT["winner"]
    seats = [f"{TEXT['seat'][0]} {seat}" for seat in range(ctx.seats)]
    lines.append(
        f"{winner_zh} {winner_en}: {TEXT['seat'][0]} {result.winner} seat {result.winner}"
        f"  {win_by_text(result, seats)}"
    )
    if not result.valid:
        zh, en = invalid_reason_text(result.reason, RULE_SETS[ctx.variant].wild_name_zh)
        lines.append(f"{TEXT['invalid'][0]} {TEXT['invalid'][1]}: {zh} — {en}")
        return "\n".join(lines)
    if result.arrangement:
        # What each wild (百搭 in Jiaxing, 财神 in Taizhou) and each White standing for
        # the wild's kind was read as: "345s(白板=4s)".
        wild_word = RULE_SETS[ctx.variant].wild_name_zh or TEXT["wild"][0]
        groups = " ".join(
            str(group["tiles"])
            + (f"({wild_word}={group['wilds']})" if group.get("wilds") else "")
            + (f"({TEXT['white'][0]}={group['white_as']})" if group.get("white_as") else "")
            + ("*" if group.get("win") else "")
            for group in result.arrangement
        )
        lines.append(f"{TEXT['arrangement'][0]} {TEXT['arrangement'][1]}: {groups}")
    width = max((len(item.name_zh) for item in result.items), default=6)  # 明刻（一九字牌）
    for item in result.items:
        unit = item_unit(item)
        unit_zh, unit_en = unit.zh, unit.en
        count = f" ×{item.count}" if item.count > 1 else ""
        lines.append(
            f"  {item.name_zh:<{width}}{item.value:>4}{unit_zh}{count}"
            f"   {item.name_en} {item.value} {unit_en}{count}"
        )
    total = total_line(result)
    lines.append(f"{TEXT['total'][0]} {TEXT['total'][1]}: {total.zh}   ({total.en})")
    if result.per_seat_items is not None and result.totals is not None:
        lines.append(f"{TEXT['non_winners'][0]} {TEXT['non_winners'][1]}:")
        for seat, items in enumerate(result.per_seat_items):
            if seat == result.winner:
                continue
            detail = ", ".join(
                f"{item.name_zh}/{item.name_en} {item.value}{'×' + str(item.count) if item.count > 1 else ''}"
                for item in items
            )
            lines.append(f"  {TEXT['seat'][0]} {seat}: {result.totals[seat]}  {detail}")
    lines.append(f"{TEXT['payments'][0]} {TEXT['payments'][1]}:")
    numbers = [str(seat) for seat in range(ctx.seats)]
    for payment in result.payments:
        lines.append(f"  {payment_line(payment, numbers)}")
    deltas = ", ".join(f"{delta:+}" for delta in result.deltas)  # x.5 under "exact"
    lines.append(f"{TEXT['deltas'][0]} {TEXT['deltas'][1]}: [{deltas}]")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        data = _read(args.file)
    except _InputError as error:
        print(f"{PROG}: {error.where}: {_one_line(error.problem)}", file=sys.stderr)
        return 2
    many = isinstance(data, list)
    cases = data if many else [data]
    if many and not cases:
        print(f"{PROG}: {args.file}: the list of cases is empty", file=sys.stderr)
        return 2
    outputs: list[Any] = []
    explanations: list[str] = []
    refused = 0
    for index, case in enumerate(cases):
        name = _case_name(case, index, many)
        try:
            ctx = parse_case(case)
            result = score_hand(ctx)
        except (CaseError, TileError, ValueError) as error:
            problem = _one_line(str(error))
        except RecursionError:
            problem = "the case is nested too deeply"
        else:
            problem = ""
        if problem:
            # One bad case in a list is reported in its place; the others are still scored.
            print(f"{PROG}: {name}: {problem}", file=sys.stderr)
            if not many:
                return 2
            refused += 1
            outputs.append({"name": name, "error": problem})
            explanations.append(f"== {name} ==\n{problem}")
            continue
        if args.explain:
            explanations.append(_explain(name, ctx, result))
        else:
            output = {"name": name, "variant": ctx.variant}
            output.update(result_to_case_json(result))
            outputs.append(output)
    if args.explain:
        print("\n\n".join(explanations))
    else:
        print(json.dumps(outputs if many else outputs[0], ensure_ascii=False, indent=1))
    return 2 if refused else 0
