"""The computer players decide as recorded: the same seeds give the same decisions.

A fixed set of matches of every game (tests/ai/recorded_decisions.py) is played again and
each action compared with the recording. A change meant to change decisions re-records it:
`python -m tests.ai.recorded_decisions`.
"""

from __future__ import annotations

import json

import pytest

from .recorded_decisions import MATCHES, RECORDING, SEEDS, play

RECORDED: dict[str, dict[str, list[str]]] = json.loads(RECORDING.read_text())


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", sorted(MATCHES))
def test_decisions_are_as_recorded(game: str, seed: int) -> None:
    recorded = RECORDED[game][str(seed)]
    actions = play(game, seed)
    pairs = zip(actions, recorded, strict=False)
    first = next((i for i, (a, b) in enumerate(pairs) if a != b),
                 min(len(actions), len(recorded)))
    assert actions == recorded, (
        f"{game} seed {seed}: decision {first} is {actions[first:first + 1]}, recorded "
        f"{recorded[first:first + 1]} (re-record with python -m tests.ai.recorded_decisions "
        f"only when a change is meant to change decisions)")
