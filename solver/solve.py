"""Solve a fully known deal: the best score, a line that reaches it, and a proof.

>>> from deducer.cards import Variant
>>> result = solve(Settings(players=3), Variant.BASE.shuffled_deck(1))
>>> result.verdict, result.score
('win', 25)
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from random import Random
from typing import TYPE_CHECKING, Any

from deducer.actions import Action, Clue, Discard, Hint, Pass, Play
from deducer.cards import Card, Suit, Variant
from deducer.dealer import deal, play_on
from deducer.errors import HanabiError
from deducer.game import GameState, HandCard, Table
from deducer.rules import End
from deducer.settings import Ending, Settings
from solver import sat
from solver.bounds import Bound, clues_bound, copies_bound, explain, upper_bound
from solver.endings import Endings, Heights, capped, open_endings, uncapped
from solver.glance import Anchors, Glance, glances
from solver.greedy import greedy_start
from solver.model import ANNOUNCE, DISCARD, HINT, MISPLAY, PASS, TRASH, Deal, Move, Position, card_id
from solver.search import USUAL, Ordering, OutOfBudget, Search

if TYPE_CHECKING:
    from solver.clauses import Rival


class SolverError(HanabiError):
    """The deal cannot be solved as given (not a full deck, or a line failed its replay)."""


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
    best score below it (see `best_line`): most deals that cannot be won are then answered at once."""
    _check_deck(settings, deck)
    state = deal(GameState.new(settings), deck, checked=True)
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


def position_of(model: Deal, state: GameState) -> Position:
    """The model's position for the engine's `state` (every card in hand known, at a turn boundary)."""
    suits = state.settings.variant.suits
    hands = [[card_id(item.card, suits) for item in hand if item.card is not None] for hand in state.hands]
    final = -1 if state.final_turns is None else state.final_turns
    discarded = [card_id(card, suits) for card in state.discards]
    return model.position(state.current, state.drawn, state.fireworks, discarded, state.clues, state.strikes, final, hands)


@dataclass(frozen=True)
class Outcome:
    """The search's answer on the model: verdict, best score, and the moves reaching it."""

    verdict: str
    score: int
    upper: int  # proven: no line scores more (`score` unless the verdict is "unknown")
    line: list[Move]
    nodes: int
    reason: str | None


MODEL_JOINS = 5_000  # positions the depth-first search spends alone on a target before the constraint model joins
# Then, before the model joins, shuffled restarts at the top (`SHUFFLED` positions each, in orders that
# toss a coin between waiting and letting go) spend `SHUFFLED_JOINS` positions in all (see `_climb`). A
# narrow win hides behind an early choice that neither the climb nor the probes' 375 positions an order
# revisit: asked for 30 from the deal, such restarts found it within 300,000 positions in 6 runs of 6
# (other seeds each run) on 9 of 13 slow wins, a median of 4,000-17,000 on four of them (5p Avalanche
# round-robin 8071, 4p per seat 8071, 4p round-robin 8248, 3p round-robin 3989). Asking the top
# (not the climb's target) matters: 5p round-robin 8071 climbs from 26 while its 30 is 4,000 positions
# away. Without the climb's share first (every position before the model at the top), the anchored glance
# lost its best line: 3p round-robin 8071 4.4 s -> undecided at 30 s. Alternating deal by deal against the
# climb alone (`bench_hard.py --against`, two runs): the 106 mid deals 79.8 / 81.1 -> 66.3 / 65.5 s in all,
# the median 0.48 -> 0.33 s, over 1 s 23 -> 13 / 15 (4p per seat 1532 1.8 -> 0.2 s; the worst, 5p
# round-robin 1587, 2.5 -> 3.8 s); the 26 slow deals 155.8 / 145.9 -> 148.2 / 148.3 s, over 1 s 24 -> 20 /
# 21 (5p round-robin 8071 2 -> 0.35 s, 4p per seat 8071 4.3 -> 0.6 s; 4p round-robin 3168 1.5 -> 2.2 s);
# 5p Avalanche seeds 0-999, p99 431 / 334 -> 258 / 246 ms (round-robin / per seat). Restarts beside
# the racing model instead (its cores busy): 162.3 -> 165.8 s on the slow deals. Then 16,000 -> 32,000
# positions, two runs against 16,000 each: the slow deals 195.7 -> 190.1 s, 168.9 -> 157.7 s (4p
# per seat 8248 16.8 / 11.6 -> 1.5 / 0.9 s, found 36,000 positions into them; 4p per seat 3236, a
# loss at 27, 3.8 -> 5.0-5.3 s); the mid deals 74.9 -> 73.9 s (4p round-robin 1653 2.3 -> 1.1 s, 5p
# round-robin 744 2.2 -> 2.7 s); 5p Avalanche seeds 0-999 unchanged (p99 303-364 against 280-340 ms).
# Then 32,000 -> 48,000, two runs: the slow deals 160.9 -> 150.9 s, 164.9 -> 152.7 s, over 2 s 17 ->
# 14 / 15 (4p round-robin 8248 13.3 / 17.9 -> 1.5 s, 3217 3.8 / 4.3 -> 1.9 / 1.5 s; 5p round-robin
# 3785 6.5 / 4.9 -> 8.3 / 9.4 s); the mid deals 76.1 -> 76.0 s; 5p Avalanche seeds 0-999 unchanged
# (p99 323 / 313 against 337 / 285 ms, round-robin / per seat).
SHUFFLED, SHUFFLED_JOINS = 4_000, 48_000
# Positions of the search on a deal (the probes included) before Glucose glances at its top (None:
# never; see `_Glances`). Most deals take fewer (5p Avalanche: 96% of them) and never pay for it.
# On the 106 deals of `_climb` (in all, median) and 5p Avalanche seeds 0-999 (p95 and p99 of each
# deal order), the glance in the helper process: 1,000 positions 48.5-48.7 s, 0.250 s, p95 27/33 ms,
# p99 222/202 ms; 2,000 49.3-49.7 s, 0.243-0.247 s, p95 28/35 ms, p99 233/220 ms. In a thread, the
# build and load held the interpreter: 1,000 positions 50.3-51.4 s, p95 38-48 ms; 2,000 51.7 s, p95 27-32 ms.
GLANCE_AFTER: int | None = 1_000
CLIMB_ALONE = 20_000  # positions the climb spends on a target before restarts take turns with it (see `_climb`)


