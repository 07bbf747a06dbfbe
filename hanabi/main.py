"""The full `hanabi` command: every front-end module registers its commands on one Typer app."""

from __future__ import annotations

import sys

import hanabi.advise
import hanabi.analyze
import hanabi.record
import hanabi.serve
import hanabi.solve  # noqa: F401  (each module registers its commands)
from hanabi.cli import app, report

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `hanabi` console script: no traceback ever reaches the user."""
    try:
        app()
    except (Exception, KeyboardInterrupt) as error:
        sys.exit(report(error))
