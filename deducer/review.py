"""Each action judged from the acting seat's own view at that moment: knowledge alone, no solver.

A play that misfired is a mistake when its holder could know the card was
unplayable, or when its chance of being playable was under one half; at one
half or more it was a good gamble that failed. A discard is a mistake when the
card was known or likely (more than one half) critical, or known or likely
playable, or when the hand held a card known to be trash; a discarded card
that was critical or playable against the odds is noted as unlucky. A hint is
flagged when it changed nothing the receiver knew (every candidate and
probability of their hand the same before and after): a mistake below eight
clue tokens before the final round, a stall otherwise.

Views are those of `deducer.knowledge`: exact, or marked approximate when the
record does not hold every card the seat could see.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from deducer.actions import Discard, Event, Hint, Play
from deducer.cards import Card
from deducer.game import GameState
from deducer.knowledge import CardKnowledge, Knowledge
from deducer.settings import MAX_CLUES
from deducer.tracker import Tracker

HALF = 0.5


class Severity(Enum):
    """How a flag weighs: a mistake given what the seat knew, a risk that went wrong, or a plain note."""

    MISTAKE = "mistake"
    UNLUCKY = "unlucky"
    NOTE = "note"


@dataclass(frozen=True)
class Flag:
    """One judgement of one action, with its reason in words and the chances behind it."""

    kind: str  # misplay, gamble, lucky-play, critical-discard, playable-discard, trash-kept, empty-hint, stall
    severity: Severity
    reason: str
    chances: Mapping[str, float] = field(default_factory=dict)
    approximate: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "severity": self.severity.value, "reason": self.reason}
        data.update({key: round(value, 4) for key, value in self.chances.items()})
        if self.approximate:
            data["approximate"] = True
        return data


@dataclass(frozen=True)
class TurnAction:
    """A turn's action with the positions around it: `number` actions have been taken after it."""

    number: int
    event: Event
    before: GameState
    after: GameState


def turn_actions(tracker: Tracker) -> Iterator[TurnAction]:
    """Every turn action of the tracked game (hints, plays, discards, passes), in order."""
    states = tracker.states
    for index, event in enumerate(tracker.record.events):
        before, after = states[index], states[index + 1]
        if after.turn == before.turn + 1:
            yield TurnAction(after.turn, event, before, tracker.state_at(after.turn))


