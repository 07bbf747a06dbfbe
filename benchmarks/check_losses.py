"""Check every loss the solver claims with a second argument: CaDiCaL on the clauses, asked for one point more.

    python benchmarks/check_losses.py [--count 200] [--first 0] [--only 5p-avalanche] [--deal per-seat]
                                      [--time-limit 30] [--check-limit 60]

A win comes with its line, replayed through the engine; a loss at `s` rests on the bounds (pace, hand
capacity, seats, clue tokens, copies), the search and the models. Here each loss at `s` is asked again
of CaDiCaL alone on the plain question "a line scoring `s + 1` from the deal" (`solver.clauses`),
with none of the bounds: a line found there is a wrong verdict (printed with BUG, and replayed to
show its score). Standard rules only (the clauses do not cover Crowning Piece).

Prints, per set: the deals, wins, losses, losses confirmed, left undecided by CaDiCaL in
`--check-limit` seconds (2-player hand locks are often beyond it), and wrong verdicts (bar 0).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deducer.cards import Variant
from deducer.settings import DealOrder, Ending, Settings
from solver import cadical, clauses
from solver.model import Deal
from solver.solve import solve


def check(settings: Settings, seed: int, time_limit: float, check_limit: float) -> str:
    """'win', 'unknown', 'confirmed', 'undecided', 'n/a' (the clauses do not cover the deal) or 'BUG ...'."""
    deck = settings.variant.shuffled_deck(seed)
    solution = solve(settings, deck, time_limit)
    if solution.verdict != "loss":
        return solution.verdict
    model = Deal.of(settings, deck)
    if not clauses.applies(model):
        return "n/a"
    encoding = clauses.build(model, solution.score + 1)
    answer = cadical.Run(encoding.clauses, check_limit).wait()
    if answer is None:
        return "undecided"
    if answer is False:
        return "confirmed"
    position = model.start()
    for move in encoding.line(model, position, answer):
        position = model.play(position, move)
    return f"BUG: the solver says {solution.score} ({solution.reason}); CaDiCaL's line scores {model.score(position)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="first seed (the others follow)")
    parser.add_argument("--only", default=None, help="e.g. 5p-avalanche")
    parser.add_argument("--deal", choices=["round-robin", "per-seat"], default="per-seat")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds for the solver, per deal")
    parser.add_argument("--check-limit", type=float, default=60.0, help="seconds for CaDiCaL, per loss")
    args = parser.parse_args()
    print(f"{'set':28} {'deals':>5} {'wins':>5} {'losses':>6} {'confirmed':>9} {'undecided':>9} {'wrong':>5}")
    begin = time.perf_counter()
    for players in (2, 3, 4, 5):
        for variant in Variant:
            name = f"{players}p-{variant.value}"
            if args.only and args.only != name:
                continue
            settings = Settings(players=players, variant=variant, ending=Ending.STANDARD, deal=DealOrder(args.deal))
            outcomes: Counter[str] = Counter()
            for seed in range(args.first, args.first + args.count):
                outcome = check(settings, seed, args.time_limit, args.check_limit)
                if outcome.startswith("BUG"):
                    print(f"  seed {seed}: {outcome}", flush=True)
                    outcome = "BUG"
                elif outcome == "undecided":
                    print(f"  seed {seed}: CaDiCaL undecided in {args.check_limit:.0f} s", flush=True)
                outcomes[outcome] += 1
            losses = sum(outcomes[key] for key in ("confirmed", "undecided", "n/a", "BUG"))
            print(
                f"{name + '-' + args.deal:28} {args.count:5} {outcomes['win']:5} {losses:6} {outcomes['confirmed']:9} "
                f"{outcomes['undecided'] + outcomes['n/a']:9} {outcomes['BUG']:5}",
                flush=True,
            )
    print(f"total {time.perf_counter() - begin:.0f} s")


if __name__ == "__main__":
    main()
