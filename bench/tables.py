"""Tables under load: N concurrent tables played through the Discord API double.

    python -m bench.tables [--tables 50,200,500] [--seconds 20] [--warmup 5]
                           [--edit-interval 1.0] [--think 0.8] [--think-processes N]
                           [--trace]
                           [--processes N] [--database sqlite|postgresql]
                           [--postgres-nice N]

The real bot (TrickTableBot, its cogs, its store on a SQLite file, or on PostgreSQL with
`--database postgresql`: a fresh server from the `pgserver` package for each run, at the
benchmark's own priority unless `--postgres-nice N` sets it apart, which the output says) runs in
its own process, as in production, connected to the local Discord double
(tests/discord_double) that runs in this process with the simulated people. With
`--processes N` there are N bot processes, process i serving shard i of N (the double
shards its gateway as Discord does), on one shared database, and the tables are spread
over N servers, one on each shard. For each N: N channels, one table in each (the
five games in turn), opened with /play and filled through the buttons as people do: two
people and two computer players at four-seat tables, one and one at two-seat tables;
computer players act at once (bot pause 0) and think with the production budget
(`--think 0.8`: the searching players at full strength, in the bot's thinking pool;
`--think 0` gives every computer player's rule-based answer; they think in the bot's
worker processes, one per core, or `--think-processes N`, 0 for threads of the bot
process as before). Each person opens their
hand and then, for `--seconds`, presses one of their legal action buttons (chosen at
random) as soon as their hand message shows any, waiting for each answer before the next
press; when they have none they wait until the bot refreshes their hand message. (Each
person's first press comes at a random moment of the first second, not all in the same
instant.) The first `--warmup` seconds of play are not measured: the bot's pool of HTTP
connections grows to what the load needs then, as it does once in a long-running bot (a
new connection costs a click several turns of the event loop).

Measured over the window that follows (the setup is not counted):
- interactions per second: presses sent in the window / its length;
- arrival to callback (p50, p99, max): from the moment discord.py in the bot process
  parses the INTERACTION_CREATE (a wrapped gateway parser stamps it) to the moment the
  double receives the bot's initial response, the callback answer (both clocks are
  time.time() on this machine). That is the bot's whole reaction: discord.py, the Tables
  cog, the table lock, the engine, the store's commit, rendering and the HTTP call.
  "D p99" is the same from the double's sending of the interaction (adds the gateway hop);
- database writes per action: INSERT/UPDATE/DELETE statements run on the store's
  writing connection (its trace callback sees each, executemany's rows included) divided
  by the actions stored (append_action calls, computer players' included);
- memory per live table: growth of the bot process's resident set from after a warm-up
  (one table of each game opened and started: modules imported, caches filled) to the
  end of the window, divided by the tables opened meanwhile (N - 5): their channels,
  members, tables, hands and logs;
- late: the double's "deadline" violations (an initial response after Discord's 3 s);
  unanswered: presses with no answer at all;
- CPU: each bot process's CPU time in the window (of one core), the harness's (the double
  and the people), PostgreSQL's server processes' when it is used, the computer players'
  worker processes', the bot processes' CPU milliseconds per interaction, and the load
  average at the window's start and end (the machine may be shared).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import logging
import os
import random
import signal
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games import GAMES, game_class
from bot.games.requests import ASIDE_VERBS
from bot.render.requests import CLAIM_GROUP
from tests.discord_double import Driver
from tests.discord_double.server import DiscordDouble
from tests.discord_double.state import Channel, Message, User

from .engines import machine_line
from .postgres import postgres_cpu, set_postgres_nice, start_postgres

TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GabcDe.abcdefghijklmnopqrstuvwxyz0123"
SEATS = {name: game_class(name).SEATS for name in GAMES}
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
ANSWER_WAIT = 5.0  # seconds a person waits for an answer (Discord gives up after 3)


class ChildrenCpu:
    """CPU seconds used so far by this process's children (the thinking workers).

    Finding the children walks every process on the machine (psutil reads each one's
    /proc entry): a few milliseconds of the bot's own CPU on a busy machine, which the
    benchmark must not count as the bot's work. So they are looked up once a few
    seconds, and in between only their own counters are read."""

    LOOK_EVERY = 5.0  # seconds between lookups of the children

    def __init__(self) -> None:
        self._children: list[Any] = []
        self._looked = -self.LOOK_EVERY

    def __call__(self) -> float:
        import psutil

        now = time.monotonic()
        if now - self._looked >= self.LOOK_EVERY:
            known = {child.pid: child for child in self._children}
            self._children = [known.get(child.pid, child)
                              for child in psutil.Process().children(recursive=True)]
            self._looked = now
        total = 0.0
        for child in list(self._children):
            try:
                times = child.cpu_times()
            except psutil.Error:
                self._children.remove(child)
                continue
            total += times.user + times.system
        return total


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


# -- the bot process -----------------------------------------------------------------------


@dataclass
class Probe:
    """What the bot process records about itself, stamped with time.time()."""

    arrivals: dict[int, float] = field(default_factory=dict)  # interaction id -> time
    connections: list[float] = field(default_factory=list)  # --trace: when each was made
    # --trace: gc (time, generation, wall s, CPU s)
    collections: list[tuple[float, int, float, float]] = field(default_factory=list)
    appends: list[float] = field(default_factory=list)
    writes: list[tuple[float, int]] = field(default_factory=list)
    # time, RSS, CPU s, the CPU s of its children (the computer players' worker processes)
    rss: list[tuple[float, int, float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # --trace: interaction id -> stage -> time (where an answer's time goes)
    stages: dict[int, dict[str, float]] = field(default_factory=dict)
    # --trace: (time, s) an answer on a socket waited for its turn of the event loop
    turns: list[tuple[float, float]] = field(default_factory=list)
    # --loop-profile: each step of each task (time.time() at its start, its seconds, the
    # index of its kind in `kinds`)
    steps: list[tuple[float, float, int]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)

    def profile_steps(self, loop: asyncio.AbstractEventLoop) -> None:
        """--loop-profile: time every step of every task created from now on (the bot's
        own task factory still makes the task), by kind: the task's name without its
        numbers, or its coroutine's name. What a click's write waits behind."""
        import re
        import types

        from bot.runtime import task_factory

        index: dict[str, int] = {}
        steps, kinds = self.steps, self.kinds
        clock, wall = time.perf_counter, time.time

        def kind_of(coro: Any) -> int:
            task = asyncio.current_task()
            name = task.get_name() if task is not None else ""
            if not name or name.startswith("Task-"):
                name = getattr(getattr(coro, "cr_code", None), "co_qualname", "?")
            name = re.sub(r"\d+", "N", name)
            if name not in index:
                index[name] = len(kinds)
                kinds.append(name)
            return index[name]

        @types.coroutine
        def timed(coro: Any) -> Any:
            kind, sent, error = -1, None, None
            while True:
                started, at = clock(), wall()
                try:
                    waiting = coro.throw(error) if error is not None else coro.send(sent)
                except StopIteration as done:
                    steps.append((at, clock() - started, kind if kind >= 0 else kind_of(coro)))
                    return done.value
                if kind < 0:
                    kind = kind_of(coro)
                steps.append((at, clock() - started, kind))
                try:
                    sent, error = (yield waiting), None
                except BaseException as thrown:  # a cancellation, thrown in by the task
                    sent, error = None, thrown

        async def run(coro: Any) -> Any:
            return await timed(coro)

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, context: Any = None) -> Any:
            if getattr(getattr(coro, "cr_code", None), "co_qualname", "") == \
                    "ClientRequest.write_bytes":
                return task_factory(loop, coro, context)  # started in place, as the bot does
            return task_factory(loop, run(coro), context)

        loop.set_task_factory(factory)

    async def time_turns(self, every: float = 0.02) -> None:
        """--trace: how long an answer arriving on a socket waits for the event loop: a
        byte written to one end of a socket pair is there at once, so the time until
        the reader resumes is the loop's alone (its I/O poll, then the woken task's
        turn behind the work queued), the share of a database answer's wait that is not
        the database's."""
        import socket

        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair()
        ours.setblocking(False)
        try:
            while True:
                await asyncio.sleep(every)
                sent = time.perf_counter()
                theirs.send(b"x")
                await loop.sock_recv(ours, 1)
                self.turns.append((time.time(), time.perf_counter() - sent))
        finally:
            ours.close()
            theirs.close()

    def wrap_stages(self, bot: Any) -> None:
        """Stamp the stages of each click's answer (the handler runs in the click's own
        task, so a context variable tells which click a store write or callback is for)."""
        import contextvars

        from discord.webhook import async_ as webhook

        current: contextvars.ContextVar[int | None] = contextvars.ContextVar("click",
                                                                            default=None)
        cog = bot.get_cog("Tables")
        on_component = cog._on_component

        async def component(interaction: Any, custom_id: str) -> None:
            current.set(interaction.id)
            self.stages[interaction.id] = {"handler": time.time()}
            await on_component(interaction, custom_id)

        cog._on_component = component

        def stamp(name: str) -> None:
            click = current.get()
            if click is not None:
                self.stages[click].setdefault(name, time.time())

        store = bot.store
        append = store.append_action

        async def append_action(*args: Any, **kwargs: Any) -> None:
            stamp("store")
            await append(*args, **kwargs)
            stamp("stored")

        store.append_action = append_action
        record_deal = store.record_deal

        async def deal_recorded(*args: Any, **kwargs: Any) -> None:
            stamp("deal")  # the click's move ended a deal: its result is written too
            await record_deal(*args, **kwargs)

        store.record_deal = deal_recorded
        adapter = webhook.AsyncWebhookAdapter
        respond = adapter.create_interaction_response

        def create_interaction_response(*args: Any, **kwargs: Any) -> Any:
            stamp("respond")
            return respond(*args, **kwargs)

        adapter.create_interaction_response = create_interaction_response

    def wrap_parser(self, bot: Any) -> None:
        parsers = bot._connection.parsers
        original = parsers["INTERACTION_CREATE"]

        def parse(data: dict[str, Any]) -> Any:
            self.arrivals[int(data["id"])] = time.time()
            return original(data)

        parsers["INTERACTION_CREATE"] = parse

    def trace_http(self, bot: Any) -> None:
        """--trace: stamp each callback's request as it starts, gets its connection (new or
        reused) and has its body written to the socket (the end of the bot's own reaction;
        what follows is loopback and the double); count the connections made."""
        import aiohttp

        trace = aiohttp.TraceConfig()

        def click_of(url: Any) -> int | None:
            parts = url.path.split("/")
            if parts[-1] == "callback" and "interactions" in parts:
                return int(parts[parts.index("interactions") + 1])
            return None

        def stamp(context: Any, name: str) -> None:
            click = getattr(context, "click", None)
            if click is not None and click in self.stages:
                self.stages[click].setdefault(name, time.time())

        async def request_start(session: Any, context: Any, params: Any) -> None:
            context.click = click_of(params.url)
            stamp(context, "request")

        async def connection_made(session: Any, context: Any, params: Any) -> None:
            self.connections.append(time.time())
            stamp(context, "connection")
            stamp(context, "new")

        async def connection_reused(session: Any, context: Any, params: Any) -> None:
            stamp(context, "connection")

        async def body_sent(session: Any, context: Any, params: Any) -> None:
            stamp(context, "sent")

        trace.on_request_start.append(request_start)
        trace.on_connection_create_end.append(connection_made)
        trace.on_connection_reuseconn.append(connection_reused)
        trace.on_request_chunk_sent.append(body_sent)
        trace.freeze()
        bot.http.http_trace = trace  # read when bot.start() opens the HTTP session

    def trace_gc(self) -> None:
        """--trace: when each cyclic garbage collection ran, its generation and length,
        in wall time and in the CPU time of the thread that ran it (on a busy machine the
        wall time also counts the moments the process waited for a core)."""
        import gc

        started = [0.0, 0.0]

        def collected(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                started[:] = time.perf_counter(), time.thread_time()
            else:
                self.collections.append((time.time(), info["generation"],
                                         time.perf_counter() - started[0],
                                         time.thread_time() - started[1]))

        gc.callbacks.append(collected)

    def wrap_store(self, bot: Any) -> None:
        def traced(sql: str) -> None:  # the store calls this as each statement starts
            if sql.lstrip().upper().startswith(WRITES):
                self.writes.append((time.time(), 1))

        bot.store.trace_statements(traced)
        store = bot.store
        append = store.append_action

        async def append_action(*args: Any, **kwargs: Any) -> None:
            await append(*args, **kwargs)
            self.appends.append(time.time())

        store.append_action = append_action


async def serve_bot(config: dict[str, Any], out: Path) -> None:
    """Run the bot against the double until SIGTERM; then write what the probe saw."""
    import discord
    import yarl

    from bot.app import make_bot
    from bot.config import Settings, default_processes

    discord.http.Route.BASE = config["api_base"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config["gateway"])
    probe = Probe()

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            probe.errors.append(f"{record.name}: {record.getMessage()}")

    logging.basicConfig(level=logging.CRITICAL)
    for name in ("bot", "cogs", "discord"):
        logging.getLogger(name).addHandler(Collect(logging.ERROR))
    shards = config.get("shards")  # [shard_id, shard_count] when sharded
    where = "database_url" if config["db"].startswith("postgresql") else "database_path"
    settings = Settings(token=TOKEN, dev_guild_id=config["guild_id"], bot_delay_seconds=0,
                        edit_interval=config["edit_interval"], **{where: config["db"]},
                        think_seconds=config.get("think", 0.8),
                        think_processes=config.get("think_processes", default_processes()),
                        shard_count=shards[1] if shards else None,
                        shard_ids=(shards[0],) if shards else None,
                        metrics_port=config.get("metrics_port"))
    bot = make_bot(settings, guild_ready_timeout=0.1, freeze_at_start=True)
    probe.wrap_parser(bot)
    if config.get("trace"):
        probe.trace_http(bot)
        probe.trace_gc()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    if config.get("loop_profile"):
        probe.profile_steps(asyncio.get_running_loop())
    runner = asyncio.create_task(bot.start(TOKEN))
    while not bot.is_ready() and not runner.done():
        await asyncio.sleep(0.01)
    probe.wrap_store(bot)
    if config.get("trace"):
        probe.wrap_stages(bot)

    children_cpu = ChildrenCpu()

    async def sample() -> None:
        while True:
            probe.rss.append((time.time(), rss_bytes(), time.process_time(),
                              children_cpu()))
            await asyncio.sleep(0.2)

    sampler = asyncio.create_task(sample())
    turns = asyncio.create_task(probe.time_turns()) if config.get("trace") else None
    profiler = None
    if config.get("profile"):
        import cProfile
        profiler = cProfile.Profile()
        profiler.enable()
    await stop.wait()
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(config["profile"])
    sampler.cancel()
    if turns is not None:
        turns.cancel()
    probe.rss.append((time.time(), rss_bytes(), time.process_time(), children_cpu()))
    await bot.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(runner, 5)
    out.write_text(json.dumps({
        "arrivals": {str(k): v for k, v in probe.arrivals.items()},
        "appends": probe.appends, "writes": probe.writes, "rss": probe.rss,
        "errors": probe.errors,
        "stages": {str(k): v for k, v in probe.stages.items()},
        "connections": probe.connections, "collections": probe.collections,
        "turns": probe.turns, "steps": probe.steps, "kinds": probe.kinds}))


# -- the people ------------------------------------------------------------------------------


class Notifier:
    """Wakes the simulated people when the double receives something for them, so they
    need not poll."""

    def __init__(self, double: DiscordDouble) -> None:
        self.answers: dict[int, asyncio.Future[None]] = {}
        self.users: dict[int, asyncio.Event] = {}
        record = double.record

        def recorded(request: Any, kind: str, audience: Any, *args: Any) -> None:
            record(request, kind, audience, *args)
            if kind == "interaction_response":
                parts = request.path.split("/")
                if "interactions" in parts:
                    waiter = self.answers.pop(int(parts[parts.index("interactions") + 1]),
                                              None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result(None)
            user_id = getattr(audience, "user_id", None)
            if user_id is not None and user_id in self.users:
                self.users[user_id].set()

        double.record = recorded  # type: ignore[method-assign]

    def answer_of(self, interaction_id: int) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.answers[interaction_id] = future
        return future

    def user_event(self, user_id: int) -> asyncio.Event:
        return self.users.setdefault(user_id, asyncio.Event())


@dataclass
class Person:
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
                       people: list[User]) -> list[Person]:
    """/play, Join, Add bot, Start, My hand: as people would."""
    opener = people[0]
    handle = await driver.slash(opener, channel, "play", game, {}, wait=False)
    await answered(handle)
    message = handle.message  # the /play answer is the table message
    for person in people[1:]:
        await _press(driver, person, message, "Join")
    for _ in range(SEATS[game] - len(people)):
        await _press(driver, opener, message, "Add bot")
    await _press(driver, opener, message, "Start")
    seated = []
    for person in people:
        handle = await _press(driver, person, message, "My hand")
        seated.append(Person(person, handle.message))
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


async def play(driver: Driver, notifier: Notifier, person: Person, until: float,
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


# -- one run -----------------------------------------------------------------------------------


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
    late: int
    violations: int
    unanswered: int
    errors: list[str]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _sample_at(samples: list[list[float]], moment: float, column: int) -> float:
    before = [sample[column] for sample in samples if sample[0] <= moment]
    return before[-1] if before else samples[0][column]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def scrape_metrics(ports: list[int], until: float) -> int:
    """GET /metrics and /health of each bot process every second until `until`; how many
    scrapes were answered (both endpoints must answer, or the run fails)."""
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


async def run_once(count: int, seconds: float, edit_interval: float, directory: Path,
                   seed: int, poll: float, profile: str | None = None,
                   trace: bool = False, warmup: float = 5.0, processes: int = 1,
                   database: str = "sqlite", think: float = 0.8,
                   think_processes: int | None = None,
                   postgres_nice: int | None = None,
                   loop_profile: bool = False, metrics: bool = False) -> RunFigures:
    double = DiscordDouble()
    double.shard_count = processes
    await double.start()
    driver = Driver(double)
    notifier = Notifier(double)
    rng = random.Random(seed)
    outs = [directory / f"probe-{count}-{n}.json" for n in range(processes)]
    bots: list[asyncio.subprocess.Process] = []
    configs: list[dict[str, Any]] = []
    server = None
    pg_folder = directory / f"pg-{count}"
    try:
        if database == "postgresql":
            db, server = start_postgres(pg_folder)
            if postgres_nice is not None:
                set_postgres_nice(pg_folder, os.nice(0) + postgres_nice)
        else:
            db = str(directory / f"tables-{count}.db")
        sharded = processes > 1
        worlds = [await driver.make_world(users=(), guild=f"Guild {n}",
                                          shard=(n, processes) if sharded else None)
                  for n in range(processes)]
        for n in range(processes):
            config = {"api_base": double.api_base, "gateway": double.gateway_url, "db": db,
                      "guild_id": None if sharded else worlds[0].guild.id,
                      "edit_interval": edit_interval, "trace": trace, "think": think,
                      "loop_profile": trace and loop_profile,
                      **({} if think_processes is None
                         else {"think_processes": think_processes}),
                      "profile": f"{profile}.{n}" if profile and sharded else profile,
                      "shards": [n, processes] if sharded else None,
                      "metrics_port": free_port() if metrics else None}
            configs.append(config)
            bots.append(await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.tables", "--bot-process", json.dumps(config),
                str(outs[n]), cwd=str(Path(__file__).resolve().parent.parent)))
            if n == 0:  # the first process migrates the database; the others find it ready
                await driver.wait_for(lambda: double.gateway.connected, 60,
                                      "the first bot process to connect")
        await driver.wait_for(
            lambda: len(double.gateway.ready_shards()) == processes
            and driver.commands(None if sharded else worlds[0].guild),
            60, "every bot process to connect and the commands to be synced")
        await asyncio.sleep(0.5)
        limit = asyncio.Semaphore(16)

        async def one(i: int) -> list[Person]:
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
        warm = min(count, len(GAMES) * processes)
        groups = list(await asyncio.gather(*(one(i) for i in range(warm))))
        await asyncio.sleep(2 * edit_interval)
        before = time.time()
        groups += await asyncio.gather(*(one(i) for i in range(warm, count)))
        people = [p for group in groups for p in group]
        await asyncio.sleep(2 * edit_interval)  # the first table edits go out
        # The double keeps every payload it receives (a growing heap): its own collector's
        # full passes would stall it for a large fraction of a second, and the bot's
        # requests pile up behind a Discord that real Discord is not. No cyclic
        # collection in this process while people play; the bot's is untouched.
        gc.collect()
        gc.disable()
        play_wall, play_cpu = time.time(), time.process_time()
        start_wall, end_wall = play_wall + warmup, play_wall + warmup + seconds
        until = time.monotonic() + warmup + seconds
        database_cpu: list[float] = []
        load: list[float] = []

        async def sample_database() -> None:
            await asyncio.sleep(max(0.0, start_wall - time.time()))
            load.append(os.getloadavg()[0])
            if server is not None:
                database_cpu.append(postgres_cpu(pg_folder))
            await asyncio.sleep(max(0.0, end_wall - time.time()))
            load.append(os.getloadavg()[0])
            if server is not None:
                database_cpu.append(postgres_cpu(pg_folder))

        sampler = asyncio.create_task(sample_database())
        scraper = asyncio.create_task(scrape_metrics(
            [c["metrics_port"] for c in configs], until)) if metrics else None
        try:
            await asyncio.gather(*(play(driver, notifier, person, until,
                                        random.Random(rng.random()), poll)
                                   for person in people))
        finally:
            gc.enable()
        await sampler
        if scraper is not None:
            print(f"(scraped /metrics and /health {await scraper} times, every second)")
        harness_share = (time.process_time() - play_cpu) / (warmup + seconds)
        await asyncio.sleep(0.5)
        for process in bots:
            process.send_signal(signal.SIGTERM)
        for process in bots:
            await asyncio.wait_for(process.wait(), 30)
        probes = [json.loads(out.read_text()) for out in outs]
        arrivals = {int(k): v for probe in probes for k, v in probe["arrivals"].items()}
        window = [inter for inter in double.state.interactions.values()
                  if start_wall <= inter.created_at <= end_wall]
        bot_latency = [inter.response_at - arrivals[inter.id] for inter in window
                       if inter.response_at is not None and inter.id in arrivals]
        discord_latency = [inter.response_at - inter.created_at for inter in window
                           if inter.response_at is not None]
        violations = driver.violations
        if trace:
            for probe in probes:
                print_stages(window, arrivals, probe["stages"], probe["connections"])
                print_collections(window, probe["collections"])
                print_turns(start_wall, end_wall, probe["turns"])
            if probe["kinds"]:
                print_loop_profile(start_wall, end_wall, probe)
        split = [_sample_at(probe["rss"], end_wall, 2) - _sample_at(probe["rss"], start_wall, 2)
                 for probe in probes]
        return RunFigures(
            tables=count, seconds=seconds, interactions=len(window),
            bot_latency=bot_latency, discord_latency=discord_latency,
            writes=sum(n for probe in probes for at, n in probe["writes"]
                       if start_wall <= at <= end_wall),
            actions=sum(1 for probe in probes for at in probe["appends"]
                        if start_wall <= at <= end_wall),
            rss_delta=sum(int(_sample_at(probe["rss"], end_wall, 1)
                              - _sample_at(probe["rss"], before, 1)) for probe in probes),
            measured_tables=count - warm,
            harness_share=harness_share,
            cpu=sum(split), cpu_split=split,
            database_cpu=database_cpu[1] - database_cpu[0] if len(database_cpu) == 2
            else None,
            thinking_cpu=sum(_sample_at(probe["rss"], end_wall, 3)
                             - _sample_at(probe["rss"], start_wall, 3) for probe in probes),
            load=(load[0], load[1]),
            late=sum(1 for v in violations if v.rule == "deadline"),
            violations=len(violations),
            unanswered=sum(1 for inter in window if inter.response_at is None),
            errors=[error for probe in probes for error in probe["errors"]])
    finally:
        for process in bots:
            if process.returncode is None:
                process.kill()
                await process.wait()
        await double.stop()
        if server is not None:
            server.cleanup()


STAGES = ("arrival", "handler", "store", "stored", "respond", "request", "connection", "sent",
          "received", "answered")


def print_stages(window: list[Any], arrivals: dict[int, float],
                 stages: dict[str, dict[str, float]], connections: list[float]) -> None:
    """--trace: where the time from arrival to answer goes (ms between stages)."""
    rows = []
    for inter in window:
        stamps = dict(stages.get(str(inter.id), {}))
        if inter.id not in arrivals or inter.response_at is None or "respond" not in stamps:
            continue
        stamps["arrival"] = arrivals[inter.id]
        if inter.received_at is not None:
            stamps["received"] = inter.received_at
        stamps["answered"] = inter.response_at
        rows.append(stamps)
    rows.sort(key=lambda r: r["answered"] - r["arrival"])
    slow = rows[int(0.98 * len(rows)):]
    print(f"stages of {len(rows)} answers (ms): segment  p50  p99  mean-of-slowest-2%")
    start, end = window[0].created_at, window[-1].created_at
    print(f"  HTTP connections made: {len(connections)} in all, "
          f"{sum(1 for at in connections if start <= at <= end)} in the window; answers on a new "
          f"one: {sum(1 for r in rows if 'new' in r)}, among the slowest 2%: "
          f"{sum(1 for r in slow if 'new' in r)}")
    ended = [1000 * (r["answered"] - r["arrival"]) for r in rows if "deal" in r]
    if ended:
        print(f"  answers to a move that ended a deal: {len(ended)} ({len(ended) / len(rows):.1%}),"
              f" p50 {pct(ended, 0.5):.1f} ms, p99 {pct(ended, 0.99):.1f} ms; among the slowest"
              f" 2%: {sum(1 for r in slow if 'deal' in r)}")
    for a, b in itertools.pairwise(STAGES):
        # a click that stored nothing (a pick, a refusal) skips the store stages
        seg = [1000 * (r[b] - r[a]) for r in rows if a in r and b in r]
        slow_seg = [1000 * (r[b] - r[a]) for r in slow if a in r and b in r]
        print(f"  {a:>10} -> {b:<10} {pct(seg, 0.5):7.1f} {pct(seg, 0.99):7.1f} "
              f"{sum(slow_seg) / max(1, len(slow_seg)):7.1f}  (n={len(seg)})")


def print_collections(window: list[Any], collections: list[list[float]]) -> None:
    """--trace: the cyclic garbage collector's runs in the window, by generation."""
    start, end = window[0].created_at, window[-1].created_at
    for generation in (0, 1, 2):
        runs = [(1000 * wall, 1000 * cpu) for at, gen, wall, cpu in collections
                if gen == generation and start <= at <= end]
        if runs:
            walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
            print(f"  gc generation {generation}: {len(runs)} runs, longest "
                  f"{max(walls):.1f} ms, {sum(walls):.0f} ms in all; CPU: longest "
                  f"{max(cpus):.1f} ms, {sum(cpus):.0f} ms in all")


def print_turns(start: float, end: float, turns: list[list[float]]) -> None:
    """--trace: an answer on a socket's wait for its turn of the loop, in the window."""
    waits = [1000 * wait for at, wait in turns if start <= at <= end]
    if waits:
        print(f"  a socket's answer waited for its turn of the loop (ms): p50 "
              f"{pct(waits, 0.5):.1f}, p99 {pct(waits, 0.99):.1f}, max {max(waits):.1f} "
              f"(n={len(waits)}, every 20 ms)")


def print_loop_profile(start: float, end: float, probe: dict[str, Any]) -> None:
    """--loop-profile: the bot's task steps in the window by kind, and what ran on the
    loop while each click's write was out (from "store" to "stored")."""
    kinds = probe["kinds"]
    steps = sorted((at, took, kind) for at, took, kind in probe["steps"] if start <= at <= end)
    seconds = end - start
    total: dict[int, float] = {}
    for _, took, kind in steps:
        total[kind] = total.get(kind, 0.0) + took
    print(f"  task steps in the window: {sum(total.values()) / seconds:.0%} of a core in all "
          "(ms per second: kind)")
    for kind, took in sorted(total.items(), key=lambda item: -item[1])[:8]:
        longest = max(t for _, t, k in steps if k == kind)
        print(f"    {1000 * took / seconds:6.1f}  {kinds[kind]} "
              f"(longest step {1000 * longest:.1f} ms)")
    starts = [at for at, _, _ in steps]
    writes = sorted(((v["stored"] - v["store"], v["store"], v["stored"])
                     for v in probe["stages"].values() if "store" in v and "stored" in v
                     and start <= v["store"] <= end), reverse=True)
    if not writes:
        return
    import bisect

    def during(rows: list[tuple[float, float, float]]) -> dict[int, float]:
        spent: dict[int, float] = {}
        for _, sent, back in rows:
            for i in range(bisect.bisect_left(starts, sent), bisect.bisect_left(starts, back)):
                _, took, kind = steps[i]
                spent[kind] = spent.get(kind, 0.0) + took
        return {kind: took / len(rows) for kind, took in spent.items()}

    slowest = writes[:max(1, len(writes) // 50)]
    every, slow = during(writes), during(slowest)
    print(f"  while a click's write was out, the loop ran (ms per click; all {len(writes)}, "
          f"the slowest {len(slowest)}, whose writes took {1000 * slowest[-1][0]:.1f} ms or more):")
    for kind in sorted(slow, key=lambda k: -slow[k])[:8]:
        print(f"    {1000 * every.get(kind, 0.0):6.2f} {1000 * slow[kind]:6.2f}  {kinds[kind]}")


def print_figures(figures: list[RunFigures], database: str = "sqlite",
                  processes: int = 1, postgres_nice: int | None = None) -> None:
    print(f"# tables: {machine_line()}")
    print(f"# database: {database}, bot processes: {processes}")
    if database == "postgresql":
        own = os.nice(0)
        server = own if postgres_nice is None else own + postgres_nice
        print(f"# priority: PostgreSQL's server at nice {server}, the bot and the double at "
              f"nice {own}" + (" (equal)" if server == own else
                               " (--postgres-nice: the server has a core first)"
                               if server < own else
                               " (--postgres-nice: the others have a core first)"))
    print(f"{'tables':>6} {'inter/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
          f"{'D p99 ms':>8} {'writes/act':>10} {'KB/table':>8} {'bot CPU':>7} {'double':>6} "
          f"{'late':>5} "
          f"{'unans':>5} {'errors':>6}")
    for f in figures:
        ms = [1000 * x for x in f.bot_latency]
        dms = [1000 * x for x in f.discord_latency]
        per_action = f.writes / f.actions if f.actions else float("nan")
        print(f"{f.tables:>6} {f.interactions / f.seconds:>8.1f} {pct(ms, 0.5):>7.1f} "
              f"{pct(ms, 0.99):>7.1f} {max(ms, default=float('nan')):>7.1f} "
              f"{pct(dms, 0.99):>8.1f} {per_action:>10.2f} "
              f"{f.rss_delta / max(1, f.measured_tables) / 1024:>8.1f} "
              f"{100 * f.cpu / f.seconds:>6.0f}% {100 * f.harness_share:>5.0f}% "
              f"{f.late:>5} {f.unanswered:>5} {len(f.errors):>6}")
    print("(p50/p99/max: arrival at the bot to its callback answer; D p99: from Discord's "
          "sending; writes/act: SQL writes per stored action; KB/table: bot RSS growth / tables "
          "opened after a warm-up of one table per game; "
          "bot CPU: of one core, in the window; double: the same for the process running the "
          "double and the people; late: answered after 3 s)")
    for f in figures:
        split = " + ".join(f"{100 * c / f.seconds:.0f}%" for c in f.cpu_split)
        db = (f", PostgreSQL {100 * f.database_cpu / f.seconds:.0f}%"
              if f.database_cpu is not None else "")
        per = 1000 * f.cpu / f.interactions if f.interactions else float("nan")
        print(f"  {f.tables} tables: bot CPU per process {split}{db}; "
              f"{per:.2f} bot CPU ms per interaction ({f.interactions} interactions); "
              f"thinking workers {100 * f.thinking_cpu / f.seconds:.0f}%; "
              f"load average {f.load[0]:.1f} at the window's start, {f.load[1]:.1f} at its end")
    for f in figures:
        for error in f.errors[:3]:
            print(f"  {f.tables} tables, bot error: {error}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
                        help="print where each answer's time goes, stage by stage")
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
                        help="serve health and metrics (METRICS_PORT) and scrape them every "
                             "second, as a busy Prometheus would")
    parser.add_argument("--bot-process", nargs=2, metavar=("CONFIG", "OUT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bot_process:
        # As the bot's own entry point runs it (bot/__main__.py): its event loop.
        from bot.runtime import run

        run(serve_bot(json.loads(args.bot_process[0]), Path(args.bot_process[1])))
        return 0
    counts = [int(n) for n in args.tables.split(",") if n]
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        for count in counts:
            figures.append(asyncio.run(run_once(count, args.seconds, args.edit_interval,
                                                Path(tmp), args.seed, args.poll,
                                                args.profile, args.trace, args.warmup,
                                                max(1, args.processes), args.database,
                                                args.think, args.think_processes,
                                                args.postgres_nice, args.loop_profile,
                                                args.metrics)))
    print_figures(figures, args.database, max(1, args.processes), args.postgres_nice)
    where = ("in threads of the bot process" if args.think_processes == 0 else
             f"in {args.think_processes or 'one per core'} worker processes")
    print(f"(computer players think up to {args.think} s per decision, {where}; the bot "
          "CPU above excludes the workers')")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
