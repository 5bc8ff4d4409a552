"""Contract Bridge end to end with one person and three computer players at full strength:
the table explains what each computer player's call means."""

from __future__ import annotations

from bot.ai.bridge.bidding import explain_calls
from bot.render.games.bridge import NOTES_TITLE
from tests.e2e.harness import running


def _notes(embeds: list[dict]) -> str:
    return next((f["value"] for e in embeds for f in e.get("fields", [])
                 if f["name"] == NOTES_TITLE), "")


async def test_one_person_and_three_bots_play_a_deal_and_bots_calls_are_explained(
        discord_double, tmp_path, fixed_deals):
    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, 7)
        alice = h.user(0)
        table = await h.start_with_bots(alice, "bridge")
        game = table.game
        alice_seat = table.seat_of(alice.id)

        # Alice passes through the auction; the computer players bid at full strength.
        await h.play_people([alice], until=lambda: game.view(None).phase != "bidding"
                            or game.deal_no > 1, choose=lambda actions: next(
                                (a for a in actions if a["custom_id"].endswith(":pass")),
                                actions[0]))
        await discord_double.settle()
        calls = game.view(None).calls if game.deal_no == 1 else \
            game.view(None).previous_deal.calls
        bids = [(seat, call) for seat, call in calls if seat != alice_seat
                and call.kind != "pass"]
        assert bids, "the computer players bid on this deal"
        meanings = explain_calls(calls)
        notes = _notes(h.table_message().embeds)
        for i, (seat, call) in enumerate(calls):
            if seat != alice_seat and call.kind != "pass":
                assert f"{call.label} — {meanings[i]}" in notes.replace("**", ""), notes

        # The rest of the deal is played out; the deal ends and the next one starts.
        await h.play_people([alice], until=lambda: game.deal_no > 1)
        await discord_double.settle()
        assert any("deal 1 is over" in str(m.embeds)
                   for m in discord_double.channel_messages(h.channel))


async def test_slash_system_shows_the_whole_bidding_system_privately(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        public_before = len(discord_double.channel_messages(h.channel))
        await h.slash(alice, "system")
        await discord_double.settle()
        shown = discord_double.ephemerals(alice)
        text = " ".join(str(m.embeds) for m in shown)
        for phrase in ("Stayman, asks for a major", "1♠ — 5+ spades, 11–21 HCP, 12–23 points",
                       "takeout: 12+ HCP", "Roman Key Card answer: 1 or 4 key cards"):
            assert phrase in text, phrase
        assert len(discord_double.channel_messages(h.channel)) == public_before
