"""Time `solver.analysis.analyze` on the bundled games and the real games beside the repository.

    python benchmarks/bench_analysis.py [--runs 5] [GAME ...]

For each game: actions, players, the solver calls bisection made, and the median and
slowest of several runs (seconds). Bar (issue 10): under 2 s for a 60-action 5-player
fully known game on a 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from deducer import Ending, GameRecord, Settings, Variant
from deducer.errors import HanabiError
from deducer.loader import load_game
from deducer.playout import playout
from solver.analysis import analyze

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    games: list[Path | tuple[str, GameRecord]] = list(args.games) or [
        *sorted((ROOT / "sample_games").glob("*.json")),
        *sorted((ROOT.parent / "shared" / "real_games").glob("*.json")),
    ]
    if not args.games:  # noisy 5-player games: many drops, so many solver calls
        settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
        games += [(f"noisy 5p avalanche standard, seed {seed}", playout(settings, seed, noise=0.15)) for seed in range(5)]
    print(f"{'game':48} {'actions':>7} {'seats':>5} {'solved':>6} {'median':>8} {'max':>8}")
    for path in games:
        name, record_or_path = (path.name, path) if isinstance(path, Path) else path
        try:
            record = load_game(record_or_path) if isinstance(record_or_path, Path) else record_or_path
        except HanabiError as error:
            print(f"{name:48} refused: {str(error)[:60]}")
            continue
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            result = analyze(record)
            times.append(time.perf_counter() - start)
        print(
            f"{name:48} {len(result.turns):7} {record.settings.players:5} {result.solver_calls:6} "
            f"{statistics.median(times):7.3f}s {max(times):7.3f}s"
        )


if __name__ == "__main__":
    main()
