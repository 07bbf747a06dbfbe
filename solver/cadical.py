"""CaDiCaL (through PySAT) on a set of clauses, in a process of its own.

PySAT holds the interpreter lock while it solves: in a thread it would stop the search and CP-SAT's
bookkeeping. In a child process it runs beside them, and stopping it is killing it. The clauses go
to the child and its model comes back with `marshal` (50,000 clauses: a few milliseconds); the child
starts in about 0.15 s, as long as a model takes to build.

No child outlives its parent. The parent stops its runs when the solver stops, a Ctrl-C included;
a parent killed (a closed terminal, `kill`) cannot, and a solve with no time limit would go on
alone for good. On Linux, each child asks the kernel to kill it when the thread that started it
ends, and every child is started by one thread kept for the process's lifetime (`_Launcher`); a
child whose parent is already gone ends at once. Elsewhere the child's alarm, when there is a time
limit, ends it two seconds after that limit.
"""

from __future__ import annotations

import ctypes
import marshal
import math
import os
import queue
import signal
import subprocess
import sys
import threading
from concurrent.futures import Future
from typing import Literal

SOLVER = "cadical195"

Answer = set[int] | Literal[False] | None  # the true variables of a solution; False: none; None: undecided


class Run:
    """One solve in a child process, started at once; its answer is awaited (`wait`) from any thread,
    by any number of them, and it is stopped (`stop`) from any other."""

    def __init__(self, clauses: list[list[int]], seconds: float | None = None) -> None:
        self._seconds = seconds
        self._answer: Answer = None
        self.finished = threading.Event()  # set once the answer is known (or the run stopped)
        self._process = _launcher.start([sys.executable, "-m", "solver.cadical", str(seconds or 0), str(os.getpid())])
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


class _Launcher:
    """Starts the children, from a thread of its own that lives as long as the process (idle between
    starts): the thread whose end ends the children on Linux (see the module)."""

    def __init__(self) -> None:
        self._asked: queue.SimpleQueue[tuple[list[str], Future[subprocess.Popen[bytes]]]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self, command: list[str]) -> subprocess.Popen[bytes]:
        """The child running `command`, its stdin and stdout piped to this process."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, daemon=True, name="cadical-launcher")
                self._thread.start()
        started: Future[subprocess.Popen[bytes]] = Future()
        self._asked.put((command, started))
        return started.result()

    def _serve(self) -> None:
        while True:
            command, started = self._asked.get()
            try:
                child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            except BaseException as error:  # (an OSError most often: the caller's to raise)
                started.set_exception(error)
            else:
                started.set_result(child)


_launcher = _Launcher()


def _forget_in_child() -> None:
    """A forked child starts its own launcher (the parent's thread is not in it)."""
    global _launcher
    _launcher = _Launcher()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)

PR_SET_PDEATHSIG = 1  # (linux/prctl.h)


def _die_with(parent: int) -> None:
    """Linux: be killed when the thread that started this process ends; end now if `parent` has."""
    if not sys.platform.startswith("linux"):
        return
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return
    try:
        os.kill(parent, 0)  # (the parent died before the request was made?)
    except ProcessLookupError:
        sys.exit(1)
    except PermissionError:
        pass  # (a process of another user now has that id: the parent is gone too, but rarely so soon)


def _main() -> None:
    """The child: clauses in on stdin, a solution's literals (or None: no solution) out on stdout."""
    _die_with(int(sys.argv[2]))
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
