"""The constraint model's questions (`ask`: can a line score the target?) and the solvers racing
each: CP-SAT's two configurations, CaDiCaL, and Glucose's anchored glance (`Rivals`)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from solver import race
from solver.bounds import upper_bound
from solver.endings import Endings, Heights
from solver.glance import Anchors, Glance, glances
from solver.model import Deal, Move, Position
from solver.search import OutOfBudget

if TYPE_CHECKING:
    from solver.clauses import Rival


MODEL_TIME = 10.0  # seconds of the model's first attempt at a question (see `ask`)
# Does a second configuration of the model race the first on each question, the search waiting
# meanwhile (see `ask`)? Not on a single core.
RACE = (os.cpu_count() or 1) >= 2
CADICAL = True  # CaDiCaL races the model's questions (see `ask`)
RACE_FIRST = 2.0  # seconds the pair races alone, before the search climbs beside it (see `ask`)
# The other configuration's work in the first attempt (CP-SAT's deterministic time) before CaDiCaL takes its place (see `ask`)
CADICAL_JOINS = 1.0
# The first configuration's work in the first attempt (CP-SAT's deterministic time) before it leaves it to its rivals (`ask`)
FIRST_YIELDS = 3.0
MODEL_AGAIN = False  # does CP-SAT race CaDiCaL and the anchored glance in the attempts after the first (see `ask`)?


def ask(
    model: Deal,
    root: Position,
    target: int,
    deadline: float | None,
    line: list[Move],
    attempt: int = 0,
    best: int | None = None,
    ends: Endings | None = None,
    rival: Rivals | None = None,
    glance: Glance | None = None,
    stop: Callable[[], bool] | None = None,
) -> race.Question:
    """The model's question for `target` from `root`, started in the background, with the best `line`
    found so far (scoring `best`) as the solver's hint.

    CP-SAT's time on a win varies tenfold with its random seed (a few 5p Avalanche deals: 1 s on most
    seeds, 15-20 s on some), so an attempt gets `MODEL_TIME` seconds, twice as many each time it runs
    out, and a new seed (every question the model answered took 8 s at most on 2,000 such deals). Every
    other attempt asks for the best score from one point above `best` (if given) up to `target`: when the
    bound itself is hard to decide, a better line below it often is not (5p Avalanche round-robin 744: the
    model finds 27 in a second, and cannot decide 28 in minutes). On two cores, CaDiCaL races too
    (`CADICAL`, `race.Question`), which decides other deals than the pair, in the other configuration's
    place: in the first attempt once the other configuration has done `CADICAL_JOINS` of work undecided
    (the pair decides most of its questions sooner, and those never meet it), and from the start of the
    attempts after it (with three players, Kissat on the ladder in its place from the start of the
    first attempt, where CP-SAT's first configuration yields at once: `clauses.RIVALS`). It has no
    seed to vary, and a restart would lose what it has learnt: one run (`Rivals`) races every attempt
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
    whole time (`race.Question`). Once the model has joined, the search seldom finds the line first
    (the model answered first on all 64 deals where it joined among seeds 0-999 of 5p Avalanche, both
    deal orders, and 4p per seat), and two configurations answer sooner than one beside the search:
    racing for the whole question rather than its first second, on the 98 slowest deals of the
    benchmarks' 4p/5p Avalanche sets, two runs each in separate processes, alternating: 86.0 -> 82.6
    s and 83.4 -> 78.6 s in all, the median deal 0.98x; 4p round-robin 1581 4.1-4.3 -> 2.0-2.2 s, per
    seat 257 2.8-3.1 -> 1.5-2.2 s. So the search waits: for a question told its endings, until the
    answer (below the maximum the model decides first); otherwise for `RACE_FIRST` seconds, then it
    climbs beside the pair and makes its burning restarts (`solver.climb.climb`), and waits again. Some wins only
    the search finds soon: 4p round-robin 1887, where both configurations take 6.6 s, and a restart
    that burns cards finds the line (6.9 -> 3.0 s; 74.4 s either way on the 98 others). After the
    pair's first second (not two) the search's turn cost the others 4.5%: three threads on two cores.

    Glucose's anchored glance (`_anchored`), which looks for a line reaching `target` that begins as
    `line` does, then asks the whole question on the ladder encoding (a refutation of its own counts as
    CaDiCaL's; with no anchor, the glance at the top goes on in its place where it is asking that very
    question: `solver.tops.TOP_LADDER`, and CP-SAT's first configuration yields to it at once: `ADOPTED_ALONE`),
    races too: from `ANCHORED_JOINS` seconds into the first attempt, and like CaDiCaL's run it goes on
    from one attempt to the next until the question changes (`rival`). The caller's `stop` ends the
    search's wait for the pair at once."""
    from solver import clauses

    seconds = MODEL_TIME * 2**attempt
    if deadline is not None:
        seconds = min(seconds, deadline - time.perf_counter())
    floor = best + 1 if best is not None and attempt % 2 and best + 1 < target else None
    heights = told(ends, target)
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
    question = race.Question(
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
        wait(question.done, stop, seconds if heights and floor is None else min(RACE_FIRST, seconds))
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
# the refutation is of the target: `race.Question.target_refuted`). CaDiCaL races on the solver's clauses
# meanwhile, and the two fail on different deals: alone on the first question of 5p round-robin 8329
# (refuting 30), Glucose takes 7.6 s on the solver's clauses and 2.2 s on the ladder, CaDiCaL 8.0 s;
# on per seat 3785 (a win at 30), Glucose on the ladder is undecided after 20 s, CaDiCaL wins in 15 s
# (`benchmarks/bench_members.py --ladder`). Until then the second core sat idle once the anchors
# were done. On the 26 slow deals (two runs, alternating deal by deal): 128.2 / 130.7 -> 121.2 / 123.5 s
# in all, 8329 11.3 / 11.3 -> 5.9 / 5.6 s (the reference SAT encoding: 2.5 s), the others within
# noise; on the 106 mid deals 65.4 -> 66.6 s, the median 0.328 -> 0.334 s (noise).
ANCHORED_JOINS = 0.5
ANCHORED_WHOLE = True
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
    attempt, and the attempts after it (see `Rivals`)."""
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


class Rivals:
    """CaDiCaL's run on the model's question (`solver.clauses.Rival`) and Glucose's anchored glance
    at it (`_anchored`), kept from one attempt at it to the next (see `ask`), and stopped once the
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


def found_line(question: race.Question) -> list[Move] | None:
    """The line a finished or stopped question found (None: none found, or none exists)."""
    try:
        return question.answer()
    except OutOfBudget:
        return None


def wait(done: threading.Event, stop: Callable[[], bool] | None, seconds: float | None = None) -> None:
    """Wait until `done` is set, `seconds` have passed, or `stop` says to stop (asked every 50 ms)."""
    if stop is None:
        done.wait(seconds)
        return
    end = None if seconds is None else time.perf_counter() + seconds
    while not stop():
        left = None if end is None else end - time.perf_counter()
        if (left is not None and left <= 0) or done.wait(0.05 if left is None else min(0.05, left)):
            return


def told(ends: Endings | None, target: int) -> tuple[Heights, ...]:
    """The endings of `target` left open, to tell the question for it (none: ask it as it is)."""
    return ends.open if ends is not None and ends.score == target else ()


def refuted_by_model(crowning: bool, target: int, ends: Endings | None) -> str:
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
