"""``mahjong-bot run``: the token (environment or .env, never logged), clean shutdown."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.commands import run as run_command

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.very-secret-token-value"


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """``setup_logging`` configures the root logger; give the other tests theirs back."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def args(tmp_path: Path, **overrides: Any) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    run_command.add_arguments(parser)
    namespace = parser.parse_args(
        ["--env-file", str(tmp_path / ".env"), "--db", str(tmp_path / "m.db")]
    )
    for key, value in overrides.items():
        setattr(namespace, key, value)
    return namespace


def test_env_file_parsing(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# comment\n\nexport DISCORD_TOKEN='abc def'\nMAHJONG_DB=\"x.db\"\nBROKEN LINE\n",
        encoding="utf-8",
    )
    assert run_command.read_env_file(env) == {"DISCORD_TOKEN": "abc def", "MAHJONG_DB": "x.db"}
    assert run_command.read_env_file(tmp_path / "missing") == {}


def test_token_from_environment_wins_over_env_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\n", encoding="utf-8")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert run_command.find_token(str(tmp_path / ".env")) == "from-file"
    monkeypatch.setenv("DISCORD_TOKEN", "  from-env  ")
    assert run_command.find_token(str(tmp_path / ".env")) == "from-env"


def test_the_env_file_gives_the_mahjong_settings_and_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An admin puts the backup settings beside the token in .env: before, only the token
    was read from it, and the bot ran without backups, silently."""
    for key in ("DISCORD_TOKEN", "MAHJONG_BACKUP_DIR", "MAHJONG_BACKUP_HOURS", "OTHER"):
        monkeypatch.setenv(key, "set by the test")  # so the test's end restores each
        monkeypatch.delenv(key)
    (tmp_path / ".env").write_text(
        f"MAHJONG_BACKUP_DIR={tmp_path / 'no such dir'}\nMAHJONG_BACKUP_HOURS=6\nOTHER=1\n",
        encoding="utf-8",
    )
    assert run_command.run(args(tmp_path)) == 2
    assert "no such dir" in capsys.readouterr().err  # the file's backup directory was read
    assert os.environ["MAHJONG_BACKUP_HOURS"] == "6"
    assert "OTHER" not in os.environ  # only the bot's own settings are taken
    monkeypatch.setenv("MAHJONG_BACKUP_DIR", str(tmp_path))  # the environment wins
    assert run_command.run(args(tmp_path)) == 2
    err = capsys.readouterr().err
    assert "no such dir" not in err and "DISCORD_TOKEN is not set" in err


def test_a_log_level_logging_does_not_know_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = argparse.ArgumentParser()
    run_command.add_arguments(parser)
    with pytest.raises(SystemExit):
        parser.parse_args(["--log-level", "debug2"])
    assert "invalid choice: 'DEBUG2'" in capsys.readouterr().err
    assert parser.parse_args(["--log-level", "debug"]).log_level == "DEBUG"


def test_missing_token_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert run_command.run(args(tmp_path)) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err and "Traceback" not in err


def test_token_is_redacted_from_every_log_line(capsys: pytest.CaptureFixture[str]) -> None:
    run_command.setup_logging("DEBUG", TOKEN)
    logger = logging.getLogger("discord.http")
    logger.debug("login with %s", TOKEN)
    logger.info(f"Authorization: Bot {TOKEN}")
    try:
        raise RuntimeError(f"bad token {TOKEN}")
    except RuntimeError:
        logger.exception("failed")
    err = capsys.readouterr().err
    assert TOKEN not in err
    assert err.count("[token]") >= 3


def test_sigterm_shuts_down_cleanly_and_keeps_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bot "runs" (a stand-in for the gateway), SIGTERM arrives, everything closes."""
    from bot.app import MahjongBot

    started: list[str] = []
    closed: list[bool] = []

    async def fake_start(self: MahjongBot, token: str, *, reconnect: bool = True) -> None:
        started.append(token)
        asyncio.get_running_loop().call_later(0.05, os.kill, os.getpid(), signal.SIGTERM)
        await asyncio.Event().wait()

    real_shutdown = MahjongBot.shutdown

    async def tracked_shutdown(self: MahjongBot) -> None:
        closed.append(True)
        await real_shutdown(self)

    import bot.session

    tuned: list[bool] = []  # the real tuning is process-wide; record the call instead
    monkeypatch.setattr(bot.session, "tune_runtime", lambda: tuned.append(True), raising=False)
    monkeypatch.setattr(MahjongBot, "start", fake_start)
    monkeypatch.setattr(MahjongBot, "shutdown", tracked_shutdown)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    code = run_command.run(args(tmp_path, log_level="DEBUG"))
    assert code == 0
    assert started == [TOKEN] and closed
    assert (tmp_path / "m.db").exists()
    err = capsys.readouterr().err
    assert "shutting down" in err and TOKEN not in err


def test_invite_url_asks_for_the_documented_permissions() -> None:
    import discord

    from bot.app import INVITE_PERMISSIONS, invite_url

    permissions = discord.Permissions(INVITE_PERMISSIONS)
    assert permissions == discord.Permissions(
        view_channel=True, send_messages=True, attach_files=True, read_message_history=True,
        create_public_threads=True, send_messages_in_threads=True, manage_threads=True,
    )  # fmt: skip
    url = invite_url(42)
    assert "client_id=42" in url and "scope=bot+applications.commands" in url
    assert f"permissions={INVITE_PERMISSIONS}" in url
    docs = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    assert f"permissions={INVITE_PERMISSIONS}" in docs
