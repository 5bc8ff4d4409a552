"""The learned call values at work: how often they change the tables' call, and what
asking them costs a call.

    python -m bench.strength bridge-values [--deals N] [--first-seed S] [--model FILE]
        [--rubber]

Fresh deals (the first deal of `create("bridge", seed)` for each seed, none of them in the
learning bank) are bid by the tables with the learned values (no simulation budget), the
model loaded once as a worker process loads it. For every call, the CPU time (of the
thread: the machine's load does not count) of asking it is recorded (the honest
candidates, their features and the model's prediction: `CallValues.better` after the
tables' `decide`; a stacked round asks the round it is stacked on first), and of the
forests' predictions alone. Printed: calls, calls the values changed
(with a Wilson 95% interval), and the times p50 / p95 / max.
`--rubber` bids each deal at a rubber score (`rollouts.rubber_state` of its seed: games
won and part scores) with the rounds the players ask at that score (`values.served`: the
rubber rounds where a part score stands, else the duplicate rounds); `--model` asks that
one chain at every score instead.
The strength of the change is `bridge-bidding --against REV` (paired against par), at a
rubber `bridge-rubber --against REV`.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bot.ai.bridge.bidding.rubber import Score
from bot.ai.bridge.bidding.system import decide
from bot.ai.bridge.learning import values
from bot.ai.bridge.learning.forest import Forests
from bot.ai.bridge.learning.rollouts import rubber_state
from bot.games import create
from bot.games.bridge import ContractBridge

from .intervals import wilson_text
from .strength_bridge_bidding import check_fresh, fresh_seed
from .strength_bridge_leads import percentiles


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-values")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=None)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--rubber", action="store_true",
                        help="bid at rubber scores, with the rounds served at each score")
    args = parser.parse_args(argv)
    chains = _chains(args.model, args.rubber)
    if chains is None:
        return 1
    first = fresh_seed() if args.first_seed is None else args.first_seed
    seeds = range(first, first + args.deals)
    named = ", ".join(f"{path.name} (margin {model.margin})" for path, model in chains.items())
    print(f"learned call values {named}{', at rubber scores' if args.rubber else ''}; seeds "
          f"{seeds.start}..{seeds.stop - 1} (--first-seed {first} repeats them)")
    print(check_fresh(seeds))
    asked: list[float] = []
    inference: list[float] = []
    spent = [0.0]  # the forests' CPU within the call being asked

    # The forests' own part of a call: their predictions, every round of the chain read
    # together (`forest.Forests`).
    read = Forests.predict

    def timed(self: Forests, rows: object) -> list[object]:
        start = time.thread_time()
        out = read(self, rows)  # type: ignore[arg-type]
        spent[0] += time.thread_time() - start
        return out  # type: ignore[return-value]

    Forests.predict = timed  # type: ignore[assignment,method-assign]
    calls = changed = 0
    for seed in seeds:
        game = create("bridge", seed=seed)
        assert isinstance(game, ContractBridge)
        score = rubber_state(seed) if args.rubber else None
        while game.phase == "bidding" and game.deal_no == 1:
            seat = next(iter(game.to_act()))
            view, legal = game.view(seat), game.legal(seat)
            vulnerable = (view.vulnerable if score is None
                          else (score.vulnerable(0), score.vulnerable(1)))
            made = decide(view.hand, seat, view.calls, legal, None, score)
            model = _asked(chains.get(args.model) if args.model else None, score)
            spent[0] = 0.0
            start = time.thread_time()
            action = model.better(made, legal, vulnerable, score)
            asked.append(time.thread_time() - start)
            inference.append(spent[0])
            calls += 1
            changed += action != made.action
            game.apply(seat, action)
    print(f"calls {calls}, changed by the values {changed} "
          f"({wilson_text(changed, calls)})")
    print("asking the values, CPU per call (candidates, features, prediction): "
          f"{percentiles([t * 1000 for t in asked], unit=' ms', digits=2)}")
    print("the predictions alone (inference, every round of the chain), CPU per call: "
          f"{percentiles([t * 1000 for t in inference], unit=' ms', digits=2)}")
    return 0


def _chains(model: Path | None, rubber: bool) -> dict[Path, values.CallValues] | None:
    """The chains the bench asks, by file: `model` alone where one is named; else the
    duplicate rounds, and at rubber scores the rubber rounds too, loaded as the players
    load them (`values.shared`). None, with a line said, where one does not load."""
    paths = [model] if model is not None else (
        [values.DEFAULT, values.RUBBER] if rubber else [values.DEFAULT])
    chains: dict[Path, values.CallValues] = {}
    for path in paths:
        loaded = values.load(path) if model is not None else values.shared(path)
        if loaded is None:
            print(f"no usable model at {path}")
            return None
        chains[path] = loaded
    return chains


def _asked(named: values.CallValues | None, score: Score | None) -> values.CallValues:
    """The chain asked at `score`: the one `--model` named, else the one the players are
    served there (`values.served`; `_chains` has loaded it)."""
    if named is not None:
        return named
    served = values.served(score)
    assert served is not None  # the duplicate rounds loaded (`_chains`)
    return served