def best_line(
    model: Deal,
    time_limit: float | None = None,
    node_limit: int | None = None,
    root: Position | None = None,
    ceiling: int | None = None,
    stop: Callable[[], bool] | None = None,
    report: Callable[[int, int], None] | None = None,
    perfect: bool = False,
) -> Outcome:
    """Greedy lines first; if they fall short of the bound, the finer bounds of `bounds.copies_bound`
    and `bounds.clues_bound`, short probes from the bound down, then `_climb`: the search for one
    point more than the best found, until it fails, with the constraint model asking from the bound
    down beside it. Glucose's glance at the bound may start during the probes (`_Glances`).

    `root` is the position to solve (default: the opening deal); `ceiling` a score known not to be
    beaten (proven at an earlier position). `node_limit` counts the depth-first search's positions;
    `time_limit` bounds the whole; `stop` (asked every 1,024 positions of the search, and every 50 ms
    while it waits for the model) ends it early as the time limit would; `report` is told (the best
    score found, the most not yet refuted) after the greedy lines, at each turn of the climb (the first
    just after the probes), and last the answer's.

    `perfect` (standard rules; Crowning Piece asks nothing else): the question is only whether the
    maximum is reachable. The answer comes as soon as a line reaches it or the maximum is refuted (a
    bound at the deal, most often), with the best line found by then: "unknown" if its score is not
    proven the best (the `upper` bound, below the maximum, says that no line wins)."""
    root = model.start() if root is None else root
    maximum = model.rules.max_score
    perfect = perfect and model.rules.ending is Ending.STANDARD  # (Crowning Piece asks only that)

    @cache
    def first_bound() -> Bound:  # (computed once a greedy line falls short of the maximum, and kept)
        bound = explain(model, root)
        if ceiling is not None and ceiling < bound.score:
            bound = Bound(max(ceiling, 0), f"an earlier position of the game could not score more than {ceiling}")
        return bound

    best, best_line_found = greedy_start(model, root, lambda: first_bound().score)
    if best == maximum:  # (most deals: won by a greedy line, before any bound is needed)
        if report is not None:
            report(best, best)
        return Outcome("win", best, best, best_line_found, 0, None)
    bound = first_bound()
    for finer in (copies_bound, clues_bound):
        if best < bound.score and not (perfect and bound.score < maximum):
            bound = finer(model, root, bound)
    if perfect and bound.score < maximum:  # (the question is answered: no line wins)
        if report is not None:
            report(best, bound.score)
        return Outcome("loss" if best == bound.score else "unknown", best, bound.score, best_line_found, 0, bound.reason)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    search = Search(model)
    search.stop, search.report = stop, report
    reason: str | None = None
    glances = _Glances(model, root, search)
    top = bound.score
    _report(search, best, top)

    def glance_if_due() -> None:  # (between the probes' move orders)
        nonlocal top, reason
        if glances.due():
            top, why = glances.start(top, best)
            reason = why or reason

    try:
        # A short probe from the bound down: where a line reaches the bound, the bound itself guides the
        # search straight to it, while a lower target lets it wander where the bound cuts nothing.
        # (Under Crowning Piece every target asks for the win: one probe.)
        lowest = max(best, bound.score - 1) if model.rules.ending is Ending.CROWNING or perfect else best
        for target in range(bound.score, lowest, -1):
            if target > top or glances.done():
                continue  # (out of reach, or Glucose has decided: `_climb` takes its answer)
            budget = PROBE_TOP if target == bound.score else PROBE
            probe = _probe(model, search, root, target, budget, deadline, node_limit, (), glances.done, glance_if_due)
            if probe is not None:
                best, best_line_found = _final_score(model, root, probe), probe
                break
        upper = top
        if best < top:  # (the climb reports at each turn, the first just after the probes)
            best, best_line_found, reason, upper = _climb(
                model, search, root, best, best_line_found, top, deadline, node_limit, glances, reason, perfect
            )
    except OutOfBudget:  # (in the probes: `_climb` returns what it proved)
        upper = top
    finally:
        glances.stop()
    _report(search, best, upper)  # (a win's `upper` is the maximum: a proven bound at or above it)
    if best == maximum:
        return Outcome("win", best, best, best_line_found, search.nodes, None)
    if upper == bound.score and reason is None:
        reason = bound.reason
    return Outcome("loss" if upper == best else "unknown", best, upper, best_line_found, search.nodes, reason)


PROBE_TOP, PROBE = 3750, 625  # positions for the bound itself, and for each target probed below it
PROBE_ORDERS = 10  # see `_probe_orders`
# Burning cards (misplaying them at 8 clue tokens), impatient or patient: these orders found 14 of the
# 59 wins that took the search 0.2-4 s (5p Avalanche standard, seeds 0-999, both deal orders) within
# 375 positions, and 4 more within 2,500.
BURNING = (Ordering(burn=True), Ordering(burn=True, patient=True))


def _probe_orders() -> list[Ordering]:
    """The usual move order, the patient one, the burning ones, then shuffled ones (seeded afresh, so
    every run is the same)."""
    usual = [Ordering(), Ordering(patient=True), *BURNING]
    return usual + [Ordering(shuffle=Random(seed), toss=True) for seed in range(2, 2 + PROBE_ORDERS - len(usual))]


