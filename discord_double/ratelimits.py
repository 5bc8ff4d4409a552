"""Discord's rate limits on what a bot writes, as the double enforces them (opt-in).

Discord keeps a bucket per channel for message sends, edits and deletes (about 5 per 5
seconds; the figures are not published) and one per interaction token for followups and
edits of an interaction's messages. Every answer on a limited route carries the bucket's
headers (`X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Reset-After`, `-Bucket`); a
request over the limit gets 429 with a JSON `retry_after` and a `Retry-After` header (and
`Via`, as Discord's answers come through its proxy, so discord.py sleeps and retries).
Each 429 is also a violation: a bot that reads the headers, or paces itself, never gets
one. Interaction callbacks are not limited here (Discord keeps them outside the bot's
buckets; one answer per interaction is checked elsewhere).

Windows run on the real monotonic clock, not the test's Discord clock: the bot waits
real seconds.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

CHANNEL_WRITE = re.compile(r"^/channels/(\d+)/messages(?:/\d+)?$")
TOKEN_WRITE = re.compile(r"^/webhooks/\d+/([^/]+)(?:/messages/[^/]+)?$")
WRITES = {"POST", "PATCH", "DELETE"}


@dataclass(frozen=True)
class Limit:
    requests: int
    per: float  # seconds


@dataclass
class Window:
    opened: float
    used: int = 0


@dataclass(frozen=True)
class Verdict:
    """What the double answers a limited request: its headers, and `retry_after` when
    it is over the limit (answered 429, not handled)."""

    headers: dict[str, str]
    retry_after: float | None


@dataclass
class RateLimits:
    channel: Limit | None = None  # per channel: sends, edits, deletes of messages
    token: Limit | None = None  # per interaction token: followups and their edits
    clock: Callable[[], float] = time.monotonic
    windows: dict[tuple[str, str], Window] = field(default_factory=dict)
    counted: int = 0  # requests that went through a limited bucket
    refused: int = 0  # answered 429

    def enable(self, channel: Limit | None = Limit(5, 5.0),
               token: Limit | None = Limit(5, 5.0)) -> None:
        self.channel, self.token = channel, token

    def bucket(self, method: str, path: str) -> tuple[str, str, Limit] | None:
        """The bucket (kind, key, limit) a request falls in, if it is limited."""
        if method not in WRITES:
            return None
        found = CHANNEL_WRITE.match(path)
        if found and self.channel is not None:
            return "channel", found.group(1), self.channel
        found = TOKEN_WRITE.match(path)
        if found and self.token is not None:
            return "token", found.group(1), self.token
        return None

    def take(self, method: str, path: str) -> Verdict | None:
        """Count one request against its bucket; None for a route that is not limited."""
        found = self.bucket(method, path)
        if found is None:
            return None
        kind, key, limit = found
        now = self.clock()
        window = self.windows.get((kind, key))
        if window is None or now >= window.opened + limit.per:
            window = self.windows[(kind, key)] = Window(opened=now)
        # Rounded up to the millisecond, as Discord writes it: a client that waits this
        # long always finds the window closed.
        reset_after = math.ceil((window.opened + limit.per - now) * 1000) / 1000
        over = window.used >= limit.requests
        if not over:
            window.used += 1
            self.counted += 1
        else:
            self.refused += 1
        headers = {
            "X-RateLimit-Limit": str(limit.requests),
            "X-RateLimit-Remaining": str(max(0, limit.requests - window.used)),
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(kind.encode()).hexdigest()[:16],
        }
        if over:
            headers.update({"Retry-After": str(math.ceil(reset_after)),
                            "X-RateLimit-Scope": "user", "Via": "1.1 google"})
        return Verdict(headers, reset_after if over else None)
