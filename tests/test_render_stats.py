"""The /stats card draws every figure from the counts it is given, empty or full."""

from __future__ import annotations

import io
from datetime import date

from PIL import Image

from bot.commands.render_demo import sample_player_stats
from data import PlayerStats
from render.stats import HEIGHT, WIDTH, card_figures, render_stats


def empty_stats() -> PlayerStats:
    return PlayerStats(
        user_id=1, variant=None, first_day=date(2026, 11, 23), end_day=date(2026, 11, 30),
        hands=0, wins=0, self_draws=0, deal_ins=0, deal_in_hands=0, net=0, biggest=None,
        win_types=(), trend=(),
    )  # fmt: skip


def test_figures_follow_the_definitions() -> None:
    stats = sample_player_stats()
    assert card_figures(stats) == {
        "hands": "212",
        "stats_win_rate": f"{100 * 61 / 212:.0f}%",
        "stats_self_draw": f"{100 * 38 / 61:.0f}%",
        "stats_deal_in": f"{100 * 17 / 130:.0f}%",  # Taizhou hands only
        "stats_mean": f"{stats.net / 212:+.1f}",
        "stats_net": f"{stats.net:+,}",
    }
    # Nothing played: a net of 0 reads 0 (no sign), as on the board and the result card.
    assert set(card_figures(empty_stats()).values()) == {"0", "-"}


def test_card_renders_in_every_locale_full_and_empty() -> None:
    for stats in (sample_player_stats(), empty_stats()):
        for locale in ("zh-CN", "zh-TW", "en"):
            png = render_stats(stats, name="小明 Ming", subtitle="全部", locale=locale)
            image = Image.open(io.BytesIO(png))
            assert image.size == (WIDTH, HEIGHT) == (900, 960)
    # A one-day trend still draws a line (flat) rather than failing.
    one_day = PlayerStats(**{**empty_stats().__dict__, "trend": ((date(2026, 11, 24), 990),)})
    assert render_stats(one_day, name="x", subtitle="", locale="en").startswith(b"\x89PNG")
