"""What hints said about one card, kept apart from anything inferred.

>>> facts = Facts().learn(Clue.parse("red"), True).learn(Clue.parse("3"), False)
>>> str(facts), facts.allows(Card.parse("r4")), facts.allows(Card.parse("r3"))
('red, not 3', True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from deducer.actions import Clue, Event, Hint
from deducer.cards import Card, Suit
from deducer.game import GameState


@dataclass(frozen=True)
class Facts:
    """Positive and negative colour and rank facts given to a card by hints."""

    suit: Suit | None = None
    rank: int | None = None
    not_suits: frozenset[Suit] = frozenset()
    not_ranks: frozenset[int] = frozenset()
    clashed: bool = False  # touched by two different colours or ranks: no card fits

    def learn(self, clue: Clue, touched: bool) -> Facts:
        """These facts after `clue` touched (or missed) the card."""
        if clue.suit is not None:
            if touched:
                return replace(self, suit=clue.suit, clashed=self.clashed or self.suit not in (None, clue.suit))
            return replace(self, not_suits=self.not_suits | {clue.suit})
        if touched:
            return replace(self, rank=clue.rank, clashed=self.clashed or self.rank not in (None, clue.rank))
        return replace(self, not_ranks=self.not_ranks | {clue.rank or 0})

    def allows(self, card: Card) -> bool:
        """Whether a card of this identity could have received these hints."""
        if self.clashed or (self.suit is not None and card.suit is not self.suit):
            return False
        if self.rank is not None and card.rank != self.rank:
            return False
        return card.suit not in self.not_suits and card.rank not in self.not_ranks

    def __str__(self) -> str:
        parts = [self.suit.word] if self.suit else []
        parts += [str(self.rank)] if self.rank else []
        negatives = sorted(suit.letter for suit in self.not_suits) + sorted(str(rank) for rank in self.not_ranks)
        if negatives:
            parts.append("not " + " ".join(negatives))
        return ("contradictory: " if self.clashed else "") + (", ".join(parts) or "no hint")

    def to_json(self) -> dict[str, Any]:
        return {
            "colour": self.suit.letter if self.suit else None,
            "rank": self.rank,
            "not_colours": sorted(suit.letter for suit in self.not_suits),
            "not_ranks": sorted(self.not_ranks),
        }


def update(facts: Mapping[int, Facts], before: GameState, event: Event) -> dict[int, Facts]:
    """Every card's facts after `event` (hint facts are public: all views share them)."""
    if not isinstance(event, Hint) or event.touched is None:
        return dict(facts)
    result = dict(facts)
    for slot, item in enumerate(before.hands[event.target], 1):
        if event.partial and item.card is None:
            continue  # whether it was touched is not recorded
        result[item.uid] = result.get(item.uid, Facts()).learn(event.clue, slot in event.touched)
    return result
