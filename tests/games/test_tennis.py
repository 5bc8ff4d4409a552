"""Tennis rulings (docs/rules.md "Tennis"), one test per ruling, on stacked, readable deals."""

from __future__ import annotations

import random

import pytest

from bot.games import IllegalAction, create
from bot.games.cards import Suit, card, cards
from bot.games.tennis import Tennis
from bot.games.tennis_rules import bid_value, game_errors
from tests.games.helpers import payload
from tests.games.tennis_helpers import EXAMPLE_HANDS, ExampleGame, seed_with_first_dealer


def test_seed_worked_example_forehand_7_making_9_backhand_3_making_2_is_3_errors():
    assert game_errors(forehand_tricks=9, forehand_bid=7, backhand_tricks=2,
                       backhand_bid=3) == 3
    game = Tennis(seed=seed_with_first_dealer(1))
    example = ExampleGame(game)
    example.play_all()
    summary = game.view(None).previous_deal
    assert summary is not None and summary.deal_no == 1
    assert (summary.forehand_bids[0], summary.backhand_bids[0]) == (card("7C"), card("3S"))
    assert (summary.forehand_tricks, summary.backhand_tricks) == ((9, 1), (2, 0))
    assert summary.errors == (3, 1)  # the dealer bid 0 and 0, and took 1 and 0
    assert game.scores().lines[0].points == (3, 1)
    assert game.scores().totals == (3, 1)
    assert "Forehand bid 7 won 9, Backhand bid 3 won 2" in game.scores().lines[0].note


def test_trump_sequence_is_clubs_diamonds_hearts_spades_notrump_in_each_set():
    game = create("tennis", seed=3)
    rng = random.Random(3)
    seen: dict[int, tuple[int, int, Suit | None]] = {}
    while not game.finished:
        view = game.view(None)
        seen[view.deal_no] = (view.set_no, view.game_no, view.trump)
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal(seat)))
    sequence = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, None]
    assert [seen[n] for n in range(1, 11)] == [
        (s, g, sequence[g - 1]) for s in (1, 2) for g in range(1, 6)]
    assert len(game.scores().lines) == 10


def test_a_fixed_number_of_games_follows_the_same_trump_sequence():
    game = create("tennis", {"deals": 7}, seed=3)
    rng = random.Random(3)
    trumps: dict[int, Suit | None] = {}
    while not game.finished:
        view = game.view(None)
        trumps[view.deal_no] = view.trump
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal(seat)))
    assert list(trumps.values()) == [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES,
                                     None, Suit.CLUBS, Suit.DIAMONDS]
    assert len(game.scores().lines) == 7 and game.result() is not None


def test_first_dealer_is_random_and_the_deal_alternates_every_game():
    firsts = {Tennis(seed=s).dealer for s in range(40)}
    assert firsts == {0, 1}
    assert Tennis(seed=11).dealer == Tennis(seed=11).dealer
    game = Tennis(seed=5)
    rng = random.Random(5)
    dealers = {}
    while not game.finished:
        dealers[game.deal_no] = game.view(None).dealer
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal(seat)))
    assert [dealers[n] for n in range(1, 11)] == [
        dealers[1] if n % 2 else 1 - dealers[1] for n in range(1, 11)]


@pytest.mark.parametrize(("text", "value"), [
    ("AS", 1), ("2H", 2), ("5D", 5), ("9C", 9), ("TS", 10), ("JH", 11), ("QD", 12),
    ("KC", 0)])
def test_bid_values_ace_1_pips_face_value_jack_11_queen_12_king_0(text, value):
    assert bid_value(card(text)) == value


