"""The life of a table: lobby, seats, start, turn flow, computer players, timers, the end."""

from .clock import Clock
from .model import (
    ABANDONED,
    CANCELLED,
    FINISHED,
    LOBBY,
    PLAYING,
    SLOW,
    TABLE_OPTIONS,
    Person,
    SeatInfo,
    StaleAction,
    Table,
    TableError,
    TableSettings,
)
from .service import TableObserver, TableService
from .turns import TurnNotifier

__all__ = [
    "ABANDONED",
    "CANCELLED",
    "FINISHED",
    "LOBBY",
    "PLAYING",
    "SLOW",
    "TABLE_OPTIONS",
    "Clock",
    "Person",
    "SeatInfo",
    "StaleAction",
    "Table",
    "TableError",
    "TableObserver",
    "TableService",
    "TableSettings",
    "TurnNotifier",
]
