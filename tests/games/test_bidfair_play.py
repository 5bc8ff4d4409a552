"""Bid Fair rulings on the play (high rank, ace rule) and the scoring, the dealer and the end."""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.bidfair import BidFair
from bot.games.bidfair_rank import (
    bidfair_pack,
    card_points,
    make_power,
    order_text,
    points_of,
)
from bot.games.bidfair_scoring import score_deal
from bot.games.cards import Card, Rank, Suit, card, cards
from bot.games.tricks import trick_winner
from tests.games.bidfair_helpers import (
    B_CRIB_NORTH,
    B_CRIB_SOUTH,
    B_NORTH,
    B_SOUTH,
    NORTH,
    SOUTH,
    build_crib,
    deal_a,
    deal_b,
    game_with,
    play_out,
    run,
)

# Deal B played with J♦ bid face up by South (J high, North holds 60), clubs trump.
B_TRICKS = [  # (leader, leader's card, follower's card, winner)
    (NORTH, "KS", "JS", SOUTH),   # the high jack beats the king
    (SOUTH, "AH", "TH", NORTH),   # an ace led is low
    (NORTH, "JH", "QH", NORTH),   # J K Q: the jack above the queen
    (NORTH, "QS", "TS", NORTH),
    (NORTH, "AS", "9S", SOUTH),   # even a nine beats an ace led
    (SOUTH, "KH", "KD", SOUTH),   # a discard never wins
    (SOUTH, "AD", "QD", NORTH),
]


def winner(led: str, second: str, high: Rank | None, trump: Suit = Suit.CLUBS) -> int:
    """Who wins a two-card trick: 0 the leader, 1 the second player."""
    return trick_winner([(0, card(led)), (1, card(second))], trump, make_power(high))


# -- the order within a suit ----------------------------------------------------------


def test_high_rank_order_jack_high_is_j_k_q_10_9() -> None:
    order = ["JH", "KH", "QH", "TH", "9H"]
    for i, better in enumerate(order):
        for worse in order[i + 1:]:
            assert winner(better, worse, Rank.JACK) == 0
            assert winner(worse, better, Rank.JACK) == 1
    assert order_text(Rank.JACK).startswith("J K Q 10 9")


def test_no_contract_order_is_k_q_j_10_9() -> None:
    order = ["KH", "QH", "JH", "TH", "9H"]
    for i, better in enumerate(order):
        for worse in order[i + 1:]:
            assert winner(worse, better, None) == 1
            assert winner(better, worse, None) == 0


@pytest.mark.parametrize("high", [None, Rank.NINE, Rank.JACK, Rank.KING])
def test_ace_is_low_when_led(high: Rank | None) -> None:
    for other in ("KH", "QH", "JH", "TH", "9H"):
        assert winner("AH", other, high) == 1


@pytest.mark.parametrize("high", [None, Rank.NINE, Rank.TEN, Rank.QUEEN, Rank.KING])
def test_ace_is_high_when_played_second(high: Rank | None) -> None:
    for other in ("KH", "QH", "JH", "TH", "9H"):  # even above the high rank
        assert winner(other, "AH", high) == 1


def test_ace_as_the_high_rank_is_simply_highest() -> None:
    for other in ("KH", "QH", "JH", "TH", "9H"):
        assert winner("AH", other, Rank.ACE) == 0
        assert winner(other, "AH", Rank.ACE) == 1
    assert order_text(Rank.ACE) == "A K Q J 10 9"


def test_trump_ace_played_second_beats_a_trump_lead() -> None:
    assert winner("KC", "AC", Rank.JACK, trump=Suit.CLUBS) == 1
    assert winner("JC", "AC", Rank.JACK, trump=Suit.CLUBS) == 1


def test_trump_ace_led_loses_to_any_trump() -> None:
    assert winner("AC", "9C", Rank.KING, trump=Suit.CLUBS) == 1


def test_trump_ace_played_second_trumps_a_plain_lead() -> None:
    assert winner("KH", "AC", Rank.KING, trump=Suit.CLUBS) == 1


def test_plain_ace_led_still_beats_a_discard() -> None:
    assert winner("AH", "KD", None, trump=Suit.CLUBS) == 0  # a low ace led is still the suit


def test_ace_of_a_non_led_suit_played_second_has_no_effect_unless_trump() -> None:
    assert winner("9H", "AD", None, trump=Suit.CLUBS) == 0
    assert winner("9H", "AC", None, trump=Suit.CLUBS) == 1


def test_a_trump_beats_any_card_of_a_plain_suit() -> None:
    assert winner("KH", "9C", Rank.KING, trump=Suit.CLUBS) == 1
    assert winner("9C", "KH", Rank.KING, trump=Suit.CLUBS) == 0


