"""Competitive bidding: overcalls and takeout doubles, their answers, negative doubles
and balancing."""

from __future__ import annotations

from bot.games.bridge_auction import Bid, Strain
from bot.games.cards import Suit

from ...core.hand_range import HandRange
from .captain import GAME, expected_points, game_level
from .constructive import MAJORS, L, name
from .context import cheapest
from .rules import BALANCED, TELLS_NOTHING, Rule, Table, Test, all_of, good_suit, stopper_in

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
# The fewest points for an overcall, or any free bid of a suit partner has not shown, at
# each level (index 0: the one level).
OVERCALL_POINTS = (8, 11, 13, 15, 17, 19, 21)


def _at(strain: Strain, over: Bid, jump: int = 0) -> str | None:
    bid = cheapest(strain, over)
    if bid is None or bid.level + jump > 7:
        return None
    return f"{bid.level + jump}{strain.letter}"


def takeout_shape(their: list[Suit]) -> Test:
    others = [s for s in Suit if s not in their]
    # A disjunction with strength: no range of one hand holds it.
    return Test(f"at most two {' and '.join(name(t) for t in their)} and 3+ of each other "
                "suit, or 17+ HCP",
                lambda h: h.hcp >= 17 or (all(h.lengths[t] <= 2 for t in their)
                                          and all(h.lengths[s] >= 3 for s in others)),
                TELLS_NOTHING)


def overcalls(last: Bid, their: list[Suit], balancing: bool) -> Table:
    """The opponents opened (`last` is their bid, `their` their suits); our side has not
    bid. `balancing`: a pass now would end the auction, so we bid a little lighter."""
    light = 3 if balancing else 0
    rules: list[Rule] = []
    if last.strain == Strain.NOTRUMP:
        rules.append(Rule("double", "penalty", hcp=(15 - light, 37)))
    else:
        if last < Bid(1, Strain.NOTRUMP):
            lo, hi = (12, 15) if balancing else (15, 18)
            rules.append(Rule("1NT", "", hcp=(lo, hi), when=_both(BALANCED, stopper_in(their))))
        need = 12 + 1 * max(0, last.level - 1) - light
        rules.append(Rule("double", "takeout", hcp=(need, 37), when=takeout_shape(their),
                          forcing=True))
    for suit in (S, H, D, C):
        if suit in their:
            continue
        strain = Strain(int(suit))
        jump = _at(strain, last, 1)
        if jump is not None and last.level <= 2 and not balancing:
            rules.append(Rule(jump, "weak jump overcall",
                              hcp=(5, 10), lengths={suit: (6, 13)}, when=good_suit(suit)))
        plain = _at(strain, last)
        if plain is None:
            continue
        level = int(plain[0])
        lo = OVERCALL_POINTS[level - 1] - light
        rules.append(Rule(plain, "overcall",
                          pts=(lo, 19), hcp=(max(lo - 3, 6), 17),
                          lengths={suit: (5 if level == 1 else 6 if level >= 3 else 5, 13)},
                          when=_both(_decent_suit(suit, lo + 3, balancing),
                                     _longest_free(suit, their))))
    rules.append(Rule("pass", "no suitable overcall"))
    return rules


def _decent_suit(suit: Suit, strong: int, balancing: bool) -> Test:
    """A suit worth bidding over their opening: good, or any five with extra strength
    (any five when balancing)."""
    if balancing:
        return Test(f"five {name(suit)}", lambda h: True, TELLS_NOTHING, said=False)
    return Test(f"good {name(suit)}, or two honours and {strong}+ points",
                lambda h: h.good_suit(suit) or (h.points >= strong and sum(
                    1 for c in h.cards if c.suit == suit and c.rank >= 10) >= 2),
                TELLS_NOTHING)


def _longest_free(suit: Suit, their: list[Suit]) -> Test:
    return Test(f"{name(suit)} the longest of our suits",
                lambda h: all(h.lengths[suit] >= h.lengths[s] for s in Suit if s not in their),
                TELLS_NOTHING, said=False)


