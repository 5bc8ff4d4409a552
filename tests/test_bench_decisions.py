"""bench/tables reads the computer players' decisions from the bot's metrics pages."""

from __future__ import annotations

import math

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from bench.tables.decisions import Samples, add, by_kind, difference, read_samples
from bot.ops.metrics import (
    BUDGET_MULTIPLES,
    BUDGET_USED,
    DECISION_ERRORS,
    DECISION_SECONDS_NAME,
    RAN_OUT,
)

BOUNDS = (0.1, 0.4, 0.8, 1.6)
BUDGET = 0.8


class Page:
    """One bot process's decision metrics, under the bot's names, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.seconds = Histogram(DECISION_SECONDS_NAME, "", ["kind"], buckets=BOUNDS,
                                 registry=self.registry)
        self.ran_out = Counter(next(iter(RAN_OUT.describe())).name, "", ["kind"],
                               registry=self.registry)
        self.used = Histogram(next(iter(BUDGET_USED.describe())).name, "", ["kind"],
                              buckets=BUDGET_MULTIPLES, registry=self.registry)
        self.errors = Counter(next(iter(DECISION_ERRORS.describe())).name, "", ["kind", "cause"],
                              registry=self.registry)

    def decide(self, kind: str, seconds: float, ran_out: bool = False) -> None:
        self.seconds.labels(kind).observe(seconds)
        self.used.labels(kind).observe(seconds / BUDGET)
        if ran_out:
            self.ran_out.labels(kind).inc()

    def text(self) -> str:
        return generate_latest(self.registry).decode()


def test_the_window_counts_only_what_happened_between_its_two_readings() -> None:
    page = Page()
    page.decide("spades-advanced", 3.0, ran_out=True)  # before the window
    page.errors.labels("spades-advanced", "ValueError").inc()
    start = read_samples(page.text())
    for took in (0.05, 0.05, 0.3, 0.5, 0.7):
        page.decide("spades-advanced", took)
    page.decide("spades-advanced", 0.9, ran_out=True)
    page.decide("tennis-advanced", 0.2)
    page.decide("tennis-advanced", 1.2)  # waited for a worker; needed no search
    page.errors.labels("tennis-advanced", "player-not-picklable").inc()
    page.seconds.labels("bridge-basic")  # served at 0: not a row
    spades, tennis, total = by_kind(difference(start, read_samples(page.text())))
    assert (spades.kind, spades.decisions, spades.within, spades.ran_out, spades.errors) == (
        "spades-advanced", 6, 5, 1, {})
    assert spades.in_time == 5  # all but the 0.9 s one, within the 0.8 s budget
    # 6 decisions: the 3rd is in the bucket up to 0.4 s, the 6th beyond 0.8 s.
    assert spades.time_at(0.5) == 0.4 and spades.time_at(0.95) == 1.6
    assert spades.time_at(1.0) == 1.6
    share, low, high = spades.share()
    assert share == 5 / 6 and 0.43 < low < 0.44 and 0.96 < high < 0.97  # Wilson's
    assert (tennis.decisions, tennis.within, tennis.in_time, tennis.errors) == (
        2, 2, 1, {"player-not-picklable": 1})
    assert (total.kind, total.decisions, total.within, total.ran_out, total.in_time) == (
        "total", 8, 7, 1, 6)
    assert total.errors == {"player-not-picklable": 1}


def test_two_processes_pages_are_summed() -> None:
    first, second = Page(), Page()
    first.decide("bidfair-advanced", 0.05)
    second.decide("bidfair-advanced", 2.0, ran_out=True)
    second.decide("bidfair-advanced", 0.05)
    both: Samples = {}
    add(both, read_samples(first.text()))
    add(both, read_samples(second.text()))
    bidfair, _total = by_kind(both)
    assert (bidfair.decisions, bidfair.ran_out) == (3, 1)
    assert bidfair.time_at(0.5) == 0.1 and bidfair.time_at(1.0) == math.inf


def test_no_decision_gives_no_share_and_no_times() -> None:
    [total] = by_kind({})
    assert total.decisions == 0 and math.isnan(total.share()[0])
    assert math.isnan(total.time_at(0.5))
