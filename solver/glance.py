"""Glucose's glance at the solver's top target, in a thread, while the search climbs towards it.

On the first question the model is asked (the deals that took our solver 0.3-5 s), Glucose 4.2 on
the question's clauses (`solver.clauses`) decides half of them within 0.15 s, clauses built and
loaded included, where the search and CP-SAT take 0.3-0.5 s. PySAT's Glucose lets go of the
interpreter lock while it solves (`solve_limited(expect_interrupt=True)`) and can be interrupted
from another thread: started once the search has spent 2,000 positions on a deal
(`solver.solve._Glances`), it solves on the second core, idle until the model joins, while the
search probes and climbs on the first. Building and loading the clauses (about 30 ms on 5p
Avalanche) hold the lock: a stop is heard between turns of the build and pieces of the load."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from solver.endings import Heights
from solver.model import Deal, Move, Position
from solver.search import OutOfBudget

if TYPE_CHECKING:
    from solver.clauses import Encoding

SOLVER = "glucose42"
LOAD = 5_000  # clauses loaded into Glucose at a time (see `Glance._run`)


def glances(deal: Deal) -> bool:
    """Do the clauses cover the deal's rules (`solver.clauses.applies`)?"""
    from solver import clauses  # (PySAT is imported only once a glance starts)

    return clauses.applies(deal)


class Glance:
    """Glucose on "a line from `root` scoring at least `target`" (or told `ends`: "a line whose
    fireworks end at one of these heights"; standard rules, see `glances`), solving in a daemon
    thread from `start` until it decides or is stopped; `done` is set when it has finished either way."""

    def __init__(self, deal: Deal, target: int, root: Position, ends: Sequence[Heights] = ()) -> None:
        self.deal = deal
        self.target = target
        self.root = root
        self.ends = tuple(ends)
        self.done = threading.Event()
        self._answer: list[Move] | None = None
        self._decided = False
        self._stopping = threading.Event()
        self._solver: object | None = None  # the PySAT solver, once loaded (for `stop`)
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        """Build the clauses and solve them, in the background."""
        self._thread.start()

    def _run(self) -> None:
        from pysat.solvers import Solver

        from solver.clauses import Stopped, build

        try:
            encoding: Encoding = build(self.deal, self.target, self.root, self.ends, self._stopping.is_set)
            clauses = encoding.clauses
            solver = Solver(name=SOLVER)
            try:
                for start in range(0, len(clauses), LOAD):  # (in pieces: a stop is heard between them)
                    if self._stopping.is_set():
                        return
                    solver.append_formula(clauses[start : start + LOAD])
                with self._lock:
                    if self._stopping.is_set():
                        return
                    self._solver = solver
                found = solver.solve_limited(expect_interrupt=True)
                if found is not None:  # (None: interrupted)
                    true = {lit for lit in solver.get_model() if lit > 0} if found else None
                    self._answer = None if true is None else encoding.line(self.deal, self.root, true)
                    self._decided = True
            finally:
                with self._lock:
                    self._solver = None
                solver.delete()
        except Stopped:
            pass  # (stopped while the clauses were built)
        finally:
            self.done.set()

    def interrupt(self) -> None:
        """Interrupt the solve (if still running), without waiting."""
        with self._lock:
            self._stopping.set()
            if self._solver is not None:
                self._solver.interrupt()  # type: ignore[attr-defined]

    def stop(self) -> None:
        """Interrupt the solve (if still running) and wait for the thread."""
        self.interrupt()
        if self._thread.ident is not None:  # (started)
            self._thread.join()

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
