"""Restart time: rebuilding N unfinished tables from the store, as the bot does at start.

    python -m bench.restart [--tables 100,1000] [--rounds 3] [--dir PATH]
                            [--database sqlite|postgresql]

For each N, a fresh store (a SQLite file, or with `--database postgresql` a fresh
PostgreSQL server from the `pgserver` package) is filled with N tables being played, of
all five games in turn, each stopped at a random point of its match (usually mid-deal,
sometimes several deals in) after being played by the games' rule-based computer players, two
people and two computer players at each table (one of each at two-seat tables). Then a new
`TableService` on a new `Store` over the same file runs `restore()`, the code the bot runs
at start: one bulk load of every unfinished table, then each match replayed from its
action log. Printed: wall and CPU time of `restore()` (best of `--rounds`, a new store and
service each round), split into loading and rebuilding, and per table.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.ai import make_player, player_kinds
from bot.games import GAMES, create
from bot.store import Store
from bot.tables import TableService

from .engines import machine_line
from .postgres import start_postgres

MAX_ACTIONS = 260  # a table is stopped after 10 .. this many actions (a few deals)


@dataclass(frozen=True, slots=True)
class MadeTable:
    game: str
    seed: int
    history: list[tuple[int, str]]


def played_table(game_name: str, seed: int, rng: random.Random) -> MadeTable:
    """A match played by computer players up to a random point before its end."""
    game = create(game_name, seed=seed)
    # The rule-based kind (the last, weakest, listed): the searching default kinds would
    # make filling a thousand tables take longer than the restart being measured.
    basic = player_kinds(game_name)[-1]
    players = [make_player(game_name, seed * 7 + s, basic) for s in range(game.SEATS)]
    stop_at = rng.randint(10, MAX_ACTIONS)
    while len(game.history) < stop_at:
        seat = min(game.to_act())
        action = players[seat].choose(game.view(seat), game.legal(seat))
        game.apply(seat, action)
        if game.finished:  # keep the table unfinished: drop the last action
            game.history.pop()
            break
    return MadeTable(game_name, seed, list(game.history))


async def fill_store(store: Store, tables: list[MadeTable]) -> None:
    """Write the tables as the service would have: match, seats, status, action log."""
    for index, made in enumerate(tables):
        seats = create(made.game, seed=made.seed).SEATS
        kind = make_player(made.game).kind
        match_id = await store.create_match(
            made.game, {}, made.seed, guild_id=1, channel_id=10_000 + index,
            creator_id=100 + index, settings={})
        for seat in range(seats):
            if seat < seats // 2:
                await store.set_seat(match_id, seat, user_id=1_000 * index + seat,
                                     display_name=f"Player {seat}")
            else:
                await store.set_seat(match_id, seat, bot_kind=kind, display_name="Bot")
        await store.set_status(match_id, "playing")
        # The log in one transaction (bench setup only; the bot appends one by one).
        await store.append_actions(match_id, 0, made.history, "user")


@dataclass(frozen=True, slots=True)
class RestartFigure:
    tables: int
    actions: int
    restored: int
    wall: float
    cpu: float
    load_wall: float

    @property
    def rebuild_wall(self) -> float:
        return self.wall - self.load_wall


async def measure(path: Path | str, expected: int, actions: int) -> RestartFigure:
    store = await Store.open(path)
    try:
        service = TableService(store, bot_delay=3600)  # computer players stay idle
        load = store.load_unfinished
        load_wall = 0.0

        async def timed_load(*args: Any) -> Any:  # the load inside restore(), timed alone
            nonlocal load_wall
            started = time.perf_counter()
            loaded = await load(*args)
            load_wall = time.perf_counter() - started
            return loaded

        store.load_unfinished = timed_load  # type: ignore[method-assign, assignment]
        wall, cpu = time.perf_counter(), time.process_time()
        restored = await service.restore()
        figure = RestartFigure(expected, actions, len(restored), time.perf_counter() - wall,
                               time.process_time() - cpu, load_wall)
        await service.shutdown()
    finally:
        await store.close()
    return figure


async def run(counts: list[int], rounds: int, directory: Path, seed: int,
              database: str = "sqlite") -> list[RestartFigure]:
    figures = []
    for count in counts:
        rng = random.Random(seed + count)
        made = [played_table(GAMES[i % len(GAMES)], rng.getrandbits(40), rng)
                for i in range(count)]
        server = None
        target: Path | str = directory / f"restart-{count}.db"
        if database == "postgresql":
            target, server = start_postgres(directory / f"pg-{count}")
        try:
            store = await Store.open(target)
            try:
                await fill_store(store, made)
            finally:
                await store.close()
            actions = sum(len(m.history) for m in made)
            runs = [await measure(target, count, actions) for _ in range(max(1, rounds))]
        finally:
            if server is not None:
                server.cleanup()
        figures.append(min(runs, key=lambda f: f.wall))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="100,1000", help="comma-separated counts")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="where the stores go (default: a temp dir)")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.tables.split(",") if n]
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(args.dir) if args.dir else Path(tmp)
        figures = asyncio.run(run(counts, args.rounds, directory, args.seed, args.database))
    print(f"# restart: {machine_line()}; database: {args.database}")
    print(f"{'tables':>7} {'actions':>8} {'restored':>8} {'wall s':>7} {'cpu s':>7} "
          f"{'load s':>7} {'rebuild s':>9} {'ms/table':>8}")
    for f in figures:
        print(f"{f.tables:>7} {f.actions:>8} {f.restored:>8} {f.wall:>7.3f} {f.cpu:>7.3f} "
              f"{f.load_wall:>7.3f} {f.rebuild_wall:>9.3f} {1000 * f.wall / f.tables:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
