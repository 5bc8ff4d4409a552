"""What every game's computer players share: the decision's budget, the double-dummy
solver, card sets as bit masks, the search over positions, and sampling the hidden cards."""
