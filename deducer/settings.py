"""Game settings: one frozen value holding every option of RULES.md."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import Enum
from functools import cache
from typing import Any

from deducer.cards import Variant
from deducer.errors import NotationError

MAX_CLUES = 8
MAX_STRIKES = 3


class Ending(Enum):
    """Standard rules (a final round after the last draw) or Crowning Piece."""

    STANDARD = "standard"
    CROWNING = "crowning"


class DealOrder(Enum):
    """Round-robin (one card at a time, as at a table) or per-seat (as hanab.live)."""

    ROUND_ROBIN = "round-robin"
    PER_SEAT = "per-seat"


class Stuck(Enum):
    """Crowning Piece: what happens to a player with no card and no legal hint."""

    LOSE = "lose"
    PASS = "pass"


@dataclass(frozen=True)
class Settings:
    """Every rule option; the defaults are those of RULES.md."""

    players: int = 3
    variant: Variant = Variant.BASE
    ending: Ending = Ending.STANDARD
    empty_hints: bool = False
    choreography: bool = False
    deal: DealOrder = DealOrder.ROUND_ROBIN
    stuck: Stuck = Stuck.LOSE

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 5:
            raise NotationError(f"{self.players} players: Hanabi is played by 2 to 5 players")

    @property
    def hand_size(self) -> int:
        """5 cards with 2 or 3 players, 4 with 4 or 5."""
        return 5 if self.players <= 3 else 4

    def deal_seats(self) -> tuple[int, ...]:
        """The seat that receives each card of the initial deal, in order."""
        return _deal_seats(self.players, self.hand_size, self.deal)

    def with_(self, **changes: Any) -> Settings:
        """A copy with some fields changed."""
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {key: value.value if isinstance(value, Enum) else value for key, value in asdict(self).items()}


@cache
def _deal_seats(players: int, hand_size: int, deal: DealOrder) -> tuple[int, ...]:
    """`Settings.deal_seats`, built once for each table (every draw of the deal asks for it)."""
    if deal is DealOrder.PER_SEAT:
        return tuple(seat for seat in range(players) for _ in range(hand_size))
    return tuple(seat for _ in range(hand_size) for seat in range(players))
