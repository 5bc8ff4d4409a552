"""The bidding system of the bridge computer players (bot.ai.bridge.bidding): one test per rule,
each with the explanation people see, and the reader's ranges for a few auctions."""

from __future__ import annotations

import pytest

from bot.ai.bridge.bidding import choose_call, explain_calls, read_auction
from bot.ai.bridge.bidding.captain import expected_points
from bot.ai.bridge.bidding.rules import Hand
from bot.ai.core.hand_range import HandRange
from bot.games.bridge_auction import Auction, Call
from bot.games.cards import Suit, parse_hand

N, E, S, W = 0, 1, 2, 3


def auction_of(calls: str, dealer: int) -> Auction:
    auction = Auction([(dealer + i) % 4 for i in range(4)], side_of=lambda s: s % 2)
    for text in calls.split():
        auction.call(auction.to_call(), Call.parse(text))
    return auction


def call(hand: str, calls: str = "", dealer: int = N) -> tuple[str, str]:
    """The call the system makes with `hand` for the seat to call after `calls`
    (space-separated, from the dealer), and its explanation."""
    auction = auction_of(calls, dealer)
    me = auction.to_call()
    return choose_call(parse_hand(hand), me, auction.calls, auction.legal_texts(me))


@pytest.mark.parametrize(("hand", "calls", "dealer", "expected", "says"), [
    # openings
    ("AQ3.KJ4.Q972.K84", "", N, "bid:1NT", "15–17 HCP, balanced"),
    ("AQ3.KJ4.AQ72.KQ4", "", N, "bid:2NT", "20–21 HCP, balanced"),
    ("AKQ3.AKJ4.AQ2.K4", "", N, "bid:2C", "strong and artificial: 22+ HCP, forcing"),
    ("AKJ74.K32.Q4.943", "", N, "bid:1S", "5+ spades, 11–21 HCP, 12–23 points, rule of 20"),
    ("K3.AKJ74.Q4.J943", "", N, "bid:1H", "5+ hearts, 11–21 HCP, 12–23 points, rule of 20"),
    ("AK74.KQ32.Q943.4", "", N, "bid:1D", "3+ diamonds, no five-card major, 11–21 HCP, 12–23 "
                                          "points, rule of 20"),
    ("AK74.KQ32.Q4.943", "", N, "bid:1C", "3+ clubs, no five-card major, 11–21 HCP, 12–23 points, "
                                          "rule of 20"),
    ("Q74.KQ9852.3.943", "", N, "bid:2H", "weak two: 6 good hearts, 5–10 HCP"),
    ("3.Q74.KQJ9852.94", "", N, "bid:3D", "pre-empt: 7+ good diamonds, 5–10 HCP"),
    ("Q74.K32.J954.943", "", N, "pass", "not enough to open: up to 14 HCP"),
    # responses to one of a suit
    ("K74.Q852.J92.943", "1H pass", N, "bid:2H", "simple raise: 3+ hearts, 6–10 points"),
    ("K74.Q852.AJ92.94", "1H pass", N, "bid:3H", "limit raise: 3+ hearts, 10–12 points"),
    ("A74.Q852.AJ92.K4", "1H pass", N, "bid:2NT",
     "Jacoby, game values: 4+ hearts, 13+ points, forcing"),
    ("4.QT852.J9432.94", "1H pass", N, "bid:4H", "pre-emptive raise: 5+ hearts, up to 9 HCP, a "
                                                 "singleton or void"),
    ("KJ74.Q32.943.943", "1C pass", N, "bid:1S", "4+ spades, 6+ points, forcing"),
    ("7.KJ3.Q9542.J943", "1S pass", N, "bid:1NT", "at most 2 spades, 6–10 HCP"),
    ("7.K3.AQ954.KJ943", "1S pass", N, "bid:2D",
     "two over one: 4+ diamonds, 10+ HCP, 11+ points, forcing"),
    ("974.852.J92.Q943", "1H pass", N, "pass", "up to 5 HCP"),
    # notrump: Stayman, transfers, quantitative
    ("K742.Q852.AJ2.94", "1NT pass", N, "bid:2C", "Stayman, asks for a major: 8+ HCP, a four-card "
                                                  "major, forcing"),
    ("AQ3.KJ4.Q972.K84", "1NT pass 2C pass", N, "bid:2D", "no four-card major"),
    ("AQ3.KJ94.Q72.K84", "1NT pass 2C pass", N, "bid:2H", "4+ hearts"),
    ("K742.Q852.AJ2.94", "1NT pass 2C pass 2H pass", N, "bid:4H", "to play game: 4+ hearts, 10+ "
                                                                  "HCP, up to 13 points"),
    ("K74.QJ852.J2.943", "1NT pass", N, "bid:2D", "transfer: 5+ hearts"),
    ("AQ3.K4.Q972.K842", "1NT pass 2D pass", N, "bid:2H", "completes the transfer: 2+ hearts"),
    ("K74.Q852.J92.943", "1NT pass", N, "pass", "to play: up to 7 HCP"),
    ("KQ4.Q85.AJ92.KJ3", "1NT pass", N, "bid:4NT",
     "quantitative, invites 6NT: 16–17 HCP"),
    ("K74.Q852.AJ2.943", "2NT pass", N, "bid:3C", "Stayman, asks for a major: 4+ HCP, a four-card "
                                                  "major, forcing"),
    ("K7.Q8.J9432.9432", "2NT pass", N, "bid:3NT", "to play: 4–11 HCP"),
    # the strong two clubs
    ("74.852.J92.96543", "2C pass", N, "bid:2D", "waiting, says nothing yet, forcing"),
    ("AK3.AKJ4.AQ2.K94", "2C pass 2D pass", N, "bid:2NT", "22–24 HCP, balanced"),
    ("K74.Q852.J92.943", "2C pass 2D pass 2NT pass", N, "bid:3C",
     "Stayman, asks for a major: 1+ HCP, a four-card major, forcing"),
    # opener's rebids
    ("AKJ74.AQ3.Q4.943", "1S pass 2S pass", N, "bid:3S", "game try: 16–18 points"),
    ("AKJ74.AK3.KQ4.94", "1S pass 2S pass", N, "bid:4S", "game: 19+ points"),
    ("AKJ74.K32.Q4.943", "1S pass 2S pass", N, "pass", "minimum: up to 15 points"),
    ("Q93.K4.AJ743.KJ4", "1D pass 1H pass", N, "bid:1NT", "11–14 HCP, balanced"),
    ("K932.KJ4.AJ743.4", "1D pass 1S pass", N, "bid:2S", "minimum: 4+ spades, up to 15 points"),
    ("K9.KJ4.AJ743.AQJ", "1D pass 1S pass", N, "bid:2NT", "18–19 HCP, balanced"),
    ("AKT54.AQ2.AKJ6.2", "1S pass 1NT pass", N, "bid:3D",
     "jump shift, forcing to game: 4+ diamonds, 19+ points"),
    # the captain's invitation in notrump, accepted with a maximum, declined without
    ("KQJT.J.T5.QT9874", "1D pass 1S pass 1NT pass", N, "bid:2NT", "invites 3NT: 9–11 HCP"),
    ("84.AQ3.KQJ3.Q632", "1D pass 1S pass 1NT pass 2NT pass", N, "bid:3NT",
     "to play in game, 14+ HCP"),
    ("84.AQ3.KQJ3.J632", "1D pass 1S pass 1NT pass 2NT pass", N, "pass",
     "nothing more to say"),
    # responder after a game try
    # a minor's game after its raise is five of it or 3NT: four of it is no game
    ("QJ.AK2.KQ86.KQT3", "1D pass 2D pass", N, "bid:3NT", "game: 18+ HCP, balanced"),
    ("2.AK2.KQJ86.AQT3", "1D pass 2D pass", N, "bid:5D", "game: 19+ points"),
    # opposite a pre-empt, 3NT with every other suit stopped, balanced or not
    ("AKQ3.A9.AQJT6.54", "3C pass", N, "bid:3NT",
     "to play: 16+ HCP, balanced, or a stopper in each other suit"),
    ("K74.Q852.QJ92.94", "1H pass 2H pass 3H pass", N, "bid:4H",
     "accepts the game try: 9+ points"),
    # competition
    ("AK3.AKJ4.AQ2.KQ4", "1S", E, "double", "takeout: 12+ HCP, at most two spades and 3+ of each "
                                            "other suit, or 17+ HCP, forcing"),
    ("AK3.KJ4.A2.Q9432", "1S", E, "bid:1NT", "15–18 HCP, balanced, a stopper in spades"),
    ("AQJ74.K32.94.943", "1C", E, "bid:1S", "overcall: 5+ spades, 6–17 HCP, 8–19 points, good "
                                            "spades, or two honours and 11+ points"),
    ("97432.AK2.K4.Q43", "1C", E, "pass", "no suitable overcall"),
    ("KQJ974.32.94.943", "1C", E, "bid:2S", "weak jump overcall: 6+ good spades, 5–10 HCP"),
    ("KJ93.Q74.32.J974", "1D 1H", N, "double", "negative: 4+ spades, 6+ HCP, forcing"),
    ("A7.A743.AQJ853.J", "1S pass pass", N, "bid:2D", "overcall: 5+ diamonds, 6–17 HCP, 8–19 "
                                                      "points"),
    ("A3.Q74.AK2.J9743", "1H 2D", N, "bid:4H", "game: 3+ hearts, 13+ points"),
    ("K74.Q852.J92.943", "1D double pass", N, "bid:1H", "my best unbid suit: up to 11 HCP"),
    ("KQ74.A852.J92.Q3", "1D double pass", N, "bid:4S", "game: 4+ spades, 12+ points"),
    ("A74.K52.942.AKJ3", "1D double pass", N, "bid:2D",
     "cue bid, asks for more: 10+ HCP, 12+ points, forcing"),
    ("K74.QJ85.92.K943", "1C 1H pass", N, "bid:2H", "3+ hearts, 7–10 points"),
    # four good trumps and game values: game, not a penalty double of their two-level
    # contract (double dummy the double did not pay)
    ("A4.KQT9.J432.Q32", "1C pass 1S 2H pass pass", N, "bid:3NT", "to play in game, 10+ HCP"),
    # competing for the part-score: in the fit's suit (not notrump)
    ("A972.A952.8.JT54", "pass pass 1H 2C 2H", E, "bid:3C", "support for clubs, competing"),
    # a takeout double is answered once: a pass over the bid in between answered it
    ("654.J962.QJT.K86", "pass 1D double 1S pass 2D pass pass", W, "pass",
     "nothing more to say"),
    # 2NT invites 3NT over their overcall: 11–12 and a stopper as responder; the advancer
    # of a two-level overcall (11–17) bids 3NT with 11
    ("A963.T8.K63.A532", "pass 1H 2S", N, "bid:2NT",
     "invites 3NT: 11–12 HCP, a stopper in spades"),
    ("A76.K2.AT92.J874", "1S 2H pass", N, "bid:3NT", "11+ HCP, a stopper in spades"),
    # the advancer counts from the overcall's strength: game with 25 together
    # (opposite a four-level overcall of 15–17, 9 points make game)
    ("T2.KQ92.K86.KT32", "3S 4C pass", E, "bid:5C", "game: 3+ clubs, 9+ points"),
    ("752.AKJT9.JT86.2", "2D 2S pass", N, "bid:4S", "game: 3+ spades, 11+ points"),
    ("A76.2.AT92.Q8743", "pass pass 1S 2H pass", S, "bid:2NT",
     "invites 3NT: 9–10 HCP, a stopper in spades"),
    # a simple raise takes 7 points at any level (5 passed a two-level overcall)
    ("JT84.K632.64.T92", "pass 1S 2C pass", N, "pass", "no fit, or not enough to bid"),
    ("K52.A843.J65.Q72", "2H 3C pass", N, "bid:5C", "game: 3+ clubs, 10+ points"),
    # a suit of our own over a four-level overcall: forcing, with game values
    ("AJ7.AJ842.K.AT76", "3S 4D pass", E, "bid:4H", "5+ hearts, 9+ points, forcing"),
    # slams: Roman Key Card Blackwood (0314) and the king ask
    ("K3.AKQJ74.KQ2.A4", "1H pass 2H pass 4NT pass", N, "bid:5C",
     "Roman Key Card answer: 0 or 3 key cards"),
    ("K3.KQJ74.KQ2.QJ4", "1H pass 3H pass 4NT pass", N, "bid:5D",
     "Roman Key Card answer: 1 or 4 key cards"),
    ("A3.K8742.Q52.943", "1H pass 2H pass 4NT pass", N, "bid:5H",
     "Roman Key Card answer: 2 key cards without the queen of hearts"),
    ("A3.KQ742.J52.943", "1H pass 2H pass 4NT pass", N, "bid:5S",
     "Roman Key Card answer: 2 key cards and the queen of hearts"),
    ("KQ3.AKQJ74.KQ2.4", "1H pass 3H pass 4NT pass 5C pass", S, "bid:5H",
     "stops in five: two key cards missing"),
    ("KQ3.AKQJ74.KQ2.A", "1H pass 3H pass 4NT pass 5D pass", S, "bid:6H",
     "small slam: at most one key card missing"),
    ("A3.AKQ4.A2.KQ842", "1D pass 1H pass 4H pass 4NT pass 5D pass", S, "bid:5NT",
     "asks for kings: all five key cards, the queen of trumps and grand-slam values"),
    # key-card answers wherever a suit is agreed
    ("A74.QJ52.KQ92.94", "1H pass 2NT pass 3H pass 3S pass 4NT pass", N, "bid:5D",
     "Roman Key Card answer: 1 or 4 key cards"),
    ("KJ42.Q852.KQ92.4", "1H pass 4C pass 4NT pass", N, "bid:5C",
     "Roman Key Card answer: 0 or 3 key cards"),
    # hearts are agreed after 1♠–2♥–3♥
    ("AQJ74.KJ65.Q4.K3", "1S pass 2H pass 3H pass 4C pass 4NT pass", N, "bid:5H",
     "Roman Key Card answer: 2 key cards without the queen of hearts"),  # hearts, not spades
    ("84.KQJ74.Q32.AQ3", "1S pass 2H pass 3H pass 4C pass 4H pass", N, "pass",
     "nothing more to say"),
    # a takeout doubler opposite partner's game answer leaves it; key-card answers
    ("KQ72.J86.974.AJ9", "3C pass pass double pass 4S pass", S, "pass", "nothing more to say"),
    ("QJ74.AQ7.J97.T84", "3C double pass 4S pass 4NT pass", S, "bid:5D",
     "Roman Key Card answer: 1 or 4 key cards"),
    ("AKT98.JT2.AKQ3.3", "3C double pass 4S pass 4NT pass 5C pass", S, "bid:5S",
     "stops in five: two key cards missing"),
    ("63.AK7.AQT73.AQ8", "1C pass 2D pass 2NT pass 3D pass 3NT pass", N, "bid:4NT",
     "quantitative: invites 6NT, 18+ HCP"),
    ("KQ.Q942.K92.K542", "1C pass 2D pass 2NT pass 4NT pass", N, "bid:6NT",
     "accepts the slam invitation: 13+ HCP"),
    ("K4.J9876.KQ3.A93", "1H pass 2NT pass 4H pass 4NT pass 5D pass 5NT pass", S,
     "bid:6H", "2 kings outside trumps"),
    ("A3.AKQ4.A2.KQ842", "1D pass 1H pass 4H pass 4NT pass 5D pass 5NT pass 6H pass", S,
     "bid:7H", "grand slam: every key card and every king"),
    ("A3.AKQ4.A2.QJ842", "1D pass 1H pass 4H pass 4NT pass 5D pass 5NT pass 6D pass", S,
     "bid:6H", "small slam: a king is missing"),
])
def test_rule(hand: str, calls: str, dealer: int, expected: str, says: str) -> None:
    assert call(hand, calls, dealer) == (expected, says)


