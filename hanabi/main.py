"""The full `hanabi` command: every front-end module registers its commands on one Typer app."""

from __future__ import annotations

import sys

import hanabi.advise
import hanabi.analyze
import hanabi.record
import hanabi.serve
import hanabi.solve  # noqa: F401  (each module registers its commands)
from hanabi.cli import app, errors
from hanabi.crash import one_line

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `hanabi` console script: no traceback ever reaches the user."""
    try:
        app()
    except KeyboardInterrupt:
        errors.print("interrupted")
        sys.exit(130)
    except Exception as error:
        errors.print(f"[bold red]error:[/] {one_line(error)}", highlight=False, soft_wrap=True)
        sys.exit(70)
