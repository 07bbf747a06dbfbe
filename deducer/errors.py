"""Typed errors: every refusal of bad input is a `HanabiError`."""

from __future__ import annotations


class HanabiError(ValueError):
    """Base class of every error this library raises for bad input."""


class NotationError(HanabiError):
    """Text that does not parse as a card, clue, action or setting."""


class IllegalActionError(HanabiError):
    """An action or event that the rules do not allow in this position."""


class MissingInformationError(HanabiError):
    """An event that lacks a fact the rules need (a revealed card, touched slots)."""


class ContradictionError(HanabiError):
    """Recorded facts that no deal of the cards can satisfy."""


class RecordError(HanabiError):
    """A game record that cannot be read, or that breaks a rule at some event."""

    def __init__(self, message: str, event: int | None = None) -> None:
        super().__init__(message)
        self.event = event
