"""What every game's text has in common; each game overrides the parts that differ."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from bot.games import GameView
from bot.games.base import EndedDeal
from bot.render.games.common import play_lines, plays_inline
from bot.render.layout import CARD_KINDS
from bot.render.text import action_label, cards_inline, hand_block

if TYPE_CHECKING:
    from bot.render.seating import Seating

Field = tuple[str, str, bool]
Hand = tuple[str, Sequence[Any]]  # a title and its cards


def own_seat(view: GameView) -> int:
    """The seat of a player's own view (private texts are never built for a spectator)."""
    if view.seat is None:
        raise ValueError("a spectator's view has no hand of its own")
    return view.seat

ViewT = TypeVar("ViewT", bound=GameView)
SummaryT = TypeVar("SummaryT", bound=EndedDeal)  # the game's summary of a finished deal


@dataclass(frozen=True, slots=True)
class About:
    """What the bot says about a game outside a table: the /rules text, the /play
    description, and which of its /stats figures read as "made of tried"."""

    title: str = ""  # the /rules heading
    summary: str = ""  # `/play <game>`'s description (Discord allows 100 characters)
    rules: str = ""  # docs/rules.md in short, for /rules
    # (label, made figure, tried figure): "Slams made: 2 of 3" (bot.ratings.figures names)
    figure_ratios: tuple[tuple[str, str, str], ...] = ()


class GameText(Generic[ViewT, SummaryT]):
    """Default texts built from the fields every view has; each game's text is typed with
    its own view and deal summary (`GameText[SpadesView, SpadesDealSummary]`)."""

    card_kinds: frozenset[str] = CARD_KINDS
    score_unit = ""  # what a match's totals count, when not points: Tennis counts errors

    def __init__(self, about: About = About()) -> None:
        self.about = about

    def figure_lines(self, figures: Mapping[str, int]) -> list[str]:
        """A person's figures of this game in /stats (figures named by bot.ratings)."""
        return [f"{label}: {figures.get(made, 0)} of {figures.get(tried, 0)}"
                for label, made, tried in self.about.figure_ratios]

    def status_lines(self, view: ViewT, seating: Seating) -> list[str]:
        lines = []
        lines.append(f"Dealer: {seating.who(view.dealer)}")
        lines.append(self.turn_line(view, seating))
        return lines

    def turn_line(self, view: ViewT, seating: Seating) -> str:
        if view.phase == "match_over":
            return "The match is over."
        if view.turn is not None:
            return f"**{seating.who(view.turn)}** to {self.verb(view)}."
        waiting = ", ".join(seating.who(s) for s in sorted(view.to_act))
        return f"Waiting for {waiting}." if waiting else ""

    def verb(self, view: ViewT) -> str:
        return "play" if view.phase == "play" else "bid"

    def public_fields(self, view: ViewT, seating: Seating) -> list[Field]:
        return [("Trick", self.trick_text(view.trick, seating), False)]

    def trick_text(self, trick: Sequence[tuple[int, Any]], seating: Seating) -> str:
        return play_lines(trick, seating.who, range(len(seating.seat_names)))

    def last_trick_text(self, view: ViewT, seating: Seating) -> str | None:
        """The trick before the current one and who won it (the private Last trick
        button), or None before the first trick is complete."""
        last = view.last_trick
        if last is None:
            return None
        return (plays_inline(last.cards, seating.name)
                + f"\nWon by **{seating.who(last.winner)}**")

    lists_tricks = False  # has a trick history (trick_history_text): a Tricks button

    def trick_history_text(self, view: ViewT, seating: Seating) -> str | None:
        """Every complete trick of the deal so far (the private Tricks button), or None
        where a game does not list them or before the first trick is complete."""
        return None

    def private_lines(self, view: ViewT, seating: Seating) -> list[str]:
        return ["Your hand:", hand_block(view.hand) if view.hand else "(no cards)"]

    def prompt(self, view: ViewT, legal: Sequence[str]) -> str:
        if all(a.startswith("play:") for a in legal):
            return "**Your turn: play a card.**"
        return "**Your turn.**"

    def deal_lines(self, summary: SummaryT, seating: Seating) -> list[str]:
        return []

    def deal_fields(self, summary: SummaryT, seating: Seating) -> list[Field]:
        """The end of a deal's fields other than its hands (auction, tricks, score)."""
        return []

    def deal_hands(self, summary: SummaryT, seating: Seating) -> list[Hand]:
        """Every hand of a finished deal as (title, cards): one line each at the end of a
        deal, whose picture shows them laid out. Each game lists its own (summaries hold
        hands differently); tests/test_registry.py checks every game does."""
        return []

    @staticmethod
    def inline(cards: Sequence[Any]) -> str:
        return cards_inline(cards)

    @staticmethod
    def label(action: str) -> str:
        return action_label(action)
