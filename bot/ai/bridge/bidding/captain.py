"""Where no table of the system speaks (later rounds, free bids in competition), a hand
places the contract from what the auction has shown: our points plus partner's expected
points give the level (game 25, small slam 33, grand 37); the suit lengths shown give the
strain (a major with 8+ cards together, else notrump, else a minor), by the steps of
`STEPS`, in order.

Each call made here is explained by `natural_phrase`, from the auction alone.
"""

from __future__ import annotations

import math

from bot.games.bridge_auction import Bid, Strain
from bot.games.bridge_scoring import GAME_POINTS, trick_score
from bot.games.cards import Suit

from ...core.hand_range import HandRange
from .context import LHO, ME, PARTNER, RHO, Context, bid_text, cheapest, suit_fit
from .rules import SUIT_NAMES, Hand

GAME, SLAM, GRAND = 25, 33, 37
MINOR_GAME = 28  # five of a minor rather than 3NT
PART_GAME_STEP = 3  # points a trick: a part score's game needs this many fewer a level
# In a rubber, with a part score (the rubber section of the system page says so).
PART_GAME = (
    "Game is the level that completes the 100 below the line (70 below: 2♥, 1NT), bid by "
    f"the captain with {PART_GAME_STEP} points fewer together for each level below the "
    "full game, never invited, and not bid past without slam values.")
INVITE = 23
QUANT = 31  # notrump: invite a slam with a quantitative 4NT from here
ASK = 30  # key-card Blackwood guards a suit slam against two missing key cards
MINOR_ASK = 32  # ... a minor's, where 3NT is the game it gives up (`minor_over_notrump`)
UNLIMITED = 8  # a partner's range this wide (or open) is the stronger hand's to judge
SLAM_TRY = 28  # with a major agreed below game: cue-bid a control from here (`slam`)
WEAK_HCP = 5  # the fewest high cards to bid a long suit alone (a weak two's)
SETTLE_MARGIN = 1.0  # IMPs a deal a simulated contract must gain over the call of STEPS
# ... by this many standard errors of its swings over the layouts: with 6 to 14 layouts a
# decision, a gain the layouts do not agree on (a slam making on four of seven) is noise.
SETTLE_CONFIDENCE = 2.0
STEPS = (
    f"Slam: {ASK}+ points together with a trump suit: ask for key cards with 4NT (Roman "
    f"Key Card); in notrump, {SLAM}+ promised: 6NT, {QUANT}+ promised and {SLAM} possible: "
    "a quantitative 4NT (after our notrump bid; with a minor agreed, four of it asks "
    f"partner to ask). A minor agreed, notrump our game: its slam from {MINOR_ASK} (4NT "
    "asks); five of it over a forcing raise past 3NT. A game bid where that ask was open "
    "says "
    f"too little for slam. Opposite an open range ({UNLIMITED}+ points wide) stronger than "
    "ours we bid game and leave slam to partner.",
    f"Game: {GAME}+ together: bid game at once (3NT with their suits stopped, four of a major, "
    "five of a minor with 28+). In notrump a hand counts its high cards and a long suit's "
    "sixth and later cards; with a trump fit, dummy adds its shortness (with three trumps or "
    "more, and not in a suit partner showed four of), the hand with the trumps their length.",
    "Partner forced us to bid: the cheapest bid in our best strain.",
    f"Invitation: {INVITE}–{GAME - 1} together: raise our strain to the three level, or, "
    "the opponents silent, 2NT over partner's bid below it when notrump is our strain; "
    "partner accepts with the top of what it has shown.",
    "Competition: with an 8+ card fit, bid to the level of the fit's length (8 cards: two, "
    f"9 cards: three); a suit partner has not shown needs six cards and {WEAK_HCP}+ "
    "high-card points; their sacrifice over our game is doubled. Opener with 11+ high "
    "cards and a 6-4 or 5-5 shape competes once over their fit: at three, the second "
    "suit if five long or lower, else the six-card suit again; over their game, four of "
    "its major if partner raised it.",
    "Otherwise pass.",
    "With time to think, a decision here, the opponents silent, is checked by dealing "
    "the unseen hands as the calls describe them and playing the candidate contracts "
    "double dummy: a contract that scores "
    f"{SETTLE_MARGIN:g}+ IMP a deal better, by {SETTLE_CONFIDENCE:g} standard errors of its "
    "swings over the layouts, replaces the call above (a slam in our agreed "
    "suit is still asked for with 4NT).",
)


