"""Learned call values: what each honest candidate call is worth against the tables' call.

A model (a LightGBM regressor in its text format) and its card (a JSON file beside it:
the feature names, the margin, the command, seeds, data size and figures that made it)
ship in `models/`. A worker process loads them once, on its first bidding decision.
`CallValues.better` asks the model for every honest candidate's gain over the tables'
call and makes the best one only where it gains `margin` IMPs or more; otherwise, and
wherever the model is missing, corrupt or made for other features (one log line says
which, once per process), the tables' call stands.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..bidding.system import Decision
from .features import NAMES, Rows, honest_candidates

log = logging.getLogger(__name__)

MODELS = Path(__file__).parent / "models"
DEFAULT = MODELS / "call_values.txt"


class CallValues:
    """A loaded model of candidate calls' gains, and the margin a gain must reach."""

    def __init__(self, booster: Any, margin: float) -> None:
        self.booster = booster
        self.margin = margin

    def gains(self, rows: Sequence[Sequence[float]]) -> list[float]:
        import numpy as np

        if not rows:
            return []
        predicted = self.booster.predict(np.asarray(rows, dtype=np.float64), num_threads=1)
        return [float(v) for v in predicted]

    def better(self, made: Decision, legal: Sequence[str],
               vulnerable: tuple[bool, bool]) -> str:
        """The call to make: the best-valued honest candidate where it beats the tables'
        call by the margin, else the tables' call."""
        candidates = honest_candidates(made, legal)
        if not candidates:
            return made.action
        rows = Rows(made, vulnerable)
        gains = self.gains([rows.row(action) for action in candidates])
        best = max(range(len(candidates)), key=lambda i: (gains[i], -i))
        return candidates[best] if gains[best] >= self.margin else made.action


def card_path(model: Path) -> Path:
    return model.with_suffix(".json")


def load(model: Path) -> CallValues | None:
    """The model at `model` with its card, or None (logged) where it cannot be used."""
    try:
        import lightgbm
    except (ImportError, OSError) as error:  # OSError: its OpenMP library is missing
        log.error("learned bidding off: lightgbm cannot be loaded (%s); bidding by the "
                  "tables", error)
        return None
    try:
        card = json.loads(card_path(model).read_text())
        if tuple(card["features"]) != NAMES:
            raise ValueError("it was made for other features than this code computes")
        booster = lightgbm.Booster(model_file=str(model))
        if booster.num_feature() != len(NAMES):
            raise ValueError(f"it reads {booster.num_feature()} features, not {len(NAMES)}")
        return CallValues(booster, float(card["margin"]))
    except Exception as error:  # a missing, truncated or foreign file: bid by the tables
        log.error("learned bidding off: the model %s cannot be used (%s); bidding by the "
                  "tables", model, error)
        return None


_loaded: dict[Path, CallValues | None] = {}


def shared(model: Path = DEFAULT) -> CallValues | None:
    """The model loaded once per process (None: bid by the tables; said once)."""
    if model not in _loaded:
        _loaded[model] = load(model)
    return _loaded[model]
