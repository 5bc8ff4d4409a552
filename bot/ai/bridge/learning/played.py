"""Played deals: bank deals bid and played to the last trick by our players as the bot
serves them, kept as their actions, to learn what the play shows of the hands that made it
(`suit_reading`).

    python -m bot.ai.bridge.learning.played make --first 70000 --deals 2000 [--jobs 2]
    python -m bot.ai.bridge.learning.played count [--folder DIR]

Each deal is bid as `play_training` bids its rows' deals (the tables with the shipped call
values, no thinking budget) and played by `AdvancedBridgePlayer` as served (the readings
and learned cards the bot serves), at `THINK` seconds of CPU a card on the thread's clock, as the
benchmarks count it. A file holds the deals of one step of `STEP` bank deals, a line each:
the bank number, then every action as the game took it (`bid:1H`, `pass`, `play:AS`);
a deal passed out is kept with its calls alone. Files are written whole (a temporary file
renamed), so a stopped run loses at most the steps it was playing and `make` carries on
where the files end. A budget on a CPU clock makes a card depend a little on the machine,
so a deal played twice may differ slightly.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bot.ai.core.budget import Budget
from bot.ai.core.carding import CountSignals
from bot.games.bridge import ContractBridge

from ..advanced import AdvancedBridgePlayer
from .bank import FOLDER as BANK
from .bank import BankDeal, numbered_files, read, write_whole
from .play_training import THINK, bid_board, board_game
from .rollouts import Bidders
from .values import shared as shared_values

FOLDER = Path(__file__).parent / "data" / "played"
STEP = 10  # bank deals a file


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """A bank deal as our players bid and played it: its number and actions in order."""

    number: int
    actions: tuple[str, ...]

    def line(self) -> str:
        return " ".join((str(self.number), *self.actions))

    @classmethod
    def parse(cls, line: str) -> PlayedDeal:
        """A line as `line` writes it (raises ValueError, saying so, where it is not)."""
        number, *actions = line.split() or ("",)
        if not number.isdigit():
            raise ValueError(f"a played deal's line starts with its bank number: {line!r}")
        return cls(int(number), tuple(actions))


def play_deal(deal: BankDeal, bidders: Bidders, think: float = THINK, tricks: int = 13,
              signals: Mapping[str, CountSignals] | None = None) -> PlayedDeal:
    """Bank deal `deal` bid by `bidders` and played by the served card players, thinking
    `think` seconds of CPU a card, for its first `tricks` tricks (all: to the end), with
    their signal switches (`count_signals`, `attitude_signals`, `discard_signals`) set as
    `signals` says and the others as served."""
    game, actions = bid_board(deal, bidders)
    players = [AdvancedBridgePlayer(deal.number * 7 + s) for s in range(4)]
    for player in players:
        for switch, value in (signals or {}).items():
            if not hasattr(player, switch) or not switch.endswith("_signals"):
                raise ValueError(f"{switch} is no signal switch of the card players")
            setattr(player, switch, value)
    while game.phase == "play" and len(game.deal_record().play) < 4 * tricks:
        seat = next(iter(game.to_act()))
        action = players[seat].choose(game.view(seat), game.legal(seat),
                                      Budget(think, clock=time.thread_time))
        game.apply(seat, action)
        actions.append(action)
    return PlayedDeal(deal.number, tuple(actions))


def steps(game: ContractBridge, played: PlayedDeal) -> Iterator[tuple[int, str]]:
    """`played`'s actions applied to `game` (its board) in turn: each seat to act and its
    action, checked legal there (raises ValueError, saying so), yielded before it is
    applied."""
    for action in played.actions:
        seat = next(iter(game.to_act()))
        if action not in game.legal(seat):
            raise ValueError(f"played deal {played.number}: {action} is not legal there")
        yield seat, action
        game.apply(seat, action)


def replay(deal: BankDeal, played: PlayedDeal) -> ContractBridge:
    """The board of `deal` with `played`'s actions applied (each checked legal)."""
    game = board_game(deal)
    for _ in steps(game, played):
        pass
    return game


def _path(folder: Path, first: int) -> Path:
    return folder / f"played-{first:07d}.txt"


def play_step(folder: Path, first: int, count: int, bank: Path = BANK,
              think: float = THINK) -> Path:
    """Play bank deals first .. first+count-1 (`think` seconds of CPU a card) and write
    them as one file."""
    bidders = Bidders(shared_values())
    lines = [play_deal(deal, bidders, think).line()
             for deal in read(bank, first=first, limit=count)]
    return write_whole(_path(folder, first), ("\n".join(lines) + "\n").encode())


def files(folder: Path = FOLDER) -> list[tuple[int, Path]]:
    """The whole files, by first deal."""
    return numbered_files(folder, "played", ".txt")


def read_played(folder: Path = FOLDER) -> Iterator[PlayedDeal]:
    """Every played deal of the folder's files, in order of number."""
    for _, path in files(folder):
        for line in path.read_text().splitlines():
            if line.strip():
                yield PlayedDeal.parse(line)


def make(folder: Path, first: int, deals: int, jobs: int, bank: Path = BANK,
         think: float = THINK) -> int:
    """Play the steps missing from bank deals `first` .. `first + deals - 1`, `jobs`
    processes at once (`think`: seconds of CPU a card); how many played deals the folder
    then holds."""
    folder.mkdir(parents=True, exist_ok=True)
    have = {start for start, _ in files(folder)}
    wanted = [start for start in range(first, first + deals, STEP) if start not in have]
    counts = [min(STEP, first + deals - start) for start in wanted]
    with ProcessPoolExecutor(max_workers=jobs, initializer=os.nice, initargs=(5,)) as pool:
        for path in pool.map(play_step, [folder] * len(wanted), wanted, counts,
                             [bank] * len(wanted), [think] * len(wanted)):
            print(path.name, flush=True)
    return sum(1 for _ in read_played(folder))


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.bridge.learning.played")
    parser.add_argument("verb", choices=("make", "count"))
    parser.add_argument("--first", type=int, default=70_000)
    parser.add_argument("--deals", type=int, default=2_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--folder", type=Path, default=FOLDER)
    args = parser.parse_args(argv)
    if args.verb == "make":
        held = make(args.folder, args.first, args.deals, args.jobs)
    else:
        held = sum(1 for _ in read_played(args.folder))
    print(f"{held} played deals in {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
