"""Notrump openings (1NT 15–17, 2NT 20–21, and 2♣ then 2NT 22–24) and the strong 2♣:
Stayman, Jacoby transfers, quantitative raises, and what opener and responder say next.

The responses are worked out from opener's range: game needs 25 points together, a small
slam 33, a grand slam 37.
"""

from __future__ import annotations

import math

from bot.games.bridge_auction import Strain
from bot.games.cards import Suit

from .captain import ASK, game_level
from .constructive import MAJORS, L, name
from .rules import BALANCED, TELLS_NOTHING, Rule, Table, Test, good_suit

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def nt_responses(level: int, lo: int, hi: int) -> Table:
    """Partner opened (or rebid) `level`NT showing lo–hi points; the opponents passed."""
    invite = 25 - hi
    game = max(invite, 25 - lo) if level == 1 else invite
    quant, slam, grand = 33 - hi, 33 - lo, 37 - lo
    ask, up = level + 1, level + 1  # Stayman and transfers: clubs / diamonds / hearts above
    rules = [
        Rule("7NT", "to play", hcp=(grand, 37)),
        Rule("6NT", "to play", hcp=(slam, grand - 1)),
        # Which major to transfer to, and whether Stayman: choices between suits.
        Rule(f"{up}D", "transfer", lengths={H: (5, 13)},
             when=Test("hearts at least as long as spades", lambda h: h.lengths[H] >= h.lengths[S]
                       and not (h.lengths[H] == 5 and h.lengths[S] == 4 and h.hcp >= invite),
                       TELLS_NOTHING, said=False)),
        Rule(f"{up}H", "transfer", lengths={S: (5, 13)},
             when=Test("not 5 spades and 4 hearts with values",
                       lambda h: not (h.lengths[S] == 5 and h.lengths[H] == 4
                                      and h.hcp >= invite), TELLS_NOTHING, said=False)),
        Rule(f"{ask}C", "Stayman, asks for a major", hcp=(invite, 37),
             when=Test("a four-card major", lambda h: h.lengths[H] >= 4 or h.lengths[S] >= 4,
                       TELLS_NOTHING),
             forcing=True),
        Rule("4NT", "quantitative, invites 6NT", hcp=(quant, slam - 1)),
        Rule("3NT", "to play", hcp=(game, quant - 1)),
    ]
    if level == 1 and game > invite:
        rules.append(Rule("2NT", "invites 3NT", hcp=(invite, game - 1)))
    rules.append(Rule("pass", "to play", hcp=(0, invite - 1)))
    return rules


def stayman_answers(level: int) -> Table:
    """Partner asked with Stayman over our `level`NT."""
    up = level + 1
    return [Rule(f"{up}H", "", lengths={H: (4, 13)}),
            Rule(f"{up}S", "", lengths={S: (4, 13), H: (0, 3)}),
            Rule(f"{up}D", "", lengths={H: (0, 3), S: (0, 3)})]


def transfer_completions(level: int, major: Suit, lo: int, hi: int) -> Table:
    """Partner transferred to `major` over our `level`NT."""
    M = L[major]
    return [Rule(f"{level + 2}{M}", "super-accept", hcp=(hi, 37), lengths={major: (4, 13)}),
            Rule(f"{level + 1}{M}", "completes the transfer", lengths={major: (2, 13)})]


def after_stayman(level: int, answer: Suit | None, lo: int, hi: int) -> Table:
    """We asked with Stayman; opener answered `answer` (None: no major)."""
    invite, game, quant, slam = 25 - hi, 25 - lo, 33 - hi, 33 - lo
    if level == 2:
        game = invite
    rules: list[Rule] = []
    if answer is not None:
        A = L[answer]
        # With the fit found, slam is a suit slam: dummy's shortness counts, and 4NT asks
        # for key cards from ASK together with the middle of opener's range.
        ask = math.ceil(ASK - (lo + hi) / 2)
        rules += [
            Rule("4NT", "Roman Key Card Blackwood", pts=(ask, 37), trump=answer,
                 lengths={answer: (4, 13)}),
            Rule(f"4{A}", "to play game", hcp=(game, 37),
                 pts=(0, ask - 1), trump=answer, lengths={answer: (4, 13)}),
            Rule(f"{level + 2}{A}", "invites game",
                 hcp=(invite, game - 1), lengths={answer: (4, 13)}),
        ]
    other = S if answer == H else None
    rules += [
        Rule("6NT", "no fit", hcp=(slam, 37)),
        Rule("4NT", "no fit, invites 6NT", hcp=(quant, slam - 1)),
        Rule("3NT", "no fit" + (", holds four spades" if other else ""),
             hcp=(game, quant - 1)),
        Rule(f"{level + 1}NT", "no fit, invites 3NT", hcp=(invite, game - 1)),
        Rule("pass", "to play", hcp=(0, invite - 1)),
    ]
    return rules


