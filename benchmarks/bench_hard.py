"""The solver on the deals that reach its portfolio: the `mid` set and the `slow` set, by name.

    python benchmarks/bench_hard.py [--set mid|slow|both] [--time-limit 30] [--runs 1] [--against DIR] [--perfect]

Nearly every deal is decided in milliseconds by the bounds, the greedy lines and the search
(`bench_solver.py` reports those sets); the solver's time is spent on the 1-2% that reach Glucose's
glance and the constraint model. Changes to the portfolio's schedule are measured on these two sets,
one process, deal after deal (standard rules):

    mid   the 106 deals among 3p-5p Avalanche (seeds 0-1999, both deal orders) and 5p base that
          took the solver 0.3-5 s (the notes of issue 12 called them "the 105 deals"; they are 106)
    slow  the 33 slowest deals known (3p-5p Avalanche and 5p base, seeds 0-8499), 30 s each (the
          notes' and comments' "26 slow deals" are these without the five that `bench_solver.py`
          found in seeds 5000-6499: 5p Avalanche 5127 in both deal orders, a win at 30 with no
          slack at all in its last 24 acts, about 5 s per seat and 46 s round-robin; 4p round-robin
          5997, a win, 4p per seat 6386 and 5p per seat 6252, losses at 29, 3.5-6 s; "the 31" are
          these without 5p Avalanche 6595 in both deal orders, found in seeds 6500-6799: a win per
          seat in 26-29 s, round-robin undecided at 30 s)

Prints a row per deal (seconds, verdict, score, upper bound), then per run: the sum, the median,
the 90th percentile and how many took over 1 and 2 s. This machine's speed drifts within minutes:
compare two versions by alternating runs, not one after the other.

`--against DIR` does that: it times another checkout of this repository (e.g. `git worktree add
/tmp/base HEAD`) beside this one, deal by deal, the two taking turns at going first. Each version
solves in a process of its own, kept for the whole set (its own helper process and CaDiCaL's
children import that version too), so that each solve after the first finds its helper ready, as
in a long-lived program. Prints both times per deal, each version's summary, and the median of
the per-deal ratios (this/DIR).

`--perfect` asks only whether a perfect score is reachable (`solve(..., perfect=True)`), the question
of the SAT encodings (`bench_reference.py`) and of `hanabi survey`; not with `--against`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from deducer.cards import Variant
from deducer.settings import DealOrder, Ending, Settings
from solver.solve import solve

# Each line: players, variant, deal order, then the seeds.
MID = """
3 avalanche round-robin  334 1581 1676 1887
3 avalanche per-seat     424 725 1581
4 avalanche round-robin  148 257 400 424 431 554 646 725 744 759 839 979 987 1045 1198 1208 1540 1581 1653
4 avalanche per-seat     257 301 406 424 431 538 545 613 685 759 839 1005 1109 1532 1730 1902
5 avalanche round-robin  5 142 148 257 288 424 431 474 554 629 646 732 744 759 797 839 914 1031 1045 1208 1255
5 avalanche round-robin  1337 1439 1494 1581 1587 1653 1717 1730 1902 1990 3785
5 avalanche per-seat     36 133 168 257 288 301 334 403 431 474 535 646 725 732 744 759 797 812 839 1045 1131
5 avalanche per-seat     1143 1198 1255 1494 1606 1638 1639 1653 1730 1902
5 base      round-robin  8450
"""
SLOW = """
3 avalanche round-robin  3989 8071
3 avalanche per-seat     8071
4 avalanche round-robin  839 1581 1887 3168 3217 5997 8071 8248
4 avalanche per-seat     257 301 1730 3236 6386 8071 8248
5 avalanche round-robin  744 3785 5127 6595 8071 8240 8329
5 avalanche per-seat     301 3239 3785 5127 6252 6595 8001
5 base      round-robin  8450
"""
SETS = {"mid": MID, "slow": SLOW}


def deals(table: str) -> list[tuple[Settings, int]]:
    """The deals of a set's table (standard rules)."""
    found: list[tuple[Settings, int]] = []
    for line in table.split("\n"):
        if line.strip():
            players, variant, order, *seeds = line.split()
            settings = Settings(players=int(players), variant=Variant(variant), ending=Ending.STANDARD, deal=DealOrder(order))
            found.extend((settings, int(seed)) for seed in seeds)
    return found


def deal_line(settings: Settings, seed: int) -> str:
    """The deal as a line of a set's table (one seed), as a worker is asked it: `deals` reads it back."""
    return f"{settings.players} {settings.variant.value} {settings.deal.value} {seed}"


