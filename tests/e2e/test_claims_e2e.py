"""Claims and undo end to end through the Discord double (Single Dummy Bridge): the Claim…
screen in the private hand, a claim that holds double dummy standing at once, one that does
not put to the opponent (a computer player rejects it; a person answers on the public
table or in their hand, and nobody else can), and Undo of a call and of a card."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.ai.core.claims import tricks_for
from bot.render.ids import action_id
from tests.e2e.harness import Harness, running

SEED = 7  # fixed deals: Alice's 7NT leaves West a trick double dummy


def latest(h: Harness) -> str:
    # the footer's small print: the latest move, then the score
    footer = h.table_message().embeds[0].get("footer", {}).get("text", "")
    return footer.splitlines()[0] if footer else ""


async def to_the_play(h: Harness, table: Any, alice: Any, others: list[Any]) -> None:
    """Alice (South) bids 7NT and takes the revealed dummy; the others pass and play (a
    computer player plays for itself) until it is Alice's turn in the play."""
    game = table.game
    for _ in range(200):
        await h.driver.settle()
        if game.phase == "play" and 0 in game.to_act():
            return
        if 0 in game.to_act():
            hand = await h.open_hand(alice)
            labels = [b.get("label") for b in h.buttons(h.driver.message(hand))]
            if "Bid 7…" in labels:
                await h.press(alice, hand, "Bid 7…")
                await h.press(alice, h.hand_of(alice), "7NT")
            elif "Take the revealed dummy" in labels:
                await h.press(alice, hand, "Take the revealed dummy")
            else:
                await h.press(alice, hand, "Pass")
            continue
        for person in others:
            seat = table.seat_of(person.id)
            if seat in game.to_act():
                hand = await h.open_hand(person)
                labels = [b.get("label") for b in h.buttons(h.driver.message(hand))]
                if "Pass" in labels:
                    await h.press(person, hand, "Pass")
                else:
                    await h.act_once(person)
    raise AssertionError("Alice never came to play")


async def claim(h: Harness, alice: Any, tricks: int, left: int) -> None:
    hand = await h.open_hand(alice)
    await h.press(alice, hand, "Claim…")
    await h.press(alice, h.hand_of(alice), f"All {left}" if tricks == left else str(tricks))


async def test_claim_e2e_that_holds_stands_at_once_and_one_that_does_not_is_rejected(
        discord_double, tmp_path, fixed_deals):
    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, SEED)
        alice = h.user(0)
        table = await h.start_with_bots(alice, "single_dummy")
        await to_the_play(h, table, alice, [])
        game = table.game
        sure = tricks_for(game.claim_position(), 0)
        assert sure < game.tricks_left(), "the fixed deal leaves West a trick"
        await claim(h, alice, sure + 1, game.tricks_left())
        await discord_double.settle()
        assert "rejected by West" in latest(h)
        assert game.request is None and game.phase == "play"
        deal = game.deal_no
        await claim(h, alice, sure, game.tricks_left())
        await discord_double.settle()
        assert game.deal_no == deal + 1
        ended = [m for m in discord_double.channel_messages(h.channel)
                 if "is over" in str(m.embeds)]
        assert "accepted (it holds against any defence)" in str(ended[-1].embeds)
        assert not h.errors.records


async def test_claim_e2e_a_person_answers_on_the_table_and_nobody_else_can(
        discord_double, tmp_path, fixed_deals):
    async with running(discord_double, tmp_path, shared_clock=True) as h:
        fixed_deals(h, SEED)
        alice, bob, carol = h.user(0), h.user(1), h.user(2)
        table = await h.start_with_people([alice, bob], "single_dummy")
        await to_the_play(h, table, alice, [bob])
        game = table.game
        sure = tricks_for(game.claim_position(), 0)
        assert sure < game.tricks_left(), "the fixed deal leaves West a trick"
        left, won = game.tricks_left(), game.tricks_won[0]
        await claim(h, alice, sure + 1, left)
        await discord_double.settle()
        assert game.request is not None
        await h.press(carol, h.table_message(), "West: Accept")
        assert "not playing at this table" in h.last_reply(carol)
        await h.press(alice, h.table_message(), "West: Accept")
        assert "not your seat" in h.last_reply(alice)
        await h.press(bob, h.table_message(), "West: Reject")
        await discord_double.settle()
        assert game.request is None and "rejected by West" in latest(h)

        await claim(h, alice, sure + 1, left)  # at once: a short wait after a rejection
        await discord_double.settle()  # the claim's answer waits for its check
        assert "does not hold against every defence" in h.last_reply(alice)
        assert "you may put a claim to them in 20 seconds" in h.last_reply(alice)
        assert game.request is None
        await h.later(20)
        await claim(h, alice, sure + 1, left)
        await discord_double.settle()
        hand = await h.open_hand(bob)
        assert "accept or reject" in h.driver.message(hand).content
        deal = game.deal_no
        await h.press(bob, hand, "Accept")
        await discord_double.settle()
        assert game.deal_no == deal + 1
        assert game.previous.tricks[0] == won + sure + 1
        assert game.previous.claim.endswith(": accepted.")
        assert not h.errors.records


