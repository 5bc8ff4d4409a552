"""Tennis: two players, each with a Forehand and a Backhand, bidding each hand's tricks exactly.

Rules: docs/rules.md "Tennis" (source text seeds/000_065169015a056e9d.txt). A match is two sets
of five games (deals); the trump of games 1..5 of each set is clubs, diamonds, hearts,
spades, notrump. The first dealer is drawn from the seed; the deal alternates every game.
The internal option `deals` (challenges) makes the match that many games instead, the
trumps running through the same sequence.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from operator import attrgetter
from types import MappingProxyType
from typing import ClassVar

from .base import (
    ChallengePlay,
    Game,
    OptionSpec,
    Result,
    ScoreLine,
    ScoreSheet,
    ranks_from_totals,
)
from .cards import FULL_DECK, Card, Suit
from .events import (
    BidsRevealed,
    Event,
    ForehandDealt,
    HandActed,
    MatchEnded,
    PlayStarted,
    TennisDealStarted,
    TennisTrickWon,
)
from .tennis_rules import (
    BACKHAND,
    FOREHAND,
    GAMES_PER_MATCH,
    KIND_NAMES,
    TRICKS_PER_GAME,
    bid_value,
    hand_id,
    kind_of,
    play_order,
    seat_of,
    set_and_game,
    trump_name,
    trump_of,
)
from .tennis_scoring import deal_end_event, score_game
from .tennis_views import TennisDealSummary, TennisTrick, TennisView
from .tricks import follow_error, legal_follow, trick_winner

# Hands are shown spades first, high to low: descending card index.
_HIGH_FIRST = attrgetter("index")


# ((seat * 2 + hand kind) * 52 + card index) -> the shared event of that play
_PLAY_EVENTS: dict[int, HandActed] = {}


class Tennis(Game[TennisView]):
    """A match of Tennis (2 players, 10 games; option `deals`: that many).

    Deal: one pack per game, dealt in blocks of 13 (see `tennis_rules`): block 0 is seat 0's
    Backhand, block 1 seat 1's Backhand, block 2 seat 0's Forehand, block 3 seat 1's
    Forehand. `stack_deck` takes the 52 cards of one game in that order. The Forehand blocks
    are only put into the players' hands after both Backhand bids are revealed.

    Actions: `bid:<card>` (a card of the hand being bid, e.g. `bid:7H`; A=1, 2-10 face value,
    J=11, Q=12, K=0) and `play:<card>` (the engine knows which hand is due).

    Views (`TennisView`): a player sees one of their hands at a time, the one about to bid
    or play (off turn: the hand they play next in this trick, else the one they played
    last); bids are hidden from the other seat and spectators until both are in.

    Phases: "bidding" (both seats act at once; `to_act` holds the seats that have not yet
    bid this hand; the bids are revealed together once both are in), "play", "match_over".

    Events (bot/games/events.py): `HandActed` for a bid (its action reads just "bid": the
    card stays secret until the reveal) or a card, naming the hand; `BidsRevealed`,
    `ForehandDealt`, `PlayStarted` (after the Forehand bids: who serves), `TennisTrickWon`,
    `TennisDealEnded`, `TennisDealStarted`, `MatchEnded`.
    """

    NAME: ClassVar[str] = "tennis"
    TITLE: ClassVar[str] = "Tennis"
    SEATS: ClassVar[int] = 2
    # No compass here: the two players are simply first and second to sit down.
    SEAT_NAMES: ClassVar[tuple[str, ...]] = ("First player", "Second player")
    SIDES: ClassVar[tuple[tuple[int, ...], ...]] = ((0,), (1,))
    SIDE_NAMES: ClassVar[tuple[str, ...]] = SEAT_NAMES
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("deals", int, 0, "The match is this many games, whatever the score "
                   "(0: two sets of five).", 0, 32, internal=True),
    )
    # A challenge is one set by default: five games, one in each trump and notrump, so
    # neither person's challenge leans on a trump the other never played; five, not the
    # match's ten, as a game is long for a person (two bids and 24 cards to play).
    CHALLENGE: ClassVar[ChallengePlay | None] = ChallengePlay(
        MappingProxyType({}), length_option="deals", default_deals=5, max_deals=32, seat=0,
        compare="points")
    # Each game's pack goes to four hands, in the order of `hand_id`: both players'
    # Backhands, then both Forehands.
    DEALT_HANDS: ClassVar[tuple[str, ...] | None] = tuple(
        f"{seat}'s {kind}" for kind, seat in product(KIND_NAMES, SEAT_NAMES))

    def __init__(self, options: Mapping[str, object] | None = None, seed: int = 0) -> None:
        super().__init__(options, seed)
        self.first_dealer = self.rng.randrange(2)
        self.games = int(self.options.get("deals", 0)) or GAMES_PER_MATCH
        self.deal_no = 1
        self._lines: list[ScoreLine] = []
        self._totals = [0, 0]
        self._sheet: ScoreSheet | None = None
        self._previous: TennisDealSummary | None = None
        self._finished = False
        self._dealt: tuple[tuple[Card, ...], ...] = ()
        self._hands: list[list[Card]] = []
        self._bids: list[Card | None] = []
        self._bidding: int | None = BACKHAND  # the kind being bid; None once play starts
        self._leader = 0  # the hand leading the current trick
        self._trick: list[tuple[int, Card]] = []  # (hand, card)
        self._tricks: list[int] = []  # tricks won per hand
        self._last_trick: TennisTrick | None = None
        self._tricks_played = 0
        self._pending_deal = True  # each game's pack is drawn when first needed

    # -- dealing ------------------------------------------------------------------------

    @property
    def dealer(self) -> int:
        return self.first_dealer ^ ((self.deal_no - 1) & 1)

    @property
    def set_no(self) -> int:
        return set_and_game(self.deal_no)[0]

    @property
    def game_no(self) -> int:
        return set_and_game(self.deal_no)[1]

    @property
    def trump(self) -> Suit | None:
        """This game's trump suit (None: notrump)."""
        return trump_of(self.deal_no)

    def _ensure_dealt(self) -> None:
        # Deal lazily, so a test can stack a game's pack once the previous game is over.
        if self._pending_deal:
            self._pending_deal = False
            self._start_deal()

    def _start_deal(self) -> None:
        self._dealt = tuple(tuple(hand) for hand in self.deal(FULL_DECK, 4))
        self._hands = [list(self._dealt[0]), list(self._dealt[1]), [], []]
        self._bids = [None, None, None, None]
        self._bidding = BACKHAND
        self._leader = hand_id(1 - self.dealer, FOREHAND)  # the non-dealer serves
        self._trick = []
        self._tricks = [0, 0, 0, 0]
        self._last_trick = None
        self._tricks_played = 0

    # -- the contract -------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self._finished

    def to_act(self) -> frozenset[int]:
        if self._finished:
            return frozenset()
        self._ensure_dealt()
        if self._bidding is not None:
            kind = self._bidding
            return frozenset(s for s in (0, 1) if self._bids[hand_id(s, kind)] is None)
        return frozenset((seat_of(self._due_hand()),))

    def turn(self) -> int | None:
        if self._finished:
            return None
        self._ensure_dealt()
        if self._bidding is not None:
            return None  # bids are made at once
        return seat_of(self._due_hand())

    def _legal(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self._bidding is not None:
            return ["bid:" + c.text for c in self._hands[hand_id(seat, self._bidding)]]
        hand = self._hands[self._due_hand()]
        return ["play:" + c.text for c in legal_follow(hand, self._led())]

    def _spelling(self, action: str) -> str:
        verb, _, arg = action.partition(":")
        try:
            return f"{verb}:{Card.parse(arg).text}" if verb in ("bid", "play") else action
        except ValueError:
            return action

    def _why_not(self, seat: int, action: str) -> str:
        verb, _, arg = action.partition(":")
        if verb not in ("bid", "play"):
            return f"`{action}` is not a Tennis action (bid:<card> or play:<card>)."
        try:
            played = Card.parse(arg)
        except ValueError as exc:
            return str(exc)
        kind = self._bidding
        if verb == "bid":
            if kind is None:
                return "The bidding is over: play a card."
            if self._bids[hand_id(seat, kind)] is not None:
                return f"You have already bid for your {KIND_NAMES[kind]}."
            return (f"You do not hold the {played.label} in your {KIND_NAMES[kind]}: bid with"
                    " one of its cards.")
        if kind is not None:
            return f"Bid for your {KIND_NAMES[kind]} first."
        hand = self._due_hand()
        error = follow_error(self._hands[hand], self._led(), played) or "."
        return f"{error[:-1]} in your {KIND_NAMES[kind_of(hand)]}."

    def _do(self, seat: int, action: str) -> list[Event]:
        verb, _, arg = action.partition(":")
        if verb == "bid":
            return self._do_bid(seat, Card.parse(arg))
        return self._do_play(seat, Card.parse(arg))

    # -- bidding ------------------------------------------------------------------------

    def _do_bid(self, seat: int, bid: Card) -> list[Event]:
        assert self._bidding is not None
        kind = self._bidding
        hand = hand_id(seat, kind)
        self._hands[hand].remove(bid)
        self._bids[hand] = bid
        name = self.SEAT_NAMES[seat]
        events: list[Event] = [HandActed(f"{name} places a {KIND_NAMES[kind]} bid face down.",
                                         seat, "bid", KIND_NAMES[kind])]
        if self._bids[hand_id(1 - seat, kind)] is None:
            return events
        events.append(self._reveal(kind))
        if kind == BACKHAND:
            self._hands[hand_id(0, FOREHAND)] = list(self._dealt[hand_id(0, FOREHAND)])
            self._hands[hand_id(1, FOREHAND)] = list(self._dealt[hand_id(1, FOREHAND)])
            self._bidding = FOREHAND
            events.append(ForehandDealt("The Forehands are dealt.", None, self.deal_no))
        else:
            self._bidding = None
            server = seat_of(self._leader)
            events.append(PlayStarted(f"{self.SEAT_NAMES[server]} serves from the Forehand.",
                                      server, server))
        return events

    def _reveal(self, kind: int) -> BidsRevealed:
        bids = {s: self._bids[hand_id(s, kind)] for s in (0, 1)}
        shown = {s: c for s, c in bids.items() if c is not None}
        text = f"{KIND_NAMES[kind]} bids: " + ", ".join(
            f"{self.SEAT_NAMES[s]} {c.label} ({bid_value(c)})" for s, c in shown.items())
        return BidsRevealed(text, None, KIND_NAMES[kind],
                            MappingProxyType({s: c.text for s, c in shown.items()}),
                            MappingProxyType({s: bid_value(c) for s, c in shown.items()}))

    # -- play ---------------------------------------------------------------------------

    def _due_hand(self) -> int:
        return play_order(self._leader)[len(self._trick)]

    def _led(self) -> Suit | None:
        return self._trick[0][1].suit if self._trick else None

    def _do_play(self, seat: int, played: Card) -> list[Event]:
        hand = self._due_hand()
        self._hands[hand].remove(played)
        self._trick.append((hand, played))
        key = (seat * 2 + kind_of(hand)) * 52 + played.index
        event = _PLAY_EVENTS.get(key)
        if event is None:  # built once per (seat, hand kind, card), shared: events are frozen
            kind = KIND_NAMES[kind_of(hand)]
            event = _PLAY_EVENTS[key] = HandActed(
                f"{self.SEAT_NAMES[seat]} plays {played.label} from the {kind}.", seat,
                "play:" + played.text, kind)
        events: list[Event] = [event]
        if len(self._trick) == 4:
            events.extend(self._finish_trick())
        return events

    def _finish_trick(self) -> list[Event]:
        trump = trump_of(self.deal_no)
        winner = trick_winner(self._trick, trump)
        self._tricks[winner] += 1
        record = TennisTrick(
            cards=tuple((seat_of(h), c) for h, c in self._trick),
            hands=tuple(KIND_NAMES[kind_of(h)] for h, _ in self._trick),
            winner=seat_of(winner), winner_hand=KIND_NAMES[kind_of(winner)])
        self._last_trick = record
        self._leader = winner
        self._trick = []
        self._tricks_played += 1
        events: list[Event] = [TennisTrickWon(
            f"{self.SEAT_NAMES[record.winner]}'s {record.winner_hand} wins the trick.",
            record.winner, record.winner, tuple((s, c.text) for s, c in record.cards),
            record.winner_hand, tuple(record.hands))]
        if self._tricks_played == TRICKS_PER_GAME:
            events.extend(self._end_deal())
        return events

    # -- scoring ------------------------------------------------------------------------

    def _end_deal(self) -> list[Event]:
        bids = [c for c in self._bids if c is not None]
        summary = score_game(self.SEAT_NAMES, self.deal_no, self.dealer, self._dealt, bids,
                             self._tricks)
        self._previous = summary
        self._lines.extend(summary.lines)
        self._sheet = None
        for s in (0, 1):
            self._totals[s] += summary.errors[s]
        events: list[Event] = [deal_end_event(self.SEAT_NAMES, summary, self._dealt, bids,
                                              self._tricks)]
        if self.deal_no == self.games:
            self._finished = True
            result = self.result()
            assert result is not None
            events.append(MatchEnded(result.summary, None, result))
            return events
        self.deal_no += 1
        self._pending_deal = True
        trump = trump_name(trump_of(self.deal_no))
        events.append(TennisDealStarted(
            f"Set {self.set_no}, game {self.game_no}: {trump};"
            f" {self.SEAT_NAMES[self.dealer]} deals.", None, self.deal_no, self.dealer,
            self.set_no, self.game_no, trump))
        return events

    def scores(self) -> ScoreSheet:
        # Built once per game (views ask for it on every call); it is immutable.
        if self._sheet is None:
            self._sheet = ScoreSheet(sides=self.SIDE_NAMES, lines=tuple(self._lines),
                                     totals=tuple(self._totals), lower_wins=True)
        return self._sheet

    def result(self) -> Result | None:
        if not self._finished:
            return None
        totals = tuple(self._totals)
        ranks = ranks_from_totals(totals, lower_wins=True)
        if ranks[0] == ranks[1]:
            summary = f"A draw: {totals[0]} errors each."
        else:
            best = ranks.index(0)
            summary = (f"{self.SEAT_NAMES[best]} wins with {totals[best]} errors to"
                       f" {totals[1 - best]}.")
        return Result(sides=self.SIDE_NAMES, side_seats=self.SIDES, totals=totals,
                      ranks=ranks, summary=summary)

    def deal_record(self) -> tuple[tuple[Card, ...], ...]:
        """The current game's four hands as dealt, in block order (see the class docstring)."""
        self._ensure_dealt()
        return self._dealt

    # -- views --------------------------------------------------------------------------

    def _shown_hand(self, seat: int) -> int | None:
        """The one hand of `seat` its view shows (see TennisView), or None."""
        if self._finished:
            return None
        if self._bidding is not None:
            return hand_id(seat, self._bidding)
        order = play_order(self._leader)
        pos = len(self._trick)
        for h in order[pos:]:
            if seat_of(h) == seat:
                return h
        return next(h for h in reversed(order[:pos]) if seat_of(h) == seat)

    def view(self, seat: int | None) -> TennisView:
        self._ensure_dealt()
        shown = None if seat is None else self._shown_hand(seat)
        bids: list[Card | None] = []
        for h in range(4):
            kind_in = (self._bids[h ^ 1] is not None and self._bids[h] is not None)
            bids.append(self._bids[h] if kind_in or seat_of(h) == seat else None)
        to_act = self.to_act()
        playing = self._bidding is None and not self._finished
        return TennisView(
            seat=seat, deal_no=self.deal_no, set_no=self.set_no, game_no=self.game_no,
            phase="match_over" if self._finished else ("play" if playing else "bidding"),
            bidding=KIND_NAMES[self._bidding] if self._bidding is not None else "",
            turn=self.turn(),
            to_act=to_act,
            hand=tuple(sorted(self._hands[shown], key=_HIGH_FIRST, reverse=True))
            if shown is not None else (),
            hand_kind=KIND_NAMES[kind_of(shown)] if shown is not None else "",
            trump=trump_of(self.deal_no), dealer=self.dealer,
            backhand_bids=(bids[0], bids[1]), forehand_bids=(bids[2], bids[3]),
            backhand_tricks=(self._tricks[0], self._tricks[1]),
            forehand_tricks=(self._tricks[2], self._tricks[3]),
            to_play_hand=KIND_NAMES[kind_of(self._due_hand())] if playing else "",
            trick=tuple([(seat_of(h), c) for h, c in self._trick]),
            trick_hands=tuple([KIND_NAMES[kind_of(h)] for h, _ in self._trick]),
            last_trick=self._last_trick, tricks_played=self._tricks_played,
            errors=tuple(self._totals), previous_deal=self._previous, score=self.scores())


GAME = Tennis  # how bot.games.game_class finds this game by its name
