"""The bridge auction, shared by Contract Bridge (four seats) and Single Dummy Bridge (two).

Calls are Pass, a bid (1-7 in C, D, H, S, NT), Double and Redouble, per the Laws of
Contract Bridge: Double only of the last bid, made by an opponent, not already doubled;
Redouble only of the last bid, made by one's own side, doubled by an opponent, not yet
redoubled. A new bid cancels earlier doubles. The auction ends after `passes_to_end` passes
in a row following a bid; `opening_passes_to_throw_in` passes at the start throw it in.

Action texts: `pass`, `double`, `redouble`, `bid:<level><strain>` (`bid:1C`, `bid:3NT`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import ClassVar

from .base import IllegalAction
from .cards import PLAY_TEXT, Card, Suit

_LETTERS = ("C", "D", "H", "S", "NT")
_SYMBOLS = ("♣", "♦", "♥", "♠", "NT")


class Strain(IntEnum):
    """The five strains in bidding order (clubs lowest, notrump highest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    @property
    def letter(self) -> str:
        return _LETTERS[self]

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def trump(self) -> Suit | None:
        return None if self == Strain.NOTRUMP else Suit(int(self))

    @property
    def is_minor(self) -> bool:
        return self <= Strain.DIAMONDS

    @classmethod
    def parse(cls, text: str) -> Strain:
        key = text.strip().upper()
        if key in ("N", "NT", "NOTRUMP", "NOTRUMPS", "NO TRUMP"):
            return cls.NOTRUMP
        if key in _SYMBOLS:
            return cls(_SYMBOLS.index(key))
        return cls(int(Suit.parse(key)))


@dataclass(frozen=True, slots=True, order=True)
class Bid:
    """A bid of `level` odd tricks (1-7) in `strain`; ordered as the auction ranks them."""

    level: int
    strain: Strain
    # Worked out once: bots read these a lot.
    index: int = field(init=False, compare=False, repr=False)  # 0 for 1♣ .. 34 for 7NT
    text: str = field(init=False, compare=False, repr=False)  # "3NT", "1C"
    label: str = field(init=False, compare=False, repr=False)  # "3NT", "1♣"

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise ValueError(f"a bid's level is 1 to 7, not {self.level}")
        object.__setattr__(self, "index", (self.level - 1) * 5 + int(self.strain))
        object.__setattr__(self, "text", f"{self.level}{self.strain.letter}")
        object.__setattr__(self, "label", f"{self.level}{self.strain.symbol}")

    @classmethod
    def parse(cls, text: str) -> Bid:
        key = text.strip()
        if len(key) < 2 or not key[0].isdigit():
            raise ValueError(f"{text!r} is not a bid (write level then strain, e.g. 3NT or 1C)")
        level = int(key[0])
        if not 1 <= level <= 7:
            raise ValueError(f"{text!r}: a bid's level is 1 to 7")
        try:
            strain = Strain.parse(key[1:])
        except ValueError:
            raise ValueError(f"{text!r} is not a bid (the strain is C, D, H, S or NT)") from None
        return ALL_BIDS[(level - 1) * 5 + strain]

    def __str__(self) -> str:
        return self.text


ALL_BIDS: tuple[Bid, ...] = tuple(Bid(level, strain) for level in range(1, 8)
                                  for strain in Strain)

_KINDS = ("pass", "bid", "double", "redouble")
_LABELS = {"pass": "Pass", "double": "Dbl", "redouble": "Rdbl"}
_ALIASES = {"p": "pass", "x": "double", "dbl": "double", "xx": "redouble",
            "rdbl": "redouble"}


@dataclass(frozen=True, slots=True)
class Call:
    """One call in the auction: kind "pass", "bid", "double" or "redouble"."""

    kind: str
    bid: Bid | None = None
    # the action text: `pass`, `double`, `redouble`, `bid:3NT`
    text: str = field(init=False, compare=False, repr=False)
    # how people read it: Pass, Dbl, Rdbl, 3NT, 2♠
    label: str = field(init=False, compare=False, repr=False)

    PASS: ClassVar[Call]
    DOUBLE: ClassVar[Call]
    REDOUBLE: ClassVar[Call]

    def __post_init__(self) -> None:
        if self.kind not in _KINDS or (self.kind == "bid") != (self.bid is not None):
            raise ValueError(f"not a call: {self.kind!r} {self.bid!r}")
        bid = self.bid
        object.__setattr__(self, "text", self.kind if bid is None else "bid:" + bid.text)
        object.__setattr__(self, "label", _LABELS[self.kind] if bid is None else bid.label)

    @classmethod
    def parse(cls, text: str) -> Call:
        key = text.strip().lower()
        key = _ALIASES.get(key, key)
        if key == "pass":
            return CALL_PASS
        if key == "double":
            return CALL_DOUBLE
        if key == "redouble":
            return CALL_REDOUBLE
        raw = text.strip()
        return BID_CALLS[Bid.parse(raw[4:] if key.startswith("bid:") else raw).index]

    @classmethod
    def of(cls, bid: Bid) -> Call:
        return BID_CALLS[bid.index]

    def __str__(self) -> str:
        return self.text


CALL_PASS = Call("pass")
CALL_DOUBLE = Call("double")
CALL_REDOUBLE = Call("redouble")
Call.PASS, Call.DOUBLE, Call.REDOUBLE = CALL_PASS, CALL_DOUBLE, CALL_REDOUBLE
BID_CALLS: tuple[Call, ...] = tuple(Call("bid", bid) for bid in ALL_BIDS)

CALL_BY_TEXT: dict[str, Call] = {c.text: c for c in (CALL_PASS, CALL_DOUBLE, CALL_REDOUBLE,
                                                    *BID_CALLS)}
"""Each call by its action text exactly as written (`Call.parse` takes other spellings)."""

# The legal calls and their texts, by the first bid still allowed (0 when none was made,
# 35 after 7NT) and what may be added: nothing, double or redouble (`Auction._options`).
# Copied, never handed out.
_LEGAL_CALLS: tuple[tuple[tuple[Call, ...], ...], ...] = tuple(
    tuple((CALL_PASS, *BID_CALLS[start:], *extra)
          for extra in ((), (CALL_DOUBLE,), (CALL_REDOUBLE,)))
    for start in range(len(BID_CALLS) + 1))
_LEGAL_TEXTS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(c.text for c in calls) for calls in by_extra) for by_extra in _LEGAL_CALLS)
_NO_EXTRA, _MAY_DOUBLE, _MAY_REDOUBLE = 0, 1, 2



