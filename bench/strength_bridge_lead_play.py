"""The card play after the opening lead with a reading of the play on and off, paired
decision by decision, as the bot serves it: the opening lead read
(`AdvancedBridgePlayer.read_lead`, the default `--flag`), the cards followed with
(`--flag read_follows`), or the suits chosen in the play (`--flag read_suits`); or the
card search solving up to twice as many layouts where its budget affords them
(`--flag wide_search`: `max_layouts` at twice `card_search.MAX_LAYOUTS`, "read", against
it, "unread"); or dealing four times as many layouts for the hand reading to choose the
solved ones from (`--flag oversample`: `oversample` at four times `layouts.OVERSAMPLE`);
or, to measure what a better hand reading could still save, a reading that knows each
hidden hand's true points and lengths (`--flag true_reading`: `TrueReading`, never
served, against the learned reading); or the defenders' count signals, given and read on
both sides (`--flag count_signals`: `AdvancedBridgePlayer.count_signals` "on"), where the
play goes on with the read way's cards, signals and all, and the unread way neither gives
nor reads count but knows the signal cards deny nothing ("ignored"); or the defenders'
attitude signals to partner's leads the same way (`--flag attitude_signals`), or both at
once (`--flag signals`: count and attitude "on" against both "ignored"), or their count
in discards (`--flag discard_signals`, count and attitude as served).

    python -m bench.strength bridge-lead-play [--deals 100] [--first-seed 1] [--think 0.8]
        [--tricks 13]
        [--flag read_lead|read_follows|read_suits|wide_search|oversample|true_reading|
                count_signals|attitude_signals|signals|discard_signals]
        [--record FILE] [--bidders bridge-advanced]
    python -m bench.strength bridge-lead-play --report FILE [FILE ...]

The deal set is bridge-play's (the first deals of matches --first-seed, ..., bid by
bridge-basic, passed-out seeds skipped; by the robots as served with `--bidders
bridge-advanced`). `bridge-advanced` plays the first --tricks tricks
in all four seats, each card as the bot serves it (`think_as_served`, --think seconds on
the thinking thread's CPU clock). At every card after the opening lead where the seat has
a choice, the same player at the same position chooses both with the flag on ("read")
and off ("unread"); both cards are scored by the double-dummy tricks they give away
against the position's best card, and the play goes on with the served way's card (the
flag as the player is served), so both ways meet the same positions.

Why by decision: a reading changes the layouts of nearly every search after it, and
every card after a changed card changes too, so a whole-deal comparison (`bridge-play
--paired`) carries the noise of two diverging plays. Here the only difference measured is
each card itself. A deal's decisions are not independent, so the interval is over deals,
of the read less the unread summed over the deal (declarer's side and the defence also
apart).

Reported: the deals and decisions, those where the two ways differ, the DD tricks a
decision each way, each way's DD tricks lost a deal by side (the served way's are the card
play as served, after the opening lead), the read less the unread per deal with its 95%
interval, and each way's process CPU per decision (DDS's threads included) p50 / p95 /
max. `--record FILE` appends
a JSON line per deal; a run that finds its seed in FILE skips it, so a stopped run resumes.
`--report` merges such files into one report; it refuses files of different budgets,
trick counts, flags, code or bidders.
"""

from __future__ import annotations

import argparse
import pickle
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.ai.bridge.learning.reading import MIN_SPREAD, Reading, dealt_alone, measures, view_weigh
from bot.ai.core.card_search import MAX_LAYOUTS
from bot.ai.core.layouts import OVERSAMPLE, Weigh
from bot.games.bridge import ContractBridge
from bot.games.bridge_view import BridgeView
from bot.games.cards import Card
from bot.tables.thinking import think_as_served

from .intervals import mean_half, signed_interval
from .seeded_records import Record, one_run, read_records, run_seeds
from .strength_bridge_play import (
    add_bidders,
    auctions_by,
    budget,
    code_version,
    dd_scores,
    deal_set,
    probe_served_play,
    spans,
    way_line,
)

WAYS = ("unread", "read")


