"""A hand record as a PBN 2.1 game: tags, the Auction section and the Play section.

Export-format conventions followed: the mandatory tags in their order (Event, Site, Date,
Board, West, North, East, South, Dealer, Vulnerable, Deal, Scoring, Declarer, Contract,
Result); the deal written from the dealer's hand; calls in rows of four starting with the
dealer; the play one trick per line, each column one player's cards, columns clockwise
from the opening leader (so a card's seat is its column, not its place in the trick);
cards written suit then rank (`SA`, `HT`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from bot.games.cards import Card, Seat, format_deal

from .record import HandRecord

_VULNERABLE = {(False, False): "None", (True, False): "NS", (False, True): "EW",
               (True, True): "All"}
_SCORING = {"bridge": "Rubber", "single_dummy": ""}


@dataclass(frozen=True, slots=True)
class Heading:
    """Who and where: what the record itself does not know."""

    event: str
    site: str
    day: date | None
    names: tuple[str, str, str, str]  # N, E, S, W


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _pbn_card(card: Card) -> str:
    return card.text[-1] + card.text[:-1]


def _contract_text(record: HandRecord) -> str:
    return "Pass" if record.contract is None else record.contract.code


def auction_rows(record: HandRecord) -> list[str]:
    tokens = [token for _, token in record.calls]
    return [" ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)]


def play_rows(record: HandRecord) -> list[str]:
    """One line per trick; column k holds the card of the seat k places after the leader."""
    leader = record.opening_leader
    if leader is None:
        return []
    rows: list[str] = []
    for start in range(0, len(record.play), 4):
        cells = ["-"] * 4
        for seat, card in record.play[start:start + 4]:
            cells[(seat - leader) % 4] = _pbn_card(card)
        rows.append(" ".join(cells))
    return rows


def to_pbn(record: HandRecord, heading: Heading, comments: Sequence[str] = ()) -> str:
    """The deal as one PBN game (ends with a newline)."""
    names = dict(zip((Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST), heading.names,
                     strict=True))
    declarer = record.declarer
    lines = [
        "% PBN 2.1",
        "% EXPORT",
        _tag("Event", heading.event),
        _tag("Site", heading.site),
        _tag("Date", heading.day.strftime("%Y.%m.%d") if heading.day else "?"),
        _tag("Board", str(record.deal_no)),
        _tag("West", names[Seat.WEST]),
        _tag("North", names[Seat.NORTH]),
        _tag("East", names[Seat.EAST]),
        _tag("South", names[Seat.SOUTH]),
        _tag("Dealer", record.dealer.letter),
        _tag("Vulnerable", _VULNERABLE[record.vulnerable]),
        _tag("Deal", format_deal({Seat(i): list(h) for i, h in enumerate(record.hands)},
                                 record.dealer)),
        _tag("Scoring", _SCORING.get(record.game, "")),
        _tag("Declarer", declarer.letter if declarer is not None else ""),
        _tag("Contract", _contract_text(record)),
        _tag("Result", str(record.declarer_tricks) if record.declarer_tricks is not None
             else ""),
    ]
    lines += [f"{{{text}}}" for text in comments]
    lines.append(_tag("Auction", record.dealer.letter))
    lines += auction_rows(record)
    leader = record.opening_leader
    if leader is not None:
        lines.append(_tag("Play", leader.letter))
        lines += play_rows(record)
    return "\n".join(lines) + "\n"
