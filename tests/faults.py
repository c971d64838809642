"""Fault helpers shared by the fault tests: a small real disk that can be filled, and a
second SQLite connection that holds the write lock.

A full disk is the real thing where the machine allows it: an 8 MB tmpfs mounted for the
test (CI runs as root, like this machine). Where mounting is refused the helpers say so
(``SmallDisk.real`` is False) and the tests inject the same SQLite error instead, so they
still run and still check the same outcome.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path


class SmallDisk:
    """A directory on a tiny file system (or, failing that, a plain one plus injection)."""

    def __init__(self, path: Path, real: bool) -> None:
        self.path = path
        self.real = real
        self._filler = path / "filler.bin"

    def fill(self) -> int:
        """Take every free byte; returns how many were left before."""
        if not self.real:
            return 0
        written = 0
        with open(self._filler, "ab", buffering=0) as handle:
            for chunk in (1 << 20, 1 << 16, 1 << 12, 1 << 9, 1):
                block = b"\0" * chunk
                while True:
                    try:
                        handle.write(block)
                    except OSError as error:
                        if error.errno != errno.ENOSPC:
                            raise
                        break
                    written += chunk
        return written

    def empty(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.remove(self._filler)

    @property
    def full(self) -> bool:
        return self._filler.exists()


@contextlib.contextmanager
def small_disk(tmp_path: Path, size: str = "8m") -> Iterator[SmallDisk]:
    """An 8 MB tmpfs at ``tmp_path/disk`` if ``mount`` is permitted, else a plain dir."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    try:
        mounted = (
            subprocess.run(
                ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)],
                capture_output=True,
                timeout=20,
            ).returncode
            == 0
        )
    except (OSError, subprocess.SubprocessError):
        mounted = False
    try:
        yield SmallDisk(mount_point, mounted)
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(mount_point)], capture_output=True, timeout=20)


def disk_full_error() -> sqlite3.OperationalError:
    """What SQLite raises on a full disk (used where no real small disk is available)."""
    return sqlite3.OperationalError("database or disk is full")


@contextlib.contextmanager
def write_lock(path: Path) -> Iterator[sqlite3.Connection]:
    """Another connection (as another process would) holding the database's write lock."""
    connection = sqlite3.connect(path, isolation_level=None, timeout=30)
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    finally:
        connection.execute("ROLLBACK")
        connection.close()
