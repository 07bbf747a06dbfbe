"""Game records: our JSON log format, replay, and atomic saving.

A record holds the settings, the seat names, the events in order and, when it is
known, the full deck order. Replaying checks every event against the engine.

>>> from deducer.cards import Variant
>>> record = GameRecord.from_deck(Settings(players=2), Variant.BASE.shuffled_deck(1), [])
>>> len(record.events), replay(record)[-1].deck_left
(10, 40)
"""

from __future__ import annotations

import glob
import json
import os
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deducer.actions import (
    DEFAULT_SEATS,
    Discard,
    Draw,
    Event,
    Hint,
    Move,
    Pass,
    Play,
    Terminate,
    resolve_seat,
)
from deducer.cards import Card, format_cards
from deducer.dealer import deal
from deducer.errors import HanabiError, RecordError
from deducer.game import GameState
from deducer.schema import (
    DiscardModel,
    DrawModel,
    EventModel,
    HintModel,
    LogModel,
    MoveModel,
    PassModel,
    PlayModel,
    validate,
)
from deducer.settings import Settings

FORMAT = "hanabi-deducer"
VERSION = 1


@dataclass(frozen=True)
class GameRecord:
    """A game as recorded: settings, seats, events, and the deck when known."""

    settings: Settings
    seats: tuple[str, ...]
    events: tuple[Event, ...]
    deck: tuple[Card, ...] | None = None
    recorder: int | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def new(cls, settings: Settings, seats: Sequence[str] | None = None, recorder: int | None = None) -> GameRecord:
        """An empty record (no card dealt yet)."""
        names = tuple(seats) if seats is not None else DEFAULT_SEATS[: settings.players]
        GameState.new(settings, names)  # validates the seat names
        return cls(settings, names, (), recorder=recorder)

    @classmethod
    def from_deck(
        cls,
        settings: Settings,
        deck: Sequence[Card | None],
        actions: Iterable[Event],
        seats: Sequence[str] | None = None,
    ) -> GameRecord:
        """A game dealt from `deck` (None: a card never identified), then `actions`, drawing from the
        deck; the record keeps the deck when every card is known."""
        names = tuple(seats) if seats is not None else DEFAULT_SEATS[: settings.players]
        state = deal(GameState.new(settings, names), deck)
        events: list[Event] = [Draw(seat, card) for seat, card in zip(settings.deal_seats(), deck)]
        for number, action in enumerate(actions, 1):
            try:
                action = state.complete(action)
                state = state.apply(action)
                events.append(action)
                if state.must_draw is not None:
                    events.append(Draw(state.must_draw, deck[state.drawn]))
                    state = state.apply(events[-1])
            except HanabiError as error:
                raise RecordError(f"action {number}: {error}", number) from None
        known = tuple(card for card in deck if card is not None)
        return cls(settings, names, tuple(events), deck=known if len(known) == len(deck) else None)

    def with_events(self, events: Iterable[Event]) -> GameRecord:
        return replace(self, events=tuple(events))

    def seen_by(self, seat: int) -> GameRecord:
        """The same game as `seat` would have recorded it: their own draws unknown."""
        events = tuple(
            Draw(event.seat, None) if isinstance(event, Draw) and event.seat == seat else event for event in self.events
        )
        return replace(self, events=events, deck=None, recorder=seat)

    @property
    def fully_known(self) -> bool:
        return all(event.card is not None for event in self.events if isinstance(event, Draw))

    # ----- JSON ----------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "settings": self.settings.to_json()}
        data["seats"] = list(self.seats)
        if self.recorder is not None:
            data["recorder"] = self.seats[self.recorder]
        if self.deck is not None:
            data["deck"] = format_cards(self.deck)
        data["events"] = [event_to_json(event, self.seats) for event in self.events]
        if self.meta:
            data["meta"] = dict(self.meta)
        return data

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A record from its JSON form, validated against `deducer.schema.LogModel`."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise RecordError(f"not a {FORMAT} record (its 'format' field should say {FORMAT!r})")
        if data.get("version") != VERSION:
            raise RecordError(f"record version {data.get('version')!r} is not supported (this program reads {VERSION})")
        log = validate(LogModel, data)
        try:
            settings = Settings(**dict(log.settings))
            seats = tuple(log.seats) if log.seats is not None else DEFAULT_SEATS[: settings.players]
            GameState.new(settings, seats)
        except HanabiError as error:
            raise RecordError(f"record header: {error}") from None
        try:
            recorder = None if log.recorder is None else resolve_seat(log.recorder, seats)
        except HanabiError as error:
            raise RecordError(f"recorder: {error}") from None
        events = []
        for index, item in enumerate(log.events):
            try:
                events.append(_event(item, seats))
            except HanabiError as error:
                raise RecordError(f"events[{index}]{error}", index + 1) from None
        return cls(settings, seats, tuple(events), deck=log.deck, recorder=recorder, meta=log.meta)

    def dumps(self) -> str:
        """The record as JSON text, one event a line."""
        data = self.to_json()
        parts = []
        for key, value in data.items():
            if key == "events" and value:
                lines = ",\n".join("    " + json.dumps(event) for event in value)
                parts.append(f'  "events": [\n{lines}\n  ]')
            else:
                parts.append(f"  {json.dumps(key)}: {json.dumps(value)}")
        return "{\n" + ",\n".join(parts) + "\n}\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a crash leaves either the old file or the new one."""
        atomic_write(Path(path), self.dumps())


