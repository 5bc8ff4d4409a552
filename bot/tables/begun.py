"""A coroutine run now up to its first wait, and finished later by the task awaiting it.

Why: a click's write to PostgreSQL is one round trip. Begun as the move is made, the
statement is on its way while the click builds its answer, which goes out once the write
has committed. Run as a task of its own, the write would cost the click one more turn of
the event loop at its end (the task finishes, then wakes the click, behind everything
queued meanwhile); finished in the click's own task, its answer wakes the click directly,
as a plain `await` would. (A write that does not wait, SQLite's, is done at once.)
"""

from __future__ import annotations

import types
from collections.abc import Coroutine, Generator
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Begun(Generic[T]):
    """`coro` run now up to its first wait; `await` it (once) for the rest and its outcome.

    It must be awaited: until then it holds whatever it took (a database connection).
    Its first step runs in the caller's task, as the rest will."""

    __slots__ = ("_coro", "_done", "_error", "_result", "_waiting")

    def __init__(self, coro: Coroutine[Any, Any, T]) -> None:
        self._coro = coro
        self._waiting: Any = None
        self._done = False
        self._result: T | None = None
        self._error: BaseException | None = None
        try:
            self._waiting = coro.send(None)
        except StopIteration as done:
            self._done, self._result = True, done.value
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:  # its outcome, raised when it is awaited
            self._done, self._error = True, error

    @property
    def failed(self) -> bool:
        """Has it already failed (so that nothing need be built for its success)?"""
        return self._error is not None

    def __await__(self) -> Generator[Any, Any, T]:
        if not self._done:
            self._done = True
            try:
                self._result = yield from go_on(self._coro, self._waiting)
            except BaseException as error:
                self._error = error
        if self._error is not None:
            failure, self._error = self._error, None  # no cycle through the traceback
            raise failure
        return self._result  # type: ignore[return-value]


@types.coroutine
def go_on(coro: Any, waiting: Any) -> Generator[Any, Any, Any]:
    """The rest of a coroutine that has already run its first step and waits for
    `waiting`: what a task does with a coroutine, from its second step on (the awaiting
    task is handed each thing it waits for, and throws a cancellation into it)."""
    try:
        while True:
            try:
                sent = yield waiting
            except BaseException as error:  # thrown in by the task (a cancellation)
                waiting = coro.throw(error)
            else:
                waiting = coro.send(sent)
    except StopIteration as done:
        return done.value