def expected_points(shown: HandRange) -> float:
    """What to count on from a hand with this range of promised points: a little under
    the middle of a wide one (the top of it is rare), the middle of a narrow one (4
    points or less)."""
    lo, top = shown.strength()
    hi = min(top, lo + 10)
    return lo + (0.5 if hi - lo <= 4 else 0.35) * (hi - lo)


def leaves_slam(partner: HandRange, mine: float) -> bool:
    """Partner's strength is open (a range of `UNLIMITED`+ points) and more than ours:
    slam is its to judge, once we show our values with game."""
    lo, hi = partner.strength()
    return hi - lo >= UNLIMITED and mine < lo


def notrump_points(hand: Hand) -> int:
    """In notrump only a long suit's sixth and later cards add to the high cards."""
    return hand.hcp + max(0, max(hand.lengths) - 5)


def invitation_range(ctx: Context, strain: Strain) -> HandRange:
    """What an invitation (step 4) shows: high cards for 23–24 together with what partner
    has shown (fewer by what length in notrump, or shortness in a suit, adds). Partner
    counts it at its top, so that it accepts with more than it was counted for: "the top
    of what it has shown"."""
    expected = expected_points(ctx.partner_range())
    shape = 1 if strain == Strain.NOTRUMP else 3
    lo, hi = max(0, math.ceil(INVITE - expected)), max(0, math.ceil(GAME - expected) - 1)
    return HandRange(max(0, lo - shape), hi, min_points=hi, max_points=hi)


def is_invitation(ctx: Context, bid: Bid) -> bool:
    """The bid is step 4's: a raise of partner's last bid to three, or 2NT over partner's
    bid below it."""
    last = ctx.last_bid
    return (ctx.ours() and not ctx.forcing and last is not None
            and ctx.last_bidder == PARTNER and last.level < 3 and bid > last
            and (last.strain == bid.strain or (bid.strain == Strain.NOTRUMP
                                               and not ctx.contested()))
            and bid.level == (2 if bid.strain == Strain.NOTRUMP else 3))


def fit_points(hand: Hand, trump: Suit, partner: HandRange) -> int:
    """Points with a trump fit. The hand short in trumps (dummy) counts its shortness,
    though not in a suit partner has shown four of (there it is a misfit), and only with
    three trumps (with two, partner's trumps run out before dummy can ruff); the hand that
    holds the trumps counts their length instead."""
    if hand.lengths[trump] > max(partner.min_len[trump], 3):
        return hand.points
    if hand.lengths[trump] < 3:
        return hand.hcp
    return hand.support(trump, [s for s in Suit if partner.min_len[s] >= 4])


def best_strain(hand: Hand, fit: list[float], ctx: Context) -> Strain:
    majors = [s for s in (Suit.SPADES, Suit.HEARTS) if fit[s] >= 8]
    if majors:
        return Strain(int(max(majors, key=lambda s: (fit[s], s))))
    partner = ctx.partner_range()
    partner_balanced = min(partner.max_len) >= 2 and max(partner.max_len) <= 5
    their = ctx.their_suits()
    stopped = all(hand.stopper(s) for s in their)
    if (min(hand.lengths) >= 2 or partner_balanced) and stopped:
        return Strain.NOTRUMP
    minors = [s for s in (Suit.DIAMONDS, Suit.CLUBS) if fit[s] >= 8]
    if minors:
        return Strain(int(max(minors, key=lambda s: (fit[s], s))))
    long = hand.longest()
    if hand.lengths[long] >= 6 or not stopped:
        return Strain(int(long))
    return Strain.NOTRUMP


def minor_over_notrump(ctx: Context, hand: Hand, fit: list[float],
                       legal: list[str]) -> Suit | None:
    """Notrump is our strain, but a minor is agreed (8+ cards together, partner has shown
    three): the minor instead, with the values for a key-card ask while 4NT is still
    ours as the ask (`MINOR_ASK`: the ask stops in five, a game that needs two tricks
    more than the 3NT it gives up; a notrump slam needs 33 promised points), or once
    partner's forcing raise of it has passed 3NT (the game is five of it)."""
    partner = ctx.partner_range()
    last = ctx.last_bid
    for suit in (Suit.DIAMONDS, Suit.CLUBS):
        strain = Strain(int(suit))
        if fit[suit] < 8 or not _agreed(ctx, strain):
            continue
        ask = "bid:4NT" in legal and not ctx.notrump_asks() \
            and fit_points(hand, suit, partner) + expected_points(partner) >= MINOR_ASK
        past = ctx.forcing and last is not None and ctx.last_bidder == PARTNER \
            and last.strain == strain and Bid(3, Strain.NOTRUMP) < last < Bid(5, strain)
        if ask or past:
            return suit
    return None