def usual_text(action: str) -> str:
    """The usual text of a call or a card play written another way (`x`, `Pass`,
    `play:qh`, `play:10H`), or `action` itself when it is neither."""
    kind, _, rest = action.partition(":")
    try:
        return PLAY_TEXT[Card.parse(rest).index] if kind == "play" else Call.parse(action).text
    except ValueError:
        return action


_DOUBLE_MARKS = ("", "X", "XX")
_DOUBLE_WORDS = ("", " doubled", " redoubled")


@dataclass(frozen=True, slots=True)
class Contract:
    """The final contract: `doubled` is 0, 1 (doubled) or 2 (redoubled)."""

    level: int
    strain: Strain
    declarer: int
    doubled: int = 0

    @property
    def bid(self) -> Bid:
        return ALL_BIDS[(self.level - 1) * 5 + self.strain]

    @property
    def tricks_needed(self) -> int:
        return 6 + self.level

    @property
    def trump(self) -> Suit | None:
        return self.strain.trump

    @property
    def label(self) -> str:
        """`4♠`, `4♠ doubled`, `3NT redoubled`: the contract as players read it, wherever
        one is shown (suit symbols, doubling in words); `code` is the files' form."""
        return f"{self.level}{self.strain.symbol}{_DOUBLE_WORDS[self.doubled]}"

    @property
    def code(self) -> str:
        """`4SX`: the plain-letter form (hand records)."""
        return f"{self.level}{self.strain.letter}{_DOUBLE_MARKS[self.doubled]}"

    def text(self, seat_names: Sequence[str] | Callable[[int], str]) -> str:
        """`4♠ doubled by South`, naming declarer through `seat_names`."""
        name = seat_names(self.declarer) if callable(seat_names) else seat_names[self.declarer]
        return f"{self.label} by {name}"

    def result(self, tricks: int) -> str:
        """The result of declarer's side taking `tricks` in all: `made`, `made +1`,
        `down 2`."""
        over = tricks - self.tricks_needed
        return f"down {-over}" if over < 0 else "made" + (f" +{over}" if over else "")


