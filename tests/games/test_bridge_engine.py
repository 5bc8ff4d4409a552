"""Contract Bridge (rubber): the engine's rulings from docs/rules.md, one test per ruling."""

from __future__ import annotations

import pytest

from bot.games import create
from bot.games.base import Event, IllegalAction
from bot.games.bridge import ContractBridge
from bot.games.bridge_auction import Call, Contract, Strain
from bot.games.bridge_view import auction_grid
from bot.games.cards import Card, Seat, card, parse_deal
from tests.games.helpers import actor, payload

N, E, S, W = 0, 1, 2, 3

# Each hand holds one whole suit: whoever holds the trump suit wins every trick.
ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
EAST_SPADES = "N:.AKQJT98765432.. AKQJT98765432... ...AKQJT98765432 ..AKQJT98765432."
# A mixed deal: East holds four spade honours.
MIXED = "N:T98.AKQ.AKQ.AKQ2 AKQJ.8765.876.76 765.JT9.JT9.JT98 432.432.5432.543"


def pack_of(deal: str) -> list[Card]:
    hands = parse_deal(deal)
    return [c for seat in Seat for c in hands[seat]]


def table(deal: str = MIXED, seed: int = 1, rubbers: int = 1) -> ContractBridge:
    game = ContractBridge({"rubbers": rubbers}, seed)
    game.stack_deck(pack_of(deal))
    return game


def bid_contract(game: ContractBridge, declarer: int, bid: str, doubled: int = 0,
                 ) -> list[Event]:
    """Pass round to `declarer`, who bids; optionally doubled (and redoubled); then passes."""
    events: list[Event] = []
    while actor(game) != declarer:
        events += game.apply(actor(game), "pass")
    events += game.apply(declarer, "bid:" + bid)
    if doubled:
        events += game.apply(actor(game), "double")
    if doubled == 2:
        events += game.apply(actor(game), "redouble")
    while game.contract is None:
        events += game.apply(actor(game), "pass")
    return events


def play_out(game: ContractBridge) -> list[Event]:
    """Play the deal to its end, each hand playing its first legal card."""
    events: list[Event] = []
    deal_no = game.deal_no
    while game.deal_no == deal_no and not game.finished:
        seat = actor(game)
        events += game.apply(seat, game.legal(seat)[0])
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def test_class_surface() -> None:
    game = create("bridge", seed=3)
    assert isinstance(game, ContractBridge)
    assert game.SEAT_NAMES == ("North", "East", "South", "West")
    assert game.SIDES == ((0, 2), (1, 3))
    assert game.SIDE_NAMES == ("North-South", "East-West")
    assert game.options == {"rubbers": 1, "undo": True, "undo_limit": 3, "human_declares": True}
    assert game.deal_no == 1


