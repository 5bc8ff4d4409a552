"""Single Dummy Bridge, Tennis and Bid Fair end to end."""

from __future__ import annotations

from tests.e2e.harness import running
from tests.e2e.privacy import cards_shown, visible_now


async def test_two_people_play_single_dummy_with_the_dummy_choice(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        south, west = h.user(0), h.user(1)
        table = await h.open_table(south, "single_dummy")
        await h.seat_people([west])
        await h.press(south, h.table_message(), "Start")
        by_seat = {0: south, 1: west}
        game = table.game
        for person in (south, west):
            await h.open_hand(person)
        opener = by_seat[next(iter(game.to_act()))]
        await h.press(opener, h.hand_of(opener), "Bid 1…")
        await h.press(opener, h.hand_of(opener), "1NT")
        other = by_seat[next(iter(game.to_act()))]
        await h.press(other, h.hand_of(other), "Pass")
        chooser = by_seat[next(iter(game.to_act()))]
        assert chooser is opener
        hand = h.hand_of(chooser)
        await h.press(chooser, hand, "Take the hidden dummy")
        view = game.view(None)
        assert view.dummies_faced
        public = visible_now(view)
        record = game.deal_record()
        dummies = set(record.hands[2]) | set(record.hands[3])
        assert dummies <= public, "both dummies are public once chosen"
        await discord_double.settle()
        shown = cards_shown(str(h.table_message().embeds), "single_dummy")
        # Every dummy card is on the table message, but the guard's reader passes over a
        # lone low card in a suit (it could be a bid like "♥ 3"): expect the others.
        readable = {c for hand in (record.hands[2], record.hands[3]) for c in hand
                    if c.rank > 7 or sum(1 for d in hand if d.suit == c.suit) > 1}
        assert readable <= shown & dummies
        deal = game.deal_no
        await h.play_people([south, west], until=lambda: game.deal_no > deal or game.finished)
        assert game.scores().lines


async def test_two_people_play_tennis_with_secret_bids(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        first, second = h.user(0), h.user(1)
        table = await h.open_table(first, "tennis")
        await h.seat_people([second])
        await h.press(first, h.table_message(), "Start")
        game = table.game
        assert game.to_act() == frozenset({0, 1}), "both bid at once"
        await h.open_hand(first)
        await h.open_hand(second)
        await h.act_once(first)
        bid_card = game.history[-1][1].split(":")[1]
        await discord_double.settle()
        for text in (str(h.table_message().embeds), h.driver.message(h.hand_of(second)).content):
            assert bid_card not in {c.text for c in cards_shown(text, "tennis")}, \
                "a bid stays hidden until both are in"
        await h.act_once(second)
        await discord_double.settle()
        assert game.view(None).backhand_bids[0] is not None, "revealed once both are in"

        def one_hand_only() -> None:
            for seat, person in ((0, first), (1, second)):
                msg = h.hand_of(person)
                if msg is None:
                    continue
                shown = cards_shown(h.driver.message(msg).content or "", "tennis")
                view = game.view(seat)
                # The seat's view holds one of its hands (the engine's tests prove it); the
                # message must show nothing beyond that view and the public table.
                allowed = visible_now(view) | visible_now(game.view(None))
                assert shown <= allowed, f"shows {shown - allowed} beyond the seat's view"

        deal = game.deal_no
        for _ in range(80):
            if game.deal_no > deal:
                break
            for person in (first, second):
                await h.act_once(person)
                one_hand_only()
        assert game.deal_no > deal
        assert game.scores().lines[0].points


async def test_one_person_and_a_bot_play_a_bid_fair_deal(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        table = await h.open_table(alice, "bidfair")
        await h.press(alice, h.table_message(), "Add bot")
        await h.press(alice, h.table_message(), "Start")
        game = table.game
        await h.play_people([alice], until=lambda: game.deal_no > 1 or game.finished)
        kinds = {action.split(":")[0] for seat, action in game.history if seat == 0}
        assert "crib" in kinds
        assert kinds & {"up", "down", "pass"}
        assert "play" in kinds
        assert game.scores().lines


async def test_a_table_can_open_in_its_own_thread(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice, bob = h.user(0), h.user(1)
        await h.slash(alice, "play", "bidfair", thread=True, target=1)
        assert "at least 100" in h.last_reply(alice)
        await h.slash(alice, "play", "tennis", thread=True)
        await discord_double.settle()
        threads = [c for c in discord_double.state.channels.values()
                   if c.parent_id == h.channel.id]
        assert len(threads) == 1
        thread = threads[0]
        table = h.bot.tables.in_channel(thread.id)
        assert table is not None and h.bot.tables.in_channel(h.channel.id) is None
        lobby = discord_double.message(table.message_id)
        assert lobby.channel_id == thread.id
        await h.press(bob, lobby, "Join")
        assert table.seat_of(bob.id) == 1
        # The parent channel stays free for another table.
        await h.open_table(bob, "spades")
        assert h.bot.tables.in_channel(h.channel.id).game_name == "spades"
