"""Child processes that never outlive their parent, however it dies.

The solver starts children: CaDiCaL's runs (`solver.cadical`), and the worker processes of a batch
(`solver.batch`). A parent that stops them on its way out (a time limit, a Ctrl-C) leaves none; a
parent killed (`kill`, a closed terminal) cannot, and a child of a solve with no time limit went on
alone for good (a batch's workers too, waiting for work that never came).

On Linux a child asks the kernel to kill it when the thread that started it ends (`die_with`), and
every child is started by a thread that ends only with the process: CaDiCaL's runs by one kept for
that (`start`: the solver's threads that ask for them end before the runs do), a batch's workers by
the caller of the batch. A child whose parent is already gone ends at once. Elsewhere nothing is
asked of the kernel: a child's own alarm (CaDiCaL's, when there is a time limit) is the guard.
"""

from __future__ import annotations

import ctypes
import os
import queue
import signal
import subprocess
import sys
import threading
from concurrent.futures import Future

PR_SET_PDEATHSIG = 1  # (linux/prctl.h)


def die_with(parent: int) -> None:
    """In a child of process `parent`: be killed when the parent's thread that started this process
    ends (Linux; elsewhere nothing), and end now if `parent` is already gone."""
    if not sys.platform.startswith("linux"):
        return
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return
    try:
        os.kill(parent, 0)  # (did the parent die before the request was made?)
    except ProcessLookupError:
        os._exit(1)
    except PermissionError:
        pass  # (a process of another user has that id now: the parent is gone, but so soon only rarely)


class _Launcher:
    """Starts children from a thread of its own that lives as long as the process (idle between starts)."""

    def __init__(self) -> None:
        self._asked: queue.SimpleQueue[tuple[list[str], Future[subprocess.Popen[bytes]]]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self, command: list[str]) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, daemon=True, name="children-launcher")
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


def start(command: list[str]) -> subprocess.Popen[bytes]:
    """The child running `command` (which calls `die_with` with this process's id first), its stdin and
    stdout piped to this process, started by the launcher's thread whatever thread asks."""
    return _launcher.start(command)


def _forget_in_child() -> None:
    """A forked child starts its own launcher (the parent's thread is not in it)."""
    global _launcher
    _launcher = _Launcher()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
