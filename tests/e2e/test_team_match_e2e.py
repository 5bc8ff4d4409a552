"""Team matches end to end: the lobby's refusals, then a 4-board match with two people
(one a team) and six computer players, from /match teams to the final score card, whose
IMPs are checked against the two tables' stored results."""

from __future__ import annotations

import asyncio
import sys
from types import SimpleNamespace
from typing import Any

from bot.games.bridge_scoring import imps
from discord_double.state import Audience
from tests.e2e.harness import Harness, running


def lobby_message(h: Harness) -> Any:
    posts = [m for m in h.driver.channel_messages(h.channel)
             if any(str(b.get("custom_id", "")).startswith("tt:tmjoin:")
                    for b in h.buttons(m))]
    assert posts, "no team match lobby in the channel"
    return max(posts, key=lambda m: m.id)


def card_text(message: Any) -> str:
    return " ".join([message.content or ""] + [
        e.get("title", "") + " " + e.get("description", "") for e in message.embeds])


async def play_until_over(h: Harness, people: dict[Any, Any], match: Any) -> None:
    """Each person plays their hand at their table until the team match ends."""
    for _ in range(3000):
        if match.status != "playing":
            return
        moved = False
        for user, table in people.items():
            if table.closed:
                continue
            if await h.act_once(user):
                moved = True
        if not moved:
            await h.driver.settle()
            for user, table in people.items():
                if not table.closed and not h.action_buttons(h.hand_of(user)):
                    await h.press(user, h.driver.message(table.message_id), "My hand")
    raise AssertionError("the team match did not end")


async def guard_notices_a_leak(h: Harness, match: Any, first: Any) -> None:
    """The privacy guard's team-match check can fail: a score card row of a board the
    first table has not played, and the other table's deal picture in its thread."""
    guard = h.privacy
    assert guard is not None
    before = len(guard.leaks)
    fake = SimpleNamespace(audience=Audience(match.channel_id), files=(),
                           body={"content": "` 4` 4♠ by N, made +420"})
    guard.check_team_matches(fake)
    fake = SimpleNamespace(audience=Audience(first.channel_id), body={"content": ""},
                           files=((f"deal-{match.tables[1]}-3.png", b""),))
    guard.check_team_matches(fake)
    assert len(guard.leaks) == before + 2
    del guard.leaks[before:]


async def reply_with(h: Harness, user: Any, text: str, within: float = 60.0) -> str:
    """The user's newest private reply once it says `text` (worked out off the loop)."""
    for _ in range(int(within * 10)):
        reply = h.last_reply(user)
        if text in reply:
            return reply
        await asyncio.sleep(0.1)
    raise AssertionError(f"no reply with {text!r}: {h.last_reply(user)!r}")


async def robots_play_is_shown(h: Harness, alice: Any, bob: Any, first: Any) -> None:
    """Under a board's end, Robot's play answers a player privately; others are refused."""
    thread = h.driver.state.channels[first.channel_id]
    ends = [m for m in h.driver.channel_messages(thread)
            if any(b.get("label") == "Robot's play" for b in h.buttons(m))]
    assert len(ends) == 4  # one a board
    await h.press(alice, ends[0], "Robot's play")
    answer = await reply_with(h, alice, "Robot's play")
    assert "**Robot's play** · board 1" in answer and "(North)" in answer
    assert "**You:**" in answer and "**Computer players:**" in answer and "Par" in answer
    await h.press(bob, ends[0], "Robot's play")
    assert "(East)" in await reply_with(h, bob, "Robot's play")  # from Bob's seat
    carol = h.user(2)
    await h.press(carol, ends[0], "Robot's play")
    assert "you did not play at this table" in h.last_reply(carol)


async def test_team_match_refusals_change_nothing(discord_double, tmp_path):
    async with running(discord_double, tmp_path, think_seconds=0.02) as h:
        alice, bob, carol, dave = (h.user(i) for i in range(4))
        await h.slash(alice, "match", "teams", boards=4)
        cog = h.bot.get_cog("Match")
        [match] = cog.teams.matches.values()
        await h.slash(bob, "match", "teams", boards=4)
        assert "already open in this channel" in h.last_reply(bob)
        assert len(cog.teams.matches) == 1

        lobby = lobby_message(h)
        await h.press(alice, lobby, "Join team A")
        assert "already in team A" in h.last_reply(alice)
        await h.press(alice, lobby, "Start")
        assert "Each team needs at least one person" in h.last_reply(alice)
        for person in (bob, carol, dave):
            await h.press(person, lobby, "Join team B")
        extra = h.driver.add_user("erin", "Erin")
        await h.driver.add_member(h.world.guild, extra)
        await h.press(extra, lobby, "Join team B")
        await h.press(alice, lobby, "Join team B")  # a fifth person: refused
        assert "Team B is full" in h.last_reply(alice)
        assert match.team_of(alice.id) == "A" and len(match.members["B"]) == 4
        stored = await h.bot.store.team_match(match.id)
        assert stored is not None and stored.members == match.members
        assert match.status == "lobby" and not h.bot.tables.tables


