"""Single Dummy Bridge texts: the revealed dummy, the two-column auction, both dummies, tricks.

Hands are indexed S, W, N, E (0-3); hand h is played by seat h % 2, so North is South's
dummy and East is West's once the bid winner has chosen a dummy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.games.single_dummy_view import HAND_NAMES, DealSummary, SingleDummyView
from bot.games.tricks import completed_tricks
from bot.render.text import hand_block, hand_pairs

from .base import About, Field, GameText, Hand, own_seat
from .common import (
    DECLARER_FIGURES,
    MATCH_OVER,
    auction_line,
    call_label,
    follow_hint,
    grid,
    play_lines,
    plays_inline,
    plural,
    score_lines,
    trick_history,
)

if TYPE_CHECKING:
    from bot.render.seating import Seating

SEATS = ("South", "West")


def auction_text(calls: Sequence[tuple[int, str]], next_to_call: int | None,
                 limit: int = 900) -> str:
    return grid(SEATS, [(seat, call_label(text)) for seat, text in calls], next_to_call, limit)


def hand_title(hand: int, seating: Seating) -> str:
    """`South (Ann)`, or `North (Ann's dummy)`."""
    if hand < 2:
        return seating.who(hand)
    return f"{HAND_NAMES[hand]} ({seating.name(hand % 2)}'s dummy)"


class SingleDummyText(GameText[SingleDummyView, DealSummary]):
    def verb(self, view: SingleDummyView) -> str:
        if view.phase == "auction":
            return "call"
        if view.phase == "dummy_choice":
            return "choose a dummy (the revealed one or the hidden one)"
        if view.playing_hand is not None and view.playing_hand >= 2:
            return f"play from their dummy ({view.playing_for})"
        return "play"

    def status_lines(self, view: SingleDummyView, seating: Seating) -> list[str]:
        rules = (f"deal {view.deal_no} of {view.deals}, most points wins" if view.deals
                 else f"first to {view.target} points wins")
        if view.undertrick_penalty:
            rules += " · undertricks cost 50 each"
        lines = [f"Dealer {seating.seat_names[view.dealer]} · {rules}"]
        contract = view.contract
        if contract is not None and view.phase in ("dummy_choice", "play"):
            line = f"**{contract.label} by {seating.seat_names[contract.declarer]}**"
            if view.phase == "play":  # as bridge says it: one line on a phone, a doubled
                # contract's words included (the trick's number gives the defence's)
                line += (f" · tricks **{view.tricks_won[contract.declarer]}** of "
                         f"{contract.tricks_needed}")
            else:
                line += f" · needs {contract.tricks_needed}"
            lines.append(line)
        if view.phase == "auction":
            lines.append(f"The revealed dummy was dealt to {HAND_NAMES[view.revealed]}; the "
                         "bid winner chooses it or the hidden one.")
        lines.append(self.turn_line(view, seating))
        return lines

    def public_fields(self, view: SingleDummyView, seating: Seating) -> list[Field]:
        if view.phase == "match_over":
            return []
        fields: list[Field] = [("Auction", auction_text(
            view.calls, view.turn if view.phase == "auction" else None), False)
            if view.phase != "play" else ("Auction", auction_line(c for _, c in view.calls),
                                          False)]
        if not view.dummies_faced:
            shown = view.hands[view.revealed]
            if shown is not None:
                fields.append(("Revealed dummy", hand_pairs(shown), False))
        else:
            for h in (2, 3):
                cards = view.hands[h]
                if cards is not None:
                    fields.append((hand_title(h, seating), hand_pairs(cards), False))
        if view.phase == "play":
            # By compass name only: the dummies' titles above and the turn line say whose
            # hand each is, and a phone keeps each position on one line.
            fields.append((f"Trick {sum(view.tricks_won) + 1}", play_lines(
                view.trick, lambda h: HAND_NAMES[h], (2, 3, 0, 1)), False))
        return fields

    # -- the private hand -------------------------------------------------------------

    def private_lines(self, view: SingleDummyView, seating: Seating) -> list[str]:
        if view.phase == "match_over":
            return [MATCH_OVER]
        seat = own_seat(view)
        lines: list[str] = []
        if view.phase == "auction":
            lines.append(auction_text(view.calls, view.turn, limit=600))
        contract = view.contract
        if contract is not None and view.phase in ("dummy_choice", "play"):
            lines.append(f"Contract: **{contract.label} by {SEATS[contract.declarer]}**"
                         f" · needs {contract.tricks_needed} tricks")
        lines += [f"Your hand ({SEATS[seat]}):",
                  hand_block(view.hand) if view.hand else "(no cards left)"]
        if not view.dummies_faced:
            shown = view.hands[view.revealed]
            if shown is not None:
                lines += ["Revealed dummy (the bid winner takes it or the hidden one):",
                          hand_block(shown)]
        else:
            for h, whose in ((2 + seat, "Your dummy"), (3 - seat, "Opponent's dummy")):
                cards = view.hands[h]
                if cards is not None:
                    lines += [f"{whose} ({HAND_NAMES[h]}):", hand_block(cards)]
        if view.phase == "play":
            lines.append(f"Tricks: you {view.tricks_won[seat]}, opponent "
                         f"{view.tricks_won[1 - seat]}")
            lines.append("Trick: " + plays_inline(view.trick, lambda h: HAND_NAMES[h]))
            if view.playing_hand is not None:
                mine = view.playing_hand % 2 == seat
                whose = ("your dummy" if view.playing_hand >= 2 else "your hand") if mine \
                    else "your opponent"
                lines.append(f"To play: **{view.playing_for}** ({whose}).")
        return lines

    def prompt(self, view: SingleDummyView, legal: Sequence[str]) -> str:
        if view.phase == "auction":
            last = next((call_label(t) for _, t in reversed(view.calls)
                         if t.startswith("bid:")), None)
            return "**Your call**" + (f" (the last bid is {last})" if last else "")
        if view.phase == "dummy_choice":
            return ("**Choose your dummy**: take the revealed one, or the hidden one; both are "
                    "then face up.")
        hand = view.playing_hand
        cards = view.hands[hand] if hand is not None else None
        where = (f"from your dummy ({view.playing_for})" if hand is not None and hand >= 2
                 else f"from your hand ({view.playing_for})")
        verb = "Lead a card" if not view.trick else "Play a card"
        return f"**{verb} {where}**" + follow_hint(view.trick, cards or ())

    # -- the end of a deal ------------------------------------------------------------

    def deal_lines(self, summary: DealSummary, seating: Seating) -> list[str]:
        contract = summary.contract
        if contract is None:
            lines = ["**Thrown in**: both passed."]
        else:
            won = summary.tricks[contract.declarer]
            lines = [f"**{contract.label} by {seating.who(contract.declarer)}** — "
                     f"{plural(won, 'trick')}, **{contract.result(won)}**"]
            if summary.dummy_choice is not None:
                lines.append(f"{seating.name(contract.declarer)} took the "
                             f"{summary.dummy_choice} dummy.")
        lines.append(f"Dealer: {seating.who(summary.dealer)} · North was "
                     f"{seating.name(0)}'s dummy, East {seating.name(1)}'s.")
        return lines

    lists_tricks = True

    def trick_history_text(self, view: SingleDummyView, seating: Seating) -> str | None:
        contract = view.contract
        if contract is None or len(view.played) < 4:
            return None
        # `played` holds cards only: the bid's loser leads the first trick from their own
        # hand, then each trick's winner; the hands play clockwise S, W, N, E (0..3).
        leader, tricks = 1 - contract.declarer, []
        for start in range(0, len(view.played) - 3, 4):
            cards = [((leader + i) % 4, card)
                     for i, card in enumerate(view.played[start:start + 4])]
            trick = completed_tricks(cards, contract.trump)[0]
            tricks.append(trick)
            leader = trick.winner
        return trick_history(tricks, lambda hand: HAND_NAMES[hand][0])

    def last_trick_text(self, view: SingleDummyView, seating: Seating) -> str | None:
        last = view.last_trick
        if last is None:
            return None
        return (plays_inline(last.cards, lambda h: HAND_NAMES[h])
                + f"\nWon by **{HAND_NAMES[last.winner]}** for {seating.name(last.winner_seat)}")

    def deal_hands(self, summary: DealSummary, seating: Seating) -> list[Hand]:
        return [(hand_title(h, seating) if h >= 2 else seating.who(h), summary.hands[h])
                for h in (2, 1, 3, 0)]  # North, West, East, South

    def deal_fields(self, summary: DealSummary, seating: Seating) -> list[Field]:
        fields: list[Field] = [("Auction", auction_text(summary.calls, None), False)]
        if summary.contract is not None:
            fields.append(("Tricks", " · ".join(
                f"{seating.who(s)} {summary.tricks[s]}" for s in (0, 1)), False))
        # The contract's result is the post's first line: here its points.
        fields.append(("Points", "\n".join(score_lines([summary.line], SEATS,
                                                        first_note=False)), False))
        return fields


RULES = """\
**Players:** two, at South and West; each also plays a dummy sitting opposite (South's at North, West's at East). Play goes clockwise S, W, N, E.
**Deal:** 13 cards to each of the four hands; the first dealer is random, then it alternates. You see your own hand, never your dummy before it is shown. Before the auction one dummy, chosen at random, is shown to both players.
**Auction** (dealer first, then alternating): a bid of 1-7 in ♣ < ♦ < ♥ < ♠ < NT that outranks the last bid, Pass, Double the opponent's last bid, or Redouble your doubled bid. After a bid, **a single Pass ends the auction** and the other player wins it. Two passes without a bid throw the deal in.
**Dummies:** the winner of the bid chooses the shown dummy or the hidden one; that dummy becomes theirs. Then both dummies are face up. The winner's opponent leads from their own hand.
**Score** (only the winner of the bid can score): made = each trick over six counts 20 in ♣/♦, 30 in ♥/♠, in NT 40 for the first and 30 after; ×2 doubled, ×4 redoubled. A failed contract scores nothing — unless the table chose `undertrick_penalty`: the opponent then scores 50 per undertrick (×2 doubled, ×4 redoubled).
**Match:** the first player to reach the target (500 unless the table chose another) wins.
**Claims:** on your turn in the play, **Claim…** in your hand says how many of the remaining tricks you take. A claim that holds against any defence (double dummy) stands at once; otherwise your opponent accepts or rejects (a computer player accepts exactly when it holds; no answer before the turn timer: rejected).
**Undo:** you may ask to take back your last call, or your last card while its trick is incomplete, with whatever followed it; your opponent must agree. Tables can turn it off (`undo`)."""  # noqa: E501 (player-facing prose: a paragraph per line)

ABOUT = About(
    title="Single Dummy Bridge",
    summary="Single Dummy Bridge for two players",
    figure_ratios=DECLARER_FIGURES,
    rules=RULES,
)

TEXT = SingleDummyText(ABOUT)