def _both(a: Test, b: Test) -> Test:
    return all_of(a, b)


def advances(p: Suit, last: Bid, their: list[Suit], overcall: HandRange) -> Table:
    """Partner overcalled in `p` (`overcall`: what it showed); now it is our first call
    (`last` is the last bid). Game takes 25 points together, so the raises and notrump
    bids count from what we need opposite the overcall's expected strength: 13 opposite
    a one-level overcall, fewer opposite the stronger hands of higher ones."""
    expected = expected_points(overcall)
    need = int(GAME - expected)
    # A simple raise takes 7 points at any level: the fit, not the overcall, says how high.
    rules = _raises(p, last, 3, (7, need - 3), (need - 2, need - 1), game=need)
    if their:
        rules += _notrump_bids(last, their, (8, 11), (need - 2, need - 1), (need, 37))
    our_game = Bid(game_level(Strain(int(p))), Strain(int(p)))
    for suit in (S, H, D, C):
        if suit == p or suit in their:
            continue
        plain = _at(Strain(int(suit)), last)
        if plain is None:
            continue
        if int(plain[0]) <= 2:
            rules.append(Rule(plain, "", pts=(10, 37),
                              lengths={suit: (5, 13)}, when=good_suit(suit)))
        elif Bid.parse(plain) < our_game:
            # Above two, below our game: a suit of our own with game values, forcing.
            rules.append(Rule(plain, "",
                              pts=(need, 37), lengths={suit: (5, 13)},
                              when=_longest_free(suit, [p, *their]), forcing=True))
    rules.append(Rule("pass", "no fit, or not enough to bid"))
    return rules


def takeout_answers(their: list[Suit], last: Bid) -> Table:
    """Partner made a takeout double; it is our first call and the next player passed."""
    rules: list[Rule] = []
    if last.strain != Strain.NOTRUMP and last.level <= 2:
        t = Suit(int(last.strain))
        rules.append(Rule("pass", "penalty", lengths={t: (5, 13)},
                          hcp=(8, 37), when=good_suit(t)))
    for major in MAJORS:
        if major in their:
            continue
        plain = _at(Strain(int(major)), last)
        if plain is None:
            continue
        if int(plain[0]) < 4:
            rules.append(Rule(f"4{L[major]}", "game",
                              pts=(12, 37), lengths={major: (4, 13)},
                              when=_major_first(major, their)))
    stop = stopper_in(their)
    if last < Bid(3, Strain.NOTRUMP):
        rules.append(Rule("3NT", "", hcp=(13, 37), when=stop))
    order = [s for s in (S, H, D, C) if s not in their]
    for suit in order:
        jump = _at(Strain(int(suit)), last, 1)
        if jump is not None and int(jump[0]) <= 3:
            rules.append(Rule(jump, "", pts=(9, 11),
                              lengths={suit: (4, 13)}, when=_best_of(suit, their)))
    nt = _at(Strain.NOTRUMP, last)
    if nt is not None and nt[0] == "1":
        rules.append(Rule("1NT", "", hcp=(6, 10), when=_both(stop, Test(
                              "no four-card major to bid", lambda h: all(
                                  h.lengths[m] < 4 for m in MAJORS if m not in their),
                              HandRange(max_len=tuple(  # type: ignore[arg-type]
                                  3 if s in MAJORS and s not in their else 13
                                  for s in Suit))))))
    for suit in order:
        plain = _at(Strain(int(suit)), last)
        if plain is not None:
            rules.append(Rule(plain, "my best unbid suit",
                              hcp=(0, 11), when=_best_of(suit, their)))
    cue = _at(last.strain, last) if last.strain != Strain.NOTRUMP else None
    if cue is not None and int(cue[0]) <= 3:  # game values with no clear game to bid
        rules.append(Rule(cue, "cue bid, asks for more", pts=(12, 37),
                          hcp=(10, 37), forcing=True))
    rules.append(Rule("pass", "no suit to bid"))
    return rules


