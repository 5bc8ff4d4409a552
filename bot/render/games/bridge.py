"""Contract Bridge texts: vulnerability, the auction grid, the contract, dummy, the deal diagram."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.games.bridge_view import BridgeView, DealSummary
from bot.games.cards import SEAT_NAMES
from bot.games.tricks import completed_tricks
from bot.render.text import hand_block, hand_pairs, latest_within

from .base import About, Field, GameText, Hand, own_seat
from .common import (
    DECLARER_FIGURES,
    MATCH_OVER,
    auction_line,
    call_label,
    follow_hint,
    grid,
    plays_inline,
    plural,
    score_lines,
    trick_history,
)

if TYPE_CHECKING:
    from bot.render.seating import Seating

SEATS = SEAT_NAMES
SIDES = ("North-South", "East-West")


def vulnerability(vulnerable: Sequence[bool]) -> str:
    if all(vulnerable):
        return "both sides"
    if not any(vulnerable):
        return "neither side"
    return SIDES[0] if vulnerable[0] else SIDES[1]


def auction_text(calls: Sequence[tuple[int, Any]], next_to_call: int | None,
                 limit: int = 900) -> str:
    """The auction grid with N E S W columns (calls are `Call`s)."""
    return grid(("N", "E", "S", "W"), [(seat, call_label(call.text)) for seat, call in calls],
                next_to_call, limit)


NOTES_TITLE = "What the bots' calls mean"


def notes_text(calls: Sequence[tuple[int, Any]], notes: Sequence[str], limit: int = 900) -> str:
    """The computer players' bids and doubles with what they mean, one a line, the latest
    kept when they do not all fit in `limit` (their passes are left out: most say only
    that there is nothing to add)."""
    lines = [f"{SEATS[seat][0]} **{call_label(call.text)}** — {note}"
             for (seat, call), note in zip(calls, notes, strict=False)
             if note and call.kind != "pass"]
    return "\n".join(latest_within(lines, limit))


class BridgeText(GameText[BridgeView, DealSummary]):
    def verb(self, view: BridgeView) -> str:
        return "play" if view.phase == "play" else "call"

    def turn_line(self, view: BridgeView, seating: Seating) -> str:
        if (view.phase == "play" and view.turn is not None and view.turn == view.dummy
                and view.declarer is not None):
            return (f"**{seating.who(view.declarer)}** to play from dummy "
                    f"({seating.seat_names[view.dummy]}).")
        return super().turn_line(view, seating)

    def status_lines(self, view: BridgeView, seating: Seating) -> list[str]:
        lines = [f"Dealer {seating.seat_names[view.dealer]} · vulnerable: "
                 f"**{vulnerability(view.vulnerable)}**"]
        if view.score.detail is None:  # duplicate boards: no rubber, each board on its own
            lines.append(f"Board {view.deal_no} · duplicate scoring")
        else:
            lines.append(f"Rubber {view.rubber_no} · games {view.games_won[0]}–"
                         f"{view.games_won[1]} · below the line {view.part_scores[0]} / "
                         f"{view.part_scores[1]}")
        contract = view.contract
        if contract is not None and view.phase == "play":
            lines.append(f"**{contract.label} by {seating.seat_names[contract.declarer]}** · "
                         + self._tricks_text(view, defence=False))
        lines.append(self.turn_line(view, seating))
        return lines

    def public_fields(self, view: BridgeView, seating: Seating) -> list[Field]:
        if view.phase == "match_over":
            return []
        notes = notes_text(view.calls, seating.call_notes)
        explained: list[Field] = [(NOTES_TITLE, notes, False)] if notes else []
        if view.phase != "play":
            return [("Auction", auction_text(view.calls, view.turn), False), *explained]
        # In the play the auction is over: one line keeps the table short.
        fields: list[Field] = [("Auction", auction_line(c.text for _, c in view.calls), False),
                               *explained]
        if view.dummy is not None and view.dummy_hand:
            fields.append((f"Dummy — {seating.who(view.dummy)}", hand_pairs(view.dummy_hand),
                           False))
        fields.append((f"Trick {sum(view.tricks_won) + 1}", self.trick_text(view.trick,
                                                                            seating), True))
        return fields

    @staticmethod
    def _tricks_text(view: BridgeView, defence: bool = True) -> str:
        """`tricks **3** of 10, defence **1**`; without `defence` (the public table: one
        line on a phone, a doubled contract's words included; the trick's number gives
        the defence's), `tricks **3** of 10`."""
        contract = view.contract
        if contract is None:
            return ""
        side = contract.declarer % 2
        won = view.tricks_won
        return (f"tricks **{won[side]}** of {contract.tricks_needed}"
                + (f", defence **{won[1 - side]}**" if defence else ""))

    # -- the private hand -------------------------------------------------------------

    def private_lines(self, view: BridgeView, seating: Seating) -> list[str]:
        if view.phase == "match_over":
            return [MATCH_OVER]
        seat = own_seat(view)
        side = seat % 2
        vul = ("you are " + ("vulnerable" if view.vulnerable[side] else "not vulnerable")
               + ", they are " + ("vulnerable" if view.vulnerable[1 - side]
                                  else "not vulnerable"))
        lines = [f"Dealer {SEATS[view.dealer]} · {vul}."]
        if view.phase == "bidding":
            lines.append(auction_text(view.calls, view.turn, limit=600))
            notes = notes_text(view.calls, seating.call_notes, limit=500)
            if notes:
                lines.append(notes)
        contract = view.contract
        if contract is not None and view.phase == "play":
            lines.append(f"Contract: **{contract.label} by {SEATS[contract.declarer]}** · "
                         + self._tricks_text(view))
        if seat == view.dummy and view.declarer is not None:
            lines.append(f"You are dummy: your partner {SEATS[view.declarer]} plays your "
                         "cards.")
        lines += ["Your hand:", hand_block(view.hand) if view.hand else "(no cards left)"]
        if view.dummy_hand and view.dummy is not None and seat != view.dummy:
            lines += [f"Dummy ({SEATS[view.dummy]}):", hand_block(view.dummy_hand)]
        if view.phase == "play":
            lines.append("Trick: " + plays_inline(view.trick, lambda s: SEATS[s]))
            if view.playing_for is not None and view.playing_for == view.dummy \
                    and seat != view.dummy:
                lines.append("**You are playing dummy's cards now.**")
        return lines

    lists_tricks = True

    def trick_history_text(self, view: BridgeView, seating: Seating) -> str | None:
        if view.contract is None:
            return None
        tricks = completed_tricks(view.played, view.contract.trump)
        return trick_history(tricks, lambda seat: SEATS[seat][0]) if tricks else None

    def prompt(self, view: BridgeView, legal: Sequence[str]) -> str:
        if view.phase == "bidding":
            last = next((call for _, call in reversed(view.calls) if call.kind == "bid"), None)
            return "**Your call**" + (f" (the last bid is {last.label})" if last else "")
        if view.playing_for is not None and view.playing_for == view.dummy \
                and view.seat != view.dummy:
            cards = view.dummy_hand
            where = f"from dummy ({SEATS[view.dummy]})"
        else:
            cards = view.hand
            where = "from your hand"
        verb = "Lead a card" if not view.trick else "Play a card"
        return f"**{verb} {where}**" + follow_hint(view.trick, cards)

    # -- the end of a deal ------------------------------------------------------------

    def deal_hands(self, summary: DealSummary, seating: Seating) -> list[Hand]:
        return [(seating.who(seat), hand) for seat, hand in enumerate(summary.hands)]

    def deal_lines(self, summary: DealSummary, seating: Seating) -> list[str]:
        contract = summary.contract
        if contract is None:
            lines = ["**Thrown in**: all four passed."]
        else:
            side = contract.declarer % 2
            won = summary.tricks_won[side]
            lines = [f"**{contract.label} by {seating.who(contract.declarer)}** — "
                     f"{plural(won, 'trick')}, **{contract.result(won)}**"]
        lines.append(f"Dealer: {seating.who(summary.dealer)} · Vulnerable: "
                     f"{vulnerability(summary.vulnerable)}")
        return lines

    def deal_fields(self, summary: DealSummary, seating: Seating) -> list[Field]:
        fields: list[Field] = [("Auction", auction_text(summary.calls, None), False)]
        if summary.contract is not None:
            fields.append(("Tricks", f"{SIDES[0]} {summary.tricks_won[0]} · "
                                     f"{SIDES[1]} {summary.tricks_won[1]}", False))
        # The contract's result is the post's first line: here its points, and any bonus.
        fields.append(("Points", "\n".join(score_lines(summary.lines, SIDES, first_note=False))
                       or "No score.", False))
        return fields


RULES = """\
**Players:** four; North-South against East-West. The first dealer is drawn at random, then the deal moves clockwise. 13 cards each.
**Auction** (from the dealer, clockwise): Pass; a bid of 1-7 in ♣ < ♦ < ♥ < ♠ < NT, higher than the last bid; **Double** an opponent's last bid if not doubled yet; **Redouble** your side's last bid once an opponent doubled it. A new bid cancels doubles. Three passes after a bid end the auction; four opening passes throw the deal in.
**Declarer** is the player of the winning side who first named the final strain. Declarer's left-hand opponent leads; then dummy (declarer's partner) is laid face up and **declarer plays dummy's cards** — dummy's owner takes no decisions.
**Human declares** (table option `human_declares`, on unless turned off): when your computer partner wins the contract, you play the hand — its cards and yours as dummy — from your private hand; the auction and the score stay as bid (your partner is declarer on the score sheet).
**Play:** follow suit if you can; the highest trump wins, else the highest card of the suit led.
**Below the line** (contract tricks over six): ♣/♦ 20, ♥/♠ 30, NT 40 for the first and 30 after; ×2 doubled, ×4 redoubled. 100 below the line wins a game; a side with a game is vulnerable. Two games win the rubber: 700 bonus if the other side has no game, else 500.
**Above the line:** overtricks at trick value undoubled, 100 each doubled (200 vulnerable), 200 redoubled (400 vulnerable); 50 for making a doubled contract, 100 redoubled; small slam 500 (750 vul), grand slam 1000 (1500 vul); honours in one hand: four trump honours 100, all five 150, four aces at NT 150.
**Undertricks:** undoubled 50 each (100 vul). Doubled not vulnerable 100, 200, 200, then 300 each; vulnerable 200 then 300 each. Redoubled: twice that.
**Match:** one rubber unless the table chose more. A match stopped mid-rubber scores 300 for a side's single game and 100 for a part score in an unfinished game.
**Computer players' carding:** on defence, the first time they follow to a suit, their small cards that cannot matter signal: count when declarer or dummy leads it (a higher card first with an even number of cards in the suit, their lowest with an odd number), attitude when their partner leads it (a higher card holding the ace, king or queen, their lowest without). This is an agreement between them, told to everyone here as the rules of bridge require; they read these signals only from each other.
**Claims:** declarer may press **Claim…** in their hand and say how many of the remaining tricks their side takes (all, or a number). A claim that holds against any defence (double dummy) stands at once; otherwise both defenders are asked: computer players accept exactly when it holds, a person presses Accept or Reject (no answer before the turn timer: rejected). Accepted, the deal ends with those tricks.
**Undo:** a player may ask to take back their last call (until the opening lead) or their last card while its trick is incomplete (not the opening lead: dummy is face up), with whatever followed it; the opponents (in the play: declarer, or both defenders) must agree. Tables can turn it off (`undo`); daily deals, team matches and challenges have none.
**Team matches** (`/match teams`): two tables play the same duplicate boards; on each board team A's score is North-South's at the first table minus North-South's at the second, turned into IMPs (20–40 points: 1 IMP, up to 24 IMPs from 4000). The team with more IMPs wins.
**Challenges** (`/challenge`): two people play the same boards as South; on each board both have played, the difference of their North-South scores is turned into IMPs."""  # noqa: E501 (player-facing prose: a paragraph per line)

ABOUT = About(
    title="Contract Bridge (rubber)",
    summary="Contract Bridge, rubber scoring, four players",
    figure_ratios=DECLARER_FIGURES,
    rules=RULES,
)

TEXT = BridgeText(ABOUT)
