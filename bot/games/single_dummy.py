"""Single Dummy Bridge: two players, each playing their own hand and a dummy opposite.

Seats: 0 plays South (and the dummy at North), 1 plays West (and the dummy at East).
Hands are indexed 0 South, 1 West, 2 North, 3 East (`HAND_NAMES`); hand h is played by
seat h % 2. The pack is dealt in blocks of 13 in hand order: S, W, N, E (so a stacked pack
gives South cards 0-12, West 13-25, North 26-38, East 39-51); `stack_deck` before the
first call of a deal replaces that deal's cards.

A deal: the dealer (random for the first deal, then alternating) deals; one dummy, chosen
at random, is shown to both players; the two players hold an auction starting with the
dealer (after a bid a single pass ends it; two opening passes throw the deal in). The bid
winner then takes the revealed dummy or the hidden one (`dummy:revealed` / `dummy:hidden`;
the dummies swap places if needed so the chosen one sits opposite the winner), both dummies
are faced, and the winner's opponent leads from their own hand. Play runs clockwise S, W,
N, E; when a dummy is to play its owner acts and `legal` lists the dummy's cards. The
winner of a trick (a hand) leads the next one. The match ends when a player reaches the
target or, with the internal option `deals` (challenges), after that many deals.

Actions: `pass`, `double`, `redouble`, `bid:<level><strain>`, `dummy:revealed`,
`dummy:hidden`, `play:<card>`.
Events (bot/games/events.py): `Acted` for a call or the dummy choice, `CardPlayed` (its
`hand` is the hand 0..3 the card came from), `DealStarted`, `DummyRevealed`, `ThrownIn`,
`AuctionEnded`, `DummiesFaced`, `HandTrickWon`, `SingleDummyDealEnded`, `MatchEnded`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from .base import ChallengePlay, Game, OptionSpec, Phase, Result, ScoreLine, ScoreSheet
from .base import ranks_from_totals as _ranks
from .bridge_auction import CALL_BY_TEXT, Auction, Call, Contract, usual_text
from .bridge_scoring import single_dummy_score
from .cards import CARD_BY_PLAY, FULL_DECK, PLAY_TEXT, Card, sort_hand
from .events import (
    Acted,
    AuctionEnded,
    CardPlayed,
    DealStarted,
    DummiesFaced,
    DummyRevealed,
    Event,
    HandTrickWon,
    MatchEnded,
    SingleDummyDealEnded,
    ThrownIn,
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
from .single_dummy_view import (
    HAND_NAMES,
    DealSummary,
    SingleDummyView,
    TrickRecord,
    owner_of,
)
from .tricks import follow_error, legal_follow, trick_winner

DUMMY_CHOICES = ("dummy:revealed", "dummy:hidden")
COMPASS = (2, 3, 0, 1)  # hand index (S, W, N, E) -> compass seat (N, E, S, W = 0..3)


def _own_side(seat: int) -> int:
    return seat
# A play's event depends only on (seat, hand, card): built once and shared
# (events are immutable). Index (seat*4+hand)*52+card.
_PLAY_EVENTS: tuple[CardPlayed, ...] = tuple(
    CardPlayed(f"{HAND_NAMES[who]} plays {c.label}", seat, PLAY_TEXT[c.index], who)
    for seat in range(2) for who in range(4) for c in FULL_DECK)


@dataclass(frozen=True, slots=True)
class SingleDummyRecord:
    """A deal as dealt (before any dummy swap): hand records and tests."""

    deal_no: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # by hand index S, W, N, E
    revealed: int
    calls: tuple[tuple[int, str], ...]
    dummy_choice: str | None
    play: tuple[tuple[int, str], ...]  # (hand index, card text) in order


class SingleDummyBridge(Requests, Game[SingleDummyView]):
    """Single Dummy Bridge for two players (see the module docstring)."""

    NAME: ClassVar[str] = "single_dummy"
    TITLE: ClassVar[str] = "Single Dummy Bridge"
    SEATS: ClassVar[int] = 2
    SEAT_NAMES: ClassVar[tuple[str, ...]] = ("South", "West")
    SIDES: ClassVar[tuple[tuple[int, ...], ...]] = ((0,), (1,))
    SIDE_NAMES: ClassVar[tuple[str, ...]] = ("South", "West")
    HAND_NAMES: ClassVar[tuple[str, ...]] = HAND_NAMES
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("target", int, 500, "Points needed to win the match", 100, 2000),
        OptionSpec("undertrick_penalty", bool, False,
                   "A failed contract gives the opponent 50 per undertrick"),
        OptionSpec("undo", bool, True, "Players may ask to take back their last call or "
                   "card; the opponents agree"),
        UNDO_LIMIT,
        OptionSpec("deals", int, 0, "The match is this many deals, whatever the score "
                   "(0: play to the target).", 0, 32, internal=True),
    )
    HAND_RECORDS: ClassVar[bool] = True
    # Its deal scores are bridge trick scores, so a challenge turns their differences into
    # IMPs, as Contract Bridge's does (one redoubled swing cannot decide it alone). A
    # thrown-in deal is one of the challenge's deals (scored 0), so both people's deal k
    # is the same pack.
    CHALLENGE: ClassVar[ChallengePlay | None] = ChallengePlay(
        MappingProxyType({"undo": False}), length_option="deals", default_deals=4,
        max_deals=32, seat=0, compare="imps")
    DEALT_HANDS: ClassVar[tuple[str, ...] | None] = tuple(
        f"{name} ({'player' if h < 2 else 'dummy'})" for h, name in enumerate(HAND_NAMES))

    def __init__(self, options: Mapping[str, object] | None = None, seed: int = 0) -> None:
        super().__init__(options, seed)
        self.target = int(self.options["target"])
        self.undertrick_penalty = bool(self.options["undertrick_penalty"])
        self.deals = int(self.options.get("deals", 0))  # 0: play to the target
        self.deal_no = 0
        self.dealer = self.rng.randrange(2)
        self.lines: list[ScoreLine] = []
        self.totals = [0, 0]
        self.previous: DealSummary | None = None
        self._sheet: ScoreSheet | None = None  # rebuilt when a deal is scored
        self._over = False
        self.request = None  # a pending claim or undo (bot/games/requests.py)
        self.claimed = None  # the accepted claim ending this deal's play, as said
        self._start_deal(first=True)

    # -- dealing ----------------------------------------------------------------------

    def _start_deal(self, first: bool = False) -> list[Event]:
        if not first:
            self.dealer = 1 - self.dealer
        self.deal_no += 1
        self._deal()
        self.revealed = 2 + self.rng.randrange(2)
        self.auction = self._new_auction()
        self._call_texts: tuple[tuple[int, str], ...] = ()
        self.contract: Contract | None = None
        self.dummy_choice: str | None = None
        self.swapped = False
        self.trick: list[tuple[int, Card]] = []
        self.leader = 0
        self.last_trick: TrickRecord | None = None
        self.tricks_won = [0, 0]
        self.played: list[Card] = []
        self.play_log: list[tuple[int, str]] = []
        name = self.SEAT_NAMES[self.dealer]
        return [
            DealStarted(f"Deal {self.deal_no}: {name} deals.", self.dealer, self.deal_no,
                        self.dealer),
            DummyRevealed(f"{self.SEAT_NAMES[owner_of(self.revealed)]}'s dummy"
                          f" ({HAND_NAMES[self.revealed]}) is shown to both players.", None,
                          self.revealed, tuple(c.text for c in self.hands[self.revealed])),
        ]

    def _deal(self) -> None:
        self.dealt: tuple[tuple[Card, ...], ...] = tuple(
            tuple(hand) for hand in self.deal(FULL_DECK, 4))
        # Each hand is kept sorted (spades first, high to low) so views and buttons are.
        self.hands: list[list[Card]] = [sort_hand(h) for h in self.dealt]

    def _new_auction(self) -> Auction:
        return Auction([self.dealer, 1 - self.dealer], side_of=_own_side, passes_to_end=1,
                       opening_passes_to_throw_in=2)

    def stack_deck(self, pack: Sequence[Card]) -> None:
        """Tests: called before the first call of a deal, it replaces that deal's cards at
        once (the dealer and the revealed dummy stay); otherwise the next deal uses it."""
        super().stack_deck(pack)
        if not self.auction.calls and not self._over:
            self._deal()

    # -- reading ----------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self._over

    @property
    def phase(self) -> Phase:
        if self._over:
            return "match_over"
        if self.contract is None:
            return "auction"
        if self.dummy_choice is None:
            return "dummy_choice"
        return "play"

    @property
    def playing_hand(self) -> int | None:
        """The hand to play next (None outside the play)."""
        if self.phase != "play":
            return None
        return self._hand_on_turn()

    def _hand_on_turn(self) -> int:
        """In the play: the hand to play next (hands play in index order, S W N E)."""
        return (self.leader + len(self.trick)) % 4

    def turn(self) -> int | None:
        phase = self.phase
        if phase == "auction":
            return self.auction.to_call()
        if phase == "dummy_choice":
            assert self.contract is not None
            return self.contract.declarer
        if phase == "play":
            return owner_of(self._hand_on_turn())
        return None

    def to_act(self) -> frozenset[int]:
        if self.request is not None:
            return self.request.waiting
        turn = self.turn()
        return frozenset() if turn is None else frozenset((turn,))

    def _legal(self, seat: int) -> Sequence[str]:
        if self.request is not None:
            return ANSWERS if seat in self.request.waiting else ()
        if seat != self.turn():
            return []
        phase = self.phase
        if phase == "auction":
            return [call.text for call in self.auction.legal_calls(seat)]
        if phase == "dummy_choice":
            return list(DUMMY_CHOICES)
        hand = self.hands[self._hand_on_turn()]
        led = self.trick[0][1].suit if self.trick else None
        return [PLAY_TEXT[c.index] for c in legal_follow(hand, led)]

    # -- check, then do ---------------------------------------------------------------

    def _spelling(self, action: str) -> str:
        return usual_text(action)

    def _not_on_turn(self, seat: int) -> str:
        if self.request is not None:
            return self._waiting_text(seat)
        return super()._not_on_turn(seat)

    def _why_not(self, seat: int, action: str) -> str:
        if self.request is not None:
            return f"{self.request.text}: accept or reject."
        phase = self.phase
        kind, _, rest = action.partition(":")
        if phase == "auction":
            if kind in ("play", "dummy"):
                return "The auction is still going: pass, bid, double or redouble."
            return self.auction.refusal(seat, action)
        if phase == "dummy_choice":
            return "Choose a dummy first: the revealed one or the hidden one."
        if kind != "play":
            return "It is time to play a card."
        try:
            played = Card.parse(rest)
        except ValueError as exc:
            return str(exc)
        who = self._hand_on_turn()
        if played not in self.hands[who]:
            return f"{HAND_NAMES[who]} does not hold the {played.label}."
        led = self.trick[0][1].suit if self.trick else None
        return follow_error(self.hands[who], led, played) or ""

    def _do(self, seat: int, action: str) -> list[Event]:
        if self.request is not None:
            return self._answer(seat, action)
        phase = self.phase
        if phase == "auction":
            return self._call(seat, CALL_BY_TEXT[action])
        if phase == "dummy_choice":
            return self._choose_dummy(seat, action)
        return self._play(seat, CARD_BY_PLAY[action])

    def _call(self, seat: int, call: Call) -> list[Event]:
        self.auction.call(seat, call)
        self._call_texts += ((seat, call.text),)
        name = self.SEAT_NAMES[seat]
        verbs = {"pass": "passes", "double": "doubles", "redouble": "redoubles"}
        text = f"{name} {verbs[call.kind]}" if call.bid is None else f"{name} bids {call.label}"
        events: list[Event] = [Acted(text, seat, call.text)]
        if self.auction.passed_out:
            events.append(ThrownIn("Both players passed: the deal is thrown in.", None,
                                   self.deal_no, self.dealer))
            events.extend(self._end_deal(thrown_in=True))
        elif self.auction.finished:
            self.contract = self.auction.contract
            assert self.contract is not None
            declarer = self.contract.declarer
            events.append(AuctionEnded(f"Contract: {self.contract.text(self.SEAT_NAMES)}.",
                                       declarer, self.contract.code, declarer))
        return events

    def _choose_dummy(self, seat: int, action: str) -> list[Event]:
        assert self.contract is not None
        choice = action.split(":", 1)[1]
        winner_dummy = 2 + seat  # the dummy opposite the winner
        # The chosen dummy must end up opposite the winner: swap when it is not there.
        self.swapped = (self.revealed == winner_dummy) != (choice == "revealed")
        if self.swapped:
            self.hands[2], self.hands[3] = self.hands[3], self.hands[2]
        self.dummy_choice = choice
        self.leader = 1 - seat  # the opponent of the winner leads from their own hand
        name = self.SEAT_NAMES[seat]
        return [
            Acted(f"{name} takes the {choice} dummy", seat, action),
            DummiesFaced("Both dummies are face up.", None, choice, self.swapped,
                         MappingProxyType({HAND_NAMES[h]: tuple(c.text for c in self.hands[h])
                                           for h in (2, 3)})),
        ]

    def _play(self, seat: int, played: Card) -> list[Event]:
        who = self._hand_on_turn()
        hand = self.hands[who]
        hand.remove(played)
        self.trick.append((who, played))
        self.play_log.append((who, played.text))
        events: list[Event] = [_PLAY_EVENTS[(seat * 4 + who) * 52 + played.index]]
        if len(self.trick) == 4:
            events.extend(self._finish_trick())
        return events

    def _finish_trick(self) -> list[Event]:
        assert self.contract is not None
        winner = trick_winner(self.trick, self.contract.trump)
        record = TrickRecord(tuple(self.trick), winner)
        self.tricks_won[owner_of(winner)] += 1
        self.played.extend(c for _, c in self.trick)
        self.last_trick = record
        self.trick = []
        self.leader = winner
        events: list[Event] = [HandTrickWon(
            f"{HAND_NAMES[winner]} wins the trick.", owner_of(winner), owner_of(winner),
            tuple((h, c.text) for h, c in record.cards), winner)]
        if len(self.played) == 52:
            events.extend(self._end_deal(thrown_in=False))
        return events

    # -- claims and undo (the mechanism: bot/games/requests.py) -------------------------

    def _claim_refusal(self, seat: int) -> str | None:
        if self.phase != "play":
            return "You can claim only during the play."
        if seat != self.turn():
            return "You may claim only on your turn."
        return None

    def _claim_answerers(self, seat: int) -> frozenset[int]:
        return frozenset((1 - seat,))

    def tricks_left(self) -> int:
        return 13 - self.tricks_won[0] - self.tricks_won[1]

    def _settle_claim(self, seat: int, tricks: int) -> list[Event]:
        left = self.tricks_left()
        self.tricks_won[seat] += tricks
        self.tricks_won[1 - seat] += left - tricks
        self.trick = []
        return self._end_deal(thrown_in=False)

    def _undo_plan(self, seat: int) -> tuple[int, str]:
        if self.dummy_choice is None:  # the auction, or the dummy still to choose
            return take_back_plan([(s, CALL_BY_TEXT[text].label) for s, text in
                                   self._call_texts], seat, "call", NO_CALL)
        return take_back_plan([(owner_of(h), c.label) for h, c in self.trick], seat, "card",
                              NO_CARD)

    def _undo_answerers(self, seat: int) -> frozenset[int]:
        return frozenset((1 - seat,))

    def _take_back(self, count: int) -> None:
        if self.dummy_choice is None:
            self._call_texts = self._call_texts[:len(self._call_texts) - count]
            self.auction = self._new_auction()
            for caller, text in self._call_texts:
                self.auction.call(caller, CALL_BY_TEXT[text])
            self.contract = None
            return
        for _ in range(count):
            who, card = self.trick.pop()
            self.play_log.pop()
            self.hands[who] = sort_hand([*self.hands[who], card])

    def claim_position(self) -> PlayPosition:
        hands: list[tuple[Card, ...]] = [()] * 4
        for h, held in enumerate(self.hands):
            hands[COMPASS[h]] = tuple(held)
        leader = self.trick[0][0] if self.trick else self.leader
        assert self.contract is not None
        return PlayPosition(tuple(hands), self.contract.trump, COMPASS[leader],
                            tuple(c for _, c in self.trick))

    # -- end of deal and match --------------------------------------------------------

    def _seated_hands(self) -> tuple[tuple[Card, ...], ...]:
        """The four hands as dealt, at the places they were played from."""
        hands = list(self.dealt)
        if self.swapped:
            hands[2], hands[3] = hands[3], hands[2]
        return tuple(hands)

    def _end_deal(self, thrown_in: bool) -> list[Event]:
        points = [0, 0]
        contract = self.contract
        if thrown_in or contract is None:
            note = "thrown in"
        else:
            declarer = contract.declarer
            taken = self.tricks_won[declarer]
            mine, theirs = single_dummy_score(contract.level, contract.strain,
                                              contract.doubled, taken,
                                              self.undertrick_penalty)
            points[declarer], points[1 - declarer] = mine, theirs
            note = (f"{contract.text(self.SEAT_NAMES)}, {taken} tricks: "
                    f"{contract.result(taken)}")
        line = ScoreLine(f"Deal {self.deal_no}", (points[0], points[1]), note)
        self.lines.append(line)
        self._sheet = None
        self.totals[0] += points[0]
        self.totals[1] += points[1]
        seated = self._seated_hands()
        self.previous = DealSummary(
            deal_no=self.deal_no, dealer=self.dealer, hands=seated, revealed=self.revealed,
            dummy_choice=self.dummy_choice, calls=self._calls(), contract=contract,
            tricks=(self.tricks_won[0], self.tricks_won[1]), line=line, claim=self.claimed)
        self.claimed = None
        events: list[Event] = [SingleDummyDealEnded(
            f"Deal {self.deal_no}: {note}.", None, self.deal_no, (line,),
            tuple(tuple(c.text for c in seated[h]) for h in range(4)), HAND_NAMES,
            contract.code if contract and not thrown_in else None,
            (self.tricks_won[0], self.tricks_won[1]))]
        if self._match_over():
            self._over = True
            final = self.result()
            assert final is not None
            events.append(MatchEnded(final.summary, None, final))
        else:
            events.extend(self._start_deal())
        return events

    def _match_over(self) -> bool:
        """After a deal: the target reached or, with a fixed number of deals (a thrown-in
        deal is one of them), the last one played."""
        if self.deals:
            return self.deal_no >= self.deals
        return max(self.totals) >= self.target

    def _calls(self) -> tuple[tuple[int, str], ...]:
        return self._call_texts

    def scores(self) -> ScoreSheet:
        if self._sheet is None:
            self._sheet = ScoreSheet(self.SIDE_NAMES, tuple(self.lines),
                                     (self.totals[0], self.totals[1]))
        return self._sheet

    def result(self) -> Result | None:
        if not self._over:
            return None
        totals = (self.totals[0], self.totals[1])
        # The higher total wins, equal totals draw: only a fixed number of deals can end
        # level (one player scores on a deal, so both never reach the target at once).
        ranks = _ranks(totals)
        if ranks[0] == ranks[1]:
            summary = f"Draw at {totals[0]}."
        else:
            win = ranks.index(0)
            summary = (f"{self.SIDE_NAMES[win]} wins {totals[win]} to {totals[1 - win]}.")
        return Result(self.SIDE_NAMES, self.SIDES, totals, ranks, summary)

    def deal_record(self) -> SingleDummyRecord:
        return SingleDummyRecord(
            deal_no=self.deal_no, dealer=self.dealer, hands=self.dealt,
            revealed=self.revealed, calls=self._calls(), dummy_choice=self.dummy_choice,
            play=tuple(self.play_log))

    # -- views ------------------------------------------------------------------------

    def _visible(self, seat: int | None) -> tuple[tuple[Card, ...] | None, ...]:
        faced = self.dummy_choice is not None
        out: list[tuple[Card, ...] | None] = []
        for h in range(4):
            if h == seat or (h >= 2 and (faced or h == self.revealed)):
                out.append(tuple(self.hands[h]))
            else:
                out.append(None)
        return tuple(out)

    def view(self, seat: int | None) -> SingleDummyView:
        playing = self.playing_hand
        return SingleDummyView(
            seat=seat, deal_no=self.deal_no, phase=self.phase, turn=self.turn(),
            to_act=self.to_act(),
            hand=tuple(self.hands[seat]) if seat is not None else (),
            hands=self._visible(seat), trick=tuple(self.trick), last_trick=self.last_trick,
            previous_deal=self.previous, score=self.scores(), dealer=self.dealer,
            revealed=self.revealed, dummies_faced=self.dummy_choice is not None,
            calls=self._calls(), contract=self.contract,
            declarer=self.contract.declarer if self.contract else None,
            playing_for=HAND_NAMES[playing] if playing is not None else None,
            playing_hand=playing, tricks_won=(self.tricks_won[0], self.tricks_won[1]),
            played=tuple(self.played), target=self.target, deals=self.deals,
            undertrick_penalty=self.undertrick_penalty, request=self.request,
            asks=self.asks(seat))


GAME = SingleDummyBridge  # how bot.games.game_class finds this game by its name
