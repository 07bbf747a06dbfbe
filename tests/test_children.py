"""The solver's child processes (CaDiCaL's runs, a batch's workers) never outlive it, and a stop (a
Ctrl-C) ends a solve cleanly, with the best line found so far.

The child of a solve with no time limit has no alarm of its own: before these guards, a parent that
died (killed, its terminal closed, or a Ctrl-C once CP-SAT had run) left it solving alone for good.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from deducer import DealOrder, Ending, Settings, Variant
from solver import cadical, clauses
from solver.model import Deal
from solver.solve import solve

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the guard and /proc are Linux's")
ROOT = Path(__file__).resolve().parent.parent
# 3-player Avalanche round-robin 8071 at 30: a win CaDiCaL takes over a minute on.
HARD_RUN = """
import sys, threading, time
from deducer import DealOrder, Ending, Settings, Variant
from solver import cadical, clauses
from solver.model import Deal

settings = Settings(players=3, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.ROUND_ROBIN)
encoding = clauses.build(Deal.of(settings, tuple(settings.variant.shuffled_deck(8071))), 30)
runs = []
starter = threading.Thread(target=lambda: runs.append(cadical.Run(encoding.clauses)))  # (a thread that ends)
starter.start()
starter.join()
print(runs[0]._process.pid, flush=True)
time.sleep(600)
"""


def _running(pid: int) -> bool:
    """Is process `pid` alive (not gone, not a zombie waiting to be reaped)?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _gone_within(pid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while _running(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def _children(pid: int) -> list[int]:
    """The processes `pid` has started and not reaped."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _descendants(pid: int) -> list[int]:
    """Every process below `pid` (its children, theirs, and so on)."""
    found = _children(pid)
    for child in list(found):
        found += _descendants(child)
    return found


def _cadical_child(pid: int, seconds: float) -> int | None:
    """The first CaDiCaL child of `pid` seen within `seconds` (None if none is)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for child in _children(pid):
            try:
                if b"solver.cadical" in Path(f"/proc/{child}/cmdline").read_bytes():
                    return child
            except OSError:
                pass
        time.sleep(0.05)
    return None


def _python(code: str) -> subprocess.Popen[str]:
    """`code` run by this Python from the repository, Ctrl-C raising KeyboardInterrupt in it and
    SIGTERM and SIGHUP ending it, even when the tests run where they are ignored (SIGINT in a
    background job, SIGHUP under `nohup`: an ignored signal stays ignored across `exec`)."""
    prelude = (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "for how in (signal.SIGTERM, signal.SIGHUP): signal.signal(how, signal.SIG_DFL)\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", prelude + code],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _kill_all(process: subprocess.Popen[str], children: list[int]) -> None:
    for pid in [process.pid, *children]:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    process.communicate()


@linux
def test_a_run_outlives_the_thread_that_started_it() -> None:
    # The solver starts CaDiCaL's runs from a question's thread, which may end before the run does (a
    # run races every attempt at its question). The child is tied to the launcher's thread, not to
    # that one: a second after the starting thread has ended, the child still solves (the question
    # takes CaDiCaL over a minute), and a stop ends it.
    settings = Settings(players=3, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.ROUND_ROBIN)
    encoding = clauses.build(Deal.of(settings, tuple(settings.variant.shuffled_deck(8071))), 30)
    runs: list[cadical.Run] = []

    def start() -> None:
        runs.append(cadical.Run(encoding.clauses, 60))
        time.sleep(0.5)  # (the child has asked to die with its starter by now)

    starter = threading.Thread(target=start)
    starter.start()
    starter.join()
    time.sleep(1.0)
    child = runs[0]._process.pid
    assert _running(child) and not runs[0].finished.is_set()
    runs[0].stop()
    assert runs[0].wait(5) is None and not _running(child)


@linux
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP])
def test_a_runs_child_dies_with_its_parent(how: signal.Signals) -> None:
    # A process starts a run with no time limit on a question CaDiCaL takes over a minute on, from a
    # thread that has ended, and is then killed without a chance to stop it: the child ends too.
    parent = _python(HARD_RUN)
    child = 0
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert _running(child)
        time.sleep(0.5)  # (the child is solving by now)
        parent.send_signal(how)
        parent.wait(10)
        assert _gone_within(child, 5), "CaDiCaL's child outlived its parent"
    finally:
        _kill_all(parent, [child] if child else [])


