"""Spades texts: bids and tricks per seat, face-down hands, Double Nil, the deal's result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.games.cards import Suit
from bot.games.spades_scoring import bid_label
from bot.games.spades_view import SpadesDealSummary, SpadesView
from bot.render.text import hand_block

from .base import About, Field, GameText, Hand, own_seat
from .common import MATCH_OVER, follow_hint, plays_inline, plural, score_lines

if TYPE_CHECKING:
    from bot.render.seating import Seating

SIDES = ("North-South", "East-West")
SIDE_SEATS = ((0, 2), (1, 3))


def _bid_cell(view: SpadesView, seat: int) -> str:
    bid = view.bids[seat]
    if bid is not None:
        return bid_label(bid)
    if not view.looked[seat]:
        return "not yet looked"
    return "to bid" if view.turn == seat else "not bid yet"


def _side_line(bids: Sequence[int | None], won: Sequence[int], side: int) -> str:
    a, b = SIDE_SEATS[side]
    made = won[a] + won[b]
    if bids[a] is None or bids[b] is None:
        return f"{SIDES[side]}: {plural(made, 'trick')}"
    counted = [s for s in (a, b) if (bids[s] or 0) > 0]
    nils = [bid_label(bids[s] or 0) for s in (a, b) if s not in counted]
    contract = sum(bids[s] or 0 for s in counted)
    parts = [f"bid {contract}" if counted else "no trick bid"]
    parts += [f"+ {n}" for n in nils]
    return f"{SIDES[side]}: {' '.join(parts)} · won {made}"


class SpadesText(GameText[SpadesView, SpadesDealSummary]):
    def verb(self, view: SpadesView) -> str:
        if view.phase == "play":
            return "play"
        if view.turn is not None and not view.looked[view.turn]:
            return "look at their cards or bid Double Nil"
        return "bid"

    def status_lines(self, view: SpadesView, seating: Seating) -> list[str]:
        rules = (f"deal {view.deal_no} of {view.deals}, most points wins" if view.deals
                 else f"first side to {view.target} wins")
        if view.bags_penalty:
            rules += " · bags penalty on"
        lines = [f"Dealer {seating.seat_names[view.dealer]} · {rules}"]
        if view.phase == "play":
            broken = "broken" if view.spades_broken else "not broken yet"
            lines.append(f"♠ Spades are trump, {broken}.")
            # Each side's contract, then who bid what and won what (once, not again
            # seat by seat below: the table fits a phone), bags once there are any.
            lines += [_side_line(view.bids, view.tricks_won, side) + " · " + ", ".join(
                      f"{seating.name(s)} **{_bid_cell(view, s)}** ({view.tricks_won[s]})"
                      for s in SIDE_SEATS[side])
                      + (f" · {plural(view.bags[side], 'bag')}" if view.bags[side] else "")
                      for side in (0, 1)]
        elif view.phase == "bidding":
            lines.append("♠ Spades are trump. Bids: Nil or 1-13 tricks; Double Nil only "
                         "before looking at one's cards.")
        lines.append(self.turn_line(view, seating))
        return lines

    def public_fields(self, view: SpadesView, seating: Seating) -> list[Field]:
        if view.phase == "match_over":
            return []
        if view.phase == "play":  # the bids are in the sides' lines above
            return [(f"Trick {len(view.tricks) + 1} of 13",
                     self.trick_text(view.trick, seating), True)]
        return [("Bids", "\n".join(f"{seating.who(seat)}: **{_bid_cell(view, seat)}**"
                                   for seat in range(4)), False)]

    # -- the private hand -------------------------------------------------------------

    def private_lines(self, view: SpadesView, seating: Seating) -> list[str]:
        if view.phase == "match_over":
            return [MATCH_OVER]
        seat = own_seat(view)
        partner = (seat + 2) % 4
        lines: list[str] = []
        if not view.looked[seat]:
            lines += [f"Your {plural(view.hand_sizes[seat], 'card')} are face down.",
                      "Look at them whenever you like. **Double Nil** (+200 / −200) can "
                      "only be bid while they are still face down, on your turn."]
        elif view.hand:
            lines += ["Your hand:", hand_block(view.hand)]
        bids = [f"you **{_bid_cell(view, seat)}**",
                f"partner {seating.seat_names[partner]} **{_bid_cell(view, partner)}**"]
        bids += [f"{seating.seat_names[s]} **{_bid_cell(view, s)}**"
                 for s in ((seat + 1) % 4, (seat + 3) % 4)]
        lines.append("Bids: " + ", ".join(bids))
        if view.phase == "play":
            side = seat % 2
            lines.append(_side_line(view.bids, view.tricks_won, side)
                         + f" (you {view.tricks_won[seat]}, partner "
                         f"{view.tricks_won[partner]})")
            lines.append("Trick: " + plays_inline(view.trick, lambda s: seating.seat_names[s]))
        return lines

    def prompt(self, view: SpadesView, legal: Sequence[str]) -> str:
        if legal == ["look"]:
            return "**Look at your cards** when you are ready; you bid when your turn comes."
        if "look" in legal:
            return "**Your bid:** look at your cards first, or bid **Double Nil** blind."
        if any(a.startswith("bid:") for a in legal):
            return "**Your bid:** Nil, 1-13 tricks"
        if not view.trick:
            holds_spades = any(c.suit == Suit.SPADES for c in view.hand)
            if holds_spades and not any(a.endswith("S") for a in legal):
                return "**Your lead** (spades are not broken yet: lead another suit)"
            return "**Your lead**"
        return "**Play a card**" + follow_hint(view.trick, view.hand)

    # -- the end of a deal ------------------------------------------------------------

    def deal_lines(self, summary: SpadesDealSummary, seating: Seating) -> list[str]:
        lines = [f"Dealer: {seating.who(summary.dealer)}"]
        lines += [_side_line(summary.bids, summary.tricks_won, side)
                  + f" · {plural(summary.bags[side], 'bag')}" for side in (0, 1)]
        lines += score_lines(summary.lines, SIDES)
        return lines

    def deal_hands(self, summary: SpadesDealSummary, seating: Seating) -> list[Hand]:
        return [(f"{seating.who(seat)}, bid {bid_label(summary.bids[seat])}, "
                 f"won {summary.tricks_won[seat]}", hand)
                for seat, hand in enumerate(summary.hands)]


RULES = """\
**Players:** four, partners sit opposite (North-South against East-West). Spades are always trumps.
**Deal:** 13 cards each; the first dealer is drawn at random, then the deal moves clockwise.
**Bidding:** starting left of the dealer, each player bids **Nil** or **1-13** tricks. Your cards start face down: press **Look at my hand** to see them (you may look before your turn). While you have not looked you may instead bid **Double Nil** on your turn.
**Play:** the player left of the dealer leads. Follow suit if you can. Spades may not be led until a spade has been played to an earlier trick, unless you hold nothing but spades. Highest spade wins, else the highest card of the suit led.
**Scoring per side:** the bids of both partners add up to the contract. Made: 10 per trick bid plus 1 per overtrick. Set: minus 10 per trick bid.
A **Nil** bidder is scored alone: +100 for taking no trick, -100 otherwise (**Double Nil** ±200). Their tricks never count for their partner, whose own bid is then scored alone on their own tricks. A nil bidder's tricks are not bags.
**Bags** (overtricks) are counted for each side. With the `bags_penalty` option, every 10 bags cost 100 points (off by default).
**End:** the first side to reach the target (500 unless the table chose another) wins. If both reach it on the same deal the higher score wins; tied, another deal is played."""  # noqa: E501 (player-facing prose: a paragraph per line)

ABOUT = About(
    title="Spades",
    summary="Spades: four players in partnerships, nil and double nil",
    figure_ratios=(("Nil bids made", "nil_made", "nil_bids"),
                   ("Double nil bids made", "double_nil_made", "double_nil_bids")),
    rules=RULES,
)

TEXT = SpadesText(ABOUT)
