"""Settling the captain's close decisions by simulation (bot.ai.bridge.bidding.simulation): the
layouts honour the auction, the scoring picks the contract that scores, a decision is the
same for the same seed, and the captain's call stands when the budget is short or spent."""

from __future__ import annotations

import random

from bot.ai.bridge.bidding import choose_call
from bot.ai.bridge.bidding.rubber import Score
from bot.ai.bridge.bidding.rules import Hand
from bot.ai.bridge.bidding.simulation import (
    MIN_LAYOUTS,
    Candidate,
    SampledBidding,
    _via_key_cards,
    _weighable,
    answered_contract,
    arbitrate,
    best,
    candidates,
    deal_layouts,
    final_contract,
    planned_layouts,
    scores,
    settle,
    solve_contracts,
    with_answers,
)
from bot.ai.bridge.bidding.system import _context, decide, read, tables_for
from bot.ai.bridge.learning import values
from bot.ai.core import dds
from bot.ai.core.budget import Budget
from bot.games import create
from bot.games.bridge_auction import Contract, Strain
from bot.games.bridge_scoring import imps
from bot.games.cards import parse_hand
from tests.ai.helpers import steady
from tests.ai.test_bridge_bidding import auction_of

N, E, S, W = 0, 1, 2, 3


def decision(hand: str, calls: str, dealer: int = N):
    """The context, hand facts, legal calls, the captain's call and the situation's rules
    for the seat to call after `calls`."""
    auction = auction_of(calls, dealer)
    seat = auction.to_call()
    reading = read(0, auction.calls)
    ctx = _context(seat, auction.calls, reading.ranges, reading.forcing)
    cards = parse_hand(hand)
    legal = auction.legal_texts(seat)
    action, _ = choose_call(cards, seat, auction.calls, legal)
    return ctx, Hand.of(cards), legal, action, tables_for(ctx)[1]


