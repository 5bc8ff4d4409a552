"""The Tennis computer player: legal from its view alone, steering tricks, beating random."""

from __future__ import annotations

from bot.ai import Player, RandomPlayer, make_player
from bot.ai.tennis.basic import TennisPlayer
from bot.ai.tennis.estimate import best_bid, expected_tricks
from bot.games.cards import Suit, cards
from bot.games.tennis import Tennis
from bot.games.tennis_rules import bid_value
from tests.games.tennis_helpers import ExampleGame, seed_with_first_dealer


def example_at(cards_played: int) -> ExampleGame:
    """The worked example, bid and played up to the given number of cards."""
    example = ExampleGame(Tennis(seed=seed_with_first_dealer(1)))
    example.bid("Backhand")
    example.bid("Forehand")
    for _ in range(cards_played):
        example.play_card()
    return example


def decide(example: ExampleGame) -> str:
    (seat,) = example.game.to_act()
    return TennisPlayer(seed=1).choose(example.game.view(seat), example.game.legal(seat))


def test_a_hand_at_its_bid_dumps_its_highest_losing_card():
    example = example_at(1)  # A served the ace of clubs; B's Forehand bid 0
    assert decide(example) == "play:4C"


def test_a_hand_short_of_its_bid_wins_the_trick():
    example = example_at(38)  # trick 10: A's Backhand (bid 3, none yet) to play to a heart
    assert decide(example) in ("play:AH", "play:KH")


def test_a_hand_that_made_its_bid_leads_low_to_give_the_lead_away():
    example = example_at(28)  # trick 8: A's Forehand has its 7 tricks and leads
    view = example.game.view(example.a)
    assert view.forehand_tricks[example.a] == 7 and view.hand_kind == "Forehand"
    assert decide(example) == "play:2H"


def test_the_bid_card_matches_the_estimate_of_the_rest_of_the_hand():
    hand = cards("AS KS QS 2S AH 3H 4H 5D 6D 7D 8C 9C TC")
    bid = best_bid(hand, Suit.SPADES)
    rest = [c for c in hand if c is not bid]
    assert abs(expected_tricks(rest, Suit.SPADES) - bid_value(bid)) <= 1
    weak = cards("2S 3S 4H 5H 6H 7D 8D 9D 2C 3C 4C 5C KC")
    assert best_bid(weak, Suit.SPADES).text == "KC"  # little to win: the king bids 0


def play_match(seed: int, players: list[Player]) -> tuple[int, ...]:
    game = Tennis(seed=seed)
    while not game.finished:
        for seat in sorted(game.to_act()):
            game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    result = game.result()
    assert result is not None
    return result.totals


def test_tennis_player_makes_fewer_errors_than_a_random_player():
    smart = dumb = 0
    for seed in range(4):
        smart_seat = seed % 2
        players: list[Player] = [RandomPlayer(seed), RandomPlayer(seed)]
        players[smart_seat] = TennisPlayer(seed)
        totals = play_match(seed, players)
        smart += totals[smart_seat]
        dumb += totals[1 - smart_seat]
    assert smart * 2 < dumb


def test_tennis_player_plays_legally_from_the_view_alone():
    # A fresh player for every decision has no memory: it must still choose legally.
    game = Tennis(seed=9)
    while not game.finished:
        seat = min(game.to_act())
        legal = game.legal(seat)
        choice = TennisPlayer(seed=len(game.history)).choose(game.view(seat), legal)
        assert choice in legal
        game.apply(seat, choice)
    assert TennisPlayer.kind == "tennis-basic"


def test_the_basic_tennis_player_is_registered():
    player = make_player("tennis", seed=3, kind="tennis-basic")
    assert isinstance(player, TennisPlayer) and player.kind == "tennis-basic"
