"""Named textbook positions: what the sampling and double-dummy player does where a bridge
player knows the right card. Each is a short ending (every hand the same length) seen by
declarer (its hand and dummy) or a defender; the hidden hands are dealt by the sampler
from the cards it cannot see, so the answer must hold over the layouts, as in real play."""

from __future__ import annotations

import random

from bot.ai.core.card_search import Decision, search
from bot.ai.core.hand_range import ANY_HAND, HandRange
from bot.ai.core.layouts import Knowledge
from bot.games.cards import Card, Suit, cards, parse_hand
from tests.ai.helpers import steady

N, E, S, W = 0, 1, 2, 3


def decide(hands: dict[int, str], visible: set[int], leader: int, trick: str = "",
           trump: Suit | None = None, need: int = 0,
           ranges: dict[int, HandRange] | None = None) -> Card:
    """The searched card of the seat to play. `hands` are the cards still held (S.H.D.C),
    `trick` the cards already played to this trick from `leader` on; the side to play
    values the tricks it takes from here, and `need` of them much more (the contract).
    `ranges`: what the auction said about a hand (checked with its card in the trick)."""
    held = {seat: parse_hand(text) for seat, text in hands.items()}
    played = cards(trick) if trick else []
    to_play = (leader + len(played)) % 4
    in_trick: list[tuple[Card, ...]] = [(), (), (), ()]
    for k, card in enumerate(played):
        in_trick[(leader + k) % 4] = (card,)
    said = tuple((ranges or {}).get(s, ANY_HAND) for s in range(4))
    known = tuple(tuple(held[s]) if s in visible else None for s in range(4))
    unseen = tuple(c for s in range(4) if s not in visible for c in held[s])
    led = played[0].suit if played else None
    mine = held[to_play]
    legal = tuple(c for c in mine if c.suit == led) or tuple(mine)
    value = tuple(t + (100.0 if t >= need else 0.0) for t in range(14))
    decision = Decision(
        know=Knowledge(known=known, unseen=unseen, sizes=tuple(len(held[s]) for s in range(4)),
                       played=tuple(in_trick), ranges=said),
        trump=trump, leader=leader, trick=tuple(played), legal=legal, value=value,
        tricks_won=0)
    outcome = search(decision, steady(5.0), random.Random(7))
    assert outcome is not None
    return outcome.card


def test_a_finesse_is_taken_with_the_odds() -> None:
    # Notrump. Dummy (N) led its last heart, the 8; East followed low. Declarer (S) holds
    # AKJ96 with no way back to dummy: six hearts are out, so the queen will not drop; the
    # jack wins whenever East holds the queen.
    card = decide({N: "-.-.5432.-", S: "-.AKJ96.-.-", E: "-.Q7.-.KQ", W: "-.T542.-.J"},
                  visible={N, S}, leader=N, trick="8H 3H", need=3)
    assert card == Card.parse("JH")


def test_declarer_holds_up_the_ace_in_notrump() -> None:
    # West, who overcalled spades (five or more), leads the king; declarer must knock out
    # the ace of diamonds. Taking the ace at once lets East, on lead with the diamond ace,
    # return a spade to West's long suit; ducking leaves East without a spade.
    overcall = HandRange(min_len=(0, 0, 0, 5))
    card = decide({N: "5.-.T9.AK", S: "A32.-.KQJ.-", E: "8.432.A.-", W: "QJT9.5.-.-"},
                  visible={N, S}, leader=W, trick="KS 4S 7S", need=4, ranges={W: overcall})
    assert card == Card.parse("2S")


def test_declarer_draws_trumps_before_cashing_side_winners() -> None:
    # Spades are trumps; the defenders hold three trumps and six hearts. Cashing the heart
    # winners first lets a defender with a short heart ruff; drawing trumps first wins all.
    card = decide({N: "543.-.-.AKQ", S: "AKQ2.AK.-.-", E: "JT.QJT.4.-", W: "9.987.32.-"},
                  visible={N, S}, leader=S, trump=Suit.SPADES, need=6)
    assert card.suit == Suit.SPADES


def test_dummy_ducks_to_keep_communication_with_its_long_suit() -> None:
    # Notrump. Dummy's AK5432 of diamonds has no entry outside the suit and declarer led
    # one of two small diamonds: winning the first round and giving up the third strands
    # dummy's long cards; ducking it keeps a diamond in declarer's hand to reach them.
    card = decide({N: "-.-.AK5432.-", S: "A432.-.7.-", E: "KQJ.-.QJT.-", W: "T987.-.9.-"},
                  visible={N, S}, leader=S, trick="6D 8D", need=4)
    assert card.suit == Suit.DIAMONDS and card.rank < 10


def test_third_hand_wins_over_the_king_with_the_ace_from_aq75() -> None:
    # East, a defender, holds AQ75 of clubs; partner (W) led the 2 and dummy (N) played the
    # king. The ace wins the trick and keeps the queen as the master (the queen would lose).
    card = decide({N: "-.-.2.J3", E: "-.-.-.AQ75", S: "-.-.43.86", W: "-.-.-.T94"},
                  visible={E, N}, leader=W, trick="2C KC", need=0)
    assert card == Card.parse("AC")
