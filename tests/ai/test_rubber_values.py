"""The learned call values at a rubber: rubber scores for the rows, labels in points of the
rubber, a rubber round stacked on the duplicate rounds, and which values the players use."""

from __future__ import annotations

import json
import logging
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from bot.ai.bridge.bidding.context import empty_auction
from bot.ai.bridge.bidding.rubber import Score, rubber_value
from bot.ai.bridge.bidding.simulation import SampledBidding
from bot.ai.bridge.bidding.system import decide
from bot.ai.bridge.learning import bank, rollouts, train, values
from bot.ai.bridge.learning.features import NAMES, RUBBER_NAMES, Rows, honest_readings
from bot.ai.bridge.learning.forest import Forest
from bot.games.bridge_auction import CALL_BY_TEXT
from bot.games.bridge_scoring import GAME_POINTS
from bot.games.cards import FULL_DECK, parse_hand


def _constant_forest(value: float, features: int) -> Forest:
    """A forest of one leaf: every candidate is worth `value`."""
    return Forest(np.zeros(1, dtype=np.int64), np.full(1, np.inf), np.zeros(1, dtype=np.int64),
                  np.zeros(1, dtype=np.int64), np.asarray([value]),
                  np.zeros(1, dtype=np.int64), 1, features)


def _random_deal(rng: random.Random):
    cards = list(FULL_DECK)
    rng.shuffle(cards)
    return [sorted(cards[i * 13:(i + 1) * 13]) for i in range(4)]


def test_a_rubber_state_is_drawn_from_the_deal_s_number_and_is_a_rubber_under_way():
    states = [rollouts.rubber_state(n) for n in range(2000)]
    assert states[:50] == [rollouts.rubber_state(n) for n in range(50)]
    assert all(g in (0, 1) for s in states for g in s.games)
    assert all(p == 0 or p in rollouts.PARTS for s in states for p in s.parts)
    assert all(p < GAME_POINTS for s in states for p in s.parts)
    # Most deals carry a part score; a quarter carry none, as a new game does.
    none = sum(s.parts == (0, 0) for s in states) / len(states)
    assert 0.2 < none < 0.3
    assert {s.games for s in states} == {(0, 0), (0, 1), (1, 0), (1, 1)}


def test_a_rubber_row_ends_with_the_part_scores_from_the_deciding_side_worked_out_by_hand():
    """East (seat 1) after North's 1♥, with North-South 40 below the line and East-West
    70: the row is the duplicate row with the part scores after it, East-West's first."""
    auction = empty_auction(0)
    auction.call(0, CALL_BY_TEXT["bid:1H"])
    legal = auction.legal_texts(1)
    score = Score((1, 0), (40, 70))
    made = decide(parse_hand("AQ5.84.KJ963.Q72"), 1, auction.calls, legal, None, score)
    rubber = Rows(made, (True, False), None, score)
    plain = Rows(made, (True, False))
    assert len(rubber.row("pass")) == len(NAMES) + len(RUBBER_NAMES)
    assert rubber.row("pass") == [*plain.row("pass"), 70.0, 40.0]
    assert RUBBER_NAMES == ("part_us", "part_them")
    # vul_us, vul_them: East-West have no game, North-South one.
    assert rubber.row("pass")[NAMES.index("vul_us")] == 0.0
    assert rubber.row("pass")[NAMES.index("vul_them")] == 1.0


def _worth(bidders: rollouts.Bidders, deal: bank.BankDeal, calls: list, score: Score,
           side: int) -> float:
    """What the auction bid on from `calls` is worth to `side` in the rubber."""
    contract = bidders.finish(deal, calls)
    if contract is None:
        return 0.0
    taken = deal.tricks[int(contract.strain)][contract.declarer]
    return rubber_value(contract, taken, score, side)


