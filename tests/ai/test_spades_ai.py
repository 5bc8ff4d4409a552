"""SpadesPlayer: sensible bids and plays, from its own view only, and it beats random play."""

from __future__ import annotations

from dataclasses import replace

from bot.ai import RandomPlayer, make_player
from bot.ai.spades.basic import SpadesPlayer
from bot.games import create
from bot.games.spades import Spades
from tests.games.spades_helpers import bid_round, stacked

# Partners: North-South, East-West. Hearts: North T98, East KQ2, South 765, West AJ43.
DEAL_A = "N:AKQJ.T98.T98.765 T98.KQ2.AKQ.AKQJ 765.765.765.T984 432.AJ43.J432.32"
# The same idea with West holding J43 of hearts and North the ace.
DEAL_C = "N:AKQJ.AT9.T98.765 T98.KQ2.AKQ.KQJ8 765.8765.765.T94 432.J43.J432.A32"


def ask(game: Spades, seat: int, seed: int = 0) -> str:
    action = SpadesPlayer(seed).choose(game.view(seat), game.legal(seat))
    assert action in game.legal(seat)
    return action


def test_registered_as_spades_basic():
    player = make_player("spades", 3, kind="spades-basic")
    assert isinstance(player, SpadesPlayer)
    assert player.kind == "spades-basic"


def test_looks_at_its_hand_first():
    game = stacked(DEAL_A, dealer=0)
    assert ask(game, 1) == "look"  # on turn, could bid double nil blind
    assert ask(game, 3) == "look"  # out of turn


def test_bids_from_high_cards_and_spade_length():
    game = stacked(DEAL_A, dealer=3)  # North bids first
    game.apply(0, "look")
    bid = ask(game, 0)
    assert bid in {"bid:3", "bid:4", "bid:5"}  # AKQJ of spades and nothing else
    game.apply(0, bid)
    game.apply(1, "look")
    assert int(ask(game, 1).split(":")[1]) >= 5  # AKQ of diamonds, AKQJ of clubs, KQ of hearts


def test_bids_nil_with_low_cards_and_no_high_spades():
    fresh = stacked(DEAL_A, dealer=1)  # South bids first
    fresh.apply(2, "look")
    assert ask(fresh, 2) == "bid:nil"  # 765.765.765.T984


def test_does_not_overtake_partner_already_winning():
    game = stacked(DEAL_A, dealer=0)  # East leads
    bid_round(game, {1: "4", 2: "2", 3: "3", 0: "3"})
    game.apply(1, "play:KH")
    game.apply(2, "play:5H")
    assert ask(game, 3) == "play:3H"  # not the ace over partner's king


def test_nil_bidder_plays_under():
    game = stacked(DEAL_A, dealer=0)
    bid_round(game, {1: "4", 2: "2", 3: "nil", 0: "3"})
    game.apply(1, "play:2H")
    game.apply(2, "play:7H")
    assert ask(game, 3) == "play:4H"  # the highest heart that stays under the seven


def test_covers_a_nil_partner():
    game = stacked(DEAL_C, dealer=1)  # South leads; West plays before nil East
    bid_round(game, {2: "3", 3: "3", 0: "4", 1: "nil"})
    game.apply(2, "play:5H")
    assert ask(game, 3) == "play:JH"  # win high so East can play under


def test_second_hand_plays_low_without_a_nil_partner():
    game = stacked(DEAL_C, dealer=1)
    bid_round(game, {2: "3", 3: "3", 0: "4", 1: "3"})
    game.apply(2, "play:5H")
    assert ask(game, 3) == "play:3H"


def test_decides_from_the_view_alone():
    game = stacked(DEAL_A, dealer=0)
    bid_round(game, {1: "4", 2: "2", 3: "3", 0: "3"})
    view, legal = game.view(1), game.legal(1)
    first = SpadesPlayer(1).choose(view, legal)
    assert all(SpadesPlayer(s).choose(view, legal) == first for s in range(5))


def play_match(seed: int, players: list) -> Spades:
    game = create("spades", {}, seed)
    assert isinstance(game, Spades)
    while not game.finished:
        assert game.deal_no <= 100
        for seat in sorted(game.to_act()):
            if not game.finished and seat in game.to_act():
                game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    return game


def test_beats_random_partners():
    wins = 0
    for seed in range(6):
        smart = seed % 2  # the side SpadesPlayer sits on
        players = [SpadesPlayer(seed * 4 + s) if s % 2 == smart else RandomPlayer(seed + s)
                   for s in range(4)]
        result = play_match(seed, players).result()
        assert result is not None
        wins += result.winner == smart
    assert wins == 6


class BidsWellPlaysRandomly(SpadesPlayer):
    """SpadesPlayer's bidding with random card play: isolates the card play."""

    def choose(self, view, legal):
        if legal[0].startswith("play:"):
            return self.rng.choice(list(legal))
        return super().choose(view, legal)


def test_card_play_beats_random_card_play_with_the_same_bidding():
    wins = 0
    for seed in range(6):
        smart = seed % 2
        players = [SpadesPlayer(seed * 4 + s) if s % 2 == smart
                   else BidsWellPlaysRandomly(seed * 4 + s) for s in range(4)]
        result = play_match(100 + seed, players).result()
        assert result is not None
        wins += result.winner == smart
    assert wins >= 5


def test_self_play_makes_most_contracts():
    made = total = 0
    for seed in range(4):
        game = play_match(200 + seed, [SpadesPlayer(seed * 4 + s) for s in range(4)])
        detail = game.scores().detail
        for bids, tricks in zip(detail.bids, detail.tricks, strict=True):
            for pair in ((0, 2), (1, 3)):
                bidders = [s for s in pair if bids[s] > 0]
                if bidders:
                    total += 1
                    made += sum(tricks[s] for s in bidders) >= sum(bids[s] for s in bidders)
    assert made / total >= 0.75


def west_last_to_a_heart_trick(bids: dict[int, str]) -> Spades:
    game = stacked(DEAL_A, dealer=3)  # North leads; West plays last
    bid_round(game, bids)
    for seat, card in ((0, "8H"), (1, "2H"), (2, "5H")):
        game.apply(seat, f"play:{card}")
    return game


def test_wins_cheaply_while_the_bid_is_not_made():
    game = west_last_to_a_heart_trick({0: "3", 1: "1", 2: "2", 3: "1"})
    assert ask(game, 3) == "play:JH"  # the jack does it; the ace is not squandered


def test_ducks_to_avoid_bags_once_the_bid_is_made():
    game = west_last_to_a_heart_trick({0: "3", 1: "1", 2: "2", 3: "1"})
    # Seen from West's seat as if East-West had already taken their two tricks.
    view = replace(game.view(3), tricks_won=(0, 2, 0, 0))
    assert SpadesPlayer(0).choose(view, game.legal(3)) == "play:4H"


def test_double_nil_only_as_a_rare_gamble():
    game = stacked(DEAL_A, dealer=0)
    for seat in (1, 2):
        game.apply(seat, "look")
    game.apply(1, "bid:6")  # West's partner bids strongly
    game.apply(2, "bid:3")
    view = game.view(3)  # West has not looked: may bid double nil blind
    assert SpadesPlayer(0).choose(view, game.legal(3)) == "look"
    desperate = replace(view, score=replace(view.score, totals=(430, 120)))
    assert SpadesPlayer(0).choose(desperate, game.legal(3)) == "bid:double_nil"