def test_a_hand_of_23_points_doubles_an_opening_one_spade_for_takeout() -> None:
    assert call("A3.AKJ4.AQ2.KQJ4", "1S", E) == (
        "double", "takeout: 12+ HCP, at most two spades and 3+ of each other suit, or 17+ HCP, "
        "forcing")


def test_the_call_is_always_legal() -> None:
    # After 1S (N) 4S (S), a hand that would open still only bids above 4S or passes.
    action, _ = call("AK3.AKJ4.AQ2.KQ4", "1S pass 4S", N)
    assert action in ("pass", "double") or action > "bid:4S"


def test_reader_ranges_of_an_opening_and_a_raise() -> None:
    ranges = read_auction(N, auction_of("1S pass 2S pass", N).calls)
    assert ranges[N].min_len[Suit.SPADES] == 5 and ranges[N].min_hcp == 11
    assert ranges[S].min_len[Suit.SPADES] == 3 and ranges[S].max_hcp == 10
    assert ranges[E] == HandRange()  # a pass over an opening says little


@pytest.mark.parametrize(("calls", "seat", "high_cards", "promised", "counted"), [
    ("1H pass 2H", S, (2, 10), (6, 10), 8.0),  # simple raise, "6–10 points"
    ("1H pass 3H", S, (6, 12), (10, 12), 11.0),  # limit raise, "10–12 points"
    ("1H pass 1S", S, (2, 37), (6, 37), 9.5),  # new suit, "6+ points": under the middle
    ("1H", N, (11, 21), (12, 21), 15.15),  # "11–21 HCP, 12–23 points": 21 HCP at most
    ("1NT", N, (15, 17), (15, 17), 16.0),  # high cards only: counted as they are
])
def test_partner_is_counted_at_the_points_the_call_promised(
        calls: str, seat: int, high_cards: tuple[int, int], promised: tuple[int, int],
        counted: float) -> None:
    # The sampler's range stays loose (length and shortness are worth up to 4 points, so
    # a "6–10 points" raise may hold 2 high-card points); the captain counts the promise.
    shown = read_auction(N, auction_of(calls, N).calls)[seat]
    assert (shown.min_hcp, shown.max_hcp) == high_cards
    assert shown.strength() == promised
    assert expected_points(shown) == pytest.approx(counted)


