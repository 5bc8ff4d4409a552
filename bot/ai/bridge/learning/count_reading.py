"""What the defenders' count signals say, measured on bank deals, and the choice of the
count reading's two constants (`carding.MISCOUNT`, `carding.UNSIGNALLED`); with
`--attitude`, the same for their attitude signals to partner's leads
(`carding.MISATTITUDE`, `carding.UNENCOURAGED`); with `--discards`, for their count in
discards (read at the count's constants).

    python -m bot.ai.bridge.learning.count_reading play --first 72150 --deals 43 --out FILE
        [--attitude | --discards]
    python -m bot.ai.bridge.learning.count_reading gain --played FILE [--grid]
        [--attitude | --discards]
    python -m bot.ai.bridge.learning.count_reading unsignalled [--deals 300]

`play`: bank deals bid as the rows are bid (`play_training`) and played to trick
`--tricks` (9) by the served card players giving count (with `--attitude`, count and
attitude; with `--discards`, those and count in discards), the other signals off, a
`played` line each, appended to FILE (a stopped run carries on; 6 to 12 s of CPU a
deal).
`gain`: after tricks 3, 6 and 9, each defender that has given count by then is seen by
declarer and by its partner (not dummy), with 100 hands dealt at random as that seat
sees them (`suit_reading_training.hands_seen_by`). Each reading's **posterior gain**
(`suit_reading_training.posterior_gain`: how many times likelier the true hand becomes
with it, natural log) is printed: the cards followed with as served, the same knowing
that signal cards deny nothing, and that with the count read at the constants as
served, or, with `--grid`, at each pair of a grid. With `--attitude` (deals played with
`--attitude`: attitude shown as well as count), the cases are the defenders that have
shown attitude, and the last reading adds the attitude read to the count's. With
`--discards` (deals played with `--discards`), the cases are the defenders that have
given count in a discard, and a last reading adds the count of discards to the attitude's
(no grid).
`unsignalled`: the same cases on the played deals of `played` (count not given), where
the cards that would be signals are read as the lowest of equal cards: what count gives
up.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import Literal

import numpy as np

from bot.games.cards import Card, Suit

from ...core.carding import (
    MISATTITUDE,
    MISCOUNT,
    UNENCOURAGED,
    UNSIGNALLED,
    Counting,
    CountSignals,
    Trick,
    attitude_occasions,
    attitude_weigh,
    count_occasions,
    count_weigh,
    discard_occasions,
    follows_weigh,
)
from ...core.layouts import Weigh
from ...core.trick_masks import cards_of
from .bank import BankDeal, read
from .play_training import THINK
from .played import PlayedDeal, play_deal, read_played
from .rollouts import Bidders
from .suit_reading_training import (
    ALTERNATIVES,
    CHECKPOINTS,
    Play,
    hands_seen_by,
    play_of,
    posterior_gain,
    with_bank,
)
from .values import shared as shared_values

GRID_MISCOUNT = (0.3, 0.1, 0.05, 0.02, 0.01)
GRID_UNSIGNALLED = (0.6, 0.3, 0.15, 0.1, 0.05)
GRID_MISATTITUDE = GRID_MISCOUNT
GRID_UNENCOURAGED = GRID_UNSIGNALLED
# The signals a measure is of: count to declarer's leads, attitude to partner's, count in
# discards. Each kind's deals are played with the kinds before it given too.
Kind = Literal["count", "attitude", "discards"]
KINDS: tuple[Kind, ...] = ("count", "attitude", "discards")
PLAYED_WITH: dict[Kind, str] = {
    "count": "count signals", "attitude": "count and attitude signals",
    "discards": "count, attitude and count in discards"}
OCCASIONS: dict[Kind, Callable[[Sequence[Trick], Counting], list[tuple[int, Card]]]] = {
    "count": count_occasions, "attitude": attitude_occasions, "discards": discard_occasions}
SWITCHES: dict[Kind, str] = {"count": "count_signals", "attitude": "attitude_signals",
                             "discards": "discard_signals"}


@dataclass(frozen=True, slots=True)
class CountCase:
    """A defender that gave count (or showed attitude), seen by `observer` after some
    tricks of bank deal `deal`: those tricks, declarer, and its true hand first among hands
    dealt at random as the observer sees them (as dealt)."""

    deal: int
    seat: int
    observer: int
    declarer: int
    trumps: Suit | None
    tricks: tuple[Trick, ...]
    hands: tuple[tuple[Card, ...], ...]

    def counting(self, kind: Kind) -> Counting:
        """Who signals what in this case's deal, played with `kind`'s signals."""
        return counting_of(self.declarer, self.trumps, kind)


def counting_of(declarer: int, trumps: Suit | None, kind: Kind) -> Counting:
    """Who signals what in a deal played with `kind`'s signals (and the kinds before it)."""
    return Counting(declarer, attitude=kind != "count", discards=kind == "discards",
                    trumps=trumps)


