"""Scoring and settlement of a won hand for both rule sets (RULES.md §1, §2).

``score_hand(ctx)`` is the one entry point: it reads the winner's tiles the way that
scores best, itemises the result and settles the payments. An illegal win comes back
with ``valid`` False, a ``reason`` and zero deltas rather than an exception, because the
round asks the same question to decide whether a win may be offered at all.
"""

from __future__ import annotations

from ..types import HandResult, WinContext
from .jiaxing import score_jiaxing
from .taizhou import score_taizhou

__all__ = ["is_valid_win", "score_hand"]


def score_hand(ctx: WinContext) -> HandResult:
    if ctx.variant == "jiaxing":
        result = score_jiaxing(ctx)
    elif ctx.variant == "taizhou":
        result = score_taizhou(ctx)
    else:
        raise ValueError(f"unknown variant {ctx.variant!r} (jiaxing or taizhou)")
    result.win_tile = ctx.win.tile
    return result


def is_valid_win(ctx: WinContext) -> bool:
    return score_hand(ctx).valid
