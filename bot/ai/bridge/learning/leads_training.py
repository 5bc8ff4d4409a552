"""Making the learned opening lead (`leads`): rows from our players' deals, and training.

    python -m bot.ai.bridge.learning.leads_training make --first 0 --deals 20000 \
        --out ROWS.npz [--jobs 2]
    python -m bot.ai.bridge.learning.leads_training train --rows ROWS.npz \
        --out bot/ai/bridge/learning/models/opening_leads.npz

`make`: on bank deals, our four players bid as the bot serves them on a duplicate board at
no thinking budget (the tables with the shipped call values: `rollouts.Bidders`). Where a
contract is reached, every card of the opening leader's hand is scored double dummy on
the deal as dealt (the solver's tricks for the defence after that lead), and each card is
a row (`leads.lead_rows`) whose target is the tricks it gives away against the deal's
best lead. Passed-out deals give no rows.

`train`: one LightGBM ranker of each deal's cards (a card's relevance falls with the
tricks it gives away); every `--held-out`th deal is kept out, and the card records the
held-out deals' tricks lost by the model's lead and by the top-of-the-longest-suit
baseline (the best lead loses none). LightGBM is needed here only (`.[learn]`).
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bot.games.cards import Card

from ...core.dds import Position, solve
from ..bidding.context import bid_to_end
from ..bidding.system import context_of
from .bank import FOLDER, BankDeal, read
from .leads import NAMES, lead_rows, read_of
from .making import Step, held_out_mask, in_steps, provenance, run
from .ranking import TOP_RELEVANCE, fit_ranker, lost_by_choice
from .rollouts import Bidders
from .values import CallValues, card_path
from .values import shared as shared_values

Rows = tuple[list[list[float]], list[float], list[int]]


def deal_rows(deals: Sequence[BankDeal], values: CallValues | None) -> Rows:
    """The rows of each deal's opening lead (`NAMES` order), their targets (tricks lost
    against the best lead) and deal numbers; the leads of all deals solved in one call."""
    bidders = Bidders(values)
    found: list[tuple[int, tuple[Card, ...], list[list[float]]]] = []  # deal, hand, rows
    positions: list[Position] = []
    for deal in deals:
        auction = bid_to_end(deal.dealer, functools.partial(bidders.call, deal))
        contract = auction.contract
        if contract is None:
            continue
        leader = (contract.declarer + 1) % 4
        hand = deal.hands[leader]
        ctx = context_of(leader, tuple(auction.calls))
        read = read_of(hand, ctx, deal.vulnerable)
        if read is None:
            raise SystemExit("the hand reading does not load: the leads' rows read it")
        found.append((deal.number, hand,
                      lead_rows(hand, ctx, contract, deal.vulnerable, hand, read)))
        positions.append(Position(deal.hands, contract.trump, leader))
    x: list[list[float]] = []
    y: list[float] = []
    numbers: list[int] = []
    for (number, hand, rows), tricks in zip(found, solve(positions), strict=True):
        best = max(tricks.values())
        for card, row in zip(hand, rows, strict=True):
            x.append(row)
            y.append(float(best - tricks[card]))
            numbers.append(number)
    return x, y, numbers


def _rows_of(job: Step) -> Rows:
    folder, first, count = job
    return deal_rows(list(read(folder, first=first, limit=count)), shared_values())


def make(first: int, deals: int, out: Path, jobs: int = 1, folder: Path = FOLDER,
         step: int = 100, command: str = "") -> int:
    """Rows of bank deals `first` .. `first + deals - 1` written to `out` (numpy `.npz`);
    how many rows."""
    parts = in_steps(_rows_of, first, deals, jobs, folder, step)
    x = np.asarray([r for p in parts for r in p[0]], dtype=np.float32).reshape(-1, len(NAMES))
    y = np.asarray([v for p in parts for v in p[1]], dtype=np.int8)
    numbers = np.asarray([d for p in parts for d in p[2]], dtype=np.int32)
    if numbers.size == 0:
        raise SystemExit("no bank deals with a contract in that range")
    with out.open("wb") as f:
        np.savez_compressed(f, x=x, y=y, deal=numbers, command=np.asarray(command))
    return int(numbers.size)


def train(files: Sequence[Path], out: Path, trees: int, leaves: int, held_out: int,
          command: str, threads: int = 2) -> dict[str, Any]:
    """Train the ranker, check the numpy forest gives LightGBM's values, measure the
    held-out deals' tricks lost, and write the model and its card; the card."""
    loaded = [np.load(path) for path in files]
    x = np.concatenate([d["x"] for d in loaded]).astype(np.float64)
    y = np.concatenate([d["y"] for d in loaded]).astype(np.float64)
    deal = np.concatenate([d["deal"] for d in loaded])
    if x.shape[1] != len(NAMES):
        raise SystemExit(f"the rows are not this code's ({len(NAMES)} features)")
    check = held_out_mask(deal, held_out)
    # A deal's rows are its one position's (the opening lead): the deal is the group.
    forest, predicted = fit_ranker(x, y, deal, ~check, NAMES, trees, leaves, threads)
    # The baseline: the top card of the longest suit (the highest-ranked suit of equals).
    baseline = (x[check, NAMES.index("suit_len")] * 100 + x[check, NAMES.index("card_rank")])
    learned = lost_by_choice(predicted, y[check], deal[check])
    top = lost_by_choice(baseline, y[check], deal[check])
    forest.save(out)
    card = {
        "features": list(NAMES),
        "target": ("a ranking of each deal's cards by the double-dummy tricks the lead gives "
                   f"away against the best lead: relevance {TOP_RELEVANCE} less those tricks, "
                   "at least 0"),
        **provenance(files, loaded, deal, held_out, command),
        "held_out_deals": learned[2],
        "held_out_tricks_lost": {
            "learned": [round(learned[0], 4), round(learned[1], 4)],
            "top_of_longest_suit": [round(top[0], 4), round(top[1], 4)],
            "as": "mean per deal, 95% half-width"},
        "trees": trees,
        "leaves": leaves,
        "seed": 1,
        "bidders": "the tables with the shipped call values (rollouts.Bidders), as served",
    }
    card_path(out).write_text(json.dumps(card, indent=1) + "\n")
    return card


def main(argv: Sequence[str]) -> int:
    return run(argv, "bot.ai.bridge.learning.leads_training", make, train, 400, 31,
               ("features",))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
