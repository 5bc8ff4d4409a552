"""`python -m bench.tables`: the command line (see bench/tables/__init__.py)."""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path

from . import __doc__ as DOC
from .harness import RunOptions, run_once
from .report import print_figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tables",
                                     description=DOC.split("\n\n")[0])
    parser.add_argument("--tables", default="50,200,500", help="comma-separated counts")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured play time")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="play before the measured window (not counted)")
    parser.add_argument("--edit-interval", type=float, default=1.0,
                        help="the bot's table-edit interval (production default 1 s)")
    parser.add_argument("--poll", type=float, default=2.0,
                        help="a waiting person looks at their hand at least this often (s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.8,
                        help="computer players' budget per decision (s): 0.8, the production "
                             "default, is full strength; 0 gives the rule-based answers")
    parser.add_argument("--think-processes", type=int, default=None,
                        help="worker processes the computer players think in (default: "
                             "the bot's, one per core; 0: threads of the bot process)")
    parser.add_argument("--profile", default=None,
                        help="cProfile the bot process (setup included) into this file")
    parser.add_argument("--trace", action="store_true",
                        help="print where each answer's time goes, stage by stage, the "
                             "garbage collector's runs, and what a full collection frees "
                             "at the window's end")
    parser.add_argument("--loop-profile", action="store_true",
                        help="with --trace: time every step of the bot's tasks (costs the "
                             "bot some CPU) and print what a click's write waits behind")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes, each serving one shard of as many")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite",
                        help="postgresql: a fresh server from the pgserver package per run")
    parser.add_argument("--postgres-nice", type=int, default=None,
                        help="run PostgreSQL's server this much nicer than the benchmark "
                             "(negative: it gets a core first, as on a machine of its own; "
                             "default: the same priority as the bot)")
    parser.add_argument("--metrics", action="store_true",
                        help="scrape health and metrics (METRICS_PORT, always served) every "
                             "second, as a busy Prometheus would")
    parser.add_argument("--bot-process", nargs=2, metavar=("CONFIG", "OUT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bot_process:
        # As the bot's own entry point runs it (bot/__main__.py): its event loop.
        from bot.runtime import run

        from .probes import serve_bot

        run(serve_bot(json.loads(args.bot_process[0]), Path(args.bot_process[1])))
        return 0
    counts = [int(n) for n in args.tables.split(",") if n]
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        for count in counts:
            figures.append(asyncio.run(run_once(RunOptions(
                count, args.seconds, args.edit_interval, Path(tmp), args.seed, args.poll,
                args.profile, args.trace, args.warmup, max(1, args.processes), args.database,
                args.think, args.think_processes, args.postgres_nice, args.loop_profile,
                args.metrics))))
    print_figures(figures, args.database, max(1, args.processes), args.postgres_nice)
    where = ("in threads of the bot process" if args.think_processes == 0 else
             f"in {args.think_processes or 'one per core'} worker processes")
    print(f"(computer players think up to {args.think} s per decision, {where}; the bot "
          "CPU above excludes the workers')")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
