"""Slam bidding: Roman Key Card Blackwood and the king ask, the answer to a quantitative
4NT, and cue bids after a slam try.

With a trump suit agreed, 4NT asks for key cards: the four aces and the king of trumps.
The answers (0314): 5♣ 0 or 3, 5♦ 1 or 4, 5♥ 2 without the queen of trumps, 5♠ 2 with
it, 5NT 2 and a void (over which the asker with the king of trumps and one ace missing
bids the grand slam). The asker stops in five when two key cards are missing, bids the
small slam when one is; with all five, the queen of trumps and 9+ trumps together bids the
grand slam (the queen not known, in a major over 5♣/5♦, the cheapest other suit asks for
it: the trump suit denies it, the bid above shows it); with all five and the queen but
8 trumps asks for kings with 5NT: 6♣ 0, 6♦ 1, 6♥ 2, 6♠ 3 kings outside trumps; the grand
slam needs every king.

After 1M-2NT (Jacoby)-3M, opener's slam try, responder shows the cheapest first-round
control (the ace or a void) below game, or signs off in game; opener asks for key cards
over a cue bid with extras, else signs off.

Cue bids likewise once both of us have bid a major below game and slam is near, but not
near enough for a key-card ask (28–29 points together): the cheapest first-round control;
partner asks for key cards with enough, cue-bids back with some, or signs off in game.

Splinters: a double jump in a new suit over one of a major (1♥–4♣) shows four trumps, a
singleton or void in the suit bid and game values. Opener counts the high cards that work
opposite the shortness (its ace does, its king and queen are wasted): with 17+ asks for
key cards, with 15–16 cue-bids a first-round control, else signs off in game; over the
cue bid the splinter asks with its top (13–14), else signs off.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.games.bridge_auction import ALL_BIDS, Bid, Strain
from bot.games.cards import Suit

from ...core.hand_range import HandRange
from .captain import ASK, expected_points, game_level
from .constructive import L
from .rules import SUIT_NAMES, TELLS_NOTHING, Hand, Rule, Table, Test, all_of

ANSWERS = ("5C", "5D", "5H", "5S")
VOID_ANSWER = "5NT"  # 2 key cards and a void
KING_ANSWERS = ("6C", "6D", "6H", "6S")
KEY_CARDS = 5  # four aces and the king of trumps
# After 1M-2NT (Jacoby)-3M: opener has 16+, responder 13+. Either asks for key cards with
# this many support points (33 together with the other's minimum), else responder
# cue-bids a control with the game values it has shown.
SLAM_TRY_ASK = (18, 37)
SLAM_TRY_CUE = (13, 37)
GRAND = 37  # points together for a grand slam with every key card and king
# Trumps together for a grand slam with every key card and the queen: the trumps draw
# in three rounds, and the long hand's cards past three (or dummy's ruffs) and the four
# aces cover the missing side kings.
GRAND_FIT = 9


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

    void = Test(f"2 key cards and a void outside {name}", lambda h: key_cards(h, trump) == 2
                and any(h.lengths[s] == 0 for s in Suit if s != trump), TELLS_NOTHING)
    answer = "Roman Key Card answer"
    return [
        Rule(VOID_ANSWER, answer, when=void),
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
    name = SUIT_NAMES[trump]
    strain = Strain(int(trump))
    five_is_below = Bid(5, strain) > Bid.parse(answer)

    def total(h: Hand) -> int:
        mine = key_cards(h, trump)
        return mine + partner_key_cards(answer, mine, partner)

    def queen(h: Hand) -> bool:
        return trump_queen(h, trump) or _queen_shown(answer) is True

    def long_fit(h: Hand) -> bool:
        return h.lengths[trump] + partner.min_len[trump] >= GRAND_FIT

    # Key cards and the trumps together are the partnership's: no range of one hand.
    rules = [
        Rule(f"7{t}", "grand slam",
             when=Test(f"all five key cards, the queen of {name} and {GRAND_FIT}+ trumps "
                       "together", lambda h: total(h) == KEY_CARDS and queen(h)
                       and long_fit(h), TELLS_NOTHING)),
        Rule("5NT", "asks for kings",
             when=Test("all five key cards, the queen of trumps and grand-slam values",
                       lambda h: total(h) == KEY_CARDS and queen(h)
                       and h.hcp + partner.min_hcp >= 33, TELLS_NOTHING)),
        Rule(f"6{t}", "small slam",
             when=Test("at most one key card missing", lambda h: total(h) >= KEY_CARDS - 1,
                       TELLS_NOTHING)),
    ]
    ask = queen_ask(trump, answer)
    if ask is not None:
        rules.insert(1, Rule(ask, f"asks for the queen of {name}", when=Test(
            f"all five key cards, {GRAND_FIT}+ trumps together, the queen not known",
            lambda h: total(h) == KEY_CARDS and not queen(h) and long_fit(h),
            TELLS_NOTHING)))
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


def queen_ask(trump: Suit, answer: str) -> str | None:
    """The queen ask over a 5♣/5♦ answer: the cheapest bid in a suit other than the
    trumps (a major's: a minor's asks would pass five of it)."""
    if answer not in ANSWERS[:2] or trump < Suit.HEARTS:
        return None
    return next(b.text for b in ALL_BIDS if b > Bid.parse(answer)
                and b.strain.trump not in (None, trump))


def queen_answers(trump: Suit, ask: str) -> tuple[str, str]:
    """The answers to the queen ask: without the queen, the cheapest bid in trumps; with
    it, the bid above that."""
    strain = Strain(int(trump))
    without = next(b for b in ALL_BIDS if b > Bid.parse(ask) and b.strain == strain)
    return without.text, next(b.text for b in ALL_BIDS if b > without)


def queen_ask_answers(trump: Suit, ask: str) -> Table:
    """Partner asked for the queen of trumps (`ask`) after our 5♣/5♦ answer."""
    name = SUIT_NAMES[trump]
    without, with_queen = queen_answers(trump, ask)
    return [Rule(with_queen, "",
                 when=Test(f"the queen of {name}", lambda h: trump_queen(h, trump),
                           TELLS_NOTHING)),
            Rule(without, f"no queen of {name}")]


def after_queen_answer(trump: Suit, ask: str, answer: str) -> Table:
    """We hold every key card between us and asked for the queen (only with a long
    fit): the grand slam with it, the small slam without."""
    t = L[trump]
    without, with_queen = queen_answers(trump, ask)
    if answer == with_queen:
        return [Rule(f"7{t}", f"grand slam: every key card, the queen of "
                     f"{SUIT_NAMES[trump]} and {GRAND_FIT}+ trumps together")]
    small = f"6{t}"
    return [Rule("pass" if without == small else small,
                 "small slam: the queen of trumps is missing")]


def after_void_answer(trump: Suit) -> Table:
    """We asked with 4NT and partner showed 2 key cards and a void (5NT). Holding the
    other key cards save one ace, and the king of trumps ourselves, the grand slam: the
    void is taken to cover the missing ace (a void opposite our own ace takes no trick)."""
    t = L[trump]

    def grand(h: Hand) -> bool:
        return key_cards(h, trump) == 2 and any(c.suit == trump and c.rank == 13
                                                for c in h.cards)

    return [Rule(f"7{t}", "grand slam: partner's void covers the one missing ace",
                 when=Test("the king of trumps and one ace, so one ace missing", grand,
                           TELLS_NOTHING, said=False)),
            Rule(f"6{t}", "small slam: at most one key card missing")]


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


def first_round_control(hand: Hand, suit: Suit) -> bool:
    """The ace or a void: the first round of the suit is ours."""
    return hand.lengths[suit] == 0 or any(c.suit == suit and c.rank == 14 for c in hand.cards)


def _control(suit: Suit) -> Test:
    return Test(f"the ace or a void in {SUIT_NAMES[suit]}",
                lambda h: first_round_control(h, suit), TELLS_NOTHING)


def game_bid(trump: Suit) -> Bid:
    strain = Strain(int(trump))
    return Bid(game_level(strain), strain)


def _cues(trump: Suit, last: Bid, says: str, skip: Collection[Suit] = (),
          pts: tuple[int, int] | None = None, values: Test | None = None) -> list[Rule]:
    """Cue bids between `last` and game, cheapest first: each shows the ace or a void in
    its suit (so a cue bid skips the suits it holds no control in), with `pts` support
    points or `values`. `skip`: suits with no cue bid (one partner has shown short, or
    our side has bid: a bid there would read as the agreed suit)."""
    out = []
    for bid in ALL_BIDS:
        side = bid.strain.trump
        if last < bid < game_bid(trump) and side is not None and side != trump \
                and side not in skip:
            assert side is not None
            when = _control(side) if values is None else all_of(values, _control(side))
            out.append(Rule(bid.text, f"cue bid, {says}", pts=pts, trump=trump if pts else None,
                            when=when, forcing=True))
    return out


def cue_bids(trump: Suit, last: Bid, ask: tuple[int, int], cue: tuple[int, int],
             bid: Collection[Suit] = ()) -> Table:
    """Trumps agreed below game and partner tried for slam: ask for key cards with `ask`
    support points, else show the cheapest first-round control with `cue` (a cue bid
    skips the suits it holds no control in, and those in `bid`), else sign off in game."""
    game = game_bid(trump)
    rules = [Rule("4NT", "Roman Key Card Blackwood, slam values opposite the slam try",
                  pts=ask, trump=trump)] if last < Bid(4, Strain.NOTRUMP) else []
    rules += _cues(trump, last, "slam interest", skip=bid, pts=cue)
    rules.append(Rule(game.text, "signs off in game: no control to show, or a minimum"))
    return rules


def agreed_cues(trump: Suit, last: Bid, pts: tuple[int, int], bid: Collection[Suit]) -> Table:
    """Partner has just agreed our major below game: with `pts` support points (slam
    interest short of a key-card ask) show the cheapest first-round control in a suit
    our side has not bid (`bid`); otherwise the captain goes on (4NT with more, game with
    less)."""
    return _cues(trump, last, f"slam interest in {SUIT_NAMES[trump]}, short of a key-card "
                 "ask", skip=bid, pts=pts)


DOUBLER_ASK = 17  # support points of a takeout doubler who asks opposite a game answer
DOUBLER_ASK_THREE = 19  # high-card points to ask with three trumps (partner shows four)


def after_game_answer(trump: Suit, answer: HandRange) -> Table:
    """We doubled for takeout and partner answered with game in `trump` (`answer`: what
    it showed): a doubler with extras asks for key cards (a game answer by choice holds
    9–15 points, so slam is there opposite its top; two missing key cards stop in five);
    otherwise the captain (a pass). A forced answer at the four level over a pre-empt
    (0–11) may hold nothing: then the ask needs `ASK` together with what it shows."""
    name = SUIT_NAMES[trump]
    short = int(ASK - expected_points(answer))
    four, three = max(DOUBLER_ASK, short), max(DOUBLER_ASK_THREE, short)

    def extras(h: Hand) -> bool:
        return (h.lengths[trump] >= 4 and h.support(trump) >= four) or h.hcp >= three

    return [Rule("4NT", "Roman Key Card Blackwood, extras opposite partner's game",
                 lengths={trump: (3, 13)},
                 when=Test(f"{four}+ support points and 4+ {name}, or "
                           f"{three}+ high-card points", extras, TELLS_NOTHING))]


# Splinters: 1♥–3♠/4♣/4♦ and 1♠–4♣/4♦/4♥, a double jump in a new suit, show 4+ trumps,
# a singleton or void in the suit bid and game values (no more: with more, Jacoby 2NT).
SPLINTER_HCP = (11, 14)
SPLINTER_TOP = 13  # high-card points of a splinter that goes on over opener's cue bid
# Opener's high-card points outside partner's short suit (its ace counts: it is no
# loser there, the king and queen are wasted) to ask for key cards, or to cue-bid.
SPLINTER_ASK = 17
SPLINTER_CUE = 15


def splinter_level(opened: Suit, short: Suit) -> int:
    """The level of a double jump in `short` over one of `opened`."""
    return 3 if short > opened else 4


def splinter_suit(opening: Bid, response: Bid) -> Suit | None:
    """The short suit a response to one of a major shows, if the response is a splinter."""
    opened, short = opening.strain.trump, response.strain.trump
    if opening.level != 1 or opened not in (Suit.HEARTS, Suit.SPADES) or short is None \
            or short == opened or response.level != splinter_level(opened, short):
        return None
    return short


def splinters(opened: Suit) -> Table:
    """Responses to one of a major (`opened`) that show a fit and a short suit."""
    return [Rule(f"{splinter_level(opened, short)}{'CDHS'[short]}",
                 "splinter, forcing to game", hcp=SPLINTER_HCP,
                 lengths={opened: (4, 13), short: (0, 1)},
                 when=_short(short), forcing=True)
            for short in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
            if short != opened]


def _short(suit: Suit) -> Test:
    """A void, or a singleton other than the king or queen: those points would be wasted
    opposite opener's cards in the suit, so the hand is weaker than a splinter says."""
    return Test(f"no singleton king or queen in {SUIT_NAMES[suit]}",
                lambda h: not any(c.suit == suit and c.rank in (12, 13) for c in h.cards),
                TELLS_NOTHING, said=False)


