"""Mutated game files, as a user's hand edits, other tools and cut-short copies produce them,
and the check that every reader either accepts them properly or refuses them with a typed error."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deducer.errors import HanabiError
from deducer.hanablive import export_game, import_game
from deducer.loader import read_game
from deducer.record import GameRecord, parse_json, replay
from deducer.tracker import Tracker

ROOT = Path(__file__).resolve().parent.parent
_ODD_VALUES: list[Any] = [None, True, False, 0, -1, 1, 2, 5, 6, 99, 2**40, 1.5, "", "x", "r3", "Alice", "?"]
_ODD_VALUES += [[], [1], {}, {"a": 1}]


def seed_documents() -> list[tuple[str, Any]]:
    """The bundled samples and the real games beside the repository, parsed."""
    paths = sorted((ROOT / "sample_games").glob("*.json")) + sorted((ROOT.parent / "shared" / "real_games").glob("*.json"))
    return [(path.name, json.loads(path.read_text())) for path in paths]


def _containers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every list and object inside `value`, with its path."""
    found: list[tuple[tuple[Any, ...], Any]] = []
    if isinstance(value, (dict, list)):
        found.append((path, value))
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            found.extend(_containers(item, (*path, key)))
    return found


def _odd(rng: random.Random, old: Any) -> Any:
    """A value of another type or out of range."""
    choice = rng.random()
    if isinstance(old, bool):
        return rng.choice([0, "true", None, 1])
    if isinstance(old, int) and choice < 0.5:
        return rng.choice([old + 1, old - 1, -old - 1, old * 7, old + 50, str(old), float(old)])
    if isinstance(old, str) and choice < 0.5:
        return rng.choice([old.upper(), old[:-1], old + old, old[::-1], " " + old, old.replace("1", "9")])
    return _odd_value(rng)


def _odd_value(rng: random.Random) -> Any:
    return copy.deepcopy(rng.choice(_ODD_VALUES))


def mutate(document: Any, rng: random.Random, steps: int = 1) -> Any:
    """A copy of `document` with `steps` random edits: a key deleted, a value replaced by one of the
    wrong type or out of range, an element duplicated, dropped or moved, a key added."""
    document = copy.deepcopy(document)
    for _ in range(steps):
        places = _containers(document)
        if not places:
            return _odd_value(rng)
        _, container = rng.choice(places)
        if not container:
            if isinstance(container, list):
                container.append(_odd_value(rng))
            else:
                container["extra"] = _odd_value(rng)
            continue
        keys = list(container) if isinstance(container, dict) else list(range(len(container)))
        key = rng.choice(keys)
        move = rng.randrange(6)
        if move == 0:
            del container[key]
        elif move in (1, 2):
            container[key] = _odd(rng, container[key])
        elif move == 3 and isinstance(container, list):
            container.insert(rng.randrange(len(container) + 1), copy.deepcopy(container[key]))
        elif move == 4 and isinstance(container, list) and len(container) > 1:
            other = rng.randrange(len(container))
            container[key], container[other] = container[other], container[key]
        elif isinstance(container, dict):
            container[rng.choice(["id", "notes", "Extra", f"{key}s", "seed"])] = _odd_value(rng)
        else:
            del container[key:]
    return document


def cut_short(document: Any, rng: random.Random) -> str:
    """The document's JSON text cut at a random place (a file copied while being written)."""
    text = json.dumps(document)
    return text[: rng.randrange(len(text))]


@dataclass(frozen=True)
class Outcome:
    """What the readers did with one input: accepted, refused (typed error) or crashed."""

    kind: str
    detail: str = ""


def check(raw: str | bytes) -> Outcome:
    """Read `raw` as a game file, replay it, build the knowledge views and round-trip it; any error
    other than a `HanabiError` is a crash."""
    try:
        record = read_game(parse_json(raw))
        states = replay(record)
        tracker = Tracker(record)
        for seat in (None, *range(len(record.seats))):
            view = tracker.knowledge(seat)
            for card in view.cards:
                if abs(sum(card.probabilities.values()) - 1) > 1e-6:
                    return Outcome("crashed", f"probabilities of {card} sum to {sum(card.probabilities.values())}")
        again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
        if again != record:
            return Outcome("crashed", "our log does not round-trip")
        hanablive = record.meta.get("source") == "hanab.live"
        if hanablive and import_game(export_game(record)).events != record.events:
            return Outcome("crashed", "the hanab.live export does not round-trip")
        return Outcome("accepted", f"{len(states) - 1} events")
    except HanabiError as error:
        return Outcome("refused", str(error))
    except Exception as error:  # the point of the check: anything else is a crash
        return Outcome("crashed", f"{type(error).__name__}: {error}")
