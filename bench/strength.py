"""Computer players' strength: one section per group of games.

    python -m bench.strength SECTION [options]   (python -m bench.strength --help lists them)

Each section lives in its own module (`bench/strength_<section>.py`) with a `main(argv)`
and prints its figures with sample sizes, the fixed seeds it used and 95% intervals.
"""

from __future__ import annotations

import importlib
import sys

SECTIONS: dict[str, str] = {
    "bridge-play": "card play of Contract and Single Dummy Bridge against double dummy",
    "bridge-bidding": "Contract Bridge bidding against par; Single Dummy bidding",
    "bridge-leads": "Contract Bridge opening leads: CPU per decision and DD tricks lost",
    "bridge-defence": "a learned card to tricks 2-6 (the defence's leads; --kind declaring: "
                      "the declaring side's cards): card search against a model",
    "bridge-team": "Contract Bridge bidding as a team match against another commit's",
    "bridge-values": "the learned call values: calls changed and the time to ask them",
    "bridge-reading": "the learned hand reading: layouts that fit the calls, before and after",
    "bridge-lead-play": "card play after the opening lead, the lead read or not, by decision",
    "bridge-lead-reading": "the opening lead read: declarer's picture of the leader's hand",
    "bridge-rubber": "rubber bridge: rubber-aware bidders against duplicate-minded ones",
    "games": "Spades, Tennis and Bid Fair: whole-match win rates against baselines",
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help") or args[0] not in SECTIONS:
        print(__doc__)
        for name, what in SECTIONS.items():
            print(f"  {name:19} {what}")
        return 0 if args and args[0] in ("-h", "--help") else 2
    module = importlib.import_module(f"bench.strength_{args[0].replace('-', '_')}")
    code: int = module.main(args[1:])
    return code


if __name__ == "__main__":
    sys.exit(main())
