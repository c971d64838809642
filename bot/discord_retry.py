"""Retrying the Discord writes that matter, on top of what discord.py already retries.

discord.py waits out every 429 itself and, for bot-token requests and webhooks, retries
500/502/504 (webhooks: any 5xx) five times before raising ``DiscordServerError``. It does
not retry a 503 from a bot-token request (raised at once), and once its own retries are
spent the error reaches us. For the few writes whose loss players would notice (the
table message at the end of a match, a hand's result card, the weekly leaderboard) the
bot adds a short, bounded retry of ``DiscordServerError`` only: never a 4xx (a retry
cannot fix it), never a 429 (already handled below us), and with few attempts, because
behind an exhausted 500 discord.py has already tried five times.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 4  # the first try and up to three retries
FIRST_DELAY = 1.0  # seconds; doubles each time
MAX_DELAY = 8.0


def is_transient(error: BaseException) -> bool:
    """A server-side failure a later attempt may not meet (5xx after discord.py's own
    retries, or a 503 that it does not retry)."""
    return isinstance(error, discord.DiscordServerError)


async def retry_discord(
    call: Callable[[], Awaitable[T]],
    sleep: Callable[[float], Awaitable[None]],
    what: str,
    *,
    still_wanted: Callable[[], bool] | None = None,
    attempts: int = ATTEMPTS,
) -> T | None:
    """Run ``call`` (which must build its request afresh: files are consumed by a send)
    until it succeeds or ``attempts`` transient failures, waiting ``sleep(seconds)``
    between tries (the session clock, so tests move it); other errors are raised at
    once. ``still_wanted`` is asked before each retry: False (a newer write supersedes
    this one) stops quietly with None. The last transient error is raised."""
    delay = FIRST_DELAY
    for attempt in range(1, attempts + 1):
        try:
            return await call()
        except discord.HTTPException as error:
            if not is_transient(error) or attempt == attempts:
                raise
            log.warning(
                "%s: Discord answered %s (attempt %d of %d); retrying in %.0f s",
                what, error.status, attempt, attempts, delay,
            )  # fmt: skip
        await sleep(delay)
        delay = min(MAX_DELAY, delay * 2)
        if still_wanted is not None and not still_wanted():
            return None
    raise AssertionError("unreachable")  # pragma: no cover
