"""The aiohttp application playing Discord on 127.0.0.1: REST under /api/v10 and the gateway.

Route handlers live in routes_*.py; this module owns the server's lifecycle, the request
bookkeeping the driver waits on, injected failures, violations and the shared helpers.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import limits, payloads
from .bodies import Upload
from .gateway import Gateway
from .ratelimits import RateLimits
from .state import Audience, DoubleState, RecordedPayload, Violation

log = logging.getLogger("discord_double")
API_PREFIX = "/api/v10"


def reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer. Content-Type must be exactly application/json for discord.py."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def no_content() -> web.Response:
    return web.Response(status=204)


def error(status: int, code: int, message: str) -> web.Response:
    return reply(payloads.error(code, message), status)


@dataclass
class InjectedFailure:
    method: str
    path: re.Pattern[str]
    status: int
    retry_after: float
    via: bool
    is_global: bool


@dataclass(frozen=True)
class RequestRecord:
    method: str
    path: str
    status: int
    at: float


class DiscordDouble:
    """One fake Discord. `await start()`, point discord.py at `api_base`/`gateway_url`."""

    def __init__(self) -> None:
        self.state = DoubleState()
        self.gateway = Gateway(self)
        self.port = 0
        self.in_flight = 0
        self.last_activity = time.monotonic()
        self.requests: list[RequestRecord] = []
        self.failures: list[InjectedFailure] = []
        self.rate_limits = RateLimits()  # off until a test enables them
        self.dispatch_message_events = True
        self.shard_count = 1  # what GET /gateway/bot recommends
        # Called with each payload as it is recorded (a benchmark wakes its people on it).
        self.listeners: list[Callable[[RecordedPayload], None]] = []
        self._runner: web.AppRunner | None = None

    # lifecycle

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self) -> None:
        from . import emojis, routes_channels, routes_interactions, routes_misc

        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024**2)
        app.router.add_get("/", self.gateway.handle)
        for module in (routes_misc, routes_channels, routes_interactions, emojis):
            for method, path, handler in module.ROUTES:
                app.router.add_route(method, API_PREFIX + path, _bind(self, handler))
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        # A deep accept queue: under a burst of new client connections a short one drops
        # SYNs, and each dropped one costs the bot a second (real Discord does not).
        await web.SockSite(self._runner, sock, backlog=1024).start()

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    # bookkeeping

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == "/":
            gateway: web.StreamResponse = await handler(request)
            return gateway  # the gateway keeps its own activity clock
        self.in_flight += 1
        self.touch()
        path = request.path.removeprefix(API_PREFIX)
        try:
            response = self._injected(request.method, path)
            limited = self.rate_limits.take(request.method, path) if response is None else None
            if limited is not None and limited.retry_after is not None:
                self.violation("rate-limit", f"over the bucket's limit (retry after "
                               f"{limited.retry_after:.3f} s)", request)
                response = reply({"message": "You are being rate limited.",
                                  "retry_after": limited.retry_after, "global": False,
                                  "code": 0}, 429, limited.headers)
            if response is None:
                try:
                    response = await handler(request)
                except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
                    self.violation("unknown-route", f"the double has no route {request.method} "
                                   f"{path}: add it if Discord has it", request)
                    response = error(404, 0, "404: Not Found")
                except ConnectionResetError:
                    # The client went away mid-request (a killed bot process): like Discord,
                    # nothing is created and there is no one to answer.
                    log.info("Discord double: the client left during %s %s", request.method,
                             path)
                    response = error(400, 0, "the client closed the connection")
                except Exception as exc:
                    # A 500 would make discord.py retry for seconds: fail fast and loudly.
                    log.exception("Discord double crashed on %s %s", request.method, path)
                    self.violation("double-crashed", f"{type(exc).__name__}: {exc}", request)
                    response = error(400, 0, f"the double crashed: {exc!r}")
                if limited is not None:
                    response.headers.update(limited.headers)
            self.requests.append(RequestRecord(request.method, path, response.status,
                                               self.state.clock.now()))
            return response
        finally:
            self.in_flight -= 1
            self.touch()

    def _injected(self, method: str, path: str) -> web.Response | None:
        for rule in self.failures:
            if rule.method == method.upper() and rule.path.search(path):
                self.failures.remove(rule)
                if rule.status != 429:
                    return error(rule.status, 0, f"injected failure {rule.status}")
                body = {"message": "You are being rate limited.", "retry_after": rule.retry_after,
                        "global": rule.is_global, "code": 0}
                headers = {"Retry-After": str(rule.retry_after),
                           "X-RateLimit-Scope": "global" if rule.is_global else "user"}
                if rule.is_global:
                    headers["X-RateLimit-Global"] = "true"
                if rule.via:
                    headers["Via"] = "1.1 google"
                return reply(body, 429, headers)
        return None

    def violation(self, rule: str, detail: str, request: web.Request | None = None) -> None:
        where = f"{request.method} {request.path.removeprefix(API_PREFIX)}" if request else "-"
        found = Violation(rule, detail, where)
        self.state.violations.append(found)
        log.error("Discord double: rule broken: %s", found)

    def record(self, request: web.Request, kind: str, audience: Audience | None,
               body: dict[str, Any], uploads: list[Upload], status: int) -> None:
        payload = RecordedPayload(
            request.method, request.path.removeprefix(API_PREFIX), kind, audience, body,
            tuple((u.filename, u.data) for u in uploads), status, self.state.clock.now())
        self.state.payloads.append(payload)
        for listener in self.listeners:
            listener(payload)

    def invalid_body(self, request: web.Request, body: dict[str, Any]) -> web.Response | None:
        """Discord's 50035 for a message body that breaks a limit (and a violation)."""
        from .emojis import unknown_in_components, unknown_in_text

        for problem in unknown_in_text(self.state, body):
            self.violation("emoji", problem, request)
        refused = unknown_in_components(self.state, body)
        for problem in refused:
            self.violation("emoji", problem, request)
        problems = limits.check_message(body)
        for problem in problems:
            self.violation("limit", problem, request)
        if not problems and not refused:
            return None
        return error(400, 50035, "Invalid Form Body: " + "; ".join(problems + refused))


def _bind(double: DiscordDouble, handler: Any) -> Any:
    async def bound(request: web.Request) -> web.StreamResponse:
        response: web.StreamResponse = await handler(double, request)
        return response
    return bound
