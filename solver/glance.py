"""Glucose's glance at the solver's top target, on the second core, while the search climbs towards it.

On the first question the model is asked (the deals that took our solver 0.3-5 s), Glucose 4.2 on
the question's clauses (`solver.clauses`) decides half of them within 0.15 s, clauses built and
loaded included, where the search and CP-SAT take 0.3-0.5 s. Started once the search has spent
1,000 positions on a deal (`solver.tops.Glances`), it solves on the second core, idle until the
model joins, while the search probes and climbs on the first, and it can be stopped at any time
(a stop is heard between turns of the build and pieces of the load, and interrupts the solve).
It runs in the helper process (`solver.helper`) once that is ready: building and loading the
clauses (about 30 ms on 5p Avalanche) there costs the search nothing. The first glance of a
process runs in a thread: PySAT's Glucose lets go of the interpreter lock while it solves
(`solve_limited(expect_interrupt=True)`), but the build and the load hold it. A glance may ask its
question with the clue tokens as a ladder (`ladder`, `solver.clauses.build`): the solver's glance at
the top does where it has no endings to be told (see `solver.tops.TOP_LADDER`).

An anchored glance (`anchors`) looks first for a line that begins as the best line found does.
It asks the question from the position after the line's first k moves, for a few k from the most
down, each with a budget of conflicts, and stops at the first line found. A narrow win that the
question from the deal takes every solver a minute to find is often found in a second from a few
moves in, while the questions from further in are refuted in a tenth of a second (3 players,
Avalanche, round-robin 8071, along a 29 of 66 moves: Glucose refutes k = 17 and 13 in 0.7 s and
finds a 30 from k = 9 in 0.8 s; CaDiCaL takes 42 s from the deal). Its anchors prove nothing when
they find no line: a line from k moves in exists for every k up to some number, and the best line's
first move may be the wrong one. So the solver's anchored glance then asks the whole question
(`Anchors.whole`), on the ladder encoding (`ladder`, `solver.clauses.build`): CaDiCaL races on the
solver's encoding meanwhile, and the two fail on different deals (see `solver.questions.ANCHORED_JOINS`).
Where the glance at the top asked that very question and was stopped after its lead, the whole
question goes on from where it stopped, with all it learnt (`_Parked`): in the process that kept it
(a thread of the solver's own, where the glance at the top was its first and ran there)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver import helper as helping
from solver.endings import Heights
from solver.model import Deal, Move, Position
from solver.search import OutOfBudget

if TYPE_CHECKING:
    from solver.clauses import Encoding

SOLVER = "glucose42"
# Is a whole question's Glucose, stopped undecided, kept for the next glance at it (`_Parked`)? On the 26
# slow deals, alternating deal by deal: 142.9 -> 139.5 s in all (5p round-robin 8240 8.9 -> 5.9 s, the
# others within noise); the 106 mid deals 63.4 -> 64.6 s, the median of the per-deal ratios 1.020 (noise:
# none of them asks a whole question twice). A cold `hanabi solve` keeps it in its own process (its first
# glance runs in a thread), where the anchored glance then runs too: 8240 8.6 -> 5.9 s; the 8071s of 3p
# and 4p, whose anchors win, 4.9-13.7 s either way.
PARK = True


@dataclass(frozen=True)
class Anchors:
    """An anchored glance's work (`Work.run`): the best `line` found, the numbers of its first moves
    to keep (`kept`, from the most down), and the `conflicts` each anchored question is given
    (Glucose's budget: the same on a busy machine as on an idle one). `whole`: then the question
    itself, from the glance's root, told its endings and on its encoding (`Glance`'s `ladder`), with
    no budget: its answer decides the glance either way."""

    line: tuple[Move, ...]
    kept: tuple[int, ...]
    conflicts: int
    whole: bool = False


LOAD = 5_000  # clauses loaded into Glucose at a time (see `Work.run`)


def glances(deal: Deal) -> bool:
    """Do the clauses cover the deal's rules (`solver.clauses.applies`)?"""
    from solver import clauses  # (PySAT is imported only once a glance starts)

    return clauses.applies(deal)


