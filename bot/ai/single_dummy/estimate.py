"""Single Dummy Bridge: tricks per strain from our hand and the revealed dummy, by solving.

Before the play a player sees its own hand and the revealed dummy; the other 26 cards are
the opponent's hand and the hidden dummy. Each sample deals them at random and solves two
whole deals double dummy: with the revealed dummy opposite us (the opponent plays with the
hidden one) and with the hidden one opposite us. The opponent of the bid winner leads from
their own hand, so our tricks are read for the declarer whose left-hand opponent that is.

Samples are kept for the whole deal (our hand and the revealed dummy do not change during
the auction), so each call adds the ones its budget pays for and decides on them all.
How many is planned from `TABLE_COST`; their tables are solved one table first (the probe:
half a sample), then as many as were solved before, and the process CPU the tables took
stops them before a batch that would pass the budget's planned share (`dds.solve_within`):
a table costs 0.13 s on a quiet machine but two to four times that under load, and far
more on a rare deal. A sample whose first table the stop leaves alone is kept, with that
table, and completed first by the deal's next call: no solved table is thrown away.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.games.bridge_auction import Strain
from bot.games.bridge_scoring import single_dummy_score
from bot.games.cards import FULL_DECK, Card

from ..core import dds
from ..core.budget import Budget

Deal = tuple[tuple[Card, ...], ...]  # hands by compass seat
Table = tuple[tuple[int, ...], ...]  # tricks by strain, then declarer
TABLE_COST = 0.15  # planned CPU seconds of one double-dummy table (all strains, declarers)
MAX_SAMPLES = 24  # per deal


def compass(hand: int) -> int:
    """Single Dummy hands S, W, N, E (0..3) as compass seats N, E, S, W (0..3)."""
    return (hand + 2) % 4


@dataclass(slots=True)
class TrickEstimate:
    """Our tricks per strain in the samples so far, with each dummy opposite us."""

    seat: int  # 0 plays South and North, 1 West and East
    mine: tuple[Card, ...]
    revealed: tuple[Card, ...]
    with_revealed: list[tuple[int, ...]] = field(default_factory=list)  # [sample][strain]
    with_hidden: list[tuple[int, ...]] = field(default_factory=list)
    # A sample the stop cut after its first table: its two deals and that table.
    unpaired: tuple[tuple[Deal, Deal], Table] | None = None

    @property
    def samples(self) -> int:
        return len(self.with_revealed)

    @property
    def their_own(self) -> int:
        """Where the opponent's own hand sits in a sample's deals (compass order)."""
        return compass(1 - self.seat)

    @property
    def dealt(self) -> int:
        """Samples dealt so far, an unpaired one included (a seed for the next ones)."""
        return self.samples + (self.unpaired is not None)

    def add(self, count: int, rng: random.Random, budget: Budget | None = None) -> None:
        """Solve `count` more samples (an unpaired one first, then new ones dealt from
        `rng`), as many tables as `budget`'s planned share pays for before it is spent
        (all of them without a budget); the ones solved stay for the deal's later calls."""
        samples = [self.unpaired[0]] if self.unpaired is not None else []
        samples += self._deal(count - len(samples), rng)
        deals = [deal for pair in samples for deal in pair]
        solved = [self.unpaired[1]] if self.unpaired is not None else []
        allowance = math.inf if budget is None else budget.planned_seconds()
        solved += dds.solve_within(deals[len(solved):], dds.tables_measured, allowance,
                                   spent=None if budget is None else budget.spent)
        self.unpaired = (samples[len(solved) // 2], solved[-1]) if len(solved) % 2 else None
        # Our declarer is the hand whose left-hand opponent (the one to lead) is the
        # opponent's own hand.
        declarer = (self.their_own - 1) % 4
        for i in range(0, len(solved) - 1, 2):  # whole samples: their two tables
            self.with_revealed.append(tuple(t[declarer] for t in solved[i]))
            self.with_hidden.append(tuple(t[declarer] for t in solved[i + 1]))

    def _deal(self, count: int, rng: random.Random) -> list[tuple[Deal, Deal]]:
        """`count` samples of the hidden hands: each as two whole deals, with the revealed
        dummy opposite us and with the hidden one."""
        seen = set(self.mine) | set(self.revealed)
        unseen = [c for c in FULL_DECK if c not in seen]
        me, partner_at = compass(self.seat), compass(2 + self.seat)
        their_own, their_dummy_at = self.their_own, compass(3 - self.seat)
        samples: list[tuple[Deal, Deal]] = []
        for _ in range(count):
            rng.shuffle(unseen)
            theirs, other = tuple(unseen[:13]), tuple(unseen[13:])
            pair: list[Deal] = []
            for partner, their_dummy in ((self.revealed, other), (other, self.revealed)):
                hands: list[tuple[Card, ...]] = [(), (), (), ()]
                hands[me], hands[partner_at] = self.mine, partner
                hands[their_own], hands[their_dummy_at] = theirs, their_dummy
                pair.append(tuple(hands))
            samples.append((pair[0], pair[1]))
        return samples

    def mean(self, strain: Strain, hidden: bool) -> float:
        rows = self.with_hidden if hidden else self.with_revealed
        return sum(r[strain] for r in rows) / len(rows)

    def take_hidden(self, strain: Strain) -> bool:
        """Which dummy to take for a contract in `strain`: the one worth more tricks."""
        return self.mean(strain, True) > self.mean(strain, False)

    def tricks(self, strain: Strain) -> list[int]:
        """Our tricks in `strain` in each sample, with the dummy we would take."""
        rows = self.with_hidden if self.take_hidden(strain) else self.with_revealed
        return [r[strain] for r in rows]

    def expected_score(self, level: int, strain: Strain, penalty: bool) -> tuple[float, float]:
        """(our expected points, the share of samples that make) for a contract we win."""
        tricks = self.tricks(strain)
        points = 0.0
        made = 0
        for t in tricks:
            mine, theirs = single_dummy_score(level, strain, 0, t, penalty)
            points += mine - theirs
            made += t >= 6 + level
        return points / len(tricks), made / len(tricks)


def planned_samples(budget: Budget | None, have: int, cores: int = 2) -> int:
    """How many samples this decision adds (two tables each), within MAX_SAMPLES."""
    if budget is None:
        return 0  # no time to think: the rule-based call
    affordable = budget.affordable(2 * TABLE_COST, cores)
    return max(0, min(affordable, MAX_SAMPLES - have))


def best_bid(estimate: TrickEstimate, legal_bids: Sequence[tuple[int, Strain]],
             penalty: bool) -> tuple[int, Strain] | None:
    """The legal bid with the best expected score among those that make in at least half
    the samples (the cheapest level of a strain scores the same and is safest)."""
    best: tuple[float, int, Strain] | None = None
    for level, strain in legal_bids:
        points, made = estimate.expected_score(level, strain, penalty)
        if made < 0.5 or points <= 0:
            continue
        key = (points, -level, strain)
        if best is None or key > (best[0], -best[1], best[2]):
            best = (points, level, strain)
    return None if best is None else (best[1], best[2])
