"""Bid Fair's search representation agrees with the engine on random positions, and the
opponent's holdings a seat lists honour what it knows (the truth is always among them)."""

from __future__ import annotations

import random

from bot.ai import RandomPlayer
from bot.ai.bidfair.knowledge import (
    holdings,
    mask_of_indices,
    read_knowledge,
    sample_holdings,
    seats_of_plays,
)
from bot.ai.bidfair.search import PACK, POINTS, BidFairPosition, DealStakes, trick_rules
from bot.ai.core.trick_masks import SUIT_BITS, SUIT_OF, bits, mask_of
from bot.games import create
from bot.games.bidfair import BidFair
from bot.games.bidfair_rank import BIDFAIR_RANKS, points_of
from bot.games.cards import Suit


def engine_position(g: BidFair) -> BidFairPosition:
    """The engine's true layout now, as a search position."""
    assert g.trump is not None
    turn = g.turn()
    assert turn is not None
    led = g.trick[0][1].index if g.trick else -1
    return BidFairPosition([mask_of(g.hands[0]), mask_of(g.hands[1])], led, turn,
                           list(g.captured), trick_rules(g.high, g.trump))


def random_matches(count: int, seed: int = 0):
    """Yield (game, seat) at every decision of `count` random matches (the caller acts)."""
    for n in range(count):
        g = create("bidfair", {"target": 200}, seed=seed + n)
        assert isinstance(g, BidFair)
        while not g.finished:
            yield g, min(g.to_act())


def test_positions_play_as_the_engine_plays() -> None:
    rng = random.Random(3)
    checked = deals = 0
    for g, seat in random_matches(12):
        if g.phase != "play":
            g.apply(seat, rng.choice(g.legal(seat)))
            continue
        pos = engine_position(g)
        assert pos.turn == seat
        legal = g.legal(seat)
        assert bits(pos.legal()) == sorted(
            c.index for c in (g.hands[seat]) if f"play:{c.text}" in legal)
        action = rng.choice(legal)
        card = next(c for c in g.hands[seat] if f"play:{c.text}" == action)
        winner = pos.play(card.index)
        tricks = len(g.tricks)
        deal_no, totals = g.deal_no, list(g.totals)
        stakes = DealStakes(seat, g.holder, g.value,
                            all(p is not None and p.face_up for p in g.placed),
                            tuple(p is not None and p.face_up and p.card is not None
                                  and p.card.suit == g.trump for p in g.placed),  # type: ignore[arg-type]
                            (0, 0), 10_000)
        g.apply(seat, action)
        checked += 1
        if winner is None:
            assert len(g.tricks) == tricks and pos.turn == 1 - seat
            continue
        if g.deal_no == deal_no and not g.finished:
            assert g.tricks[-1].winner == winner and pos.turn == winner
            assert pos.captured == g.captured
        else:  # the deal ended: the search scores it as the engine did
            deals += 1
            points = [g.totals[s] - totals[s] for s in (0, 1)]
            assert stakes.value_of(pos.captured) == points[seat] - points[1 - seat]
    assert checked > 300 and deals >= 12


def test_play_outs_play_every_card_once_and_capture_all_points() -> None:
    rng = random.Random(8)
    for _ in range(200):
        cards = rng.sample([i for i in range(52) if POINTS[i]], 14)
        hands = [mask_of_indices(cards[:7]), mask_of_indices(cards[7:])]
        rules = trick_rules(rng.choice([None, *BIDFAIR_RANKS]), rng.choice(list(Suit)))
        pos = BidFairPosition(hands[:], -1, rng.randrange(2), [0, 0], rules)
        pos.play_out()
        assert pos.hands == [0, 0]
        assert sum(pos.captured) == sum(POINTS[c] for c in cards)


def test_seats_of_plays_and_holdings_agree_with_the_truth() -> None:
    rng = random.Random(11)
    checked = 0
    players = [RandomPlayer(1), RandomPlayer(2)]
    for g, seat in random_matches(10, seed=40):
        if g.phase in ("bidding", "exchange", "play"):
            view = g.view(seat)
            opp = 1 - seat
            plays = seats_of_plays(view)
            truth = [(s, c.index) for t in g.tricks for s, c in t.cards]
            truth += [(s, c.index) for s, c in g.trick]
            assert plays == truth
            know = read_knowledge(view)
            assert know.theirs == mask_of(g.dealt[opp])
            options, weights = holdings(know)
            true_hand = mask_of(g.hands[opp])
            assert any(h.hand == true_hand and h.crib == mask_of(g.cribs[opp])
                       for h in options)
            assert all(w > 0 for w in weights)
            seen = mask_of(view.hand) | mask_of(view.played)
            for h in sample_holdings(know, 20, rng):
                assert h.hand.bit_count() == len(g.hands[opp])
                assert not h.hand & seen
                for i in range(0, len(plays) - 1, 2):
                    (_, led), (who, second) = plays[i], plays[i + 1]
                    if who == opp and SUIT_OF[second] != SUIT_OF[led]:
                        assert not h.hand & SUIT_BITS[SUIT_OF[led]]
            checked += 1
        g.apply(seat, players[seat].choose(g.view(seat), g.legal(seat)))
    assert checked > 200


def test_the_points_table_is_the_engines() -> None:
    assert sum(POINTS) == points_of(PACK)
    assert all(POINTS[c.index] == points_of([c]) for c in PACK)
