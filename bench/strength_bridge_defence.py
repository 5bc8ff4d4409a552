"""A learned kind of card of the play to tricks 2 to 6 of `bridge-advanced` as the bot
serves it, by the card search and by a learned model, paired decision by decision: the
defence's leads (`bot.ai.bridge.learning.defence`, the default) or, with `--kind
declaring`, the declaring side's cards from either hand (`bot.ai.bridge.learning.declaring`).

    python -m bench.strength bridge-defence --model FILE [--against FILE] [--deals 100]
        [--first-seed 1] [--think 0.8] [--record FILE] [--kind defence|declaring]
        [--bidders bridge-advanced]
    python -m bench.strength bridge-defence --report FILE [FILE ...]

The deal set is bridge-play's (the first deals of matches --first-seed, ..., bid by
bridge-basic, passed-out seeds skipped; by the robots as served with `--bidders
bridge-advanced`). `bridge-advanced` plays the first six tricks in
all four seats, each decision as the bot serves it (`think_as_served`, the card's budget
of --think seconds on the thinking thread's CPU clock). Wherever the kind's decision comes
with a choice (a defender on lead; declarer to play from either hand), the search chooses
as the bot serves it now, the kind's own model off, and the model in --model chooses
reading that very search's outcome, as a player given the model does (`PlayModel.choose`,
after the same search; the search is deterministic for a position and seed, so one search
serves both ways at half the cost). Each card is scored by the double-dummy tricks it
gives away against the position's best card. The play goes on with the search's card, so
both ways meet the same positions. `--against` reads a second model on the same outcome
(the one served, to judge a new model against it), and the two models are compared
decision by decision as well.

Why by decision: a model that changes a card changes every card after it, and a whole-deal
comparison (`bridge-play --paired`) carries the noise of all of them. Here the only
difference measured is the card itself. A deal's decisions are not independent, so the
interval is over deals, of the model's loss less the search's summed over the deal.

Reported: the deals and decisions, the decisions where the two ways differ, the DD tricks
a decision each way gives away, the model's less the search's (and, with --against, less
the other model's) per deal with its 95% interval, and each way's process CPU per decision
(DDS's threads included; a model's is the search's and the model's own) p50 / p95 / max.
`--record FILE` appends a JSON line per deal; a run that finds its seed in FILE skips
it, so a stopped run resumes. `--report` merges such files (runs split over seed ranges)
into one report; it refuses files of different kinds, models, budgets or bidders.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.ai.bridge.learning.play_training import KINDS
from bot.ai.bridge.learning.trick_play import LEARNED_TO_TRICK, PlayKind, PlayModel
from bot.games.bridge import ContractBridge
from bot.games.bridge_view import BridgeView
from bot.games.cards import Card
from bot.tables.thinking import think_as_served

from .intervals import signed_interval
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

WAYS = ("search", "learned")
TRICKS = LEARNED_TO_TRICK  # the decisions to tricks 2..TRICKS are measured


def model_id(path: Path) -> str:
    """The model file's SHA-256, short: records of different models are not merged."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def deal_leads(seed: int, bid: ContractBridge, reader: PlayModel, think: float,
               tricks: int = TRICKS, against: PlayModel | None = None,
               kind: PlayKind = KINDS["defence"]) -> list[Record]:
    """Deal `seed`'s decisions of `kind` (default: the defence's leads) to tricks
    2..`tricks`, each chosen both ways (the model `reader` for the learned way), and by
    `against` where given, and scored (`bid`: the deal set's game of it)."""

    def both_ways(game: ContractBridge, seat: int, view: BridgeView, legal: Sequence[str],
                  player: AdvancedBridgePlayer, _: int) -> tuple[str, Any, Record] | None:
        if not (kind.applies(view, tricks) and len(legal) > 1):
            return None
        scores = dd_scores(game)
        best = max(scores.values())
        setattr(player, kind.attribute, None)
        start = time.process_time()
        searched, back = think_as_served(player, view, legal, budget(think))
        searching = time.process_time() - start
        assert isinstance(back, AdvancedBridgePlayer)
        cards = [Card.parse(t[5:]) for t in legal]
        chosen = {"search": searched}
        cpu = {"search": searching}
        for way, model in (("learned", reader), ("against", against)):
            if model is None:
                continue
            start = time.process_time()
            card = model.choose(view, cards, back.last_outcome)
            cpu[way] = searching + time.process_time() - start
            chosen[way] = searched if card is None else "play:" + card.text
        return searched, back, {
            "trick": len(view.played) // 4 + 1, "cards": len(legal),
            **{way: best - scores[led] for way, led in chosen.items()}, "led": chosen,
            "cpu": cpu}

    return probe_served_play(seed, bid, think, tricks, both_ways)


