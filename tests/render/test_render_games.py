"""The per-game message texts, rendered from real matches.

Random legal matches (random players for the first deals, then each game's own rule-based
computer player so the match ends) are stopped at many points: the bidding, mid-trick, just
after a deal ends, and once the match is over. At each point the public table, every seat's hand
(with every two-step menu opened), the deal's end and the match's end are rendered and
checked against Discord's limits, for privacy (no card a viewer may not see), and for
buttons (every legal action has exactly one reachable button).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.ai import RandomPlayer, make_player, player_kinds
from bot.games import Game, create
from bot.games.cards import Card, Rank, Suit
from bot.render import ids
from bot.render import messages as m
from bot.render.games import text_for
from bot.render.games.common import call_label, grid
from bot.render.text import action_label, cards_inline, hand_block, hand_compact
from discord_double import limits
from tests.view_cards import cards_in as view_cards

NAMES = ("Ann", "Ben", "Cleo", "Dmitri")
TABLE = 4242
OPTIONS: dict[str, dict[str, object]] = {
    "spades": {"target": 200},
    "bridge": {},
    "single_dummy": {"target": 200},
    "tennis": {},
    "bidfair": {"target": 300},
}
# Fields of a message whose text the per-game code does not write (the score sheet and the
# table's recent events); they are built from public records elsewhere.
NOT_OURS = ("Score", "Latest", "Score sheet")


# -- reading cards back out of rendered text ----------------------------------------------

_SUITS = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}
_RANK = r"(?:10|[2-9TJQKA])"
_LABEL = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♠♥♦♣])")
# A suit symbol followed by ranks, as hand lines (`♠ A K 10 3`) and diagrams (`♠ AKT3`)
# write them; a rank directly followed by a suit symbol is a card label instead.
_GROUP = re.compile(rf"([♠♥♦♣]) ?({_RANK}(?: ?{_RANK})*)(?![0-9A-Za-z♠♥♦♣])")
_TOKENS = re.compile(_RANK)


def _card(rank: str, suit: str) -> Card:
    return Card(_SUITS[suit], Rank.parse("T" if rank == "10" else rank))


def cards_of_view(obj: Any) -> set[Card]:
    """The cards of a view or summary, leaving out past deals and the score sheet."""
    return view_cards(obj, ("previous_deal", "score"))


def cards_in(text: str) -> set[Card]:
    """Every card a rendered text names, in any of the forms the messages use."""
    found = {_card(r, s) for r, s in _LABEL.findall(text)}
    for suit, ranks in _GROUP.findall(text):
        found.update(_card(r, suit) for r in _TOKENS.findall(ranks))
    return found




def bid_labels(calls: Any) -> list[str]:
    """The suit bids of a bridge auction, which read like card labels (`4♠`)."""
    texts = [call if isinstance(call, str) else call.text for _, call in calls]
    return [call_label(t) for t in texts if t.startswith("bid:")]


def message_text(msg: m.Message) -> str:
    parts = [msg.content or ""]
    for embed in msg.embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])
                  if f["name"] not in NOT_OURS]
    return "\n".join(parts)


def mentioned(msg: m.Message, strip: list[str]) -> set[Card]:
    text = message_text(msg)
    for label in sorted(set(strip), key=len, reverse=True):
        text = re.sub(rf"(?<![0-9]){re.escape(label)}", " ", text)
    return cards_in(text)


# -- Discord's limits and the buttons -------------------------------------------------------

def check_limits(msg: m.Message, where: str) -> None:
    body: dict[str, Any] = {"content": msg.content,
                            "embeds": [e.to_dict() for e in msg.embeds],
                            "components": msg.components()}
    problems = limits.check_message(body)
    assert not problems, f"{where}: {problems}"


def custom_ids(msg: m.Message) -> list[str]:
    return [c["custom_id"] for row in msg.components() for c in row["components"]
            if "custom_id" in c]


def reachable_actions(render: Any) -> list[str]:
    """Every action with a button, opening each group of a two-step menu once."""
    found: list[str] = []
    first = render(None)
    for cid in custom_ids(first):
        parsed = ids.parse(cid)
        if parsed.verb == "act":
            found.append(ids.parse_action(parsed).action)
        elif parsed.verb == "pick" and parsed.args[-1] != "-":
            menu = render(parsed.args[-1])
            for inner in custom_ids(menu):
                inner_parsed = ids.parse(inner)
                if inner_parsed.verb == "act":
                    found.append(ids.parse_action(inner_parsed).action)
    return found


# -- driving matches ----------------------------------------------------------------------

def seating(game: Game, names: tuple[str, ...] = NAMES) -> m.Seating:
    n = game.SEATS
    return m.Seating(seat_names=tuple(game.SEAT_NAMES), names=names[:n],
                     user_ids=tuple(1000 + s for s in range(n)), bots=(False,) * n)


def checkpoints(name: str, seed: int, options: dict[str, object] | None = None
                ) -> Iterator[tuple[Game, str]]:
    """A match played to its end, paused at many points (bidding, mid-trick, deal ends)."""
    game = create(name, OPTIONS[name] if options is None else options, seed)
    randoms = [RandomPlayer(seed * 10 + s) for s in range(game.SEATS)]
    # The rule-based level (the last listed): it ends the match as the strongest does, in a
    # fraction of the time (what is rendered is checked, not how well the cards are played).
    rule_based = player_kinds(name)[-1]
    bots = [make_player(name, seed * 10 + s, rule_based) for s in range(game.SEATS)]
    yield game, "start"
    step = 0
    while not game.finished:
        assert step < 20000, "the match did not end"
        seat = min(game.to_act())
        deal_no = game.view(None).deal_no
        player = randoms[seat] if deal_no <= 2 else bots[seat]
        events = game.apply(seat, player.choose(game.view(seat), game.legal(seat)))
        step += 1
        if any(e.kind == "deal_end" for e in events):
            yield game, f"deal end after action {step}"
        elif (deal_no == 1 and step % 3 == 0) or step % 23 == 0:
            yield game, f"action {step}"
    yield game, "match over"


def check_point(name: str, game: Game, where: str, names: tuple[str, ...] = NAMES) -> None:
    seats = seating(game, names)
    title = game.TITLE
    text = text_for(name)
    public_view = game.view(None)
    bridge_like = name in ("bridge", "single_dummy")
    strip = bid_labels(public_view.calls) if bridge_like else []

    public = m.public_table(TABLE, name, title, public_view, seats, ["A line of news."],
                            sorted(game.to_act()))
    check_limits(public, f"{where} public table")
    assert len(public.embeds[0].fields) <= 9, f"{where}: the table has too many fields"
    visible = cards_of_view(public_view)
    leaked = mentioned(public, strip) - visible
    assert not leaked, f"{where}: the public table shows hidden cards {sorted(leaked)}"
    assert {c for _, c in public_view.trick} <= cards_in(message_text(public)), where

    for seat in range(game.SEATS):
        view = game.view(seat)
        legal = game.legal(seat)

        def render(group: str | None, seat: int = seat, view: Any = view,
                   legal: list[str] = legal) -> m.Message:
            return m.hand(TABLE, name, title, seat, view, legal, 7, seats, group=group)

        msg = render(None)
        check_limits(msg, f"{where} hand of seat {seat}")
        own = cards_of_view(view)
        seat_strip = bid_labels(view.calls) if bridge_like else []
        leaked = mentioned(msg, seat_strip) - own
        assert not leaked, f"{where}: seat {seat}'s hand shows {sorted(leaked)}"
        assert set(view.hand) <= cards_in(message_text(msg)), f"{where}: seat {seat}'s cards"
        if game.finished:
            assert "The match is over" in (msg.content or ""), where
        if legal:
            reached = reachable_actions(render)
            # Exactly the legal actions, and the claims and undo the seat may ask (bridge).
            asks = list(getattr(view, "asks", ()))
            assert sorted(reached) == sorted([*legal, *asks]), f"{where}: buttons of seat {seat}"
            for group in {ids.parse(c).args[-1] for c in custom_ids(msg)
                          if ids.parse(c).verb == "pick"}:
                check_limits(render(group), f"{where} menu {group} of seat {seat}")
            assert text.prompt(view, legal).startswith("**"), where

    end = m.deal_end(TABLE, name, title, public_view, seats)
    if end is not None:
        check_limits(end, f"{where} deal end")
        summary = public_view.previous_deal
        dealt = cards_of_view(summary)
        shown = mentioned(end, bid_labels(summary.calls) if bridge_like else [])
        assert shown <= dealt, f"{where}: the deal end shows {sorted(shown - dealt)}"
        hands = summary.hands if hasattr(summary, "hands") else ()
        # Every hand is in the picture's description (its alt text), not in the text.
        assert end.picture is not None
        assert {c for h in hands for c in h} <= cards_in(end.picture.description), where
    if game.finished:
        result = game.result()
        assert result is not None
        check_limits(m.match_end(TABLE, title, result, game.scores(), seats),
                     f"{where} match end")


GAME_SEEDS = [(name, seed) for name in OPTIONS for seed in (1, 2, 3)]


@pytest.mark.parametrize(("name", "seed"), GAME_SEEDS)
def test_whole_matches_render_within_limits_privately_with_every_action(name: str,
                                                                       seed: int) -> None:
    stages = set()
    for game, where in checkpoints(name, seed):
        check_point(name, game, f"{name} seed {seed} {where}")
        stages.add(game.view(None).phase)
    assert "play" in stages and "match_over" in stages


@pytest.mark.parametrize(("name", "options"), [
    ("spades", {"target": 100, "bags_penalty": True}),
    ("single_dummy", {"target": 100, "undertrick_penalty": True}),
])
def test_option_variants_render(name: str, options: dict[str, object]) -> None:
    for game, where in checkpoints(name, 5, options):
        check_point(name, game, f"{name} {options} {where}")


@pytest.mark.parametrize("name", list(OPTIONS))
def test_longest_display_names_stay_within_limits(name: str) -> None:
    longest = tuple(f"{'Ω' * 28}{seat:04d}" for seat in range(4))  # Discord allows 32
    for game, where in checkpoints(name, 7):
        check_point(name, game, f"{name} long names {where}", longest)


def test_action_labels_cover_every_engine_action() -> None:
    seen: set[str] = set()
    for name in OPTIONS:
        for seed in (4, 5):
            game = create(name, OPTIONS[name], seed)
            players = [RandomPlayer(seed + s) for s in range(game.SEATS)]
            while not game.finished and game.view(None).deal_no <= 3:
                for seat in range(game.SEATS):
                    seen.update(game.legal(seat))
                seat = min(game.to_act())
                game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    kinds = {a.partition(":")[0] for a in seen}
    assert {"play", "bid", "pass", "look", "crib", "up", "down", "exchange", "keep",
            "dummy"} <= kinds
    for action in seen:
        label = action_label(action)
        assert label and len(label) <= 80 and ":" not in label, (action, label)
        assert label != action or action in ("pass",), action


@pytest.mark.parametrize(("action", "label"), [
    ("bid:5", "5"), ("bid:nil", "Nil"), ("bid:double_nil", "Double Nil"),
    ("look", "Look at my hand"), ("bid:7H", "7♥"), ("bid:TH", "10♥"), ("bid:KS", "K♠"),
    ("bid:3NT", "3NT"), ("bid:1C", "1♣"), ("pass", "Pass"), ("double", "Double"),
    ("redouble", "Redouble"), ("play:TD", "10♦"), ("up:QH", "Q♥ up"),
    ("down:QH", "Q♥ down"), ("crib:9S", "9♠"), ("exchange", "Exchange with the crib"),
    ("keep", "Keep my hand"), ("dummy:revealed", "Take the revealed dummy"),
    ("dummy:hidden", "Take the hidden dummy"),
])
def test_action_label(action: str, label: str) -> None:
    assert action_label(action) == label


# -- the card reader itself ---------------------------------------------------------------

def test_cards_in_reads_every_form_the_messages_use() -> None:
    hand = [Card.parse(t) for t in ["AS", "TS", "3S", "KH", "2H", "TD", "9C", "8C"]]
    assert cards_in(hand_block(hand)) == set(hand)
    assert cards_in(hand_compact(hand)) == set(hand)
    assert cards_in(cards_inline(hand)) == set(hand)
    assert cards_in("North (Ann): **Q♥**\nEast: **10♠**") == {Card.parse("QH"),
                                                              Card.parse("TS")}
    assert cards_in("Trump: **♥ hearts** · 40 points · ♠ Spades are trump, 4 tricks") == set()


# -- content, game by game ----------------------------------------------------------------

def _public(name: str, game: Game) -> m.Message:
    return m.public_table(TABLE, name, game.TITLE, game.view(None), seating(game), [],
                          sorted(game.to_act()))


def _hand(name: str, game: Game, seat: int) -> str:
    msg = m.hand(TABLE, name, game.TITLE, seat, game.view(seat), game.legal(seat), 0,
                 seating(game))
    return msg.content or ""


def _field(msg: m.Message, prefix: str) -> str:
    for f in msg.embeds[0].to_dict().get("fields", []):
        if f["name"].startswith(prefix):
            return str(f["value"])
    raise AssertionError(f"no field {prefix!r}")


def test_bridge_auction_grid_puts_each_call_under_its_caller() -> None:
    game = create("bridge", {}, 11)
    dealer = game.view(None).dealer
    game.apply(dealer, "pass")
    game.apply((dealer + 1) % 4, "bid:1NT")
    game.apply((dealer + 2) % 4, "double")
    grid_text = _field(_public("bridge", game), "Auction")
    lines = grid_text.strip("`\n").splitlines()
    header = lines[0]
    column = header.index("NESW"[(dealer + 1) % 4])
    cells = {line[column:column + 3] for line in lines[1:]}
    assert "1NT" in cells
    assert "X" in grid_text and "?" in grid_text  # the double, and the next caller's mark


def test_bridge_grid_keeps_the_latest_rounds_when_long() -> None:
    calls = [(i % 4, "Pass" if i % 3 else f"{1 + i // 20}♣") for i in range(400)]
    text = grid(("N", "E", "S", "W"), calls, None)
    assert len(text) <= 1024 and "earlier round" in text


def _bridge_until(game: Game, predicate: Any) -> None:
    bots = [make_player("bridge", s) for s in range(4)]
    while not predicate(game.view(None)):
        seat = min(game.to_act())
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal(seat)))


def test_bridge_declarer_is_told_when_playing_dummys_cards() -> None:
    game = create("bridge", {}, 3)
    _bridge_until(game, lambda v: v.phase == "play" and v.turn is not None
                  and v.turn == v.dummy)
    view = game.view(None)
    declarer, dummy = view.declarer, view.dummy
    text = _hand("bridge", game, declarer)
    assert "You are playing dummy's cards now" in text
    assert f"from dummy ({game.SEAT_NAMES[dummy]})" in text
    assert set(game.view(declarer).dummy_hand) <= cards_in(text)
    public = _public("bridge", game)
    assert set(view.dummy_hand) <= cards_in(_field(public, "Dummy"))
    assert f"to play from dummy ({game.SEAT_NAMES[dummy]})" in message_text(public)
    assert "You are dummy" in _hand("bridge", game, dummy)


def test_a_deal_end_is_short_with_the_hands_as_the_pictures_description() -> None:
    """The picture lays the hands out; the text gives them only as the picture's
    description (screen readers), a hand each, North first; the result is said once and
    the score is the match's totals."""
    game = create("bridge", {}, 8)
    _bridge_until(game, lambda v: v.previous_deal is not None)
    summary = game.view(None).previous_deal
    end = m.deal_end(TABLE, "bridge", game.TITLE, game.view(None), seating(game))
    assert end is not None and end.picture is not None
    assert [f.name for f in end.embeds[0].fields if f.name == "Hands"] == []
    parts = end.picture.description.split("; ")
    assert [part.split(" ")[0] for part in parts] == ["North", "East", "South", "West"]
    for seat, part in enumerate(parts):
        assert cards_in(part) == set(summary.hands[seat])
    text = str(end.embeds[0].to_dict())
    first = (end.embeds[0].description or "").splitlines()[0]
    assert summary.contract.label in first and "tricks" in first, first
    points = next(f for f in end.embeds[0].fields if f.name == "Points").value or ""
    assert summary.lines[0].note not in points, "the result once"
    score = next(f for f in end.embeds[0].fields if f.name == "Score").value or ""
    assert "\n" not in score
    assert len(text) < 800


