"""Learning the suit reading of the play (`suit_reading`) from our players' played deals
(`played`).

    python -m bot.ai.bridge.learning.suit_reading_training \
        [--played DIR] [--out FILE] [--trees 100] [--leaves 7] [--held-out 5]

Every event of every played deal (a card led to trick 2 or later, a card of a hand that
did not follow) where the hand held more than one suit is a group of rows, one per suit it
held, the suit it chose the relevant one. One LightGBM ranker learns them (`ranking`);
every `--held-out`th bank deal is kept out. Its scores become chances as a softmax whose
temperature is the one that gives the fitted events' suits the highest likelihood. The
card records, on the held-out events: the mean log-chance of the suit chosen by the model,
by a uniform choice among the suits held and by a choice in proportion to their lengths,
and how often the model's likeliest suit is the one chosen. LightGBM is needed here only
(`.[learn]`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bot.games.bridge_auction import Call, Contract
from bot.games.cards import Card

from ...core.trick_masks import mask_of
from .bank import FOLDER as BANK
from .bank import BankDeal, read
from .making import held_out_mask
from .play_training import board_game
from .played import FOLDER as PLAYED
from .played import PlayedDeal, files, read_played, steps
from .ranking import TOP_RELEVANCE, fit_ranker, runs
from .suit_reading import DEFAULT, NAMES, event_rows, events_of, suit_masks
from .train import Interval
from .values import card_path

TEMPERATURES = np.geomspace(0.1, 5.0, 80)  # the softmax temperatures tried


@dataclass
class Rows:
    """Each held suit of each event: its row (`NAMES`), whether it was chosen, the event
    (`group`) and the bank deal."""

    x: list[np.ndarray] = field(default_factory=list)
    chosen: list[np.ndarray] = field(default_factory=list)
    group: list[np.ndarray] = field(default_factory=list)
    deal: list[np.ndarray] = field(default_factory=list)


def deal_rows(deal: BankDeal, played: PlayedDeal, rows: Rows, first_group: int) -> int:
    """Add the rows of `played` (on bank deal `deal`) to `rows`, its events numbered from
    `first_group`; how many events were added."""
    game = board_game(deal)
    owner = {card: seat for seat, hand in enumerate(deal.hands) for card in hand}
    plays: list[tuple[int, Card]] = []
    calls: tuple[tuple[int, Call], ...] = ()
    contract: Contract | None = None
    for seat, action in steps(game, played):
        if action.startswith("play:"):
            if not plays:  # the auction as it ended, and its contract
                view = game.view(seat)
                calls, contract = view.calls, view.contract
            card = Card.parse(action[5:])
            plays.append((owner[card], card))
    if contract is None:
        return 0
    dummy = (contract.declarer + 2) % 4
    added = 0
    for event in events_of(plays, contract, deal.hands[dummy], calls):
        dealt = np.asarray([mask_of(deal.hands[event.seat])], dtype=np.int64)
        holdings = suit_masks(dealt & ~np.int64(event.earlier))
        x, inverse, held = event_rows(event, holdings)
        suits = np.flatnonzero(held[0])
        if suits.size < 2:
            continue
        rows.x.append(x[inverse[0, suits]])
        rows.chosen.append((suits == event.chosen).astype(np.int8))
        rows.group.append(np.full(suits.size, first_group + added, dtype=np.int64))
        rows.deal.append(np.full(suits.size, deal.number, dtype=np.int64))
        added += 1
    return added


def rows_of(played: Iterable[PlayedDeal], bank: Path = BANK) -> Rows:
    """The rows of every played deal (bank deals read from `bank`)."""
    by_number = {p.number: p for p in played}
    rows = Rows()
    if not by_number:
        return rows
    groups = 0
    low, high = min(by_number), max(by_number)
    for deal in read(bank, first=low, limit=high - low + 1):
        if deal.number in by_number:
            try:
                groups += deal_rows(deal, by_number[deal.number], rows, groups)
            except ValueError as error:  # a damaged line: an action not legal in turn
                raise SystemExit(f"played deal {deal.number} does not replay: {error}"
                                 ) from error
    return rows


def log_chances(scores: Any, chosen: Any, group: Any, temper: float) -> Any:
    """Each event's log-chance of its chosen suit, by a softmax of `scores` at `temper`."""
    starts, _ = runs(group)
    scaled = scores / temper
    totals = np.logaddexp.reduceat(scaled, starts)
    picked = np.add.reduceat(np.where(chosen == 1, scaled, 0.0), starts)
    return picked - totals


