"""Challenges end to end: every refusal answered privately (nothing changes), then Alice
challenges Bob in Spades and in Contract Bridge; each accepts and each person plays their
deals in their own private thread; neither sees a result of the other's (the privacy
guard checks every payload) until both have played; the result is posted in the channel
with its picture, its figures checked against the two tables' stored results."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.club.challenges import CHALLENGE_GAMES, DAY, OPEN_LIMIT, REMIND_BEFORE
from bot.games.bridge_scoring import imps
from discord_double import Driver
from discord_double.state import Audience
from tests.e2e.harness import Harness, running


def _text(message: Any) -> str:
    return " ".join([message.content or ""] + [
        " ".join([e.get("title", ""), e.get("description", "")] +
                 [f.get("name", "") + " " + f.get("value", "") for f in e.get("fields", [])])
        for e in message.embeds])


def _offer_message(h: Harness, challenge_id: int) -> Any:
    for message in h.driver.channel_messages(h.channel):
        if any(str(b.get("custom_id", "")).split(":")[2:3] == [str(challenge_id)]
               and str(b.get("custom_id", "")).startswith("tt:ch")
               for b in h.buttons(h.driver.message(message))):
            return h.driver.message(message)
    raise AssertionError(f"no message of challenge {challenge_id} with buttons")


async def _open_count(h: Harness) -> int:
    return len(await h.bot.store.open_challenges())


async def _challenge(h: Harness, by: Any, to: Any, game: str, **options: Any) -> int:
    before = {row.id for row in await h.bot.store.challenges_of(h.world.guild.id, by.id)}
    await h.slash(by, "challenge", "new", member=to, game=game, **options)
    rows = await h.bot.store.challenges_of(h.world.guild.id, by.id)
    [new] = [row.id for row in rows if row.id not in before]
    return new


async def _play_my_deals(h: Harness, user: Any, challenge_id: int) -> Any:
    """Press Play my deals and play the table in the private thread to its end."""
    await h.press(user, _offer_message(h, challenge_id), "Play my deals")
    assert "Your deals are ready in" in h.last_reply(user)
    row = await h.bot.store.challenge(challenge_id)
    assert row is not None
    table_id = row.tables[row.people.index(user.id)]
    assert table_id is not None
    table = h.bot.tables.tables[table_id]
    thread = h.driver.state.channels[table.channel_id]
    assert thread.type == 12 and thread.parent_id == h.channel.id  # a private thread
    await h.press(user, h.driver.message(table.message_id), "My hand")
    for _ in range(2000):
        if table.closed:
            break
        if not await h.act_once(user):
            await h.driver.settle()
            if not table.closed and not h.action_buttons(h.hand_of(user)):
                await h.press(user, h.driver.message(table.message_id), "My hand")
    assert table.closed and table.status == "finished"
    await h.driver.settle()
    return table


async def _refusals(h: Harness) -> None:
    alice, bob, carol, dave = (h.user(i) for i in range(4))
    robot = h.driver.add_user("robot", "Robot", bot=True)
    await h.driver.add_member(h.world.guild, robot)
    for options, refusal in (
            (dict(member=alice, game="bridge"), "cannot challenge yourself"),
            (dict(member=robot, game="bridge"), "only challenge a person"),
            (dict(member=bob, game="chess"), "has no challenges"),
            (dict(member=bob, game="bridge", deals=99), "1 to 32 boards"),
            (dict(member=bob, game="spades", deals=0), "1 to 32 deals"),
            (dict(member=bob, game="bridge", days=30), "1 to 14 days")):
        await h.slash(alice, "challenge", "new", **options)
        assert refusal in h.last_reply(alice), (options, h.last_reply(alice))
    assert await _open_count(h) == 0

    offer = await _challenge(h, alice, bob, "bridge")
    message = _offer_message(h, offer)
    assert f"<@{bob.id}>" in (message.content or "") and "Answer by" in _text(message)
    await h.press(carol, message, "Accept")
    assert "only they can accept" in h.last_reply(carol)
    await h.press(alice, message, "Accept")
    assert "your own challenge" in h.last_reply(alice)
    await h.press(bob, message, "Cancel")
    assert "Only Alice" in h.last_reply(bob)
    row = await h.bot.store.challenge(offer)
    assert row is not None and row.status == "offered"
    await h.press(alice, message, "Cancel")  # the challenger takes it back
    assert "cancelled" in (h.driver.message(message).content or "")
    await h.forge(bob, f"tt:chyes:{offer}", message)  # a stale Accept
    assert "Alice cancelled this challenge" in h.last_reply(bob)
    await h.forge(bob, "tt:chyes:987654", message)
    assert "no longer exists" in h.last_reply(bob)

    for _ in range(OPEN_LIMIT):  # Carol's open challenges, made by Dave
        await _challenge(h, dave, carol, "spades")
    await h.slash(alice, "challenge", "new", member=carol, game="spades")
    assert f"Carol has {OPEN_LIMIT} open challenges" in h.last_reply(alice)
    assert await _open_count(h) == OPEN_LIMIT
    row = (await h.bot.store.challenges_of(h.world.guild.id, carol.id))[0]
    await h.press(carol, _offer_message(h, row.id), "Decline")
    assert "declined" in (h.driver.message(_offer_message_any(h, row.id)).content or "")


def _offer_message_any(h: Harness, challenge_id: int) -> Any:
    """The challenge's message, with or without buttons (the store knows its id)."""
    for message in h.driver.channel_messages(h.channel):
        if f"challenge #{challenge_id}" in (message.content or "").lower():
            return message
    raise AssertionError(f"no message of challenge {challenge_id}")


