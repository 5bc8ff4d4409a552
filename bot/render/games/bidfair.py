"""Bid Fair texts: the crib, bid cards face up or down, the high rank and contract, the cut,
the exchange, captured points.

A face-down bid card is shown only to its owner (the view holds None for everyone else)
until the deal is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.games.base import ScoreLine
from bot.games.bidfair_rank import CONTRACT_REWARD, TRUMP_BONUS, order_text
from bot.games.bidfair_view import BidFairView, DealSummary, Placement
from bot.games.cards import Card, sort_hand
from bot.render.text import cards_inline, hand_block

from .base import About, Field, GameText, Hand, own_seat
from .common import MATCH_OVER, play_lines, plays_inline, plural, score_lines, suit_word

if TYPE_CHECKING:
    from bot.render.seating import Seating

SEATS = ("North", "South")
CRIB_EACH = 4


def placement_text(placement: Placement | None, passed: bool, show_down: bool = False) -> str:
    """`face up **Q♥**`, `face down`, `passed`, or `—`."""
    if placement is None:
        return "passed" if passed else "—"
    if placement.face_up:  # a face-up card is seen by everyone
        return f"face up **{placement.card.label}**" if placement.card else "face up"
    if show_down and placement.card is not None:
        return f"face down ({placement.card.label})"
    return "face down"


def contract_line(view: BidFairView, name: Callable[[int], str]) -> str:
    """Who holds the contract and for how much, or that there is none."""
    if view.holder is None or view.high_rank is None:
        return "No contract: nobody bid face up."
    return (f"Contract: **{name(view.holder)}** must capture **{view.contract_value}** "
            f"(high rank {view.high_rank.label})")


def trump_line(view: BidFairView | DealSummary, name: Callable[[int], str]) -> str:
    """The trump suit and cut card, and who earns 40 for a face-up bid card in trump (of
    the deal in play or of a finished one)."""
    if view.cut is None:
        return ""
    text = f"Trump: **{suit_word(view.trump)}** (cut card {view.cut.label})"
    bonus = [name(s) for s, p in enumerate(view.bids)
             if p is not None and p.face_up and p.card is not None and p.card.suit == view.trump]
    if bonus:
        text += " · 40 for a face-up bid card in trump: " + ", ".join(bonus)
    return text


def _trump_bidders(summary: DealSummary) -> list[int]:
    """The seats whose face-up bid card is of the trump suit (40 each)."""
    return [s for s, p in enumerate(summary.bids)
            if p is not None and p.face_up and p.card is not None and p.card.suit == summary.trump]


@dataclass(frozen=True, slots=True)
class CardPlaces:
    """Where each of a finished deal's 24 cards ended, each card in one place: what each
    seat played (a thrown-in deal: what it held after the crib), the bid cards and the
    cut card (captured by nobody), and the cards nobody played."""

    played: tuple[tuple[Card, ...], tuple[Card, ...]]
    unplayed: tuple[Card, ...]
    unplayed_title: str  # what the unplayed cards are, e.g. "Not played: the crib's other 7"


def card_places(summary: DealSummary, name: Callable[[int], str]) -> CardPlaces:
    """Every card of the deal once, where it truly ended (`name`: a seat's name)."""
    if summary.tricks:
        played = tuple(sort_hand([card for trick in summary.tricks
                                  for seat, card in trick.cards if seat == s]) for s in (0, 1))
    else:  # thrown in before any play: each kept what the crib and no bid card left
        bids = {p.card for p in summary.bids if p is not None and p.card is not None}
        played = tuple(sort_hand([c for c in summary.hands[s]
                                  if c not in summary.cribs[s] and c not in bids])
                       for s in (0, 1))
    if summary.cut is None:  # never cut: the crib as the players built it
        unplayed = (*summary.cribs[0], *summary.cribs[1])
        title = "The crib, never turned up"
    elif summary.exchanged and summary.holder is not None:
        unplayed = summary.remaining_crib
        title = f"Not played: {name(summary.holder)}'s own 7 (swapped for the crib)"
    else:
        unplayed = summary.remaining_crib
        title = f"Not played: the crib's other {len(unplayed)}"
    return CardPlaces((tuple(played[0]), tuple(played[1])), tuple(sort_hand(unplayed)),
                      title)


def contract_result(summary: DealSummary, name: Callable[[int], str]) -> str:
    """`Ann had to capture 60 and took 20: missed`, or that there was no contract."""
    holder, value = summary.holder, summary.contract_value
    if holder is None or value is None:
        return "No contract: nobody bid face up"
    took = summary.captured[holder]
    return (f"{name(holder)} had to capture {value} and took {took}: "
            + ("made" if took >= value else "missed"))


def score_words(summary: DealSummary, name: Callable[[int], str]) -> str:
    """What the deal's points are made of, in plain words: each scores the card points
    they captured, and what a made contract or a trump bid card adds."""
    holder, value, captured = summary.holder, summary.contract_value, summary.captured
    said = ["Each scores the card points they captured."]
    if holder is not None and value is not None and captured[holder] >= value:
        other = 1 - holder
        more = max(0, captured[holder] - captured[other])
        doubled = all(p is not None and p.face_up for p in summary.bids)
        said.append(f"The contract was made, so {name(holder)} also scores the difference, "
                    f"{more}" + (" twice (both bid face up)" if doubled else "")
                    + f", and {name(other)} {CONTRACT_REWARD}.")
    elif holder is not None:
        said.append("A missed contract scores nothing more.")
    said += [f"{name(seat)} also scores {TRUMP_BONUS} for a face-up bid card in trump."
             for seat in _trump_bidders(summary)]
    return " ".join(said)


def points_only(summary: DealSummary) -> ScoreLine:
    """The deal's score line, its note left to `contract_result` and `score_words` when
    they say it (a deal thrown in keeps its note: "both passed: thrown in")."""
    assert summary.line is not None
    return summary.line if summary.cut is None else replace(summary.line, note="")


class BidFairText(GameText[BidFairView, DealSummary]):
    def verb(self, view: BidFairView) -> str:
        return {"crib": "build the crib",
                "bidding": "place a bid card (face up or face down) or pass",
                "exchange": "exchange hands with the crib or keep",
                "play": "play"}.get(view.phase, "play")

    def turn_line(self, view: BidFairView, seating: Seating) -> str:
        if view.phase == "crib":
            owed = ", ".join(f"{seating.who(s)} {view.crib_owed[s]} more"
                             for s in sorted(view.to_act))
            return f"Building the crib (4 cards each, face down): waiting for {owed}."
        return super().turn_line(view, seating)

    def status_lines(self, view: BidFairView, seating: Seating) -> list[str]:
        goal = (f"deal {view.deal_no} of {view.deals}, most points wins" if view.deals
                else f"first to {view.target} points")
        first = f"Dealer {seating.seat_names[view.dealer]} · {goal}"
        if view.redeals:
            first += f" · thrown in {plural(view.redeals, 'time')} (both passed)"
        lines = [first]
        if view.phase in ("exchange", "play"):
            # People by name, and short lines joined: the table fits a phone.
            lines.append(contract_line(view, seating.name))
            lines.append(trump_line(view, seating.name))
            order = f"Order: {order_text(view.high_rank)}"
            if view.exchanged is not None and view.holder is not None:
                order += (f" · {seating.name(view.holder)} "
                          + ("exchanged hands with the crib." if view.exchanged
                             else "kept their hand."))
            lines.append(order)
            if view.phase == "play":
                lines.append("Captured: " + " · ".join(  # (tricks: the trick's number)
                    f"{seating.seat_names[s]} **{view.captured[s]}**" for s in (0, 1)))
        lines.append(self.turn_line(view, seating))
        return [line for line in lines if line]

    def public_fields(self, view: BidFairView, seating: Seating) -> list[Field]:
        if view.phase == "match_over":
            return []
        fields: list[Field] = []
        if view.phase == "crib":
            fields.append(("Crib", f"{view.crib_count} of 8 cards in", True))
        if view.phase in ("bidding", "exchange", "play"):
            bids = [f"{seating.who(s)}: {placement_text(view.bids[s], view.passes[s])}"
                    for s in (0, 1)]
            if view.high_rank is not None and view.phase == "bidding":  # then: the contract
                bids.append(f"High rank: **{view.high_rank.label}** · contract value "
                            f"**{view.contract_value}**")
            fields.append(("Bid cards", "\n".join(bids), False))
        if view.phase == "play":
            fields.append((f"Trick {sum(view.tricks_won) + 1} of 7",
                           play_lines(view.trick, seating.who, (0, 1)), True))
        return fields

    # -- the private hand -------------------------------------------------------------

    def private_lines(self, view: BidFairView, seating: Seating) -> list[str]:
        if view.phase == "match_over":
            return [MATCH_OVER]
        seat = own_seat(view)
        lines = ["Your hand:", hand_block(view.hand) if view.hand else "(no cards)"]
        if view.my_crib:
            lines.append(f"Your crib cards: {cards_inline(view.my_crib)}")
        mine = view.bids[seat] if view.phase != "crib" else None
        if mine is not None:
            lines.append(f"Your bid card: {placement_text(mine, False, show_down=True)}")
        other = view.bids[1 - seat]
        if view.phase == "bidding":
            lines.append(f"Opponent: {placement_text(other, view.passes[1 - seat])}")
            lines.append("Face up is a bid: the higher face-up rank wins and sets the high "
                         "rank (contract value 9→40, 10→50, J→60, Q→70, K→80, A→90); "
                         "face down is no bid.")
        if view.phase in ("exchange", "play"):
            def you(s: int) -> str:
                return "you" if s == seat else "your opponent"

            lines.append(contract_line(view, you))
            lines.append(trump_line(view, you))
            lines.append(f"Order in each suit: {order_text(view.high_rank)}")
        if view.set_aside:
            lines.append(f"Your old hand (now the unused crib): {cards_inline(view.set_aside)}")
        if view.phase == "exchange" and seat == view.holder:
            lines.append("**Exchange** swaps your 7 cards for the 7 face-down crib cards left "
                         "after the cut (your old hand becomes the crib); **Keep** plays the "
                         "hand you hold.")
        if view.phase == "play":
            lines.append(f"Captured: you {view.captured[seat]}, opponent "
                         f"{view.captured[1 - seat]} · Trick: "
                         + plays_inline(view.trick, lambda s: SEATS[s]))
        return [line for line in lines if line]

    def prompt(self, view: BidFairView, legal: Sequence[str]) -> str:
        if view.phase == "crib":
            owed = view.crib_owed[own_seat(view)]
            return f"**Put {CRIB_EACH} cards into the crib ({owed} more)**"
        if view.phase == "bidding":
            text = "**Place a card face up (a bid) or face down (no bid)"
            text += ", or pass**" if "pass" in legal else "**"
            other = view.bids[1 - own_seat(view)]
            if other is not None and other.face_up and other.card is not None:
                rank = other.card.rank.label
                text += (f" — a face-up card must beat {rank}"
                         if any(a.startswith("up:") for a in legal)
                         else f" — nothing you hold beats {rank}: place a card face down")
            return text
        if view.phase == "exchange":
            return "**Exchange your hand with the crib, or keep it?**"
        return "**Lead a card**" if not view.trick else "**Play a card**"

    # -- the end of a deal ------------------------------------------------------------

    def deal_lines(self, summary: DealSummary, seating: Seating) -> list[str]:
        lines = [f"Dealer: {seating.who(summary.dealer)}"]
        lines += [f"{seating.who(s)} bid card: "
                  f"{placement_text(summary.bids[s], summary.bids[s] is None, show_down=True)}"
                  for s in (0, 1)]
        if summary.holder is not None and summary.high_rank is not None:
            lines.append(f"High rank {summary.high_rank.label}: "
                         f"{contract_result(summary, seating.name)} "
                         + ("(exchanged hands with the crib)" if summary.exchanged
                            else "(kept the hand)"))
        elif summary.cut is not None:
            lines.append("No contract: nobody bid face up.")
        if summary.cut is not None:
            lines.append(trump_line(summary, seating.name).replace("**", ""))
            lines.append("Captured: " + " · ".join(
                f"{seating.who(s)} **{summary.captured[s]}**" for s in (0, 1)))
            lines.append(score_words(summary, seating.name))
        if summary.line is not None:  # its note is said above, in words (a thrown-in: here)
            lines += score_lines([points_only(summary)], SEATS)
        return lines

    def deal_hands(self, summary: DealSummary, seating: Seating) -> list[Hand]:
        """Each card once, where it ended (as the picture shows them)."""
        places = card_places(summary, seating.name)
        verb = "played" if summary.tricks else "held"
        hands: list[Hand] = [(f"{seating.who(s)}, {verb}", places.played[s]) for s in (0, 1)]
        hands += [(f"{seating.who(s)}, bid card", (p.card,))
                  for s, p in enumerate(summary.bids) if p is not None and p.card is not None]
        if summary.cut is not None:
            hands.append(("Cut card", (summary.cut,)))
        if places.unplayed:
            hands.append((places.unplayed_title, places.unplayed))
        return hands


RULES = """\
**Players:** two, with 24 cards (9, 10, J, Q, K, A of each suit); 12 each. The first dealer is random.
**Crib:** each player puts 4 cards face down into a shared crib of 8.
**Bidding** — each player ends up placing exactly one card, keeping 7:
• The non-dealer places a card **face up** (a bid), **face down** (no bid), or **passes**.
• After a face-up bid the dealer places a face-up card of higher rank (9 < 10 < J < Q < K < A; suits don't matter) or a card face down. After a face-down card the dealer places any card face up, or face down.
• If the non-dealer passed, the dealer places face up, face down, or passes (both pass: redeal by the same dealer). Then the non-dealer must place a card: face up and higher than a face-up dealer bid (any rank after a face-down card), or face down.
**Contract:** the higher face-up bid makes its player the bidder; the other is the **contract holder**. The bid card's rank is the deal's **high rank** and sets the contract value: 9: 40, 10: 50, J: 60, Q: 70, K: 80, A: 90. No face-up card: no contract.
**Trump:** the crib is shuffled and its top card turned up; its suit is trump. A face-up bid card of the trump suit earns its player 40.
**Exchange:** the holder may swap their 7 cards for the other 7 crib cards.
**Play:** 7 tricks; the holder leads (no contract: the non-dealer). Follow suit, else trump or discard. In each suit the high rank is highest, then K Q J 10 9. The ace is low when led and high when played second — unless the ace is the high rank, when it is simply highest. With no contract: K Q J 10 9 with the ace rule.
**Scoring:** captured cards count A 1, K/Q/J/10 10, 9 9; each player scores their own. If the holder's points reach the contract value, the holder also scores the difference between the two players' points (doubled when both bid cards were face up) and the opponent gets 40. No penalty for failing.
**Next deal:** the player ahead deals (level: alternate). The game ends after a deal where someone has reached the target (800 unless the table chose another); the higher total wins; tied, play another deal."""  # noqa: E501 (player-facing prose: a paragraph per line)

ABOUT = About(
    title="Bid Fair",
    summary="Bid Fair: two players, 24 cards, a crib",
    figure_ratios=(("Contracts fulfilled", "fulfilled", "contracts"),),
    rules=RULES,
)

TEXT = BidFairText(ABOUT)
