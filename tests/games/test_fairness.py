"""Provably fair deals: the commitment, the documented shuffle, verify, reveal and replay."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import AsyncIterator

import pytest

from bot.__main__ import main as cli
from bot.games import GAMES, create
from bot.games.cards import FULL_DECK
from bot.games.fairness import (
    CHAIN_LENGTH,
    CHECKPOINT_EVERY,
    FairDeals,
    check_seed,
    client_seed_from,
)
from bot.store import Store
from bot.tables import PLAYING, Person, TableService
from bot.verify import dealt_hands, verify
from tests.tables.helpers import play_until

ALICE = Person(1, "Alice")
SECRET = "5f" * 32


def _by_the_book(pack: list[str], server_seed: str, client_seed: str, deal_no: int) -> list[str]:
    """The shuffle exactly as docs/playing.md and /help describe it, written out a second way."""
    words: list[int] = []
    block = 0

    def draw() -> int:
        nonlocal block
        if not words:
            msg = f"{client_seed}:{deal_no}:{block}".encode()
            digest = hmac.new(server_seed.encode(), msg, "sha256").digest()
            words.extend(int(digest[i:i + 4].hex(), 16) for i in range(0, 32, 4))
            block += 1
        return words.pop(0)

    out = list(pack)
    for i in reversed(range(1, len(out))):
        while True:
            u = draw()
            if u < 2**32 - 2**32 % (i + 1):
                break
        j = u % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _play(game, actions: int, rng: random.Random) -> None:
    for _ in range(actions):
        if game.finished:
            return
        seat = sorted(game.to_act())[0]
        game.apply(seat, rng.choice(game.legal(seat)))


def test_fairness_the_chain_hashes_each_seed_to_the_one_before():
    deals = FairDeals(client_seed="c", secret=SECRET)
    assert deals.server_seed(CHAIN_LENGTH) == SECRET
    for k in (1, 2, 57):
        seed = deals.server_seed(k)
        assert hashlib.sha256(seed.encode()).hexdigest() == deals.server_seed(k - 1) \
            if k > 1 else deals.commitment
        assert check_seed(seed, k, deals.commitment)
        assert not check_seed(seed, k + 1, deals.commitment)
    with pytest.raises(ValueError, match="covers deals"):
        deals.server_seed(CHAIN_LENGTH + 1)


def test_fairness_a_table_keeps_a_few_links_of_its_chain_and_gives_every_seed_of_it():
    """Every server seed and the commitment are the links of the whole chain (built here
    the plain way), though a table keeps one link in `CHECKPOINT_EVERY` of them."""
    whole = [SECRET]
    for _ in range(CHAIN_LENGTH):
        whole.append(hashlib.sha256(whole[-1].encode()).hexdigest())
    whole.reverse()
    deals = FairDeals(client_seed="c", secret=SECRET)
    assert deals.commitment == whole[0]
    assert [deals.server_seed(k) for k in range(1, CHAIN_LENGTH + 1)] == whole[1:]
    assert len(deals._kept) <= CHAIN_LENGTH // CHECKPOINT_EVERY + 2
    # A chain whose length the links kept divide: its last link is the secret itself.
    short = FairDeals(client_seed="c", secret=SECRET, length=2 * CHECKPOINT_EVERY)
    assert short.server_seed(2 * CHECKPOINT_EVERY) == SECRET
    assert short.commitment == whole[CHAIN_LENGTH - 2 * CHECKPOINT_EVERY]
    assert [short.server_seed(k) for k in range(1, 2 * CHECKPOINT_EVERY + 1)] == \
        whole[CHAIN_LENGTH - 2 * CHECKPOINT_EVERY + 1:]


def test_fairness_the_shuffle_is_the_documented_algorithm():
    deals = FairDeals(client_seed="abc123", secret=SECRET)
    texts = [c.text for c in FULL_DECK]
    for k in (1, 2, 9):
        ours = [c.text for c in deals.pack(FULL_DECK, k)]
        assert ours == _by_the_book(texts, deals.server_seed(k), "abc123", k)
    assert deals.pack(FULL_DECK, 1) != deals.pack(FULL_DECK, 2)
    other = FairDeals(client_seed="abc124", secret=SECRET)
    assert other.pack(FULL_DECK, 1) != deals.pack(FULL_DECK, 1)


def test_fairness_the_client_seed_depends_on_the_press_and_the_people():
    a = client_seed_from(111, [1, 2, None, 4])
    assert len(a) == 32
    assert a != client_seed_from(112, [1, 2, None, 4])
    assert a != client_seed_from(111, [1, 2, 3, 4])


@pytest.mark.parametrize("game_name", GAMES)
def test_fairness_verify_reproduces_the_deal_of_each_game(game_name):
    deals = FairDeals(client_seed="feed", secret=SECRET)
    game = create(game_name, seed=deals)
    rng = random.Random(3)
    seen = 0
    for _ in range(400):
        if game.finished or seen >= 2:
            break
        record = game.deal_record()  # Tennis deals when first asked
        k = game.packs_dealt
        hands = record if isinstance(record, tuple) else record.hands
        shown = dealt_hands(game_name, deals.server_seed(k), "feed", k)
        assert [h for _, h in shown] == list(hands)
        ok, lines = verify(game_name, deals.server_seed(k), "feed", k, deals.commitment)
        assert ok and "matches the commitment" in lines[0]
        seen += 1
        while game.packs_dealt == k and not game.finished:
            _play(game, 1, rng)
    assert seen == 2


def test_fairness_verify_says_when_the_seed_does_not_match(capsys):
    deals = FairDeals(client_seed="feed", secret=SECRET)
    seed = deals.server_seed(3)
    assert cli(["verify", "spades", seed, "feed", "3", deals.commitment]) == 0
    out = capsys.readouterr().out
    assert "matches the commitment" in out and "North:" in out
    assert cli(["verify", "spades", seed, "feed", "2", deals.commitment]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "does NOT give the commitment" in out
    assert "North:" not in out and "no hands are printed" in out, "no hands on a mismatch"
    assert "as deal 3: run again with DEAL_NO 3" in out
    assert cli(["verify", "spades", seed, "feed", "2", "0" * 64]) == 1
    out = capsys.readouterr().out
    assert "North:" not in out and "copied whole" in out
    assert cli(["verify", "spades", "zz", "feed", "2", deals.commitment]) == 1
    assert "64 hexadecimal digits" in capsys.readouterr().out


def test_fairness_a_deal_is_revealed_only_when_it_ends():
    deals = FairDeals(client_seed="c", secret=SECRET)
    for name in GAMES:
        game = create(name, seed=FairDeals(client_seed="c", secret=SECRET))
        ends = 0
        assert game.revealed_seed() is None
        rng = random.Random(1)
        while not game.finished:
            before = game.packs_dealt
            seat = sorted(game.to_act())[0]
            events = [e.kind for e in game.apply(seat, rng.choice(game.legal(seat)))]
            revealed = game.revealed_seed()
            if "deal_end" in events:
                ends += 1
                assert revealed is not None and revealed[0] == before
                assert check_seed(revealed[1], revealed[0], deals.commitment)
            if revealed is not None:
                assert revealed[0] < game.packs_dealt or game.finished or "deal_end" in events
            if game.packs_dealt > 3:
                break
        assert ends >= 1, name


@pytest.fixture
async def service(tmp_path) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "t.db")
    svc = TableService(store, bot_delay=0, think_seconds=0.02)
    yield svc
    await svc.shutdown()
    await store.close()


async def _bots_only_table(svc: TableService, game: str, options: dict | None = None):
    table = await svc.lobby.create(game, options or {}, guild_id=9, channel_id=100,
                                   creator=ALICE)
    for _ in range(table.game.SEATS - 1):
        await svc.lobby.add_bot(table.id, ALICE.user_id)
    return table


async def test_fairness_the_commitment_shown_before_the_deal_matches_the_revealed_seed(service):
    table = await _bots_only_table(service, "spades")
    shown = table.commitment
    assert shown is not None and len(shown) == 64
    assert table.game.fair is None  # no cards until the client seed exists
    await service.lobby.start(table.id, ALICE.user_id, press_id=123456789)
    assert table.status == PLAYING and table.commitment == shown
    assert table.settings.client_seed == client_seed_from(123456789, [1, None, None, None])
    await play_until(service, table, ALICE.user_id,
                     lambda: table.game.revealed_seed() is not None)
    k, seed = table.game.revealed_seed()
    assert k == 1 and check_seed(seed, 1, shown)
    ok, _ = verify("spades", seed, table.settings.client_seed, 1, shown)
    assert ok


async def test_fairness_replay_after_restart_gives_the_same_deals(tmp_path):
    path = tmp_path / "t.db"
    store = await Store.open(path)
    svc = TableService(store, bot_delay=0, think_seconds=0.02)
    # Three rubbers: the match is still on after three deals however the bots bid (one
    # rubber can end after two).
    table = await _bots_only_table(svc, "bridge", {"rubbers": 3})
    await svc.lobby.start(table.id, ALICE.user_id, press_id=42)
    game = table.game
    await play_until(svc, table, ALICE.user_id, lambda: game.packs_dealt >= 3)
    dealt, secret = game.deal_record().hands, table.settings.deal_secret
    commitment, history = table.commitment, list(game.history)
    revealed = game.revealed_seed()
    assert revealed is not None and revealed[0] == 2
    await svc.shutdown()
    await store.close()

    store = await Store.open(path)
    again = TableService(store, bot_delay=0, think_seconds=0.02)
    try:
        [restored] = await again.restore()
        assert restored.game.history == history
        assert restored.game.deal_record().hands == dealt
        assert restored.settings.deal_secret == secret and restored.commitment == commitment
        assert restored.game.revealed_seed() == revealed
    finally:
        await again.shutdown()
        await store.close()


def test_fairness_verify_help_describes_every_argument_and_the_key(capsys):
    with pytest.raises(SystemExit):
        cli(["verify", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for argument, words in (("GAME", "game"), ("SERVER_SEED", "revealed"),
                            ("CLIENT_SEED", "Start"), ("DEAL_NO", "counting from 1"),
                            ("COMMITMENT", "before it started")):
        described = text.split("positional arguments:")[1]
        assert f"{argument} " in described and words in described, argument
    assert "64 hexadecimal characters, as ASCII text (not the 32 bytes" in text
