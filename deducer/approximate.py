"""Approximate probabilities for views too large to count exactly.

Candidates stay exact (they come from the matching argument); only the weights
among them are estimated. Every unseen copy is somewhere: in a hidden card or in
the deck. Put the hidden cards (each holding one card) and the deck (holding
`deck` cards) as rows and the identities (with `n[c]` unseen copies) as columns
of a 0/1 matrix of what is allowed; a uniformly random deal is a uniformly random
perfect matching of it, and Sinkhorn scaling of the matrix to those row and
column sums estimates the matching's marginals. Measured against the exact count
on the public views of real 4- and 5-player games (`benchmarks/bench_deducer.py`):
median error under 0.01, largest about 0.05.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

ROUNDS = 500
TOLERANCE = 1e-9


def sinkhorn(candidates: Sequence[frozenset[int]], copies: Mapping[int, int], deck: int) -> tuple[dict[int, float], ...]:
    """Estimated identity probabilities of each hidden card, over its exact candidates."""
    rows = [dict.fromkeys(sorted(options), 1.0) for options in candidates]
    spare = {c: 1.0 for c, n in copies.items() if n > 0} if deck else {}
    for _ in range(ROUNDS):
        rows = [{c: value / total for c, value in row.items()} for row in rows for total in [sum(row.values())]]
        if spare:
            total = sum(spare.values())
            spare = {c: value * deck / total for c, value in spare.items()}
        column = dict(spare)
        for row in rows:
            for c, value in row.items():
                column[c] = column.get(c, 0.0) + value
        scale = {c: copies[c] / amount for c, amount in column.items()}
        rows = [{c: value * scale[c] for c, value in row.items()} for row in rows]
        spare = {c: value * scale[c] for c, value in spare.items()}
        if max((abs(sum(row.values()) - 1.0) for row in rows), default=0.0) < TOLERANCE:
            break
    return tuple({c: value / total for c, value in row.items()} for row in rows for total in [sum(row.values())])
