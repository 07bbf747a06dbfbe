"""Time `deducer.advice.advise` at every position of the bundled games (and the real ones beside the repository).

    python benchmarks/bench_advice.py [GAME ...]

For each game: the positions advised, the options listed per position, and the median, p95 and
slowest time per position (the tracker is built once per game, as the table companion keeps it).
Bar (issue 14): the whole list for a 5-player Avalanche position in under 100 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from deducer.advice import advise
from deducer.errors import HanabiError
from deducer.loader import load_game
from deducer.tracker import Tracker

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", type=Path)
    args = parser.parse_args()
    bundled = sorted((ROOT / "sample_games").glob("*.json"))
    games = args.games or bundled + sorted((ROOT.parent / "shared" / "real_games").glob("*.json"))
    print(f"{'game':48} {'positions':>9} {'options':>7} {'median ms':>9} {'p95 ms':>7} {'max ms':>7}")
    every: list[float] = []
    for path in games:
        try:
            tracker = Tracker(load_game(path))
        except HanabiError as error:
            print(f"{path.name:48} skipped: {error}")
            continue
        times: list[float] = []
        counts: list[int] = []
        for turn in range(tracker.state.turn + 1):
            state = tracker.state_at(turn)
            if state.over or state.must_draw is not None:
                continue
            began = time.perf_counter()
            advice = advise(tracker, turn)
            times.append(1000 * (time.perf_counter() - began))
            counts.append(len(advice.actions))
        every += times
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        median = statistics.median(times)
        print(f"{path.name:48} {len(times):9} {statistics.median(counts):7.0f} {median:9.1f} {p95:7.1f} {times[-1]:7.1f}")
    every.sort()
    p95 = every[int(0.95 * len(every))]
    print(f"all positions: {len(every)}, median {statistics.median(every):.1f} ms, p95 {p95:.1f} ms, max {every[-1]:.1f} ms")


if __name__ == "__main__":
    main()