def game_level(strain: Strain, ctx: Context | None = None, who: int = ME) -> int:
    """The level of game in `strain` for the side of `who`: 3NT, four of a major, five of
    a minor; with a part score in a rubber (`ctx.score`) the lowest level whose trick
    score completes the 100 (70 below the line: 2♥ or 1NT is game). The one place that
    reads the part score for the level of game."""
    full = 3 if strain == Strain.NOTRUMP else 4 if strain >= Strain.HEARTS else 5
    part = ctx.part_score(who) if ctx is not None else 0
    return next((level for level in range(1, full)
                 if part and part + trick_score(level, strain) >= GAME_POINTS), full)


def game_points(strain: Strain, level: int) -> int:
    """The points together that game at `level` of `strain` needs: `GAME` at the full
    level, three fewer for each trick less (a part score's game)."""
    return GAME - PART_GAME_STEP * (game_level(strain) - level)


def place(ctx: Context, hand: Hand, legal: list[str]) -> str:
    """The call that places our contract (an action text)."""
    fit = suit_fit(ctx, hand.lengths)
    strain = best_strain(hand, fit, ctx)
    minor = minor_over_notrump(ctx, hand, fit, legal) if strain == Strain.NOTRUMP else None
    if minor is not None:
        strain = Strain(int(minor))
    trump = strain.trump
    mine = fit_points(hand, trump, ctx.partner_range()) if trump is not None \
        and fit[trump] >= 8 else notrump_points(hand) if strain == Strain.NOTRUMP \
        else hand.points
    total = mine + expected_points(ctx.partner_range())
    last = ctx.last_bid
    ours = ctx.ours()
    our_strain = last.strain if last is not None and ours else None

    def bid(level: int, s: Strain = strain) -> str | None:
        text = "bid:" + bid_text(level, s)
        return text if text in legal else None

    sure = hand.hcp + ctx.partner_range().min_hcp + 1  # notrump slams: promised points
    asked = any(b == Bid(4, Strain.NOTRUMP) for b in ctx.bids(ME) + ctx.bids(PARTNER))
    partner_last = ctx.bids(PARTNER)[-1:]
    # Notrump slam on partner's maximum only: invite with a quantitative 4NT.
    invite = trump is None and not asked and QUANT <= sure < SLAM and ctx.notrump_asks() \
        and hand.hcp + ctx.partner_range().max_hcp >= SLAM and bid(4, Strain.NOTRUMP)
    defer = trump is not None and leaves_slam(ctx.partner_range(), mine)
    # 0. partner placed us in game (or more): leave it unless slam is there
    if ours and partner_last and partner_last[0] == last and last is not None \
            and last.level >= game_level(last.strain, ctx) and not invite and (
                asked or last.level >= 6 or (
                    total < ASK or defer if trump is not None else sure < SLAM)):
        return "pass"
    # 1. slam (in notrump on the points partner has promised, without an ace ask)
    if ((total >= ASK and trump is not None and not defer) or sure >= SLAM) and not asked:
        if trump is not None and bid(4, Strain.NOTRUMP) and _agreed(ctx, strain) \
                and not ctx.notrump_asks():
            return "bid:4NT"
        level = 7 if min(total, sure) >= GRAND else 6
        if (trump is None and sure >= SLAM) or _agreed(ctx, strain):
            call = bid(level)
            if call:
                return call
    if invite:
        return "bid:4NT"
    # 2. game
    g = game_level(strain, ctx)
    # 3NT for a minor's game needs their suits stopped (by us, or partner's notrump).
    stopped = all(hand.stopper(s) for s in ctx.their_suits()) \
        or any(b.strain == Strain.NOTRUMP for b in ctx.bids(PARTNER))
    if strain.is_minor and total < MINOR_GAME and bid(3, Strain.NOTRUMP) \
            and fit[int(strain)] < 10 and stopped and g == game_level(strain):
        strain = Strain.NOTRUMP
        g = game_level(strain, ctx)
        total = notrump_points(hand) + expected_points(ctx.partner_range())
    if total >= game_points(strain, g):
        if ours and last is not None and last.level >= g and (last.strain == strain or
                                                              last.level >= 4):
            return "pass"
        call = bid(g, strain)
        if call:
            return call
    # 3. forced
    if ctx.forcing:
        nxt = cheapest(strain, last)
        if nxt is not None and "bid:" + nxt.text in legal:
            return "bid:" + nxt.text
    # 4. invitation: in our strain, or (the opponents silent) 2NT over partner's suit;
    # none where our part score makes the invitation's level game already
    invite_level = 3 if strain != Strain.NOTRUMP else 2
    if ours and total >= INVITE and last is not None and last.level < 3 \
            and game_level(strain, ctx) > invite_level and (
            our_strain == strain or (strain == Strain.NOTRUMP and ctx.last_bidder == PARTNER
                                     and not ctx.contested())):
        call = bid(3 if strain != Strain.NOTRUMP else 2, strain)
        if call and Bid(int(call[4]), strain) > last:
            return call
    # 5. competition
    if not ours and last is not None:
        their_game = last.level >= game_level(last.strain, ctx, LHO)
        we_bid_game = any(b.level >= game_level(b.strain, ctx) for b in ctx.bids(ME)
                          + ctx.bids(PARTNER))
        if we_bid_game and their_game and total >= GAME and "double" in legal:
            return "double"
        if trump is not None and fit[trump] >= 8:
            # In the fit's suit, not the notrump the game step may have preferred above.
            level = min(int(fit[trump]) - 6, 4 if total >= 20 else 3)
            nxt = cheapest(Strain(int(trump)), last)
            # A fit that counts on partner's unshown cards is only a long suit of ours:
            # bidding it needs at least a weak two's high cards.
            shown = hand.lengths[trump] + ctx.partner_range().min_len[trump] >= 8
            if nxt is not None and nxt.level <= level and "bid:" + nxt.text in legal \
                    and (shown or hand.hcp >= WEAK_HCP):
                return "bid:" + nxt.text
        shaped = two_suiter_call(ctx, hand, last)
        if shaped is not None and "bid:" + shaped.text in legal:
            return "bid:" + shaped.text
    # 5b. a misfit partscore: move to our own long suit once
    if ours and our_strain is not None and our_strain != strain and trump is not None \
            and our_strain != Strain.NOTRUMP and hand.lengths[trump] >= 6 \
            and fit[int(our_strain)] < 7 and last is not None and last.level <= 2:
        nxt = cheapest(strain, last)
        if nxt is not None and nxt.level <= 3 and "bid:" + nxt.text in legal:
            return "bid:" + nxt.text
    return "pass"


