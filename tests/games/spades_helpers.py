"""Helpers for the Spades tests: stacked deals in PBN, seeds with a known dealer, drivers."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.games import create
from bot.games.base import Event
from bot.games.cards import Card, Seat, parse_deal
from bot.games.spades import Spades

# Each seat holds one whole suit: North all the spades, so North takes every trick.
ONE_SUIT_EACH = ("N:AKQJT98765432... .AKQJT98765432.. "
                 "..AKQJT98765432. ...AKQJT98765432")


def pack(deal: str) -> list[Card]:
    """A PBN deal as a pack in seat blocks (N, E, S, W), the order Spades deals."""
    hands = parse_deal(deal)
    return [c for seat in Seat for c in hands[seat]]


def seed_with_dealer(dealer: int, start: int = 0) -> int:
    """The first seed from `start` whose match opens with `dealer` dealing."""
    seed = start
    while Spades(seed=seed).dealer != dealer:
        seed += 1
    return seed


def stacked(deal: str, dealer: int = 0, **options: object) -> Spades:
    """A new match with `dealer` dealing `deal` (PBN) first."""
    game = create("spades", options, seed_with_dealer(dealer))
    assert isinstance(game, Spades)
    game.stack_deck(pack(deal))
    return game


def bid_round(game: Spades, bids: dict[int, str]) -> list[Event]:
    """Everyone bids (seat -> "nil", "double_nil" or a number), in turn from the dealer's
    left; each bidder looks first unless bidding double nil."""
    events: list[Event] = []
    for i in range(4):
        seat = (game.dealer + 1 + i) % 4
        if bids[seat] != "double_nil":
            events += game.apply(seat, "look")
        events += game.apply(seat, f"bid:{bids[seat]}")
    return events


def play_deal(game: Spades,
              pick: Callable[[list[str]], str] = lambda legal: legal[0]) -> list[Event]:
    """Play the current deal's cards to its end with `pick` choosing among legal plays."""
    events: list[Event] = []
    deal_no = game.deal_no
    while game.deal_no == deal_no and not game.finished:
        (seat,) = game.to_act()
        events += game.apply(seat, pick(game.legal(seat)))
    return events


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]
