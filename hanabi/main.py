"""The full `hanabi` command: every front-end module registers its commands on one Typer app."""

from __future__ import annotations

import hanabi.analyze
import hanabi.record
import hanabi.solve  # noqa: F401  (each module registers its commands)
from hanabi.cli import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `hanabi` console script."""
    app()
