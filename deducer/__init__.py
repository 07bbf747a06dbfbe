"""Hanabi game model: cards, rules engine, records and the knowledge tracker."""

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
from deducer.record import GameRecord, replay
from deducer.rules import End, rating
from deducer.settings import DealOrder, Ending, Settings, Stuck

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
