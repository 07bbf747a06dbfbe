"""Time the replay of the solver's line through the engine, beside the whole solve.

    python benchmarks/bench_replay.py [--count 200] [--players 5] [--variant avalanche] [--rules standard]
                                      [--deal round-robin|per-seat|both] [--against DIR]

Every solve replays its line through the rules engine (`solver.replay.to_actions`) before it answers:
the check that no line the solver prints breaks a rule. This prints, for each deal order, the median
of the whole solve and of the replay alone (each deal's best of 5 runs), the replay's share and its
cost per action.

`--against DIR` times another checkout of this repository (e.g. `git worktree add /tmp/base HEAD`)
in the same process, alternating the two versions deal by deal, and prints the median of the
per-deal ratios (this/DIR): this machine's speed drifts by up to 2.5x between runs, so two runs
compared apart prove nothing about a change of a few per cent.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent.parent
RUNS = 5  # timings of each deal; the best counts
TIME_LIMIT = 20.0  # seconds for each solve (an undecided deal still has a line to replay)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--variant", default="avalanche")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--deal", choices=["round-robin", "per-seat", "both"], default="both")
    parser.add_argument("--against", type=Path, default=None, help="another checkout, timed alongside")
    args = parser.parse_args()
    versions = {"this": _load(HERE)}
    if args.against is not None:
        versions["against"] = _load(args.against.resolve())
    orders = ["round-robin", "per-seat"] if args.deal == "both" else [args.deal]
    for order in orders:
        sets = {name: _Set(modules, args, order) for name, modules in versions.items()}
        print(f"{args.players}p-{args.variant}-{args.rules}-{order}, {args.count} deals:")
        solve = _time(sets, args.count, lambda deals, index: deals.solve(index))
        replay = _time(sets, args.count, lambda deals, index: deals.replay(index))
        for name, deals in sets.items():
            solved, replayed = statistics.median(solve[name]), statistics.median(replay[name])
            per_action = statistics.median(t / n for t, n in zip(replay[name], deals.actions)) * 1e6
            print(
                f"  {name:8} solve {solved * 1e3:6.3f} ms   replay {replayed * 1e3:6.3f} ms"
                f" ({replayed / solved:.0%} of the solve, {per_action:.1f} us an action)"
            )
        if "against" in sets:
            for label, times in (("solve", solve), ("replay", replay)):
                ratios = [mine / theirs for mine, theirs in zip(times["this"], times["against"])]
                print(f"  {label} this/against, median of the per-deal ratios: {statistics.median(ratios):.3f}")


def _load(root: Path) -> dict[str, ModuleType]:
    """The modules of the checkout at `root`, imported afresh (the other checkout's stay referenced)."""
    for name in [name for name in sys.modules if name.split(".")[0] in ("deducer", "solver")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        names = ("deducer.cards", "deducer.settings", "solver.model", "solver.solve")
        return {name: importlib.import_module(name) for name in names}
    finally:
        sys.path.remove(str(root))


class _Set:
    """The seeded deals of one set, their best lines, and the calls timed, for one checkout."""

    def __init__(self, modules: dict[str, ModuleType], args: argparse.Namespace, order: str) -> None:
        cards, settings, model = modules["deducer.cards"], modules["deducer.settings"], modules["solver.model"]
        self.solver = modules["solver.solve"]
        self.settings: Any = settings.Settings(
            players=args.players,
            variant=cards.Variant(args.variant),
            ending=settings.Ending(args.rules),
            deal=settings.DealOrder(order),
        )
        self.decks = [tuple(self.settings.variant.shuffled_deck(seed)) for seed in range(args.count)]
        self.lines = [self.solver.best_line(model.Deal.of(self.settings, deck), TIME_LIMIT).line for deck in self.decks]
        self.actions = [max(1, len(line)) for line in self.lines]

    def solve(self, index: int) -> None:
        self.solver.solve(self.settings, self.decks[index], TIME_LIMIT)

    def replay(self, index: int) -> None:
        self.solver.to_actions(self.settings, self.decks[index], self.lines[index], checked=True)


def _time(sets: dict[str, _Set], count: int, call: Callable[[_Set, int], None]) -> dict[str, list[float]]:
    """Each deal's best time of `RUNS` for every version, the versions alternating on each deal."""
    best: dict[str, list[float]] = {name: [] for name in sets}
    for index in range(count):
        runs: dict[str, list[float]] = {name: [] for name in sets}
        for _ in range(RUNS):
            for name, deals in sets.items():
                start = time.perf_counter()
                call(deals, index)
                runs[name].append(time.perf_counter() - start)
        for name in sets:
            best[name].append(min(runs[name]))
    return best


if __name__ == "__main__":
    main()
