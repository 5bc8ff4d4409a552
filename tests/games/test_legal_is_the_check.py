"""One check per action: `apply` accepts an action exactly when it is in `legal(seat)`
(perhaps spelt another way: `play:as`, ` play:AS`, `x`), and refuses anything else with a
reason a player can read, changing nothing.

Random matches of every game; at each step, actions drawn from every game's vocabulary
(cards under every verb, calls, bids, odd spellings) are tried by every seat, then a legal
one (a computer player's or a random one) is played.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import make_player, player_kinds
from bot.games import GAMES, Game, IllegalAction, create
from bot.games.bridge_auction import CALL_BY_TEXT
from bot.games.cards import FULL_DECK

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
STEPS = 120
TRIES_PER_SEAT = 6
VOCABULARY: tuple[str, ...] = (
    *(f"{verb}:{c.text}" for verb in ("play", "bid", "crib", "up", "down") for c in FULL_DECK),
    *CALL_BY_TEXT, "bid:nil", "bid:double_nil", *(f"bid:{n}" for n in range(14)),
    "look", "dummy:revealed", "dummy:hidden", "exchange", "keep",
    "", "play:ZZ", "play:as", " play:AS", "play:10h", "x", "XX", "P", "bid:3nt", "bid:",
    "crib:", "up", "exchange:QS")


def state(game: Game) -> tuple[object, ...]:
    seats = range(game.SEATS)
    return (list(game.history), game.finished, sorted(game.to_act()),
            [game.legal(s) for s in seats], [repr(game.view(s)) for s in (*seats, None)],
            repr(game.scores()), repr(game.result()))


def try_action(game: Game, seat: int, action: str) -> None:
    usual = game._spelling(action.strip())
    legal = not game.finished and usual in game.legal(seat)
    target = copy.deepcopy(game) if legal else game
    before = (len(game.history), game.to_act(), game.legal(seat))
    try:
        target.apply(seat, action)
    except IllegalAction as refusal:
        assert not legal, (game.NAME, seat, action, str(refusal))
        assert str(refusal).strip(), (game.NAME, seat, action)
        assert (len(game.history), game.to_act(), game.legal(seat)) == before, (seat, action)
        return
    assert legal, (game.NAME, seat, action, "accepted though not in legal")
    assert target.history[-1] == (seat, action.strip())


def check_game(name: str, seed: int) -> None:
    game = create(name, seed=seed)
    rng = random.Random(seed)
    # The rule-based level (the last listed) moves the match on quickly: legality is checked
    # here, not the look-ahead players' search.
    players = [make_player(name, seed + s, player_kinds(name)[-1]) for s in range(game.SEATS)]
    for _ in range(STEPS):
        if game.finished:
            break
        whole = state(game)
        for seat in range(game.SEATS):
            for action in rng.sample(VOCABULARY, TRIES_PER_SEAT):
                try_action(game, seat, action)
            for action in game.legal(seat)[:2]:
                try_action(game, seat, action)
        assert state(game) == whole, name  # refusals changed nothing
        seat = rng.choice(sorted(game.to_act()))
        legal = game.legal(seat)
        action = (rng.choice(legal) if rng.random() < 0.5
                  else players[seat].choose(game.view(seat), legal))
        game.apply(seat, action)
    for seat in range(game.SEATS):  # a finished match, or the last state reached
        try_action(game, seat, rng.choice(VOCABULARY))


@settings(max_examples=3, deadline=None)
@given(SEEDS)
def test_an_action_is_accepted_exactly_when_it_is_legal(seed: int) -> None:
    for name in GAMES:
        check_game(name, seed)


def test_refusals_after_the_match_is_over() -> None:
    game = create("tennis", seed=3)
    while not game.finished:
        seat = min(game.to_act())
        game.apply(seat, game.legal(seat)[0])
    for seat in range(game.SEATS):
        try_action(game, seat, "play:AS")
