"""Test-wide settings: hypothesis profiles (CI keeps property tests quick but real), and a
run of one test file in this process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The local Discord API double and its `discord_double` fixture (end-to-end tests); the
# databases the store's tests run on (`database`: SQLite and PostgreSQL).
pytest_plugins = ["discord_double.fixtures", "tests.databases"]

settings.register_profile(
    "default", max_examples=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", max_examples=300, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """A run of one test file (or tests of it) runs in this process: pyproject.toml's
    `-n 2 --dist loadfile` would give the whole file to one worker anyway, after starting
    two (seconds more than the file's tests often take). Workers asked for on the command
    line (`-n`, `--dist`, `--tx`) are started as asked."""
    if getattr(config.option, "numprocesses", None) is None:
        return  # pytest-xdist is not loaded (`-p no:xdist`)
    asked = ("-n", "--numprocesses", "--dist", "-d", "--tx", "--maxprocesses")
    if any(arg.startswith(asked) for arg in config.invocation_params.args):
        return
    files = {arg.split("::")[0] for arg in config.args}
    if len(files) == 1 and Path(files.pop()).is_file():
        config.option.numprocesses = 0
