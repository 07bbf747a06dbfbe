"""Our solver side by side with another exact solver of the perfect-score question, deal by deal.

    python benchmarks/bench_reference.py --reference path/to/ref.py:decide [--count 65] [--first 0]
                                         [--only 5p-avalanche] [--deal per-seat] [--time-limit 60]
                                         [--question perfect|best]

The reference is any function `decide(deck, players, time_limit, per_seat) -> bool | None` in a
file of your own (for instance a SAT encoding solved by Glucose; `ladder_reference.py:decide`, bundled,
is Glucose alone on the solver's clauses with the clue tokens as a ladder): `deck` is a list of
(suit index, rank) pairs, top card first, the multicolour suit last; it answers whether the
standard rules allow a perfect score (None: undecided in `time_limit` seconds). Both run on the
same seeded decks in one process: our solver on every deck of a set, then the reference on every
deck. Taking turns deal by deal, each of the reference's solves left our next one with cold caches:
with a reference that only writes 64 MB, our median on 5p Avalanche per seat (seeds 300-429) went
from 0.9 to 1.3 ms. Standard rules; our solver is asked the
reference's question (`--question perfect`, the default: `solve(..., perfect=True)`, which stops once
a perfect score is found or ruled out), or the best score (`best`: more than the reference is asked, as
a loss needs one more refutation).

Prints, per set: the deals, our median, the reference's median, the median and the smallest of the
per-deal time ratios (reference / ours), the deals on which the verdicts disagree, the deals the
reference left undecided, and those on which we were slower.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from deducer.cards import Variant
from deducer.settings import DealOrder, Ending, Settings
from solver.solve import solve

Reference = Callable[[list[tuple[int, int]], int, float, bool], bool | None]


def load(spec: str) -> Reference:
    """The function `name` of the file `path`, from "path:name"."""
    path, _, name = spec.rpartition(":")
    module_spec = importlib.util.spec_from_file_location("reference", Path(path))
    if module_spec is None or module_spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    function: Reference = getattr(module, name)
    return function


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", required=True, help="path/to/file.py:function")
    parser.add_argument("--count", type=int, default=65)
    parser.add_argument("--first", type=int, default=0, help="first seed (the others follow)")
    parser.add_argument("--only", default=None, help="e.g. 5p-avalanche")
    parser.add_argument("--deal", choices=["round-robin", "per-seat"], default="per-seat")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal, for each solver")
    parser.add_argument("--question", choices=["perfect", "best"], default="perfect", help="what our solver is asked")
    args = parser.parse_args()
    reference = load(args.reference)
    order = DealOrder(args.deal)
    header = f"{'set':16} {'deals':>5} {'ours':>9} {'reference':>10} {'ratio':>8} {'least':>7}"
    print(header + "   disagree / ref. undecided / we were slower")
    for players in (2, 3, 4, 5):
        for variant in Variant:
            name = f"{players}p-{variant.value}"
            if args.only and args.only != name:
                continue
            settings = Settings(players=players, variant=variant, ending=Ending.STANDARD, deal=order)
            seeds = range(args.first, args.first + args.count)
            decks = [variant.shuffled_deck(seed) for seed in seeds]
            ours, verdicts = [], []
            for deck in decks:  # (ours on every deck, then the reference on every deck: see the module's note)
                begin = time.perf_counter()
                verdicts.append(solve(settings, deck, time_limit=args.time_limit, perfect=args.question == "perfect").perfect)
                ours.append(time.perf_counter() - begin)
            theirs, answers = [], []
            for deck in decks:
                cards = [(variant.suits.index(card.suit), card.rank) for card in deck]
                begin = time.perf_counter()
                answers.append(reference(cards, players, args.time_limit, order is DealOrder.PER_SEAT))
                theirs.append(time.perf_counter() - begin)
            undecided = [seed for seed, answer in zip(seeds, answers) if answer is None]
            disagree = [
                seed
                for seed, verdict, answer in zip(seeds, verdicts, answers)
                if answer is not None and verdict is not None and bool(answer) != verdict
            ]
            slower = [f"{seed} ({mine:.2f} s / {other:.2f} s)" for seed, mine, other in zip(seeds, ours, theirs) if mine > other]
            ratios = [reference_time / our_time for our_time, reference_time in zip(ours, theirs)]
            print(
                f"{name:16} {len(ours):5} {statistics.median(ours) * 1000:7.1f}ms {statistics.median(theirs):9.2f}s "
                f"{statistics.median(ratios):7.0f}x {min(ratios):6.2f}x   {disagree} / {undecided} / {slower}",
                flush=True,
            )


if __name__ == "__main__":
    main()
