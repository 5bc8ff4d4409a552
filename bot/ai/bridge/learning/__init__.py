"""Bridge robots that learn from our own deals: the deal bank (deals with their double-dummy
tables), call values learned from rollouts of our players' auctions, and the models the
players load. See docs/computer-players.md, "Learned bidding"."""