def deal_name(settings: Settings, seed: int) -> str:
    order = "rr" if settings.deal is DealOrder.ROUND_ROBIN else "ps"
    return f"{settings.players}p {settings.variant.value} {order} {seed}"


def run(name: str, limit: float, perfect: bool = False) -> list[float]:
    """Solve the set's deals one after the other; print a row each; return their seconds."""
    times: list[float] = []
    for settings, seed in deals(SETS[name]):
        began = time.perf_counter()
        solution = solve(settings, settings.variant.shuffled_deck(seed), time_limit=limit, perfect=perfect)
        seconds = time.perf_counter() - began
        times.append(seconds)
        bound = f"{solution.score}/{solution.upper}"
        print(f"{deal_name(settings, seed):26} {seconds:7.2f} s  {solution.verdict:8} {bound}", flush=True)
    return times


def _summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    over = [sum(t > limit for t in times) for limit in (1.0, 2.0)]
    return (
        f"{name}: {len(times)} deals, {sum(times):.1f} s in all, median {statistics.median(times):.3f} s, "
        f"p90 {p90:.2f} s, over 1 s {over[0]}, over 2 s {over[1]}"
    )


HERE = Path(__file__).resolve().parent.parent


class Worker:
    """A process running `script --serve` (and `options`) with the checkout at `root` first on its
    import path: it prints the file of the solver it imported, then answers each line asked with one."""

    def __init__(self, root: Path, script: str, *options: str) -> None:
        environment = dict(os.environ, PYTHONPATH=str(root))
        self._process = subprocess.Popen(
            [sys.executable, script, "--serve", *options],
            cwd=root,
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        loaded = self._read()
        if not Path(loaded).resolve().is_relative_to(root.resolve()):
            raise SystemExit(f"the worker for {root} imported the solver from {loaded}")

    def _read(self) -> str:
        line = self._process.stdout.readline() if self._process.stdout is not None else ""
        if not line:
            raise SystemExit("a worker died")
        return line.strip()

    def ask(self, line: str) -> str:
        """The worker's answer to `line`."""
        if self._process.stdin is None:
            raise SystemExit("a worker has no input")
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait()


def _serve(limit: float) -> None:
    """The worker: the solver's file first, then one line per deal asked on stdin."""
    import solver.solve

    print(solver.solve.__file__, flush=True)
    for line in sys.stdin:
        [(settings, seed)] = deals(line)
        began = time.perf_counter()
        solution = solve(settings, settings.variant.shuffled_deck(seed), time_limit=limit)
        print(f"{time.perf_counter() - began:.3f} {solution.verdict:8} {solution.score}/{solution.upper}", flush=True)


def against(name: str, other: Path, limit: float) -> None:
    """The set's deals solved by this checkout and by `other`, taking turns at going first."""
    workers = {label: Worker(root, __file__, "--time-limit", str(limit)) for label, root in (("this", HERE), ("against", other))}
    times: dict[str, list[float]] = {label: [] for label in workers}
    try:
        for index, (settings, seed) in enumerate(deals(SETS[name])):
            row: dict[str, str] = {}
            for label in list(workers)[:: 1 if index % 2 else -1]:
                answer, verdict = workers[label].ask(deal_line(settings, seed)).split(" ", 1)
                seconds = float(answer)
                times[label].append(seconds)
                row[label] = f"{seconds:7.2f} s {verdict}"
            print(f"{deal_name(settings, seed):26} this {row['this']}  against {row['against']}", flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    for label, taken in times.items():
        print(_summary(f"{name} ({label})", taken))
    ratios = [mine / theirs for mine, theirs in zip(times["this"], times["against"])]
    print(f"{name}: this/against, median of the per-deal ratios {statistics.median(ratios):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=["mid", "slow", "both"], default="mid")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per deal")
    parser.add_argument("--runs", type=int, default=1, help="runs of each set, one after the other")
    parser.add_argument("--against", type=Path, default=None, help="another checkout, timed alongside")
    parser.add_argument("--perfect", action="store_true", help="ask only whether a perfect score is reachable")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.perfect and args.against is not None:
        parser.error("--perfect is not for --against (the other checkout may not know it)")
    if args.serve:
        _serve(args.time_limit)
        return
    names = ["mid", "slow"] if args.set == "both" else [args.set]
    if args.against is not None:
        for _ in range(args.runs):
            for name in names:
                against(name, args.against.resolve(), args.time_limit)
        return
    summaries = [_summary(name, run(name, args.time_limit, args.perfect)) for _ in range(args.runs) for name in names]
    print("\n".join(summaries))


if __name__ == "__main__":
    main()