def working_hcp(hand: Hand, short: Suit) -> int:
    """High-card points that pull their weight opposite a shortness in `short`: its ace
    (no loser there) counts, its king, queen and jack are wasted."""
    return hand.hcp - sum(c.rank - 10 for c in hand.cards if c.suit == short
                          and 11 <= c.rank <= 13)


def _working(short: Suit, lo: int, hi: int = 37) -> Test:
    where = SUIT_NAMES[short]
    words = f"{lo}+" if hi >= 37 else f"{lo}–{hi}"
    return Test(f"{words} points outside {where} (its ace counts)",
                lambda h: lo <= working_hcp(h, short) <= hi, TELLS_NOTHING)


def splinter_answers(trump: Suit, short: Suit, last: Bid) -> Table:
    """Partner splintered in `short` (bid `last`): opener counts the points that work
    opposite the shortness: key cards with plenty, a cue bid with some, else game."""
    where = SUIT_NAMES[short]
    rules = [Rule("4NT", "Roman Key Card Blackwood", when=_working(short, SPLINTER_ASK))]
    rules += _cues(trump, last, "slam interest opposite the splinter", skip=(short,),
                   values=_working(short, SPLINTER_CUE, SPLINTER_ASK - 1))
    rules.append(Rule(game_bid(trump).text, f"signs off in game: a minimum, or values wasted "
                      f"in {where}"))
    return rules


def after_splinter_cue(trump: Suit) -> Table:
    """We splintered and opener cue-bid: with the top of the splinter, key cards."""
    return [Rule("4NT", "Roman Key Card Blackwood, a maximum splinter", hcp=(SPLINTER_TOP, 37)),
            Rule(game_bid(trump).text, "signs off in game: a minimum splinter")]


def accept_sign_off() -> Table:
    """Partner signed off in game after our slam try (or theirs): we pass."""
    return [Rule("pass", "accepts the sign-off")]


def after_cue_bid(trump: Suit, ask: tuple[int, int]) -> Table:
    """We tried for slam and partner cue-bid a control: ask for key cards with `ask`
    support points, else sign off in game."""
    return [Rule("4NT", "Roman Key Card Blackwood, partner's control was what we needed",
                 pts=ask, trump=trump),
            Rule(game_bid(trump).text, "signs off in game: not enough for slam")]