def test_reader_narrows_a_1nt_opener_by_the_stayman_answer() -> None:
    ranges = read_auction(N, auction_of("1NT pass 2C pass 2S", N).calls)
    north = ranges[N]
    assert (north.min_hcp, north.max_hcp) == (15, 17)
    assert north.min_len[Suit.SPADES] == 4 and north.max_len[Suit.HEARTS] == 3
    assert north.admits(parse_hand("AQ32.K4.QJ72.K84"))
    assert not north.admits(parse_hand("AQ32.KJ32.Q97.K8"))


def test_reader_reads_a_takeout_double_and_its_answer() -> None:
    ranges = read_auction(W, auction_of("1S double pass 2H", W).calls)
    assert ranges[N].min_hcp == 12
    assert ranges[S].max_hcp == 11 and ranges[E].max_hcp == 5
    assert explain_calls(auction_of("1S double pass 2H", W).calls) == (
        "5+ spades, 11–21 HCP, 12–23 points, rule of 20",
        "takeout: 12+ HCP, at most two spades and 3+ of each other suit, or 17+ HCP, forcing",
        "up to 5 HCP", "my best unbid suit: up to 11 HCP")


def test_reader_keeps_a_range_when_a_persons_calls_contradict_it() -> None:
    # A person opens 1NT and later shows a void: the range never becomes empty.
    calls = auction_of("1NT pass 2C pass 3C pass pass pass", N).calls
    assert all(not r.empty for r in read_auction(N, calls))


