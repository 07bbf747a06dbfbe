"""Post-game analysis: where the perfect game slipped away, and which moves were mistakes.

Two parts. With the whole deck known, the best score reachable with full
information after every action (standard rules: the exact best score; Crowning
Piece: the maximum or 0). Best scores never rise from one position to the next
(the real action is one of the lines open to the earlier position), so they are
found by bisection: solve both ends of a stretch of turns, and when the two
agree every turn between them has that score; otherwise solve the middle, with
the earlier score as a ceiling. A game of 60 actions takes a dozen solver calls,
not 60. Each drop is tied to the action that caused it. Second, every action
judged from its actor's view (`deducer.review`), which needs no deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate, pairwise
from typing import Any

from deducer.actions import Action, Discard, Event, Hint, Pass, Play
from deducer.advice import Option, advise
from deducer.cards import Card
from deducer.complete import known_deck
from deducer.game import GameState
from deducer.record import GameRecord
from deducer.review import Flag, Reviewer, Severity, TurnAction, turn_actions
from deducer.rules import rating
from deducer.settings import Ending
from deducer.tracker import Tracker
from solver.solve import Solution, solve_from

TIME_LIMIT = 20.0  # seconds for each position solved


@dataclass(frozen=True)
class TurnReport:
    """One action: what it was, the position after it, what it cost, and how it is judged."""

    number: int  # the action's number: the position after it is "after turn `number`"
    seat: int
    event: Event
    before: GameState
    after: GameState
    best_before: int | None
    best_after: int | None
    flags: tuple[Flag, ...]
    advice: Option | None = None  # for a mistake: the advisor's first choice, from the actor's view, if another

    @property
    def drop(self) -> int:
        """Points of the best reachable score this action gave up (0 when unknown)."""
        if self.best_before is None or self.best_after is None:
            return 0
        return self.best_before - self.best_after

    @property
    def kind(self) -> str:
        return {Hint: "hint", Play: "play", Discard: "discard", Pass: "pass"}.get(type(self.event), "other")

    def words(self) -> str:
        """The action as a sentence: `Cathy discards y5, the last y5`."""
        event, before = self.event, self.before
        who = before.name(self.seat)
        if isinstance(event, Hint):
            return f"{who} hints {before.name(event.target)} {event.clue}"
        if isinstance(event, (Play, Discard)) and event.card is not None:
            card = event.card
            misplay = isinstance(event, Play) and self.after.strikes > before.strikes
            verb = "misplays" if misplay else "plays" if isinstance(event, Play) else "discards"
            last = f", the last {card}" if (misplay or isinstance(event, Discard)) and before.critical(card) else ""
            return f"{who} {verb} {card}{last}"
        return event.notation(before.seats)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "turn": self.number,
            "seat": self.before.name(self.seat),
            "action": self.event.notation(self.before.seats),
            "kind": self.kind,
            "words": self.words(),
            "clues": self.after.clues,
            "strikes": self.after.strikes,
            "score": sum(self.after.fireworks),
            "best_before": self.best_before,
            "best": self.best_after,
            "flags": [flag.to_json() for flag in self.flags],
        }
        if isinstance(self.event, (Play, Discard)):
            data["card"] = str(self.event.card)
        return data


@dataclass(frozen=True)
class Analysis:
    """The whole analysis of one game."""

    record: GameRecord
    final: GameState
    turns: tuple[TurnReport, ...]
    best: tuple[int | None, ...]  # index N: the best score reachable after N actions (None: deck unknown)
    undecided: tuple[int, ...]  # positions whose best score the time limit left open (`best`: a lower bound)
    unsettled: tuple[int, ...]  # those of them where a perfect score was not ruled out either
    continuation: tuple[Action, ...]  # a winning line from the last winnable position (empty if won or none)
    deck_note: str | None  # why the solver part was skipped
    solver_calls: int  # positions solved (bisection, and the continuation)
    reviewer: Reviewer = field(compare=False, repr=False)  # every seat's view at every turn, remembered

    @property
    def max_score(self) -> int:
        return self.record.settings.variant.max_score

    @property
    def deck_known(self) -> bool:
        return bool(self.best) and self.best[0] is not None

    @property
    def winnable_from_start(self) -> bool | None:
        """None when the deck is unknown, or when the time limit left it open."""
        if not self.deck_known:
            return None
        if self.max_score in self.best:  # a win from any position is a win from the start
            return True
        return None if 0 in self.unsettled else False

    @property
    def last_winnable_turn(self) -> int | None:
        """The largest N whose position still admits the maximum (None when unknown or never: unknown
        also when a later position was left open by the time limit)."""
        if not self.deck_known:
            return None
        winnable = [number for number, best in enumerate(self.best) if best == self.max_score]
        if any(number > (winnable[-1] if winnable else -1) for number in self.unsettled):
            return None
        return winnable[-1] if winnable else None

    @property
    def drops(self) -> list[TurnReport]:
        return [turn for turn in self.turns if turn.drop > 0]

    def mistakes(self) -> list[TurnReport]:
        """Actions that lost points or were mistakes given what their actor knew: costliest first."""
        chosen = [turn for turn in self.turns if turn.drop or any(f.severity is Severity.MISTAKE for f in turn.flags)]
        return sorted(chosen, key=lambda turn: (-turn.drop, turn.number))

    @property
    def wasted_clues(self) -> int:
        """Clue tokens spent on hints that told their receiver nothing new (stalls included)."""
        return sum(1 for turn in self.turns for flag in turn.flags if flag.kind in ("empty-hint", "stall"))

    def summary(self) -> dict[str, Any]:
        settings, final = self.record.settings, self.final
        standard = settings.ending is Ending.STANDARD
        last = self.last_winnable_turn
        lost_at = None if last is None or last >= len(self.turns) else last + 1
        return {
            "players": list(self.record.seats),
            "settings": settings.to_json(),
            "score": final.score,
            "max_score": self.max_score,
            "rating": rating(final.score, settings.variant) if standard and final.end else None,
            "won": final.won,
            "end": final.end.value if final.end else None,
            "turns": len(self.turns),
            "deck_known": self.deck_known,
            "winnable_from_start": self.winnable_from_start,
            "last_winnable_turn": last,
            "lost_at_turn": lost_at,
            "best_scores": list(self.best) if self.deck_known else None,
            "undecided_turns": list(self.undecided),
            "unsettled_turns": list(self.unsettled),
            "continuation": [action.notation(self.record.seats) for action in self.continuation],
            "drops": [
                {"turn": turn.number, "words": turn.words(), "from": turn.best_before, "to": turn.best_after}
                for turn in self.drops
            ],
            "mistakes": [_mistake_json(turn) for turn in self.mistakes()],
            "wasted_clues": self.wasted_clues,
            "deck_note": self.deck_note,
        }

    def to_json(self) -> dict[str, Any]:
        data = self.summary()
        data["turn_list"] = [turn.to_json() for turn in self.turns]
        return data


def _mistake_json(turn: TurnReport) -> dict[str, Any]:
    reasons = [flag.reason for flag in turn.flags if flag.severity is Severity.MISTAKE]
    advice = None
    if turn.advice is not None:
        advice = {"action": turn.advice.action.notation(turn.before.seats), "reason": turn.advice.reason}
    return {"turn": turn.number, "words": turn.words(), "cost": turn.drop, "reasons": reasons, "advice": advice}


def analyze(record: GameRecord, seat: int | None = None, time_limit: float = TIME_LIMIT) -> Analysis:
    """Analyse a recorded game; `seat` judges only that seat's actions."""
    tracker = Tracker(record)
    actions = list(turn_actions(tracker))
    positions = [tracker.state_at(turn) for turn in range(len(actions) + 1)]
    deck = known_deck(record)
    best: list[int | None] = [None] * len(positions)
    undecided: list[int] = []
    unsettled: list[int] = []
    continuation: tuple[Action, ...] = ()
    note = None
    calls = 0
    if deck is None:
        note = "the deck is not fully known (cards never revealed): the solver part is skipped; fill them in to add it"
    else:
        solutions = _best_scores(positions, deck, time_limit)
        calls = len(solutions)
        brackets = _spread(_proven(solutions), len(positions))
        maximum = record.settings.variant.max_score
        undecided = [number for number, (low, high) in enumerate(brackets) if low < high]
        unsettled = [number for number in undecided if brackets[number][1] == maximum]
        best = [low for low, _ in brackets]
        winnable = [number for number, score in enumerate(best) if score == maximum]
        if winnable and not positions[-1].won:
            continuation = solve_from(positions[winnable[-1]], deck, time_limit).line
            calls += 1
    reviewer = Reviewer(tracker)
    turns = tuple(_advised(_report(action, reviewer, best, seat), tracker) for action in actions)
    return Analysis(
        record,
        tracker.state,
        turns,
        tuple(best),
        tuple(sorted(undecided)),
        tuple(sorted(unsettled)),
        continuation,
        note,
        calls,
        reviewer,
    )


