"""A PostgreSQL server for the tests: the one ``MAHJONG_TEST_PG`` names, or a throwaway
cluster started from the installed binaries.

Why not skip when there is none: the storage contract must hold on both backends, and a
run that quietly skipped PostgreSQL would pass without having checked it. So the
fixtures fail, with a message that says how to provide a server.

Each test gets its own schema (``schema=`` of ``data.open_store``), dropped afterwards, so
tests never see each other's rows and a shared server stays clean.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ENV_VAR = "MAHJONG_TEST_PG"

NO_SERVER = (
    "PostgreSQL is needed for the storage contract tests and none is available: set "
    f"{ENV_VAR}=postgresql://user@host:port/db (a database the tests may create schemas in), "
    "or install PostgreSQL so that initdb and pg_ctl are found (on PATH or under "
    "/usr/lib/postgresql/*/bin; Debian: apt-get install postgresql). .ci/run does this."
)


class NoServerError(RuntimeError):
    pass


def find_binaries() -> Path | None:
    """The directory holding initdb and pg_ctl, if PostgreSQL is installed."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(Path(candidate) / "initdb", os.X_OK):
            return Path(candidate)
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    """A throwaway cluster: data directory, port, and how to run its tools."""

    directory: Path
    port: int
    binaries: Path
    as_user: list[str] = field(default_factory=list)

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def run(self, *command: str) -> None:
        subprocess.run(
            [*self.as_user, *command], check=True, capture_output=True, text=True, timeout=120
        )

    def stop(self) -> None:
        try:
            self.run(str(self.binaries / "pg_ctl"), "-D", str(self.directory / "data"),
                     "-m", "immediate", "stop")  # fmt: skip
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def start_cluster() -> Cluster:
    """initdb and start a cluster on a free port, as the postgres user when we are root."""
    binaries = find_binaries()
    if binaries is None:
        raise NoServerError(NO_SERVER)
    directory = Path(tempfile.mkdtemp(prefix="mahjong-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb and postgres refuse to run as root
        try:
            account = pwd.getpwnam("postgres")
        except KeyError as error:
            raise NoServerError(
                NO_SERVER + " (running as root needs a 'postgres' user to own the cluster)"
            ) from error
        os.chown(directory, account.pw_uid, account.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    cluster = Cluster(directory, _free_port(), binaries, as_user)
    try:
        cluster.run(str(binaries / "initdb"), "-D", str(directory / "data"), "-A", "trust",
                    "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")  # fmt: skip
        options = (
            f"-p {cluster.port} -k {directory} -c listen_addresses=127.0.0.1"
            " -c fsync=off -c max_connections=200"
        )
        cluster.run(str(binaries / "pg_ctl"), "-D", str(directory / "data"), "-o", options,
                    "-l", str(directory / "log"), "-w", "-t", "60", "start")  # fmt: skip
    except subprocess.CalledProcessError as error:
        log = directory / "log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        shutil.rmtree(directory, ignore_errors=True)
        raise NoServerError(
            f"could not start a throwaway PostgreSQL cluster: {error.stderr or error}\n{tail}"
        ) from error
    return cluster


def server_dsn() -> tuple[str, Cluster | None]:
    """``MAHJONG_TEST_PG`` if set, else a fresh cluster (returned so it can be stopped)."""
    dsn = os.environ.get(ENV_VAR, "").strip()
    if dsn:
        return dsn, None
    cluster = start_cluster()
    return cluster.dsn, cluster


def fresh_schema_name() -> str:
    return f"test_{uuid.uuid4().hex[:16]}"


async def drop_schema(dsn: str, schema: str) -> None:
    import asyncpg

    for attempt in range(3):
        try:
            connection = await asyncpg.connect(dsn)
            try:
                await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            finally:
                await connection.close()
            return
        except Exception:
            if attempt == 2:
                raise
            time.sleep(0.2)
