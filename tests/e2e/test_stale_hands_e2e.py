"""An old private hand never lies (issue 31): a hand message replaced by a newer one says
so in one line with no buttons, and a request's buttons leave a hand as soon as the
request is answered, by a person or by a computer player."""

from __future__ import annotations

from typing import Any

from bot.ai.core.claims import tricks_for
from tests.e2e.harness import Harness, running
from tests.e2e.test_claims_e2e import SEED, claim, to_the_play

WITHDRAW = "Withdraw my request"


def labels(h: Harness, message: Any) -> list[str]:
    return [str(b.get("label")) for b in h.buttons(h.driver.message(message))]


def live_hands(h: Harness, user: Any) -> list[Any]:
    """The user's private messages that still carry buttons."""
    return [m for m in h.driver.ephemerals(user) if h.buttons(h.driver.message(m))]


async def test_a_hand_replaced_by_a_newer_one_says_so_in_one_line_without_buttons(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        table = await h.start_with_bots(alice, "spades")
        old = await h.open_hand(alice)
        assert labels(h, old), "a live hand has buttons"
        new = await h.open_hand(alice)  # My hand again, on the table message
        await discord_double.settle()
        assert new.id != old.id
        replaced = h.driver.message(old)
        assert not replaced.components, "the old hand keeps no button to press"
        text = replaced.content
        assert "\n" not in text and "newer" in text and f"#{table.id}" in text
        assert not replaced.embeds
        assert labels(h, new), "the new hand stays live"
        assert [m.id for m in live_hands(h, alice)] == [new.id]
        # The new hand is kept live as play goes on; the old one stays as it was.
        assert await h.act_once(alice)
        await discord_double.settle()
        assert h.driver.message(old).content == text


async def test_withdraw_leaves_every_hand_once_a_computer_player_has_answered(
        discord_double, tmp_path, fixed_deals):
    """Alice asks to undo her call on her hand, then opens her hand again before the
    computer player consents (a second, as in play): afterwards no hand of hers offers
    Withdraw my request (it would say there is nothing to withdraw)."""
    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, SEED)
        alice = h.user(0)
        table = await h.start_with_bots(alice, "single_dummy")
        game = table.game
        for _ in range(50):
            await discord_double.settle()
            if 0 in game.to_act():
                break
        hand = await h.open_hand(alice)
        await h.press(alice, hand, "Bid 7…")
        await h.press(alice, h.hand_of(alice), "7NT")
        await discord_double.settle()
        h.bot.tables.turns.bot_delay = 1.0  # the computer player answers after a second
        await h.press(alice, h.hand_of(alice), "Undo")
        assert game.request is not None and WITHDRAW in labels(h, hand)
        again = await h.open_hand(alice)
        assert again.id != hand.id and WITHDRAW in labels(h, again)
        await discord_double.wait_for(lambda: game.request is None, timeout=10,
                                      what="the computer player's answer")
        await discord_double.settle()
        assert "accepted" in h.table_message().embeds[0].get("footer", {}).get("text", "")
        for message in h.driver.ephemerals(alice):
            assert WITHDRAW not in labels(h, message), h.driver.message(message).content


async def test_withdraw_leaves_every_hand_once_a_person_has_answered(
        discord_double, tmp_path, fixed_deals):
    """Alice claims on her hand and opens it again; Bob rejects on the table message:
    neither hand of Alice's offers Withdraw any more."""
    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, SEED)
        alice, bob = h.user(0), h.user(1)
        table = await h.start_with_people([alice, bob], "single_dummy")
        await to_the_play(h, table, alice, [bob])
        game = table.game
        sure, left = tricks_for(game.claim_position(), 0), game.tricks_left()
        await claim(h, alice, sure + 1, left)
        await discord_double.settle()
        first = h.hand_of(alice)
        assert game.request is not None and WITHDRAW in labels(h, first)
        again = await h.open_hand(alice)
        assert again.id != first.id and WITHDRAW in labels(h, again)
        await h.press(bob, h.table_message(), "West: Reject")
        await discord_double.settle()
        assert game.request is None
        for message in h.driver.ephemerals(alice):
            assert WITHDRAW not in labels(h, message), h.driver.message(message).content
