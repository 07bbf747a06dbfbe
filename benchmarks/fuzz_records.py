"""Feed mutated game files through the readers, replay, knowledge views and round trips.

    python benchmarks/fuzz_records.py [--inputs 100000] [--seed 0] [--jobs N] [--crashes DIR]

Mutations of the bundled samples and the real games beside the repository: a key deleted, a value
of the wrong type or out of range, an element duplicated, dropped or moved, a key added, the file
cut short. Prints how many were accepted, refused (a typed `HanabiError`) and crashed (anything
else: bar 0); each crash's input is saved in --crashes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.mutations import check as check_input
from tests.mutations import cut_short, mutate, seed_documents


def _chunk(arguments: tuple[int, int, int]) -> tuple[Counter[str], list[tuple[str, str, str]]]:
    seed, start, count = arguments
    documents = seed_documents()
    counts: Counter[str] = Counter()
    crashes: list[tuple[str, str, str]] = []
    for number in range(start, start + count):
        rng = random.Random(f"{seed}-{number}")
        name, document = rng.choice(documents)
        raw = cut_short(document, rng) if rng.random() < 0.05 else json.dumps(mutate(document, rng, rng.choice([1, 1, 2, 3])))
        outcome = check_input(raw)
        counts[outcome.kind] += 1
        if outcome.kind == "crashed":
            crashes.append((f"{name}-{number}", outcome.detail, raw))
    return counts, crashes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--crashes", type=Path, default=Path("fuzz-crashes"))
    args = parser.parse_args()
    size = 500
    chunks = [(args.seed, start, min(size, args.inputs - start)) for start in range(0, args.inputs, size)]
    totals: Counter[str] = Counter()
    crashes: list[tuple[str, str, str]] = []
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for counts, found in pool.map(_chunk, chunks):
            totals.update(counts)
            crashes.extend(found)
    seconds = time.perf_counter() - began
    print(f"{args.inputs} inputs in {seconds:.0f} s ({1000 * seconds * args.jobs / max(1, args.inputs):.1f} ms each per core)")
    print(f"accepted {totals['accepted']}, refused {totals['refused']}, crashed {totals['crashed']}")
    if crashes:
        args.crashes.mkdir(parents=True, exist_ok=True)
        for name, detail, raw in crashes:
            (args.crashes / f"{name}.json").write_text(raw)
            print(f"  {name}: {detail}")
        print(f"crash inputs saved in {args.crashes}/")


if __name__ == "__main__":
    main()
