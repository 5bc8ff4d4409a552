"""Which table of the bidding system speaks in each situation of the auction: the rows of
`SITUATIONS`, in order, each a named predicate on the auction (a function whose
docstring says the situation) and the table it calls for; the first row that holds
speaks. Where none does, the captain places the contract (`captain.place`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.games.bridge_auction import Bid, Call, Strain
from bot.games.cards import Suit

from . import competition as comp
from . import constructive as con
from . import notrump as nt
from . import slam
from .context import LHO, ME, PARTNER, RHO, Context, agreed_trump
from .rules import Table

NT = Strain.NOTRUMP
OPENING_TABLE = con.opening_table()
NT_RANGES = {1: (15, 17), 2: (20, 21)}
ONE_NT, TWO_NT, FOUR_NT, FIVE_NT = (Bid(n, NT) for n in (1, 2, 4, 5))
TWO_CLUBS = Bid(2, Strain.CLUBS)


def _suit(bid: Bid) -> Suit | None:
    return bid.strain.trump


@dataclass(frozen=True, slots=True)
class Situation:
    """A row of `SITUATIONS`: the auction is in this situation when `holds`; `table` is
    what speaks there (None where its bids have no table: the rows below are asked)."""

    name: str
    holds: Callable[[Context], bool]
    table: Callable[[Context], Table | None]


def situation(ctx: Context) -> tuple[str, Table | None]:
    """The name of the situation and its table: the first row of `SITUATIONS` that holds
    and has a table (None: the captain places the contract)."""
    for row in SITUATIONS:
        if row.holds(ctx):
            table = row.table(ctx)
            if table is not None:
                return row.name, table
    return "competitive", None


def _quiet(ctx: Context) -> bool:
    """The opponents have not bid (passes and doubles only)."""
    return not ctx.bids(LHO) and not ctx.bids(RHO)


def _partner_bid_last(ctx: Context) -> Bid | None:
    """Partner's last bid, when it is the last bid of the auction."""
    partners = ctx.bids(PARTNER)
    return partners[-1] if partners and partners[-1] == ctx.last_bid else None


def _slam_state(ctx: Context) -> tuple[Suit, list[Bid], list[Bid], str] | None:
    """During a key-card ask (a 4NT of ours before partner's last bid, the last of the
    auction): our agreed suit, my bids, partner's bids and partner's last bid; None
    outside one, or without a suit agreed."""
    p_last = _partner_bid_last(ctx)
    if p_last is None:
        return None
    mine, partners = ctx.bids(ME), ctx.bids(PARTNER)
    if not mine or FOUR_NT not in mine + partners[:-1]:
        return None
    trump = agreed_trump(ctx)
    return None if trump is None else (trump, mine, partners, p_last.text)


def is_opening(ctx: Context) -> bool:
    """Nobody has bid yet."""
    return ctx.opening is None


def partner_asks_with_4nt(ctx: Context) -> bool:
    """Partner's 4NT, the last bid, after our side has bid before it."""
    return _partner_bid_last(ctx) == FOUR_NT and len(ctx.our_bids()) > 1


def partner_invites_with_4nt(ctx: Context) -> bool:
    """Partner's 4NT is quantitative: our last bid before it was notrump, or no suit is
    agreed to ask in."""
    return partner_asks_with_4nt(ctx) and (ctx.notrump_asks() or agreed_trump(ctx) is None)


def partner_answered_key_cards(ctx: Context) -> bool:
    """I asked with 4NT and partner answered with a count of key cards (5♣ to 5♠)."""
    state = _slam_state(ctx)
    return state is not None and state[1][-1] == FOUR_NT and state[3] in slam.ANSWERS


def partner_asks_for_kings(ctx: Context) -> bool:
    """Partner asked with 4NT and then 5NT: the king ask."""
    state = _slam_state(ctx)
    return state is not None and state[3] == "5NT" and len(state[2]) >= 2 \
        and state[2][-2] == FOUR_NT


def partner_asks_for_a_count(ctx: Context) -> bool:
    """Partner's 4NT asks for key cards (not the quantitative 4NT, whose row in
    `SITUATIONS` comes first) or its 5NT for kings: the answer is a count the system
    fixes."""
    return ((partner_asks_with_4nt(ctx) and not partner_invites_with_4nt(ctx))
            or partner_asks_for_kings(ctx))


