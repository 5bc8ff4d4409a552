"""Card play of the bridge computer players against double dummy, and Single Dummy matches.

    python -m bench.strength bridge-play [--deals 200] [--kinds bridge-basic,bridge-advanced]
        [--think 0.8] [--sd-matches 40] [--sd-target 500] [--first-seed 1] [--list]
        [--sd-first-seed N] [--record FILE] [--tricks N] [--bidders bridge-advanced]
    python -m bench.strength bridge-play --merge FILE [FILE ...]
    python -m bench.strength bridge-play --paired BEFORE AFTER

Contract Bridge: a fixed set of deals (the first deals of the matches seeded --first-seed,
--first-seed + 1, ..., skipping those passed out), each bid by the rule-based players (so
every kind plays the same contracts) and then played out with players of one kind in all
four seats, each decision with a budget of --think seconds (the layouts the opening lead
solved are recorded). `--bidders bridge-advanced` bids the same deals as the bot serves
its robots instead (each call through a worker's round trip in the tables' 0.8 s): the
auctions a table of robots plays after, which the hand reading and the learned cards
learned from. Every card is scored against double dummy: the tricks the best
card would take for the side to play less what the card played keeps (0 for a card as
good as any). Per deal: the losses of the declaring side's cards, of the defence's cards
without the opening lead, and of the opening lead apart; the share of cards that lose
anything. Means come with 95% intervals (normal, over deals).
Then where the tricks were lost: by whose card and what it did (the lead to a trick,
following suit, ruffing, discarding; its position in the trick) and by the tricks of the
deal, each as tricks a deal.

`--tricks N` plays only the first N tricks of each deal, where a card costs most to search
and the layouts are fewest; the figures are then those tricks' losses. `--merge` and
`--paired` refuse records played for different numbers of tricks, and `--paired` records
whose deals were bid by different players.

Single Dummy Bridge: whole matches to --sd-target points of `single-dummy-advanced`
against `single-dummy-basic`, seats alternating, match seeds --first-seed upwards; the
win rate with a 95% Wilson interval.

Budgets run on the thinking thread's CPU clock (`time.thread_time`), so that other work on
a shared machine does not trip the budget's safety net and change the play measured: the
figures do not depend on the machine's load. The planned work per decision (how many
layouts) is the same as at a table. DDS solves in its own threads, which that clock does
not see: the search sizes its work from the solver's reported work instead, and the
decision times are the process's CPU (DDS's threads included) and wall clock, per game
and phase: p50, p95 and max. The machine's load inflates wall times: compare CPU.

Long runs can be split: `--record FILE` appends one JSON line per deal and per match as
it finishes (kept if the run is stopped; run again, it plays only what FILE lacks at the
same budget and tricks), and `--merge` reports several such files as one
run (each deal and match once; the code versions and budgets they were run with listed).
`--paired` compares two such records of the same deals (two versions of the code, each
run with --record): per deal, AFTER's DD tricks lost less BEFORE's, for the declaring
side, the defence, both (the opening lead apart), the opening lead and the other cards
of the first trick (played to the same lead, so the closest paired), the mean with its
95% interval (negative: AFTER loses fewer), and each one's decision CPU.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import statistics
import subprocess
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ai import Budget, make_player
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.ai.core.dds import Position, solve
from bot.games import create
from bot.games.bridge import ContractBridge
from bot.games.bridge_view import BridgeView
from bot.games.cards import Card, Suit
from bot.tables.thinking import THINK_SECONDS, think_as_served

from .intervals import half_width, mean_half, wilson_text

Times = dict[str, list[tuple[float, float]]]  # phase -> (wall, cpu) per decision
Record = dict[str, Any]  # one deal or match, as --record writes it


@dataclass
class PlayTally:
    """DD tricks lost per deal, by whose cards, and the cards that lost anything."""

    seeds: list[int] = field(default_factory=list)
    declaring: list[float] = field(default_factory=list)
    defence: list[float] = field(default_factory=list)
    leads: list[float] = field(default_factory=list)
    cards: int = 0
    costly: int = 0
    costly_declaring: int = 0
    cards_declaring: int = 0
    decided_by_search: int = 0
    lead_layouts: list[float] = field(default_factory=list)

    def add(self, deal: Record) -> None:
        self.seeds.append(deal["seed"])
        self.declaring.append(deal["declaring"])
        self.defence.append(deal["defence"])
        self.leads.append(deal["lead"])
        self.cards += deal["cards"]
        self.costly += deal["costly"]
        self.cards_declaring += deal["cards_declaring"]
        self.costly_declaring += deal["costly_declaring"]
        self.decided_by_search += deal["by_search"]
        if "lead_layouts" in deal:  # recorded since 2026-12-02
            self.lead_layouts.append(deal["lead_layouts"])


def budget(think: float) -> Budget:
    """A decision's budget on the thinking thread's CPU clock: other work on a shared
    machine slows the wall clock, and the safety net would then change the decisions
    measured."""
    return Budget(think, clock=time.thread_time)


def code_version() -> str:
    """The commit the bench runs (with '+' when the work tree has changes), for records."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+" if dirty else "")