class Work:
    """One glance's work, in the thread that calls `run`: build the clauses, load Glucose, solve.
    `interrupt`, from any other thread, is heard between turns of the build and pieces of the load,
    and stops the solve at once."""

    def __init__(
        self,
        deal: Deal,
        target: int,
        root: Position,
        ends: Sequence[Heights] = (),
        anchors: Anchors | None = None,
        lead: int | None = None,
        led: Callable[[], None] | None = None,
        ladder: bool = False,
    ) -> None:
        self.deal, self.target, self.root, self.ends = deal, target, root, tuple(ends)
        self.anchors, self.ladder = anchors, ladder
        self.lead, self._led = lead, led  # (see `Glance`)
        self.stopping = threading.Event()
        self.resumed = False  # did its whole question go on from a glance stopped at it (`_Parked`)?
        self._solver: object | None = None  # the PySAT solver, once loaded (for `interrupt`)
        self._lock = threading.Lock()

    @staticmethod
    def prepare() -> None:
        """Import what a glance needs (PySAT takes 0.1 s)."""
        import pysat.solvers  # noqa: F401

        import solver.clauses  # noqa: F401

    def run(self) -> tuple[bool, list[Move] | None]:
        """(decided, a line reaching the target): (True, None) if none exists, (False, None) if stopped.
        With `anchors`: (True, a line) if one of the anchored questions finds one; if none does, the
        whole question's answer if asked (`Anchors.whole`), else (False, None)."""
        if self.anchors is None:
            return self._solve(self.root, self.ends, None, self.ladder)
        line, anchors = self.anchors.line, self.anchors.kept
        position = self.root
        positions = [position]
        for move in line[: max(anchors, default=0)]:
            position = self.deal.play(position, move)
            positions.append(position)
        for anchor in anchors:
            decided, found = self._solve(positions[anchor], (), self.anchors.conflicts)
            if self.stopping.is_set():
                return False, None
            if decided and found is not None:
                return True, list(line[:anchor]) + found
        if not self.anchors.whole:
            return False, None
        return self._solve(self.root, self.ends, None, self.ladder)

    def question(self, root: Position, ends: Sequence[Heights], ladder: bool) -> tuple[object, ...]:
        """What tells one whole question from another (see `_Parked`)."""
        return (self.deal.rules, self.deal.deck, self.deal.deal_seats, root, self.target, tuple(ends), ladder)

    def _solve(
        self, root: Position, ends: Sequence[Heights], conflicts: int | None, ladder: bool = False
    ) -> tuple[bool, list[Move] | None]:
        """Build the clauses of the question from `root` (told `ends`; the clue tokens as a `ladder`
        or not: `solver.clauses.build`), load Glucose and solve, for at most `conflicts` (None: until
        decided or stopped). A whole question (no `conflicts`) goes on from where a glance at it in
        this process was stopped, if one was (`_Parked`), and is kept if it is stopped undecided: one
        glance at a time solves it in a process, the next waiting (see `_Parked.claim`)."""
        question = self.question(root, ends, ladder)
        whole = conflicts is None and PARK
        if whole and not _parked.claim(question, self.stopping):
            return False, None
        try:
            return self._solve_claimed(question, root, ends, conflicts, ladder, whole)
        finally:
            if whole:
                _parked.release(question)

    def _solve_claimed(
        self,
        question: tuple[object, ...],
        root: Position,
        ends: Sequence[Heights],
        conflicts: int | None,
        ladder: bool,
        whole: bool,
    ) -> tuple[bool, list[Move] | None]:
        from pysat.solvers import Solver

        from solver.clauses import build
        from solver.sat import Stopped

        parked = _parked.take(question) if whole else None
        self.resumed = parked is not None
        if parked is not None:
            solver, encoding = parked
            solver.clear_interrupt()  # (its glance's stop may have been heard again while it was kept)
        else:
            try:
                encoding = build(self.deal, self.target, root, ends, self.stopping.is_set, ladder=ladder)
            except Stopped:
                return False, None
            solver = Solver(name=SOLVER)
        clauses = [] if parked is not None else encoding.clauses  # (a kept solver has them loaded)
        kept = False
        try:
            for start in range(0, len(clauses), LOAD):  # (in pieces: a stop is heard between them)
                if self.stopping.is_set():
                    return False, None
                solver.append_formula(clauses[start : start + LOAD])
            with self._lock:
                if self.stopping.is_set():
                    return False, None
                self._solver = solver
            leading = conflicts is None and self.lead is not None  # (an anchored question has its own budget)
            budget = self.lead if leading else conflicts
            if budget is not None:
                solver.conf_budget(budget)
            found = solver.solve_limited(expect_interrupt=True)
            if found is None and leading and not self.stopping.is_set():
                if self._led is not None:  # (its lead spent: it goes on, with no budget)
                    self._led()
                solver.conf_budget(-1)
                found = solver.solve_limited(expect_interrupt=True)
            if found is None:  # (interrupted, or out of conflicts)
                if whole:
                    with self._lock:  # (no interrupt reaches it once kept: it may be deleted there)
                        self._solver = None
                    solver.conf_budget(-1)
                    _parked.keep(question, solver, encoding)
                    kept = True
                return False, None
            true = {lit for lit in solver.get_model() if lit > 0} if found else None
            return True, None if true is None else encoding.line(self.deal, root, true)
        finally:
            with self._lock:
                self._solver = None
            if not kept:
                solver.delete()

    def interrupt(self) -> None:
        """Stop the work (if still going), without waiting."""
        with self._lock:
            self.stopping.set()
            if self._solver is not None:
                self._solver.interrupt()  # type: ignore[attr-defined]