def partner_answered_the_king_ask(ctx: Context) -> bool:
    """I asked with 4NT and 5NT, and partner answered with its kings."""
    state = _slam_state(ctx)
    return state is not None and state[1][-2:] == [FOUR_NT, FIVE_NT] \
        and state[3] in slam.KING_ANSWERS


def _partner_opened_first_call(ctx: Context) -> bool:
    """Partner opened and I have not bid yet."""
    return ctx.opener == PARTNER and not ctx.bids(ME)


def partner_opened_and_they_overcalled(ctx: Context) -> bool:
    """Partner opened one of a suit and the next player overcalled (the last bid)."""
    opening = ctx.opening
    return _partner_opened_first_call(ctx) and not _quiet(ctx) and opening is not None \
        and _suit(opening) is not None and opening.level == 1 and ctx.last_bidder == RHO \
        and len(ctx.bids()) == 2


def partner_opened_in_notrump(ctx: Context) -> bool:
    """Partner opened 1NT or 2NT; they have not bid."""
    return _partner_opened_first_call(ctx) and _quiet(ctx) \
        and ctx.opening in (ONE_NT, TWO_NT)


def partner_opened_two_clubs(ctx: Context) -> bool:
    """Partner opened a strong 2♣; they have not bid."""
    return _partner_opened_first_call(ctx) and _quiet(ctx) \
        and ctx.opening == TWO_CLUBS


def partner_opened_one_of_a_suit(ctx: Context) -> bool:
    """Partner opened one of a suit; they have not bid."""
    opening = ctx.opening
    return _partner_opened_first_call(ctx) and _quiet(ctx) and opening is not None \
        and _suit(opening) is not None and opening.level == 1


def partner_pre_empted(ctx: Context) -> bool:
    """Partner opened two or more of a suit other than a strong 2♣; they have not
    bid."""
    opening = ctx.opening
    return _partner_opened_first_call(ctx) and _quiet(ctx) and opening is not None \
        and _suit(opening) is not None and opening.level >= 2 \
        and opening != TWO_CLUBS


def opener_rebids(ctx: Context) -> bool:
    """I opened and partner answered, each of us with one bid; they have not bid."""
    return ctx.opener == ME and len(ctx.bids(ME)) == 1 and len(ctx.bids(PARTNER)) == 1 \
        and _quiet(ctx)


def responder_rebids(ctx: Context) -> bool:
    """Partner opened, I answered, partner rebid; they have not bid."""
    return ctx.opener == PARTNER and len(ctx.bids(ME)) == 1 \
        and len(ctx.bids(PARTNER)) == 2 and _quiet(ctx)


def opener_bids_a_third_time(ctx: Context) -> bool:
    """I opened and rebid, partner answered and rebid; they have not bid."""
    return ctx.opener == ME and len(ctx.bids(ME)) == 2 and len(ctx.bids(PARTNER)) == 2 \
        and _quiet(ctx)


def _their_opening_first_bid(ctx: Context) -> bool:
    """They opened and I have not bid (I may have doubled)."""
    return ctx.opener in (LHO, RHO) and not ctx.bids(ME)


def _their_one_bid(ctx: Context) -> bool:
    """They opened, and neither partner nor anyone else has bid or doubled since."""
    return _their_opening_first_bid(ctx) and not ctx.actions(PARTNER) \
        and len(ctx.bids()) == 1


def we_may_balance(ctx: Context) -> bool:
    """Their opening bid, then two passes: a pass now would end the auction."""
    return _their_one_bid(ctx) and len(ctx.calls) >= 3 \
        and ctx.calls[-1][1].kind == ctx.calls[-2][1].kind == "pass"


def we_may_overcall(ctx: Context) -> bool:
    """Their opening bid, and my first call."""
    return _their_one_bid(ctx) and not ctx.called(ME)


def _partner_called_once(ctx: Context) -> Call | None:
    """They opened; partner's one call, I have made none but passes and the next player
    passed since: the call I answer."""
    p_calls = ctx.actions(PARTNER)
    if not _their_opening_first_bid(ctx) or len(p_calls) != 1 or not ctx.rho_passed \
            or ctx.actions(ME):
        return None
    return p_calls[0]


def partner_doubled_for_takeout(ctx: Context) -> bool:
    """Partner's double of their last bid, my first turn since."""
    first = _partner_called_once(ctx)
    return first is not None and first.kind == "double" \
        and ctx.last_bid in ctx.bids(LHO) + ctx.bids(RHO) and _first_turn_since(ctx, first)


