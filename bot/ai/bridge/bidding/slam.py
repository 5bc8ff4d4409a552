"""Slam bidding: Roman Key Card Blackwood and the king ask, and the answer to a
quantitative 4NT.

With a trump suit agreed, 4NT asks for key cards: the four aces and the king of trumps.
The answers (0314): 5♣ 0 or 3, 5♦ 1 or 4, 5♥ 2 without the queen of trumps, 5♠ 2 with
it. The asker stops in five when two key cards are missing, bids the small slam when one
is, and with all five (and the queen) asks for kings with 5NT: 6♣ 0, 6♦ 1, 6♥ 2, 6♠ 3
kings outside trumps; the grand slam needs every king.
"""

from __future__ import annotations

from bot.games.bridge_auction import Bid, Strain
from bot.games.cards import Suit

from ...core.hand_range import HandRange
from .constructive import L
from .rules import SUIT_NAMES, TELLS_NOTHING, Hand, Rule, Table, Test

ANSWERS = ("5C", "5D", "5H", "5S")
KING_ANSWERS = ("6C", "6D", "6H", "6S")
KEY_CARDS = 5  # four aces and the king of trumps
GRAND = 37  # points together for a grand slam with every key card and king


def key_cards(hand: Hand, trump: Suit) -> int:
    return sum(1 for c in hand.cards if c.rank == 14 or (c.suit == trump and c.rank == 13))


def trump_queen(hand: Hand, trump: Suit) -> bool:
    return any(c.suit == trump and c.rank == 12 for c in hand.cards)


def side_kings(hand: Hand, trump: Suit) -> int:
    """Kings outside the trump suit (the king of trumps is a key card)."""
    return sum(1 for c in hand.cards if c.rank == 13 and c.suit != trump)


def key_card_answers(trump: Suit) -> Table:
    """Partner asked with 4NT; `trump` is the agreed suit."""
    name = SUIT_NAMES[trump]

    # Key cards and queens are honours, and a void may be in any side suit: no range.
    def count(*allowed: int) -> Test:
        words = " or ".join(str(n) for n in allowed if n < KEY_CARDS)
        return Test(f"{words} key cards", lambda h: key_cards(h, trump) in allowed,
                    TELLS_NOTHING)

    def two(queen: bool) -> Test:
        return Test(f"2 key cards {'and' if queen else 'without'} the queen of {name}",
                    lambda h: key_cards(h, trump) == 2 and trump_queen(h, trump) == queen,
                    TELLS_NOTHING)

    answer = "Roman Key Card answer"
    return [
        Rule("5C", answer, when=count(0, 3, 5)),
        Rule("5D", answer, when=count(1, 4)),
        Rule("5H", answer, when=two(False)),
        Rule("5S", answer, when=two(True)),
    ]


def partner_key_cards(answer: str, mine: int, partner: HandRange) -> int:
    """The key cards partner's answer shows. 5♣ (0 or 3) and 5♦ (1 or 4) are told apart
    by what we hold (five in all) and by partner's strength: an opening hand or better
    (12+ points shown) holds the higher number when it can, and so does a partner
    whose lower number would leave four key cards missing (we would not have asked)."""
    low = ANSWERS.index(answer) if answer in ANSWERS[:2] else 2
    high = low + 3
    if answer in ANSWERS[2:] or mine + high > KEY_CARDS:
        return low
    return high if partner.min_hcp >= 12 or mine + low <= 1 else low


def _queen_shown(answer: str) -> bool | None:
    return {"5H": False, "5S": True}.get(answer)


def after_key_cards(trump: Suit, answer: str, partner: HandRange) -> Table:
    """We asked with 4NT and partner answered `answer`."""
    t = L[trump]
    strain = Strain(int(trump))
    five_is_below = Bid(5, strain) > Bid.parse(answer)

    def total(h: Hand) -> int:
        mine = key_cards(h, trump)
        return mine + partner_key_cards(answer, mine, partner)

    def queen(h: Hand) -> bool:
        return trump_queen(h, trump) or _queen_shown(answer) is True

    # Key cards are the partnership's: no range of one hand.
    rules = [
        Rule("5NT", "asks for kings",
             when=Test("all five key cards, the queen of trumps and grand-slam values",
                       lambda h: total(h) == KEY_CARDS and queen(h)
                       and h.hcp + partner.min_hcp >= 33, TELLS_NOTHING)),
        Rule(f"6{t}", "small slam",
             when=Test("at most one key card missing", lambda h: total(h) >= KEY_CARDS - 1,
                       TELLS_NOTHING)),
    ]
    missing_two = Test("two key cards missing", lambda h: total(h) <= KEY_CARDS - 2,
                       TELLS_NOTHING)
    if answer == f"5{t}":
        rules.append(Rule("pass", "stops in five", when=missing_two))
    elif five_is_below:
        rules.append(Rule(f"5{t}", "stops in five", when=missing_two))
    else:
        rules.append(Rule(f"6{t}", "small slam, partner's answer passed five",
                          when=missing_two))
    return rules


def king_answers(trump: Suit) -> Table:
    """Partner has every key card and asked for kings with 5NT."""
    def kings(n: int) -> Test:
        return Test(f"{n} king{'' if n == 1 else 's'} outside trumps",
                    lambda h: side_kings(h, trump) == n,
                    TELLS_NOTHING)

    return [Rule(call, "", when=kings(n))
            for n, call in enumerate(KING_ANSWERS)]


def after_kings(trump: Suit, answer: str, partner: HandRange) -> Table:
    """We asked for kings and partner answered: the grand slam with every king and
    enough points, else the small slam (6NT when the answer passed six of trumps)."""
    t = L[trump]
    strain = Strain(int(trump))
    shown = KING_ANSWERS.index(answer)

    def grand(h: Hand) -> bool:
        return side_kings(h, trump) + shown >= 3 and h.hcp + partner.min_hcp >= GRAND - 4

    small = f"6{t}" if Bid(6, strain) > Bid.parse(answer) else "6NT"
    return [Rule(f"7{t}", "grand slam: every key card and every king",
                 when=Test("all the kings", grand, TELLS_NOTHING, said=False)),
            Rule(small, "small slam: a king is missing")]


def quantitative_answers(hi_share: int) -> Table:
    """Partner raised our notrump to 4NT: slam with the top of our range."""
    return [Rule("6NT", "accepts the slam invitation", hcp=(hi_share, 37)),
            Rule("pass", "declines the slam invitation")]
