"""A SAT reference for `bench_reference.py`, bundled: Glucose 4.2 alone on the perfect-score question.

    python benchmarks/bench_reference.py --reference benchmarks/ladder_reference.py:decide

It stands in for the published SAT encoding that issue 12 was measured against. That file is not in
the repository. The clauses are the solver's own (`solver.clauses.build`), with the clue tokens as a
ladder, as the reference has them. They are asked "a perfect score from the deal" with none of the
solver's bounds, greedy lines or search, and the time includes the build.

Use it as a yardstick that any machine has, not as a second opinion. Its verdicts rest on the same
clauses as the solver's glances. `check_losses.py` is the second argument for losses.

It is a stronger yardstick than the published encoding. On seeds 300-429 of each set, in both
deal orders, its median was 0.05-0.47 s a deal, and it left 6-7 of the 2p Avalanche decks undecided
in 30 s. The published encoding took roughly 0.4 s on 5p Avalanche when the issue was filed (our
18 ms at 24x), where this one takes 0.08 s."""

from __future__ import annotations

import threading

from deducer.cards import Card, Variant
from deducer.settings import DealOrder, Ending, Settings
from solver import clauses
from solver.model import Deal


def decide(deck: list[tuple[int, int]], players: int, time_limit: float, per_seat: bool) -> bool | None:
    """Is a perfect score reachable under the standard rules (None: undecided in `time_limit` seconds)?
    `deck`: (suit index, rank) pairs, top card first, the multicolour suit last (as `bench_reference` gives it)."""
    from pysat.solvers import Glucose42

    variant = Variant.AVALANCHE if len(deck) == Variant.AVALANCHE.deck_size else Variant.BASE
    order = DealOrder.PER_SEAT if per_seat else DealOrder.ROUND_ROBIN
    settings = Settings(players=players, variant=variant, ending=Ending.STANDARD, deal=order)
    model = Deal.of(settings, [Card(variant.suits[suit], rank) for suit, rank in deck])
    solver = Glucose42(bootstrap_with=clauses.build(model, variant.max_score, model.start(), ladder=True).clauses)
    timer = threading.Timer(time_limit, solver.interrupt)
    timer.start()
    try:
        found: bool | None = solver.solve_limited(expect_interrupt=True)
        return found
    finally:
        timer.cancel()
        solver.delete()
