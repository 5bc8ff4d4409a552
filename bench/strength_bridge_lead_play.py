"""The card play after the opening lead with the lead read (`AdvancedBridgePlayer.read_lead`)
and without, paired decision by decision, as the bot serves it.

    python -m bench.strength bridge-lead-play [--deals 100] [--first-seed 1] [--think 0.8]
        [--tricks 13] [--record FILE]
    python -m bench.strength bridge-lead-play --report FILE [FILE ...]

The deal set is bridge-play's (the first deals of matches --first-seed, ..., bid by
bridge-basic, passed-out seeds skipped). `bridge-advanced` plays the first --tricks tricks
in all four seats, each card as the bot serves it (`think_as_served`, --think seconds on
the thinking thread's CPU clock), the lead unread, as served now. At every card after the
opening lead where the seat has a choice, the same player at the same position also
chooses with the lead read; both cards are scored by the double-dummy tricks they give
away against the position's best card, and the play goes on with the unread card, so both
ways meet the same positions.

Why by decision: reading the lead changes the layouts of nearly every search after it, and
every card after a changed card changes too, so a whole-deal comparison (`bridge-play
--paired`) carries the noise of two diverging plays. Here the only difference measured is
each card itself. A deal's decisions are not independent, so the interval is over deals,
of the read less the unread summed over the deal (declarer's side and the defence also
apart).

Reported: the deals and decisions, those where the two ways differ, the DD tricks a
decision each way, the read less the unread per deal with its 95% interval, and each way's
process CPU per decision (DDS's threads included) p50 / p95 / max. `--record FILE` appends
a JSON line per deal; a run that finds its seed in FILE skips it, so a stopped run resumes.
`--report` merges such files into one report; it refuses files of different budgets,
trick counts or code.
"""

from __future__ import annotations

import argparse
import json
import pickle
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.ai import make_player
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.tables.thinking import think_as_served

from .intervals import mean_half
from .strength_bridge_play import (
    bid_out,
    budget,
    code_version,
    dd_scores,
    deal_set,
    percentiles,
    spans,
)

Record = dict[str, Any]  # one deal, as --record writes it
WAYS = ("unread", "read")
SIDES = ("declaring", "defence")


def deal_decisions(seed: int, think: float, tricks: int) -> list[Record]:
    """Deal `seed`'s card decisions after the opening lead, to the end of trick `tricks`,
    each made both ways and scored."""
    game = bid_out(seed)
    assert game is not None and game.contract is not None
    declaring = game.contract.declarer % 2
    players = [make_player("bridge", seed * 7 + s, "bridge-advanced") for s in range(4)]
    decisions: list[Record] = []
    while game.deal_no == 1 and not game.finished:
        seat = next(iter(game.to_act()))
        view, legal = game.view(seat), game.legal(seat)
        if len(view.played) >= 4 * tricks:
            break
        player = players[seat]
        assert isinstance(player, AdvancedBridgePlayer) and not player.read_lead
        if (not view.played and not view.trick) or len(legal) < 2:
            action, players[seat] = think_as_served(player, view, legal, budget(think))
            game.apply(seat, action)
            continue
        scores = dd_scores(game)
        best = max(scores.values())
        reading: AdvancedBridgePlayer = pickle.loads(pickle.dumps(player))
        reading.read_lead = True
        played: dict[str, str] = {}
        cpu: dict[str, float] = {}
        back: Any = player
        # Each way goes first every other decision: what one way leaves in the process's
        # caches (the auction's check, the models' batches) helps the other's CPU alike.
        first = WAYS if len(decisions) % 2 == 0 else WAYS[::-1]
        for way in first:
            start = time.process_time()
            played[way], returned = think_as_served(
                player if way == "unread" else reading, view, legal, budget(think))
            cpu[way] = time.process_time() - start
            if way == "unread":
                back = returned
        to_play = view.playing_for if view.playing_for is not None else seat
        decisions.append({
            "trick": len(view.played) // 4 + 1, "cards": len(legal),
            "side": SIDES[to_play % 2 != declaring],
            **{way: best - scores[played[way]] for way in WAYS},
            "played": played, "cpu": cpu})
        players[seat] = back
        game.apply(seat, played["unread"])
    return decisions


def read_records(paths: Sequence[Path]) -> list[Record]:
    """The deals of several --record files, one per seed (a seed twice is refused)."""
    deals: dict[int, Record] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                deal = json.loads(line)
                if deal["seed"] in deals:
                    raise SystemExit(f"deal {deal['seed']} is in more than one record")
                deals[deal["seed"]] = deal
    return [deals[seed] for seed in sorted(deals)]


def _interval(values: Sequence[float]) -> str:
    mean, half = mean_half(values)
    return f"{mean:+.4f} ({mean - half:+.4f} to {mean + half:+.4f})"


def report(deals: Sequence[Record]) -> None:
    """The figures of `deals` (one budget, trick count and code)."""
    kinds = {(d["think"], d["tricks"], d["code"]) for d in deals}
    if len(kinds) > 1:
        raise SystemExit(f"the records are of different budgets, tricks or code: "
                         f"{sorted(kinds)}")
    decisions = [p for d in deals for p in d["decisions"]]
    if not decisions:
        print(f"{len(deals)} deals, no decision with a choice after the opening lead")
        return
    differ = sum(p["played"]["unread"] != p["played"]["read"] for p in decisions)
    print(f"{len(deals)} deals (seeds {spans(d['seed'] for d in deals)}), "
          f"{len(decisions)} decisions with a choice after the opening lead, {differ} "
          "played differently with the lead read")
    for way in WAYS:
        mean, half = mean_half([float(p[way]) for p in decisions])
        print(f"  {way:7} DD tricks a decision {mean:.4f} ± {half:.4f}; CPU a decision (ms) "
              f"p50 p95 max {percentiles([p['cpu'][way] for p in decisions])}")
    for label, sides in (("both sides", SIDES), ("declaring side", ("declaring",)),
                         ("defence", ("defence",))):
        per_deal = [float(sum(p["read"] - p["unread"] for p in d["decisions"]
                              if p["side"] in sides)) for d in deals]
        print(f"  read - unread, DD tricks a deal, {label}: {_interval(per_deal)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-lead-play")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.8)
    parser.add_argument("--tricks", type=int, default=13, choices=range(1, 14), metavar="N")
    parser.add_argument("--record", type=Path, help="append each deal as a JSON line")
    parser.add_argument("--report", type=Path, nargs="+", help="merge --record files")
    args = parser.parse_args(argv)
    if args.report:
        report(read_records(args.report))
        return 0
    if args.deals < 1 or args.think <= 0:
        parser.error("--deals and --think must be positive")
    run = {"think": args.think, "tricks": args.tricks, "code": code_version()}
    seeds = deal_set(args.first_seed, args.deals)
    done = {d["seed"] for d in read_records([args.record])} if (
        args.record is not None and args.record.exists()) else set()
    print(f"Card play after the opening lead of bridge-advanced on {len(seeds)} deals "
          f"(seeds {spans(seeds)}), tricks 1-{args.tricks}, the lead unread and read, "
          f"budget {args.think:g} s on the thinking thread's CPU clock", flush=True)
    deals: list[Record] = []
    for seed in seeds:
        if seed in done:
            continue
        deal = {"seed": seed, **run,
                "decisions": deal_decisions(seed, args.think, args.tricks)}
        deals.append(deal)
        if args.record is not None:
            with args.record.open("a") as out:
                out.write(json.dumps(deal) + "\n")
    report(read_records([args.record]) if args.record is not None else deals)
    return 0
