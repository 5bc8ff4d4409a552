"""A throwaway PostgreSQL for the benchmarks: the `pgserver` package's server (it ships
PostgreSQL in its wheel, installed with the test extra), one fresh data folder per run."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any


def start_postgres(directory: Path) -> tuple[str, Any]:
    """A fresh server whose data lives in `directory`: its URL and the server (call
    .cleanup() to stop it)."""
    import pgserver  # type: ignore[import-not-found]

    server = pgserver.get_server(directory, cleanup_mode="stop")
    return server.get_uri(), server


def postgres_cpu(directory: Path) -> float:
    """CPU seconds used so far by the server whose data folder is `directory` (its
    postmaster and every backend and helper under it). Only the postmaster is looked for
    by its folder: the bot processes name the folder too (their database URL holds its
    socket's path), and their CPU is not PostgreSQL's."""
    import psutil

    total = 0.0
    for process in psutil.process_iter(["name", "cmdline"]):
        cmdline = process.info["cmdline"] or ()
        if (process.info["name"] == "postgres" and "-D" in cmdline
                and str(directory) in cmdline):
            with contextlib.suppress(psutil.Error):
                for member in (process, *process.children(recursive=True)):
                    times = member.cpu_times()
                    total += times.user + times.system
    return total
