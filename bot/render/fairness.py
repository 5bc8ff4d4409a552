"""What a table shows about its fair deals: the commitment before play, each deal's
server seed once the deal is over, and the command that checks it (bot/verify.py)."""

from __future__ import annotations

Field = tuple[str, str, bool]


def commitment_field(commitment: str, client_seed: str = "") -> Field:
    """The commitment (shown from the lobby on) and, once started, the client seed."""
    client = (f"client seed `{client_seed}`" if client_seed else
              "client seed: made from the Start press (/help explains)")
    return ("Fair deals", f"Commitment `{commitment}` · {client}", False)


def reveal_field(game_name: str, commitment: str, client_seed: str, deal_no: int,
                 server_seed: str) -> Field:
    """The ended deal's server seed, as the command anyone can run to check the cards."""
    command = (f"python -m bot verify {game_name} {server_seed} {client_seed} {deal_no} "
               f"{commitment}")
    return ("Fair deal check", f"This deal's server seed is now public:\n```\n{command}\n```",
            False)


def table_fields(commitment: str | None, client_seed: str) -> list[Field]:
    """Under a table message: its commitment and, once started, its client seed (nothing
    for a table without fair deals)."""
    return [] if commitment is None else [commitment_field(commitment, client_seed)]


def deal_end_fields(game_name: str, commitment: str | None, client_seed: str,
                    revealed: tuple[int, str] | None) -> list[Field]:
    """Under an end-of-deal message: the ended deal's server seed (`revealed`: its deal
    number and seed) and how to check it."""
    if revealed is None or commitment is None:
        return []
    deal_no, server_seed = revealed
    return [reveal_field(game_name, commitment, client_seed, deal_no, server_seed)]
