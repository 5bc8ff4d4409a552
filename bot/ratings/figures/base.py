"""What every game's figure counter shares: counts per seat, fed a replayed match's events."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from bot.games import Event

Figures = dict[int, dict[str, int]]  # seat -> figure -> count


class FigureCounter(ABC):
    """Counts one game's figures per seat from the events of a replayed match."""

    NAMES: ClassVar[tuple[str, ...]]  # the figures it counts (whole numbers)

    def __init__(self) -> None:
        self.figures: Figures = {}

    def add(self, seat: int, name: str, amount: int = 1) -> None:
        counts = self.figures.setdefault(seat, {})
        counts[name] = counts.get(name, 0) + amount

    def take(self, events: Sequence[Event]) -> None:
        for event in events:
            self.on(event)

    @abstractmethod
    def on(self, event: Event) -> None:
        """Count what one event shows."""
