"""The computer players' decisions in the measured window, read from the bot processes'
Prometheus metrics (bot/ops/metrics.py): each process's /metrics is read at the window's
start and at its end, and the differences, summed over the processes, are the window's.

Per kind of computer player: the decisions its players answered (the decision-time
histogram's count), those whose budget ran out (the player answered with its fallback:
its rule-based answer or its search so far), the failed ones by cause, those answered
within the budget's time from their submission (the budget-used histogram's bucket at 1),
and the decision time's quantiles as the histogram holds them (the upper bound of the
bucket each falls in).

A decision that needs no search (a bridge call the bidding tables settle, a single legal
card) never asks its budget, so its budget never runs out, however long it waited for a
worker: it answered as at full strength. The time from submission says how long it waited.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from prometheus_client.parser import text_string_to_metric_families

from bot.ops.metrics import BUDGET_USED, DECISION_ERRORS, DECISION_SECONDS_NAME, RAN_OUT

from ..intervals import wilson

BUCKET = f"{DECISION_SECONDS_NAME}_bucket"
RAN_OUT_TOTAL = f"{next(iter(RAN_OUT.describe())).name}_total"
ERRORS_TOTAL = f"{next(iter(DECISION_ERRORS.describe())).name}_total"
USED_BUCKET = f"{next(iter(BUDGET_USED.describe())).name}_bucket"
KEPT = (BUCKET, RAN_OUT_TOTAL, ERRORS_TOTAL, USED_BUCKET)

# A sample's name and its labels (sorted), as the exposition names them.
Key = tuple[str, tuple[tuple[str, str], ...]]
Samples = dict[Key, float]


def read_samples(text: str) -> Samples:
    """The decision samples of one /metrics page (Prometheus' text format)."""
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in KEPT:
                samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def add(into: Samples, more: Samples) -> None:
    """Sum one more process's samples into `into`."""
    for key, value in more.items():
        into[key] = into.get(key, 0.0) + value


def difference(start: Samples, end: Samples) -> Samples:
    """What the counters gained between two readings (a series first served after the
    start counts from 0)."""
    return {key: value - start.get(key, 0.0) for key, value in end.items()}


async def scrape_decisions(ports: list[int]) -> Samples:
    """Read every bot process's decision samples now, summed."""
    import aiohttp

    total: Samples = {}
    async with aiohttp.ClientSession() as session:
        for port in ports:
            async with session.get(f"http://127.0.0.1:{port}/metrics") as answer:
                assert answer.status == 200, f"/metrics: {answer.status}"
                add(total, read_samples(await answer.text()))
    return total


@dataclass
class KindDecisions:
    """One kind's decisions in the window (or every kind's, as `total`)."""

    kind: str
    ran_out: int = 0
    in_time: int = 0  # answered within the budget's seconds from submission
    errors: dict[str, int] = field(default_factory=dict)  # by cause
    buckets: dict[float, int] = field(default_factory=dict)  # upper bound -> cumulative

    @property
    def decisions(self) -> int:
        """Decisions the players answered: the histogram's +Inf bucket."""
        return self.buckets.get(math.inf, 0)

    @property
    def within(self) -> int:
        """Decisions answered within their full budget (it did not run out)."""
        return self.decisions - self.ran_out

    def share(self) -> tuple[float, float, float]:
        """The share within budget and its Wilson 95% interval (NaN with no decision)."""
        if not self.decisions:
            return math.nan, math.nan, math.nan
        low, high = wilson(self.within, self.decisions)
        return self.within / self.decisions, low, high

    def time_at(self, q: float) -> float:
        """The upper bound of the bucket holding the q-quantile of decision time (seconds;
        inf: beyond the last bound; NaN with no decision). q=1: the slowest's."""
        if not self.decisions:
            return math.nan
        rank = max(1, math.ceil(q * self.decisions))
        return next(bound for bound, count in sorted(self.buckets.items()) if count >= rank)

    def merge(self, other: KindDecisions) -> None:
        self.ran_out += other.ran_out
        self.in_time += other.in_time
        for cause, count in other.errors.items():
            self.errors[cause] = self.errors.get(cause, 0) + count
        for bound, count in other.buckets.items():
            self.buckets[bound] = self.buckets.get(bound, 0) + count


def by_kind(samples: Samples) -> list[KindDecisions]:
    """Each kind with a decision or an error in `samples`, by name, then their total."""
    kinds: dict[str, KindDecisions] = {}
    for (name, labels), value in samples.items():
        label = dict(labels)
        kind = kinds.setdefault(label["kind"], KindDecisions(label["kind"]))
        count = round(value)
        if name == BUCKET:
            bound = float(label["le"])
            kind.buckets[bound] = kind.buckets.get(bound, 0) + count
        elif name == RAN_OUT_TOTAL:
            kind.ran_out += count
        elif name == USED_BUCKET:
            if float(label["le"]) == 1.0:
                kind.in_time += count
        elif count:
            kind.errors[label["cause"]] = kind.errors.get(label["cause"], 0) + count
    seen = [kinds[name] for name in sorted(kinds)
            if kinds[name].decisions or kinds[name].errors]
    total = KindDecisions("total")
    for kind in seen:
        total.merge(kind)
    return [*seen, total]