def opener_after_stayman_nt(level: int, asked_nt: int, hi: int) -> Table:
    """We answered Stayman with hearts; partner bid notrump, so partner holds four
    spades: we correct with four spades too."""
    if asked_nt >= 3:
        return [Rule("4S", "the fit partner holds", lengths={S: (4, 13)}),
                Rule("pass", "no spade fit")]
    return [Rule("4S", "maximum", hcp=(hi - 1, 37), lengths={S: (4, 13)}),
            Rule("3S", "minimum", lengths={S: (4, 13)}),
            *opener_after_nt_invitation(hi)]


def opener_after_nt_invitation(hi: int) -> Table:
    """Partner invited 3NT with 2NT over our 1NT (at once, or after Stayman found no
    fit): game with the top two points of our range."""
    return [Rule("3NT", "accepts the invitation", hcp=(hi - 1, 37)),
            Rule("pass", "declines the invitation")]


def after_transfer(level: int, major: Suit, lo: int, hi: int) -> Table:
    """Opener completed our transfer to `major`."""
    M = L[major]
    invite, game, slam = 25 - hi, 25 - lo, 33 - lo
    if level == 2:
        game = invite
    return [
        Rule(f"6{M}", "to play slam", hcp=(slam, 37), lengths={major: (6, 13)}),
        Rule(f"4{M}", "to play game", hcp=(game, 37), pts=(game, 37),
             lengths={major: (6, 13)}),
        Rule("3NT", "choose between the games", hcp=(game, 37), lengths={major: (5, 5)}),
        Rule(f"{level + 2}{M}", "invites game", pts=(invite, game - 1),
             lengths={major: (6, 13)}),
        Rule(f"{level + 1}NT", "invites game", hcp=(invite, game - 1),
             lengths={major: (5, 5)}),
        Rule("pass", "to play", hcp=(0, invite - 1)),
    ]


def opener_after_transfer_nt(major: Suit, asked_nt: int, hi: int) -> Table:
    """Partner transferred and then bid notrump (5 cards in `major`)."""
    M = L[major]
    if asked_nt >= 3:
        return [Rule(f"4{M}", "the 8-card fit", lengths={major: (3, 13)}),
                Rule("pass", "notrump", lengths={major: (2, 2)})]
    return [Rule(f"4{M}", "maximum", hcp=(hi - 1, 37), lengths={major: (3, 13)}),
            Rule("3NT", "maximum", hcp=(hi - 1, 37)),
            Rule(f"3{M}", "minimum", lengths={major: (3, 13)}),
            Rule("pass", "minimum")]


def two_club_responses() -> Table:
    """Partner opened a strong 2♣."""
    rules = [Rule(f"{2 if s in MAJORS else 3}{L[s]}",
                  "positive", hcp=(8, 37), lengths={s: (5, 13)},
                  when=good_suit(s), forcing=True) for s in (S, H, D, C)]
    rules.append(Rule("2D", "waiting, says nothing yet", forcing=True))
    return rules


def two_club_rebids() -> Table:
    """We opened 2♣ and partner waited with 2♦."""
    rules = [Rule("3NT", "", hcp=(25, 27), when=BALANCED),
             Rule("2NT", "", hcp=(22, 24), when=BALANCED)]
    for s in (S, H, C, D):
        rules.append(Rule(f"{2 if s in MAJORS else 3}{L[s]}", "forcing to game",
                          lengths={s: (5, 13)}, forcing=True,
                          when=Test(f"{name(s)} longest", lambda h, s=s: h.longest() == s,  # type: ignore[misc]
                                    TELLS_NOTHING, said=False)))
    rules.append(Rule("2NT", "no long suit", hcp=(22, 37)))
    return rules


def weak_two_responses(p: Suit, level: int) -> Table:
    """Partner pre-empted with `level` of `p` (6–7 cards, 5–10 points)."""
    P = L[p]
    game = game_level(Strain(int(p)))
    rules = []
    if level < game:
        rules.append(Rule(f"{game}{P}", "to play", pts=(16, 37),
                          trump=p, lengths={p: (3, 13)}))
    if level < 3 and p in MAJORS:
        rules.append(Rule(f"3{P}", "pre-emptive raise", hcp=(0, 15),
                          lengths={p: (3, 13)}))
    others = [s for s in Suit if s != p]
    # Opposite a pre-empt, 3NT wants the high cards and every other suit stopped (partner
    # brings the long suit), or a balanced hand.
    stopped = Test("balanced, or a stopper in each other suit",
                   lambda h: h.balanced or all(h.stopper(s) for s in others), TELLS_NOTHING)
    rules += [
        Rule("3NT", "to play", hcp=(16, 37), when=stopped),
        Rule("pass", "to play"),
    ]
    return rules
