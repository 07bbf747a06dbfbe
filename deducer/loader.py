"""Open any game file we understand: our log, or a hanab.live export."""

from __future__ import annotations

import os
from typing import Any

from deducer.errors import RecordError
from deducer.hanablive import import_game, is_hanablive
from deducer.record import FORMAT, GameRecord, load_json


def load_game(path: str | os.PathLike[str]) -> GameRecord:
    """Read `path` as our record format or as hanab.live JSON."""
    data = load_json(path)
    try:
        return read_game(data)
    except RecordError as error:
        raise RecordError(f"{path}: {error}", error.event) from None


def read_game(data: Any) -> GameRecord:
    """A game from parsed JSON: our record format or a hanab.live export."""
    if is_hanablive(data):
        return import_game(data)
    if isinstance(data, dict) and "format" in data:
        return GameRecord.from_json(data)
    raise RecordError(f"neither a {FORMAT} record (no 'format' key) nor a hanab.live export (keys players, deck, actions)")