def test_spades_shows_nil_and_face_down_hands() -> None:
    game = create("spades", {}, 2)
    first = game.view(None).turn
    before = _hand("spades", game, first)
    assert "face down" in before and "Double Nil" in before
    assert "only be bid while they are still face down" in before
    assert cards_in(before) == set()
    assert "not yet looked" in message_text(_public("spades", game))
    game.apply(first, "look")
    game.apply(first, "bid:nil")
    bids = _field(_public("spades", game), "Bids")
    assert f"{game.SEAT_NAMES[first]} ({NAMES[first]}): **Nil**" in bids
    assert "you **Nil**" in _hand("spades", game, first)


def test_spades_bidder_is_prompted_with_the_bids() -> None:
    game = create("spades", {}, 6)
    turn = game.view(None).turn
    game.apply(turn, "look")
    assert "**Your bid:** Nil, 1-13 tricks" in _hand("spades", game, turn)


def test_tennis_names_the_hand_behind_every_card() -> None:
    game = create("tennis", {}, 9)
    players = [RandomPlayer(s) for s in range(2)]
    while not (game.view(None).phase == "play" and len(game.view(None).trick) == 3):
        seat = min(game.to_act())
        game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    view = game.view(None)
    public = _public("tennis", game)
    trick = _field(public, "Trick")
    for (seat, card), kind in zip(view.trick, view.trick_hands, strict=True):
        assert f"{NAMES[seat]} {kind}: **{card.label}**" in trick
    # the hand to play next: in the turn line, the embed's first line
    assert public.embeds[0].description.splitlines()[0].endswith(
        f"to play from their {view.to_play_hand}.")
    text = _hand("tennis", game, view.turn)
    own = game.view(view.turn)
    assert f"Your **{own.hand_kind}**" in text and "only one of your hands" in text
    assert f"**Play a card from your {view.to_play_hand}**" in text


