"""Small rule facts shared by the engine, the tracker and the solver."""

from __future__ import annotations

from enum import Enum

from deducer.cards import Variant


class End(Enum):
    """How a game ended."""

    STRIKES = "strikes"
    COMPLETE = "complete"
    FINAL_ROUND = "final-round"
    LOST_CARD = "lost-card"
    STUCK = "stuck"
    TERMINATED = "terminated"


_RATINGS = ((5, "horrible"), (10, "mediocre"), (15, "honourable"), (20, "excellent"), (24, "amazing"))


def rating(score: int, variant: Variant = Variant.BASE) -> str:
    """The rulebook's words for a standard-rules score.

    >>> rating(23), rating(25), rating(27, Variant.AVALANCHE), rating(30, Variant.AVALANCHE)
    ('amazing', 'legendary', 'legendary', 'divine')
    """
    for bound, word in _RATINGS:
        if score <= bound:
            return word
    if variant is Variant.AVALANCHE and score >= 30:
        return "divine"
    return "legendary"