def count_cases(pairs: Iterable[tuple[BankDeal, PlayedDeal]], seed: int = 1,
                alternatives: int = ALTERNATIVES, kind: Kind = "count") -> list[CountCase]:
    """After each checkpoint trick, each defender that has given `kind`'s signal by then
    (`count_occasions`, `attitude_occasions`, `discard_occasions`), seen by declarer and
    by its partner."""
    rng = np.random.default_rng(seed)
    cases: list[CountCase] = []
    for deal, played in pairs:
        play = play_of(deal, played)
        if play is not None:
            cases += _deal_cases(deal, play, rng, alternatives, kind)
    return cases


def _deal_cases(deal: BankDeal, play: Play, rng: np.random.Generator,
                alternatives: int, kind: Kind) -> list[CountCase]:
    declarer, trumps = play.contract.declarer, play.contract.trump
    counting = counting_of(declarer, trumps, kind)
    cases = []
    for count in CHECKPOINTS:
        if len(play.plays) < 4 * count:
            break
        tricks = tuple(play.plays[i:i + 4] for i in range(0, 4 * count, 4))
        for seat in sorted({s for s, _ in OCCASIONS[kind](tricks, counting)}):
            for observer in (declarer, (seat + 2) % 4):
                if observer == play.dummy:
                    continue
                random_hands = hands_seen_by(deal, play, count, seat, observer, alternatives,
                                             rng)
                hands = (tuple(deal.hands[seat]),
                         *(tuple(cards_of(int(mask))) for mask in random_hands))
                cases.append(CountCase(deal.number, seat, observer, declarer, trumps, tricks,
                                       hands))
    return cases


def _log_weights(case: CountCase, *weighs: Weigh | None) -> np.ndarray:
    total = np.zeros(len(case.hands))
    for weigh in weighs:
        if weigh is not None:
            total += np.asarray(weigh(case.seat, case.hands), dtype=np.float64)
    return total


def gains(cases: Sequence[CountCase], miscount: float = MISCOUNT,
          unsignalled: float = UNSIGNALLED, kind: Kind = "count",
          misattitude: float = MISATTITUDE, unencouraged: float = UNENCOURAGED
          ) -> dict[str, np.ndarray]:
    """Each case's posterior gain by three readings: the cards played to others' leads as
    served (`follows`), the same knowing that signal cards deny nothing (`aware`), and
    that with the count read at `miscount` and `unsignalled` (`count`); where the deals
    show attitude (`kind` attitude or discards), a fourth: that with the attitude read
    too, at `misattitude` and `unencouraged` (`attitude`); where they give count in
    discards, a fifth: that with the discards' count read too (`discards`)."""
    names = KINDS[:KINDS.index(kind) + 1]
    weights: dict[str, list[np.ndarray]] = {name: [] for name in ("follows", "aware", *names)}
    for case in cases:
        tricks = [*case.tricks, ()]
        counting = case.counting(kind)
        aware = follows_weigh(tricks, counting)
        count = count_weigh(tricks, replace(counting, discards=False), miscount, unsignalled)
        weights["follows"].append(_log_weights(case, follows_weigh(tricks)))
        weights["aware"].append(_log_weights(case, aware))
        weights["count"].append(_log_weights(case, aware, count))
        if "attitude" in names:
            attitude = attitude_weigh(tricks, counting, misattitude, unencouraged)
            weights["attitude"].append(_log_weights(case, aware, count, attitude))
        if "discards" in names:
            weights["discards"].append(_log_weights(
                case, aware, count_weigh(tricks, counting, miscount, unsignalled), attitude))
    return {name: posterior_gain(lists, 1.0) for name, lists in weights.items()}


def _interval(values: np.ndarray) -> str:
    half = 1.96 * float(values.std()) / max(1, values.size) ** 0.5
    return f"{float(values.mean()):.3f} ± {half:.3f}"


def play(first: int, deals: int, out: Path, think: float, tricks: int,
         kind: Kind = "count") -> int:
    """Play the bank deals `first` .. `first + deals - 1` that `out` lacks with `kind`'s
    signals and those before it on, the rest off, a line each appended to `out`; how many
    `out` then holds."""
    have = {p.number for p in _read(out)} if out.exists() else set()
    bidders = Bidders(shared_values())
    given = KINDS[:KINDS.index(kind) + 1]
    signals: dict[str, CountSignals] = {
        SWITCHES[name]: "on" if name in given else "off" for name in KINDS}
    for deal in read(first=first, limit=deals):
        if deal.number not in have:
            line = play_deal(deal, bidders, think, tricks, signals).line()
            with out.open("a", encoding="utf-8") as lines:
                lines.write(line + "\n")
            have.add(deal.number)
    return len(have)


