"""Solve many deals: JSON lines in, JSON lines out (input order), on every core."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from deducer.cards import Card
from deducer.errors import HanabiError, NotationError
from deducer.record import parse_json
from deducer.schema import DealLineModel, validate
from deducer.settings import Settings
from solver import children
from solver.solve import solve


@dataclass(frozen=True)
class Job:
    """One deal to solve."""

    settings: Settings
    deck: tuple[Card, ...]
    time_limit: float | None = None
    label: str = ""
    perfect: bool = False  # only whether a perfect score is reachable (see `solver.solve.solve`)


def job_from_json(data: Any, time_limit: float | None = None) -> Job:
    """A job from `{"deck": "r1 g3 ...", "players": 3, "rules": "crowning", ...}` (missing keys: defaults),
    validated against `deducer.schema.DealLineModel`."""
    line = validate(DealLineModel, data)
    settings = Settings(
        players=line.players,
        variant=line.variant,
        ending=line.rules,
        deal=line.deal,
        choreography=line.choreography,
        empty_hints=line.empty_hints,
        stuck=line.stuck,
    )
    if line.deck is not None:
        deck = line.deck
    elif line.seed is not None:
        deck = tuple(settings.variant.shuffled_deck(line.seed))
    else:
        raise NotationError("a deal needs a 'deck' (or a 'seed')")
    return Job(settings, deck, line.time_limit if line.time_limit is not None else time_limit, perfect=line.perfect)


def run_job(job: Job) -> dict[str, Any]:
    """Solve one job; a bad deal gives `{"error": ...}` instead of stopping the batch."""
    try:
        return solve(job.settings, job.deck, job.time_limit, perfect=job.perfect).to_json()
    except HanabiError as error:
        return {"error": f"{job.label}: {error}" if job.label else str(error)}


def read_jobs(lines: Iterable[str], time_limit: float | None = None) -> list[Job | str]:
    """Parse every non-blank line; a line that cannot be read becomes its error message."""
    jobs: list[Job | str] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            jobs.append(replace(job_from_json(parse_json(line, "it"), time_limit), label=f"line {number}"))
        except HanabiError as error:
            jobs.append(f"line {number}: {error}")
    return jobs


def _run(item: Job | str) -> dict[str, Any]:
    return {"error": item} if isinstance(item, str) else run_job(item)


def run_all(
    items: list[Job | str], jobs: int | None = None, progress: Callable[[], None] | None = None
) -> Iterator[dict[str, Any]]:
    """Results in input order, solved on `jobs` processes (default: every core)."""
    workers = jobs or os.cpu_count() or 1
    if workers == 1 or len(items) <= 1:
        for item in items:
            yield _run(item)
            if progress:
                progress()
        return
    # (A worker dies with this process, however it dies: `solver.children`.)
    with ProcessPoolExecutor(max_workers=workers, initializer=children.die_with, initargs=(os.getpid(),)) as pool:
        for result in pool.map(_run, items, chunksize=max(1, min(16, len(items) // (4 * workers)))):
            yield result
            if progress:
                progress()


def wilson(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if total == 0:
        return (0.0, 1.0)
    share = successes / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == total else min(1.0, centre + half)
    return (low, high)
