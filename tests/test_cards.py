"""Cards, suits and variants (RULES.md, Material)."""

from __future__ import annotations

from collections import Counter

import pytest

from deducer import Card, NotationError, Suit, Variant
from deducer.cards import format_cards, parse_cards


@pytest.mark.parametrize("variant", list(Variant))
def test_every_card_round_trips(variant: Variant) -> None:
    for card in variant.cards:
        assert Card.parse(str(card)) == card
        assert eval(repr(card)) == card


@pytest.mark.parametrize("text", ["x9", "r6", "r0", "r", "", "rr", "3r", "red3"])
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(NotationError, match="not a card"):
        Card.parse(text)


def test_copies_per_rank() -> None:
    # RULES.md Material: ranks 1,1,1,2,2,3,3,4,4,5 per suit; multicolour one of each rank.
    counts = Counter(card.rank for card in Variant.BASE.full_deck() if card.suit is Suit.RED)
    assert counts == {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}
    assert Variant.BASE.deck_size == 50
    assert Variant.AVALANCHE.deck_size == 55
    assert [Variant.AVALANCHE.copies(Card(Suit.MULTI, rank)) for rank in range(1, 6)] == [1] * 5
    assert Variant.BASE.copies(Card.parse("m1")) == 0
    assert (Variant.BASE.max_score, Variant.AVALANCHE.max_score) == (25, 30)


def test_suit_names() -> None:
    assert Suit.parse("Multicolor") is Suit.MULTI and Suit.parse("W") is Suit.WHITE
    with pytest.raises(NotationError):
        Suit.parse("purple")


def test_card_lists_and_shuffles() -> None:
    deck = Variant.AVALANCHE.shuffled_deck(5)
    assert parse_cards(format_cards(deck)) == deck
    assert deck == Variant.AVALANCHE.shuffled_deck(5) != Variant.AVALANCHE.shuffled_deck(6)
    assert sorted(deck) == sorted(Variant.AVALANCHE.full_deck())
