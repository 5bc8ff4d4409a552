"""Health and metrics on METRICS_PORT, scraped during a run through the Discord double:
the counts move as the run did (the interactions of each kind, their answer times, the
computer players' decisions, the database's transactions, the live tables), /health says
the gateway and the database answer, and nothing is served when the port is not set."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
from discord import app_commands
from prometheus_client.parser import text_string_to_metric_families

from bot.ai import player_kinds
from bot.games import GAMES
from bot.ops import metrics
from bot.store import StoreError
from tests.e2e.harness import free_port, running


async def _get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, \
            session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def _value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def _total(samples: dict[Any, float], name: str) -> float:
    return sum(v for (n, _labels), v in samples.items() if n == name)


async def test_metrics_move_as_the_run_did(discord_double, tmp_path):
    port = free_port()
    async with running(discord_double, tmp_path, metrics_port=port, think_seconds=0.05) as h:
        status, body = await _get(port, "/health")
        assert status == 200 and '"gateway": true' in body and '"database": true' in body
        before = _samples((await _get(port, "/metrics"))[1])

        alice = h.user(0)
        table = await h.start_with_bots(alice, "spades", target=100)
        await h.open_hand(alice)
        presses = 0
        for _ in range(5):
            if await h.act_once(alice):
                presses += 1
        await h.driver.settle()
        assert presses >= 3

        after = _samples((await _get(port, "/metrics"))[1])

        def moved(name: str, **labels: str) -> float:
            return _value(after, name, **labels) - _value(before, name, **labels)

        assert moved("tricktable_interactions_total", kind="/play spades") == 1
        assert moved("tricktable_interactions_total", kind="addbot") == 3
        assert moved("tricktable_interactions_total", kind="start") == 1
        assert moved("tricktable_interactions_total", kind="act") >= presses
        # Each of those was answered once: the answer-time histogram counted the same.
        for kind in ("/play spades", "addbot", "start"):
            assert moved("tricktable_interaction_answer_seconds_count", kind=kind) == \
                moved("tricktable_interactions_total", kind=kind)
        assert _total(after, "tricktable_interactions_late_total") == \
            _total(before, "tricktable_interactions_late_total"), "the double answers fast"
        decisions = moved("tricktable_computer_decision_seconds_count", kind="spades-advanced")
        assert decisions >= 3, "the computer players' bids and cards were counted"
        assert moved("tricktable_computer_budget_used_ratio_count", kind="spades-advanced") == \
            decisions
        assert moved("tricktable_db_statement_seconds_count", op="write") >= presses + 5
        assert _value(after, "tricktable_tables_live", game="spades", status="playing") == 1
        assert ("tricktable_gateway_latency_seconds", (("shard", "0"),)) in after
        assert not table.closed

        async def no_answer() -> None:
            raise StoreError("the database is gone")

        h.bot.store.ping = no_answer  # type: ignore[method-assign]
        status, body = await _get(port, "/health")
        assert status == 503 and '"database": false' in body and '"gateway": true' in body
        h.errors.records.clear()  # the health check's warning was asked for

    # Stopped with the bot: the port is free again, and a bot without it serves nothing.
    async with running(discord_double, tmp_path, db_name="other.db") as h:
        assert h.bot.ops_server is None
        try:
            await _get(port, "/health")
        except aiohttp.ClientConnectionError:
            pass
        else:
            raise AssertionError("the metrics port is still served")


async def test_every_known_series_is_served_from_the_start_at_zero(discord_double, tmp_path):
    """A labelled series that appears only at its first event makes that event invisible
    to increase() and rate(): every label value the bot knows is served before anything
    happens, and the late share of interactions is a number (0), not an empty result."""
    port = free_port()
    async with running(discord_double, tmp_path, metrics_port=port, think_seconds=0.4) as h:
        text = (await _get(port, "/metrics"))[1]
        served = _samples(text)
        names = {name for name, _labels in served}

        def there(name: str, **labels: str) -> bool:
            return (name, tuple(sorted(labels.items()))) in served

        commands = [f"/{c.qualified_name}" for c in h.bot.tree.walk_commands()
                    if isinstance(c, app_commands.Command)]
        assert "/play spades" in commands and "act" in h.bot.router.verbs
        for kind in [*commands, *h.bot.router.verbs]:
            for name in ("tricktable_interactions_total", "tricktable_interactions_late_total",
                         "tricktable_interaction_answer_seconds_count"):
                assert there(name, kind=kind), (name, kind)
        kinds = [kind for game in GAMES for kind in player_kinds(game)]
        assert len(kinds) == 2 * len(GAMES)
        for kind in kinds:
            for name in ("tricktable_computer_decision_seconds_count",
                         "tricktable_computer_budget_used_ratio_count",
                         "tricktable_computer_budget_ran_out_total"):
                assert there(name, kind=kind), (name, kind)
            assert there("tricktable_computer_decision_errors_total", kind=kind,
                         cause="player-not-picklable")
        assert there("tricktable_db_statement_seconds_count", op="read")
        assert there("tricktable_db_statement_seconds_count", op="write")
        assert there("tricktable_discord_rate_limited_total", scope="global")
        assert not [name for name in names if name.endswith("_created")]
        # operations.md's late share: each kind's late count has its total beside it.
        late = {labels for name, labels in served if name == "tricktable_interactions_late_total"}
        total = {labels for name, labels in served if name == "tricktable_interactions_total"}
        assert late and late == total
        # The decision time's buckets go well past the budget (0.4 s here): a decision that
        # waited for a worker, or overran, is told apart from one on time.
        bounds = sorted(float(dict(labels)["le"]) for name, labels in served
                        if name == "tricktable_computer_decision_seconds_bucket"
                        and dict(labels)["kind"] == "spades-basic")
        assert 0.4 in bounds and bounds[-2] >= 5 * 0.4 and bounds[-1] == float("inf")
        assert sum(1 for b in bounds if 0.4 < b < float("inf")) >= 5


def test_discord_py_429s_and_retries_are_counted():
    counter = metrics.RateLimitCounter()
    http_log = logging.getLogger("discord.http")
    http_log.addHandler(counter)
    try:
        before = (_sample("tricktable_discord_rate_limited_total", scope="route"),
                  _sample("tricktable_discord_retries_total"))
        # discord.py's own words when Discord answers 429 (discord/http.py)
        http_log.warning("We are being rate limited. %s %s responded with 429. Retrying in "
                         "%.2f seconds.", "PATCH", "https://discord.com/api/x", 1.5)
        http_log.warning("We are being rate limited. %s %s responded with 429. Timeout of "
                         "%.2f was too long, erroring instead.", "POST", "u", 90.0)
        http_log.warning("something else")
        assert _sample("tricktable_discord_rate_limited_total", scope="route") == before[0] + 2
        assert _sample("tricktable_discord_retries_total") == before[1] + 1
    finally:
        http_log.removeHandler(counter)


def _sample(name: str, **labels: str) -> float:
    from prometheus_client import REGISTRY
    return REGISTRY.get_sample_value(name, labels) or 0.0
