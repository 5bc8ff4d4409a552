"""Shared set-ups for the Bid Fair tests: stacked deals, scripted cribs and bids."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.games.bidfair import BidFair
from bot.games.cards import card, cards

NORTH, SOUTH = 0, 1

# Deal A: North holds every spade and heart, South every diamond and club.
A_NORTH = "AS KS QS JS TS 9S AH KH QH JH TH 9H"
A_SOUTH = "AD KD QD JD TD 9D AC KC QC JC TC 9C"
A_CRIB_NORTH = "9S TS 9H TH"
A_CRIB_SOUTH = "9D TD 9C TC"

# Deal B: suits shared between the hands, for the rank-order play-through.
B_NORTH = "KS QS AS 9H TH JH KD QD 9D TD 9C TC"
B_SOUTH = "JS TS 9S AH KH QH JD AD AC KC QC JC"
B_CRIB_NORTH = "9D TD 9C TC"
B_CRIB_SOUTH = "KC QC JC AC"


def game_with(north: str, south: str, dealer: int = NORTH, cut: str | None = None,
              seed: int = 0, target: int | None = None, deals: int = 0) -> BidFair:
    """A match whose first deal is exactly these hands, with this dealer and cut card."""
    options: dict[str, object] = {} if target is None else {"target": target}
    if deals:
        options["deals"] = deals
    g = BidFair(options=options, seed=seed)
    g.stack_deck(cards(north) + cards(south))
    g.dealer = dealer
    if cut is not None:
        g.stack_cut(card(cut))
    return g


def build_crib(g: BidFair, north: str, south: str) -> None:
    for c_north, c_south in zip(cards(north), cards(south), strict=True):
        g.apply(NORTH, f"crib:{c_north.text}")
        g.apply(SOUTH, f"crib:{c_south.text}")


def deal_a(dealer: int = NORTH, cut: str = "9D", **kwargs: object) -> BidFair:
    g = game_with(A_NORTH, A_SOUTH, dealer=dealer, cut=cut, **kwargs)  # type: ignore[arg-type]
    build_crib(g, A_CRIB_NORTH, A_CRIB_SOUTH)
    return g


def deal_b(cut: str = "9C") -> BidFair:
    g = game_with(B_NORTH, B_SOUTH, dealer=NORTH, cut=cut)
    build_crib(g, B_CRIB_NORTH, B_CRIB_SOUTH)
    return g


def run(g: BidFair, actions: Iterable[tuple[int, str]]) -> list[str]:
    """Apply scripted actions; returns the kinds of all events."""
    kinds: list[str] = []
    for seat, action in actions:
        kinds += [e.kind for e in g.apply(seat, action)]
    return kinds


def play_out(g: BidFair, pick: Callable[[BidFair, int, list[str]], str] | None = None) -> None:
    """Play the current deal to its end (first legal action unless `pick` says otherwise)."""
    deal_no = g.deal_no
    while not g.finished and g.deal_no == deal_no:
        seat = min(g.to_act())
        legal = g.legal(seat)
        g.apply(seat, pick(g, seat, legal) if pick else legal[0])

