"""The depth-first search alone: positions a second on the slow deals, and the same search in two checkouts.

    python benchmarks/bench_search.py [--positions 100000] [--runs 3] [--against DIR]

On each deal (3p-5p Avalanche and 5p base, standard rules, both deal orders: the `slow` set of
`bench_hard.py` and a few mid deals), the search asks for the maximum score from the opening deal
in shuffled coin-tossing orders, `SHUFFLED` positions each (as `solver.solve` does before the model
joins), until it finds a line or has spent `--positions`. No SAT, no helper process: this measures
the search's own speed (move order, bounds, the transposition table), which the portfolio's node
budgets turn into time.

Prints per deal the positions searched (and whether a line was found) and the median seconds over
the runs; then the positions a second over the whole set. `--against DIR` runs the same work with
another checkout (e.g. `git worktree add /tmp/base HEAD`) in processes of its own, the two taking
turns at going first, and prints the median of the per-deal time ratios (this/DIR). It says so when
the two searched different numbers of positions (a change of the search itself, not only of its speed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from random import Random

from bench_hard import HERE, Worker, deal_line, deal_name, deals  # (this script's folder is first on the import path)

import solver.search
from deducer.settings import Settings
from solver.climb import SHUFFLED
from solver.endgame import most_plays
from solver.model import Deal
from solver.search import Ordering, OutOfBudget, Search

DEALS = """
3 avalanche round-robin  3989 8071
3 avalanche per-seat     8071
4 avalanche round-robin  1581 3168 3217 8071 8248
4 avalanche per-seat     257 1730 8071 8248
5 avalanche round-robin  759 3785 8071 8329
5 avalanche per-seat     759 3239 3785
5 base      round-robin  8450
"""


def search(settings: Settings, seed: int, positions: int) -> tuple[int, bool, float]:
    """Shuffled restarts at the maximum on one deal: (positions searched, whether a line was found, seconds)."""
    most_plays.cache_clear()  # (each run as a fresh process's first solve)
    deal = Deal.of(settings, settings.variant.shuffled_deck(seed))
    began = time.perf_counter()
    searching, root, found, restart = Search(deal), deal.start(), False, 0
    while searching.nodes < positions:
        searching.ordering = Ordering(shuffle=Random(100 + restart), toss=True)
        searching.node_limit = min(positions, searching.nodes + SHUFFLED)
        restart += 1
        try:
            found = searching.reach(root, deal.rules.max_score) is not None
        except OutOfBudget:
            continue
        break  # a line, or none at all (exhaustive)
    return searching.nodes, found, time.perf_counter() - began


def _serve() -> None:
    """The worker: the solver's file first, then one line per deal asked on stdin."""
    print(solver.search.__file__, flush=True)
    for line in sys.stdin:
        table_line, positions = line.rsplit(maxsplit=1)
        [(settings, seed)] = deals(table_line)
        nodes, found, seconds = search(settings, seed, int(positions))
        print(nodes, found, seconds, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=100_000, help="positions per deal at most")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", type=Path, default=None, help="another checkout, timed alongside")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve()
        return
    roots = {"this": HERE} | ({} if args.against is None else {"against": args.against})
    workers = {name: Worker(root, __file__) for name, root in roots.items()}
    totals = {name: [0, 0.0] for name in roots}
    ratios: list[float] = []
    for index, (settings, seed) in enumerate(deals(DEALS)):
        seconds: dict[str, list[float]] = {name: [] for name in roots}
        nodes: dict[str, int] = {}
        for run in range(args.runs):  # (the two take turns at going first)
            for name in list(roots) if (index + run) % 2 == 0 else list(reversed(roots)):
                answer = workers[name].ask(f"{deal_line(settings, seed)} {args.positions}").split()
                nodes[name], found, taken = int(answer[0]), answer[1] == "True", float(answer[2])
                seconds[name].append(taken)
        cells = [f"{deal_name(settings, seed):26} {nodes['this']:>8} {'found' if found else '     '}"]
        for name in roots:
            median = statistics.median(seconds[name])
            totals[name][0] += nodes[name]
            totals[name][1] += median
            same = "" if nodes[name] == nodes["this"] else f" (it searched {nodes[name]})"
            cells.append(f"{name} {median:6.2f} s{same}")
        if "against" in roots:
            ratios.append(statistics.median(seconds["this"]) / statistics.median(seconds["against"]))
        print("  ".join(cells), flush=True)
    for name, worker in workers.items():
        worker.close()
        count, taken = totals[name]
        print(f"{name}: {count} positions in {taken:.2f} s (medians of {args.runs} runs), {count / taken:,.0f} a second")
    if ratios:
        print(f"this/against, median of the per-deal ratios {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
