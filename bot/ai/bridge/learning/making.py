"""What the commands that make a model's rows share (`reading_training`, `leads_training`):
bank deals worked through in steps across processes, and the `make` / `train` command
line (`run`)."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .bank import FOLDER

T = TypeVar("T")
Step = tuple[Path, int, int]  # the bank's folder, a first deal, how many deals


def in_steps(rows_of: Callable[[Step], T], first: int, deals: int, jobs: int = 1,
             folder: Path = FOLDER, step: int = 100) -> list[T]:
    """`rows_of` each step of bank deals `first` .. `first + deals - 1`, in order: here
    with one job, else in `jobs` worker processes that yield the CPU (`rows_of` must be a
    module's function)."""
    work = [(folder, start, min(step, first + deals - start))
            for start in range(first, first + deals, step)]
    if jobs <= 1:
        return [rows_of(job) for job in work]
    with ProcessPoolExecutor(max_workers=jobs, initializer=os.nice, initargs=(5,)) as pool:
        return list(pool.map(rows_of, work))


def held_out_mask(deal: Any, held_out: int) -> Any:
    """Which rows are held out: those of every `held_out`th bank deal (refused where that
    leaves nothing to fit or nothing to check)."""
    check = deal % held_out == 0
    if check.all() or not check.any():
        raise SystemExit("too few deals to hold some out")
    return check


def provenance(files: Sequence[Path], loaded: Sequence[Any], deal: Any, held_out: int,
               command: str) -> dict[str, Any]:
    """What a model's card says of where it came from: the command, the rows files and the
    commands that made them, the seeds, the bank deals and rows, and which were held out
    (`loaded`: the rows files as numpy loaded them; `deal`: each row's deal number)."""
    return {
        "command": command,
        "rows_files": [p.name for p in files],
        "rows_commands": [str(d["command"]) for d in loaded if "command" in d],
        "seeds": "bank deal i is dealt from random.Random(f'bank:{i}'); LightGBM's seed 1",
        "bank_deals": [int(deal.min()), int(deal.max())],
        "deals": int(np.unique(deal).size),
        "rows": int(deal.size),
        "held_out": f"every deal whose number is a multiple of {held_out}",
    }


def _command_line(prog: str, trees: int, leaves: int,
                  train_flags: Sequence[tuple[str, str]] = ()) -> argparse.ArgumentParser:
    """The command line: `make` rows from bank deals, or `train` the model from rows
    (`trees` and `leaves` its defaults; `train_flags`: a model's own switches, each a
    flag and its help)."""
    parser = argparse.ArgumentParser(prog=prog)
    sub = parser.add_subparsers(dest="what", required=True)
    rows = sub.add_parser("make", help="rows from our players' auctions on bank deals")
    rows.add_argument("--first", type=int, default=0)
    rows.add_argument("--deals", type=int, required=True)
    rows.add_argument("--out", type=Path, required=True)
    rows.add_argument("--jobs", type=int, default=1)
    rows.add_argument("--folder", type=Path, default=FOLDER)
    learn = sub.add_parser("train", help="the model and its card from rows")
    learn.add_argument("--rows", type=Path, nargs="+", required=True)
    learn.add_argument("--out", type=Path, required=True)
    learn.add_argument("--trees", type=int, default=trees)
    learn.add_argument("--leaves", type=int, default=leaves)
    learn.add_argument("--held-out", type=int, default=5)
    for flag, text in train_flags:
        learn.add_argument(flag, action="store_true", help=text)
    return parser


def run(argv: Sequence[str], module: str, make: Callable[..., int],
        train: Callable[..., dict[str, Any]], trees: int, leaves: int,
        unprinted: tuple[str, ...], train_flags: Sequence[tuple[str, str]] = ()) -> int:
    """A `make` / `train` command of `module`: the rows, or the model and its card (printed
    but for its `unprinted` keys); each is given the command as typed. `train_flags`
    (`--a-switch`, its help) reach `train` as keywords (`a_switch`)."""
    args = _command_line(f"python -m {module}", trees, leaves, train_flags).parse_args(argv)
    command = f"python -m {module} " + " ".join(argv)
    if args.what == "make":
        n = make(args.first, args.deals, args.out, args.jobs, args.folder, command=command)
        print(f"{n} rows of bank deals {args.first}..{args.first + args.deals - 1} "
              f"in {args.out}")
        return 0
    switches = {flag[2:].replace("-", "_") for flag, _ in train_flags}
    card = train(args.rows, args.out, args.trees, args.leaves, args.held_out, command,
                 **{name: getattr(args, name) for name in switches})
    print(json.dumps({k: v for k, v in card.items() if k not in unprinted}, indent=1))
    return 0
