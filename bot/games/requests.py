"""Claims and undo in the bridge games: one seat asks, its opponents answer.

A request is made out of turn (it is not among `legal`'s actions; `Game.apply` hands it
here) and is an action in the log like any other, as are its answers, so replaying the log
rebuilds a pending request, its outcome and the state it left. While a request is pending
the play waits: `to_act()` is the seats still to answer and their legal actions are
`accept` and `reject`. Every answering seat must accept; one rejection ends it.

Actions (text forms):
- `claim:<n>`: the asker's side takes n of the tricks that remain (the trick in progress
  counted) and the deal ends; put to the opponents.
- `claim:<n>:proven`: the same claim, shown by the table to hold double dummy against any
  defence (bot/tables checks it with the solver before recording it): it stands at once.
- `undo`: take back the asker's last call (with the calls after it) while no card has been
  played, or their last card (with the cards after it) while its trick is incomplete.
- `withdraw`: the asker takes back their pending request.
- `accept`, `reject`: an answer, by a seat the request waits for.

Requests are bounded, so asking cannot become a way to ping the opponents without end:
in a deal each seat may ask to undo `undo_limit` times (a table option, default 3; every
request counts, whatever its answer), and a seat whose claim was rejected twice may not
claim again until another trick is complete. (The short wait after any refusal is the
table's: it needs a clock, bot/tables/requests.py.)

Events (bot/games/events.py): `RequestMade` (seat: the asker), `Answered`, `RequestEnded`
(outcome "accepted", "rejected" or "withdrawn"), then for an accepted claim the deal's end,
for an accepted undo `Undone`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar, Literal

from .base import GameView, IllegalAction, OptionSpec, OptionValue
from .cards import Card, Suit
from .events import Answered, Event, RequestEnded, RequestMade, Undone

ANSWERS: tuple[str, ...] = ("accept", "reject")
DEFAULT_UNDO_LIMIT = 3
NO_UNDO_LIMIT = 0  # also what a table stored before the limit existed replays with
UNDO_LIMIT = OptionSpec("undo_limit", int, DEFAULT_UNDO_LIMIT, "How many times a player may "
                        "ask to undo in one deal (0: no limit)", 0, 20)
CLAIM_REFUSALS = 2  # rejected claims after which a seat waits for the next trick
ASIDE_VERBS = frozenset({"claim", "undo", "withdraw"})
PROVEN = "proven"


@dataclass(frozen=True, slots=True)
class Request:
    """A pending claim or undo: who asked, what, and whose answers are still awaited."""

    kind: Literal["claim", "undo"]
    asker: int
    waiting: frozenset[int]
    text: str  # "South claims 3 of the last 4", "North asks to take back their 1♠"
    tricks: int = 0  # a claim: the tricks claimed of those remaining
    remaining: int = 0
    count: int = 0  # an undo: how many actions go back
    # Its place in the action log, which no other request of the match shares: an answer
    # button carries it, so an answer meant for an earlier request is told apart.
    number: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestView(GameView):
    """The view of a game with claims and undo: the pending request (everyone sees it)
    and what this seat may ask now (`claim:<n>`, `undo`, `withdraw`)."""

    request: Request | None = None
    asks: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimedDeal:
    """A finished deal of a game with claims: the accepted claim that ended its play, as
    the table said it (None: played out)."""

    claim: str | None = None


@dataclass(frozen=True, slots=True)
class PlayPosition:
    """The play as it stands, for checking a claim double dummy (compass seats N, E, S, W
    = 0..3; a side is seat % 2)."""

    hands: tuple[tuple[Card, ...], ...]  # per compass seat, the cards still held
    trump: Suit | None
    leader: int  # compass seat that led (or leads) the trick in progress
    trick: tuple[Card, ...]  # cards in the trick in progress, in order


def claim_text(name: str, tricks: int, remaining: int) -> str:
    """"South claims 3 of the last 4" (and the all, none and last-trick spellings)."""
    if remaining == 1:
        return f"{name} {'claims' if tricks else 'concedes'} the last trick"
    if tricks == remaining:
        return f"{name} claims all of the last {remaining} tricks"
    if tricks == 0:
        return f"{name} concedes the last {remaining} tricks"
    return f"{name} claims {tricks} of the last {remaining}"


NO_CALL = "You have made no call in this auction to take back."
NO_CARD = "You have no card in the trick in progress to take back (a completed trick stands)."


def take_back_plan(moves: Sequence[tuple[int, str]], seat: int, what: str,
                   refusal: str) -> tuple[int, str]:
    """An undo's reach: `moves` are this deal's calls, or the trick in progress's cards, as
    (the seat that decided it, its label); `seat`'s last one goes back with those after
    it. Returns how many go back and what they are called ("their 1♠ and the calls after
    it"); raises IllegalAction(`refusal`) when `seat` has none."""
    last = next((i for i in range(len(moves) - 1, -1, -1) if moves[i][0] == seat), None)
    if last is None:
        raise IllegalAction(refusal)
    after = f" and the {what}s after it" if last < len(moves) - 1 else ""
    return len(moves) - last, f"their {moves[last][1]}{after}"


@dataclass(slots=True)
class RequestCounts:
    """How often each seat has asked this deal: undo requests made, and claims rejected
    since the last complete trick (`trick_mark`: the tricks left when counting began)."""

    deal_no: int
    trick_mark: int = -1
    undos: dict[int, int] = field(default_factory=dict)
    refused_claims: dict[int, int] = field(default_factory=dict)


def names(seat_names: Sequence[str], seats: frozenset[int]) -> str:
    return " and ".join(seat_names[s] for s in sorted(seats))


def _ended(request: Request, text: str, seat: int | None, outcome: str) -> RequestEnded:
    return RequestEnded(text, seat, request.kind, outcome, request.asker, request.tricks,
                        request.remaining)


class Requests:
    """The request mechanism, mixed into a bridge game (before `Game`). The game keeps
    `self.request` (None when nothing is pending), checks it first in `to_act`, `_legal`
    and `_do`, and gives the hooks below."""

    SEAT_NAMES: ClassVar[tuple[str, ...]]
    SEATS: ClassVar[int]
    options: dict[str, OptionValue]
    request: Request | None
    history: list[tuple[int, str]]  # the action log (Game's): a request's number is its place
    claimed: str | None  # set while an accepted claim ends the deal (its summary keeps it)
    deal_no: int
    _request_counts: RequestCounts | None = None

    # -- the game's hooks ----------------------------------------------------------------

    @property
    def finished(self) -> bool:
        raise NotImplementedError

    def _claim_refusal(self, seat: int) -> str | None:
        """Why `seat` may not claim now (None: it may)."""
        raise NotImplementedError

    def _claim_answerers(self, seat: int) -> frozenset[int]:
        raise NotImplementedError

    def tricks_left(self) -> int:
        """The tricks still to be decided this deal (the trick in progress included)."""
        raise NotImplementedError

    def _settle_claim(self, seat: int, tricks: int) -> list[Event]:
        """End the deal with `seat`'s side taking `tricks` of those left."""
        raise NotImplementedError

    def _undo_plan(self, seat: int) -> tuple[int, str]:
        """How many actions `seat`'s undo takes back and what they are called ("their
        1♠"); raises IllegalAction when there is nothing it may take back."""
        raise NotImplementedError

    def _undo_answerers(self, seat: int) -> frozenset[int]:
        raise NotImplementedError

    def _take_back(self, count: int) -> None:
        """Return to the state before the last `count` calls or cards of this deal."""
        raise NotImplementedError

    def claim_position(self) -> PlayPosition:
        raise NotImplementedError

    # -- what a seat may ask ---------------------------------------------------------

    def asks(self, seat: int | None) -> tuple[str, ...]:
        """The requests `seat` may make now: `claim:<n>` for each n, `undo`, `withdraw`."""
        if seat is None or self.finished:
            return ()
        pending = self.request
        if pending is not None:
            return ("withdraw",) if pending.asker == seat else ()
        out: list[str] = []
        if self._claim_refusal(seat) is None and self._claim_limit(seat) is None:
            out.extend(f"claim:{n}" for n in range(self.tricks_left(), -1, -1))
        if self.undo_allowed and self._undo_limit(seat) is None:
            try:
                self._undo_plan(seat)
                out.append("undo")
            except IllegalAction:
                pass
        return tuple(out)

    @property
    def undo_allowed(self) -> bool:
        return bool(self.options.get("undo", True))

    @property
    def undo_limit(self) -> int:
        return int(self.options.get("undo_limit", DEFAULT_UNDO_LIMIT))

    def _counts(self, trick_mark: int | None = None) -> RequestCounts:
        """This deal's counts (new ones when the deal changed); with `trick_mark` (the
        tricks left now) the rejected claims start again once a trick was completed."""
        counts = self._request_counts
        if counts is None or counts.deal_no != self.deal_no:
            counts = self._request_counts = RequestCounts(self.deal_no)
        if trick_mark is not None and counts.trick_mark != trick_mark:
            counts.trick_mark = trick_mark
            counts.refused_claims.clear()
        return counts

    def _undo_limit(self, seat: int) -> str | None:
        """Why `seat` may not ask to undo again this deal (None: it may)."""
        limit = self.undo_limit
        if limit == NO_UNDO_LIMIT or self._counts().undos.get(seat, 0) < limit:
            return None
        return (f"You have asked to undo {limit} time{'s' if limit != 1 else ''} this deal, "
                "which is this table's limit: play on.")

    def _claim_limit(self, seat: int) -> str | None:
        """Why `seat` may not claim again before the next trick (None: it may)."""
        if self._counts(self.tricks_left()).refused_claims.get(seat, 0) < CLAIM_REFUSALS:
            return None
        return ("Your claim was rejected twice: play on, and you may claim again once "
                "another trick is complete.")

    def check_request(self, seat: int, text: str) -> None:
        """Raise IllegalAction (with the reason) unless `seat` may make request `text` now."""
        self._checked(seat, text)

    # -- asking (Game.apply's out-of-turn hooks) ----------------------------------------

    def _is_aside(self, text: str) -> bool:
        return text.partition(":")[0] in ASIDE_VERBS

    def _do_aside(self, seat: int, action: str) -> list[Event]:
        request = self._checked(seat, action)
        if request is None:  # withdraw
            pending = self.request
            assert pending is not None
            self.request = None
            return [_ended(pending, f"{self.SEAT_NAMES[seat]} withdraws the "
                           f"{'claim' if pending.kind == 'claim' else 'request to undo'}.",
                           seat, "withdrawn")]
        if request.kind == "undo":
            undos = self._counts().undos
            undos[seat] = undos.get(seat, 0) + 1
        if action.endswith(":" + PROVEN):
            return self._grant(request, f"{request.text}: accepted (it holds against any "
                                        "defence).")
        self.request = request = replace(request, number=len(self.history))
        asked = (f"{request.text}. {names(self.SEAT_NAMES, request.waiting)}: accept or "
                 "reject?")
        return [RequestMade(asked, seat, request.kind, request.tricks, request.remaining)]

    def _checked(self, seat: int, text: str) -> Request | None:
        """The request `text` would make (None for a withdrawal), or IllegalAction."""
        if self.finished:
            raise IllegalAction("This match is over.")
        if not isinstance(seat, int) or not 0 <= seat < self.SEATS:
            raise IllegalAction("There is no such seat at this table.")
        verb, _, rest = text.partition(":")
        pending = self.request
        if verb == "withdraw" and not rest:
            if pending is None or pending.asker != seat:
                raise IllegalAction("You have no claim or undo waiting to withdraw.")
            return None
        if pending is not None:
            raise IllegalAction(f"{pending.text}: that waits for an answer first.")
        name = self.SEAT_NAMES[seat]
        if verb == "claim":
            number, _, mark = rest.partition(":")
            if not number.isdigit() or mark not in ("", PROVEN):
                raise IllegalAction("A claim is a number of tricks (for example claim:3).")
            why = self._claim_refusal(seat) or self._claim_limit(seat)
            if why is not None:
                raise IllegalAction(why)
            tricks, left = int(number), self.tricks_left()
            if tricks > left:
                raise IllegalAction(f"Only {left} trick{'s' if left != 1 else ''} remain"
                                    f"{'s' if left == 1 else ''}: you cannot claim {tricks}.")
            return Request("claim", seat, self._claim_answerers(seat),
                           claim_text(name, tricks, left), tricks, left)
        if text != "undo":
            raise IllegalAction("That is not an action of this game.")
        if not self.undo_allowed:
            raise IllegalAction("Undo is off at this table.")
        why = self._undo_limit(seat)
        if why is not None:
            raise IllegalAction(why)
        count, what = self._undo_plan(seat)
        return Request("undo", seat, self._undo_answerers(seat),
                       f"{name} asks to take back {what}", count=count)

    # -- answering ------------------------------------------------------------------------

    def _answer(self, seat: int, action: str) -> list[Event]:
        """`accept` or `reject` (legal: the request waits for `seat`)."""
        pending = self.request
        assert pending is not None
        name = self.SEAT_NAMES[seat]
        if action == "reject":
            self.request = None
            if pending.kind == "claim":
                refused = self._counts(self.tricks_left()).refused_claims
                refused[pending.asker] = refused.get(pending.asker, 0) + 1
            return [Answered(f"{name} rejects.", seat, False),
                    _ended(pending, f"{pending.text}: rejected by {name}.", None, "rejected")]
        waiting = pending.waiting - {seat}
        if waiting:
            self.request = replace(pending, waiting=waiting)
            return [Answered(f"{name} accepts.", seat, True)]
        self.request = None
        return self._grant(pending, f"{pending.text}: accepted.")

    def _grant(self, request: Request, text: str) -> list[Event]:
        events: list[Event] = [_ended(request, text, None, "accepted")]
        if request.kind == "claim":
            self.claimed = text
            events.extend(self._settle_claim(request.asker, request.tricks))
        else:
            self._take_back(request.count)
            events.append(Undone("", request.asker, request.count))
        return events


    def _waiting_text(self, seat: int) -> str:
        """Why `seat` may not act while a request is pending."""
        pending = self.request
        assert pending is not None
        return f"{pending.text}: waiting for {names(self.SEAT_NAMES, pending.waiting)}."
