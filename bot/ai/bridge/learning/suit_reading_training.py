"""Learning the suit reading of the play (`suit_reading`) from our players' played deals
(`played`).

    python -m bot.ai.bridge.learning.suit_reading_training \
        [--played DIR] [--out FILE] [--trees 100] [--leaves 7] [--held-out 5]

Every event of every played deal (a card led to trick 2 or later, a card of a hand that
did not follow) where the hand held more than one suit is a group of rows, one per suit it
held, the suit it chose the relevant one. One LightGBM ranker learns them (`ranking`).
Every `--held-out`th bank deal is kept out to check the model, and the deal after each
to tune it: a first ranker fitted on the rest scores the tuning deals, where two numbers
are fitted. The temperature: its scores become chances as a softmax at the temperature
that gives the tuning events' suits the highest likelihood. The weight: a hand's events
are not independent given what the model reads, so the sum of their log-chances says
too much of it; the weight is the share of that sum that gives the true hand the highest
posterior among hands dealt at random as an opponent sees them (`posterior_gain`).
The model is then fitted on the tuning deals as well, and the card records, on the
checking deals: the mean log-chance of the suit chosen by the model, by a uniform choice
among the suits held and by a choice in proportion to their lengths, how often the
model's likeliest suit is the one chosen, and the posterior gain at the weight and at 1.
LightGBM is needed here only (`.[learn]`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bot.games.bridge_auction import Call, Contract
from bot.games.cards import Card

from ...core.carding import follows_weigh
from ...core.layouts import shown_voids
from ...core.trick_masks import cards_of, mask_of
from .bank import FOLDER as BANK
from .bank import BankDeal, read
from .making import held_out_mask
from .play_training import board_game
from .played import FOLDER as PLAYED
from .played import PlayedDeal, files, read_played, steps
from .ranking import TOP_RELEVANCE, fit_ranker, runs
from .suit_reading import (
    DEFAULT,
    NAMES,
    Event,
    SuitReading,
    event_rows,
    events_of,
    suit_masks,
)
from .train import Interval
from .values import card_path

TEMPERATURES = np.geomspace(0.1, 5.0, 80)  # the softmax temperatures tried
WEIGHTS = np.round(np.arange(0.0, 2.0001, 0.05), 2)  # the weights tried
CHECKPOINTS = (3, 6, 9)  # the tricks after which each hidden hand's posterior is scored
ALTERNATIVES = 100  # hands dealt at random at each checkpoint, beside the true one


@dataclass
class Rows:
    """Each held suit of each event: its row (`NAMES`), whether it was chosen, the event
    (`group`) and the bank deal."""

    x: list[np.ndarray] = field(default_factory=list)
    chosen: list[np.ndarray] = field(default_factory=list)
    group: list[np.ndarray] = field(default_factory=list)
    deal: list[np.ndarray] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Play:
    """A played deal's auction as it ended (`calls`), its contract and every card in order
    with its seat."""

    calls: tuple[tuple[int, Call], ...]
    contract: Contract
    plays: tuple[tuple[int, Card], ...]

    @property
    def dummy(self) -> int:
        return (self.contract.declarer + 2) % 4


def play_of(deal: BankDeal, played: PlayedDeal) -> Play | None:
    """`played` (on bank deal `deal`) replayed: its play, None where it was passed out
    (raises ValueError where an action is not legal in turn)."""
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
    return None if contract is None else Play(calls, contract, tuple(plays))


def deal_rows(deal: BankDeal, played: PlayedDeal, rows: Rows, first_group: int) -> int:
    """Add the rows of `played` (on bank deal `deal`) to `rows`, its events numbered from
    `first_group`; how many events were added."""
    play = play_of(deal, played)
    if play is None:
        return 0
    added = 0
    for event in events_of(play.plays, play.contract, deal.hands[play.dummy], play.calls):
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


def with_bank(played: Iterable[PlayedDeal], bank: Path = BANK,
              ) -> Iterator[tuple[BankDeal, PlayedDeal]]:
    """Each played deal with its bank deal (read from `bank`), in order of number."""
    by_number = {p.number: p for p in played}
    if not by_number:
        return
    low, high = min(by_number), max(by_number)
    for deal in read(bank, first=low, limit=high - low + 1):
        if deal.number in by_number:
            yield deal, by_number[deal.number]


def _replayed(number: int, error: ValueError) -> SystemExit:
    return SystemExit(f"played deal {number} does not replay: {error}")


def rows_of(pairs: Iterable[tuple[BankDeal, PlayedDeal]]) -> Rows:
    """The rows of every played deal with its bank deal (`with_bank`)."""
    rows = Rows()
    groups = 0
    for deal, one in pairs:
        try:
            groups += deal_rows(deal, one, rows, groups)
        except ValueError as error:  # a damaged line: an action not legal in turn
            raise _replayed(deal.number, error) from error
    return rows


def hands_seen_by(deal: BankDeal, play: Play, tricks: int, seat: int, observer: int,
                  count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` hands `seat` might have been dealt as `observer` (a hidden seat's opponent)
    sees the deal after `tricks` tricks, at random (52-bit masks): the cards `seat`
    played, and the rest of its cards drawn from those `observer` cannot place, none in a
    suit it showed out of and every card of a suit the other hidden hand showed out of."""
    gone = play.plays[:4 * tricks]
    other = ({0, 1, 2, 3} - {seat, observer, play.dummy}).pop()
    voids = shown_voids([gone[i:i + 4] for i in range(0, len(gone), 4)])
    seen = {*deal.hands[observer], *deal.hands[play.dummy], *(c for _, c in gone)}
    pool = [c for hand in deal.hands for c in hand if c not in seen]
    forced = [c for c in pool if c.suit in voids[other]]
    free = [c for c in pool if c.suit not in voids[seat] and c not in forced]
    need = 13 - sum(1 for s, _ in gone if s == seat) - len(forced)
    if not 0 <= need <= len(free):
        raise ValueError(f"deal {deal.number}: no hand fits what was seen")
    fixed = mask_of([*forced, *(c for s, c in gone if s == seat)])
    bits = np.asarray([1 << c.index for c in free], dtype=np.int64)
    order = np.argsort(rng.random((count, len(free))), axis=1)[:, :need]
    masks: np.ndarray = bits[order].sum(axis=1) | np.int64(fixed)
    return masks


