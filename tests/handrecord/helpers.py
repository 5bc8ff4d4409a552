"""Reading endplay's parse of our hand records in our own terms, and playing random deals
to record: what the hand-record tests (here and end to end) share."""

from __future__ import annotations

import random
from typing import Any

from endplay.parsers import pbn
from endplay.types import Penalty, Player

from bot.games import Game, create
from bot.games.cards import Card, Seat

_SUITS = "SHDC"  # endplay's Denom order: spades 0, hearts 1, diamonds 2, clubs 3, NT 4
_CALLS = {Penalty.passed: "pass", Penalty.doubled: "double", Penalty.redoubled: "redouble"}
_MARKS = {Penalty.passed: "", Penalty.doubled: "X", Penalty.redoubled: "XX"}
SD_COMPASS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)  # Single Dummy hand index


def our_card(card: Any) -> Card:
    rank = card.rank.abbr
    return Card.parse(("T" if rank == "10" else rank) + _SUITS[int(card.suit)])


def hands_of(board: Any) -> dict[Seat, frozenset[Card]]:
    return {Seat(p): frozenset(our_card(c) for c in board.deal[Player(p)]) for p in range(4)}


def call_text(bid: Any) -> str:
    """An endplay call as our action text: `pass`, `double`, `bid:3NT`."""
    if hasattr(bid, "penalty"):
        return _CALLS[bid.penalty]
    strain = "NT" if int(bid.denom) == 4 else _SUITS[int(bid.denom)]
    return f"bid:{bid.level}{strain}"


def contract_code(contract: Any) -> str:
    strain = "NT" if int(contract.denom) == 4 else _SUITS[int(contract.denom)]
    return f"{contract.level}{strain}{_MARKS[contract.penalty]}"


def parse_one(text: str) -> Any:
    boards = pbn.loads(text)
    assert len(boards) == 1
    return boards[0]


def play_randomly(name: str, seed: int, deals: int) -> tuple[Game, list[dict[str, Any]]]:
    """Random legal play through `deals` deals. Per finished deal, what was really played,
    taken from the engine as it went: its record at the deal's start (hands as dealt,
    dealer) and the (seat, action) texts of the deal."""
    game = create(name, {}, seed=seed)
    rng = random.Random(seed)
    truth: list[dict[str, Any]] = []
    start = game.deal_record()
    actions: list[tuple[int, str]] = []
    while not game.finished and len(truth) < deals:
        seat = sorted(game.to_act())[0]
        action = rng.choice(game.legal(seat))
        game.apply(seat, action)
        actions.append((seat, action))
        if game.deal_no != start.deal_no or game.finished:
            truth.append({"start": start, "actions": actions})
            start, actions = game.deal_record(), []
    return game, truth


def tricks_won(board: Any, side: int) -> int:
    """Replays the parsed play with endplay's own deal to count a side's tricks."""
    deal = board.deal.copy()
    deal.first = board.contract.declarer.lho
    deal.trump = board.contract.denom
    won = 0
    for card in board.play:
        deal.play(card)
        if len(deal.curtrick) == 0:  # the trick just completed: first is its winner
            won += int(deal.first) % 2 == side
    return won
