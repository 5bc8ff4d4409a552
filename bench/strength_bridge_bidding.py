"""Contract Bridge bidding against par, with computer players in all four seats.

    python -m bench.strength bridge-bidding [--deals 200] [--first-seed 1] [--kind KIND]
        [--think SECONDS] [--list] [--worst N] [--slams]

Each seed `s` makes a new match (`create("bridge", seed=s)`) whose first deal is bid by
four players of `--kind` (default: the game's strongest). For each deal, endplay's
double-dummy table and par (with the deal's dealer and vulnerability) give:
- par reached: the contract's double-dummy score equals the par score;
- IMPs from par: |score - par| on the standard IMP table, per deal;
- game bid: of the deals where the par side can make a game (double dummy), how often
  that side bid one (any game or slam contract); slams likewise (12+ tricks);
- games (slams) bid that fail: of the game (slam) contracts reached, how many go down
  double dummy.
Each call gets a budget of `--think` seconds (default 0.8, the tables' setting) on the
thinking thread's CPU clock (`time.thread_time`), so the machine's load does not change a
call: the default player plans its layouts from the budget before any work (the solver's
own threads are not on that clock; the plan's cost model is in process CPU). `--think 0`
gives no budget: the rule tables alone.
Proportions carry Wilson 95% intervals, the IMP mean a normal 95% interval.
`--worst N` prints the N deals furthest from par: hands, auction with each call's
explanation, the double-dummy tricks per strain and the par score (where the IMPs go);
`--slams` prints every deal where a slam makes and every slam bid.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from endplay.dds import calc_dd_table, par
from endplay.types import Contract as EPContract
from endplay.types import Deal, Denom, Penalty, Player, Vul

from bot.ai import Budget, make_player
from bot.ai.bridge.bidding import explain_calls
from bot.games import create
from bot.games.bridge_auction import CALL_BY_TEXT, Call, Contract
from bot.games.cards import Seat, format_deal

from .strength_bridge_play import percentiles

DENOMS = (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt)
VUL = {(False, False): Vul.none, (True, False): Vul.ns, (False, True): Vul.ew,
       (True, True): Vul.both}
PENALTY = (Penalty.passed, Penalty.doubled, Penalty.redoubled)
# Upper bounds of score differences for 0, 1, 2 ... IMPs (the standard table).
IMP_STEPS = (10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290,
             1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990)


def imps(diff: int) -> int:
    diff = abs(diff)
    return next((i for i, top in enumerate(IMP_STEPS) if diff <= top), 24)


def wilson(k: int, n: int) -> str:
    if n == 0:
        return "n/a (n=0)"
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:5.1f}% ({k}/{n}; 95% CI {100 * (centre - half):.1f}–" \
           f"{100 * (centre + half):.1f}%)"


@dataclass(frozen=True, slots=True)
class Outcome:
    seed: int
    contract: Contract | None
    score_ns: int
    par_ns: int
    game_side: int | None  # the par side when it can make game
    slam_side: int | None
    tricks: int  # declarer's DD tricks (0 when passed out)
    pbn: str = ""
    calls: tuple[tuple[int, Call], ...] = ()
    dealer: int = 0
    vulnerable: tuple[bool, bool] = (False, False)
    dd: tuple[tuple[int, ...], ...] = ()  # per strain (C D H S NT), tricks per seat N E S W
    cpu: tuple[float, ...] = ()  # process CPU seconds of each call's decision


def bid_deal(seed: int, kind: str | None, think: float = 0.0,
             ) -> tuple[Contract | None, object, tuple[tuple[int, Call], ...], list[float]]:
    game = create("bridge", options={}, seed=seed)
    players = [make_player("bridge", seed * 4 + seat, kind) for seat in range(4)]
    deal_no = game.view(None).deal_no
    record = game.deal_record()
    calls: tuple[tuple[int, Call], ...] = ()
    cpu: list[float] = []
    while True:
        view = game.view(None)
        if view.phase != "bidding" or view.deal_no != deal_no:
            break
        seat = next(iter(game.to_act()))
        budget = Budget(think, clock=time.thread_time) if think > 0 else None
        start = time.process_time()  # DDS's threads included
        action = players[seat].choose(game.view(seat), game.legal(seat), budget)
        cpu.append(time.process_time() - start)
        game.apply(seat, action)
        calls = (*calls, (seat, CALL_BY_TEXT[action]))
    view = game.view(None)
    contract = view.contract if view.deal_no == deal_no else None
    return contract, record, calls, cpu


def measure(seed: int, kind: str | None, think: float = 0.0) -> Outcome:
    contract, record, calls, cpu = bid_deal(seed, kind, think)
    hands = record.hands  # type: ignore[attr-defined]
    dealer = record.dealer  # type: ignore[attr-defined]
    vulnerable = tuple(record.vulnerable)  # type: ignore[attr-defined]
    deal = Deal(format_deal({Seat(i): list(h) for i, h in enumerate(hands)}))
    table = calc_dd_table(deal)
    found = par(table, VUL[vulnerable], Player(int(dealer)))
    par_ns = int(found.score)
    tricks = 0
    score_ns = 0
    if contract is not None:
        tricks = table[DENOMS[contract.strain], Player(contract.declarer)]
        ep = EPContract(level=contract.level, denom=DENOMS[contract.strain],
                        declarer=Player(contract.declarer), penalty=PENALTY[contract.doubled],
                        result=tricks - 6 - contract.level)
        score = ep.score(VUL[vulnerable])
        score_ns = score if contract.declarer % 2 == 0 else -score
    side = 0 if par_ns > 0 else 1 if par_ns < 0 else None
    game_side = slam_side = None
    if side is not None:
        seats = (side, side + 2)
        best = {s: max(table[DENOMS[s], Player(p)] for p in seats) for s in range(5)}
        if any(best[s] >= need for s, need in ((0, 11), (1, 11), (2, 10), (3, 10), (4, 9))):
            game_side = side
        if max(best.values()) >= 12:
            slam_side = side
    dd = tuple(tuple(table[DENOMS[s], Player(p)] for p in range(4)) for s in range(5))
    return Outcome(seed, contract, score_ns, par_ns, game_side, slam_side, tricks,
                   record.pbn, calls, int(dealer), vulnerable, dd,  # type: ignore[attr-defined]
                   tuple(cpu))


def describe(out: Outcome) -> list[str]:
    """One deal for a bridge player: where the IMPs went."""
    label = f"{out.contract.label} by {'NESW'[out.contract.declarer]}" if out.contract \
        else "passed out"
    vul = {(False, False): "none", (True, False): "N-S", (False, True): "E-W",
           (True, True): "both"}[out.vulnerable]
    lines = [f"seed {out.seed}: {label}, DD {out.tricks} tricks, score {out.score_ns:+d}, "
             f"par {out.par_ns:+d}: {imps(out.score_ns - out.par_ns)} IMPs "
             f"(dealer {'NESW'[out.dealer]}, vulnerable {vul})",
             f"  {out.pbn}"]
    for (seat, call), says in zip(out.calls, explain_calls(out.calls), strict=True):
        lines.append(f"  {'NESW'[seat]} {call.label:5} {says}")
    strains = ("C", "D", "H", "S", "NT")
    lines.append("  DD N-S " + " ".join(f"{strains[s]}{max(out.dd[s][0], out.dd[s][2])}"
                                        for s in range(5)) +
                 " | E-W " + " ".join(f"{strains[s]}{max(out.dd[s][1], out.dd[s][3])}"
                                      for s in range(5)))
    return lines


def is_game(c: Contract) -> bool:
    return c.level >= (3 if c.strain == 4 else 4 if c.strain >= 2 else 5)


def report(outs: Sequence[Outcome]) -> list[str]:
    n = len(outs)
    at_par = sum(1 for o in outs if o.score_ns == o.par_ns)
    imp = [imps(o.score_ns - o.par_ns) for o in outs]
    mean = statistics.fmean(imp)
    half = 1.96 * statistics.stdev(imp) / math.sqrt(n) if n > 1 else 0.0
    games = [o for o in outs if o.game_side is not None]
    games_bid = [o for o in games if o.contract is not None and o.contract.declarer % 2
                 == o.game_side and is_game(o.contract)]
    slams = [o for o in outs if o.slam_side is not None]
    slams_bid = [o for o in slams if o.contract is not None and o.contract.declarer % 2
                 == o.slam_side and o.contract.level >= 6]
    game_contracts = [o for o in outs if o.contract is not None and is_game(o.contract)
                      and o.contract.level < 6]
    game_fail = [o for o in game_contracts if o.tricks < 6 + o.contract.level]  # type: ignore[union-attr]
    slam_contracts = [o for o in outs if o.contract is not None and o.contract.level >= 6]
    slam_fail = [o for o in slam_contracts if o.tricks < 6 + o.contract.level]  # type: ignore[union-attr]
    return [
        f"deals: {n}",
        f"par reached:              {wilson(at_par, n)}",
        f"IMPs per deal from par:   {mean:.2f} (95% CI {mean - half:.2f}–{mean + half:.2f})",
        f"game bid where it makes:  {wilson(len(games_bid), len(games))}",
        f"slam bid where it makes:  {wilson(len(slams_bid), len(slams))}",
        f"games bid that fail:      {wilson(len(game_fail), len(game_contracts))}",
        f"slams bid that fail:      {wilson(len(slam_fail), len(slam_contracts))}",
        f"call CPU p50 / p95 / max (ms): {percentiles([t for o in outs for t in o.cpu])}, "
        f"{sum(len(o.cpu) for o in outs)} calls (process CPU, the solver's threads included)",
    ]



def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-bidding")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--kind", default=None, help="player kind (default: the strongest)")
    parser.add_argument("--think", type=float, default=0.8,
                        help="seconds of the thinking thread's CPU per call (0: no budget)")
    parser.add_argument("--list", action="store_true", help="print each deal's outcome")
    parser.add_argument("--worst", type=int, default=0,
                        help="print the N deals furthest from par, with their auctions")
    parser.add_argument("--slams", action="store_true",
                        help="print every deal where a slam makes and every slam bid")
    args = parser.parse_args(argv)
    seeds = range(args.first_seed, args.first_seed + args.deals)
    print(f"Contract Bridge bidding, kind {args.kind or 'default'}; seeds "
          f"{seeds.start}..{seeds.stop - 1} (first deal of each); each call's budget "
          f"{args.think} s of the thinking thread's CPU (time.thread_time)")
    outs = []
    for seed in seeds:
        out = measure(seed, args.kind, args.think)
        outs.append(out)
        if args.list:
            label = out.contract.label + " by " + "NESW"[out.contract.declarer] \
                if out.contract else "passed out"
            print(f"  seed {seed}: {label}, DD {out.tricks}, score {out.score_ns:+d}, "
                  f"par {out.par_ns:+d}, {imps(out.score_ns - out.par_ns)} IMPs")
    if args.slams:
        print("\nThe deals where a slam makes, and the slams bid:")
        for out in outs:
            if out.slam_side is not None or (out.contract and out.contract.level >= 6):
                print("\n".join(describe(out)))
    if args.worst:
        print(f"\nThe {args.worst} deals furthest from par:")
        worst = sorted(outs, key=lambda o: -imps(o.score_ns - o.par_ns))[:args.worst]
        for out in worst:
            print("\n".join(describe(out)))
    print("\n".join(report(outs)))
    return 0
