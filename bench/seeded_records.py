"""Benchmark records kept one JSON line per seed: a stopped run resumes where it stopped,
and runs split over seed ranges are read back as one."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

Record = dict[str, Any]  # one seed's result, as a line of the record


def read_records(paths: Sequence[Path]) -> list[Record]:
    """The records of several files, one per seed, by seed (a seed twice is refused)."""
    found: dict[int, Record] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                if record["seed"] in found:
                    raise SystemExit(f"deal {record['seed']} is in more than one record")
                found[record["seed"]] = record
    return [found[seed] for seed in sorted(found)]


def one_run(deals: Sequence[Record], run: Callable[[Record], tuple[Any, ...]], what: str
            ) -> None:
    """Refuse `deals` recorded by different runs (`run`: what a record says of its run;
    `what`: those things, in words): one report of them would mean nothing."""
    runs = {run(d) for d in deals}
    if len(runs) > 1:
        raise SystemExit(f"the records are of different {what}: {sorted(runs, key=str)}")


def run_seeds(seeds: Sequence[int], record: Path | None, play: Callable[[int], Record]
              ) -> list[Record]:
    """`play(seed)` for each seed not yet in `record`, each appended to it as it is made;
    then every seed's record there (those of this run alone without a file)."""
    done = {r["seed"] for r in read_records([record])} if (
        record is not None and record.exists()) else set()
    made: list[Record] = []
    for seed in seeds:
        if seed in done:
            continue
        made.append(play(seed))
        if record is not None:
            with record.open("a") as out:
                out.write(json.dumps(made[-1]) + "\n")
    return read_records([record]) if record is not None else made
