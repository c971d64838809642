"""Scoring and settlement of a won hand: the dispatcher and what every rule set shares.

Each rule set's scorer lives in its own package (``engine/variants/<name>/scoring.py``,
reached through ``Variant.score``); this package holds only the shared parts (reading
helpers, the case format, the calculator's input) and never names a rule set.

``score_hand(ctx)`` is the one entry point: it reads the winner's tiles the way that
scores best, itemises the result and settles the payments. An illegal win comes back
with ``valid`` False, a ``reason`` and zero deltas rather than an exception, because the
round asks the same question to decide whether a win may be offered at all.

Rules read where RULES.md leaves room (each is implemented where named):
- Best reading: Jiaxing maximises tai × 2^fan over qualifying readings (ties: more tai);
  Taizhou maximises (total after tai and the limit, points, tai). The winning tile's
  place is part of the reading (``common.decompose``).
- A wild stands for any tile, a fifth copy of a kind included (RULES.md §0): every
  reading ``engine.shapes`` accepts is read, and the best score wins. Legality is the
  same rule (``shapes.is_win_reading``), so the round offers exactly the wins scoring
  accepts.
- Jiaxing robbing a kong is legal iff some qualifying reading puts the robbed tile in a
  set, not the pair (``variants.jiaxing.scoring._summaries``); under liability the kong maker pays
  5 × score per seat still in besides the winner.
- Jiaxing Single Wait: exactly two concealed tiles after the win. Three Wilds: three or
  more. No Wilds: no tile of the wild kind among the 14.
- Taizhou ``half_rounding = "exact"`` pays the unrounded half. Every total is even
  unless ``cap`` is odd, and the options refuse "exact" with an odd ``cap``
  (``TaizhouOptions.check_consistent``), so deltas and payments are always whole units.
- A Taizhou chow case meld holding a White (or the wild's kind) without ``white_as`` is
  the White standing for the wild (``case._parse_meld``): nothing else is possible. Its
  ``claimed`` may be the White itself: a discarded White chowed as the wild's kind.
- Taizhou full liability: case 1 counts the winner's exposed melds claimed from one seat
  in the flush suit (self-draw included); case 2 needs exposed pungs/kongs of the other
  two dragons; case 3 judges the discarded dragon by its face (a White counts even when
  read as the wild's kind) and uses ``WinContext.tenpai`` (else ``shapes.hand_waits`` of
  the discarder's hand, the round's own rule) and ``seen_before`` (else all exposed
  melds). The
  3-tai exemption counts the non-winner tai reading (seat wind, Red, Green, White by
  option) of the discarder's hand.
- Seven pairs (option): Jiaxing flush or All Honors (never All Pungs, never robbing);
  Taizhou scores honor pairs, Single Wait, Self-Draw, the bonus and flush tai.
"""

from __future__ import annotations

from .. import variants
from ..types import HandResult, WinContext
from .common import invalid_result

__all__ = ["score_hand"]


def score_hand(ctx: WinContext) -> HandResult:
    # Each rule set scores its own hands (``Variant.score``); a plain dict lookup keeps
    # this on the hot path of the round's win checks.
    rules = variants.RULE_SETS.get(ctx.variant)
    if rules is None:
        known = ", ".join(variants.RULE_SETS)
        raise ValueError(f"unknown variant {ctx.variant!r} ({known})")
    wild = ctx.wild
    if wild is not None and any(wild in meld.faces for meld in ctx.players[ctx.winner].melds):
        result = invalid_result(ctx, "wild_in_meld")  # RULES.md §0: wilds are never melded
    else:
        result = rules.score(ctx)
    result.win_tile = ctx.win.tile
    return result
