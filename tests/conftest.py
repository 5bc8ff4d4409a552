"""Test-wide settings: hypothesis profiles (CI keeps property tests quick but real)."""

from __future__ import annotations

import os

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
