"""Pings that notify, slow play, /tables and /settings, through the Discord double.

An edit notifies nobody, so a person who keeps a table waiting gets a new message that
mentions them alone (the double records who a message notified), deleted once they have
acted. Slow play's turns last hours: a reminder at half time, the computer moves only when
the turn runs out, and the table lives for days and through restarts (the bot's clock is
the double's, moved forward)."""

from __future__ import annotations

from typing import Any

from discord_double import Message
from tests.e2e.harness import Harness, running

HOUR = 3600.0


def pings(h: Harness) -> list[Message]:
    """The channel's live ping messages (they mention someone and link to the table)."""
    return [m for m in h.driver.channel_messages(h.channel)
            if "is waiting for you" in (m.content or "")]


def ping_bodies(h: Harness) -> list[dict[str, Any]]:
    return [p.body for p in h.driver.recorded_payloads(kind="message", public=True)
            if "is waiting for you" in str(p.body.get("content"))]


async def _tennis_for_two(h: Harness, **options: Any) -> Any:
    alice, bob = h.user(0), h.user(1)
    table = await h.open_table(alice, "tennis", **options)
    await h.seat_people([bob])
    await h.press(alice, h.table_message(), "Start")
    await h.driver.settle()
    return table


def _waiting_people(h: Harness, table: Any) -> list[Any]:
    return [h.user(seat) for seat in table.waiting_on()]


async def test_a_person_kept_waiting_is_pinged_by_a_new_message_deleted_once_they_act(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path, shared_clock=True,
                       ping_after_seconds=120) as h:
        table = await _tennis_for_two(h)
        waiting = _waiting_people(h, table)
        await h.later(100)
        assert pings(h) == [], "not before two minutes"
        await h.later(30)
        posted = pings(h)
        assert len(posted) == len(waiting) >= 1
        for person, message in zip(waiting, posted, strict=True):
            assert message.notified == frozenset({person.id}), "it pings that person only"
            assert f"<@{person.id}>" in message.content
            assert f"/{table.message_id}" in message.content, "a link to the table"
            assert not message.components and len(message.versions) == 1
        for body in ping_bodies(h):
            allowed = body["allowed_mentions"]
            assert allowed["parse"] == [] and len(allowed["users"]) == 1
        await h.later(600)
        assert len(ping_bodies(h)) == len(posted), "one ping per turn"
        first = waiting[0]
        assert await h.act_once(first)
        await h.driver.settle()
        mine = next(m for m in posted if m.notified == frozenset({first.id}))
        assert h.driver.message(mine.id).deleted, "the ping goes once they have acted"


async def test_settings_pings_off_means_no_ping(discord_double, tmp_path):
    async with running(discord_double, tmp_path, shared_clock=True,
                       ping_after_seconds=120) as h:
        alice = h.user(0)
        shown = await h.slash(alice, "settings")
        assert "**on**" in shown.message.content and shown.ephemeral
        answer = await h.slash(alice, "settings", pings="off")
        assert "**off**" in answer.message.content
        table = await h.open_table(alice, "bidfair")
        await h.press(alice, h.table_message(), "Add bot")
        await h.press(alice, h.table_message(), "Start")
        await h.driver.settle()
        assert table.seat_of(alice.id) in table.waiting_on()
        await h.later(10 * 60)
        assert pings(h) == []
        answer = await h.slash(alice, "settings", pings="on")
        assert "**on**" in answer.message.content
        assert await h.bot.store.pings_enabled(alice.id)


async def test_slow_play_lives_for_days_reminds_at_half_time_and_survives_a_restart(
        discord_double, tmp_path):
    world = await discord_double.make_world()
    alice = world.users[0]
    async with running(discord_double, tmp_path, world=world, shared_clock=True) as h:
        table = await h.open_table(alice, "bidfair", pace="slow", turn_hours=24)
        assert table.settings.slow_pace and table.settings.turn_timeout == 24 * HOUR
        assert "slow play: 24 h per turn" in str(h.table_message().embeds)
        await h.press(alice, h.table_message(), "Add bot")
        await h.press(alice, h.table_message(), "Start")
        await h.driver.settle()
        seat = table.seat_of(alice.id)
        assert seat in table.waiting_on()
        decision = table.decisions[seat]
        await h.later(11 * HOUR)
        assert pings(h) == []
        await h.later(1.5 * HOUR)
        [reminder] = pings(h)
        assert reminder.notified == frozenset({alice.id})
        assert "My hand" in reminder.content and "<t:" in reminder.content
        table_id = table.id

    # The bot is down for ten hours; its successor counts the same 24 hours.
    discord_double.advance_time(10 * HOUR)
    async with running(discord_double, tmp_path, world=world, shared_clock=True) as h:
        again = h.bot.tables.tables[table_id]
        assert again.decisions[seat] == decision, "no one moved for her while it was down"
        await h.driver.settle()
        assert len(pings(h)) == 1, "the reminder is not posted twice"
        await h.later(2 * HOUR)  # 24.5 hours since her turn began
        for _ in range(100):
            if again.decisions[seat] > decision:
                break
            await h.later(1)
        assert again.decisions[seat] > decision, "the computer moved when time ran out"
        actors = {a.actor for a in await h.bot.store.actions(table_id) if a.seat == seat}
        assert actors == {"timer"}
        assert h.driver.message(reminder.id).deleted
        # Days later the table is still there; a fresh table message and a fresh hand.
        for _ in range(3):
            await h.later(30 * HOUR)
        assert not again.closed
        hand = await h.open_hand(alice)
        assert "you are **" in hand.content
        refused = [r for r in h.driver.double.requests if r.status >= 400]
        assert refused == [], "no edit of an hours-old message was refused (fresh ones)"
        assert table_id in h.bot.tables.tables and again.status == "playing"


async def test_tables_lists_open_tables_with_links_and_mine_lists_yours(
        discord_double, tmp_path):
    world = await discord_double.make_world()
    other = await discord_double.add_channel(world.guild, "more-tables")
    alice, bob, carol = world.users[:3]
    async with running(discord_double, tmp_path, world=world) as h:
        empty = await h.slash(carol, "tables")
        assert "No table is open" in empty.message.content
        table = await h.open_table(alice, "tennis")
        await h.seat_people([bob])
        await h.press(alice, h.table_message(), "Start")
        await discord_double.slash(carol, other, "play", "bidfair", {"pace": "slow"})
        listed = await h.slash(carol, "tables")
        assert listed.ephemeral
        text = listed.message.embeds[0]["description"]
        assert f"/{world.guild.id}/{world.channel.id}/{table.message_id}" in text
        assert f"<#{other.id}>" in text and "slow play" in text and "in the lobby" in text
        assert "Alice" in text and "Bob" in text and "waiting for" in text and "<t:" in text
        mine = await h.slash(bob, "tables", show="mine")
        mine_text = mine.message.embeds[0]["description"]
        assert "Tennis" in mine_text and "Bid Fair" not in mine_text
        nobody = await h.slash(h.user(3), "tables", show="mine")
        assert "not seated at any open table" in nobody.message.content


async def test_contradicting_pace_options_are_refused_and_nothing_is_made(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        for options, said in (({"pace": "slow", "turn_timeout": 60}, "turn_hours"),
                              ({"turn_hours": 5}, "pace: slow"),
                              ({"pace": "slow", "ping_after": 30}, "half")):
            answer = await h.slash(alice, "play", "spades", **options)
            assert answer.ephemeral and said in answer.message.content
        assert h.bot.tables.in_channel(h.channel.id) is None
