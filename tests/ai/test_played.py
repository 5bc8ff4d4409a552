"""Played deals (`learning.played`): bank deals bid and played to the end by our players,
kept as their actions, resumable and checked on replay."""

from __future__ import annotations

import itertools

import pytest

from bot.ai.bridge.learning import played
from bot.ai.bridge.learning.bank import read
from bot.ai.bridge.learning.played import PlayedDeal, play_deal, replay
from bot.ai.bridge.learning.rollouts import Bidders
from bot.ai.bridge.learning.values import shared as shared_values


def _deal(number: int = 70_000):
    return next(read(first=number, limit=1))


def test_a_played_deal_s_line_reads_back():
    deal = PlayedDeal(70_001, ("bid:1NT", "pass", "pass", "pass", "play:2S", "play:AS"))
    assert deal.line() == "70001 bid:1NT pass pass pass play:2S play:AS"
    assert PlayedDeal.parse(deal.line()) == deal


@pytest.mark.parametrize("line", ["", "bid:1NT pass", "7x0 pass"])
def test_a_line_without_its_bank_number_is_refused_saying_so(line):
    with pytest.raises(ValueError, match="starts with its bank number"):
        PlayedDeal.parse(line)


def test_training_refuses_a_played_deal_that_does_not_replay(tmp_path):
    from bot.ai.bridge.learning.suit_reading_training import rows_of, with_bank

    deal = _deal()
    result = play_deal(deal, Bidders(shared_values()), think=0.0)
    wrong = PlayedDeal(deal.number, (*result.actions[:-2], result.actions[-1],
                                     result.actions[-1]))
    with pytest.raises(SystemExit, match="played deal 70000 does not replay"):
        rows_of(with_bank([wrong]))


def test_a_deal_is_bid_and_played_to_its_last_card_and_replays():
    deal = _deal()
    result = play_deal(deal, Bidders(shared_values()), think=0.0)
    plays = [a for a in result.actions if a.startswith("play:")]
    assert len(plays) == 52 and result.number == deal.number
    replay(deal, result)  # raises where an action is not legal in its turn


def test_an_action_that_is_not_legal_is_refused_on_replay():
    deal = _deal()
    result = play_deal(deal, Bidders(shared_values()), think=0.0)
    first_card = next(i for i, a in enumerate(result.actions) if a.startswith("play:"))
    wrong = (*result.actions[:first_card + 1], result.actions[first_card])  # played twice
    with pytest.raises(ValueError, match="is not legal there"):
        replay(deal, PlayedDeal(deal.number, wrong))


def test_make_plays_the_missing_steps_and_carries_on_where_the_files_end(tmp_path):
    assert played.make(tmp_path, 70_000, 3, jobs=1, think=0.0) == 3
    (path,) = tmp_path.glob("played-*.txt")
    written = path.stat().st_mtime_ns
    assert played.make(tmp_path, 70_000, 3, jobs=1, think=0.0) == 3  # nothing left to play
    assert path.stat().st_mtime_ns == written
    assert [p.number for p in played.read_played(tmp_path)] == [70_000, 70_001, 70_002]


def test_the_repository_s_played_deals_replay_legally():
    deals = {d.number: d for d in read(first=70_000, limit=40)}
    sample = list(itertools.islice(played.read_played(), 20))
    assert len(sample) == 20
    for each in sample:
        replay(deals[each.number], each)


@pytest.mark.parametrize("switch", ["read_lead", "count_signal", "discards"])
def test_a_switch_that_is_no_signal_of_the_card_players_is_refused(switch):
    with pytest.raises(ValueError, match=f"{switch} is no signal switch"):
        play_deal(_deal(), Bidders(shared_values()), think=0.0, tricks=1,
                  signals={switch: "on"})
