"""Pinned decisions: seeded self-play and an all-AI table must play exactly these moves.

Why: performance work on the AI (``engine.ai``, ``engine.shapes``) and on the session's
per-action bookkeeping (views, deadlines, the journal) must never change a decision.
A digest of every action of a seeded ``simulate`` run (both rule sets, the ``easy`` and
``normal`` levels side by side) and of an all-AI table driven by the session on a fake
clock catches any change, however small. A deliberate change of AI behaviour updates
the digests here in the same commit, saying why.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from bot.commands.simulate import PLAYERS, Player, simulate
from bot.recording import RecordingPresenter
from bot.session import FakeClock, TableManager
from data import Store
from engine.types import Action
from engine.views import PlayerView

# Keys of ``simulate --json`` that measure time, not play.
_TIMING_KEYS = ("seconds", "hands_per_second", "decisions_per_second")

SIMULATE_DIGESTS = {
    "jiaxing": "ef3a8f2c49fbad1999799432236354878307f8fa1941d9db04885e2880be69a7",
    "taizhou": "57411dc869457c6a5881a6ce7a2c7d4050b03d9d86215773526682bd4deb14c7",
}
TABLE_DIGESTS = {
    "jiaxing": "2a44261ff567d0081e506d825c88c8ca5541624e049f9809c6cb258dc029f93a",
    "taizhou": "8e90b06c0b9fac4bb9106d83d2c0dff8f84b1fa2f8c48fbd6b35377e0b3fd9aa",
}


def _simulate_digest(variant: str) -> str:
    digest = hashlib.sha256()

    def recording(player: Player) -> Player:
        def choose(view: PlayerView, rng: random.Random) -> Action:
            action = player(view, rng)
            digest.update(json.dumps(action.to_json(), sort_keys=True).encode())
            return action

        return choose

    names = ["normal", "easy", "normal", "easy"]
    stats = simulate(
        variant, hands=6, seed="pinned", players=[recording(PLAYERS[n]) for n in names]
    )
    assert stats.errors == 0, stats.error_samples
    summary = stats.to_json()
    for key in _TIMING_KEYS:
        summary.pop(key, None)
    summary.pop("seats", None)  # player names: the wrappers are unnamed
    digest.update(json.dumps(summary, sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
def test_seeded_simulation_plays_the_pinned_moves(variant: str) -> None:
    assert _simulate_digest(variant) == SIMULATE_DIGESTS[variant]


@pytest.mark.parametrize("variant", ["jiaxing", "taizhou"])
async def test_all_ai_table_plays_the_pinned_moves(variant: str, tmp_path: Path) -> None:
    """The session path the bot and ``bench_sessions`` run: views built by the session,
    the seeded per-turn rng, the journal; two tables (one per level) share the manager."""
    store = await Store.open(tmp_path / "pinned.db", synchronous="NORMAL")
    clock = FakeClock()
    manager = TableManager(store, RecordingPresenter(), clock, ai_delay=1.0)
    tables = []
    for index, level in enumerate(("easy", "normal")):
        table = await manager.create_table(
            1, 100 + index, 10 + index, "host", variant=variant, seed=40 + index,
            seat_host=False, ai_level=level,
        )  # fmt: skip
        assert (await table.start(10 + index)).ok
        tables.append(table)
    await manager.wait_idle()
    await clock.advance(250.0)
    digest = hashlib.sha256()
    for table in tables:
        actions = await store.load_actions(table.table_id)
        assert len(actions) > 100
        digest.update(json.dumps(actions, sort_keys=True).encode())
    await manager.shutdown()
    await store.close()
    assert digest.hexdigest() == TABLE_DIGESTS[variant]
