"""Solve a fully known deal: the best score, a line that reaches it, and a proof.

The search itself is `solver.climb.best_line`; this module checks what it is given and replays the
line it finds through the rules engine (`solver.replay`) before it answers.

>>> from deducer.cards import Variant
>>> result = solve(Settings(players=3), Variant.BASE.shuffled_deck(1))
>>> result.verdict, result.score
('win', 25)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from deducer.actions import Action, Hint, Pass, Play
from deducer.cards import Card, Variant
from deducer.dealer import deal
from deducer.game import GameState
from deducer.rules import End
from deducer.settings import Ending, Settings
from solver.climb import best_line
from solver.errors import SolverError
from solver.model import Deal, Position, card_id, card_ids
from solver.replay import to_actions

__all__ = ["Solution", "SolverError", "action_json", "position_of", "solve", "solve_from"]


@dataclass(frozen=True)
class Solution:
    """What the solver proved about a deal."""

    verdict: str  # "win", "loss" or "unknown" (a budget ran out)
    score: int  # the best score reached; exact unless the verdict is "unknown"
    upper: int  # proven: no line scores more (the score itself unless the verdict is "unknown")
    max_score: int
    line: tuple[Action, ...]
    nodes: int
    seconds: float
    reason: str | None = None  # how one point more than `upper` was refuted
    seats: tuple[str, ...] = field(default=(), compare=False)

    @property
    def perfect(self) -> bool | None:
        """Is a perfect score reachable: True (the line wins), False (`upper` is below the maximum),
        None (neither proven: a budget ran out)."""
        if self.score == self.max_score:
            return True
        return False if self.upper < self.max_score else None

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "perfect": self.perfect,
            "score": self.score,
            "upper": self.upper,
            "max_score": self.max_score,
            "line": [action_json(action) for action in self.line],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "reason": self.reason,
        }


def action_json(action: Action) -> dict[str, Any]:
    """One action of a line as `{"seat": 0, "type": "play", "card": "r1"}`."""
    if isinstance(action, Hint):
        return {"seat": action.seat, "type": "hint", "target": action.target, "clue": action.clue.code}
    if isinstance(action, Pass):
        return {"seat": action.seat, "type": "pass"}
    data: dict[str, Any] = {
        "seat": action.seat,
        "type": "play" if isinstance(action, Play) else "discard",
        "card": str(action.card),
    }
    if isinstance(action, Play) and action.announce is not None:
        data["announce"] = action.announce.letter
    return data


def solve(
    settings: Settings,
    deck: Sequence[Card],
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop: Callable[[], bool] | None = None,
    report: Callable[[int, int], None] | None = None,
    perfect: bool = False,
) -> Solution:
    """Decide the deal: a win (the maximum) or the best reachable score, with the line as proof.
    `stop`, asked every few milliseconds: once true, the answer is given as if the time limit had
    run out (a Ctrl-C at the terminal: "unknown", with the best line found so far). `report` is told
    (the best score found, the most not yet refuted) as the two close in on each other. `perfect`
    (standard rules): decide only whether a perfect score is reachable (`Solution.perfect`), not the
    best score below it (see `solver.climb.best_line`): most deals that cannot be won are then answered at once."""
    _check_deck(settings, deck)
    state = deal(_opening(settings), deck, checked=True)
    return _solve_position(state, deck, time_limit, node_limit, stop=stop, report=report, opening=True, perfect=perfect)


def solve_from(
    state: GameState,
    deck: Sequence[Card],
    time_limit: float | None = None,
    node_limit: int | None = None,
    ceiling: int | None = None,
    stop: Callable[[], bool] | None = None,
    report: Callable[[int, int], None] | None = None,
    perfect: bool = False,
) -> Solution:
    """Decide a game in progress, at a turn boundary of the engine's `state`, whose whole `deck` is known:
    the best score still reachable, and a line continuing the game that reaches it (replayed through the
    engine from `state`). A game stopped early (hanab.live's "game over") is solved as if it went on.
    `ceiling`, when known (the best score of an earlier position), spares the search; `stop`, `report`
    and `perfect` as for `solve`."""
    _check_deck(state.settings, deck)
    return _solve_position(state, deck, time_limit, node_limit, ceiling, stop, report, perfect=perfect)


def _solve_position(
    state: GameState,
    deck: Sequence[Card],
    time_limit: float | None,
    node_limit: int | None,
    ceiling: int | None = None,
    stop: Callable[[], bool] | None = None,
    report: Callable[[int, int], None] | None = None,
    opening: bool = False,
    perfect: bool = False,
) -> Solution:
    """`solve_from`, on a deck already checked. `opening`: `state` is the opening deal of `deck`, whose
    hands need no checking and whose model position is the model's start."""
    settings = state.settings
    if state.must_draw is not None:
        raise SolverError(f"the position at {state.where()} waits for a draw: solve it at a turn boundary")
    if not opening and any(item.card != deck[item.uid] for hand in state.hands for item in hand):
        raise SolverError("the hands of this position do not hold the cards the deck says")
    start = time.perf_counter()
    if state.end is End.TERMINATED:
        state = replace(state, end=None)
    model = Deal.of(settings, deck)
    if state.over:
        score = state.score
        verdict = "win" if state.won else "loss"
        reason = _ENDED[state.end] if state.end is not None else None
        return Solution(verdict, score, score, settings.variant.max_score, (), 0, time.perf_counter() - start, reason)
    root = model.start() if opening else position_of(model, state)  # (the same position: see the tests)
    outcome = best_line(model, time_limit, node_limit, root=root, ceiling=ceiling, stop=stop, report=report, perfect=perfect)
    actions, final = to_actions(settings, deck, outcome.line, state, checked=True)
    score = final.score if final.over or settings.ending is Ending.STANDARD else 0
    if score != outcome.score or (outcome.verdict == "win" and not (final.won and final.over)):
        raise SolverError(f"internal error: the line scores {score} in the engine, the search said {outcome.score}")
    return Solution(
        outcome.verdict,
        score,
        outcome.upper,
        settings.variant.max_score,
        tuple(actions),
        outcome.nodes,
        time.perf_counter() - start,
        outcome.reason,
    )


_ENDED = {
    End.STRIKES: "the game is over: third strike",
    End.COMPLETE: None,
    End.FINAL_ROUND: "the game is over: the final round was played",
    End.LOST_CARD: "the game is over: an indispensable card was lost",
    End.STUCK: "the game is over: a player was stuck",
}


def _check_deck(settings: Settings, deck: Sequence[Card]) -> None:
    try:  # (the ids of the cards, sorted, against the full deck's: a third of the time of counting the cards)
        if sorted(card_ids(deck, settings.variant)) == _full_ids(settings.variant):
            return
    except (KeyError, AttributeError):  # (a suit not in the variant, or not a card: said below)
        pass
    given, full = Counter(deck), _full_deck(settings.variant)
    if not dict.__eq__(given, full):  # neither counts a zero, so the dicts' own (C) equality is the Counters
        extra, missing = given - full, full - given
        problems = [f"{len(deck)} cards given"]
        if extra:
            problems.append("too many " + " ".join(f"{card}" for card in sorted(extra.elements())))
        if missing:
            problems.append(f"{sum(missing.values())} missing")
        raise SolverError(
            f"the solver needs the whole {settings.variant.value} deck of {settings.variant.deck_size} cards, in order "
            f"({', '.join(problems)})"
        )


@cache
def _full_deck(variant: Variant) -> Counter[Card]:
    """The copies of each card in `variant`'s deck (read only)."""
    return Counter(variant.full_deck())


@cache
def _full_ids(variant: Variant) -> list[int]:
    """The ids of `variant`'s deck, sorted (read only)."""
    return sorted(card_ids(variant.full_deck(), variant))


@cache
def _opening(settings: Settings) -> GameState:
    """The empty table before the deal (a frozen state: one made for each settings)."""
    return GameState.new(settings)


def position_of(model: Deal, state: GameState) -> Position:
    """The model's position for the engine's `state` (every card in hand known, at a turn boundary)."""
    suits = state.settings.variant.suits
    hands = [[card_id(item.card, suits) for item in hand if item.card is not None] for hand in state.hands]
    final = -1 if state.final_turns is None else state.final_turns
    discarded = [card_id(card, suits) for card in state.discards]
    return model.position(state.current, state.drawn, state.fireworks, discarded, state.clues, state.strikes, final, hands)
