"""Time the solver on seeded random deals: 2-5 players x base, avalanche x crowning, standard x deal orders.

    python benchmarks/bench_solver.py [--count 100] [--first 0] [--time-limit S] [--jobs J]
                                      [--only 2p-avalanche-standard] [--deal round-robin|per-seat|both]
                                      [--perfect]

The same seeded deck is dealt round-robin (one card at a time, as at a table) and per seat (each
whole hand in turn, as hanab.live does); `both` (the default) solves each deck in both orders, one
after the other, and prints both rows of each set and the ratio of their medians.

One deal at a time by default: on a hard deal the depth-first search and the
constraint model race on two threads, so a 2-core machine is busy with one deal.

Prints, for each set: the share decided, the share winnable, median / 95th /
99th percentile / max seconds per deal, the undecided count, and the deals that took longest.

`--perfect` asks only whether a perfect score is reachable (`solve(..., perfect=True)`, as `hanabi
survey` does): a deal is decided once a perfect score is found or ruled out.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from deducer.cards import Variant
from deducer.settings import DealOrder, Ending, Settings
from solver.batch import Job, run_all


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="first seed (the others follow)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per deal (default: none)")
    parser.add_argument("--jobs", type=int, default=1, help="deals solved at once (each may use two cores)")
    parser.add_argument("--only", default=None, help="e.g. 2p-avalanche-standard")
    parser.add_argument("--deal", choices=["round-robin", "per-seat", "both"], default="both")
    parser.add_argument("--perfect", action="store_true", help="ask only whether a perfect score is reachable")
    args = parser.parse_args()
    orders = [DealOrder.ROUND_ROBIN, DealOrder.PER_SEAT] if args.deal == "both" else [DealOrder(args.deal)]
    print(
        f"{'set':38} {'decided':>8} {'winnable':>9} {'median':>9} {'p95':>9} {'p99':>9} {'max':>8}"
        "   slowest (seed: seconds verdict score)"
    )
    begin = time.perf_counter()
    for players in (2, 3, 4, 5):
        for variant in Variant:
            for ending in (Ending.CROWNING, Ending.STANDARD):
                name = f"{players}p-{variant.value}-{ending.value}"
                if args.only and args.only != name:
                    continue
                medians = _set(Settings(players=players, variant=variant, ending=ending), orders, args)
                if len(medians) == 2:
                    print(f"{'':38} per-seat / round-robin median: {medians[1] / medians[0]:.2f}x", flush=True)
    print(f"total {time.perf_counter() - begin:.0f} s")


def _set(settings: Settings, orders: list[DealOrder], args: argparse.Namespace) -> list[float]:
    """Solve the set's deals in each of `orders`, the orders taking turns deck by deck (this machine's
    speed drifts by up to 2x within minutes: one order's row after the other's made per seat look 1.4x
    slower than round-robin at the median on sets where, interleaved, the two were within 1%); print a
    row for each order; return their median seconds."""
    seeds = range(args.first, args.first + args.count)
    jobs: list[Job | str] = [
        Job(settings.with_(deal=order), tuple(settings.variant.shuffled_deck(seed)), args.time_limit, perfect=args.perfect)
        for seed in seeds
        for order in orders
    ]
    results = list(run_all(jobs, args.jobs))
    return [_row(settings.with_(deal=order), results[index :: len(orders)], args) for index, order in enumerate(orders)]


def _row(settings: Settings, results: list[dict[str, Any]], args: argparse.Namespace) -> float:
    """Print the row of the set's deals dealt in `settings.deal` order (`results`, by seed); return the median seconds."""
    name = f"{settings.players}p-{settings.variant.value}-{settings.ending.value}-{settings.deal.value}"
    seconds = [float(result["seconds"]) for result in results]
    undecided = sum(result["perfect"] is None if args.perfect else result["verdict"] == "unknown" for result in results)
    ruled_out = sum(result["verdict"] == "unknown" and result["perfect"] is False for result in results)
    wins = sum(result["verdict"] == "win" for result in results)
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    slowest = sorted(range(len(results)), key=lambda index: -seconds[index])[:3]
    slow = ", ".join(
        f"{args.first + index}: {seconds[index]:.2f} {results[index]['verdict']} {results[index]['score']}" for index in slowest
    )
    median = statistics.median(seconds)
    print(
        f"{name:38} {1 - undecided / len(results):8.1%} {wins / len(results):9.1%} {median * 1e3:7.1f}ms"
        f" {p95 * 1e3:7.1f}ms {p99 * 1e3:7.1f}ms {max(seconds):7.2f}s   {slow}"
        + f"   over 2 s: {sum(value > 2 for value in seconds)}"
        + (f"   undecided: {undecided} (a perfect score ruled out on {ruled_out})" if undecided else ""),
        flush=True,
    )
    return median


if __name__ == "__main__":
    main()
