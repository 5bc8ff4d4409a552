"""The search representation (bitmask hands) agrees with the engines on random positions,
and sampled layouts honour what a seat knows."""

from __future__ import annotations

import random

from bot.ai.core.trick_masks import (
    SUIT_BITS,
    bits,
    cards_of,
    equivalent_classes,
    follow_mask,
    mask_of,
    winning_cards,
)
from bot.ai.spades.search import (
    SPADE_BITS,
    Position,
    Stakes,
    read_knowledge,
    sample_hands,
)
from bot.ai.tennis.search import TennisPosition
from bot.games import create
from bot.games.cards import FULL_DECK, Card, Suit
from bot.games.spades import Spades
from bot.games.spades_scoring import score_deal
from bot.games.tennis_rules import bid_value, hand_id
from bot.games.tricks import legal_follow, trick_winner
from tests.games.spades_helpers import bid_round, stacked


def spades_position(game: Spades) -> Position:
    """The engine's true layout now, as a search Position."""
    view = game.view(None)
    played = {c for t in view.tricks for _, c in t.cards} | {c for _, c in view.trick}
    hands = [mask_of(c for c in hand if c not in played) for hand in game.deal_record().hands]
    assert view.turn is not None
    return Position(hands, [(s, c.index) for s, c in view.trick], view.turn,
                    view.spades_broken, list(view.tricks_won),
                    tuple(b if b is not None else 0 for b in view.bids))


def bid_randomly(game: Spades, rng: random.Random) -> None:
    while game.view(None).phase == "bidding":
        seat = min(game.to_act())
        legal = [a for a in game.legal(seat) if a != "bid:double_nil"]
        game.apply(seat, "look" if "look" in legal else rng.choice(legal))


def test_mask_helpers_agree_with_the_card_helpers():
    rng = random.Random(5)
    for _ in range(300):
        hand = rng.sample(FULL_DECK, rng.randint(1, 13))
        led = rng.choice([-1, 0, 1, 2, 3])
        follow = follow_mask(mask_of(hand), led)
        assert set(cards_of(follow)) == set(legal_follow(hand, None if led < 0 else Suit(led)))
        trump = rng.choice([-1, 0, 1, 2, 3])
        trump_suit = None if trump < 0 else Suit(trump)
        trick = list(enumerate(rng.sample([c for c in FULL_DECK if c not in hand], 2)))
        best = trick[trick_winner(trick, trump_suit)][1]
        won = winning_cards(mask_of(hand), best.index, trump)
        for c in hand:
            engine = trick_winner([*trick, (2, c)], trump_suit) == 2
            assert engine == bool(won >> c.index & 1)


def test_spades_positions_play_as_the_engine_plays():
    rng = random.Random(11)
    positions = 0
    for seed in range(12):
        game = create("spades", {}, seed)
        assert isinstance(game, Spades)
        for _ in range(2):  # deals (random bids rarely reach a target)
            bid_randomly(game, rng)
            pos = spades_position(game)
            deal_no = game.deal_no
            while game.deal_no == deal_no and not game.finished:
                (seat,) = game.to_act()
                assert pos.turn == seat
                engine_legal = {Card.parse(a[5:]).index for a in game.legal(seat)}
                assert set(bits(pos.legal())) == engine_legal
                card = rng.choice(sorted(engine_legal))
                events = game.apply(seat, "play:" + FULL_DECK[card].text)
                winner = pos.play(card)
                positions += 1
                tricks = [e for e in events if e.kind == "trick"]
                if tricks:
                    assert winner == tricks[0].winner
                else:
                    assert winner is None
                ends = [e for e in events if e.kind == "deal_end"]
                if ends:
                    assert tuple(pos.won) == ends[0].tricks
                elif game.deal_no == deal_no:
                    assert spades_position(game) == pos
    assert positions > 1000


def test_spades_play_outs_finish_with_every_card_played_once():
    rng = random.Random(3)
    for seed in range(20):
        game = create("spades", {}, seed)
        assert isinstance(game, Spades)
        bid_randomly(game, rng)
        for _ in range(rng.randrange(30)):
            (seat,) = game.to_act()
            game.apply(seat, rng.choice(game.legal(seat)))
        pos = spades_position(game)
        before = sum(pos.won)
        while pos.hands[pos.turn]:
            card = pos.quick_card()
            assert pos.legal() >> card & 1
            pos.play(card)
        assert sum(pos.won) == 13
        assert before <= 13 and not any(pos.hands)