def _report(action: TurnAction, reviewer: Reviewer, best: Sequence[int | None], seat: int | None) -> TurnReport:
    flags = tuple(reviewer.judge(action)) if seat is None or action.event.seat == seat else ()
    number = action.number
    return TurnReport(number, action.event.seat, action.event, action.before, action.after, best[number - 1], best[number], flags)


def _advised(turn: TurnReport, tracker: Tracker) -> TurnReport:
    """A mistake (points lost, or a mistake from the actor's view) with the advisor's first choice, if
    the action was another."""
    if not turn.drop and all(flag.severity is not Severity.MISTAKE for flag in turn.flags):
        return turn
    first = advise(tracker, turn.number - 1).actions[0]
    return turn if _same_choice(first.action, turn.event) else replace(turn, advice=first)


def _same_choice(action: Action, event: Event) -> bool:
    """Is the `event` recorded the `action` (which names no card)?"""
    if isinstance(action, Hint) and isinstance(event, Hint):
        return (action.target, action.clue) == (event.target, event.clue)
    if isinstance(action, (Play, Discard)) and isinstance(event, (Play, Discard)):
        return type(action) is type(event) and replace(action, card=None) == replace(event, card=None)
    return action == event


def _best_scores(positions: Sequence[GameState], deck: Sequence[Card], time_limit: float) -> dict[int, Solution]:
    """Solutions at the positions bisection needs: where what is proven pins two solved positions to the
    same best score (`_proven`), every position between has it too (the best score never rises), and
    where the two are left open alike, so are the positions between. Each position is solved under the
    least upper bound of the earlier ones."""
    solved: dict[int, Solution] = {}

    def at(number: int) -> None:
        if number not in solved:
            ceiling = min((solution.upper for other, solution in solved.items() if other < number), default=None)
            solved[number] = solve_from(positions[number], deck, time_limit, ceiling=ceiling)

    def fill(low: int, high: int) -> None:
        proven = _proven(solved)
        # Stop where the positions between are pinned (the two ends meet), or left no less open than
        # both ends (their brackets are equal: solving them would take the time limit again, likely for
        # nothing, once for every position).
        if high - low <= 1 or proven[low][1] == proven[high][0] or proven[low] == proven[high]:
            return
        middle = (low + high) // 2
        at(middle)
        fill(low, middle)
        fill(middle, high)

    last = len(positions) - 1
    at(0)
    at(last)
    fill(0, last)
    return solved


def _proven(solved: dict[int, Solution]) -> dict[int, tuple[int, int]]:
    """Each solved position's best score, proven to lie between: the best found from it or any later
    position, and the least upper bound of it or any earlier one (an action never raises the best
    score). The two meet unless the time limit left it undecided."""
    numbers = sorted(solved)
    low = list(accumulate((solved[number].score for number in reversed(numbers)), max))[::-1]
    high = list(accumulate((solved[number].upper for number in numbers), min))
    return {number: (low[index], high[index]) for index, number in enumerate(numbers)}


def _spread(proven: dict[int, tuple[int, int]], count: int) -> list[tuple[int, int]]:
    """Every position's best score, as (at least, at most): between two solved positions, at least the
    later one's and at most the earlier one's (the same score where bisection stopped on a pinned pair)."""
    numbers = sorted(proven)
    brackets = [proven[numbers[-1]]] * count
    for low, high in pairwise(numbers):
        for number in range(low + 1, high):
            brackets[number] = (proven[high][0], proven[low][1])
        brackets[low] = proven[low]
    return brackets
