"""Making a learned kind of card of the play (`trick_play.PlayKind`: the defence's leads,
the declaring side's cards): rows from our players' deals, and training. Each kind's
command is its own module's (`defence_training`, `declaring_training`).

`make`: on bank deals, our four players bid as the bot serves them on a duplicate board at
no thinking budget (the tables with the shipped call values: `rollouts.Bidders`), and the
strong card players play the first `LAST_TRICK` tricks at the bot's default budget (counted
on the thread's CPU clock, as the benchmarks count it), the opening lead by the shipped
lead model, every other learned card as served but the kind's own. Wherever the kind
applies (`PlayKind.applies`) with a choice, every legal card is scored double dummy on the
deal as it stands, and each card is a row (`PlayKind.rows_of`) whose target is the tricks it
gives away against the position's best card; the row holds what the searching player made
of the card (its outcome). The card players think in this process, not through the worker
round trip: rows need the cards they choose, not the way a table serves them. A budget on
a CPU clock makes a decision depend a little on the machine, so rows made twice may differ
slightly.

`train`: one LightGBM ranker of each position's cards (`ranking`), every `--held-out`th
deal kept out, reading all of the kind's names (or, with `--first-features` or on rows
made before the later names were added, its first names); the card records the held-out
positions' tricks lost by the model's card, by the card search's (the card the card
players played) and by the top card of the longest suit, and the model's less the
search's, paired by position.
"""

from __future__ import annotations

import functools
import json
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
from .declaring import DECLARING
from .defence import DEFENCE_LEADS
from .making import Step, held_out_mask, in_steps, provenance, run
from .ranking import chosen, fit_ranker, lost_by_choice, mean_with_half
from .rollouts import Bidders
from .trick_play import LEARNED_TO_TRICK, PlayKind, read_of
from .values import card_path
from .values import shared as shared_values

LAST_TRICK = LEARNED_TO_TRICK  # the cards learned: to tricks 2 .. LAST_TRICK
THINK = 0.8  # the card players' budget, seconds of CPU a card (the bot's default)
KINDS: dict[str, PlayKind] = {kind.name: kind for kind in (DEFENCE_LEADS, DECLARING)}


@dataclass
class Rows:
    """Rows (the kind's `names` order) with their targets (tricks given away), deal
    numbers, positions (`position_of`) and whether the card players, searching at their
    budget, played that card (the card search's choice, to compare a model with)."""

    x: list[list[float]] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    deal: list[int] = field(default_factory=list)
    group: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)

    def extend(self, other: Rows) -> None:
        for name in ("x", "y", "deal", "group", "played"):
            getattr(self, name).extend(getattr(other, name))


def position_of(kind: PlayKind, deal: int, cards_played: int) -> int:
    """A position's number in the rows: the deal's number times 16 plus the trick for a
    kind that takes one card a trick (the defence's leads, as their first rows were
    made), times 64 plus the cards played before it for a kind that may take several."""
    if kind.one_a_trick:
        return deal * 16 + cards_played // 4 + 1
    return deal * 64 + cards_played


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


def bid_board(deal: BankDeal, bidders: Bidders) -> tuple[ContractBridge, list[str]]:
    """The board of `deal` bid by `bidders` to the end of the auction, and the calls."""
    game = board_game(deal)
    calls: list[str] = []
    while game.phase == "bidding":
        seat = next(iter(game.to_act()))
        call = bidders.call(deal, seat, game.view(seat).calls, game.legal(seat))
        game.apply(seat, call)
        calls.append(call)
    return game, calls


def scores_now(game: ContractBridge) -> dict[Card, int]:
    """The tricks the side to play takes from here after each of its legal cards, double
    dummy on the deal as it stands (the trick in progress included)."""
    at = game.claim_position()  # the cards each seat still holds
    return solve([Position(at.hands, at.trump, at.leader, at.trick)])[0]


