"""THINK_PROCESSES: how many worker processes computer players think in."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, default_processes, load_settings
from tests.e2e.harness import TOKEN


def test_think_processes_setting():
    base = {"DISCORD_TOKEN": TOKEN}
    assert load_settings(base).think_processes == default_processes()
    assert load_settings({**base, "THINK_PROCESSES": "0"}).think_processes == 0
    assert load_settings({**base, "THINK_PROCESSES": " 3 "}).think_processes == 3
    for bad in ("-1", "two", "1.5"):
        with pytest.raises(ConfigError, match="THINK_PROCESSES"):
            load_settings({**base, "THINK_PROCESSES": bad})

