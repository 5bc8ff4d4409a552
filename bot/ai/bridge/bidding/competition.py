"""Competitive bidding: overcalls and takeout doubles, their answers, negative doubles,
balancing, and penalty doubles of low contracts."""

from __future__ import annotations

import math

from bot.games.bridge_auction import Bid, Strain
from bot.games.cards import Suit

from ...core.hand_range import HandRange
from .captain import ASK, GAME, expected_points, game_level
from .constructive import MAJORS, L, name
from .context import cheapest
from .rules import BALANCED, TELLS_NOTHING, Rule, Table, Test, all_of, good_suit, stopper_in

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
# The fewest points for an overcall, or any free bid of a suit partner has not shown, at
# each level (index 0: the one level).
OVERCALL_POINTS = (8, 11, 13, 15, 17, 19, 21)
# Support points of a raise of partner's opening over their overcall that asks for key
# cards at once (30+ together with an opening's 13).
RAISE_ASK = 17


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
        elif last.level == 2 and last.strain != Strain.CLUBS:  # over a weak two
            rules.append(Rule("2NT", "", hcp=(15, 18), when=_both(BALANCED, stopper_in(their))))
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
    a one-level overcall, fewer opposite the stronger hands of higher ones; with 30
    together key cards are asked at once."""
    expected = expected_points(overcall)
    need = int(GAME - expected)
    # A cue bid of their suit is the limit raise or better: it leaves 3NT open over a
    # minor, and the jump raise is pre-emptive.
    # Partner's answer in its suit must stay at the three level.
    cue = _at(Strain(int(their[0])), last) if len(their) == 1 else None
    again = _at(Strain(int(p)), Bid.parse(cue)) if cue is not None else None
    if again is None or int(again[0]) > 3:
        cue = None
    # A simple raise takes 7 points at any level: the fit, not the overcall, says how high.
    rules = _raises(p, last, 3, (7, need - 3), (need - 2, need - 1), game=need,
                    ask=math.ceil(ASK - expected), game_in_minor=cue is None, cue=cue)
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
        if int(plain[0]) == 3:  # over a pre-empt the doubler holds a good hand
            rules.append(Rule(f"4{L[major]}", "game over their pre-empt", pts=(9, 37),
                              lengths={major: (4, 13)},
                              when=_best_of(major, their)))
        elif int(plain[0]) < 4:
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


def free_answers(their: list[Suit], last: Bid) -> Table:
    """Partner made a takeout double and the next player bid (`last`): partner will speak
    again, so a bid now is free and shows values (6+ points); a suit bid at the three
    level needs five cards."""
    rules: list[Rule] = []
    for major in MAJORS:
        plain = _at(Strain(int(major)), last)
        if major not in their and plain is not None and int(plain[0]) < 4:
            rules.append(Rule(f"4{L[major]}", "game",
                              pts=(12, 37), lengths={major: (4, 13)},
                              when=_major_first(major, their)))
    if last < Bid(3, Strain.NOTRUMP):
        rules.append(Rule("3NT", "", hcp=(13, 37), when=stopper_in(their)))
    free = [(s, call) for s in (S, H, D, C) if s not in their
            and (call := _at(Strain(int(s)), last)) is not None and int(call[0]) <= 3]
    # A four-card major at the two level first, then the best unbid suit.
    majors = [(s, c) for s, c in free if s in MAJORS and c[0] == "2"]
    for suit, call in majors + [pair for pair in free if pair not in majors]:
        need = 5 if call[0] == "3" else 4
        rules.append(Rule(call, "free bid", pts=(6, 37),
                          lengths={suit: (need, 13)}, when=_major_first(suit, their)
                          if (suit, call) in majors else _best_of(suit, their)))
    rules.append(Rule("pass", "too weak for a free bid, or no suit to bid"))
    return rules


def doubler_rebids(p: Suit, answer: Bid, jumped: bool, their: list[Suit]) -> Table:
    """We doubled for takeout and partner answered in `p` (`answer`; `jumped`: with 9–11
    points); the opponents have passed since. Partner's plain answer may hold nothing, so
    the doubler raises by its strength (single 16–18, jump 19–21, game 22+); after a jump
    answer game needs 15+."""
    P, strain = L[p], Strain(int(p))
    game = 4 if p in MAJORS else 5
    stop = stopper_in(their)
    rules: list[Rule] = []
    if jumped:
        if answer < Bid(3, Strain.NOTRUMP) and p not in MAJORS:
            rules.append(Rule("3NT", "game", hcp=(15, 37), when=stop))
        if answer.level < game:
            rules.append(Rule(f"{game}{P}", "game", pts=(15, 37),
                              hcp=(12, 37), trump=p, lengths={p: (4, 13)}))
        rules.append(Rule("pass", "no game opposite the jump answer"))
        return rules
    if answer.level < game:
        rules.append(Rule(f"{game}{P}", "game", pts=(22, 37),
                          hcp=(18, 37), trump=p, lengths={p: (4, 13)}))
    for jump, (lo, hi), (hlo, hhi) in ((1, (19, 21), (16, 21)), (0, (16, 18), (13, 18))):
        call = _at(strain, answer, jump)
        if call is not None and int(call[0]) < game:
            rules.append(Rule(call, "invites game", pts=(lo, hi),
                              hcp=(hlo, hhi), trump=p, lengths={p: (4, 13)}))
    nt = _at(Strain.NOTRUMP, answer)
    if nt is not None and int(nt[0]) <= 2:
        rules.append(Rule(nt, "", hcp=(18, 20), when=_both(BALANCED, stop)))
    for suit in (S, H, D, C):
        if suit == p or suit in their:
            continue
        call = _at(Strain(int(suit)), answer)
        if call is not None and int(call[0]) <= 3:
            rules.append(Rule(call, "a strong hand",
                              pts=(18, 37), hcp=(16, 37), lengths={suit: (5, 13)},
                              when=_longest_free(suit, their)))
    rules.append(Rule("pass", "a minimum, or no fit for partner's suit"))
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


def after_advance_cue(p: Suit, cue: Bid, their: list[Suit], accept: int) -> Table:
    """We overcalled in `p`, partner cue-bid their suit (`cue`: a limit raise or better)
    and the next player passed. Game with `accept`+ points (25 together with a limit
    raise): in a minor 3NT with their suit stopped; else `p` again at the cheapest
    level, which partner passes with only an invitation."""
    P = L[p]
    rules: list[Rule] = []
    if p in MAJORS and cue < Bid(4, Strain(int(p))):
        rules.append(Rule(f"4{P}", "game", pts=(accept, 37)))
    if p not in MAJORS and cue < Bid(3, Strain.NOTRUMP):
        rules.append(Rule("3NT", "game", pts=(accept, 37), when=stopper_in(their)))
    again = _at(Strain(int(p)), cue)
    if again is not None:
        rules.append(Rule(again, f"{name(p)} again", pts=(0, accept - 1)))
        rules.append(Rule(again, f"{name(p)} again, no stopper for notrump"))
    return rules


def opener_reopens(p: Suit, last: Bid, their: list[Suit]) -> Table:
    """We opened one of `p`, partner passed and they bid once (`last`): opener shows
    extras (a balanced 18–19 in notrump, a six-card suit with 15+, a takeout double with
    17+ and shortness in their suit), else passes."""
    stop = _both(BALANCED, stopper_in(their))
    rules: list[Rule] = []
    nt = _at(Strain.NOTRUMP, last)
    if nt is not None and int(nt[0]) <= 2:
        rules.append(Rule(nt, "", hcp=(18, 19), when=stop))
    short = Test(f"at most two {' and '.join(name(t) for t in their)}",
                 lambda h: all(h.lengths[t] <= 2 for t in their),
                 HandRange(max_len=tuple(2 if s in their else 13  # type: ignore[arg-type]
                                         for s in Suit)))
    rules.append(Rule("double", "takeout", pts=(17, 37),
                      hcp=(15, 37), when=short, forcing=True))
    again = _at(Strain(int(p)), last)
    if again is not None and int(again[0]) <= 2:
        rules.append(Rule(again, "competing", pts=(15, 37),
                          lengths={p: (6, 13)}))
    rules.append(Rule("pass", "no extras to show"))
    return rules


def contested_responses(p: Suit, last: Bid, their: list[Suit]) -> Table:
    """Partner opened one of `p` and the next player overcalled (`last`)."""
    fit = 3 if p in MAJORS else 5
    rules = _raises(p, last, fit, (6, 10), (10, 12), game_in_minor=False, ask=RAISE_ASK)
    unbid_majors = [m for m in MAJORS if m != p and m not in their]
    # One major to show, biddable at the one level: the double shows four, a bid five.
    at_one = [m for m in unbid_majors if (c := _at(Strain(int(m)), last)) and c[0] == "1"]
    four = len(unbid_majors) == 1 and at_one == unbid_majors
    if unbid_majors and last.level <= 2:
        rules.append(Rule("double", "negative", hcp=(6, 37),
                          lengths={m: (4, 4 if four else 13) for m in unbid_majors},
                          forcing=True))
    notrump = _notrump_bids(last, their, (8, 10), (11, 12), (13, 15))
    for suit in (S, H, D, C):
        if suit == p or suit in their:
            continue
        plain = _at(Strain(int(suit)), last)
        if plain is None:
            continue
        level = int(plain[0])
        need = 5 if level >= 2 or (four and suit in unbid_majors) else 4
        lo = 6 if level == 1 else 11
        if level > 1 and notrump:  # a five-card major at the one level comes first
            rules += notrump
            notrump = []
        rules.append(Rule(plain, "", pts=(lo, 37),
                          lengths={suit: (need, 13)}, forcing=True))
    rules += notrump
    rules.append(Rule("pass", "nothing to add"))
    return rules


def after_negative_double(p: Suit, last: Bid, their: list[Suit], shown: list[Suit]) -> Table:
    """We opened one of `p`, the next player overcalled (`last`), partner made a negative
    double (4+ cards in each of `shown`, the unbid majors) and the next player passed.
    Opener bids as if partner had bid that major: raises it with four (by support points),
    else notrump with their suit stopped, its own suit with six, a new suit with four;
    with nothing else it rebids its suit (the double is forcing)."""
    strain = Strain(int(p))
    stop = _both(BALANCED, stopper_in(their))
    rules: list[Rule] = []
    for major in sorted(shown):  # hearts before spades: up the line with both
        m = Strain(int(major))
        plain, jump = _at(m, last), _at(m, last, 1)
        if plain is None:
            continue
        if int(plain[0]) < 4:
            rules.append(Rule(f"4{L[major]}", "game",
                              pts=(19, 37), trump=major, lengths={major: (4, 13)}))
        if jump is not None and int(jump[0]) < 4:
            rules.append(Rule(jump, "invites game",
                              pts=(16, 18), trump=major, lengths={major: (4, 13)}))
        rules.append(Rule(plain, "", pts=(0, 15),
                          trump=major, lengths={major: (4, 13)}))
    nt, nt_jump = _at(Strain.NOTRUMP, last), _at(Strain.NOTRUMP, last, 1)
    if nt is not None and int(nt[0]) <= 2:
        rules.append(Rule(nt, "", hcp=(12, 14), when=stop))
    if nt_jump is not None and nt_jump[0] == "2":  # over a one-level overcall
        rules.append(Rule(nt_jump, "", hcp=(18, 19), when=stop))
    elif last < Bid(3, Strain.NOTRUMP):
        rules.append(Rule("3NT", "game", hcp=(18, 19), when=stop))
    own, own_jump = _at(strain, last), _at(strain, last, 1)
    if own_jump is not None and int(own_jump[0]) <= 3:
        rules.append(Rule(own_jump, "invites game",
                          pts=(16, 18), lengths={p: (6, 13)}, when=good_suit(p)))
    if own is not None:
        rules.append(Rule(own, f"{name(p)} again", pts=(0, 15), lengths={p: (6, 13)}))
    for suit in (S, H, D, C):
        if suit == p or suit in their or suit in shown:
            continue
        call = _at(Strain(int(suit)), last)
        if call is None or int(call[0]) > 2:
            continue
        reverse = int(call[0]) == 2 and suit > p  # past two of our suit: extras
        lo, hi = (16, 37) if reverse else (12, 18)
        rules.append(Rule(call, "",
                          pts=(lo if reverse else 0, hi), lengths={suit: (4, 13)}))
    cue = _at(last.strain, last)
    if cue is not None and last.strain != Strain.NOTRUMP and int(cue[0]) <= 3:
        rules.append(Rule(cue, "cue bid, forcing to game", pts=(19, 37),
                          forcing=True))
    if own is not None:
        rules.append(Rule(own, f"{name(p)} again, a minimum with nothing else to bid"))
    return rules


def _raises(p: Suit, last: Bid, fit: int, simple: tuple[int, int], invite: tuple[int, int],
            game_in_minor: bool = True, ask: int | None = None, game: int = 13,
            cue: str | None = None) -> list[Rule]:
    """Raises of partner's suit `p` over `last`: game (`game`+ points), a jump that
    invites, a simple raise. `ask`: from this many support points key cards are asked at
    once, and the game raise stops below it (so the opener does not count it as a slam
    hand). `cue`: a cue bid of their suit takes the invitations and stronger hands, and
    the jump raise is pre-emptive (four trumps: the fit's length)."""
    P, strain = L[p], Strain(int(p))
    level = game_level(strain)
    rules: list[Rule] = []
    if last.level < level and (p in MAJORS or game_in_minor):
        if ask is not None and last < Bid(4, Strain.NOTRUMP):
            rules.append(Rule("4NT", "Roman Key Card Blackwood", pts=(ask, 37), trump=p,
                              lengths={p: (fit, 13)}))
        top = 37 if ask is None else ask - 1
        rules.append(Rule(f"{level}{P}", "game",
                          pts=(game, top), trump=p, lengths={p: (fit, 13)}))
    jump = _at(strain, last, 1)
    can_invite = jump is not None and int(jump[0]) < level
    if cue is not None:
        # In a major the game raise and the key-card ask above took the stronger hands.
        top = invite[1] if p in MAJORS else 37
        rules.append(Rule(cue, "cue bid, a limit raise" + ("" if p in MAJORS else " or better"),
                          pts=(invite[0], top), trump=p, lengths={p: (fit, 13)},
                          forcing=True))
        if jump is not None and can_invite and int(jump[0]) <= 3:  # nine trumps: three
            rules.append(Rule(jump, "pre-emptive", pts=(0, simple[0] - 1), trump=p,
                              lengths={p: (4, 13)}))
    elif jump is not None and can_invite:
        rules.append(Rule(jump, "invites game", pts=invite, trump=p, lengths={p: (fit, 13)}))
    # With no room for the jump below game, the simple raise takes the invitations too.
    lo, hi = simple if can_invite else (simple[0], invite[1])
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


def penalty_double(last: Bid) -> Rule | None:
    """Double their low suit contract when we hold length and strength in their trumps."""
    suit = last.strain.trump
    if suit is None or last.level > 3:
        return None
    return Rule("double", "penalty", lengths={suit: (4, 13)},
                hcp=(10, 37), when=Test(f"trump tricks in {name(suit)}", lambda h: (
                    h.lengths[suit] >= 5 and h.good_suit(suit)) or sum(
                        1 for c in h.cards if c.suit == suit and c.rank >= 12) >= 2,
                    TELLS_NOTHING))