async def test_undo_e2e_of_a_call_and_of_a_card(discord_double, tmp_path, fixed_deals):
    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, SEED)
        alice = h.user(0)
        table = await h.start_with_bots(alice, "single_dummy")
        game = table.game
        for _ in range(50):  # Alice's first call, then Undo (the computer player consents)
            await discord_double.settle()
            if 0 in game.to_act():
                break
        calls_before = list(game.auction.calls)
        hand = await h.open_hand(alice)
        await h.press(alice, hand, "Bid 7…")
        await h.press(alice, h.hand_of(alice), "7NT")
        await discord_double.settle()  # the computer player's call after it goes back too
        await h.press(alice, h.hand_of(alice), "Undo")
        await discord_double.settle()
        assert list(game.auction.calls) == calls_before
        assert "accepted" in latest(h)

        await to_the_play(h, table, alice, [])
        before = game.view(0)
        hand = await h.open_hand(alice)
        await h.driver.click(alice, hand, str(h.moves(hand)[0]["custom_id"]))
        await discord_double.settle()
        assert len(game.trick) == 3  # West led; Alice played from North; East followed
        await h.press(alice, h.hand_of(alice), "Undo")
        await discord_double.settle()
        after = game.view(0)
        assert (after.hands, after.trick) == (before.hands, before.trick)
        assert not h.errors.records


async def test_claim_e2e_an_accept_from_a_withdrawn_claim_is_stale(
        discord_double, tmp_path, fixed_deals):
    """Alice claims, withdraws and (after the wait a withdrawal starts) claims again; Bob
    (West) presses the Accept of the first claim (an old copy of the table's button): he
    is told it is over and nothing changes; the new claim still waits for him."""
    async with running(discord_double, tmp_path, shared_clock=True) as h:
        fixed_deals(h, SEED)
        alice, bob = h.user(0), h.user(1)
        table = await h.start_with_people([alice, bob], "single_dummy")
        await to_the_play(h, table, alice, [bob])
        game = table.game
        sure, left = tricks_for(game.claim_position(), 0), game.tricks_left()
        await claim(h, alice, sure + 1, left)
        await discord_double.settle()
        old_accept = h.button(h.table_message(), "West: Accept")
        await h.press(alice, await h.open_hand(alice), "Withdraw my request")
        await discord_double.settle()
        assert game.request is None and "withdraws the claim" in latest(h)
        await h.later(20)
        await claim(h, alice, sure + 1, left)
        await discord_double.settle()
        waiting, history = game.request, list(game.history)
        assert waiting is not None
        assert h.button(h.table_message(), "West: Accept") != old_accept
        await h.forge(bob, old_accept)
        assert "is over" in h.last_reply(bob)
        assert game.request == waiting and game.history == history, "nothing changed"
        await h.press(bob, h.table_message(), "West: Reject")
        await discord_double.settle()
        assert game.request is None and "rejected by West" in latest(h)


HOLD = 4.0  # seconds the workers are kept busy: longer than Discord's 3 s for an answer


