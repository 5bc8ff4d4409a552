"""Claims and undo in both bridge games (bot/games/requests.py): requests are actions in
the log, answered by the opponents, and replaying the log rebuilds them."""

from __future__ import annotations

import random

import pytest

from bot.games import IllegalAction, replay
from bot.games.bridge import ContractBridge
from bot.games.cards import Seat, parse_deal, parse_hand
from bot.games.requests import DEFAULT_UNDO_LIMIT
from bot.games.single_dummy import SingleDummyBridge
from bot.tables.service import options_as_stored

N, E, S, W = 0, 1, 2, 3
MIXED = "N:T98.AKQ.AKQ.AKQ2 AKQJ.8765.876.76 765.JT9.JT9.JT98 432.432.5432.543"


def bridge(options: dict[str, object] | None = None) -> ContractBridge:
    game = ContractBridge(options, 1)
    hands = parse_deal(MIXED)
    game.stack_deck([c for seat in Seat for c in hands[seat]])
    return game


def only(game: ContractBridge | SingleDummyBridge) -> int:
    (seat,) = game.to_act()
    return seat


def to_play(game: ContractBridge, declarer: int = N, bid: str = "1NT") -> None:
    while only(game) != declarer:
        game.apply(only(game), "pass")
    game.apply(declarer, "bid:" + bid)
    while game.contract is None:
        game.apply(only(game), "pass")


def play_first(game: ContractBridge | SingleDummyBridge, cards: int) -> None:
    for _ in range(cards):
        seat = only(game)
        game.apply(seat, game.legal(seat)[0])


def same_state(a: ContractBridge, b: ContractBridge) -> bool:
    return (a.view(None) == b.view(None)
            and all(a.view(s) == b.view(s) for s in range(4))
            and a.legal(only(a)) == b.legal(only(b)))


# -- claims ------------------------------------------------------------------------------

def test_claim_by_declarer_goes_to_both_defenders_who_must_both_accept() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 8)  # two tricks
    won_before = tuple(game.tricks_won)
    events = game.apply(N, "claim:9")
    assert events[0].kind == "request"
    assert game.to_act() == frozenset({E, W})
    assert game.legal(E) == ["accept", "reject"] and game.legal(N) == []
    assert "claims 9 of the last 11" in game.view(None).request.text  # type: ignore[union-attr]
    game.apply(E, "accept")
    assert game.to_act() == frozenset({W})
    deal = game.deal_no
    events = game.apply(W, "accept")
    assert events[0].text == "North claims 9 of the last 11: accepted."
    assert game.deal_no == deal + 1 and game.request is None
    summary = game.previous
    assert summary is not None
    assert summary.tricks_won[0] == won_before[0] + 9
    assert summary.claim == "North claims 9 of the last 11: accepted."
    assert summary.tricks_won[1] == won_before[1] + 2


def test_claim_rejected_by_one_defender_resumes_the_play_unchanged() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 5)
    before = replay(bridge(), game.history)
    game.apply(N, "claim:8")
    game.apply(E, "accept")
    events = game.apply(W, "reject")
    assert events[-1].text == "North claims 8 of the last 12: rejected by West."
    assert game.request is None
    assert same_state(game, before)


def test_claim_proven_stands_at_once_and_scores_the_deal() -> None:
    game = bridge()
    to_play(game, N, "7NT")
    events = game.apply(N, "claim:13:proven")
    assert events[0].text == ("North claims all of the last 13 tricks: accepted (it holds "
                              "against any defence).")
    assert any(e.kind == "deal_end" for e in events)
    assert game.previous is not None and game.previous.tricks_won == (13, 0)


def test_claim_for_more_tricks_than_remain_is_refused_with_a_clear_message() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 4)
    logged = len(game.history)
    with pytest.raises(IllegalAction, match="Only 12 tricks remain: you cannot claim 13"):
        game.apply(N, "claim:13")
    assert game.request is None and len(game.history) == logged


@pytest.mark.parametrize(("seat", "text", "reason"), [
    (E, "claim:3", "Only declarer may claim"),
    (S, "claim:3", "Only declarer may claim"),
    (N, "claim:x", "A claim is a number of tricks"),
    (N, "claim:3:sure", "A claim is a number of tricks"),
])
def test_claim_refusals_change_nothing(seat: int, text: str, reason: str) -> None:
    game = bridge()
    to_play(game)
    seen = game.view(None)
    with pytest.raises(IllegalAction, match=reason):
        game.apply(seat, text)
    assert game.view(None) == seen


def test_claim_only_in_the_play() -> None:
    game = bridge()
    with pytest.raises(IllegalAction, match="only during the play"):
        game.apply(only(game), "claim:3")


