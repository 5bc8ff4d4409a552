"""One test per Spades ruling in docs/rules.md, on stacked PBN deals."""

from __future__ import annotations

import pytest

from bot.games import IllegalAction, InvalidOptions, create
from bot.games.cards import parse_hand
from bot.games.spades import Spades
from tests.games.helpers import payload
from tests.games.spades_helpers import ONE_SUIT_EACH, bid_round, kinds, pack, play_deal, stacked

# East holds the ace of spades and twelve hearts; North the other spades and the ace of
# hearts. With North dealing, East leads first.
ACE_OF_SPADES_WITH_HEARTS = ("N:KQJT98765432.A.. A.KQJT98765432.. "
                             "..AKQJT98765432. ...AKQJT98765432")


def test_class_attributes_and_options():
    assert (Spades.NAME, Spades.TITLE, Spades.SEATS) == ("spades", "Spades", 4)
    assert Spades.SEAT_NAMES == ("North", "East", "South", "West")
    assert Spades.SIDES == ((0, 2), (1, 3))
    assert Spades.SIDE_NAMES == ("North-South", "East-West")
    game = create("spades", seed=3)
    assert game.options == {"target": 500, "bags_penalty": False}
    for bad in ({"target": 50}, {"target": 5000}, {"bags_penalty": "yes"}, {"trump": 1}):
        with pytest.raises(InvalidOptions):
            create("spades", bad, seed=3)


