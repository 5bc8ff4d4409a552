"""Hand records: the PBN we write, parsed back by endplay, equals what was played."""

from __future__ import annotations

from typing import Any

import pytest
from endplay.types import Player

from bot.games import create
from bot.games.cards import Card, Seat
from bot.handrecord import (
    DealNotOver,
    Heading,
    NotBridge,
    four_seat_auction,
    replay_deal,
    to_pbn,
)
from tests.handrecord.helpers import (
    SD_COMPASS,
    call_text,
    contract_code,
    hands_of,
    our_card,
    parse_one,
    play_randomly,
    tricks_won,
)

HEADING = Heading("TrickTable test", "here", None, ("Ann", "Ben", "Cy", "Di"))
# -- Contract Bridge -----------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_bridge_pbn_parsed_back_equals_the_deal_auction_and_play(seed):
    game, truth = play_randomly("bridge", seed, deals=3)
    assert len(truth) == 3
    for played in truth:
        start = played["start"]
        record = replay_deal("bridge", game.options, seed, game.history, start.deal_no)
        board = parse_one(to_pbn(record, HEADING))
        assert board.board_num == start.deal_no
        assert int(board.dealer) == start.dealer
        assert hands_of(board) == {Seat(i): frozenset(h) for i, h in enumerate(start.hands)}
        calls = [a for _, a in played["actions"] if not a.startswith("play:")]
        assert [call_text(b) for b in board.auction] == calls
        cards = [Card.parse(a[5:]) for _, a in played["actions"] if a.startswith("play:")]
        assert [our_card(c) for c in board.play] == cards
        vul = {(False, False): "none", (True, False): "ns", (False, True): "ew",
               (True, True): "both"}[start.vulnerable]
        assert board.vul.name == vul
        contract = record.contract
        if contract is None:
            assert calls == ["pass"] * 4 and not cards
            assert board.contract.is_passout()
            continue
        assert contract_code(board.contract) == contract.code
        assert int(board.contract.declarer) == contract.declarer
        # The result: tricks the declaring side took, recounted from the parsed play.
        taken = tricks_won(board, contract.declarer & 1)
        assert record.declarer_tricks == taken
        assert board.contract.result == taken - (contract.level + 6)


def test_a_thrown_in_bridge_deal_is_a_passed_out_record():
    game = create("bridge", {}, seed=11)
    for _ in range(4):
        game.apply(next(iter(game.to_act())), "pass")
    record = replay_deal("bridge", game.options, 11, game.history, 1)
    assert record.contract is None and not record.play
    text = to_pbn(record, HEADING)
    assert '[Contract "Pass"]' in text and "[Play" not in text
    board = parse_one(text)
    assert [call_text(b) for b in board.auction] == ["pass"] * 4
    assert board.contract.is_passout()


# -- Single Dummy Bridge ---------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_single_dummy_pbn_parsed_back_equals_the_deal_auction_and_play(seed):
    game, truth = play_randomly("single_dummy", seed, deals=3)
    assert len(truth) == 3
    for played in truth:
        start = played["start"]
        record = replay_deal("single_dummy", game.options, seed, game.history,
                             start.deal_no)
        board = parse_one(to_pbn(record, HEADING))
        assert board.vul.name == "none"
        assert board.dealer == SD_COMPASS[start.dealer]
        parsed = hands_of(board)
        dealt = {SD_COMPASS[i]: frozenset(h) for i, h in enumerate(start.hands)}
        # The players' own hands stay put; the dummies may have changed places.
        assert parsed[Seat.SOUTH] == dealt[Seat.SOUTH]
        assert parsed[Seat.WEST] == dealt[Seat.WEST]
        assert {parsed[Seat.NORTH], parsed[Seat.EAST]} == {dealt[Seat.NORTH],
                                                           dealt[Seat.EAST]}
        # The auction: the two players' calls in order, North and East passing between.
        seats = [Seat((board.dealer + i) % 4) for i in range(len(board.auction))]
        texts = [call_text(b) for b in board.auction]
        assert all(t == "pass" for s, t in zip(seats, texts, strict=True)
                   if s in (Seat.NORTH, Seat.EAST))
        players = [t for s, t in zip(seats, texts, strict=True)
                   if s in (Seat.SOUTH, Seat.WEST)]
        calls = [a for _, a in played["actions"]
                 if not a.startswith(("play:", "dummy:"))]
        assert players[:len(calls)] == calls and set(players[len(calls):]) <= {"pass"}
        cards = [Card.parse(a[5:]) for _, a in played["actions"] if a.startswith("play:")]
        assert [our_card(c) for c in board.play] == cards
        if record.contract is None:
            assert board.contract.is_passout() and not cards
            continue
        # The auction's winner is the player who chose a dummy.
        winner, choice = next((s, a) for s, a in played["actions"]
                              if a.startswith("dummy:"))
        declarer = SD_COMPASS[winner]
        assert board.contract.declarer == declarer
        assert contract_code(board.contract) == record.contract.code
        chosen = start.revealed if choice == "dummy:revealed" else 5 - start.revealed
        assert parsed[declarer.partner] == dealt[SD_COMPASS[chosen]], \
            "the chosen dummy faces the winner"
        _check_turns(board, parsed)


