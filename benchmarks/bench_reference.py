"""Our solver side by side with another exact solver of the perfect-score question, deal by deal.

    python benchmarks/bench_reference.py --reference path/to/ref.py:decide [--count 65] [--first 0]
                                         [--only 5p-avalanche] [--deal per-seat] [--time-limit 60]
                                         [--question perfect|best] [--repeat 1]

The reference is any function `decide(deck, players, time_limit, per_seat) -> bool | None` in a
file of your own (for instance a SAT encoding solved by Glucose; `ladder_reference.py:decide`, bundled,
is Glucose alone on the solver's clauses with the clue tokens as a ladder): `deck` is a list of
(suit index, rank) pairs, top card first, the multicolour suit last; it answers whether the
standard rules allow a perfect score (None: undecided in `time_limit` seconds). Standard rules;
our solver is asked the reference's question (`--question perfect`, the default: `solve(...,
perfect=True)`, which stops once a perfect score is found or ruled out), or the best score (`best`:
more than the reference is asked, as a loss needs one more refutation). Our solver's cache of the
seats relaxation (`solver.endgame.most_plays`) is emptied before each of its solves: none finds a
deal's relaxations answered by an earlier solve.

Both run on the same seeded decks in one process. By default each solves each deck once: our solver
on every deck of a set, then the reference on every deck. Taking turns deal by deal, each of the
reference's solves left our next one with cold caches: with a reference that only writes 64 MB, our
median on 5p Avalanche per seat (seeds 300-429) went from 0.9 to 1.3 ms. But one run's median ratio
on 5p Avalanche swung by ±20% on the same code (issue 12, stop 80): this machine's speed drifts
within minutes, and the two halves of a set are timed a minute apart. `--repeat N` (3, say) takes
turns deal by deal, each solver solving the deck N times, and keeps the fastest of each (as
`timeit` does): the two are timed within the same seconds, and the fastest run is a warm one.

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

from deducer.cards import Card, Variant
from deducer.settings import DealOrder, Ending, Settings
from solver import endgame
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
    parser.add_argument("--repeat", type=int, default=1, help="runs of each solver on each deal, the fastest kept")
    args = parser.parse_args()
    reference = load(args.reference)
    order = DealOrder(args.deal)
    header = f"{'set':16} {'deals':>5} {'ours':>9} {'reference':>10} {'ratio':>8} {'least':>7}"
    print(header + "   disagree / ref. undecided / we were slower")
    for players in (2, 3, 4, 5):
        for variant in Variant:
            name = f"{players}p-{variant.value}"
            if not args.only or args.only == name:
                settings = Settings(players=players, variant=variant, ending=Ending.STANDARD, deal=order)
                print(f"{name:16} " + compare(settings, range(args.first, args.first + args.count), reference, args), flush=True)


def compare(settings: Settings, seeds: range, reference: Reference, args: argparse.Namespace) -> str:
    """One set's row: ours and the reference on each seed's deck (see the module's note)."""
    variant, perfect = settings.variant, args.question == "perfect"
    decks = [variant.shuffled_deck(seed) for seed in seeds]

    def ours_on(deck: list[Card]) -> bool | None:
        endgame.most_plays.cache_clear()
        return solve(settings, deck, time_limit=args.time_limit, perfect=perfect).perfect

    def theirs_on(deck: list[Card]) -> bool | None:
        cards = [(variant.suits.index(card.suit), card.rank) for card in deck]
        return reference(cards, settings.players, args.time_limit, settings.deal is DealOrder.PER_SEAT)

    if args.repeat == 1:  # ours on every deck, then the reference on every deck
        ours, theirs = [_fastest(ours_on, deck, 1) for deck in decks], [_fastest(theirs_on, deck, 1) for deck in decks]
    else:  # deal by deal
        ours, theirs = [], []
        for deck in decks:
            ours.append(_fastest(ours_on, deck, args.repeat))
            theirs.append(_fastest(theirs_on, deck, args.repeat))
    undecided = [seed for seed, (answer, _) in zip(seeds, theirs) if answer is None]
    disagree = [
        seed
        for seed, (verdict, _), (answer, _) in zip(seeds, ours, theirs)
        if answer is not None and verdict is not None and answer != verdict
    ]
    mine, other = [seconds for _, seconds in ours], [seconds for _, seconds in theirs]
    slower = [f"{seed} ({a:.2f} s / {b:.2f} s)" for seed, a, b in zip(seeds, mine, other) if a > b]
    ratios = [b / a for a, b in zip(mine, other)]
    return (
        f"{len(ours):5} {statistics.median(mine) * 1000:7.1f}ms {statistics.median(other):9.2f}s "
        f"{statistics.median(ratios):7.0f}x {min(ratios):6.2f}x   {disagree} / {undecided} / {slower}"
    )


def _fastest(run: Callable[[list[Card]], bool | None], deck: list[Card], repeat: int) -> tuple[bool | None, float]:
    """`run(deck)`'s answer and the fastest of `repeat` runs, in seconds (an undecided answer is not run again:
    its time is the limit, run after run)."""
    best = float("inf")
    for _ in range(repeat):
        begin = time.perf_counter()
        answer = run(deck)
        best = min(best, time.perf_counter() - begin)
        if answer is None:
            break
    return answer, best


if __name__ == "__main__":
    main()