def partner_overcalled_1nt(ctx: Context) -> bool:
    """Partner's 1NT overcall, the last bid."""
    first = _partner_called_once(ctx)
    return first is not None and first.bid == ONE_NT and first.bid == ctx.last_bid


def partner_overcalled_in_a_suit(ctx: Context) -> bool:
    """Partner's overcall in a suit, the last bid."""
    first = _partner_called_once(ctx)
    return first is not None and first.bid is not None and first.bid == ctx.last_bid \
        and _suit(first.bid) is not None


def _answer_to_overcall(ctx: Context) -> Table:
    first = _partner_called_once(ctx)
    assert first is not None and first.bid is not None
    suit = _suit(first.bid)
    assert suit is not None
    return comp.advances(suit, first.bid, ctx.their_suits(), ctx.partner_range())


def _responses_to_notrump(ctx: Context) -> Table:
    opening = ctx.opening
    assert opening is not None
    return nt.nt_responses(opening.level, *NT_RANGES[opening.level])


def _responses_to_one_of_a_suit(ctx: Context) -> Table:
    opening = ctx.opening
    suit = _suit(opening) if opening is not None else None
    assert suit is not None
    return con.one_suit_responses(suit)


def _last(ctx: Context) -> Bid:
    last = ctx.last_bid
    assert last is not None
    return last


def _state(ctx: Context) -> tuple[Suit, list[Bid], list[Bid], str]:
    state = _slam_state(ctx)
    assert state is not None
    return state


def _opening_suit(ctx: Context) -> Suit:
    opening = ctx.opening
    suit = _suit(opening) if opening is not None else None
    assert suit is not None
    return suit


def _nth(ctx: Context, who: int, n: int) -> Bid:
    return ctx.bids(who)[n]


def _first_turn_since(ctx: Context, call: Call) -> bool:
    """Partner's `call` came after my last call: this is my first turn to answer it (a
    pass over a bid in between already answered it)."""
    mine = [i for i, (s, _) in enumerate(ctx.calls) if ctx.rel(s) == ME]
    theirs = [i for i, (s, c) in enumerate(ctx.calls) if ctx.rel(s) == PARTNER and c == call]
    return not mine or mine[-1] < theirs[-1]


def _opener_rebid(opening: Bid, response: Bid) -> Table | None:
    """My rebid after my `opening` and partner's `response` (None: no table for them)."""
    if opening.strain == NT and opening.level in (1, 2):
        lo, hi = NT_RANGES[opening.level]
        if response == Bid(opening.level + 1, Strain.CLUBS):
            return nt.stayman_answers(opening.level)
        if response == Bid(opening.level + 1, Strain.DIAMONDS):
            return nt.transfer_completions(opening.level, Suit.HEARTS, lo, hi)
        if response == Bid(opening.level + 1, Strain.HEARTS):
            return nt.transfer_completions(opening.level, Suit.SPADES, lo, hi)
        if response == Bid(2, NT):
            return nt.opener_after_nt_invitation(hi)
        return None
    if opening == Bid(2, Strain.CLUBS):
        return nt.two_club_rebids() if response == Bid(2, Strain.DIAMONDS) else None
    suit = _suit(opening)
    if suit is None or opening.level != 1:
        return None
    return con.opener_rebids(suit, response.text, _suit(response))


def _responder_rebid(opening: Bid, response: Bid, rebid: Bid) -> Table | None:
    """My rebid after partner's `opening`, my `response` and partner's `rebid`."""
    if opening.strain == NT and opening.level in (1, 2):
        lo, hi = NT_RANGES[opening.level]
        up = opening.level + 1
        if response == Bid(up, Strain.CLUBS):
            answer = _suit(rebid) if rebid.strain in (Strain.HEARTS, Strain.SPADES) else None
            if rebid.level == up:
                return nt.after_stayman(opening.level, answer, lo, hi)
        for transfer, major in ((Strain.DIAMONDS, Suit.HEARTS), (Strain.HEARTS, Suit.SPADES)):
            if response == Bid(up, transfer) and rebid == Bid(up, Strain(int(major))):
                return nt.after_transfer(opening.level, major, lo, hi)
        return None
    if opening == Bid(2, Strain.CLUBS) and response == Bid(2, Strain.DIAMONDS) \
            and rebid == Bid(2, NT):
        return nt.nt_responses(2, 22, 24)
    suit = _suit(opening)
    if suit in (Suit.HEARTS, Suit.SPADES) and response == Bid(2, opening.strain) \
            and rebid == Bid(3, opening.strain):
        return con.after_game_try(suit)
    return None


