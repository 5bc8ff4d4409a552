"""Single Dummy Bridge property tests: random legal play of whole matches."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from bot.games import create, replay
from bot.games.cards import Card
from bot.games.single_dummy import SingleDummyBridge
from tests.view_cards import cards_in


def forbidden(game: SingleDummyBridge, seat: int | None) -> set[Card]:
    """Cards `seat` must not see now: the other player's hand, and any dummy not yet public
    (before the choice only the revealed dummy is public)."""
    hidden: set[Card] = set()
    for hand in (0, 1):
        if hand != seat:
            hidden.update(game.hands[hand])
    if game.dummy_choice is None:
        hidden.update(game.hands[5 - game.revealed])
    return hidden


def random_action(game: SingleDummyBridge, rng: random.Random) -> tuple[int, str]:
    (seat,) = game.to_act()
    legal = game.legal(seat)
    # Pass half the time in the auction so contracts stay makeable and matches end.
    if game.phase == "auction" and rng.random() < 0.5:
        return seat, "pass"
    return seat, rng.choice(legal)


def play_match(seed: int, options: dict[str, object], check_views: bool,
               max_deals: int = 10**6) -> SingleDummyBridge:
    game = create("single_dummy", options, seed)
    assert isinstance(game, SingleDummyBridge)
    rng = random.Random(seed)
    played: list[Card] = []
    dealt = set(game.deal_record().hands[0] + game.deal_record().hands[1]
                + game.deal_record().hands[2] + game.deal_record().hands[3])
    assert len(dealt) == 52
    while not game.finished and game.deal_no <= max_deals:
        if check_views:
            for viewer in (0, 1, None):
                # The previous deal is over and public (it holds the same 52 cards).
                seen = cards_in(game.view(viewer), ("previous_deal", "score"))
                assert not seen & forbidden(game, viewer), (viewer, game.phase)
        seat, action = random_action(game, rng)
        assert action in game.legal(seat)
        events = game.apply(seat, action)
        for event in events:
            if event.kind == "trick":
                played.extend(Card.parse(text) for _, text in event.cards)
            if event.kind == "deal_end":
                if event.contract is not None:
                    # Every card played exactly once in the deal.
                    assert len(played) == 52 and set(played) == set(Card.parse(t) for hand
                        in event.hands for t in hand)
                    assert sum(event.tricks) == 13
                else:
                    assert played == []
                played = []
    return game


@given(seed=st.integers(0, 10**6), penalty=st.booleans())
def test_random_legal_play_of_whole_matches_never_raises_and_plays_every_card_once(
        seed: int, penalty: bool) -> None:
    game = play_match(seed, {"target": 100, "undertrick_penalty": penalty}, False)
    result = game.result()
    assert result is not None and max(result.totals) >= 100
    assert result.totals == tuple(sum(line.points[i] for line in game.scores().lines)
                                  for i in (0, 1))
    assert result.winner == result.totals.index(max(result.totals))


@given(seed=st.integers(0, 10**6))
def test_no_view_leaks_a_hidden_card(seed: int) -> None:
    # Views are checked after every action of the first three deals (a walk over every
    # view of a whole match would make the test slow without finding more).
    game = play_match(seed, {"target": 100}, True, max_deals=3)
    assert game.finished or game.deal_no == 4


@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_replaying_history_rebuilds_the_same_state(seed: int, cut: float) -> None:
    game = create("single_dummy", {"target": 150}, seed)
    rng = random.Random(seed)
    stop = None
    while not game.finished:
        assert isinstance(game, SingleDummyBridge)
        game.apply(*random_action(game, rng))
        if stop is None:
            stop = int(cut * 400)
        if len(game.history) >= stop:
            break
    again = replay(create("single_dummy", {"target": 150}, seed), game.history)
    for seat in (0, 1, None):
        assert again.view(seat) == game.view(seat)
    assert again.deal_record() == game.deal_record()
    assert again.scores() == game.scores()
    assert again.to_act() == game.to_act() and again.finished == game.finished
