"""Spades (Tennessee rules, with the rulings of docs/rules.md): the match engine.

Four players, North-South against East-West. Each deal every hand starts face down: a
player either looks at it (`look`, at any time during the bidding, even out of turn) or,
on their turn and before looking, bids `bid:double_nil` (after which the hand is shown to
its owner). Having looked, on their turn a player bids `bid:nil` or `bid:1` .. `bid:13`.
Bidding goes clockwise from the dealer's left, who then leads. Players must follow suit;
spades are always trump and may not be led until broken (a spade played to an earlier
trick) unless the leader holds only spades. Card play actions are `play:<card>` (`play:QH`).

Dealing: the pack from `next_pack` is dealt in blocks, cards 13*i .. 13*i+12 to seat i
(0 North, 1 East, 2 South, 3 West) whoever deals, so `stack_deck` takes the four hands in
seat order. `stack_deck` called before anyone has acted in a deal replaces that deal
(tests can stack the first deal of a new game); otherwise it stacks the next one.

Events returned by `apply` (bot/games/events.py), in order: `Acted`, then as they happen
`SpadesBroken`, `BidsComplete`, `TrickWon`, `SpadesDealEnded` (bids, tricks and bags as
well), `MatchEnded` or `DealStarted`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar, Final

from .base import ChallengePlay, DailyPlay, Game, OptionSpec, Phase, Result, ScoreLine, ScoreSheet
from .base import ranks_from_totals as _ranks
from .cards import (
    CARD_BY_PLAY,
    FULL_DECK,
    PLAY_TEXT,
    SEAT_CARD,
    SEAT_NAMES,
    Card,
    Seat,
    Suit,
    play_texts_by_suit,
    sort_hand,
)
from .events import (
    Acted,
    BidsComplete,
    DealStarted,
    Event,
    MatchEnded,
    SpadesBroken,
    SpadesDealEnded,
    TrickWon,
)
from .spades_scoring import (
    DOUBLE_NIL,
    NIL,
    DealScore,
    bid_label,
    bid_text,
    score_deal,
)
from .spades_view import (
    CompletedTrick,
    SpadesDealRecord,
    SpadesDealSummary,
    SpadesScoreDetail,
    SpadesView,
)
from .tricks import follow_error, trick_winner

BIDDING: Final = "bidding"
PLAY: Final = "play"
MATCH_OVER: Final = "match_over"

_BIDS: dict[str, int] = {"bid:" + bid_text(b): b for b in range(DOUBLE_NIL, 14)}
_BID_ACTIONS: tuple[str, ...] = ("bid:nil", *(f"bid:{n}" for n in range(1, 14)))
_BLIND_ACTIONS: tuple[str, ...] = ("look", "bid:double_nil")
_LOOK_ONLY: tuple[str, ...] = ("look",)
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset((s,)) for s in range(4))
_NOBODY: frozenset[int] = frozenset()
_SPADES = Suit.SPADES
_TRICK_TEXT: tuple[str, ...] = tuple(f"{name} wins the trick." for name in SEAT_NAMES)
# Bidding: to_act by (seat on turn) * 16 + (bit s: seat s has not looked yet).
_BIDDING_TO_ACT: tuple[frozenset[int], ...] = tuple(
    frozenset([turn, *(s for s in range(4) if mask >> s & 1)])
    for turn in range(4) for mask in range(16))
# Look, bid and play events depend only on (seat, action): built once and shared
# (events are frozen and their data read-only), indexed seat, seat * 15 + bid + 1 and
# seat * 52 + card index.
_LOOK_EVENTS: tuple[Acted, ...] = tuple(
    Acted(f"{name} looks at their hand.", s, "look")
    for s, name in enumerate(SEAT_NAMES))
_BID_EVENTS: tuple[Acted, ...] = tuple(
    Acted(f"{name} bids {bid_label(b)}.", s, "bid:" + bid_text(b))
    for s, name in enumerate(SEAT_NAMES) for b in range(DOUBLE_NIL, 14))
_PLAY_EVENTS: tuple[Acted, ...] = tuple(
    Acted(f"{SEAT_NAMES[s]} plays {c.label}.", s, PLAY_TEXT[c.index])
    for s in range(4) for c in FULL_DECK)


class Spades(Game[SpadesView]):
    """A match of Spades played to `target` points (option `bags_penalty`: every 10 bags
    cost 100).

    Deal blocks: `stack_deck(pack)` takes 52 cards, cards 13*i .. 13*i+12 being seat i's
    hand (0 North, 1 East, 2 South, 3 West) whoever deals. Attributes read by tables and
    tests: `deal_no` (1-based), `dealer` (seat), `target`, `bags_penalty`.
    """

    NAME: ClassVar[str] = "spades"
    TITLE: ClassVar[str] = "Spades"
    SEATS: ClassVar[int] = 4
    SEAT_NAMES: ClassVar[tuple[str, ...]] = SEAT_NAMES
    SIDES: ClassVar[tuple[tuple[int, ...], ...]] = ((0, 2), (1, 3))
    SIDE_NAMES: ClassVar[tuple[str, ...]] = ("North-South", "East-West")
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("target", int, 500, "Points a side needs to win the match.",
                   minimum=100, maximum=1000),
        OptionSpec("bags_penalty", bool, False,
                   "Every 10 overtricks (bags) a side collects cost it 100 points."),
        OptionSpec("deals", int, 0, "The match is this many deals, whatever the score "
                   "(0: play to the target).", 0, 32, internal=True),
    )
    DAILY: ClassVar[DailyPlay | None] = DailyPlay(
        MappingProxyType({"deals": 4}), "Today's 4 Spades deals, compared with the server")
    CHALLENGE: ClassVar[ChallengePlay | None] = ChallengePlay(
        MappingProxyType({}), length_option="deals", default_deals=4, max_deals=32, seat=2,
        compare="points")

    def __init__(self, options: Mapping[str, object] | None = None, seed: int = 0) -> None:
        super().__init__(options, seed)
        self.target = int(self.options["target"])
        self.bags_penalty = bool(self.options["bags_penalty"])
        self.deal_no = 1
        self.dealer = Seat(self.rng.randrange(4))
        self._totals = [0, 0]
        self._bags = [0, 0]
        self._lines: list[ScoreLine] = []
        self._deal_scores: list[DealScore] = []
        self._previous: SpadesDealSummary | None = None
        self._result: Result | None = None
        self._sheet: ScoreSheet | None = None  # built when asked for, after each deal
        self._start_deal()

    # -- dealing --------------------------------------------------------------------

    def _start_deal(self) -> None:
        # Each hand kept sorted (spades first, high to low), as views and buttons show it.
        self._dealt = tuple(tuple(sort_hand(hand)) for hand in self.deal(FULL_DECK, 4))
        self._hands = [list(hand) for hand in self._dealt]
        # The same hands as play texts per suit (legal's lists).
        self._suit_texts = [play_texts_by_suit(hand) for hand in self._dealt]
        self._looked = [False] * 4
        self._unlooked = 0b1111  # bit s: seat s has not looked yet (to_act's table key)
        self._bids: list[int | None] = [None] * 4
        self._phase: Phase = BIDDING
        self._turn = self._leader = self.dealer.next
        self._trick: list[tuple[Seat, Card]] = []
        self._tricks: list[CompletedTrick] = []
        self._won = [0, 0, 0, 0]
        self._broken = False
        self._begun = False  # has anyone acted in this deal yet?

    def stack_deck(self, pack: Sequence[Card]) -> None:
        """Tests only: the four hands in seat order (N, E, S, W), 13 cards each.

        Before anyone has acted in the current deal, that deal is replaced at once.
        """
        super().stack_deck(pack)
        if not self._begun and self._result is None:
            self._start_deal()

    # -- the contract: who acts and what they may do ---------------------------------

    @property
    def finished(self) -> bool:
        return self._result is not None

    def to_act(self) -> frozenset[int]:
        if self._phase == PLAY:
            return _ONLY[self._turn]
        if self._phase == BIDDING:
            return _BIDDING_TO_ACT[self._turn * 16 + self._unlooked]
        return _NOBODY

    def turn(self) -> int | None:
        return None if self._phase == MATCH_OVER else self._turn

    def _legal(self, seat: int) -> Sequence[str]:
        if self._phase == BIDDING:
            if not self._looked[seat]:
                return _BLIND_ACTIONS if seat == self._turn else _LOOK_ONLY
            return _BID_ACTIONS if seat == self._turn else ()
        if self._phase == PLAY and seat == self._turn:
            # Follow suit if able; lead no spade before spades are broken unless holding only
            # spades. From the lists kept beside the hand.
            clubs, diamonds, hearts, spades = self._suit_texts[seat]
            if self._trick:
                same = self._suit_texts[seat][self._trick[0][1].suit]
                if same:
                    return same
            elif not self._broken:
                others = hearts + diamonds + clubs
                if others:
                    return others
            return spades + hearts + diamonds + clubs
        return ()

    def _spelling(self, action: str) -> str:
        kind, _, arg = action.partition(":")
        if kind == "play":
            try:
                return PLAY_TEXT[Card.parse(arg).index]
            except ValueError:
                return action
        return action.lower()

    def _why_not(self, seat: int, action: str) -> str:
        kind, _, arg = action.partition(":")
        if action == "look":
            if self._phase != BIDDING:
                return "Hands are picked up during the bidding only."
            return "You have already looked at your hand."
        if kind == "bid" and arg:
            if self._phase != BIDDING:
                return "The bidding is over."
            if seat != self._turn:
                return f"It is {self.SEAT_NAMES[self._turn]}'s turn to bid."
            bid = _BIDS.get(action)
            if bid is None:
                return "Bid Nil, Double Nil or a number of tricks from 1 to 13."
            if bid == DOUBLE_NIL:
                return "Double Nil may only be bid before looking at your hand."
            return "Look at your hand first (only Double Nil is bid blind)."
        if kind == "play" and arg:
            if self._phase != PLAY:
                return "Cards are played once the bidding is over."
            played = CARD_BY_PLAY.get(action)
            if played is None:
                return f"{arg!r} is not a card (write rank then suit, e.g. QH or TS)"
            hand = self._hands[seat]
            if self._trick:
                return follow_error(hand, self._trick[0][1].suit, played) or ""
            if played not in hand:
                return f"You do not hold the {played.label}."
            return "Spades are not broken yet: lead another suit."
        return f"`{action}` is not a Spades action (look, bid:<n>, play:<card>)."

    # -- doing --------------------------------------------------------------------------

    def _do(self, seat: int, action: str) -> list[Event]:
        played = CARD_BY_PLAY.get(action)
        if played is not None:
            return self._do_play(seat, played)
        if action == "look":
            return self._do_look(seat)
        return self._do_bid(seat, _BIDS[action])

    def _do_look(self, seat: int) -> list[Event]:
        self._begun = True
        self._looked[seat] = True
        self._unlooked &= ~(1 << seat)
        return [_LOOK_EVENTS[seat]]

    def _do_bid(self, seat: int, bid: int) -> list[Event]:
        self._begun = True
        self._looked[seat] = True  # a double nil bidder now sees their hand
        self._unlooked &= ~(1 << seat)
        self._bids[seat] = bid
        events: list[Event] = [_BID_EVENTS[seat * 15 + bid + 1]]
        self._turn = self._turn.next  # the seat that bid was on turn
        if all(b is not None for b in self._bids):
            self._phase = PLAY
            self._turn = self._leader = self.dealer.next
            bids = tuple(bid_text(b) for b in self._bids if b is not None)
            listing = ", ".join(f"{self.SEAT_NAMES[s]} {bid_label(b)}"
                                for s, b in enumerate(self._bids) if b is not None)
            events.append(BidsComplete(
                f"Bids: {listing}. {self.SEAT_NAMES[self._turn]} leads.", None, bids,
                self._turn))
        return events

    def _do_play(self, seat: int, played: Card) -> list[Event]:
        self._hands[seat].remove(played)
        self._suit_texts[seat][played.suit].remove(PLAY_TEXT[played.index])
        self._trick.append(SEAT_CARD[self._turn * 52 + played.index])  # the seat on turn
        events: list[Event] = [_PLAY_EVENTS[seat * 52 + played.index]]
        if played.suit is _SPADES and not self._broken:
            self._broken = True
            events.append(SpadesBroken("Spades are broken.", seat))
        if len(self._trick) < 4:
            self._turn = self._turn.next
            return events
        cards = tuple(self._trick)
        winner = trick_winner(cards, _SPADES)
        done = CompletedTrick(cards, winner)
        self._tricks.append(done)
        self._won[winner] += 1
        self._trick = []
        self._turn = self._leader = winner
        events.append(TrickWon(_TRICK_TEXT[winner], winner, winner,
                               tuple((s, c.text) for s, c in done.cards)))
        if len(self._tricks) == 13:
            events.extend(self._end_deal())
        return events

    def _end_deal(self) -> list[Event]:
        bids = tuple(b if b is not None else NIL for b in self._bids)
        score = score_deal(bids, self._won, self._bags, self.bags_penalty, self.SEAT_NAMES)
        for side in range(2):
            self._totals[side] += score.points[side]
            self._bags[side] += score.bags[side]
        note = " | ".join(f"{self.SIDE_NAMES[i]}: " + "; ".join(score.notes[i])
                          for i in range(2))
        line = ScoreLine(f"Deal {self.deal_no}", score.points, note)
        self._lines.append(line)
        self._deal_scores.append(score)
        self._sheet = None
        self._previous = SpadesDealSummary(
            deal_no=self.deal_no, dealer=self.dealer, hands=self._dealt, bids=bids,
            tricks_won=tuple(self._won), tricks=tuple(self._tricks), lines=(line,),
            bags=score.bags)
        events: list[Event] = [SpadesDealEnded(
            self._deal_end_text(score), None, self.deal_no, (line,),
            tuple(tuple(c.text for c in hand) for hand in self._dealt),
            tuple(bid_text(b) for b in bids), tuple(self._won),
            (score.bags[0], score.bags[1]))]
        self._result = self._match_result()
        if self._result is not None:
            self._phase = MATCH_OVER
            events.append(MatchEnded(self._result.summary, None, self._result))
            return events
        self.deal_no += 1
        self.dealer = self.dealer.next
        self._start_deal()
        events.append(DealStarted(
            f"Deal {self.deal_no}: {self.SEAT_NAMES[self.dealer]} deals.", None,
            self.deal_no, self.dealer))
        return events

    def _deal_end_text(self, score: DealScore) -> str:
        parts = ", ".join(f"{self.SIDE_NAMES[i]} {score.points[i]:+d}" for i in range(2))
        totals = " to ".join(str(t) for t in self._totals)
        return f"Deal {self.deal_no}: {parts} (match {totals})."

    def _match_result(self) -> Result | None:
        """A side at or over the target wins; both over: the higher; tied: play on. With a
        fixed number of deals: the higher total after the last, or a draw."""
        ns, ew = self._totals
        fixed = int(self.options.get("deals", 0))
        if fixed:
            if self.deal_no < fixed:
                return None
            if ns == ew:
                return Result(self.SIDE_NAMES, self.SIDES, (ns, ew), _ranks(self._totals),
                              f"A draw at {ns} each.")
        elif max(ns, ew) < self.target or ns == ew:
            return None
        ranks = _ranks(self._totals)
        winner = 0 if ns > ew else 1
        summary = (f"{self.SIDE_NAMES[winner]} win {self._totals[winner]} to "
                   f"{self._totals[1 - winner]}.")
        return Result(self.SIDE_NAMES, self.SIDES, tuple(self._totals), ranks, summary)

    # -- reading ------------------------------------------------------------------------

    def _build_sheet(self) -> ScoreSheet:
        detail = SpadesScoreDetail(
            bags=tuple(self._bags),
            bids=tuple(s.bids for s in self._deal_scores),
            tricks=tuple(s.tricks for s in self._deal_scores),
            penalties=tuple(s.penalties for s in self._deal_scores))
        return ScoreSheet(self.SIDE_NAMES, tuple(self._lines), tuple(self._totals),
                          detail=detail)

    def scores(self) -> ScoreSheet:
        if self._sheet is None:
            self._sheet = self._build_sheet()
        return self._sheet

    def result(self) -> Result | None:
        return self._result

    def deal_record(self) -> SpadesDealRecord:
        return SpadesDealRecord(self.deal_no, self.dealer, self._dealt)

    def view(self, seat: int | None) -> SpadesView:
        sees_hand = seat is not None and self._looked[seat]
        over = self._phase == MATCH_OVER
        return SpadesView(
            seat=seat,
            deal_no=self.deal_no,
            phase=self._phase,
            turn=self.turn(),
            to_act=self.to_act(),
            dealer=self.dealer,
            hand=tuple(self._hands[seat]) if sees_hand and seat is not None else (),
            looked=tuple(self._looked),
            hand_sizes=tuple(len(h) for h in self._hands),
            bids=tuple(self._bids),
            tricks_won=tuple(self._won),
            trick=tuple(self._trick),
            leader=None if over else self._leader,
            tricks=tuple(self._tricks),
            last_trick=self._tricks[-1] if self._tricks else None,
            spades_broken=self._broken,
            target=self.target,
            deals=int(self.options.get("deals", 0)),
            bags_penalty=self.bags_penalty,
            bags=tuple(self._bags),
            score=self.scores(),
            previous_deal=self._previous,
            result=self._result,
        )


GAME = Spades  # how bot.games.game_class finds this game by its name
