"""The click router: one handler per verb, ids that are not ours refused."""

from __future__ import annotations

import pytest

from bot.render import ids
from bot.router import ClickRouter, VerbTaken


async def _one(interaction, parsed) -> None:
    pass


async def _two(interaction, parsed) -> None:
    pass


def test_a_verb_has_one_handler_and_resolves_to_it():
    router = ClickRouter()
    router.register("act", _one)
    with pytest.raises(VerbTaken):
        router.register("act", _two)
    with pytest.raises(VerbTaken):
        router.register_all({"hand": _two, "act": _two})
    assert router.verbs == {"act"}, "a refused batch registers nothing"
    handler, parsed = router.resolve("tt:act:12:0:3:play:QH")
    assert handler is _one and parsed == ids.ParsedId("act", 12, ("0", "3", "play", "QH"))
    router.unregister("act")
    router.register("act", _two)
    assert router.resolve("tt:act:1")[0] is _two


@pytest.mark.parametrize("custom_id", ["", "tt:", "tt:act", "tt:zap:1", "poker:1:2",
                                       "tt:act:x", "tt:act:9223372036854775808"])
def test_ids_that_are_not_ours_are_refused(custom_id):
    router = ClickRouter()
    router.register("act", _one)
    with pytest.raises(ids.BadCustomId):
        router.resolve(custom_id)