def test_explanations_come_from_the_auction_alone() -> None:
    calls = auction_of("1H pass 2H pass 3H pass 4H pass pass pass", N).calls
    assert explain_calls(calls) == (
        "5+ hearts, 11–21 HCP, 12–23 points, rule of 20", "no suitable overcall",
        "simple raise: 3+ hearts, 6–10 points", "nothing more to say",
        "game try: 16–18 points", "nothing more to say",
        "accepts the game try: 9+ points", "nothing more to say", "nothing more to say",
        "nothing more to say")


def test_hand_facts() -> None:
    hand = Hand.of(parse_hand("AKJ752.K3.Q4.943"))
    assert (hand.hcp, hand.points, hand.support(Suit.HEARTS)) == (13, 15, 13 + 1)
    assert hand.aces() == 1 and hand.longest() == Suit.SPADES


def test_the_system_page_lists_every_situation_within_discords_limits() -> None:
    from bot.ai.bridge.bidding.summary import sections
    from bot.render.rules import system_embeds

    parts = sections()
    messages = system_embeds(parts)
    fields = [f for embeds in messages for e in embeds for f in e.fields]
    assert [f.name for f in fields] == [title for title, _ in parts]
    for embeds in messages:
        assert sum(len(e) for e in embeds) <= 6000
        assert all(len(f.value or "") <= 1024 for e in embeds for f in e.fields)
    assert all(len("\n".join(lines)) <= 1024 for _, lines in parts)  # none cut off
    opening = dict(parts)["Opening"]
    assert "1NT — 15–17 HCP, balanced" in opening
    key_cards = dict(parts)["Slams: Roman Key Card Blackwood 4NT (hearts agreed), the answers"]
    assert key_cards[0] == "5♣ — Roman Key Card answer: 0 or 3 key cards"


