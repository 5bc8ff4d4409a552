"""Spades end to end: /play, lobby, bots, private hands, whole match, stored result."""

from __future__ import annotations

from tests.e2e.harness import running

# Fixed deals (see the fixed_deals fixture): this match lasts five deals, so the privacy
# guard sees many of Alice's presses. Random deals could end a match to 100 in one deal.
# The bots are the rule-based level: they decide the same on any machine (a look-ahead
# player short of time falls back to another player and changes the match), and quickly.
LONG_MATCH_SEED = 7


async def test_one_person_and_three_bots_play_spades_to_the_final_standings(
        discord_double, tmp_path, fixed_deals):
    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, LONG_MATCH_SEED)
        alice = h.user(0)
        table = await h.open_table(alice, "spades", target=100)
        lobby = h.table_message()
        assert "waiting for players" in lobby.embeds[0]["title"]
        for _ in range(3):
            await h.press(alice, lobby, "Add Basic bot")
        await h.press(alice, lobby, "Start")
        assert "deal 1" in h.table_message().embeds[0]["title"]
        hand = await h.open_hand(alice)
        assert hand.ephemeral_to == alice.id
        presses = 0
        for _ in range(2000):
            if table.closed:
                break
            acted = await h.act_once(alice)
            presses += acted
            if not acted:
                await discord_double.settle()
                if not table.closed and not h.action_buttons(h.hand_of(alice)):
                    await h.open_hand(alice)
        assert table.closed and table.status == "finished"
        assert table.game.deal_no == 5, "the fixed deals make a five-deal match"
        await discord_double.settle()
        texts = [" ".join(e.get("title", "") for e in m.embeds)
                 for m in discord_double.channel_messages(h.channel)]
        assert any("final standings" in t for t in texts)
        final = next(m for m in discord_double.channel_messages(h.channel)
                     if m.embeds and "final standings" in m.embeds[0].get("title", ""))
        sheet = " ".join(f["value"] for f in final.embeds[0]["fields"])
        assert all(f"Deal {n}:" in sheet for n in range(1, 6)), "the whole score sheet"
        assert any("is over" in t for t in texts), "each deal's end is posted"
        row = await h.bot.store.get_result(table.id)
        assert row is not None and {p.seat for p in row.players} == {0, 1, 2, 3}
        # The guard judged the match's messages as it went: at least the answer to most
        # of Alice's presses (those crossing a deal's end are left to the deal-end check).
        assert h.privacy is not None and h.privacy.checked >= presses // 2 > 10


async def test_a_hand_is_kept_live_through_the_token_that_showed_it(discord_double, tmp_path):
    """Clicks on a hand answer in place and leave its token as it was: each new token would
    cost a rate-limit bucket in discord.py. A new hand message brings its own token."""
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        table = await h.open_table(alice, "spades", target=100)
        lobby = h.table_message()
        for _ in range(3):
            await h.press(alice, lobby, "Add bot")
        await h.press(alice, lobby, "Start")
        hand = await h.open_hand(alice)
        first = h.bot.publisher.hands.sessions[table.id][alice.id]
        assert first.message_id == hand.id
        for _ in range(6):
            assert await h.act_once(alice)
            await discord_double.settle()
        session = h.bot.publisher.hands.sessions[table.id][alice.id]
        assert session is first and session.token == first.token
        edits = [p for p in discord_double.state.payloads
                 if p.method == "PATCH" and "/messages/@original" in p.path]
        assert edits and all(first.token in p.path for p in edits)
        again = await h.open_hand(alice)
        assert again.id != hand.id
        fresh = h.bot.publisher.hands.sessions[table.id][alice.id]
        assert fresh.message_id == again.id and fresh.token != first.token
