"""The bot process of bench/tables: the real bot against the double, and what it records
about itself (arrivals, stages of each answer, writes, memory, CPU), written to a file at
the end. It reaches the bot only through its hooks: `interaction_observers`, the click
router's `around`, the store's statement trace and discord.py's `http_trace`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GabcDe.abcdefghijklmnopqrstuvwxyz0123"
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


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


# -- what the bot process records ---------------------------------------------------------


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
    # --trace: what a full collection freed at the window's end, objects by type (the
    # garbage that waited for one: cycles the last reference could not free)
    awaiting: dict[str, int] = field(default_factory=dict)
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

        def around(handler: Any) -> Any:
            async def handle(interaction: Any, parsed: Any) -> None:
                current.set(interaction.id)
                self.stages[interaction.id] = {"handler": time.time()}
                await handler(interaction, parsed)
            return handle

        bot.router.around = around

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

        adapter.create_interaction_response = (  # type: ignore[method-assign]
            create_interaction_response)

    def stamp_arrivals(self, bot: Any) -> None:
        """Each interaction's arrival: when discord.py hands it to the bot, parsed, before
        any handler runs."""
        def arrived(interaction: Any) -> None:
            self.arrivals[interaction.id] = time.time()

        bot.interaction_observers.append(arrived)

    def http_trace(self) -> Any:
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
        return trace  # for the bot's http_trace (discord.py's Client option)

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

    def count_awaiting(self) -> None:
        """--trace, once the window is over: run a full collection, keeping what it frees
        aside long enough to count it by type (`awaiting`)."""
        import gc
        from collections import Counter

        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            kinds = Counter(f"{type(o).__module__}.{type(o).__qualname__}"
                            for o in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        self.awaiting = dict(kinds)

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


def _bot_settings(config: dict[str, Any]) -> Any:
    from bot.config import Settings, default_processes

    shards = config.get("shards")  # [shard_id, shard_count] when sharded
    where = "database_url" if config["db"].startswith("postgresql") else "database_path"
    return Settings(token=TOKEN, dev_guild_id=config["guild_id"], bot_delay_seconds=0,
                    edit_interval=config["edit_interval"], **{where: config["db"]},
                    think_seconds=config.get("think", 0.8),
                    think_processes=config.get("think_processes", default_processes()),
                    shard_count=shards[1] if shards else None,
                    shard_ids=(shards[0],) if shards else None,
                    metrics_port=config.get("metrics_port"))


def _collect_errors(probe: Probe) -> None:
    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            probe.errors.append(f"{record.name}: {record.getMessage()}")

    logging.basicConfig(level=logging.CRITICAL)
    for name in ("bot", "cogs", "discord"):
        logging.getLogger(name).addHandler(Collect(logging.ERROR))


async def serve_bot(config: dict[str, Any], out: Path) -> None:
    """Run the bot against the double until SIGTERM; then write what the probe saw."""
    from discord_double import discord_pointed_at

    with discord_pointed_at(config["api_base"], config["gateway"]):
        probe = await _serve(config)
    out.write_text(json.dumps({
        "arrivals": {str(k): v for k, v in probe.arrivals.items()},
        "appends": probe.appends, "writes": probe.writes, "rss": probe.rss,
        "errors": probe.errors,
        "stages": {str(k): v for k, v in probe.stages.items()},
        "connections": probe.connections, "collections": probe.collections,
        "awaiting": probe.awaiting,
        "turns": probe.turns, "steps": probe.steps, "kinds": probe.kinds}))


async def _serve(config: dict[str, Any]) -> Probe:
    from bot.app import make_bot

    probe = Probe()
    _collect_errors(probe)
    trace = config.get("trace")
    extra = {"http_trace": probe.http_trace()} if trace else {}
    bot = make_bot(_bot_settings(config), guild_ready_timeout=0.1, freeze_at_start=True,
                   **extra)
    probe.stamp_arrivals(bot)
    if trace:
        probe.trace_gc()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    if config.get("loop_profile"):
        probe.profile_steps(asyncio.get_running_loop())
    runner = asyncio.create_task(bot.start(TOKEN))
    while not bot.is_ready() and not runner.done():
        await asyncio.sleep(0.01)
    probe.wrap_store(bot)
    if trace:
        probe.wrap_stages(bot)

    children_cpu = ChildrenCpu()

    async def sample() -> None:
        while True:
            probe.rss.append((time.time(), rss_bytes(), time.process_time(),
                              children_cpu()))
            await asyncio.sleep(0.2)

    sampler = asyncio.create_task(sample())
    turns = asyncio.create_task(probe.time_turns()) if trace else None
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
    if trace:
        probe.count_awaiting()
    await bot.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(runner, 5)
    return probe
