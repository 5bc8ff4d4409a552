"""Discord's rate limits (issue 19, item 2): the double keeps Discord's buckets (about 5
message writes per channel, and 5 writes per interaction token, in 5 seconds) and
answers a request over them with 429 and `retry_after` (also a violation, which fails
the test). The bot paces its channel writes, obeys every 429, and coalesces: the table
message ends on the latest state, never goes back to an older one, and nothing that was
acknowledged (a move, an end-of-deal post) is lost."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from bot.publishing import writer as writer_module
from bot.publishing.pacing import ChannelPacer
from discord_double import Limit, Message, RateLimits
from tests.e2e.harness import Harness, running

SETTLE = 30.0  # a paced publisher may wait out a 5 s window or two before it is done


def _key(content: str | None, embeds: list[dict[str, Any]]) -> str:
    return json.dumps([content or "", embeds], sort_keys=True)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> dict[str, set[int]]:
    """Every table message the bot built, by what it shows -> the table's action counts
    when it was built (a test's window into which state a version shows)."""
    built: dict[str, set[int]] = {}
    original = writer_module.table_message

    def recording(table: Any) -> Any:
        message = original(table)
        key = _key(message.content, [e.to_dict() for e in message.embeds])
        built.setdefault(key, set()).add(table.seq)
        return message

    monkeypatch.setattr(writer_module, "table_message", recording)
    monkeypatch.setattr("bot.publishing.publisher.table_message", recording)
    monkeypatch.setattr("cogs.play.table_message", recording)
    return built


def shown_in_order(versions: list[Any], built: dict[str, set[int]]) -> list[int]:
    """The action counts the message's versions showed, earliest possible for each given
    the ones before; fails if a version shows an older state than one before it."""
    shown: list[int] = []
    for version in versions:
        candidates = built.get(_key(version.content, version.embeds))
        if candidates is None:
            continue  # not a table state (the line pointing to a newer message)
        later = [seq for seq in candidates if not shown or seq >= shown[-1]]
        assert later, f"the table went back to an older state: {sorted(candidates)} " \
                      f"after {shown[-1]}"
        shown.append(min(later))
    return shown


async def _click(h: Harness, user: Any, message: Message, custom_id: str) -> None:
    """Press and wait for the answer only (the publisher may still be waiting out a
    window: settling after every press would wait for it)."""
    handle = await h.driver.click(user, message, custom_id, wait=False)
    await handle.wait_response(timeout=3)


async def _press_one(h: Harness, table: Any) -> bool:
    """Whoever is to act presses the first action their hand shows (a group first if it
    has groups); a stale hand is answered with a fresh one in place."""
    seat = next(iter(table.game.to_act()))
    user = h.user(seat)
    hand = h.driver.message(h.hand_of(user))
    actions = h.action_buttons(hand)
    if not actions:
        groups = [c for c in h.buttons(hand) if str(c["custom_id"]).startswith("tt:pick:")
                  and not str(c["custom_id"]).endswith(":-")]
        if not groups:  # not yet edited to show this turn: ask for the hand afresh
            await _click(h, user, h.table_message(), h.button(h.table_message(), "My hand"))
            return False
        await _click(h, user, hand, str(groups[0]["custom_id"]))
        return True
    await _click(h, user, hand, str(actions[0]["custom_id"]))
    return True


async def test_fast_play_keeps_to_the_budgets_and_ends_on_the_latest_state(
        discord_double, tmp_path, renders):
    limits = discord_double.double.rate_limits
    limits.enable()  # Discord's figures: 5 writes per channel, and per token, in 5 s
    async with running(discord_double, tmp_path, channel_write_window=5.0) as h:
        first, second = h.user(0), h.user(1)
        table = await h.start_with_people([first, second], "tennis")
        start_message = table.message_id
        began = time.monotonic()
        presses = 0
        for _ in range(300):  # through a deal's end: posts, a fresh table, edits at once
            if (table.game.deal_no > 1 and table.message_id != start_message
                    and presses >= 60) or table.closed:
                break
            presses += await _press_one(h, table)
        pressing = time.monotonic() - began
        await h.driver.settle(timeout=SETTLE)
        publisher = h.bot.publisher
        assert presses >= 20 and presses > pressing, "more than a move a second: faster " \
            "than the channel's budget of 5 writes in 5 s"
        assert limits.counted > 10 and limits.refused == 0
        # Every version the table message showed is a state it had, in order, ending on
        # the latest one.
        versions = h.driver.edits_of(h.table_message())
        shown = shown_in_order(versions, renders)
        assert shown and shown[-1] == table.seq, "the table shows the latest state"
        assert len(shown) < presses, "bursts of moves were coalesced into fewer edits"
        if start_message != table.message_id:
            older = shown_in_order(h.driver.edits_of(h.driver.message(start_message)),
                                   renders)
            assert older and older[-1] <= shown[0]
        # Each person's hand shows their latest state too.
        for person in (first, second):
            seat = table.seat_of(person.id)
            session = publisher.hands.sessions[table.id][person.id]
            expected = publisher.hand_message(table, seat, session.group)
            assert h.driver.message(h.hand_of(person)).content == expected.content


async def _first_deal_ended(h: Harness, table: Any) -> None:
    deal = table.game.deal_no
    for _ in range(400):
        if table.game.deal_no > deal:
            return
        await _press_one(h, table)
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("route", ["PATCH", "POST"])
async def test_a_429_is_waited_out_and_nothing_is_lost(discord_double, tmp_path, renders,
                                                         route):
    """A 429 that discord.py hands back (no proxy header) on the table's edit, or on the
    end-of-deal post: the publisher waits Discord's retry_after, then sends the latest
    state, and the post still goes out, once."""
    async with running(discord_double, tmp_path) as h:
        table = await h.start_with_people([h.user(0), h.user(1)], "tennis")
        path = rf"^/channels/{h.channel.id}/messages" + ("/" if route == "PATCH" else "$")
        for _ in range(3):
            discord_double.fail_next(route, path, 429, retry_after=0.3)
        if route == "PATCH":
            pressed = 0
            for _ in range(40):
                if pressed >= 4:
                    break
                pressed += await _press_one(h, table)
        else:
            await _first_deal_ended(h, table)
        await h.driver.settle(timeout=SETTLE)
        refused = [r for r in discord_double.double.requests
                   if r.status == 429 and r.method == route]
        assert len(refused) == 3, "each 429 was answered once, and waited out"
        shown = shown_in_order(h.driver.edits_of(h.table_message()), renders)
        assert shown and shown[-1] == table.seq
        posts = [m for m in h.driver.channel_messages(h.channel)
                 if any("is over" in (e.get("title") or "") for e in m.embeds)]
        assert len(posts) == (1 if route == "POST" else 0)
        logged = [r for r in h.errors.records if "rate limited" in r.getMessage()]
        assert not any(r.levelname in ("WARNING", "ERROR") for r in logged)


async def test_the_pacer_keeps_each_channel_within_its_window() -> None:
    """Writes counted from when they came back: the sixth in a channel waits until the
    first is a window old; another channel has its own budget."""
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    clock: Callable[[], float] = lambda: now[0]  # noqa: E731
    pacer = ChannelPacer(5, 5.0, clock=clock, sleep=sleep)

    for _ in range(5):
        async with pacer.write(1):
            now[0] += 0.1  # answered 0.1 s later: counted from 0.1, 0.2, ... 0.5
    async with pacer.write(2):
        pass
    assert slept == []
    async with pacer.write(1):
        pass
    assert slept == [pytest.approx(5.0 - 0.4)]  # until the first write is 5 s old
    await pacer.ready(1)
    assert pacer.waited == pytest.approx(4.6 + 0.1)


def test_the_double_answers_over_the_bucket_with_429_and_discords_headers() -> None:
    now = [100.0]
    limits = RateLimits(clock=lambda: now[0])
    limits.enable(channel=Limit(5, 5.0), token=Limit(5, 5.0))
    assert limits.take("GET", "/channels/1/messages") is None, "reads are not limited"
    assert limits.take("POST", "/interactions/9/tok/callback") is None
    seen = [limits.take("PATCH" if i % 2 else "POST", "/channels/1/messages" +
                        ("/77" if i % 2 else "")) for i in range(5)]
    assert [v.headers["X-RateLimit-Remaining"] for v in seen if v] == ["4", "3", "2", "1", "0"]
    assert all(v and v.retry_after is None for v in seen), "sends and edits share one bucket"
    now[0] += 1.0
    over = limits.take("PATCH", "/channels/1/messages/77")
    assert over is not None and over.retry_after == pytest.approx(4.0)
    assert over.headers["Via"] and over.headers["Retry-After"] == "4"
    other = limits.take("POST", "/channels/2/messages")
    assert other is not None and other.retry_after is None, "each channel has its own"
    hand = limits.take("PATCH", "/webhooks/5/tok/messages/@original")
    assert hand is not None and hand.headers["X-RateLimit-Remaining"] == "4"
    now[0] += 4.0
    again = limits.take("POST", "/channels/1/messages")
    assert again is not None and again.retry_after is None, "a new window"
    assert (limits.counted, limits.refused) == (8, 1)
