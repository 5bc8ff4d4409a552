"""How a learned model is loaded by the players: once per process, and where its file is
missing, damaged or made for other code, one log line and no model (the robots then work
without it)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def logged(log: logging.Logger, what: str, instead: str, make: Callable[[Path], T],
           path: Path) -> T | None:
    """`make(path)`, or None with one error line ("`what` off: ... ; `instead`")."""
    try:
        return make(path)
    except Exception as error:  # a missing, truncated or foreign file: work without it
        log.error("%s off: the model %s cannot be used (%s); %s", what, path, error, instead)
        return None


def once(cache: dict[Path, T | None], path: Path, load: Callable[[Path], T | None]
         ) -> T | None:
    """The model at `path` loaded at most once per process (a None is kept too: said once)."""
    if path not in cache:
        cache[path] = load(path)
    return cache[path]
