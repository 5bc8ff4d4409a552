"""The end-of-deal post goes out at once; its double-dummy line is edited in when the
solver is done (it never holds the post back), is dropped quietly when the post is gone
by then, and is given up (its work stopped) past its time limit."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import bot.handrecord.postmortem as postmortem
from bot.handrecord import OutOfTime
from discord_double import Message
from tests.e2e.harness import Harness, running
from tests.e2e.test_handrecord_e2e import SINGLE_DUMMY_SEED, _play_until_a_contract_is_played

DD_NAME = "Double dummy"


def _is_deal_end(message: Message, deal_no: int) -> bool:
    return any(f"deal {deal_no} is over" in e.get("title", "") for e in message.embeds)


def _dd_field(embeds: list[dict[str, Any]]) -> str | None:
    fields = embeds[0].get("fields", []) if embeds else []
    return next((f["value"] for f in fields if f["name"] == DD_NAME), None)


def _analysis_after_the_post(h: Harness, monkeypatch: pytest.MonkeyPatch,
                             then: Callable[[Message], None] = lambda post: None) -> list[Message]:
    """The solver's line for deal 1 is given only once deal 1's post is in the channel:
    a post that waited for its analysis would never get it. `then` runs on the event loop
    with the post, before the line is handed back. Returns the posts seen."""
    loop = asyncio.get_running_loop()
    real = postmortem.deal_line
    seen: list[Message] = []

    def look(found: threading.Event) -> None:  # on the event loop: the double's state
        post = next((m for m in h.driver.channel_messages(h.channel) if _is_deal_end(m, 1)),
                    None)
        if post is None:
            loop.call_later(0.01, look, found)
            return
        seen.append(post)
        then(post)
        found.set()

    def gated(game_name: str, options: Any, seed: Any, actions: Any, deal_no: int,
              deadline: float | None = None) -> str | None:
        if deal_no != 1:
            return None
        found = threading.Event()
        loop.call_soon_threadsafe(look, found)
        if not found.wait(20):
            return None
        return real(game_name, options, seed, actions, deal_no, deadline)

    monkeypatch.setattr(postmortem, "deal_line", gated)
    return seen


async def test_the_post_goes_out_at_once_and_the_line_is_edited_in(discord_double, tmp_path,
                                                                  fixed_deals, monkeypatch):
    async with running(discord_double, tmp_path) as h:
        seen = _analysis_after_the_post(h, monkeypatch)
        table, summary = await _play_until_a_contract_is_played(h, "single_dummy",
                                                                SINGLE_DUMMY_SEED, fixed_deals)
        assert summary is not None and summary.deal_no == 1
        await discord_double.settle()  # waits for the analysis (the publisher is busy)
        assert len(seen) == 1
        post = discord_double.message(seen[0])
        first, latest = post.versions[0], post.versions[-1]
        assert _dd_field(first.embeds) is None, "posted before the solver was done"
        line = _dd_field(latest.embeds)
        assert line is not None and line.startswith(("Cost a trick: ", "No card cost"))
        assert "double dummy" not in line.lower(), "the field's name says it once"
        assert len(post.versions) == 2, "one edit: the line"
        # The edit changed nothing else: the picture, its text and the buttons stay.
        assert [a.filename for a in latest.attachments] == [f"deal-{table.id}-1.png"]
        assert latest.embeds[0]["image"] == first.embeds[0]["image"]
        assert [f for f in latest.embeds[0]["fields"] if f["name"] != DD_NAME] \
            == first.embeds[0]["fields"]
        assert latest.components == first.components
        edits = [p for p in discord_double.state.payloads
                 if p.kind == "edit" and p.path.endswith(f"/messages/{post.id}")]
        assert [p.status for p in edits] == [200]


async def test_a_post_deleted_before_its_line_is_ready_gets_no_edit(discord_double, tmp_path,
                                                                    fixed_deals, monkeypatch):
    async with running(discord_double, tmp_path) as h:
        def delete(post: Message) -> None:  # someone deletes the post meanwhile
            post.deleted = True

        seen = _analysis_after_the_post(h, monkeypatch, then=delete)
        await _play_until_a_contract_is_played(h, "single_dummy", SINGLE_DUMMY_SEED,
                                               fixed_deals)
        await discord_double.settle()
        assert len(seen) == 1 and seen[0].deleted
        assert len(seen[0].versions) == 1
        # Dropped quietly: nothing logged (the harness fails on errors), nothing retried.
        assert not [r for r in h.errors.records if "analysis" in r.getMessage()]
        tries = [p for p in discord_double.state.payloads
                 if p.path.endswith(f"/messages/{seen[0].id}") and p.method == "PATCH"]
        assert len(tries) <= 1


async def test_an_analysis_past_its_time_stops_and_the_post_stays_without_it(
        discord_double, tmp_path, fixed_deals, monkeypatch):
    """The limit is real: with a 1 s limit and solves made slow (0.25 s each, 52 in a
    played deal), the work stops between two solves once the deal's end is 1 s behind
    (OutOfTime), not after all 52; the post keeps no line and a warning says why."""
    import bot.publishing.analysis as analysis

    monkeypatch.setattr(analysis, "ANALYSIS_WAIT", 1.0)
    solves: list[int] = []
    outcomes: list[object] = []
    ended = threading.Event()
    real_solve, real_line = postmortem.solve, postmortem.deal_line

    def slow_solve(places: Any) -> Any:
        solves.append(len(places))
        time.sleep(0.25)
        return real_solve(places)

    def watched(*args: Any) -> str | None:
        try:
            line = real_line(*args)
            outcomes.append(line)
            return line
        except Exception as error:
            outcomes.append(error)
            raise
        finally:
            ended.set()

    monkeypatch.setattr(postmortem, "solve", slow_solve)
    monkeypatch.setattr(postmortem, "deal_line", watched)
    async with running(discord_double, tmp_path) as h:
        _table, summary = await _play_until_a_contract_is_played(h, "single_dummy",
                                                                SINGLE_DUMMY_SEED, fixed_deals)
        assert summary is not None and summary.deal_no == 1
        await h.driver.wait_for(ended.is_set, timeout=60, what="the analysis to end")
        await discord_double.settle()
        (outcome,) = outcomes
        assert isinstance(outcome, OutOfTime), outcome
        assert 0 < len(solves) <= 1.0 / 0.25 + 2, f"{len(solves)} solves: it did not stop"
        post = next(m for m in h.driver.channel_messages(h.channel) if _is_deal_end(m, 1))
        assert all(_dd_field(v.embeds) is None for v in post.versions)
        assert any("took over" in r.getMessage() for r in h.errors.records)