@dataclass(frozen=True, slots=True)
class Case:
    """A hidden hand at a checkpoint: its seat, the suits it chose so far (`events`), the
    tricks played, and its true hand, first, with hands dealt at random as an opponent
    sees them (`hands`, 52-bit masks)."""

    seat: int
    events: tuple[Event, ...]
    tricks: tuple[tuple[tuple[int, Card], ...], ...]
    hands: np.ndarray


def posterior_cases(deal: BankDeal, play: Play, rng: np.random.Generator,
                    alternatives: int = ALTERNATIVES) -> list[Case]:
    """At each checkpoint, each hidden seat (not dummy) that chose a suit by then, seen by
    its left-hand opponent (its right-hand one where that is dummy), with `alternatives`
    hands dealt at random as that opponent sees them."""
    cases = []
    dealt = deal.hands
    for tricks in CHECKPOINTS:
        if len(play.plays) < 4 * tricks:
            break
        gone = play.plays[:4 * tricks]
        by_seat: dict[int, list[Event]] = {}
        for event in events_of(gone, play.contract, dealt[play.dummy], play.calls):
            by_seat.setdefault(event.seat, []).append(event)
        for seat, events in sorted(by_seat.items()):
            observer = (seat + 1) % 4 if (seat + 1) % 4 != play.dummy else (seat + 3) % 4
            hands = np.concatenate([
                np.asarray([mask_of(dealt[seat])], dtype=np.int64),
                hands_seen_by(deal, play, tricks, seat, observer, alternatives, rng)])
            cases.append(Case(seat, tuple(events),
                              tuple(gone[i:i + 4] for i in range(0, len(gone), 4)), hands))
    return cases


def suit_log_chances(cases: Sequence[Case], reading: SuitReading) -> list[np.ndarray]:
    """Each case's hands' log-weights by the suit reading."""
    return [reading.log_chances(case.events, case.hands) for case in cases]


def follows_log_weights(cases: Sequence[Case]) -> list[np.ndarray]:
    """Each case's hands' log-weights by the reading of the cards followed with (served
    since its bench): a yardstick of what a reading worth serving says of a hand."""
    weights = []
    for case in cases:
        weigh = follows_weigh([*case.tricks, ()])
        hands = [cards_of(int(mask)) for mask in case.hands]
        weights.append(np.zeros(len(hands)) if weigh is None
                       else np.asarray(weigh(case.seat, hands), dtype=np.float64))
    return weights


def posterior_gain(log_weights: Sequence[np.ndarray], weight: float) -> np.ndarray:
    """For each case, from its hands' log-weights by a reading (the true hand's first):
    the log of how many times likelier the true hand is with the reading at `weight` than
    without it, its weighted log-weight less the log of the others' mean weight (by
    Monte Carlo). A proper score: its mean is highest at the weight whose posterior is
    truest."""
    return np.asarray([weight * c[0] - (np.logaddexp.reduce(weight * c[1:])
                                        - np.log(c.size - 1)) for c in log_weights])


def all_cases(pairs: Iterable[tuple[BankDeal, PlayedDeal]], seed: int = 1) -> list[Case]:
    """`posterior_cases` of every played deal of `pairs`."""
    rng = np.random.default_rng(seed)
    cases: list[Case] = []
    for deal, one in pairs:
        try:
            play = play_of(deal, one)
        except ValueError as error:
            raise _replayed(deal.number, error) from error
        if play is not None:
            cases += posterior_cases(deal, play, rng)
    return cases


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


