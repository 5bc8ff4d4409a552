"""A challenge survives a SIGKILL: Alice challenges Bob to one Contract Bridge board, Bob
accepts, Alice plays hers; Bob starts his, the bot process is killed in the middle of his
board and started again on the same database, Bob finishes, and the result is posted in
the channel, its IMPs those of the two tables' stored results. The bot runs in its own
process (bot_forks.py), as in the chaos test."""

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
from tests.e2e.test_team_match_restart_e2e import _eventually, _move, _with_button

FINISH_WITHIN = 240.0  # seconds for each person's board (a few on a quiet machine)


async def _play_board(h: RemoteHarness, store: Store, forks: Forks, user: Any,
                      challenge_id: int, place: int, kill_after: int | None
                      ) -> tuple[int, bool]:
    """The user presses Play my deals and plays their board to its end; with
    `kill_after`, the bot is killed (and started again) once that many actions of their
    table are stored. Returns their table's id, and whether the bot was killed."""
    killed = False
    offer = _with_button(h, h.driver.channel_messages(h.channel), "tt:chplay:")
    assert offer is not None, "no Play my deals button"
    await h.press(user, offer, "Play my deals")

    async def started() -> Any:
        row = await store.challenge(challenge_id)
        return row.tables[place] if row is not None else None
    table_id = await _eventually(started, "the person's table")
    row = await store.get_match(table_id)
    assert row is not None
    thread = h.driver.state.channels[row.channel_id]
    assert thread.type == 12 and thread.parent_id == h.channel.id  # a private thread

    async def board() -> Message | None:
        posts = [m for m in h.driver.channel_messages(thread)
                 if any(b.get("label") == "My hand" for b in h.buttons(m))]
        return max(posts, key=lambda m: m.id) if posts else None

    deadline = time.monotonic() + FINISH_WITHIN
    while time.monotonic() < deadline:
        match = await store.get_match(table_id)
        assert match is not None
        if match.status != "playing":
            return table_id, killed
        if kill_after is not None and len(await store.actions(table_id)) >= kill_after:
            await forks.kill()  # in the middle of the board
            await forks.start()
            kill_after, killed = None, True
            continue
        table = await board()
        if table is None or not await _move(h, user, table):
            await asyncio.sleep(0.1)
    raise AssertionError(f"{user.name}'s board did not end; the bot's log ends:\n"
                         + "\n".join(forks.log.read_text().splitlines()[-20:]))


async def test_a_challenge_goes_on_after_a_sigkill(discord_double: Driver,
                                                   tmp_path: Path) -> None:
    driver = discord_double
    world = await driver.make_world(users=("alice", "bob"))
    h = RemoteHarness(driver, world, None, tmp_path)  # type: ignore[arg-type]
    alice, bob = h.user(0), h.user(1)
    db, log = tmp_path / "challenge.db", tmp_path / "bots.log"
    forks = Forks(driver, db, log)
    store: Store | None = None
    try:
        await forks.open()
        await forks.start()
        store = await Store.open(db)
        await h.slash(alice, "challenge", "new", member=bob, game="bridge", deals=1,
                      level="basic")
        offer = _with_button(h, driver.channel_messages(h.channel), "tt:chyes:")
        assert offer is not None, "no challenge posted"
        await h.press(bob, offer, "Accept")
        [row] = await store.open_challenges()
        assert row.status == "accepted"

        first, _ = await _play_board(h, store, forks, alice, row.id, 0, None)
        # Board 1's dealer is North, a computer player: its first call is stored at once.
        second, killed = await _play_board(h, store, forks, bob, row.id, 1, kill_after=1)
        assert killed

        async def ended() -> Any:
            done = await store.challenge(row.id)
            return done if done is not None and done.status == "finished" else None
        done = await _eventually(ended, "the challenge's end", within=60)
        nets = [[d.points[0] - d.points[1] for d in await store.deals(t)]
                for t in (first, second)]
        assert len(nets[0]) == len(nets[1]) == 1
        won = imps(nets[0][0] - nets[1][0])
        assert done.scores == (max(won, 0), max(-won, 0))

        async def posted() -> bool:
            return any(m.attachments and f"Challenge #{row.id} is over" in (m.content or "")
                       for m in driver.channel_messages(h.channel))
        await _eventually(posted, "the result's post with its picture")
    finally:
        if store is not None:
            await store.close()
        await forks.close()
    errors = [line for line in log.read_text().splitlines() if " ERROR " in line]
    assert not errors, "\n".join(errors[:20])
