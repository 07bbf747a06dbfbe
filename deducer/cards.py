"""Suits, cards and variants, with the compact notation `r3`, `m5`.

>>> Card.parse("r3")
Card.parse('r3')
>>> str(Card.parse("M5"))
'm5'
>>> Variant.AVALANCHE.max_score
30
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from deducer.errors import NotationError

RANKS: tuple[int, ...] = (1, 2, 3, 4, 5)
COPIES: dict[int, int] = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}


class Suit(Enum):
    """A suit, valued by its letter."""

    WHITE = "w"
    RED = "r"
    BLUE = "b"
    YELLOW = "y"
    GREEN = "g"
    MULTI = "m"

    __hash__ = object.__hash__  # each suit is one object: hashed at C speed (Enum's own hashes the name in Python)

    @property
    def letter(self) -> str:
        return self.value

    @property
    def word(self) -> str:
        """The colour's name as people say it in a hint."""
        return "multicolour" if self is Suit.MULTI else self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter or its name (`r`, `red`, `multicolor`)."""
        key = text.strip().lower()
        for suit in cls:
            if key in (suit.letter, suit.word) or (suit is Suit.MULTI and key == "multicolor"):
                return suit
        raise NotationError(f"unknown colour {text!r}: expected one of w r b y g m or a colour name")


@dataclass(frozen=True)
class Card:
    """One card identity: a suit and a rank from 1 to 5."""

    suit: Suit
    rank: int

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise NotationError(f"rank {self.rank} is not between 1 and 5")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse `r3` (letter then rank, case-insensitive)."""
        key = text.strip().lower()
        if len(key) != 2 or not key[1].isdigit():
            raise NotationError(f"not a card: {text!r} (expected a colour letter and a rank, e.g. 'r3')")
        try:
            return cls(Suit.parse(key[0]), int(key[1]))
        except NotationError as error:
            raise NotationError(f"not a card: {text!r} ({error})") from None

    def __str__(self) -> str:
        return f"{self.suit.letter}{self.rank}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: object) -> bool:  # sort by suit order of the enum, then rank
        if not isinstance(other, Card):
            return NotImplemented
        return (_SUIT_ORDER[self.suit], self.rank) < (_SUIT_ORDER[other.suit], other.rank)


_SUIT_ORDER = {suit: index for index, suit in enumerate(Suit)}


class Variant(Enum):
    """The card set: the base game, or Avalanche of Colours with multicolour."""

    BASE = "base"
    AVALANCHE = "avalanche"

    @cached_property
    def suits(self) -> tuple[Suit, ...]:
        five = (Suit.WHITE, Suit.RED, Suit.BLUE, Suit.YELLOW, Suit.GREEN)
        return five + (Suit.MULTI,) if self is Variant.AVALANCHE else five

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """Every identity of this variant, suit by suit."""
        return tuple(Card(suit, rank) for suit in self.suits for rank in RANKS)

    def copies(self, card: Card) -> int:
        """How many copies of `card` the deck holds (0 if not in this variant)."""
        if card.suit not in self.suits:
            return 0
        return 1 if card.suit is Suit.MULTI else COPIES[card.rank]

    @cached_property
    def deck_size(self) -> int:
        return sum(self.copies(card) for card in self.cards)

    @property
    def max_score(self) -> int:
        return 5 * len(self.suits)

    def full_deck(self) -> list[Card]:
        """Every physical card of the variant, in a fixed order."""
        return [card for card in self.cards for _ in range(self.copies(card))]

    def shuffled_deck(self, seed: int) -> list[Card]:
        """A deck shuffled reproducibly from `seed` (top card first)."""
        deck = self.full_deck()
        random.Random(seed).shuffle(deck)
        return deck


def parse_cards(text: str) -> list[Card]:
    """Parse a space- or comma-separated list of cards, top first."""
    return [Card.parse(token) for token in text.replace(",", " ").split()]


def format_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    """The inverse of `parse_cards`."""
    return " ".join(str(card) for card in cards)
