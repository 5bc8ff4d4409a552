"""Provably fair deals: each deal's cards come from seeds fixed before anyone sees a card.

How a table deals, step by step (docs/playing.md, "Provably fair deals", says the same for players):

1. When a table opens, the bot draws a 256-bit secret and builds a hash chain from it:
   s[L] = the secret as 64 hex digits, s[i-1] = SHA-256(s[i]) as hex (hashing the 64 ASCII
   hex digits). s[0] is the table's **commitment**, shown on the table before it starts.
2. When someone presses Start, the **client seed** is made from that press's interaction
   id (chosen by Discord, unknown to the bot until then) and the seated people's ids.
3. Deal k (k = 1, 2, ... counting every shuffle of the match, a redeal after a throw-in
   included) uses **server seed** s[k]. Its cards: the game's pack in its fixed order
   (clubs, diamonds, hearts, spades; ranks upwards: 2..A, Bid Fair 9..A) shuffled by
   Fisher-Yates, for i from the last position down to 1, swapping position i with
   position j drawn uniformly from 0..i. The draws come from the bytes of
   HMAC-SHA256(key = s[k], message = "<client seed>:<k>:<block>") for block = 0, 1, ...:
   each draw takes the next 4 bytes as a big-endian number u and rejects it unless
   u < 2^32 - (2^32 mod (i+1)); then j = u mod (i+1). The shuffled pack is dealt by the
   game's own rule (usually block b of cards to hand b).
4. When deal k ends its server seed s[k] is revealed. Anyone can check it: hashing it k
   times gives the commitment, so it was fixed before the client seed existed.

Why a chain: one commitment covers every deal, and revealing s[k] gives away only the
earlier seeds (hashes of it, already revealed), never s[k+1], which would need SHA-256
inverted. Everything else a game draws (the first dealer, Single Dummy's shown dummy,
Bid Fair's crib cut) comes from a number derived from the commitment and the client seed,
so it too is fixed by public values once Start is pressed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

CHAIN_LENGTH = 1000
"""Deals one commitment covers: far more than any match of these games plays."""

CHECKPOINT_EVERY = 32
"""A table keeps every 32nd link of its chain, not all 1,001: a link is 64 hex digits (some
120 bytes as a string), so the whole chain would cost some 120 KB a table, more than the
rest of an open table's memory. A deal's seed is then at most 31 hashes (some 30
microseconds) from the link kept above it."""

T = TypeVar("T")
_WORD = 1 << 32


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def client_seed_from(press_id: int, people: Sequence[int | None]) -> str:
    """The client seed: the Start press's interaction id and the seated people's ids
    (0 for a computer player), hashed to 32 hex digits so it is short to copy."""
    seated = ",".join(str(person or 0) for person in people)
    return sha256_hex(f"{press_id}:{seated}")[:32]


def fair_shuffle(pack: Sequence[T], server_seed: str, client_seed: str, deal_no: int) -> list[T]:
    """The pack shuffled for deal `deal_no` (the algorithm in this module's docstring)."""
    key = server_seed.encode("ascii")
    order = list(pack)
    block = 0
    stream = b""
    pos = 0
    for i in range(len(order) - 1, 0, -1):
        span = i + 1
        limit = _WORD - _WORD % span
        while True:
            if pos + 4 > len(stream):
                message = f"{client_seed}:{deal_no}:{block}".encode("ascii")
                stream = hmac.new(key, message, hashlib.sha256).digest()
                block += 1
                pos = 0
            u = int.from_bytes(stream[pos:pos + 4], "big")
            pos += 4
            if u < limit:
                break
        j = u % span
        order[i], order[j] = order[j], order[i]
    return order


def chain_value(seed: str, steps: int) -> str:
    """`seed` hashed `steps` times (a server seed of deal k, k times: the commitment)."""
    for _ in range(steps):
        seed = sha256_hex(seed)
    return seed


def check_seed(server_seed: str, deal_no: int, commitment: str) -> bool:
    """Does deal `deal_no`'s revealed server seed belong to this commitment?"""
    return hmac.compare_digest(chain_value(server_seed.strip().lower(), deal_no),
                               commitment.strip().lower())


@dataclass(slots=True)
class FairDeals:
    """Where a match's packs come from: the hash chain's secret and the client seed.

    Passed to a game as its seed (`create(name, options, seed=FairDeals(...))`). With only
    one revealed server seed (`revealed`), it reproduces that one deal (`verify`)."""

    client_seed: str
    secret: str = ""  # s[L]: the bot's secret, never shown
    revealed: tuple[int, str] | None = None  # (k, s[k]): a single revealed deal
    known_commitment: str = ""  # with `revealed`: the commitment it was checked against
    length: int = CHAIN_LENGTH
    # s[0], s[CHECKPOINT_EVERY], s[2 * CHECKPOINT_EVERY], ... below s[length], then s[length]
    _kept: list[str] = field(default_factory=list, repr=False)

    @classmethod
    def new_secret(cls) -> str:
        return secrets.token_hex(32)

    @property
    def first_deal(self) -> int:
        return self.revealed[0] if self.revealed else 1

    def _seed(self, k: int) -> str:
        """s[k], hashed down from the nearest kept link at or above k (the chain is
        walked once, from the secret, the first time a seed is asked)."""
        if not self._kept:
            link = self.secret
            kept = [link]
            for i in range(self.length - 1, -1, -1):  # s[i] = SHA-256(s[i + 1])
                link = sha256_hex(link)
                if i % CHECKPOINT_EVERY == 0:
                    kept.append(link)
            kept.reverse()
            self._kept = kept
        above = -(-k // CHECKPOINT_EVERY)  # the kept link's place
        if above * CHECKPOINT_EVERY >= self.length:
            return chain_value(self._kept[-1], self.length - k)
        return chain_value(self._kept[above], above * CHECKPOINT_EVERY - k)

    @property
    def commitment(self) -> str:
        if self.revealed is not None:
            return self.known_commitment
        return self._seed(0)

    def server_seed(self, deal_no: int) -> str:
        if self.revealed is not None:
            if deal_no != self.revealed[0]:
                raise ValueError(f"only deal {self.revealed[0]}'s server seed is known")
            return self.revealed[1]
        if not 1 <= deal_no <= self.length:
            raise ValueError(f"a table's commitment covers deals 1 to {self.length}")
        return self._seed(deal_no)

    def pack(self, pack: Sequence[T], deal_no: int) -> list[T]:
        return fair_shuffle(pack, self.server_seed(deal_no), self.client_seed, deal_no)

    def public_seed(self) -> int:
        """The seed of a game's other draws: fixed by the commitment and the client seed."""
        return int(sha256_hex(f"{self.commitment}:{self.client_seed}")[:12], 16)


# -- the stored form (a table's settings hold it) ----------------------------------------

def stored(deals: FairDeals) -> dict[str, str]:
    return {"secret": deals.secret, "client": deals.client_seed}


def deal_source(seed: int, stored_deals: Mapping[str, Any] | None) -> int | FairDeals:
    """What a stored match deals from: its fair deals once started, else its plain seed."""
    if not stored_deals or not stored_deals.get("client") or not stored_deals.get("secret"):
        return seed
    return FairDeals(client_seed=str(stored_deals["client"]), secret=str(stored_deals["secret"]))
