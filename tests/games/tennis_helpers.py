"""The seed's worked example as a stacked Tennis game, scripted card by card (tests only)."""

from __future__ import annotations

from bot.games.cards import Card, Suit, card
from bot.games.tennis import Tennis

# The seed's worked example as a whole game. Written for clubs trumps with the non-dealer
# ("A") and the dealer ("B"); `role_suits` renames the suits for the other trumps.
# A's Forehand is ten clubs (bid 7C), A's Backhand the two top hearts and spades (bid 3S),
# B's Forehand low clubs, hearts and the two top spades (bid KS), B's Backhand diamonds.
EXAMPLE_HANDS = {
    "A_back": "AH KH QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "B_back": "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "A_fore": "AC KC QC JC TC 9C 8C 7C 6C 5C 2H 3H 4H",
    "B_fore": "AS KS 4C 3C 2C 5H 6H 7H 8H 9H TH JH QH",
}
EXAMPLE_BIDS = {"A_back": "3S", "B_back": "KD", "A_fore": "7C", "B_fore": "KS"}
# The order each hand plays its cards: A's Forehand serves and wins tricks 1-9 with
# trumps, A's Backhand wins tricks 10-11 with the top hearts, then leads a low spade to
# B's Forehand's ace for trick 12. B's Backhand discards its diamonds in any order.
EXAMPLE_PLAY = {
    "A_fore": "AC KC QC JC TC 9C 8C 6C 5C 4H 3H 2H",
    "B_fore": "2C 3C 4C 5H 6H 7H 8H 9H TH JH QH AS",
    "A_back": "QS JS TS 9S 8S 7S 6S 5S 4S AH KH 2S",
}


def role_suits(trump: Suit | None) -> dict[str, str]:
    """Rename the example's suits so its clubs are this game's trumps (clubs at notrump)."""
    top = trump if trump is not None else Suit.CLUBS
    others = [s for s in (Suit.HEARTS, Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS) if s != top]
    return {"C": top.letter, "H": others[0].letter, "S": others[1].letter,
            "D": others[2].letter}


def renamed(text: str, suits: dict[str, str]) -> list[Card]:
    return [card(t[0] + suits[t[1]]) for t in text.split()]  # rank, then renamed suit


class ExampleGame:
    """Stacks the worked example for one game and plays it by its script."""

    def __init__(self, game: Tennis, b_back_bid: str = "KD") -> None:
        self.game = game
        self.suits = role_suits(game.trump)
        self.a, self.b = 1 - game.dealer, game.dealer
        hands = {k: renamed(v, self.suits) for k, v in EXAMPLE_HANDS.items()}
        pack: list[Card] = [Card.parse("2C")] * 52
        for role, seat in (("A", self.a), ("B", self.b)):
            for kind, block in (("back", 0), ("fore", 2)):
                pack[(block + seat) * 13:(block + seat + 1) * 13] = hands[f"{role}_{kind}"]
        game.stack_deck(pack)
        self.bids = {k: renamed(v, self.suits)[0] for k, v in EXAMPLE_BIDS.items()}
        self.bids["B_back"] = renamed(b_back_bid, self.suits)[0]
        self.play = {k: renamed(v, self.suits) for k, v in EXAMPLE_PLAY.items()}
        self.play["B_back"] = [c for c in hands["B_back"] if c is not self.bids["B_back"]]

    def role(self, seat: int, kind: str) -> str:
        return ("A_" if seat == self.a else "B_") + ("fore" if kind == "Forehand" else "back")

    def bid(self, kind: str) -> list[object]:
        events: list[object] = []
        for seat in (self.a, self.b):
            events += self.game.apply(seat, "bid:" + self.bids[self.role(seat, kind)].text)
        return events

    def play_card(self) -> list[object]:
        (seat,) = self.game.to_act()
        due = self.game.view(seat).to_play_hand
        return list(self.game.apply(seat, "play:" + self.play[self.role(seat, due)].pop(0).text))

    def play_all(self) -> None:
        self.bid("Backhand")
        self.bid("Forehand")
        for _ in range(48):
            self.play_card()


def seed_with_first_dealer(dealer: int) -> int:
    return next(s for s in range(100) if Tennis(seed=s).dealer == dealer)