def test_tennis_bids_stay_face_down_until_both_are_in() -> None:
    game = create("tennis", {}, 4)
    assert "**Choose your Backhand bid card**" in _hand("tennis", game, 0)
    game.apply(0, game.legal(0)[0])
    mine = game.view(0).backhand_bids[0]
    assert mine is not None
    assert mine.label in _hand("tennis", game, 0)
    assert mine not in cards_in(_hand("tennis", game, 1))
    public = _public("tennis", game)
    assert "chosen, face down" in message_text(public)
    assert mine not in cards_in(message_text(public))


def test_bidfair_face_down_card_is_shown_only_to_its_owner() -> None:
    game = create("bidfair", {}, 12)
    players = [RandomPlayer(s) for s in range(2)]
    while game.view(None).phase == "crib":
        seat = min(game.to_act())
        text = _hand("bidfair", game, seat)
        owed = game.view(seat).crib_owed[seat]
        assert f"**Put 4 cards into the crib ({owed} more)**" in text
        game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    seat = min(game.to_act())
    down = next(a for a in game.legal(seat) if a.startswith("down:"))
    game.apply(seat, down)
    card = Card.parse(down[5:])
    assert f"face down ({card.label})" in _hand("bidfair", game, seat)
    assert card not in cards_in(_hand("bidfair", game, 1 - seat))
    public = message_text(_public("bidfair", game))
    assert "face down" in public and card not in cards_in(public)


