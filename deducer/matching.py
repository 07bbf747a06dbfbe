"""Which identities each hidden card can take, by a global-cardinality argument.

Cards with the same allowed set form a kind. In the flow network, the source
feeds each kind its number of cards, a kind joins each identity it allows, and
identity `c` passes at most `n[c]` units to the sink. A deal exists iff a
maximum flow saturates every kind. A kind-identity edge that carries no flow can
carry some in another maximum flow iff it lies on a cycle of the residual graph,
i.e. iff its ends share a strongly connected component (Régin's filtering for
the global cardinality constraint). When no deal exists, the kinds the source
still reaches in the residual graph, and the identities they allow, form a Hall
violator: more cards than copies.

Whether a deal exists at all (`violation`, asked after every event recorded) is first asked of a
greedy assignment, which finds one in microseconds on nearly every position; only when it fails does
the flow decide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_SOURCE, _SINK = ("source",), ("sink",)


@dataclass(frozen=True)
class Violation:
    """Cards (by index) that together allow fewer copies than there are cards."""

    cards: tuple[int, ...]
    identities: tuple[int, ...]
    copies: int


def violation(allowed: Sequence[frozenset[int]], copies: Mapping[int, int]) -> Violation | None:
    """None if some complete deal gives each card an identity it allows, within the copies; else why
    none does (the flow's Hall violator)."""
    if _greedy(allowed, copies):
        return None
    found = candidates(allowed, copies)
    return found if isinstance(found, Violation) else None


def _greedy(allowed: Sequence[frozenset[int]], copies: Mapping[int, int]) -> bool:
    """True if a deal was found (a witness): the cards allowing the fewest identities with copies first,
    each given the one it allows with the most copies left. False says nothing (a greedy choice can
    miss a deal)."""
    left = {c: n for c, n in copies.items() if n > 0}
    for options in sorted((options & left.keys() for options in allowed), key=len):
        best = max(options, key=left.__getitem__, default=None)
        if best is None or not left[best]:
            return False
        left[best] -= 1
    return True


def candidates(allowed: Sequence[frozenset[int]], copies: Mapping[int, int]) -> list[frozenset[int]] | Violation:
    """Each card's identities that some complete deal gives it, or the reason none exists."""
    import networkx as nx  # (here: its import takes 60 ms, which every command of `hanabi` would pay)

    allowed = [frozenset(c for c in options if copies.get(c, 0) > 0) for options in allowed]
    kinds: dict[frozenset[int], int] = {}
    for options in allowed:
        kinds[options] = kinds.get(options, 0) + 1
    graph = nx.DiGraph()
    graph.add_nodes_from([_SOURCE, _SINK])
    for kind, (options, size) in enumerate(kinds.items()):
        graph.add_edge(_SOURCE, ("kind", kind), capacity=size)
        for c in options:
            graph.add_edge(("kind", kind), ("id", c), capacity=size)
            graph.add_edge(("id", c), _SINK, capacity=copies[c])
    value, flow = nx.maximum_flow(graph, _SOURCE, _SINK)
    residual = nx.DiGraph()
    for u, v, data in graph.edges(data=True):
        if flow[u][v] < data["capacity"]:
            residual.add_edge(u, v)
        if flow[u][v] > 0:
            residual.add_edge(v, u)
    if value < len(allowed):
        reached = nx.descendants(residual, _SOURCE)
        short = [options for kind, options in enumerate(kinds) if ("kind", kind) in reached]
        identities = sorted({c for options in short for c in options})
        cards = tuple(index for index, options in enumerate(allowed) if options in short)
        return Violation(cards, tuple(identities), sum(copies[c] for c in identities))
    component = {node: index for index, nodes in enumerate(nx.strongly_connected_components(residual)) for node in nodes}
    possible = [
        frozenset(c for c in options if flow[("kind", kind)][("id", c)] > 0 or component[("kind", kind)] == component[("id", c)])
        for kind, options in enumerate(kinds)
    ]
    index_of = {options: kind for kind, options in enumerate(kinds)}
    return [possible[index_of[options]] for options in allowed]
