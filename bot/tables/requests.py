"""Claims and undo at a table (the mechanism is the engine's: bot/games/requests.py).

A person whose claim or undo was just rejected, or who withdrew it, waits `COOL_DOWN`
seconds before asking the opponents again (the engine bounds how often in a deal; this
wait needs the tables' clock); meanwhile their hand shows Undo disabled and says when they
may ask again, and the table is redrawn when the wait is over.

A person's claim is checked double dummy before it is recorded: one that holds against
any defence is recorded as `claim:<n>:proven` and stands at once; any other goes to the
opponents. Computer players answer at once (a claim: accepted exactly when the solver
agrees; an undo: consent), and a turn timer that runs out for a person rejects. The solver
runs in the thinking pool's workers, never on the event loop, and a person's claim is
judged before the table's lock is taken (`Judged`): the workers may all be busy, and no
other click at the table waits behind it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot.ai.core.claims import claim_holds
from bot.games import Game, IllegalAction
from bot.games.requests import ANSWERS, ASIDE_VERBS, PROVEN, PlayPosition, Request, Requests

from .model import StaleAction, TableError
from .thinking import ThinkingPool

log = logging.getLogger(__name__)

COOL_DOWN = 20.0  # seconds after a rejection or withdrawal before the asker asks again
COOLING_OUTCOMES = frozenset({"rejected", "withdrawn"})  # the request's ends that make it wait
NOT_A_MOVE = "That button does not hold a move you can make now."
ENDED = ("That claim or undo is over (withdrawn or answered), so your answer changed "
         "nothing; the table shows what is asked now.")


def is_request(action: str) -> bool:
    """Whether a click asks (a claim, an undo, a withdrawal) rather than acts."""
    return action.partition(":")[0] in ASIDE_VERBS


@dataclass(frozen=True, slots=True)
class Judged:
    """A person's claim checked double dummy on the play as it stood after `seq` actions."""

    seq: int
    holds: bool


def takes_long(action: str) -> bool:
    """Whether applying a person's click may wait for the workers (a claim is checked
    double dummy there first): its answer is deferred."""
    return action.startswith("claim:")


def answered(game: Game[Any], action: str) -> str:
    """The engine's answer (`accept`, `reject`) of an answer button's action, which names
    its request (`accept:<number>`); StaleAction when that request is no longer the one
    waiting (withdrawn, answered, or replaced by a newer one). Other actions pass as they
    are."""
    verb, colon, number = action.partition(":")
    if verb not in ANSWERS or not colon:
        return action
    now = pending(game)
    if now is None or str(now.number) != number:
        raise StaleAction(ENDED)
    return verb


def cool_down_refusal(ask_again_at: float | None, now: float, action: str) -> str | None:
    """Why a person who may ask again only from `ask_again_at` (their last request was
    rejected or withdrawn) may not ask `action` (as it would be recorded) yet; None: they
    may. A withdrawal, and a claim that holds double dummy (it stands at once, asking
    nobody), need no wait. The hand shows Undo disabled meanwhile: this answers a claim
    that does not hold, and a click on a hand drawn before the wait began."""
    if (ask_again_at is None or action == "withdraw" or action.endswith(":" + PROVEN)
            or now >= ask_again_at):
        return None
    wait = max(1, round(ask_again_at - now))
    seconds = f"{wait} second{'s' if wait != 1 else ''}"
    if action.startswith("claim:"):
        return (f"That claim does not hold against every defence, so it would go to your "
                f"opponents, and your last request has only just ended: you may put a "
                f"claim to them in {seconds}.")
    return (f"Your last request has only just ended (rejected or withdrawn): you may ask "
            f"again in {seconds}.")


def pending(game: Game[Any]) -> Request | None:
    """The claim or undo the game waits on, if any."""
    return game.request if isinstance(game, Requests) else None


def same_question(before: Request | None, now: Request | None) -> bool:
    """Whether an answer thought out for `before` still answers what is asked now (other
    seats' answers may have come in meanwhile; a withdrawn request may have been replaced)."""
    if before is None or now is None:
        return before is now
    return (before.kind, before.asker, before.text) == (now.kind, now.asker, now.text)


def position_to_judge(game: Game[Any]) -> PlayPosition | None:
    """The play as it stands while a claim waits for answers (None otherwise)."""
    if not isinstance(game, Requests) or game.request is None or game.request.kind != "claim":
        return None
    return game.claim_position()


def _requests(game: Game[Any], seat: int, action: str) -> Requests:
    """The game, if `seat` may make request `action` in it now; else TableError with the
    engine's reason."""
    if not isinstance(game, Requests):
        raise TableError("This game has no claims or undo.")
    if action.endswith(":" + PROVEN):  # only the table says a claim is proven
        raise TableError(NOT_A_MOVE)
    try:
        game.check_request(seat, action)
    except IllegalAction as exc:
        raise TableError(str(exc)) from None
    return game


def claim_to_judge(game: Game[Any], seat: int, action: str) -> PlayPosition:
    """The play a person's claim is judged on (read under the table's lock); TableError
    when the claim may not be made now."""
    return _requests(game, seat, action).claim_position()


async def judge(pool: ThinkingPool, position: PlayPosition, seat: int, action: str,
                seq: int) -> Judged:
    """Whether a person's claim holds double dummy (without the table's lock)."""
    tricks = int(action.split(":")[1])
    return Judged(seq, await _holds(pool, position, seat % 2, tricks))


async def to_record(game: Game[Any], seat: int, action: str, pool: ThinkingPool,
                    seq: int, judged: Judged | None = None) -> str:
    """The action to record for a person's request (a claim that holds double dummy
    becomes `claim:<n>:proven`); TableError with the engine's reason when it is refused.
    `judged`: the claim's check made before the lock; if the play has moved since (the
    table is past its `seq`), the claim is checked again here."""
    asked = _requests(game, seat, action)
    if not action.startswith("claim:"):
        return action
    if judged is None or judged.seq != seq:
        judged = await judge(pool, asked.claim_position(), seat, action, seq)
    return f"{action}:{PROVEN}" if judged.holds else action


async def answer(pool: ThinkingPool, request: Request, position: PlayPosition | None,
                 timed_out: bool) -> str:
    """A computer player's answer (or a timer's, for a person who did not answer). A
    failure of the claim's check raises: the turn flow counts it, logs it once per table
    and cause, and rejects."""
    if timed_out:
        return "reject"
    if request.kind == "undo" or position is None:
        return "accept"
    holds = await pool.run(claim_holds, position, request.asker % 2, request.tricks)
    return "accept" if holds else "reject"


async def _holds(pool: ThinkingPool, position: PlayPosition, side: int, tricks: int) -> bool:
    """Whether a person's claim holds double dummy (in both bridge games a seat's compass
    side is seat % 2). A solver failure counts as not shown: the opponents decide."""
    try:
        return await pool.run(claim_holds, position, side, tricks)
    except Exception:
        log.exception("the double-dummy check of a claim failed; the opponents decide")
        return False
