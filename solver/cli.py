"""The full `hanabi` command: the deducer's commands plus the solver's."""

from __future__ import annotations

from deducer.cli import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `hanabi` console script."""
    app()
