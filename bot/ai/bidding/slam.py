"""Slam bidding: Blackwood (4NT asks for aces: 5♣ 0 or 4, 5♦ 1, 5♥ 2, 5♠ 3), what the
asker does with the answer (stop at five when two aces are missing), and the answer to a
quantitative 4NT."""

from __future__ import annotations

from bot.games.bridge_auction import Strain

from .rules import Rule, Table, Test

ANSWERS = ("5C", "5D", "5H", "5S")


def ace_answers() -> Table:
    return [
        Rule("5C", "Blackwood answer: 0 or 4 aces", when=Test("0 or 4 aces",
                                                               lambda h: h.aces() in (0, 4))),
        Rule("5D", "Blackwood answer: 1 ace", when=Test("1 ace", lambda h: h.aces() == 1)),
        Rule("5H", "Blackwood answer: 2 aces", when=Test("2 aces", lambda h: h.aces() == 2)),
        Rule("5S", "Blackwood answer: 3 aces", when=Test("3 aces", lambda h: h.aces() == 3)),
    ]


def partner_aces(answer: str, mine: int) -> int:
    """Aces shown by the answer (5♣ is 4 only when we hold none: 33 points hold an ace)."""
    shown = ANSWERS.index(answer)
    return 4 if shown == 0 and mine == 0 else shown


def after_aces(trump: Strain, answer: str, total_lo: int) -> Table:
    """We asked with 4NT and partner answered; `trump` is our agreed strain."""
    t = trump.letter
    sign_off = f"5{t}" if Strain.parse(t) > Strain.parse(answer[1]) else f"6{t}"

    def aces(h: object) -> int:
        mine: int = h.aces()  # type: ignore[attr-defined]
        return mine + partner_aces(answer, mine)

    rules = [
        Rule(f"7{t}", "grand slam: we hold all the aces and 37+ points together",
             when=Test("all four aces", lambda h: aces(h) == 4 and h.hcp + total_lo >= 37)),
        Rule(f"6{t}", "small slam: at most one ace missing",
             when=Test("3+ aces together", lambda h: aces(h) >= 3)),
    ]
    if sign_off.startswith("5"):
        rules.append(Rule(sign_off, "stops in five: two aces are missing",
                          when=Test("two aces missing", lambda h: aces(h) <= 2)))
    else:
        rules.append(Rule(sign_off, "small slam: partner's answer passed five",
                          when=Test("two aces missing", lambda h: aces(h) <= 2)))
    return rules


def quantitative_answers(hi_share: int) -> Table:
    """Partner raised our notrump to 4NT: slam with the top of our range."""
    return [Rule("6NT", "accepts the slam invitation: top of the range",
                 hcp=(hi_share, 37)),
            Rule("pass", "declines the slam invitation: bottom of the range")]
