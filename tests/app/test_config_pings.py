"""PING_AFTER_SECONDS: the default wait before a person on turn is pinged."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings
from tests.e2e.harness import TOKEN


def test_ping_after_defaults_to_two_minutes_and_can_be_set_or_turned_off():
    assert load_settings({"DISCORD_TOKEN": TOKEN}).ping_after_seconds == 120
    assert load_settings({"DISCORD_TOKEN": TOKEN,
                          "PING_AFTER_SECONDS": "300"}).ping_after_seconds == 300
    assert load_settings({"DISCORD_TOKEN": TOKEN,
                          "PING_AFTER_SECONDS": "0"}).ping_after_seconds == 0


@pytest.mark.parametrize("value", ["-5", "soon"])
def test_a_bad_ping_after_is_one_clear_error(value):
    with pytest.raises(ConfigError, match="PING_AFTER_SECONDS"):
        load_settings({"DISCORD_TOKEN": TOKEN, "PING_AFTER_SECONDS": value})
