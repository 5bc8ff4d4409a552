"""A throwaway PostgreSQL for the benchmarks: the `pgserver` package's server (it ships
PostgreSQL in its wheel, installed with the test extra), one fresh data folder per run."""

from __future__ import annotations

import contextlib
import importlib
from pathlib import Path
from typing import Any


def start_postgres(directory: Path) -> tuple[str, Any]:
    """A fresh server whose data lives in `directory`: its URL and the server (call
    .cleanup() to stop it)."""
    # Untyped, and absent where no wheel fits the interpreter (Python 3.13+).
    pgserver: Any = importlib.import_module("pgserver")
    server = pgserver.get_server(directory, cleanup_mode="stop")
    return server.get_uri(), server


def _server_processes(directory: Path) -> list[Any]:
    """The server's processes (its postmaster and every backend and helper under it).
    Only the postmaster is looked for by its folder: the bot processes name the folder
    too (their database URL holds its socket's path), and they are not the server's."""
    import psutil

    found: list[Any] = []
    for process in psutil.process_iter(["name", "cmdline"]):
        cmdline = process.info["cmdline"] or ()
        if (process.info["name"] == "postgres" and "-D" in cmdline
                and str(directory) in cmdline):
            with contextlib.suppress(psutil.Error):
                found += [process, *process.children(recursive=True)]
    return found


def set_postgres_nice(directory: Path, niceness: int) -> None:
    """Run the server at this niceness (its backends started later inherit it from the
    postmaster). A database server normally has cores of its own; on the benchmark's
    machine it shares them with the bot, the Discord double and its people, and a lower
    niceness lets it have a core first when a statement wakes it."""
    import psutil

    for process in _server_processes(directory):
        with contextlib.suppress(psutil.Error):
            process.nice(niceness)


def postgres_cpu(directory: Path) -> float:
    """CPU seconds used so far by the server whose data folder is `directory`."""
    import psutil

    total = 0.0
    for member in _server_processes(directory):
        with contextlib.suppress(psutil.Error):
            times = member.cpu_times()
            total += times.user + times.system
    return total
