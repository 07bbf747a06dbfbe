"""Exact weighted counting of the deals of hidden cards.

The problem: hidden cards, each with a set of allowed identities, and for each
identity `c` the number `n[c]` of its copies nobody in the view can see. Every
assignment of identities to the hidden cards that uses at most `n[c]` of each
identity is a possible deal, weighted by the number of ways the unseen copies
realise it, `prod_c n[c]! / (n[c] - k[c])!` (`k[c]` cards given identity `c`;
the deck takes the rest in any order). `count` returns the total weight and, for
each card, the exact probability of each identity.

Think of the unseen copies as distinct physical cards: a deal is then a one-to-one
map from hidden cards to copies, and the weight above is the number of such maps.
Cards with the same allowed set are interchangeable, so the dynamic programme
takes the copies one at a time (each stays in the deck or goes to one of the
still unassigned cards of a kind that allows it), its state being how many cards
of each kind are still unassigned, coded as one integer. Forward and backward
passes give every marginal at once. Weights are Python integers, so the
probabilities are exact up to the final division.

>>> result = count([frozenset({0, 1}), frozenset({0, 1})], {0: 1, 1: 1})
>>> result.total, result.probabilities[0]
(2, {0: 0.5, 1: 0.5})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Counted:
    """The total weight of all deals, and each card's identity probabilities."""

    total: int
    probabilities: tuple[dict[int, float], ...]


class TooLarge(Exception):
    """The exact count would exceed the state budget."""


def count(allowed: Sequence[frozenset[int]], copies: Mapping[int, int], budget: int | None = None) -> Counted:
    """Exact probabilities for every card; raises `TooLarge` when states x copies exceeds `budget`."""
    allowed = [frozenset(c for c in options if copies.get(c, 0) > 0) for options in allowed]
    kinds: dict[frozenset[int], int] = {}
    kind_of = [kinds.setdefault(options, len(kinds)) for options in allowed]
    sizes = [0] * len(kinds)
    for kind in kind_of:
        sizes[kind] += 1
    radix: list[int] = []
    space = 1
    for size in sizes:
        radix.append(space)
        space *= size + 1
    identities = sorted(set().union(*allowed)) if allowed else []
    if budget is not None and space * sum(copies[c] for c in identities) > budget:
        raise TooLarge(f"{space} states")
    # One step per physical copy: the identity and the kinds of card that allow it.
    steps: list[tuple[int, list[int]]] = []
    for c in identities:
        cover = [kind for kind, options in enumerate(kinds) if c in options]
        steps += [(c, cover)] * copies[c]
    start = sum(size * unit for size, unit in zip(sizes, radix))
    forward: list[dict[int, int]] = [{start: 1}]
    for _, cover in steps:
        layer = dict(forward[-1])
        for state, weight in forward[-1].items():
            for kind in cover:
                have = state // radix[kind] % (sizes[kind] + 1)
                if have:
                    after = state - radix[kind]
                    layer[after] = layer.get(after, 0) + weight * have
        forward.append(layer)
    total = forward[-1].get(0, 0)
    if total == 0:
        return Counted(0, tuple({} for _ in allowed))
    expected: list[dict[int, int]] = [{} for _ in sizes]
    behind = {0: 1}
    for index in range(len(steps) - 1, -1, -1):
        c, cover = steps[index]
        earlier: dict[int, int] = {}
        for state, weight in forward[index].items():
            through = behind.get(state, 0)
            for kind in cover:
                have = state // radix[kind] % (sizes[kind] + 1)
                if have:
                    rest = behind.get(state - radix[kind])
                    if rest:
                        amount = have * rest
                        through += amount
                        expected[kind][c] = expected[kind].get(c, 0) + weight * amount
            if through:
                earlier[state] = through
        behind = earlier
    probabilities = tuple({c: amount / (total * sizes[kind]) for c, amount in sorted(expected[kind].items())} for kind in kind_of)
    return Counted(total, probabilities)
