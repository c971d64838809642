"""Benchmark the renderer end to end: compose the image and encode the PNG.

The bot renders on every turn, so the figure that matters is the median time with a warm
sprite cache (every face already drawn and downscaled): targets are hand ≤ 5 ms and
table ≤ 25 ms. Cold start is the first hand image in a fresh Python process (imports,
font loading, drawing every face it needs), measured in a subprocess. PNG sizes are
reported too (Discord's limit is far above them; phones prefer them small).

    python benchmarks/bench_render.py [--repeat N] [--json]

With ``--json`` the last line is one JSON object with ``hand_ms``, ``table_ms``,
``cold_ms``, ``result_ms``, ``leaderboard_ms`` and the PNG sizes in bytes.

Replays (issue 14): ``replay_frame_ms`` is one replay frame (the open table under its
caption, PNG) with warm caches, the median over every step of a hand (target ≤ 10);
``replay_export_s`` the whole of a typical hand (a won one, played by the greedy AI) as
the GIF ``/replay`` sends (target ≤ 2), with its frame count and size; and
``replay_export_long_s`` the same for a hand played to the last tile (the longest).
``png_deflate`` says which deflate wrote the PNGs (``isal``, a dependency, or ``zlib``
where it is missing, several milliseconds slower a frame).

``emoji_board_cold_ms``: the first leaderboard of ten 32-emoji names in a fresh process
(after importing and a warm-up hand), where each name must be shortened to fit: emoji
are drawn from a bitmap font and scaled, and every other table's images wait for it
(the renderer draws under one lock). It took seconds before emoji were cached per
glyph and ``fit_text`` bisected.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from render import render_hand, render_leaderboard, render_result, render_table  # noqa: E402
from render.png import DEFLATE_BACKEND  # noqa: E402
from render.replay import render_replay_animation, render_replay_frame  # noqa: E402
from render.samples import (  # noqa: E402
    SAMPLE_LEADERBOARD,
    SAMPLE_NAMES,
    sample_hand_replay,
    sample_player_view,
    sample_public_view,
    sample_win_result,
)

COLD_SCRIPT = """
import sys, time
sys.path.insert(0, {root!r})
started = time.perf_counter()
from render import render_hand
from render.samples import sample_player_view
view = sample_player_view("jiaxing")
ready = time.perf_counter()
render_hand(view)
done = time.perf_counter()
print((done - started) * 1000, (done - ready) * 1000)
"""


EMOJI_BOARD_SCRIPT = """
import sys, time
sys.path.insert(0, {root!r})
from render import render_hand, render_leaderboard
from render.samples import sample_player_view
render_hand(sample_player_view("jiaxing"))
pool = "😀😃😄😁😆😅😂🤣😊😇🙂🙃😉😌😍🥰😘😗😙😚😋😛😝😜🤪🤨🧐🤓😎🥸🤩🥳"
rows = [(i + 1, (pool[i:] + pool[:i])[:32], 100 - i, 10, 1) for i in range(10)]
started = time.perf_counter()
render_leaderboard(rows, locale="en")
print((time.perf_counter() - started) * 1000)
"""


def _median_ms(render: Callable[[], bytes], repeat: int) -> tuple[float, int]:
    data = render()  # warm the sprite and text caches
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        render()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), len(data)


def _fresh_process(script: str) -> str:
    """What ``script`` prints, run in a new interpreter (nothing cached yet)."""
    command = [sys.executable, "-c", script.format(root=str(ROOT))]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def _cold_ms(runs: int = 3) -> tuple[float, float]:
    """Median (whole first render incl. imports, first render after imports) in ms."""
    totals, renders = [], []
    for _ in range(runs):
        output = _fresh_process(COLD_SCRIPT).split()
        totals.append(float(output[0]))
        renders.append(float(output[1]))
    return statistics.median(totals), statistics.median(renders)


def _replays(report: dict[str, float | int | str], repeat: int) -> None:
    """Replay frames and whole-hand exports (see the module docstring)."""
    typical = sample_hand_replay("jiaxing")
    longest = sample_hand_replay("jiaxing", won=False)
    names = SAMPLE_NAMES
    steps = range(typical.steps + 1)
    for step in steps:  # warm: every caption and sprite this hand needs is drawn once
        render_replay_frame(typical, step, names=names)
    times = []
    for _ in range(max(1, repeat // len(steps) + 1)):
        for step in steps:
            started = time.perf_counter()
            render_replay_frame(typical, step, names=names)
            times.append((time.perf_counter() - started) * 1000)
    frame_ms = statistics.median(times)
    report["replay_frame_ms"] = round(frame_ms, 3)
    print(f"{'replay frame':<12} {frame_ms:>10.2f} {'≤10':>8}")
    for key, record in (("replay_export", typical), ("replay_export_long", longest)):
        render_replay_animation(record, names=names)  # warm
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            data = render_replay_animation(record, names=names)
            runs.append(time.perf_counter() - started)
        seconds = statistics.median(runs)
        report[f"{key}_s"] = round(seconds, 3)
        report[f"{key}_frames"] = len(record.frames)
        report[f"{key}_gif_bytes"] = len(data)
        target = "≤2 s" if key == "replay_export" else ""
        print(
            f"{key:<12} {seconds:>9.2f}s {target:>8} {len(data) / 1024:>8.1f}"
            f"  ({len(record.frames)} frames)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=60, help="timed renders per image")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)

    hand_view = sample_player_view("jiaxing")
    table_view = sample_public_view("jiaxing", 4)
    ended, result, win_tile = sample_win_result("taizhou")
    cases: dict[str, Callable[[], bytes]] = {
        "hand": lambda: render_hand(hand_view, names=SAMPLE_NAMES),
        "table": lambda: render_table(table_view, names=SAMPLE_NAMES),
        "result": lambda: render_result(ended, result, names=SAMPLE_NAMES, win_tile=win_tile),
        "leaderboard": lambda: render_leaderboard(SAMPLE_LEADERBOARD, subtitle="2026-W48"),
    }
    targets = {"hand": 5.0, "table": 25.0}
    report: dict[str, float | int | str] = {"png_deflate": DEFLATE_BACKEND}
    print(
        f"{'image':<12} {'median ms':>10} {'target':>8} {'PNG KB':>8}   (deflate: {DEFLATE_BACKEND})"
    )
    for name, render in cases.items():
        median, size = _median_ms(render, args.repeat)
        report[f"{name}_ms"] = round(median, 3)
        report[f"{name}_png_bytes"] = size
        target = f"≤{targets[name]:.0f}" if name in targets else ""
        print(f"{name:<12} {median:>10.2f} {target:>8} {size / 1024:>8.1f}")
    _replays(report, args.repeat)
    cold_total, cold_render = _cold_ms()
    report["cold_ms"] = round(cold_total, 1)
    report["cold_render_ms"] = round(cold_render, 1)
    emoji_board = statistics.median(
        float(_fresh_process(EMOJI_BOARD_SCRIPT).split()[0]) for _ in range(3)
    )
    report["emoji_board_cold_ms"] = round(emoji_board, 1)
    print(f"cold start: {cold_total:.0f} ms to the first hand PNG in a fresh process")
    print(f"            ({cold_render:.0f} ms of it rendering, the rest imports and fonts)")
    print(f"a board of ten 32-emoji names, first time: {emoji_board:.0f} ms")
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