def _interval(values: Any) -> list[float]:
    got = Interval.of([float(v) for v in values])
    return [round(got.mean, 4), round(got.mean - got.low, 4)]


def train(played_folder: Path, out: Path, trees: int, leaves: int, held_out: int,
          command: str, threads: int = 2, bank: Path = BANK) -> dict[str, Any]:
    """Train the ranker, fit its temperature, measure it held out, and write the model
    and its card; the card."""
    rows = rows_of(read_played(played_folder), bank)
    if not rows.x:
        raise SystemExit(f"no events in the played deals of {played_folder}")
    x = np.concatenate(rows.x)
    chosen = np.concatenate(rows.chosen)
    group = np.concatenate(rows.group)
    deal = np.concatenate(rows.deal)
    check = held_out_mask(deal, held_out)
    y = np.where(chosen == 1, 0, TOP_RELEVANCE).astype(np.float64)
    forest, predicted = fit_ranker(x, y, group, ~check, NAMES, trees, leaves, threads)
    fitted = forest.predict(x[~check])
    likelihood = [float(log_chances(fitted, chosen[~check], group[~check], t).mean())
                  for t in TEMPERATURES]
    temper = float(TEMPERATURES[int(np.argmax(likelihood))])
    model = log_chances(predicted, chosen[check], group[check], temper)
    uniform = log_chances(np.zeros(int(check.sum())), chosen[check], group[check], 1.0)
    lengths = x[check, NAMES.index("length")]
    by_length = log_chances(np.log(lengths), chosen[check], group[check], 1.0)
    starts, ends = runs(group[check])
    top = [float(chosen[check][a + int(np.argmax(predicted[a:b]))])
           for a, b in zip(starts, ends, strict=True)]
    forest.save(out)
    card = {
        "features": list(NAMES),
        "temperature": round(temper, 4),
        "target": ("a ranking of the suits a hand held at an event, the suit it chose "
                   "relevant; a softmax of the scores at the temperature is each suit's "
                   "chance"),
        "command": command,
        "played_files": len(files(played_folder)),
        "played_by": ("python -m bot.ai.bridge.learning.played make (bank deals bid by "
                      "the tables with the shipped call values, played as served)"),
        "seeds": "bank deal i is dealt from random.Random(f'bank:{i}'); LightGBM's seed 1",
        "bank_deals": [int(deal.min()), int(deal.max())],
        "deals": int(np.unique(deal).size),
        "events": int(np.unique(group).size),
        "rows": int(deal.size),
        "held_out": f"every deal whose number is a multiple of {held_out}",
        "held_out_events": len(starts),
        "held_out_log_chance": {
            "model": _interval(model), "uniform": _interval(uniform),
            "by_length": _interval(by_length),
            "model_less_uniform": _interval(model - uniform),
            "as": "mean per event, 95% half-width"},
        "held_out_top_suit_chosen": round(float(np.mean(top)), 4),
        "trees": trees,
        "leaves": leaves,
    }
    card_path(out).write_text(json.dumps(card, indent=1) + "\n")
    return card


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.bridge.learning."
                                          "suit_reading_training")
    parser.add_argument("--played", type=Path, default=PLAYED)
    parser.add_argument("--out", type=Path, default=DEFAULT)
    parser.add_argument("--trees", type=int, default=100)
    parser.add_argument("--leaves", type=int, default=7)
    parser.add_argument("--held-out", type=int, default=5)
    parser.add_argument("--bank", type=Path, default=BANK)
    args = parser.parse_args(argv)
    command = ("python -m bot.ai.bridge.learning.suit_reading_training "
               + " ".join(argv)).strip()
    card = train(args.played, args.out, args.trees, args.leaves, args.held_out, command,
                 bank=args.bank)
    print(json.dumps(card, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