def _opener_third(opening: Bid, response: Bid, rebid: Bid,
                  p_rebid: Bid) -> Table | None:
    """My third bid after my `opening`, partner's `response`, my `rebid` and partner's
    `p_rebid`."""
    if opening.strain != NT or opening.level not in (1, 2) or p_rebid.strain != NT:
        return None
    hi = NT_RANGES[opening.level][1]
    up = opening.level + 1
    if response == Bid(up, Strain.CLUBS):  # Stayman
        if rebid == Bid(up, Strain.HEARTS):
            return nt.opener_after_stayman_nt(opening.level, p_rebid.level, hi)
        if p_rebid == Bid(2, NT):  # no fit (2♦), or partner's major is hearts (2♠)
            return nt.opener_after_nt_invitation(hi)
        return None
    for transfer, major in ((Strain.DIAMONDS, Suit.HEARTS), (Strain.HEARTS, Suit.SPADES)):
        if response == Bid(up, transfer) and rebid == Bid(up, Strain(int(major))):
            return nt.opener_after_transfer_nt(major, p_rebid.level, hi)
    return None


# Which table speaks: the first row that holds (and has a table for the bids made).
# Slam conventions first (they read the same whoever opened), then our side's auction
# in the order of its rounds, then the auctions they opened.
SITUATIONS: tuple[Situation, ...] = (
    Situation("opening", is_opening, lambda ctx: OPENING_TABLE),
    Situation("answer to a quantitative 4NT", partner_invites_with_4nt,
              lambda ctx: slam.quantitative_answers(ctx.my_range().max_hcp - 1)),
    Situation("answer to Roman Key Card Blackwood", partner_asks_with_4nt,
              lambda ctx: slam.key_card_answers(_state_trump(ctx))),
    Situation("after the key-card answer", partner_answered_key_cards,
              lambda ctx: slam.after_key_cards(_state(ctx)[0], _state(ctx)[3],
                                               ctx.partner_range())),
    Situation("answer to the king ask", partner_asks_for_kings,
              lambda ctx: slam.king_answers(_state(ctx)[0])),
    Situation("after the king answer", partner_answered_the_king_ask,
              lambda ctx: slam.after_kings(_state(ctx)[0], _state(ctx)[3],
                                           ctx.partner_range())),
    Situation("response after an overcall", partner_opened_and_they_overcalled,
              lambda ctx: comp.contested_responses(_opening_suit(ctx), _last(ctx),
                                                   ctx.their_suits())),
    Situation("response to notrump", partner_opened_in_notrump, _responses_to_notrump),
    Situation("response to 2♣", partner_opened_two_clubs,
              lambda ctx: nt.two_club_responses()),
    Situation("response to one of a suit", partner_opened_one_of_a_suit,
              _responses_to_one_of_a_suit),
    Situation("response to a pre-empt", partner_pre_empted,
              lambda ctx: nt.weak_two_responses(_opening_suit(ctx), _nth(ctx, PARTNER, 0)
                                                .level)),
    Situation("opener's rebid", opener_rebids,
              lambda ctx: _opener_rebid(_nth(ctx, ME, 0), _nth(ctx, PARTNER, 0))),
    Situation("responder's rebid", responder_rebids,
              lambda ctx: _responder_rebid(_nth(ctx, PARTNER, 0), _nth(ctx, ME, 0),
                                           _nth(ctx, PARTNER, 1))),
    Situation("opener's third bid", opener_bids_a_third_time,
              lambda ctx: _opener_third(_nth(ctx, ME, 0), _nth(ctx, PARTNER, 0),
                                        _nth(ctx, ME, 1), _nth(ctx, PARTNER, 1))),
    Situation("balancing", we_may_balance,
              lambda ctx: comp.overcalls(_last(ctx), ctx.their_suits(), balancing=True)),
    Situation("overcall", we_may_overcall,
              lambda ctx: comp.overcalls(_last(ctx), ctx.their_suits(), balancing=False)),
    Situation("answer to a takeout double", partner_doubled_for_takeout,
              lambda ctx: comp.takeout_answers(ctx.their_suits(), _last(ctx))),
    Situation("advance of a 1NT overcall", partner_overcalled_1nt,
              lambda ctx: nt.nt_responses(1, 15, 18)),
    Situation("advance of an overcall", partner_overcalled_in_a_suit, _answer_to_overcall),
)


def _state_trump(ctx: Context) -> Suit:
    trump = agreed_trump(ctx)
    assert trump is not None
    return trump
