"""The engines' fast paths (Contract Bridge and Spades apply the usual card play, call,
look or bid without the general checks, for speed) give exactly what the general path
gives: the same events, the same refusals, the same state. Any game that adds one is
checked the same way.

Two copies of one match are driven side by side: one through the game's own `apply`, the
other through `Game.apply`, the contract's general path (checks, parse, `_apply`). Random
legal actions are mixed with refusals a person can cause (another seat's turn, a card not
held, a revoke, odd spellings).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import make_player
from bot.games import GAMES, Game, IllegalAction, create
from bot.games.cards import FULL_DECK
from tests.view_cards import cards_in

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
STEPS = 300
WHOLE_STATE_EVERY = 20  # views and score sheets are compared this often, and at the end
ODD = ["", "pass", "play:ZZ", "play:AS ", " play:AS", "play:as", "bid:1", "dummy:hidden"]


def outcome(game: Game, seat: int, action: str, general: bool) -> object:
    try:
        events = Game.apply(game, seat, action) if general else game.apply(seat, action)
    except IllegalAction:
        # Refused by both, and nothing changed (the states are compared). The wording may
        # differ: bridge tells dummy's owner why, where the contract says "not your turn".
        return "refused"
    return [(e.kind, e.text, e.seat, e.data) for e in events]


def brief(game: Game) -> tuple[object, ...]:
    return list(game.history), game.finished, sorted(game.to_act())


def state(game: Game) -> tuple[object, ...]:
    seats = range(game.SEATS)
    return (list(game.history), game.finished, sorted(game.to_act()),
            [game.legal(s) for s in seats], [repr(game.view(s)) for s in (*seats, None)],
            repr(game.scores()), repr(game.result()))


def tried_action(rng: random.Random, game: Game, players: list, seat: int) -> tuple[int, str]:
    roll = rng.random()
    if roll < 0.05:  # another seat, or something that is not a legal action
        return rng.randrange(game.SEATS), rng.choice([*ODD, f"play:{rng.choice(FULL_DECK).text}"])
    legal = game.legal(seat)
    if roll < 0.12:  # the action due, sent by a seat that is not to make it
        others = [s for s in range(game.SEATS) if s != seat]
        return rng.choice(others), rng.choice(legal)
    if roll < 0.3:  # a card in sight that may not be played: a revoke, dummy's, the
        # trick's, or any card of a seat that is not to act (or no longer may)
        who = rng.randrange(game.SEATS) if rng.random() < 0.5 else seat
        allowed = game.legal(who)
        wrong = [f"{verb}:{c.text}" for c in cards_in(game.view(who))
                 for verb in ("play", "crib") if f"{verb}:{c.text}" not in allowed]
        return who, rng.choice(sorted(wrong) or ODD)
    if roll < 0.65:
        return seat, rng.choice(legal)
    return seat, players[seat].choose(game.view(seat), legal)


def check_game(name: str, seed: int) -> None:
    fast, general = create(name, seed=seed), create(name, seed=seed)
    rng = random.Random(seed)
    players = [make_player(name, seed + s) for s in range(fast.SEATS)]
    for step in range(STEPS):
        if fast.finished:
            break
        seat, action = tried_action(rng, fast, players, min(fast.to_act()))
        assert outcome(fast, seat, action, general=False) == \
            outcome(general, seat, action, general=True), (name, seat, action)
        assert brief(fast) == brief(general), (name, seat, action)
        if step % WHOLE_STATE_EVERY == 0:
            assert state(fast) == state(general), (name, step)
    assert state(fast) == state(general), name


@settings(max_examples=5, deadline=None)
@given(SEEDS)
def test_fast_paths_match_the_general_path_in_every_game(seed: int) -> None:
    for name in GAMES:
        check_game(name, seed)
