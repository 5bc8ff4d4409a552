"""LIN hand records: what we write, parsed back by endplay, equals the deal, auction and
play; the handviewer link carries it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from endplay.parsers import lin

from bot.games.cards import Card, Seat
from bot.handrecord import replay_deal
from bot.handrecord.lin import HANDVIEWER, handviewer_url, lin_call, to_lin
from tests.handrecord.helpers import (
    call_text,
    contract_code,
    hands_of,
    our_card,
    play_randomly,
    tricks_won,
)

NAMES = ("Ann", "Ben", "Cy", "Di")  # N, E, S, W


def parse_one(text: str) -> Any:
    boards = lin.loads(text)
    assert len(boards) == 1
    return boards[0]


@pytest.mark.parametrize("game_name", ["bridge", "single_dummy"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lin_parsed_back_equals_the_deal_auction_and_play(game_name, seed):
    game, truth = play_randomly(game_name, seed, deals=3)
    for played in truth:
        record = replay_deal(game_name, game.options, seed, game.history,
                             played["start"].deal_no)
        board = parse_one(to_lin(record, NAMES))
        assert board.board_num == record.deal_no
        assert hands_of(board) == {Seat(i): frozenset(h) for i, h in enumerate(record.hands)}
        # Single Dummy: West's calls are written at East (the leader is then East's left).
        at = AT_EAST if game_name == "single_dummy" else {}
        assert board.dealer == at.get(record.dealer, record.dealer)
        seats = [Seat((board.dealer + i) % 4) for i in range(len(board.auction))]
        made = [(s, call_text(b)) for s, b in zip(seats, board.auction, strict=True)]
        bid = [(at.get(s, s), call_text_of(t)) for s, t in record.calls
               if not at or s in (Seat.SOUTH, Seat.WEST)]
        assert _players(made, at) == _players(bid, at)
        assert [our_card(c) for c in board.play] == [card for _, card in record.play]
        vul = {(False, False): "none", (True, False): "ns", (False, True): "ew",
               (True, True): "both"}[record.vulnerable]
        assert board.vul.name == vul
        assert (board.info["South"], board.info["West"], board.info["North"],
                board.info["East"]) == ("Cy", "Di", "Ann", "Ben")
        if record.contract is None:
            assert board.contract.is_passout() and not board.play
            continue
        assert contract_code(board.contract) == record.contract.code
        declarer = Seat(record.contract.declarer)
        assert board.contract.declarer == at.get(declarer, declarer)
        # The opening lead comes from declarer's left, as LIN readers take it.
        assert holder(record)[our_card(board.play[0])] == Seat(int(board.contract.declarer.lho))
        # endplay's own result from a LIN play counts the wrong side's tricks: recount.
        assert tricks_won(board, record.contract.declarer & 1) == record.declarer_tricks
        assert not board.claimed


AT_EAST = {Seat.WEST: Seat.EAST}


def _players(calls, at):
    """The calls of the seats that bid (Single Dummy: not the dummies), trailing passes
    left out (each form closes the auction with the passes it needs)."""
    bidders = {Seat.SOUTH, at[Seat.WEST]} if at else set(Seat)
    out = [(s, c) for s, c in calls if s in bidders]
    while out and out[-1][1] == "pass":
        out.pop()
    return out


def holder(record):
    return {card: Seat(seat) for seat, hand in enumerate(record.hands) for card in hand}


def call_text_of(token: str) -> str:
    """A PBN call token as our action text."""
    return {"Pass": "pass", "X": "double", "XX": "redouble"}.get(token, f"bid:{token}")


def test_lin_of_a_deal_stopped_early_says_the_tricks_taken():
    game, truth = play_randomly("bridge", 2, deals=3)
    record = next(r for r in (replay_deal("bridge", game.options, 2, game.history,
                                          t["start"].deal_no) for t in truth)
                  if r.contract is not None)
    stopped = replace(record, play=record.play[:20], declarer_tricks=9)
    text = to_lin(stopped, NAMES)
    assert text.endswith("mc|9|")
    board = parse_one(text)
    assert board.claimed and len(board.play) == 20
    assert board.contract.result == 9 - (record.contract.level + 6)


def test_lin_calls_and_cards_are_written_as_bbo_writes_them():
    assert [lin_call(t) for t in ("Pass", "X", "XX", "1C", "3NT", "7S")] == [
        "p", "d", "r", "1C", "3N", "7S"]
    game, _ = play_randomly("bridge", 4, deals=1)
    record = replay_deal("bridge", game.options, 4, game.history, 1)
    text = to_lin(record, ("N|x", "E,y", "S", "W"))
    assert text.startswith("pn|S,W,N x,E y|st||md|")
    first = record.play[0][1] if record.play else Card.parse("AS")
    if record.play:
        assert f"pc|{first.suit.letter}{first.rank.char}|" in text
    assert text.count("pg||") == 1 + len(record.play) // 4


def test_lin_handviewer_link_opens_the_same_record():
    game, _ = play_randomly("bridge", 5, deals=1)
    record = replay_deal("bridge", game.options, 5, game.history, 1)
    text = to_lin(record, ("Ann Lee", "Ben", "Cy", "Di"))
    url = handviewer_url(text)
    assert url.startswith(HANDVIEWER)
    assert " " not in url
    assert parse_qs(urlsplit(url).query)["lin"] == [text]
