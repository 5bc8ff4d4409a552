"""What the cards played to others' leads say (`core.carding`), worked out by hand, and
that our card players do play the lowest of equal cards, as the reading assumes, or give
count where they signal."""

from __future__ import annotations

import math

import pytest

from bot.ai import Budget, make_player
from bot.ai.bridge import advanced
from bot.ai.bridge.advanced import AdvancedBridgePlayer, tricks_of
from bot.ai.core.carding import (
    FALSE_CARD,
    MISATTITUDE,
    MISCOUNT,
    UNENCOURAGED,
    UNSIGNALLED,
    Counting,
    attitude_occasions,
    attitude_signal,
    attitude_weigh,
    count_occasions,
    count_signal,
    count_weigh,
    discard_occasions,
    discard_signal,
    follows_weigh,
    unheld,
)
from bot.games import create
from bot.games.bridge import ContractBridge
from bot.games.bridge_view import DealRecord
from bot.games.cards import Card, Suit, parse_hand
from bot.tables.thinking import think_as_served
from tests.ai.helpers import (
    FOUR_HEARTS,
    bridge_play_position,
    four_hearts_played,
    searched_once_with,
    searched_with_and_without,
    steady,
    weighs_asked,
)


def _trick(*plays: str) -> list[tuple[int, Card]]:
    """A trick from 'seat:card' texts, the leader first."""
    return [(int(seat), Card.parse(card)) for seat, card in (p.split(":") for p in plays)]


# North leads ♠2, East plays ♠J, South ♠A, West ♠3; South leads ♠4, West ♠5, North ♠6,
# East ♠Q; East leads ♥K, South ♥2, West ♥9, North ♥3; East leads ♦5, South plays ♦9.
TRICKS = [_trick("0:2S", "1:JS", "2:AS", "3:3S"),
          _trick("2:4S", "3:5S", "0:6S", "1:QS"),
          _trick("1:KH", "2:2H", "3:9H", "0:3H"),
          _trick("1:5D", "2:9D")]


def test_a_card_played_to_another_s_lead_denies_the_next_lower_card_still_out():
    shown = unheld(TRICKS)
    # East's ♠J denies the ♠T; its ♠Q, the ♠J gone, the ♠T again.
    assert shown[1] == {Card.parse("TS")}
    # South's ♠A denies the ♠K, its ♦9 the ♦8; its ♥2 nothing.
    assert shown[2] == {Card.parse("KS"), Card.parse("8D")}
    # West's ♠3 and ♠5 and North's ♠6 and ♥3 sit just above a card on the table (no
    # choice between equal cards); West's ♥9 denies the ♥8.
    assert shown[3] == {Card.parse("8H")}
    assert shown[0] == frozenset()


def test_leads_and_the_lowest_cards_still_out_show_nothing():
    assert unheld([_trick("0:KS")]) == (frozenset(),) * 4
    # North's ♠6 over the ♠5 to the ♠2, gone in an earlier trick: nothing lower is out.
    assert unheld([_trick("0:2S", "1:3S", "2:4S", "3:5S"),
                   _trick("3:AH", "0:6S")]) == (frozenset(),) * 4
    assert follows_weigh([_trick("0:KS", "1:2S")]) is None
    assert follows_weigh([[]]) is None


def test_a_hand_holding_a_denied_card_weighs_false_card_times_as_likely():
    weigh = follows_weigh(TRICKS)
    assert weigh is not None
    with_ten = [*parse_hand("JQT.AK.AK.AKQJ"), Card.parse("9S")]
    without = parse_hand("JQ9.AK.AK.AKQJ")
    assert weigh(1, [with_ten, without]) == pytest.approx([math.log(FALSE_CARD), 0.0])
    # Each denied card held counts.
    assert weigh(2, [parse_hand("AK.2.98.AKQJ98")]) == pytest.approx(
        [2 * math.log(FALSE_CARD)])
    assert weigh(0, [without]) == [0.0]


