"""Bid Fair hidden information, and property tests over whole random matches."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given
from hypothesis import strategies as st

from bot.games import create
from bot.games.base import replay
from bot.games.bidfair import BidFair
from bot.games.bidfair_rank import bidfair_pack
from bot.games.cards import Card, card, cards
from tests.games.bidfair_helpers import (
    A_CRIB_NORTH,
    A_CRIB_SOUTH,
    NORTH,
    SOUTH,
    deal_a,
    play_out,
    run,
)
from tests.games.helpers import payload
from tests.view_cards import cards_in

PACK = frozenset(bidfair_pack())


def may_see(g: BidFair, seat: int | None) -> set[Card]:
    """Every card the rules let `seat` see in the deal in progress."""
    seen: set[Card] = set(g.played)
    seen |= {p.card for p in g.placed if p is not None and p.face_up and p.card is not None}
    if g.cut is not None:
        seen.add(g.cut)
    if seat is not None:
        seen |= set(g.hands[seat]) | set(g.cribs[seat])
        own = g.placed[seat]
        if own is not None and own.card is not None:
            seen.add(own.card)
        if g.exchanged and g.holder == seat:
            seen |= set(g.remaining)  # its old hand
    return seen


def assert_no_leak(g: BidFair) -> None:
    for seat in (None, NORTH, SOUTH):
        view = g.view(seat)
        # The previous deal is over and public; everything else must be visible to `seat`.
        current = cards_in(dataclasses.replace(view, previous_deal=None))
        leaked = set(current) - may_see(g, seat)
        assert not leaked, f"seat {seat} sees {leaked} in phase {view.phase}"


def assert_cards_conserved(g: BidFair) -> None:
    everywhere: list[Card] = list(g.hands[0]) + list(g.hands[1]) + list(g.played)
    everywhere += [p.card for p in g.placed if p is not None and p.card is not None]
    if g.cut is None:
        everywhere += g.cribs[0] + g.cribs[1]
    else:
        everywhere += [g.cut, *g.remaining]
    assert len(everywhere) == 24 and set(everywhere) == PACK


def test_face_down_bid_card_is_seen_only_by_its_owner() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "down:AD")])
    assert g.view(SOUTH).bids[SOUTH] is not None
    assert g.view(SOUTH).bids[SOUTH].card == card("AD")  # type: ignore[union-attr]
    for seat in (NORTH, None):
        placed = g.view(seat).bids[SOUTH]
        assert placed is not None and placed.face_up is False and placed.card is None


def test_face_up_bid_card_is_seen_by_everyone() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "up:QD")])
    for seat in (NORTH, SOUTH, None):
        placed = g.view(seat).bids[SOUTH]
        assert placed is not None and placed.face_up and placed.card == card("QD")


def test_crib_cards_are_seen_only_by_who_put_them_in() -> None:
    g = deal_a(dealer=NORTH)
    assert set(g.view(NORTH).my_crib) == set(cards(A_CRIB_NORTH))
    assert set(g.view(SOUTH).my_crib) == set(cards(A_CRIB_SOUTH))
    assert g.view(None).my_crib == () and g.view(None).hand == ()
    assert_no_leak(g)


def test_after_an_exchange_the_holder_sees_the_crib_and_the_opponent_does_not() -> None:
    g = deal_a(dealer=NORTH, cut="9D")
    run(g, [(SOUTH, "up:QD"), (NORTH, "up:KS"), (SOUTH, "exchange")])
    crib = set(cards(A_CRIB_NORTH) + cards(A_CRIB_SOUTH)) - {card("9D")}
    assert set(g.view(SOUTH).hand) == crib
    assert not set(cards_in(g.view(NORTH))) & (set(g.hands[SOUTH]) - set(g.cribs[NORTH]))
    assert_no_leak(g)


def test_previous_deal_shows_everything_after_the_deal() -> None:
    g = deal_a(dealer=NORTH, cut="9D")
    run(g, [(SOUTH, "down:AD"), (NORTH, "up:KS"), (SOUTH, "exchange")])
    play_out(g)
    summary = g.view(None).previous_deal
    assert summary is not None and summary.deal_no == 1 and g.view(None).deal_no == 2
    assert summary.bids[SOUTH] is not None and summary.bids[SOUTH].card == card("AD")
    assert set(summary.hands[0] + summary.hands[1]) == PACK
    assert summary.exchanged and summary.cut == card("9D") and len(summary.tricks) == 7
    assert summary.line == g.lines[0]


def test_action_events_do_not_name_hidden_cards() -> None:
    g = deal_a(dealer=NORTH)
    events = g.apply(SOUTH, "down:AD")
    assert "A♦" not in events[0].text and "AD" not in events[0].text
    assert payload(events[0]) == {"action": "down"}
    g2 = BidFair(seed=1)
    crib_event = g2.apply(NORTH, g2.legal(NORTH)[0])[0]
    assert payload(crib_event) == {"action": "crib"}


def _random_match(seed: int, chooser_seed: int, each_step: bool,
                  snapshots: list[object] | None = None) -> tuple[BidFair, list[tuple[int, str]]]:
    g = create("bidfair", seed=seed)
    assert isinstance(g, BidFair)
    rng = random.Random(chooser_seed)
    while not g.finished:
        seat = rng.choice(sorted(g.to_act()))
        legal = g.legal(seat)
        assert (legal and g.legal(1 - seat) == []) or (1 - seat) in g.to_act()
        g.apply(seat, rng.choice(legal))
        if snapshots is not None:
            snapshots.append((g.view(NORTH), g.view(SOUTH), g.view(None)))
        if each_step and not g.finished:
            assert_cards_conserved(g)
            assert_no_leak(g)
    return g, list(g.history)


@given(st.integers(0, 2**31), st.integers(0, 2**31))
def test_whole_random_matches_never_raise_conserve_cards_and_leak_nothing(
        seed: int, chooser: int) -> None:
    g, _ = _random_match(seed, chooser, each_step=True)
    result = g.result()
    assert result is not None and max(result.totals) >= 800
    assert result.totals[0] != result.totals[1]
    assert sum(line.points[0] for line in g.lines) == result.totals[0]
    for line in g.lines:
        assert min(line.points) >= 0


@given(st.integers(0, 2**31), st.integers(0, 2**31))
def test_replaying_the_history_rebuilds_the_state(seed: int, chooser: int) -> None:
    snapshots: list[object] = []
    g, history = _random_match(seed, chooser, each_step=False, snapshots=snapshots)
    again = replay(create("bidfair", seed=seed), history)
    assert again.history == g.history
    assert again.scores() == g.scores() and again.result() == g.result()
    # Step by step: after every action the replayed match shows exactly what the original did.
    step = create("bidfair", seed=seed)
    for (seat, action), seen in zip(history, snapshots, strict=True):
        step.apply(seat, action)
        assert (step.view(NORTH), step.view(SOUTH), step.view(None)) == seen
