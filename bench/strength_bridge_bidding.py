"""Contract Bridge bidding against par, with computer players in all four seats.

    python -m bench.strength bridge-bidding [--deals N] [--first-seed S] [--kind KIND]
        [--think SECONDS] [--against REV | --kind-b KIND] [--think-b SECONDS] [--list]
        [--worst N] [--slams] [--groups [--group G]] [--uncontested] [--duplicate]

The deals are fresh by default: the first seed is drawn anew for each run (from
1,000,000..999,999,999, far from the small seeds rules were read on) and printed, and
`--first-seed` repeats a run. Each seed `s` makes a new match (`create("bridge", seed=s)`)
whose first deal is bid by four players of `--kind` (default: the game's strongest). For
each deal, endplay's double-dummy table and par (with the deal's dealer and vulnerability),
solved once per deal and run whatever number of auctions is scored on it, give:
- par reached: the contract's double-dummy score equals the par score;
- IMPs from par: |score - par| on the standard IMP table, per deal;
- game bid: of the deals where the par side can make a game (double dummy), how often
  that side bid one (any game or slam contract); slams likewise (12+ tricks);
- games (slams) bid that fail: of the game (slam) contracts reached, how many go down
  double dummy.
Paired (`--against REV`: commit REV's `bot` exported to a temporary folder, bidding in a
subprocess that hands its auctions back as JSON lines; `--kind-b KIND`: another kind of this
checkout; `--think-b SECONDS`: B's budget a call, else `--think`, and alone it pairs this
checkout's players at two budgets, e.g. the simulation against the rule tables alone):
both sides bid the same deals (1,000 by default), each side's figures are printed, and
the mean per deal of B's IMPs from par less A's with its 95% interval from the per-deal
differences (positive: A, this checkout, nearer par).
Each call gets a budget of `--think` seconds (default 0.8, the tables' setting) on the
thinking thread's CPU clock (`time.thread_time`), so the machine's load does not change a
call: the default player plans its layouts from the budget before any work (the solver's
own threads are not on that clock; the plan's cost model is in process CPU). `--think 0`
gives no budget: the rule tables alone, and the auctions are deterministic.
Proportions carry Wilson 95% intervals, the IMP mean a normal 95% interval.
`--worst N` prints the N deals furthest from par: hands, auction with each call's
explanation, the double-dummy tricks per strain and the par score (where the IMPs go);
`--slams` prints every deal where a slam makes and every slam bid.
`--groups` sorts the deals by the size of par (part score, game, slam) and by who bought
the contract (the side that owns par, the other side, nobody) and prints each group's
share of the IMPs lost, to find where they go; `--worst` then lists only the group named
by `--group` (for example `game/other`). `--uncontested` keeps only the deals whose
auction one side had to itself (the other side passed throughout): the figures of
constructive bidding alone (paired: on A's uncontested deals).
Each deal is a rubber's first, at love, as Contract Bridge tables bid it (where the
rubber rounds of the learned values weigh the calls); `--duplicate` bids each seed's first
duplicate board instead (board 1: North deals, nobody vulnerable), as daily deals,
challenges and team matches are bid (the duplicate rounds alone). Par is a duplicate
measure, so that is the figure of the duplicate rounds; the same seed deals other cards
in the two modes.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from endplay.dds import calc_dd_table, par
from endplay.types import Contract as EPContract
from endplay.types import Deal, Denom, Penalty, Player, Vul

from bot.ai.bridge.bidding import explain_calls
from bot.games import create
from bot.games.bridge_auction import CALL_BY_TEXT, Call, Contract, Strain

from .bidding_auctions import Auction, bid, match_options
from .intervals import mean_half, wilson_text
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

    @property
    def imps(self) -> int:
        return imps(self.score_ns - self.par_ns)


@dataclass(frozen=True, slots=True)
class SolvedDeal:
    """A deal's double-dummy tricks (per strain C D H S NT, per seat N E S W) and par."""

    dd: tuple[tuple[int, ...], ...]
    par_ns: int