def test_rubber_labels_are_the_points_each_call_is_worth_in_the_rubber():
    """`rollouts --rubber`: each deal is bid at its rubber score by rubber-aware players,
    and a label is what the candidate's contract is worth to the deciding side in the
    rubber (points written and the change in the rubber still to come) less the
    reference call's."""
    seen_points = False
    for number in range(5, 25):
        deal = next(bank.read(first=number))
        score = rollouts.rubber_state(deal.number)
        rows = rollouts.label_deal(deal, rubber=True)
        assert rows and all(len(r.features) == len(NAMES) + len(RUBBER_NAMES) for r in rows)
        bidders = rollouts.Bidders(None, score=score)
        auction = empty_auction(deal.dealer)
        decision = 0
        by_decision: dict[int, list[rollouts.Row]] = {}
        for r in rows:
            by_decision.setdefault(r.decision, []).append(r)
        while not auction.finished:
            seat = auction.to_call()
            made, chosen, _ = bidders.choose(deal, seat, auction.calls, auction.legal_texts(seat))
            assert made.ctx.score == score  # the players bid to the rubber's score
            for r in by_decision.get(decision, []):
                assert r.tables == chosen
                assert r.features[-2:] == [score.parts[seat % 2], score.parts[1 - seat % 2]]

                worth = [_worth(bidders, deal, [*auction.calls, (seat, CALL_BY_TEXT[a])],
                                score, seat % 2) for a in (r.action, chosen)]
                assert r.gain == pytest.approx(worth[0] - worth[1])
                seen_points = seen_points or abs(r.gain) > 24  # more than IMPs can say
            auction.call(seat, CALL_BY_TEXT[chosen])
            decision += 1
    assert seen_points


def test_a_duplicate_round_leaves_a_part_score_to_the_tables():
    """Values learned on duplicate boards weigh calls at a rubber only while no part score
    stands: with one, the tables' rubber-aware call is made, however eager the values."""
    eager = values.CallValues(_constant_forest(2.0, len(NAMES)), 1.0)
    rng = random.Random(5)
    changed_at_love = 0
    for n in range(80):
        hands = _random_deal(rng)
        auction = empty_auction(n % 4)
        score = Score((0, 0), (60, 0)) if n % 2 else Score((1, 1), (0, 40))
        love = Score(score.games, (0, 0))
        while not auction.finished:
            seat = auction.to_call()
            legal = auction.legal_texts(seat)
            made = decide(hands[seat], seat, auction.calls, legal, None, score)
            assert eager.better(made, legal, (False, False), score) == made.action
            at_love = decide(hands[seat], seat, auction.calls, legal, None, love)
            changed_at_love += (eager.better(at_love, legal, (False, False), love)
                                != at_love.action)
            auction.call(seat, CALL_BY_TEXT[made.action])
    assert changed_at_love > 0


def test_a_rubber_round_weighs_rubber_calls_and_leaves_a_duplicate_board_to_its_base():
    """A rubber round stacked on duplicate rounds (round 6's chain: no rubber round is
    stacked on a round that reads the hand reading): on a duplicate board it makes its
    base's call; at a rubber its forest weighs every honest call against the base's (where
    a part score stands, the tables' rubber-aware call), reading the part scores."""
    shipped = values.load(values.MODELS / "call_values-round6.npz")
    assert shipped is not None
    features = len(NAMES) + len(RUBBER_NAMES)
    eager = values.CallValues(_constant_forest(60.0, features), 50.0, "all", shipped, True)
    quiet = values.CallValues(_constant_forest(10.0, features), 50.0, "all", shipped, True)
    rng = random.Random(8)
    changed = 0
    for n in range(60):
        hands = _random_deal(rng)
        auction = empty_auction(n % 4)
        score = Score((0, n % 2), (0, 0) if n % 3 == 0 else (60, 20))
        vulnerable = (score.vulnerable(0), score.vulnerable(1))
        while not auction.finished:
            seat = auction.to_call()
            legal = auction.legal_texts(seat)
            board = decide(hands[seat], seat, auction.calls, legal)
            assert eager.better(board, legal, vulnerable) == shipped.better(board, legal,
                                                                             vulnerable)
            made = decide(hands[seat], seat, auction.calls, legal, None, score)
            base = shipped.better(made, legal, vulnerable, score)
            if score.parts != (0, 0):
                assert base == made.action
            assert quiet.better(made, legal, vulnerable, score) == base
            first = eager.better(made, legal, vulnerable, score)
            readings = [action for action in honest_readings(made, legal, base)
                        if action == base or not made.ctx.part_score()
                        or not values.past_game(action, made)]
            assert first == (readings[0] if readings else base)
            changed += first != base
            auction.call(seat, CALL_BY_TEXT[base])
    assert changed > 0


