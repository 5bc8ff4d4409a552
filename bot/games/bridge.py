"""Contract Bridge (rubber): four seats, N-S against E-W, scored per the Laws.

Seats 0=North, 1=East, 2=South, 3=West; sides 0=North-South, 1=East-West. The first dealer
is drawn from the seed; the deal passes clockwise. Each deal takes a 52-card pack from
`next_pack` and deals it in blocks: seat i gets cards 13*i .. 13*i+12 (North, East, South,
West), so tests can `stack_deck` exact hands. `stack_deck` called before the first call
of a deal replaces that deal (tests can stack the first deal); otherwise it stacks the next.

Actions: the auction's `pass`, `double`, `redouble`, `bid:<level><strain>` (`bid:3NT`), and
`play:<card>` (`play:QH`). The auction runs from the dealer; four opening passes throw the
deal in and the next dealer deals. Declarer's left-hand opponent leads, then dummy is faced
and declarer plays both hands: when dummy is to play, `to_act()` is {declarer} and
`legal(declarer)` lists dummy's cards. Dummy's owner never acts.

Events (bot/games/events.py): `Acted` for a call, `CardPlayed` for a card (its `hand` is
dummy's seat when declarer plays from dummy), `AuctionEnded` or `ThrownIn`, `DummyFaced`,
`TrickWon`, `GameWon` (a line is drawn), `RubberEnded`, `DealEnded`, `BridgeDealStarted`
(with the vulnerability), `MatchEnded`; claims and undo add the requests' events.

`stop()` ends the match early (a table abandoned): the deal in progress is not scored, the
unfinished rubber scores 300 for a side's single game and 100 for a part score, and the
match is over. It is not an action and is not in `history`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar

from .base import (
    ChallengePlay,
    DailyPlay,
    Game,
    IllegalAction,
    OptionSpec,
    Phase,
    Result,
    ScoreLine,
    ScoreSheet,
    ranks_from_totals,
)
from .bridge_auction import CALL_BY_TEXT, Auction, Call, Contract, usual_text
from .bridge_rubber import RubberScorer
from .bridge_scoring import board_dealer, board_vulnerability, duplicate_score, honours_bonus
from .bridge_view import BridgeView, DealRecord, DealSummary, LastTrick
from .cards import (
    CARD_BY_PLAY,
    FULL_DECK,
    PLAY_TEXT,
    SEAT_CARD,
    SEAT_NAMES,
    SIDE_OF,
    Card,
    Seat,
    Suit,
    play_texts_by_suit,
    sort_hand,
)
from .events import (
    Acted,
    AuctionEnded,
    BridgeDealStarted,
    CardPlayed,
    DealEnded,
    DummyFaced,
    Event,
    GameWon,
    MatchEnded,
    RubberEnded,
    ThrownIn,
    TrickWon,
)
from .requests import (
    ANSWERS,
    NO_CALL,
    NO_CARD,
    UNDO_LIMIT,
    PlayPosition,
    Requests,
    take_back_plan,
)
from .tricks import follow_error, trick_winner

_EMPTY: frozenset[int] = frozenset()
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset((s,)) for s in range(4))
_TRICK_TEXT: tuple[str, ...] = tuple(f"{name} wins the trick." for name in SEAT_NAMES)


def _play_event(seat: int, position: int, played: Card) -> CardPlayed:
    label = played.label
    text = (f"{SEAT_NAMES[seat]} plays {label} from dummy" if position != seat
            else f"{SEAT_NAMES[position]} plays {label}")
    return CardPlayed(text, seat, PLAY_TEXT[played.index], position)


# A play's event depends only on (seat, position, card): built once and shared
# (events are immutable). Index (seat*4+position)*52+card.
_PLAY_EVENTS: tuple[CardPlayed, ...] = tuple(
    _play_event(seat, position, c) for seat in range(4) for position in range(4)
    for c in FULL_DECK)


def _call_event(seat: int, call: Call) -> Acted:
    name = SEAT_NAMES[seat]
    if call.kind == "bid":
        text = f"{name} bids {call.label}"
    elif call.kind == "pass":
        text = f"{name} passes"
    else:
        text = f"{name} {call.kind}s"
    return Acted(text, seat, call.text)


# A call's event depends only on (seat, call): built once and shared, like plays'.
_CALL_EVENTS: tuple[dict[str, Acted], ...] = tuple(
    {text: _call_event(seat, call) for text, call in CALL_BY_TEXT.items()} for seat in range(4))


def _opponents(seat: int) -> frozenset[int]:
    at = Seat(seat)
    return frozenset((at.lho, at.rho))


class ContractBridge(Requests, Game[BridgeView]):
    """A match of one or more rubbers of Contract Bridge."""

    NAME: ClassVar[str] = "bridge"
    TITLE: ClassVar[str] = "Contract Bridge"
    SEATS: ClassVar[int] = 4
    SEAT_NAMES: ClassVar[tuple[str, ...]] = SEAT_NAMES
    SIDES: ClassVar[tuple[tuple[int, ...], ...]] = ((0, 2), (1, 3))
    SIDE_NAMES: ClassVar[tuple[str, ...]] = ("North-South", "East-West")
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("rubbers", int, 1, "How many rubbers the match lasts.", 1, 5),
        # Who may act, not a rule: the table service reads it (bot/tables/model.py).
        OptionSpec("human_declares", bool, True, "When your computer partner wins the "
                   "contract, you play the hand (the score stays as bid)."),
        OptionSpec("boards", int, 0, "Duplicate: the match is this many boards, each "
                   "scored on its own, dealer and vulnerability by board number "
                   "(0: rubber bridge).", 0, 32, internal=True),
        OptionSpec("undo", bool, True, "Players may ask to take back their last call or "
                   "card; the opponents agree"),
        UNDO_LIMIT,
    )
    HAND_RECORDS: ClassVar[bool] = True
    EXPLAINED_BIDDING: ClassVar[bool] = True
    # Daily deals are a competition over the same boards against computer players, who
    # would always consent: no undo there (as at a tournament), or a mistake others had to
    # live with could be taken back. Claims stay: they stand only when they hold double
    # dummy.
    DAILY: ClassVar[DailyPlay | None] = DailyPlay(
        MappingProxyType({"boards": 4, "undo": False}),
        "Today's 4 bridge boards, scored duplicate against the server")
    # A challenge is the same: duplicate boards against computer players, no undo.
    CHALLENGE: ClassVar[ChallengePlay | None] = ChallengePlay(
        MappingProxyType({"undo": False}), length_option="boards", default_deals=4,
        max_deals=32, seat=2, compare="imps")

    @classmethod
    def deal_word(cls, options: Mapping[str, object]) -> str:
        return "board" if options.get("boards") else "deal"

    def __init__(self, options: Mapping[str, object] | None = None, seed: int = 0) -> None:
        super().__init__(options, seed)
        self.rubbers = int(self.options["rubbers"])
        self.boards = int(self.options.get("boards", 0))  # 0: rubber; else duplicate boards 1..n
        self.sheet = RubberScorer(("We (North-South)", "They (East-West)"))
        self.lines: list[ScoreLine] = []
        self.previous: DealSummary | None = None
        self._score_cache: ScoreSheet | None = None  # rebuilt when the sheet changes
        self.last: LastTrick | None = None
        self._finished = False
        self.stopped = False
        self.request = None  # a pending claim or undo (bot/games/requests.py)
        self.claimed = None  # the accepted claim ending this deal's play, as said
        self.deal_no = 0
        self.dealer = Seat(board_dealer(1) if self.boards else self.rng.randrange(4))
        self._start_deal(first=True)

    # -- dealing ---------------------------------------------------------------------

    _side = staticmethod(SIDE_OF.__getitem__)

    def stack_deck(self, pack: Sequence[Card]) -> None:
        super().stack_deck(pack)
        if not self.auction.calls and not self._finished:
            self._deal()

    def _start_deal(self, first: bool = False) -> None:
        if not first:
            self.dealer = self.dealer.next
        self.deal_no += 1
        self._deal()

    def _deal(self) -> None:
        self.dealt: tuple[tuple[Card, ...], ...] = tuple(
            tuple(hand) for hand in self.deal(FULL_DECK, 4))
        self.hands: list[list[Card]] = [list(h) for h in self.dealt]
        # The same hands as play texts, whole and per suit, in hand order (legal's lists).
        self._texts: list[list[str]] = [[PLAY_TEXT[c.index] for c in h] for h in self.dealt]
        self._suit_texts = [play_texts_by_suit(h) for h in self.dealt]
        self.vulnerable = (board_vulnerability(self.deal_no) if self.boards else
                           (self.sheet.vulnerable(0), self.sheet.vulnerable(1)))
        dealer = self.dealer
        self.auction = self._new_auction()
        self.contract: Contract | None = None
        self._trump: Suit | None = None
        self.declarer: Seat | None = None
        self.dummy: Seat | None = None
        self.dummy_faced = False
        self.position: Seat = dealer  # whose cards are played next, dummy's too (in play)
        self.trick: list[tuple[Seat, Card]] = []
        self.play: list[tuple[Seat, Card]] = []
        self.tricks_won = [0, 0]
        self.last = None

    def _new_auction(self) -> Auction:
        dealer = self.dealer
        return Auction((dealer, dealer.next, dealer.partner, dealer.rho), self._side, 3, 4)

    # -- the contract ----------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def phase(self) -> Phase:
        if self._finished:
            return "match_over"
        return "bidding" if self.contract is None else "play"

    def to_act(self) -> frozenset[int]:
        if self._finished:
            return _EMPTY
        if self.request is not None:
            return self.request.waiting
        if self.contract is None:
            return _ONLY[self.auction.to_call()]
        turn = self.position  # declarer decides for dummy (_player_of, inlined)
        return _ONLY[self.declarer if turn == self.dummy and self.declarer is not None
                     else turn]

    def turn(self) -> int | None:
        if self._finished:
            return None
        return self.auction.to_call() if self.contract is None else self.position

    def _player_of(self, seat: int) -> int:
        """Who decides for `seat`'s cards: declarer for dummy."""
        return self.declarer if seat == self.dummy and self.declarer is not None else seat

    def _legal(self, seat: int) -> Sequence[str]:
        if self._finished:
            return ()
        if self.request is not None:
            return ANSWERS if seat in self.request.waiting else ()
        if self.contract is None:
            return self.auction.allowed_texts(seat)
        turn = self.position  # declarer plays dummy's cards (_player_of, inlined)
        if seat != (self.declarer if turn == self.dummy else turn):
            return ()
        if self.trick:
            same = self._suit_texts[turn][self.trick[0][1].suit]
            if same:
                return same
        return self._texts[turn]

    def _not_on_turn(self, seat: int) -> str:
        if self.request is not None:
            return self._waiting_text(seat)
        if seat == self.dummy and self.contract is not None:
            return "Your partner plays dummy's cards."
        return super()._not_on_turn(seat)

    def _spelling(self, action: str) -> str:
        return usual_text(action)

    def _why_not(self, seat: int, action: str) -> str:
        kind, _, rest = action.partition(":")
        if self.request is not None:
            return f"{self.request.text}: accept or reject."
        if self.contract is None:
            if kind == "play":
                return "The auction is not over yet: make a call."
            return self.auction.refusal(seat, action)
        if kind != "play":
            return "The auction is over: play a card."
        try:
            played = Card.parse(rest)
        except ValueError as exc:
            return str(exc)
        return self._play_error(seat, played) or ""

    def _do(self, seat: int, action: str) -> list[Event]:
        if self.request is not None:
            return self._answer(seat, action)
        played = CARD_BY_PLAY.get(action)
        if played is None:
            return self._do_call(seat, CALL_BY_TEXT[action])
        return self._do_play(seat, played)

    # -- the auction -------------------------------------------------------------------

    def _do_call(self, seat: int, call: Call) -> list[Event]:
        """Make the call (the auction checks it first), then end the auction if it is over."""
        self.auction.call(seat, call)
        events: list[Event] = [_CALL_EVENTS[seat][call.text]]
        if not self.auction.finished:
            return events
        contract = self.auction.contract
        if contract is None:
            events.append(ThrownIn(f"All four passed: the {self.deal_word(self.options)} is "
                                   "thrown in.", None,
                                   self.deal_no, self.dealer))
            self._end_deal(events, None)
            return events
        self.contract = contract
        self._trump = contract.strain.trump
        self.declarer = declarer = Seat(contract.declarer)
        self.dummy = declarer.partner
        self.position = declarer.next
        events.append(AuctionEnded(f"The contract is {contract.text(self.SEAT_NAMES)}.", None,
                                   contract.code, contract.declarer))
        return events

    # -- the play ------------------------------------------------------------------------

    def _play_error(self, seat: int, played: Card) -> str | None:
        """Why `seat` may not play `played` now (the hand on turn being theirs or dummy's)."""
        hand = self.hands[self.position]
        for_dummy = self.position != seat
        if played not in hand:
            if for_dummy and played in self.hands[seat]:
                return "It is dummy's turn: play a card from dummy."
            if not for_dummy and self.dummy is not None and played in self.hands[self.dummy]:
                return "It is your own hand's turn, not dummy's."
        led = self.trick[0][1].suit if self.trick else None
        return follow_error(hand, led, played, dummy=for_dummy)

    def _do_play(self, seat: int, played: Card) -> list[Event]:
        """Play `played` (legal) from the hand on turn, `seat` deciding."""
        position = self.position
        self.hands[position].remove(played)
        text = PLAY_TEXT[played.index]
        self._texts[position].remove(text)
        self._suit_texts[position][played.suit].remove(text)
        play = SEAT_CARD[position * 52 + played.index]  # == (position, played)
        self.trick.append(play)
        self.play.append(play)
        events: list[Event] = [_PLAY_EVENTS[(seat * 4 + position) * 52 + played.index]]
        if not self.dummy_faced:
            self.dummy_faced = True
            assert self.dummy is not None
            dummy_cards = sort_hand(self.hands[self.dummy])
            events.append(DummyFaced(f"Dummy ({self.SEAT_NAMES[self.dummy]}) is faced.",
                                     self.dummy, self.dummy,
                                     tuple(c.text for c in dummy_cards)))
        if len(self.trick) < 4:
            self.position = position.next
            return events
        assert self.contract is not None
        cards = tuple(self.trick)
        winner = trick_winner(cards, self._trump)
        self.tricks_won[SIDE_OF[winner]] += 1
        self.last = LastTrick(cards, winner)
        self.trick = []
        self.position = winner
        events.append(TrickWon(_TRICK_TEXT[winner], winner, winner,
                               tuple((s, c.text) for s, c in cards)))
        if len(self.play) == 52:
            self._end_deal(events, self.contract)
        return events

    # -- claims and undo (the mechanism: bot/games/requests.py) -------------------------

    def _claim_refusal(self, seat: int) -> str | None:
        if self.contract is None:
            return "You can claim only during the play."
        if seat != self.declarer:
            return "Only declarer may claim."
        return None

    def _claim_answerers(self, seat: int) -> frozenset[int]:
        return _opponents(seat)  # both defenders

    def tricks_left(self) -> int:
        return 13 - self.tricks_won[0] - self.tricks_won[1]

    def _settle_claim(self, seat: int, tricks: int) -> list[Event]:
        side = SIDE_OF[seat]
        left = self.tricks_left()
        self.tricks_won[side] += tricks
        self.tricks_won[1 - side] += left - tricks
        self.trick = []
        events: list[Event] = []
        self._end_deal(events, self.contract)
        return events

    def _undo_plan(self, seat: int) -> tuple[int, str]:
        if self.contract is None or not self.play:  # the auction (or before the lead)
            return take_back_plan([(s, call.label) for s, call in self.auction.calls], seat,
                                  "call", NO_CALL)
        count, what = take_back_plan([(self._player_of(p), c.label) for p, c in self.trick],
                                     seat, "card", NO_CARD)
        if count == len(self.play):
            raise IllegalAction("The opening lead cannot be taken back: dummy is face up.")
        return count, what

    def _undo_answerers(self, seat: int) -> frozenset[int]:
        if self.contract is not None and self.play and seat != self.declarer:
            assert self.declarer is not None
            return frozenset((self.declarer,))  # dummy does not take part in the play
        return _opponents(seat)

    def _take_back(self, count: int) -> None:
        if self.contract is None or not self.play:
            calls = self.auction.calls[:len(self.auction.calls) - count]
            self.auction = self._new_auction()
            for caller, call in calls:
                self.auction.call(caller, call)
            self.contract = self._trump = self.declarer = self.dummy = None
            self.position = self.dealer
            return
        for _ in range(count):
            position, card = self.trick.pop()
            self.play.pop()
            held = set(self.hands[position])
            held.add(card)
            hand = [c for c in self.dealt[position] if c in held]  # the hand's own order
            self.hands[position] = hand
            self._texts[position] = [PLAY_TEXT[c.index] for c in hand]
            self._suit_texts[position] = play_texts_by_suit(hand)
            self.position = position

    def claim_position(self) -> PlayPosition:
        leader = self.trick[0][0] if self.trick else self.position
        return PlayPosition(tuple(tuple(h) for h in self.hands), self._trump, leader,
                            tuple(c for _, c in self.trick))

    # -- end of deal, rubber and match --------------------------------------------------

    def _honours(self, contract: Contract) -> tuple[int, int, str] | None:
        """Honours claimed for the side of the hand holding them (either side)."""
        for seat, hand in enumerate(self.dealt):
            points = honours_bonus(contract.strain, hand)
            if points:
                what = "aces" if contract.trump is None else "honours"
                return (self._side(seat), points, f"{what} ({self.SEAT_NAMES[seat]})")
        return None

    def _end_deal(self, events: list[Event], contract: Contract | None) -> None:
        deal_no = self.deal_no
        word = self.deal_word(self.options).capitalize()  # "Board" in duplicate
        if contract is None:
            line = ScoreLine(f"{word} {deal_no}", (0, 0), "thrown in")
        elif self.boards:
            line = self._duplicate_line(contract)
        else:
            side = self._side(contract.declarer)
            taken = self.tricks_won[side]
            honours = self._honours(contract)
            score = self.sheet.record_deal(deal_no, contract, side, taken, honours)
            note = f"{contract.text(self.SEAT_NAMES)}, {contract.result(taken)}"
            if honours is not None:  # in the side's points: say so, or they look wrong
                holders, points, label = honours
                note += f"; {self.SIDE_NAMES[holders]} also score {points} for {label}"
            line = ScoreLine(f"{word} {deal_no}", score.points, note)
            if score.game_won_by is not None:
                events.append(GameWon(f"{self.SIDE_NAMES[side]} win a game.", None, side))
            if score.rubber_won_by is not None:
                rubber = self.sheet.current
                bonus = score.entries[-1][2].points
                events.append(RubberEnded(
                    f"{self.SIDE_NAMES[side]} win rubber {rubber.number} (bonus {bonus}).",
                    None, rubber.number, side, bonus))
        self.lines.append(line)
        self._score_cache = None
        self.previous = DealSummary(
            deal_no, self.dealer, self.vulnerable, self.dealt, tuple(self.auction.calls),
            contract, (self.tricks_won[0], self.tricks_won[1]), (line,), claim=self.claimed)
        self.claimed = None
        events.append(DealEnded(f"{word} {deal_no} is over.", None, deal_no, (line,),
                                tuple(tuple(c.text for c in h) for h in self.dealt)))
        if self.boards and deal_no >= self.boards:
            self._finish(events)
            return
        if self.sheet.current.winner is not None:
            if self.sheet.completed >= self.rubbers:
                self._finish(events)
                return
            self.sheet.new_rubber()
        self._start_deal()
        events.append(BridgeDealStarted(
            f"{self.deal_word(self.options).capitalize()} {self.deal_no}: "
            f"{self.SEAT_NAMES[self.dealer]} deals.", None,
            self.deal_no, self.dealer, (self.vulnerable[0], self.vulnerable[1])))

    def _duplicate_line(self, contract: Contract) -> ScoreLine:
        """A board's duplicate score, to the declaring side or (negative) the defenders."""
        side = self._side(contract.declarer)
        taken = self.tricks_won[side]
        score = duplicate_score(contract, taken, self.vulnerable[side])
        points = [0, 0]
        points[side if score > 0 else 1 - side] = abs(score)
        return ScoreLine(f"{self.deal_word(self.options).capitalize()} {self.deal_no}",
                         (points[0], points[1]),
                         f"{contract.text(self.SEAT_NAMES)}, {contract.result(taken)}")

    def _finish(self, events: list[Event]) -> None:
        self._finished = True
        result = self.result()
        assert result is not None
        events.append(MatchEnded(result.summary, None, result))

    def stop(self) -> list[Event]:
        """End the match now (an abandoned table): the deal in progress is not scored; the
        unfinished rubber scores 300 for a side's single game and 100 for a part score in
        the unfinished game (Laws). Returns the events; does nothing once finished."""
        if self._finished:
            return []
        points = self.sheet.stop(self.deal_no)
        self.stopped = True
        events: list[Event] = []
        if any(points):
            line = ScoreLine("Unfinished rubber", points, "match stopped")
            self.lines.append(line)
        self._score_cache = None
        self._finish(events)
        return events

    # -- reading ---------------------------------------------------------------------------

    def scores(self) -> ScoreSheet:
        if self._score_cache is None:
            if self.boards:
                totals = tuple(sum(line.points[s] for line in self.lines) for s in (0, 1))
                self._score_cache = ScoreSheet(self.SIDE_NAMES, tuple(self.lines), totals,
                                               running=False)
            else:
                self._score_cache = ScoreSheet(self.SIDE_NAMES, tuple(self.lines),
                                               self.sheet.totals(), False, self.sheet.sheet())
        return self._score_cache

    def result(self) -> Result | None:
        if not self._finished:
            return None
        totals = self.scores().totals
        ranks = ranks_from_totals(totals)
        if ranks[0] == ranks[1]:
            summary = f"A draw at {totals[0]} points each."
        else:
            win = 0 if ranks[0] == 0 else 1
            summary = (f"{self.SIDE_NAMES[win]} win by {abs(totals[0] - totals[1])} points"
                       f" ({totals[0]} to {totals[1]}).")
        if self.stopped:
            summary += " The match was stopped early."
        return Result(self.SIDE_NAMES, self.SIDES, totals, ranks, summary)

    def view(self, seat: int | None) -> BridgeView:
        playing = self.contract is not None and not self._finished
        to_act = self.to_act()
        hand: tuple[Card, ...] = ()
        if seat is not None and not self._finished:
            hand = tuple(sort_hand(self.hands[seat]))
        dummy_hand: tuple[Card, ...] = ()
        if playing and self.dummy_faced and self.dummy is not None:
            dummy_hand = tuple(sort_hand(self.hands[self.dummy]))
        playing_for = None
        if playing and seat is not None and seat in to_act and self.request is None:
            playing_for = self.position
        turn = self.turn()
        rubber = self.sheet.current
        return BridgeView(
            seat=seat, deal_no=self.deal_no, phase=self.phase, turn=turn, to_act=to_act,
            hand=hand, trick=tuple(self.trick), last_trick=self.last,
            previous_deal=self.previous, score=self.scores(), dealer=self.dealer,
            vulnerable=self.vulnerable, calls=tuple(self.auction.calls),
            contract=self.contract, declarer=self.declarer, dummy=self.dummy,
            dummy_hand=dummy_hand, playing_for=playing_for,
            tricks_won=(self.tricks_won[0], self.tricks_won[1]),
            hand_sizes=tuple(len(h) for h in self.hands),
            rubber_no=rubber.number,
            games_won=(rubber.games_won(0), rubber.games_won(1)),
            part_scores=(rubber.part_score(0), rubber.part_score(1)),
            played=tuple(self.play[:len(self.play) - len(self.trick)]),
            duplicate=bool(self.boards), request=self.request, asks=self.asks(seat),
            deal_word=self.deal_word(self.options))

    def deal_record(self) -> DealRecord:
        return DealRecord(self.deal_no, self.dealer, self.vulnerable, self.dealt,
                          tuple(self.auction.calls), self.contract, tuple(self.play))


GAME = ContractBridge  # how bot.games.game_class finds this game by its name
