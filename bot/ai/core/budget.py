"""A decision's time budget: how long a computer player may think before it must answer.

Search players (sampling, double-dummy solving, rollouts) size their work from it and fall
back to their rule-based answer when it is spent. The clock is injectable so tests can spend
a budget without waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]
# A plan of work fills this much of the decision's share, leaving the rest for its overhead.
PLANNED_USE = 0.9


@dataclass(slots=True)
class Budget:
    """`seconds` of thinking from the moment it is made, measured on `clock`.

    `thinkers` is how many computer players were thinking at once when it was handed out
    (this one included): with fewer cores than thinkers, each gets a share of the machine,
    and a player that sizes its work by expected cost should divide by it.
    """

    seconds: float
    clock: Clock = time.monotonic
    thinkers: int = 1
    started: float = field(init=False)
    # Set once spent() has said yes: the player stopped its search for what it had, or
    # for its rule-based answer (the metrics count these decisions).
    ran_out: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def elapsed(self) -> float:
        return self.clock() - self.started

    def remaining(self) -> float:
        return max(0.0, self.seconds - self.elapsed())

    def spent(self) -> bool:
        if self.elapsed() >= self.seconds:
            self.ran_out = True
            return True
        return False

    def share(self, cores: int = 2) -> float:
        """The seconds of one core this decision can count on (its part of the machine)."""
        return self.seconds * min(1.0, cores / max(1, self.thinkers))

    def planned_seconds(self, cores: int = 2) -> float:
        """The seconds a plan of work may fill: most of the share."""
        return self.share(cores) * PLANNED_USE

    def affordable(self, cost: float, cores: int = 2) -> int:
        """How many pieces of work costing `cost` seconds each a plan can hold."""
        return int(self.planned_seconds(cores) / cost)
