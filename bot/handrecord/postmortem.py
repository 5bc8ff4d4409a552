"""The double-dummy post-mortem of a played deal, card by card, as card rooms' hand
viewers show it.

Before each card, the position (cards still held, the trick in progress) is solved double
dummy; the solver scores every card the player could have played there, so one solve per
card gives both the value before the card (the best card's) and after it (the card
played's). Values are the tricks the declaring side ends the deal with: tricks already won
plus what it takes from here. A card whose value is below the best card's cost its side
that many tricks. The positions are solved one after another, not as one batch: DDS then
reuses what it learnt on the previous, similar position (measured about half the CPU time
of a batch), and computer players can take the solver between two solves.

Blocking (it runs the solver): call it from a worker thread or process. A `deadline`
(wall-clock time, `time.time()`, so it means the same in a worker process) makes the
work stop between two solves once it has passed (OutOfTime): one solve is the most it
runs over.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.ai.core.dds import Position, solve
from bot.games.cards import Card, Seat
from bot.games.fairness import FairDeals
from bot.games.tricks import trick_winner

from .record import HandRecord
from .replay import OutOfTime, replay_deal


@dataclass(frozen=True, slots=True)
class CardVerdict:
    """One card played, with the declaring side's double-dummy tricks before and after."""

    trick: int  # 1..13
    seat: Seat  # the hand it came from (dummy's own seat for dummy's cards)
    card: Card
    before: int  # declaring side's tricks with best play from here, before this card
    after: int  # the same after it
    cost: int  # tricks this card cost its own side (0: as good as the best)

    @property
    def label(self) -> str:
        """`W Q♠ at trick 3`."""
        return f"{self.seat.letter} {self.card.label} at trick {self.trick}"


@dataclass(frozen=True, slots=True)
class PostMortem:
    """Every card's verdict, in the order played; empty for a passed-out deal."""

    cards: tuple[CardVerdict, ...]

    @property
    def mistakes(self) -> tuple[CardVerdict, ...]:
        return tuple(v for v in self.cards if v.cost > 0)

    @property
    def opening_value(self) -> int | None:
        """Double-dummy tricks for the declaring side before the opening lead."""
        return self.cards[0].before if self.cards else None


def positions(record: HandRecord) -> list[Position]:
    """The position before each card of the record's play."""
    contract = record.contract
    if contract is None or not record.play:
        return []
    held = [set(hand) for hand in record.hands]
    out: list[Position] = []
    leader = record.play[0][0]
    trick: list[tuple[Seat, Card]] = []
    for seat, card in record.play:
        out.append(Position(tuple(tuple(sorted(h)) for h in held), contract.trump,
                            int(leader), tuple(c for _, c in trick)))
        held[seat].discard(card)
        trick.append((seat, card))
        if len(trick) == 4:
            leader = trick_winner(trick, contract.trump)
            trick = []
    return out


def analyse(record: HandRecord, deadline: float | None = None,
            clock: Callable[[], float] = time.time) -> PostMortem:
    """The post-mortem of the record's play (solver: blocking); OutOfTime once `deadline`
    (by `clock`) has passed, checked before each solve."""
    contract = record.contract
    places = positions(record)
    if contract is None or not places:
        return PostMortem(())
    side = contract.declarer % 2
    scores: list[dict[Card, int]] = []
    for place in places:
        if deadline is not None and clock() >= deadline:
            raise OutOfTime(f"{len(scores)} of {len(places)} positions solved in time")
        scores.append(solve([place])[0])
    return PostMortem(tuple(_verdicts(record.play, places, scores, side)))


def _verdicts(play: Sequence[tuple[Seat, Card]], places: Sequence[Position],
              scores: Sequence[dict[Card, int]], side: int) -> list[CardVerdict]:
    out: list[CardVerdict] = []
    won = 0  # tricks the declaring side has completed
    for i, ((seat, card), score) in enumerate(zip(play, scores, strict=True)):
        left = 13 - i // 4  # tricks still to be won, the one in progress included
        best, got = max(score.values()), score[card]
        if seat % 2 != side:  # the solver counts for the side to play
            best, got = left - best, left - got
        out.append(CardVerdict(trick=i // 4 + 1, seat=seat, card=card, before=won + best,
                               after=won + got, cost=abs(best - got)))
        if i % 4 == 3:
            trick = [(s, c) for s, c in play[i - 3:i + 1]]
            won += trick_winner(trick, places[i].trump) % 2 == side
    return out


def summary_line(result: PostMortem, limit: int = 3) -> str | None:
    """The compact line for the end-of-deal post, under its field `DEAL_VERDICT_NAME`
    (bot.handrecord; so it does not say "double dummy" again):
    `Cost a trick: W Q♠ at trick 3; N A♥ at trick 5 (2)`."""
    mistakes = result.mistakes
    if not result.cards:
        return None
    if not mistakes:
        return "No card cost a trick."
    shown = "; ".join(v.label + (f" ({v.cost})" if v.cost > 1 else "")
                      for v in mistakes[:limit])
    more = len(mistakes) - limit
    return f"Cost a trick: {shown}" + (f" (+{more} more)" if more > 0 else "")


def table_lines(result: PostMortem) -> list[str]:
    """One line per trick for the hand record: the declaring side's double-dummy tricks
    before and after the trick, then its cards, each costly card marked with how many
    tricks it cost (`N A♥-1`)."""
    lines: list[str] = []
    for start in range(0, len(result.cards), 4):
        played = result.cards[start:start + 4]
        cells = " ".join(f"{v.seat.letter} {v.card.label}" + (f"-{v.cost}" if v.cost else "")
                         for v in played)
        lines.append(f"{played[0].trick:>2} {played[0].before:>2}>{played[-1].after:<2} {cells}")
    return lines


def deal_line(game_name: str, options: Mapping[str, object], seed: int | FairDeals,
              actions: Iterable[tuple[int, str]], deal_no: int,
              deadline: float | None = None) -> str | None:
    """The end-of-deal post's line for a finished deal of a stored match (blocking;
    OutOfTime past `deadline`)."""
    return summary_line(analyse(replay_deal(game_name, options, seed, actions, deal_no),
                                deadline))
