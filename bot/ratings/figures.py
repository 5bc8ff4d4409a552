"""Game-specific figures for /stats, counted per seat by replaying a match's action log.

A match is replayed once, when it finishes (and again by `ratings --rebuild`); the totals
are stored per person, so /stats only reads a few rows. Figures are whole numbers:

- bridge, single_dummy: `declared` (deals played as declarer), `made` (of those, made),
  `slams_bid` (contracts at the six or seven level), `slams_made`;
- spades: `nil_bids`, `nil_made`, `double_nil_bids`, `double_nil_made`;
- tennis: `games` (deals played) and `errors` (their errors in all);
- bidfair: `contracts` (deals as contract holder) and `fulfilled`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from bot.games import Event, create, replayed
from bot.games.fairness import FairDeals

Figures = dict[int, dict[str, int]]  # seat -> figure -> count

FIGURE_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "bridge": ("declared", "made", "slams_bid", "slams_made"),
    "single_dummy": ("declared", "made", "slams_bid", "slams_made"),
    "spades": ("nil_bids", "nil_made", "double_nil_bids", "double_nil_made"),
    "tennis": ("games", "errors"),
    "bidfair": ("contracts", "fulfilled"),
}


def match_figures(game_name: str, options: Mapping[str, Any], seed: int | FairDeals,
                  history: Iterable[tuple[int, str]]) -> Figures:
    """Replay the log from the seed and count each seat's figures (only seats with any)."""
    game = create(game_name, options=options, seed=seed)
    counter = _COUNTERS[game_name]()
    for events in replayed(game, history):
        counter.take(events)
    return {seat: dict(counts) for seat, counts in counter.figures.items() if counts}


class _Counter(ABC):
    """Counts one game's figures per seat from the events of a replayed match."""

    def __init__(self) -> None:
        self.figures: Figures = {}

    def add(self, seat: int, name: str, amount: int = 1) -> None:
        counts = self.figures.setdefault(seat, {})
        counts[name] = counts.get(name, 0) + amount

    def take(self, events: Sequence[Event]) -> None:
        for event in events:
            self.on(event)

    @abstractmethod
    def on(self, event: Event) -> None:
        """Count what one event shows."""


def _contract_level(code: str | None) -> int | None:
    return int(code[0]) if code and code[0].isdigit() else None


class _BridgeCounter(_Counter):
    """Rubber bridge: tricks counted per side from "trick" events (seat % 2 is the side)."""

    def __init__(self) -> None:
        super().__init__()
        self.contract: tuple[int, int] | None = None  # level, declarer
        self.declarer = 0
        self.tricks = [0, 0]

    def on(self, event: Event) -> None:
        if event.kind == "auction_end":
            level = _contract_level(event.data.get("contract"))
            self.contract = (level, int(event.data["declarer"])) if level else None
        elif event.kind == "trick":
            self.tricks[int(event.data["winner"]) % 2] += 1
        elif event.kind == "deal_end":
            if self.contract is not None:
                level, declarer = self.contract
                self._declared(declarer, level, self.tricks[declarer % 2] >= 6 + level)
            self.contract, self.tricks = None, [0, 0]

    def _declared(self, seat: int, level: int, made: bool) -> None:
        self.add(seat, "declared")
        self.add(seat, "made", int(made))
        if level >= 6:
            self.add(seat, "slams_bid")
            self.add(seat, "slams_made", int(made))


class _SingleDummyCounter(_BridgeCounter):
    """Single dummy: the deal_end event carries the contract and each player's tricks."""

    def on(self, event: Event) -> None:
        if event.kind == "auction_end":
            self.declarer = int(event.data["declarer"])
        elif event.kind == "deal_end":
            level = _contract_level(event.data.get("contract"))
            tricks = event.data.get("tricks") or (0, 0)
            if level is not None:
                self._declared(self.declarer, level, tricks[self.declarer] >= 6 + level)


class _SpadesCounter(_Counter):
    def on(self, event: Event) -> None:
        if event.kind != "deal_end":
            return
        tricks = event.data.get("tricks", {})
        for seat, bid in event.data.get("bids", {}).items():
            if bid in ("nil", "double_nil"):
                self.add(int(seat), f"{bid}_bids")
                self.add(int(seat), f"{bid}_made", int(tricks.get(seat, 0) == 0))


class _TennisCounter(_Counter):
    def on(self, event: Event) -> None:
        if event.kind == "deal_end":
            for seat, errors in enumerate(event.data.get("errors", ())):
                self.add(seat, "games")
                self.add(seat, "errors", int(errors))


class _BidFairCounter(_Counter):
    def __init__(self) -> None:
        super().__init__()
        self.holder: int | None = None

    def on(self, event: Event) -> None:
        if event.kind == "contract":
            holder = event.data.get("holder")
            self.holder = None if holder is None else int(holder)
        elif event.kind == "deal_end":
            score = event.data.get("score")
            if self.holder is not None and score is not None:
                self.add(self.holder, "contracts")
                self.add(self.holder, "fulfilled", int(bool(score.fulfilled)))
            self.holder = None


_COUNTERS: Final[dict[str, type[_Counter]]] = {
    "bridge": _BridgeCounter,
    "single_dummy": _SingleDummyCounter,
    "spades": _SpadesCounter,
    "tennis": _TennisCounter,
    "bidfair": _BidFairCounter,
}
