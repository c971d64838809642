"""``mahjong-bot render-demo --out DIR``: write a sample of every image for both variants
(and a replay animation of a whole hand for each).

Two sources: hand-built sample views (``render.samples``), which show every feature at
once (wilds, White stand-ins, concealed kongs, claimed discards, waits, a claim prompt,
a leaderboard of names in every script), and views from a seeded ``Round`` played by
``engine.ai``'s greedy policy, which show what real play looks like.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from data.models import BiggestHand, PlayerStats
from engine.ai import greedy_policy
from engine.variants import RULE_SETS
from engine.views import PlayerView, PublicView
from render import (
    render_hand,
    render_leaderboard,
    render_result,
    render_table,
)
from render.dates import iso_week_dates
from render.replay import render_replay_animation
from render.samples import (
    SAMPLE_LEADERBOARD,
    SAMPLE_NAMES,
    WORLD_NAMES_LEADERBOARD,
    sample_claim_view,
    sample_draw_result,
    sample_hand_replay,
    sample_player_view,
    sample_public_view,
    sample_waiting_view,
    sample_win_result,
)
from render.stats import render_stats


def variant_seats() -> dict[str, tuple[int, ...]]:
    """Each registered rule set with its seat counts, most seats first."""
    return {
        name: tuple(sorted(rules.allowed_seats, reverse=True)) for name, rules in RULE_SETS.items()
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, required=True, help="folder to write the PNGs to")
    parser.add_argument(
        "--locale", choices=("zh", "zh-TW", "en"), default="zh", help="label language"
    )
    parser.add_argument("--seed", type=int, default=2024, help="seed of the live rounds")
    parser.add_argument(
        "--docs",
        type=Path,
        default=None,
        help="also copy README's pictures (docs/render_*.png, replay_taizhou.gif) into this folder",
    )


def readme_pictures() -> dict[str, str]:
    """README's pictures (docs/) and the demo image each one is (re-run with --docs docs):
    the first rule set shows a claim prompt and its table, every rule set its hand and a
    won hand's result, and the leaderboard shows names in every script."""
    pictures: dict[str, str] = {}
    for index, (name, rules) in enumerate(RULE_SETS.items()):
        hand = f"{name}_hand_claim.png" if index == 0 else f"{name}_hand.png"
        pictures[f"render_hand_{name}.png"] = hand
        if index == 0:
            pictures[f"render_table_{name}.png"] = f"{name}_table_{max(rules.allowed_seats)}p.png"
        pictures[f"render_result_{name}.png"] = f"{name}_result_win.png"
    pictures["render_leaderboard.png"] = "leaderboard_world_names.png"
    pictures["render_stats.png"] = "stats_card.png"
    pictures["replay_taizhou.gif"] = "taizhou_replay.gif"
    return pictures


def sample_player_stats() -> PlayerStats:
    """A season of figures for the demo card: both rule sets, a 12-tai biggest hand and a
    balance that dips and recovers over a month."""
    start = date(2026, 11, 1)
    balance = 1000
    trend = []
    for day in range(30):
        balance += int(60 * math.sin(day / 4) + 8 * ((day * 7) % 5 - 2))
        trend.append((start + timedelta(days=day), balance))
    biggest = BiggestHand(
        points=480, variant="jiaxing", game_id="demo", hand_number=3,
        created_at=datetime(2026, 11, 18, 21, 5, tzinfo=UTC),
        items=(("full_flush", 4, "tai"), ("all_pungs", 2, "tai"), ("red_pung", 1, "tai"),
               ("kong_replacement", 1, "fan")),
    )  # fmt: skip
    return PlayerStats(
        user_id=1, variant=None, first_day=None, end_day=None, hands=212, wins=61,
        self_draws=38, deal_ins=17, deal_in_hands=130, net=balance - 1000, biggest=biggest,
        win_types=(("taizhou", "half_flush", 14), ("jiaxing", "all_pungs", 11),
                   ("taizhou", "self_draw", 9), ("jiaxing", "full_flush", 6),
                   ("taizhou", "closed_wait", 5)),
        trend=tuple(trend),
    )  # fmt: skip