def guard_notices_a_leak(h: Harness, challenge_id: int, user_id: int) -> None:
    """The privacy guard's challenge check can fail: a compared row in the channel, and
    a /challenge list comparison, of a deal nobody has played yet."""
    guard = h.privacy
    assert guard is not None
    before = len(guard.leaks)
    guard.check_challenges(SimpleNamespace(audience=Audience(h.channel.id), files=(),
                                           body={"content": "` 1` Alice: 4♠ S= +420"}))
    guard.check_challenges(SimpleNamespace(
        audience=Audience(h.channel.id, user_id), files=(),
        body={"content": f"**#{challenge_id} Spades**\nBoth played (pts to you): 1: +30"}))
    assert len(guard.leaks) == before + 2
    del guard.leaks[before:]


async def _play_a_challenge(h: Harness, game: str, deals: int) -> None:
    alice, bob, carol = h.user(0), h.user(1), h.user(2)
    challenge_id = await _challenge(h, alice, bob, game, deals=deals, level="basic")
    message = _offer_message(h, challenge_id)
    await h.press(alice, message, "Accept")
    assert "your own challenge" in h.last_reply(alice)
    await h.press(bob, message, "Accept")
    accepted = h.driver.message(message)
    assert "accepted" in (accepted.content or "")
    await h.press(carol, accepted, "Play my deals")
    assert "between Alice and Bob" in h.last_reply(carol)
    guard_notices_a_leak(h, challenge_id, bob.id)

    first = await _play_my_deals(h, alice, challenge_id)
    await h.press(alice, accepted, "Play my deals")  # twice: refused
    assert "played your deals of this challenge already" in h.last_reply(alice)
    await h.slash(bob, "challenge", "list")
    [listed] = [block for block in h.last_reply(bob).split("\n\n")
                if block.startswith(f"**#{challenge_id} ")]
    assert "played: you 0, Alice" in listed and "Both played" not in listed
    row = await h.bot.store.challenge(challenge_id)
    assert row is not None and row.status == "accepted"
    # Alice's finished table is not in her history as Bob sees it, nor its sheet.
    await h.slash(bob, "history", member=alice)
    assert f"#{first.id} " not in _text(max(h.driver.ephemerals(bob), key=lambda m: m.id))
    await h.forge(bob, f"tt:sheet:{first.id}", accepted)
    assert "challenge still being played" in h.last_reply(bob)
    if game == "bridge":  # nor its hand records, however the button is come by
        await h.forge(bob, f"tt:rec:{first.id}:1", accepted)
        assert "challenge still being played" in h.last_reply(bob)
    await h.slash(alice, "history")
    assert f"#{first.id} " in _text(max(h.driver.ephemerals(alice), key=lambda m: m.id))

    second = await _play_my_deals(h, bob, challenge_id)
    cog = h.bot.get_cog("Challenge")
    for _ in range(200):
        if not cog.challenges.busy():
            break
        await h.driver.settle()
    row = await h.bot.store.challenge(challenge_id)
    assert row is not None and row.status == "finished"

    # The figures, from the two tables' stored results (both sit South: North-South).
    nets = [{d.deal_no: d.points[0] - d.points[1] for d in await h.bot.store.deals(t.id)}
            for t in (first, second)]
    if CHALLENGE_GAMES[game].compare == "imps":
        worth = [imps(nets[0][d] - nets[1][d]) for d in range(1, deals + 1)]
        expected = (sum(w for w in worth if w > 0), -sum(w for w in worth if w < 0))
    else:
        expected = (sum(nets[0].values()), sum(nets[1].values()))
    assert row.scores == expected
    posts = [m for m in h.driver.channel_messages(h.channel)
             if f"Challenge #{challenge_id} is over" in (m.content or "") and m.attachments]
    assert len(posts) == 1, "the result is posted once, with its picture"
    post = _text(posts[0])
    assert "Fair deals" in post and "python -m bot verify" in post
    await h.slash(alice, "challenge", "list")
    [listed] = [block for block in h.last_reply(alice).split("\n\n")
                if block.startswith(f"**#{challenge_id} ")]
    assert "Both played" in listed
    # The Robot's play under a deal's end of a challenge table.
    thread = h.driver.state.channels[first.channel_id]
    ends = [m for m in h.driver.channel_messages(thread)
            if any(b.get("label") == "Robot's play" for b in h.buttons(m))]
    assert len(ends) == deals
    await h.press(alice, ends[0], "Robot's play")
    for _ in range(300):
        if "Robot's play" in h.last_reply(alice):
            break
        await h.driver.settle()
    assert "**Computer players:**" in h.last_reply(alice)


