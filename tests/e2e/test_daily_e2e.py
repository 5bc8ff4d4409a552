"""Daily deals end to end: two people play today's bridge boards in private threads,
/daily results shows both, and the end-of-day post appears in the chosen channel."""

from __future__ import annotations

from datetime import timedelta

from discord_double.payloads import ADMINISTRATOR
from tests.e2e.harness import running


def _text(message) -> str:
    return " ".join([message.content or ""] + [
        " ".join([e.get("title", ""), e.get("description", "")] +
                 [f.get("name", "") + " " + f.get("value", "") for f in e.get("fields", [])])
        for e in message.embeds])


async def _play_today(h, driver, user) -> None:
    await h.slash(user, "daily", "bridge")
    assert "ready in" in h.last_reply(user)
    [table] = [t for t in h.bot.tables.tables.values()
               if t.creator_id == user.id and t.game_name == "bridge"]
    assert table.seat_of(user.id) == 2 and table.game.options == {
        "rubbers": 1, "boards": 4, "undo": False, "undo_limit": 3,
        "human_declares": True}
    message = driver.message(table.message_id)
    await h.press(user, message, "My hand")
    for _ in range(1500):
        if table.closed:
            break
        if not await h.act_once(user):
            await driver.settle()
            if not table.closed and not h.action_buttons(h.hand_of(user)):
                await h.press(user, driver.message(table.message_id), "My hand")
    assert table.closed and table.status == "finished"


async def test_daily_two_people_play_todays_boards_and_the_day_is_posted(discord_double,
                                                                         tmp_path):
    async with running(discord_double, tmp_path, think_seconds=0.02) as h:
        alice, bob, carol = h.user(0), h.user(1), h.user(2)
        await discord_double.add_role(h.world.guild, "Admins", ADMINISTRATOR, [carol])
        await h.slash(carol, "daily", "channel")
        assert "will be posted in" in h.last_reply(carol)

        await _play_today(h, discord_double, alice)
        await h.slash(alice, "daily", "results")
        mine = _text(max(discord_double.ephemerals(alice), key=lambda m: m.id))
        assert "Alice" in mine and "Board 4" in mine and "Bob" not in mine
        await h.slash(bob, "daily", "results")
        theirs = _text(max(discord_double.ephemerals(bob), key=lambda m: m.id))
        assert "Alice" in theirs and "Board 1 ·" not in theirs and "Not shown yet" in theirs

        await _play_today(h, discord_double, bob)
        await h.slash(bob, "daily", "bridge")
        assert "already" in h.last_reply(bob)
        await h.slash(alice, "daily", "results")
        both = _text(max(discord_double.ephemerals(alice), key=lambda m: m.id))
        assert "Alice" in both and "Bob" in both and "Not shown yet" not in both
        assert "by" in both  # the contracts others played

        cog = h.bot.get_cog("Daily")
        assert await cog.close_ended_days() == 0  # the day is not over yet
        later = cog.daily.clock() + timedelta(days=1)
        cog.daily.clock = lambda: later
        assert await cog.close_ended_days() == 1
        await discord_double.settle()
        posts = [_text(m) for m in discord_double.channel_messages(h.channel)]
        final = [p for p in posts if "final standings" in p]
        assert len(final) == 1 and "Alice" in final[0] and "Bob" in final[0]
        await h.slash(alice, "daily", "leaderboard")
        board = _text(max(discord_double.ephemerals(alice), key=lambda m: m.id))
        assert f"<@{alice.id}>" in board and f"<@{bob.id}>" in board
