"""A picture of a finished deal, for the end-of-deal message: every hand as dealt, who sat
where, and what the deal was about (contract, bids, result). Built only from the deal's
public summary (`view.previous_deal`), which exists once the deal is over.

`DealPicture` holds plain frozen data, so it can be rendered in a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.cards import Card
from bot.games.tennis_rules import bid_value
from bot.render.games.bridge import vulnerability
from bot.render.games.common import outcome, plural, score_lines

from .board import CARD_SIZES, PANEL_HEIGHT, PANEL_WIDTH, Board, wrap
from .shapes import GOLD, INK, MUTED

MARGIN = 16
FOOTER_LINES = 4
SIDES4 = ("North-South", "East-West")
COMPASS = ("North", "East", "South", "West")


@dataclass(frozen=True, slots=True)
class DealPicture:
    """What a deal's picture shows: the game, the table, who sat where, the summary."""

    game: str
    title: str
    table_id: int
    names: tuple[str, ...]  # per seat, as the messages name the players
    summary: Any  # the game's frozen deal summary
    description: str = ""  # the picture's text for screen readers (Discord's alt text)

    @property
    def filename(self) -> str:
        return f"deal-{self.table_id}-{self.summary.deal_no}.png"

    def render(self) -> bytes:
        return _DRAWERS[self.game](self).png()


def _header(board: Board, picture: DealPicture, headline: str) -> None:
    board.text((MARGIN, 10), f"{picture.title} · table #{picture.table_id} · "
               f"deal {picture.summary.deal_no}", 18, MUTED)
    board.text((MARGIN, 34), headline, 24, INK)


def _footer_lines(lines: Sequence[str], width: int) -> list[str]:
    """The deal's score lines, wrapped to the picture's width."""
    out = [part for line in lines for part in wrap(line, 18, width - 2 * MARGIN)]
    return out[:FOOTER_LINES]


def _footer(board: Board, lines: Sequence[str], y: int) -> None:
    for i, line in enumerate(lines):
        board.text((MARGIN, y + i * 24), line, 18, MUTED)


def _around(picture: DealPicture, hands: Sequence[Sequence[Card]], titles: Sequence[str],
            notes: Sequence[str], centre: Sequence[str], headline: str,
            footer: Sequence[str], marked: int | None = None) -> Board:
    """Four hands around a table: 0 on top, 1 right, 2 bottom, 3 left."""
    width = 3 * PANEL_WIDTH + 4 * MARGIN
    top = 72
    footer = _footer_lines(footer, width)
    height = top + 3 * (PANEL_HEIGHT + 8) + 8 + 24 * len(footer) + MARGIN
    board = Board(width, height)
    _header(board, picture, headline)
    middle_x = 2 * MARGIN + PANEL_WIDTH
    spots = [(middle_x, top), (middle_x + PANEL_WIDTH + MARGIN, top + PANEL_HEIGHT + 8),
             (middle_x, top + 2 * (PANEL_HEIGHT + 8)), (MARGIN, top + PANEL_HEIGHT + 8)]
    for index, (x, y) in enumerate(spots):
        board.panel(x, y, titles[index], hands[index], notes[index],
                    highlight=index == marked)
    box_top = top + PANEL_HEIGHT + 8 + 30
    board.draw.rounded_rectangle((middle_x + 20, box_top, middle_x + PANEL_WIDTH - 20,
                                  box_top + PANEL_HEIGHT - 36), radius=12,
                                 outline=MUTED, width=2)
    for i, line in enumerate(centre[:4]):
        board.text((middle_x + 34, box_top + 10 + i * 26), line, 19 if i else 22,
                   GOLD if i == 0 else INK)
    _footer(board, footer, top + 3 * (PANEL_HEIGHT + 8) + 8)
    return board


def _seat_title(picture: DealPicture, seat: int, seat_name: str, dealer: int) -> str:
    name = picture.names[seat]
    title = name if name.startswith(seat_name) else f"{seat_name} · {name}"
    return title + (" (dealer)" if seat == dealer else "")