def test_stakes_value_is_the_engines_score_difference():
    stakes = Stakes(side=0, totals=(0, 0), target=500, bags_penalty=False)
    bids, won = (3, 4, 0, 5), (5, 4, 1, 3)
    score = score_deal(bids, won)
    assert stakes.value(bids, won) == score.points[0] - score.points[1]
    # Reaching the target first is worth more than its points.
    near = Stakes(side=1, totals=(100, 450), target=500, bags_penalty=False)
    won = (3, 6, 0, 4)  # East-West make 9 of 10 and pass 500
    score = score_deal(bids, won)
    assert near.value(bids, won) == score.points[1] - score.points[0] + near.win_bonus
    # With bags costing, each bag counts against the side that took it.
    bagged = Stakes(side=0, totals=(0, 0), target=500, bags_penalty=True)
    assert bagged.value((2, 4, 2, 5), (6, 4, 0, 3)) < stakes.value((2, 4, 2, 5), (6, 4, 0, 3))


def test_equivalent_cards_are_runs_with_nothing_outside_between():
    hand = mask_of(Card.parse(t) for t in ("KH", "QH", "TH", "2C"))
    unseen = mask_of([Card.parse("JH")])
    # K and Q touch; J is out, so T stands alone; the two of clubs alone.
    classes = equivalent_classes(hand, unseen)
    assert sorted(FULL_DECK[c].text for c in classes) == ["2C", "QH", "TH"]
    # With the jack played (not a barrier), T, Q and K are one run.
    assert sorted(FULL_DECK[c].text for c in equivalent_classes(hand, 0)) == ["2C", "TH"]


def test_sampled_spades_layouts_honour_played_cards_voids_and_sizes():
    rng = random.Random(8)
    checked = 0
    for seed in range(25):
        game = create("spades", {}, seed)
        assert isinstance(game, Spades)
        bid_randomly(game, rng)
        for _ in range(rng.randrange(8, 45)):
            (seat,) = game.to_act()
            game.apply(seat, rng.choice(game.legal(seat)))
        (me,) = game.to_act()
        view = game.view(me)
        know = read_knowledge(view)
        played = {c.index for t in view.tricks for _, c in t.cards} | {
            c.index for _, c in view.trick}
        voids: dict[int, set[int]] = {s: set() for s in range(4)}
        for cards in [t.cards for t in view.tricks] + [view.trick]:
            if not cards:
                continue
            led = cards[0][1].suit
            for s, c in cards:
                if c.suit != led:
                    voids[s].add(led)
        for _ in range(5):
            hands = sample_hands(know, rng)
            assert hands[me] == mask_of(view.hand)
            all_cards = [i for h in hands for i in bits(h)]
            assert len(all_cards) == len(set(all_cards)) == 52 - len(played)
            assert not set(all_cards) & played
            for s in range(4):
                assert hands[s].bit_count() == view.hand_sizes[s]
                for suit in voids[s]:
                    assert not hands[s] & SUIT_BITS[suit]
            checked += 1
    assert checked == 125


def test_a_spade_led_before_spades_were_broken_shows_the_leader_held_only_spades():
    # West holds only spades (each seat one whole suit) and leads one, unbroken.
    hands = "N:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432..."
    game = stacked(hands, dealer=2)  # West leads
    bid_round(game, {3: "13", 0: "1", 1: "1", 2: "1"})
    game.apply(3, "play:AS")
    view = game.view(0)
    know = read_knowledge(view)
    assert know.voids[3] & ~SPADE_BITS


def test_tennis_positions_play_as_the_engine_plays():
    rng = random.Random(4)
    kinds = {"Backhand": 0, "Forehand": 1}
    plays = 0
    for seed in range(6):
        game = create("tennis", {}, seed)
        for _ in range(3):  # games (deals) of the match
            while game.view(None).phase == "bidding":
                for seat in sorted(game.to_act()):
                    game.apply(seat, rng.choice(game.legal(seat)))
            view = game.view(None)
            bids = [view.backhand_bids[0], view.backhand_bids[1], view.forehand_bids[0],
                    view.forehand_bids[1]]
            hands = [mask_of(c for c in dealt if c not in bids) for dealt in game.deal_record()]
            assert view.turn is not None
            pos = TennisPosition(hands, [], hand_id(view.turn, kinds[view.to_play_hand]),
                                 -1 if view.trump is None else int(view.trump), [0, 0, 0, 0],
                                 tuple(bid_value(b) for b in bids if b is not None))
            for _ in range(48):
                (seat,) = game.to_act()
                assert pos.turn == hand_id(seat, kinds[game.view(seat).to_play_hand])
                engine_legal = {Card.parse(a[5:]).index for a in game.legal(seat)}
                assert set(bits(pos.legal())) == engine_legal
                card = rng.choice(sorted(engine_legal))
                events = game.apply(seat, "play:" + FULL_DECK[card].text)
                winner = pos.play(card)
                plays += 1
                tricks = [e for e in events if e.kind == "trick"]
                if tricks:
                    assert winner == hand_id(tricks[0].winner, kinds[tricks[0].winner_hand])
                else:
                    assert winner is None
                ends = [e for e in events if e.kind == "deal_end"]
                if ends:
                    assert [pos.errors(0), pos.errors(1)] == list(ends[0].errors)
    assert plays == 6 * 3 * 48