def _denied_held(record: DealRecord, counting: Counting | None = None
                 ) -> list[tuple[int, Card]]:
    """Each (seat, card) where a seat held a card its plays to others' leads deny
    (`counting` as `unheld`'s)."""
    play = list(record.play)
    shown = unheld([play[i:i + 4] for i in range(0, len(play), 4)], counting)
    return [(seat, card) for seat in range(4) for card in shown[seat]
            if card in record.hands[seat]]


@pytest.mark.parametrize("seed", range(8))
def test_the_rule_based_player_plays_the_lowest_of_equal_cards(seed):
    """A whole match by `bridge-basic` in all four seats, checked after every card."""
    game = create("bridge", seed=seed)
    basic = [make_player("bridge", s, "bridge-basic") for s in range(4)]
    denials = 0
    while not game.finished:
        seat = next(iter(game.to_act()))
        game.apply(seat, basic[seat].choose(game.view(seat), game.legal(seat)))
        record = game.deal_record()
        assert _denied_held(record) == []
        play = list(record.play)
        denials += sum(map(len, unheld([play[i:i + 4] for i in range(0, len(play), 4)])))
    assert denials > 0


@pytest.mark.parametrize("seed", [3, 8])
@pytest.mark.parametrize("signals", ["off", "on"])
def test_the_card_search_plays_the_lowest_of_equal_cards(seed, signals):
    """Six tricks by `bridge-advanced` in all four seats at a small budget, with count and
    attitude signals (as served) and without: the lowest of equal cards but for its
    signals."""
    game = bridge_play_position(seed)
    assert isinstance(game, ContractBridge)
    players = [make_player("bridge", s, "bridge-advanced") for s in range(4)]
    for player in players:
        assert isinstance(player, AdvancedBridgePlayer)
        player.count_signals = player.attitude_signals = signals
    while len(game.deal_record().play) < 24:
        seat = next(iter(game.to_act()))
        action, players[seat] = think_as_served(players[seat], game.view(seat),
                                                game.legal(seat), Budget(0.2))
        game.apply(seat, action)
    record = game.deal_record()
    assert record.contract is not None
    counting = Counting(record.contract.declarer, attitude=True) if signals == "on" else None
    assert _denied_held(record, counting) == []


def _in_trick_five(seed: int = 21) -> tuple:
    game = bridge_play_position(seed, cards_played=17)
    seat = next(iter(game.to_act()))
    return game.view(seat), game.legal(seat)


@pytest.mark.parametrize("read_follows", [True, False])
def test_the_player_weighs_by_the_cards_followed_only_when_it_reads_them(monkeypatch,
                                                                         read_follows):
    view, legal = _in_trick_five()
    asked = weighs_asked(monkeypatch, "follows_weigh", "read_follows", read_follows, view,
                         legal)
    # Count and attitude signals, as served.
    served = Counting(view.contract.declarer, attitude=True, trumps=view.contract.trump)
    assert asked == ([(tricks_of(view), served)] if read_follows else [])


def test_the_player_as_served_reads_the_cards_followed(monkeypatch):
    asked = []
    monkeypatch.setattr(advanced, "follows_weigh",
                        lambda tricks, counting: asked.append((tricks, counting)))
    view, legal = _in_trick_five()
    action, back = think_as_served(make_player("bridge", 5, "bridge-advanced"), view, legal,
                                   Budget(5.0))
    assert action in legal and isinstance(back, AdvancedBridgePlayer) and back.read_follows
    # Count and attitude signals given and read, as served.
    assert asked == [(tricks_of(view), Counting(view.contract.declarer, attitude=True,
                                                trumps=view.contract.trump))]


def test_reading_the_cards_followed_changes_the_layouts_and_the_same_seed_chooses_the_same():
    view, legal = _in_trick_five()
    assert follows_weigh(tricks_of(view)) is not None  # some play here denies a card
    outcomes = searched_with_and_without("read_follows", view, legal)
    assert len(outcomes[True]) == 1 and len(outcomes[False]) == 1  # the same seed, the same
    assert outcomes[True] != outcomes[False]  # other layouts, other averages


