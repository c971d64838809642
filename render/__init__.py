"""Images of engine views: tiles drawn in code, a bundled CJK font subset, PNG bytes out.

The public API is four functions, each from an engine view (or leaderboard rows) to PNG
bytes. They are CPU-bound and synchronous: the bot calls them with ``asyncio.to_thread``.

- ``render_hand(player_view, *, names, locale, highlight, show_legal)``
- ``render_table(public_view, *, names, locale, perspective)``
- ``render_result(public_view, result=None, *, names, locale, win_tile)``
- ``render_leaderboard(rows, *, period, subtitle, locale)`` with rows of
  ``(rank, name, net, hands, wins)``
- ``warm_up()`` draws every sprite ahead of time (call it once at start-up, in a thread)
"""

from .images import render_hand, render_leaderboard, render_result, render_table, warm_up
from .tiles import back_sprite, tile_sprite

__all__ = [
    "back_sprite",
    "render_hand",
    "render_leaderboard",
    "render_result",
    "render_table",
    "tile_sprite",
    "warm_up",
]
