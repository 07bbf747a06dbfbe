"""Hanabi game model: cards, rules engine, records and the knowledge tracker.

The records (`GameRecord`, `replay`) are imported when first asked for: their schema needs pydantic,
which a process that only plays or solves deals (the solver's helper process, a program calling
`solver.solve.solve`) need not load (`import deducer.cards`: 0.23 -> 0.05 s of imports)."""

from typing import TYPE_CHECKING, Any

from deducer.actions import Clue, Discard, Draw, Event, Hint, Move, Pass, Play, Terminate, parse_event
from deducer.cards import Card, Suit, Variant
from deducer.errors import (
    ContradictionError,
    HanabiError,
    IllegalActionError,
    MissingInformationError,
    NotationError,
    RecordError,
)
from deducer.game import GameState, HandCard, Table
from deducer.rules import End, rating
from deducer.settings import DealOrder, Ending, Settings, Stuck

if TYPE_CHECKING:
    from deducer.record import GameRecord, replay

__all__ = [
    "Card",
    "Clue",
    "ContradictionError",
    "DealOrder",
    "Discard",
    "Draw",
    "End",
    "Ending",
    "Event",
    "GameRecord",
    "GameState",
    "HanabiError",
    "HandCard",
    "Hint",
    "IllegalActionError",
    "MissingInformationError",
    "Move",
    "NotationError",
    "Pass",
    "Play",
    "RecordError",
    "Settings",
    "Stuck",
    "Suit",
    "Table",
    "Terminate",
    "Variant",
    "parse_event",
    "rating",
    "replay",
]


def __getattr__(name: str) -> Any:
    """`GameRecord` and `replay`, imported on first use (see the module)."""
    if name in ("GameRecord", "replay"):
        from deducer import record

        return getattr(record, name)
    raise AttributeError(f"module 'deducer' has no attribute {name!r}")
