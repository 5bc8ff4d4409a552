"""`python -m bot verify GAME SERVER_SEED CLIENT_SEED DEAL_NO COMMITMENT`: check a deal.

It checks that the revealed server seed hashed DEAL_NO times gives the commitment shown
when the table opened, then deals that deal again with the game's own dealing and prints
every hand (bot/games/fairness.py explains the algorithm). When the seed does not match,
it prints no hands (they would not be the table's deal) and says what to check.
"""

from __future__ import annotations

from bot.games import GAMES, create
from bot.games.cards import Card, format_hand
from bot.games.fairness import CHAIN_LENGTH, FairDeals, check_seed, sha256_hex


def dealt_hands(game_name: str, server_seed: str, client_seed: str,
                deal_no: int) -> list[tuple[str, tuple[Card, ...]]]:
    """The hands of deal `deal_no` as the table dealt them."""
    deals = FairDeals(client_seed=client_seed.strip(),
                      revealed=(deal_no, server_seed.strip().lower()))
    game = create(game_name, seed=deals)
    record = game.deal_record()
    hands: tuple[tuple[Card, ...], ...] = record if isinstance(record, tuple) else record.hands
    labels = game.DEALT_HANDS or game.SEAT_NAMES[:len(hands)]
    return list(zip(labels, hands, strict=True))


def verify(game_name: str, server_seed: str, client_seed: str, deal_no: int,
           commitment: str) -> tuple[bool, list[str]]:
    """(the seed matches the commitment, the lines to print)."""
    if game_name not in GAMES:
        return False, [f"Unknown game {game_name!r}; the games are: {', '.join(GAMES)}."]
    if deal_no < 1:
        return False, ["DEAL_NO counts from 1."]
    seed = server_seed.strip().lower()
    if len(seed) != 64 or any(c not in "0123456789abcdef" for c in seed):
        return False, ["A server seed is 64 hexadecimal digits."]
    if not check_seed(seed, deal_no, commitment):
        return False, mismatch(seed, deal_no, commitment)
    lines = [f"Server seed hashed {deal_no} time(s) with SHA-256 matches the commitment: "
             "the deal was fixed before the client seed existed."]
    lines.append(f"Deal {deal_no} of {game_name}, client seed {client_seed.strip()}:")
    for label, hand in dealt_hands(game_name, seed, client_seed, deal_no):
        lines.append(f"  {label}: {format_hand(hand)}")
    return True, lines


def mismatch(seed: str, deal_no: int, commitment: str) -> list[str]:
    """What to say when the seed does not give the commitment in `deal_no` hashes."""
    lines = [f"FAILED: the server seed hashed {deal_no} time(s) with SHA-256 does NOT give "
             "the commitment, so no hands are printed (they would not be the table's deal)."]
    wanted, value = commitment.strip().lower(), seed
    for steps in range(1, CHAIN_LENGTH + 1):
        value = sha256_hex(value)
        if value == wanted:
            lines.append(f"This seed belongs to this commitment as deal {steps}: run again "
                         f"with DEAL_NO {steps} (deals count from 1, a redeal after a "
                         "throw-in included).")
            return lines
    lines.append("Check that the server seed and the commitment were copied whole and from "
                 "the same table, and that DEAL_NO is the deal the seed was revealed for.")
    return lines


def main(game_name: str, server_seed: str, client_seed: str, deal_no: int,
         commitment: str) -> int:
    ok, lines = verify(game_name, server_seed, client_seed, deal_no, commitment)
    print("\n".join(lines))
    return 0 if ok else 1
