"""Persistence: SQLite through aiosqlite (imports only the stdlib and aiosqlite)."""

from __future__ import annotations

from .errors import StoreConflict, StoreError
from .migrations import MIGRATIONS, SCHEMA_VERSION, Migration
from .models import (
    ACTIVE_STATUSES,
    ACTORS,
    END_STATUSES,
    STATUSES,
    ActionRow,
    Actor,
    DealRow,
    HandTokenRow,
    MatchBundle,
    MatchResultRow,
    MatchRow,
    PlayerResult,
    SeatRow,
    Status,
)
from .results import Extra
from .store import DEFAULT_PATH, Store

__all__ = [
    "ACTIVE_STATUSES",
    "ACTORS",
    "DEFAULT_PATH",
    "END_STATUSES",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "STATUSES",
    "ActionRow",
    "Actor",
    "DealRow",
    "Extra",
    "HandTokenRow",
    "MatchBundle",
    "MatchResultRow",
    "MatchRow",
    "Migration",
    "PlayerResult",
    "SeatRow",
    "Status",
    "Store",
    "StoreConflict",
    "StoreError",
]
