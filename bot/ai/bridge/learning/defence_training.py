"""Making the learned defence's leads (`defence`): rows from our players' deals, and training.

    python -m bot.ai.bridge.learning.defence_training make --first 0 --deals 2000 \
        --out ROWS.npz [--jobs 2]
    python -m bot.ai.bridge.learning.defence_training train --rows ROWS.npz [ROWS2.npz ...] \
        --out bot/ai/bridge/learning/models/defence_leads.npz

`make`: on bank deals, our four players bid as the bot serves them on a duplicate board at
no thinking budget (the tables with the shipped call values: `rollouts.Bidders`), and the
strong card players play the first `LAST_TRICK` tricks at the bot's default budget (counted
on the thread's CPU clock, as the benchmarks count it), the opening lead by the shipped
lead model. Wherever a defender is on lead to a trick from 2 to `LAST_TRICK`, every legal
card is scored double dummy on the deal as it stands, and each card is a row
(`defence.defence_rows`) whose target is the tricks it gives away against the position's
best lead; the row holds what the searching player made of the card (its outcome). The
card players think in this process, not through the worker round trip: rows need the
cards they choose, not the way a table serves them. A budget on a CPU clock
makes a decision depend a little on the machine, so rows made twice may differ slightly.

`train`: one LightGBM ranker of each position's cards (`ranking`), every `--held-out`th
deal kept out, reading all of `defence.NAMES` (or, with `--first-features` or on rows made
before the spread was added, `FIRST_NAMES`); the card records the held-out positions'
tricks lost by the model's lead, by the card search's (the lead the card players made) and
by the top card of the longest suit, and the model's less the search's, paired by
position.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bot.ai.core.budget import Budget
from bot.games.bridge import ContractBridge
from bot.games.cards import Card, Seat

from ...core.dds import Position, solve
from ..advanced import AdvancedBridgePlayer
from ..bidding.rubber import Score
from ..bidding.system import context_of
from .bank import FOLDER, BankDeal, read
from .defence import FIRST_NAMES, NAMES, defence_rows, is_defence_lead
from .defence import read_of as defence_read_of
from .making import Step, held_out_mask, in_steps, provenance, run
from .ranking import chosen, fit_ranker, lost_by_choice, mean_with_half
from .rollouts import Bidders
from .values import card_path
from .values import shared as shared_values

LAST_TRICK = 6  # the defence's leads learned: to tricks 2 .. LAST_TRICK
THINK = 0.8  # the card players' budget, seconds of CPU a card (the bot's default)


@dataclass
class Rows:
    """Rows (`NAMES` order) with their targets (tricks given away), deal numbers, positions
    (the deal's number times 16 plus the trick) and whether the card players, searching
    at their budget, led that card (the card search's choice, to compare a model with)."""

    x: list[list[float]] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    deal: list[int] = field(default_factory=list)
    group: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)

    def extend(self, other: Rows) -> None:
        for name in ("x", "y", "deal", "group", "played"):
            getattr(self, name).extend(getattr(other, name))


def board_game(deal: BankDeal) -> ContractBridge:
    """A duplicate board holding bank deal `deal`: its hands, dealer and vulnerability
    (the bank's board number is the deal's number modulo 16, plus one)."""
    game = ContractBridge({"boards": 16}, seed=deal.number)
    game.deal_no = deal.number % 16 + 1
    game.dealer = Seat(deal.dealer)
    # The deck order tests deal from (hand i is the i-th block): here, the bank's deal.
    game.stack_deck([c for hand in deal.hands for c in hand])
    assert game.vulnerable == deal.vulnerable and game.dealt == deal.hands
    return game


def deal_rows(deal: BankDeal, bidders: Bidders, think: float | None = None) -> Rows:
    """The rows of one deal's defence leads to tricks 2 .. `LAST_TRICK`; the card players
    think `think` seconds a card (default `THINK`)."""
    think = THINK if think is None else think
    game = board_game(deal)
    while game.phase == "bidding":
        seat = next(iter(game.to_act()))
        game.apply(seat, bidders.call(deal, seat, game.view(seat).calls, game.legal(seat)))
    rows = Rows()
    if game.contract is None:
        return rows
    players = [AdvancedBridgePlayer(deal.number * 7 + s) for s in range(4)]
    for player in players:  # the rows hold the search's own lead, as played
        player.learned_defence = None
    while game.phase == "play" and len(game.play) < 4 * LAST_TRICK:
        seat = next(iter(game.to_act()))
        view, legal = game.view(seat), game.legal(seat)
        player = players[seat]
        action = player.choose(view, legal, Budget(think, clock=time.thread_time))
        if is_defence_lead(view, LAST_TRICK) and len(legal) > 1:
            ctx = context_of(seat, tuple(view.calls), Score.of(view))
            read = defence_read_of(view, ctx)
            if read is None:
                raise SystemExit("the hand reading does not load: the defence's rows read it")
            cards = [Card.parse(text[5:]) for text in legal]
            at = game.claim_position()  # the cards each seat still holds
            tricks = solve([Position(at.hands, at.trump, at.leader)])[0]
            best = max(tricks.values())
            group = deal.number * 16 + len(game.play) // 4 + 1
            made = defence_rows(view, ctx, cards, read, player.last_outcome)
            for card, row in zip(cards, made, strict=True):
                rows.x.append(row)
                rows.y.append(float(best - tricks[card]))
                rows.deal.append(deal.number)
                rows.group.append(group)
                rows.played.append(int(action == "play:" + card.text))
        game.apply(seat, action)
    return rows


def _rows_of(job: Step) -> Rows:
    folder, first, count = job
    bidders = Bidders(shared_values())
    rows = Rows()
    for deal in read(folder, first=first, limit=count):
        rows.extend(deal_rows(deal, bidders))
    return rows


def make(first: int, deals: int, out: Path, jobs: int = 1, folder: Path = FOLDER,
         step: int = 20, command: str = "") -> int:
    """Rows of bank deals `first` .. `first + deals - 1` written to `out` (numpy `.npz`);
    how many rows."""
    rows = Rows()
    for part in in_steps(_rows_of, first, deals, jobs, folder, step):
        rows.extend(part)
    if not rows.deal:
        raise SystemExit("no defence leads in that range of bank deals")
    with out.open("wb") as f:
        np.savez_compressed(
            f, x=np.asarray(rows.x, dtype=np.float32).reshape(-1, len(NAMES)),
            y=np.asarray(rows.y, dtype=np.int8), deal=np.asarray(rows.deal, dtype=np.int32),
            group=np.asarray(rows.group, dtype=np.int64),
            played=np.asarray(rows.played, dtype=np.int8), command=np.asarray(command))
    return len(rows.deal)


def train(files: Sequence[Path], out: Path, trees: int, leaves: int, held_out: int,
          command: str, threads: int = 2, first_features: bool = False) -> dict[str, Any]:
    """Train the ranker, measure the held-out positions' tricks lost, and write the model
    and its card; the card. `first_features`: read the first model's features only
    (`FIRST_NAMES`, rows made before the spread was added read no more)."""
    loaded = [np.load(path) for path in files]
    x = np.concatenate([d["x"] for d in loaded]).astype(np.float64)
    y = np.concatenate([d["y"] for d in loaded]).astype(np.float64)
    deal = np.concatenate([d["deal"] for d in loaded])
    group = np.concatenate([d["group"] for d in loaded])
    played = np.concatenate([d["played"] for d in loaded])
    if x.shape[1] not in (len(FIRST_NAMES), len(NAMES)):
        raise SystemExit(f"the rows are not this code's ({len(NAMES)} features, or "
                         f"{len(FIRST_NAMES)} without the spread)")
    names = FIRST_NAMES if first_features or x.shape[1] == len(FIRST_NAMES) else NAMES
    x = x[:, :len(names)]
    check = held_out_mask(deal, held_out)
    forest, predicted = fit_ranker(x, y, group, ~check, names, trees, leaves, threads)
    baseline = (x[check, names.index("suit_len")] * 100 + x[check, names.index("card_rank")])
    by_model = chosen(predicted, y[check], group[check])
    by_search = chosen(played[check], y[check], group[check])
    diffs = by_model - by_search  # paired by position
    learned, searched, paired = (mean_with_half(v) for v in (by_model, by_search, diffs))
    top = lost_by_choice(baseline, y[check], group[check])
    forest.save(out)
    card = {
        "features": list(names),
        "target": ("a ranking of each position's cards by the double-dummy tricks the lead "
                   "gives away against the best lead (as `ranking` relevance)"),
        **provenance(files, loaded, deal, held_out, command),
        "positions": int(np.unique(group).size),
        "held_out_positions": learned[2],
        "held_out_tricks_lost": {
            "learned": [round(learned[0], 4), round(learned[1], 4)],
            "top_of_longest_suit": [round(top[0], 4), round(top[1], 4)],
            "card_search": [round(searched[0], 4), round(searched[1], 4)],
            "learned_less_card_search": [round(paired[0], 4), round(paired[1], 4)],
            "positions_differing": int(np.count_nonzero(diffs)),
            "as": "mean per position, 95% half-width"},
        "trees": trees,
        "leaves": leaves,
        "seed": 1,
        "players": (f"bid by the tables with the shipped call values (rollouts.Bidders); "
                    f"played by {AdvancedBridgePlayer.kind} at {THINK} s of CPU a card"),
    }
    card_path(out).write_text(json.dumps(card, indent=1) + "\n")
    return card


def main(argv: Sequence[str]) -> int:
    return run(argv, "bot.ai.bridge.learning.defence_training", make, train, 400, 31,
               ("features",), (("--first-features",
                                "read the first model's features only, not the spread"),))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
