"""Which guilds this process owns when the bot runs as several sharded processes.

Discord assigns a guild to shard ``(guild_id >> 22) % shard_count``; a process started
with ``--shard-count N --shards 0,1`` receives the gateway events (and the guild
interactions) of those shards only, so it is the one that owns their tables, restores
them after a restart and posts their weekly boards. DM interactions carry no guild and
always arrive on shard 0: those are routed to the owner (``bot.routing``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ShardPlan", "ShardPlanError", "shard_of"]


class ShardPlanError(ValueError):
    """Bad ``--shard-count``/``--shards``: the message is one line for the command line."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's formula: the shard whose gateway connection carries ``guild_id``."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardPlan:
    """``shard_count`` None means "not sharded": one process, every guild (today's bot)."""

    shard_count: int | None = None
    shard_ids: tuple[int, ...] = ()

    @classmethod
    def parse(cls, shard_count: int | None, shards: str | None) -> ShardPlan:
        """Validate the command-line pair; without ``--shards`` a process runs every shard."""
        if shard_count is None:
            if shards is not None:
                raise ShardPlanError("--shards needs --shard-count (the total number of shards)")
            return cls()
        if shard_count < 1:
            raise ShardPlanError(f"--shard-count must be at least 1 (got {shard_count})")
        if shards is None:
            return cls(shard_count, tuple(range(shard_count)))
        ids: list[int] = []
        for part in shards.split(","):
            text = part.strip()
            if not text.isdigit():
                raise ShardPlanError(
                    f"--shards must be shard numbers separated by commas, e.g. 0,1 (got {shards!r})"
                )
            shard = int(text)
            if shard >= shard_count:
                raise ShardPlanError(
                    f"--shards: shard {shard} does not exist with --shard-count {shard_count} "
                    f"(shards are 0 to {shard_count - 1})"
                )
            if shard in ids:
                raise ShardPlanError(f"--shards: shard {shard} is listed twice")
            ids.append(shard)
        return cls(shard_count, tuple(sorted(ids)))

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def runs_every_shard(self) -> bool:
        """True when this one process is the whole bot (no other process owns a guild)."""
        return self.shard_count is None or len(self.shard_ids) == self.shard_count

    @property
    def syncs_commands(self) -> bool:
        """The process running shard 0 syncs the application commands at start; the
        others would only repeat the same global sync."""
        return self.shard_count is None or 0 in self.shard_ids

    def owns(self, guild_id: int) -> bool:
        if self.shard_count is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def owner_of(self, guild_id: int) -> int:
        """The shard that owns ``guild_id`` (0 when not sharded)."""
        return 0 if self.shard_count is None else shard_of(guild_id, self.shard_count)

    def describe(self) -> str:
        if self.shard_count is None:
            return "not sharded"
        return f"shards {','.join(map(str, self.shard_ids))} of {self.shard_count}"
