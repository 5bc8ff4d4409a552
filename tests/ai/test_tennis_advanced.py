"""AdvancedTennisPlayer: legal in whole matches, deterministic, within its budget, and
steering tricks to the hand that needs them."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import bot.ai.tennis.advanced as tennis_advanced
from bot.ai import Budget, make_player, player_kinds
from bot.ai.core.trick_masks import SUIT_BITS, mask_of
from bot.ai.tennis.advanced import KINDS, AdvancedTennisPlayer
from bot.ai.tennis.basic import TennisPlayer
from bot.games import create
from bot.games.cards import Card
from bot.games.tennis import Tennis
from bot.games.tennis_rules import hand_id
from tests.ai.helpers import play_checking_legal
from tests.games.tennis_helpers import ExampleGame, renamed, seed_with_first_dealer


def watched_example(player: AdvancedTennisPlayer, cards_played: int) -> ExampleGame:
    """The worked example up to `cards_played` cards, with `player` shown every view of
    A's seat on A's turns (as the table would ask it), its own choices ignored."""
    example = ExampleGame(Tennis(seed=seed_with_first_dealer(1)))
    game = example.game
    for kind in ("Backhand", "Forehand"):
        player.choose(game.view(example.a), game.legal(example.a))
        example.bid(kind)
    for _ in range(cards_played):
        if example.a in game.to_act():
            player.choose(game.view(example.a), game.legal(example.a))
        example.play_card()
    return example


def test_the_advanced_player_is_the_default_and_basic_stays_reachable():
    assert player_kinds("tennis")[:2] == ("tennis-advanced", "tennis-basic")
    assert make_player("tennis", 3).kind == "tennis-advanced"
    assert type(make_player("tennis", 3, kind="tennis-basic")) is TennisPlayer


def test_with_the_forehand_bid_made_a_winner_is_steered_to_the_backhand():
    # After seven tricks A's Forehand has its 7 (clubs trumps); A's Backhand (bid 3) holds
    # the ace and king of hearts. A low heart from the Forehand lets the Backhand win.
    player = AdvancedTennisPlayer(1, playouts=40)
    example = watched_example(player, 28)
    game = example.game
    assert game.to_act() == {example.a} and game.view(example.a).to_play_hand == "Forehand"
    assert game.view(example.a).forehand_tricks[example.a] == 7
    choice = player.choose(game.view(example.a), game.legal(example.a))
    assert choice in {"play:" + c.text for c in renamed("2H 3H 4H", example.suits)}


def test_same_seed_same_decision_and_a_spent_budget_falls_back():
    decisions = []
    for _ in range(2):
        player = AdvancedTennisPlayer(4, playouts=30)
        example = watched_example(player, 12)
        (seat,) = example.game.to_act()
        assert seat == example.a
        decisions.append(player.choose(example.game.view(seat), example.game.legal(seat)))
    assert decisions[0] == decisions[1]
    ticks = itertools.count(0.0, 10.0)
    player = AdvancedTennisPlayer(4, playouts=30)
    example = watched_example(player, 12)
    view, legal = example.game.view(example.a), example.game.legal(example.a)
    spent = Budget(1.0, clock=lambda: next(ticks))
    basic = TennisPlayer(4)
    basic._seen, basic._played, basic._deal_no = (dict(player._seen), set(player._played),
                                                  player._deal_no)
    assert player.choose(view, legal, spent) == basic.choose(view, legal)


def test_returns_a_legal_action_in_every_position_of_whole_matches():
    for seed in (1, 2):
        game = create("tennis", {}, seed)
        players = [AdvancedTennisPlayer(seed * 2 + s, playouts=8) for s in range(2)]
        decisions = play_checking_legal(game, players)
        assert decisions == 10 * (4 + 48)


def test_sampled_layouts_honour_the_cards_held_played_and_bid_and_the_voids_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every layout the player searches holds our two hands as they are now, and gives
    each opponent hand as many cards as it holds, none played, bid or ours, and none of a
    suit that hand has shown out of (checked against the engine's deal)."""
    searched: list[tuple[int, list[int]]] = []
    sample = tennis_advanced.sample_opponent

    def recording(*args: Any) -> list[int]:
        hands = sample(*args)
        searched.append((args[1], hands))
        return hands

    monkeypatch.setattr(tennis_advanced, "sample_opponent", recording)
    game = create("tennis", {}, 7)
    assert isinstance(game, Tennis)
    players = [AdvancedTennisPlayer(s, playouts=8) for s in range(2)]
    played, voids = [0, 0, 0, 0], [0, 0, 0, 0]  # per hand id, the truth
    deal_no, checked = 0, 0
    while game.deal_no <= 3:
        if game.deal_no != deal_no:
            deal_no, played, voids = game.deal_no, [0, 0, 0, 0], [0, 0, 0, 0]
        for seat in sorted(game.to_act()):
            view = game.view(seat)
            searched.clear()
            action = players[seat].choose(view, game.legal(seat))
            if view.phase == "play":
                public = game.view(None)
                bids = mask_of(b for b in (*public.backhand_bids, *public.forehand_bids)
                               if b is not None)
                held = [mask_of(hand) & ~bids & ~played[h]
                        for h, hand in enumerate(game.deal_record())]
                for me, hands in searched:
                    assert me == seat
                    for h in (seat, seat + 2):
                        assert hands[h] == held[h]
                    theirs = (1 - seat, 3 - seat)
                    assert hands[theirs[0]] | hands[theirs[1]] == held[theirs[0]] | held[theirs[1]]
                    for h in theirs:
                        assert hands[h].bit_count() == held[h].bit_count()
                        assert not hands[h] & voids[h]
                    checked += 1
                h = hand_id(seat, KINDS[view.to_play_hand])
                card = Card.parse(action[5:])
                if public.trick and card.suit != public.trick[0][1].suit:
                    voids[h] |= SUIT_BITS[public.trick[0][1].suit]
                played[h] |= 1 << card.index
            game.apply(seat, action)
    assert checked > 100
