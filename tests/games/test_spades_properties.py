"""Property tests: random legal play of Spades matches, invariants checked on the way."""

from __future__ import annotations

import copy
import dataclasses
import random

from hypothesis import given
from hypothesis import strategies as st

from bot.ai.spades.basic import SpadesPlayer
from bot.games import IllegalAction, create, replay
from bot.games.cards import FULL_DECK, Card
from bot.games.spades import Spades
from tests.view_cards import cards_in

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PENALTY = st.booleans()
BID_VALUES = {"nil": 0, "double_nil": -1, **{str(n): n for n in range(1, 14)}}
ALL_ACTIONS = ["look", "bid:double_nil", "bid:nil", "bid:0", "bid:14", "pass", "play:ZZ",
               *(f"bid:{n}" for n in range(1, 14)), *(f"play:{c.text}" for c in FULL_DECK)]
# Random bidding from 1 to 13 sets nearly every contract and a match then never ends, so
# the random driver bids low (and nil now and then); its card play is uniformly random.
MAX_DEALS = 25


def random_action(rng: random.Random, legal: list[str]) -> str:
    if "look" in legal:
        return "bid:double_nil" if "bid:double_nil" in legal and rng.random() < 0.03 \
            else "look"
    if legal[0] == "bid:nil":
        return "bid:nil" if rng.random() < 0.05 else rng.choice(["bid:1", "bid:2", "bid:3"])
    return rng.choice(legal)





def snapshot(game: Spades) -> tuple[object, ...]:
    return (len(game.history), game.to_act(), *(game.view(s) for s in (0, 1, 2, 3, None)))


class Tracker:
    """What the test itself records from the events, to check the engine against."""

    def __init__(self, game: Spades) -> None:
        self.game = game
        self.played: list[Card] = []
        self.looked: set[int] = set()
        self.trick_count = 0
        self.deals: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        self.last_deal: list[Card] = []  # stays public in the view once the match is over

    def apply(self, seat: int, action: str) -> None:
        deal_no = self.game.deal_no
        events = self.game.apply(seat, action)
        if action == "look" or action == "bid:double_nil":
            self.looked.add(seat)
        if action.startswith("play:"):
            self.played.append(Card.parse(action[5:]))
        for event in events:
            if event.kind == "trick":
                self.trick_count += 1
            if event.kind == "deal_end":
                assert event.deal_no == deal_no
                # every card played exactly once; 13 tricks per deal
                assert sorted(self.played) == sorted(FULL_DECK)
                assert self.trick_count == 13
                assert sum(event.tricks) == 13
                hands = event.hands
                assert sorted(c for h in hands for c in h) == \
                    sorted(c.text for c in FULL_DECK)
                bids = tuple(BID_VALUES[event.bids[s]] for s in range(4))
                tricks = tuple(event.tricks[s] for s in range(4))
                self.deals.append((bids, tricks))
                self.last_deal = self.played
                self.played, self.looked, self.trick_count = [], set(), 0

    def check_views(self) -> None:
        game = self.game
        record = game.deal_record()
        played = set(self.last_deal if game.finished else self.played)
        for seat in (0, 1, 2, 3, None):
            view = game.view(seat)
            own: set[Card] = set()
            if seat is not None and seat in self.looked:
                own = set(record.hands[seat]) - played
            assert set(view.hand) == own
            current = dataclasses.replace(view, previous_deal=None)
            leaked = set(cards_in(current)) - own - played
            assert not leaked, f"seat {seat} sees {leaked}"
            if view.previous_deal is not None:
                assert view.previous_deal.deal_no < view.deal_no or game.finished

    def check_legal_agrees_with_apply(self, rng: random.Random) -> None:
        game = self.game
        for seat in range(4):
            legal = game.legal(seat)
            if seat not in game.to_act():
                assert legal == []
            for action in rng.sample(legal, min(4, len(legal))):
                # The log holds immutable tuples: share a shallow copy to keep this cheap.
                memo = {id(game.history): list(game.history)}
                copy.deepcopy(game, memo).apply(seat, action)
            others = [a for a in ALL_ACTIONS if a not in legal]
            before = snapshot(game)
            for action in rng.sample(others, 6):
                try:
                    game.apply(seat, action)
                except IllegalAction as exc:
                    assert str(exc)
                else:
                    raise AssertionError(f"{action} applied but is not in legal")
                assert snapshot(game) == before


