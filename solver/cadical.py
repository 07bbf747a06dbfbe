"""CaDiCaL (through PySAT) on a set of clauses, in a process of its own (or another of PySAT's solvers:
Kissat, `solver.clauses.RIVALS`).

PySAT holds the interpreter lock while it solves: in a thread it would stop the search and CP-SAT's
bookkeeping. In a child process it runs beside them, and stopping it is killing it. The clauses go
to the child and its model comes back with `marshal` (50,000 clauses: a few milliseconds); the child
starts in about 0.15 s, as long as a model takes to build. The child dies with its parent, however
the parent dies (`solver.children`).
"""

from __future__ import annotations

import marshal
import math
import os
import signal
import subprocess
import sys
import threading
from typing import Literal

from solver import children

SOLVER = "cadical195"
KISSAT = "kissat404"  # (PySAT's name of Kissat 4.0.4: the rival with three players, `solver.clauses.RIVALS`)

Answer = set[int] | Literal[False] | None  # the true variables of a solution; False: none; None: undecided


class Run:
    """One solve in a child process, started at once; its answer is awaited (`wait`) from any thread,
    by any number of them, and it is stopped (`stop`) from any other."""

    def __init__(self, clauses: list[list[int]], seconds: float | None = None, solver: str = SOLVER) -> None:
        """`solver`: PySAT's name of the SAT solver the child runs (CaDiCaL 1.9.5 unless told)."""
        self._seconds = seconds
        self._answer: Answer = None
        self.finished = threading.Event()  # set once the answer is known (or the run stopped)
        self._process = children.start([sys.executable, "-m", "solver.cadical", str(seconds or 0), str(os.getpid()), solver])
        threading.Thread(target=self._collect, args=(marshal.dumps(clauses),), daemon=True).start()

    def _collect(self, data: bytes) -> None:
        try:
            output, _ = self._process.communicate(data, timeout=self._seconds)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            self.stop()
            output = b""
        if self._process.returncode == 0 and output:  # (a child killed, stopped or by its alarm, has no answer)
            found: list[int] | None = marshal.loads(output)
            self._answer = False if found is None else {lit for lit in found if lit > 0}
        self.finished.set()

    def wait(self, timeout: float | None = None) -> Answer:
        """The answer: the true variables of a solution; False if there is none; None if undecided
        (stopped, out of time, or still running after `timeout` seconds)."""
        self.finished.wait(timeout)
        return self._answer

    def stop(self) -> None:
        """Kill the child (if still running) and reap it."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()


def _main() -> None:
    """The child: clauses in on stdin, a solution's literals (or None: no solution) out on stdout."""
    children.die_with(int(sys.argv[2]))
    from pysat.solvers import Solver

    seconds = float(sys.argv[1])  # (0: no limit)
    if seconds and hasattr(signal, "alarm"):  # the parent kills it sooner; this only guards against a parent gone
        signal.alarm(math.ceil(seconds) + 2)
    clauses = marshal.load(sys.stdin.buffer)
    with Solver(name=sys.argv[3], bootstrap_with=clauses) as solver:
        found = solver.get_model() if solver.solve() else None
    marshal.dump(found, sys.stdout.buffer)


if __name__ == "__main__":
    _main()
