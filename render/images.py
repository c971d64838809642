"""The four images, one module each, gathered under their historical import path.

``render.hand`` (private hand), ``render.table`` (public table), ``render.result`` (hand
result) and ``render.leaderboard`` hold the drawing; ``render.layout`` what they share.
Every function takes an engine view (``PlayerView``/``PublicView``, and the
``HandResult`` those carry) or plain leaderboard rows, never the engine's state, so an
image cannot show a tile its viewer may not see. The bot imports the ``render_*``
functions from here (or from ``render``); both paths stay.
"""

from __future__ import annotations

from engine.views import PlayerView, PublicView

from .hand import TABLE_TILE, compose_hand, render_hand
from .layout import encode_png, shared_palette
from .leaderboard import compose_leaderboard, render_leaderboard
from .result import compose_result, render_result
from .table import compose_table, render_table
from .tiles import MARKERS, tile_sprite

__all__ = [
    "compose_hand",
    "compose_leaderboard",
    "compose_result",
    "compose_table",
    "encode_png",
    "render_hand",
    "render_leaderboard",
    "render_result",
    "render_table",
    "warm_up",
]


def warm_up() -> None:
    """Draw every face and build the shared palette now (a second or two), so the
    first image a player waits for is as fast as the rest: the table (and a replay frame)
    also keeps its sprites' palette versions, made here for a sample table. Call it from
    a worker thread at start-up."""
    for kind in range(34):
        for marker in MARKERS:
            tile_sprite(kind, 40, marker)
            tile_sprite(kind, TABLE_TILE, marker)  # the hand image's table strip
    shared_palette()
    encode_png(compose_hand(_warm_view(), palette=True))  # as render_hand composes it
    encode_png(compose_table(_warm_public_view(), palette=True))
    # A four-seat hand's late rivers take the table's smaller river tiles (RIVER_MIN):
    # the first late table drew them cold (about 380 ms against 25 warm).
    from .samples import sample_late_public_view  # plays a sample hand: only here

    encode_png(compose_table(sample_late_public_view(), palette=True))


def _warm_view() -> PlayerView:
    from engine.variants import RULE_SETS

    from .samples import sample_player_view

    return sample_player_view(next(iter(RULE_SETS)))


def _warm_public_view() -> PublicView:
    from engine.variants import RULE_SETS

    from .samples import sample_public_view

    return sample_public_view(next(iter(RULE_SETS)))
