"""Spades (Tennessee rules, with the rulings of RULES.md): the match engine.

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

Events returned by `apply`, in order: "action" (data: action), then as they happen:
"spades_broken", "bids_complete" (data: bids {seat: bid text}, leader), "trick" (data:
winner, cards [(seat, card text)]), "deal_end" (data: deal_no, lines, hands {seat: [card
texts]}, bids {seat: bid text}, tricks {seat: count}, bags [per side]), "match_end"
(data: result), "deal_start" (data: deal_no, dealer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from .base import Event, Game, IllegalAction, OptionSpec, Result, ScoreLine, ScoreSheet
from .base import ranks_from_totals as _ranks
from .cards import FULL_DECK, Card, Suit, sort_hand
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
    Play,
    SpadesDealRecord,
    SpadesDealSummary,
    SpadesScoreDetail,
    SpadesView,
)
from .tricks import follow_error, trick_winner

BIDDING = "bidding"
PLAY = "play"
MATCH_OVER = "match_over"

_BIDS: dict[str, int] = {"nil": NIL, "double_nil": DOUBLE_NIL}
_BIDS.update({str(n): n for n in range(1, 14)})
_BID_ACTIONS: tuple[str, ...] = ("bid:nil", *(f"bid:{n}" for n in range(1, 14)))
_BLIND_ACTIONS: tuple[str, ...] = ("look", "bid:double_nil")
_LOOK_ONLY: tuple[str, ...] = ("look",)
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset((s,)) for s in range(4))
_NOBODY: frozenset[int] = frozenset()
# Hot-path tables indexed by Card.index (a dict keyed by Card calls its Python __hash__).
_PLAY_TEXT: tuple[str, ...] = tuple("play:" + c.text for c in FULL_DECK)
_CARD_BY_TEXT: dict[str, Card] = {c.text: c for c in FULL_DECK}
_SPADES = Suit.SPADES
_SEAT_NAMES = ("North", "East", "South", "West")
_CARD_BY_PLAY: dict[str, Card] = {"play:" + c.text: c for c in FULL_DECK}
_TRICK_TEXT: tuple[str, ...] = tuple(f"{name} wins the trick." for name in _SEAT_NAMES)
# Bidding: to_act by (seat on turn) * 16 + (bit s: seat s has not looked yet); bids by their
# exact action text; look and bid "action" events built once (indexed seat * 15 + bid + 1).
_BIDDING_TO_ACT: tuple[frozenset[int], ...] = tuple(
    frozenset([turn, *(s for s in range(4) if mask >> s & 1)])
    for turn in range(4) for mask in range(16))
_BID_BY_ACTION: dict[str, int] = {"bid:" + bid_text(b): b for b in range(DOUBLE_NIL, 14)}
# Shared immutable tuples for the hot path (fewer allocations, less garbage collection):
# history entries (seat, action text) and plays (seat, card), indexed as the events are.
_PLAY_ENTRIES: tuple[tuple[int, str], ...] = tuple(
    (s, "play:" + c.text) for s in range(4) for c in FULL_DECK)
_SEAT_CARDS: tuple[tuple[int, Card], ...] = tuple((s, c) for s in range(4) for c in FULL_DECK)
_LOOK_ENTRIES: tuple[tuple[int, str], ...] = tuple((s, "look") for s in range(4))
_BID_ENTRIES: tuple[tuple[int, str], ...] = tuple(
    (s, "bid:" + bid_text(b)) for s in range(4) for b in range(DOUBLE_NIL, 14))
_LOOK_EVENTS: tuple[Event, ...] = tuple(
    Event("action", f"{name} looks at their hand.", s, {"action": "look"})
    for s, name in enumerate(_SEAT_NAMES))
_BID_EVENTS: tuple[Event, ...] = tuple(
    Event("action", f"{name} bids {bid_label(b)}.", s, {"action": "bid:" + bid_text(b)})
    for s, name in enumerate(_SEAT_NAMES) for b in range(DOUBLE_NIL, 14))
# The deck in sort_hand's order, each card's position in it (by Card.index), and its texts.
_SORTED_DECK: tuple[Card, ...] = tuple(sort_hand(FULL_DECK))
_SORT_POS: tuple[int, ...] = tuple(_SORTED_DECK.index(c) for c in FULL_DECK)
_SORTED_TEXT: tuple[str, ...] = tuple("play:" + c.text for c in _SORTED_DECK)
_SORTED_SUIT: tuple[int, ...] = tuple(int(c.suit) for c in _SORTED_DECK)
# A card play's "action" event depends only on (seat, card): built once and shared (events
# are frozen; their data is read, never changed), indexed seat * 52 + card index.
_PLAY_EVENTS: tuple[Event, ...] = tuple(
    Event("action", f"{_SEAT_NAMES[s]} plays {c.label}.", s, {"action": "play:" + c.text})
    for s in range(4) for c in FULL_DECK)


class Spades(Game):
    """A match of Spades played to `target` points (option `bags_penalty`: every 10 bags
    cost 100).

    Deal blocks: `stack_deck(pack)` takes 52 cards, cards 13*i .. 13*i+12 being seat i's
    hand (0 North, 1 East, 2 South, 3 West) whoever deals. Attributes read by tables and
    tests: `deal_no` (1-based), `dealer` (seat), `target`, `bags_penalty`.
    """

    NAME: ClassVar[str] = "spades"
    TITLE: ClassVar[str] = "Spades"
    SEATS: ClassVar[int] = 4
    SEAT_NAMES: ClassVar[tuple[str, ...]] = _SEAT_NAMES
    SIDES: ClassVar[tuple[tuple[int, ...], ...]] = ((0, 2), (1, 3))
    SIDE_NAMES: ClassVar[tuple[str, ...]] = ("North-South", "East-West")
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("target", int, 500, "Points a side needs to win the match.",
                   minimum=100, maximum=1000),
        OptionSpec("bags_penalty", bool, False,
                   "Every 10 overtricks (bags) a side collects cost it 100 points."),
    )

    def __init__(self, options: Mapping[str, object] | None = None, seed: int = 0) -> None:
        super().__init__(options, seed)
        self.target = int(self.options["target"])
        self.bags_penalty = bool(self.options["bags_penalty"])
        self.deal_no = 1
        self.dealer = self.rng.randrange(4)
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
        shuffled = not self._stacked  # a shuffle of the full deck needs no check
        self._deal(self.next_pack(FULL_DECK), checked=shuffled)

    def _deal(self, pack: Sequence[Card], checked: bool = False) -> None:
        if not checked and (len(pack) != 52 or len(set(pack)) != 52):
            raise ValueError("a Spades pack must hold the 52 different cards")
        # Each hand sorted as sort_hand does (spades first, high to low), by sorting the
        # cards' precomputed positions in that order.
        keys = [_SORT_POS[c.index] for c in pack]
        blocks = [sorted(keys[13 * i:13 * i + 13]) for i in range(4)]
        self._dealt = tuple(tuple([_SORTED_DECK[k] for k in block]) for block in blocks)
        self._hands = [list(hand) for hand in self._dealt]
        # The same hands as play texts per suit, in hand order (legal's lists). Hands are
        # sorted spades, hearts, diamonds, clubs, so a whole hand's texts are the suits'
        # lists joined in that order.
        self._suit_texts: list[list[list[str]]] = []
        for block in blocks:
            per_suit: list[list[str]] = [[], [], [], []]
            for k in block:
                per_suit[_SORTED_SUIT[k]].append(_SORTED_TEXT[k])
            self._suit_texts.append(per_suit)
        self._looked = [False] * 4
        self._unlooked = 0b1111  # bit s: seat s has not looked yet (to_act's table key)
        self._bids: list[int | None] = [None] * 4
        self._phase = BIDDING
        self._turn = (self.dealer + 1) % 4
        self._leader = self._turn
        self._trick: list[Play] = []
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
            self._deal(self.next_pack(FULL_DECK))

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

    def legal(self, seat: int) -> list[str]:
        if self._phase == BIDDING:
            if not self._looked[seat]:
                return list(_BLIND_ACTIONS if seat == self._turn else _LOOK_ONLY)
            return list(_BID_ACTIONS) if seat == self._turn else []
        if self._phase == PLAY and seat == self._turn:
            # Follow suit if able; lead no spade before spades are broken unless holding only
            # spades. Copied from the lists kept beside the hand.
            clubs, diamonds, hearts, spades = self._suit_texts[seat]
            if self._trick:
                same = self._suit_texts[seat][self._trick[0][1].suit]
                if same:
                    return same[:]
            elif not self._broken:
                others = hearts + diamonds + clubs
                if others:
                    return others
            return spades + hearts + diamonds + clubs
        return []

    # -- the checks (each raises a reason a player can read) ---------------------------

    def _check_look(self, seat: int) -> None:
        if self._phase != BIDDING:
            raise IllegalAction("Hands are picked up during the bidding only.")
        if self._looked[seat]:
            raise IllegalAction("You have already looked at your hand.")

    def _check_bid(self, seat: int, text: str) -> int:
        if self._phase != BIDDING:
            raise IllegalAction("The bidding is over.")
        if seat != self._turn:
            raise IllegalAction(f"It is {self.SEAT_NAMES[self._turn]}'s turn to bid.")
        bid = _BIDS.get(text)
        if bid is None:
            raise IllegalAction("Bid Nil, Double Nil or a number of tricks from 1 to 13.")
        if bid == DOUBLE_NIL and self._looked[seat]:
            raise IllegalAction("Double Nil may only be bid before looking at your hand.")
        if bid != DOUBLE_NIL and not self._looked[seat]:
            raise IllegalAction("Look at your hand first (only Double Nil is bid blind).")
        return bid

    def _check_play(self, seat: int, text: str) -> Card:
        if self._phase != PLAY:
            raise IllegalAction("Cards are played once the bidding is over.")
        hand = self._hands[seat]
        played = _CARD_BY_TEXT.get(text)
        # The common case: a card held that follows suit, or a lead other than an unbroken
        # spade. Anything else goes through the full check below, which says why not.
        if played is not None and played in hand and (
                (self._trick and played.suit is self._trick[0][1].suit)
                or (not self._trick and (played.suit is not _SPADES or self._broken))):
            return played
        try:
            played = Card.parse(text)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        if self._trick:
            error = follow_error(hand, self._trick[0][1].suit, played)
            if error:
                raise IllegalAction(error)
        elif played not in hand:
            raise IllegalAction(f"You do not hold the {played.label}.")
        elif (played.suit is _SPADES and not self._broken
              and any(c.suit is not _SPADES for c in hand)):
            raise IllegalAction("Spades are not broken yet: lead another suit.")
        return played

    # -- doing --------------------------------------------------------------------------

    def apply(self, seat: int, action: object) -> list[Event]:
        if (self._phase == PLAY and isinstance(action, str) and type(action) is str
                and type(seat) is int and seat == self._turn):
            # The common case, decided without the general checks: a legal card in its
            # usual spelling by the seat on turn. Everything else (errors included) goes
            # the general way.
            played = _CARD_BY_PLAY.get(action)
            if played is not None and played in self._hands[seat]:
                trick = self._trick
                suit_texts = self._suit_texts[seat]
                if trick:
                    led = trick[0][1].suit
                    legal = played.suit is led or not suit_texts[led]
                else:
                    legal = (played.suit is not _SPADES or self._broken
                             or len(suit_texts[_SPADES]) == len(self._hands[seat]))
                if legal:
                    events = self._do_play(seat, played, _SEAT_CARDS[seat * 52 + played.index])
                    self.history.append(_PLAY_ENTRIES[seat * 52 + played.index])
                    return events
        elif (self._phase == BIDDING and isinstance(action, str) and type(action) is str
              and type(seat) is int and 0 <= seat < 4):
            # A look by a seat that has not looked, or a bid in its usual spelling by the
            # seat on turn that is allowed (double nil blind, the others after looking).
            if action == "look":
                if not self._looked[seat]:
                    events = self._do_look(seat)
                    self.history.append(_LOOK_ENTRIES[seat])
                    return events
            else:
                bid = _BID_BY_ACTION.get(action)
                if (bid is not None and seat == self._turn
                        and (bid == DOUBLE_NIL) is not self._looked[seat]):
                    events = self._do_bid(seat, bid)
                    self.history.append(_BID_ENTRIES[seat * 15 + bid + 1])  # == (seat, action)
                    return events
        return super().apply(seat, action)

    def _apply(self, seat: int, action: str) -> list[Event]:
        kind, _, arg = action.partition(":")
        if action == "look":
            self._check_look(seat)
            return self._do_look(seat)
        if kind == "bid" and arg:
            return self._do_bid(seat, self._check_bid(seat, arg))
        if kind == "play" and arg:
            return self._do_play(seat, self._check_play(seat, arg))
        raise IllegalAction(f"`{action}` is not a Spades action (look, bid:<n>, play:<card>).")

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
        events = [_BID_EVENTS[seat * 15 + bid + 1]]
        self._turn = (seat + 1) % 4
        if all(b is not None for b in self._bids):
            self._phase = PLAY
            self._turn = self._leader = (self.dealer + 1) % 4
            bids = {s: bid_text(b) for s, b in enumerate(self._bids) if b is not None}
            listing = ", ".join(f"{self.SEAT_NAMES[s]} {bid_label(b)}"
                                for s, b in enumerate(self._bids) if b is not None)
            events.append(Event("bids_complete",
                                f"Bids: {listing}. {self.SEAT_NAMES[self._turn]} leads.",
                                None, {"bids": bids, "leader": self._turn}))
        return events

    def _do_play(self, seat: int, played: Card, play: Play | None = None) -> list[Event]:
        """Play a checked card; `play` is (seat, played) when the caller has it shared."""
        self._hands[seat].remove(played)
        self._suit_texts[seat][played.suit].remove(_PLAY_TEXT[played.index])
        self._trick.append(play or (seat, played))
        events = [_PLAY_EVENTS[seat * 52 + played.index]]
        if played.suit is _SPADES and not self._broken:
            self._broken = True
            events.append(Event("spades_broken", "Spades are broken.", seat))
        if len(self._trick) < 4:
            self._turn = (seat + 1) % 4
            return events
        cards = tuple(self._trick)
        winner = trick_winner(cards, _SPADES)
        done = CompletedTrick(self._leader, cards, winner)
        self._tricks.append(done)
        self._won[winner] += 1
        self._trick = []
        self._turn = self._leader = winner
        events.append(Event("trick", _TRICK_TEXT[winner], winner,
                            {"winner": winner,
                             "cards": [(s, c.text) for s, c in done.cards]}))
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
        events = [Event("deal_end", self._deal_end_text(score), None, {
            "deal_no": self.deal_no, "lines": [line],
            "hands": {s: [c.text for c in hand] for s, hand in enumerate(self._dealt)},
            "bids": {s: bid_text(b) for s, b in enumerate(bids)},
            "tricks": dict(enumerate(self._won)), "bags": list(score.bags)})]
        self._result = self._match_result()
        if self._result is not None:
            self._phase = MATCH_OVER
            events.append(Event("match_end", self._result.summary, None,
                                {"result": self._result}))
            return events
        self.deal_no += 1
        self.dealer = (self.dealer + 1) % 4
        self._start_deal()
        events.append(Event("deal_start",
                            f"Deal {self.deal_no}: {self.SEAT_NAMES[self.dealer]} deals.",
                            None, {"deal_no": self.deal_no, "dealer": self.dealer}))
        return events

    def _deal_end_text(self, score: DealScore) -> str:
        parts = ", ".join(f"{self.SIDE_NAMES[i]} {score.points[i]:+d}" for i in range(2))
        totals = " to ".join(str(t) for t in self._totals)
        return f"Deal {self.deal_no}: {parts} (match {totals})."

    def _match_result(self) -> Result | None:
        """A side at or over the target wins; both over: the higher; tied: play on."""
        ns, ew = self._totals
        if max(ns, ew) < self.target or ns == ew:
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
            turn=None if over else self._turn,
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
            bags_penalty=self.bags_penalty,
            bags=tuple(self._bags),
            score=self.scores(),
            previous_deal=self._previous,
            result=self._result,
        )
