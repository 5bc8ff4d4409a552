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
won and part scores) with the rubber round (`values.RUBBER`, stacked on the duplicate
rounds) by default.
The strength of the change is `bridge-bidding --against REV` (paired against par), at a
rubber `bridge-rubber --against REV`.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

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
                        help="bid at rubber scores, by default with the rubber round")
    args = parser.parse_args(argv)
    if args.model is None:
        args.model = values.RUBBER if args.rubber else values.DEFAULT
    model = values.load(args.model)
    if model is None:
        print(f"no usable model at {args.model}")
        return 1
    first = fresh_seed() if args.first_seed is None else args.first_seed
    seeds = range(first, first + args.deals)
    print(f"learned call values {args.model.name} (margin {model.margin}"
          f"{', at rubber scores' if args.rubber else ''}); seeds "
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
