"""A table message never freezes: a fresh one each deal and before the hour's edit budget
runs out, a repost when Discord refuses an edit (30046, unknown message), and a pause with
no retries when the bot lost access to the channel (50001, 50013)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from discord_double import limits
from tests.e2e.harness import Harness, running


async def _tennis(h: Harness) -> Any:
    return await h.start_with_people([h.user(0), h.user(1)], "tennis")


async def _move(h: Harness, table: Any) -> None:
    """Whoever is to act presses one action on their hand (the publisher edits the table)."""
    seat = next(iter(table.game.to_act()))
    assert await h.act_once(h.user(seat))
    await h.driver.settle()


async def _later(h: Harness, table: Any, seconds: float) -> None:
    """Move Discord's clock; people then open fresh hands (their old tokens expired)."""
    h.driver.advance_time(seconds)
    h.bot.publisher.hands.sessions.pop(table.id, None)
    for person in (h.user(0), h.user(1)):
        await h.open_hand(person)
    await h.driver.settle()


def _channel_writes(h: Harness, since: int) -> list[Any]:
    prefix = f"/channels/{h.channel.id}/messages"
    return [r for r in h.driver.double.requests[since:]
            if r.path.startswith(prefix) and r.method in ("POST", "PATCH")]


def _is_pointer(h: Harness, message_id: int, new_id: int) -> bool:
    old = h.driver.message(message_id)
    return "has moved" in old.content and str(new_id) in old.content and \
        not old.components and not old.embeds


async def test_each_deal_gets_a_fresh_table_and_old_buttons_still_work(discord_double,
                                                                        tmp_path):
    async with running(discord_double, tmp_path) as h:
        table = await _tennis(h)
        first_id = table.message_id
        old_custom_ids = [c["custom_id"] for c in h.buttons(h.table_message())]
        deal = table.game.deal_no
        await h.play_people([h.user(0), h.user(1)], until=lambda: table.game.deal_no > deal)
        await discord_double.settle()
        assert table.message_id != first_id, "the next deal has a table message of its own"
        newest = h.driver.channel_messages(h.channel)[-1]
        assert newest.id == table.message_id, "the fresh table is the channel's last message"
        assert _is_pointer(h, first_id, table.message_id)
        hand_button = next(cid for cid in old_custom_ids if cid.startswith("tt:hand:"))
        await h.forge(h.user(0), hand_button, h.driver.message(first_id))
        assert "you are **" in h.last_reply(h.user(0)), "an old button still finds its table"


async def test_an_edit_past_the_hours_budget_reposts_the_table(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        table = await _tennis(h)
        frozen = table.message_id
        await _later(h, table, limits.OLD_MESSAGE_AGE + 1)
        since = len(discord_double.double.requests)
        for _ in range(limits.OLD_MESSAGE_EDITS + 2):
            await _move(h, table)
        refused = [r for r in _channel_writes(h, since)
                   if r.status == 400 and r.path.endswith(f"/{frozen}")]
        assert refused, "Discord's budget ran out"
        assert len(refused) <= 2, "one refused edit, one refused retirement: no loop"
        assert table.message_id != frozen, "the table was posted afresh"
        assert h.driver.channel_messages(h.channel)[-1].id == table.message_id
        before = h.table_message().latest
        await _move(h, table)
        assert h.table_message().latest is not before, "the fresh message takes edits"


async def test_a_message_nearing_the_hour_is_replaced_before_it_freezes(discord_double,
                                                                         tmp_path):
    async with running(discord_double, tmp_path) as h:
        table = await _tennis(h)
        h.bot.publisher.writer.clock = discord_double.state.clock.now
        old = table.message_id
        await _later(h, table, 51 * 60)
        since = len(discord_double.double.requests)
        await _move(h, table)
        assert table.message_id != old
        assert _is_pointer(h, old, table.message_id), "retired while it could still be edited"
        assert all(r.status < 400 for r in _channel_writes(h, since))


@pytest.mark.parametrize(("code", "text", "said"), [
    (50013, "Missing Permissions", "a permission I need"),
    (50001, "Missing Access", "access to this channel")])
async def test_lost_permissions_pause_the_table_without_retries(discord_double, tmp_path,
                                                                code, text, said):
    async with running(discord_double, tmp_path) as h:
        table = await _tennis(h)
        h.channel.refuse_writes = (403, code, text)
        since = len(discord_double.double.requests)
        for _ in range(4):
            await _move(h, table)
        writes = _channel_writes(h, since)
        # The one refused edit, then the one line saying so (refused too): nothing more.
        assert [(r.method, r.status) for r in writes] == [("PATCH", 403), ("POST", 403)]
        hand = h.driver.message(h.hand_of(h.user(0)))
        assert "is paused" in hand.content and said in hand.content
        assert "/table" in hand.content
        h.channel.refuse_writes = None
        await h.slash(h.user(0), "table")
        await discord_double.settle()
        since = len(discord_double.double.requests)
        await _move(h, table)
        assert any(r.method == "PATCH" and r.status == 200 for r in _channel_writes(h, since))
        hand = h.driver.message(h.hand_of(h.user(0)))
        assert "is paused" not in hand.content


async def test_a_deal_ending_while_the_table_waits_to_be_written_still_posts_it_below(
        discord_double, tmp_path):
    """The end of a deal arriving while the table's update waits for the channel's write
    budget: the end-of-deal post goes first and the next deal's table below it (the
    waiting update must not move the table before the post is out)."""
    async with running(discord_double, tmp_path, think_seconds=0.02) as h:
        publisher = h.bot.publisher
        ready = publisher.pacer.ready

        async def slow_ready(channel_id: int) -> None:  # a busy channel: every write waits
            await asyncio.sleep(0.15)
            await ready(channel_id)

        publisher.pacer.ready = slow_ready
        alice = h.user(0)
        table = await h.start_with_bots(alice, "spades")
        await h.play_people([alice], until=lambda: table.game.deal_no > 1 or table.closed)
        await discord_double.wait_for(lambda: not publisher.busy(), timeout=20,
                                      what="the table's updates")
        messages = h.driver.channel_messages(h.channel)
        ends = [m for m in messages
                if any("deal 1 is over" in e.get("title", "") for e in m.embeds)]
        assert len(ends) == 1
        assert messages[-1].id == table.message_id > ends[0].id, \
            "the next deal's table is below the end-of-deal post"
