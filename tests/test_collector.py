"""The cyclic collector paused over the search and the clauses' build (`solver.collector`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from deducer import Ending, Settings, Variant
from solver import clauses, sat
from solver.collector import paused
from solver.model import Deal, Position


@pytest.fixture(autouse=True)
def collecting() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_paused_in_the_block_and_on_again_after_it() -> None:
    with paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), paused():
        raise ValueError("the block fails")
    assert gc.isenabled()


def test_blocks_that_overlap_leave_it_on_once_both_are_over() -> None:
    # Two threads' blocks, as they interleave: A finds it on, B finds it off (A's pause). Whichever
    # ends first, the collector is on once both have ended, and never before A's block (or B's, where
    # it ends last) is over.
    for a_first in (True, False):
        a, b = paused(), paused()
        a.__enter__()
        b.__enter__()
        (a if a_first else b).__exit__(None, None, None)
        assert gc.isenabled() is a_first  # (A turns it on as it ends: B's block goes on collected)
        (b if a_first else a).__exit__(None, None, None)
        assert gc.isenabled()
    gc.disable()
    with paused():
        pass
    assert not gc.isenabled()  # (off before: left off)


def test_the_clauses_are_built_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    real = sat.horizon

    def horizon(deal: Deal, target: int, root: Position) -> int:
        seen.append(gc.isenabled())
        return real(deal, target, root)

    monkeypatch.setattr(clauses, "horizon", horizon)
    settings = Settings(players=3, variant=Variant.BASE, ending=Ending.STANDARD)
    deal = Deal.of(settings, Variant.BASE.shuffled_deck(1))
    assert clauses.build(deal, 25, ladder=True).clauses
    assert seen == [False] and gc.isenabled()