class Reviewer:
    """Judges the actions of one tracked game, remembering each view it computes."""

    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self._views: dict[tuple[int, int], Knowledge] = {}

    def view(self, seat: int, turn: int) -> Knowledge:
        """`seat`'s view after `turn` actions."""
        key = (seat, turn)
        if key not in self._views:
            self._views[key] = self.tracker.knowledge(seat, turn)
        return self._views[key]

    def judge(self, action: TurnAction) -> list[Flag]:
        """The flags of one action, from its actor's view just before it."""
        event = action.event
        if isinstance(event, Hint):
            return self._hint(action, event)
        if isinstance(event, (Play, Discard)):
            view = self.view(event.seat, action.number - 1)
            uid = action.before.hands[event.seat][event.slot - 1].uid
            card = next(card for card in view.cards if card.uid == uid)
            revealed = event.card
            if revealed is None:  # pragma: no cover - the tracker completes every play and discard
                return []
            if isinstance(event, Play):
                return self._play(action, event, view, card, revealed)
            return self._discard(action, event, view, card, revealed)
        return []

    def _play(self, action: TurnAction, event: Play, view: Knowledge, card: CardKnowledge, revealed: Card) -> list[Flag]:
        before, after = action.before, action.after
        who = before.name(event.seat)
        chance = sum(
            p
            for candidate, p in card.probabilities.items()
            if before.playable(candidate) and (event.announce is None or candidate.suit is event.announce)
        )
        chances = {"p_playable": chance}
        if after.strikes > before.strikes:
            end = " (the third strike ended the game)" if after.strikes >= 3 else ""
            if chance == 0:
                reason = f"{who} misplayed {revealed}{end}: from {who}'s view it could not be playable"
                return [Flag("misplay", Severity.MISTAKE, reason, chances, view.approximate)]
            if chance < HALF:
                reason = f"{who} misplayed {revealed}{end}: a gamble at {chance:.0%} to be playable"
                return [Flag("misplay", Severity.MISTAKE, reason, chances, view.approximate)]
            reason = f"{who} misplayed {revealed}{end}, but it was a good gamble: {chance:.0%} to be playable"
            return [Flag("gamble", Severity.UNLUCKY, reason, chances, view.approximate)]
        if chance < HALF:
            reason = f"{who} played {revealed} with only {chance:.0%} chance of it being playable: lucky"
            return [Flag("lucky-play", Severity.NOTE, reason, chances, view.approximate)]
        return []

    def _discard(self, action: TurnAction, event: Discard, view: Knowledge, card: CardKnowledge, revealed: Card) -> list[Flag]:
        before = action.before
        who = before.name(event.seat)
        p_critical = card.p_critical
        p_playable = card.p_playable
        chances = {"p_critical": p_critical, "p_playable": p_playable, "p_trash": card.p_trash}
        flags = []
        was = f"it was {revealed}" + (", the last copy" if before.critical(revealed) else "")
        # Likely critical (or playable) from the actor's view: a mistake; so in fact, but unlikely: unlucky.
        for what, p, truly, fact in (
            ("critical", p_critical, before.critical(revealed), "the last copy"),
            ("playable", p_playable, before.playable(revealed), "which was playable"),
        ):
            if p > HALF:
                known = "known" if p == 1 else f"likely ({p:.0%})"
                reason = f"{who} discarded a card {known} to be {what}: {was}"
                flags.append(Flag(f"{what}-discard", Severity.MISTAKE, reason, chances))
            elif truly:
                reason = f"{who} discarded {revealed}, {fact}, with only {p:.0%} chance of it being {what} from {who}'s view"
                flags.append(Flag(f"{what}-discard", Severity.UNLUCKY, reason, chances))
        if card.p_trash < 1:
            trash = [other.slot for other in view.cards if other.seat == event.seat and other.p_trash == 1]
            if trash:
                slots = ("slot " if len(trash) == 1 else "slots ") + ", ".join(str(slot) for slot in trash)
                verb = "was" if len(trash) == 1 else "were"
                reason = f"{who} discarded slot {event.slot} ({revealed}) while {slots} {verb} known to be trash"
                flags.append(Flag("trash-kept", Severity.MISTAKE, reason, chances))
        return [replace(flag, approximate=view.approximate) for flag in flags]

    def _hint(self, action: TurnAction, event: Hint) -> list[Flag]:
        before_view = self.view(event.target, action.number - 1)
        after_view = self.view(event.target, action.number)
        if _hand_knowledge(before_view, event.target) != _hand_knowledge(after_view, event.target):
            return []
        before = action.before
        who, whom = before.name(event.seat), before.name(event.target)
        approximate = before_view.approximate or after_view.approximate
        if before.clues >= MAX_CLUES or before.final_turns is not None:
            why = "at 8 clue tokens" if before.clues >= MAX_CLUES else "in the final round"
            reason = f"{who}'s hint ({event.clue}) told {whom} nothing new: a stall {why}"
            return [Flag("stall", Severity.NOTE, reason, approximate=approximate)]
        reason = f"{who}'s hint ({event.clue}) told {whom} nothing new: a clue token spent for nothing"
        return [Flag("empty-hint", Severity.MISTAKE, reason, approximate=approximate)]


def _hand_knowledge(view: Knowledge, seat: int) -> dict[int, dict[Card, float]]:
    """Each card of `seat`'s hand: its candidates and their probabilities, rounded against float noise."""
    return {
        card.uid: {candidate: round(p, 9) for candidate, p in card.probabilities.items()}
        for card in view.cards
        if card.seat == seat
    }
