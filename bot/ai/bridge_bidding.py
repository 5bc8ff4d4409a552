"""A simple natural bidding system for the Contract Bridge computer player.

Points: high-card points (A 4, K 3, Q 2, J 1) plus one for each card beyond four in a
suit. "Balanced" is 4-3-3-3, 4-4-3-2 or 5-3-3-2. The system, in the order it is applied:

Opening (nobody has bid yet)
- 15-17 HCP balanced: 1NT. 20-21 HCP balanced: 2NT.
- 12+ points: one of the longest suit; a major needs five cards, otherwise the better
  minor (the longer; diamonds with 4-4, clubs with 3-3). Equal five-card suits: the higher.
- Otherwise pass (so 6 HCP without a long suit passes).

Responses (partner opened, we have not bid yet)
- Under 6 points: pass.
- Partner opened 1NT (2NT): add our points to partner's 16 (20.5): 25+ gives 3NT, or four
  of a six-card major (three of a five-card major); 23-24 gives 2NT; 33+ HCP gives 6NT; with
  less, a six-card suit is bid at the two level to play, else pass.
- Partner opened a suit: with a fit (3+ cards in partner's major, 4+ in a minor) raise by
  points counted with shortness: 6-9 to two, 10-12 to three, 13+ to game (four of a major;
  3NT over a minor). Without a major fit: a new suit at the one level with 4+ cards and 6+
  points; a five-card suit at the two level with 10+; else 1NT with 6-9, 2NT with 10-12
  balanced, 3NT with 13-15 balanced.

Overcalls (the opponents opened, our side has not bid)
- 1NT with 15-18 HCP balanced and a stopper in their suit; a good five-card suit (two of
  the top three honours or three of the top five) with 8-16 points at the cheapest level,
  the two level only with 10+; otherwise pass (no takeout doubles).

Later (rebids and competition): the partnership's strength is our points plus an estimate
of partner's from the calls partner made (an opening 13, 1NT 16, a simple raise or 1NT
response 7.5, a limit raise 11, a new suit at the one level 9, at the two level 12, an
overcall 11, a pass 5; over our 1NT: a two-level suit 4, 2NT 8, game 10); the shown
lengths (an opened major 5, a minor 3, a response or new suit 4, a rebid suit one more, a
raise 3 or 4) give the fit. The strain is a major with 8+ cards together, else notrump,
else a minor with 8+ (or our own six-card suit, else the longest); the level is game with
25+ (3NT, 4 of a major) or 29+ for five of a minor, bid at once; small slam 33+ and grand
slam 37+ counted cautiously (our high-card points only and partner's estimate less two, so
slams stay rare). Below game we raise our side's strain to two with 21-22 and to three
with 23-24 (an invitation), and otherwise only bid to correct to a better strain at the
cheapest level (when partner's strain holds fewer than seven cards together).

Doubles: only of an opponents' suit contract at the two level or higher when we hold four
of their trumps with two of the top three honours and our side has 20+ points; of 3NT or
higher with 17+ HCP. We never redouble. Otherwise pass.

Ties between equally good strains are broken by the player's seeded generator; the rest
is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.games.bridge_auction import (
    BID_CALLS,
    CALL_DOUBLE,
    CALL_PASS,
    CALL_REDOUBLE,
    Bid,
    Call,
    Strain,
)
from bot.games.cards import Card, Suit

from .bridge_eval import (
    HandSummary,
    has_stopper,
    is_good_suit,
    summarize,
    support_points,
    top_honours,
)

ME, LHO, PARTNER, RHO = 0, 1, 2, 3
NT = Strain.NOTRUMP
PASS = CALL_PASS
DOUBLE = CALL_DOUBLE
# Every call by its action text (parsing texts is slow in a bot's inner loop).
CALLS: dict[str, Call] = {c.text: c for c in (CALL_PASS, CALL_DOUBLE, CALL_REDOUBLE,
                                              *BID_CALLS)}


def bid_call(level: int, strain: Strain) -> Call:
    return Call.of(Bid(level, strain))


@dataclass(slots=True)
class PartnerModel:
    """What partner's calls have shown: a point estimate and minimum suit lengths."""

    points: float = 0.0
    lengths: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    balanced: bool = False
    has_bid: bool = False
    last_strain: Strain | None = None
    last_level: int = 0

    def expected_length(self, suit: Suit) -> float:
        """Shown length, or an even share of the unshown cards."""
        shown = self.lengths[suit]
        if shown:
            return shown
        unshown = [i for i in range(4) if not self.lengths[i]]
        rest = 13 - sum(self.lengths)
        return min(rest / len(unshown), 3.0) if unshown else 0.0