def _read(path: Path) -> list[PlayedDeal]:
    return [PlayedDeal.parse(line) for line in path.read_text().splitlines() if line.strip()]


def report(cases: Sequence[CountCase], grid: bool, kind: Kind = "count") -> None:
    """The posterior gains of `cases`, at the served constants or over the grid (`kind`:
    the cases' signals; attitude's grid is of the attitude's constants; discards have
    none)."""
    signals = {(c.deal, c.seat, card): card.rank > min(x.rank for x in c.hands[0]
                                                       if x.suit == card.suit)
               for c in cases for s, card in OCCASIONS[kind](c.tricks, c.counting(kind))
               if s == c.seat}
    print(f"{len(cases)} cases; {len(signals)} {kind} signals, {sum(signals.values())} of "
          "them a card above the hand's lowest in the suit")
    served = gains(cases, kind=kind)
    for name in served:
        print(f"  posterior gain, {name:8} {_interval(served[name])}")
    print(f"  count - aware: {_interval(served['count'] - served['aware'])} "
          f"(MISCOUNT {MISCOUNT}, UNSIGNALLED {UNSIGNALLED})")
    if kind == "discards":
        print(f"  attitude - count: {_interval(served['attitude'] - served['count'])}")
        print(f"  discards - attitude: "
              f"{_interval(served['discards'] - served['attitude'])}")
        return
    if kind == "attitude":
        print(f"  attitude - count: {_interval(served['attitude'] - served['count'])} "
              f"(MISATTITUDE {MISATTITUDE}, UNENCOURAGED {UNENCOURAGED})")
        if grid:
            for misattitude in GRID_MISATTITUDE:
                row = [f"{unencouraged}: {_interval(g['attitude'] - g['count'])}"
                       for unencouraged in GRID_UNENCOURAGED
                       for g in (gains(cases, kind="attitude", misattitude=misattitude,
                                       unencouraged=unencouraged),)]
                print(f"  MISATTITUDE {misattitude}, UNENCOURAGED " + "; ".join(row))
        return
    if grid:
        for miscount in GRID_MISCOUNT:
            row = [f"{unsignalled}: {_interval(g['count'] - g['aware'])}"
                   for unsignalled in GRID_UNSIGNALLED
                   for g in (gains(cases, miscount, unsignalled),)]
            print(f"  MISCOUNT {miscount}, UNSIGNALLED " + "; ".join(row))


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.bridge.learning.count_reading")
    parser.add_argument("verb", choices=("play", "gain", "unsignalled"))
    parser.add_argument("--first", type=int, default=72_150)
    parser.add_argument("--deals", type=int, default=43)
    parser.add_argument("--out", "--played", dest="path", type=Path)
    parser.add_argument("--think", type=float, default=None,
                        help="seconds of CPU a card (default: the rows' THINK)")
    parser.add_argument("--tricks", type=int, default=max(CHECKPOINTS), choices=range(1, 14))
    parser.add_argument("--grid", action="store_true")
    kinds = parser.add_mutually_exclusive_group()
    kinds.add_argument("--attitude", action="store_true",
                       help="play: show attitude too; gain: measure the attitude signals")
    kinds.add_argument("--discards", action="store_true",
                       help="play: give count in discards too (with attitude); gain: "
                            "measure the count of discards")
    args = parser.parse_args(argv)
    kind: Kind = "discards" if args.discards else "attitude" if args.attitude else "count"
    if args.verb == "unsignalled":
        pairs = with_bank(islice(read_played(), args.deals))
        print(f"not given: {_interval(_unsignalled(count_cases(pairs)))}")
        return 0
    if args.path is None:
        parser.error(f"{args.verb} needs --out FILE")
    if args.verb == "play":
        held = play(args.first, args.deals, args.path, args.think or THINK, args.tricks,
                    kind)
        print(f"{held} deals played with {PLAYED_WITH[kind]} in {args.path}")
        return 0
    report(count_cases(with_bank(_read(args.path)), kind=kind), args.grid, kind)
    return 0


def _unsignalled(cases: Sequence[CountCase]) -> np.ndarray:
    """What the cards that would give count say read as the lowest of equal cards, on deals
    where no count is given: the posterior gain of the cards followed with less that of
    the same knowing signal cards deny nothing."""
    measured = gains(cases)
    given_up: np.ndarray = measured["follows"] - measured["aware"]
    return given_up


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
