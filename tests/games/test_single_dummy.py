"""Single Dummy Bridge: the engine's rulings from docs/rules.md, one test per ruling."""

from __future__ import annotations

import pytest

from bot.games import create
from bot.games.base import Event, IllegalAction
from bot.games.bridge_auction import Strain
from bot.games.cards import Card, parse_hand
from bot.games.single_dummy import SingleDummyBridge
from bot.games.single_dummy_view import HAND_NAMES
from tests.games.helpers import actor

S, W, N, E = 0, 1, 2, 3  # hand indexes; seats are 0 (South) and 1 (West)

# South holds the top of every suit: at notrump South takes all 13 tricks however anyone
# plays (every South card outranks every other card of its suit).
SOUTH_TOPS = ("AKQ.AKQ.AKQJ.AKQ", "JT9.JT9.T98.JT98", "876.876.765.7654",
              "5432.5432.432.32")
# Each hand one whole suit: S spades, W hearts, N diamonds, E clubs. At notrump the hand
# that leads wins every trick; with spades trumps South wins every trick.
ONE_SUIT_EACH = ("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.",
                 "...AKQJT98765432")
# The same with South and North swapped: diamonds trumps, South ruffs and runs them.
SOUTH_DIAMONDS = ("..AKQJT98765432.", ".AKQJT98765432..", "AKQJT98765432...",
                  "...AKQJT98765432")


def pack_of(hands: tuple[str, str, str, str]) -> list[Card]:
    """The pack in dealing blocks S, W, N, E."""
    parsed = [parse_hand(h) for h in hands]
    assert [len(h) for h in parsed] == [13] * 4
    return [c for h in parsed for c in h]


def table(hands: tuple[str, str, str, str] = SOUTH_TOPS, seed: int = 3,
          **options: object) -> SingleDummyBridge:
    game = SingleDummyBridge(options, seed)
    game.stack_deck(pack_of(hands))
    return game


def win_auction(game: SingleDummyBridge, winner: int, bid: str, doubled: int = 0,
                ) -> list[Event]:
    """The dealer passes if needed, `winner` bids, optionally doubled/redoubled, pass."""
    events: list[Event] = []
    if game.dealer != winner:
        events += game.apply(game.dealer, "pass")
    events += game.apply(winner, "bid:" + bid)
    if doubled:
        events += game.apply(1 - winner, "double")
    if doubled == 2:
        events += game.apply(winner, "redouble")
    events += game.apply(actor(game), "pass")
    return events


def play_out(game: SingleDummyBridge) -> list[Event]:
    """Play the deal to its end, each hand playing its first legal card."""
    events: list[Event] = []
    deal_no = game.deal_no
    while game.deal_no == deal_no and not game.finished:
        seat = actor(game)
        events += game.apply(seat, game.legal(seat)[0])
    return events


def same(shown: tuple[Card, ...] | None, dealt: tuple[Card, ...]) -> bool:
    """The same 13 cards (views keep hands sorted; the record keeps the dealt order)."""
    return shown is not None and len(shown) == 13 and set(shown) == set(dealt)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def test_one_dummy_is_revealed_at_random_before_the_auction() -> None:
    revealed = set()
    for seed in range(20):
        game = SingleDummyBridge(seed=seed)
        revealed.add(game.revealed)
        dealt = game.deal_record().hands
        hidden = 5 - game.revealed  # the other dummy
        for seat in (0, 1, None):
            view = game.view(seat)
            assert view.phase == "auction"
            assert same(view.hands[game.revealed], dealt[game.revealed])
            assert view.hands[hidden] is None
        # Each player sees their own hand and not the other player's.
        assert same(game.view(0).hand, dealt[S]) and game.view(0).hands[W] is None
        assert same(game.view(1).hand, dealt[W]) and game.view(1).hands[S] is None
    assert revealed == {N, E}


def test_single_pass_after_a_bid_ends_the_auction() -> None:
    game = table()
    dealer = game.dealer
    assert game.to_act() == {dealer}
    game.apply(dealer, "bid:1H")
    game.apply(1 - dealer, "bid:2C")
    game.apply(dealer, "bid:2S")
    events = game.apply(1 - dealer, "pass")
    assert "auction_end" in kinds(events)
    assert game.phase == "dummy_choice"
    assert game.contract is not None
    assert (game.contract.level, game.contract.strain) == (2, Strain.SPADES)
    assert game.contract.declarer == dealer
    assert game.to_act() == {dealer}
    assert game.legal(dealer) == ["dummy:revealed", "dummy:hidden"]


def test_two_opening_passes_throw_the_deal_in_and_the_deal_alternates() -> None:
    game = table()
    dealer = game.dealer
    game.apply(dealer, "pass")
    assert game.deal_no == 1  # one pass is not enough
    events = game.apply(1 - dealer, "pass")
    assert "thrown_in" in kinds(events)
    assert game.deal_no == 2
    assert game.dealer == 1 - dealer
    assert game.to_act() == {1 - dealer}
    assert game.scores().lines[-1].points == (0, 0)