def test_bids_are_simultaneous_and_hidden_until_both_are_in():
    game = Tennis(seed=seed_with_first_dealer(1))
    example = ExampleGame(game)
    assert game.to_act() == frozenset({0, 1})
    assert game.view(0).turn is None and game.view(0).bidding == "Backhand"
    events = game.apply(example.a, "bid:3S")
    assert [e.kind for e in events] == ["action"]
    assert "3" not in events[0].text and "bid:" not in str(payload(events[0]))
    assert game.to_act() == frozenset({example.b})
    assert game.view(example.a).backhand_bids[example.a] == card("3S")  # own bid: seen
    for viewer in (example.b, None):
        assert game.view(viewer).backhand_bids == (None, None)
    with pytest.raises(IllegalAction):
        game.apply(example.a, "bid:4S")
    events = game.apply(example.b, "bid:KD")
    revealed = [e for e in events if e.kind == "bids_revealed"]
    assert len(revealed) == 1
    assert revealed[0].bids == {example.a: "3S", example.b: "KD"}
    assert revealed[0].values == {example.a: 3, example.b: 0}
    for viewer in (0, 1, None):
        bids = game.view(viewer).backhand_bids
        assert (bids[example.a], bids[example.b]) == (card("3S"), card("KD"))
    # The Forehand is bid the same way.
    assert game.view(0).bidding == "Forehand" and game.to_act() == frozenset({0, 1})
    game.apply(example.b, "bid:KS")
    assert game.view(example.a).forehand_bids == (None, None)
    assert game.view(None).forehand_bids == (None, None)
    assert game.view(example.b).forehand_bids[example.b] == card("KS")


def test_a_bid_is_a_card_of_the_hand_being_bid():
    game = Tennis(seed=seed_with_first_dealer(1))
    example = ExampleGame(game)
    with pytest.raises(IllegalAction, match="do not hold"):
        game.apply(example.a, "bid:7C")  # a Forehand card, not yet dealt
    with pytest.raises(IllegalAction, match="not a card"):
        game.apply(example.a, "bid:1S")
    assert sorted(game.legal(example.a)) == sorted(
        "bid:" + c.text for c in cards(EXAMPLE_HANDS["A_back"]))
    assert game.history == []


def test_first_trick_non_dealer_forehand_then_dealer_forehand_then_backhands():
    game = Tennis(seed=seed_with_first_dealer(1))
    example = ExampleGame(game)
    example.bid("Backhand")
    example.bid("Forehand")
    order = []
    for _ in range(4):
        (seat,) = game.to_act()
        order.append((seat, game.view(seat).to_play_hand, game.view(seat).hand_kind))
        example.play_card()
    a, b = example.a, example.b
    assert order == [(a, "Forehand", "Forehand"), (b, "Forehand", "Forehand"),
                     (a, "Backhand", "Backhand"), (b, "Backhand", "Backhand")]


def test_winning_hand_leads_the_next_trick_and_the_same_kind_follows():
    # Checked on every trick of whole random matches.
    for seed in range(4):
        game = Tennis(seed=seed)
        rng = random.Random(seed)
        leader: tuple[int, str] | None = None
        while not game.finished:
            seat = min(game.to_act())
            for event in game.apply(seat, rng.choice(game.legal(seat))):
                if event.kind == "trick":
                    seats = [s for s, _ in event.cards]
                    kinds = list(event.hands)
                    lead_seat, lead_kind = leader or (seats[0], "Forehand")
                    other_kind = "Backhand" if lead_kind == "Forehand" else "Forehand"
                    assert seats == [lead_seat, 1 - lead_seat, lead_seat, 1 - lead_seat]
                    assert kinds == [lead_kind, lead_kind, other_kind, other_kind]
                    leader = (event.winner, event.winner_hand)
                elif event.kind in ("deal_start", "match_end"):
                    leader = None