class Tables:
    """Each deal's double-dummy table and par, solved once per run (the solving is most of
    a run at --think 0), whatever number of auctions is scored on it."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, int, tuple[bool, bool]], SolvedDeal] = {}

    def __call__(self, pbn: str, dealer: int, vulnerable: tuple[bool, bool]) -> SolvedDeal:
        key = (pbn, dealer, vulnerable)
        if key not in self._known:
            table = calc_dd_table(Deal(pbn))
            found = par(table, VUL[vulnerable], Player(dealer))
            dd = tuple(tuple(table[DENOMS[s], Player(p)] for p in range(4)) for s in range(5))
            self._known[key] = SolvedDeal(dd, int(found.score))
        return self._known[key]


def score(auction: Auction, tables: Tables) -> Outcome:
    """The auction's contract scored double dummy against the deal's par."""
    table = tables(auction.pbn, auction.dealer, auction.vulnerable)
    contract = None
    tricks = score_ns = 0
    if auction.contract is not None:
        level, strain, declarer, doubled = auction.contract
        contract = Contract(level, Strain(strain), declarer, doubled)
        tricks = table.dd[strain][declarer]
        ep = EPContract(level=level, denom=DENOMS[strain], declarer=Player(declarer),
                        penalty=PENALTY[doubled], result=tricks - 6 - level)
        points = ep.score(VUL[auction.vulnerable])
        score_ns = points if declarer % 2 == 0 else -points
    side = 0 if table.par_ns > 0 else 1 if table.par_ns < 0 else None
    game_side = slam_side = None
    if side is not None:
        best = {s: max(table.dd[s][side], table.dd[s][side + 2]) for s in range(5)}
        if any(best[s] >= need for s, need in ((0, 11), (1, 11), (2, 10), (3, 10), (4, 9))):
            game_side = side
        if max(best.values()) >= 12:
            slam_side = side
    calls = tuple((seat, CALL_BY_TEXT[action]) for seat, action in auction.calls)
    return Outcome(auction.seed, contract, score_ns, table.par_ns, game_side, slam_side,
                   tricks, auction.pbn, calls, auction.dealer, auction.vulnerable, table.dd,
                   auction.cpu)


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


def uncontested(auction: Auction) -> bool:
    """Only one side called anything but pass (the other side passed throughout)."""
    return len({seat % 2 for seat, action in auction.calls if action != "pass"}) == 1


def is_game(c: Contract) -> bool:
    return c.level >= (3 if c.strain == 4 else 4 if c.strain >= 2 else 5)


def report(outs: Sequence[Outcome]) -> list[str]:
    n = len(outs)
    at_par = sum(1 for o in outs if o.score_ns == o.par_ns)
    imp = [imps(o.score_ns - o.par_ns) for o in outs]
    mean, half = mean_half(imp)
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
        f"par reached:              {wilson_text(at_par, n)}",
        f"IMPs per deal from par:   {mean:.2f} (95% CI {mean - half:.2f}–{mean + half:.2f})",
        f"game bid where it makes:  {wilson_text(len(games_bid), len(games))}",
        f"slam bid where it makes:  {wilson_text(len(slams_bid), len(slams))}",
        f"games bid that fail:      {wilson_text(len(game_fail), len(game_contracts))}",
        f"slams bid that fail:      {wilson_text(len(slam_fail), len(slam_contracts))}",
        f"call CPU p50 / p95 / max (ms): {percentiles([t for o in outs for t in o.cpu])}, "
        f"{sum(len(o.cpu) for o in outs)} calls (process CPU, the solver's threads included)",
    ]



def group_of(out: Outcome) -> str:
    """The deal's group: the size of par (`part`, `game`, `slam`, `zero` when par is
    passed out) and who bought the contract (`owner`: the par side, `other`, `nobody`)."""
    if out.par_ns == 0:
        size = "zero"
    else:
        side = 0 if out.par_ns > 0 else 1
        size = "slam" if out.slam_side == side else "game" if out.game_side == side \
            else "part"
    if out.contract is None:
        buyer = "nobody"
    elif out.par_ns == 0:
        buyer = "other"
    else:
        buyer = "owner" if out.contract.declarer % 2 == (0 if out.par_ns > 0 else 1) \
            else "other"
    return f"{size}/{buyer}"


def groups(outs: Sequence[Outcome]) -> list[str]:
    """Each group's deals, mean IMPs from par and share of all the IMPs lost."""
    total = sum(o.imps for o in outs) or 1
    found: dict[str, list[int]] = {}
    for out in outs:
        found.setdefault(group_of(out), []).append(out.imps)
    lines = [f"{'group':14} {'deals':>6} {'IMPs/deal':>9} {'share':>6}  (of {len(outs)} "
             "deals; IMPs/deal of the whole set by each group's deals)"]
    for key, values in sorted(found.items(), key=lambda kv: -sum(kv[1])):
        lines.append(f"{key:14} {len(values):6d} {statistics.fmean(values):9.2f} "
                     f"{100 * sum(values) / total:5.1f}%  ({sum(values) / len(outs):.2f})")
    return lines


