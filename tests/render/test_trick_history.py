"""The private Tricks view: every complete trick of the deal so far, from its leader, the
winning card in bold; the same tricks the engine reported as they were won."""

from __future__ import annotations

import random

import pytest

from bot.games import Game, create
from bot.games.cards import Card
from bot.games.events import Acted, TrickWon
from bot.render import messages
from bot.render.emojis import plain_cards
from bot.render.games import text_for
from bot.render.seating import Seating

LETTERS = {"bridge": "NESW", "single_dummy": "SWNE"}  # by seat / by hand index
WINNER_KEY = {"bridge": "winner", "single_dummy": "winner_hand"}


def _seating(game: Game) -> Seating:
    n = game.SEATS
    return Seating(seat_names=tuple(game.SEAT_NAMES), names=("Ann", "Bob", "Cy", "Di")[:n],
                   user_ids=tuple(1000 + s for s in range(n)), bots=(False,) * n)


def _played_tricks(name: str, seed: int, tricks: int) -> tuple[Game, list[TrickWon]]:
    """Random legal play into a deal until `tricks` tricks and one more card are down;
    the engine's trick events of that deal."""
    game = create(name, options={}, seed=seed)
    rng = random.Random(seed)
    seen: list[TrickWon] = []
    for _ in range(5000):
        deal = game.deal_no
        seat = min(game.to_act())
        events = game.apply(seat, rng.choice(game.legal(seat)))
        if game.deal_no != deal:
            seen = []
            continue
        seen += [e for e in events if isinstance(e, TrickWon)]
        if len(seen) == tricks and any(isinstance(e, Acted) for e in events) \
                and not any(isinstance(e, TrickWon) for e in events):
            return game, seen
    raise AssertionError("no such moment")


@pytest.mark.parametrize("name", ["bridge", "single_dummy"])
@pytest.mark.parametrize("seed", [1, 2])
def test_tricks_lists_every_complete_trick_as_the_engine_won_it(name, seed):
    game, tricks = _played_tricks(name, seed, 5)
    with plain_cards():
        text = text_for(name).trick_history_text(game.view(None), _seating(game))
    lines = text.splitlines()
    assert len(lines) == 5
    letters = LETTERS[name]
    for number, (line, trick) in enumerate(zip(lines, tricks, strict=True), start=1):
        cells = line.split(". ", 1)[1].split(" · ")
        expected = [(letters[who], Card.parse(card).label) for who, card in trick.cards]
        assert [(c.split(" ", 1)[0], c.split(" ", 1)[1].strip("*")) for c in cells] == expected
        bold = [c.split(" ", 1)[0] for c in cells if c.endswith("**")]
        assert bold == [letters[getattr(trick, WINNER_KEY[name])]]
        assert line.startswith(f"{number}. ")


def test_tricks_is_none_before_a_trick_is_complete_and_the_button_is_disabled():
    game = create("bridge", options={}, seed=1)
    seating = _seating(game)
    assert text_for("bridge").trick_history_text(game.view(None), seating) is None
    table = messages.public_table(1, "bridge", game.TITLE, game.view(None), seating, (), ())
    tricks = [b for b in table.buttons if b.label == "Tricks"]
    assert len(tricks) == 1 and tricks[0].disabled
    answer = messages.trick_history(1, "bridge", game.TITLE, game.view(None), seating)
    assert "No trick is complete yet." in answer.content


def test_the_hand_offers_last_trick_and_tricks_during_the_play():
    game, _ = _played_tricks("bridge", 3, 2)
    seating = _seating(game)
    for seat in range(4):
        legal = game.legal(seat)
        hand = messages.hand(1, "bridge", game.TITLE, seat, game.view(seat),
                             [str(a) for a in legal], 0, seating)
        labels = {b.label: b for b in hand.buttons}
        assert "Last trick" in labels and "Tricks" in labels
        assert not labels["Tricks"].disabled
        assert labels["Tricks"].custom_id == "tt:tricks:1"


def test_games_without_a_trick_list_have_no_tricks_button():
    game = create("tennis", options={}, seed=1)
    table = messages.public_table(1, "tennis", game.TITLE, game.view(None), _seating(game),
                                  (), ())
    assert "Tricks" not in {b.label for b in table.buttons}
