"""Time the knowledge tracker: every view after every event of the bundled games.

    python benchmarks/bench_deducer.py [GAME ...]

For each game: the median and 95th percentile time of one view update (one
seat's view, or the public view, after one event), the whole replay with all
views, and, for public views whose probabilities were estimated, the largest
difference from the exact count.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from deducer.errors import HanabiError
from deducer.knowledge import knowledge
from deducer.loader import load_game
from deducer.tracker import Tracker

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def bench(path: Path) -> None:
    record = load_game(path)
    tracker = Tracker(record)
    seats: list[int | None] = [None, *range(record.settings.players)]
    times: dict[str, list[float]] = {"seat": [], "public": []}
    errors: list[float] = []
    for index, state in enumerate(tracker._states):
        if state.dealing and not state.over:
            continue
        facts = tracker._facts[index]
        for seat in seats:
            begin = time.perf_counter()
            view = knowledge(state, facts, seat, record.recorder)
            times["public" if seat is None else "seat"].append(time.perf_counter() - begin)
            if not view.exact_probabilities:
                exact = knowledge(state, facts, seat, record.recorder, budget=10**12)
                errors.append(
                    max(
                        abs(card.probabilities.get(c, 0.0) - truth.probabilities.get(c, 0.0))
                        for card, truth in zip(view.cards, exact.cards)
                        for c in truth.probabilities
                    )
                )
    every = times["seat"] + times["public"]
    settings = record.settings
    print(f"{path.name}: {settings.players}p {settings.variant.value}, {len(every)} view updates")
    for name, values in (("all views", every), ("seat views", times["seat"]), ("public view", times["public"])):
        print(
            f"  {name:12} median {statistics.median(values) * 1e3:6.2f} ms   p95 {percentile(values, 0.95) * 1e3:6.2f} ms"
            f"   max {max(values) * 1e3:6.1f} ms"
        )
    measured = sum(every)
    print(f"  replay with all views: {measured:.2f} s (bar 2 s: {measured / 2:.0%} of it)")
    if errors:
        median, worst = statistics.median(errors), max(errors)
        print(f"  estimated public views: {len(errors)}, error vs exact: median {median:.4f}, max {worst:.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", type=Path, help="our logs or hanab.live exports (default: the bundled samples)")
    games = parser.parse_args().games or sorted((ROOT / "sample_games").glob("*.json"))
    for path in games:
        try:
            bench(path)
        except HanabiError as error:
            parser.error(str(error))


if __name__ == "__main__":
    main()
