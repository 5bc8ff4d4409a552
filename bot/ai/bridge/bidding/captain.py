"""Where no table of the system speaks (later rounds, free bids in competition), a hand
places the contract from what the auction has shown: our points plus partner's expected
points give the level (game 25, small slam 33, grand 37); the suit lengths shown give the
strain (a major with 8+ cards together, else notrump, else a minor), by the steps of
`CAPTAIN_STEPS`, in order: each a function and the words the system page shows for it
(`STEPS`), so the page lists exactly the steps the captain takes.

Each call made here is explained by `natural_phrase`, from the auction alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from bot.games.bridge_auction import Bid, Strain
from bot.games.bridge_scoring import GAME_POINTS, trick_score
from bot.games.cards import Suit

from ...core.hand_range import HandRange
from .context import LHO, ME, PARTNER, Context, agreed_trump, bid_text, cheapest, suit_fit
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
# A penalty double outside the tables claims the balance of strength: half the deck's 40
# high cards together (`high_cards_together`).
BALANCE_OF_STRENGTH = 20
ASK = 30  # key-card Blackwood guards a suit slam against two missing key cards
MINOR_ASK = 32  # ... a minor's, where 3NT is the game it gives up (`minor_over_notrump`)
WEAK_HCP = 5  # the fewest high cards to bid a long suit alone (a weak two's)
SETTLE_MARGIN = 1.0  # IMPs a deal a simulated contract must gain over the captain's call
# ... by this many standard errors of its swings over the layouts: with 6 to 14 layouts a
# decision, a gain the layouts do not agree on (a slam making on four of seven) is noise.
SETTLE_CONFIDENCE = 2.0


def expected_points(shown: HandRange) -> float:
    """What to count on from a hand with this range of promised points: a little under
    the middle of a wide one (the top of it is rare), the middle of a narrow one (4
    points or less)."""
    lo, top = shown.strength()
    hi = min(top, lo + 10)
    return lo + (0.5 if hi - lo <= 4 else 0.35) * (hi - lo)


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
    """The bid is step 4's: a raise of partner's last bid to three (2NT over 1NT)."""
    last = ctx.last_bid
    return (ctx.ours() and not ctx.forcing and last is not None
            and ctx.last_bidder == PARTNER and last.level < 3 and bid > last
            and last.strain == bid.strain
            and bid.level == (2 if bid.strain == Strain.NOTRUMP else 3))


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
            and hand.support(suit) + expected_points(partner) >= MINOR_ASK
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


@dataclass(frozen=True, slots=True)
class Plan:
    """What the steps of `place` read: the hand, the strain and points it counts, and the
    auction so far. `strain` and `total` are the hand's own choice; `game_strain` and
    `game_total` the same after the game step's choice of 3NT over a minor's game,
    which the later steps read."""

    ctx: Context
    hand: Hand
    legal: list[str]
    fit: list[float]
    strain: Strain
    trump: Suit | None
    mine: int  # our points in `strain`
    total: float  # ours plus partner's expected
    sure: int  # notrump slams: the high cards promised
    asked: bool  # 4NT has been bid by our side
    invite: str | None  # a quantitative 4NT, where slam is on partner's maximum
    game_strain: Strain
    game_total: float

    @property
    def last(self) -> Bid | None:
        return self.ctx.last_bid

    @property
    def ours(self) -> bool:
        return self.ctx.ours()

    @property
    def our_strain(self) -> Strain | None:
        last = self.ctx.last_bid
        return last.strain if last is not None and self.ours else None

    def bid(self, level: int, strain: Strain | None = None) -> str | None:
        """The bid as an action text, if it is legal."""
        text = "bid:" + bid_text(level, self.strain if strain is None else strain)
        return text if text in self.legal else None


def plan_of(ctx: Context, hand: Hand, legal: list[str]) -> Plan:
    """What the steps read, worked out once for all of them."""
    fit = suit_fit(ctx, hand.lengths)
    strain = best_strain(hand, fit, ctx)
    minor = minor_over_notrump(ctx, hand, fit, legal) if strain == Strain.NOTRUMP else None
    if minor is not None:
        strain = Strain(int(minor))
    trump = strain.trump
    partner = ctx.partner_range()
    mine = hand.support(trump) if trump is not None \
        and fit[trump] >= 8 else notrump_points(hand) if strain == Strain.NOTRUMP \
        else hand.points
    total = mine + expected_points(partner)
    sure = hand.hcp + partner.min_hcp + 1
    asked = any(b == Bid(4, Strain.NOTRUMP) for b in ctx.bids(ME) + ctx.bids(PARTNER))
    four_nt = "bid:4NT" if "bid:4NT" in legal else None
    invite = four_nt if trump is None and not asked and QUANT <= sure < SLAM \
        and ctx.notrump_asks() and hand.hcp + partner.max_hcp >= SLAM else None
    game_strain, game_total = strain, total
    if strain.is_minor and total < MINOR_GAME and "bid:3NT" in legal \
            and fit[int(strain)] < 10 \
            and game_level(strain, ctx) == game_level(strain):
        game_strain = Strain.NOTRUMP
        game_total = notrump_points(hand) + expected_points(partner)
    return Plan(ctx, hand, legal, fit, strain, trump, mine, total, sure, asked, invite,
                game_strain, game_total)


def settled(p: Plan) -> str | None:
    """Partner placed us in game (or more): leave it unless slam is there."""
    last, partner_last = p.last, p.ctx.bids(PARTNER)[-1:]
    if p.ours and partner_last and partner_last[0] == last and last is not None \
            and last.level >= game_level(last.strain, p.ctx) and not p.invite and (
                p.asked or last.level >= 6 or (
                    p.total < ASK if p.trump is not None else p.sure < SLAM)):
        return "pass"
    return None


def slam(p: Plan) -> str | None:
    """Slam: in notrump on the points partner has promised, without an ace ask; or the
    quantitative 4NT that invites one."""
    if ((p.total >= ASK and p.trump is not None) or p.sure >= SLAM) and not p.asked:
        # Partner answers a 4NT ask in the suit the system reads as agreed
        # (`agreed_trump`), which may be another than ours: then the slam is bid directly.
        if p.trump is not None and p.bid(4, Strain.NOTRUMP) and _agreed(p.ctx, p.strain) \
                and not p.ctx.notrump_asks() and agreed_trump(p.ctx) == p.trump:
            return "bid:4NT"
        level = 7 if min(p.total, p.sure) >= GRAND else 6
        if (p.trump is None and p.sure >= SLAM) or _agreed(p.ctx, p.strain):
            call = p.bid(level)
            if call:
                return call
    return p.invite


def game(p: Plan) -> str | None:
    """Game, where our points together reach it (3NT rather than a minor's game)."""
    strain, last = p.game_strain, p.last
    g = game_level(strain, p.ctx)
    if p.game_total >= game_points(strain, g):
        if p.ours and last is not None and last.level >= g and (last.strain == strain or
                                                                last.level >= 4):
            return "pass"
        return p.bid(g, strain)
    return None


def forced(p: Plan) -> str | None:
    """Partner forced us to bid: the cheapest bid in our strain."""
    if p.ctx.forcing:
        nxt = cheapest(p.game_strain, p.last)
        if nxt is not None and "bid:" + nxt.text in p.legal:
            return "bid:" + nxt.text
    return None


def invitation(p: Plan) -> str | None:
    """In our strain; none where our part score makes the invitation's level game
    already."""
    strain, last = p.game_strain, p.last
    invite_level = 3 if strain != Strain.NOTRUMP else 2
    if p.ours and p.game_total >= INVITE and last is not None and last.level < 3 \
            and game_level(strain, p.ctx) > invite_level and p.our_strain == strain:
        call = p.bid(invite_level, strain)
        if call and Bid(int(call[4]), strain) > last:
            return call
    return None


def competition(p: Plan) -> str | None:
    """Their bid is the last: double their sacrifice over our game, or compete in our
    fit."""
    ctx, last, trump = p.ctx, p.last, p.trump
    if p.ours or last is None:
        return None
    their_game = last.level >= game_level(last.strain, ctx, LHO)
    we_bid_game = any(b.level >= game_level(b.strain, ctx) for b in ctx.bids(ME)
                      + ctx.bids(PARTNER))
    if we_bid_game and their_game and p.game_total >= GAME and "double" in p.legal:
        return "double"
    if trump is not None and p.fit[trump] >= 8:
        # In the fit's suit, not the notrump the game step may have preferred above.
        level = min(int(p.fit[trump]) - 6, 4 if p.game_total >= 20 else 3)
        nxt = cheapest(Strain(int(trump)), last)
        if nxt is not None and nxt.level <= level and "bid:" + nxt.text in p.legal:
            return "bid:" + nxt.text
    return None


def misfit(p: Plan) -> str | None:
    """A misfit part score: move to our own long suit once."""
    strain, our, last, trump = p.game_strain, p.our_strain, p.last, p.trump
    if p.ours and our is not None and our != strain and trump is not None \
            and our != Strain.NOTRUMP and p.hand.lengths[trump] >= 6 \
            and p.fit[int(our)] < 7 and last is not None and last.level <= 2:
        nxt = cheapest(strain, last)
        if nxt is not None and nxt.level <= 3 and "bid:" + nxt.text in p.legal:
            return "bid:" + nxt.text
    return None


@dataclass(frozen=True, slots=True)
class Step:
    """A step of the captain: its name, what it does in a player's words (the system
    page shows these, in this order) and the function that decides it (a call, or None:
    the next step is asked)."""

    name: str
    says: str
    decide: Callable[[Plan], str | None]


CAPTAIN_STEPS: tuple[Step, ...] = (
    Step("Settled", "Settled: partner's last bid put us in game: pass, unless it is below "
         "six, no 4NT has been bid and the next step finds slam values.", settled),
    Step("Slam", f"Slam: {ASK}+ points together with a trump suit: ask for key cards with "
         f"4NT (Roman Key Card) where partner would answer in that suit, else bid the slam; "
         f"in notrump, {SLAM}+ promised: 6NT, {QUANT}+ promised and "
         f"{SLAM} possible: a quantitative 4NT (after our notrump bid; with a minor agreed, "
         f"four of it asks partner to ask). A minor agreed, notrump our game: its slam from "
         f"{MINOR_ASK} (4NT asks); five of it over a forcing raise past 3NT. A game bid "
         "where that ask was open says too little for slam.", slam),
    Step("Game", f"Game: {GAME}+ together: bid game at once (3NT, four of a major, five of "
         f"a minor with {MINOR_GAME}+). In notrump a hand counts its high cards and a long "
         "suit's sixth and later cards; with a trump fit, a hand adds its shortness.", game),
    Step("Forced", "Forced: partner forced us to bid: the cheapest bid in our best strain.",
         forced),
    Step("Invitation", f"Invitation: {INVITE}–{GAME - 1} together: raise our strain to the "
         "three level (2NT over 1NT); partner accepts with the top of what it has shown.",
         invitation),
    Step("Competition", "Competition: with an 8+ card fit, bid to the level of the fit's "
         "length (8 cards: two, 9 cards: three; four at most, three below 20 together); a "
         "suit partner has not shown needs six cards; their sacrifice over our game is "
         "doubled.",
         competition),
    Step("Misfit", "Misfit: our side's last bid, at the two level or lower, is in a suit "
         "we hold fewer than 7 cards of together, and we hold six of another: bid it once, "
         "at the three level at most.", misfit),
)
# What the system page says after the steps (the simulation is not a step: it may
# change a step's call afterwards, `simulation.settle`).
AFTER_STEPS = (
    "Otherwise pass.",
    "A double no table gives a meaning is for penalty: it says we hold the balance of "
    f"strength, {BALANCE_OF_STRENGTH}+ HCP together with partner at its expected points. "
    "A notrump game, slam or quantitative 4NT no table gives a meaning shows the high "
    f"cards it needs together, counted the same way (game {GAME}, less with a part "
    f"score; slams {SLAM} and {GRAND}; the 4NT {QUANT}); a redouble, 10+ HCP and a "
    "contract we expect to make.",
    "With time to think, a decision here, the opponents silent, is checked by dealing "
    "the unseen hands as the calls describe them and playing the candidate contracts "
    "double dummy: a contract that scores "
    f"{SETTLE_MARGIN:g}+ IMP a deal better, by {SETTLE_CONFIDENCE:g} standard errors of its "
    "swings over the layouts, replaces the call above (a slam in our agreed "
    "suit is still asked for with 4NT).",
)
STEPS = (*(step.says for step in CAPTAIN_STEPS), *AFTER_STEPS)


def place(ctx: Context, hand: Hand, legal: list[str]) -> str:
    """The call that places our contract (an action text): the first step of
    `CAPTAIN_STEPS` that decides, else pass."""
    plan = plan_of(ctx, hand, legal)
    return next((call for step in CAPTAIN_STEPS if (call := step.decide(plan)) is not None),
                "pass")


def _agreed(ctx: Context, strain: Strain) -> bool:
    """Partner has bid `strain` (we may have too): in a suit, showing length there (an
    artificial 2♣ or Stayman agrees nothing)."""
    if strain not in {b.strain for b in ctx.bids(PARTNER)}:
        return False
    suit = strain.trump
    return suit is None or ctx.partner_range().min_len[suit] >= 3


def key_card_ask_range(ctx: Context) -> HandRange:
    """What our 4NT key-card ask shows: the slam values the captain asks with (`ASK`
    points together, partner counted at `expected_points`), so that no other player's
    4NT (a value-chosen call, a simulated slam) asks from a hand with none. Shortness
    counted in the points, so the high cards promised are 4 fewer (`HandRange`)."""
    promised = max(0, math.floor(ASK - expected_points(ctx.partner_range())))
    return HandRange(min_hcp=max(0, promised - 4), min_points=promised)


def high_cards_together(ctx: Context, together: float) -> HandRange:
    """What a call outside the tables that claims values shows: the high cards it needs
    `together` with partner at its expected points, as the captain counts them. A penalty
    double claims the balance of strength (`BALANCE_OF_STRENGTH`); a notrump game, slam
    or quantitative 4NT, what that contract needs (no trumps to ruff with: a contract of
    high cards). So that no other player's such call (a value-chosen one) is made from a
    hand with too little."""
    return HandRange(min_hcp=max(0, math.ceil(together
                                              - expected_points(ctx.partner_range()))))


def with_high_cards(words: str, shown: HandRange) -> str:
    """`words`, and the high cards `shown` where it promises any (none where partner has
    shown them all: after a strong 2♣, a penalty double promises nothing more)."""
    return f"{words}, {shown.min_hcp}+ HCP" if shown.min_hcp else words


def natural_phrase(ctx: Context, action: str) -> tuple[str, HandRange]:
    """What a call outside the tables says (the captain's calls, and people's)."""
    if action == "pass":
        return ("nothing more to say", HandRange())
    if action == "double":
        shown = high_cards_together(ctx, BALANCE_OF_STRENGTH)
        return (with_high_cards("penalty: we hold the balance of strength", shown), shown)
    if action == "redouble":
        # After a double no table answers (mostly a penalty double of our contract): the
        # learned values redouble where they expect it to make, not where we hold the
        # balance of strength, so the words claim only what the range holds.
        return ("to play: expects to make it, 10+ HCP", HandRange(min_hcp=10))
    bid = Bid.parse(action[4:])
    strain = bid.strain
    level_word = ("slam" if bid.level >= 6 else
                  "game" if bid.level >= game_level(strain, ctx) else "")
    if strain == Strain.NOTRUMP:
        if bid == Bid(4, Strain.NOTRUMP) and ctx.our_bids():
            if ctx.notrump_asks():
                shown = high_cards_together(ctx, QUANT)
                return (with_high_cards("quantitative: invites 6NT", shown), shown)
            shown = key_card_ask_range(ctx)
            return ("Roman Key Card Blackwood: asks for the aces and the king of trumps, "
                    f"slam values: {shown.min_points}+ points", shown)
        if is_invitation(ctx, bid):
            shown = invitation_range(ctx, strain)
            return (f"invites 3NT: {shown.min_hcp}–{shown.max_hcp} HCP", shown)
        if not level_word:
            return ("natural: notrump", HandRange())
        # A part score's game (2NT with 70 below) needs what the captain bids it with.
        shown = high_cards_together(ctx, GRAND if bid.level == 7 else
                                    SLAM if bid.level == 6 else
                                    game_points(strain, min(bid.level, game_level(strain))))
        return (with_high_cards(f"to play in {level_word}", shown), shown)
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
        return (f"{what}, invites game: {shown.min_hcp}–{shown.max_hcp} HCP",
                shown.narrowed(HandRange(min_len=(lengths[0], lengths[1], lengths[2],
                                                  lengths[3]))))
    tail = f", to play in {level_word}" if level_word else (
        "" if ctx.ours() or ctx.last_bid is None else ", competing")
    shown = HandRange(min_len=(lengths[0], lengths[1], lengths[2], lengths[3]))
    return (what + tail, shown)