def atomic_write(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and an atomic rename."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(temporary, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


STALE_AFTER = 600.0  # seconds: a temporary file of `atomic_write` this old was left by a killed writer


def sweep_temporaries(path: Path, older_than: float = STALE_AFTER) -> int:
    """Remove the temporary files `atomic_write` left beside `path` when a writer was killed mid-write
    (those untouched for `older_than` seconds: a live writer's file is seconds old); how many."""
    removed = 0
    cutoff = time.time() - older_than
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        try:
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()
                removed += 1
        except FileNotFoundError:  # swept by another process meanwhile
            continue
    return removed


def event_to_json(event: Event, seats: Sequence[str]) -> dict[str, Any]:
    """One event as a JSON object keyed by its kind, whose value is the acting seat."""
    who = seats[event.seat]
    if isinstance(event, Draw):
        return {"draw": who, "card": None if event.card is None else str(event.card)}
    if isinstance(event, Hint):
        data: dict[str, Any] = {"hint": who, "target": seats[event.target], "clue": event.clue.code}
        if event.touched is not None:
            data["touched"] = list(event.touched)
        if event.partial:
            data["partial"] = True
        return data
    if isinstance(event, Play):
        data = {"play": who, "slot": event.slot, "card": None if event.card is None else str(event.card)}
        if event.announce is not None:
            data["announce"] = event.announce.letter
        return data
    if isinstance(event, Discard):
        return {"discard": who, "slot": event.slot, "card": None if event.card is None else str(event.card)}
    if isinstance(event, Move):
        return {"move": who, "from": event.source, "to": event.dest}
    if isinstance(event, Pass):
        return {"pass": who}
    return {"end": who, "code": event.code}


def event_from_json(data: Any, seats: Sequence[str]) -> Event:
    """One event from its JSON object (as `event_to_json` writes it), validated; `RecordError` names the field."""
    item: EventModel = validate(EventModel, data)  # type: ignore[arg-type]
    return _event(item, seats)


def _event(item: EventModel, seats: Sequence[str]) -> Event:
    def seat(field: str, name: str) -> int:
        try:
            return resolve_seat(name, seats)
        except HanabiError as error:
            raise RecordError(f".{field}: {error}") from None

    if isinstance(item, DrawModel):
        return Draw(seat("draw", item.draw), item.card)
    if isinstance(item, HintModel):
        touched = None if item.touched is None else tuple(item.touched)
        return Hint(seat("hint", item.hint), seat("target", item.target), item.clue, touched, item.partial)
    if isinstance(item, PlayModel):
        return Play(seat("play", item.play), item.slot, item.card, item.announce)
    if isinstance(item, DiscardModel):
        return Discard(seat("discard", item.discard), item.slot, item.card)
    if isinstance(item, MoveModel):
        return Move(seat("move", item.move), item.source, item.dest)
    if isinstance(item, PassModel):
        return Pass(seat("pass", item.pass_))
    return Terminate(seat("end", item.end), item.code)


def replay(record: GameRecord) -> list[GameState]:
    """Every state of the game: the empty table, then one state after each event.

    Raises `RecordError` naming the first event (1-based) that breaks a rule.
    """
    state = GameState.new(record.settings, record.seats)
    if record.deck is not None:
        _check_deck(record)
    states = [state]
    for number, event in enumerate(record.events, 1):
        try:
            if record.deck is not None and isinstance(event, Draw) and state.drawn < len(record.deck):
                expected = record.deck[state.drawn]
                if event.card is not None and event.card != expected:
                    raise RecordError(f"{event.notation(record.seats)}: the deck says card {state.drawn + 1} is {expected}")
            state = state.apply(state.complete(event))
        except HanabiError as error:
            raise RecordError(f"event {number} ({event.notation(record.seats)}): {error}", number) from None
        states.append(state)
    return states


def known_cards(record: GameRecord, states: Sequence[GameState]) -> list[Card | None]:
    """The deck as far as the record knows it: each card drawn, or revealed when it left a hand (None
    for a card never identified, and for the cards never drawn)."""
    cards: list[Card | None] = [event.card for event in record.events if isinstance(event, Draw)]
    for state, event in zip(states, record.events):
        if isinstance(event, (Play, Discard)) and event.card is not None:
            cards[state.hands[event.seat][event.slot - 1].uid] = event.card
    return cards + [None] * states[-1].deck_left


def _check_deck(record: GameRecord) -> None:
    deck = record.deck or ()
    expected = sorted(record.settings.variant.full_deck())
    if sorted(deck) != expected:
        raise RecordError(f"the deck is not a {record.settings.variant.value} deck of {len(expected)} cards")


def turn_states(record: GameRecord) -> list[GameState]:
    """The position after the deal and after each turn action and its draw: index = actions done."""
    positions: list[GameState] = []
    for state in replay(record):
        if state.must_draw is None and (not state.dealing or state.over):
            if positions and positions[-1].turn == state.turn:
                positions[-1] = state
            else:
                positions.append(state)
    return positions


def load_json(path: str | os.PathLike[str]) -> Any:
    """Read a JSON file, turning I/O, encoding and syntax problems into `RecordError`."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    return parse_json(raw, str(path))


def parse_json(raw: bytes | str, name: str = "the input") -> Any:
    """JSON text (UTF-8 if bytes) as Python values, or a `RecordError` saying why it is not JSON."""
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        return json.loads(text)
    except UnicodeDecodeError as error:
        raise RecordError(f"{name} is not UTF-8 text (byte {error.start}): not a game file") from None
    except json.JSONDecodeError as error:
        raise RecordError(f"{name} is not valid JSON: {error}") from None
    except RecursionError:
        raise RecordError(f"{name} nests too deeply to be a game file") from None