@dataclass(frozen=True, slots=True)
class TrueReading:
    """A hand reading that knows the deal (`AdvancedBridgePlayer.reading`): each hidden
    hand's weight is centred on its true points and lengths, at the learned reading's
    least spread. Not a player: it measures how much of the play's loss a perfect
    reading of points and lengths would save, inside the served search."""

    dealt: tuple[tuple[Card, ...], ...]

    def __call__(self, view: BridgeView) -> Weigh | None:
        seat = view.seat
        if seat is None:
            return None
        alone_mean, alone_spread = dealt_alone(self.dealt[seat])
        truth = tuple(tuple(measures(self.dealt[(seat + rel) % 4])) for rel in (1, 2, 3))
        return Reading(seat, truth, (MIN_SPREAD,) * 3, alone_mean, alone_spread).log_weights


@dataclass(frozen=True, slots=True)
class PerDeal:
    """A switch's value made anew for each deal from its game (`TrueReading` of its hands)."""

    make: Callable[[ContractBridge], object]


# The player's switches this bench can pair: each one's attribute (or attributes, set
# together to the values' items), and its values off ("unread") and on ("read"), or how to
# make the value for a deal (`PerDeal`).
FLAGS: dict[str, tuple[str | tuple[str, ...], object, object]] = {
    "read_lead": ("read_lead", False, True),
    "read_follows": ("read_follows", False, True),
    "read_suits": ("read_suits", False, True),
    "wide_search": ("max_layouts", MAX_LAYOUTS, 2 * MAX_LAYOUTS),
    "oversample": ("oversample", OVERSAMPLE, 4 * OVERSAMPLE),
    "true_reading": ("reading", view_weigh, PerDeal(lambda game: TrueReading(game.dealt))),
    "count_signals": ("count_signals", "ignored", "on"),
    "attitude_signals": ("attitude_signals", "ignored", "on"),
    "signals": (("count_signals", "attitude_signals"), ("ignored", "ignored"), ("on", "on")),
    "discard_signals": ("discard_signals", "ignored", "on"),
}
# The switches that change what the cards played say (signals): the play goes on with the
# read way's cards, so that the positions both ways meet hold the signals to read.
GOES_ON_READ = frozenset({"count_signals", "attitude_signals", "signals", "discard_signals"})
DEFAULT_FLAG = "read_lead"
SIDES = ("declaring", "defence")


def deal_decisions(seed: int, bid: ContractBridge, think: float, tricks: int,
                   flag: str = "read_lead") -> list[Record]:
    """Deal `seed`'s card decisions after the opening lead, to the end of trick `tricks`,
    each made with the player's `flag` on and off, and scored (`bid`: the deal set's game
    of it)."""

    def both_ways(game: ContractBridge, seat: int, view: BridgeView, legal: Sequence[str],
                  player: AdvancedBridgePlayer, done: int) -> tuple[str, Any, Record] | None:
        assert game.contract is not None
        if (not view.played and not view.trick) or len(legal) < 2:
            return None
        scores = dd_scores(game)
        best = max(scores.values())
        attribute, *values = FLAGS[flag]
        off, on = (v.make(game) if isinstance(v, PerDeal) else v for v in values)
        if flag in GOES_ON_READ:
            switch(player, attribute, on)
        served = "read" if switched(player, attribute) == on else "unread"
        other: AdvancedBridgePlayer = pickle.loads(pickle.dumps(player))
        switch(other, attribute, off if served == "read" else on)
        played: dict[str, str] = {}
        cpu: dict[str, float] = {}
        back: Any = player
        # Each way goes first every other decision: what one way leaves in the process's
        # caches (the auction's check, the models' batches) helps the other's CPU alike.
        for way in WAYS if done % 2 == 0 else WAYS[::-1]:
            start = time.process_time()
            played[way], returned = think_as_served(
                player if way == served else other, view, legal, budget(think))
            cpu[way] = time.process_time() - start
            if way == served:
                back = returned
        to_play = view.playing_for if view.playing_for is not None else seat
        return played[served], back, {
            "trick": len(view.played) // 4 + 1, "cards": len(legal),
            "side": SIDES[to_play % 2 != game.contract.declarer % 2],
            **{way: best - scores[played[way]] for way in WAYS},
            "played": played, "cpu": cpu, "went_on": served}

    return probe_served_play(seed, bid, think, tricks, both_ways)