def test_claim_waiting_blocks_the_play_and_can_be_withdrawn() -> None:
    game = bridge()
    to_play(game)
    game.apply(N, "claim:7")
    with pytest.raises(IllegalAction, match="waiting for East and West"):
        game.apply(N, "play:AH")
    with pytest.raises(IllegalAction, match="waits for an answer"):
        game.apply(N, "undo")
    with pytest.raises(IllegalAction, match="no claim or undo waiting"):
        game.apply(E, "withdraw")
    assert game.view(N).asks == ("withdraw",)
    events = game.apply(N, "withdraw")
    assert events[0].text == "North withdraws the claim."
    assert game.request is None and game.to_act() == frozenset({E})


def test_each_request_is_numbered_by_its_place_in_the_log() -> None:
    """A request's number (what an answer button names) is unique in the match and the
    same when the log is replayed; an answer keeps it."""
    game = bridge()
    to_play(game)
    game.apply(N, "claim:7")
    first = game.request
    assert first is not None and game.history[first.number] == (N, "claim:7")
    game.apply(N, "withdraw")
    game.apply(N, "claim:7")
    second = game.request
    assert second is not None and second.number == first.number + 2
    game.apply(E, "accept")
    assert game.request is not None and game.request.number == second.number
    rebuilt = replay(bridge(), game.history)
    assert rebuilt.request == game.request and rebuilt.view(None).request == game.request


def test_claims_replay_after_a_restart() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 6)
    game.apply(N, "claim:5")
    game.apply(E, "reject")
    play_first(game, 2)
    game.apply(N, "claim:9")
    game.apply(W, "accept")  # one answer in, one still awaited
    again = replay(bridge(), game.history)
    assert again.request == game.request and again.to_act() == frozenset({E})
    game.apply(E, "accept")
    again.apply(E, "accept")
    assert again.previous == game.previous and again.scores() == game.scores()


def test_claim_asks_lists_every_number_for_declarer_only() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 4)
    assert game.view(N).asks[:13] == tuple(f"claim:{n}" for n in range(12, -1, -1))
    assert not any(a.startswith("claim") for a in game.view(E).asks)
    assert not any(a.startswith("claim") for a in game.view(S).asks)


def test_claim_position_is_the_play_as_it_stands() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 5)
    position = game.claim_position()
    assert sum(len(h) for h in position.hands) == 52 - 5
    assert len(position.trick) == 1 and position.leader == game.trick[0][0]


# -- undo --------------------------------------------------------------------------------

def test_undo_of_a_call_with_the_opponents_consent() -> None:
    game = bridge()
    dealer = only(game)
    game.apply(dealer, "bid:1C")
    before = replay(bridge(), game.history)
    nxt = only(game)
    game.apply(nxt, "bid:1NT")
    game.apply(nxt, "undo")
    assert game.to_act() == frozenset({(nxt + 1) % 4, (nxt + 3) % 4})
    for seat in sorted(game.to_act()):
        events = game.apply(seat, "accept")
    assert events[0].text.endswith(": accepted.")
    assert same_state(game, before)
    assert [c.text for _, c in game.auction.calls] == ["bid:1C"]


def test_undo_of_a_call_takes_back_the_calls_after_it_too() -> None:
    game = bridge()
    first = only(game)
    game.apply(first, "bid:1C")
    game.apply(only(game), "pass")
    game.apply(only(game), "bid:1H")
    game.apply(first, "undo")
    assert "their 1♣ and the calls after it" in str(game.request)
    for seat in sorted(game.to_act()):
        game.apply(seat, "accept")
    assert game.auction.calls == [] and only(game) == first


def test_undo_of_the_last_pass_before_the_lead_reopens_the_auction() -> None:
    game = bridge()
    to_play(game)
    last = game.history[-1][0]
    game.apply(last, "undo")
    for seat in sorted(game.to_act()):
        game.apply(seat, "accept")
    assert game.contract is None and only(game) == last


def test_undo_of_a_card_mid_trick() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 5)  # trick 2 has its lead
    before = replay(bridge(), game.history)
    seat = only(game)
    game.apply(seat, game.legal(seat)[0])
    game.apply(seat, "undo")
    assert game.request is not None and "asks to take back their" in game.request.text
    for answerer in sorted(game.to_act()):
        game.apply(answerer, "accept")
    assert same_state(game, before)


def test_undo_of_a_defenders_card_is_answered_by_declarer_alone() -> None:
    game = bridge()
    to_play(game)  # North declares: East leads, South is dummy
    play_first(game, 4)
    leader = only(game)
    assert leader in (E, W)  # the deal: North-South take the first trick only with a heart
    game.apply(leader, game.legal(leader)[0])
    game.apply(leader, "undo")
    assert game.to_act() == frozenset({N})


