"""Events are typed and immutable: one frozen class per kind, every value inside read-only,
so an engine may hand one event object to every table; the deal results keep the stored
form of the hands they always had."""

from __future__ import annotations

import dataclasses
import enum
import inspect
import random
from types import MappingProxyType

import pytest

from bot.games import GAMES, Game, create, events
from bot.games.events import DealEnded, Event
from bot.games.single_dummy_view import HAND_NAMES
from bot.games.tennis_rules import KIND_NAMES, kind_of, seat_of

EVENT_CLASSES = [cls for _, cls in inspect.getmembers(events, inspect.isclass)
                 if issubclass(cls, Event) and cls.__module__ == events.__name__]


def _read_only(value: object) -> bool:
    """Whether nothing reachable from `value` can be changed."""
    if value is None or isinstance(value, (str, int, float, bool, enum.Enum)):
        return True
    if isinstance(value, tuple):
        return all(_read_only(item) for item in value)
    if isinstance(value, MappingProxyType):
        return all(_read_only(k) and _read_only(v) for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = type(value).__dataclass_params__  # type: ignore[attr-defined]
        return params.frozen and all(_read_only(getattr(value, f.name))
                                     for f in dataclasses.fields(value))
    return False


def _random_events(name: str, seed: int, actions: int) -> list[Event]:
    game: Game = create(name, seed=seed)
    rng = random.Random(seed)
    seen: list[Event] = []
    for _ in range(actions):
        if game.finished:
            break
        seat = rng.choice(sorted(game.to_act()))
        seen += game.apply(seat, rng.choice(game.legal(seat)))
    return seen


def test_each_kind_of_event_is_one_frozen_class_with_its_own_name():
    assert len(EVENT_CLASSES) > 20
    for cls in EVENT_CLASSES:
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
        assert "__slots__" in cls.__dict__, cls
    # A subclass that only adds fields (a game's richer deal end) keeps its parent's name.
    named = [cls.__dict__["kind"] for cls in EVENT_CLASSES if "kind" in cls.__dict__]
    assert len(named) == len(set(named))


@pytest.mark.parametrize("name", GAMES)
def test_every_event_of_a_match_is_typed_and_read_only_through_and_through(name):
    seen = _random_events(name, seed=5, actions=400)
    assert any(isinstance(e, DealEnded) for e in seen)
    for event in seen:
        assert type(event) in EVENT_CLASSES
        assert _read_only(event), event
        with pytest.raises(dataclasses.FrozenInstanceError):
            event.text = "changed"  # type: ignore[misc]


def _first_deal_end(name: str) -> DealEnded:
    return next(e for e in _random_events(name, seed=3, actions=2000)
                if isinstance(e, DealEnded))


@pytest.mark.parametrize("name", ["bridge", "spades", "bidfair"])
def test_stored_hands_are_keyed_by_seat_as_before(name):
    end = _first_deal_end(name)
    assert end.stored_hands() == {seat: list(cards) for seat, cards in enumerate(end.hands)}


def test_single_dummy_stores_its_hands_by_hand_name():
    end = _first_deal_end("single_dummy")
    assert list(end.stored_hands()) == list(HAND_NAMES)
    assert list(end.stored_hands().values()) == [list(h) for h in end.hands]


def test_tennis_stores_its_hands_by_seat_and_hand_kind():
    end = _first_deal_end("tennis")
    names = create("tennis").SEAT_NAMES
    assert list(end.stored_hands()) == [f"{names[seat_of(h)]} {KIND_NAMES[kind_of(h)]}"
                                        for h in range(4)]