def test_bidfair_exchange_is_explained_to_the_holder() -> None:
    for seed in range(40):
        game = create("bidfair", {}, seed)
        players = [RandomPlayer(seed + s) for s in range(2)]
        while game.view(None).phase in ("crib", "bidding"):
            seat = min(game.to_act())
            game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
        view = game.view(None)
        if view.phase != "exchange":
            continue
        text = _hand("bidfair", game, view.holder)
        assert "**Exchange your hand with the crib, or keep it?**" in text
        assert f"must capture **{view.contract_value}**" in text
        assert "Trump:" in text and view.cut is not None and view.cut.label in text
        public = message_text(_public("bidfair", game))
        # once, in the contract line (the bid cards' field no longer repeats it)
        assert f"must capture **{view.contract_value}** (high rank {view.high_rank.label})" \
            in public
        return
    pytest.fail("no deal reached the exchange")


def test_single_dummy_shows_the_revealed_dummy_and_the_choice() -> None:
    game = create("single_dummy", {}, 5)
    view = game.view(None)
    revealed = view.hands[view.revealed]
    assert revealed is not None
    assert set(revealed) <= cards_in(_field(_public("single_dummy", game), "Revealed dummy"))
    bots = [make_player("single_dummy", s) for s in range(2)]
    while game.view(None).phase == "auction":
        seat = min(game.to_act())
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal(seat)))
    view = game.view(None)
    if view.phase == "dummy_choice":
        text = _hand("single_dummy", game, view.declarer)
        assert "**Choose your dummy**" in text
        msg = m.hand(TABLE, "single_dummy", game.TITLE, view.declarer,
                     game.view(view.declarer), game.legal(view.declarer), 0, seating(game))
        labels = [c.get("label") for row in msg.components() for c in row["components"]]
        # and Undo: the winner may still ask to take back their last call
        assert labels == ["Take the revealed dummy", "Take the hidden dummy", "Undo"]
