"""Tennis vocabulary and pure rules: hands, bid values, the trump sequence, errors.

Each of the two players holds two hands, a Backhand and a Forehand. Inside the engine a
hand is a small int, `hand = kind * 2 + seat` (kind 0 = Backhand, 1 = Forehand), which is
also the order the pack is dealt in blocks of 13:

    block 0: seat 0's Backhand, block 1: seat 1's Backhand,
    block 2: seat 0's Forehand, block 3: seat 1's Forehand.

With that numbering the four hands of a trick led by hand `h` play in the order
`h, h ^ 1, h ^ 2, h ^ 3`: the leader's hand, the other player's hand of the same kind,
the leader's other hand, the other player's other hand.
"""

from __future__ import annotations

from .cards import Card, Rank, Suit

BACKHAND = 0
FOREHAND = 1
KIND_NAMES: tuple[str, str] = ("Backhand", "Forehand")

HAND_SIZE = 13  # dealt to each hand; one card of it becomes the bid
TRICKS_PER_GAME = 12
GAMES_PER_SET = 5
SETS = 2
GAMES_PER_MATCH = GAMES_PER_SET * SETS

# Trump of game 1..5 of each set (None: notrump).
TRUMP_SEQUENCE: tuple[Suit | None, ...] = (
    Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, None)


def hand_id(seat: int, kind: int) -> int:
    return kind * 2 + seat


def seat_of(hand: int) -> int:
    return hand & 1


def kind_of(hand: int) -> int:
    return hand >> 1


def play_order(leader: int) -> tuple[int, int, int, int]:
    """The four hands of a trick in playing order, given the leading hand."""
    return (leader, leader ^ 1, leader ^ 2, leader ^ 3)


def bid_value(card: Card) -> int:
    """Tricks a bid card asks for: A=1, 2-10 face value, J=11, Q=12, K=0."""
    rank = card.rank
    if rank == Rank.ACE:
        return 1
    if rank == Rank.KING:
        return 0
    return int(rank)


def set_and_game(deal_no: int) -> tuple[int, int]:
    """(set 1..2, game 1..5 within the set) of the match's game number 1..10."""
    return (deal_no - 1) // GAMES_PER_SET + 1, (deal_no - 1) % GAMES_PER_SET + 1


def trump_of(deal_no: int) -> Suit | None:
    return TRUMP_SEQUENCE[(deal_no - 1) % GAMES_PER_SET]


def trump_name(trump: Suit | None) -> str:
    return "notrump" if trump is None else trump.title.lower()


def hand_errors(tricks: int, bid: int) -> int:
    return abs(tricks - bid)


def game_errors(forehand_tricks: int, forehand_bid: int,
                backhand_tricks: int, backhand_bid: int) -> int:
    """One player's errors for a game: how far each hand missed its bid, added up."""
    return hand_errors(forehand_tricks, forehand_bid) + hand_errors(backhand_tricks,
                                                                    backhand_bid)
