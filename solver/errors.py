"""The solver's error: a deal it cannot solve as given."""

from __future__ import annotations

from deducer.errors import HanabiError


class SolverError(HanabiError):
    """The deal cannot be solved as given (not a full deck, or a line failed its replay)."""
