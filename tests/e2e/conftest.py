"""End-to-end fixtures shared by the e2e modules."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.games.fairness import FairDeals
from tests.e2e.harness import Harness


@pytest.fixture
def fixed_deals(monkeypatch: pytest.MonkeyPatch) -> Callable[[Harness, int], None]:
    """Make a harness's tables deal the same cards every run: the table seed (which also
    seeds the computer players), the fair deals' secret and the client seed (otherwise
    made from Start's interaction id) are all fixed by `seed`."""
    def fix(h: Harness, seed: int) -> None:
        h.bot.tables.new_seed = lambda: seed
        monkeypatch.setattr(FairDeals, "new_secret", classmethod(lambda cls: f"{seed:064x}"))
        monkeypatch.setattr("bot.tables.lobby.client_seed_from",
                            lambda press_id, people: f"{seed:032x}")

    return fix
