"""The bidding system: which table speaks in each situation of the auction, choosing a
call for a hand, and reading any auction (people's calls too) into what each hand holds
and a short explanation of every call."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.games.bridge_auction import CALL_BY_TEXT, Bid, Call, Strain
from bot.games.cards import Card, Suit

from ...core.hand_range import HandRange
from . import competition as comp
from . import constructive as con
from . import notrump as nt
from . import slam
from .captain import expected_points, natural_phrase, place
from .context import LHO, ME, PARTNER, RHO, Context
from .part_score import doubles_into_rubber, rubber_rules
from .rubber import Score
from .rules import Hand, Rule, Table, first_fit, hull, rules_for

NT = Strain.NOTRUMP
OPENING_TABLE = con.opening_table()
NT_RANGES = {1: (15, 17), 2: (20, 21)}


def _suit(bid: Bid) -> Suit | None:
    return bid.strain.trump


def situation(ctx: Context) -> tuple[str, Table | None]:
    """The name of the situation and its table (None: the captain places the contract)."""
    name, table = _situation(ctx)
    if table is None:
        return name, None
    return name, table


def _situation(ctx: Context) -> tuple[str, Table | None]:
    opening = ctx.opening
    if opening is None:
        return "opening", OPENING_TABLE
    mine, partners = ctx.bids(ME), ctx.bids(PARTNER)
    all_bids = ctx.bids()
    last = ctx.last_bid
    assert last is not None
    quiet = ctx.bids(LHO) == [] and ctx.bids(RHO) == []  # no interference
    p_last = partners[-1] if partners else None
    # Slam conventions first: they read the same whoever opened.
    slam_table = _slam_situation(ctx, mine, p_last, last)
    if slam_table is not None:
        return slam_table
    opener = ctx.opener
    if opener == PARTNER and not mine:
        return _responding(ctx, opening, last, quiet)
    if opener == ME and len(mine) == 1 and len(partners) == 1 and quiet:
        return _opener_rebid(opening, partners[0])
    if opener == PARTNER and len(mine) == 1 and len(partners) == 2 and quiet:
        return _responder_rebid(opening, mine[0], partners[1])
    if opener == ME and len(mine) == 2 and len(partners) == 2 and quiet:
        return _opener_third(opening, partners[0], mine[1], partners[1])
    if opener in (LHO, RHO) and not mine:
        their = ctx.their_suits()
        p_calls = ctx.actions(PARTNER)
        my_calls = ctx.called(ME)
        if (not p_calls and not my_calls and len(all_bids) == 1) or (
                not p_calls and len(all_bids) == 1 and len(ctx.calls) >= 3
                and ctx.calls[-1][1].kind == "pass" and ctx.calls[-2][1].kind == "pass"):
            balancing = len(all_bids) >= 1 and len(ctx.calls) >= 3 and \
                ctx.calls[-1][1].kind == "pass" and ctx.calls[-2][1].kind == "pass"
            return ("balancing" if balancing else "overcall"), comp.overcalls(last, their,
                                                                              balancing)
        i_called = bool(ctx.actions(ME))
        if len(p_calls) == 1 and ctx.rho_passed and not i_called:
            first = p_calls[0]
            if first.kind == "double" and last in ctx.bids(LHO) + ctx.bids(RHO) \
                    and _first_turn_since(ctx, first):
                return "answer to a takeout double", comp.takeout_answers(their, last)
            if first.bid is not None and first.bid == last:
                if first.bid == Bid(1, NT):
                    return "advance of a 1NT overcall", nt.nt_responses(1, 15, 18)
                suit = _suit(first.bid)
                if suit is not None:
                    return "advance of an overcall", comp.advances(
                        suit, last, their, ctx.partner_range())
    return "competitive", None


def _first_turn_since(ctx: Context, call: Call) -> bool:
    """Partner's `call` came after my last call: this is my first turn to answer it (a
    pass over a bid in between already answered it)."""
    mine = [i for i, (s, _) in enumerate(ctx.calls) if ctx.rel(s) == ME]
    theirs = [i for i, (s, c) in enumerate(ctx.calls) if ctx.rel(s) == PARTNER and c == call]
    return not mine or mine[-1] < theirs[-1]


def _slam_situation(ctx: Context, mine: list[Bid], p_last: Bid | None,
                    last: Bid) -> tuple[str, Table] | None:
    """Key-card Blackwood, the king ask and a quantitative 4NT, when one is in progress."""
    if p_last is None or last != p_last:
        return None
    trump = agreed_trump(ctx)
    if p_last == Bid(4, NT) and len(ctx.our_bids()) > 1:
        if ctx.notrump_asks() or trump is None:  # no suit to ask in: quantitative
            return "answer to a quantitative 4NT", slam.quantitative_answers(
                ctx.my_range().max_hcp - 1)
        return "answer to Roman Key Card Blackwood", slam.key_card_answers(trump)
    if trump is None or not mine:
        return None
    partner = ctx.partner_range()
    if mine[-1] == Bid(4, NT) and p_last.text in slam.ANSWERS:
        return "after the key-card answer", slam.after_key_cards(trump, p_last.text, partner)
    partners = ctx.bids(PARTNER)
    if p_last == Bid(5, NT) and len(partners) >= 2 and partners[-2] == Bid(4, NT):
        return "answer to the king ask", slam.king_answers(trump)
    if len(mine) >= 2 and mine[-2:] == [Bid(4, NT), Bid(5, NT)] \
            and p_last.text in slam.KING_ANSWERS:
        return "after the king answer", slam.after_kings(trump, p_last.text, partner)
    return None


def agreed_trump(ctx: Context) -> Suit | None:
    """Our side's trump suit: the latest suit both of us bid or that we hold 8+ cards in
    together by what we have shown, else the latest suit one of us bid. A suit counts as
    bid by a hand that has shown three cards in it, below the five level (Stayman's or a
    strong 2♣, its 2♦ answers, and key-card answers, agree nothing: 1NT–2♣–2♦–4NT is
    quantitative, there is no suit to ask in)."""
    me, partner = ctx.my_range(), ctx.partner_range()
    suits = [s for b in reversed(ctx.our_bids()) if (s := _suit(b)) is not None
             and b.level < 5]
    bid_by = {rel: {s for b in ctx.bids(rel) if (s := _suit(b)) is not None and b.level < 5
                    and ctx.shown[(ctx.seat + rel) % 4].min_len[s] >= 3}
              for rel in (ME, PARTNER)}
    for suit in suits:
        if (suit in bid_by[ME] and suit in bid_by[PARTNER]) or \
                me.min_len[suit] + partner.min_len[suit] >= 8:
            return suit
    return next((s for s in suits if s in bid_by[ME] | bid_by[PARTNER]), None)




def _responding(ctx: Context, opening: Bid, last: Bid, quiet: bool) -> tuple[str, Table | None]:
    suit = _suit(opening)
    if not quiet:
        if suit is not None and opening.level == 1 and ctx.last_bidder == RHO \
                and len(ctx.bids()) == 2:
            return "response after an overcall", comp.contested_responses(
                suit, last, ctx.their_suits())
        return "competitive", None
    if opening == Bid(1, NT) or opening == Bid(2, NT):
        lo, hi = NT_RANGES[opening.level]
        return f"response to {opening.label}", nt.nt_responses(opening.level, lo, hi)
    if opening == Bid(2, Strain.CLUBS):
        return "response to 2♣", nt.two_club_responses()
    if suit is not None and opening.level == 1:
        return f"response to {opening.label}", con.one_suit_responses(suit)
    if suit is not None:
        return "response to a pre-empt", nt.weak_two_responses(suit, opening.level)
    return "competitive", None


def _opener_rebid(opening: Bid, response: Bid) -> tuple[str, Table | None]:
    name = f"opener's rebid after {opening.label}–{response.label}"
    if opening.strain == NT and opening.level in (1, 2):
        lo, hi = NT_RANGES[opening.level]
        if response == Bid(opening.level + 1, Strain.CLUBS):
            return name, nt.stayman_answers(opening.level)
        if response == Bid(opening.level + 1, Strain.DIAMONDS):
            return name, nt.transfer_completions(opening.level, Suit.HEARTS, lo, hi)
        if response == Bid(opening.level + 1, Strain.HEARTS):
            return name, nt.transfer_completions(opening.level, Suit.SPADES, lo, hi)
        if response == Bid(2, NT):
            return name, nt.opener_after_nt_invitation(hi)
        return name, None
    if opening == Bid(2, Strain.CLUBS):
        return name, nt.two_club_rebids() if response == Bid(2, Strain.DIAMONDS) else None
    suit = _suit(opening)
    if suit is None or opening.level != 1:
        return name, None
    return name, con.opener_rebids(suit, response.text, _suit(response))


def _responder_rebid(opening: Bid, response: Bid, rebid: Bid) -> tuple[str, Table | None]:
    name = f"responder's rebid after {opening.label}–{response.label}–{rebid.label}"
    if opening.strain == NT and opening.level in (1, 2):
        lo, hi = NT_RANGES[opening.level]
        up = opening.level + 1
        if response == Bid(up, Strain.CLUBS):
            answer = _suit(rebid) if rebid.strain in (Strain.HEARTS, Strain.SPADES) else None
            if rebid.level == up:
                return name, nt.after_stayman(opening.level, answer, lo, hi)
        for transfer, major in ((Strain.DIAMONDS, Suit.HEARTS), (Strain.HEARTS, Suit.SPADES)):
            if response == Bid(up, transfer) and rebid == Bid(up, Strain(int(major))):
                return name, nt.after_transfer(opening.level, major, lo, hi)
        return name, None
    if opening == Bid(2, Strain.CLUBS) and response == Bid(2, Strain.DIAMONDS) \
            and rebid == Bid(2, NT):
        return name, nt.nt_responses(2, 22, 24)
    suit = _suit(opening)
    if suit in (Suit.HEARTS, Suit.SPADES) and response == Bid(2, opening.strain) \
            and rebid == Bid(3, opening.strain):
        return name, con.after_game_try(suit)
    return name, None


def _opener_third(opening: Bid, response: Bid, rebid: Bid,
                  p_rebid: Bid) -> tuple[str, Table | None]:
    if opening.strain != NT or opening.level not in (1, 2) or p_rebid.strain != NT:
        return "competitive", None
    hi = NT_RANGES[opening.level][1]
    up = opening.level + 1
    if response == Bid(up, Strain.CLUBS):  # Stayman
        if rebid == Bid(up, Strain.HEARTS):
            return "opener after Stayman and notrump", nt.opener_after_stayman_nt(
                opening.level, p_rebid.level, hi)
        if p_rebid == Bid(2, NT):  # no fit (2♦), or partner's major is hearts (2♠)
            return "opener after Stayman and 2NT", nt.opener_after_nt_invitation(hi)
        return "competitive", None
    for transfer, major in ((Strain.DIAMONDS, Suit.HEARTS), (Strain.HEARTS, Suit.SPADES)):
        if response == Bid(up, transfer) and rebid == Bid(up, Strain(int(major))):
            return "opener after a transfer and notrump", nt.opener_after_transfer_nt(
                major, p_rebid.level, hi)
    return "competitive", None


def penalty_rule(ctx: Context) -> Rule | None:
    """A penalty double of their low suit contract, when our side has spoken."""
    last = ctx.last_bid
    if last is None or ctx.ours() or ctx.doubled or not (ctx.bids(ME) or ctx.bids(PARTNER)) \
            or doubles_into_rubber(ctx):
        return None
    rule = comp.penalty_double(last)
    if rule is None:
        return None
    need = max(10, 20 - int(expected_points(ctx.partner_range())))
    return Rule(rule.call, rule.says, hcp=(need, 37), lengths=rule.lengths, when=rule.when)


def tables_for(ctx: Context) -> tuple[str, list[Rule]]:
    """Every rule that speaks now, in order (the rubber's part-score rules first, then a
    penalty double)."""
    name, table = situation(ctx)
    rules = list(table or ())
    penalty = penalty_rule(ctx)
    if penalty is not None and name == "competitive":
        rules.insert(0, penalty)
    rubber = rubber_rules(ctx)
    if rubber:
        return "part score in a rubber", [*rubber, *rules]
    return name, rules


@dataclass(frozen=True, slots=True)
class Reading:
    """What an auction says: per seat, the range of its hand; per call, its explanation."""

    ranges: tuple[HandRange, ...]
    explanations: tuple[str, ...]
    forcing: tuple[bool, ...]


def read(dealer: int, calls: Sequence[tuple[int, Call]], score: Score | None = None,
         ) -> Reading:
    """Read every call of the auction with the system (people's calls too); `score`: the
    rubber's score (None: a duplicate board)."""
    shown = [HandRange() for _ in range(4)]
    says: list[str] = []
    forcing: list[bool] = []
    for i, (seat, call) in enumerate(calls):
        ctx = _context(seat, calls[:i], shown, forcing, score)
        _, rules = tables_for(ctx)
        found = rules_for(rules, call.text)
        if found:
            text, rng, force = found[0].says, hull([r.shows() for r in found]), \
                any(r.forcing for r in found)
        else:
            text, rng = natural_phrase(ctx, call.text)
            force = False
        narrowed = shown[seat].narrowed(rng)
        if not narrowed.empty:
            shown[seat] = narrowed
        says.append(text)
        forcing.append(force)
    return Reading(tuple(shown), tuple(says), tuple(forcing))


def _context(seat: int, calls: Sequence[tuple[int, Call]], shown: Sequence[HandRange],
             forcing: Sequence[bool], score: Score | None = None) -> Context:
    partner = (seat + 2) % 4
    force = False
    for j in range(len(calls) - 1, -1, -1):
        if calls[j][0] == partner:
            force = forcing[j] and all(c.kind == "pass" for _, c in calls[j + 1:])
            break
    return Context(seat, tuple(calls), tuple(shown), force, score)


# Settles a decision the captain made (context, hand, the captain's call, the rules of
# the situation) and returns the call to make instead, or the captain's.
Settle = Callable[[Context, Hand, str, Sequence[Rule]], str]


def choose(hand: Sequence[Card], seat: int, calls: Sequence[tuple[int, Call]],
           legal: Sequence[str], settle: Settle | None = None,
           score: Score | None = None) -> tuple[str, str]:
    """The call for `hand` (an action text, one of `legal`) and its explanation. Where no
    table speaks, the captain places the contract and `settle` may change its call.
    `score`: the rubber's score (None: a duplicate board)."""
    reading = read(0, calls, score)
    ctx = _context(seat, calls, reading.ranges, reading.forcing, score)
    facts = Hand.of(hand)
    _, rules = tables_for(ctx)
    rule = first_fit(rules, facts, legal)
    action = rule.action if rule is not None else place(ctx, facts, list(legal))
    if action not in legal:
        action = "pass"
    if rule is None and settle is not None:
        action = settle(ctx, facts, action, rules)
    explained = read(0, [*calls, (seat, CALL_BY_TEXT[action])], score).explanations[-1]
    return action, explained