class Ticking:
    """A clock that moves `step` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_layouts_honour_every_range_the_auction_shows() -> None:
    # 1S (N) pass 2S (S): North 5+ spades 11+, South 3+ spades 6-10, West to call.
    ctx, hand, *_ = decision("A32.KQ4.QJ93.K84", "1S pass 2S", N)
    assert ctx.seat == W
    assert ctx.shown[N].min_len[3] == 5 and ctx.shown[S].max_hcp == 10
    layouts = deal_layouts(ctx, hand.cards, 30, random.Random(5))
    assert len(layouts.hands) == 30 and layouts.relaxed == 0
    mine = set(hand.cards)
    for hands in layouts.hands:
        assert hands[W] == hand.cards
        assert sorted(c for h in hands for c in h) == sorted(
            c for h in layouts.hands[0] for c in h)
        assert len({c for h in hands for c in h}) == 52
        for seat in (N, E, S):
            assert len(hands[seat]) == 13 and not mine & set(hands[seat])
            assert ctx.shown[seat].admits(hands[seat])


def test_the_captains_call_is_the_base_even_where_a_table_explains_it_otherwise() -> None:
    # 1D pass 3C pass (seed 369 of the bench, South): with 5C as the captain's call (as
    # it was there), which the jump shift's table reads as 19-21 points, every candidate
    # is measured against it, so it stays first (4C, whose rule fits, was the base
    # instead, and stood for the captain's call when nothing beat it).
    ctx, hand, legal, _, table = decision("A76.J7.KQJ96.Q63", "1D pass 3C pass", S)
    assert candidates(ctx, hand, legal, "bid:5C", table)[0] == "bid:5C"


def test_final_contract_names_the_first_of_the_side_to_bid_the_strain() -> None:
    auction = auction_of("1H pass 2H pass", N)
    contract = final_contract(auction.calls, N, "bid:4H")
    assert contract is not None and (contract.level, contract.strain, contract.declarer) == (
        4, Strain.HEARTS, N)
    assert final_contract(auction.calls, N, "pass").level == 2  # type: ignore[union-attr]
    doubled = final_contract(auction_of("1H pass 2H", N).calls, W, "double")
    assert doubled is not None and doubled.doubled == 1


def test_the_scoring_prefers_the_contract_that_makes_by_the_margin() -> None:
    ctx, *_ = decision("AKJ74.K32.Q4.943", "1S pass 2S pass", N)
    calls = ctx.calls
    options = [Candidate(a, final_contract(calls, N, a)) for a in ("pass", "bid:4S", "bid:6S")]
    # North declares spades (strain index 3): 11 tricks on every layout, not vulnerable.
    eleven = [[[0] * 4, [0] * 4, [0] * 4, [11, 0, 11, 0], [0] * 4] for _ in range(10)]
    points = scores(ctx, options, eleven, (False, False))
    assert points[0][0] == 200 and points[1][0] == 450 and points[2][0] == -50
    assert best(options, points) == (1, 6.0)  # 450 against 200: 6 IMPs
    # Ten tricks on half the layouts, eight on the others: game gains nothing on average.
    mixed = [[[0] * 4, [0] * 4, [0] * 4, [t, 0, t, 0], [0] * 4] for t in (10, 8) * 5]
    assert best(options, scores(ctx, options, mixed, (False, False)))[0] == 0


def test_a_gain_the_layouts_do_not_agree_on_leaves_the_captains_call() -> None:
    """A slam making on four layouts of seven gains 1.6 IMPs a deal over game, but the
    layouts split 11 IMPs each way: that is noise, and game stands; making on all seven,
    the slam is taken."""
    ctx, *_ = decision("AKJ74.K32.Q4.943", "1S pass 2S pass", N)
    options = [Candidate(a, final_contract(ctx.calls, N, a)) for a in ("bid:4S", "bid:6S")]
    split = [[[0] * 4, [0] * 4, [0] * 4, [t, 0, t, 0], [0] * 4] for t in (12,) * 4 + (11,) * 3]
    points = scores(ctx, options, split, (False, False))
    assert [imps(p - b) for p, b in zip(points[1], points[0], strict=True)] == [11] * 4 + [-11] * 3
    assert best(options, points) == (0, 0.0)
    every = [[[0] * 4, [0] * 4, [0] * 4, [12, 0, 12, 0], [0] * 4] for _ in range(7)]
    assert best(options, scores(ctx, options, every, (False, False))) == (1, 11.0)


def test_a_slam_making_on_eleven_layouts_of_fourteen_leaves_game() -> None:
    """6S over 4S gains 11 IMPs where it makes and loses 11 where it goes down: making on
    11 layouts of 14 (seed 32 of the bench) is 2.5 standard errors of gain, but counting
    the losing layout once more, 1.97: the captain's game stands; on 12 of 14 the slam
    is taken."""
    ctx, *_ = decision("AKJ74.K32.Q4.943", "1S pass 2S pass", N)
    options = [Candidate(a, final_contract(ctx.calls, N, a)) for a in ("bid:4S", "bid:6S")]

    def making(slams: int) -> list[list[list[int]]]:
        return [[[0] * 4, [0] * 4, [0] * 4, [t, 0, t, 0], [0] * 4]
                for t in (12,) * slams + (11,) * (14 - slams)]

    points = scores(ctx, options, making(11), (False, False))
    assert [imps(p - b) for p, b in zip(points[1], points[0], strict=True)] == [11] * 11 + [-11] * 3
    assert best(options, points) == (0, 0.0)
    assert best(options, scores(ctx, options, making(12), (False, False)))[0] == 1


def test_an_invitation_is_valued_by_partners_answer_on_each_layout() -> None:
    """2NT inviting 3NT is played in 3NT where partner's hand accepts and in 2NT where it
    declines (valued as the final contract, it could never beat passing 1NT)."""
    ctx, *_ = decision("Q54.KT3.K72.J964", "1NT pass", N)
    accepts, declines = parse_hand("AKJ2.A9.QJ85.Q83"), parse_hand("AKJ2.A9.QJ85.T83")
    assert answered_contract(ctx.calls, S, "bid:2NT", accepts) == Contract(3, Strain.NOTRUMP, N)
    assert answered_contract(ctx.calls, S, "bid:2NT", declines) == Contract(2, Strain.NOTRUMP, N)
    layouts = [tuple(accepts if seat == N else () for seat in range(4)),
               tuple(declines if seat == N else () for seat in range(4))]
    options = [Candidate(a, final_contract(ctx.calls, S, a)) for a in ("bid:2NT", "pass")]
    invite, passing = with_answers(ctx, options, layouts)
    assert [invite.contract_on(i) for i in (0, 1)] == [Contract(3, Strain.NOTRUMP, N),
                                                        Contract(2, Strain.NOTRUMP, N)]
    assert passing.answered == () and passing.contract_on(0) == Contract(1, Strain.NOTRUMP, N)


def test_candidates_keep_the_captains_call_first_and_only_legal_calls() -> None:
    ctx, hand, legal, action, rules = decision("AKJ74.K32.Q4.943", "1S pass 2S pass 3S pass "
                                               "pass", E)
    found = candidates(ctx, hand, legal, action, rules)
    assert found[0] == action and all(a in legal for a in found)
    assert len(found) == len(set(found))


def test_candidates_stay_in_the_captains_strain() -> None:
    # Six good spades opposite a 1NT rebid: the captain's 4♠ is weighed against pass and
    # other spade contracts only, one declarer to solve, so the budget buys twice the
    # layouts (notrump as a second strain moved seven auctions of 400 for 6 IMPs more).
    ctx, hand, legal, action, rules = decision("AKJ975.A4.K3.J94", "1D pass 1S pass 1NT pass")
    found = candidates(ctx, hand, legal, action, rules)
    assert found[0] == "bid:4S" and "bid:2S" in found
    assert all(a == "pass" or a.endswith("S") for a in found)


def test_a_small_slam_is_a_candidate_in_a_shown_fit_whatever_the_points() -> None:
    # 14 high-card points opposite a simple raise: far from slam by points, but with ten
    # hearts between us and two short suits the double-dummy result is worth asking.
    ctx, hand, legal, action, rules = decision("A.KQJ9752.A432.4", "1H pass 2H pass")
    assert "bid:6H" in candidates(ctx, hand, legal, action, rules)
    # The same points without a fit partner has shown: no slam to try.
    ctx, hand, legal, action, rules = decision("KQJ97.A.A8432.4", "1S pass 1NT pass")
    assert not [a for a in candidates(ctx, hand, legal, action, rules) if a[4:5] == "6"]


def test_a_candidate_the_hand_does_not_fit_the_explanation_of_is_left_out() -> None:
    # 1♥–1♠–2♥: 3♥ is read as an invitation (a range of points), so it is weighed for
    # neither a 3-point hand nor a game hand (the layouts could have chosen it, and
    # partner would have read it as the system says); an 8-point hand's invitation is
    # the captain's own call. Game and the slam in the shown fit promise no points here.
    calls = "1H pass 1S pass 2H pass"
    ctx, hand, legal, action, rules = decision("Q852.J43.9654.32", calls, S)
    assert "bid:3H" in legal
    assert candidates(ctx, hand, legal, action, rules) == ["pass", "bid:4H", "bid:6H"]
    ctx, hand, legal, action, rules = decision("KQ52.K43.A654.32", calls, S)
    assert candidates(ctx, hand, legal, action, rules) == ["bid:4H", "pass", "bid:6H"]
    ctx, hand, legal, action, rules = decision("K852.Q43.K654.32", calls, S)
    assert candidates(ctx, hand, legal, action, rules)[:2] == ["bid:3H", "pass"]


def test_a_simulated_slam_is_asked_for_only_by_a_hand_the_ask_describes() -> None:
    # 1♠–3♠ (a limit raise, 10–12): the key-card ask shows 19+ points, so with 19 HCP a
    # slam the layouts chose is asked for first (five, missing two key cards); with 14
    # the ask would mislead partner, and the slam is bid itself.
    for hand, made in (("AKQ74.A3.KQ4.J93", "bid:4NT"), ("AQJ74.A3.K54.932", "bid:6S")):
        ctx, facts, legal, _, rules = decision(hand, "1S pass 3S pass", N)
        slam = Candidate("bid:6S", final_contract(ctx.calls, ctx.seat, "bid:6S"))
        assert _via_key_cards(ctx, facts, slam, legal, rules) == made


def test_planned_layouts_follow_the_budget_and_the_strains() -> None:
    assert planned_layouts(None, 2) == 0
    assert planned_layouts(Budget(0.8), 1) > planned_layouts(Budget(0.8), 3) > 0
    assert planned_layouts(Budget(0.8, thinkers=8), 3) < planned_layouts(Budget(0.8), 3)
    assert planned_layouts(Budget(0.01), 2) < MIN_LAYOUTS


# Responder holds six good spades and 15 points opposite opener's 12-14 balanced: passing
# 1NT (put in as the captain's call) is far from the best contract.
SPADES = ("AKJ975.A4.K3.J94", "1D pass 1S pass 1NT pass", N)


def test_a_sampled_decision_replaces_a_poor_call_and_is_the_same_for_the_same_seed() -> None:
    ctx, hand, legal, _, rules = decision(*SPADES)
    first = settle(ctx, hand, legal, "pass", rules, (False, False), steady(0.8),
                   random.Random("seed"))
    again = settle(ctx, hand, legal, "pass", rules, (False, False), steady(0.8),
                   random.Random("seed"))
    assert first == again and first in ("bid:4S", "bid:6S", "bid:3NT", "bid:6NT")


def test_the_captains_call_stands_when_the_budget_is_short_or_spent() -> None:
    ctx, hand, legal, _, rules = decision(*SPADES)
    assert settle(ctx, hand, legal, "pass", rules, (False, False), steady(0.05),
                  random.Random("seed")) == "pass"
    # The clock passes the whole budget before the first batch of solving.
    spent = Budget(0.8, clock=Ticking(0.9))
    assert settle(ctx, hand, legal, "pass", rules, (False, False), spent,
                  random.Random("seed")) == "pass"


def test_the_default_player_settles_only_with_a_budget() -> None:
    game = create("bridge", options={}, seed=4)
    seat = next(iter(game.to_act()))
    player = SampledBidding(9)
    view = game.view(seat)
    assert player.choose(view, game.legal(seat)) == choose_call(
        view.hand, seat, view.calls, game.legal(seat))[0]


def test_a_settled_call_is_explained_in_the_systems_terms() -> None:
    auction = auction_of(SPADES[1], N)
    action, says = choose_call(parse_hand(SPADES[0]), S, auction.calls, auction.legal_texts(S),
                               lambda ctx, hand, call, table: "bid:4S")
    assert (action, says) == ("bid:4S", "more spades, to play in game")


def test_solving_only_the_candidates_declarers_agrees_with_whole_trick_tables() -> None:
    ctx, hand, *_ = decision(*SPADES)
    hands = deal_layouts(ctx, hand.cards, 3, random.Random(2)).hands
    wanted = [(Strain.SPADES, S), (Strain.NOTRUMP, N)]
    solved = solve_contracts(hands, wanted, None)
    whole = dds.trick_tables(hands, [Strain.SPADES, Strain.NOTRUMP])
    assert solved is not None and len(solved) == 3
    for mine, table in zip(solved, whole, strict=True):
        assert mine[Strain.SPADES][S] == table[Strain.SPADES][S]
        assert mine[Strain.NOTRUMP][N] == table[Strain.NOTRUMP][N]
        assert mine[Strain.HEARTS] == (0, 0, 0, 0)


def test_the_solvers_measured_work_stops_a_costly_decision_the_same_way_each_time() -> None:
    ctx, hand, *_ = decision(*SPADES)
    hands = deal_layouts(ctx, hand.cards, 12, random.Random(4)).hands
    wanted = [(Strain.SPADES, S), (Strain.NOTRUMP, N)]
    # A clock that never moves: only the work DDS reports can stop it.
    small = steady(0.02)
    first = solve_contracts(hands, wanted, small)
    again = solve_contracts(hands, wanted, steady(0.02))
    assert first is not None and first == again
    assert 1 <= len(first) < len(hands)
    assert solve_contracts(hands, wanted, steady(5.0)) == solve_contracts(
        hands, wanted, None)


def _made(hand: str, calls: str, dealer: int):
    auction = auction_of(calls, dealer)
    seat = auction.to_call()
    legal = auction.legal_texts(seat)
    return decide(parse_hand(hand), seat, auction.calls, legal), legal


# 1♣–1♥, West's 1♠: opener's 18 points make 3NT by the tables; the learned values would
# raise to 2♥. The opponents have bid, so layouts dealt as the auction describes decide.
CONTESTED = ("AQ.A83.QJ8.KQ963", "1C pass 1H 1S", N)


def test_where_the_values_and_the_tables_differ_over_game_in_competition_layouts_decide(
        ) -> None:
    made, legal = _made(*CONTESTED)
    model = values.shared()
    assert model is not None and made.ctx.contested()
    assert made.action == "bid:3NT"
    assert model.better(made, legal, (False, False)) == "bid:2H"
    for seed in range(3):
        assert arbitrate(made, legal, "bid:2H", (False, False), steady(0.8),
                         random.Random(seed)) == "bid:3NT"
    # As served, with a budget: the same seed gives the same call.
    hand, calls, dealer = CONTESTED
    auction = auction_of(calls, dealer)
    seat = auction.to_call()
    served = [SampledBidding(0).call(parse_hand(hand), seat, auction.calls, legal,
                                     (False, False), None, 1, steady(0.8))
              for _ in range(2)]
    assert served == ["bid:3NT", "bid:3NT"]
    # Without a budget, or with too small a one, the values' call stands.
    assert SampledBidding(0).call(parse_hand(hand), seat, auction.calls, legal,
                                  (False, False), None, 1, None) == "bid:2H"
    assert arbitrate(made, legal, "bid:2H", (False, False), steady(0.01),
                     random.Random(0)) == "bid:2H"


def test_at_a_rubber_the_layouts_weigh_the_partings_by_the_rubber_value() -> None:
    # At love the game is worth its bonus here too; with 70 below, 2H completes the game,
    # so the layouts keep the values' part score.
    made, legal = _made(*CONTESTED)
    for seed in range(3):
        assert arbitrate(made, legal, "bid:2H", (False, False), steady(0.8),
                         random.Random(seed), Score()) == "bid:3NT"
        assert arbitrate(made, legal, "bid:2H", (False, False), steady(0.8),
                         random.Random(seed), Score(parts=(70, 0))) == "bid:2H"


def test_arbitration_leaves_quiet_auctions_and_calls_whose_contract_is_not_known() -> None:
    # 1♦–1♥–4♥ (19+ points), the opponents silent: the values' pass stands, whatever the
    # layouts would say.
    made, legal = _made("T9.AK52.QT7.A762", "1D pass 1H pass 4H pass", N)
    assert not made.ctx.contested() and made.action == "bid:4NT"
    assert arbitrate(made, legal, "pass", (False, False), steady(0.8),
                     random.Random(0)) == "pass"
    # A double, an invitation and a forcing bid lead to no contract of their own; a
    # key-card ask is counted as the small slam it asks for.
    made, legal = _made("AQT743.Q3.K.AKQ8", "pass pass 1S pass 3S 4D", N)
    assert _weighable(made, "double", legal) is None
    slam = _weighable(made, "bid:4NT", legal)
    assert slam is not None and slam.contract is not None
    assert (slam.contract.level, slam.contract.strain) == (6, Strain.SPADES)
    made, legal = _made("K852.Q43.K654.32", "1H pass 1S pass 2H pass", S)
    assert _weighable(made, "bid:3H", legal) is None  # an invitation
    made, legal = _made("AQ852.K3.K654.32", "1H pass", S)
    assert _weighable(made, "bid:1S", legal) is None  # a new suit: forcing
