"""What a table shows about its fair deals, behind its Rules button (not on every table
message): the commitment from the lobby on, the client seed once started, and the command
that checks the latest deal once one has ended (bot/verify.py)."""

from __future__ import annotations

Field = tuple[str, str, bool]


def fair_deals_field(game_name: str, commitment: str, client_seed: str = "",
                     revealed: tuple[int, str] | None = None) -> Field:
    """The table's commitment, its client seed, and (`revealed`: the latest ended deal's
    number and server seed) the command anyone can run to check that deal's cards."""
    client = (f"Client seed `{client_seed}`." if client_seed else
              "The client seed is made when Start is pressed (/help, Fair deals).")
    lines = [f"Commitment `{commitment}`.", client]
    if revealed is not None and client_seed:
        deal_no, server_seed = revealed
        lines.append(f"Deal {deal_no}'s server seed is public now; this checks its cards "
                     "(an earlier deal's seed is the hash of the next one's):")
        lines.append(f"```\npython -m bot verify {game_name} {server_seed} {client_seed} "
                     f"{deal_no} {commitment}\n```")
    return ("Fair deals", "\n".join(lines), False)