def test_a_deal_played_with_the_jack_high_and_the_ace_rule() -> None:
    # South bids J♦ face up (J high, North holds a contract of 60); clubs are trump.
    g = deal_b(cut="9C")
    run(g, [(SOUTH, "up:JD"), (NORTH, "down:9H"), (NORTH, "keep")])
    assert (g.holder, g.high, g.value, g.trump) == (NORTH, Rank.JACK, 60, Suit.CLUBS)
    for leader, lead, follow, won in B_TRICKS:
        assert g.to_act() == frozenset({leader})  # the winner leads next
        events = g.apply(leader, f"play:{lead}") + g.apply(1 - leader, f"play:{follow}")
        trick = next(e for e in events if e.kind == "trick")
        assert trick.winner == won
    summary = g.previous
    assert summary is not None and summary.deal_no == 1
    assert summary.captured == (62, 50)
    # North made 60: 62 + the difference 12 (one bid face down: not doubled); South 50 + 40.
    assert g.lines[0].points == (74, 90)


def test_a_player_must_follow_suit() -> None:
    g = deal_b(cut="9C")
    run(g, [(SOUTH, "up:JD"), (NORTH, "down:9H"), (NORTH, "keep"), (NORTH, "play:KS")])
    with pytest.raises(IllegalAction, match="follow suit"):
        g.apply(SOUTH, "play:AH")
    assert g.legal(SOUTH) == ["play:JS", "play:TS", "play:9S"]


# -- scoring --------------------------------------------------------------------------


@pytest.mark.parametrize(("rank", "points"), [
    ("A", 1), ("K", 10), ("Q", 10), ("J", 10), ("T", 10), ("9", 9)])
def test_card_points(rank: str, points: int) -> None:
    for suit in "SHDC":
        assert card_points(card(rank + suit)) == points


def test_the_pack_holds_200_card_points() -> None:
    assert points_of(bidfair_pack()) == 200


def test_each_player_scores_their_own_captured_points_without_a_contract() -> None:
    s = score_deal((57, 48), None, None, False, (False, False))
    assert s.points == (57, 48) and s.fulfilled is None


def test_contract_fulfilled_scores_the_difference_and_the_reward() -> None:
    s = score_deal((80, 45), 0, 70, False, (False, False))
    assert s.fulfilled is True
    assert s.points == (80 + 35, 45 + 40)


def test_the_deals_note_says_the_contract_in_plain_words() -> None:
    """Not `contract of 60 missed (20)`: who had to capture how much, and what they took."""
    assert score_deal((20, 80), 0, 60, False, (False, False)).note == (
        "North had to capture 60 and took 20: missed")
    assert score_deal((45, 80), 1, 70, True, (True, False)).note == (
        "South had to capture 70 and took 80: made; 40 for a face-up trump bid card: North")
    assert score_deal((57, 48), None, None, False, (False, False)).note == "no contract"


def test_contract_reached_exactly_is_fulfilled() -> None:
    assert score_deal((30, 60), 1, 60, False, (False, False)).points == (30 + 40, 60 + 30)


def test_difference_is_doubled_when_both_bids_are_face_up() -> None:
    s = score_deal((45, 80), 1, 70, True, (False, False))
    assert s.points == (45 + 40, 80 + 2 * 35)


def test_reward_40_is_never_doubled() -> None:
    single = score_deal((45, 80), 1, 70, False, (False, False))
    double = score_deal((45, 80), 1, 70, True, (False, False))
    assert single.contract_bonus[0] == double.contract_bonus[0] == 40


def test_only_a_positive_difference_is_scored() -> None:
    s = score_deal((40, 65), 0, 40, True, (False, False))
    assert s.fulfilled is True and s.points == (40, 65 + 40)


def test_no_penalty_for_failing_the_contract() -> None:
    s = score_deal((69, 50), 0, 70, True, (False, False))
    assert s.fulfilled is False
    assert s.points == (69, 50)  # the holder keeps its cards; no reward for the opponent


def test_trump_bid_bonus_is_added_for_each_face_up_trump_bid() -> None:
    s = score_deal((10, 20), None, None, True, (True, True))
    assert s.points == (50, 60)


def test_deal_with_both_bids_face_up_doubles_the_difference_in_play() -> None:
    # South bids Q♦, North outbids with K♠: South holds 80; diamonds are trump (South +40).
    g = deal_a(dealer=NORTH, cut="9D")
    run(g, [(SOUTH, "up:QD"), (NORTH, "up:KS"), (SOUTH, "keep")])
    play_out(g)  # South holds every trump and the only clubs: it takes every trick
    assert g.previous is not None and g.previous.captured == (0, 104)
    assert g.lines[0].points == (40, 104 + 2 * 104 + 40)


def test_failed_contract_in_play_costs_the_holder_nothing() -> None:
    # South bids Q♦ face up, North places K♠ face down and holds a contract of 70.
    g = deal_a(dealer=NORTH, cut="9D")
    run(g, [(SOUTH, "up:QD"), (NORTH, "down:KS"), (NORTH, "keep")])

    def south_trumps(game: BidFair, seat: int, legal: list[str]) -> str:
        trumps = [a for a in legal if a.endswith("D")]
        return trumps[0] if seat == SOUTH and trumps else legal[0]

    play_out(g, south_trumps)
    assert g.previous is not None and g.previous.captured == (0, 104)
    assert g.lines[0].points == (0, 104 + 40)  # no reward: the contract failed


