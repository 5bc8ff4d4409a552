"""Persistence: SQLite (aiosqlite) or PostgreSQL (asyncpg) behind one Store; the only
place with SQL or a database driver."""

from __future__ import annotations

from .announcements import OwedPost
from .errors import StoreConflict, StoreError
from .leases import ShardTaken
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
    Shards,
    Status,
)
from .pings import PingRow
from .privacy import FORMER_PLAYER, Forgotten, StillPlaying
from .ratings import MatchToRate, Rater, RatingChange, RatingUpdate
from .servers import ServerSettingsRow
from .store import DEFAULT_PATH, Store

__all__ = [
    "ACTIVE_STATUSES",
    "ACTORS",
    "DEFAULT_PATH",
    "END_STATUSES",
    "FORMER_PLAYER",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "STATUSES",
    "ActionRow",
    "Actor",
    "DealRow",
    "Forgotten",
    "HandTokenRow",
    "MatchBundle",
    "MatchResultRow",
    "MatchRow",
    "MatchToRate",
    "Migration",
    "OwedPost",
    "PingRow",
    "PlayerResult",
    "Rater",
    "RatingChange",
    "RatingUpdate",
    "SeatRow",
    "ServerSettingsRow",
    "ShardTaken",
    "Shards",
    "Status",
    "StillPlaying",
    "Store",
    "StoreConflict",
    "StoreError",
]
