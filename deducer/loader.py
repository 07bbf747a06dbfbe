"""Open any game file we understand: our log, or a hanab.live export."""

from __future__ import annotations

import os

from deducer.errors import RecordError
from deducer.hanablive import import_game, is_hanablive
from deducer.record import FORMAT, GameRecord, load_json


def load_game(path: str | os.PathLike[str]) -> GameRecord:
    """Read `path` as our record format or as hanab.live JSON."""
    data = load_json(path)
    if is_hanablive(data):
        return import_game(data)
    if isinstance(data, dict) and data.get("format") == FORMAT:
        return GameRecord.from_json(data)
    raise RecordError(f"{path}: neither a {FORMAT} record nor a hanab.live export")
