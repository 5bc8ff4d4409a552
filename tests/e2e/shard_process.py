"""One bot process, for the end-to-end tests that run the bot apart from the test (shards,
chaos): the real bot (settings from a JSON argument) against the Discord double of the
test process.

    python -m tests.e2e.shard_process '{"api_base": ..., "gateway": ..., "db": URL or path,
                                        "shard": [id, count], "lease_seconds": 2,
                                        "settings": {"think_seconds": 0.05, ...}}'

`db` is a PostgreSQL URL or a SQLite file; `shard` (optional) runs one shard of a sharded
bot; `settings` (optional) sets other `Settings` fields.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any


async def serve(config: dict[str, object]) -> None:
    import discord
    import yarl

    from bot.app import make_bot
    from bot.config import Settings
    from bot.ops.stopping import stop_on_signals
    from tests.e2e.harness import TOKEN

    discord.http.Route.BASE = str(config["api_base"])
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(str(config["gateway"]))
    db = str(config["db"])
    fields: dict[str, Any] = {"database_url": db} if db.startswith("postgres") else {
        "database_path": db}
    if config.get("shard"):
        shard_id, count = config["shard"]  # type: ignore[misc]
        fields.update(shard_count=int(count), shard_ids=(int(shard_id),))
    fields.update(config.get("settings") or {})  # type: ignore[call-overload]
    settings = Settings(token=TOKEN, bot_delay_seconds=0, edit_interval=0.02,
                        lease_seconds=float(config.get("lease_seconds", 30)),  # type: ignore[arg-type]
                        think_processes=0,  # threads: no worker processes to start
                        **fields)
    # As in production (bot/__main__.py): this process is the bot's alone.
    bot = make_bot(settings, guild_ready_timeout=0.1, freeze_at_start=True)
    stop = stop_on_signals(bot.close)  # as in production
    await bot.start(TOKEN)
    await stop.stopped()


def main() -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.__main__ import startup_failure
    from bot.runtime import run

    try:
        run(serve(json.loads(sys.argv[1])))
    except Exception as error:
        line = startup_failure(error)
        if line is None:
            raise
        print(f"tricktable: {line}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