def test_undo_refused_after_the_trick_is_complete() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 8)
    last = game.history[-1][0]
    with pytest.raises(IllegalAction, match="a completed trick stands"):
        game.apply(last, "undo")


def test_undo_refused_of_the_opening_lead() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 1)
    with pytest.raises(IllegalAction, match="opening lead"):
        game.apply(E, "undo")


def test_undo_refused_when_the_option_is_off() -> None:
    game = bridge({"undo": False})
    to_play(game)
    play_first(game, 5)
    seat = game.history[-1][0]
    with pytest.raises(IllegalAction, match="Undo is off at this table"):
        game.apply(seat, "undo")
    assert "undo" not in game.view(seat).asks


def test_undo_rejected_leaves_the_card_played() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 6)
    seat = game.history[-1][0]
    game.apply(seat, "undo")
    answerers = sorted(game.to_act())
    game.apply(answerers[0], "reject")
    assert game.request is None and len(game.trick) == 2


def test_undo_replay_and_restart_rebuild_the_state_without_the_undone_card() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 5)
    seat = only(game)
    card = game.legal(seat)[-1]
    game.apply(seat, card)
    game.apply(seat, "undo")
    for answerer in sorted(game.to_act()):
        game.apply(answerer, "accept")
    game.apply(seat, game.legal(seat)[0])
    again = replay(bridge(), game.history)
    assert same_state(again, game)
    assert again.deal_record() == game.deal_record()


def test_undo_the_hand_record_sees_the_final_play_only() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 5)
    seat = only(game)
    first, other = game.legal(seat)[0], game.legal(seat)[-1]
    assert first != other
    game.apply(seat, other)
    game.apply(seat, "undo")
    for answerer in sorted(game.to_act()):
        game.apply(answerer, "accept")
    game.apply(seat, first)
    played = [c.text for _, c in game.deal_record().play]
    assert first[5:] in played and other[5:] not in played
    assert ("undo" in [a for _, a in game.history])



def test_undo_the_rating_sees_the_final_play_only() -> None:
    """A whole rubber with a card taken back ends with the result and score sheet (what
    the ratings and the stats read) of the same rubber played without that card."""
    game = bridge()
    to_play(game)
    play_first(game, 5)
    seat = only(game)
    other = game.legal(seat)[-1]  # not the card the rest of the rubber is played with
    taken_back = len(game.history)  # the card, the undo and the two consents from here
    game.apply(seat, other)
    game.apply(seat, "undo")
    for answerer in sorted(game.to_act()):
        game.apply(answerer, "accept")
    assert len(game.history) == taken_back + 4
    rng = random.Random(7)
    while not game.finished:
        actor = only(game)
        legal = game.legal(actor)
        game.apply(actor, "pass" if "pass" in legal and rng.random() < 0.7
                   else rng.choice(legal))
    twin = bridge()
    for s, a in game.history[:taken_back] + game.history[taken_back + 4:]:
        twin.apply(s, a)
    assert twin.finished
    assert twin.result() == game.result() and twin.scores() == game.scores()

# -- Single Dummy --------------------------------------------------------------------------

SD_HANDS = ("AKQJ.AKQ.AKQ.AKQ", "T987.JT9.JT9.JT9", "6543.876.876.876", "2.5432.5432.5432")


def single_dummy() -> SingleDummyBridge:
    game = SingleDummyBridge(None, 3)
    game.stack_deck([c for hand in SD_HANDS for c in parse_hand(hand)])
    return game


def sd_to_play(game: SingleDummyBridge) -> None:
    while game.phase == "auction":
        seat = only(game)
        game.apply(seat, "bid:1NT" if seat == 0 else "pass")
    game.apply(0, "dummy:revealed")


def test_claim_single_dummy_by_the_player_on_turn() -> None:
    game = single_dummy()
    sd_to_play(game)
    play_first(game, 1)  # West led; South to play
    assert only(game) == 0
    with pytest.raises(IllegalAction, match="only on your turn"):
        game.apply(1, "claim:3")
    game.apply(0, "claim:13")
    assert game.to_act() == frozenset({1})
    events = game.apply(1, "accept")
    assert events[0].text == "South claims all of the last 13 tricks: accepted."
    assert game.previous is not None and game.previous.tricks == (13, 0)


def test_claim_single_dummy_position_in_compass_seats() -> None:
    game = single_dummy()
    sd_to_play(game)
    position = game.claim_position()
    south = position.hands[2]
    assert len(south) == 13 and position.leader == 3  # West leads: compass 3


