"""The harness of bench/tables: the double and the simulated people in this process, the
bot in its own processes (bench/tables/probes.py); one run of N tables, measured."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games import GAMES, game_class
from bot.games.requests import ASIDE_VERBS
from bot.render.requests import CLAIM_GROUP
from discord_double import Channel, DiscordDouble, Driver, Message, RecordedPayload, User

from ..postgres import postgres_cpu, set_postgres_nice, start_postgres
from .decisions import KindDecisions, Samples, by_kind, difference, scrape_decisions
from .report import (
    print_awaiting,
    print_collections,
    print_loop_profile,
    print_stages,
    print_turns,
)

SEATS = {name: game_class(name).SEATS for name in GAMES}
ANSWER_WAIT = 5.0  # seconds a person waits for an answer (Discord gives up after 3)


# -- the people ------------------------------------------------------------------------------


class Notifier:
    """Wakes the simulated people when the double receives something for them, so they
    need not poll."""

    def __init__(self, double: DiscordDouble) -> None:
        self.answers: dict[int, asyncio.Future[None]] = {}
        self.users: dict[int, asyncio.Event] = {}
        double.listeners.append(self._recorded)

    def _recorded(self, payload: RecordedPayload) -> None:
        if payload.kind == "interaction_response":
            parts = payload.path.split("/")
            if "interactions" in parts:
                waiter = self.answers.pop(int(parts[parts.index("interactions") + 1]), None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(None)
        user_id = getattr(payload.audience, "user_id", None)
        if user_id is not None and user_id in self.users:
            self.users[user_id].set()

    def answer_of(self, interaction_id: int) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.answers[interaction_id] = future
        return future

    def user_event(self, user_id: int) -> asyncio.Event:
        return self.users.setdefault(user_id, asyncio.Event())


@dataclass
class SeatedUser:
    """A user of the double seated at a table, and the message of their private hand."""

    user: User
    hand: Message | None = None


async def answered(handle: Any) -> None:
    with contextlib.suppress(Exception):
        await handle.wait_response(ANSWER_WAIT)


def _has_button(driver: Driver, message: Message, label: str) -> bool:
    return any(c.get("label") == label and not c.get("disabled")
               for c in driver.buttons(message))


async def _press(driver: Driver, user: User, message: Message, label: str) -> Any:
    """Press a button once the message shows it enabled, and wait for the answer."""
    await driver.wait_for(lambda: _has_button(driver, message, label), 30, label)
    handle = await driver.press(user, message, label, wait=False)
    await answered(handle)
    return handle


async def set_up_table(driver: Driver, channel: Channel, game: str,
                       people: list[User]) -> list[SeatedUser]:
    """/play, Join, Add bot, Start, My hand: as people would."""
    opener = people[0]
    handle = await driver.slash(opener, channel, "play", game, {}, wait=False)
    await answered(handle)
    message = handle.message  # the /play answer is the table message
    if message is None:
        raise RuntimeError(f"/play {game} was not answered with a table message")
    for person in people[1:]:
        await _press(driver, person, message, "Join")
    for _ in range(SEATS[game] - len(people)):
        await _press(driver, opener, message, "Add bot")
    await _press(driver, opener, message, "Start")
    seated = []
    for person in people:
        handle = await _press(driver, person, message, "My hand")
        seated.append(SeatedUser(person, handle.message))
    return seated


def _asks(custom_id: str) -> bool:
    """Does this button start a claim or an undo (or withdraw one)? People here play the
    game and answer what they are asked; a person pressing Undo at random would play the
    same card again and again, a churn no real table has."""
    if custom_id.startswith("tt:pick:"):
        return custom_id.endswith(f":{CLAIM_GROUP}")
    verb = custom_id.split(":", 5)[-1].split(":")[0]
    return verb in ASIDE_VERBS


def _choices(driver: Driver, hand: Message) -> tuple[list[str], list[str]]:
    acts, picks = [], []
    for comp in driver.buttons(hand):
        custom_id = str(comp.get("custom_id", ""))
        if comp.get("disabled") or _asks(custom_id):
            continue
        if custom_id.startswith("tt:act:"):
            acts.append(custom_id)
        elif custom_id.startswith("tt:pick:") and not custom_id.endswith(":-"):
            picks.append(custom_id)
    return acts, picks


async def play(driver: Driver, notifier: Notifier, person: SeatedUser, until: float,
               rng: random.Random, poll: float) -> None:
    """Press a legal action whenever the hand shows one, until the time is up."""
    last_version = -1
    changed = notifier.user_event(person.user.id)
    await asyncio.sleep(rng.uniform(0, 1))  # people do not all start in the same instant
    while time.monotonic() < until and person.hand is not None:
        changed.clear()
        hand = driver.message(person.hand)
        acts, picks = _choices(driver, hand)
        version = len(hand.versions)
        if acts or (picks and version != last_version):
            custom_id = rng.choice(acts) if acts else rng.choice(picks)
            last_version = version if not acts else -1
            try:
                handle = await driver.click(person.user, hand, custom_id, wait=False)
            except AssertionError:  # the message changed under us: look again
                await asyncio.sleep(0.01)
                continue
            answer = notifier.answer_of(handle.interaction.id)
            if handle.interaction.response_at is None:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(answer, ANSWER_WAIT)
        else:
            # Until the bot edits this person's hand (or `poll` passes, to be safe).
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(changed.wait(),
                                       max(0.0, min(poll, until - time.monotonic())))


@dataclass
class RunFigures:
    tables: int
    seconds: float
    interactions: int
    bot_latency: list[float]
    discord_latency: list[float]
    writes: int
    actions: int
    rss_delta: int
    measured_tables: int  # the tables opened after the warm-up (rss_delta is theirs)
    cpu: float  # CPU seconds the bot processes used in the window
    harness_share: float  # of a core, used by this process (the double and the people)
    cpu_split: list[float]  # CPU seconds of each bot process in the window
    database_cpu: float | None  # CPU seconds of PostgreSQL's processes in the window
    thinking_cpu: float  # CPU seconds of the bot processes' thinking workers in the window
    load: tuple[float, float]  # the 1-minute load average at the window's start and end
    # the computer players' decisions in the window, by kind, then in total (the bot
    # processes' metrics)
    decisions: list[KindDecisions]
    late: int
    violations: int
    unanswered: int
    errors: list[str]


def _sample_at(samples: list[list[float]], moment: float, column: int) -> float:
    before = [sample[column] for sample in samples if sample[0] <= moment]
    return before[-1] if before else samples[0][column]


@dataclass(frozen=True)
class RunOptions:
    """One run's settings (the command line's, see bench/tables/__init__.py)."""

    count: int  # tables
    seconds: float
    edit_interval: float
    directory: Path
    seed: int
    poll: float
    profile: str | None = None
    trace: bool = False
    warmup: float = 5.0
    processes: int = 1
    database: str = "sqlite"
    think: float = 0.8
    think_processes: int | None = None
    postgres_nice: int | None = None
    loop_profile: bool = False
    # scrape health and metrics every second (the bot processes always serve them: the
    # decisions' figures are read from them at the window's ends)
    metrics: bool = False

    @property
    def sharded(self) -> bool:
        return self.processes > 1


@dataclass
class Window:
    """The measured window of play, and what was sampled at its ends."""

    start: float  # time.time()
    end: float
    opened: float  # when the tables after the warm-up ones began to open
    warm: int  # warm-up tables (one per game and process)
    load: list[float]
    database_cpu: list[float]
    harness_share: float
    # the bot processes' decision metrics at the window's start and end, summed
    decisions: list[Samples] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def scrape_metrics(ports: list[int], until: float) -> int:
    """GET /metrics and /health of each bot process every second until `until`, as a busy
    Prometheus would; how many rounds were answered (both must answer, or the run fails)."""
    import aiohttp

    done = 0
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < until:
            for port in ports:
                for path in ("/metrics", "/health"):
                    async with session.get(f"http://127.0.0.1:{port}{path}") as answer:
                        assert answer.status == 200, f"{path}: {answer.status}"
                        await answer.read()
            done += 1
            await asyncio.sleep(1.0)
    return done


async def run_once(options: RunOptions) -> RunFigures:
    """Start the double, the database and the bot processes, open the tables, play, and
    measure the window."""
    double = DiscordDouble()
    double.shard_count = options.processes
    await double.start()
    driver = Driver(double)
    notifier = Notifier(double)
    outs = [options.directory / f"probe-{options.count}-{n}.json"
            for n in range(options.processes)]
    bots: list[asyncio.subprocess.Process] = []
    server = None
    pg_folder = options.directory / f"pg-{options.count}"
    try:
        if options.database == "postgresql":
            db, server = start_postgres(pg_folder)
            if options.postgres_nice is not None:
                set_postgres_nice(pg_folder, os.nice(0) + options.postgres_nice)
        else:
            db = str(options.directory / f"tables-{options.count}.db")
        worlds = [await driver.make_world(users=(), guild=f"Guild {n}",
                                          shard=(n, options.processes) if options.sharded
                                          else None)
                  for n in range(options.processes)]
        ports = [free_port() for _ in range(options.processes)]
        await _start_bots(driver, double, options, db, worlds, outs, bots, ports)
        window = await _open_and_play(driver, notifier, worlds, options,
                                      pg_folder if server is not None else None, ports)
        await asyncio.sleep(0.5)
        for process in bots:
            process.send_signal(signal.SIGTERM)
        for process in bots:
            await asyncio.wait_for(process.wait(), 30)
        probes = [json.loads(out.read_text()) for out in outs]
        return _figures(driver, double, options, window, probes)
    finally:
        for process in bots:
            if process.returncode is None:
                process.kill()
                await process.wait()
        await double.stop()
        if server is not None:
            server.cleanup()


async def _start_bots(driver: Driver, double: DiscordDouble, options: RunOptions, db: str,
                      worlds: list[Any], outs: list[Path],
                      bots: list[asyncio.subprocess.Process], ports: list[int]) -> None:
    """One bot process per shard (`python -m bench.tables --bot-process`); wait until each
    is connected and the commands are synced."""
    for n in range(options.processes):
        config = {"api_base": double.api_base, "gateway": double.gateway_url, "db": db,
                  "guild_id": None if options.sharded else worlds[0].guild.id,
                  "edit_interval": options.edit_interval, "trace": options.trace,
                  "think": options.think,
                  "loop_profile": options.trace and options.loop_profile,
                  **({} if options.think_processes is None
                     else {"think_processes": options.think_processes}),
                  "profile": f"{options.profile}.{n}" if options.profile and options.sharded
                  else options.profile,
                  "shards": [n, options.processes] if options.sharded else None,
                  "metrics_port": ports[n] if ports else None}
        bots.append(await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.tables", "--bot-process", json.dumps(config),
            str(outs[n]), cwd=str(Path(__file__).resolve().parents[2])))
        if n == 0:  # the first process migrates the database; the others find it ready
            await driver.wait_for(lambda: double.gateway.connected, 60,
                                  "the first bot process to connect")
    await driver.wait_for(
        lambda: len(double.gateway.ready_shards()) == options.processes
        and driver.commands(None if options.sharded else worlds[0].guild),
        60, "every bot process to connect and the commands to be synced")
    await asyncio.sleep(0.5)


async def _open_tables(driver: Driver, worlds: list[Any],
                       options: RunOptions) -> tuple[list[SeatedUser], float, int]:
    """Open every table (N channels, the games in turn) as people do: the people seated,
    when the tables after the warm-up began to open, and how many warm-up tables."""
    limit = asyncio.Semaphore(16)
    processes = options.processes

    async def one(i: int) -> list[SeatedUser]:
        world = worlds[i % processes]
        channel = world.channel if i < processes else \
            await driver.add_channel(world.guild, f"tables-{i}")
        group = []
        for j in range(SEATS[GAMES[i % len(GAMES)]] // 2):
            user = driver.add_user(f"p{i}x{j}", f"P{i}.{j}")
            await driver.add_member(world.guild, user)
            group.append(user)
        async with limit:
            return await set_up_table(driver, channel, GAMES[i % len(GAMES)], group)

    # Warm-up: one table of each game first, so that what is paid once (each game's
    # modules imported, caches filled) is not counted as memory per table.
    warm = min(options.count, len(GAMES) * processes)
    groups = list(await asyncio.gather(*(one(i) for i in range(warm))))
    await asyncio.sleep(2 * options.edit_interval)
    opened = time.time()
    groups += await asyncio.gather(*(one(i) for i in range(warm, options.count)))
    return [p for group in groups for p in group], opened, warm


async def _open_and_play(driver: Driver, notifier: Notifier, worlds: list[Any],
                         options: RunOptions, pg_folder: Path | None,
                         ports: list[int]) -> Window:
    """Open the tables, then let everyone play through the warm-up and the window."""
    rng = random.Random(options.seed)
    people, opened, warm = await _open_tables(driver, worlds, options)
    await asyncio.sleep(2 * options.edit_interval)  # the first table edits go out
    # The double keeps every payload it receives (a growing heap): its own collector's
    # full passes would stall it for a large fraction of a second, and the bot's
    # requests pile up behind a Discord that real Discord is not. No cyclic
    # collection in this process while people play; the bot's is untouched.
    gc.collect()
    gc.disable()
    play_wall, play_cpu = time.time(), time.process_time()
    played = options.warmup + options.seconds
    window = Window(start=play_wall + options.warmup, end=play_wall + played, opened=opened,
                    warm=warm, load=[], database_cpu=[], harness_share=0.0)
    until = time.monotonic() + played

    async def sample_ends() -> None:
        for moment in (window.start, window.end):
            await asyncio.sleep(max(0.0, moment - time.time()))
            window.load.append(os.getloadavg()[0])
            if pg_folder is not None:
                window.database_cpu.append(postgres_cpu(pg_folder))
            window.decisions.append(await scrape_decisions(ports))

    sampler = asyncio.create_task(sample_ends())
    scraper = asyncio.create_task(scrape_metrics(ports, until)) if options.metrics else None
    try:
        await asyncio.gather(*(play(driver, notifier, person, until,
                                    random.Random(rng.random()), options.poll)
                               for person in people))
    finally:
        gc.enable()
    await sampler
    if scraper is not None:
        print(f"(scraped /metrics and /health {await scraper} times, every second)")
    window.harness_share = (time.process_time() - play_cpu) / played
    return window


def _figures(driver: Driver, double: DiscordDouble, options: RunOptions, window: Window,
             probes: list[dict[str, Any]]) -> RunFigures:
    """The figures of the window from the double's record and the bot processes' probes."""
    start, end = window.start, window.end
    arrivals = {int(k): v for probe in probes for k, v in probe["arrivals"].items()}
    clicks = [inter for inter in double.state.interactions.values()
              if start <= inter.created_at <= end]
    bot_latency = [inter.response_at - arrivals[inter.id] for inter in clicks
                   if inter.response_at is not None and inter.id in arrivals]
    discord_latency = [inter.response_at - inter.created_at for inter in clicks
                       if inter.response_at is not None]
    violations = driver.violations
    if options.trace:
        for probe in probes:
            print_stages(clicks, arrivals, probe["stages"], probe["connections"])
            print_collections(clicks, probe["collections"])
            print_awaiting(probe["awaiting"])
            print_turns(start, end, probe["turns"])
        if probes[-1]["kinds"]:
            print_loop_profile(start, end, probes[-1])
    split = [_sample_at(probe["rss"], end, 2) - _sample_at(probe["rss"], start, 2)
             for probe in probes]
    return RunFigures(
        tables=options.count, seconds=options.seconds, interactions=len(clicks),
        bot_latency=bot_latency, discord_latency=discord_latency,
        writes=sum(n for probe in probes for at, n in probe["writes"] if start <= at <= end),
        actions=sum(1 for probe in probes for at in probe["appends"] if start <= at <= end),
        rss_delta=sum(int(_sample_at(probe["rss"], end, 1)
                          - _sample_at(probe["rss"], window.opened, 1)) for probe in probes),
        measured_tables=options.count - window.warm,
        harness_share=window.harness_share,
        cpu=sum(split), cpu_split=split,
        database_cpu=window.database_cpu[1] - window.database_cpu[0]
        if len(window.database_cpu) == 2 else None,
        thinking_cpu=sum(_sample_at(probe["rss"], end, 3) - _sample_at(probe["rss"], start, 3)
                         for probe in probes),
        load=(window.load[0], window.load[1]),
        decisions=by_kind(difference(*window.decisions)),
        late=sum(1 for v in violations if v.rule == "deadline"),
        violations=len(violations),
        unanswered=sum(1 for inter in clicks if inter.response_at is None),
        errors=[error for probe in probes for error in probe["errors"]])