def live_views(
    variant: str, seats: int, seed: int, steps: int = 40
) -> tuple[PlayerView, PublicView, PublicView | None]:
    """Views from a seeded round: mid-hand (seat 0 to discard) and the ended hand, if any.

    The engine's round is imported here only, so the demo still works with sample views
    alone if it is unavailable.
    """
    from engine.round import Round

    round_ = Round(variant, seed=seed, seats=seats)
    rng = random.Random(seed)
    mid_player: PlayerView | None = None
    mid_public: PublicView | None = None
    count = 0
    while not round_.is_over and count < 2000:
        public = round_.public_view()
        seat = round_.waiting_on[0]
        view = round_.player_view(seat, public)
        if count >= steps and mid_player is None and public.phase == "turn" and seat == 0:
            mid_player, mid_public = view, public
        round_.apply(greedy_policy(view, rng, allow_win=mid_player is not None))
        count += 1
    ended = round_.public_view() if round_.is_over else None
    if mid_player is None or mid_public is None:
        mid_public = round_.public_view()
        mid_player = round_.player_view(0, mid_public)
    return mid_player, mid_public, ended


def live_sample(
    variant: str, seats: int, seed: int, tries: int = 40
) -> tuple[PlayerView, PublicView, PublicView | None]:
    """The first seed from ``seed`` on whose hand ends in a win (else the first seed's)."""
    first = live_views(variant, seats, seed)
    for offset in range(tries):
        candidate = first if offset == 0 else live_views(variant, seats, seed + offset)
        ended = candidate[2]
        if ended is not None and ended.result is not None and ended.result.winner is not None:
            return candidate
    return first


def run(args: argparse.Namespace) -> int:
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    locale = args.locale
    written: list[Path] = []
    started = time.perf_counter()

    def save(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)

    for variant, seat_counts in variant_seats().items():
        save(
            f"{variant}_hand.png",
            render_hand(sample_player_view(variant), names=SAMPLE_NAMES, locale=locale),
        )
        save(
            f"{variant}_hand_claim.png",
            render_hand(sample_claim_view(variant), names=SAMPLE_NAMES, locale=locale),
        )
        save(
            f"{variant}_hand_waiting.png",
            render_hand(sample_waiting_view(variant), names=SAMPLE_NAMES, locale=locale),
        )
        for seats in seat_counts:
            save(
                f"{variant}_table_{seats}p.png",
                render_table(sample_public_view(variant, seats), names=SAMPLE_NAMES, locale=locale),
            )
        ended, result, win_tile = sample_win_result(variant)
        save(
            f"{variant}_result_win.png",
            render_result(ended, result, names=SAMPLE_NAMES, locale=locale, win_tile=win_tile),
        )
        ended, result = sample_draw_result(variant)
        save(f"{variant}_result_draw.png", render_result(ended, names=SAMPLE_NAMES, locale=locale))
        player, public, ended_live = live_sample(variant, seat_counts[0], args.seed)
        save(f"{variant}_live_hand.png", render_hand(player, names=SAMPLE_NAMES, locale=locale))
        save(f"{variant}_live_table.png", render_table(public, names=SAMPLE_NAMES, locale=locale))
        if ended_live is not None and ended_live.result is not None:
            save(
                f"{variant}_live_result.png",
                render_result(ended_live, names=SAMPLE_NAMES, locale=locale),
            )
        # A whole hand as /replay exports it: one frame per action, every hand open.
        save(
            f"{variant}_replay.gif",
            render_replay_animation(
                sample_hand_replay(variant, args.seed, seat_counts[0]),
                names=SAMPLE_NAMES,
                locale=locale,
            ),
        )
    save(
        "leaderboard_week.png",
        render_leaderboard(
            SAMPLE_LEADERBOARD, subtitle=iso_week_dates(2026, 48, locale), locale=locale
        ),
    )
    save(
        "leaderboard_world_names.png",
        render_leaderboard(
            WORLD_NAMES_LEADERBOARD, subtitle=iso_week_dates(2026, 48, locale), locale=locale
        ),
    )
    save(
        "leaderboard_all_time.png",
        render_leaderboard(SAMPLE_LEADERBOARD[:5], period="all_time", locale=locale),
    )
    save(
        "leaderboard_month.png",
        render_leaderboard(SAMPLE_LEADERBOARD, period="month", subtitle="2026-11", locale=locale),
    )
    stats_subtitle = {"en": "All time · all rule sets", "zh-TW": "全部 · 全部玩法"}
    save(
        "stats_card.png",
        render_stats(sample_player_stats(), name=SAMPLE_NAMES[0],
                     subtitle=stats_subtitle.get(locale, "全部 · 全部玩法"), locale=locale),
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    if args.docs is not None:
        args.docs.mkdir(parents=True, exist_ok=True)
        for picture, source in readme_pictures().items():
            (args.docs / picture).write_bytes((out / source).read_bytes())
            print(f"{args.docs / picture}  <- {source}")
    for path in written:
        print(f"{path}  {path.stat().st_size / 1024:.0f} KB")
    print(f"{len(written)} images in {elapsed:.2f} s")
    return 0
