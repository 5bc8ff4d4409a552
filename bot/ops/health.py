"""`tricktable health`, the image's HEALTHCHECK: ask the running bot's /health.

METRICS_PORT is read as the bot reads it (the environment, then the `.env` of the folder
it runs in), so the check follows the setting wherever it was changed. Exit 0 when /health
answers 200. Without METRICS_PORT the bot serves no endpoint and there is nothing to ask:
exit 0 too, so a bot run without metrics is not marked unhealthy (its container's health
then says only that it runs).

Only the standard library: Docker runs this every 30 seconds.
"""

from __future__ import annotations

import urllib.error
import urllib.request

HEALTH_PATH = "/health"
ASK_WITHIN = 4.0  # seconds; the image's HEALTHCHECK gives the command 5


def ask(port: int | None, timeout: float = ASK_WITHIN) -> tuple[int, str]:
    """(exit code, one line saying what was asked and what came back)."""
    if port is None:
        return 0, "METRICS_PORT is not set: the bot serves no health endpoint to ask."
    url = f"http://127.0.0.1:{port}{HEALTH_PATH}"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            body = response.read().decode(errors="replace")
            return (0 if response.status == 200 else 1), f"{url}: {response.status} {body}"
    except urllib.error.HTTPError as error:  # 503: the gateway or the database is down
        return 1, f"{url}: {error.code} {error.read().decode(errors='replace')}"
    except OSError as error:
        return 1, f"{url}: no answer ({error})"