def _temperature(scores: Any, chosen: Any, group: Any) -> float:
    """The temperature that gives these events' chosen suits the highest likelihood."""
    likelihood = [float(log_chances(scores, chosen, group, t).mean()) for t in TEMPERATURES]
    return float(TEMPERATURES[int(np.argmax(likelihood))])


def _weight(log_weights: Sequence[np.ndarray]) -> float:
    """The weight whose posteriors score best (the smaller of equals)."""
    gains = [float(posterior_gain(log_weights, w).mean()) for w in WEIGHTS]
    return float(WEIGHTS[int(np.argmax(gains))])


def train(played_folder: Path, out: Path, trees: int, leaves: int, held_out: int,
          command: str, threads: int = 2, bank: Path = BANK) -> dict[str, Any]:
    """Train the ranker, fit its temperature and weight on the tuning deals, fit it again
    on those as well, measure it on the checking deals, and write the model and its card;
    the card."""
    pairs = list(with_bank(read_played(played_folder), bank))
    rows = rows_of(pairs)
    if not rows.x:
        raise SystemExit(f"no events in the played deals of {played_folder}")
    x = np.concatenate(rows.x)
    chosen = np.concatenate(rows.chosen)
    group = np.concatenate(rows.group)
    deal = np.concatenate(rows.deal)
    check = held_out_mask(deal, held_out)
    tune = held_out_mask(deal - 1, held_out)
    y = np.where(chosen == 1, 0, TOP_RELEVANCE).astype(np.float64)
    # First fitted without the tuning deals, to tune on deals it has not seen.
    others = check | tune
    first, scored = fit_ranker(x, y, group, ~others, NAMES, trees, leaves, threads)
    temper = _temperature(scored[tune[others]], chosen[tune], group[tune])
    tuning = [pair for pair in pairs if (pair[0].number - 1) % held_out == 0]
    weight = _weight(suit_log_chances(all_cases(tuning), SuitReading(first, temper)))
    forest, predicted = fit_ranker(x, y, group, ~check, NAMES, trees, leaves, threads)
    model = log_chances(predicted, chosen[check], group[check], temper)
    uniform = log_chances(np.zeros(int(check.sum())), chosen[check], group[check], 1.0)
    lengths = x[check, NAMES.index("length")]
    by_length = log_chances(np.log(lengths), chosen[check], group[check], 1.0)
    starts, ends = runs(group[check])
    top = [float(chosen[check][a + int(np.argmax(predicted[a:b]))])
           for a, b in zip(starts, ends, strict=True)]
    checking = [pair for pair in pairs if pair[0].number % held_out == 0]
    cases = all_cases(checking)
    suits = suit_log_chances(cases, SuitReading(forest, temper))
    forest.save(out)
    card = {
        "features": list(NAMES),
        "temperature": round(temper, 4),
        "weight": weight,
        "target": ("a ranking of the suits a hand held at an event, the suit it chose "
                   "relevant; a softmax of the scores at the temperature is each suit's "
                   "chance, and the weight times the sum of a hand's log-chances weighs "
                   "its layouts"),
        "command": command,
        "played_files": len(files(played_folder)),
        "played_by": ("python -m bot.ai.bridge.learning.played make (bank deals bid by "
                      "the tables with the shipped call values, played as served)"),
        "seeds": ("bank deal i is dealt from random.Random(f'bank:{i}'); LightGBM's seed 1; "
                  "the posteriors' random hands numpy's default_rng(1)"),
        "bank_deals": [int(deal.min()), int(deal.max())],
        "deals": int(np.unique(deal).size),
        "events": int(np.unique(group).size),
        "rows": int(deal.size),
        "held_out": (f"checked on every deal whose number is a multiple of {held_out}; "
                     "the temperature and weight tuned on the deal after each, by a "
                     "model fitted without them"),
        "held_out_events": len(starts),
        "held_out_log_chance": {
            "model": _interval(model), "uniform": _interval(uniform),
            "by_length": _interval(by_length),
            "model_less_uniform": _interval(model - uniform),
            "as": "mean per event, 95% half-width"},
        "held_out_top_suit_chosen": round(float(np.mean(top)), 4),
        "held_out_posterior_gain": {
            "at_weight": _interval(posterior_gain(suits, weight)),
            "at_1": _interval(posterior_gain(suits, 1.0)),
            "cards_followed_with": _interval(posterior_gain(follows_log_weights(cases), 1)),
            "cases": len(cases),
            "as": (f"mean log of how many times likelier the true hand is with the "
                   f"reading, after tricks {', '.join(map(str, CHECKPOINTS))}, against "
                   f"{ALTERNATIVES} hands dealt as its left-hand opponent (or right-hand, "
                   "where that is dummy) sees them, for each hidden hand that chose a "
                   "suit by then; cards_followed_with: the same by the served reading of "
                   "the cards followed with, a yardstick; 95% half-width")},
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