def deal_rows(deal: BankDeal, bidders: Bidders, kind: PlayKind,
              think: float | None = None) -> Rows:
    """The rows of one deal's decisions of `kind` to tricks 2 .. `LAST_TRICK`; the card
    players think `think` seconds a card (default `THINK`)."""
    think = THINK if think is None else think
    game, _ = bid_board(deal, bidders)
    rows = Rows()
    if game.contract is None:
        return rows
    players = [AdvancedBridgePlayer(deal.number * 7 + s) for s in range(4)]
    for player in players:  # the rows hold the search's own card, as played
        setattr(player, kind.attribute, None)
    while game.phase == "play" and len(game.play) < 4 * LAST_TRICK:
        seat = next(iter(game.to_act()))
        view, legal = game.view(seat), game.legal(seat)
        player = players[seat]
        action = player.choose(view, legal, Budget(think, clock=time.thread_time))
        if kind.applies(view, LAST_TRICK) and len(legal) > 1:
            ctx = context_of(seat, tuple(view.calls), Score.of(view))
            reading = read_of(view, ctx)
            if reading is None:
                raise SystemExit("the hand reading does not load: the rows of the "
                                 f"{kind.what} read it")
            cards = [Card.parse(text[5:]) for text in legal]
            tricks = scores_now(game)
            best = max(tricks.values())
            group = position_of(kind, deal.number, len(game.play))
            made = kind.rows_of(view, ctx, cards, reading, player.last_outcome)
            for card, row in zip(cards, made, strict=True):
                rows.x.append(row)
                rows.y.append(float(best - tricks[card]))
                rows.deal.append(deal.number)
                rows.group.append(group)
                rows.played.append(int(action == "play:" + card.text))
        game.apply(seat, action)
    return rows


def _rows_of(kind_name: str, job: Step) -> Rows:
    folder, first, count = job
    bidders = Bidders(shared_values())
    rows = Rows()
    for deal in read(folder, first=first, limit=count):
        rows.extend(deal_rows(deal, bidders, KINDS[kind_name]))
    return rows


def make(kind: PlayKind, first: int, deals: int, out: Path, jobs: int = 1,
         folder: Path = FOLDER, step: int = 20, command: str = "") -> int:
    """Rows of `kind` of bank deals `first` .. `first + deals - 1` written to `out` (numpy
    `.npz`); how many rows."""
    rows = Rows()
    rows_of = functools.partial(_rows_of, kind.name)  # a worker process finds it by name
    for part in in_steps(rows_of, first, deals, jobs, folder, step):
        rows.extend(part)
    if not rows.deal:
        raise SystemExit(f"no {kind.what} in that range of bank deals")
    with out.open("wb") as f:
        np.savez_compressed(
            f, x=np.asarray(rows.x, dtype=np.float32).reshape(-1, len(kind.names)),
            y=np.asarray(rows.y, dtype=np.int8), deal=np.asarray(rows.deal, dtype=np.int32),
            group=np.asarray(rows.group, dtype=np.int64),
            played=np.asarray(rows.played, dtype=np.int8), command=np.asarray(command))
    return len(rows.deal)


def train(kind: PlayKind, files: Sequence[Path], out: Path, trees: int, leaves: int,
          held_out: int, command: str, threads: int = 2, first_features: bool = False
          ) -> dict[str, Any]:
    """Train `kind`'s ranker, measure the held-out positions' tricks lost, and write the
    model and its card; the card. `first_features`: read the kind's first names only
    (rows made before the later names were added read no more)."""
    loaded = [np.load(path) for path in files]
    x = np.concatenate([d["x"] for d in loaded]).astype(np.float64)
    y = np.concatenate([d["y"] for d in loaded]).astype(np.float64)
    deal = np.concatenate([d["deal"] for d in loaded])
    group = np.concatenate([d["group"] for d in loaded])
    played = np.concatenate([d["played"] for d in loaded])
    widths = sorted({len(kind.names), len(kind.first_names)})
    if x.shape[1] not in widths:
        raise SystemExit(f"the rows are not this code's ({' or '.join(map(str, widths))} "
                         "features)")
    first = first_features or x.shape[1] == len(kind.first_names)
    names = kind.first_names if first else kind.names
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
        "target": ("a ranking of each position's cards by the double-dummy tricks the card "
                   "gives away against the best card (as `ranking` relevance)"),
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


@dataclass(frozen=True)
class Commands:
    """A kind's `make`, `train` and command line (`main`), as its own module offers them
    (`defence_training`, `declaring_training`): `module` is that module's name."""

    kind: PlayKind
    module: str

    def make(self, first: int, deals: int, out: Path, jobs: int = 1, folder: Path = FOLDER,
             step: int = 20, command: str = "") -> int:
        return make(self.kind, first, deals, out, jobs, folder, step, command)

    def train(self, files: Sequence[Path], out: Path, trees: int, leaves: int,
              held_out: int, command: str, threads: int = 2, first_features: bool = False
              ) -> dict[str, Any]:
        return train(self.kind, files, out, trees, leaves, held_out, command, threads,
                     first_features)

    def main(self, argv: Sequence[str]) -> int:
        """The command line: `make` rows, or `train` the model (`--first-features` where
        the kind has first names short of its names)."""
        flags = (("--first-features", "read the kind's first features only"),)
        return run(argv, self.module, self.make, self.train, 400, 31, ("features",),
                   flags if self.kind.first_names != self.kind.names else ())
