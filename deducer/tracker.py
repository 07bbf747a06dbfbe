"""Follow a game event by event: the engine's state, every card's hint facts, and any view.

The tracker owns the record. Each new event is checked by the engine and against
the hints (a contradiction raises `ContradictionError` naming the event and the
cards, and the record stays as it was); with a path, the record is saved
atomically after every change. Undo drops the last event; a correction replaces
an earlier one and replays the game from the corrected log.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from deducer.actions import Draw, Event, Hint, parse_event
from deducer.errors import ContradictionError, HanabiError, RecordError
from deducer.facts import Facts, update
from deducer.game import GameState
from deducer.knowledge import BUDGET, Knowledge, check, knowledge
from deducer.record import GameRecord


class Tracker:
    """A game being followed; `knowledge(seat)` answers for any view at any turn."""

    def __init__(self, record: GameRecord, path: str | os.PathLike[str] | None = None) -> None:
        self._path = Path(path) if path is not None else None
        self._record = record.with_events(())
        self._states = [GameState.new(record.settings, record.seats)]
        self._facts: list[dict[int, Facts]] = [{}]
        self._partial: int | None = None  # events up to and including the first partial hint
        for number, event in enumerate(record.events, 1):
            self._push(event, number)

    @property
    def record(self) -> GameRecord:
        return self._record

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def states(self) -> tuple[GameState, ...]:
        """The empty table, then the state after each event."""
        return tuple(self._states)

    @property
    def facts(self) -> Mapping[int, Facts]:
        return self._facts[-1]

    def _push(self, event: Event, number: int) -> None:
        state = self.state
        deck = self._record.deck
        try:
            event = state.complete(event)
            if deck is not None and isinstance(event, Draw) and event.card is None and state.drawn < len(deck):
                event = Draw(event.seat, deck[state.drawn])
            after = state.apply(event)
            facts = update(self.facts, state, event)
            check(after, facts)
        except ContradictionError as error:
            raise ContradictionError(f"event {number} ({event.notation(state.seats)}): {error}") from None
        except HanabiError as error:
            raise RecordError(f"event {number} ({event.notation(state.seats)}): {error}", number) from None
        self._states.append(after)
        self._facts.append(facts)
        self._record = self._record.with_events((*self._record.events, event))
        if self._partial is None and isinstance(event, Hint) and event.partial:
            self._partial = len(self._record.events)

    def _save(self) -> None:
        if self._path is not None:
            self._record.save(self._path)

    def actor(self) -> int:
        """The seat whose event comes next: the one who must draw, else the one to act."""
        state = self.state
        return state.must_draw if state.must_draw is not None else state.current

    def add(self, event: Event | str) -> GameState:
        """Record one event (an `Event`, or text in the long or short notation)."""
        if isinstance(event, str):
            event = parse_event(event, self._record.seats, self.actor())
        self._push(event, len(self._record.events) + 1)
        self._save()
        return self.state

    def undo(self) -> Event:
        """Drop the last event and return it."""
        if not self._record.events:
            raise RecordError("nothing to undo")
        event = self._record.events[-1]
        self._states.pop()
        self._facts.pop()
        self._record = self._record.with_events(self._record.events[:-1])
        if self._partial is not None and len(self._record.events) < self._partial:
            self._partial = None
        self._save()
        return event

    def correct(self, number: int, event: Event | str) -> None:
        """Replace event `number` (1-based) and replay; on any error nothing changes."""
        events = list(self._record.events)
        if not 1 <= number <= len(events):
            raise RecordError(f"there is no event {number} (the record has {len(events)})")
        if isinstance(event, str):
            event = parse_event(event, self._record.seats, events[number - 1].seat)
        events[number - 1] = event
        fresh = Tracker(self._record.with_events(events))
        self._record, self._states, self._facts, self._partial = fresh._record, fresh._states, fresh._facts, fresh._partial
        self._save()

    def position(self, turn: int | None = None) -> int:
        """Index of the state after `turn` actions and their draws (None: the latest)."""
        if turn is None:
            return len(self._states) - 1
        found = None
        for index, state in enumerate(self._states):
            if state.turn == turn and state.must_draw is None and (not state.dealing or state.over):
                found = index
            elif state.turn > turn:
                break
        if found is None:
            raise RecordError(f"turn {turn} is not in this game (it has {self.state.turn} turns)")
        return found

    def knowledge(self, seat: int | None, turn: int | None = None, budget: int = BUDGET) -> Knowledge:
        """The view of `seat` (None: public) after `turn` actions (None: now)."""
        index = self.position(turn)
        lost = self._partial is not None and index >= self._partial  # a partial hint lost facts this view had
        return knowledge(self._states[index], self._facts[index], seat, self._record.recorder, budget, lost)

    def state_at(self, turn: int | None = None) -> GameState:
        return self._states[self.position(turn)]

    def facts_at(self, turn: int | None = None) -> Mapping[int, Facts]:
        return self._facts[self.position(turn)]