def _major_first(major: Suit, their: list[Suit]) -> Test:
    """The major to bid game in: the longer free major, spades with equal length."""
    def holds(h: object) -> bool:
        lengths = h.lengths  # type: ignore[attr-defined]
        free = [m for m in MAJORS if m not in their]
        return max(free, key=lambda m: (lengths[m], m)) == major
    return Test(f"{name(major)} the longer free major", holds, TELLS_NOTHING, said=False)


def _best_of(suit: Suit, their: list[Suit]) -> Test:
    """The suit to answer a takeout double in: the longest unbid suit, a major with ties."""
    def holds(h: object) -> bool:
        lengths = h.lengths  # type: ignore[attr-defined]
        free = [s for s in Suit if s not in their]
        best = max(free, key=lambda s: (lengths[s], s in MAJORS, s))
        return best == suit
    return Test(f"{name(suit)} the best unbid suit", holds, TELLS_NOTHING, said=False)


def contested_responses(p: Suit, last: Bid, their: list[Suit]) -> Table:
    """Partner opened one of `p` and the next player overcalled (`last`)."""
    fit = 3 if p in MAJORS else 5
    rules = _raises(p, last, fit, (6, 10), (10, 12), game_in_minor=False)
    unbid_majors = [m for m in MAJORS if m != p and m not in their]
    if unbid_majors and last.level <= 2:
        rules.append(Rule("double", "negative", hcp=(6, 37),
                          lengths={m: (4, 13) for m in unbid_majors}, forcing=True))
    notrump = _notrump_bids(last, their, (8, 10), (11, 12), (13, 15))
    for suit in (S, H, D, C):
        if suit == p or suit in their:
            continue
        plain = _at(Strain(int(suit)), last)
        if plain is None:
            continue
        level = int(plain[0])
        need = 5 if level >= 2 else 4
        lo = 6 if level == 1 else 11
        if level > 1 and notrump:  # a five-card major at the one level comes first
            rules += notrump
            notrump = []
        rules.append(Rule(plain, "", pts=(lo, 37),
                          lengths={suit: (need, 13)}, forcing=True))
    rules += notrump
    rules.append(Rule("pass", "nothing to add"))
    return rules


def _raises(p: Suit, last: Bid, fit: int, simple: tuple[int, int], invite: tuple[int, int],
            game_in_minor: bool = True, game: int = 13) -> list[Rule]:
    """Raises of partner's suit `p` over `last`: game (`game`+ points), a jump that
    invites, a simple raise."""
    P, strain = L[p], Strain(int(p))
    level = game_level(strain)
    rules: list[Rule] = []
    if last.level < level and (p in MAJORS or game_in_minor):
        rules.append(Rule(f"{level}{P}", "game",
                          pts=(game, 37), trump=p, lengths={p: (fit, 13)}))
    jump = _at(strain, last, 1)
    can_invite = jump is not None and int(jump[0]) < level
    if jump is not None and can_invite:
        rules.append(Rule(jump, "invites game", pts=invite, trump=p, lengths={p: (fit, 13)}))
    lo, hi = simple
    call = _at(strain, last)
    if call is not None and int(call[0]) < level:
        rules.append(Rule(call, "", pts=(lo, hi),
                          trump=p, lengths={p: (fit, 13)}))
    return rules


def _notrump_bids(last: Bid, their: list[Suit], one: tuple[int, int], two: tuple[int, int],
                  three: tuple[int, int]) -> list[Rule]:
    """1NT, 2NT (invites 3NT) and 3NT with a stopper in their suits."""
    stop = stopper_in(their)
    rules: list[Rule] = []
    nt = _at(Strain.NOTRUMP, last)
    if nt is not None and nt[0] == "1":
        rules.append(Rule("1NT", "", hcp=one, when=stop))
    if last < Bid(2, Strain.NOTRUMP):
        rules.append(Rule("2NT", "invites 3NT", hcp=two, when=stop))
    if last < Bid(3, Strain.NOTRUMP):
        rules.append(Rule("3NT", "", hcp=three, when=stop))
    return rules