def two_suiter_call(ctx: Context, hand: Hand, last: Bid) -> Bid | None:
    """I opened and have bid once; they have found a fit (their last bid is a suit they bid
    before) at the two or three level. A 6-4 or 5-5 hand with opening values competes once
    at the three level: the shape takes tricks the fit count does not see. The second suit
    if five long or lower than mine (partner may fit it), else my six-card suit again.
    Where partner raised my major and they bid game over it, the same hand bids four of
    the major."""
    mine = ctx.bids(ME)
    theirs = ctx.bids(LHO) + ctx.bids(RHO)
    if ctx.opener != ME or len(mine) != 1 or mine[0].strain.trump is None \
            or hand.hcp < 11 or last.strain.trump is None or last.level > 4 \
            or [b.strain for b in theirs].count(last.strain) < 2:
        return None
    first = mine[0].strain.trump
    raised = first in (Suit.HEARTS, Suit.SPADES) and ctx.partner_range().min_len[first] >= 3
    if last.level == 4 and not raised:
        return None
    their = ctx.their_suits()
    others = [s for s in Suit if s != first and s not in their]
    second = max(others, key=lambda s: (hand.lengths[s], -s))
    if hand.lengths[first] + hand.lengths[second] < 10 or hand.lengths[first] < 5 \
            or hand.lengths[second] < 4:
        return None
    # Over their game only the raised major; below it the second suit where partner may
    # fit it (five long, or lower than mine).
    suit = second if last.level < 4 and (hand.lengths[second] >= 5 or second < first) \
        else first
    nxt = cheapest(Strain(int(suit)), last)
    return nxt if nxt is not None and nxt.level == max(3, last.level) else None


