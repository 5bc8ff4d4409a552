"""Our side's auction without interference: openings, responses and rebids (SAYC-like).

Each function returns the table of one situation; the suits in it are those of the
auction (partner's suit, our opened suit), so a table reads as a bridge player writes one.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games.cards import Suit

from .rules import (
    BALANCED,
    SUIT_NAMES,
    TELLS_NOTHING,
    Hand,
    Rule,
    Table,
    Test,
    all_of,
    good_suit,
)

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
MAJORS = (S, H)
L = "CDHS"


def name(suit: Suit) -> str:
    return SUIT_NAMES[suit]


# A sum of points and lengths, and a shortness in any suit: no range holds either.
RULE_OF_20 = Test("rule of 20", lambda h: h.hcp + sum(sorted(h.lengths)[-2:]) >= 20,
                  TELLS_NOTHING)
SHORTNESS = Test("a singleton or void", lambda h: min(h.lengths) <= 1, TELLS_NOTHING)


def opening_table() -> Table:
    """First call of the auction (also after passes)."""
    # Which suit to open: choices between suits, which no range of one hand holds.
    spades_first = Test("spades at least as long as hearts",
                        lambda h: h.lengths[S] >= h.lengths[H], TELLS_NOTHING, said=False)
    hearts_first = Test("hearts longer than spades (or spades short)",
                        lambda h: h.lengths[H] > h.lengths[S] or h.lengths[S] < 5, TELLS_NOTHING,
                        said=False)
    diamonds = Test("diamonds longer than clubs, or 4-4 in the minors",
                    lambda h: h.lengths[D] > h.lengths[C] or h.lengths[D] == h.lengths[C] >= 4,
                    TELLS_NOTHING, said=False)
    opening = (11, 21)
    rules = [
        Rule("2C", "strong and artificial", hcp=(22, 37), forcing=True),
        Rule("2NT", "", hcp=(20, 21), when=BALANCED),
        Rule("1NT", "", hcp=(15, 17), when=BALANCED),
        Rule("1S", "", hcp=opening, pts=(12, 23), lengths={S: (5, 13)},
             when=_and(RULE_OF_20, spades_first)),
        Rule("1H", "", hcp=opening, pts=(12, 23), lengths={H: (5, 13)},
             when=_and(RULE_OF_20, hearts_first)),
        Rule("1D", "", hcp=opening,
             pts=(12, 23), lengths={D: (3, 13), H: (0, 4), S: (0, 4)},
             when=_and(RULE_OF_20, diamonds)),
        Rule("1C", "", hcp=opening, pts=(12, 23),
             lengths={C: (3, 13), H: (0, 4), S: (0, 4)}, when=RULE_OF_20),
    ]
    for suit in (S, H, D):
        rules.append(Rule(f"2{L[suit]}", "weak two",
                          hcp=(5, 10), lengths={suit: (6, 6)}, when=good_suit(suit)))
    for suit in (S, H, D, C):
        rules.append(Rule(f"3{L[suit]}", "pre-empt",
                          hcp=(5, 10), lengths={suit: (7, 13)}, when=good_suit(suit)))
    rules.append(Rule("pass", "not enough to open", hcp=(0, 14)))
    return rules


def _and(*tests: Test) -> Test:
    return all_of(*tests)


def one_suit_responses(p: Suit) -> Table:
    """Partner opened one of `p`; the opponents passed (or doubled)."""
    P = L[p]
    major = p in MAJORS
    rules: list[Rule] = []
    if major:
        rules += [
            Rule(f"4{P}", "pre-emptive raise", hcp=(0, 9),
                 lengths={p: (5, 13)}, when=SHORTNESS),
            Rule("2NT", "Jacoby, game values",
                 pts=(13, 37), trump=p, lengths={p: (4, 13)}, forcing=True),
            Rule(f"3{P}", "limit raise", pts=(10, 12), trump=p,
                 lengths={p: (3, 13)}),
        ]
    for jump in _jump_shifts(p):
        rules.append(jump)
    if p == H:
        rules.append(Rule("1S", "", pts=(6, 37),
                          lengths={S: (4, 13)}, forcing=True,
                          when=Test("not a simple raise", lambda h: h.lengths[H] < 3
                                    or h.support(H) > 10 or h.lengths[S] >= 5, TELLS_NOTHING,
                                    said=False)))
    if major:
        rules.append(Rule(f"2{P}", "simple raise", pts=(6, 10),
                          trump=p, lengths={p: (3, 13)}))
    if not major:
        # Majors up the line: the longer first, hearts with four of each.
        if p == C:
            rules.append(Rule("1D", "", pts=(6, 37),
                              lengths={D: (4, 13)}, forcing=True,
                              when=Test("diamonds longer than any major (or no major)",
                                        lambda h: (h.lengths[D] >= 5 and h.lengths[D] >
                                        max(h.lengths[H], h.lengths[S]) and h.points >= 11)
                                        or max(h.lengths[H], h.lengths[S]) < 4, TELLS_NOTHING,
                                        said=False)))
        rules += [
            Rule("1H", "", pts=(6, 37), lengths={H: (4, 13)},
                 forcing=True, when=Test("hearts at least as long as spades",
                                         lambda h: h.lengths[H] >= h.lengths[S]
                                         or h.lengths[S] < 4, TELLS_NOTHING, said=False)),
            Rule("1S", "", pts=(6, 37), lengths={S: (4, 13)},
                 forcing=True),
            Rule(f"3{P}", "limit raise", pts=(10, 12),
                 lengths={p: (5, 13), H: (0, 3), S: (0, 3)}),
            Rule(f"2{P}", "raise", pts=(6, 10),
                 lengths={p: (5, 13), H: (0, 3), S: (0, 3)}),
        ]
    for suit in (S, H, D, C):
        if suit < p:
            need = 5 if suit == H else 4
            rules.append(Rule(f"2{L[suit]}", "two over one", pts=(11, 37), hcp=(10, 37),
                              lengths={suit: (need, 13)}, forcing=True,
                              when=Test(f"{name(suit)} the longest side suit",
                                        _longest_side(suit, p), TELLS_NOTHING, said=False)))
    rules += [
        Rule("3NT", "", hcp=(13, 15), when=BALANCED,
             lengths={p: (0, 3 if not major else 2)}),
        Rule("2NT", "invites 3NT", hcp=(11, 12), when=BALANCED,
             lengths={p: (0, 2 if major else 4), H: (0, 3 if major else 13),
                      S: (0, 3 if major else 13)}),
        Rule("1NT", "", hcp=(6, 10),
             lengths={p: (0, 2 if major else 13)} if p != C else {H: (0, 3), S: (0, 3)}),
        Rule("pass", "", hcp=(0, 5)),
    ]
    return rules


def _longest_side(suit: Suit, p: Suit) -> Callable[[Hand], bool]:
    def holds(h: Hand) -> bool:
        return all(h.lengths[suit] >= h.lengths[o] for o in Suit if o not in (suit, p))
    return holds


def _jump_shifts(p: Suit) -> list[Rule]:
    out = []
    for suit in (S, H, D, C):
        if suit == p:
            continue
        level = 2 if suit > p else 3
        out.append(Rule(f"{level}{L[suit]}", "jump shift, slam interest", pts=(17, 37),
                        hcp=(16, 37), lengths={suit: (5, 13)},
                        when=good_suit(suit), forcing=True))
    return out


def opener_rebids(mine: Suit, response: str, p_suit: Suit | None) -> Table:
    """We opened one of `mine`; partner answered `response` ("1S", "1NT", "2H"...,
    `p_suit` its suit) and the opponents passed."""
    M = L[mine]
    rules: list[Rule] = []
    if response == "2NT" and mine in MAJORS:  # Jacoby
        return [Rule(f"3{M}", "extras, slam interest", pts=(16, 37)),
                Rule(f"4{M}", "minimum", pts=(0, 15))]
    if p_suit == mine:  # partner raised
        if response == "2NT":  # never: Jacoby is handled above
            return [Rule(f"3{M}", "extras, slam interest", pts=(16, 37)),
                    Rule(f"4{M}", "minimum", pts=(0, 15))]
        level = int(response[0])
        if level == 2:
            # A minor's game is five of it, or 3NT (four of it is no game).
            game = [Rule(f"4{M}", "game", pts=(19, 37), trump=mine)] if mine in MAJORS \
                else [Rule("3NT", "game", hcp=(18, 37), when=BALANCED),
                      Rule(f"5{M}", "game", pts=(19, 37), trump=mine)]
            return [*game,
                    Rule(f"3{M}", "game try", pts=(16, 18), trump=mine),
                    Rule("pass", "minimum", pts=(0, 15), trump=mine)]
        if level == 3:
            if mine in MAJORS:
                return [Rule(f"4{M}", "accepts the invitation", pts=(14, 37),
                             trump=mine),
                        Rule("pass", "declines the invitation", pts=(0, 13),
                             trump=mine)]
            # Over a minor's raise, 3NT counts high cards: shortness takes no tricks there.
            return [Rule("3NT", "accepts the invitation", hcp=(14, 37)),
                    Rule("pass", "declines the invitation",
                         hcp=(0, 13))]
        return [Rule("pass", "content with the raise")]
    if response == "1NT":
        rules += [
            Rule("3NT", "", hcp=(18, 19), when=BALANCED),
            Rule("2NT", "invites 3NT", hcp=(17, 19), when=BALANCED),
            Rule(f"3{M}", "invites game", pts=(16, 18),
                 lengths={mine: (6, 13)}),
        ]
        for suit in (S, H, D, C):
            if suit != mine and suit < mine:
                rules.append(Rule(f"3{L[suit]}", "jump shift, forcing to game", pts=(19, 37),
                                  lengths={suit: (4, 13)}, forcing=True))
        for suit in (S, H, D, C):
            if suit != mine and suit < mine:
                rules.append(Rule(f"2{L[suit]}", "", pts=(12, 18),
                                  lengths={suit: (4, 13)}))
        rules += [
            Rule(f"2{M}", "minimum", pts=(0, 15), lengths={mine: (6, 13)}),
            Rule("pass", "minimum", pts=(0, 15)),
        ]
        return rules + _opener_fallback(mine)
    if p_suit is None:  # 2NT (invitational) or 3NT
        if response == "2NT":
            return after_notrump_invitation(mine)
        return [Rule(f"4{M}", "", lengths={mine: (6, 13)},
                     when=Test("unbalanced, in a major", lambda h: mine in MAJORS
                               and not h.balanced, TELLS_NOTHING)),
                Rule("pass", "content with 3NT")]
    P = L[p_suit]
    one_level = response[0] == "1"
    p_major = p_suit in MAJORS
    fit_len = 4 if one_level or not p_major else 3
    if p_major or not one_level:
        rules += [
            Rule(f"4{P}" if p_major else f"5{P}" if not one_level else f"3{P}",
                 "", pts=(19, 37), trump=p_suit,
                 lengths={p_suit: (fit_len, 13)}),
            Rule(f"3{P}", "invites game",
                 pts=(16, 18), trump=p_suit, lengths={p_suit: (fit_len, 13)}),
            Rule(f"{2 if one_level else 3}{P}", "minimum",
                 pts=(0, 15), trump=p_suit, lengths={p_suit: (fit_len, 13)}),
        ]
    if one_level:
        if p_suit < S and mine != S:
            rules.append(Rule("1S", "", pts=(12, 18),
                              lengths={S: (4, 13)}))
        rules += [
            Rule("2NT", "", hcp=(18, 19), when=BALANCED),
            Rule("1NT", "", hcp=(11, 14), when=BALANCED),
        ]
    else:
        rules += [
            Rule("3NT", "", hcp=(18, 19), when=BALANCED),
            Rule("2NT", "", hcp=(11, 14), when=BALANCED),
        ]
    rules += [
        Rule(f"4{M}" if mine in MAJORS else "3NT", "game",
             pts=(19, 37), lengths={mine: (6, 13)}),
        Rule(f"3{M}", "", pts=(16, 18),
             lengths={mine: (6, 13)}),
    ]
    for suit in (S, H, D, C):
        if suit in (mine, p_suit):
            continue
        # One level above the cheapest bid of the suit over partner's response.
        jump = (1 if suit > p_suit else 2) + (0 if one_level else 1) + 1
        if jump <= 3:
            rules.append(Rule(f"{jump}{L[suit]}", "jump shift, forcing to game", pts=(19, 37),
                              lengths={suit: (4, 13)}, forcing=True))
    for suit in (S, H, D, C):
        if suit in (mine, p_suit):
            continue
        if one_level and suit > p_suit:
            continue  # bid at the one level (spades), above
        level = 2 if one_level or suit > p_suit else 3
        if suit < mine:
            rules.append(Rule(f"{level}{L[suit]}", "",
                              pts=(12, 18), lengths={suit: (4, 13)}))
        else:
            rules.append(Rule(f"{level}{L[suit]}", "reverse",
                              pts=(17, 37), lengths={suit: (4, 13), mine: (5, 13)},
                              forcing=True))
    rules.append(Rule(f"2{M}" if one_level or mine > p_suit else f"3{M}",
                      "minimum", pts=(0, 15), lengths={mine: (5, 13)}))
    return rules + _opener_fallback(mine)


def after_notrump_invitation(mine: Suit) -> Table:
    """We opened one of `mine`; partner's 2NT invites 3NT (11–12, balanced)."""
    M = L[mine]
    rules = [Rule(f"4{M}", "accepts the invitation", pts=(14, 37),
                  lengths={mine: (6, 13)})] if mine in MAJORS else []
    return [*rules, Rule("3NT", "accepts the invitation", pts=(14, 37)),
            Rule(f"3{M}", "minimum", lengths={mine: (6, 13)}),
            Rule("pass", "minimum")]


def _opener_fallback(mine: Suit) -> list[Rule]:
    return [Rule(f"2{L[mine]}", "", pts=(0, 18),
                 lengths={mine: (5, 13)}),
            Rule("1NT", "", hcp=(11, 14))]


def after_game_try(p: Suit) -> Table:
    """We raised partner's major to two; partner tried for game with three."""
    P = L[p]
    return [Rule(f"4{P}", "accepts the game try", pts=(9, 37), trump=p),
            Rule("pass", "declines the game try", pts=(0, 8), trump=p)]


__all__ = ["after_game_try", "one_suit_responses", "opener_rebids", "opening_table"]
