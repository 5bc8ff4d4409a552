"""Robot's play after a daily deal: Alice plays today's Spades deals, then the button under
a deal's end shows her privately the computer players' bids and result on the same cards
beside her own; someone who did not play there is refused."""

from __future__ import annotations

from tests.e2e.harness import running
from tests.e2e.test_team_match_e2e import reply_with


async def test_robots_play_after_a_daily_spades_deal(discord_double, tmp_path):
    async with running(discord_double, tmp_path, think_seconds=0.02) as h:
        alice, bob = h.user(0), h.user(1)
        await h.slash(alice, "daily", "spades")
        [table] = [t for t in h.bot.tables.tables.values() if t.creator_id == alice.id]
        thread = h.driver.state.channels[table.channel_id]
        await h.press(alice, h.driver.message(table.message_id), "My hand")
        for _ in range(1500):
            if table.closed:
                break
            if not await h.act_once(alice):
                await h.driver.settle()
                if not table.closed and not h.action_buttons(h.hand_of(alice)):
                    await h.press(alice, h.driver.message(table.message_id), "My hand")
        assert table.closed and table.status == "finished"
        ends = [m for m in h.driver.channel_messages(thread)
                if any(b.get("label") == "Robot's play" for b in h.buttons(m))]
        assert len(ends) == 4
        await h.press(alice, ends[1], "Robot's play")
        answer = await reply_with(h, alice, "Robot's play")
        assert "deal 2" in answer and "(South)" in answer and "your side" in answer
        assert "**S bid" in answer and "Par" not in answer  # Spades has no par
        await h.press(bob, ends[1], "Robot's play")
        assert "you did not play at this table" in h.last_reply(bob)
