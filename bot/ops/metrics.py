"""Prometheus metrics (through prometheus_client) for one bot process.

Counted as they happen: interactions by kind on arrival, their answer time (from the
interaction's creation on Discord, which is what its 3 seconds count from, to our first
answer) and the late ones, computer players' decisions (seconds, share of their budget,
how many ran out of it), database transactions' time, and Discord's 429s and discord.py's
retries after them. Read when scraped: tables live by game and status, gateway latency.

Every series whose labels are known in advance (the commands and buttons, the computer
players' kinds, the database's two operations, ...) is there from the start at 0, so that
`rate()` and `increase()` see its first event. The `_created` series are not served.

Nothing here runs unless METRICS_PORT is set (bot/ops/server.py installs it).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, suppress
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from prometheus_client import Counter, Histogram, disable_created_metrics
from prometheus_client.core import REGISTRY, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.ai import player_kinds
from bot.games import GAMES
from bot.tables.thinking import NOT_PICKLED

if TYPE_CHECKING:
    from bot.app import TrickTableBot
    from bot.store import Store

ANSWER_LIMIT = 3.0  # seconds Discord gives an interaction's first answer

INTERACTIONS = Counter("tricktable_interactions", "Interactions received, by kind "
                       "(a command, a button's verb)", ["kind"])
ANSWER_SECONDS = Histogram(
    "tricktable_interaction_answer_seconds", "From an interaction's creation on Discord to "
    "the bot's first answer", ["kind"],
    buckets=(0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0))
LATE = Counter("tricktable_interactions_late", "Interactions first answered after "
               "Discord's 3 seconds", ["kind"])
# A decision's time in multiples of its budget (THINK_SECONDS): the buckets of both
# decision histograms, so a late decision (waiting for a worker, or a search that overran)
# lands in a bucket of its own up to ten budgets.
BUDGET_MULTIPLES = (0.0125, 0.025, 0.0625, 0.125, 0.25, 0.5, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5,
                    2.0, 3.0, 5.0, 10.0)
DECISION_SECONDS_NAME = "tricktable_computer_decision_seconds"
BUDGET_USED = Histogram(
    "tricktable_computer_budget_used_ratio", "A computer player's decision time divided by "
    "its time budget (THINK_SECONDS)", ["kind"], buckets=BUDGET_MULTIPLES)
RAN_OUT = Counter("tricktable_computer_budget_ran_out", "Decisions whose budget ran out: "
                  "the player answered with its rule-based fallback or its search so far",
                  ["kind"])
DECISION_ERRORS = Counter(
    "tricktable_computer_decision_errors", "Computer players' decisions that failed, by kind "
    "and cause (an exception's class: the rule-based player's choice was played, or a "
    "claim rejected; "
    "player-not-picklable: the choice stood, the player's memory stayed in its worker)",
    ["kind", "cause"])
DB_SECONDS = Histogram(
    "tricktable_db_statement_seconds", "Database transactions (a write, a read snapshot)",
    ["op"], buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))
RATE_LIMITED = Counter("tricktable_discord_rate_limited", "429 answers from Discord's API "
                       "(discord.py waits retry_after and retries, or gives up)", ["scope"])
RETRIES = Counter("tricktable_discord_retries", "Requests discord.py sent again after a 429")


def interaction_kind(interaction: discord.Interaction[Any]) -> str:
    """A short, bounded label: '/play tennis', a button's verb ('act'), or the type."""
    data: Any = interaction.data or {}
    if interaction.type is discord.InteractionType.application_command:
        parts = [str(data.get("name", "?"))]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):  # subcommand (group)
            parts.append(str(options[0].get("name", "?")))
            options = options[0].get("options") or []
        return "/" + " ".join(parts)
    if interaction.type is discord.InteractionType.component:
        custom_id = str(data.get("custom_id", ""))
        pieces = custom_id.split(":")
        return pieces[1] if len(pieces) > 2 and pieces[0] == "tt" else "other"
    return interaction.type.name


def observe_answer(interaction: discord.Interaction[Any]) -> None:
    """The first answer to an interaction is going out now."""
    waited = max(0.0, (datetime.now(UTC) - interaction.created_at).total_seconds())
    kind = interaction_kind(interaction)
    ANSWER_SECONDS.labels(kind).observe(waited)
    if waited > ANSWER_LIMIT:
        LATE.labels(kind).inc()


_ANSWERS = ("defer", "send_message", "edit_message", "send_modal", "autocomplete", "pong",
            "launch_activity")
_installed = False