# -- the games ---------------------------------------------------------------------------

def _bridge(picture: DealPicture) -> Board:
    s = picture.summary
    vul = vulnerability(s.vulnerable)
    vul = "no one vulnerable" if vul == "neither side" else f"{vul} vulnerable"
    if s.contract is None:
        headline, centre = "Thrown in: all four passed", ["Passed out", vul]
        marked = None
    else:
        won = s.tricks_won[s.contract.declarer % 2]
        headline = (f"{s.contract.label} by {COMPASS[s.contract.declarer]}: "
                    f"{outcome(s.contract, won)}")
        centre = [s.contract.label + f" {COMPASS[s.contract.declarer][0]}",
                  plural(won, "trick") + " to declarer", vul]
        marked = s.contract.declarer
    titles = [_seat_title(picture, seat, COMPASS[seat], s.dealer) for seat in range(4)]
    notes = [""] * 4
    if s.contract is not None:
        notes[s.contract.declarer] = "declarer"
        notes[(s.contract.declarer + 2) % 4] = "dummy"
    return _around(picture, s.hands, titles, notes, centre, headline,
                   score_lines(s.lines, SIDES4), marked)


def _spades(picture: DealPicture) -> Board:
    from bot.games.spades_scoring import bid_label

    s = picture.summary
    titles = [_seat_title(picture, seat, COMPASS[seat], s.dealer) for seat in range(4)]
    notes = [f"bid {bid_label(s.bids[seat])} · won {s.tricks_won[seat]}" for seat in range(4)]
    sides = [f"{SIDES4[side]}: {sum(s.tricks_won[side::2])} tricks, "
             f"{plural(s.bags[side], 'bag')}" for side in (0, 1)]
    centre = ["Spades", *[f"{SIDES4[side][0]}{SIDES4[side].split('-')[1][0]} "
                          f"bid {_side_bid(s.bids, side)}, won {sum(s.tricks_won[side::2])}"
                          for side in (0, 1)]]
    return _around(picture, s.hands, titles, notes, centre, " · ".join(sides),
                   score_lines(s.lines, SIDES4))


def _side_bid(bids: Sequence[int], side: int) -> str:
    return str(sum(max(b, 0) for b in bids[side::2]))


def _single_dummy(picture: DealPicture) -> Board:
    s = picture.summary
    # Hands by index 0 South, 1 West, 2 North, 3 East; hand h belongs to player h % 2.
    order = (2, 3, 0, 1)  # top, right, bottom, left
    names = ("South", "West", "North (dummy)", "East (dummy)")
    titles = [f"{names[h]} · {picture.names[h % 2]}" for h in order]
    if s.contract is None:
        headline, centre, marked = "Thrown in: both passed", ["Passed out"], None
    else:
        won = s.tricks[s.contract.declarer]
        declarer = picture.names[s.contract.declarer]
        headline = f"{s.contract.label} by {declarer}: {outcome(s.contract, won)}"
        centre = [s.contract.label, plural(won, "trick") + " to declarer"]
        if s.dummy_choice is not None:
            centre.append(f"{s.dummy_choice} dummy taken")
        marked = order.index(s.contract.declarer)
    notes = [f"tricks {s.tricks[h % 2]}" if h < 2 else "" for h in order]
    return _around(picture, [s.hands[h] for h in order], titles, notes, centre, headline,
                   score_lines([s.line], picture.names[:2]), marked)


