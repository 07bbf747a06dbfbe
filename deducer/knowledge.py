"""What a view (a set of eyes) knows about each hidden card.

A view is `public` (hints, played and discarded cards) or a seat (public
information plus every card in the other hands that the record knows). For each
hidden card: its hint facts, its candidates (identities some complete deal of
all hidden cards gives it, obeying every hint and the copy counts) and the
probability of each, every such deal weighted by the ways the unseen copies
realise it (a uniformly shuffled deck, no conventions).

Probabilities are exact whenever the counting programme fits `budget` (always
for a seat's own hand); past it (only public views of big games), candidates
stay exact by matching and probabilities come from `approximate.sinkhorn`,
whose error `benchmarks/bench_deducer.py` measures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from deducer.approximate import sinkhorn
from deducer.cards import Card, Variant
from deducer.counting import TooLarge, count
from deducer.errors import ContradictionError
from deducer.facts import Facts
from deducer.game import GameState, HandCard
from deducer.matching import Violation, candidates, violation

BUDGET = 30_000  # states x unseen copies: a few milliseconds of exact counting
NO_FACTS = Facts()


@dataclass(frozen=True)
class CardKnowledge:
    """One hidden card as a view sees it."""

    seat: int
    slot: int
    uid: int
    facts: Facts
    probabilities: Mapping[Card, float]
    p_playable: float
    p_trash: float
    flags: tuple[str, ...]
    p_critical: float = 0.0  # the chance it is the last copy of a card still needed

    @property
    def candidates(self) -> tuple[Card, ...]:
        return tuple(self.probabilities)

    def to_json(self, seats: tuple[str, ...]) -> dict[str, Any]:
        return {
            "seat": seats[self.seat],
            "slot": self.slot,
            "candidates": {str(card): probability for card, probability in self.probabilities.items()},
            "flags": list(self.flags),
            "p_playable": self.p_playable,
            "p_trash": self.p_trash,
            "facts": self.facts.to_json(),
        }


@dataclass(frozen=True)
class Knowledge:
    """Every hidden card of one view at one moment."""

    view: str
    cards: tuple[CardKnowledge, ...]
    approximate: bool
    exact_probabilities: bool
    total: int | None = None  # the weight of every deal the view allows (None when estimated)

    def card(self, seat: int, slot: int) -> CardKnowledge:
        return next(card for card in self.cards if (card.seat, card.slot) == (seat, slot))


def hidden_cards(state: GameState, seat: int | None) -> list[tuple[int, int, HandCard]]:
    """(seat, slot, card) of every hand card the view cannot see."""
    return [
        (owner, slot, item)
        for owner, hand in enumerate(state.hands)
        for slot, item in enumerate(hand, 1)
        if seat is None or owner == seat or item.card is None
    ]


def unseen_copies(state: GameState, seat: int | None) -> dict[int, int]:
    """For each identity (index in the variant), the copies the view cannot see."""
    shown = [item.card for owner, hand in enumerate(state.hands) if seat is not None and owner != seat for item in hand]
    return _unseen(state, [card for card in shown if card is not None])


def _unseen(state: GameState, shown: list[Card]) -> dict[int, int]:
    visible: Counter[Card] = Counter(state.discards)
    visible.update(shown)
    for suit, height in zip(state.settings.variant.suits, state.fireworks):
        visible.update(Card(suit, rank) for rank in range(1, height + 1))
    variant = state.settings.variant
    return {index: variant.copies(card) - visible[card] for index, card in enumerate(variant.cards)}


@cache
def allowed_identities(facts: Facts, variant: Variant) -> frozenset[int]:
    """Indices (in `variant.cards`) of the identities that `facts` allow."""
    return frozenset(index for index, card in enumerate(variant.cards) if facts.allows(card))


def knowledge(
    state: GameState,
    facts: Mapping[int, Facts],
    seat: int | None,
    recorder: int | None = None,
    budget: int = BUDGET,
    approximate: bool = False,
) -> Knowledge:
    """The view of `seat` (None: public) of every card it cannot see (`approximate`: the record lost
    some facts this view had, such as partial hints)."""
    hidden = hidden_cards(state, seat)
    copies = unseen_copies(state, seat)
    variant = state.settings.variant
    allowed = [allowed_identities(facts.get(item.uid, NO_FACTS), variant) for _, _, item in hidden]
    total = None
    try:
        counted = count(allowed, copies, budget)
        if counted.total == 0:
            raise ContradictionError(explain(state, hidden, violation(allowed, copies)))
        probabilities, total = counted.probabilities, counted.total
    except TooLarge:
        sets = candidates(allowed, copies)
        if isinstance(sets, Violation):
            raise ContradictionError(explain(state, hidden, sets)) from None
        probabilities = sinkhorn(sets, copies, state.deck_left)
    cards = tuple(
        _card_knowledge(state, owner, slot, item, facts.get(item.uid, NO_FACTS), chances)
        for (owner, slot, item), chances in zip(hidden, probabilities)
    )
    partial = approximate or (
        seat is not None
        and seat != recorder
        and any(item.card is None for owner, hand in enumerate(state.hands) if owner != seat for item in hand)
    )
    return Knowledge("public" if seat is None else state.seats[seat], cards, partial, total is not None, total)


def _card_knowledge(
    state: GameState, owner: int, slot: int, item: HandCard, facts: Facts, chances: Mapping[int, float]
) -> CardKnowledge:
    cards = state.settings.variant.cards
    probabilities = {cards[c]: p for c, p in chances.items()}
    p_playable = sum(p for card, p in probabilities.items() if state.playable(card))
    p_trash = sum(p for card, p in probabilities.items() if state.trash(card))
    p_critical = sum(p for card, p in probabilities.items() if state.critical(card))
    flags = []
    if len(probabilities) == 1:
        flags.append("known")
    if all(state.playable(card) for card in probabilities):
        flags.append("playable")
    if all(state.trash(card) for card in probabilities):
        flags.append("trash")
    if any(state.critical(card) for card in probabilities):
        flags.append("critical")
    return CardKnowledge(owner, slot, item.uid, facts, probabilities, p_playable, p_trash, tuple(flags), p_critical)


def explain(state: GameState, hidden: list[tuple[int, int, HandCard]], found: Violation | None) -> str:
    """Why no deal fits: the `hidden` cards of the flow's Hall violator `found`, which cannot all be
    given an identity."""
    if found is None:
        return "no deal of the unseen cards fits every hint"
    cards = state.settings.variant.cards
    where = " and ".join(f"{state.name(hidden[index][0])}'s slot {hidden[index][1]}" for index in found.cards)
    if not found.identities:
        return f"no card fits the hints on {where}"
    names = " ".join(str(cards[c]) for c in found.identities)
    return f"{where} can only be {names}, of which {found.copies} cop{'y is' if found.copies == 1 else 'ies are'} unseen"


def check(state: GameState, facts: Mapping[int, Facts]) -> None:
    """Raise `ContradictionError` if no deal of the cards the record does not know fits the hints."""
    hidden = [
        (owner, slot, item) for owner, hand in enumerate(state.hands) for slot, item in enumerate(hand, 1) if item.card is None
    ]
    known_hinted = [
        (owner, slot, item)
        for owner, hand in enumerate(state.hands)
        for slot, item in enumerate(hand, 1)
        if item.card is not None and not facts.get(item.uid, NO_FACTS).allows(item.card)
    ]
    if known_hinted:
        owner, slot, item = known_hinted[0]
        raise ContradictionError(f"{state.name(owner)}'s slot {slot} is {item.card}, which its hints exclude")
    if not hidden:
        return
    copies = _unseen(state, [item.card for hand in state.hands for item in hand if item.card is not None])
    allowed = [allowed_identities(facts.get(item.uid, NO_FACTS), state.settings.variant) for _, _, item in hidden]
    found = violation(allowed, copies)
    if found is not None:
        raise ContradictionError(explain(state, hidden, found))