@linux
def test_a_stop_ends_a_long_solve_with_its_best_line_and_no_child_left() -> None:
    # 5-player Avalanche per seat 8001, no time limit: a loss at 29 the model refutes 30 for only
    # after tens of seconds; its first question reaches CaDiCaL seconds in. Stopped once CaDiCaL runs,
    # the solve answers within seconds: "unknown", the best line found so far (replayed through the
    # engine, as every line), 30 not refuted; CaDiCaL's child is gone.
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
    stop = threading.Event()
    stopped_at: list[float] = []

    def stop_once_cadical_runs() -> None:
        if _cadical_child(os.getpid(), 120) is not None:
            stopped_at.append(time.perf_counter())
            stop.set()

    watcher = threading.Thread(target=stop_once_cadical_runs, daemon=True)
    watcher.start()
    solution = solve(settings, settings.variant.shuffled_deck(8001), stop=stop.is_set)
    watcher.join()
    assert stopped_at, "the solve never reached CaDiCaL"
    assert time.perf_counter() - stopped_at[0] < 5
    assert solution.verdict == "unknown" and 0 < solution.score <= 29 and solution.upper == 30 and solution.line
    assert _cadical_child(os.getpid(), 0.5) is None


@linux
def test_a_ctrl_c_ends_a_solve_with_its_best_line_and_no_child_left() -> None:
    # The same deal at the command line: a Ctrl-C once CaDiCaL runs (so CP-SAT has run too, whose own
    # handler used to leave SIGINT killing the process outright) prints the best line found so far,
    # says "interrupted" on stderr, exits with status 130, and the child is gone.
    solve = "from hanabi.main import main\nimport sys\n"
    solve += "sys.argv = ['hanabi', 'solve', '--seed', '8001', '--players', '5', '--variant', 'avalanche',"
    solve += " '--deal', 'per-seat', '--rules', 'standard', '--json']\nmain()\n"
    process = _python(solve)
    child = None
    try:
        child = _cadical_child(process.pid, 120)
        assert child is not None, "the solve never reached CaDiCaL"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
        assert process.returncode == 130 and "interrupted: the best line found so far" in err, (process.returncode, err)
        answer = json.loads(out)
        assert answer["verdict"] == "unknown" and answer["upper"] == 30 and answer["line"]
        assert _gone_within(child, 2)
    finally:
        _kill_all(process, [child] if child else [])


@linux
def test_a_batchs_workers_die_with_it(tmp_path: Path) -> None:
    # `hanabi solve --batch` on two processes, no time limit, two deals that take long: once both
    # workers are solving, the batch is killed without a chance to stop them. Its workers used to live
    # on (one solving, one waiting for work that never came), with their own children; now every
    # process below it is gone within seconds.
    deals = tmp_path / "deals.jsonl"
    deals.write_text(
        '{"seed": 8001, "players": 5, "variant": "avalanche", "rules": "standard", "deal": "per-seat"}\n'
        '{"seed": 8071, "players": 3, "variant": "avalanche", "rules": "standard"}\n'
    )
    command = ["hanabi", "solve", "--batch", str(deals), "--jobs", "2"]
    batch = _python(f"from hanabi.main import main\nimport sys\nsys.argv = {command!r}\nmain()\n")
    below: list[int] = []
    try:
        end = time.monotonic() + 60
        while len(_children(batch.pid)) < 2 and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(1.0)  # (the workers are solving by now)
        below = _descendants(batch.pid)
        assert len(below) >= 2, "the batch never started its workers"
        batch.kill()
        batch.wait(10)
        left = [pid for pid in below if not _gone_within(pid, 5)]
        assert not left, f"{len(left)} of the batch's {len(below)} processes outlived it"
    finally:
        _kill_all(batch, below)
