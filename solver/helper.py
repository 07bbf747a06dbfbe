"""A helper process for Glucose's glances (`solver.glance`), started once per process and kept.

In a thread, a glance builds and loads its clauses (about 30 ms on 5p Avalanche) holding the
interpreter lock, so the search waits for it, and it for the search. The helper builds, loads and
solves them in a process of its own, on the second core, while the search runs at full speed: a
glance then costs the search the pickle of its question (about 8 KB); while the helper has glances
to answer, the interpreter lets a waiting thread in after `SWITCH` (0.5 ms, not 5 ms), so that their
answers are heard sooner. The helper is started by the first glance of a process (`start`), which
runs in a thread as before (the helper takes 0.15-0.25 s to import PySAT and the clauses' modules;
it loads no records, see `deducer`); the glances after it are the helper's, each in a thread of its
own from the moment it is asked (Glucose lets go of the interpreter lock while it solves): the
anchored glance starts beside the glance at the top still in its lead (`solver.tops.LADDER_LEAD`),
the two sharing the second core rather than the one waiting for the other. It is started as
`python -m solver.helper` (neither fork, whose copied pages the search would pay for, nor
forkserver, which imports the caller's `__main__` again), and ends when its parent does (its pipe
closes). A glance that fails there is undecided; a helper that dies, or sends or is sent a message
the other end cannot read, is given up (its glances undecided), and leaves the glances to threads again.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import signal
import subprocess
import sys
import threading
from functools import partial
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.glance import Glance

ENABLED = os.name == "posix"  # (the pipes are passed to the child by number)
STOP_WAIT = 2.0  # seconds a stopped glance waits for the helper to confirm, before giving it up
# The interpreter's switch interval while the helper has glances to answer (the caller's is restored once
# none is pending): a thread that wants the interpreter lock takes it from the one holding it after this
# long, 5 ms by default. The reader of the answers wants it after each of its reads while the search
# holds it: 5p Avalanche per seat 403's refutation was heard 10 ms after it came. In one process,
# alternating deal by deal against 5 ms (best of 7): the deals its glance decides 4-5 ms less (per seat
# 403 50.2 -> 44.6 ms, 406 91.4 -> 87.3 ms; round-robin 400 134 -> 130 ms, 406 67.6 -> 62.1 ms, 424 472
# -> 466 ms); `bench_hard.py --set mid --against`: 30.6 -> 30.1 s in all, the median of the per-deal
# ratios 0.982.
SWITCH = 0.0005


class Helper:
    """The helper process and the glances it has been asked and has not answered yet."""

    def __init__(self) -> None:
        down_read, down_write = os.pipe()
        up_read, up_write = os.pipe()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "solver.helper", str(down_read), str(up_write)],
                pass_fds=(down_read, up_write),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        finally:
            os.close(down_read)
            os.close(up_write)
        self._outbox = Connection(down_write, readable=False)
        self._inbox = Connection(up_read, writable=False)
        self._parent = os.getpid()
        self.ready = threading.Event()  # set once the helper has imported what it needs
        self.alive = True
        self._pending: dict[int, Glance] = {}
        self._switch = sys.getswitchinterval()  # (the interval to restore once no glance is pending)
        self._keys = itertools.count()
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    @property
    def pid(self) -> int:
        """The helper's process id."""
        return self._process.pid

    def submit(self, glance: Glance) -> int | None:
        """Ask the helper for `glance`: its key, or None if the helper is gone (the glance is not sent)."""
        with self._lock:
            if not self.alive:
                return None
            key = next(self._keys)
            try:
                self._outbox.send(
                    (
                        "glance",
                        key,
                        glance.deal,
                        glance.target,
                        glance.root,
                        glance.ends,
                        glance.anchors,
                        glance.lead,
                        glance.ladder,
                    )
                )
            except OSError:
                self.alive = False
                return None
            if not self._pending:
                self._switch = sys.getswitchinterval()
                sys.setswitchinterval(min(SWITCH, self._switch))
            self._pending[key] = glance
            return key

    def stop(self, key: int) -> None:
        """Tell the helper to stop the glance `key` (without waiting: it answers it, undecided, at once)."""
        with self._lock:
            if key in self._pending and self.alive:
                try:
                    self._outbox.send(("stop", key))
                except OSError:
                    self.alive = False

    def forget(self, key: int) -> Glance | None:
        """No longer wait for the answer to `key`: its glance, if still waiting."""
        with self._lock:
            glance = self._pending.pop(key, None)
            if glance is not None and not self._pending:
                sys.setswitchinterval(self._switch)
            return glance

    def _read(self) -> None:
        while True:
            try:
                message: tuple[Any, ...] = self._inbox.recv()
            except Exception:  # (gone, or a message it cannot read: either way the helper is given up)
                break
            if message[0] == "ready":
                self.ready.set()
                continue
            if message[0] == "led":
                with self._lock:
                    led = self._pending.get(message[1])
                if led is not None:
                    led.led.set()
                continue
            _, key, decided, line = message
            glance = self.forget(key)
            if glance is not None:
                glance.finish(decided, line)
        with self._lock:
            self.alive = False
            pending, self._pending = self._pending, {}
            if pending:
                sys.setswitchinterval(self._switch)
            self._outbox.close()  # (a helper still up hears its pipe close, and ends)
        self.ready.set()  # (whoever waits for it: it will never be)
        for glance in pending.values():
            glance.finish(False, None)

    def release(self) -> None:
        """Close this process's ends of the pipes, and nothing else (in a forked child: its copies)."""
        self._outbox.close()
        self._inbox.close()

    def close(self) -> None:
        """End the helper (its pipe closes) and reap it (its parent only: a forked child inherits
        this from `atexit`, and its copies of the pipes are closed already)."""
        if os.getpid() != self._parent:
            return
        with self._lock:  # (not while the reader closes it too: `Connection.close` lets go of the
            self._outbox.close()  # interpreter lock between the close and its note of it, and the helper ends at once)
        try:
            self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


