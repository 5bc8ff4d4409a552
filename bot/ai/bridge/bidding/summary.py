"""The whole system as a person reads it: each situation's table, for typical auctions
(the tables take the auction's suits, so one example stands for its kind)."""

from __future__ import annotations

from bot.games.bridge_auction import Bid, Call, Strain
from bot.games.cards import Suit

from ...core.hand_range import HandRange
from . import competition as comp
from . import constructive as con
from . import notrump as nt
from . import slam
from .captain import PART_GAME, STEPS
from .context import empty_auction
from .part_score import rubber_rules
from .rubber import Score
from .rules import Table, rules_for
from .system import read, tables_for

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def _lines(table: Table) -> list[str]:
    seen: set[str] = set()
    out = []
    for rule in table:
        if rule.call in seen:
            continue
        seen.add(rule.call)
        call = "Pass" if rule.call == "pass" else "Dbl" if rule.call == "double" else \
            Bid.parse(rule.call).label
        out.append(f"{call} — {rule.says}")
    return out


def _rubber_lines(calls: str, parts: tuple[int, int]) -> list[str]:
    """The rubber's part-score rules for North-South's next call after `calls` (North
    deals), with `parts` below the line."""
    from .system import _context

    auction = empty_auction(0)
    for text in calls.split():
        auction.call(auction.to_call(), Call.parse(text))
    score = Score((0, 0), parts)
    reading = read(0, auction.calls, score)
    ctx = _context(auction.to_call(), auction.calls, reading.ranges, reading.forcing, score)
    assert tables_for(ctx)[0] == "part score in a rubber"
    return _lines(rubber_rules(ctx))


def sections() -> list[tuple[str, list[str]]]:
    """(title, lines "call — meaning") per situation, in the order of an auction."""
    one_heart = Bid(1, Strain.HEARTS)
    steps = [f"{i}. {step}" for i, step in enumerate(STEPS, 1)]
    return [
        ("Opening", _lines(con.opening_table())),
        ("Responses to 1♥ (1♠ alike)", _lines(con.one_suit_responses(H))),
        ("Responses to 1♦ (1♣ alike)", _lines(con.one_suit_responses(D))),
        ("Opener's rebid after 1♦–1♥", _lines(con.opener_rebids(D, "1H", H))),
        ("Opener's rebid after 1♥–2♥; responder after a game try",
         _lines(con.opener_rebids(H, "2H", H)) + _lines(con.after_game_try(H))),
        ("Responses to 1NT (15–17)", _lines(nt.nt_responses(1, 15, 17))),
        ("Responses to 2NT (20–21)", _lines(nt.nt_responses(2, 20, 21))),
        ("Answers to Stayman and transfers", _lines(nt.stayman_answers(1))
         + _lines(nt.transfer_completions(1, H, 15, 17))),
        ("After 1NT–2♣–2♥", _lines(nt.after_stayman(1, H, 15, 17))),
        ("After 1NT–2♦–2♥", _lines(nt.after_transfer(1, H, 15, 17))),
        ("Strong 2♣: responses and rebids", _lines(nt.two_club_responses())
         + _lines(nt.two_club_rebids())),
        ("Responses to a weak 2♥", _lines(nt.weak_two_responses(H, 2))),
        ("Over their 1♥", _lines(comp.overcalls(one_heart, [H], balancing=False))),
        ("Partner doubled their 1♥ for takeout", _lines(comp.takeout_answers([H], one_heart))),
        ("Partner opened 1♦, they overcalled 1♥", _lines(comp.contested_responses(
            D, one_heart, [H]))),
        ("Partner overcalled 1♠ over their 1♥", _lines(comp.advances(
            S, Bid(1, Strain.SPADES), [H], rules_for(comp.overcalls(
                one_heart, [H], balancing=False), "bid:1S")[0].shows()))),
        ("Slams: Roman Key Card Blackwood 4NT (hearts agreed), the answers",
         _lines(slam.key_card_answers(H))),
        ("Slams: the asker after the answer",
         _lines(slam.after_key_cards(H, "5D", HandRange(min_hcp=12)))),
        ("Slams: all the key cards, 5NT asks for kings", _lines(slam.king_answers(H))
         + _lines(slam.after_kings(H, "6D", HandRange()))),
        ("Rubber, with a part score: 70 below, after 1♥–2♥; after 1♥ with 40 below; "
         "they have 60, after 1♦ (1♥) Pass (2♥)",
         [PART_GAME, *_rubber_lines("1H pass 2H pass", (70, 0)),
          *_rubber_lines("1H pass", (40, 0)),
          *_rubber_lines("1D 1H pass 2H", (0, 60))]),
        *_fields(("Everything else: placing the contract", "Placing the contract (continued)"),
                 steps),
    ]


FIELD = 1024  # a Discord embed field's characters


def _fields(titles: tuple[str, str], lines: list[str]) -> list[tuple[str, list[str]]]:
    """`lines` in order, as few fields as hold them whole: the first titled
    `titles[0]`, the rest `titles[1]`."""
    fields: list[tuple[str, list[str]]] = []
    for line in lines:
        if fields and len("\n".join([*fields[-1][1], line])) <= FIELD:
            fields[-1][1].append(line)
        else:
            fields.append((titles[1] if fields else titles[0], [line]))
    return fields