def recompute(deals: list[tuple[tuple[int, ...], tuple[int, ...]]],
              penalty: bool) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """The score sheet from the recorded bids and tricks, worked out independently."""
    totals, bags, lines = [0, 0], [0, 0], []
    for bids, tricks in deals:
        points = []
        for side, pair in enumerate(((0, 2), (1, 3))):
            p = sum((100 if bids[s] == 0 else 200) * (1 if tricks[s] == 0 else -1)
                    for s in pair if bids[s] <= 0)
            bidders = [s for s in pair if bids[s] > 0]
            over = 0
            if bidders:
                contract = sum(bids[s] for s in bidders)
                took = sum(tricks[s] for s in bidders)
                over = max(0, took - contract)
                p += 10 * contract + over if took >= contract else -10 * contract
            if penalty:
                p -= 100 * ((bags[side] + over) // 10 - bags[side] // 10)
            bags[side] += over
            totals[side] += p
            points.append(p)
        lines.append((points[0], points[1]))
    return lines, totals, bags


def check_sheet(game: Spades, tracker: Tracker) -> None:
    lines, totals, bags = recompute(tracker.deals, game.bags_penalty)
    sheet = game.scores()
    assert [line.points for line in sheet.lines] == lines
    assert list(sheet.totals) == totals
    assert list(sheet.detail.bags) == bags
    assert [(b, t) for b, t in zip(sheet.detail.bids, sheet.detail.tricks, strict=True)] \
        == tracker.deals


@given(seed=SEEDS, penalty=PENALTY, target=st.sampled_from([100, 200, 500]))
def test_random_legal_play_keeps_every_invariant(seed, penalty, target):
    game = create("spades", {"target": target, "bags_penalty": penalty}, seed)
    assert isinstance(game, Spades)
    rng = random.Random(seed)
    tracker = Tracker(game)
    step = 0
    while not game.finished and game.deal_no <= MAX_DEALS:
        if step % 41 == 0:
            tracker.check_views()
        if step % 131 == 0:
            tracker.check_legal_agrees_with_apply(rng)
        seat = rng.choice(sorted(game.to_act()))
        tracker.apply(seat, random_action(rng, game.legal(seat)))
        step += 1
    tracker.check_views()
    check_sheet(game, tracker)
    if game.finished:
        result = game.result()
        assert result is not None
        assert max(result.totals) >= target and result.totals[0] != result.totals[1]
        assert result.ranks[result.winner] == 0


def play_whole_match(seed: int, penalty: bool, target: int = 500) -> tuple[Spades, Tracker]:
    game = create("spades", {"target": target, "bags_penalty": penalty}, seed)
    assert isinstance(game, Spades)
    players = [SpadesPlayer(seed + seat) for seat in range(4)]
    tracker = Tracker(game)
    while not game.finished:
        assert game.deal_no <= 60, "a match between sensible players should end"
        for seat in sorted(game.to_act()):
            if not game.finished and seat in game.to_act():
                tracker.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    return game, tracker


@given(seed=SEEDS, penalty=PENALTY)
def test_whole_matches_end_and_the_sheet_matches_a_recomputation(seed, penalty):
    game, tracker = play_whole_match(seed, penalty, target=300)
    check_sheet(game, tracker)
    tracker.check_views()
    result = game.result()
    assert result is not None and result.winner is not None


@given(seed=SEEDS, penalty=PENALTY)
def test_replaying_the_history_rebuilds_the_same_match(seed, penalty):
    game, _ = play_whole_match(seed, penalty, target=200)
    again = replay(create("spades", {"target": 200, "bags_penalty": penalty}, seed),
                   game.history)
    assert again.scores() == game.scores()
    assert again.result() == game.result()
    assert again.deal_record() == game.deal_record()
    for seat in (0, 1, 2, 3, None):
        assert again.view(seat) == game.view(seat)