async def test_claim_e2e_is_answered_in_time_while_the_workers_are_busy(
        discord_double, tmp_path, fixed_deals):
    """Every worker is busy (a restart's backlog, other tables' computer players) when
    Alice claims: her click is answered at once (deferred on her hand) and the claim's
    outcome arrives once a worker has checked it double dummy (her hand is edited, and
    the claim stands). Bob's click at the table meanwhile does not wait behind the check.
    Answered after 3 s, Discord would have said "This interaction failed" (the double
    records that as a violation)."""
    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, SEED)
        alice, bob = h.user(0), h.user(1)
        table = await h.start_with_people([alice, bob], "single_dummy")
        await to_the_play(h, table, alice, [bob])
        game = table.game
        sure, left, deal = tricks_for(game.claim_position(), 0), game.tricks_left(), game.deal_no
        hand = await h.open_hand(alice)
        await h.press(alice, hand, "Claim…")
        pool = h.bot.tables.turns.thinking
        busy = [asyncio.ensure_future(pool.run(time.sleep, HOLD)) for _ in range(pool.workers)]
        await asyncio.sleep(0.1)  # every worker has taken its piece of work
        label = f"All {left}" if sure == left else str(sure)
        click = await h.driver.click(alice, hand, h.button(h.driver.message(hand), label),
                                     wait=False)
        await click.wait_response(timeout=3.0)
        assert click.deferred and not busy[0].done(), "answered before the check was made"
        mine = await h.driver.click(bob, h.table_message(), h.button(h.table_message(),
                                                                     "My hand"), wait=False)
        await mine.wait_response(timeout=3.0)
        assert game.deal_no == deal, "the claim waits for a worker"
        await asyncio.gather(*busy)
        await discord_double.settle()
        assert game.deal_no == deal + 1, "the claim stood once it was checked"
        shown = h.driver.message(hand).content
        assert f"deal {deal + 1}" in shown, "the deferred answer was finished on the hand"
        ended = [m for m in discord_double.channel_messages(h.channel)
                 if "is over" in str(m.embeds)]
        assert "accepted (it holds against any defence)" in str(ended[-1].embeds)
        assert not discord_double.violations
        assert not h.errors.records


async def test_undo_e2e_requests_are_bounded_and_each_asks_the_opponent_once(
        discord_double, tmp_path, fixed_deals):
    """Alice asks Bob to undo: he rejects; her live hand shows Undo disabled for the wait
    (and says until when), and enabled again when it is over, without a press; she asks
    (Bob is named once on the table) and withdraws (the question leaves the table, and
    the same wait follows); her third request is accepted; a fourth is refused with the
    table's limit, and her hand no longer offers Undo. Nothing new notifies Bob."""
    async with running(discord_double, tmp_path, shared_clock=True) as h:
        fixed_deals(h, SEED)
        alice, bob = h.user(0), h.user(1)
        table = await h.start_with_people([alice, bob], "single_dummy")
        await to_the_play(h, table, alice, [bob])
        game = table.game
        posted = {m.id for m in discord_double.channel_messages(h.channel)}

        async def play_a_card() -> None:
            hand = await h.open_hand(alice)
            await h.driver.click(alice, hand, str(h.moves(hand)[0]["custom_id"]))
            await discord_double.settle()

        async def ask_undo() -> None:
            await h.press(alice, h.hand_of(alice), "Undo")
            await discord_double.settle()

        await play_a_card()
        await ask_undo()
        assert game.request is not None
        def undo_button() -> dict:
            hand = h.driver.message(h.hand_of(alice))
            return next(b for b in h.buttons(hand) if b.get("label") == "Undo")

        async def waits_then_may_ask_again() -> None:
            hand = h.hand_of(alice)
            assert undo_button().get("disabled"), "no active button to be refused"
            assert "you may ask your opponents again <t:" in (
                h.driver.message(hand).content or "")
            await h.later(20)
            assert h.hand_of(alice).id == hand.id, "the same live hand, redrawn"
            assert not undo_button().get("disabled")
            assert "ask your opponents again" not in (
                h.driver.message(h.hand_of(alice)).content or "")

        await h.press(bob, h.table_message(), "West: Reject")
        await discord_double.settle()
        assert game.request is None
        await waits_then_may_ask_again()

        await ask_undo()
        assert game.request is not None
        content = h.table_message().content or ""
        assert content.count(f"<@{bob.id}>") == 1 and "accept or reject" in content
        await h.press(alice, h.hand_of(alice), "Withdraw my request")
        await discord_double.settle()
        assert game.request is None
        assert "accept or reject" not in (h.table_message().content or "")
        await waits_then_may_ask_again()  # a withdrawal waits as a rejection does

        await ask_undo()
        await h.press(bob, h.table_message(), "West: Accept")
        await discord_double.settle()
        assert "accepted" in latest(h) and 0 in game.to_act()
        await play_a_card()
        labels = [b.get("label") for b in h.buttons(h.driver.message(await h.open_hand(alice)))]
        assert "Undo" not in labels
        seat = table.seat_of(alice.id)
        await h.forge(alice, action_id(table.id, seat, table.decisions[seat], "undo"),
                      await h.open_hand(alice))
        assert "asked to undo 3 times this deal" in h.last_reply(alice)
        assert game.request is None
        new = [m for m in discord_double.channel_messages(h.channel) if m.id not in posted]
        assert not [m for m in new if bob.id in m.notified]
        assert not h.errors.records
