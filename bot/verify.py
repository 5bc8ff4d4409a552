"""`python -m bot verify GAME SERVER_SEED CLIENT_SEED DEAL_NO COMMITMENT`: check a deal.

It checks that the revealed server seed hashed DEAL_NO times gives the commitment shown
when the table opened, then deals that deal again with the game's own dealing and prints
every hand (bot/games/fairness.py explains the algorithm).
"""

from __future__ import annotations

from bot.games import GAMES, create
from bot.games.cards import Card, format_hand
from bot.games.fairness import FairDeals, check_seed


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
    ok = check_seed(seed, deal_no, commitment)
    lines = [f"Server seed hashed {deal_no} time(s) with SHA-256 "
             + ("matches the commitment: the deal was fixed before the client seed existed."
                if ok else "does NOT match the commitment.")]
    lines.append(f"Deal {deal_no} of {game_name}, client seed {client_seed.strip()}:")
    for label, hand in dealt_hands(game_name, seed, client_seed, deal_no):
        lines.append(f"  {label}: {format_hand(hand)}")
    return ok, lines


def main(game_name: str, server_seed: str, client_seed: str, deal_no: int,
         commitment: str) -> int:
    ok, lines = verify(game_name, server_seed, client_seed, deal_no, commitment)
    print("\n".join(lines))
    return 0 if ok else 1