@dataclass(slots=True)
class AuctionReading:
    """The auction seen from the caller: relations are ME, LHO, PARTNER, RHO."""

    calls: list[tuple[int, Call]]
    partner: PartnerModel
    last_bid: Bid | None
    last_bidder: int | None  # relation
    doubled: int
    opened_by: int | None  # relation of the first bidder
    my_bids: list[Bid]


def read_auction(calls: Sequence[tuple[int, Call]], me: int, seats: int = 4) -> AuctionReading:
    """Interpret the calls made so far (seats clockwise, `me` the caller's seat)."""
    rel = [((seat - me) % seats, call) for seat, call in calls]
    model = PartnerModel()
    last_bid: Bid | None = None
    last_bidder: int | None = None
    doubled = 0
    opened_by: int | None = None
    my_bids: list[Bid] = []
    partner_bids: list[Bid] = []
    for who, call in rel:
        if call.kind == "double":
            doubled = 1
            continue
        if call.kind == "redouble":
            doubled = 2
            continue
        if call.kind == "pass":
            if who == PARTNER and not model.has_bid and not model.points:
                model.points = 6.0 if opened_by is None else 5.0
            continue
        bid = call.bid
        assert bid is not None
        if who == PARTNER:
            _learn(model, bid, partner_bids, my_bids, opened_by)
            partner_bids.append(bid)
        elif who == ME:
            my_bids.append(bid)
        if opened_by is None:
            opened_by = who
        last_bid, last_bidder, doubled = bid, who, 0
    return AuctionReading(rel, model, last_bid, last_bidder, doubled, opened_by, my_bids)


def _learn(model: PartnerModel, bid: Bid, before: list[Bid], mine: list[Bid],
           opened_by: int | None) -> None:
    """Update the partner model with one of partner's bids."""
    strain, level = bid.strain, bid.level
    suit = strain.trump
    first = not before
    if first:
        if opened_by is None:  # partner opened
            if strain == NT:
                model.points, model.balanced = (16.0 if level == 1 else 20.5), True
                model.lengths = [2, 2, 2, 2]
            else:
                model.points = 13.0
        elif mine:  # partner's first bid answers ours (our opening or overcall)
            my_suit = mine[0].strain
            if my_suit == NT:  # over our notrump: sign-off, invitation or game
                model.points = (4.0 if level <= 2 and strain != NT else
                                8.0 if level <= 2 else 10.0)
                if mine[0].level == 2:
                    model.points = 6.0
            elif strain == my_suit:
                model.points = {2: 7.5, 3: 11.0}.get(level, 14.0)
            elif strain == NT:
                model.points, model.balanced = {1: 7.5, 2: 11.0}.get(level, 14.0), True
            else:
                model.points = 9.0 if level == 1 else 12.0
        else:  # an overcall, or a bid in competition
            model.points = 16.5 if strain == NT else 11.0
    elif strain != NT and bid.level >= 4 and model.points < 12:
        model.points += 2.0
    if suit is not None:
        if any(b.strain == strain for b in before):
            model.lengths[suit] = max(model.lengths[suit] + 1, 6)
        elif mine and any(b.strain == strain for b in mine):
            model.lengths[suit] = max(model.lengths[suit], 3 if suit >= Suit.HEARTS else 4)
        elif first and opened_by is None:
            model.lengths[suit] = 5 if suit >= Suit.HEARTS else 3
        else:
            model.lengths[suit] = max(model.lengths[suit], 5 if opened_by not in (None, ME)
                                      and first else 4)
    model.has_bid = True
    model.last_strain, model.last_level = strain, level