def test_bid_cards_and_the_unused_crib_are_captured_by_nobody() -> None:
    g = deal_b(cut="9C")
    run(g, [(SOUTH, "up:JD"), (NORTH, "down:9H"), (NORTH, "keep")])
    trick_cards: list[Card] = []
    play_out(g)
    summary = g.previous
    assert summary is not None
    for t in summary.tricks:
        trick_cards += [c for _, c in t.cards]
    assert len(trick_cards) == 14
    assert sum(summary.captured) == points_of(trick_cards)
    aside = {card("JD"), card("9H"), summary.cut, *summary.remaining_crib}
    assert len(aside) == 10 and aside.isdisjoint(trick_cards)
    assert sum(summary.captured) == 200 - points_of(list(aside))


# -- the next dealer and the end of the game -------------------------------------------


def _deal_b_played(totals: tuple[int, int], target: int | None = None) -> BidFair:
    """Deal B (North deals; scores North 74, South 90) played from the given totals."""
    g = game_with(B_NORTH, B_SOUTH, dealer=NORTH, cut="9C", target=target)
    build_crib(g, B_CRIB_NORTH, B_CRIB_SOUTH)
    g.totals = list(totals)
    run(g, [(SOUTH, "up:JD"), (NORTH, "down:9H"), (NORTH, "keep")])
    for leader, lead, follow, _ in B_TRICKS:
        run(g, [(leader, f"play:{lead}"), (1 - leader, f"play:{follow}")])
    return g


def test_the_player_leading_on_the_scorecard_deals_next() -> None:
    g = _deal_b_played((0, 0))  # North dealt; South leads 90 to 74
    assert g.deal_no == 2 and g.dealer == SOUTH
    g = _deal_b_played((30, 0))  # North leads 104 to 90
    assert g.dealer == NORTH


def test_level_scores_alternate_the_deal() -> None:
    g = _deal_b_played((16, 0))  # 90 all
    assert g.scores().totals == (90, 90)
    assert g.dealer == SOUTH  # North dealt deal 1


def test_game_ends_after_a_deal_in_which_someone_reaches_800() -> None:
    g = _deal_b_played((700, 0))
    assert not g.finished and g.result() is None  # 774
    g = _deal_b_played((726, 0))
    assert g.finished and g.scores().totals == (800, 90)
    result = g.result()
    assert result is not None and result.winner == NORTH
    assert g.view(None).phase == "match_over" and g.to_act() == frozenset()


def test_the_higher_total_wins_when_both_pass_800() -> None:
    g = _deal_b_played((740, 760))  # 814 to 850
    result = g.result()
    assert result is not None and result.winner == SOUTH and result.totals == (814, 850)


def test_a_tie_at_800_plays_another_deal() -> None:
    g = _deal_b_played((726, 710))  # 800 all
    assert not g.finished and g.result() is None and g.deal_no == 2
    assert g.dealer == SOUTH  # level: the deal alternates
    g.stack_deck(cards(B_NORTH) + cards(B_SOUTH))
    play_out(g)
    north, south = g.scores().totals
    assert north != south and g.finished
    result = g.result()
    assert result is not None and result.winner == (NORTH if north > south else SOUTH)


def test_the_target_option_changes_the_end() -> None:
    g = _deal_b_played((0, 0), target=100)
    assert not g.finished
    g = _deal_b_played((30, 0), target=100)
    assert g.finished


def test_match_end_event_carries_the_result() -> None:
    g = deal_b(cut="9C")
    g.totals = [726, 0]
    events = []
    for seat, action in [(SOUTH, "up:JD"), (NORTH, "down:9H"), (NORTH, "keep")]:
        events += g.apply(seat, action)
    while not g.finished:
        seat = min(g.to_act())
        events += g.apply(seat, g.legal(seat)[0])
    kinds = [e.kind for e in events]
    assert kinds[-2:] == ["deal_end", "match_end"]
    assert events[-1].result == g.result()
    with pytest.raises(IllegalAction, match="over"):
        g.apply(NORTH, "play:KS")


def test_deal_end_event_lists_the_hands_as_dealt() -> None:
    g = deal_b(cut="9C")
    run(g, [(SOUTH, "up:JD"), (NORTH, "down:9H"), (NORTH, "keep")])
    events = []
    while g.deal_no == 1:
        seat = min(g.to_act())
        events += g.apply(seat, g.legal(seat)[0])
    end = next(e for e in events if e.kind == "deal_end")
    assert end.deal_no == 1 and end.lines == (g.lines[0],)
    assert set(end.hands[NORTH]) == {c.text for c in cards(B_NORTH)}