def test_a_rubber_round_never_bids_past_the_level_that_completes_game(monkeypatch):
    """With our part score, the rubber round makes no bid below slam above both the level
    that completes game in its strain and the cheapest bid there, however it values it."""
    hand = parse_hand("AQ5.KQJ84.K96.72")
    auction = empty_auction(0)
    auction.call(0, CALL_BY_TEXT["bid:1H"])
    auction.call(1, CALL_BY_TEXT["pass"])
    auction.call(2, CALL_BY_TEXT["bid:2H"])
    auction.call(3, CALL_BY_TEXT["pass"])
    legal = auction.legal_texts(0)
    at_70 = Score((0, 0), (70, 0))  # 2H completes North-South's game
    made = decide(hand, 0, auction.calls, legal, None, at_70)
    assert values.past_game("bid:4H", made) and values.past_game("bid:3H", made)
    assert values.past_game("bid:2NT", made)  # 1NT completes it
    assert values.past_game("bid:3C", made)  # 2C completes it (70 + 40)
    assert not values.past_game("bid:6H", made)  # a slam is never cut
    assert not values.past_game("pass", made) and not values.past_game("double", made)
    # Over the opponents' 3S, 4H is the cheapest heart bid: competing, not past game.
    contested = empty_auction(0)
    for text in ("bid:1H", "bid:1S", "bid:2H", "bid:3S"):
        contested.call(contested.to_call(), CALL_BY_TEXT[text])
    over = decide(hand, 0, contested.calls, contested.legal_texts(0), None, at_70)
    assert not values.past_game("bid:4H", over) and values.past_game("bid:5H", over)
    # The forest's favourite is 2NT, an honest call at either score: with 70 below it is
    # not made; at love it is.
    rubber = values.CallValues(_constant_forest(0.0, len(NAMES) + len(RUBBER_NAMES)), 50.0,
                               "all", None, True)

    def favour_2nt(rounds, made, vulnerable, score, known, reference):
        weighed = [link.candidates(made, known, reference) for link in rounds]
        return [(calls, [500.0 if call == "bid:2NT" else 0.0 for call in calls])
                for calls in weighed]

    monkeypatch.setattr(rubber, "_weigh", favour_2nt)
    assert "bid:2NT" in honest_readings(made, legal)
    assert rubber.better(made, legal, (False, False), at_70) != "bid:2NT"
    love = Score((0, 0), (0, 0))
    made_at_love = decide(hand, 0, auction.calls, legal, None, love)
    assert "bid:2NT" in honest_readings(made_at_love, legal)
    assert rubber.better(made_at_love, legal, (False, False), love) == "bid:2NT"


def test_the_players_at_a_rubber_use_the_rubber_round_else_the_duplicate_rounds(
        tmp_path, monkeypatch, caplog):
    """`values.served`: at a rubber with a part score the rubber round, where it loads;
    where it cannot (one log line), the duplicate rounds. A duplicate board, and a rubber
    while neither side has a part score, ask the duplicate rounds."""
    missing = tmp_path / "call_values_rubber.npz"
    monkeypatch.setattr(values, "RUBBER", missing)
    with caplog.at_level(logging.ERROR, logger=values.__name__):
        assert values.served(Score((0, 0), (40, 0))) is values.shared(values.DEFAULT)
        assert values.served(Score((1, 0), (0, 70))) is values.shared(values.DEFAULT)
    lines = [r for r in caplog.records if r.name == values.__name__]
    assert len(lines) == 1 and "call_values_rubber.npz" in lines[0].getMessage()
    values.SHELF.loaded.pop(missing, None)
    # The player asks the served values with the rubber's score (a rubber round stacked
    # on round 6's chain: none is stacked on a round that reads the hand reading).
    shipped = values.load(values.DEFAULT)
    round6 = values.load(values.MODELS / "call_values-round6.npz")
    assert shipped is not None and round6 is not None
    eager = values.CallValues(_constant_forest(500.0, len(NAMES) + len(RUBBER_NAMES)), 50.0,
                              "all", round6, True)
    monkeypatch.setattr(values.SHELF, "loaded", {missing: eager})
    hand = parse_hand("AQ5.84.KJ963.Q72")
    auction = empty_auction(0)
    auction.call(0, CALL_BY_TEXT["bid:1H"])
    legal = auction.legal_texts(1)
    score = Score((0, 0), (0, 60))
    player = SampledBidding(1)
    made = decide(hand, 1, auction.calls, legal, None, score)
    call = player.call(hand, 1, auction.calls, legal, (False, False), score, 0)
    assert call == eager.better(made, legal, (False, False), score) != made.action
    board = player.call(hand, 1, auction.calls, legal, (False, False), None, 0)
    assert board == shipped.better(decide(hand, 1, auction.calls, legal), legal,
                                   (False, False))
    # At love the duplicate rounds weigh the call, with the rubber's score.
    love = Score((1, 0), (0, 0))
    at_love = decide(hand, 1, auction.calls, legal, None, love)
    assert player.call(hand, 1, auction.calls, legal, (False, True), love, 0) == \
        shipped.better(at_love, legal, (False, True), love) != eager.better(
            at_love, legal, (False, True), love)


