"""The health endpoint and the metrics, on METRICS_PORT (off when unset), served by
aiohttp (discord.py's own HTTP library) on the bot's event loop.

    GET /health   200 {"gateway": true, "database": true} when both answer, else 503
    GET /metrics  Prometheus' text format (prometheus_client)

A scrape reads counters and walks the open tables: microseconds, not a click's time.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import REGISTRY

from .health import HEALTH_PATH
from .metrics import Instruments

if TYPE_CHECKING:
    from bot.app import TrickTableBot

log = logging.getLogger(__name__)

DATABASE_ANSWERS_WITHIN = 2.0  # seconds the health check waits for the database


def gateway_connected(bot: TrickTableBot) -> bool:
    """Every gateway session of this process is open and past its READY."""
    if bot.is_closed() or not bot.is_ready():
        return False
    shards = getattr(bot, "shards", None)
    if shards:
        return all(not shard.is_closed() for shard in shards.values())
    ws = bot.ws
    return ws is not None and ws.open


async def database_answers(bot: TrickTableBot) -> bool:
    try:
        await asyncio.wait_for(bot.store.ping(), DATABASE_ANSWERS_WITHIN)
    except Exception:
        log.warning("health check: the database did not answer", exc_info=True)
        return False
    return True


class OpsServer:
    """The HTTP server and the instruments behind it, for one bot."""

    def __init__(self, bot: TrickTableBot, port: int, host: str = "0.0.0.0") -> None:
        self.bot, self.port, self.host = bot, port, host
        self.instruments = Instruments(bot)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get(HEALTH_PATH, self.health)
        app.router.add_get("/metrics", self.metrics)
        self.instruments.install()
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("health and metrics on port %d (%s, /metrics)", self.port, HEALTH_PATH)

    async def health(self, request: web.Request) -> web.Response:
        state = {"gateway": gateway_connected(self.bot),
                 "database": await database_answers(self.bot)}
        return web.Response(text=json.dumps(state), content_type="application/json",
                            status=200 if all(state.values()) else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(REGISTRY),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def stop(self) -> None:
        self.instruments.remove()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