def paired(a: Sequence[Outcome], b: Sequence[Outcome], a_name: str, b_name: str) -> list[str]:
    """A against B on the same deals: per deal, B's IMPs from par less A's (positive: A
    nearer par), its mean with a 95% interval from the per-deal differences."""
    assert [o.pbn for o in a] == [o.pbn for o in b], "the two sides bid different deals"
    diffs = [y.imps - x.imps for x, y in zip(a, b, strict=True)]
    mean, half = mean_half(diffs)
    moved = sum(1 for x, y in zip(a, b, strict=True) if x.calls != y.calls)
    better = sum(1 for d in diffs if d > 0)
    worse = sum(1 for d in diffs if d < 0)
    return [f"paired, A = {a_name}, B = {b_name}, on the same {len(diffs)} deals:",
            f"  IMPs from par: A {statistics.fmean(x.imps for x in a):.2f}, "
            f"B {statistics.fmean(y.imps for y in b):.2f}",
            f"  A - B: {mean:+.3f} IMPs a deal (95% CI {mean - half:+.3f} to {mean + half:+.3f};"
            f" positive: A nearer par), n={len(diffs)}; auctions differ on {moved} deals, "
            f"A nearer par on {better}, B on {worse}"]


def differences(a: Sequence[Auction], b: Sequence[Auction], tables: Tables) -> list[int]:
    """Per deal, B's IMPs from par less A's; where both reach the same contract it is 0
    without solving, so only the deals whose contract moved are solved."""
    assert [x.pbn for x in a] == [y.pbn for y in b], "the two sides bid different deals"
    return [0 if x.contract == y.contract else score(y, tables).imps - score(x, tables).imps
            for x, y in zip(a, b, strict=True)]


def difference_line(a: Sequence[Auction], b: Sequence[Auction], tables: Tables) -> str:
    diffs = differences(a, b, tables)
    mean, half = mean_half(diffs)
    moved = sum(1 for x, y in zip(a, b, strict=True) if x.calls != y.calls)
    return (f"n={len(diffs)} A-B {mean:+.3f} IMPs a deal (95% CI {mean - half:+.3f} to "
            f"{mean + half:+.3f}), auctions differ on {moved}, contracts on "
            f"{sum(1 for x, y in zip(a, b, strict=True) if x.contract != y.contract)}")