class Bidder:
    """Chooses a call for one hand; `rng` breaks ties between equal strains."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, hand: Sequence[Card], calls: Sequence[tuple[int, Call]], me: int,
               legal: Sequence[Call]) -> Call:
        reading = read_auction(calls, me)
        call = self._decide(summarize(hand), hand, reading, legal)
        return call if call in legal else PASS

    def _decide(self, h: HandSummary, hand: Sequence[Card], r: AuctionReading,
                legal: Sequence[Call]) -> Call:
        if r.last_bid is None:
            return opening(h)
        if r.last_bidder in (LHO, RHO):
            dbl = penalty_double(h, hand, r)
            if dbl is not None and dbl in legal:
                return dbl
        if not r.partner.has_bid and not r.my_bids:
            if r.opened_by in (LHO, RHO):
                return overcall(h, hand, r)
            return PASS
        if r.opened_by == PARTNER and not r.my_bids:
            call = response(h, hand, r)
            if call in legal:
                return call
        return self.place_contract(h, hand, r, legal)

    def place_contract(self, h: HandSummary, hand: Sequence[Card], r: AuctionReading,
                       legal: Sequence[Call]) -> Call:
        """Rebids and competition: bid the contract the partnership's strength asks for."""
        p = r.partner
        total = h.points + p.points
        fits = {suit: h.lengths[suit] + p.expected_length(suit) for suit in Suit}
        strain = self._strain(h, fits, total)
        # Slams need the points for sure: our HCP only, and partner's estimate less two.
        sure = h.hcp + p.points - 2
        level = target_level(strain, total, sure)
        last = r.last_bid
        assert last is not None
        ours = r.last_bidder in (ME, PARTNER)
        if level >= (3 if strain == NT else 4 if strain >= Strain.HEARTS else 5):
            if ours and last.strain == strain and last.level >= level:
                return PASS
            if ours and last.level >= level and sure < 33:
                return PASS  # we are already in game
            target = bid_call(level, strain)
            # Bid the game (or slam) at once rather than creeping up a level a round.
            return target if target.bid is not None and target.bid > last and target in legal \
                else PASS
        # Below game: correct to a better strain only when partner's strain misfits.
        current = last.strain if ours else None
        if current is not None and (current in (NT, strain) or fits[Suit(int(current))] >= 7):
            if total >= 21 and last.level < level and current == strain:
                return _cheapest_up_to(strain, level, last, legal)
            return PASS
        if not ours and total < 20:
            return PASS
        return _cheapest_up_to(strain, min(level, 2 if total < 23 else 3), last, legal)

    def _strain(self, h: HandSummary, fits: dict[Suit, float], total: float) -> Strain:
        majors = [s for s in (Suit.SPADES, Suit.HEARTS) if fits[s] >= 8]
        if majors:
            best = max(fits[s] for s in majors)
            tied = [s for s in majors if fits[s] == best]
            return Strain(int(self.rng.choice(tied) if len(tied) > 1 else tied[0]))
        shortest = min(h.lengths)
        minors = [s for s in (Suit.DIAMONDS, Suit.CLUBS) if fits[s] >= 8]
        if shortest >= 2 and (total < 29 or not minors):
            return NT
        if minors:
            return Strain(int(max(minors, key=lambda s: (fits[s], s))))
        long_suit = h.longest_suits()[0]
        if h.lengths[long_suit] >= 6 or shortest < 2:
            return Strain(int(long_suit))
        return NT


def target_level(strain: Strain, total: float, sure: float | None = None) -> int:
    """The level the partnership's points support in `strain` (`sure`: the cautious count
    that slams need; defaults to `total`)."""
    sure = total if sure is None else sure
    if sure >= 37:
        return 7
    if sure >= 33:
        return 6
    if strain == NT:
        return 3 if total >= 25 else 2 if total >= 23 else 1
    if strain >= Strain.HEARTS:
        return 4 if total >= 25 else 3 if total >= 23 else 2
    return 5 if total >= 29 else 3 if total >= 23 else 2


def _cheapest_up_to(strain: Strain, level: int, last: Bid, legal: Sequence[Call]) -> Call:
    """The cheapest legal bid in `strain` no higher than `level`, else pass."""
    for lv in range(1, level + 1):
        call = bid_call(lv, strain)
        if call.bid is not None and call.bid > last and call in legal:
            return call
    return PASS


def opening(h: HandSummary) -> Call:
    """The opening bid, or pass."""
    if h.balanced and 15 <= h.hcp <= 17:
        return bid_call(1, NT)
    if h.balanced and 20 <= h.hcp <= 21:
        return bid_call(2, NT)
    if h.points < 12:
        return PASS
    return bid_call(1, Strain(int(opening_suit(h))))


