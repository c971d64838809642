"""One bot process of one shard, as a separate OS process, driven line by line by a test.

``tests/test_shard_processes.py`` starts this file with ``sys.executable`` (a new Python
interpreter: its own event loop, its own connections to PostgreSQL, nothing shared with
the test process but the database). The process runs a ``ShardedMahjongBot`` behind its
own strict harness (its own fake Discord and fake clock) and answers JSON commands read
from stdin, one per line, with one JSON line on stdout each:

- ``{"op": "command", "user": U, "name": "table create", "options": [...]}``: a slash
  command typed in this shard's guild;
- ``{"op": "advance", "seconds": S}`` / ``{"op": "settle"}``: move the fake clock / let the
  pending work finish; both answer ``{"busy": bool}`` (a routed click still being applied);
- ``{"op": "table", "user": U}``: the user's table (id and status) in this process;
- ``{"op": "latest_dm", "user": U}``: the user's newest DM hand message (id, channel, payload)
  on this process's Discord, which the test copies to the shard-0 process's Discord so the
  user can click it there, where Discord delivers DM interactions;
- ``{"op": "weekly"}``: run the weekly leaderboard check now (the count it posted);
- ``{"op": "see_guild", ...}``: add another guild to the cache (a stale cache may hold it);
- ``{"op": "followups"}``: the requests it made through the tokens of interactions it did
  not receive itself (a refused routed click is answered that way);
- ``{"op": "posts", "channel": C}``: the contents of the messages in a channel;
- ``{"op": "exit"}``: shut down (a harness that saw a refused request fails here).

Answers carry ``"ok": true`` or ``"error"`` with the traceback, so a failure in this
process fails the test with its own message.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for path in (str(ROOT), str(ROOT / "tests")):
    if path not in sys.path:
        sys.path.insert(0, path)

from discord_harness import (  # noqa: E402
    DEFAULT_PERMISSIONS,
    FakeDiscord,
    Harness,
    TagRenderer,
    guild_payload,
)

from bot.app import ShardedMahjongBot, make_bot  # noqa: E402
from bot.routing import PostgresRouter  # noqa: E402
from bot.session import FakeClock  # noqa: E402
from bot.shards import ShardPlan  # noqa: E402
from data import open_store  # noqa: E402


class ShardProcess:
    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.users = {int(user): (name, DEFAULT_PERMISSIONS) for user, name in config["users"]}

    async def start(self) -> None:
        config = self.config
        self.store = await open_store(config["url"])
        self.router = PostgresRouter(config["url"], [config["shard"]], sweep_seconds=0.5)
        self.clock = FakeClock()
        bot = make_bot(
            self.store, shard_plan=ShardPlan(config["shard_count"], (config["shard"],)),
            router=self.router, clock=self.clock, renderer=TagRenderer(), ai_delay=0.0,
            leaderboard_interval=None, seeds=itertools.count(config["seed"]),
            process_name=config["name"],
        )  # fmt: skip
        assert isinstance(bot, ShardedMahjongBot)
        self.bot = bot
        # Snowflakes of its own, so a message copied to another process's Discord never
        # takes the id of one already there.
        remote = FakeDiscord(first_id=config["snowflake_base"])
        self.h = Harness(bot, self.users, self.clock, remote=remote, guild_id=config["guild"],
                         channel_id=config["channel"], other_channel_id=config["board"])  # fmt: skip
        await self.h.start()

    def busy(self) -> bool:
        return bool(self.router._tasks)

    async def run(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "command":
            await self.h.command(request["user"], request["name"], request.get("options", []))
            return {}
        if op == "advance":
            await self.h.advance(float(request["seconds"]))
            return {"busy": self.busy()}
        if op == "settle":
            await self.h.settle()
            return {"busy": self.busy()}
        if op == "table":
            table = self.bot.manager.table_of_user(request["user"])
            if table is None:
                return {"table": None}
            return {"table": {"id": table.table_id, "status": table.status}}
        if op == "latest_dm":
            message = self.h.latest_dm(request["user"])
            if message is None:
                return {"message": None}
            return {"message": {"id": message.id, "channel_id": message.channel_id,
                                "payload": message.payload}}  # fmt: skip
        if op == "weekly":
            return {"posted": await self.bot.post_weekly_leaderboards()}
        if op == "see_guild":
            state: Any = self.bot._connection
            state._add_guild_from_data(
                guild_payload(self.users, request["guild"], request["channel"], request["board"])
            )
            return {}
        if op == "followups":  # through the tokens of interactions another process received
            remote = self.h.remote
            return {"followups": [[r.method, r.path, r.status, r.content] for r in remote.requests
                                  if r.transport == "webhook"
                                  and r.interaction_id not in remote.interactions]}  # fmt: skip
        if op == "posts":
            return {
                "posts": [m.payload["content"] for m in self.h.channel_messages(request["channel"])]
            }
        raise ValueError(f"unknown op {op!r}")

    async def close(self) -> None:
        try:
            await self.h.close()
        finally:
            await self.store.close()


async def main() -> None:
    config = json.loads(sys.argv[1])
    process = ShardProcess(config)
    await process.start()
    reply({"ok": True, "ready": config["name"]})
    while True:
        # Read in a thread: the event loop keeps running meanwhile, so NOTIFYs arrive and
        # routed clicks are applied between the test's commands, as in a live process.
        line = await asyncio.to_thread(sys.stdin.readline)
        if not line:
            break
        request = json.loads(line)
        if request["op"] == "exit":
            try:
                await process.close()
            except BaseException:
                reply({"error": traceback.format_exc()})
            else:
                reply({"ok": True})
            return
        try:
            answer = await process.run(request)
        except BaseException:
            reply({"error": traceback.format_exc()})
        else:
            reply({"ok": True, **answer})
    await process.close()


# The answers go to the stdout the test reads; anything else printed (a library's print,
# a warning) goes to stderr, so it cannot break the line protocol.
ANSWERS = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
sys.stdout = sys.stderr


def reply(answer: dict[str, Any]) -> None:
    ANSWERS.write(json.dumps(answer) + "\n")
    ANSWERS.flush()


if __name__ == "__main__":
    asyncio.run(main())