@contextmanager
def exported(rev: str) -> Iterator[Path]:
    """A temporary folder holding commit `rev`'s `bot` package (removed afterwards): the
    other side of a paired comparison runs its code from there."""
    root = Path(__file__).resolve().parent.parent
    folder = Path(tempfile.mkdtemp(prefix="bidding-"))
    try:
        archive = subprocess.run(["git", "archive", rev, "bot"], cwd=root, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def auctions_at(rev: str, seeds: range, kind: str | None, think: float,
                duplicate: bool = False) -> Iterator[Auction]:
    """The auctions of commit `rev`'s code (`exported`), bid in a subprocess that writes
    one JSON line per deal."""
    with exported(rev) as folder:
        yield from auctions_in(folder, seeds, kind, think, duplicate)


def auctions_in(folder: Path, seeds: range, kind: str | None, think: float,
                duplicate: bool = False) -> Iterator[Auction]:
    """The auctions of the `bot` package in `folder`, bid in a subprocess."""
    worker = Path(__file__).resolve().parent / "bidding_auctions.py"
    command = [sys.executable, str(worker), "--first-seed", str(seeds.start), "--deals",
               str(len(seeds)), "--think", str(think)]
    if kind:
        command += ["--kind", kind]
    if duplicate:
        command.append("--duplicate")
    with subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            yield Auction.from_json(line)
    if proc.returncode != 0:
        raise RuntimeError(f"the auctions in {folder} failed (exit {proc.returncode})")


def check_fresh(seeds: range, duplicate: bool = False) -> str:
    """Stop if any deal of the run is in the learning bank (a figure measured on a deal
    the models learned from counts for nothing); else say so."""
    from bot.ai.bridge.learning import bank
    from bot.games.bridge import ContractBridge

    learned = {bank.hands_key(d.hands) for d in bank.read()}
    for seed in seeds:
        game = create("bridge", options=match_options(duplicate), seed=seed)
        assert isinstance(game, ContractBridge)
        hands = tuple(tuple(hand) for hand in game.deal_record().hands)
        if bank.hands_key(hands) in learned:
            raise SystemExit(f"seed {seed}'s deal is in the learning bank: choose other seeds")
    return f"none of the {len(seeds)} deals is among the {len(learned)} of the learning bank"


def fresh_seed() -> int:
    """A first seed drawn anew for each run, far from the small seeds rules were read on."""
    return random.SystemRandom().randrange(1_000_000, 1_000_000_000)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-bidding")
    parser.add_argument("--deals", type=int, default=None,
                        help="deals (default 200; 1,000 for a paired comparison)")
    parser.add_argument("--first-seed", type=int, default=None,
                        help="the first seed (default: drawn anew, printed)")
    parser.add_argument("--kind", default=None, help="player kind (default: the strongest)")
    parser.add_argument("--think", type=float, default=0.8,
                        help="seconds of the thinking thread's CPU per call (0: no budget)")
    parser.add_argument("--against", metavar="REV", default=None,
                        help="paired: compare with commit REV's bidding on the same deals")
    parser.add_argument("--kind-b", default=None,
                        help="paired: compare with players of this kind on the same deals")
    parser.add_argument("--think-b", type=float, default=None,
                        help="paired: B's budget a call (default --think); alone, B is this "
                             "checkout at that budget")
    parser.add_argument("--difference-only", action="store_true",
                        help="paired: only the difference, solving only the deals whose "
                             "contract differs")
    parser.add_argument("--list", action="store_true", help="print each deal's outcome")
    parser.add_argument("--worst", type=int, default=0,
                        help="print the N deals furthest from par, with their auctions")
    parser.add_argument("--slams", action="store_true",
                        help="print every deal where a slam makes and every slam bid")
    parser.add_argument("--groups", action="store_true",
                        help="print the IMPs lost by size of par and who bought the deal")
    parser.add_argument("--group", default=None,
                        help="--worst lists only this group's deals (e.g. game/other)")
    parser.add_argument("--uncontested", action="store_true",
                        help="the figures (and --list, --worst, --slams) of the deals whose "
                             "auction one side had to itself only")
    parser.add_argument("--duplicate", action="store_true",
                        help="bid each seed's first duplicate board, not a rubber's first "
                             "deal (the duplicate rounds of the learned values)")
    args = parser.parse_args(argv)
    pairing = args.against is not None or args.kind_b is not None or args.think_b is not None
    think_b = args.think if args.think_b is None else args.think_b
    deals = args.deals or (1000 if pairing else 200)
    first = fresh_seed() if args.first_seed is None else args.first_seed
    seeds = range(first, first + deals)
    dup = args.duplicate
    what = ("first duplicate board of each, North dealing, nobody vulnerable" if dup
            else "first deal of each, a rubber at love")
    print(f"Contract Bridge bidding, kind {args.kind or 'default'}; seeds "
          f"{seeds.start}..{seeds.stop - 1} ({what}; --first-seed {first} "
          f"repeats them); each call's budget {args.think} s of the thinking thread's CPU "
          f"(time.thread_time)")
    print(check_fresh(seeds, dup))
    others: Iterator[Auction] | None = None
    if args.against is not None:
        others = auctions_at(args.against, seeds, args.kind, think_b, dup)
        b_name = f"commit {args.against}, kind {args.kind or 'default'}, think {think_b}"
    elif pairing:
        others = (bid(seed, args.kind_b or args.kind, think_b, dup) for seed in seeds)
        b_name = f"this checkout, kind {args.kind_b or args.kind or 'default'}, think {think_b}"
    tables = Tables()
    a_name = f"this checkout, kind {args.kind or 'default'}, think {args.think}"
    if args.difference_only:
        if others is None:
            parser.error("--difference-only needs --against, --kind-b or --think-b")
        mine = [bid(seed, args.kind, args.think, dup) for seed in seeds]
        print(f"paired, A = {a_name}, B = {b_name} (positive: A nearer par): "
              + difference_line(mine, list(others), tables))
        print(f"A's call CPU p50 / p95 / max (ms): "
              f"{percentiles([t for a in mine for t in a.cpu])}")
        return 0
    outs = []
    for seed in seeds:
        auction = bid(seed, args.kind, args.think, dup)
        if args.uncontested and not uncontested(auction):
            continue  # not solved: the double-dummy table is most of a run's time
        out = score(auction, tables)
        outs.append(out)
        if args.list:
            label = out.contract.label + " by " + "NESW"[out.contract.declarer] \
                if out.contract else "passed out"
            print(f"  seed {seed}: {label}, DD {out.tricks}, score {out.score_ns:+d}, "
                  f"par {out.par_ns:+d}, {out.imps} IMPs")
    if args.slams:
        print("\nThe deals where a slam makes, and the slams bid:")
        for out in outs:
            if out.slam_side is not None or (out.contract and out.contract.level >= 6):
                print("\n".join(describe(out)))
    if args.groups:
        print("\n" + "\n".join(groups(outs)) + "\n")
    if args.worst:
        chosen = [o for o in outs if args.group is None or group_of(o) == args.group]
        print(f"\nThe {args.worst} deals furthest from par"
              + (f" in group {args.group}:" if args.group else ":"))
        for out in sorted(chosen, key=lambda o: -o.imps)[:args.worst]:
            print("\n".join(describe(out)))
    if args.uncontested:
        print(f"uncontested auctions only: {len(outs)} of {deals} deals")
    print(("A: " + a_name + "\n" if others is not None else "") + "\n".join(report(outs)))
    if others is not None:
        # With --uncontested, only A's deals, to compare like with like (and solve no more).
        kept = {o.seed for o in outs}
        theirs = [score(auction, tables) for auction in others
                  if not args.uncontested or auction.seed in kept]
        print(f"B: {b_name}\n" + "\n".join(report(theirs)))
        print("\n".join(paired(outs, theirs, a_name, b_name)))
    return 0
