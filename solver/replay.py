"""The solver's line of moves as the engine's actions, replayed through the rules engine: every
line the solver answers with is checked there (`to_actions`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from deducer.actions import Action, Clue, Discard, Hint, Pass, Play
from deducer.cards import Card, Suit
from deducer.dealer import deal, play_on
from deducer.game import GameState, HandCard, Table
from deducer.settings import Settings
from solver.errors import SolverError
from solver.model import ANNOUNCE, DISCARD, HINT, MISPLAY, PASS, TRASH, Move


def to_actions(
    settings: Settings, deck: Sequence[Card], line: list[Move], state: GameState | None = None, checked: bool = False
) -> tuple[list[Action], GameState]:
    """The model's moves as engine actions (slots, hint targets and clues chosen to match), replayed
    through the engine from `state` (default: the opening deal), which refuses any illegal one; also
    the engine's final state. `checked`: `deck` is known to be the variant's full deck (see `deducer.dealer.advance`)."""
    table = Table(deal(GameState.new(settings), deck, checked) if state is None else state)  # the line, played in place
    suits = settings.variant.suits
    actions: list[Action] = []
    for move in line:
        kind, card = move
        seat = table.current
        hand = table.hands[seat]
        action: Action
        if kind == HINT:
            target = _hinted(table.hands, seat)
            first = table.hands[target][0].card if table.hands[target] else None
            rank = first.rank if first else 1
            action = _hint(seat, target, rank)  # the engine finds the slots it touches in the known hand
        elif kind == PASS:
            action = Pass(seat)
        else:
            slot, real = _slot(table, hand, card, suits)
            if kind == DISCARD:
                action = _discard(seat, slot, real)
            elif kind == ANNOUNCE:
                action = _play(seat, slot, real, real.suit)
            elif kind == MISPLAY and table.playable(real):
                wrong = next(suit for suit in suits if suit is not real.suit)
                action = _play(seat, slot, real, wrong)
            else:
                action = _play(seat, slot, real)
        actions.append(action)
        play_on(table, action, deck, checked)
    return actions, table.state()


# The actions of the replayed lines: frozen values, each made once (made anew, they took about 9% of the replay).
@cache
def _hint(seat: int, target: int, rank: int) -> Hint:
    return Hint(seat, target, Clue(rank=rank))


_play, _discard = cache(Play), cache(Discard)


def _hinted(hands: list[tuple[HandCard, ...]], seat: int) -> int:
    """The seat a hint of the line goes to: the next one after `seat` holding a card (the next one if none does)."""
    players = len(hands)
    for step in range(1, players):
        target = (seat + step) % players
        if hands[target]:
            return target
    return (seat + 1) % players


def _slot(table: Table, hand: tuple[HandCard, ...], card: int, suits: tuple[Suit, ...]) -> tuple[int, Card]:
    """The slot (from 1) of the first card in `hand` of the model's `card` id, or of the first trash card for
    TRASH, and the card there."""
    if card == TRASH:
        for slot, item in enumerate(hand, 1):
            known = item.card
            if known is not None and table.trash(known):
                return slot, known
        raise SolverError(f"internal error: the line lets go of a trash card at {table.where()}, and none is in hand")
    suit, rank = suits[card // 5], card % 5 + 1  # the card's id, as `card_id` gives it
    for slot, item in enumerate(hand, 1):
        known = item.card
        if known is not None and known.rank == rank and known.suit is suit:
            return slot, known
    raise SolverError(f"internal error: the line moves {suit.letter}{rank} at {table.where()}, which is not in hand")