def test_double_and_redouble_follow_the_auction_rules() -> None:
    game = table()
    dealer = game.dealer
    with pytest.raises(IllegalAction):
        game.apply(dealer, "double")  # nothing to double
    game.apply(dealer, "bid:1NT")
    assert "redouble" not in game.legal(1 - dealer)
    game.apply(1 - dealer, "double")
    assert "redouble" in game.legal(dealer)
    with pytest.raises(IllegalAction):
        game.apply(dealer, "bid:1S")  # not higher than 1NT
    game.apply(dealer, "redouble")
    game.apply(1 - dealer, "pass")
    assert game.contract is not None and game.contract.doubled == 2


@pytest.mark.parametrize("choice", ["revealed", "hidden"])
@pytest.mark.parametrize("winner", [0, 1])
def test_winner_chooses_the_revealed_or_hidden_dummy_and_the_dummies_are_reseated(
        winner: int, choice: str) -> None:
    for seed in range(4):  # both dummies get revealed over these seeds
        game = table(seed=seed)
        dealt = game.deal_record().hands
        revealed_cards, hidden_cards = dealt[game.revealed], dealt[5 - game.revealed]
        win_auction(game, winner, "1NT")
        game.apply(winner, "dummy:" + choice)
        mine, theirs = 2 + winner, 3 - winner
        wanted = revealed_cards if choice == "revealed" else hidden_cards
        other = hidden_cards if choice == "revealed" else revealed_cards
        view = game.view(winner)
        assert same(view.hands[mine], wanted)
        assert same(view.hands[theirs], other)
        assert game.deal_record().hands == dealt  # the record keeps the deal as dealt


def test_dummy_choice_is_checked() -> None:
    game = table()
    win_auction(game, 0, "1NT")
    with pytest.raises(IllegalAction):
        game.apply(0, "play:AS")
    with pytest.raises(IllegalAction):
        game.apply(1, "dummy:hidden")  # only the bid winner chooses


def test_both_dummies_are_public_after_the_choice() -> None:
    game = table()
    win_auction(game, 0, "1NT")
    events = game.apply(0, "dummy:hidden")
    faced = [e for e in events if e.kind == "dummies_faced"]
    assert len(faced) == 1
    for seat in (0, 1, None):
        view = game.view(seat)
        assert view.dummies_faced
        assert view.hands[N] is not None and len(view.hands[N]) == 13
        assert view.hands[E] is not None and len(view.hands[E]) == 13
    assert game.view(None).hands[S] is None and game.view(None).hands[W] is None
    assert game.view(0).hands[W] is None and game.view(1).hands[S] is None


@pytest.mark.parametrize("winner", [0, 1])
def test_opponent_of_the_winner_leads(winner: int) -> None:
    game = table()
    win_auction(game, winner, "1NT")
    game.apply(winner, "dummy:revealed")
    assert game.to_act() == {1 - winner}
    view = game.view(1 - winner)
    assert view.playing_hand == 1 - winner  # from their own hand
    assert view.playing_for == HAND_NAMES[1 - winner]
    own = [c.text for c in game.view(1 - winner).hand]
    assert sorted(a[5:] for a in game.legal(1 - winner)) == sorted(own)


def test_play_is_clockwise_s_w_n_e_with_each_player_playing_their_dummy() -> None:
    game = table()
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:revealed")
    order = []
    for _ in range(4):
        seat = actor(game)
        hand = game.view(seat).playing_hand
        assert hand is not None
        order.append((hand, seat))
        cards = game.view(seat).hands[hand]
        assert cards is not None
        assert {a[5:] for a in game.legal(seat)} <= {c.text for c in cards}
        assert game.legal(1 - seat) == []
        game.apply(seat, game.legal(seat)[0])
    assert order == [(W, 1), (N, 0), (E, 1), (S, 0)]


def test_a_card_from_the_wrong_hand_is_refused() -> None:
    game = table()
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:revealed")
    west_lead = game.legal(1)[0]
    game.apply(1, west_lead)
    south_card = game.view(0).hand[0].text  # South's own card while North is to play
    with pytest.raises(IllegalAction, match="North does not hold"):
        game.apply(0, "play:" + south_card)


def test_the_hand_that_wins_a_trick_leads_the_next() -> None:
    game = table()  # South holds the top of every suit
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:revealed")
    assert game.view(1).playing_hand == W  # West leads trick one, South plays last
    events: list[Event] = []
    for _ in range(4):
        seat = actor(game)
        events += game.apply(seat, game.legal(seat)[-1])
    trick = next(e for e in events if e.kind == "trick")
    assert trick.winner_hand == S and trick.winner == 0
    assert [h for h, _ in trick.cards] == [W, N, E, S]
    assert game.view(0).playing_hand == S
    assert game.view(0).last_trick is not None and game.view(0).last_trick.winner == S


