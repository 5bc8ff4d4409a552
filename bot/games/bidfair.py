"""Bid Fair: two players, 24 cards, a shared crib, one bid card each and a movable high rank.

Rules: docs/rules.md "Bid Fair". A deal runs through these phases:

- "crib": both players at once put 4 of their 12 cards face down into the crib, one card
  per action: `crib:<card>` (e.g. `crib:QH`).
- "bidding": each player ends up placing one card: `up:<card>` (face up, a bid),
  `down:<card>` (face down, no bid) or `pass` (the non-dealer first; the dealer only after
  a pass). Both passed: the same dealer deals again (event `Redealt`); in a match of a
  fixed number of deals (option `deals`) the deal is thrown in instead, scoring nothing
  (events `ThrownIn`, `BidFairDealEnded`), so that deal k is the k-th pack in every match
  dealt from the same seed (challenges compare them).
- the crib is shuffled and its top card cut face up: its suit is trump (event `TrumpTurned`;
  event `ContractSettled` names the bidder, holder, high rank and contract value).
- "exchange": with a contract, the holder may swap hands with the 7 remaining crib cards:
  `exchange` or `keep`.
- "play": 7 tricks of two cards, `play:<card>`; the holder leads (no contract: the
  non-dealer).

Scoring: only cards captured in tricks count (see bidfair_scoring): the two bid cards, the
cut card and the 7 unused crib cards are captured by nobody.

Events (bot/games/events.py): `Acted` (its action is the action text, except that hidden
placements read just "crib" or "down" so the event can be shown to everyone), `CribDone`
(the seat that places first), `Redealt`, `TrumpTurned` (with the seats whose face-up bid
is of the trump suit), `ContractSettled` (all None/False with no contract), `TrickWon`,
`BidFairDealEnded` (with the deal's `DealScore`), `DealStarted`, `MatchEnded`.

Dealing: each deal takes a 24-card pack from `next_pack`; seat i's 12 cards are the i-th
block of 12 (seat 0 North: cards 0-11, seat 1 South: cards 12-23), whoever deals.
`stack_deck` before anyone acts in a deal replaces that deal at once. Tests may also call
`stack_cut(card)` to choose the card the next crib shuffle turns up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar

from .base import ChallengePlay, Game, OptionSpec, Phase, Result, ScoreLine, ScoreSheet
from .base import ranks_from_totals as _ranks
from .bidfair_bidding import bid_error, bid_floor, bid_turn, contract_of, may_pass
from .bidfair_rank import CONTRACT_VALUES, beats, bidfair_pack, card_points, make_power
from .bidfair_scoring import THROWN_IN, score_deal
from .bidfair_view import BidFairView, DealSummary, Placement, PlayedTrick
from .cards import Card, Rank, Suit, sort_hand
from .events import (
    Acted,
    BidFairDealEnded,
    ContractSettled,
    CribDone,
    DealStarted,
    Event,
    MatchEnded,
    Redealt,
    ThrownIn,
    TrickWon,
    TrumpTurned,
)
from .tricks import follow_error

HAND_SIZE = 12
CRIB_EACH = 4
TRICKS = 7
_PACK = tuple(bidfair_pack())
# The verbs each phase takes, and those that name a card (`up:QH`).
_PHASE_VERBS: dict[str, tuple[str, ...]] = {
    "crib": ("crib",), "bidding": ("up", "down", "pass"), "exchange": ("exchange", "keep"),
    "play": ("play",)}
_CARD_VERBS = frozenset(("crib", "up", "down", "play"))


# (seat * 52 + card index) -> the shared event of that play
_PLAY_EVENTS: dict[int, Acted] = {}


class BidFair(Game[BidFairView]):
    """A match of Bid Fair between North (seat 0) and South (seat 1)."""

    NAME: ClassVar[str] = "bidfair"
    TITLE: ClassVar[str] = "Bid Fair"
    SEATS: ClassVar[int] = 2
    SEAT_NAMES: ClassVar[tuple[str, ...]] = ("North", "South")
    SIDES: ClassVar[tuple[tuple[int, ...], ...]] = ((0,), (1,))
    SIDE_NAMES: ClassVar[tuple[str, ...]] = ("North", "South")
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("target", int, 800, "Points that end the game, checked after each deal",
                   minimum=100, maximum=5000),
        OptionSpec("deals", int, 0, "The match is this many deals, whatever the score "
                   "(0: play to the target).", 0, 32, internal=True),
    )
    # A deal is short (4 crib cards, a bid and 7 tricks each), so a challenge is 8 of
    # them: about as many as a match to 800 lasts between computer players.
    CHALLENGE: ClassVar[ChallengePlay | None] = ChallengePlay(
        MappingProxyType({}), length_option="deals", default_deals=8, max_deals=32, seat=1,
        compare="points")

    def __init__(self, options: Mapping[str, object] | None = None, seed: int = 0) -> None:
        super().__init__(options, seed)
        self.target = int(self.options["target"])
        self.deals = int(self.options.get("deals", 0))  # 0: play to the target
        self.lines: list[ScoreLine] = []
        self.totals = [0, 0]
        self.previous: DealSummary | None = None
        self._over = False
        self._cuts: list[Card] = []
        self.deal_no = 1
        self.redeals = 0
        self.dealer = self.rng.randrange(2)
        self._new_deal()

    # -- dealing --------------------------------------------------------------------

    def stack_deck(self, pack: Sequence[Card]) -> None:
        """Tests only: North's 12 cards then South's 12.

        Before anyone has acted in the current deal, that deal is replaced at once (tests
        may also set `dealer` then).
        """
        super().stack_deck(pack)
        if not self._begun():
            self._new_deal()

    def _begun(self) -> bool:
        return any(self.cribs) or any(self.passes) or self._over

    def stack_cut(self, card: Card) -> None:
        """Tests only: the next crib shuffle turns up this card (it must be in that crib)."""
        self._cuts.append(card)

    def _new_deal(self) -> None:
        self.dealt = [tuple(hand) for hand in self.deal(_PACK, 2)]
        self.hands = [sort_hand(h) for h in self.dealt]
        self.cribs: list[list[Card]] = [[], []]
        self.placed: list[Placement | None] = [None, None]
        self.passes = [False, False]
        self.phase: Phase = "crib"
        self.bidder: int | None = None
        self.holder: int | None = None
        self.high: Rank | None = None
        self.value: int | None = None
        self.cut: Card | None = None
        self.trump: Suit | None = None
        self.exchanged: bool | None = None
        self.remaining: list[Card] = []
        self.power = make_power(None)
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[PlayedTrick] = []
        self.played: list[Card] = []
        self.captured = [0, 0]
        self._turn: int | None = None

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    # -- the contract ---------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self._over

    def to_act(self) -> frozenset[int]:
        if self._over:
            return frozenset()
        if self.phase == "crib":
            return frozenset(s for s in (0, 1) if len(self.cribs[s]) < CRIB_EACH)
        if self.phase == "bidding":
            turn = self._bid_turn()
            return frozenset() if turn is None else frozenset((turn,))
        return frozenset() if self._turn is None else frozenset((self._turn,))

    def turn(self) -> int | None:
        to_act = self.to_act()
        return next(iter(to_act)) if len(to_act) == 1 else None

    def _legal(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        hand = self.hands[seat]
        if self.phase == "crib":
            return [f"crib:{c.text}" for c in hand]
        if self.phase == "bidding":
            floor = bid_floor(seat, self.placed)
            out = [f"up:{c.text}" for c in hand if floor is None or c.rank > floor]
            out += [f"down:{c.text}" for c in hand]
            if may_pass(seat, self.dealer, self.placed, self.passes):
                out.append("pass")
            return out
        if self.phase == "exchange":
            return ["exchange", "keep"]
        led = self.trick[0][1].suit if self.trick else None
        same = [c for c in hand if c.suit == led]
        return [f"play:{c.text}" for c in (same or hand)]

    def _spelling(self, action: str) -> str:
        verb, _, arg = action.partition(":")
        if verb not in _CARD_VERBS:
            return action
        try:
            return f"{verb}:{Card.parse(arg).text}"
        except ValueError:
            return action

    def _why_not(self, seat: int, action: str) -> str:
        verb, _, arg = action.partition(":")
        if self.phase == "bidding" and action == "pass":
            return "You may not pass now: place a card face up or face down."
        if verb not in _PHASE_VERBS[self.phase] or (verb in _CARD_VERBS) != bool(arg):
            return self._expect_text()
        try:
            c = Card.parse(arg)
        except ValueError as err:
            return str(err)
        if c not in self.hands[seat]:
            return f"You do not hold the {c.label}."
        if verb == "up":
            return bid_error(seat, c, self.placed) or ""
        led = self.trick[0][1].suit if self.trick else None
        return follow_error(self.hands[seat], led, c) or ""

    def _do(self, seat: int, action: str) -> list[Event]:
        verb, _, arg = action.partition(":")
        if self.phase == "exchange":
            return self._do_exchange(seat, verb)
        if action == "pass":
            return self._do_pass(seat)
        c = Card.parse(arg)
        if self.phase == "crib":
            return self._do_crib(seat, c)
        if self.phase == "bidding":
            return self._do_place(seat, verb == "up", c)
        return self._do_play(seat, c)

    # -- crib -----------------------------------------------------------------------

    def _expect_text(self) -> str:
        return {
            "crib": "Put a card into the crib (crib:<card>).",
            "bidding": "Place a card face up (up:<card>), face down (down:<card>), or pass.",
            "exchange": "Choose to exchange your hand with the crib, or keep it.",
            "play": "Play a card (play:<card>).",
        }[self.phase]

    def _do_crib(self, seat: int, c: Card) -> list[Event]:
        self.hands[seat].remove(c)
        self.cribs[seat].append(c)
        events: list[Event] = [Acted(f"{self.seat_name(seat)} puts a card into the crib.",
                                     seat, "crib")]
        if all(len(cr) == CRIB_EACH for cr in self.cribs):
            self.phase = "bidding"
            events.append(CribDone("The crib is complete: bidding starts.", None,
                                   self.non_dealer))
        return events

    # -- bidding --------------------------------------------------------------------

    def _bid_turn(self) -> int | None:
        return bid_turn(self.dealer, self.placed, self.passes)

    def _do_pass(self, seat: int) -> list[Event]:
        self.passes[seat] = True
        events: list[Event] = [Acted(f"{self.seat_name(seat)} passes.", seat, "pass")]
        if all(self.passes):
            if self.deals:  # no redeal in a fixed number of deals (docs/rules.md)
                events.append(ThrownIn("Both passed: the deal is thrown in.", None,
                                       self.deal_no, self.dealer))
                events += self._end_deal(thrown_in=True)
            else:
                events.append(self._redeal())
        return events

    def _do_place(self, seat: int, up: bool, c: Card) -> list[Event]:
        name = self.seat_name(seat)
        self.hands[seat].remove(c)
        self.placed[seat] = Placement(up, c)
        events: list[Event] = [
            Acted(f"{name} bids {c.label} (face up).", seat, f"up:{c.text}") if up
            else Acted(f"{name} places a card face down (no bid).", seat, "down")]
        if self._bid_turn() is None:
            events += self._settle_contract()
        return events

    def _redeal(self) -> Redealt:
        self.redeals += 1
        self._new_deal()
        return Redealt(f"Both passed: {self.seat_name(self.dealer)} deals again.", None,
                       self.dealer, self.deal_no)

    def _settle_contract(self) -> list[Event]:
        contract = contract_of(self.placed)
        if contract is not None:
            self.bidder, self.high = contract
            self.holder = 1 - self.bidder
            self.value = CONTRACT_VALUES[self.high]
        self.power = make_power(self.high)
        order = self.cribs[0] + self.cribs[1]
        self.rng.shuffle(order)
        if self._cuts:
            wanted = self._cuts.pop(0)
            order.remove(wanted)  # a test stacked a card that is not in the crib: fail loudly
            order.insert(0, wanted)
        self.cut, self.remaining = order[0], order[1:]
        self.trump = self.cut.suit
        bonus = tuple(s for s, p in enumerate(self.placed)
                      if p is not None and p.face_up and p.card is not None
                      and p.card.suit == self.trump)
        events: list[Event] = [TrumpTurned(
            f"The cut turns up the {self.cut.label}: {self.trump.title.lower()} are trump.",
            None, self.cut.text, self.trump.letter, bonus)]
        if self.holder is None:
            events.append(ContractSettled("No bid: no contract this deal.", None,
                                          None, None, None, None, False))
            self._start_play(self.non_dealer)
        else:
            assert self.bidder is not None and self.high is not None
            events.append(ContractSettled(
                f"{self.seat_name(self.bidder)} bid highest "
                f"({self.high.label} is high): {self.seat_name(self.holder)} holds the "
                f"contract and must capture {self.value} card points.", None,
                self.bidder, self.holder, self.high.char, self.value, self._both_up()))
            self.phase = "exchange"
            self._turn = self.holder
        return events

    def _both_up(self) -> bool:
        return all(p is not None and p.face_up for p in self.placed)

    # -- exchange and play ----------------------------------------------------------

    def _do_exchange(self, seat: int, verb: str) -> list[Event]:
        name = self.seat_name(seat)
        if verb == "exchange":
            self.hands[seat], self.remaining = sort_hand(self.remaining), self.hands[seat]
            self.exchanged = True
            text = f"{name} exchanges hands with the crib."
        else:
            self.exchanged = False
            text = f"{name} keeps the hand."
        self._start_play(seat)
        return [Acted(text, seat, verb)]

    def _start_play(self, leader: int) -> None:
        self.phase = "play"
        self._turn = leader

    def _do_play(self, seat: int, c: Card) -> list[Event]:
        self.hands[seat].remove(c)
        self.trick.append((seat, c))
        self.played.append(c)
        key = seat * 52 + c.index
        event = _PLAY_EVENTS.get(key)
        if event is None:  # built once per (seat, card) and shared: events are frozen
            event = _PLAY_EVENTS[key] = Acted(f"{self.seat_name(seat)} plays {c.label}.", seat,
                                              f"play:{c.text}")
        events: list[Event] = [event]
        if len(self.trick) == 1:
            self._turn = 1 - seat
            return events
        (first, led_card), (second, second_card) = self.trick
        assert self.trump is not None
        winner = second if beats(led_card, second_card, self.trump, self.power) else first
        self.captured[winner] += card_points(led_card) + card_points(second_card)
        done = PlayedTrick(tuple(self.trick), winner)
        self.tricks.append(done)
        self.trick = []
        self._turn = winner
        events.append(TrickWon(f"{self.seat_name(winner)} wins the trick.", winner, winner,
                               tuple((s, x.text) for s, x in done.cards)))
        if len(self.tricks) == TRICKS:
            events += self._end_deal()
        return events

    # -- end of deal and match ------------------------------------------------------

    def _end_deal(self, thrown_in: bool = False) -> list[Event]:
        if thrown_in:
            score = THROWN_IN
        else:
            up = [p is not None and p.face_up and p.card is not None
                  and p.card.suit == self.trump for p in self.placed]
            score = score_deal((self.captured[0], self.captured[1]), self.holder,
                               self.value, self._both_up(), (up[0], up[1]))
        line = ScoreLine(f"Deal {self.deal_no}", score.points, score.note)
        self.lines.append(line)
        self.totals = [self.totals[0] + score.points[0], self.totals[1] + score.points[1]]
        self.previous = self.deal_record(line)
        events: list[Event] = [BidFairDealEnded(
            f"Deal {self.deal_no}: {score.note}.", None, self.deal_no, (line,),
            tuple(tuple(c.text for c in self.dealt[s]) for s in (0, 1)), score)]
        if self._match_over():
            self._over = True
            self._turn = None
            self.phase = "match_over"
            result = self.result()
            assert result is not None
            events.append(MatchEnded(result.summary, None, result))
            return events
        if self.totals[0] != self.totals[1]:
            self.dealer = 0 if self.totals[0] > self.totals[1] else 1
        else:
            self.dealer = 1 - self.dealer
        self.deal_no += 1
        self.redeals = 0
        self._new_deal()
        events.append(DealStarted(f"Deal {self.deal_no}: {self.seat_name(self.dealer)} deals.",
                                  None, self.deal_no, self.dealer))
        return events

    def _match_over(self) -> bool:
        """After a deal: someone at the target and the totals not level or, with a fixed
        number of deals, the last one played (level totals then draw)."""
        if self.deals:
            return self.deal_no >= self.deals
        return max(self.totals) >= self.target and self.totals[0] != self.totals[1]

    def scores(self) -> ScoreSheet:
        return ScoreSheet(self.SIDE_NAMES, tuple(self.lines), (self.totals[0], self.totals[1]))

    def result(self) -> Result | None:
        if not self._over:
            return None
        totals = (self.totals[0], self.totals[1])
        ranks = _ranks(totals)
        if ranks[0] == ranks[1]:  # only a fixed number of deals ends level
            return Result(self.SIDE_NAMES, self.SIDES, totals, ranks,
                          f"A draw at {totals[0]} each.")
        winner = ranks.index(0)
        return Result(self.SIDE_NAMES, self.SIDES, totals, ranks,
                      f"{self.SIDE_NAMES[winner]} wins {totals[winner]} to "
                      f"{totals[1 - winner]}.")

    def deal_record(self, line: ScoreLine | None = None) -> DealSummary:
        """The current deal, everything included (never shown to a player mid-deal)."""
        return DealSummary(
            self.deal_no, self.dealer, tuple(self.dealt),
            (tuple(self.cribs[0]), tuple(self.cribs[1])), tuple(self.placed), self.bidder,
            self.holder, self.high, self.value, self.cut, self.trump, bool(self.exchanged),
            tuple(self.remaining), tuple(self.tricks), (self.captured[0], self.captured[1]),
            line)

    # -- what a seat may see --------------------------------------------------------

    def view(self, seat: int | None) -> BidFairView:
        to_act = self.to_act()
        turn = self.turn()
        placed = tuple(p if p is None or p.face_up or s == seat else Placement(False, None)
                       for s, p in enumerate(self.placed))
        return BidFairView(
            seat=seat, deal_no=self.deal_no,
            phase="match_over" if self._over else self.phase,
            turn=turn, to_act=to_act,
            hand=tuple(self.hands[seat]) if seat is not None else (),
            trick=tuple(self.trick),
            last_trick=self.tricks[-1] if self.tricks else None,
            previous_deal=self.previous, score=self.scores(), dealer=self.dealer,
            target=self.target, deals=self.deals,
            hand_sizes=(len(self.hands[0]), len(self.hands[1])),
            crib_owed=(CRIB_EACH - len(self.cribs[0]), CRIB_EACH - len(self.cribs[1])),
            crib_count=len(self.cribs[0]) + len(self.cribs[1]),
            my_crib=tuple(self.cribs[seat]) if seat is not None else (),
            passes=(self.passes[0], self.passes[1]), bids=placed, bidder=self.bidder,
            holder=self.holder, high_rank=self.high, contract_value=self.value,
            cut=self.cut, trump=self.trump, exchanged=self.exchanged,
            set_aside=tuple(self.remaining) if self.exchanged and seat == self.holder
            else (),
            played=tuple(self.played),
            tricks_won=(sum(t.winner == 0 for t in self.tricks),
                        sum(t.winner == 1 for t in self.tricks)),
            captured=(self.captured[0], self.captured[1]), redeals=self.redeals)


GAME = BidFair  # how bot.games.game_class finds this game by its name