def test_first_dealer_is_seeded_random():
    dealers = {Spades(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert all(Spades(seed=s).dealer == Spades(seed=s).dealer for s in range(10))


def test_every_hand_starts_face_down():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    for seat in range(4):
        view = game.view(seat)
        assert view.hand == ()
        assert view.hand_sizes == (13, 13, 13, 13)
        assert not any(view.looked)
    game.apply(2, "look")  # out of turn: looking is allowed at any time
    assert game.view(2).hand == tuple(parse_hand("..AKQJT98765432."))
    assert game.view(0).hand == ()
    assert game.view(None).hand == ()
    assert game.view(1).looked == (False, False, True, False)


def test_to_act_is_seat_on_turn_plus_everyone_who_has_not_looked():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    assert game.to_act() == {0, 1, 2, 3}
    assert game.view(0).turn == 1
    assert game.legal(0) == ["look"]
    assert game.legal(1) == ["look", "bid:double_nil"]
    game.apply(1, "look")
    assert game.legal(1) == ["bid:nil"] + [f"bid:{n}" for n in range(1, 14)]
    game.apply(3, "look")
    assert game.to_act() == {0, 1, 2}
    assert game.legal(3) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(3, "bid:2")


def test_bidding_order_from_dealers_left():
    for dealer in range(4):
        game = stacked(ONE_SUIT_EACH, dealer=dealer)
        for seat in range(4):
            game.apply(seat, "look")
        order = []
        for _ in range(4):
            (seat,) = game.to_act()
            order.append(seat)
            assert game.view(None).turn == seat
            wrong = (seat + 1) % 4
            with pytest.raises(IllegalAction):
                game.apply(wrong, "bid:2")
            game.apply(seat, "bid:2")
        assert order == [(dealer + 1 + i) % 4 for i in range(4)]
        assert game.view(0).phase == "play"
        assert game.to_act() == {(dealer + 1) % 4}  # dealer's left leads


def test_bid_needs_a_look_first_except_double_nil():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    with pytest.raises(IllegalAction, match="Look at your hand first"):
        game.apply(1, "bid:3")
    with pytest.raises(IllegalAction, match="Bid Nil, Double Nil or a number"):
        game.apply(1, "bid:14")
    assert game.history == []


def test_double_nil_only_before_looking():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    game.apply(1, "look")
    assert "bid:double_nil" not in game.legal(1)
    with pytest.raises(IllegalAction, match="only be bid before looking"):
        game.apply(1, "bid:double_nil")
    game.apply(1, "bid:2")
    with pytest.raises(IllegalAction, match="South's turn to bid"):
        game.apply(3, "bid:double_nil")  # not looked, but not on turn either
    assert game.legal(2) == ["look", "bid:double_nil"]
    game.apply(2, "bid:double_nil")
    assert game.view(None).bids == (None, 2, -1, None)


def test_double_nil_bidder_sees_their_hand_after_bidding():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    assert game.view(1).hand == ()
    game.apply(1, "bid:double_nil")
    assert game.view(1).hand == tuple(parse_hand(".AKQJT98765432.."))
    assert game.view(1).looked[1]
    assert 1 not in game.to_act()


def test_spades_not_led_before_broken_unless_only_spades():
    game = stacked(ACE_OF_SPADES_WITH_HEARTS, dealer=0)
    bid_round(game, {0: "6", 1: "1", 2: "nil", 3: "nil"})
    assert game.to_act() == {1}
    assert "play:AS" not in game.legal(1)
    with pytest.raises(IllegalAction, match="Spades are not broken yet: lead another suit"):
        game.apply(1, "play:AS")
    for seat, card in ((1, "KH"), (2, "2D"), (3, "2C"), (0, "AH")):
        game.apply(seat, f"play:{card}")
    # North won with the ace of hearts and now holds only spades: may lead one unbroken.
    view = game.view(0)
    assert not view.spades_broken
    assert game.legal(0) == [f"play:{c}S" for c in "KQJT98765432"]
    events = game.apply(0, "play:2S")
    assert "spades_broken" in kinds(events)


def test_spades_broken_by_a_discard_may_be_led_after():
    deal = ("N:KQJT98765.AK.2.2 432..AKQJT98765. "
            ".QJT98765432.43. A...AKQJT9876543")
    game = stacked(deal, dealer=3)  # North leads
    bid_round(game, {0: "3", 1: "2", 2: "nil", 3: "2"})
    assert game.legal(0) == ["play:AH", "play:KH", "play:2D", "play:2C"]
    events = []
    for seat, card in ((0, "AH"), (1, "2S"), (2, "2H"), (3, "3C")):
        events = game.apply(seat, f"play:{card}")
    assert events[-1].winner == 1  # East trumped the void suit
    assert game.view(None).spades_broken
    assert "play:4S" in game.legal(1)  # East still holds diamonds, yet may lead a spade
    game.apply(1, "play:4S")


def test_must_follow_suit():
    game = stacked(ACE_OF_SPADES_WITH_HEARTS, dealer=0)
    bid_round(game, {0: "6", 1: "1", 2: "nil", 3: "nil"})
    game.apply(1, "play:KH")
    game.apply(2, "play:2D")
    game.apply(3, "play:2C")
    assert game.legal(0) == ["play:AH"]
    with pytest.raises(IllegalAction, match="You must follow suit: you hold a heart"):
        game.apply(0, "play:KS")
    with pytest.raises(IllegalAction, match="You do not hold"):
        game.apply(0, "play:2H")


def test_spades_are_always_trump():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    bid_round(game, {0: "13", 1: "nil", 2: "nil", 3: "nil"})
    events = []
    for seat, card in ((1, "AH"), (2, "AD"), (3, "AC"), (0, "2S")):
        events = game.apply(seat, f"play:{card}")
    trick = next(e for e in events if e.kind == "trick")
    assert payload(trick) == {"winner": 0,
                              "cards": ((1, "AH"), (2, "AD"), (3, "AC"), (0, "2S"))}
    assert game.view(None).last_trick.winner == 0
    assert game.to_act() == {0}  # the winner leads


def test_nil_is_scored_alone():
    # North takes all 13 tricks. North nil is set (-100) and those tricks do not help
    # South's 1; East's nil is made (+100) while West's 2 is set on West's own tricks.
    game = stacked(ONE_SUIT_EACH, dealer=0)
    bid_round(game, {0: "nil", 1: "nil", 2: "1", 3: "2"})
    events = play_deal(game)
    end = next(e for e in events if e.kind == "deal_end")
    assert end.tricks == (13, 0, 0, 0)
    assert end.lines[0].points == (-100 - 10, 100 - 20)
    assert end.bags == (0, 0)  # a nil bidder's tricks are not bags


def test_set_contract():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    bid_round(game, {0: "4", 1: "2", 2: "3", 3: "1"})  # E-W bid 3 and take none
    play_deal(game)
    assert game.scores().lines[0].points == (70 + 6, -30)


def test_overtricks():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    bid_round(game, {0: "4", 1: "2", 2: "3", 3: "1"})
    play_deal(game)
    assert game.scores().lines[0].points[0] == 10 * 7 + 6
    assert game.scores().detail.bags == (6, 0)
    assert game.view(2).bags == (6, 0)


@pytest.mark.parametrize("penalty", [False, True])
def test_bags_option(penalty):
    game = stacked(ONE_SUIT_EACH, dealer=0, bags_penalty=penalty)
    bid_round(game, {0: "3", 1: "1", 2: "3", 3: "1"})  # N-S take 13 on 6: 7 bags
    play_deal(game)
    game.stack_deck(pack(ONE_SUIT_EACH))
    bid_round(game, {0: "3", 1: "1", 2: "3", 3: "1"})  # 14 bags: crosses 10
    play_deal(game)
    lines = game.scores().lines
    assert lines[0].points == (67, -20)
    assert lines[1].points == ((67 - 100) if penalty else 67, -20)
    assert game.scores().detail.bags == (14, 0)
    assert game.scores().totals == (134 - (100 if penalty else 0), -40)


def test_dealer_rotation():
    game = stacked(ONE_SUIT_EACH, dealer=2)
    bid_round(game, {0: "13", 1: "1", 2: "nil", 3: "1"})
    events = play_deal(game)
    start = next(e for e in events if e.kind == "deal_start")
    assert payload(start) == {"deal_no": 2, "dealer": 3}
    assert (game.deal_no, game.dealer) == (2, 3)
    assert game.view(None).turn == 0  # West deals, North bids first
    for _ in range(3):
        for seat in range(4):
            game.apply(seat, "look")
        bid_round_looked(game)
        dealer = game.dealer
        play_deal(game)
        assert game.dealer == (dealer + 1) % 4


def bid_round_looked(game: Spades) -> None:
    for _ in range(4):
        (seat,) = game.to_act()
        game.apply(seat, "bid:1")


def test_side_reaching_the_target_wins():
    game = stacked(ONE_SUIT_EACH, dealer=0, target=100)
    bid_round(game, {0: "13", 1: "1", 2: "nil", 3: "1"})
    events = play_deal(game)
    assert kinds(events)[-2:] == ["deal_end", "match_end"]
    result = game.result()
    assert game.finished and result is not None
    assert result.totals == (230, -20) and result.ranks == (0, 1)
    assert result.winner == 0
    assert game.view(None).phase == "match_over"
    assert game.to_act() == frozenset()
    with pytest.raises(IllegalAction, match="over"):
        game.apply(0, "look")


def test_both_sides_over_the_target_higher_wins():
    game = stacked(ONE_SUIT_EACH, dealer=0, target=100)
    bid_round(game, {0: "13", 1: "nil", 2: "nil", 3: "nil"})  # 230 against 200
    play_deal(game)
    result = game.result()
    assert result is not None
    assert result.totals == (230, 200)
    assert result.ranks == (0, 1)
    assert "North-South win 230 to 200" in result.summary


def test_tied_at_the_target_plays_another_hand():
    game = stacked(ONE_SUIT_EACH, dealer=0, target=100)
    # N-S: North 3 on 13 tricks (40) and South nil (+100): 140.
    # E-W: East double nil (+200) and West 6, set (-60): 140.
    bid_round(game, {0: "3", 1: "double_nil", 2: "nil", 3: "6"})
    events = play_deal(game)
    assert game.scores().totals == (140, 140)
    assert not game.finished and game.result() is None
    assert "match_end" not in kinds(events) and "deal_start" in kinds(events)
    game.stack_deck(pack(ONE_SUIT_EACH))
    bid_round(game, {0: "13", 1: "nil", 2: "nil", 3: "nil"})
    play_deal(game)
    result = game.result()
    assert result is not None and result.totals == (370, 340) and result.winner == 0


def test_below_the_target_play_goes_on():
    game = stacked(ONE_SUIT_EACH, dealer=0, target=300)
    bid_round(game, {0: "13", 1: "nil", 2: "nil", 3: "nil"})
    play_deal(game)
    assert not game.finished
    assert game.deal_no == 2


def test_spectators_see_no_hands_until_the_deal_ends():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    bid_round(game, {0: "4", 1: "2", 2: "3", 3: "1"})
    assert game.view(None).hand == ()
    assert game.view(None).previous_deal is None
    play_deal(game)
    summary = game.view(None).previous_deal
    assert summary is not None
    assert summary.deal_no == 1
    assert summary.hands[1] == tuple(parse_hand(".AKQJT98765432.."))
    assert summary.bids == (4, 2, 3, 1)
    assert summary.tricks_won == (13, 0, 0, 0)
    assert len(summary.tricks) == 13
    assert summary.lines == (game.scores().lines[0],)


def test_events_name_seats_and_cards():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    events = bid_round(game, {0: "4", 1: "nil", 2: "3", 3: "double_nil"})
    texts = [e.text for e in events if e.kind == "action"]
    assert texts[:2] == ["East looks at their hand.", "East bids Nil."]
    assert "West bids Double Nil." in texts
    complete = events[-1]
    assert complete.kind == "bids_complete"
    assert payload(complete) == {"bids": ("4", "nil", "3", "double_nil"), "leader": 1}
    events = game.apply(1, "play:TH")
    assert events[0].text == "East plays 10♥."
    assert payload(events[0]) == {"action": "play:TH"}


def test_deal_record_and_stacking():
    game = stacked(ONE_SUIT_EACH, dealer=1)
    record = game.deal_record()
    assert record.pbn == ONE_SUIT_EACH
    assert (record.deal_no, record.dealer) == (1, 1)
    with pytest.raises(ValueError):
        game.stack_deck(pack(ONE_SUIT_EACH)[:51])


def test_unknown_actions_are_refused_readably():
    game = stacked(ONE_SUIT_EACH, dealer=0)
    with pytest.raises(IllegalAction, match="not a Spades action"):
        game.apply(1, "pass")
    game.apply(1, "look")
    with pytest.raises(IllegalAction, match="bidding"):
        game.apply(1, "play:AH")