def opening_suit(h: HandSummary) -> Suit:
    fives = [s for s in (Suit.SPADES, Suit.HEARTS) if h.lengths[s] >= 5]
    longest = max(h.lengths)
    majors = [s for s in fives if h.lengths[s] == longest]
    if majors:
        return majors[0]
    minors = [s for s in (Suit.DIAMONDS, Suit.CLUBS) if h.lengths[s] == longest]
    if minors and longest >= 5:
        return minors[0]
    if fives:
        return fives[0]
    d, c = h.lengths[Suit.DIAMONDS], h.lengths[Suit.CLUBS]
    if d > c or (d == c and d >= 4):
        return Suit.DIAMONDS
    return Suit.CLUBS


def response(h: HandSummary, hand: Sequence[Card], r: AuctionReading) -> Call:
    """Our first bid after partner's opening."""
    if h.points < 6:
        return PASS
    opened = next(c.bid for who, c in r.calls if c.bid is not None and who == PARTNER)
    assert opened is not None
    if opened.strain == NT:
        return _respond_to_nt(h, 16.0 if opened.level == 1 else 20.5, opened.level)
    suit = Suit(int(opened.strain))
    major = suit >= Suit.HEARTS
    if h.lengths[suit] >= (3 if major else 4):
        points = h.hcp + support_points(hand, suit)
        if major:
            return bid_call(2 if points <= 9 else 3 if points <= 12 else 4, opened.strain)
        if points >= 13:
            return bid_call(3, NT)
        if not any(h.lengths[m] >= 4 for m in (Suit.HEARTS, Suit.SPADES)):
            return bid_call(2 if points <= 9 else 3, opened.strain)
    one_level = [s for s in Suit if s > suit and h.lengths[s] >= 4]
    if one_level:
        five = [s for s in one_level if h.lengths[s] >= 5]
        pick = max(five, key=lambda s: (h.lengths[s], s)) if five else min(one_level)
        return bid_call(1, Strain(int(pick)))
    if h.points >= 10:
        two_level = [s for s in Suit if s < suit and h.lengths[s] >= 5]
        if two_level:
            return bid_call(2, Strain(int(max(two_level, key=lambda s: (h.lengths[s], s)))))
    if h.hcp >= 13 and h.balanced:
        return bid_call(3, NT)
    if h.hcp >= 10 and h.balanced:
        return bid_call(2, NT)
    return bid_call(1, NT)


def _respond_to_nt(h: HandSummary, partner: float, level: int) -> Call:
    total = h.points + partner
    major = max((Suit.SPADES, Suit.HEARTS), key=lambda s: (h.lengths[s], s))
    if h.hcp + partner >= 33:
        return bid_call(6, NT)
    if total >= 25:
        if h.lengths[major] >= 6:
            return bid_call(4, Strain(int(major)))
        if h.lengths[major] == 5 and level == 1:
            return bid_call(3, Strain(int(major)))
        return bid_call(3, NT)
    if total >= 23 and level == 1:
        return bid_call(2, NT)
    long_suit = h.longest_suits()[0]
    if h.lengths[long_suit] >= 6 and level == 1:
        return bid_call(2, Strain(int(long_suit)))
    return PASS


def overcall(h: HandSummary, hand: Sequence[Card], r: AuctionReading) -> Call:
    """Our side's first bid after the opponents opened."""
    last = r.last_bid
    assert last is not None
    if (15 <= h.hcp <= 18 and h.balanced and last < Bid(1, NT)
            and (last.strain == NT or has_stopper(hand, Suit(int(last.strain))))):
        return bid_call(1, NT)
    if not 8 <= h.points <= 16:
        return PASS
    good = [s for s in h.longest_suits() if is_good_suit(hand, s)]
    for suit in good:
        strain = Strain(int(suit))
        level = last.level if strain > last.strain else last.level + 1
        if level == 1 or (level == 2 and h.points >= 10):
            return bid_call(level, strain)
    return PASS


def penalty_double(h: HandSummary, hand: Sequence[Card], r: AuctionReading) -> Call | None:
    """Double the opponents' contract when we hold a trump stack (rare)."""
    last = r.last_bid
    if last is None or r.doubled:
        return None
    if last.strain == NT:
        return DOUBLE if last.level >= 3 and h.hcp >= 17 else None
    suit = Suit(int(last.strain))
    stack = h.lengths[suit] >= 4 and top_honours(hand, suit, 3) >= 2
    if stack and last.level >= 2 and h.points + r.partner.points >= 20:
        return DOUBLE
    return None

