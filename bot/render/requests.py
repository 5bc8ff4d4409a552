"""What people see of claims and undo (bot/games/requests.py): the line saying what is
asked, the buttons to ask, the choice of how many tricks to claim, and the Accept/Reject
buttons on the public table for a person who is asked (whose hand may not be open)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import discord

from bot.games.base import GameView
from bot.games.requests import ANSWERS, Request, RequestView

from . import ids
from .components import MAX_ROWS, TableButton, button
from .seating import Seating

CLAIM_GROUP = "claim"  # the hand's screen that offers how many tricks to claim


def pending(view: GameView) -> Request | None:
    """The claim or undo a view shows as waiting (only the bridge games have them)."""
    return view.request if isinstance(view, RequestView) else None


def asks_of(view: GameView) -> tuple[str, ...]:
    """What the viewer may ask now (`claim:<n>`, `undo`, `withdraw`), if the game has it."""
    return view.asks if isinstance(view, RequestView) else ()


def claims_of(view: GameView) -> list[int]:
    """The numbers of tricks the viewer may claim now, most first."""
    return [int(a.split(":")[1]) for a in asks_of(view) if a.startswith("claim:")]


def request_line(request: Request, seating: Seating) -> str:
    waiting = " and ".join(seating.who(s) for s in sorted(request.waiting))
    return f"⚖️ **{request.text}.** Waiting for {waiting} to accept or reject."


def answer_prompt(request: Request) -> str:
    if request.kind == "claim":
        return ("**Accept the claim if they take those tricks however you defend; reject it "
                "to play on.**")
    return "**Accept to let them take it back, or reject to play on.**"


def answer_action(action: str, request: Request | None) -> str:
    """An answer's button action names the request it answers (`accept:<number>`), so the
    table refuses it once that request is over; other actions are as they are."""
    if request is None or action not in ANSWERS:
        return action
    return f"{action}:{request.number}"


def ask_again_line(ask_again_at: float) -> str:
    """Said in the hand of a person whose last claim or undo was just rejected or
    withdrawn: when they may ask again (a Discord timestamp, counting down on its own)."""
    return (f"Your last request has just ended: you may ask your opponents again "
            f"<t:{math.ceil(ask_again_at)}:R>.")


def ask_buttons(table_id: int, seat: int, decision: int, view: GameView,
                row: int | None, cooling: bool = False) -> list[TableButton]:
    """Claim…, Undo and Withdraw, as the viewer may ask now, on one row (None: wherever
    there is room). `cooling`: the viewer's last request has just ended, so Undo is shown
    disabled until they may ask again (Claim… stays: a claim that holds double dummy
    stands at once, asking nobody)."""
    asks = asks_of(view)
    out: list[TableButton] = []
    if row is not None and row >= MAX_ROWS:  # a full screen of choices: no room
        return out
    if claims_of(view):
        out.append(button(ids.make("pick", table_id, seat, decision, CLAIM_GROUP), "Claim…",
                          row=row))
    if "undo" in asks:
        out.append(button(ids.action_id(table_id, seat, decision, "undo"), "Undo", row=row,
                          disabled=cooling))
    if "withdraw" in asks:
        out.append(button(ids.action_id(table_id, seat, decision, "withdraw"),
                          "Withdraw my request", row=row))
    return out


def claim_screen(table_id: int, seat: int, decision: int, view: GameView,
                 cooling: bool = False) -> tuple[str, list[TableButton]]:
    """The prompt and buttons of the claim screen: each number of tricks, then Back.
    `cooling`: the person may not put a claim to the opponents yet (only one that holds
    double dummy stands)."""
    numbers = claims_of(view)
    left = max(numbers)
    out = []
    for index, tricks in enumerate(numbers):
        label = f"All {left}" if tricks == left else ("None" if tricks == 0 else str(tricks))
        out.append(button(ids.action_id(table_id, seat, decision, f"claim:{tricks}"), label,
                          discord.ButtonStyle.primary if tricks == left else
                          discord.ButtonStyle.secondary, row=index // 5))
    out.append(button(ids.make("pick", table_id, seat, decision, "-"), "Back",
                      row=(len(numbers) - 1) // 5 + 1))
    prompt = (f"**How many of the last {left} tricks does your side take?** A claim that "
              "holds against any defence (double dummy) stands at once; any other is put "
              "to the opponents" + (" once you may ask again." if cooling else "."))
    return prompt, out


def answer_buttons(table_id: int, request: Request | None, decisions: Sequence[int],
                   seating: Seating) -> list[TableButton]:
    """Accept/Reject on the public table for each person asked: only they can press them
    (the table service refuses anyone else's click)."""
    if request is None:
        return []
    out = []
    for seat in sorted(request.waiting):
        if seating.user_ids[seat] is None or seating.bots[seat]:
            continue
        name = seating.seat_names[seat]
        for action, label, style in (("accept", "Accept", discord.ButtonStyle.success),
                                     ("reject", "Reject", discord.ButtonStyle.secondary)):
            out.append(button(ids.action_id(table_id, seat, decisions[seat],
                                            answer_action(action, request)),
                              f"{name}: {label}", style, row=1))
    return out
