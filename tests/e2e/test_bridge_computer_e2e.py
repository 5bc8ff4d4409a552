"""Contract Bridge end to end with computer players at full strength: one person and three
searching players (the default kind) through a whole deal, their calls explained."""

from __future__ import annotations

from bot.ai import Budget
from bot.ai.bridge.bidding import explain_calls
from bot.render.games.bridge import NOTES_TITLE
from bot.render.games.common import call_label
from tests.e2e.harness import running

SEED = 1  # a fixed deal: the same run every time


async def test_one_person_and_three_computer_players_play_a_whole_deal(discord_double,
                                                                       tmp_path, fixed_deals):
    async with running(discord_double, tmp_path, think_seconds=0.8) as h:
        fixed_deals(h, SEED)
        alice = h.user(0)
        table = await h.start_with_bots(alice, "bridge")
        game = table.game
        mine = table.seat_of(alice.id)
        bots = [s for s in range(4) if s != mine]
        turns = h.bot.tables.turns
        assert {turns.player(table, s).kind for s in bots} == {"bridge-advanced"}
        budgets: list[Budget] = []
        for seat in bots:  # see the budgets the table hands its computer players
            player = turns.player(table, seat)
            choose = player.choose

            def spy(view, legal, budget=None, _choose=choose):
                budgets.append(budget)
                return _choose(view, legal, budget)

            player.choose = spy  # type: ignore[method-assign]

        def played() -> bool:
            summary = game.view(None).previous_deal
            return game.finished or (summary is not None and summary.contract is not None)

        # The auction: the table explains each computer player's bid under it.
        await h.play_people([alice], until=lambda: game.view(None).phase != "bidding"
                            or game.deal_no > 1)
        await discord_double.settle()
        assert game.deal_no == 1, "the fixed deal is bid, not passed out"
        calls = game.view(None).calls
        meanings = explain_calls(calls)
        notes = next((f["value"] for e in h.table_message().embeds
                      for f in e.get("fields", []) if f["name"] == NOTES_TITLE), "")
        bids = [i for i, (seat, call) in enumerate(calls)
                if seat != mine and call.kind != "pass"]
        assert bids, "the computer players bid on this deal"
        for i in bids:
            # As the auction grid writes a call ("X" for a double).
            line = f"{call_label(calls[i][1].text)} — {meanings[i]}"
            assert line in notes.replace("**", ""), notes

        await h.play_people([alice], until=played)
        await discord_double.settle()
        summary = game.view(None).previous_deal
        assert summary is not None and summary.contract is not None
        assert sum(summary.tricks_won) == 13
        assert budgets and all(b is not None and b.seconds == 0.8 for b in budgets)
        assert any("is over" in str(m.embeds)
                   for m in discord_double.channel_messages(h.channel))
