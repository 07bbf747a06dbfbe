"""The constraint model's question, raced: CP-SAT's two configurations in threads, CaDiCaL in a child
process and Glucose's glances beside them, the first to decide answering (`Question`); `reach` asks
one question alone. The model itself is `solver.sat`'s."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from deducer.settings import Ending
from solver import cpsat, sat
from solver.endings import Heights
from solver.model import Deal, Move, Position
from solver.search import OutOfBudget

if TYPE_CHECKING:  # OR-Tools takes 0.25 s to import (`solver.cpsat`): only deals that reach the model pay for it
    from ortools.sat.python import cp_model

    from solver.clauses import Rival
    from solver.glance import Glance


# Where Glucose's glance at a question told its endings races it (in the other configuration's place,
# until its lead is spent), the first configuration is the one told the endings, without the linear
# relaxation, and the other asks the question as it is, with it, once the glance has had its lead: told
# the endings, CP-SAT without the relaxation decides the losses at the bound that the glance does not
# (4p Avalanche per seat 301: 0.9-1.0 s, against 8.9 s as it is), and it no longer waits for the glance's
# lead (about a second there). Alternating deal by deal against the other way round (`bench_hard.py
# --against`): 301 2.81 / 2.52 / 2.61 -> 1.97 / 1.96 / 1.98 s (mid, mid, slow), 2.51-2.76 -> 1.95-2.30 s
# in fresh processes; the 106 mid deals 44.7 / 53.6 -> 43.8 / 52.8 s in all (the median of the per-deal
# ratios 1.007 / 1.014: noise), the 26 slow deals 93.3 -> 92.8 s (0.999); 4p round-robin 839, which the
# relaxation decides as it is in 0.3 s, 0.73-0.85 -> 0.64-0.89 s in fresh processes.
TOLD_FIRST = True


def reach(deal: Deal, target: int, seconds: float | None = None, root: Position | None = None) -> list[Move] | None:
    """A line from `root` (default: the opening deal) scoring at least `target`, or None if there is none.

    Raises `OutOfBudget` when `seconds` run out first. Only for deals that `solver.sat.applies` accepts."""
    question = Question(deal, target, seconds, root)
    question.run()
    return question.answer()


class Question:
    """One question to the model ("a line scoring at least `target`?"), solvable in a thread.

    The model is built in the calling thread: built in the background, its many small calls into
    OR-Tools would wait on the interpreter lock behind a busy search (measured: 8x slower). CP-SAT
    releases the lock while it solves, so the search in the main thread goes on at full speed. (The
    one exception: a racing configuration told the endings, whose model is built in the background
    once the first solver has begun, the search waiting.)

    A question may `race`: a second solver without the linear relaxation (`linearization_level` 0) races
    the first, in its own thread, for the question's whole time (unless CaDiCaL takes its place, below);
    the first to decide the question stops the other. Neither is the faster on every deal, and CP-SAT's
    time on a question varies severalfold with its seed, so the pair is much better than either: on the
    22 model-bound wins of the slowest deals of 4p/5p Avalanche (10 s each, seed 1, the search's line as
    the hint), 28.7 s in all and 6.8 s at most for the usual configuration, 25.6 and 4.0 s for the
    other, 18.1 and 3.7 s for the pair (4p round-robin 1581: 6.8 and 1.9 s alone). (CP-SAT's own
    portfolio of two workers took 27.0 s, 4.2 s at most.)

    A raced question told its endings (`solver.endings`) is asked both ways: as it is by the usual
    configuration, and told the endings by the other (the other way round where Glucose's glance at it,
    told the endings, races: `TOLD_FIRST`). On the 18 losses of 4p/5p Avalanche where the
    model was told endings (the 94 slowest deals of the benchmarks' sets, seed 1, the search's line
    as the hint), told its endings the model decided 5p round-robin 744 (3.0 s, undecided as it is)
    and 4p per seat 301 (1.1 s against 9.9), and as it is 4p round-robin 839 (0.3 s against 2.3):
    the pair took 3.0 s at most, 9.9 s in all.

    CaDiCaL may race too (`rival`), in the other configuration's place: the same question as plain
    clauses (`solver.clauses`), told the endings, solved in a child process (`solver.cadical`) that
    may go on from one question to the next (the question ends with its own time, not the child's).
    It fails on other deals than CP-SAT does, refutations above all: alone on the first question, on
    the slowest deals of fresh seeds, 5p Avalanche round-robin 8240 at 30 in 2.6 s and 8329 in 8.6 s,
    4p per seat 3236 at 28 in 0.04 s, 5p round-robin 744 at 28 in 8.6 s (both CP-SAT configurations
    undecided after 30-40 s on all but 3236: 0.4-0.8 s); but 5p per seat 3785, a win, over 30 s (14.7
    s without the LP). With a floor, it races for the target itself: its line decides the question
    (no line beats the target), and its proof that no line reaches the target (`target_refuted`)
    leaves the question below it undecided, and the target out of reach.

    Glucose's anchored glance (`solver.glance`) may race too, as a third racer: it looks for a line
    that begins as the best line found does, then may ask the whole question (`Anchors.whole`); a
    line it finds decides the question, and so does its refutation (with a floor, it refutes the
    target, as CaDiCaL's does)."""

    def __init__(
        self,
        deal: Deal,
        target: int,
        seconds: float | None = None,
        root: Position | None = None,
        line: list[Move] | None = None,
        seed: int = 1,
        floor: int | None = None,
        race: bool = False,
        ends: Sequence[Heights] = (),
        rival: Callable[[], Rival] | None = None,
        rival_after: float = 0.0,
        glance: Glance | None = None,
        anchored: Glance | None = None,
        anchored_after: float = 0.0,
        first_for: float | None = None,
    ) -> None:
        """`line`, a line from `root` (the best found so far), is where the solver starts looking;
        `seed` is CP-SAT's random seed. With a `floor` below `target` (standard rules), the question
        is the best score from `floor` up to `target`, which no line may beat (see `answer`).
        `race`: rivals race the first configuration (see the class): the other configuration (not
        with a `floor`), and CaDiCaL's run on this question (for `target`, told `ends`) if `rival` is
        given: called once the other configuration has spent `rival_after` of CP-SAT's deterministic
        time undecided (its unit of work: the same on a busy or a slow machine as on an idle one), it
        returns the run (started then, or already running), which races for the rest of the
        question's time and is left running. It takes the other configuration's place: with
        `rival_after` 0, the other never starts; otherwise the other stops after that much work.
        `ends` (standard rules): the question is a line whose fireworks end at one of these heights,
        each summing to `target`, which no line may beat (`solver.endings`); with a `floor`, only
        CaDiCaL's (its question is the target).
        `glance`: Glucose's glance (`solver.glance`), already running; if it is at this very question
        (the target, told `ends`) and the pair races, it keeps the other configuration's place until
        it has had its lead (`led`: its conflicts spent; at once if it has spent them already): its
        answer counts if it decides first; if not, it is stopped, and the other configuration starts.
        The models' builds hear it: one that it decides during stops there (`_unless_glanced`).
        Otherwise the caller stops it.
        `anchored`: Glucose's anchored glance (a `solver.glance.Glance` given `anchors`) at lines
        reaching `target` that begin as the best line found (then at the whole question, for the
        target, told `ends`, if its anchors say so): started once the question has run
        `anchored_after` seconds undecided (unless an earlier question started it), it races for the
        rest of the question's time and is left running (a line it finds decides the question, and
        so does its proof that none exists, as CaDiCaL's does). The caller stops it.
        `first_for`: the first configuration's own work (CP-SAT's deterministic time), if it is to
        stop before the question's time is up: it stops then, and the rivals race on (only where
        CaDiCaL races: see `solver.questions.ask`); with 0 and no pair racing, CP-SAT takes no part."""
        cpsat.load()
        from ortools.sat.python import cp_model

        if not sat.applies(deal):
            raise ValueError("the constraint model needs two or more cards in hand, and no passing (stuck=pass)")
        self.deal = deal
        self.target = target
        self.floor = floor if floor is not None and floor < target and deal.rules.ending is Ending.STANDARD else None
        self.root = deal.start() if root is None else root
        self._seconds = seconds
        self.done = threading.Event()
        ends = ends if deal.rules.ending is Ending.STANDARD else ()
        # The pair of configurations races unless CaDiCaL races from the start (in the other's place).
        racing = race and self.floor is None and (rival is None or rival_after > 0)
        # Each solver's model, and how to read its line: the first is told the endings only when it has no
        # rival (which is told them) and no floor, or a glance told them races (`TOLD_FIRST`, below).
        told = not race and self.floor is None
        self._starter = rival if race else None  # CaDiCaL's (see `__init__`)
        # Where the first configuration would yield at once (`first_for` 0) to a rival racing from the
        # start, and no pair races, CP-SAT takes no part: its model is not built (0.25 s on 3p Avalanche,
        # in this thread, before the rival could start).
        idle = first_for is not None and first_for <= 0 and self._starter is not None and not racing
        # Glucose's glance at this very question, already running: in a racing pair, it keeps the
        # other configuration's place until it has had its lead.
        self._glance = glance if glance is not None and racing and (glance.target, glance.ends) == (target, tuple(ends)) else None
        # Where a glance told the endings races, the first configuration is told them instead (`TOLD_FIRST`).
        self._told_first = TOLD_FIRST and self._glance is not None and bool(ends)
        first = None if idle else self._unless_glanced(self.floor, ends if told or self._told_first else (), line)
        self._models = [] if first is None else [first]
        self._rival: Rival | None = None  # CaDiCaL, once racing for the target (told its endings)
        self._true: set[int] | None = None  # CaDiCaL's solution, when it decided the question first
        self._began = 0.0  # when `run` began
        self.target_refuted = False  # CaDiCaL (or the anchored glance) proved that no line reaches the target (see the class)
        self._solver = cp_model.CpSolver()
        self._solver.parameters.num_workers = 1
        self._solver.parameters.random_seed = seed
        self._solver.parameters.cp_model_probing_level = 0  # probing took most of the time on hard deals
        # One round of presolve, not three: the later rounds found almost nothing more and took a third
        # of the time of a win at 5p Avalanche (13 model-bound deals: 60.8 s -> 31.8 s in all).
        self._solver.parameters.max_presolve_iterations = 1
        # No inprocessing (the periodic clause vivification and probing): our questions are answered
        # in seconds, too soon for it to pay back (12 model-bound wins of 4p/5p Avalanche: 38 s -> 23 s).
        self._solver.parameters.use_sat_inprocessing = False
        # A Ctrl-C is the program's, not the model's: CP-SAT's own handler, once a solve had run, left
        # SIGINT killing the process outright (no "interrupted", no cleanup: CaDiCaL's child lived on).
        self._solver.parameters.catch_sigint_signal = False
        if seconds is not None:
            self._solver.parameters.max_time_in_seconds = max(0.01, seconds)
        self._solvers = [] if idle else [self._solver]
        if racing:
            other = cp_model.CpSolver()
            other.parameters.copy_from(self._solver.parameters)
            (self._solver if self._told_first else other).parameters.linearization_level = 0  # (`TOLD_FIRST`)
            self._solvers.append(other)
            if self._starter is not None:  # (CaDiCaL takes its place once it has done this much work)
                other.parameters.max_deterministic_time = rival_after
            if not ends and first is not None:
                self._models.append(first)
        if first_for is not None and self._starter is not None:
            self._solver.parameters.max_deterministic_time = first_for  # (after the other's copy)
        # Told the endings (or not, where the first is: `TOLD_FIRST`), the other's model differs (its
        # windows too): it is built once the first solver has begun (see `run`), which starts 0.2-0.3 s
        # sooner on 4p/5p Avalanche (the 52 slow losses, best of two alternating runs: 72.1 -> 68.4 s in
        # all, 11 -> 7 over 2 s).
        self._told = ((), line) if self._told_first else (ends, line)
        self._status: cp_model.CpSolverStatus | None = None
        self._winner = self._solver  # the solver whose answer counts
        self._lock = threading.Lock()
        self._decided = threading.Event()  # a racing solver has decided the question
        self._over = threading.Event()  # the question is decided or stopped: CaDiCaL's racer stops waiting
        self._thread: threading.Thread | None = None
        self._spent = threading.Event()  # the other configuration has done its work undecided (or never races)
        self._glanced: list[Move] | None = None  # the glance's line, when it decided the question first
        self._anchored = (anchored, anchored_after) if anchored is not None and race else None
        if self._glance is not None and first is None:  # (it decided the question while the model was built)
            self._solvers, self._starter, self._anchored = [], None, None
            self._take_glance(self._glance)

    def run(self) -> None:
        """Solve, in this thread (the rival, if any, in another)."""
        try:
            if self._decided.is_set():  # (by the glance, while the model was built: nothing to solve)
                return
            if not self.racing:
                self._status = self._solver.solve(self._models[0][0])
                return
            if len(self._solvers) < 2:  # (CaDiCaL races from the start)
                self._spent.set()
            threads = [threading.Thread(target=self._race, args=(solver,), daemon=True) for solver in self._solvers]
            if self._glance is not None:
                threads[1] = threading.Thread(target=self._race_glance, args=(self._glance, self._solvers[1]), daemon=True)
            self._began = time.perf_counter()
            if self._starter is not None:
                threads.append(threading.Thread(target=self._race_clauses, args=(self._starter,), daemon=True))
            if self._anchored is not None:
                threads.append(threading.Thread(target=self._race_anchored, args=self._anchored, daemon=True))
            threads[0].start()  # (the first configuration, or CaDiCaL's racer where CP-SAT takes no part)
            if len(self._models) < len(self._solvers):  # (the search waits meanwhile: see `solver.questions.ask`)
                other = self._unless_glanced(None, *self._told)
                if other is not None:  # (otherwise the glance in its place has decided: `_race_glance`)
                    self._models.append(other)
            for thread in threads[1:]:
                thread.start()
            for thread in threads:
                while thread.is_alive():
                    if self._decided.wait(0.05):  # stop the losers, repeatedly: only heard once a search has begun
                        self._stop_all()
                        thread.join(0.005)
        except BaseException:
            self._stop_all()  # (the first solver may have begun)
            raise
        finally:
            self.done.set()

    def _stop_all(self) -> None:
        for solver in self._solvers:
            solver.stop_search()
        if self._glance is not None:
            self._glance.interrupt()
        self._over.set()

    def _race_glance(self, glance: Glance, other: cp_model.CpSolver) -> None:
        """The glance racing until it has had its lead: if it decides the question first, its answer
        counts; if not, it is stopped, and `other` takes its place for the rest of the question's
        time (none once that is up). A glance on the ladder, whose longer lead has had the time that
        `other` would have had before CaDiCaL (`solver.tops.LADDER_LEAD`), hands its place to CaDiCaL
        at once, where CaDiCaL races."""
        from ortools.sat.python import cp_model

        self._outlasts(glance.led)
        glance.stop()  # (a helper that does not answer within `helper.STOP_WAIT` is given up: undecided)
        if glance.decided:
            with self._lock:
                if self._status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                    self._take_glance(glance)
            return
        if glance.ladder and self._starter is not None:
            self._spent.set()  # (CaDiCaL's turn: `other` never starts)
            return
        left = self._time_left()
        if not self._over.is_set() and (left is None or left > 0):  # (stopped, or its time up: `_outlasts` ended)
            if left is not None:
                other.parameters.max_time_in_seconds = left  # (the question's time, not its own)
            self._race(other)

    def _take_glance(self, glance: Glance) -> None:
        """The glance's answer (it has decided) is the question's (the lock held, once racing)."""
        from ortools.sat.python import cp_model

        self._glanced = glance.answer()
        self._status = cp_model.INFEASIBLE if self._glanced is None else cp_model.OPTIMAL
        self._decided.set()

    def _unless_glanced(
        self, floor: int | None, ends: Sequence[Heights], line: list[Move] | None
    ) -> tuple[cp_model.CpModel, sat.Turns] | None:
        """The model of the question (`solver.sat.hinted`), or None if Glucose's glance at it (if any) decides the
        question meanwhile: the build stops there (5p Avalanche round-robin 744's glance refutes 28 as
        the model for 28 is built, twice over: 0.3 s). A glance that finishes undecided (stopped) leaves
        the model to be built in full."""
        glance = self._glance
        try:
            stop = None if glance is None else glance.done.is_set
            return sat.hinted(self.deal, self.target, self.root, floor, ends, line, stop)
        except sat.Stopped:
            if glance is not None and glance.decided:
                return None
            return sat.hinted(self.deal, self.target, self.root, floor, ends, line)

    def _race(self, solver: cp_model.CpSolver) -> None:
        """One racing solver: the first to decide the question counts (`run` stops the other); if
        neither does, the first solver's status counts (its time limit)."""
        from ortools.sat.python import cp_model

        status = solver.solve(self._models[self._solvers.index(solver)][0])
        limit = solver.parameters.max_deterministic_time
        if solver is not self._solver and status == cp_model.UNKNOWN and solver.deterministic_time >= limit:
            self._spent.set()  # (not stopped, nor out of time: CaDiCaL's turn)
        with self._lock:
            decided = self._status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
            if decided:
                return
            if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE, cp_model.MODEL_INVALID) or solver is self._solver:
                self._status, self._winner = status, solver
            if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                self._decided.set()

    def _joins(self, after: float) -> bool:
        """Wait until a racer joining `after` seconds into the question may start: False if the
        question is decided or stopped by then, or its time is up first."""
        if self._seconds is not None and after >= self._seconds:
            return False
        return not (self._over.wait(after) or self._decided.is_set())

    def _outlasts(self, finished: threading.Event) -> bool:
        """Wait for a racer's `finished`: False if the question is stopped, or its time is up, first."""
        while not finished.wait(0.02):
            left = self._time_left()
            if self._over.is_set() or (left is not None and left <= 0):
                return False
        return True

    def _time_left(self) -> float | None:
        """Seconds left of the question's time (None: no limit)."""
        return None if self._seconds is None else self._began + self._seconds - time.perf_counter()

    def _race_anchored(self, glance: Glance, after: float) -> None:
        """The anchored glance racing, from `after` seconds into the question (at once if an earlier
        question started it) until its time is up (or the question stopped): if it decides first, its
        answer counts as CaDiCaL's does (`_race_clauses`). It is left running."""
        from ortools.sat.python import cp_model

        if not glance.started:
            if not self._joins(after):
                return
            glance.start()
        if not self._outlasts(glance.done) or not glance.decided:
            return
        found = glance.answer()
        with self._lock:
            if self._status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                return
            if found is None:
                self._refuted()
            else:
                self._glanced, self._status = found, cp_model.OPTIMAL
                self._decided.set()

    def _race_clauses(self, start: Callable[[], Rival]) -> None:
        """CaDiCaL racing, once the other configuration has done its work undecided (at once if it does
        not race), until the question's time is up (or the question stopped): if it decides the
        question first, its answer counts."""
        from ortools.sat.python import cp_model

        if not self._outlasts(self._spent) or self._decided.is_set():
            return
        rival = start()
        with self._lock:
            self._rival = rival
        if not self._outlasts(rival.run.finished):
            return
        found = rival.run.wait()
        with self._lock:
            if found is None or self._status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                return
            if found is False:
                self._refuted()
            else:
                self._status, self._true = cp_model.OPTIMAL, found  # a line reaching the target: the best
                self._decided.set()

    def _refuted(self) -> None:
        """A rival's proof that no line reaches the target (CaDiCaL's or the anchored glance's; the
        lock held): the question's answer, or with a floor, the target out of reach and the question
        below it left undecided (`target_refuted`). Either way the racers stop."""
        from ortools.sat.python import cp_model

        if self.floor is not None:
            self.target_refuted = True
        else:
            self._status = cp_model.INFEASIBLE
        self._decided.set()

    @property
    def glancing(self) -> bool:
        """Does Glucose's glance race for the question's first seconds (see `__init__`)?"""
        return self._glance is not None

    @property
    def racing(self) -> bool:
        """Does a rival race the first configuration (see the class)?"""
        return len(self._solvers) > 1 or self._starter is not None

    def start(self) -> None:
        """Solve in a background thread; `done` is set when it finishes."""
        self._thread = threading.Thread(target=self.run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the background solve (if still running) and wait for it."""
        if self._thread is None:
            return
        while not self.done.wait(0.005):
            self._stop_all()  # only heard once a search has begun: repeat until done
        self._thread.join()

    def answer(self) -> list[Move] | None:
        """The line found, or None if the model proved there is none; `OutOfBudget` if undecided.

        With a `floor`: the best line found (at least the floor; the best there is if `proven`), or
        None if the model proved that no line reaches the floor."""
        from ortools.sat.python import cp_model

        if self._status == cp_model.INFEASIBLE:
            return None
        if self._true is not None and self._rival is not None:
            return self._rival.encoding.line(self.deal, self.root, self._true)
        if self._glanced is not None:
            return self._glanced
        if self._status not in (cp_model.FEASIBLE, cp_model.OPTIMAL, cp_model.MODEL_INVALID):
            raise OutOfBudget("time limit reached")  # (or no CP-SAT, and no rival decided)
        model, turns = self._models[self._solvers.index(self._winner)]
        if self._status == cp_model.MODEL_INVALID:  # a bug, not a time limit
            raise RuntimeError(f"invalid constraint model: {model.validate()}")
        return turns.line(self.deal, self.root, self._winner)

    @property
    def proven(self) -> bool:
        """Did the model decide its question (not only find a line before its time ran out)?"""
        from ortools.sat.python import cp_model

        return self._status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