def test_first_dealer_is_seeded_and_auction_starts_with_dealer() -> None:
    dealers = {ContractBridge(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    for s in range(5):
        assert ContractBridge(seed=s).dealer == ContractBridge(seed=s).dealer
        game = ContractBridge(seed=s)
        assert game.to_act() == frozenset({game.dealer})


def test_thirteen_cards_each_in_seat_blocks() -> None:
    game = table(MIXED)
    hands = parse_deal(MIXED)
    for seat in Seat:
        assert set(game.view(seat).hand) == set(hands[seat])
        assert len(game.view(seat).hand) == 13


def test_opening_lead_by_declarers_left() -> None:
    game = table()
    events = bid_contract(game, S, "2NT")
    assert "auction_end" in kinds(events)
    assert game.contract == Contract(2, Strain.NOTRUMP, S, 0)
    assert game.to_act() == frozenset({W})
    assert game.legal(S) == [] and game.legal(N) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(E, "play:AS")


def test_dummy_is_faced_after_the_opening_lead() -> None:
    game = table()
    bid_contract(game, S, "2NT")
    for seat in (None, E, S, W):
        assert game.view(seat).dummy_hand == ()
    events = game.apply(W, "play:2S")
    faced = [e for e in events if e.kind == "dummy_faced"]
    assert len(faced) == 1 and faced[0].dummy == N
    north = set(parse_deal(MIXED)[Seat.NORTH])
    assert set(faced[0].cards) == {c.text for c in north}
    for seat in (None, E, S, W):
        assert set(game.view(seat).dummy_hand) == north


def test_declarer_plays_dummys_cards() -> None:
    game = table()
    bid_contract(game, S, "2NT")
    game.apply(W, "play:2S")
    assert game.to_act() == frozenset({S})  # dummy (North) is to play
    view = game.view(S)
    assert view.turn == N and view.playing_for == N
    assert set(game.legal(S)) == {"play:TS", "play:9S", "play:8S"}
    with pytest.raises(IllegalAction, match="dummy's turn"):
        game.apply(S, "play:7S")  # South's own spade
    events = game.apply(S, "play:TS")
    assert events[0].text == "South plays 10♠ from dummy"
    assert game.to_act() == frozenset({E})
    game.apply(E, "play:AS")
    assert game.to_act() == frozenset({S}) and game.view(S).playing_for == S


def test_dummys_owner_is_refused() -> None:
    game = table()
    bid_contract(game, S, "2NT")
    with pytest.raises(IllegalAction, match="Your partner plays dummy's cards"):
        game.apply(N, "play:AH")
    game.apply(W, "play:2S")
    with pytest.raises(IllegalAction, match="Your partner plays dummy's cards"):
        game.apply(N, "play:TS")
    assert game.legal(N) == []
    while game.deal_no == 1:
        assert N not in game.to_act()
        seat = actor(game)
        game.apply(seat, game.legal(seat)[0])


def test_must_follow_suit_for_dummy_too() -> None:
    game = table()
    bid_contract(game, S, "2NT")
    game.apply(W, "play:2S")
    with pytest.raises(IllegalAction, match="You must follow suit: dummy holds a spade"):
        game.apply(S, "play:AH")
    game.apply(S, "play:TS")
    with pytest.raises(IllegalAction, match="You must follow suit: you hold a spade"):
        game.apply(E, "play:8H")


def test_trick_goes_to_highest_card_of_suit_led_and_winner_leads() -> None:
    game = table()
    bid_contract(game, S, "2NT")
    events: list[Event] = []
    for seat, c in ((W, "2S"), (S, "TS"), (E, "AS"), (S, "5S")):
        events += game.apply(seat, "play:" + c)
    trick = next(e for e in events if e.kind == "trick")
    assert trick.winner == E
    assert game.view(None).tricks_won == (0, 1)
    assert game.to_act() == frozenset({E})
    last = game.view(None).last_trick
    assert last is not None and last.winner == E and last.cards[0] == (W, card("2S"))


def test_four_passes_throw_in_and_the_next_dealer_deals() -> None:
    game = table()
    dealer = game.dealer
    events: list[Event] = []
    for _ in range(4):
        events += game.apply(actor(game), "pass")
    assert "thrown_in" in kinds(events) and "deal_end" in kinds(events)
    assert game.deal_no == 2
    assert game.dealer == (dealer + 1) % 4
    assert game.to_act() == frozenset({game.dealer})
    assert game.scores().lines[0].note == "thrown in"
    assert game.scores().totals == (0, 0)
    previous = game.view(None).previous_deal
    assert previous is not None and previous.contract is None


def test_honours_are_claimed_for_the_side_holding_them() -> None:
    # East (a defender) holds four spade honours; North-South play in spades.
    game = table(MIXED)
    bid_contract(game, N, "1S")
    play_out(game)
    rubber = game.scores().detail.rubbers[0]
    assert [(e.label, e.points) for e in rubber.above[1] if "honours" in e.label] == [
        ("honours (East)", 100)]


def test_side_is_vulnerable_after_a_game() -> None:
    game = table(ONE_SUIT_EACH)
    assert game.view(None).vulnerable == (False, False)
    bid_contract(game, N, "4S")
    events = play_out(game)
    assert "game" in kinds(events)
    assert game.view(None).vulnerable == (True, False)
    assert game.deal_record().vulnerable == (True, False)
    # 4♠ making 13: 120 below (game), 3 overtricks 90, all five honours 150
    assert game.scores().lines[0].points == (120 + 90 + 150, 0)
    assert game.scores().detail.rubbers[0].games_won == (1, 0)


def test_rubber_ends_after_two_games_with_700_against_no_game() -> None:
    game = table(ONE_SUIT_EACH)
    bid_contract(game, N, "4S")
    play_out(game)
    game.stack_deck(pack_of(ONE_SUIT_EACH))
    bid_contract(game, N, "4S")
    events = play_out(game)
    assert "rubber_end" in kinds(events) and "match_end" in kinds(events)
    assert game.finished
    # vulnerable now: 120 below, 3 overtricks 90, honours 150, rubber 700
    assert game.scores().lines[1].points == (120 + 90 + 150 + 700, 0)
    assert game.scores().totals == (360 + 1060, 0)
    result = game.result()
    assert result is not None and result.winner == 0 and result.totals == (1420, 0)


def test_rubber_bonus_is_500_when_the_other_side_has_a_game() -> None:
    game = table(ONE_SUIT_EACH)
    bid_contract(game, N, "4S")
    play_out(game)
    game.stack_deck(pack_of(EAST_SPADES))
    bid_contract(game, E, "4S")
    play_out(game)
    assert game.view(None).vulnerable == (True, True)
    game.stack_deck(pack_of(ONE_SUIT_EACH))
    bid_contract(game, N, "4S")
    events = play_out(game)
    ends = [e for e in events if e.kind == "rubber_end"]
    assert payload(ends[0]) == {"rubber_no": 1, "winner": 0, "bonus": 500}
    assert game.finished


def test_part_scores_add_up_to_a_game_and_a_line_is_drawn() -> None:
    game = table(ONE_SUIT_EACH)
    bid_contract(game, N, "2S")  # 60 below
    play_out(game)
    assert game.view(None).part_scores == (60, 0)
    game.stack_deck(pack_of(EAST_SPADES))
    bid_contract(game, E, "1S")  # East-West 30 below
    play_out(game)
    game.stack_deck(pack_of(ONE_SUIT_EACH))
    bid_contract(game, N, "2S")  # 60 more: 120, game
    play_out(game)
    view = game.view(None)
    assert view.games_won == (1, 0)
    assert view.part_scores == (0, 0)  # the line wipes East-West's 30 for the next game
    first_game = game.scores().detail.rubbers[0].games[0]
    assert first_game.winner == 0
    assert first_game.total(0) == 120 and first_game.total(1) == 30


def test_defeated_contract_scores_for_the_defenders_above() -> None:
    # At notrump with one suit in each hand the opening leader wins all 13 tricks.
    game = table(ONE_SUIT_EACH)
    bid_contract(game, N, "1NT", doubled=1)
    play_out(game)
    previous = game.previous
    assert previous is not None and previous.tricks_won == (0, 13)
    # down 7 doubled, not vulnerable: 100 + 200 + 200 + 4 x 300
    assert game.scores().lines[0].points == (0, 1700)
    assert game.scores().lines[0].note == "1NT doubled by North, down 7"
    rubber = game.scores().detail.rubbers[0]
    assert [(e.label, e.points) for e in rubber.above[1]] == [("7 undertricks", 1700)]
    assert rubber.games == ()


def test_stop_scores_300_for_a_single_game() -> None:
    game = table(ONE_SUIT_EACH)
    bid_contract(game, N, "4S")
    play_out(game)
    game.apply(actor(game), "pass")  # the next deal has begun; it is not scored
    events = game.stop()
    assert game.finished and "match_end" in kinds(events)
    assert game.scores().lines[-1].points == (300, 0)
    assert game.scores().totals == (360 + 300, 0)
    assert game.to_act() == frozenset()
    with pytest.raises(IllegalAction, match="over"):
        game.apply(N, "pass")


def test_stop_scores_100_for_a_part_score() -> None:
    game = table(EAST_SPADES)
    bid_contract(game, E, "1S")
    play_out(game)  # E-W: 30 below, 180 overtricks, 150 honours
    game.stop()
    assert game.scores().lines[-1].points == (0, 100)
    result = game.result()
    assert result is not None and result.winner == 1
    assert result.totals == (0, 30 + 180 + 150 + 100)


def test_match_of_two_rubbers_goes_on_after_the_first() -> None:
    game = table(ONE_SUIT_EACH, rubbers=2)
    for _ in range(2):
        bid_contract(game, N, "4S")
        play_out(game)
        game.stack_deck(pack_of(ONE_SUIT_EACH))
    assert not game.finished
    view = game.view(None)
    assert view.rubber_no == 2 and view.vulnerable == (False, False)
    bid_contract(game, N, "4S")
    play_out(game)
    game.stack_deck(pack_of(ONE_SUIT_EACH))
    bid_contract(game, N, "4S")
    play_out(game)
    assert game.finished
    assert len(game.scores().detail.rubbers) == 2


def test_views_show_auction_dealer_and_contract() -> None:
    game = table()
    bid_contract(game, S, "2NT", doubled=2)
    view = game.view(None)
    assert view.calls[0][0] == game.dealer
    assert view.contract == Contract(2, Strain.NOTRUMP, S, 2)
    assert view.declarer == S and view.dummy == N
    grid = auction_grid(view.calls)
    assert [c for row in grid for c in row if c is not None] == [c for _, c in view.calls]
    assert grid[0][game.dealer] == view.calls[0][1]
    assert all(cell is None for cell in grid[0][:game.dealer])
    assert Call.parse("redouble") in grid[-1] or Call.parse("redouble") in grid[-2]


def test_spectator_sees_no_hand_and_all_hands_after_the_deal() -> None:
    game = table(ONE_SUIT_EACH)
    assert game.view(None).hand == ()
    bid_contract(game, N, "4S")
    play_out(game)
    previous = game.view(None).previous_deal
    assert previous is not None
    assert {c for h in previous.hands for c in h} == set(pack_of(ONE_SUIT_EACH))
    assert previous.tricks_won == (13, 0)


def test_deal_record_is_pbn_and_holds_auction_and_play() -> None:
    game = table(MIXED)
    bid_contract(game, S, "2NT")
    game.apply(W, "play:2S")
    record = game.deal_record()
    assert record.pbn == MIXED
    assert record.dealer == game.dealer
    assert record.contract == Contract(2, Strain.NOTRUMP, S, 0)
    assert record.play == ((W, card("2S")),)
    assert len(record.calls) == len(game.view(None).calls)


def test_illegal_texts_are_refused_readably() -> None:
    game = table()
    with pytest.raises(IllegalAction, match="make a call"):
        game.apply(actor(game), "play:AS")
    with pytest.raises(IllegalAction, match="not a bid"):
        game.apply(actor(game), "bid:2Q")
    bid_contract(game, S, "1C")
    with pytest.raises(IllegalAction, match="play a card"):
        game.apply(W, "pass")
    with pytest.raises(IllegalAction, match="do not hold"):
        game.apply(W, "play:AS")


def test_honours_four_aces_at_notrump_claimed_by_their_holder() -> None:
    deal = "N:AKQJT98765.A.A.A 4.KQJT98765432.. 3..KQJT98765432. 2...KQJT98765432"
    game = table(deal)
    bid_contract(game, N, "1NT")
    play_out(game)
    rubber = game.scores().detail.rubbers[0]
    assert [(e.label, e.points) for e in rubber.above[0] if "aces" in e.label] == [
        ("aces (North)", 150)]
    assert not any("aces" in e.label for e in rubber.above[1])


def test_events_name_the_contract_and_the_game() -> None:
    game = table(ONE_SUIT_EACH)
    events = bid_contract(game, N, "4S", doubled=1)
    end = next(e for e in events if e.kind == "auction_end")
    assert payload(end) == {"contract": "4SX", "declarer": N}
    assert end.text == "The contract is 4♠ doubled by North."
    assert any(e.text == "East doubles" for e in events)
    events = play_out(game)
    assert payload(next(e for e in events if e.kind == "game")) == {"side": 0}
    deal_end = next(e for e in events if e.kind == "deal_end")
    assert deal_end.deal_no == 1
    assert deal_end.lines == (game.scores().lines[0],)
    assert deal_end.hands[N] == tuple(c.text for c in parse_deal(ONE_SUIT_EACH)[Seat.NORTH])
    start = next(e for e in events if e.kind == "deal_start")
    assert start.vulnerable == (True, False)
    # 4♠X making 13, not vulnerable: 240 below, 3 x 100 over, 50 for making, 150 honours
    assert game.scores().lines[0].points == (240 + 300 + 50 + 150, 0)
