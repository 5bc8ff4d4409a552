"""How a learned model is loaded by the players: once per process, and where its file is
missing, damaged or made for other code, one log line and no model (the robots then work
without it)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")

MODELS = Path(__file__).parent / "models"  # the shipped models and their cards


def card_path(model: Path) -> Path:
    """A model's card: the JSON file beside it."""
    return model.with_suffix(".json")


@dataclass(eq=False)
class Shelf(Generic[T]):
    """One kind of learned model as the players load it. `make` reads a model file,
    raising where it cannot be used; `load` turns that into one error line ("`what` off:
    ...; `instead`") and None; `shared` keeps each file's model, or its None, for the
    process, so a file is read and a failure said once."""

    log: logging.Logger
    what: str
    instead: str
    make: Callable[[Path], T]
    default: Path
    loaded: dict[Path, T | None] = field(default_factory=dict)

    def load(self, path: Path) -> T | None:
        """The model at `path` with its card, or None (logged) where it cannot be used."""
        try:
            return self.make(path)
        except Exception as error:  # a missing, truncated or foreign file: work without it
            self.log.error("%s off: the model %s cannot be used (%s); %s", self.what, path,
                           error, self.instead)
            return None

    def shared(self, path: Path | None = None) -> T | None:
        """The model at `path` (default: the shipped one) loaded at most once per process."""
        path = self.default if path is None else path
        if path not in self.loaded:
            self.loaded[path] = self.load(path)
        return self.loaded[path]
