"""The SAT yardstick bundled with the benchmarks (`benchmarks/ladder_reference.py`) answers the
perfect-score question as the solver does, on both variants and both deal orders."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from deducer.cards import Variant
from deducer.settings import DealOrder, Ending, Settings
from solver.solve import solve
from tests.helpers import script

ROOT = Path(__file__).resolve().parent.parent
DECIDE: Callable[[list[tuple[int, int]], int, float, bool], bool | None] = script(
    ROOT / "benchmarks" / "ladder_reference.py"
).decide  # (the benchmarks are not a package)


# (players, variant, deal order, seed, perfect): the verdicts the solver gives. 3p Avalanche 334 is won
# dealt round-robin and lost dealt per seat (the one such deck among seeds 300-399 of 3p and 5p), so
# the deal order must reach the clauses; a base deck has 50 cards and no multicolour suit.
DEALS = [
    (5, Variant.AVALANCHE, DealOrder.PER_SEAT, 300, True),
    (5, Variant.AVALANCHE, DealOrder.PER_SEAT, 301, False),
    (3, Variant.AVALANCHE, DealOrder.ROUND_ROBIN, 334, True),
    (3, Variant.AVALANCHE, DealOrder.PER_SEAT, 334, False),
    (2, Variant.BASE, DealOrder.ROUND_ROBIN, 300, True),
]


@pytest.mark.parametrize(("players", "variant", "order", "seed", "perfect"), DEALS)
def test_the_yardstick_agrees_with_the_solver(players: int, variant: Variant, order: DealOrder, seed: int, perfect: bool) -> None:
    settings = Settings(players=players, variant=variant, ending=Ending.STANDARD, deal=order)
    deck = variant.shuffled_deck(seed)
    assert solve(settings, deck, time_limit=60, perfect=True).perfect is perfect
    cards = [(variant.suits.index(card.suit), card.rank) for card in deck]  # (as `bench_reference` gives them)
    assert DECIDE(cards, players, 60.0, order is DealOrder.PER_SEAT) is perfect
