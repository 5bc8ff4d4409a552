"""The deal bank: seeded deals with their double-dummy tables, for learning only.

    python -m bot.ai.bridge.learning.bank make --deals 181000 [--jobs 2] [--folder DIR]
    python -m bot.ai.bridge.learning.bank count [--folder DIR]

Deal `i` of the bank is dealt from `random.Random(f"bank:{i}")` and played as duplicate
board `i % 16 + 1` (its dealer and vulnerability). The bank's seeds are the whole numbers
from 0; no benchmark ever draws a deal this way (a benchmark deals `create("bridge",
seed)` for fresh seeds and checks none of its deals is in the bank), so what is learned
here is never measured here.

A deal is kept in 23 bytes: 13 for the cards (each card of `FULL_DECK` in turn, its
seat in 2 bits) and 10 for its double-dummy table (20 trick counts, strain C D H S NT by
declarer N E S W, 4 bits each). Files hold `CHUNK` deals each, named by their first
deal, and are written whole (a temporary file renamed), so a stopped run loses at most
the chunks it was solving and `make` carries on where the files end.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bot.games.bridge_scoring import board_dealer, board_vulnerability
from bot.games.cards import FULL_DECK, Card

from ...core.dds import trick_tables

FOLDER = Path(__file__).parent / "data"
CHUNK = 500
DEAL_BYTES = 13
TABLE_BYTES = 10
RECORD = DEAL_BYTES + TABLE_BYTES

Hands = tuple[tuple[Card, ...], ...]
TrickTable = tuple[tuple[int, ...], ...]  # [strain C D H S NT][declarer N E S W]


@dataclass(frozen=True, slots=True)
class BankDeal:
    """One deal of the bank: its number, hands (N E S W), board dealer and vulnerability,
    and its double-dummy table."""

    number: int
    hands: Hands
    dealer: int
    vulnerable: tuple[bool, bool]
    tricks: TrickTable


def deal_of(number: int) -> Hands:
    """The hands of bank deal `number` (N E S W, each in `FULL_DECK` order)."""
    order = list(FULL_DECK)
    random.Random(f"bank:{number}").shuffle(order)
    return tuple(tuple(sorted(order[13 * s:13 * s + 13], key=FULL_DECK.index))
                 for s in range(4))


def encode(hands: Hands, tricks: TrickTable) -> bytes:
    seat_of = {card: seat for seat, hand in enumerate(hands) for card in hand}
    bits = 0
    for i, card in enumerate(FULL_DECK):
        bits |= seat_of[card] << (2 * i)
    nibbles = [t for strain in tricks for t in strain]
    table = bytes(nibbles[i] | nibbles[i + 1] << 4 for i in range(0, 20, 2))
    return bits.to_bytes(DEAL_BYTES, "little") + table


def decode(number: int, record: bytes) -> BankDeal:
    if len(record) != RECORD:
        raise ValueError(f"a bank record is {RECORD} bytes, not {len(record)}")
    bits = int.from_bytes(record[:DEAL_BYTES], "little")
    hands: list[list[Card]] = [[], [], [], []]
    for i, card in enumerate(FULL_DECK):
        hands[(bits >> (2 * i)) & 3].append(card)
    if any(len(hand) != 13 for hand in hands):
        raise ValueError(f"bank deal {number} does not give 13 cards to each hand")
    nibbles = [n for byte in record[DEAL_BYTES:] for n in (byte & 15, byte >> 4)]
    if any(n > 13 for n in nibbles):
        raise ValueError(f"bank deal {number} has a trick count over 13")
    tricks = tuple(tuple(nibbles[4 * s:4 * s + 4]) for s in range(5))
    board = number % 16 + 1
    return BankDeal(number, tuple(tuple(h) for h in hands), board_dealer(board),
                    board_vulnerability(board), tricks)


def _chunk_path(folder: Path, first: int) -> Path:
    return folder / f"deals-{first:07d}.bin"


def solve_chunk(folder: Path, first: int, count: int = CHUNK) -> Path:
    """Deal and solve deals first .. first+count-1 and write them as one file."""
    deals = [deal_of(n) for n in range(first, first + count)]
    tables = trick_tables(deals)
    return write_whole(_chunk_path(folder, first),
                       b"".join(encode(h, t) for h, t in zip(deals, tables, strict=True)))


def write_whole(path: Path, data: bytes) -> Path:
    """`data` written to `path` whole: to a temporary file, then renamed, so that a
    stopped run leaves no part of a file under its name."""
    partial = path.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(path)
    return path


def numbered_files(folder: Path, prefix: str, suffix: str) -> list[tuple[int, Path]]:
    """The files `prefix-NNN.suffix` of `folder`, by their number (a file's first deal)."""
    found = []
    for path in folder.glob(f"{prefix}-*{suffix}"):
        try:
            found.append((int(path.stem.split("-")[1]), path))
        except ValueError:
            continue
    return sorted(found)


def chunks(folder: Path = FOLDER) -> list[tuple[int, Path]]:
    """The bank's whole files, by first deal."""
    return numbered_files(folder, "deals", ".bin")


def read(folder: Path = FOLDER, limit: int | None = None, first: int = 0
         ) -> Iterator[BankDeal]:
    """The bank's deals in order of number from `first` (the first `limit` of them)."""
    given = 0
    for start, path in chunks(folder):
        data = path.read_bytes()
        for i in range(max(0, first - start), len(data) // RECORD):
            if limit is not None and given >= limit:
                return
            yield decode(start + i, data[i * RECORD:(i + 1) * RECORD])
            given += 1


def hands_key(hands: Hands) -> bytes:
    """A deal's cards as a key (the bank's 13 bytes), to check a deal is not in the bank."""
    return encode(hands, ((0,) * 4,) * 5)[:DEAL_BYTES]


def make(folder: Path, deals: int, jobs: int) -> int:
    """Solve the chunks missing below `deals`, `jobs` processes at once; returns how many
    deals the bank then holds."""
    folder.mkdir(parents=True, exist_ok=True)
    have = {first for first, _ in chunks(folder)}
    wanted = [first for first in range(0, deals, CHUNK) if first not in have]
    with ProcessPoolExecutor(max_workers=jobs, initializer=os.nice, initargs=(5,)) as pool:
        for path in pool.map(solve_chunk, [folder] * len(wanted), wanted):
            print(path.name, flush=True)
    return sum(1 for _ in read(folder))


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.bridge.learning.bank")
    parser.add_argument("verb", choices=("make", "count"))
    parser.add_argument("--deals", type=int, default=145_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--folder", type=Path, default=FOLDER)
    args = parser.parse_args(argv)
    if args.verb == "make":
        print(f"{make(args.folder, args.deals, args.jobs)} deals in {args.folder}")
    else:
        print(f"{sum(1 for _ in read(args.folder))} deals in {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
