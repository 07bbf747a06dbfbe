"""Python's cyclic garbage collector, paused over work that makes no reference cycles (`paused`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Pause the cyclic collector for the block, if it is on. The search and the clauses' build
    (`solver.clauses.build`) make many small objects and no cycles: a collection meanwhile only
    walks the heap (the search's tables, the Glucose questions a process keeps). It took a third of a
    glance (5p Avalanche per seat 403, the perfect-score question in one process: 44-46 -> 30 ms,
    the build alone 10-23 -> 8 ms). Each thread that finds the collector on turns it back on when its
    block ends, so that it is on again once every block is over, however the threads' blocks overlap."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
