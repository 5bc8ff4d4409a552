"""Human declares end to end: a person at South whose computer partner at North wins the
contract plays the hand from their private hand message; the score stays North's."""

from __future__ import annotations

from bot.games.cards import Seat
from bot.games.fairness import FairDeals
from tests.e2e.harness import running
from tests.tables.test_human_declares import stacked_pack

NORTH, SOUTH = int(Seat.NORTH), int(Seat.SOUTH)


def _pass_if_you_can(actions):
    """Alice only passes in the auction (North, a computer player, bids the hand)."""
    return next((a for a in actions if str(a["custom_id"]).endswith(":pass")), actions[0])


async def test_human_declares_south_plays_north_and_the_score_stays_north(discord_double,
                                                                          tmp_path,
                                                                          monkeypatch):
    dealt = FairDeals.pack

    def first_deal_stacked(self, pack, deal_no):
        return stacked_pack() if deal_no == 1 else dealt(self, pack, deal_no)

    monkeypatch.setattr(FairDeals, "pack", first_deal_stacked)
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        table = await h.open_table(alice, "bridge")
        await h.press(alice, h.table_message(), "Sit South")
        for _ in range(3):
            await h.press(alice, h.table_message(), "Add Basic bot")
        await h.press(alice, h.table_message(), "Start")
        assert table.seat_of(alice.id) == SOUTH
        # Three tricks in, the Tricks button lists them privately, as the engine has them.
        await h.play_people([alice], until=lambda: len(table.game.view(None).played) >= 12,
                            choose=_pass_if_you_can)
        await h.driver.settle()
        played = table.game.view(None).played
        await h.press(alice, h.table_message(), "Tricks")
        listed = h.last_reply(alice)
        assert "**Tricks**" in listed
        lines = [line for line in listed.splitlines() if line[:1].isdigit()]
        assert len(lines) == len(played) // 4
        assert lines[0].startswith("1. E ")  # East, declarer's left, led
        await h.play_people([alice], until=lambda: table.game.deal_no > 1,
                            choose=_pass_if_you_can)
        await h.driver.settle()

        summary = table.game.previous
        assert summary is not None and summary.contract.declarer == NORTH
        # Every card of North and South came from Alice's clicks, as North's moves.
        actions = await h.bot.store.actions(table.id)
        plays = [a for a in actions if a.action.startswith("play:") and a.seat == NORTH]
        assert len(plays) == 26
        assert {(a.actor, a.user_id) for a in plays} == {("user", alice.id)}
        # Her hand said so and carried North's moves; the result is North's contract.
        shown = [v for m in h.driver.ephemerals(alice) for v in m.versions
                 if "You declare for North" in (v.content or "")]
        assert shown and all("you are **South**" in v.content for v in shown)
        assert any("North's hand (you play it):" in v.content for v in shown)
        assert any(str(c.get("custom_id", "")).startswith(f"tt:act:{table.id}:{NORTH}:")
                   for v in shown for row in v.components for c in row["components"])
        ended = next(m for m in h.driver.channel_messages(h.channel)
                     if "deal 1 is over" in str(m.embeds))
        assert "by North" in str(ended.embeds)