def test_a_rubber_round_is_trained_on_rubber_rows_and_loads_stacked_on_its_base(tmp_path):
    """`train --rubber --stack-on BASE`: from `rollouts --rubber` rows, the card lists the
    part scores among its features and names its base; the loaded round is a rubber round.
    Rows of the other kind are refused."""
    pytest.importorskip("lightgbm")
    for path in values.MODELS.glob("call_values*"):
        shutil.copy(path, tmp_path / path.name)
    base = tmp_path / "call_values-round6.npz"  # a duplicate round that reads no hand reading
    rubber_rows = tmp_path / "rubber.jsonl"
    assert rollouts.main(["--first", "0", "--deals", "8", "--out", str(rubber_rows),
                          "--jobs", "1", "--model", str(base), "--relative",
                          "--rubber"]) == 0
    board_rows = tmp_path / "board.jsonl"
    assert rollouts.main(["--first", "0", "--deals", "2", "--out", str(board_rows),
                          "--jobs", "1"]) == 0
    out = tmp_path / "call_values_rubber.npz"
    with pytest.raises(SystemExit, match="not rubber rows"):
        train.train([board_rows], out, trees=5, leaves=3, held_out=5, command="test",
                    play_deals=4, stack_on=base, play_first=100, rubber=True)
    with pytest.raises(SystemExit, match="not duplicate rows"):
        train.train([rubber_rows], out, trees=5, leaves=3, held_out=5, command="test",
                    play_deals=4, stack_on=base, play_first=100)
    card, _ = train.train([rubber_rows], out, trees=5, leaves=3, held_out=5, command="test",
                          play_deals=4, stack_on=base, play_first=100, rubber=True)
    assert card["features"] == [*NAMES, *RUBBER_NAMES] and card["stacked_on"] == base.name
    assert "points of the rubber" in card["held_out_play"]
    assert all(way["par_values"] is None for way in card["held_out_play_by_way"].values())
    written = json.loads(values.card_path(out).read_text())
    assert written["margin"] == card["margin"]
    loaded = values.load(out)
    assert loaded is not None and loaded.rubber and loaded.base is not None
    assert not loaded.base.rubber
    for path in tmp_path.glob("*.npz"):
        values.SHELF.loaded.pop(path, None)


def test_a_rubber_held_out_match_is_scored_in_points_of_the_rubber():
    """The held-out match of a rubber round: each side in turn, the mean of the two ways'
    point differences for the values' side, not IMPs."""
    assert train.team_boards([620.0], [-100.0], [170.0], rubber=True) == [(450 + 270) / 2]
    assert train.team_boards([620], [-100], [170], rubber=False) == [(10 + 7) / 2]


def test_a_rubber_model_file_of_other_features_is_refused(tmp_path, caplog):
    path = tmp_path / "call_values_rubber.npz"
    forest = _constant_forest(1.0, len(NAMES) + 1)
    forest.save(path)
    values.card_path(path).write_text(json.dumps(
        {"features": [*NAMES, "part_us"], "margin": 50.0}))
    with caplog.at_level(logging.ERROR, logger=values.__name__):
        assert values.load(path) is None
    assert any("other features" in r.getMessage() for r in caplog.records)
    Path(path).unlink()