def _tennis(picture: DealPicture) -> Board:
    s = picture.summary
    width = 2 * PANEL_WIDTH + 3 * MARGIN + 90
    top = 72
    footer = _footer_lines(score_lines(s.lines, picture.names[:2]), width)
    height = top + 2 * (PANEL_HEIGHT + 12) + 4 + 24 * len(footer) + MARGIN
    board = Board(width, height)
    trump = "notrump" if s.trump is None else f"{s.trump.symbol} trumps"
    _header(board, picture, f"Set {s.set_no}, game {s.game_no} · {trump}")
    for seat in (0, 1):
        x = MARGIN + seat * (PANEL_WIDTH + MARGIN + 90)
        for row, (kind, hands, bids, tricks) in enumerate((
                ("Forehand", s.forehands, s.forehand_bids, s.forehand_tricks),
                ("Backhand", s.backhands, s.backhand_bids, s.backhand_tricks))):
            y = top + row * (PANEL_HEIGHT + 12)
            bid = bids[seat]
            made = tricks[seat] == bid_value(bid)
            board.panel(x, y, f"{picture.names[seat]} · {kind}", hands[seat],
                        f"bid {bid_value(bid)} · won {tricks[seat]}", highlight=made)
            board.card(x + PANEL_WIDTH + 12, y + 54, bid, CARD_SIZES[1])
    _footer(board, footer, top + 2 * (PANEL_HEIGHT + 12) + 4)
    return board


def _bidfair(picture: DealPicture) -> Board:
    s = picture.summary
    width = 2 * PANEL_WIDTH + 3 * MARGIN + 40
    top = 72
    crib_top = top + PANEL_HEIGHT + 16
    cards_top = crib_top + 40 + 2 * 74
    footer = _footer_lines(score_lines([s.line], picture.names[:2]) if s.line else [], width)
    height = cards_top + 112 + 24 * len(footer) + MARGIN
    board = Board(width, height)
    if s.holder is not None and s.contract_value is not None:
        headline = (f"{picture.names[s.holder]} had to capture {s.contract_value}: "
                    f"took {s.captured[s.holder]}")
    else:
        headline = "No contract"
    _header(board, picture, headline)
    for seat in (0, 1):
        x = MARGIN + seat * (PANEL_WIDTH + MARGIN + 40)
        title = _seat_title(picture, seat, ("North", "South")[seat], s.dealer)
        board.panel(x, top, title, s.hands[seat], f"captured {s.captured[seat]}",
                    highlight=seat == s.holder)
    board.text((MARGIN, crib_top), "The crib" + (" (exchanged)" if s.exchanged else ""),
               19, INK)
    _card_row(board, MARGIN, crib_top + 28, [*s.cribs[0], *s.cribs[1]], CARD_SIZES[0])
    if s.remaining_crib:
        board.text((MARGIN, crib_top + 94), "Not played", 16, MUTED)
        _card_row(board, MARGIN + 100, crib_top + 92, s.remaining_crib, CARD_SIZES[0])
    board.text((MARGIN, cards_top), "Bid cards", 19, INK)
    for seat in (0, 1):
        bid = s.bids[seat]
        x = MARGIN + seat * 150
        board.text((x, cards_top + 28), picture.names[seat][:12], 15, MUTED)
        if bid is None:
            board.text((x, cards_top + 56), "passed", 18, INK)
        else:
            board.card(x, cards_top + 48, bid.card, CARD_SIZES[0])
            board.text((x + 62, cards_top + 66), "up" if bid.face_up else "down", 16, INK)
    board.text((MARGIN + 320, cards_top), "Cut card", 19, INK)
    if s.cut is not None:
        board.card(MARGIN + 320, cards_top + 30, s.cut, CARD_SIZES[2])
        trump = "no trumps" if s.trump is None else f"{s.trump.symbol} trumps"
        board.text((MARGIN + 400, cards_top + 56), trump, 18, INK)
    _footer(board, footer, cards_top + 112)
    return board


def _card_row(board: Board, x: int, y: int, cards: Sequence[Card], size: int) -> None:
    for i, card in enumerate(cards):
        board.card(x + i * (size - 8), y, card, size)


_DRAWERS: dict[str, Callable[[DealPicture], Board]] = {
    "bridge": _bridge,
    "spades": _spades,
    "single_dummy": _single_dummy,
    "tennis": _tennis,
    "bidfair": _bidfair,
}