async def test_challenge_refusals_then_two_challenges_played_privately(
        discord_double: Driver, tmp_path: Any) -> None:
    async with running(discord_double, tmp_path, think_seconds=0.02) as h:
        h.driver.busy.append(lambda: h.bot.get_cog("Challenge").challenges.busy())
        await _refusals(h)
        await _play_a_challenge(h, "spades", 1)
        await _play_a_challenge(h, "bridge", 1)
        assert h.privacy is not None and h.privacy.challenge_checked > 0


async def test_challenge_deadline_pings_who_has_not_finished_then_decides(
        discord_double: Driver, tmp_path: Any) -> None:
    """Days pass (the bot's clock is the double's): an offer nobody answers expires; as
    an accepted challenge's deadline nears, the person who has not finished is pinged
    once; at the deadline their open table closes and the challenge is decided: they
    played no deal, so they forfeit."""
    async with running(discord_double, tmp_path, think_seconds=0.02,
                       shared_clock=True) as h:
        cog = h.bot.get_cog("Challenge")
        h.driver.busy.append(cog.challenges.busy)
        alice, bob, carol = h.user(0), h.user(1), h.user(2)
        unanswered = await _challenge(h, alice, carol, "spades", days=1)
        challenge_id = await _challenge(h, alice, bob, "spades", deals=1, level="basic")
        await h.press(bob, _offer_message(h, challenge_id), "Accept")
        await _play_my_deals(h, alice, challenge_id)
        await h.press(bob, _offer_message(h, challenge_id), "Play my deals")
        row = await h.bot.store.challenge(challenge_id)
        assert row is not None and row.tables[1] is not None
        bobs = h.bot.tables.tables[row.tables[1]]

        await h.later(DAY + 60)  # the offer to Carol is past its day
        assert await cog.challenges.sweep() == 1
        expired = await h.bot.store.challenge(unanswered)
        assert expired is not None and expired.status == "expired"
        assert "expired unanswered" in (h.driver.message(
            _offer_message_any(h, unanswered)).content or "")

        def pings() -> list[Any]:
            return [m for m in h.driver.channel_messages(h.channel)
                    if "your Spades challenge with" in (m.content or "")]
        await h.later(row.deadline - h.bot.tables.clock.now() - REMIND_BEFORE + 60)
        await cog.challenges.sweep()
        await cog.challenges.sweep()
        [ping] = pings()  # Bob alone (Alice has finished), once
        assert f"<@{bob.id}>" in (ping.content or "") and "played 0 of 1 deal" in (
            ping.content or "")

        await h.later(REMIND_BEFORE)
        assert await cog.challenges.sweep() == 1
        await h.driver.settle()
        ended = await h.bot.store.challenge(challenge_id)
        assert ended is not None and ended.status == "finished"
        assert bobs.closed and bobs.status == "abandoned"
        [post] = [m for m in h.driver.channel_messages(h.channel)
                  if f"Challenge #{challenge_id} is over" in (m.content or "") and m.attachments]
        text = _text(post)
        assert "Bob played no deal (forfeit)" in text and text.count("**Alice** wins") == 1
        offer = h.driver.message(_offer_message_any(h, challenge_id))
        assert "Play my deals" not in str(offer.components)
        # the result is said once, in its post: the offer points to it
        assert "wins" not in (offer.content or "") and f"/{post.id})" in (offer.content or "")
