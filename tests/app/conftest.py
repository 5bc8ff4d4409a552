"""Start-up tests run in an environment without the bot's settings and without a `.env`."""

from __future__ import annotations

import pytest

from tests.app.helpers import ENV_NAMES


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    return monkeypatch