def _agreed(ctx: Context, strain: Strain) -> bool:
    """Partner has bid `strain` (we may have too): in a suit, showing length there (an
    artificial 2♣ or Stayman agrees nothing)."""
    if strain not in {b.strain for b in ctx.bids(PARTNER)}:
        return False
    suit = strain.trump
    return suit is None or ctx.partner_range().min_len[suit] >= 3


def natural_phrase(ctx: Context, action: str) -> tuple[str, HandRange]:
    """What a call outside the tables says (the captain's calls, and people's)."""
    if action == "pass":
        return ("nothing more to say", HandRange())
    if action == "double":
        return ("penalty: we hold the balance of strength", HandRange())
    if action == "redouble":
        return ("strength: we hold the balance", HandRange(min_hcp=10))
    bid = Bid.parse(action[4:])
    strain = bid.strain
    level_word = ("slam" if bid.level >= 6 else
                  "game" if bid.level >= game_level(strain, ctx) else "")
    if strain == Strain.NOTRUMP:
        if bid == Bid(4, Strain.NOTRUMP) and ctx.our_bids():
            if ctx.notrump_asks():
                return ("quantitative: invites 6NT", HandRange())
            return ("Roman Key Card Blackwood: asks for the aces and the king of trumps",
                    HandRange())
        if is_invitation(ctx, bid):
            shown = invitation_range(ctx, strain)
            return (f"invites 3NT: {shown.min_hcp}–{shown.max_hcp} points", shown)
        return (f"to play in {level_word}" if level_word else "natural: notrump",
                HandRange())
    suit = Suit(int(strain))
    partner_showed = ctx.partner_range().min_len[suit] >= 3
    mine = any(b.strain == strain for b in ctx.bids(ME))
    lengths = [0, 0, 0, 0]
    if partner_showed:
        what = f"support for {SUIT_NAMES[suit]}"
        lengths[suit] = 3
    elif mine:
        what = f"more {SUIT_NAMES[suit]}"
        lengths[suit] = 6
    elif level_word == "game" and suit >= Suit.HEARTS:
        # game in a major partner has not shown: alone, so a long suit (`place` needs
        # 8 together and counts partner's unshown share as at most 2.5)
        what = f"6+ {SUIT_NAMES[suit]}"
        lengths[suit] = 6
    else:
        what = f"4+ {SUIT_NAMES[suit]}"
        lengths[suit] = 4
    if is_invitation(ctx, bid):
        shown = invitation_range(ctx, strain)
        lengths[suit] = max(lengths[suit], 3)
        return (f"{what}, invites game: {shown.min_hcp}–{shown.max_hcp} points",
                shown.narrowed(HandRange(min_len=(lengths[0], lengths[1], lengths[2],
                                                  lengths[3]))))
    tail = f", to play in {level_word}" if level_word else (
        "" if ctx.ours() or ctx.last_bid is None else ", competing")
    shown = HandRange(min_len=(lengths[0], lengths[1], lengths[2], lengths[3]))
    below = no_slam_points(ctx, bid)
    if below is not None:
        return (f"{what}, to play in game: no slam interest (up to {below} points)",
                shown.narrowed(HandRange(max_points=below)))
    return (what + tail, shown)


def no_slam_points(ctx: Context, bid: Bid) -> int | None:
    """The most points a game bid in partner's suit can hold when step 1 would have asked
    for key cards instead (the suit agreed, 4NT still ours to bid as an ask): fewer than
    `ASK` together with what partner has shown. None where the game says nothing so."""
    suit = bid.strain.trump
    if suit is None or not game_level(bid.strain) <= bid.level < 6 \
            or not _agreed(ctx, bid.strain) or ctx.notrump_asks() \
            or (ctx.last_bid is not None and ctx.last_bid >= Bid(4, Strain.NOTRUMP)) \
            or any(b == Bid(4, Strain.NOTRUMP) for b in ctx.our_bids()):
        return None
    partner = ctx.partner_range()
    below = math.ceil(ASK - expected_points(partner)) - 1
    lo, hi = partner.strength()
    if hi - lo >= UNLIMITED:  # it may hold more and have left slam to partner
        below = max(below, lo - 1)
    return max(0, below)
