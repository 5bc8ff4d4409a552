"""Contract Bridge end to end: four people through a whole deal."""

from __future__ import annotations

from tests.e2e.harness import running
from tests.e2e.privacy import cards_shown


async def test_four_people_play_a_whole_bridge_deal(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        people = list(h.world.users[:4])
        table = await h.open_table(people[0], "bridge")
        await h.seat_people(people[1:])
        await h.press(people[0], h.table_message(), "Start")
        for person in people:
            await h.open_hand(person)
        by_seat = {table.seat_of(p.id): p for p in people}
        game = table.game

        # The auction with the bidding buttons: 1NT, Double, Redouble, three passes.
        opener = by_seat[next(iter(game.to_act()))]
        hand = h.hand_of(opener)
        await h.press(opener, hand, "Bid 1…")
        await h.press(opener, hand, "1NT")
        doubler = by_seat[next(iter(game.to_act()))]
        await h.press(doubler, h.hand_of(doubler), "Double")
        partner = by_seat[next(iter(game.to_act()))]
        await h.press(partner, h.hand_of(partner), "Redouble")
        for _ in range(3):
            caller = by_seat[next(iter(game.to_act()))]
            await h.press(caller, h.hand_of(caller), "Pass")
        view = game.view(None)
        assert view.contract is not None and view.contract.doubled == 2
        declarer = view.declarer
        dummy = (declarer + 2) % 4
        grid = str(h.table_message().embeds)
        assert "1NT" in grid

        # The opening lead comes from declarer's left; dummy is faced only after it.
        leader = by_seat[next(iter(game.to_act()))]
        assert table.seat_of(leader.id) == (declarer + 1) % 4
        dummy_cards = set(game.deal_record().hands[dummy])
        assert not cards_shown(str(h.table_message().embeds), "bridge") & dummy_cards
        await h.act_once(leader)
        await discord_double.settle()
        shown = cards_shown(str(h.table_message().embeds), "bridge")
        # A low singleton reads like a bid to cards_shown (`♣ 3`), so it is not counted.
        low_singletons = {c for c in dummy_cards
                          if [d.suit for d in dummy_cards].count(c.suit) == 1
                          and c.rank.label in "234567"}
        assert shown & dummy_cards >= dummy_cards - low_singletons, \
            "dummy is on the table after the lead"

        # Dummy's owner is refused; declarer plays dummy's cards.
        owner = by_seat[dummy]
        assert game.to_act() == frozenset({declarer})
        card = sorted(game.view(declarer).dummy_hand)[0]
        await h.forge(owner, f"tt:act:{table.id}:{dummy}:{table.decisions[dummy]}:play:{card}")
        assert "partner plays dummy" in h.last_reply(owner)
        declarer_hand = h.driver.message(h.hand_of(by_seat[declarer]))
        offered = {b["custom_id"].rsplit(":", 1)[1] for b in h.action_buttons(declarer_hand)}
        assert offered <= {c.text for c in dummy_cards}, "declarer is offered dummy's cards"
        assert offered

        deal_before = game.deal_no
        await h.play_people(people, until=lambda: game.deal_no > deal_before)
        await discord_double.settle()
        score = next(line for line in
                     h.table_message().embeds[0]["footer"]["text"].splitlines()
                     if line.startswith("Score: "))
        assert "North-South" in score and "East-West" in score  # the totals
        assert game.scores().lines, "the rubber score sheet has the deal"
        ended = [m for m in discord_double.channel_messages(h.channel)
                 if "is over" in str(m.embeds)]
        # the deal's score line is in its end-of-deal post (the live table shows totals)
        assert ended and "Deal 1" in str(ended[-1].embeds)


async def test_a_deal_line_says_when_its_points_include_honours(discord_double, tmp_path,
                                                                 fixed_deals):
    """Fixed deal 7, where North holds four spade honours; four people script the auction
    (the first to bid opens 1♠, everyone else passes: the computer players' bidding would
    make the contract depend on their system). With spades trumps North-South's points for
    the deal include those 100 whoever declares, and the line says so."""
    def open_one_spade_else_pass(actions):
        """In the auction: pass once anyone has bid, else bid 1♠ (opening the first group
        of bids, the one-level, when the hand shows its groups). In the play: the first
        card offered."""
        def ending(tail):
            return next((a for a in actions if str(a["custom_id"]).endswith(tail)), None)

        if any(call.startswith("bid:") for _, call in table.game.history):
            return ending(":pass") or actions[0]
        if (bid := ending(":bid:1S")) is not None:
            return bid
        seat = int(str(actions[0]["custom_id"]).split(":")[3])
        person = next(p for p in people if p.id == table.seats[seat].user_id)
        return next(c for c in h.buttons(h.driver.message(h.hand_of(person)))
                    if str(c.get("custom_id", "")).startswith("tt:pick:")
                    and not str(c["custom_id"]).endswith((":-", ":claim")))

    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, 7)
        people = list(h.world.users[:4])
        table = await h.start_with_people(people, "bridge")
        await h.play_people(people, until=lambda: table.game.deal_no > 1,
                            choose=open_one_spade_else_pass)
        await discord_double.settle()
        ended = next(m for m in discord_double.channel_messages(h.channel)
                     if "deal 1 is over" in str(m.embeds))
        this_deal = next(f["value"] for f in ended.embeds[0]["fields"]
                         if f["name"] == "Points")
        assert "1♠" in ended.embeds[0]["description"].splitlines()[0]
        assert "North-South also score 100 for honours (North)" in this_deal, this_deal