async def test_a_four_board_team_match_is_played_and_scored(discord_double, tmp_path):
    async with running(discord_double, tmp_path, think_seconds=0.02) as h:
        alice, bob = h.user(0), h.user(1)
        await h.slash(alice, "match", "teams", boards=4, level="basic")
        h.driver.busy.append(h.bot.get_cog("Match").teams.busy)
        lobby = lobby_message(h)
        await h.press(bob, lobby, "Join team B")
        await h.press(alice, lobby, "Start")
        cog = h.bot.get_cog("Match")
        [match] = cog.teams.matches.values()
        assert match.status == "playing" and match.tables is not None
        first = h.bot.tables.tables[match.tables[0]]  # the second, all computer players,
        assert first.seat_of(alice.id) == 0 and first.seat_of(bob.id) == 1  # may be over
        second = await h.bot.store.get_match(match.tables[1])
        assert second is not None and second.settings == first.settings.to_dict()
        assert second.channel_id != first.channel_id
        await guard_notices_a_leak(h, match, first)
        people = {alice: first, bob: first}
        for user in people:
            await h.press(user, h.driver.message(first.message_id), "My hand")
        await play_until_over(h, people, match)
        await h.driver.settle()
        assert match.status == "finished"

        # The IMPs, computed again from the two tables' stored results.
        rows = [await h.bot.store.deals(t) for t in match.tables]
        ns = [{d.deal_no: d.points[0] - d.points[1] for d in r} for r in rows]
        net = [imps(ns[0][b] - ns[1][b]) for b in range(1, 5)]
        expected = (sum(x for x in net if x > 0), -sum(x for x in net if x < 0))
        stored = await h.bot.store.team_match(match.id)
        assert stored is not None and (stored.imps_a, stored.imps_b) == expected

        card = h.driver.message(lobby.id)
        text = card_text(card)
        assert f"A {expected[0]} – {expected[1]} B" in text and "final" in text
        assert "Compared 4 of 4" in text
        pictures = [m for m in h.driver.channel_messages(h.channel) if m.attachments]
        assert pictures and "team match is over" in (pictures[-1].content or "")

        assert h.privacy is not None and h.privacy.team_checked > 0
        await robots_play_is_shown(h, alice, bob, first)
        await h.slash(bob, "match", "leaderboard")
        board = h.last_reply(bob)
        assert f"<@{alice.id}>" in board and f"<@{bob.id}>" in board


async def test_abandoning_a_table_stops_the_team_match(discord_double, tmp_path,
                                                       monkeypatch):
    async with running(discord_double, tmp_path, think_seconds=0.02) as h:
        alice, bob, carol, dave = (h.user(i) for i in range(4))
        await h.slash(alice, "match", "teams", boards=8)
        teams = h.bot.get_cog("Match").teams
        h.driver.busy.append(teams.busy)
        lobby = lobby_message(h)
        await h.press(bob, lobby, "Join team B")
        await h.press(carol, lobby, "Join team A")  # a person at each table waits to deal
        await h.press(dave, lobby, "Join team B")
        await h.press(alice, lobby, "Start")
        [match] = teams.matches.values()
        assert match.tables is not None and match.threads is not None
        thread = h.driver.state.channels[match.threads[0]]
        # A team match is started from a text channel, not from a table's thread.
        await h.driver.slash(alice, thread, "match", "teams", {"boards": 4})
        assert "not a thread" in h.last_reply(alice) and len(teams.matches) == 1
        assert match.status == "playing"
        # The card is posted afresh once its message is old (Discord's edits of a message
        # past an hour old are few): here, at once.
        monkeypatch.setattr(sys.modules[type(h.bot.get_cog("Match")).__module__],
                            "CARD_FRESH_AFTER", -1.0)
        await h.driver.slash(alice, thread, "abandon")  # /abandon at one table, as ever
        await h.driver.settle()
        assert match.status == "abandoned"
        assert "moved down" in (h.driver.message(lobby.id).content or "")
        lobby = h.driver.message(match.message_id)
        for table_id in match.tables:
            row = await h.bot.store.get_match(table_id)
            assert row is not None and row.status == "abandoned"
        stored = await h.bot.store.team_match(match.id)
        assert stored is not None and stored.status == "abandoned"
        assert "abandoned" in card_text(h.driver.message(lobby.id))
        await h.slash(alice, "match", "leaderboard")
        assert "No team match has finished" in h.last_reply(alice)
