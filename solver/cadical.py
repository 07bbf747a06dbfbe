"""CaDiCaL (through PySAT) on a set of clauses, in a process of its own.

PySAT holds the interpreter lock while it solves: in a thread it would stop the search and CP-SAT's
bookkeeping. In a child process it runs beside them, and stopping it is killing it. The clauses go
to the child and its model comes back with `marshal` (50,000 clauses: a few milliseconds); the child
starts in about 0.15 s, as long as a model takes to build."""

from __future__ import annotations

import marshal
import math
import signal
import subprocess
import sys
from typing import Literal

SOLVER = "cadical195"


class Run:
    """One solve in a child process, started at once; `wait` for its answer from any thread, `stop` it from any other."""

    def __init__(self, clauses: list[list[int]], seconds: float | None = None) -> None:
        self._seconds = seconds
        self._input = marshal.dumps(clauses)
        self._process = subprocess.Popen(
            [sys.executable, "-m", "solver.cadical", str(seconds or 0)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def wait(self) -> set[int] | Literal[False] | None:
        """The true variables of a solution; False if there is none; None if undecided (stopped, or out of time)."""
        try:
            output, _ = self._process.communicate(self._input, timeout=self._seconds)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            self.stop()
            return None
        if self._process.returncode != 0 or not output:  # (killed: stopped, or by its alarm)
            return None
        found: list[int] | None = marshal.loads(output)
        return False if found is None else {lit for lit in found if lit > 0}

    def stop(self) -> None:
        """Kill the child (if still running) and reap it."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()


def _main() -> None:
    """The child: clauses in on stdin, a solution's literals (or None: no solution) out on stdout."""
    from pysat.solvers import Solver

    seconds = float(sys.argv[1])  # (0: no limit)
    if seconds and hasattr(signal, "alarm"):  # the parent kills it sooner; this only guards against a parent gone
        signal.alarm(math.ceil(seconds) + 2)
    clauses = marshal.load(sys.stdin.buffer)
    with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
        found = solver.get_model() if solver.solve() else None
    marshal.dump(found, sys.stdout.buffer)


if __name__ == "__main__":
    _main()