def mean_ci(values: Sequence[float], places: int = 2) -> str:
    if not values:
        return "n/a"
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.{places}f}"
    return f"{mean:.{places}f} ± {half_width(values):.{places}f}"


def difference_ci(diffs: Sequence[float]) -> str:
    """A paired difference to three places, as a change of a few hundredths needs, with
    its 95% interval (two deals or more) and the deals it moved."""
    if not diffs:
        return "n/a"
    mean = statistics.fmean(diffs)
    moved = sum(1 for d in diffs if d)
    if len(diffs) < 2:
        return f"{mean:+.3f}, {moved} deals differ"
    half = half_width(diffs)
    return f"{mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f}), {moved} deals differ"


def spans(seeds: Iterable[int]) -> str:
    """Seeds as runs: 1..75, 102..126."""
    out: list[str] = []
    run: list[int] = []
    for seed in sorted(seeds):
        if run and seed != run[-1] + 1:
            out.append(f"{run[0]}..{run[-1]}" if len(run) > 1 else str(run[0]))
            run = []
        run.append(seed)
    if run:
        out.append(f"{run[0]}..{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


def way_line(way: str, width: int, unit: str, lost: Sequence[float], cpu: list[float]
             ) -> str:
    """A way's line of a decision-by-decision bench: the DD tricks `lost` a `unit` (a card,
    a decision) with their 95% interval, and its CPU a `unit` p50, p95 and max."""
    mean, half = mean_half(lost)
    return (f"  {way:{width}} DD tricks a {unit} {mean:.4f} ± {half:.4f}; CPU a {unit} (ms) "
            f"p50 p95 max {percentiles(cpu)}")


def percentiles(samples: list[float]) -> str:
    if not samples:
        return "n/a"
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return f"{at(0.5) * 1000:7.0f} {at(0.95) * 1000:7.0f} {ordered[-1] * 1000:7.0f}"


def timed(times: Times, phase: str, players: Any, seat: int, view: object,
          legal: list[str], think: float) -> str:
    """The seat's decision as the bot serves it (the player's round trip through a worker
    process, `think_as_served`), its wall and CPU time counted under `phase`."""
    wall, cpu = time.perf_counter(), time.process_time()
    action, players[seat] = think_as_served(players[seat], view, legal, budget(think))
    times[phase].append((time.perf_counter() - wall, time.process_time() - cpu))
    return action


# Who bids a bench's deals: `bridge-basic`, the rule-based players (every deal set since
# the first, so their figures compare), or `bridge-advanced` as the bot serves it at a
# table of robots (each call through a worker's round trip in the table's budget).
BIDDERS = ("bridge-basic", "bridge-advanced")
SERVED_THINK = THINK_SECONDS  # the tables' budget where .env sets none


def bid_out(seed: int, bidders: str = "bridge-basic") -> ContractBridge | None:
    """The first deal of match `seed`, bid by `bidders` (`BIDDERS`); None if passed out."""
    game = create("bridge", seed=seed)
    assert isinstance(game, ContractBridge)
    players = [make_player("bridge", seed * 7 + s, bidders) for s in range(4)]
    while game.phase == "bidding":
        seat = next(iter(game.to_act()))
        view, legal = game.view(seat), game.legal(seat)
        if bidders == "bridge-basic":
            call = players[seat].choose(view, legal)
        else:
            call, players[seat] = think_as_served(players[seat], view, legal,
                                                  budget(SERVED_THINK))
        game.apply(seat, call)
        if game.deal_no > 1:
            return None
    return game


def bid_deals(first: int, bidders: str = "bridge-basic"
              ) -> Iterator[tuple[int, ContractBridge]]:
    """The deals from seed `first` on that `bidders` do not pass out, bid: (seed, game)."""
    seed = first
    while True:
        game = bid_out(seed, bidders)
        if game is not None:
            yield seed, game
        seed += 1


# A deal set: each seed, in order, with its first deal bid (`deal_set`).
DealSet = dict[int, ContractBridge]


def deal_set(first: int, count: int, bidders: str = "bridge-basic") -> DealSet:
    """The first `count` `bid_deals` by `bidders` (by default the rule-based players: the
    benches' deal set so far), each bid once here; each play of a deal plays a copy of
    its game, so the set's stays as bid."""
    return dict(itertools.islice(bid_deals(first, bidders), count))


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


# A look at one decision of a deal played as served (`probe_served_play`): given the game,
# the seat to act, its view and legal actions, its player and how many decisions were
# probed so far, None (the decision is made as served) or the action to play, the player
# as it came back and what was measured there.
Probe = Callable[[ContractBridge, int, BridgeView, Sequence[str], AdvancedBridgePlayer, int],
                 "tuple[str, Any, Record] | None"]


def probe_served_play(seed: int, bid: ContractBridge, think: float, tricks: int,
                      probe: Probe) -> list[Record]:
    """Deal `seed` (`bid`, the deal set's game: a copy of it is played) played by
    `bridge-advanced` in all four seats for its first `tricks` tricks, each card as the
    bot serves it (`think_as_served`, `think` seconds of CPU), each decision offered to
    `probe` first; what the probes measured."""
    game = copy.deepcopy(bid)
    players = [make_player("bridge", seed * 7 + s, "bridge-advanced") for s in range(4)]
    measured: list[Record] = []
    while game.deal_no == 1 and not game.finished:
        seat = next(iter(game.to_act()))
        view, legal = game.view(seat), game.legal(seat)
        if len(view.played) >= 4 * tricks:
            break
        player = players[seat]
        assert isinstance(player, AdvancedBridgePlayer)
        probed = probe(game, seat, view, legal, player, len(measured))
        if probed is None:
            action, players[seat] = think_as_served(player, view, legal, budget(think))
        else:
            action, players[seat], record = probed
            measured.append(record)
        game.apply(seat, action)
    return measured


def card_kind(trick: Sequence[tuple[int, Card]], action: str, trump: Suit | None) -> str:
    """What a card does in its trick: leads it, follows suit, ruffs or discards."""
    if not trick:
        return "lead"
    card = Card.parse(action[5:])
    led = trick[0][1].suit
    return "follow" if card.suit == led else "ruff" if card.suit == trump else "discard"


def breakdown(deals: Sequence[Record]) -> None:
    """Where the DD tricks were lost: per deal, by whose card and what it did, and by
    the tricks of the deal (deals recorded before losses were listed count as none)."""
    listed = [d for d in deals if "losses" in d]
    if not listed:
        return
    n = len(listed)
    by_kind: dict[str, float] = defaultdict(float)
    by_trick: dict[str, float] = defaultdict(float)
    for deal in listed:
        for loss in deal["losses"]:
            who = "opening lead" if loss["who"] == "lead" else loss["who"]
            what = "" if who == "opening lead" else \
                f" {loss['kind']} (position {loss['position'] + 1})"
            by_kind[who + what] += loss["loss"]
            first = (loss["trick"] - 1) // 3 * 3 + 1
            by_trick[f"{who}, tricks {first}-{min(13, first + 2)}"] += loss["loss"]
    print(f"\nWhere DD tricks were lost ({n} deals), tricks a deal:")
    for table in (by_kind, by_trick):
        for key in sorted(table, key=lambda k: -table[k]):
            print(f"  {key:40} {table[key] / n:.3f}")


def play_deal(seed: int, bid: ContractBridge, kind: str, think: float, tricks: int = 13,
              bidders: str = "bridge-basic") -> Record:
    """Deal `seed` (`bid` by `bidders`, the deal set's game: a copy of it is played),
    played by `kind` in all four seats for its first `tricks` tricks (all 13: played out),
    every card scored."""
    game = copy.deepcopy(bid)
    players = [make_player("bridge", seed * 7 + s, kind) for s in range(4)]
    basic = [make_player("bridge", seed * 7 + s, "bridge-basic") for s in range(4)]
    contract = game.deal_record().contract
    assert contract is not None
    declaring_side = contract.declarer % 2
    deal: Record = {"section": "bridge", "kind": kind, "seed": seed, "think": think,
                    "contract": f"{contract.label} by {'NESW'[contract.declarer]}",
                    "declaring": 0.0, "defence": 0.0, "lead": 0.0, "cards": 0, "costly": 0,
                    "cards_declaring": 0, "costly_declaring": 0, "by_search": 0,
                    "tricks": tricks, "bidders": bidders, "losses": []}
    times: Times = defaultdict(list)
    first = True
    while game.deal_no == 1 and not game.finished:
        seat = next(iter(game.to_act()))
        view, legal = game.view(seat), game.legal(seat)
        if len(view.played) >= 4 * tricks:
            break
        to_play = view.playing_for if view.playing_for is not None else seat
        scores = dd_scores(game)
        side = "declaring" if to_play % 2 == declaring_side else "defence"
        phase = "opening lead" if first else ("declarer" if side == "declaring" else "defence")
        action = timed(times, f"bridge {phase}", players, seat, view, legal, think)
        if first:
            deal["lead_layouts"] = getattr(players[seat], "last_layouts", 0)
        if kind != "bridge-basic" and len(legal) > 1 and action != basic[seat].choose(view,
                                                                                      legal):
            deal["by_search"] += 1
        loss = max(scores.values()) - scores[action]
        if loss:
            deal["losses"].append({"trick": len(view.played) // 4 + 1,
                                   "position": len(view.trick),
                                   "who": "lead" if first else side,
                                   "kind": card_kind(view.trick, action, contract.trump),
                                   "loss": loss})
        deal["lead" if first else side] += loss
        deal["cards"] += 1
        deal["costly"] += loss > 0
        if side == "declaring":
            deal["cards_declaring"] += 1
            deal["costly_declaring"] += loss > 0
        first = False
        game.apply(seat, action)
    deal["times"] = times
    return deal


def single_dummy_match(seed: int, target: int, think: float) -> Record:
    """One whole match of the advanced player against the basic one."""
    game = create("single_dummy", options={"target": target}, seed=seed)
    strong = seed % 2
    players = {strong: make_player("single_dummy", seed, "single-dummy-advanced"),
               1 - strong: make_player("single_dummy", seed, "single-dummy-basic")}
    times: Times = defaultdict(list)
    while not game.finished:
        seat = next(iter(game.to_act()))
        view, legal = game.view(seat), game.legal(seat)
        if seat == strong:
            phase = view.phase.replace("_", " ")
            if view.phase == "play":  # like bridge's: the declarer's cards, the defence's
                assert view.contract is not None
                phase = "declarer" if view.contract.declarer == seat else "defence"
            action = timed(times, f"single dummy {phase}", players, seat, view, legal, think)
        else:
            action, players[seat] = think_as_served(players[seat], view, legal,
                                                    budget(think))
        game.apply(seat, action)
    result = game.result()
    assert result is not None
    won = result.ranks[strong] == 0 and result.ranks[1 - strong] == 1
    return {"section": "single_dummy", "seed": seed, "target": target, "think": think,
            "won": won, "times": times}


def report_play(kind: str, tally: PlayTally) -> None:
    n = len(tally.declaring)
    print(f"\n{kind}: {n} deals (seeds {spans(tally.seeds)}), {tally.cards} cards")
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
    if tally.lead_layouts and any(tally.lead_layouts):
        ordered = sorted(tally.lead_layouts)
        at95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(f"  layouts solved per opening lead: p50 {ordered[len(ordered) // 2]:.0f} "
              f"p95 {at95:.0f} max {ordered[-1]:.0f} (0: the rule-based card)")


def report_times(times: Times) -> None:
    print("\nDecision times (ms): wall p50 p95 max | process CPU p50 p95 max | decisions")
    for phase in sorted(times):
        rows = times[phase]
        walls, cpus = [w for w, _ in rows], [c for _, c in rows]
        print(f"  {phase:28} {percentiles(walls)} | {percentiles(cpus)} | {len(rows)}")


def report_matches(matches: Sequence[Record]) -> None:
    wins = sum(1 for m in matches if m["won"])
    targets = sorted({m["target"] for m in matches})
    thinks = sorted({m["think"] for m in matches})
    print(f"\nSingle Dummy: single-dummy-advanced against single-dummy-basic, "
          f"{len(matches)} matches to {'/'.join(map(str, targets))} (seeds "
          f"{spans(m['seed'] for m in matches)}, seats alternating), budget "
          f"{'/'.join(map(str, thinks))} s")
    print(f"  advanced wins: {wins} of {len(matches)} = {wilson_text(wins, len(matches))}")
    report_times(merged_times(matches))


def merged_times(records: Iterable[Record]) -> Times:
    times: Times = defaultdict(list)
    for record in records:
        for phase, rows in record["times"].items():
            times[phase].extend((wall, cpu) for wall, cpu in rows)
    return times


def write(path: str | None, record: Record) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")


def auctions_by(record: Record) -> str:
    """Who bid a recorded deal (records before `--bidders` were all the rule-based
    players')."""
    return str(record.get("bidders", BIDDERS[0]))


def add_bidders(parser: argparse.ArgumentParser) -> None:
    """The benches' `--bidders` option: who bids the deal set."""
    parser.add_argument("--bidders", choices=BIDDERS, default=BIDDERS[0],
                        help="who bids the deals: the rule-based players (the deal set of "
                             "the figures so far) or bridge-advanced as served")


def resumable(path: str | None, think: float, tricks: int, bidders: str = "bridge-basic"
              ) -> dict[tuple[str, int], Record]:
    """What a --record file already holds at this budget, trick count and bidders, by
    (kind, seed) for deals and ("single_dummy", seed) for matches: a stopped run resumes,
    not repeats."""
    if path is None or not Path(path).exists():
        return {}
    found: dict[tuple[str, int], Record] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record["think"] != think:
                continue
            if (record["section"] == "bridge" and record.get("tricks", 13) == tricks
                    and auctions_by(record) == bidders):
                found[(record["kind"], record["seed"])] = record
            elif record["section"] != "bridge":
                found[("single_dummy", record["seed"])] = record
    if found:
        print(f"resumed: {len(found)} deals and matches already in {path}", flush=True)
    return found


def merge(paths: Sequence[str]) -> int:
    """Report the deals and matches of several --record files as one run."""
    deals: dict[tuple[str, int], Record] = {}
    matches: dict[int, Record] = {}
    versions: set[str] = set()
    read: list[Record] = []  # every bridge deal read, a deal in two files twice
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                versions.add(f"{record.get('code', 'unknown')}, budget {record['think']} s"
                             + (f", auctions by {auctions_by(record)}"
                                if record["section"] == "bridge" else ""))
                if record["section"] == "bridge":
                    read.append(record)
                    key = (record["kind"], record["seed"])
                    if key in deals:
                        print(f"deal {key[1]} of {key[0]} is in more than one record: "
                              "kept once")
                    deals[key] = record
                else:
                    matches[record["seed"]] = record
    tricks = one_trick_count(read)
    if not tricks:
        return 1
    print(f"Merged {len(deals)} deals and {len(matches)} Single Dummy matches from "
          f"{len(paths)} files; run with: {'; '.join(sorted(versions))}"
          + (f"; {first_tricks(tricks)} of each deal" if tricks < 13 else ""))
    for kind in sorted({kind for kind, _ in deals}):
        tally = PlayTally()
        mine = [deals[key] for key in sorted(deals) if key[0] == kind]
        for deal in mine:
            tally.add(deal)
        report_play(kind, tally)
        report_times(merged_times(mine))
        breakdown(mine)
    if matches:
        report_matches([matches[seed] for seed in sorted(matches)])
    return 0


def read_deals(path: str) -> dict[int, Record]:
    """The Contract Bridge deals of one --record file, by seed (one kind per file)."""
    with open(path, encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    return {r["seed"]: r for r in records if r["section"] == "bridge"}


def one_trick_count(deals: Iterable[Record]) -> int:
    """The number of tricks every deal recorded was played for (13 when none is), or 0,
    said, when they differ: one report of deals played for different tricks would mean
    nothing."""
    tricks = {deal.get("tricks", 13) for deal in deals}
    if len(tricks) > 1:
        print(f"the records played different numbers of tricks ({sorted(tricks)}): "
              "not reported together")
        return 0
    return tricks.pop() if tricks else 13


def first_tricks(count: int) -> str:
    return "the first trick" if count == 1 else f"the first {count} tricks"


def lost_by(deal: Record, key: str) -> float:
    """A deal's DD tricks lost by one side's cards, both sides' (`both`, the opening lead
    apart) or the cards played to the opening lead (`first_trick`: 0 for a deal recorded
    before losses were listed)."""
    if key == "both":
        return float(deal["declaring"] + deal["defence"])
    if key == "first_trick":
        return float(sum(loss["loss"] for loss in deal.get("losses", ())
                         if loss["trick"] == 1 and loss["who"] != "lead"))
    return float(deal[key])


def paired(before_path: str, after_path: str) -> int:
    """AFTER's DD tricks lost less BEFORE's on the deals both played."""
    before, after = read_deals(before_path), read_deals(after_path)
    seeds = sorted(set(before) & set(after))
    if len(seeds) < 2:
        print("fewer than two deals in both records: nothing to compare")
        return 1
    bidders = [{auctions_by(side[s]) for s in seeds} for side in (before, after)]
    if len(bidders[0] | bidders[1]) > 1:
        print("the records' deals were bid by different players "
              f"({', '.join(sorted(bidders[0] | bidders[1]))}): nothing to compare")
        return 1
    codes = [sorted({r.get("code", "unknown") for r in side.values()})
             for side in (before, after)]
    print(f"Paired on {len(seeds)} deals (seeds {spans(seeds)}): BEFORE {', '.join(codes[0])}"
          f" ({before_path}), AFTER {', '.join(codes[1])} ({after_path})")
    tricks = one_trick_count([*before.values(), *after.values()])
    if not tricks:
        return 1
    if tricks < 13:
        print(f"  {first_tricks(tricks)} of each deal")
    rows = (("declaring", "declaring side"), ("defence", "defence (leads apart)"),
            ("both", "both, leads apart"), ("lead", "opening lead"),
            ("first_trick", "rest of the first trick"))
    for key, name in rows:
        lost = [[lost_by(side[s], key) for s in seeds] for side in (before, after)]
        diffs = [b - a for a, b in zip(*lost, strict=True)]
        print(f"  DD tricks lost per deal, {name:23} BEFORE {mean_ci(lost[0])}, "
              f"AFTER {mean_ci(lost[1])}, AFTER - BEFORE {difference_ci(diffs)}")
    for label, side in (("BEFORE", before), ("AFTER", after)):
        print(f"\n{label}:", end="")
        report_times(merged_times(side[s] for s in seeds))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-play")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--kinds", default="bridge-basic,bridge-advanced")
    parser.add_argument("--think", type=float, default=0.8, help="budget per decision (s)")
    parser.add_argument("--sd-matches", type=int, default=40)
    parser.add_argument("--sd-target", type=int, default=500)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--sd-first-seed", type=int, default=None,
                        help="first Single Dummy match seed (default: --first-seed)")
    parser.add_argument("--tricks", type=int, default=13, choices=range(1, 14),
                        metavar="N", help="play only the first N tricks of each deal")
    add_bidders(parser)
    parser.add_argument("--list", action="store_true", help="print every deal of the set")
    parser.add_argument("--record", metavar="FILE",
                        help="append each deal and match to FILE as a JSON line; those "
                        "already in FILE (same budget and tricks) are not played again")
    parser.add_argument("--merge", nargs="+", metavar="FILE",
                        help="report --record files as one run (plays nothing)")
    parser.add_argument("--paired", nargs=2, metavar=("BEFORE", "AFTER"),
                        help="compare two --record files deal by deal (plays nothing)")
    args = parser.parse_args(argv)
    if args.merge:
        return merge(args.merge)
    if args.paired:
        return paired(*args.paired)
    code = code_version()
    if args.deals:
        deals = deal_set(args.first_seed, args.deals, args.bidders)
        seeds = list(deals)
        print(f"Contract Bridge deal set: the first deals of matches {seeds} "
              f"(passed-out seeds skipped), bid by {args.bidders}; budget {args.think} s "
              "on the thinking thread's CPU clock (figures independent of the machine's "
              f"load); code {code}"
              + (f"; {first_tricks(args.tricks)} of each deal" if args.tricks < 13 else ""),
              flush=True)
        if args.list:
            for seed, game in deals.items():
                record = game.deal_record()
                assert record.contract is not None
                print(f"  {seed}: {record.pbn}  {record.contract.label} by "
                      f"{'NESW'[record.contract.declarer]}")
        recorded = resumable(args.record, args.think, args.tricks, args.bidders)
        for kind in args.kinds.split(","):
            tally, played = PlayTally(), []
            for done, seed in enumerate(seeds, start=1):
                deal = recorded.get((kind, seed))
                if deal is None:
                    deal = play_deal(seed, deals[seed], kind, args.think, args.tricks,
                                     args.bidders)
                    write(args.record, {**deal, "code": code})
                tally.add(deal)
                played.append(deal)
                if done % 25 == 0:
                    print(f"  {kind}: {done} deals, declaring {mean_ci(tally.declaring)}, "
                          f"defence {mean_ci(tally.defence)}", flush=True)
            report_play(kind, tally)
            report_times(merged_times(played))
            breakdown(played)
    if args.sd_matches:
        first = args.first_seed if args.sd_first_seed is None else args.sd_first_seed
        matches = []
        for seed in range(first, first + args.sd_matches):
            match = recorded.get(("single_dummy", seed))
            if match is None or match["target"] != args.sd_target:
                match = single_dummy_match(seed, args.sd_target, args.think)
                write(args.record, {**match, "code": code})
            matches.append(match)
            wins = sum(1 for m in matches if m["won"])
            print(f"  match {seed}: {'won' if match['won'] else 'lost'} by the advanced "
                  f"player; {wins} of {len(matches)} so far", flush=True)
        report_matches(matches)
    return 0
