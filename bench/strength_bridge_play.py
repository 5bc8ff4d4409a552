"""Card play of the bridge computer players against double dummy, and Single Dummy matches.

    python -m bench.strength bridge-play [--deals 200] [--kinds bridge-basic,bridge-advanced]
        [--think 0.8] [--sd-matches 40] [--sd-target 500] [--first-seed 1] [--list]

Contract Bridge: a fixed set of deals (the first deals of the matches seeded --first-seed,
--first-seed + 1, ..., skipping those passed out), each bid by the rule-based players (so
every kind plays the same contracts) and then played out with players of one kind in all
four seats, each decision with a budget of --think seconds. Every card is scored against
double dummy: the tricks the best card would take for the side to play less what the card
played keeps (0 for a card as good as any). Per deal: the losses of the declaring side's
cards, of the defence's cards without the opening lead, and of the opening lead apart;
the share of cards that lose anything. Means come with 95% intervals (normal, over deals).

Single Dummy Bridge: whole matches to --sd-target points of `single-dummy-advanced`
against `single-dummy-basic`, seats alternating, match seeds --first-seed upwards; the
win rate with a 95% Wilson interval.

Budgets run on the thinking thread's CPU clock (`time.thread_time`), so that other work on
a shared machine does not trip the budget's safety net and change the play measured: the
figures do not depend on the machine's load. The planned work per decision (how many
layouts) is the same as at a table. Decision times (wall clock and
process CPU) per game and phase: p50, p95 and max. The machine's load inflates wall
times: compare CPU, and say so.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.ai import Budget, make_player
from bot.ai.dds import Position, solve
from bot.games import create
from bot.games.bridge import ContractBridge


@dataclass
class PlayTally:
    """DD tricks lost per deal, by whose cards, and the cards that lost anything."""

    declaring: list[float] = field(default_factory=list)
    defence: list[float] = field(default_factory=list)
    leads: list[float] = field(default_factory=list)
    cards: int = 0
    costly: int = 0
    costly_declaring: int = 0
    cards_declaring: int = 0
    decided_by_search: int = 0


Times = dict[str, list[tuple[float, float]]]  # phase -> (wall, cpu) per decision


def budget(think: float) -> Budget:
    """A decision's budget on the thinking thread's CPU clock: other work on a shared
    machine slows the wall clock, and the safety net would then change the decisions
    measured."""
    return Budget(think, clock=time.thread_time)


def mean_ci(values: Sequence[float]) -> str:
    if not values:
        return "n/a"
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.2f}"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:.2f} ± {half:.2f}"


def wilson(wins: int, n: int) -> str:
    if n == 0:
        return "n/a"
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.1f}% [{100 * (centre - half):.1f}%, {100 * (centre + half):.1f}%]"


def percentiles(samples: list[float]) -> str:
    if not samples:
        return "n/a"
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return f"{at(0.5) * 1000:7.0f} {at(0.95) * 1000:7.0f} {ordered[-1] * 1000:7.0f}"


def timed(times: Times, phase: str, player: object, view: object, legal: list[str],
          think: float) -> str:
    wall, cpu = time.perf_counter(), time.process_time()
    action: str = player.choose(view, legal, budget(think))  # type: ignore[attr-defined]
    times[phase].append((time.perf_counter() - wall, time.process_time() - cpu))
    return action


def bid_out(seed: int) -> ContractBridge | None:
    """The first deal of match `seed`, bid by the rule-based players; None if passed out."""
    game = create("bridge", seed=seed)
    assert isinstance(game, ContractBridge)
    bidders = [make_player("bridge", seed * 7 + s, "bridge-basic") for s in range(4)]
    while game.phase == "bidding":
        seat = next(iter(game.to_act()))
        game.apply(seat, bidders[seat].choose(game.view(seat), game.legal(seat)))
        if game.deal_no > 1:
            return None
    return game


def deal_set(first: int, count: int) -> list[int]:
    seeds: list[int] = []
    seed = first
    while len(seeds) < count:
        if bid_out(seed) is not None:
            seeds.append(seed)
        seed += 1
    return seeds


def dd_scores(game: ContractBridge) -> dict[str, int]:
    """Tricks the side to play takes from here after each legal card (double dummy)."""
    record = game.deal_record()
    gone = {c for _, c in record.play}
    hands = tuple(tuple(c for c in hand if c not in gone) for hand in record.hands)
    view = game.view(None)
    leader = view.trick[0][0] if view.trick else view.turn
    assert leader is not None and record.contract is not None
    scores = solve([Position(hands, record.contract.trump, leader,
                             tuple(c for _, c in view.trick))])[0]
    return {"play:" + card.text: tricks for card, tricks in scores.items()}


def play_deal(seed: int, kind: str, think: float, tally: PlayTally, times: Times) -> None:
    game = bid_out(seed)
    assert game is not None
    players = [make_player("bridge", seed * 7 + s, kind) for s in range(4)]
    basic = [make_player("bridge", seed * 7 + s, "bridge-basic") for s in range(4)]
    contract = game.deal_record().contract
    assert contract is not None
    declaring_side = contract.declarer % 2
    lost = {"declaring": 0.0, "defence": 0.0, "lead": 0.0}
    first = True
    while game.deal_no == 1 and not game.finished:
        seat = next(iter(game.to_act()))
        view, legal = game.view(seat), game.legal(seat)
        to_play = view.playing_for if view.playing_for is not None else seat
        scores = dd_scores(game)
        side = "declaring" if to_play % 2 == declaring_side else "defence"
        phase = "opening lead" if first else ("declarer" if side == "declaring" else "defence")
        action = timed(times, f"bridge {phase}", players[seat], view, legal, think)
        if kind != "bridge-basic" and len(legal) > 1 and action != basic[seat].choose(view,
                                                                                      legal):
            tally.decided_by_search += 1
        loss = max(scores.values()) - scores[action]
        lost["lead" if first else side] += loss
        tally.cards += 1
        tally.costly += loss > 0
        if side == "declaring":
            tally.cards_declaring += 1
            tally.costly_declaring += loss > 0
        first = False
        game.apply(seat, action)
    tally.declaring.append(lost["declaring"])
    tally.defence.append(lost["defence"])
    tally.leads.append(lost["lead"])


def single_dummy_match(seed: int, target: int, think: float, times: Times) -> bool:
    """One whole match; True when the advanced player won it."""
    game = create("single_dummy", options={"target": target}, seed=seed)
    strong = seed % 2
    players = {strong: make_player("single_dummy", seed, "single-dummy-advanced"),
               1 - strong: make_player("single_dummy", seed, "single-dummy-basic")}
    while not game.finished:
        seat = next(iter(game.to_act()))
        view, legal = game.view(seat), game.legal(seat)
        if seat == strong:
            action = timed(times, f"single dummy {view.phase.replace('_', ' ')}",
                           players[seat], view, legal, think)
        else:
            action = players[seat].choose(view, legal, budget(think))
        game.apply(seat, action)
    result = game.result()
    assert result is not None
    return result.ranks[strong] == 0 and result.ranks[1 - strong] == 1


def report_play(kind: str, seeds: list[int], tally: PlayTally) -> None:
    n = len(tally.declaring)
    print(f"\n{kind}: {n} deals (seeds {seeds[0]}..{seeds[-1]}), {tally.cards} cards")
    print(f"  DD tricks lost per deal, declaring side:        {mean_ci(tally.declaring)}")
    print(f"  DD tricks lost per deal, defence (leads apart): {mean_ci(tally.defence)}")
    print(f"  DD tricks lost per deal, opening lead:          {mean_ci(tally.leads)}")
    share = tally.costly / max(1, tally.cards)
    declaring_share = tally.costly_declaring / max(1, tally.cards_declaring)
    print(f"  cards that lose a DD trick: {100 * share:.1f}% of {tally.cards} "
          f"(declaring side {100 * declaring_share:.1f}% of {tally.cards_declaring})")
    if kind != "bridge-basic":
        print(f"  cards where the search differs from the rule-based card: "
              f"{tally.decided_by_search}")


def report_times(times: Times) -> None:
    print("\nDecision times (ms): wall p50 p95 max | CPU p50 p95 max | decisions")
    for phase in sorted(times):
        rows = times[phase]
        walls, cpus = [w for w, _ in rows], [c for _, c in rows]
        print(f"  {phase:28} {percentiles(walls)} | {percentiles(cpus)} | {len(rows)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-play")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--kinds", default="bridge-basic,bridge-advanced")
    parser.add_argument("--think", type=float, default=0.8, help="budget per decision (s)")
    parser.add_argument("--sd-matches", type=int, default=40)
    parser.add_argument("--sd-target", type=int, default=500)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="print every deal of the set")
    args = parser.parse_args(argv)

    if args.deals:
        seeds = deal_set(args.first_seed, args.deals)
        print(f"Contract Bridge deal set: the first deals of matches {seeds} "
              f"(passed-out seeds skipped), bid by bridge-basic; budget {args.think} s "
              "on the thinking thread's CPU clock (figures independent of the machine's "
              "load)", flush=True)
        if args.list:
            for seed in seeds:
                game = bid_out(seed)
                assert game is not None
                record = game.deal_record()
                assert record.contract is not None
                print(f"  {seed}: {record.pbn}  {record.contract.label} by "
                      f"{'NESW'[record.contract.declarer]}")
        for kind in args.kinds.split(","):
            tally, times = PlayTally(), defaultdict(list)
            for done, seed in enumerate(seeds, start=1):
                play_deal(seed, kind, args.think, tally, times)
                if done % 25 == 0:
                    print(f"  {kind}: {done} deals, declaring {mean_ci(tally.declaring)}, "
                          f"defence {mean_ci(tally.defence)}", flush=True)
            report_play(kind, seeds, tally)
            report_times(times)
    if args.sd_matches:
        times = defaultdict(list)
        seeds = list(range(args.first_seed, args.first_seed + args.sd_matches))
        wins = 0
        for done, seed in enumerate(seeds, start=1):
            won = single_dummy_match(seed, args.sd_target, args.think, times)
            wins += won
            print(f"  match {seed}: {'won' if won else 'lost'} by the advanced player; "
                  f"{wins} of {done} so far", flush=True)
        print(f"\nSingle Dummy: single-dummy-advanced against single-dummy-basic, "
              f"{len(seeds)} matches to {args.sd_target} (seeds {seeds[0]}..{seeds[-1]}, "
              f"seats alternating), budget {args.think} s")
        print(f"  advanced wins: {wins} of {len(seeds)} = {wilson(wins, len(seeds))}")
        report_times(times)
    return 0
