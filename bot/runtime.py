"""Interpreter settings for a process that hosts many tables.

Why a module of its own: the settings are process-wide and unrelated to any one table;
the bot's entry point and the benchmarks call ``tune_runtime`` once after start-up.
"""

from __future__ import annotations

import gc
import sys

__all__ = ["GC_THRESHOLDS", "GIL_SWITCH_INTERVAL", "tune_runtime"]

GIL_SWITCH_INTERVAL = 0.0005  # seconds; CPython's default is 0.005
GC_THRESHOLDS = (10_000, 5, 10)  # CPython's default is (700, 10, 10)


def tune_runtime() -> None:
    """Interpreter settings for a process hosting many tables; call once, after start-up
    (imports, ``restore_all``), from the bot's entry point or a benchmark.

    * ``gc.freeze()`` moves everything alive now (modules, the engine's shape tables,
      restored matches) out of the collector's sight, and the higher generation-0
      threshold makes collections rarer. Matches allocate many short-lived objects per
      action; with the default thresholds a full collection walks every live match and
      showed up as pauses of up to ~150 ms at 1,000 tables. A young collection's pause
      grows with the threshold: measured at 1,000 all-AI tables, 50,000 allocations
      gave one every ~2 s pausing 30-70 ms (with a busy neighbour core), the largest
      single cause of the action p99; 10,000 gives one every ~0.3 s pausing 11-30 ms, for
      ~0.01 ms more CPU per action; 2,000 brings in older-generation passes of ~20 ms. A
      full collection (~50 ms at 1,000 live tables) is rarer still. The middle
      generation is collected every 5 young collections, not 20: it holds what a hand
      keeps (rivers, melds, history) and its pause grows with the time since the last
      one; measured over 150 s at 1,000 tables, 9 passes of ~65 ms instead of 3 of
      ~155 ms, for the same CPU. Nothing here relies on cycles being freed promptly;
      they are still collected, only less often.
    * ``sys.setswitchinterval(0.5 ms)``: SQLite runs on aiosqlite's thread and hands the
      GIL back and forth around every statement. While the event loop is busy, each
      hand-back waits up to one switch interval (5 ms by default), which is what made a
      write take ~10-30 ms under load although SQLite needs ~0.1 ms for it. The
      shorter interval costs the loop nothing while no other thread wants the GIL.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(GIL_SWITCH_INTERVAL)