def kind_of(deal: Record) -> str:
    """The kind a deal's record is of (a record made before the kinds is the defence's)."""
    return str(deal.get("kind", "defence"))


def report(deals: Sequence[Record]) -> None:
    """The figures of `deals` (one kind, one model, one model against it, and one
    budget)."""
    one_run(deals, lambda d: (kind_of(d), d["model"], d.get("against"), d["think"],
                              d["tricks"], auctions_by(d)),
            "kinds, models, budgets or bidders")
    what = KINDS[kind_of(deals[0])].what
    positions = [p for d in deals for p in d["positions"]]
    if not positions:
        print(f"{len(deals)} deals, none of the {what} with a choice")
        return
    differ = sum(p["led"]["search"] != p["led"]["learned"] for p in positions)
    print(f"{len(deals)} deals (seeds {spans(d['seed'] for d in deals)}), "
          f"{len(positions)} {what} with a choice, {differ} played differently by the model")
    ways = (*WAYS, "against") if deals[0].get("against") else WAYS
    for way in ways:
        print(way_line(way, 8, "card", [float(p[way]) for p in positions],
                       [p["cpu"][way] for p in positions]))
    for other in ways[:1] + ways[2:]:
        if other == "against":
            moved = sum(p["led"]["learned"] != p["led"]["against"] for p in positions)
            print(f"  the model and the one against it played differently at {moved}")
        per_deal = [float(sum(p["learned"] - p[other] for p in d["positions"])) for d in deals]
        print(f"  learned - {other}, DD tricks a deal (paired by deal): "
              f"{signed_interval(per_deal)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-defence")
    parser.add_argument("--model", type=Path, help="the kind's model file (.npz)")
    parser.add_argument("--kind", choices=sorted(KINDS), default="defence",
                        help="the defence's leads, or the declaring side's cards")
    parser.add_argument("--against", type=Path,
                        help="another model read on the same searches (the one served)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.8)
    add_bidders(parser)
    parser.add_argument("--record", type=Path, help="append each deal as a JSON line")
    parser.add_argument("--report", type=Path, nargs="+", help="merge --record files")
    args = parser.parse_args(argv)
    if args.report:
        report(read_records(args.report))
        return 0
    if args.model is None or not args.model.is_file():
        parser.error("--model: the kind's model file")
    if args.deals < 1 or args.think <= 0:
        parser.error("--deals and --think must be positive")
    if args.against is not None and not args.against.is_file():
        parser.error("--against: another model file of the kind")
    kind = KINDS[args.kind]
    reader = kind.model(args.model)
    against = kind.model(args.against)
    if reader is None or (args.against is not None and against is None):
        raise SystemExit(f"a model cannot be read as a model of the {kind.what} "
                         "(logged above)")
    # What every deal's record says of the run, worked out once.
    run = {"kind": kind.name, "think": args.think, "tricks": TRICKS,
           "model": model_id(args.model),
           "against": None if args.against is None else model_id(args.against),
           "code": code_version(), "bidders": args.bidders}
    deals = deal_set(args.first_seed, args.deals, args.bidders)
    print(f"The {kind.what} of bridge-advanced on {len(deals)} deals (seeds "
          f"{spans(deals)}), by the card search and by {args.model}"
          + ("" if args.against is None else f" against {args.against}")
          + f", budget {args.think:g} s on the thinking thread's CPU clock; auctions by "
          f"{args.bidders}", flush=True)
    report(run_seeds(list(deals), args.record, lambda seed: {
        "seed": seed, **run,
        "positions": deal_leads(seed, deals[seed], reader, args.think, against=against,
                                kind=kind)}))
    return 0
