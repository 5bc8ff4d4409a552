"""The store's exceptions: one readable line each, safe to log or show to the operator."""

from __future__ import annotations


class StoreError(Exception):
    """The database cannot do what was asked; the message says why in one line."""


class StoreConflict(StoreError):
    """A write lost a race or arrived out of order (wrong action seq, match already finished).

    Nothing was written; the caller should reload the state and decide again.
    """
