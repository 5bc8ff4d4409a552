"""A team match survives a SIGKILL: two people (Alice for team A, Bob for team B, both at
the first table) and six computer players play 4 boards; the bot process is killed once
the first table has finished a board, started again on the same database, and the match
is played on to its final score card, whose IMPs are those of the two tables' stored
results. The bot runs in its own process (bot_forks.py), as in the chaos test."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot.games.bridge_scoring import imps
from bot.store import Store
from discord_double import Driver
from discord_double.state import Message
from tests.e2e.remote import RemoteHarness
from tests.e2e.test_chaos_restarts_e2e import Forks

FINISH_WITHIN = 240.0  # seconds for the whole match (about 30 on a quiet machine)


def _with_button(h: RemoteHarness, messages: list[Message], prefix: str) -> Message | None:
    found = [m for m in messages
             if any(str(b.get("custom_id", "")).startswith(prefix) for b in h.buttons(m))]
    return max(found, key=lambda m: m.id) if found else None


def _text(message: Message) -> str:
    return " ".join([message.content or ""] + [
        e.get("title", "") + " " + e.get("description", "") for e in message.embeds])


async def _eventually(check: Any, what: str, within: float = 30.0) -> Any:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def _move(h: RemoteHarness, user: Any, board: Message) -> bool:
    """One move of `user` from their private hand (asked for afresh when it has none)."""
    hand = h.hand_of(user)
    if hand is None or not (h.moves(hand) or _groups(h, hand)):
        if "My hand" not in [b.get("label") for b in h.buttons(h.driver.message(board))]:
            return False  # the table is being posted afresh (or has just ended): next round
        await h.driver.click(user, board, h.button(board, "My hand"))
        hand = h.hand_of(user)
        if hand is None:
            return False
    hand = h.driver.message(hand)
    if not h.moves(hand):
        groups = _groups(h, hand)
        if not groups:
            return False
        await h.driver.click(user, hand, str(groups[0]["custom_id"]))
        hand = h.driver.message(hand)
    moves = h.moves(hand)
    if not moves:
        return False
    handle = await h.driver.click(user, hand, str(moves[0]["custom_id"]), wait=False)
    try:
        await handle.wait_response(5.0)
    except TimeoutError:
        return False
    return True


def _groups(h: RemoteHarness, hand: Message) -> list[dict[str, Any]]:
    return [c for c in h.buttons(h.driver.message(hand))
            if str(c.get("custom_id", "")).startswith("tt:pick:")
            and not str(c["custom_id"]).endswith((":-", ":claim"))]


async def test_a_team_match_goes_on_after_a_sigkill(discord_double: Driver,
                                                    tmp_path: Path) -> None:
    driver = discord_double
    world = await driver.make_world(users=("alice", "bob"))
    h = RemoteHarness(driver, world, None, tmp_path)  # type: ignore[arg-type]
    alice, bob = h.user(0), h.user(1)
    db, log = tmp_path / "teams.db", tmp_path / "bots.log"
    forks = Forks(driver, db, log)
    store: Store | None = None
    try:
        await forks.open()
        await forks.start()
        store = await Store.open(db)
        await h.slash(alice, "match", "teams", boards=4, level="basic")
        lobby = _with_button(h, driver.channel_messages(h.channel), "tt:tmjoin:")
        assert lobby is not None, "no lobby posted"
        await h.press(bob, lobby, "Join team B")
        await h.press(alice, lobby, "Start")

        async def started() -> Any:
            rows = await store.open_team_matches()
            return rows[0] if rows and rows[0].first_table else None
        match = await _eventually(started, "the tables to open")
        first = await store.get_match(match.first_table)
        assert first is not None
        thread = driver.state.channels[first.channel_id]
        assert thread.type == 12 and thread.parent_id == h.channel.id  # a private thread

        async def board() -> Message | None:  # the first table's message, as it is now
            posts = [m for m in driver.channel_messages(thread)
                     if any(b.get("label") == "My hand" for b in h.buttons(m))]
            return max(posts, key=lambda m: m.id) if posts else None

        killed = False
        deadline = time.monotonic() + FINISH_WITHIN
        while time.monotonic() < deadline:
            row = await store.team_match(match.id)
            assert row is not None
            if row.status != "playing":
                break
            if not killed and await store.deals(match.first_table):
                await forks.kill()  # a board of the first table is over: kill the bot
                killed = True
                await forks.start()
                continue
            table = await board()
            moved = False
            if table is not None and (await store.get_result(match.first_table)) is None:
                for user in (alice, bob):
                    moved = await _move(h, user, table) or moved
            if not moved:
                await asyncio.sleep(0.1)
        else:
            raise AssertionError("the team match did not finish; the bot's log ends:\n"
                                 + "\n".join(log.read_text().splitlines()[-20:]))
        assert killed
        row = await store.team_match(match.id)
        assert row is not None and row.status == "finished"

        # The IMPs, from the two tables' stored results.
        ns = [{d.deal_no: d.points[0] - d.points[1] for d in await store.deals(t)}
              for t in (match.first_table, match.second_table)]
        net = [imps(ns[0][b] - ns[1][b]) for b in range(1, 5)]
        expected = (sum(x for x in net if x > 0), -sum(x for x in net if x < 0))
        assert (row.imps_a, row.imps_b) == expected

        async def final_posted() -> bool:
            posts = driver.channel_messages(h.channel)
            return any(m.attachments and "team match is over" in (m.content or "")
                       for m in posts)
        await _eventually(final_posted, "the final score card's picture")
        card = _text(driver.message(lobby.id))
        assert f"A {expected[0]} – {expected[1]} B" in card and "Compared 4 of 4" in card
    finally:
        if store is not None:
            await store.close()
        await forks.close()
    errors = [line for line in log.read_text().splitlines() if " ERROR " in line]
    assert not errors, "\n".join(errors[:20])
