"""A hand record in LIN, Bridge Base Online's hand-record format, and BBO's handviewer link.

A LIN record is `key|value|` pairs: `pn` the players South, West, North, East; `md` the
dealer (1 South, 2 West, 3 North, 4 East) then the hands in that same order, each
written suit letter then ranks high to low (`SAK2HQJ3DT9CA8765`); `ah` the board's title
(`Board 3`: readers take the number from it); `sv` the vulnerability (o none, n
North-South, e East-West, b both); `mb` one call (`p`, `d`, `r`, `1C` .. `7N`); `pc` one
card (`SA`); `pg` closes the auction and each trick; `mc` the declaring side's total
tricks when play stopped early (a claim).

Single Dummy Bridge maps as the PBN does (`record.py`), hands by compass and each dummy
named after the player who plays it, with one difference: LIN has no field for the
opening leader (readers take declarer's left-hand opponent), and in Single Dummy the
bid's loser leads from their own hand, which is West's right when West wins. So West's
calls are written at East (the West player's dummy) and West passes in turn with North:
East-West's contracts are declared by East, whose left is South, the leader.
"""

from __future__ import annotations

from urllib.parse import quote

from bot.games.cards import Card, Seat, by_suit

from .record import HandRecord, four_seat_auction

HANDVIEWER = "https://www.bridgebase.com/tools/handviewer.html?lin="
LIN_ORDER = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)  # LIN's seat order, 1..4
_VULNERABLE = {(False, False): "o", (True, False): "n", (False, True): "e",
               (True, True): "b"}
_CALLS = {"Pass": "p", "X": "d", "XX": "r"}


def _clean(text: str) -> str:
    """A value LIN can hold: it has no escapes, so its separators are taken out."""
    return " ".join(text.replace("|", " ").replace(",", " ").split())


def _hand(cards: tuple[Card, ...]) -> str:
    return "".join(suit.letter + "".join(c.rank.char for c in held)
                   for suit, held in by_suit(cards).items())


def lin_call(token: str) -> str:
    """A PBN call token (`Pass`, `X`, `XX`, `3NT`) as LIN writes it."""
    return _CALLS.get(token) or token.replace("NT", "N")


def to_lin(record: HandRecord, names: tuple[str, str, str, str]) -> str:
    """The deal as one LIN record; `names` by compass seat N, E, S, W."""
    calls = _calls(record)
    dealer = calls[0][0] if calls else record.dealer
    parts = [("pn", ",".join(_clean(names[seat]) for seat in LIN_ORDER)),
             ("st", ""),
             ("md", str(LIN_ORDER.index(dealer) + 1)
              + ",".join(_hand(record.hands[seat]) for seat in LIN_ORDER)),
             ("rh", ""),
             ("ah", f"Board {record.deal_no}"),
             ("sv", _VULNERABLE[record.vulnerable])]
    parts += [("mb", lin_call(token)) for _, token in calls]
    parts.append(("pg", ""))
    for i, (_, card) in enumerate(record.play, start=1):
        parts.append(("pc", card.suit.letter + card.rank.char))
        if i % 4 == 0:
            parts.append(("pg", ""))
    if record.contract is not None and len(record.play) < 52 \
            and record.declarer_tricks is not None:
        parts.append(("mc", str(record.declarer_tricks)))
    return "".join(f"{key}|{value}|" for key, value in parts)


def _calls(record: HandRecord) -> tuple[tuple[Seat, str], ...]:
    if record.game != "single_dummy":
        return record.calls
    east = {Seat.WEST: Seat.EAST, Seat.SOUTH: Seat.SOUTH}
    players = [(east[seat], token) for seat, token in record.calls if seat in east]
    return four_seat_auction(east.get(record.dealer, record.dealer), players,
                             (Seat.SOUTH, Seat.EAST))


def handviewer_url(lin: str) -> str:
    """BBO's handviewer opened on this LIN record."""
    return HANDVIEWER + quote(lin, safe="|,")