_helper: Helper | None = None
_started = 0  # helpers started in this process
_starting = threading.Lock()
RESTARTS = 3  # helpers started after one dies, at most (then the glances stay in threads)


def start(wait: float = 0.0) -> Helper | None:
    """The helper, started if not yet (once per process, or again if the last one died), once it is
    ready for a glance (within `wait` seconds); None if it is not ready by then (a helper just
    started gets ready for the glances to come)."""
    global _helper, _started, ENABLED
    with _starting:
        if ENABLED and (_helper is None or not _helper.alive) and _started <= RESTARTS:
            try:
                _helper = Helper()
            except OSError:  # (no process to be had: the glances stay in threads)
                ENABLED = False
                return None
            _started += 1
            atexit.register(_helper.close)
        helper = _helper
    if helper is None or not helper.ready.wait(wait):
        return None
    return helper if helper.alive else None


def _forget_in_child() -> None:
    """A forked child has no helper of its own (the parent's pipes and reader are not its to use)."""
    global _helper, _started, _starting
    if _helper is not None:
        _helper.release()
    _helper, _started, _starting = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def _main() -> None:
    """The helper: questions in, each solved in a thread of its own as soon as it is asked (two at once
    while the anchored glance races the glance at the top), each one's answer out, stops heard
    meanwhile, and word when a glance has spent its lead (`solver.glance.Glance`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (a Ctrl-C is the parent's to hear; its pipe ends us)
    inbox = Connection(int(sys.argv[1]), writable=False)
    outbox = Connection(int(sys.argv[2]), readable=False)
    from solver.glance import Work

    Work.prepare()
    lock = threading.Lock()  # (the glances' threads send, and the listener keeps the books)
    current: dict[int, Work] = {}  # the glances being worked on

    def send(message: tuple[Any, ...]) -> None:
        with lock, contextlib.suppress(OSError):  # (the parent gone: the listener hears it and ends us)
            outbox.send(message)

    def serve(key: int, work: Work) -> None:
        decided, line = False, None
        with contextlib.suppress(Exception):  # (a glance that fails is undecided; the helper serves on)
            decided, line = work.run()
        with lock:
            current.pop(key, None)
        send(("done", key, decided, line))

    send(("ready",))
    while True:
        try:
            message: tuple[Any, ...] = inbox.recv()
        except Exception:  # (the parent gone, or a message this helper cannot read: it ends, and the
            break  # parent, its pipe closed, finishes the glances it asked undecided)
        if message[0] == "glance":
            _, key, deal, target, root, ends, anchors, lead, ladder = message
            work = Work(deal, target, root, ends, anchors, lead, partial(send, ("led", key)), ladder)
            with lock:
                current[key] = work
            threading.Thread(target=serve, args=(key, work), daemon=True).start()
            continue
        with lock:  # (a stop: of a glance asked before it, and working unless it has answered)
            stopping = current.get(message[1])
        if stopping is not None:
            stopping.interrupt()
    with lock:
        for work in current.values():
            work.interrupt()


if __name__ == "__main__":
    _main()