def test_each_hand_follows_suit_if_that_hand_can():
    game = Tennis(seed=seed_with_first_dealer(1))
    example = ExampleGame(game)
    example.bid("Backhand")
    example.bid("Forehand")
    game.apply(example.a, "play:AC")
    # B's Forehand holds clubs: it must follow.
    assert sorted(game.legal(example.b)) == ["play:2C", "play:3C", "play:4C"]
    with pytest.raises(IllegalAction, match="follow suit"):
        game.apply(example.b, "play:5H")
    game.apply(example.b, "play:2C")
    # A's Backhand has no club, though A's Forehand does: that hand may play anything.
    assert len(game.legal(example.a)) == 12
    game.apply(example.a, "play:QS")
    assert len(game.legal(example.b)) == 12  # B's Backhand: diamonds only


def test_a_trick_is_credited_to_one_hand_which_leads_next():
    game = Tennis(seed=seed_with_first_dealer(1))
    example = ExampleGame(game)
    example.bid("Backhand")
    example.bid("Forehand")
    for _ in range(36):
        example.play_card()
    view = game.view(example.a)
    assert view.forehand_tricks[example.a] == 9 and view.backhand_tricks[example.a] == 0
    events = []
    for _ in range(4):
        events += example.play_card()
    trick = next(e for e in events if e.kind == "trick")
    assert trick.winner == example.a and trick.winner_hand == "Backhand"
    view = game.view(example.a)
    assert view.forehand_tricks[example.a] == 9 and view.backhand_tricks[example.a] == 1
    assert view.last_trick is not None and view.last_trick.winner_hand == "Backhand"
    assert game.to_act() == frozenset({example.a})
    assert view.to_play_hand == "Backhand" and view.hand_kind == "Backhand"


def play_example_match(extra_error_game: int | None = None) -> Tennis:
    game = Tennis(seed=seed_with_first_dealer(0))
    for deal_no in range(1, 11):
        assert game.deal_no == deal_no
        b_bid = "AD" if deal_no == extra_error_game else "KD"
        ExampleGame(game, b_back_bid=b_bid).play_all()
    assert game.finished
    return game


def test_equal_errors_is_a_draw():
    # Each game the non-dealer makes 3 errors and the dealer 1; each deals five times.
    game = play_example_match()
    result = game.result()
    assert result is not None
    assert result.totals == (20, 20)
    assert result.is_draw and result.ranks == (0, 0)
    assert "draw" in result.summary.lower()


def test_fewest_errors_wins_the_match():
    game = play_example_match(extra_error_game=4)  # seat 1 deals game 4 and bids 1, takes 0
    result = game.result()
    assert result is not None
    assert game.scores().lower_wins
    assert result.totals == (20, 21)
    assert result.winner == 0 and result.ranks == (0, 1)
    assert game.view(1).phase == "match_over" and game.to_act() == frozenset()
    with pytest.raises(IllegalAction, match="over"):
        game.apply(0, "play:AS")


def test_a_player_sees_only_the_hand_about_to_play_or_bid():
    game = Tennis(seed=seed_with_first_dealer(1))
    example = ExampleGame(game)
    a, b = example.a, example.b
    backhand_a = set(cards(EXAMPLE_HANDS["A_back"]))
    assert set(game.view(a).hand) == backhand_a and game.view(a).hand_kind == "Backhand"
    assert game.view(None).hand == ()
    example.bid("Backhand")
    forehand_a = set(cards(EXAMPLE_HANDS["A_fore"]))
    assert set(game.view(a).hand) == forehand_a and game.view(a).hand_kind == "Forehand"
    example.bid("Forehand")
    assert game.view(a).hand_kind == "Forehand" and game.view(b).hand_kind == "Forehand"
    example.play_card()  # A's Forehand serves; A's Backhand plays next in this trick
    assert game.view(a).hand_kind == "Backhand"
    assert set(game.view(a).hand) == backhand_a - {card("3S")}
    example.play_card()
    example.play_card()  # both of A's cards are down: A still holds the Backhand
    assert game.view(a).hand_kind == "Backhand" and game.view(b).hand_kind == "Backhand"
    example.play_card()  # A's Forehand won: both pick up their Forehands for the next trick
    assert game.view(a).hand_kind == "Forehand" and game.view(b).hand_kind == "Forehand"
