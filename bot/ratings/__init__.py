"""Ratings and per-game figures: OpenSkill math (model), figures from a replayed log
(figures), and recording both inside the transaction that finishes a match (recorder).

Layer: like bot/tables (may import bot/games and bot/store); model.py imports only
openskill and the stdlib.
"""

from __future__ import annotations