def _check_turns(board: Any, hands: dict[Seat, frozenset[Card]]) -> None:
    """The parsed play goes clockwise, each card from the hand that held it."""
    deal = board.deal.copy()
    deal.trump = board.contract.denom
    holder = {card: seat for seat, cards in hands.items() for card in cards}
    first = holder[our_card(board.play[0])]
    assert first != board.contract.declarer.partner, "no lead from dummy"
    deal.first = Player(int(first))
    for card in board.play:
        assert int(deal.curplayer) == holder[our_card(card)]
        deal.play(card)


def test_the_single_dummy_auction_gets_the_dummies_passes_and_ends_like_it():
    south, west, north, east = Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST
    assert four_seat_auction(west, [(west, "1H"), (south, "Pass")]) == (
        (west, "1H"), (north, "Pass"), (east, "Pass"), (south, "Pass"))
    assert four_seat_auction(south, [(south, "1NT"), (west, "X"), (south, "Pass")]) == (
        (south, "1NT"), (west, "X"), (north, "Pass"), (east, "Pass"), (south, "Pass"))
    assert four_seat_auction(south, [(south, "Pass"), (west, "Pass")]) == (
        (south, "Pass"), (west, "Pass"), (north, "Pass"), (east, "Pass"))


# -- which deals -----------------------------------------------------------------------

def test_a_deal_in_progress_has_no_hand_record():
    game, _ = play_randomly("bridge", 7, deals=1)
    seat = next(iter(game.to_act()))
    game.apply(seat, game.legal(seat)[0])
    assert game.deal_no == 2
    replay_deal("bridge", game.options, 7, game.history, 1)
    for deal_no in (0, 2, 3):
        with pytest.raises(DealNotOver):
            replay_deal("bridge", game.options, 7, game.history, deal_no)


def test_other_games_have_no_hand_records():
    with pytest.raises(NotBridge):
        replay_deal("spades", {}, 1, [], 1)


def test_the_pbn_has_the_mandatory_tags_in_export_order_and_sections():
    game, _ = play_randomly("bridge", 3, deals=1)
    record = replay_deal("bridge", game.options, 3, game.history, 1)
    lines = to_pbn(record, Heading('Say "hi"', "here", None, ("A", "B", "C", "D"))
                   ).splitlines()
    tags = [line[1:].split(" ", 1)[0] for line in lines if line.startswith("[")]
    assert tags == ["Event", "Site", "Date", "Board", "West", "North", "East", "South",
                    "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract",
                    "Result", "Auction", "Play"]
    assert lines[2] == r'[Event "Say \"hi\""]'
    deal = next(line for line in lines if line.startswith("[Deal "))
    assert deal.startswith(f'[Deal "{record.dealer.letter}:'), "the dealer's hand first"
    auction = lines[lines.index(f'[Auction "{record.dealer.letter}"]') + 1:
                    lines.index(f'[Play "{record.opening_leader.letter}"]')]
    assert all(len(row.split()) == 4 for row in auction[:-1])
    assert sum(len(row.split()) for row in auction) == len(record.calls)
    play = lines[lines.index(f'[Play "{record.opening_leader.letter}"]') + 1:]
    assert len(play) == 13 and all(len(row.split()) == 4 for row in play)
    assert play[0].split()[0] == record.play[0][1].text[-1] + record.play[0][1].text[:-1]