class _Parked:
    """The Glucose of the last whole question stopped undecided in this process (with its clauses and
    all it learnt), kept for the next glance at that same question: the glance at the top, stopped
    after its lead once the model's question takes its place, is asked again by the anchored glance
    once its anchors are done (5p Avalanche round-robin 8240: 25,700 conflicts to refute 30 from
    scratch, 20,000 of them spent in the lead). One is kept at most, until the next whole question
    asked in the process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: tuple[tuple[object, ...], Any, Encoding] | None = None
        self._solving: dict[tuple[object, ...], threading.Event] = {}  # whole questions being solved, and when each is free

    def claim(self, question: tuple[object, ...], stopping: threading.Event) -> bool:
        """Wait until no other glance in this process solves `question` (the anchored glance's whole
        question, while the glance at the top asks it in its lead: that one is kept once stopped, and
        this one goes on from there), then claim it; False if `stopping` is set first."""
        while True:
            with self._lock:
                busy = self._solving.get(question)
                if busy is None:
                    self._solving[question] = threading.Event()
                    return True
            while not busy.wait(0.02):
                if stopping.is_set():
                    return False

    def release(self, question: tuple[object, ...]) -> None:
        """`question` is no longer being solved (see `claim`)."""
        with self._lock:
            free = self._solving.pop(question)
        free.set()

    def keep(self, question: tuple[object, ...], solver: Any, encoding: Encoding) -> None:
        """Keep `solver`, deleting the one kept before."""
        with self._lock:
            old, self._kept = self._kept, (question, solver, encoding)
        if old is not None:
            old[1].delete()

    def has(self, question: tuple[object, ...]) -> bool:
        """Is a solver kept for `question`?"""
        with self._lock:
            return self._kept is not None and self._kept[0] == question

    def drop_other(self, question: tuple[object, ...]) -> None:
        """Delete the solver kept, if it is for another question than `question`."""
        with self._lock:
            kept = self._kept
            if kept is None or kept[0] == question:
                return
            self._kept = None
        kept[1].delete()

    def take(self, question: tuple[object, ...]) -> tuple[Any, Encoding] | None:
        """The solver kept for `question`, if any; either way none is kept any more (one kept for
        another question is deleted: a glance at another whole question means that one is over)."""
        with self._lock:
            kept, self._kept = self._kept, None
        if kept is None:
            return None
        if kept[0] != question:
            kept[1].delete()
            return None
        return kept[1], kept[2]


_parked = _Parked()


class Glance:
    """Glucose on "a line from `root` scoring at least `target`" (or told `ends`: "a line whose
    fireworks end at one of these heights"; standard rules, see `glances`; `ladder`: the clue tokens
    as a ladder in that question, asked alone or after `anchors`, whose anchored questions keep the
    nine values: `solver.clauses.build`), solving from `start` until it decides or
    is stopped, in the helper process (`solver.helper`) once it is ready and in a daemon thread
    until then; `done` is set when it has finished either way. With a `lead` (a
    number of conflicts), `led` is set once it has spent them undecided (it goes on), or finished:
    work, not seconds, so that a busy or slow machine lets it do as much before the model's
    question takes its place (`solver.race.Question`)."""

    def __init__(
        self,
        deal: Deal,
        target: int,
        root: Position,
        ends: Sequence[Heights] = (),
        helper: bool = True,
        anchors: Anchors | None = None,
        lead: int | None = None,
        ladder: bool = False,
    ) -> None:
        self.deal = deal
        self.target = target
        self.root = root
        self.ends = tuple(ends)
        self.anchors = anchors
        self.lead = lead
        self.ladder = ladder
        self.done = threading.Event()
        self.led = threading.Event()  # set once it has spent its `lead` of conflicts, or finished
        self._answer: list[Move] | None = None
        self._decided = False
        self._work = Work(deal, target, root, ends, anchors, lead, self.led.set, ladder)
        self._helper = helper  # may the helper process take it?
        self._process: helping.Helper | None = None  # the helper process, once the glance is sent there
        self._key = -1  # (its key there)
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Build the clauses and solve them, in the background."""
        if self._work.stopping.is_set():  # (stopped before it started)
            self.finish(False, None)
            return
        # (a whole question kept in this process, not the helper's: the first glance ran in a thread)
        kept_here = self.anchors is not None and self.anchors.whole and _parked.has(self.question)
        process = helping.start() if self._helper and not kept_here else None
        key = None if process is None else process.submit(self)
        if process is not None and key is not None:
            self._process, self._key = process, key
            _parked.drop_other(self.question)  # (one kept here for another question is over)
        else:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    @property
    def question(self) -> tuple[object, ...]:
        """What tells its whole question from another (`Work.question`)."""
        return self._work.question(self.root, self.ends, self.ladder)

    @property
    def started(self) -> bool:
        """Has the glance been started (in the helper or a thread; it may have finished since)?"""
        return self._process is not None or self._thread is not None or self.done.is_set()

    @property
    def in_helper(self) -> bool:
        """Has the glance gone to the helper process (not a thread)?"""
        return self._process is not None

    def _run(self) -> None:
        decided, line = False, None
        try:
            decided, line = self._work.run()
        finally:
            self.finish(decided, line)

    def finish(self, decided: bool, line: list[Move] | None) -> None:
        """Take the glance's answer (see `Work.run`); `done` is set."""
        self._decided, self._answer = decided, line
        self.done.set()
        self.led.set()

    def interrupt(self) -> None:
        """Interrupt the solve (if still running), without waiting."""
        self._work.interrupt()
        if self._process is not None:
            self._process.stop(self._key)

    def stop(self) -> None:
        """Interrupt the solve (if still running) and wait until it has finished."""
        self.interrupt()
        if self._thread is not None:
            self._thread.join()
        elif (
            self._process is not None
            and not self.done.wait(helping.STOP_WAIT)
            and self._process.forget(self._key) is not None  # (the helper has not answered in time)
        ):
            self.finish(False, None)

    @property
    def decided(self) -> bool:
        """Has Glucose decided the question (a line found, or none exists)?"""
        return self.done.is_set() and self._decided

    def answer(self) -> list[Move] | None:
        """A line reaching the target, or None if Glucose proved there is none; `OutOfBudget` if
        it has not decided (still running, or stopped first)."""
        if not self.decided:
            raise OutOfBudget("Glucose has not decided")
        return self._answer