def switch(player: AdvancedBridgePlayer, attribute: str | tuple[str, ...], value: Any
           ) -> None:
    """Set a flag's attribute, or its attributes to the items of `value`."""
    if isinstance(attribute, str):
        setattr(player, attribute, value)
        return
    for name, item in zip(attribute, value, strict=True):
        setattr(player, name, item)


def switched(player: AdvancedBridgePlayer, attribute: str | tuple[str, ...]) -> Any:
    """A flag's attribute's value (a tuple of them, for a flag of several)."""
    if isinstance(attribute, str):
        return getattr(player, attribute)
    return tuple(getattr(player, name) for name in attribute)


def report(deals: Sequence[Record]) -> None:
    """The figures of `deals` (one budget, trick count and code)."""
    # Records made before the flag was recorded read the lead.
    one_run(deals, lambda d: (d["think"], d["tricks"], d.get("flag", DEFAULT_FLAG),
                              d["code"], auctions_by(d)),
            "budgets, tricks, flags, code or bidders")
    flag = deals[0].get("flag", DEFAULT_FLAG) if deals else DEFAULT_FLAG
    decisions = [p for d in deals for p in d["decisions"]]
    if not decisions:
        print(f"{len(deals)} deals, no decision with a choice after the opening lead")
        return
    differ = sum(p["played"]["unread"] != p["played"]["read"] for p in decisions)
    print(f"{len(deals)} deals (seeds {spans(d['seed'] for d in deals)}), "
          f"{len(decisions)} decisions with a choice after the opening lead, {differ} "
          f"played differently with {flag} on (read) and off (unread)")
    for way in WAYS:
        print(way_line(way, 7, "decision", [float(p[way]) for p in decisions],
                       [p["cpu"][way] for p in decisions]))
    # Records made before the lead was read as served went on with the unread card.
    went_on = {p.get("went_on", "unread") for p in decisions}
    for way in WAYS:
        # Each way's loss a deal by side: the served way's is the card play as served, after
        # the opening lead (bridge-play's declaring side, and its defence with leads apart).
        lost = {side: mean_half([float(sum(p[way] for p in d["decisions"] if p["side"] == side))
                                 for d in deals]) for side in SIDES}
        print(f"  {way:7} DD tricks lost a deal: " + ", ".join(
            f"{side} {mean:.3f} ± {half:.3f}" for side, (mean, half) in lost.items())
            + ("; the play went on with its cards" if went_on == {way} else ""))
    for label, sides in (("both sides", SIDES), ("declaring side", ("declaring",)),
                         ("defence", ("defence",))):
        per_deal = [float(sum(p["read"] - p["unread"] for p in d["decisions"]
                              if p["side"] in sides)) for d in deals]
        print(f"  read - unread, DD tricks a deal, {label}: {signed_interval(per_deal)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-lead-play")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.8)
    parser.add_argument("--tricks", type=int, default=13, choices=range(1, 14), metavar="N")
    parser.add_argument("--flag", choices=tuple(FLAGS), default=DEFAULT_FLAG,
                        help="the switch paired on and off (default: the opening lead's "
                             "reading)")
    add_bidders(parser)
    parser.add_argument("--record", type=Path, help="append each deal as a JSON line")
    parser.add_argument("--report", type=Path, nargs="+", help="merge --record files")
    args = parser.parse_args(argv)
    if args.report:
        report(read_records(args.report))
        return 0
    if args.deals < 1 or args.think <= 0:
        parser.error("--deals and --think must be positive")
    run = {"think": args.think, "tricks": args.tricks, "flag": args.flag,
           "code": code_version(), "bidders": args.bidders}
    deals = deal_set(args.first_seed, args.deals, args.bidders)
    print(f"Card play after the opening lead of bridge-advanced on {len(deals)} deals "
          f"(seeds {spans(deals)}), tricks 1-{args.tricks}, {args.flag} off and on, "
          f"budget {args.think:g} s on the thinking thread's CPU clock; auctions by "
          f"{args.bidders}", flush=True)
    report(run_seeds(list(deals), args.record, lambda seed: {
        "seed": seed, **run,
        "decisions": deal_decisions(seed, deals[seed], args.think, args.tricks,
                                    args.flag)}))
    return 0
