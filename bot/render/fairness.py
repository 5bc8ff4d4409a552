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
