"""Tennis texts: two hands a player (Forehand, Backhand), bid cards, which hand plays each card.

A player may look at only one of their hands at a time, so the private hand names which
hand it shows and why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.games.cards import Card
from bot.games.tennis_rules import bid_value
from bot.games.tennis_views import TennisDealSummary, TennisView
from bot.render.layout import CARD_KINDS
from bot.render.text import hand_block

from .base import About, Field, GameText, Hand, own_seat
from .common import MATCH_OVER, follow_hint, plural, suit_word

if TYPE_CHECKING:
    from bot.render.seating import Seating

SEATS = ("First player", "Second player")
KINDS = ("Backhand", "Forehand")
BID_VALUES = "A=1, 2-10 face value, J=11, Q=12, K=0"


def bid_text(card: Card) -> str:
    """`**7♥** = 7`."""
    return f"**{card.label}** = {bid_value(card)}"


def _bids_of(view: TennisView, kind: str) -> Sequence[Any]:
    bids: Sequence[Any] = view.backhand_bids if kind == "Backhand" else view.forehand_bids
    return bids


def _bid_cell(view: TennisView, seat: int, kind: str) -> str:
    card = _bids_of(view, kind)[seat]
    if card is not None:
        return bid_text(card)
    if view.phase == "bidding" and view.bidding == kind:
        return "choosing…" if seat in view.to_act else "chosen, face down"
    return "—"


def _plays(trick: Sequence[tuple[int, Any]], kinds: Sequence[str],
           name: Any, sep: str) -> str:
    return sep.join(f"{name(seat)} {kind}: **{card.label}**"
                    for (seat, card), kind in zip(trick, kinds, strict=True)) or "—"


class TennisText(GameText[TennisView, TennisDealSummary]):
    card_kinds = CARD_KINDS | {"bid"}  # a Tennis bid is a card: `bid:7H`
    score_unit = "errors"  # fewest wins

    def figure_lines(self, figures: Mapping[str, int]) -> list[str]:
        played = figures.get("games", 0)
        if not played:
            return ["Average errors per game: —"]
        return [f"Average errors per game: {figures.get('errors', 0) / played:.2f} "
                f"({plural(played, 'game')})"]

    def verb(self, view: TennisView) -> str:
        if view.phase == "play":
            return f"play from their {view.to_play_hand}"
        return f"choose a {view.bidding} bid card"

    def turn_line(self, view: TennisView, seating: Seating) -> str:
        if view.phase == "bidding":
            waiting = ", ".join(seating.who(s) for s in sorted(view.to_act))
            return (f"Waiting for the **{view.bidding}** bid of {waiting} (both bid at once; "
                    "the bids are shown together).")
        return super().turn_line(view, seating)

    def status_lines(self, view: TennisView, seating: Seating) -> list[str]:
        lines = [f"Set {view.set_no}, game {view.game_no} of 5 · trump: "
                 f"**{suit_word(view.trump)}** · dealer {seating.name(view.dealer)}"]
        progress = f"Trick {view.tricks_played + 1} of 12 · " if view.phase == "play" else ""
        lines.append(progress + "Errors (fewest wins): " + " · ".join(
            f"{seating.name(s)} {view.errors[s]}" for s in (0, 1)))
        lines.append(self.turn_line(view, seating))
        return lines

    def public_fields(self, view: TennisView, seating: Seating) -> list[Field]:
        if view.phase == "match_over":
            return []
        playing = view.phase == "play"

        def cell(seat: int, kind: str) -> str:
            text = _bid_cell(view, seat, kind)
            if playing:
                won = (view.backhand_tricks if kind == "Backhand" else view.forehand_tricks)
                text += f", won **{won[seat]}**"
            return text

        # People by name (the turn line above says which player is which): the long
        # "First player (Ann)" would wrap each line on a phone.
        fields: list[Field] = [("Bids and tricks" if playing else "Bids", "\n".join(
            f"{seating.name(s)}: Backhand {cell(s, 'Backhand')} · Forehand "
            f"{cell(s, 'Forehand')}" for s in (0, 1)), False)]
        if view.phase == "play" and view.turn is not None and view.trick:
            # whose hand is next is the turn line's ("... to play from their Backhand")
            fields.append(("Trick", _plays(view.trick, view.trick_hands, seating.name,
                                           "\n"), True))
        return fields

    # -- the private hand -------------------------------------------------------------

    def _why_this_hand(self, view: TennisView) -> str:
        if view.phase == "bidding":
            return "the hand being bid"
        mine_played = sum(1 for seat, _ in view.trick if seat == view.seat)
        if view.turn == view.seat:
            return "the hand you play from now"
        if mine_played < 2:
            return "the hand you play from next in this trick"
        return "the hand you played from last"

    def private_lines(self, view: TennisView, seating: Seating) -> list[str]:
        if view.phase == "match_over":
            return [MATCH_OVER]
        seat = own_seat(view)
        lines = [f"Set {view.set_no}, game {view.game_no} · trump: **{suit_word(view.trump)}**"]
        if view.hand_kind:
            lines += [f"Your **{view.hand_kind}** — {self._why_this_hand(view)}. You may "
                      "look at only one of your hands at a time.", hand_block(view.hand)]
        opponent = 1 - seat
        lines.append("Bids: yours " + " · ".join(
            f"{kind} {_bid_cell(view, seat, kind)}" for kind in KINDS)
            + "; opponent's " + " · ".join(
            f"{kind} {_bid_cell(view, opponent, kind)}" for kind in KINDS))
        if view.phase == "bidding":
            lines.append(f"Bid values: {BID_VALUES}. Each bid card leaves its hand.")
        else:
            lines.append(f"Tricks: your Backhand {view.backhand_tricks[seat]}, Forehand "
                         f"{view.forehand_tricks[seat]} · opponent's Backhand "
                         f"{view.backhand_tricks[opponent]}, Forehand "
                         f"{view.forehand_tricks[opponent]}")
            lines.append("Trick: " + _plays(view.trick, view.trick_hands,
                                            lambda s: "you" if s == seat else "opponent",
                                            " · "))
        return lines

    def prompt(self, view: TennisView, legal: Sequence[str]) -> str:
        if view.phase == "bidding":
            return f"**Choose your {view.bidding} bid card** ({BID_VALUES})"
        verb = "Lead a card" if not view.trick else "Play a card"
        return f"**{verb} from your {view.to_play_hand}**" + follow_hint(view.trick, view.hand)

    # -- the end of a deal ------------------------------------------------------------

    def deal_lines(self, summary: TennisDealSummary, seating: Seating) -> list[str]:
        lines = [f"Set {summary.set_no}, game {summary.game_no} · trump: "
                 f"**{suit_word(summary.trump)}** · Dealer: {seating.who(summary.dealer)}"]
        for s in (0, 1):
            lines.append(
                f"{seating.who(s)}: Backhand bid {bid_text(summary.backhand_bids[s])}, won "
                f"{summary.backhand_tricks[s]} · Forehand bid "
                f"{bid_text(summary.forehand_bids[s])}, won {summary.forehand_tricks[s]} → "
                f"**{plural(summary.errors[s], 'error')}**")
        return lines

    def last_trick_text(self, view: TennisView, seating: Seating) -> str | None:
        last = view.last_trick
        if last is None:
            return None
        return (_plays(last.cards, last.hands, seating.name, "\n")
                + f"\nWon by **{seating.name(last.winner)}'s {last.winner_hand}**")

    def deal_hands(self, summary: TennisDealSummary, seating: Seating) -> list[Hand]:
        hands: list[Hand] = []
        for s in (0, 1):
            hands.append((f"{seating.who(s)}, Backhand", summary.backhands[s]))
            hands.append((f"{seating.who(s)}, Forehand", summary.forehands[s]))
        return hands


RULES = """\
**Players:** two; each has two hands, a **Backhand** and a **Forehand**. You may look at only one of your hands at a time.
**Match:** two sets of five games; in each set the trumps of games 1-5 are ♣, ♦, ♥, ♠, then notrump. The first dealer is random; the deal alternates every game.
**Bidding:** 13 cards are dealt to each Backhand. Each player secretly takes one Backhand card out as the Backhand bid; both bids are turned up together. Then 13 cards go to each Forehand and the Forehand bid is made the same way. Bid values: A = 1, 2-10 face value, J = 11, Q = 12, **K = 0**.
**Play:** 12 tricks of four cards. The first trick: the non-dealer leads from the Forehand, the dealer follows from the Forehand, then the non-dealer plays from the Backhand and the dealer from the Backhand. After that, the hand that won the last trick leads; the other player follows from the same kind of hand; then each plays from their other hand. Follow suit if that hand can. The trick goes to the hand that played the highest trump, else the highest card of the suit led.
**Errors:** after each game, each player counts |Forehand tricks − Forehand bid| + |Backhand tricks − Backhand bid|.
**Winner:** fewest errors after ten games; equal errors are a draw."""  # noqa: E501 (player-facing prose: a paragraph per line)

ABOUT = About(
    title="Tennis",
    summary="Tennis: two players, each with a Forehand and a Backhand",
    rules=RULES,
)

TEXT = TennisText(ABOUT)