def test_undo_single_dummy_card_and_call() -> None:
    game = single_dummy()
    dealer = only(game)
    game.apply(dealer, "bid:1C")
    game.apply(dealer, "undo")
    game.apply(1 - dealer, "accept")
    assert game.auction.calls == [] and only(game) == dealer
    sd_to_play(game)
    play_first(game, 1)
    before = replay(single_dummy(), game.history)
    game.apply(0, game.legal(0)[0])
    game.apply(0, "undo")
    game.apply(1, "accept")
    assert game.view(None) == before.view(None) and game.view(0) == before.view(0)
    again = replay(single_dummy(), game.history)
    assert again.view(1) == game.view(1)


# -- requests are bounded ------------------------------------------------------------------

def test_undo_requests_are_limited_per_deal_whatever_their_answers() -> None:
    """Three undo requests a deal by default (asked, withdrawn, rejected or accepted: each
    counts); the fourth is refused with the reason, and a new deal starts the count again."""
    game = bridge()
    to_play(game)
    play_first(game, 5)  # trick 2's lead
    asker = game.history[-1][0]
    answers = ["withdraw", "reject", "accept"]
    for answer in answers:
        if game.history[-1][0] != asker:  # the accepted undo took the card back: replay it
            play_first(game, 1)
        assert "undo" in game.asks(asker)
        game.apply(asker, "undo")
        if answer == "withdraw":
            game.apply(asker, "withdraw")
        else:
            for seat in sorted(game.to_act()):
                game.apply(seat, answer)
                if answer == "reject":
                    break
    play_first(game, 1)
    assert "undo" not in game.asks(asker)
    with pytest.raises(IllegalAction, match="asked to undo 3 times this deal"):
        game.apply(asker, "undo")
    copy = ContractBridge(None, 1)
    copy.stack_deck([c for seat in Seat for c in parse_deal(MIXED)[seat]])
    for seat, action in game.history:
        copy.apply(seat, action)
    assert same_state(copy, game)


def test_the_undo_limit_is_a_table_option() -> None:
    game = bridge({"undo_limit": 1})
    to_play(game)
    play_first(game, 2)
    asker = game.history[-1][0]
    game.apply(asker, "undo")
    game.apply(asker, "withdraw")
    with pytest.raises(IllegalAction, match="asked to undo 1 time this deal"):
        game.apply(asker, "undo")
    with pytest.raises(Exception, match="at least 0"):
        bridge({"undo_limit": -1})


def test_an_undo_limit_of_0_is_no_limit_and_a_table_stored_before_limits_replays() -> None:
    """A table stored before the undo limit existed (its options lack it) was played with
    none: its log may hold more requests than the default allows, and it must replay."""
    game = bridge({"undo_limit": 0})
    to_play(game)
    play_first(game, 2)
    asker = game.history[-1][0]
    for _ in range(DEFAULT_UNDO_LIMIT + 2):
        game.apply(asker, "undo")
        game.apply(asker, "withdraw")
    assert "undo" in game.asks(asker)
    stored = {k: v for k, v in game.options.items() if k != "undo_limit"}
    options = options_as_stored("bridge", stored)
    assert options["undo_limit"] == 0
    again = bridge(options)
    for seat, action in game.history:
        again.apply(seat, action)
    assert same_state(again, game)
    assert options_as_stored("bridge", dict(game.options, undo_limit=2))["undo_limit"] == 2


def test_a_claim_rejected_twice_waits_for_the_next_trick() -> None:
    game = bridge()
    to_play(game)
    play_first(game, 4)
    declarer = game.declarer
    assert declarer is not None
    for _ in range(2):
        game.apply(declarer, f"claim:{game.tricks_left()}")
        game.apply(sorted(game.to_act())[0], "reject")
    assert not [a for a in game.asks(declarer) if a.startswith("claim:")]
    with pytest.raises(IllegalAction, match=r"rejected twice.*another trick is complete"):
        game.apply(declarer, "claim:3")
    left = game.tricks_left()
    while game.tricks_left() == left:
        play_first(game, 1)
    assert [a for a in game.asks(declarer) if a.startswith("claim:")]


def test_single_dummy_undo_requests_are_limited_too() -> None:
    game = SingleDummyBridge(None, 3)
    while game.phase != "play":
        seat = only(game)
        legal = game.legal(seat)
        bids = [a for a in legal if a.startswith("bid:")]
        game.apply(seat, bids[0] if bids and not game.history else
                   ("pass" if "pass" in legal else legal[0]))
    play_first(game, 1)
    asker = game.history[-1][0]
    for _ in range(3):
        game.apply(asker, "undo")
        game.apply(asker, "withdraw")
    with pytest.raises(IllegalAction, match="this table's limit"):
        game.apply(asker, "undo")