def test_auction_ranges_reads_a_seats_view() -> None:
    from bot.ai.bridge.bidding import auction_ranges
    from bot.games import create

    game = create("bridge", options={}, seed=3)
    dealer = game.view(None).dealer
    seat = dealer
    for text in ("bid:1NT", "pass", "bid:2C", "pass", "bid:2H"):
        game.apply(seat, text)
        seat = (seat + 1) % 4
    ranges = auction_ranges(game.view(seat))
    assert (ranges[dealer].min_hcp, ranges[dealer].max_hcp) == (15, 17)
    assert ranges[dealer].min_len[Suit.HEARTS] == 4
    assert ranges[(dealer + 2) % 4].max_hcp == 37 and ranges[(dealer + 2) % 4].min_hcp == 8


def test_key_card_answers_are_told_apart_by_our_key_cards_and_partners_strength() -> None:
    from bot.ai.bridge.bidding.slam import partner_key_cards

    opener = HandRange(min_hcp=12)
    weak = HandRange(min_hcp=6, max_hcp=10)
    assert partner_key_cards("5C", 3, opener) == 0  # 3 + 3 would be six key cards
    assert partner_key_cards("5C", 2, opener) == 3
    assert partner_key_cards("5C", 2, weak) == 0
    assert partner_key_cards("5C", 1, weak) == 3  # we would not ask missing four
    assert partner_key_cards("5D", 2, opener) == 1
    assert partner_key_cards("5D", 1, opener) == 4
    assert partner_key_cards("5H", 3, weak) == partner_key_cards("5S", 0, opener) == 2


def test_the_trump_suit_of_key_card_blackwood_is_the_suit_we_agreed() -> None:
    from bot.ai.bridge.bidding.context import Context
    from bot.ai.bridge.bidding.system import _context, agreed_trump, read, situation

    def ctx_after(calls: str, dealer: int) -> Context:
        auction = auction_of(calls, dealer)
        reading = read(0, auction.calls)
        return _context(auction.to_call(), auction.calls, reading.ranges, reading.forcing)

    # Jacoby 2NT agrees opener's hearts although responder never bid them.
    assert agreed_trump(ctx_after("1H pass 2NT pass 4H pass", S)) == Suit.HEARTS
    # A new suit raised is the trump suit, not opener's first suit.
    assert agreed_trump(ctx_after("1D pass 1S pass 3S pass", N)) == Suit.SPADES
    name, _ = situation(ctx_after("1D pass 1S pass 3S pass 4NT pass", N))
    assert name == "answer to Roman Key Card Blackwood"


def test_a_minimum_rebid_of_openers_suit_shows_at_most_18_points() -> None:
    ranges = read_auction(N, auction_of("1D pass 1H pass 2D", N).calls)
    assert ranges[N].max_hcp == 18 and ranges[N].min_len[Suit.DIAMONDS] == 5