def test_made_contract_scores_every_trick_over_six_notrump_40_then_30() -> None:
    game = table()
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:revealed")
    events = play_out(game)
    end = next(e for e in events if e.kind == "deal_end")
    assert end.tricks == (13, 0)
    assert game.scores().lines[0].points == (40 + 6 * 30, 0)


def test_suit_contracts_score_20_minor_30_major() -> None:
    game = table(ONE_SUIT_EACH)  # spades trumps: South ruffs West's lead, then runs trumps
    win_auction(game, 0, "1S")
    game.apply(0, "dummy:hidden")
    play_out(game)
    assert game.scores().lines[0].points == (7 * 30, 0)
    game = table(SOUTH_DIAMONDS)
    win_auction(game, 0, "1D")
    game.apply(0, "dummy:hidden")
    play_out(game)
    assert game.scores().lines[0].points == (7 * 20, 0)


def test_doubled_contract_scores_twice() -> None:
    game = table()
    win_auction(game, 0, "1NT", doubled=1)
    game.apply(0, "dummy:revealed")
    play_out(game)
    assert game.scores().lines[0].points == (2 * 220, 0)


def test_redoubled_contract_scores_four_times() -> None:
    game = table()
    win_auction(game, 0, "1NT", doubled=2)
    game.apply(0, "dummy:revealed")
    play_out(game)
    assert game.scores().lines[0].points == (4 * 220, 0)


def test_failed_contract_scores_nothing() -> None:
    game = table(ONE_SUIT_EACH)  # at notrump West leads hearts and wins all 13
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:revealed")
    play_out(game)
    assert game.scores().lines[0].points == (0, 0)
    assert game.view(0).previous_deal is not None
    assert game.view(0).previous_deal.tricks == (0, 13)


@pytest.mark.parametrize("doubled", [0, 1, 2])
def test_undertrick_penalty_option_pays_the_opponent_50_each(doubled: int) -> None:
    game = table(ONE_SUIT_EACH, undertrick_penalty=True)
    win_auction(game, 0, "1NT", doubled=doubled)
    game.apply(0, "dummy:revealed")
    play_out(game)
    assert game.scores().lines[0].points == (0, 50 * 7 * (1, 2, 4)[doubled])


def test_match_ends_when_a_player_reaches_the_target() -> None:
    game = table(target=200)
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:revealed")
    events = play_out(game)
    assert game.finished and "match_end" in kinds(events)
    result = game.result()
    assert result is not None and result.winner == 0 and result.totals == (220, 0)
    assert game.view(0).phase == "match_over" and game.to_act() == frozenset()


def test_match_goes_on_below_the_target() -> None:
    game = table(target=500)
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:revealed")
    dealer = game.dealer
    play_out(game)
    assert not game.finished and game.result() is None
    assert game.deal_no == 2 and game.dealer == 1 - dealer
    assert game.scores().totals == (220, 0)


def test_a_fixed_number_of_deals_ends_after_the_last_deal_whatever_the_score() -> None:
    game = table(target=200, deals=2)
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:revealed")
    play_out(game)
    assert not game.finished and game.scores().totals == (220, 0)  # past the target
    events = game.apply(game.dealer, "pass") + game.apply(1 - game.dealer, "pass")
    assert kinds(events)[-3:] == ["thrown_in", "deal_end", "match_end"]
    result = game.result()
    assert result is not None and result.winner == 0 and result.totals == (220, 0)


def test_a_thrown_in_deal_is_one_of_the_deals_and_equal_totals_draw() -> None:
    game = table(deals=1)
    events = game.apply(game.dealer, "pass") + game.apply(1 - game.dealer, "pass")
    assert kinds(events)[-3:] == ["thrown_in", "deal_end", "match_end"]
    result = game.result()
    assert result is not None and result.totals == (0, 0) and result.is_draw
    assert game.scores().lines[0].note == "thrown in"


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        create("single_dummy", {"target": 50})
    assert create("single_dummy").options == {"target": 500, "undertrick_penalty": False,
                                              "undo": True, "undo_limit": 3}


def test_a_hand_must_follow_suit() -> None:
    game = table()
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:revealed" if game.revealed == N else "dummy:hidden")  # no swap
    game.apply(1, "play:JS")  # West leads a spade; North holds spades
    with pytest.raises(IllegalAction, match="follow suit"):
        game.apply(0, "play:8H")
    with pytest.raises(IllegalAction):
        game.apply(0, "bid:2NT")
    assert sorted(game.legal(0)) == ["play:6S", "play:7S", "play:8S"]


def test_deal_record_keeps_the_deal_as_dealt_the_auction_and_the_play() -> None:
    game = table()
    revealed = game.revealed
    win_auction(game, 0, "1NT")
    game.apply(0, "dummy:hidden")
    game.apply(1, "play:JS")
    record = game.deal_record()
    assert record.hands == tuple(tuple(parse_hand(h)) for h in SOUTH_TOPS)
    assert record.revealed == revealed and record.dummy_choice == "hidden"
    assert record.calls[-2:] == ((0, "bid:1NT"), (1, "pass"))
    assert record.play == ((W, "JS"),)
