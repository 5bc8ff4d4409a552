"""The life of a table: lobby, seats, start, turn flow, computer players, timers, the end."""

from .model import (
    ABANDONED,
    CANCELLED,
    FINISHED,
    LOBBY,
    PLAYING,
    Person,
    SeatInfo,
    StaleAction,
    Table,
    TableError,
    TableSettings,
)
from .service import TableObserver, TableService

__all__ = [
    "ABANDONED", "CANCELLED", "FINISHED", "LOBBY", "PLAYING", "Person", "SeatInfo",
    "StaleAction", "Table", "TableError", "TableObserver", "TableService", "TableSettings",
]
