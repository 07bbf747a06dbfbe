"""Every deal of a view's hidden cards, enumerated with python-constraint.

This is the "show me every hand I could be holding" answer, and the independent
brute-force oracle that the fast counting (`counting.count`) and the matching
(`matching.candidates`) are tested against.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import perm

from deducer.cards import Card
from deducer.counting import TooLarge
from deducer.facts import Facts
from deducer.game import GameState
from deducer.knowledge import NO_FACTS, allowed_identities, hidden_cards, unseen_copies


def deals(allowed: Sequence[frozenset[int]], copies: Mapping[int, int]) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each assignment of identities to the cards within the copy counts, with its weight."""
    from constraint import Problem, SomeNotInSetConstraint  # (here: 20 ms to import, see `deducer.matching`)

    problem = Problem()
    domains = [sorted(c for c in options if copies.get(c, 0) > 0) for options in allowed]
    if any(not domain for domain in domains):
        return
    for index, domain in enumerate(domains):
        problem.addVariable(index, domain)
    for c in {c for domain in domains for c in domain}:
        holders = [index for index, domain in enumerate(domains) if c in domain]
        if len(holders) > copies[c]:  # at most n[c] of them take identity c
            problem.addConstraint(SomeNotInSetConstraint({c}, n=len(holders) - copies[c]), holders)
    for solution in problem.getSolutionIter():
        assignment = tuple(solution[index] for index in range(len(domains)))
        weight = 1
        for c in set(assignment):
            weight *= perm(copies[c], assignment.count(c))
        yield assignment, weight


@dataclass(frozen=True)
class PossibleHand:
    """One way the seat's own hand could be, slot 1 first, with its probability."""

    cards: tuple[Card, ...]
    probability: float


def possible_hands(state: GameState, facts: Mapping[int, Facts], seat: int, limit: int = 200_000) -> list[PossibleHand]:
    """Every hand `seat` could be holding in their own view, most likely first."""
    hidden = hidden_cards(state, seat)
    copies = unseen_copies(state, seat)
    variant = state.settings.variant
    allowed = [allowed_identities(facts.get(item.uid, NO_FACTS), variant) for _, _, item in hidden]
    own = [index for index, (owner, _, _) in enumerate(hidden) if owner == seat]
    totals: dict[tuple[int, ...], int] = {}
    for number, (assignment, weight) in enumerate(deals(allowed, copies)):
        if number >= limit:
            raise TooLarge(f"more than {limit} deals to list")
        key = tuple(assignment[index] for index in own)
        totals[key] = totals.get(key, 0) + weight
    grand = sum(totals.values())
    hands = [PossibleHand(tuple(variant.cards[c] for c in key), weight / grand) for key, weight in totals.items()]
    return sorted(hands, key=lambda hand: (-hand.probability, hand.cards))
