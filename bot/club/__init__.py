"""Club play between a server's people: team matches across two tables."""
