"""Short searches for a target in several move orders (`probe`), and the slices of the search's budget
they and the climb take (`allow`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from random import Random

from solver.model import Deal, Move, Position
from solver.search import USUAL, Ordering, OutOfBudget, Search

PROBE_ORDERS = 10  # see `probe_orders`
# Burning cards (misplaying them at 8 clue tokens), impatient or patient: these orders found 14 of the
# 59 wins that took the search 0.2-4 s (5p Avalanche standard, seeds 0-999, both deal orders) within
# 375 positions, and 4 more within 2,500.
BURNING = (Ordering(burn=True), Ordering(burn=True, patient=True))


def probe_orders() -> list[Ordering]:
    """The usual move order, the patient one, the burning ones, then shuffled ones (seeded afresh, so
    every run is the same)."""
    usual = [Ordering(), Ordering(patient=True), *BURNING]
    return usual + [Ordering(shuffle=Random(seed), toss=True) for seed in range(2, 2 + PROBE_ORDERS - len(usual))]


def probe(
    model: Deal,
    search: Search,
    root: Position,
    target: int,
    budget: int,
    deadline: float | None,
    node_limit: int | None,
    orders: Sequence[Ordering] = (),
    interrupt: Callable[[], bool] | None = None,
    between: Callable[[], None] | None = None,
    walk: bool = False,
) -> list[Move] | None:
    """A line scoring at least `target` if a short search finds one (None proves nothing; nor does
    an `interrupt`, which ends the probe at once; `between` is called after each move order's share;
    `walk`: each order's search begins with `Search.walk`).

    A narrow win often hides behind an early choice that a depth-first search is slow to revisit:
    short restarts with other move orders (`orders`, by default `probe_orders`) find it, sharing the
    `budget`. The failures each restart proves are shared with the others through the transposition table."""
    search.deadline, search.interrupt = deadline, interrupt
    orders = orders or probe_orders()
    try:
        for ordering in orders:
            search.ordering = ordering
            allow(search, budget // len(orders), node_limit)
            try:
                return search.walk(root, target) if walk else search.reach(root, target)
            except OutOfBudget:
                if caller_budget_spent(search, node_limit, deadline):
                    raise
                if interrupt is not None and interrupt():
                    return None
            if between is not None:
                between()
        return None
    finally:
        search.ordering = USUAL


def allow(search: Search, positions: int, node_limit: int | None) -> None:
    """Let the search go `positions` further, or to the caller's `node_limit` if that comes first."""
    share = search.nodes + positions
    search.node_limit = share if node_limit is None else min(node_limit, share)


def caller_budget_spent(search: Search, node_limit: int | None, deadline: float | None) -> bool:
    """Has the caller's own node limit or deadline run out, or has the caller stopped the search (not a
    slice's budget, nor an interrupt)?"""
    if search.stop is not None and search.stop():
        return True
    return (node_limit is not None and search.nodes > node_limit) or (deadline is not None and time.perf_counter() >= deadline)