def _probe(
    model: Deal,
    search: Search,
    root: Position,
    target: int,
    budget: int,
    deadline: float | None,
    node_limit: int | None,
    orders: Sequence[Ordering] = (),
    interrupt: Callable[[], bool] | None = None,
    between: Callable[[], None] | None = None,
) -> list[Move] | None:
    """A line scoring at least `target` if a short search finds one (None proves nothing; nor does
    an `interrupt`, which ends the probe at once; `between` is called after each move order's share).

    A narrow win often hides behind an early choice that a depth-first search is slow to revisit:
    short restarts with other move orders (`orders`, by default `_probe_orders`) find it, sharing the
    `budget`. The failures each restart proves are shared with the others through the transposition table."""
    search.deadline, search.interrupt = deadline, interrupt
    orders = orders or _probe_orders()
    try:
        for ordering in orders:
            search.ordering = ordering
            _slice(search, budget // len(orders), node_limit)
            try:
                return search.reach(root, target)
            except OutOfBudget:
                if _caller_budget_spent(search, node_limit, deadline):
                    raise
                if interrupt is not None and interrupt():
                    return None
            if between is not None:
                between()
        return None
    finally:
        search.ordering = USUAL


def _climb(
    model: Deal,
    search: Search,
    root: Position,
    best: int,
    line: list[Move],
    top: int,
    deadline: float | None,
    node_limit: int | None,
    glances: _Glances,
    refuted: str | None = None,
    perfect: bool = False,
) -> tuple[int, list[Move], str | None, int]:
    """Raise `best` (scored by `line`) to the true best score, which is at most `top`: (best, its line,
    how the score one above the upper bound was refuted (`refuted`, how `top` itself was proven, if
    it stays the bound), the upper bound proven: `best` once decided, and if the budget runs out
    first, `top` lowered by what the model and the restarts refuted meanwhile). `perfect` (see
    `best_line`): the climb ends once the maximum is refuted (it climbs as before until then: the
    best line found is the model's hint and the anchors of Glucose's glance).

    The depth-first search asks for one point more than the best found: successes are cheap, and only
    the target just above the true best needs an exhaustive (failing) search. Most deals end there. When
    it has not decided a target after `MODEL_JOINS` positions, shuffled restarts ask for `top` for
    `SHUFFLED_JOINS` positions more (a narrow win at the top is often near in another order), then the
    constraint model joins it in a background thread (two configurations racing on two cores, see
    `_ask`) and asks for `top` (one point less each time it proves a target out of reach): the model finds the narrow wins
    the search wanders past, and the two meet at the true best. Below the maximum, `top` is asked as
    the endings the bounds leave open (`_endings`): a top whose every ending fails a bound is refuted
    without the model (5p Avalanche round-robin 744, undecided at 28 in minutes before, is now a loss
    at 27 in 3.5 s; 4p per seat 301 finds its 29 in under 2 s, not 9-20 s). Before each question,
    the search has a short try at the top in the capped game of each ending left open, and just
    before the model joins, the `BURNING` orders search `BURN_JOIN` positions each for its target: a
    win that needs cards burnt is often just beyond their share of the probes, and both configurations
    of the model can take seconds on it (4p Avalanche round-robin 1887: 6-8 s; the deal 2.9 -> 0.3 s;
    see `_short_of_the_model`). The model is never
    interrupted to ask something else: it starts afresh on each question, and its time on a question
    varies tenfold from deal to deal (5p Avalanche: 1-10 s for a win at the bound); an attempt that
    runs out of its own time is asked again with another seed, every other time as the best score
    above the best found (`_ask`), whose line is taken even when unproven. Meanwhile (once `_ask` no
    longer waits) the search climbs on alone, in its usual order, until it has spent `CLIMB_ALONE`
    positions on a target (most deals the model joins end there: the model's build is all they pay),
    then takes turns: `RESTART` positions of a restart for `top` in another move order
    (`_restart_ordering`; the first `RESTARTS` times), `CLIMB` positions of the climb; beside two
    racing configurations, only up to the restarts in the `BURNING` orders, then it waits for their
    answer. The model starts from `root`, as the search does.

    On two cores, once the search has spent `GLANCE_AFTER` positions on the deal (`_Glances`: in the
    probes of `best_line` most often, which hand the glance over; the endings first lower `top`),
    Glucose glances at `top` (told its open endings) on the second core, idle until then
    (`solver.glance`, in the helper process of `solver.helper` once it is ready), while the search
    probes and climbs on, and interrupts the search once it decides (a line: the best; a refutation:
    `top` falls by one, with the reason the model would give, and Glucose glances at the next top at
    once). If the model joins first, the glance races its first question in the second configuration's
    place until it has spent `GLANCE_LEAD` conflicts in all (at once if it has already; it was first
    measured as half a second of the question: see below), then that configuration takes its place (and
    once the glance has decided, the short search just before the model's build stops at once, the model
    never built: 55.9-56.7 -> 54.5-55.2 s in all on the 106 deals below, the median 0.32 -> 0.30 s). On
    the 106 deals that took the solver 0.3-5 s among 3p-5p Avalanche under standard rules (seeds 0-1999,
    both deal orders) and 5p base 8450 (`benchmarks/bench_hard.py --set mid`; one process, deal after
    deal): 64.1 -> 56.7 s in all, the median 0.43 -> 0.325 s, 67 faster and 22 slower (by up to 0.6 s:
    deals the second configuration decides, now half a second later); racing 0.3 s instead: 60.4 s; 1 s:
    56.6 s, more over 2 s; stopping the glance when the model joins (it then had 25-150 ms): 67.4 s. On
    the 26 slowest deals known (30 s each): 208.0 -> 213.7 s (3p round-robin 1887 3.1 -> 0.8 s, 5p
    round-robin 744 2.8 -> 1.4 s; 5p base 8450 3.9 -> 4.6 s). Started within the probes (2,000 positions
    into the deal, not 1,000 into the climb: the probes take 3,750 positions or more), on the same 106
    deals, two runs each: 56.6-56.7 -> 51.7 s in all, the median 0.323 -> 0.266-0.279 s. The cost is on
    the deals decided in 2,000-5,000 positions without the model, whose search shares the interpreter
    with the clauses' build and load (about 30 ms, serial): the 60 of 5p Avalanche's 2,000 (seeds 0-999,
    both deal orders) decided in 1,000-5,000 positions without the model, median 27.5 -> 32.8 ms (51-56
    ms from 1,000 positions). In the helper process, whose build and load no longer hold the
    interpreter, and from 1,000 positions again: the 106 deals 53.2 -> 48.6 s in all, the median 0.286
    -> 0.236 s; the 60 deals 2.61-2.75 -> 2.17-2.28 s in all."""
    crowning = model.rules.ending is Ending.CROWNING
    maximum = model.rules.max_score
    search.deadline, search.interrupt = deadline, None
    # The copies bound at every position: with two players, whose ten cards in hand are most often the
    # limit (2p Avalanche, deals 300-499: the slowest went from 16 s to 0.4 s). With more players it
    # never cut at the opening deal of 1,200 benchmark deals, and only slowed the search.
    search.thorough = model.rules.players == 2
    portfolio = sat.applies(model)
    question: sat.Question | None = None
    ends: Endings | None = None  # the endings of the model's target left open by the bounds (see `_endings`)
    turns = 0  # of the search, once the model has joined
    attempt = 0  # the model's attempts at the same question (see `_ask`)
    rival = _Rival()  # CaDiCaL's run on the question, kept from one attempt to the next (see `_ask`)
    alone = 0  # once the model has joined (0: not yet), the climb goes on alone up to this many positions
    climbed = search.nodes  # when the climb of its current target began (see `MODEL_JOINS`)
    joins, shuffled = 0, 0  # when the model joins; the shuffled restarts made before it does (see `SHUFFLED`)
    search.interrupt = glances.done  # (until the model joins: a glance has decided, or been stopped)
    try:
        while best < top and not (perfect and top < maximum):
            _report(search, best, top)
            climbing = search.nodes < alone
            restart = question is not None and not climbing and turns % 2 == 0 and turns < 2 * RESTARTS
            target = top if restart else best + 1
            if portfolio and question is None:  # (the model has not joined yet)
                joins = climbed + MODEL_JOINS + SHUFFLED_JOINS
                end = climbed + MODEL_JOINS
                if search.nodes >= end:  # the climb has had its share: a shuffled restart at the top
                    target, end = top, min(joins, search.nodes + SHUFFLED)
                    search.ordering = Ordering(shuffle=Random(100 + shuffled), toss=True)  # (not the probes' or restarts' seeds)
                    shuffled += 1
                if glances.at is not None:
                    end = min(end, glances.at)  # (Glucose's glance is due first)
                _slice(search, max(1, end - search.nodes), node_limit)
            elif climbing:
                _slice(search, alone - search.nodes, node_limit)
            elif question is not None and question.racing and turns >= 2 * len(BURNING):
                # The search has had its climb and burning restarts: the pair has the rest, and once it
                # answers the search below is interrupted at once and the answer taken (`OutOfBudget`).
                _wait(question.done, search.stop)
            elif question is not None and turns < 2 * RESTARTS:
                search.ordering = _restart_ordering(turns) if restart else USUAL
                _slice(search, RESTART if restart else CLIMB, node_limit)
                turns += 1
            else:
                search.node_limit = node_limit
            try:
                found = search.reach(root, target)
            except OutOfBudget:
                if not portfolio or _caller_budget_spent(search, node_limit, deadline):
                    raise
                if question is not None and not question.done.is_set():
                    continue  # the search's turn is over
                if question is None and glances.due():
                    top, why = glances.start(top, best)
                    refuted = why or refuted
                    if top <= best:
                        return best, line, refuted, best
                    continue
                glanced = glances.finished() if question is None else None
                if glanced is not None and glanced.decided:
                    answer = glanced.answer()
                    if answer is not None:
                        score = _final_score(model, root, answer)  # (at least the top: the best)
                        return score, answer, refuted, score
                    refuted, top = _refuted_by_model(crowning, glanced.target, glances.ends), glanced.target - 1
                    if top <= best:
                        return best, line, refuted, best
                    glances.at = search.nodes  # and at once at the next top
                    continue
                if question is None and search.nodes < joins:
                    continue  # (the next shuffled restart)
                if question is not None:  # the model has answered, or its time ran out
                    question.stop()
                    asked = question.target if question.floor is None else question.floor
                    answer = _found(question)
                    if answer is not None:
                        score = _final_score(model, root, answer)  # at least the floor
                        if score > best:
                            best, line = score, answer
                        if score >= question.target:
                            return score, answer, refuted, score
                        if question.proven:
                            return best, line, f"the constraint model proved that no line scores {score + 1}", best
                    if question.target_refuted:  # (by CaDiCaL or the anchored glance, below which the question is undecided)
                        asked = question.target
                    elif not question.proven:  # ask again, with another seed and twice the time (see `_ask`)
                        attempt += 1
                        below = None if perfect else best  # (a question below the top cannot answer `perfect`)
                        question = _ask(model, root, top, deadline, line, attempt, below, ends, rival, stop=search.stop)
                        search.interrupt = question.done.is_set
                        continue
                    question = None
                    attempt = 0
                    rival.stop()  # (its question is decided)
                    refuted = _refuted_by_model(crowning, asked, ends)
                    if crowning or asked <= best + 1:
                        return best, line, refuted, best  # nothing between the best found and the target refuted
                    top = asked - 1
                    if perfect:
                        return best, line, refuted, top
                # The model joins (once the burning orders have had a longer try at its target) or asks again.
                top, ends, refuted, decided = _short_of_the_model(
                    model, search, root, top, best, line, refuted, deadline, node_limit, not alone, glances.done, glances.known
                )
                if decided is not None:
                    return decided
                if glances.done():
                    continue  # (the search, interrupted at once, takes the glance's answer, before the model's build)
                if not alone:
                    alone = search.nodes + CLIMB_ALONE - MODEL_JOINS  # the climb of this target goes on alone
                glances.at = None  # (the model has joined: no more glances)
                question = _ask(model, root, top, deadline, line, ends=ends, rival=rival, glance=glances.take(), stop=search.stop)
                search.interrupt = question.done.is_set
                continue
            finally:
                search.ordering = USUAL
            if found is None and (target == best + 1 or crowning):
                return best, line, f"the search was exhaustive ({search.nodes} positions)", best
            if found is None:  # a restart that went through every line: `top` is out of reach
                refuted, top = f"the search was exhaustive ({search.nodes} positions)", top - 1
                if question is not None and best < top and not perfect:
                    question.stop()
                    attempt = 0
                    rival.stop()
                    top, ends, refuted, decided = _short_of_the_model(
                        model, search, root, top, best, line, refuted, deadline, node_limit, known=glances.known
                    )
                    if decided is not None:
                        return decided
                    question = _ask(model, root, top, deadline, line, ends=ends, rival=rival, stop=search.stop)
                    search.interrupt = question.done.is_set
                continue
            best, line = _final_score(model, root, found), found
            climbed = search.nodes
            if climbing:  # the next target gets a whole climb alone too
                alone = search.nodes + CLIMB_ALONE
        return best, line, refuted, top  # (`best` itself, unless `perfect` ends the climb below the maximum)
    except OutOfBudget:
        if question is not None:  # a line the model found before the time ran out
            question.stop()
            found = _found(question)
            if found is not None and _final_score(model, root, found) > best:
                best, line = _final_score(model, root, found), found
        return best, line, refuted, top
    finally:
        search.interrupt = None
        if question is not None:
            question.stop()
        rival.stop()  # (the glance: `best_line` stops it)


RESTART, CLIMB, RESTARTS = 5000, 5000, 40  # see `_climb`
BURN_JOIN = 1000  # positions of each burning order just before the model joins (see `_climb`)
CAPPED_PROBE = 2400  # positions shared by the open endings' capped games before each question (see `_short_of_the_model`)
# (The patient burning order finds some lines these miss, but with it and 6,000 positions the 51 slow
# losses measured took longer in all: 49.1 -> 51.2 s.)
CAPPED_ORDERS = (USUAL, BURNING[0])


TopEndings = dict[int, Endings | None]  # the endings of each top of a root bounded so far (`open_endings`)


class _Glances:
    """Glucose's glances at the top before the model joins (`solver.glance`, see `_climb`): the first
    once the search has spent `GLANCE_AFTER` positions on the deal (its probes included), on two cores
    and where the clauses cover the rules; the next at once after one refutes its top (`at`: when the
    next is due, None: none is). One runs at a time, told the endings `ends` of its top left open
    (without any, on the ladder encoding: `TOP_LADDER`)."""

    def __init__(self, model: Deal, root: Position, search: Search) -> None:
        self._model, self._root, self._search = model, root, search
        self.known: TopEndings = {}  # (shared with the model's questions: see `_endings`)
        after = GLANCE_AFTER if RACE and sat.applies(model) else None
        self.at: int | None = None if after is None else search.nodes + after
        self.ends: Endings | None = None
        self._glance: Glance | None = None

    def due(self) -> bool:
        """Is a glance due now (none running)?"""
        return self._glance is None and self.at is not None and self._search.nodes >= self.at

    def start(self, top: int, best: int) -> tuple[int, str | None]:
        """Glance at `top` (a proven bound above `best`) lowered by the endings (`_endings`): the new
        top, and why a top fell (None if none did). No glance if the top fell to `best`, or if the
        clauses do not cover the deal (asked only now: most deals never import them)."""
        self.at = None
        if not glances(self._model):
            return top, None
        top, self.ends, why = _endings(self._model, self._root, top, best, self.known)
        if top > best:
            told = _told(self.ends, top)
            self._glance = Glance(self._model, top, self._root, told, lead=GLANCE_LEAD, ladder=TOP_LADDER and not told)
            self._glance.start()
        return top, why

    def done(self) -> bool:
        """Has the glance running finished (decided, or stopped)? The search's interrupt meanwhile."""
        return self._glance is not None and self._glance.done.is_set()

    def take(self) -> Glance | None:
        """The glance, if any (to race the model's first question), no longer this one's to stop."""
        glance, self._glance = self._glance, None
        return glance

    def finished(self) -> Glance | None:
        """The glance, taken once it has finished (None while it runs, or if none does)."""
        return self.take() if self.done() else None

    def stop(self) -> None:
        """Stop the glance running, if any: in the helper process, without waiting for it; in a
        thread, waiting for it (a stop is heard within a turn of its build: waiting lets it run at
        once; not waiting, the search would hold the interpreter for 5 ms at a time, and the build
        would outlast the deal by 5-10 ms)."""
        if self._glance is not None:
            if self._glance.in_helper:
                self._glance.interrupt()
            else:
                self._glance.stop()
            self._glance = None


def _endings(
    model: Deal, root: Position, top: int, best: int, known: TopEndings | None = None
) -> tuple[int, Endings | None, str | None]:
    """`top` (a proven bound above `best`) lowered while the bounds refute every way the fireworks
    can end at it (`solver.endings`; standard rules): the new top, its endings left open (None: too
    many to check, or the caps themselves), and why the last top refuted fell (None if none did).
    `known` keeps the endings bounded for the next call on the same root: Glucose's glance and then
    the model ask the same top, and its bounds can take a second (5p Avalanche per seat 301: 1.0-1.3 s)."""
    known = {} if known is None else known
    reason = None
    while top > best and model.rules.ending is Ending.STANDARD and top < sum(root[3]):
        if top not in known:
            known[top] = open_endings(model, root, top)
        ends = known[top]
        if ends is None or ends.open:
            return top, ends, reason
        reason, top = ends.reason(), top - 1
    return top, None, reason


def _short_of_the_model(
    model: Deal,
    search: Search,
    root: Position,
    top: int,
    best: int,
    line: list[Move],
    refuted: str | None,
    deadline: float | None,
    node_limit: int | None,
    burn: bool = False,
    interrupt: Callable[[], bool] | None = None,
    known: TopEndings | None = None,
) -> tuple[int, Endings | None, str | None, tuple[int, list[Move], str | None, int] | None]:
    """Before the model is asked for `top` (a proven bound above `best`, scored by `line`): the top as
    `_endings` lowers it, its endings left open, how the last target refuted fell (`refuted` unless a
    top fell here), and `_climb`'s answer if the deal is decided without the model: the top fell to
    `best`, or a short search found a line reaching it (a proven bound). The short search is in the
    capped game of each open ending, where the cards above it are trash and every card still needed
    must be played, the search's tightest case (3p Avalanche round-robin 3236: 27 in 82 positions,
    where the model took about 3 s); then, with `burn`, in the burning orders (`BURN_JOIN` positions
    each). An `interrupt` (Glucose's glance has decided) ends the short search at once. `known`: as for `_endings`."""
    top, ends, why = _endings(model, root, top, best, known)
    refuted = why or refuted
    if top <= best:
        return top, ends, refuted, (best, line, refuted, best)
    short = None
    if ends is not None and CAPPED_PROBE:
        share = CAPPED_PROBE // len(ends.open)
        for heights in ends.open:
            capped_root = capped(model, root, heights)
            found = _probe(model, search, capped_root, top, share, deadline, node_limit, CAPPED_ORDERS, interrupt)
            short = None if found is None else uncapped(model, root, heights, found)
            if short is not None:
                break
    if short is None and burn:
        short = _probe(model, search, root, top, BURN_JOIN * len(BURNING), deadline, node_limit, BURNING, interrupt)
    if short is None:
        return top, ends, refuted, None
    score = _final_score(model, root, short)
    return top, ends, refuted, (score, short, refuted, score)


def _told(ends: Endings | None, target: int) -> tuple[Heights, ...]:
    """The endings of `target` left open, to tell the question for it (none: ask it as it is)."""
    return ends.open if ends is not None and ends.score == target else ()


def _refuted_by_model(crowning: bool, target: int, ends: Endings | None) -> str:
    """How the model refuted `target` (asked with the endings `ends` left open)."""
    if crowning:
        return "the constraint model proved that no line wins"
    if ends is None or ends.score != target:
        return f"the constraint model proved that no line scores {target}"
    return (
        f"no line scores {target}: of the {ends.refuted + len(ends.open)} ways the fireworks can end at "
        f"{target}, {ends.refuted} fail a bound once the cards above them are trash, and the constraint model "
        f"proved that the fireworks cannot end at the other {len(ends.open)}"
    )


def _restart_ordering(turn: int) -> Ordering:
    """The move order of the restart at the search's `turn` (an even number): the burning orders first
    (longer than in the probes), then shuffled ones."""
    restart = turn // 2
    return BURNING[restart] if restart < len(BURNING) else Ordering(shuffle=Random(8 + turn), toss=True)  # not the probes' seeds


MODEL_TIME = 10.0  # seconds of the model's first attempt at a question (see `_ask`)
# Does a second configuration of the model race the first on each question, the search waiting
# meanwhile (see `_ask`)? Not on a single core.
RACE = (os.cpu_count() or 1) >= 2
CADICAL = True  # CaDiCaL races the model's questions (see `_ask`)
RACE_FIRST = 2.0  # seconds the pair races alone, before the search climbs beside it (see `_ask`)
# Glucose's conflicts after which a glance at the top no longer keeps the other configuration's place
# in the model's first question (see `_Glances` and `_climb`). It was half a second of the question:
# on this machine (about 10,000 conflicts a second, half the tuning machine's speed), 5p Avalanche
# round-robin 744's glance, which refutes 28 after about 18,000, was stopped after 10-11,000 in most
# solves (6-7 s in all) and decided in a process's first (3 s). With 20,000, alternating deal by deal
# in one process per version against the schedule with the other two joins in work: 744 6.1-6.7 ->
# 2.8-3.1 s; the 106 mid deals 106.9 -> 102.7 s, 13 -> 11 over 2 s; the 26 slow deals 196.5 -> 201.4
# s (3p per seat 8071 15.5 -> 19.0 s, 4p round-robin 1581 3.8 -> 1.4 s).
GLANCE_LEAD = 20_000
# The other configuration's work in the first attempt (CP-SAT's deterministic time) before CaDiCaL takes its place (see `_ask`)
CADICAL_JOINS = 1.0
# The first configuration's work in the first attempt (CP-SAT's deterministic time) before it leaves it to its rivals (`_ask`)
FIRST_YIELDS = 3.0
MODEL_AGAIN = False  # does CP-SAT race CaDiCaL and the anchored glance in the attempts after the first (see `_ask`)?


def _ask(
    model: Deal,
    root: Position,
    target: int,
    deadline: float | None,
    line: list[Move],
    attempt: int = 0,
    best: int | None = None,
    ends: Endings | None = None,
    rival: _Rival | None = None,
    glance: Glance | None = None,
    stop: Callable[[], bool] | None = None,
) -> sat.Question:
    """The model's question for `target` from `root`, started in the background, with the best `line`
    found so far (scoring `best`) as the solver's hint.

    CP-SAT's time on a win varies tenfold with its random seed (a few 5p Avalanche deals: 1 s on most
    seeds, 15-20 s on some), so an attempt gets `MODEL_TIME` seconds, twice as many each time it runs
    out, and a new seed (every question the model answered took 8 s at most on 2,000 such deals). Every
    other attempt asks for the best score from one point above `best` (if given) up to `target`: when the
    bound itself is hard to decide, a better line below it often is not (5p Avalanche round-robin 744: the
    model finds 27 in a second, and cannot decide 28 in minutes). On two cores, CaDiCaL races too
    (`CADICAL`, `sat.Question`), which decides other deals than the pair, in the other configuration's
    place: in the first attempt once the other configuration has done `CADICAL_JOINS` of work undecided
    (the pair decides most of its questions sooner, and those never meet it), and from the start of the
    attempts after it (with three players, Kissat on the ladder in its place from the start of the
    first attempt, where CP-SAT's first configuration yields at once: `clauses.RIVALS`). It has no
    seed to vary, and a restart would lose what it has learnt: one run (`_Rival`) races every attempt
    at the question until the question changes (of 8 slow deals, in 60 s each, a run restarted with
    each odd attempt left 5 undecided, the run kept 3, and in 120 s none).
    Joining the first attempt after 3 s rather than at the second attempt (10 s in), on the 22 slowest
    deals known (3p/4p/5p Avalanche and 5p base, seeds 0-8499, one run each in separate processes,
    alternating): 295.4 -> 260.0 s in all; 8 of the 9 over 10 s each 4.4-6.0 s sooner (5p round-robin
    8240 12.4 -> 6.4 s, 8329 15.1 -> 10.6 s, per seat 3785 19.8 -> 15.2 s, 8001 47.1 -> 41.9 s; 4p per
    seat 8248, which the second attempt's first configuration decides, 15.0 -> 14.8 s); 4p round-robin
    8248, which the pair decides at 6.5 s, 6.7 -> 9.0 s and 5p base round-robin 8450 4.1 -> 4.3 s (three
    racers on two cores); the 11 decided in under 3 s as before. Joining after 2 s instead of 3 was a
    wash (9 of them: 63.7 -> 62.3 s); keeping the pair beside CaDiCaL in the later attempts too did
    worse (5p per seat 3785 15.0 -> 17.9 s, 4p per seat 8071 23.0 -> 31.3 s, 3p per seat 8071 20.8 ->
    25.3 s). Those joins were as a third racer beside the pair; in the other configuration's place
    (stopping it) after 3 s, on the 26 slow deals of `bench_hard.py` (30 s each; two runs each,
    alternating): 137.7-141.5 -> 125.2-126.7 s in all, the wins of CaDiCaL sooner (5p round-robin 8329
    10.8 -> 7.8-8.3 s, 8240 6.4 -> 5.3 s, per seat 3785 19.5-19.8 -> 17.5-17.9 s, 4p round-robin 8248
    11.8-12.0 -> 9.4-10.0 s) and those of the anchored glance too (3p per seat 8071 11.0-11.7 -> 9.5-9.6
    s, 4p per seat 8248 15.0-15.5 -> 13.3-13.4 s); on the 106 mid deals 46.7-48.8 -> 47.9-48.6 s, the
    median 0.26 s. Taking its place after 2 s rather than 3: 125.5 / 122.7 -> 120.0 / 118.1 s on the
    slow deals (4p per seat 8248 13.8 -> 12.2-12.3 s, 5p round-robin 8329 7.7 -> 6.9 s), 44.8 / 43.0 ->
    44.1 / 43.9 s on the mid deals; after 1 s: 123.6 -> 126.3 s and 44.0 -> 51.6 s (the deals the other
    configuration decides in its second second).

    That join is counted in work, not seconds: CP-SAT's deterministic time, the same on every
    machine however busy (one configuration's solve is single-threaded). In seconds, the other
    configuration was stopped after whatever work this machine's load let it do: here (a machine
    about half as fast as the one the seconds were tuned on, three racers on two cores), 0.5-0.8 of
    work in its 2 s, and 4p Avalanche per seat 301, which it decides told the endings after 0.94,
    took 2.5-3.7 s in some runs and 21-27 s in others (the question then waited for the second
    attempt). With `CADICAL_JOINS` 1.0 (about what the 2 s gave on the tuning machine), on the 26
    slow deals, alternating deal by deal in one process: 237.4 -> 217.8 s in all (301 21.5 -> 3.3
    s; 5p round-robin 8240 6.9 -> 8.3 s and 8329 12.8 -> 13.8 s, where CaDiCaL now joins later on
    this machine); on the 106 mid deals 132.3 -> 136.4 s, 16 -> 13 over 2 s.

    Where CaDiCaL races, the first configuration stops after `FIRST_YIELDS` of work in the first attempt
    (counted as `CADICAL_JOINS` is, above; first measured as 4 s), and leaves the rest of it to CaDiCaL
    and the anchored glance (below), a core each: on the slow deals, CP-SAT decided none of its
    questions after 3 s (CaDiCaL or the glance did), and on the mid deals none after 2.8 s. On the 26
    slow deals (two runs, alternating): 118.0 / 119.2 -> 111.8 / 108.3 s in all (4p per seat 8248
    12.3-12.5 -> 9.1-9.4 s, 5p per seat 3785 16.2-16.4 -> 13.4-13.5 s, 3p per seat 8071 8.9-9.1 ->
    7.2-7.4 s, 4p round-robin 8248 8.9 -> 7.2-7.6 s); on the 106 mid deals, 44.8 / 43.4 -> 45.4 / 43.8
    s. A deal the first configuration would decide after 4 s waits for the second attempt (10 s in,
    another seed); none of those measured then did. On this slower machine, 4 s gave it 1.1-1.7 of work,
    and 5p Avalanche round-robin 3785, which it decides with seed 1 after 2.81 (5.2 s alone here),
    waited for the second attempt, whose seed did not decide it in 6.9 (27-31 s in all). With 3.0 of
    work (both joins counted in work, alternating deal by deal): on the 26 slow deals 216.8 -> 213.6 s
    in all, round-robin 3785 27.0 -> 8.7 s, per seat 3785 undecided at 30 s -> 27.4 s, but 4p per seat
    8248 11.6 -> 18.5 s and 3p per seat 8071 16.4 -> 22.3 s (CaDiCaL and the anchored glance get the
    second core later); on the 106 mid deals 143.8 -> 123.6 s, 17 -> 15 over 2 s, the longest 28.4 ->
    9.5 s.

    In the attempts after the first, CP-SAT (a new seed) stops at once where CaDiCaL and the anchored
    glance both race and no floor is asked (`MODEL_AGAIN` False): of the 26 slow deals traced, the
    second attempts' CP-SAT decided none (CaDiCaL or the anchored glance did, sharing the two cores with
    it: 3p per seat 8071, 4p round-robin and per seat 8248, 5p round-robin 8329), and a core each
    answers sooner. Alternating deal by deal (two runs, 30 s each): 208.1 / 209.1 -> 194.5 / 201.2 s
    in all, the median of the per-deal ratios 0.986 / 0.947; 5p per seat 3785 29.7 / 29.2 -> 22.0 /
    21.9 s, 4p round-robin 8248 20.3 / 17.3 -> 16.6 / 16.0 s, 3p per seat 8071 13.4 / 17.8 -> 13.8 /
    14.8 s, 4p per seat 8248 21.3 / 20.7 -> 17.0 / 22.2 s. (The deals decided within the first attempt,
    all but 7 of these and every one of the 106 mid deals, are not concerned.)

    On two cores or more (`RACE`), a question without a floor has two configurations racing for its
    whole time (`sat.Question`). Once the model has joined, the search seldom finds the line first
    (the model answered first on all 64 deals where it joined among seeds 0-999 of 5p Avalanche, both
    deal orders, and 4p per seat), and two configurations answer sooner than one beside the search:
    racing for the whole question rather than its first second, on the 98 slowest deals of the
    benchmarks' 4p/5p Avalanche sets, two runs each in separate processes, alternating: 86.0 -> 82.6
    s and 83.4 -> 78.6 s in all, the median deal 0.98x; 4p round-robin 1581 4.1-4.3 -> 2.0-2.2 s, per
    seat 257 2.8-3.1 -> 1.5-2.2 s. So the search waits: for a question told its endings, until the
    answer (below the maximum the model decides first); otherwise for `RACE_FIRST` seconds, then it
    climbs beside the pair and makes its burning restarts (`_climb`), and waits again. Some wins only
    the search finds soon: 4p round-robin 1887, where both configurations take 6.6 s, and a restart
    that burns cards finds the line (6.9 -> 3.0 s; 74.4 s either way on the 98 others). After the
    pair's first second (not two) the search's turn cost the others 4.5%: three threads on two cores.

    Glucose's anchored glance (`_anchored`), which looks for a line reaching `target` that begins as
    `line` does, then asks the whole question on the ladder encoding (a refutation of its own counts as
    CaDiCaL's; with no anchor, the glance at the top goes on in its place where it is asking that very
    question: `TOP_LADDER`, and CP-SAT's first configuration yields to it at once: `ADOPTED_ALONE`),
    races too: from `ANCHORED_JOINS` seconds into the first attempt, and like CaDiCaL's run it goes on
    from one attempt to the next until the question changes (`rival`). The caller's `stop` ends the
    search's wait for the pair at once."""
    from solver import clauses

    seconds = MODEL_TIME * 2**attempt
    if deadline is not None:
        seconds = min(seconds, deadline - time.perf_counter())
    floor = best + 1 if best is not None and attempt % 2 and best + 1 < target else None
    heights = _told(ends, target)
    starter = rival.on(model, root, target, heights, deadline) if rival is not None and RACE and CADICAL else None
    at_once = model.rules.players in clauses.RIVALS  # (Kissat: from the start, alone beside the anchored glance)
    joins = 0.0 if attempt or at_once else CADICAL_JOINS
    anchored = rival.anchored(model, root, target, line, heights) if rival is not None and RACE else None
    if rival is not None and glance is not None and anchored is not None and _whole_only(anchored, glance):
        rival.adopt(target, glance)  # (the glance at the top is that whole question: it goes on in its place)
        anchored, glance = glance, None
    first_for = (0.0 if at_once else FIRST_YIELDS) if attempt == 0 else None
    adopted = anchored is not None and anchored.anchors is None  # (only the glance at the top has none)
    if adopted and ADOPTED_ALONE and floor is None and starter is not None:
        first_for = 0.0  # (the adopted glance has a core, the second configuration then CaDiCaL the other)
    rivals_race = starter is not None and anchored is not None and anchored.started and not anchored.done.is_set()
    if attempt and floor is None and rivals_race and not MODEL_AGAIN:
        first_for = 0.0  # (CaDiCaL and the anchored glance race on, a core each)
    question = sat.Question(
        model,
        target,
        seconds,
        root,
        line,
        1 + attempt,
        floor,
        RACE,
        heights,
        starter,
        joins,
        glance,
        anchored,
        ANCHORED_JOINS,
        first_for,
    )
    if glance is not None and not question.glancing:
        glance.stop()
    question.start()
    if question.racing:
        _wait(question.done, stop, seconds if heights and floor is None else min(RACE_FIRST, seconds))
    return question


# Seconds into the model's first question (the glance at its top has raced in the second configuration's
# place by then) before Glucose's anchored glance joins the pair as a third racer, in the helper process
# (see `_anchored`). On the 26 slow deals of `bench_hard.py` (30 s each): 209.8 -> 139.0 s in all; 3p and
# 4p round-robin 8071, undecided before, won in 2.6 and 4.4 s; 4p per seat 8071 22.6 -> 2.8 s, 1730
# 2.7 -> 1.0 s; 5p base 8450 4.5 -> 1.4 s; slower as a third racer: 4p round-robin 8248 7.8 -> 11.0 s,
# 5p round-robin 3785 1.9 -> 2.9 s. On the 106 mid deals (two runs each, alternating): 44.7-45.2 ->
# 41.7-42.4 s in all, the median 0.220-0.230 -> 0.225-0.235 s. (That glance gave each anchor 5 s and
# raced the first attempt only; with a budget of conflicts, kept across attempts: 139.3 -> 132.4 s on
# the slow deals, 3p per seat 8071 20.8 -> 10.9 s, 5p per seat 3785 16.3 -> 18.9 s; 42.7 s either way
# on the mid deals. 3 s each instead of 5: 139.0 -> 137.3 s, 42.0 -> 41.3 s; 8 s: neither.)
# Once its anchors have found no line, it asks the whole question, told its endings, with the clue tokens
# as a ladder (`ANCHORED_WHOLE`): a refutation as well as a line decides the question then (with a floor,
# the refutation is of the target: `sat.Question.target_refuted`). CaDiCaL races on the solver's clauses
# meanwhile, and the two fail on different deals: alone on the first question of 5p round-robin 8329
# (refuting 30), Glucose takes 7.6 s on the solver's clauses and 2.2 s on the ladder, CaDiCaL 8.0 s;
# on per seat 3785 (a win at 30), Glucose on the ladder is undecided after 20 s, CaDiCaL wins in 15 s
# (`benchmarks/bench_members.py --ladder`). Until then the second core sat idle once the anchors
# were done. On the 26 slow deals (two runs, alternating deal by deal): 128.2 / 130.7 -> 121.2 / 123.5 s
# in all, 8329 11.3 / 11.3 -> 5.9 / 5.6 s (the reference SAT encoding: 2.5 s), the others within
# noise; on the 106 mid deals 65.4 -> 66.6 s, the median 0.328 -> 0.334 s (noise).
ANCHORED_JOINS = 0.5
ANCHORED_WHOLE = True
# Glucose's glance at the top asks a question without endings (at the maximum, most often) on the ladder
# encoding of the clue tokens, one told endings on the nine values (`_Glances.start`). Where the model's
# first question is that very question and its anchored glance would have no anchor (the bounds refute
# the first anchor: a refutation, most often), the glance at the top goes on as the anchored glance's
# whole question (`_whole_only`), rather than stopping after its lead and the question being asked again
# from scratch. Against the whole question alone (two runs of the 26 slow deals, one of the 106 mid deals,
# alternating deal by deal): 107.4 / 120.8 -> 107.9 / 114.8 s in all, 5p round-robin 8329 4.6 / 5.1 ->
# 3.1 / 3.8 s (the glance goes on), 4p per seat 257 3.1 / 2.6 -> 1.2 / 1.2 s (the ladder decides it within
# its lead), but 5p per seat 3239 0.9 / 1.1 -> 2.1 / 2.5 s (the ladder needs 23,000 conflicts where the
# nine values need 15,000: past its lead); mid 54.4 -> 49.5 s, the median 0.263 -> 0.253 s (5p round-robin
# 1587 3.2 -> 1.4 s, per seat 646 1.4 -> 0.4 s, 4p per seat 257 2.9 -> 1.4 s; 5p per seat 36 0.2 -> 0.5 s).
# A lead of 30,000 conflicts for every glance instead of 20,000 (`GLANCE_LEAD`): slow 109.1 -> 105.5 s
# (5p round-robin 8240 5.7 -> 2.8 s, per seat 3239 2.4 -> 1.7 s), mid 47.6 -> 50.8 s (4p per seat 301,
# whose glance is told endings, 2.4 -> 3.4 s); not taken.
TOP_LADDER = True
# Where the glance at the top was adopted, CP-SAT's first configuration yields at once (no floor, CaDiCaL
# racing): three solvers on two cores gave the glance two thirds of one (5p round-robin 8329: Glucose
# alone refutes 30 in 2.2-3.0 s, in the portfolio 3.1-4.8 s). Alternating deal by deal, on a slow
# afternoon: the 26 slow deals 134.6 -> 137.4 s in all, the median of the per-deal ratios 1.023 (8329
# 4.8 -> 3.5 s; the others within noise: 4p per seat 3236, 2.5 -> 4.6 s, is decided by the glance on
# the nine values just past its lead, or not, whichever runs); the 106 mid deals 58.5 -> 59.7 s, 1.004.
ADOPTED_ALONE = True
# The anchors: the best line's first quarter of moves, then 4 fewer each time down to one, each given
# 100,000 conflicts (Glucose: 3-6 s alone on these questions; a budget, not seconds, so that a busy
# machine gets the same answers). Along the best line after 3 s of the solver, the longest anchor with
# a 30 was 9-10 moves of 66-67 on 3p/4p round-robin 8071 and 4p per seat 8248, 3-4 on 3p/4p per seat
# 8071, 9 of 54 on 5p base 8450.
ANCHOR_FROM, ANCHOR_STEP, ANCHOR_CONFLICTS = 4, 4, 100_000


def _anchored(model: Deal, root: Position, target: int, line: list[Move], heights: Sequence[Heights] = ()) -> Glance | None:
    """Glucose's anchored glance at `target` along the best `line` found (`solver.glance`; None where
    the clauses do not cover the deal, or where it would have nothing to ask: no anchor, and no whole
    question): lines that begin as `line` does, for its first quarter of moves (`ANCHOR_FROM`), then
    `ANCHOR_STEP` fewer each time down to one (none past a move that the bounds show loses the target:
    `anchors_of`), `ANCHOR_CONFLICTS` each; then, if `ANCHORED_WHOLE`, the whole question, told its
    endings `heights`. It races the model's question from `ANCHORED_JOINS` seconds into the first
    attempt, and the attempts after it (see `_Rival`)."""
    anchors = anchors_of(model, root, target, line)
    if not (anchors or ANCHORED_WHOLE) or not glances(model):
        return None
    whole = Anchors(tuple(line), anchors, ANCHOR_CONFLICTS, ANCHORED_WHOLE)
    return Glance(model, target, root, heights, anchors=whole, ladder=True)


def _whole_only(anchored: Glance, glance: Glance) -> bool:
    """Is `anchored` only the whole question (no anchor), which `glance` (Glucose's glance at the
    top, still running) is already asking on the same encoding?"""
    anchors = anchored.anchors
    same = glance.question == anchored.question
    return anchors is not None and anchors.whole and not anchors.kept and same and not glance.done.is_set()


def anchors_of(model: Deal, root: Position, target: int, line: Sequence[Move]) -> tuple[int, ...]:
    """The anchors of `_anchored` along `line` from `root`: how many of its first moves each anchored
    question keeps, from the most down. None keeps so many moves that the bounds (`upper_bound`) show
    the position after them short of `target`: no line reaches it from there, nor from any later
    position of `line`. (On 4p Avalanche per seat 8248, Glucose took 2.6 s to refute an anchor of 16
    moves that the pace bound refutes at once.)"""
    kept: list[int] = []
    position, played = root, 0
    for anchor in reversed(range(len(line) // ANCHOR_FROM, 0, -ANCHOR_STEP)):  # (from the fewest up)
        for move in line[played:anchor]:
            position = model.play(position, move)
        played = anchor
        if upper_bound(model, position, target) < target:
            break
        kept.append(anchor)
    return tuple(reversed(kept))


class _Rival:
    """CaDiCaL's run on the model's question (`solver.clauses.Rival`) and Glucose's anchored glance
    at it (`_anchored`), kept from one attempt at it to the next (see `_ask`), and stopped once the
    question changes."""

    def __init__(self) -> None:
        self._run: Rival | None = None
        self._anchored: tuple[int, Glance | None] | None = None  # the target, and its anchored glance

    def anchored(
        self, model: Deal, root: Position, target: int, line: list[Move], heights: Sequence[Heights] = ()
    ) -> Glance | None:
        """The anchored glance at `target` (told its endings `heights`) along `line` (the one made at
        the first attempt at the target, started or not, running or done), after stopping one at
        another target."""
        if self._anchored is not None and self._anchored[0] != target:
            self._stop_anchored()
        if self._anchored is None:
            self._anchored = (target, _anchored(model, root, target, line, heights))
        return self._anchored[1]

    def adopt(self, target: int, glance: Glance) -> None:
        """Take `glance` (running) as the anchored glance at `target`, in place of the one made."""
        self._stop_anchored()
        self._anchored = (target, glance)

    def _stop_anchored(self) -> None:
        if self._anchored is not None and self._anchored[1] is not None:
            self._anchored[1].stop()
        self._anchored = None

    def on(
        self, model: Deal, root: Position, target: int, heights: Sequence[Heights], deadline: float | None
    ) -> Callable[[], Rival] | None:
        """Stop a run on another question than this one (for `target`, told `heights`), and return
        what gives the run on this one when called (from the question's thread), started then if not
        yet running; None where the clauses do not apply."""
        from solver import clauses

        if self._run is not None and (self._run.target, self._run.ends) != (target, tuple(heights)):
            self.stop()
        return partial(self._start, model, root, target, heights, deadline) if clauses.applies(model) else None

    def _start(self, model: Deal, root: Position, target: int, heights: Sequence[Heights], deadline: float | None) -> Rival:
        from solver import clauses

        if self._run is None:
            seconds = None if deadline is None else max(0.01, deadline - time.perf_counter())
            self._run = clauses.Rival(model, target, root, heights, seconds)
        return self._run

    def stop(self) -> None:
        """Stop the run and the anchored glance, if any."""
        if self._run is not None:
            self._run.run.stop()
            self._run = None
        self._stop_anchored()


def _found(question: sat.Question) -> list[Move] | None:
    """The line a finished or stopped question found (None: none found, or none exists)."""
    try:
        return question.answer()
    except OutOfBudget:
        return None


def _slice(search: Search, positions: int, node_limit: int | None) -> None:
    """Let the search go `positions` further, or to the caller's `node_limit` if that comes first."""
    share = search.nodes + positions
    search.node_limit = share if node_limit is None else min(node_limit, share)


def _caller_budget_spent(search: Search, node_limit: int | None, deadline: float | None) -> bool:
    """Has the caller's own node limit or deadline run out, or has the caller stopped the search (not a
    slice's budget, nor an interrupt)?"""
    if search.stop is not None and search.stop():
        return True
    return (node_limit is not None and search.nodes > node_limit) or (deadline is not None and time.perf_counter() >= deadline)


def _report(search: Search, best: int, top: int) -> None:
    """Tell the caller's `report` (if any) the best score found and the most not yet refuted."""
    if search.report is not None:
        search.report(best, top)


def _wait(done: threading.Event, stop: Callable[[], bool] | None, seconds: float | None = None) -> None:
    """Wait until `done` is set, `seconds` have passed, or `stop` says to stop (asked every 50 ms)."""
    if stop is None:
        done.wait(seconds)
        return
    end = None if seconds is None else time.perf_counter() + seconds
    while not stop():
        left = None if end is None else end - time.perf_counter()
        if (left is not None and left <= 0) or done.wait(0.05 if left is None else min(0.05, left)):
            return


def _final_score(model: Deal, position: Position, line: list[Move]) -> int:
    for move in line:
        position = model.play(position, move)
    return model.score(position)


def to_actions(
    settings: Settings, deck: Sequence[Card], line: list[Move], state: GameState | None = None, checked: bool = False
) -> tuple[list[Action], GameState]:
    """The model's moves as engine actions (slots, hint targets and clues chosen to match), replayed
    through the engine from `state` (default: the opening deal), which refuses any illegal one; also
    the engine's final state. `checked`: `deck` is known to be the variant's full deck (see `deducer.dealer.advance`)."""
    table = Table(deal(GameState.new(settings), deck, checked) if state is None else state)  # the line, played in place
    suits = settings.variant.suits
    actions: list[Action] = []
    for move in line:
        kind, card = move
        seat = table.current
        hand = table.hands[seat]
        action: Action
        if kind == HINT:
            target = _hinted(table.hands, seat)
            first = table.hands[target][0].card if table.hands[target] else None
            rank = first.rank if first else 1
            action = _hint(seat, target, rank)  # the engine finds the slots it touches in the known hand
        elif kind == PASS:
            action = Pass(seat)
        else:
            slot = _slot(table, hand, card, suits)
            real = hand[slot - 1].card
            if kind == DISCARD:
                action = _discard(seat, slot, real)
            elif kind == ANNOUNCE:
                action = _play(seat, slot, real, real.suit if real else None)
            elif kind == MISPLAY and real is not None and table.playable(real):
                wrong = next(suit for suit in suits if suit is not real.suit)
                action = _play(seat, slot, real, wrong)
            else:
                action = _play(seat, slot, real)
        actions.append(action)
        play_on(table, action, deck, checked)
    return actions, table.state()


# The actions of the replayed lines: frozen values, each made once (made anew, they took about 9% of the replay).
@cache
def _hint(seat: int, target: int, rank: int) -> Hint:
    return Hint(seat, target, Clue(rank=rank))


_play, _discard = cache(Play), cache(Discard)


def _hinted(hands: list[tuple[HandCard, ...]], seat: int) -> int:
    """The seat a hint of the line goes to: the next one after `seat` holding a card (the next one if none does)."""
    players = len(hands)
    for step in range(1, players):
        target = (seat + step) % players
        if hands[target]:
            return target
    return (seat + 1) % players


def _slot(table: Table, hand: tuple[HandCard, ...], card: int, suits: tuple[Suit, ...]) -> int:
    """The slot (from 1) of the first card in `hand` of the model's `card` id, or of the first trash card for TRASH."""
    if card == TRASH:
        for slot, item in enumerate(hand, 1):
            if item.card is not None and table.trash(item.card):
                return slot
        raise SolverError(f"internal error: the line lets go of a trash card at {table.where()}, and none is in hand")
    suit, rank = suits[card // 5], card % 5 + 1  # the card's id, as `card_id` gives it
    for slot, item in enumerate(hand, 1):
        known = item.card
        if known is not None and known.rank == rank and known.suit is suit:
            return slot
    raise SolverError(f"internal error: the line moves {suit.letter}{rank} at {table.where()}, which is not in hand")
