"""Win/loss caps (the Taizhou seed's 每局/每日输赢上限) that keep a hand zero-sum.

The scheme, exactly:

1. Each player gets a limit on the size of their result in this hand: the guild's
   per-hand cap, and for a real user with a per-day cap also the room left today (a
   winner may still win ``day_cap - net_today``, a loser may still lose
   ``day_cap + net_today``; never below 0). AI seats only get the per-hand cap.
2. Each result is clipped to its player's limit, keeping its sign.
3. Clipping can leave the winners' total W and the losers' total L unequal. The larger
   side is scaled down to the smaller total: each amount becomes
   ``floor(amount * smaller / larger)`` and the few points of remainder go, one each, to
   the largest fractional parts (ties: larger amount first, then lower seat). Scaling
   only shrinks amounts, so no limit is broken, and the hand stays exactly zero-sum.

A hand is ``capped`` when any player's points differ from the original units x stake;
each ledger row keeps both (``points``, ``original_points``) and its own ``capped`` flag.
Caps bound what the table decides: penalties and admin adjustments are neither capped
nor counted in a player's net for the day.
"""

from __future__ import annotations

from collections.abc import Sequence


def player_limit(
    points: int, hand_cap: int | None, day_cap: int | None, day_net: int | None
) -> int | None:
    """How large |points| may be for one player; ``day_net`` None means no day cap (AI seat)."""
    limit = hand_cap
    if day_cap is not None and day_net is not None:
        room = day_cap - day_net if points > 0 else day_cap + day_net
        room = max(0, room)
        limit = room if limit is None else min(limit, room)
    return limit


def apply_caps(points: Sequence[int], limits: Sequence[int | None]) -> list[int]:
    """Capped points, zero-sum when ``points`` is; ``limits[i]`` None means unlimited."""
    if len(points) != len(limits):
        raise ValueError("one limit per player")
    clipped = []
    for amount, limit in zip(points, limits, strict=True):
        if limit is not None and abs(amount) > limit:
            amount = limit if amount > 0 else -limit
        clipped.append(amount)
    won = sum(amount for amount in clipped if amount > 0)
    lost = -sum(amount for amount in clipped if amount < 0)
    if won == lost:
        return clipped
    if won > lost:
        return _scale_side(clipped, positive=True, side_total=won, target=lost)
    return _scale_side(clipped, positive=False, side_total=lost, target=won)


def _scale_side(values: list[int], positive: bool, side_total: int, target: int) -> list[int]:
    sign = 1 if positive else -1
    members = [i for i, value in enumerate(values) if value * sign > 0]
    result = list(values)
    remainders = []
    assigned = 0
    for i in members:
        magnitude = values[i] * sign
        share, remainder = divmod(magnitude * target, side_total)
        result[i] = share * sign
        assigned += share
        remainders.append((-remainder, -magnitude, i))
    remainders.sort()
    for _, _, i in remainders[: target - assigned]:
        result[i] += sign
    return result