def _timed_answer(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def answer(self: discord.InteractionResponse[Any], *args: Any, **kwargs: Any
                     ) -> Any:
        first = not self.is_done()
        result = await method(self, *args, **kwargs)
        if first and self.is_done():
            observe_answer(self._parent)
        return result

    answer.__wrapped__ = method  # type: ignore[attr-defined]
    return answer


def install_answer_timing() -> None:
    """Time every first answer (each way discord.py answers an interaction). Once per
    process; the bot's handlers are unchanged."""
    global _installed
    if _installed:
        return
    for name in _ANSWERS:
        method = getattr(discord.InteractionResponse, name, None)
        if method is not None:
            setattr(discord.InteractionResponse, name, _timed_answer(method))
    _installed = True


class RateLimitCounter(logging.Handler):
    """discord.py handles 429s itself and says so in its log (discord.http): counted."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        message = record.msg if isinstance(record.msg, str) else ""
        if message.startswith("We are being rate limited"):
            RATE_LIMITED.labels("route").inc()
            if "Retrying" in message:
                RETRIES.inc()
        elif message.startswith("Global rate limit has been hit"):
            RATE_LIMITED.labels("global").inc()


def time_store(store: Store) -> None:
    """Time the store's transactions: its three entry points, wrapped on this instance."""
    writing, write, reading = store._writing, store._write, store._reading

    async def timed_writing(doing: str, work: Any) -> Any:
        started = time.perf_counter()
        try:
            return await writing(doing, work)
        finally:
            DB_SECONDS.labels("write").observe(time.perf_counter() - started)

    async def timed_write(doing: str, sql: str, params: Any = ()) -> int:
        started = time.perf_counter()
        try:
            return await write(doing, sql, params)
        finally:
            DB_SECONDS.labels("write").observe(time.perf_counter() - started)

    @asynccontextmanager
    async def timed_reading(doing: str) -> AsyncIterator[Any]:
        started = time.perf_counter()
        try:
            async with reading(doing) as tx:
                yield tx
        finally:
            DB_SECONDS.labels("read").observe(time.perf_counter() - started)

    store._writing = timed_writing  # type: ignore[method-assign]
    store._write = timed_write  # type: ignore[method-assign]
    store._reading = timed_reading  # type: ignore[method-assign]


def decision_seconds(budget: float) -> Histogram:
    """The decision-time histogram for this budget (its buckets are multiples of it), made
    once per process: a later bot of the same process (the tests') with another budget
    gets its own buckets."""
    buckets = tuple(float(f"{budget * multiple:.3g}") for multiple in BUDGET_MULTIPLES)
    made = _decision_seconds.get(buckets)
    if made is None:
        for other in _decision_seconds.values():
            with suppress(KeyError):
                REGISTRY.unregister(other)
        _decision_seconds.clear()
        made = _decision_seconds[buckets] = Histogram(
            DECISION_SECONDS_NAME, "A computer player's decision, from submission to choice",
            ["kind"], buckets=buckets)
    return made


_decision_seconds: dict[tuple[float, ...], Histogram] = {}  # by its buckets: one at most


def observe_decision_error(kind: str, cause: str) -> None:
    DECISION_ERRORS.labels(kind, cause).inc()


def computer_kinds() -> list[str]:
    """Every kind of computer player a table can seat, in every game."""
    return [kind for game in GAMES for kind in player_kinds(game)]


def interaction_kinds(bot: TrickTableBot) -> list[str]:
    """The kinds `interaction_kind` gives the bot's interactions: its slash commands (as
    registered now) and its buttons' verbs."""
    commands = ["/" + command.qualified_name for command in bot.tree.walk_commands()
                if isinstance(command, app_commands.Command)]
    return sorted(commands) + sorted(bot.router.verbs)


class BotCollector(Collector):
    """What is read at each scrape: the tables alive now, the gateway's latency."""

    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot

    def collect(self) -> Iterator[Metric]:
        live = GaugeMetricFamily("tricktable_tables_live", "Open tables in this process, by "
                                 "game and status", labels=["game", "status"])
        counts: dict[tuple[str, str], int] = {}
        service = getattr(self.bot, "tables", None)
        for table in (service.tables.values() if service is not None else ()):
            if not table.closed:
                key = (table.game_name, table.status)
                counts[key] = counts.get(key, 0) + 1
        for (game, status), count in sorted(counts.items()):
            live.add_metric([game, status], count)
        yield live
        latency = GaugeMetricFamily("tricktable_gateway_latency_seconds", "Time between a "
                                    "gateway heartbeat and its acknowledgement, by shard",
                                    labels=["shard"])
        for shard, seconds in _latencies(self.bot):
            if seconds == seconds and seconds != float("inf"):  # NaN/inf before the first
                latency.add_metric([str(shard)], seconds)
        yield latency


def _latencies(bot: TrickTableBot) -> list[tuple[int, float]]:
    if isinstance(bot, discord.AutoShardedClient):
        return list(bot.latencies)
    return [(0, bot.latency)]


class Instruments:
    """Everything a bot process measures, installed together and removed on close."""

    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        self.collector = BotCollector(bot)
        self.rate_limits = RateLimitCounter()

    def install(self) -> None:
        disable_created_metrics()  # type: ignore[no-untyped-call]  # no _created series
        install_answer_timing()
        REGISTRY.register(self.collector)
        logging.getLogger("discord.http").addHandler(self.rate_limits)
        time_store(self.bot.store)
        thinking = self.bot.tables.turns.thinking
        seconds = decision_seconds(thinking.seconds)
        kinds = computer_kinds()
        for kind in kinds:
            seconds.labels(kind)
            BUDGET_USED.labels(kind)
            RAN_OUT.labels(kind)
            DECISION_ERRORS.labels(kind, NOT_PICKLED)
        for op in ("write", "read"):
            DB_SECONDS.labels(op)
        for scope in ("route", "global"):
            RATE_LIMITED.labels(scope)

        def observe_decision(kind: str, took: float, budget: float, ran_out: bool) -> None:
            seconds.labels(kind).observe(took)
            BUDGET_USED.labels(kind).observe(took / budget if budget > 0 else 0.0)
            if ran_out:
                RAN_OUT.labels(kind).inc()

        thinking.on_decision = observe_decision
        self.bot.tables.turns.on_error = observe_decision_error
        self.bot.add_listener(self.on_interaction, "on_interaction")

    def count_interactions_from_zero(self) -> None:
        """Every command and button of the bot, at 0 until its first interaction (once the
        cogs are loaded: they register both)."""
        for kind in interaction_kinds(self.bot):
            INTERACTIONS.labels(kind)
            ANSWER_SECONDS.labels(kind)
            LATE.labels(kind)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        INTERACTIONS.labels(interaction_kind(interaction)).inc()

    def remove(self) -> None:
        self.bot.remove_listener(self.on_interaction, "on_interaction")
        logging.getLogger("discord.http").removeHandler(self.rate_limits)
        with suppress(KeyError):
            REGISTRY.unregister(self.collector)