class Auction:
    """One deal's auction among `players` (in calling order, the dealer first)."""

    __slots__ = ("_first_namer", "_n", "_passes", "calls", "doubled", "last_bid",
                 "last_bidder", "opening_passes_to_throw_in", "passes_to_end", "players",
                 "side_of")

    def __init__(self, players: Sequence[int], side_of: Callable[[int], int],
                 passes_to_end: int = 3, opening_passes_to_throw_in: int = 4) -> None:
        self.players = tuple(players)
        self.side_of = side_of
        self.passes_to_end = passes_to_end
        self.opening_passes_to_throw_in = opening_passes_to_throw_in
        self.calls: list[tuple[int, Call]] = []
        self.last_bid: Bid | None = None
        self.last_bidder: int | None = None
        self.doubled = 0
        self._n = len(self.players)
        self._passes = 0  # passes in a row at the end of the auction so far
        # (side, strain) -> the first player of that side to name that strain
        self._first_namer: dict[tuple[int, Strain], int] = {}

    # -- reading ---------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        if self.last_bid is None:
            return self._passes >= self.opening_passes_to_throw_in
        return self._passes >= self.passes_to_end

    @property
    def passed_out(self) -> bool:
        """Thrown in: everyone passed without a bid."""
        return self.last_bid is None and self._passes >= self.opening_passes_to_throw_in

    @property
    def dealer(self) -> int:
        return self.players[0]

    def to_call(self) -> int:
        """The player to call next."""
        return self.players[len(self.calls) % self._n]

    @property
    def contract(self) -> Contract | None:
        """The final contract once the auction is over (None while open or thrown in)."""
        if not self.finished or self.last_bid is None or self.last_bidder is None:
            return None
        side = self.side_of(self.last_bidder)
        declarer = self._first_namer[(side, self.last_bid.strain)]
        return Contract(self.last_bid.level, self.last_bid.strain, declarer, self.doubled)

    # -- check, then do ---------------------------------------------------------------

    def _options(self, player: int) -> tuple[int, int] | None:
        """What `player` may call now (None: nothing): every bid from the first index given,
        pass, and double or redouble as the second says (the Laws' rules, stated once)."""
        if self.finished or player != self.players[len(self.calls) % self._n]:
            return None
        last = self.last_bid
        if last is None or self.last_bidder is None:
            return 0, _NO_EXTRA
        own_side = self.side_of(self.last_bidder) == self.side_of(player)
        if not own_side and self.doubled == 0:
            return last.index + 1, _MAY_DOUBLE
        if own_side and self.doubled == 1:
            return last.index + 1, _MAY_REDOUBLE
        return last.index + 1, _NO_EXTRA

    def legal_calls(self, player: int) -> list[Call]:
        """Every call `player` may make now."""
        options = self._options(player)
        return [] if options is None else list(_LEGAL_CALLS[options[0]][options[1]])

    def legal_texts(self, player: int) -> list[str]:
        """The action texts of `legal_calls(player)`, in the same order."""
        return list(self.allowed_texts(player))

    def allowed_texts(self, player: int) -> tuple[str, ...]:
        """`legal_texts(player)` as a shared tuple (read, never changed)."""
        options = self._options(player)
        return () if options is None else _LEGAL_TEXTS[options[0]][options[1]]

    def why_not(self, player: int, call: Call) -> str | None:
        """None when `player` may make `call` now (`_options` decides), else the reason."""
        options = self._options(player)
        if options is None:
            return "The auction is over." if self.finished else "It is not your turn to call."
        first_bid, extra = options
        kind = call.kind
        if (kind == "pass" or (call.bid is not None and call.bid.index >= first_bid)
                or (kind == "double" and extra == _MAY_DOUBLE)
                or (kind == "redouble" and extra == _MAY_REDOUBLE)):
            return None
        last = self.last_bid
        if last is None or self.last_bidder is None:
            return f"There is no bid to {kind}."
        if call.bid is not None:
            return f"{call.bid.label} is not enough: the last bid is {last.label}."
        own_side = self.side_of(self.last_bidder) == self.side_of(player)
        if kind == "double" and own_side:
            return "You can only double a bid made by an opponent."
        if kind == "redouble" and not own_side:
            return "You can only redouble your own side's bid."
        if kind == "redouble" and self.doubled == 0:
            return f"You can only redouble when an opponent has doubled {last.label}."
        return f"{last.label} is already {'redoubled' if self.doubled == 2 else 'doubled'}."

    def refusal(self, player: int, action: str) -> str:
        """Why `player` may not make the call written `action` now (it is not a call, or
        not a legal one)."""
        try:
            call = Call.parse(action)
        except ValueError as exc:
            return str(exc)
        return self.why_not(player, call) or ""

    def check(self, player: int, call: Call) -> None:
        """Raise IllegalAction with a readable reason if `player` may not make `call` now."""
        reason = self.why_not(player, call)
        if reason is not None:
            raise IllegalAction(reason)

    def call(self, player: int, call: Call) -> None:
        """Make a call (checked first; an illegal call changes nothing)."""
        self.check(player, call)
        self.calls.append((player, call))
        kind = call.kind
        if kind == "pass":
            self._passes += 1
            return
        self._passes = 0
        if kind == "bid":
            assert call.bid is not None
            self.last_bid = call.bid
            self.last_bidder = player
            self.doubled = 0  # a new bid cancels earlier doubles and redoubles
            self._first_namer.setdefault((self.side_of(player), call.bid.strain), player)
        elif kind == "double":
            self.doubled = 1
        else:
            self.doubled = 2
