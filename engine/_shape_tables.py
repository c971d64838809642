"""Per-suit "tiles needed" tables behind ``engine.shapes``, and the file that ships them.

Why tables: a hand splits into four independent groups (characters, dots, bamboo,
honors) because sets never cross a suit. For one group's nine (or seven) counts we
precompute everything the hot path asks, so a whole hand is four dict lookups and a
little arithmetic instead of a search over tile lists.

One *entry* per group key (the counts as ``bytes``) is a flat tuple of ints:

- ``[0] j0``: fewest jokers that turn *all* the group's tiles into sets only;
- ``[1] pair_extra``: jokers the group needs on top of ``j0`` to also hold the pair
  (``j2 - j0``; may be negative when sets-only is impossible);
- ``[2 + 2*m + p]``: tiles needed (missing from the group) for ``m`` sets and ``p``
  pairs built from this group's kinds, m = 0..4, p = 0..1 (tomohxx-style shanten);
- ``[12 + v]``: bitmask of ranks r whose addition gives ``j0 <= v``, v = 0..15;
- ``[28 + v]``: bitmask of ranks r whose addition gives ``j2 <= v``, v = 0..15.

``INFEASIBLE`` (60) marks "impossible within a hand of at most 14 tiles". Jokers may
stand for any kind, so targets are not capped at four copies (shape only).

The table covers every key with at most 4 copies per kind and at most 14 tiles (405,350
suit keys, 43,130 honor keys); ``python -m engine._shape_tables`` rebuilds
``engine/shape_tables.bin`` (needs numpy, only at build time). Keys outside the table
(five natural copies) are computed on demand by the scalar version of the same DP.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from functools import lru_cache
from pathlib import Path

INFEASIBLE = 60
MAX_SETS = 4
MAX_TILES = 14
NEED_BASE = 2
MASK0_BASE = 12
MASK2_BASE = 28
MASK_SLOTS = 16
ENTRY_LEN = MASK2_BASE + MASK_SLOTS
SUIT_RANKS = 9
HONOR_RANKS = 7
TABLE_PATH = Path(__file__).with_name("shape_tables.bin")
_MAGIC = b"MJSHAPE1"


# --- scalar DP: the definition, used on demand and to check the shipped table ---------


def needs_scalar(key: tuple[int, ...], chows: bool, allowed_ranks: int = -1) -> list[int]:
    """Tiles needed for (m sets, p pairs) in one group, as ``[2*m + p]``, m = 0..4.

    A left-to-right DP over ranks whose state is (sets so far, pair so far, chows begun
    one rank back, chows begun at this rank). ``allowed_ranks`` (bitmask) forbids the
    target from using other ranks, which is how kind-level restrictions are answered.
    """
    ranks = len(key)
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for rank in range(ranks):
        count = key[rank]
        allowed = (allowed_ranks >> rank) & 1
        chow_ok = chows and allowed and rank <= ranks - 3
        nxt: dict[tuple[int, int, int, int], int] = {}
        for (sets, pair, older, newer), cost in states.items():
            if not allowed:
                if older or newer:
                    continue
                state = (sets, pair, 0, 0)
                if cost < nxt.get(state, INFEASIBLE):
                    nxt[state] = cost
                continue
            for new_chows in range(MAX_SETS - sets + 1 if chow_ok else 1):
                for pungs in range(MAX_SETS - sets - new_chows + 1):
                    for pairs in range(2 - pair):
                        demand = older + newer + new_chows + 3 * pungs + 2 * pairs
                        total = cost + max(0, demand - count)
                        state = (sets + new_chows + pungs, pair + pairs, newer, new_chows)
                        if total < nxt.get(state, INFEASIBLE):
                            nxt[state] = total
        states = nxt
    needs = [INFEASIBLE] * (2 * (MAX_SETS + 1))
    for (sets, pair, older, newer), cost in states.items():
        if older == 0 and newer == 0 and cost < needs[2 * sets + pair]:
            needs[2 * sets + pair] = cost
    return needs


def jokers_from_needs(needs: list[int] | tuple[int, ...], tiles: int) -> tuple[int, int]:
    """(j0, j2): fewest jokers to use every tile in sets only / sets plus the pair.

    Every tile is used exactly when the tiles needed equal the target size minus the
    tiles held, and a hand of at most 14 tiles has at most four sets.
    """
    best = [INFEASIBLE, INFEASIBLE]
    for pair in (0, 1):
        for sets in range(MAX_SETS + 1):
            size = 3 * sets + 2 * pair
            if size > MAX_TILES or size < tiles:
                continue
            if needs[2 * sets + pair] == size - tiles:
                best[pair] = min(best[pair], size - tiles)
    return best[0], best[1]


@lru_cache(maxsize=4096)
def jokers_scalar(key: tuple[int, ...], chows: bool) -> tuple[int, int]:
    return jokers_from_needs(needs_scalar(key, chows), sum(key))


def entry_scalar(key: tuple[int, ...], chows: bool) -> tuple[int, ...]:
    """The full table entry for any key (also ones outside the shipped table)."""
    needs = needs_scalar(key, chows)
    j0, j2 = jokers_from_needs(needs, sum(key))
    neighbour_j0: list[int] = []
    neighbour_j2: list[int] = []
    for rank in range(len(key)):
        bigger = list(key)
        bigger[rank] += 1
        if sum(bigger) > MAX_TILES:
            n0 = n2 = INFEASIBLE
        else:
            n0, n2 = jokers_scalar(tuple(bigger), chows)
        neighbour_j0.append(n0)
        neighbour_j2.append(n2)
    return _pack_entry(j0, j2, needs, neighbour_j0, neighbour_j2)


def _pack_entry(
    j0: int, j2: int, needs: list[int], neighbour_j0: list[int], neighbour_j2: list[int]
) -> tuple[int, ...]:
    mask0 = [0] * MASK_SLOTS
    mask2 = [0] * MASK_SLOTS
    for budget in range(MASK_SLOTS):
        for rank, (n0, n2) in enumerate(zip(neighbour_j0, neighbour_j2, strict=True)):
            if n0 <= budget:
                mask0[budget] |= 1 << rank
            if n2 <= budget:
                mask2[budget] |= 1 << rank
    return (j0, j2 - j0, *needs, *mask0, *mask2)


# --- vectorised builder (numpy, build time only) -----------------------------------------


def _enumerate_keys(ranks: int, cap: int):  # -> numpy array (N, ranks) uint8
    import numpy as np

    keys = np.zeros((1, 0), dtype=np.uint8)
    for _ in range(ranks):
        parts = []
        for value in range(cap + 1):
            column = np.full((keys.shape[0], 1), value, dtype=np.uint8)
            grown = np.hstack([keys, column])
            parts.append(grown[grown.sum(axis=1) <= MAX_TILES])
        keys = np.vstack(parts)
    order = np.lexsort(keys.T[::-1])
    return keys[order]


def _needs_vectorised(keys, chows: bool):  # -> numpy array (N, 10) int16
    import numpy as np

    ranks = keys.shape[1]
    count = keys.shape[0]
    states = {(0, 0, 0, 0): np.zeros(count, dtype=np.int16)}
    for rank in range(ranks):
        column = keys[:, rank].astype(np.int16)
        shortfall = {d: np.maximum(d - column, 0).astype(np.int16) for d in range(20)}
        chow_ok = chows and rank <= ranks - 3
        nxt: dict = {}
        for (sets, pair, older, newer), cost in states.items():
            for new_chows in range(MAX_SETS - sets + 1 if chow_ok else 1):
                for pungs in range(MAX_SETS - sets - new_chows + 1):
                    for pairs in range(2 - pair):
                        demand = older + newer + new_chows + 3 * pungs + 2 * pairs
                        total = cost + shortfall[demand]
                        state = (sets + new_chows + pungs, pair + pairs, newer, new_chows)
                        if state in nxt:
                            np.minimum(nxt[state], total, out=nxt[state])
                        else:
                            nxt[state] = total
        states = nxt
    needs = np.full((count, 2 * (MAX_SETS + 1)), INFEASIBLE, dtype=np.int16)
    for (sets, pair, older, newer), cost in states.items():
        if older == 0 and newer == 0:
            column = 2 * sets + pair
            needs[:, column] = np.minimum(needs[:, column], cost)
    return needs


def _jokers_vectorised(needs, tiles):  # -> (j0, j2) numpy arrays
    import numpy as np

    result = []
    for pair in (0, 1):
        best = np.full(tiles.shape[0], INFEASIBLE, dtype=np.int16)
        for sets in range(MAX_SETS + 1):
            size = 3 * sets + 2 * pair
            if size > MAX_TILES:
                continue
            ok = (size >= tiles) & (needs[:, 2 * sets + pair] == size - tiles)
            best = np.where(ok, np.minimum(best, size - tiles), best)
        result.append(best)
    return result[0], result[1]


def build_group(ranks: int, chows: bool):  # -> (keys uint8 (N, ranks), entries int16 (N, 44))
    import numpy as np

    extended = _enumerate_keys(ranks, 5)
    ext_tiles = extended.sum(axis=1).astype(np.int16)
    ext_needs = _needs_vectorised(extended, chows)
    ext_j0, ext_j2 = _jokers_vectorised(ext_needs, ext_tiles)
    weights = 6 ** np.arange(ranks - 1, -1, -1, dtype=np.int64)
    ext_codes = extended.astype(np.int64) @ weights  # sorted, since keys are lexsorted

    legal = (extended <= 4).all(axis=1)
    keys = extended[legal]
    codes = ext_codes[legal]
    count = keys.shape[0]
    entries = np.zeros((count, ENTRY_LEN), dtype=np.int16)
    entries[:, 0] = ext_j0[legal]
    entries[:, 1] = ext_j2[legal] - ext_j0[legal]
    entries[:, NEED_BASE : NEED_BASE + 10] = ext_needs[legal]
    tiles = ext_tiles[legal]
    for rank in range(ranks):
        target = codes + weights[rank]
        position = np.searchsorted(ext_codes, target)
        position = np.minimum(position, ext_codes.shape[0] - 1)
        found = (ext_codes[position] == target) & (tiles < MAX_TILES)
        n0 = np.where(found, ext_j0[position], INFEASIBLE)
        n2 = np.where(found, ext_j2[position], INFEASIBLE)
        for budget in range(MASK_SLOTS):
            entries[:, MASK0_BASE + budget] |= np.where(n0 <= budget, 1 << rank, 0).astype(np.int16)
            entries[:, MASK2_BASE + budget] |= np.where(n2 <= budget, 1 << rank, 0).astype(np.int16)
    return keys, entries


def build_file(path: Path = TABLE_PATH) -> None:
    """Build both tables and write the compact shipped file."""
    import numpy as np

    sections = []
    for ranks, chows in ((SUIT_RANKS, True), (HONOR_RANKS, False)):
        keys, entries = build_group(ranks, chows)
        finite = entries[:, 0][entries[:, 0] < INFEASIBLE]
        assert finite.max() < MASK_SLOTS, "joker counts must fit the mask slots"
        palette, index = np.unique(entries, axis=0, return_inverse=True)
        assert palette.shape[0] < 1 << 16, "palette indices are stored as uint16"
        index = index.reshape(-1).astype("<u2")
        sections.append((ranks, keys, palette.astype("<i2"), index))
    payload = bytearray()
    for ranks, keys, palette, index in sections:
        payload += struct.pack("<IIII", ranks, keys.shape[0], palette.shape[0], ENTRY_LEN)
        payload += keys.tobytes()
        payload += palette.tobytes()
        payload += index.tobytes()
    path.write_bytes(_MAGIC + zlib.compress(bytes(payload), 9))


# --- loader ---------------------------------------------------------------------------------


def load_tables(
    path: Path = TABLE_PATH,
) -> tuple[dict[bytes, tuple[int, ...]], dict[bytes, tuple[int, ...]]]:
    """(suit table, honor table): dicts from group counts as ``bytes`` to entries."""
    raw = path.read_bytes()
    if not raw.startswith(_MAGIC):
        raise ValueError(f"{path} is not a shape table file; rebuild it")
    payload = memoryview(zlib.decompress(raw[len(_MAGIC) :]))
    offset = 0
    tables = []
    for _ in range(2):
        ranks, key_count, palette_count, entry_len = struct.unpack_from("<IIII", payload, offset)
        offset += 16
        key_blob = bytes(payload[offset : offset + key_count * ranks])
        offset += key_count * ranks
        palette_values = array("h")
        palette_values.frombytes(payload[offset : offset + palette_count * entry_len * 2])
        offset += palette_count * entry_len * 2
        index = array("H")
        index.frombytes(payload[offset : offset + key_count * 2])
        offset += key_count * 2
        if sys.byteorder == "big":
            palette_values.byteswap()
            index.byteswap()
        palette = [
            tuple(palette_values[start : start + entry_len])
            for start in range(0, len(palette_values), entry_len)
        ]
        keys = [key_blob[start : start + ranks] for start in range(0, len(key_blob), ranks)]
        tables.append(dict(zip(keys, map(palette.__getitem__, index), strict=True)))
    return tables[0], tables[1]


if __name__ == "__main__":
    build_file()
    print(f"wrote {TABLE_PATH} ({TABLE_PATH.stat().st_size} bytes)")
