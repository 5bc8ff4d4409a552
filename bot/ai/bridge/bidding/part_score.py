"""The rubber's table: calls a rubber player makes because of the part scores below the
line (`Context.score`; on a duplicate board there is none and this table is empty).

In order, each speaking only where its situation holds:
- game reached: our last bid completes our game (our part score plus its trick score make
  100, `captain.game_level`), below the full game: pass unless we have slam values;
- raise to game: partner's suit, where a level below the full game completes our game:
  raise to that level (a jump where the cheapest raise falls short of it) with support
  and the points that level needs;
- game in our own strain: likewise notrump (their suits stopped) or a long suit of ours,
  on our first bid;
- compete for the part score: their last bid, in a suit they have found a fit in,
  completes their game: we compete one level higher than the fit alone would (an 8-card
  fit bids to the three level), since letting them play there gives them a game.

The calls are read by the same rules (these rules come first in their situation's table).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.games.bridge_auction import Bid, Strain
from bot.games.cards import Suit

from .captain import ASK, SLAM, WEAK_HCP, expected_points, game_level, game_points
from .context import LHO, ME, PARTNER, RHO, Context, cheapest
from .rules import BALANCED, Rule, stopper_in

FIT = 8  # cards together for a fit
COMPETE_POINTS = 15  # high cards together (ours and partner's expected) to compete


def _slam_cap(ctx: Context, strain: Strain | None = None) -> int:
    """The most points that have no slam interest opposite what partner has shown (a
    notrump slam needs `SLAM` together, a suit slam's key-card ask `ASK`)."""
    top = SLAM if strain == Strain.NOTRUMP else ASK
    return max(0, math.ceil(top - expected_points(ctx.partner_range())) - 1)


def game_reached(ctx: Context) -> list[Rule]:
    last = ctx.last_bid
    if last is None or not ctx.ours() or ctx.forcing:
        return []
    level = game_level(last.strain, ctx)
    if not level <= last.level < game_level(last.strain):
        return []
    suit = last.strain.trump
    bidder = ctx.shown[(ctx.seat + (ctx.last_bidder or ME)) % 4]
    if suit is not None and bidder.min_len[suit] < 2:
        return []  # an artificial bid (a transfer): not a contract to play
    cap = _slam_cap(ctx, last.strain)
    return [Rule("pass", f"our part score of {ctx.part_score()} makes {last.label} game, "
                 "no slam interest", pts=(0, cap))]


def raise_to_game(ctx: Context) -> list[Rule]:
    partner = ctx.partner_range()
    last = ctx.last_bid
    out: list[Rule] = []
    for bid in reversed(ctx.bids(PARTNER)):
        suit = bid.strain.trump
        if suit is None or partner.min_len[suit] < 4:
            continue
        nxt = cheapest(bid.strain, last)
        if nxt is None:
            continue
        # The completing level, jumping to it where the cheapest raise is short of it.
        level = max(nxt.level, game_level(bid.strain, ctx))
        if level >= game_level(bid.strain):
            continue
        need = max(WEAK_HCP + 1, math.ceil(game_points(bid.strain, level)
                                           - expected_points(partner)))
        cap = _slam_cap(ctx)
        if need > cap:
            continue
        support = max(3, FIT - partner.min_len[suit])
        out.append(Rule(Bid(level, bid.strain).text,
                        f"completes game with our part score of {ctx.part_score()}",
                        pts=(need, cap), trump=suit, lengths={suit: (support, 13)}))
        break
    return out


def game_in_own_strain(ctx: Context) -> list[Rule]:
    """Where the cheapest bid completes our game below the full game: notrump with their
    suits stopped, a six-card suit of mine (four cards answering partner's takeout
    double), with the points that level needs, on my first bid after partner has spoken."""
    said = ctx.actions(PARTNER)
    if ctx.score is None or ctx.bids(ME) or not said:
        return []
    partner = ctx.partner_range()
    last = ctx.last_bid
    theirs = ctx.their_suits()
    answering = said[-1].kind == "double" and ctx.last_bidder in (LHO, RHO)
    out: list[Rule] = []
    strains = [Strain.NOTRUMP] + [Strain(int(s)) for s in (Suit.SPADES, Suit.HEARTS,
                                                           Suit.DIAMONDS, Suit.CLUBS)
                                  if s not in theirs]
    for strain in strains:
        nxt = cheapest(strain, last)
        if nxt is None or not game_level(strain, ctx) <= nxt.level < game_level(strain):
            continue
        need = max(WEAK_HCP + 1, math.ceil(game_points(strain, nxt.level)
                                           - expected_points(partner)))
        cap = _slam_cap(ctx, strain)
        if need > cap:
            continue
        word = f"completes game with our part score of {ctx.part_score()}"
        if strain == Strain.NOTRUMP:
            if answering:
                continue
            held = stopper_in(theirs) if theirs else BALANCED
            out.append(Rule(nxt.text, word, hcp=(need, cap), when=held))
            continue
        suit = Suit(int(strain))
        length = 4 if answering else 6
        out.append(Rule(nxt.text, word, pts=(need, cap), lengths={suit: (length, 13)}))
    return out


def _their_fit(ctx: Context, last: Bid) -> bool:
    suit = last.strain.trump
    if suit is None:
        return False
    bidders = {ctx.rel(s) for s, c in ctx.calls if c.bid is not None and c.bid.strain
               == last.strain}
    shown = sum(ctx.shown[(ctx.seat + who) % 4].min_len[suit] for who in (LHO, RHO))
    return {LHO, RHO} <= bidders or shown >= FIT


def compete(ctx: Context) -> list[Rule]:
    last = ctx.last_bid
    if last is None or ctx.last_bidder not in (LHO, RHO) or ctx.doubled \
            or not _their_fit(ctx, last):
        return []
    if not game_level(last.strain, ctx, LHO) <= last.level < game_level(last.strain):
        return []
    partner = ctx.partner_range()
    need = max(WEAK_HCP, math.ceil(COMPETE_POINTS - expected_points(partner)))
    theirs = ctx.their_suits()
    ours = sorted((s for s in Suit if s not in theirs),
                  key=lambda s: (-partner.min_len[s], -s))
    out = []
    for suit in ours:
        nxt = cheapest(Strain(int(suit)), last)
        if nxt is None or nxt.level > 3:
            continue
        shown = partner.min_len[suit]
        # Partner's unshown share counts as two cards; a suit alone needs six.
        mine = max(FIT, nxt.level + 5) - (shown if shown >= 3 else 2)
        mine = max(mine, 3 if shown >= 3 else 6)
        out.append(Rule(nxt.text, f"competes for the part score, their {ctx.part_score(LHO)} "
                        f"below the line makes {last.label} game", hcp=(need, 37),
                        lengths={suit: (mine, 13)}))
    return out


def artificial(rule: Rule) -> bool:
    """A call the table makes without showing the strain bid (a transfer, Stayman, a
    conventional 2NT): the part-score rules leave such calls to the table."""
    if not rule.call[:1].isdigit():
        return False
    strain = Strain.parse(rule.call[1:])
    if strain.trump is None:
        return any(lo >= 4 for lo, _ in rule.lengths.values())
    return rule.lengths.get(strain.trump, (0, 13))[0] < 2


def rubber_rules(ctx: Context, table: Sequence[Rule] = ()) -> list[Rule]:
    """The rules the part scores add now, in order (none on a duplicate board), but for
    the calls the situation's `table` makes artificially."""
    if ctx.score is None:
        return []
    taken = {rule.call for rule in table if artificial(rule)}
    return [rule for rule in (*game_reached(ctx), *raise_to_game(ctx),
                              *game_in_own_strain(ctx), *compete(ctx))
            if rule.call not in taken]