def test_the_shipped_rubber_model_loads_with_its_card_stacked_down_to_a_duplicate_round():
    card = json.loads(values.card_path(values.RUBBER).read_text())
    assert "python -m bot.ai.bridge.learning.train " in card["command"]
    assert "--rubber" in card["command"] and "--stack-on" in card["command"]
    assert tuple(card["features"]) == NAMES + RUBBER_NAMES
    assert card["deals"] > 0 and card["rows"] > 0
    shipped = values.load(values.RUBBER)
    assert shipped is not None and shipped.rubber
    assert (values.MODELS / card["stacked_on"]).exists()
    # Rubber rounds stack on one another, each shipped beside it with its card, down to a
    # duplicate round, which leaves a part score to the tables.
    chain = []
    round_: values.CallValues | None = shipped
    while round_ is not None and round_.rubber:
        chain.append(round_)
        round_ = round_.base
    assert round_ is not None and not round_.rubber
    # Each round's file is made by the shipped card's one command (trained to its name, or
    # trained as the shipped round and renamed when the next was stacked on it), before
    # it is used.
    models = "bot/ai/bridge/learning/models"
    for name in ("call_values_rubber-round3.npz", "call_values_rubber-round2.npz",
                 "call_values_rubber-round1.npz", "call_values.npz"):
        command = card["command"]
        made = command.find(f"--out {models}/{name}")
        if made < 0:
            made = command.index(f" {models}/{name} &&")  # the rename's target
            assert command[:made].endswith(f"mv {models}/call_values_rubber.npz")
        assert made < command.index(f"--stack-on {models}/{name}")
    assert len(chain) == 4
    assert values.served(Score((0, 1), (60, 0))) is values.shared(values.RUBBER)
    assert values.served(Score((0, 1), (0, 0))) is values.shared(values.DEFAULT)
    assert values.served(None) is values.shared(values.DEFAULT)


def test_the_rounds_of_a_chain_read_each_candidate_once_and_as_a_fresh_reading_would(
        monkeypatch):
    """Every round of the shipped rubber chain (the rubber rounds over the duplicate ones)
    weighs the same calls of the same decision, each against its own reference: they share one
    `Candidates`, which reads a call once per decision, and whatever the rounds asked
    before, its readings and rows are those worked out anew for that reference."""
    from bot.ai.bridge.learning import features
    from bot.ai.bridge.learning.features import Candidates

    chain = values.load(values.RUBBER)
    assert chain is not None
    read: list[tuple[int, str]] = []
    real = features.shown_by

    def counted(ctx, rules, action):
        read.append((id(ctx), action))
        return real(ctx, rules, action)

    changed = 0
    for deal in bank.read(first=600, limit=12):
        score = rollouts.rubber_state(deal.number)
        vulnerable = rollouts.vulnerability(deal, score)
        auction = empty_auction(deal.dealer)
        while not auction.finished:
            seat = auction.to_call()
            legal = auction.legal_texts(seat)
            made = decide(deal.hands[seat], seat, auction.calls, legal, None, score)
            known = Candidates(made, legal)
            monkeypatch.setattr(features, "shown_by", counted)
            read.clear()
            call = chain.better(made, legal, vulnerable, score, known)
            assert len(read) == len(set(read))  # no call read twice
            monkeypatch.setattr(features, "shown_by", real)
            assert call == chain.better(made, legal, vulnerable, score)
            changed += call != made.action
            for reference in {None, made.action, call}:
                fresh = Candidates(made, legal)
                assert known.readings(reference) == fresh.readings(reference)
                shared = Rows(made, vulnerable, reference, score, known)
                alone = Rows(made, vulnerable, reference, score)
                assert [shared.row(a) for a in fresh.readings(reference)] == \
                    [alone.row(a) for a in fresh.readings(reference)]
            auction.call(seat, CALL_BY_TEXT[call])
    assert changed > 0  # the chain changed some of the tables' calls
