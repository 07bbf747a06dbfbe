"""The engine fed from a fully known deck: the opening deal, and each action with the draw it calls for.

The solver replays its lines this way (`checked`: the deck is known to be the variant's full deck,
so the engine does not count the copies of each card again); records made from a deck
(`deducer.record.GameRecord.from_deck`), playouts and imports use it too. It needs no record, so
a process that only solves deals does not load the records' schema.

>>> from deducer.cards import Variant
>>> from deducer.settings import Settings
>>> state = deal(GameState.new(Settings(players=2), ("A", "B")), Variant.BASE.shuffled_deck(1))
>>> state.deck_left
40
"""

from __future__ import annotations

from collections.abc import Sequence

from deducer.actions import Draw, Event
from deducer.cards import Card
from deducer.game import GameState, Table


def deal(state: GameState, deck: Sequence[Card | None], checked: bool = False) -> GameState:
    """Deal the opening hands from `deck` (top first); `checked` as for `advance`."""
    if checked and state.dealing and state.must_draw is not None:
        return state.deal_checked(deck)  # in one step
    table = Table(state)
    while table.dealing and table.must_draw is not None:
        _draw(table, table.must_draw, deck[table.drawn], checked)
    return table.state()


def advance(state: GameState, action: Event, deck: Sequence[Card | None], checked: bool = False) -> GameState:
    """Apply `action`, then the draw it calls for, from a fully known `deck`. `checked`: the deck is
    known to be the variant's full deck (as the solver checks it), so the engine does not count the
    copies of each card drawn again."""
    table = Table(state)
    play_on(table, action, deck, checked)
    return table.state()


def play_on(table: Table, action: Event, deck: Sequence[Card | None], checked: bool = False) -> None:
    """`advance`, in place on `table` (a run of actions on one table: the solver's replay of its lines)."""
    following = deck[table.drawn] if table.drawn < len(deck) else None
    if checked:
        table.act_checked(action, following)  # with its draw, in one step
    else:
        table.apply(action)
    if table.must_draw is not None:
        _draw(table, table.must_draw, deck[table.drawn], checked)


def _draw(table: Table, seat: int, card: Card | None, checked: bool) -> None:
    if checked and card is not None:
        table.draw_checked(card)
    else:
        table.apply(Draw(seat, card))
