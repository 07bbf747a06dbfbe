"""Games on disk for the companion: one log file per game, a tracker per open game, one lock each.

Every change is saved atomically by the tracker before it is acknowledged. A request carries the
version (event count) the page last saw; a page that is behind (another tab recorded meanwhile) is
refused with `Stale` rather than writing over events it has not seen. A file changed on disk by
anything else is read again before the next request uses it.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from deducer.actions import Draw, Event
from deducer.errors import HanabiError, RecordError
from deducer.loader import load_game
from deducer.record import GameRecord, sweep_temporaries
from deducer.settings import Settings
from deducer.tracker import Tracker

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")


class UnknownGame(HanabiError):
    """No game with that id in the games folder."""


class Stale(HanabiError):
    """The page is behind the game (another tab or device recorded events)."""


def default_folder() -> Path:
    """The games folder in the user's data directory."""
    return Path(platformdirs.user_data_dir("hanabi-deducer")) / "games"


@dataclass
class Open:
    """A game in memory: its tracker and the file's modification stamp when last read or written."""

    tracker: Tracker
    stamp: int


def is_auto(event: Event, recorder: int | None) -> bool:
    """An event the companion records by itself: the recorder drawing a card they cannot see."""
    return isinstance(event, Draw) and recorder is not None and event.seat == recorder and event.card is None


class GameStore:
    """The games of one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._open: dict[str, Open] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def path(self, game: str) -> Path:
        if not GAME_ID.match(game):
            raise UnknownGame(f"no game {game!r}: a game id is lower-case letters, digits and dashes")
        path = self.folder / f"{game}.json"
        if not path.is_file():
            raise UnknownGame(f"no game {game!r} in {self.folder}")
        return path

    def games(self) -> list[dict[str, Any]]:
        """Every game of the folder, the most recently changed first (unreadable files say why)."""
        found = []
        for path in sorted(self.folder.glob("*.json"), key=lambda item: item.stat().st_mtime, reverse=True):
            if not GAME_ID.match(path.stem):
                continue
            modified = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
            entry: dict[str, Any] = {"id": path.stem, "modified": modified}
            try:
                with self.session(path.stem) as tracker:
                    state = tracker.state
                    entry |= {"seats": list(tracker.record.seats), "events": len(tracker.record.events), "turn": state.turn}
                    entry |= {"score": state.score, "over": state.over, "variant": tracker.record.settings.variant.value}
            except HanabiError as error:
                entry["error"] = str(error)
            found.append(entry)
        return found

    def create(self, settings: Settings, seats: tuple[str, ...], recorder: int | None) -> str:
        """A new game file; returns its id."""
        record = GameRecord.new(settings, seats, recorder)
        stem = time.strftime("%Y-%m-%d-%H%M") + "-" + "-".join(re.sub(r"[^a-z0-9]+", "", name.lower()) or "x" for name in seats)
        stem = stem[:70]
        game, number = stem, 1
        with self._guard:
            while (self.folder / f"{game}.json").exists():
                number += 1
                game = f"{stem}-{number}"
            tracker = Tracker(record, self.folder / f"{game}.json")
            fill_auto(tracker)
            tracker.record.save(self.folder / f"{game}.json")
        return game

    @contextmanager
    def session(self, game: str, version: int | None = None) -> Iterator[Tracker]:
        """The game's tracker, locked for this request; `Stale` if `version` is not the current event count."""
        path = self.path(game)
        with self._guard:
            lock = self._locks.setdefault(game, threading.Lock())
        with lock:
            stamp = path.stat().st_mtime_ns
            held = self._open.get(game)
            if held is None or held.stamp != stamp:
                tracker = Tracker(load_game(path), path)
                if held is None:
                    sweep_temporaries(path)
                fill_auto(tracker)  # a crash may have come between an event and the recorder's unseen draw
                held = Open(tracker, path.stat().st_mtime_ns)
                self._open[game] = held
            if version is not None and version != len(held.tracker.record.events):
                raise Stale(
                    f"this page showed {version} events but the game has {len(held.tracker.record.events)}: "
                    "it was changed elsewhere (another tab?); the page has been brought up to date"
                )
            try:
                yield held.tracker
            finally:
                held.stamp = path.stat().st_mtime_ns if path.exists() else 0


def fill_auto(tracker: Tracker) -> None:
    """Record the draws of the recorder's own unseen cards, which need no input."""
    recorder = tracker.record.recorder
    while recorder is not None and not tracker.state.over and tracker.state.must_draw == recorder:
        tracker.add(Draw(recorder, None))


def undo(tracker: Tracker) -> list[Event]:
    """Undo the last event entered (with the automatic draws after it); returns what was removed."""
    recorder = tracker.record.recorder
    entered = [index for index, event in enumerate(tracker.record.events) if not is_auto(event, recorder)]
    if not entered:
        raise RecordError("nothing to undo")
    removed = [tracker.undo() for _ in range(len(tracker.record.events) - entered[-1])]
    fill_auto(tracker)
    return removed
