"""Contract Bridge property tests: random legal play of whole rubbers."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import create, replay
from bot.games.bridge import ContractBridge
from bot.games.cards import Card
from tests.view_cards import cards_in


def choose(rng: random.Random, legal: list[str]) -> str:
    """Random legal actions, leaning on passes and low bids so rubbers end."""
    if "pass" not in legal:
        return rng.choice(legal)
    r = rng.random()
    if r < 0.55:
        return "pass"
    if r < 0.65 and "double" in legal:
        return "double"
    if r < 0.7 and "redouble" in legal:
        return "redouble"
    bids = [a for a in legal if a.startswith("bid:")]
    return rng.choice(bids[:4]) if bids else "pass"


def check_views(game: ContractBridge, played: set[Card]) -> None:
    record = game.deal_record()
    if game.finished:
        played = {c for h in record.hands for c in h}  # everything is public now
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        visible = set(played)
        if seat is not None:
            visible |= set(record.hands[seat])
        if game.dummy_faced and game.dummy is not None and not game.finished:
            visible |= set(record.hands[game.dummy])
        # the score sheet holds no cards: checked once per deal in play_match
        leaked = set(cards_in(view, frozenset({"previous_deal", "score"}))) - visible
        assert not leaked, (seat, leaked)
        if view.previous_deal is not None:
            assert view.previous_deal.deal_no < view.deal_no or game.finished
        if seat is None:
            assert view.hand == ()


def play_match(seed: int, rubbers: int = 1, check_every: int = 9,
               checks: bool = True) -> ContractBridge:
    game = ContractBridge({"rubbers": rubbers}, seed)
    rng = random.Random(seed)
    if not checks:
        while not game.finished:
            (seat,) = game.to_act()
            game.apply(seat, choose(rng, game.legal(seat)))
        return game
    played: set[Card] = set()
    dealt = game.deal_record().hands
    steps = 0
    while not game.finished:
        to_act = game.to_act()
        assert len(to_act) == 1
        (seat,) = to_act
        if game.contract is not None:
            assert game.dummy not in to_act
            assert game.legal(game.dummy if game.dummy is not None else -1) == []
        for other in range(4):
            if other != seat:
                assert game.legal(other) == []
        legal = game.legal(seat)
        assert legal and len(set(legal)) == len(legal)
        deal_no = game.deal_no
        action = choose(rng, legal)
        events = game.apply(seat, action)
        if action.startswith("play:"):
            c = Card.parse(action[5:])
            assert c not in played
            played.add(c)
        if game.deal_no != deal_no or game.finished:
            ends = [e for e in events if e.kind == "deal_end"]
            assert len(ends) == 1 and ends[0].deal_no == deal_no
            assert ends[0].hands == tuple(tuple(c.text for c in h) for h in dealt)
            thrown = any(e.kind == "thrown_in" for e in events)
            assert played == (set() if thrown else {c for h in dealt for c in h})
            played = set()
            dealt = game.deal_record().hands
            assert not list(cards_in(game.scores()))
        steps += 1
        if steps % check_every == 0:
            check_views(game, played)
    return game


# Whole rubbers with every check at each step: the suite's costliest property test, so
# it runs two fifths of the profile's examples (10 of CI's 25; 120 of "thorough"'s 300).
@settings(max_examples=max(1, settings.default.max_examples * 2 // 5))
@given(st.integers(min_value=0, max_value=2**32))
def test_random_rubbers_play_to_the_end_without_errors(seed: int) -> None:
    game = play_match(seed)
    sheet = game.scores()
    result = game.result()
    assert result is not None
    assert sheet.totals == result.totals
    # every point on the sheet appears in exactly one deal line
    assert tuple(sum(line.points[i] for line in sheet.lines) for i in (0, 1)) == sheet.totals
    assert len(sheet.lines) == game.deal_no
    rubber = sheet.detail.rubbers[0]
    assert rubber.winner is not None and rubber.games_won[rubber.winner] == 2
    assert sheet.totals == rubber.totals
    winner_bonus = [e for e in rubber.above[rubber.winner] if e.label == "rubber"]
    assert [e.points for e in winner_bonus] == [
        700 if rubber.games_won[1 - rubber.winner] == 0 else 500]


@given(st.integers(min_value=0, max_value=2**32), st.floats(0.0, 1.0),
       st.sampled_from([1, 2]))
def test_replaying_history_rebuilds_the_same_state(seed: int, cut: float,
                                                   rubbers: int) -> None:
    game = play_match(seed, rubbers, checks=False)
    assert len(game.scores().detail.rubbers) == rubbers
    again = replay(create("bridge", {"rubbers": rubbers}, seed), game.history)
    assert again.scores() == game.scores()
    assert again.result() == game.result()
    # and part way through, views and records agree
    prefix = game.history[:int(len(game.history) * cut)]
    first = replay(create("bridge", {"rubbers": rubbers}, seed), prefix)
    second = replay(create("bridge", {"rubbers": rubbers}, seed), prefix)
    assert first.deal_record() == second.deal_record()
    for seat in (None, 0, 1, 2, 3):
        assert first.view(seat) == second.view(seat)
        assert first.legal(seat or 0) == second.legal(seat or 0)


@given(st.integers(min_value=0, max_value=2**32))
def test_stopping_at_any_point_finishes_with_consistent_totals(seed: int) -> None:
    rng = random.Random(seed)
    game = ContractBridge({"rubbers": 2}, seed)
    for _ in range(rng.randrange(400)):
        if game.finished:
            break
        (seat,) = game.to_act()
        game.apply(seat, choose(rng, game.legal(seat)))
    game.stop()
    assert game.finished and game.to_act() == frozenset()
    sheet = game.scores()
    assert tuple(sum(line.points[i] for line in sheet.lines) for i in (0, 1)) == sheet.totals
    result = game.result()
    assert result is not None and result.totals == sheet.totals
