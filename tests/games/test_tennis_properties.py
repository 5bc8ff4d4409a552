"""Tennis invariants over whole random matches (hypothesis)."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given
from hypothesis import strategies as st

from bot.games import create, replay
from bot.games.base import Event
from bot.games.cards import FULL_DECK, Card
from bot.games.tennis import Tennis
from bot.games.tennis_rules import bid_value, game_errors
from tests.games.helpers import payload
from tests.view_cards import cards_in

seeds = st.integers(min_value=0, max_value=2**32 - 1)





def random_step(game: Tennis, rng: random.Random) -> list[Event]:
    seat = rng.choice(sorted(game.to_act()))  # either bidder may go first
    return game.apply(seat, rng.choice(game.legal(seat)))


@given(seeds)
def test_whole_random_matches_never_raise_and_score_by_the_rules(seed):
    game = create("tennis", seed=seed)
    rng = random.Random(seed)
    while not game.finished:
        for event in random_step(game, rng):
            if event.kind == "deal_end":
                summary = game.view(None).previous_deal
                assert summary is not None
                assert sum(summary.forehand_tricks) + sum(summary.backhand_tricks) == 12
                assert summary.errors == tuple(game_errors(
                    summary.forehand_tricks[s], bid_value(summary.forehand_bids[s]),
                    summary.backhand_tricks[s], bid_value(summary.backhand_bids[s]))
                    for s in (0, 1))
    sheet = game.scores()
    result = game.result()
    assert result is not None and len(sheet.lines) == 10
    assert sheet.totals == tuple(sum(line.points[s] for line in sheet.lines) for s in (0, 1))
    assert result.totals == sheet.totals
    assert game.legal(0) == [] and game.legal(1) == []


@given(seeds)
def test_every_card_is_dealt_once_and_played_or_bid_once_per_game(seed):
    game = Tennis(seed=seed)
    rng = random.Random(seed)
    used: list[Card] = []
    while not game.finished:
        dealt = game.deal_record()
        assert sorted(c for hand in dealt for c in hand) == sorted(FULL_DECK)
        seat = rng.choice(sorted(game.to_act()))
        action = rng.choice(game.legal(seat))
        events = game.apply(seat, action)
        used.append(Card.parse(action.partition(":")[2]))
        if any(e.kind == "deal_end" for e in events):
            assert len(used) == 52 and set(used) == set(FULL_DECK)  # 48 played + 4 bids
            used = []


def allowed_cards(seat: int | None, played: set[Card],
                  bids: dict[tuple[int, str], Card]) -> set[Card]:
    """What `seat` may see mid-game: played cards, revealed bids, its own bids."""
    allowed = set(played)
    for (bidder, kind), bid in bids.items():
        if bidder == seat or (1 - bidder, kind) in bids:
            allowed.add(bid)
    return allowed


@given(seeds, st.integers(min_value=2, max_value=3))
def test_no_view_shows_a_hidden_card(seed, games):
    # A few games per example (every view is walked at every step, which is slow).
    game = Tennis(seed=seed)
    rng = random.Random(seed)
    played: set[Card] = set()
    bids: dict[tuple[int, str], Card] = {}
    while game.deal_no <= games and not game.finished:
        dealt = game.deal_record()
        for seat in (0, 1, None):
            view = game.view(seat)
            allowed = allowed_cards(seat, played, bids)
            visible = set(cards_in(dataclasses.replace(view, previous_deal=None)))
            hand = set(view.hand)
            if seat is None:
                assert hand == set() and view.hand_kind == ""
            else:
                block = (0 if view.hand_kind == "Backhand" else 2) + seat
                assert hand <= set(dealt[block])  # exactly one of the viewer's hands
                assert not (set(dealt[block ^ 2]) - allowed) & visible
                if view.phase == "bidding":
                    assert view.hand_kind == view.bidding
                elif seat in view.to_act:
                    assert view.hand_kind == view.to_play_hand
            assert visible - hand <= allowed
            if view.previous_deal is not None:
                assert view.previous_deal.deal_no == view.deal_no - 1
        seat = rng.choice(sorted(game.to_act()))
        action = rng.choice(game.legal(seat))
        bidding = game.view(None).bidding
        events = game.apply(seat, action)
        chosen = Card.parse(action.partition(":")[2])
        if action.startswith("play:"):
            played.add(chosen)
        else:
            bids[(seat, bidding)] = chosen
            secret = events[0]
            assert chosen.text not in str(payload(secret)) and chosen.label not in secret.text
        if any(e.kind == "deal_end" for e in events):
            played, bids = set(), {}


@given(seeds, st.integers(min_value=0, max_value=520))
def test_replaying_the_history_rebuilds_the_state(seed, steps):
    game = Tennis(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.finished:
            break
        random_step(game, rng)
    again = replay(Tennis(seed=seed), game.history)
    assert again.to_act() == game.to_act()
    for seat in (0, 1, None):
        assert again.view(seat) == game.view(seat)
    for seat in (0, 1):
        assert again.legal(seat) == game.legal(seat)
    assert again.deal_record() == game.deal_record()
    assert again.scores() == game.scores() and again.result() == game.result()
