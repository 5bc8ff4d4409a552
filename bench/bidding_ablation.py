"""Ablation of the bidding rules: each commit that changed the bidding is undone in turn
and the bidder without it is compared, paired, with the bidder at `--head` on the same
fresh deals at --think 0 (the rule tables alone; the auctions are deterministic).

    python -m bench.bidding_ablation [--head REV] [--since REV] [--deals 1000]
        [--first-seed S] [--commits C1,C2,...] [--historic]

For each commit C (by default every commit since `--since` that touched bot/ai/bidding):
C's change to each bidding file is undone on `--head`'s file by a three-way merge
(`git merge-file`, as `git revert` would); where that conflicts with later changes the
commit is reported as not undoable. `--historic` compares C with its parent instead (the
rule as it was added, on fresh deals), for the commits that cannot be undone on `--head`.
Each variant's `bot` is exported to a temporary folder and bids in a subprocess
(`bench/bidding_auctions.py`); a deal is solved double dummy only where a variant's
contract differs from the other side's (elsewhere the difference is 0), once for all.
A line per commit: n, the mean per-deal IMP difference (with - without: positive,
the change pays) with its 95% interval, the deals whose auction moved, and the verdict
("pays" only when the interval is above zero).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .bidding_auctions import Auction
from .intervals import mean_half
from .strength_bridge_bidding import Tables, auctions_in, differences, fresh_seed

ROOT = Path(__file__).resolve().parent.parent
BIDDING = "bot/ai/bridge/bidding"
OLD_BIDDING = "bot/ai/bidding"  # where the package lived before bot/ai became packages


def at_head(head: str, path: str) -> str:
    """Where a bidding file of an older commit lives at `head`."""
    if path.startswith(OLD_BIDDING + "/") and show(head, path) is None:
        return BIDDING + path[len(OLD_BIDDING):]
    return path


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout


def show(rev: str, path: str) -> str | None:
    done = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True,
                          text=True)
    return done.stdout if done.returncode == 0 else None


def undone(commit: str, head: str) -> dict[str, str] | None:
    """The bidding files of `head` with `commit`'s change to them undone (path -> text),
    None where that conflicts with later changes."""
    files = git("diff", "--name-only", f"{commit}^", commit, "--", BIDDING, OLD_BIDDING).split()
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as folder:
        for path in files:
            current = at_head(head, path)
            texts = (show(head, current), show(commit, path), show(f"{commit}^", path))
            if any(text is None for text in texts):
                return None  # a file added or removed: not a change of rules to undo
            names = []
            for name, text in zip(("current", "base", "other"), texts, strict=True):
                (Path(folder) / name).write_text(text or "")
                names.append(str(Path(folder) / name))
            merged = subprocess.run(["git", "merge-file", "-p", *names], capture_output=True,
                                    text=True)
            if merged.returncode != 0:
                return None
            out[current] = merged.stdout
    return out


def export(rev: str, folder: Path, changes: dict[str, str] | None = None) -> None:
    archive = subprocess.run(["git", "archive", rev, "bot"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    for path, text in (changes or {}).items():
        (folder / path).write_text(text)


_BID: dict[tuple[str, range], list[Auction] | None] = {}


def auctions(rev: str, seeds: range, changes: dict[str, str] | None = None,
             ) -> list[Auction] | None:
    """Commit `rev`'s auctions (with `changes` to its files); a commit's own, once a run."""
    key = (git("rev-parse", rev).strip(), seeds)
    if changes is None and key in _BID:
        return _BID[key]
    found = _bid(rev, seeds, changes)
    if changes is None:
        _BID[key] = found
    return found


def _bid(rev: str, seeds: range, changes: dict[str, str] | None) -> list[Auction] | None:
    folder = Path(tempfile.mkdtemp(prefix="ablation-"))
    try:
        export(rev, folder, changes)
        return list(auctions_in(folder, seeds, None, 0.0))
    except RuntimeError:
        return None  # the variant does not run (an import the undone change removed)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def compare(with_: list[Auction], without: list[Auction], tables: Tables) -> str:
    diffs = differences(with_, without, tables)
    moved = sum(1 for a, b in zip(with_, without, strict=True) if a.calls != b.calls)
    mean, half = mean_half(diffs)
    verdict = "pays" if mean - half > 0 else "loses" if mean + half < 0 else "no gain shown"
    return (f"n={len(diffs)} with-without {mean:+.3f} (95% CI {mean - half:+.3f} to "
            f"{mean + half:+.3f}) moved {moved}: {verdict}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bidding_ablation")
    parser.add_argument("--head", default="HEAD")
    parser.add_argument("--since", default="e61301a",
                        help="the base system: commits after it are ablated")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=None)
    parser.add_argument("--commits", default=None, help="comma-separated, default: all")
    parser.add_argument("--historic", action="store_true",
                        help="compare each commit with its parent, not undone on --head")
    args = parser.parse_args(argv)
    head = git("rev-parse", "--short", args.head).strip()
    first = fresh_seed() if args.first_seed is None else args.first_seed
    seeds = range(first, first + args.deals)
    commits = args.commits.split(",") if args.commits else git(
        "log", "--format=%h", "--reverse", f"{args.since}..{head}", "--", BIDDING,
        OLD_BIDDING).split()
    how = "each commit against its parent" if args.historic else f"each commit undone on {head}"
    print(f"Bidding ablation at --think 0 on {head}, seeds {seeds.start}..{seeds.stop - 1} "
          f"(--first-seed {first}), {how}", flush=True)
    tables = Tables()
    base = None if args.historic else auctions(head, seeds)
    for commit in commits:
        subject = git("log", "-1", "--format=%s", commit)[:70]
        if args.historic:
            with_, without = auctions(commit, seeds), auctions(f"{commit}^", seeds)
        else:
            changes = undone(commit, head)
            if changes is None:
                print(f"{commit} not undoable on {head} | {subject}", flush=True)
                continue
            with_, without = base, auctions(head, seeds, changes)
        if with_ is None or without is None:
            print(f"{commit} does not run | {subject}", flush=True)
            continue
        print(f"{commit} {compare(with_, without, tables)} | {subject}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