def test_tricks_of_a_view_end_with_the_trick_in_progress():
    view, _ = _in_trick_five()
    tricks = tricks_of(view)
    assert [len(t) for t in tricks[:-1]] == [4] * (len(view.played) // 4)
    assert tricks[-1] == list(view.trick)


# North declares. North leads ♠A: East ♠7, South ♠3, West ♠2; North leads ♠K: East ♠4
# (its second spade); East leads ♥5: South ♥2, West ♥8, North ♥A; South leads ♦4: West ♦Q,
# North ♦6, East ♦9.
COUNTED = [_trick("0:AS", "1:7S", "2:3S", "3:2S"),
           _trick("0:KS", "1:4S", "2:5S", "3:6S"),
           _trick("1:5H", "2:2H", "3:8H", "0:AH"),
           _trick("2:4D", "3:QD", "0:6D", "1:9D")]


def test_count_is_given_by_a_defender_s_first_small_card_to_a_suit_declarer_s_side_leads():
    # East's ♠7 and West's ♠2 to North's ♠A; East's ♦9 to South's ♦4. Not East's second
    # spade, nor anything to East's own lead, nor declarer's or dummy's cards, nor West's
    # ♦Q (no small card).
    assert count_occasions(COUNTED, Counting(0)) == [
        (1, Card.parse("7S")), (3, Card.parse("2S")), (1, Card.parse("9D"))]
    # With East declaring, North and South give count to East's and West's leads.
    assert count_occasions(COUNTED, Counting(1)) == [(2, Card.parse("2H"))]


def test_only_the_seats_that_give_count_are_read_for_it():
    # West (a person, say) is not among the givers: its ♠2 is read as the lowest of equal
    # cards, East's ♠7 and ♦9 as count.
    givers = Counting(0, frozenset({0, 1, 2}))
    assert count_occasions(COUNTED, givers) == [(1, Card.parse("7S")), (1, Card.parse("9D"))]
    weigh = count_weigh([_trick("0:AS", "1:3S", "2:4S", "3:7S")], Counting(0, frozenset({1})))
    assert weigh is not None  # East's ♠3 gives count
    # West's ♠7, from a seat that gives none, says nothing of its length.
    assert weigh(3, [parse_hand("975.AKQ.AKQ.AKQJ")]) == [0.0]
    shown = unheld([_trick("0:AS", "1:8S", "2:4S", "3:7S")], Counting(0, frozenset({1})))
    assert shown[3] == {Card.parse("6S")} and shown[1] == frozenset()


def test_a_count_signal_denies_no_lower_card_where_the_defenders_give_count():
    # East's ♠7 denies the ♠6 read as the lowest of equal cards, not read as count.
    assert Card.parse("6S") in unheld(COUNTED)[1]
    assert Card.parse("6S") not in unheld(COUNTED, Counting(0))[1]
    # East's ♦9 likewise (the ♦8); West's ♦Q, no small card, denies the ♦J either way.
    assert Card.parse("8D") in unheld(COUNTED)[1]
    assert Card.parse("8D") not in unheld(COUNTED, Counting(0))[1]
    assert Card.parse("JD") in unheld(COUNTED)[3] and Card.parse("JD") in unheld(
        COUNTED, Counting(0))[3]
    assert follows_weigh([_trick("0:AS", "1:7S")], Counting(0)) is None


def _cards(text: str) -> list[Card]:
    return [Card.parse(card) for card in text.split()]


def test_count_goes_high_with_an_even_number_and_low_with_an_odd_one():
    lead = [_trick("0:AS")]  # North declares and leads; East to play
    even, odd = parse_hand("9732.AK.AK.AKQJ"), parse_hand("973.AK.AK.AKQJ9")
    assert count_signal(lead, 1, 0, even, _cards("9S 7S 3S")) == Card.parse("9S")
    assert count_signal(lead, 1, 0, odd, _cards("9S 7S 3S")) == Card.parse("3S")
    # Only the small cards count (the ten is none), and two of them are needed.
    with_ten, odd_with_ten = parse_hand("T732.AK.AK.AKQJ"), parse_hand("T73.AK.AK.AKQJ9")
    assert count_signal(lead, 1, 0, with_ten, _cards("TS 7S")) is None
    assert count_signal(lead, 1, 0, with_ten, _cards("TS 7S 3S")) == Card.parse("7S")
    assert count_signal(lead, 1, 0, odd_with_ten, _cards("TS 7S 3S")) == Card.parse("3S")
    # No count to a defender's lead, from declarer's side, or in a suit played before.
    assert count_signal([_trick("3:AS")], 1, 0, even, _cards("9S 7S")) is None
    assert count_signal([_trick("1:AS")], 2, 0, even, _cards("9S 7S")) is None
    assert count_signal([_trick("1:KS", "2:QS", "3:8S", "0:AS"), _trick("0:JS")], 1, 0,
                        even, _cards("9S 7S")) is None


def test_a_hand_that_gives_count_wrongly_weighs_less():
    weigh = count_weigh([_trick("0:AS", "1:7S")], Counting(0))
    assert weigh is not None
    # East's ♠7: from ♠973 (odd, the ♠3 below it) miscounted; from ♠9873 or ♠73 (even,
    # high) or ♠7 alone (odd, its lowest) as signalled; from ♠Q7 (even, but only an
    # honour above it) nothing to signal with.
    hands = [parse_hand(text) for text in (
        "973.AK.AK.AKQJ9", "9873.AK.AK.AKQJ", "7.AKQ.AKQ.AKQJ9", "73.AKQ.AK.AKQJ9",
        "7Q.AKQ.AK.AKJ98")]
    assert weigh(1, hands) == pytest.approx(
        [math.log(MISCOUNT), 0.0, 0.0, 0.0, 0.0])
    # East's ♠7 its lowest from an even number with a small card above it: unsignalled.
    assert weigh(1, [parse_hand("87.AKQ.AK.AKQJ9")]) == pytest.approx(
        [math.log(UNSIGNALLED)])
    assert weigh(0, hands) == [0.0] * len(hands)  # North gave no count
    assert count_weigh([_trick("1:AS", "2:7S")], Counting(0)) is None


def test_a_defender_gives_count_to_declarer_s_trump_lead_only_where_it_signals():
    """`FOUR_HEARTS` after ♠K led and won by North's ♠A: North leads the ♥A, and East,
    holding ♥73, plays the ♥7 giving count and the ♥3 without."""
    game = four_hearts_played("KS", "6S", "3S", "AS", "AH")
    view, legal = game.view(1), game.legal(1)
    assert sorted(legal) == ["play:3H", "play:7H"]
    assert _played_each_way("count_signals", view, legal, "3H 7H") == {
        "on": "play:7H", "ignored": "play:3H", "off": "play:3H"}


def _played_each_way(switch: str, view, legal, equal: str) -> dict[str, str]:
    """The card played with the player's signal `switch` at each of its values, where the
    search rates exactly the cards `equal` the same."""
    played = {}
    for signals in ("on", "ignored", "off"):
        player = make_player("bridge", 3, "bridge-advanced")
        assert isinstance(player, AdvancedBridgePlayer)
        setattr(player, switch, signals)
        played[signals], back = think_as_served(player, view, legal, steady(5.0))
        assert isinstance(back, AdvancedBridgePlayer) and back.last_outcome is not None
        assert back.last_outcome.equals == set(_cards(equal))
    return played


@pytest.mark.parametrize("signals", ["off", "ignored", "on"])
def test_the_player_reads_count_only_where_it_signals(monkeypatch, signals):
    """`FOUR_HEARTS`: East gave count with the ♥7 and West with the ♥4 to North's ♥A;
    North leads the ♦K and East chooses."""
    game = four_hearts_played("KS", "6S", "3S", "AS", "AH", "7H", "6H", "4H", "KD")
    view, legal = game.view(1), game.legal(1)
    asked: dict[str, list[tuple]] = {"follows_weigh": [], "count_weigh": []}
    for name, calls in asked.items():
        real = getattr(advanced, name)
        monkeypatch.setattr(advanced, name,
                            lambda *args, real=real, calls=calls: calls.append(args) or real(*args))
    searched_once_with("count_signals", signals, view, legal)
    # Off, the count's cards are read as the lowest of equal cards; ignored, they deny
    # nothing; on, the count they give is read too. Attitude is given, as served.
    counting = Counting(0, count=signals != "off", attitude=True, trumps=Suit.HEARTS)
    assert asked["follows_weigh"] == [(tricks_of(view), counting)]
    assert asked["count_weigh"] == ([(tricks_of(view), counting)] if signals == "on" else [])
    assert count_weigh(tricks_of(view), Counting(0)) is not None


def test_the_player_reads_count_only_from_the_seats_the_table_names(monkeypatch):
    game = four_hearts_played("KS", "6S", "3S", "AS", "AH", "7H", "6H", "4H", "KD")
    view, legal = game.view(1), game.legal(1)
    asked: list[tuple] = []
    real = advanced.count_weigh
    monkeypatch.setattr(advanced, "count_weigh",
                        lambda *args: asked.append(args) or real(*args))
    player = AdvancedBridgePlayer(5)
    player.count_signals = "on"
    player.seated_with(frozenset({1, 2}))  # West is a person
    assert player.choose(view, legal, steady(5.0)) in legal
    assert asked == [(tricks_of(view), Counting(0, frozenset({1, 2}), attitude=True,
                                                trumps=Suit.HEARTS))]


ATTITUDE = Counting(0, count=False, attitude=True)


def test_attitude_is_shown_by_a_defender_s_first_small_card_to_partner_s_lead():
    # West's ♥8 to East's ♥5 lead: nothing to North's or South's leads, which give count.
    assert attitude_occasions(COUNTED, ATTITUDE) == [(3, Card.parse("8H"))]
    assert attitude_occasions(COUNTED, Counting(0)) == []  # count alone
    both = Counting(0, attitude=True)
    assert count_occasions(COUNTED, both) == count_occasions(COUNTED, Counting(0))
    assert attitude_occasions(COUNTED, both) == [(3, Card.parse("8H"))]
    # East's ♥5 lead shows nothing; nor does a second card of the suit.
    again = [*COUNTED, _trick("1:3H", "2:TH", "3:9H", "0:KH")]
    assert attitude_occasions(again, ATTITUDE) == [(3, Card.parse("8H"))]


def test_attitude_goes_high_holding_an_honour_and_low_without():
    lead = [_trick("1:KS", "2:6S")]  # East leads against North's contract; West to play
    honour, none = parse_hand("Q43.AK.AK.AKQJ9"), parse_hand("T43.AK.AK.AKQJ9")
    assert attitude_signal(lead, 3, 0, honour, _cards("4S 3S")) == Card.parse("4S")
    assert attitude_signal(lead, 3, 0, none, _cards("TS 4S 3S")) == Card.parse("3S")
    assert attitude_signal(lead, 3, 0, honour, _cards("QS")) is None  # one card: no choice
    # None to declarer's side's leads (count's occasion) or from declarer's side.
    assert attitude_signal([_trick("0:AS")], 1, 0, honour, _cards("4S 3S")) is None
    assert attitude_signal([_trick("3:KS")], 0, 0, honour, _cards("4S 3S")) is None


def test_a_hand_that_shows_attitude_wrongly_weighs_less():
    weigh = attitude_weigh([_trick("1:KS", "2:6S", "3:4S")], ATTITUDE)
    assert weigh is not None
    # West's ♠4: above its lowest with the ♠Q (encouraging) as shown, without an honour
    # wrongly; its lowest with the ♠Q and a small card above it: not encouraged; its
    # lowest with only an honour above it, or alone: nothing to show it with.
    hands = [parse_hand(text) for text in (
        "Q43.AK.AK.AKQJ9", "T43.AK.AK.AKQJ9", "Q54.AK.AK.AKQJ9", "Q4.AKQ.AK.AKQJ9",
        "4.AKQ.AKQ.AKQJ9")]
    assert weigh(3, hands) == pytest.approx(
        [0.0, math.log(MISATTITUDE), math.log(UNENCOURAGED), 0.0, 0.0])
    assert weigh(1, hands) == [0.0] * len(hands)  # East led: no signal
    assert attitude_weigh([_trick("1:KS", "2:6S", "3:4S")], Counting(0)) is None


def test_an_attitude_signal_denies_no_lower_card_where_the_defenders_show_attitude():
    tricks = [_trick("1:KS", "2:6S", "3:8S")]
    assert unheld(tricks)[3] == {Card.parse("7S")}
    assert unheld(tricks, Counting(0))[3] == {Card.parse("7S")}  # count alone reads it so
    assert unheld(tricks, ATTITUDE)[3] == frozenset()


# `FOUR_HEARTS` with East's ♠Q and West's ♠T exchanged: West holds ♠Q43.
QUEEN_WEST = (FOUR_HEARTS[0], tuple(parse_hand("KJT5.73.A9842.65")), FOUR_HEARTS[2],
              tuple(parse_hand("Q43.42.T765.JT98")))


def test_a_defender_encourages_partner_s_lead_holding_an_honour_only_where_it_signals():
    """East leads the ♠K against 4♥ and dummy plays the ♠6: West, holding ♠Q43, plays the
    ♠4 showing attitude and the ♠3 without."""
    game = four_hearts_played("KS", "6S", hands=QUEEN_WEST)
    view, legal = game.view(3), game.legal(3)
    assert sorted(legal) == ["play:3S", "play:4S", "play:QS"]
    assert _played_each_way("attitude_signals", view, legal, "3S 4S") == {
        "on": "play:4S", "ignored": "play:3S", "off": "play:3S"}


# North declares in hearts. North leads ♠A: East ♠7, South ♠3, West discards the ♦8 (its
# first diamond); North leads ♠K: East ♠4, South ♠5, West the ♦3 (its second); North leads
# ♠Q: East ♠6, South ♠9, West ruffs with the ♥2; South leads ♦K: West ♦T, North ♦A, East
# discards the ♣9 (its first club); then East the ♣K (no small card).
DISCARDED = [_trick("0:AS", "1:7S", "2:3S", "3:8D"),
             _trick("0:KS", "1:4S", "2:5S", "3:3D"),
             _trick("0:QS", "1:6S", "2:9S", "3:2H"),
             _trick("2:KD", "3:TD", "0:AD", "1:9C"),
             _trick("2:QD", "3:7D", "0:4D", "1:KC")]
IN_DISCARDS = Counting(0, count=False, discards=True, trumps=Suit.HEARTS)


def test_count_in_discards_is_a_defender_s_first_small_card_of_a_suit_not_led_nor_trumps():
    # West's ♦8 and East's ♣9: not West's second diamond, its ruff, nor East's ♣K.
    assert discard_occasions(DISCARDED, IN_DISCARDS) == [
        (3, Card.parse("8D")), (1, Card.parse("9C"))]
    # At no trumps the ♥2 is a discard too; without the convention nothing is.
    no_trumps = Counting(0, count=False, discards=True)
    assert discard_occasions(DISCARDED, no_trumps) == [
        (3, Card.parse("8D")), (3, Card.parse("2H")), (1, Card.parse("9C"))]
    assert discard_occasions(DISCARDED, Counting(0, attitude=True)) == []
    # Only the seats that give it are read for it.
    east = Counting(0, frozenset({1}), count=False, discards=True, trumps=Suit.HEARTS)
    assert discard_occasions(DISCARDED, east) == [(1, Card.parse("9C"))]


def test_a_discard_signal_denies_no_lower_card_where_the_defenders_give_it():
    assert Card.parse("7D") in unheld(DISCARDED)[3]
    assert Card.parse("7D") not in unheld(DISCARDED, IN_DISCARDS)[3]
    assert Card.parse("8C") not in unheld(DISCARDED, IN_DISCARDS)[1]


def test_a_discard_gives_count_in_its_suit_high_with_an_even_number_and_low_with_an_odd_one():
    lead = [_trick("0:AS")]  # North leads a spade; East, void, discards
    even, odd = parse_hand(".AK2.AKQJ8.9732"), parse_hand(".AK2.AKQJ87.973")
    clubs = _cards("9C 7C 3C 2C")
    assert discard_signal(lead, 1, 0, Suit.HEARTS, even, clubs, Card.parse("2C")) == (
        Card.parse("9C"))
    assert discard_signal(lead, 1, 0, Suit.HEARTS, odd, _cards("9C 7C 3C"),
                          Card.parse("3C")) == Card.parse("3C")
    # The suit is the search's card's: the equal diamonds alongside say nothing.
    assert discard_signal(lead, 1, 0, Suit.HEARTS, even, [*clubs, *_cards("8D")],
                          Card.parse("2C")) == Card.parse("9C")
    # No signal following suit, ruffing, with one small card, or in a suit discarded
    # before.
    spades = parse_hand("32.AK.AKQJ8.9732")
    assert discard_signal(lead, 1, 0, Suit.HEARTS, spades, _cards("3S 2S"),
                          Card.parse("2S")) is None
    assert discard_signal(lead, 1, 0, Suit.HEARTS, even, _cards("3H 2H"),
                          Card.parse("2H")) is None
    assert discard_signal(lead, 1, 0, Suit.HEARTS, even, _cards("2C"), Card.parse("2C")) is None
    before = [_trick("0:KS", "1:4C", "2:3S", "3:2S"), *lead]
    assert discard_signal(before, 1, 0, Suit.HEARTS, even, clubs, Card.parse("2C")) is None


def test_the_count_of_a_discard_is_read_as_the_count_of_a_follow():
    weigh = count_weigh([_trick("0:AS", "1:7S", "2:3S", "3:8D")], IN_DISCARDS)
    assert weigh is not None
    # West's ♦8 from ♦853 (odd, a small card below it) miscounted; from ♦8532 (even, high)
    # as signalled.
    hands = [parse_hand(text) for text in (".AKQJT9.853.AKQJ", ".AKQJT.8532.AKQJ")]
    assert weigh(3, hands) == pytest.approx([math.log(MISCOUNT), 0.0])
    assert count_weigh([_trick("0:AS", "1:7S", "2:3S", "3:8D")], Counting(0)) is not None
    assert count_weigh([_trick("0:AS", "1:KS", "2:3S", "3:8D")],
                       Counting(0, count=False, attitude=True)) is None


def test_a_defender_gives_count_in_its_first_discard_only_where_it_signals():
    """`FOUR_HEARTS`: North draws trumps; at the fifth heart East, holding ♣65 (an even
    number), discards a club for the first time."""
    game = four_hearts_played("KS", "6S", "3S", "AS", "AH", "7H", "6H", "4H", "KH", "3H",
                              "8H", "2H", "QH", "2D", "9H", "4S", "JH")
    view, legal = game.view(1), game.legal(1)
    assert _played_each_way("discard_signals", view, legal, "5C 6C") == {
        "on": "play:6C", "ignored": "play:5C", "off": "play:5C"}
