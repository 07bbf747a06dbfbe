"""Crash safety of `hanabi record`, measured: kill it with SIGKILL at random moments while events are typed.

    python benchmarks/kill_record.py [--trials 1000] [--jobs 2] [--game sample_games/5p_base_seat_alice.json]

Each trial starts `hanabi record FILE` (resuming what the previous trial left), types the game's
remaining events one line at a time, counts the events the program acknowledged (printed back),
and kills it after a random delay: during start-up, while loading, between or during events. Then
the file must load, its events must be the game's first events, and none acknowledged may be
missing. When a game is complete the next trial starts a new file. Prints trials, files that
failed to load (bar 0), files that were not a prefix of the game (bar 0) and events lost (bar 0).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from deducer.errors import HanabiError
from deducer.loader import load_game

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Tally:
    """What the trials found."""

    trials: int = 0
    failed_loads: int = 0
    not_prefix: int = 0
    lost: int = 0
    acknowledged: int = 0
    games_completed: int = 0
    resumes_checked: int = 0
    before_creation: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _command(game: Path, path: Path) -> list[str]:
    record = load_game(game)
    settings = record.settings
    command = [shutil.which("hanabi") or "hanabi", "record", str(path), "--seats", ",".join(record.seats)]
    command += ["--variant", settings.variant.value, "--rules", settings.ending.value]
    if record.recorder is not None:
        command += ["--me", record.seats[record.recorder]]
    return command


def _trial(command: list[str], path: Path, script: list[str], rng: random.Random, tally: Tally) -> None:
    done = len(load_game(path).events) if path.exists() else 0
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "400", "NO_COLOR": "1"}
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=environment
    )
    if process.stdin is None or process.stdout is None:
        raise RuntimeError("no pipes to the recorder")
    killer = threading.Timer(rng.uniform(0.3, 1.3), process.send_signal, (signal.SIGKILL,))
    killer.start()
    acknowledged = 0
    first = ""
    try:
        first = process.stdout.readline()
        for line in script[done:]:
            time.sleep(rng.uniform(0, 0.01))
            process.stdin.write(line + "\n")
            process.stdin.flush()
            echo = process.stdout.readline()
            if line not in echo:
                break
            acknowledged += 1
        else:
            process.stdin.write("quit\n")
            process.stdin.flush()
    except (BrokenPipeError, OSError):
        pass
    process.wait()
    killer.cancel()
    with tally.lock:
        tally.trials += 1
        tally.acknowledged += acknowledged
        if first.startswith("resumed"):
            tally.resumes_checked += 1
            tally.not_prefix += f": {done} events," not in first
        if not path.exists() and done + acknowledged == 0:
            tally.before_creation += 1
            return
        try:
            record = load_game(path)
            events = [event.notation(record.seats) for event in record.events]
        except HanabiError as error:
            tally.failed_loads += 1
            print(f"failed to load after a kill: {error}", file=sys.stderr)
            return
        if events != script[: len(events)]:
            tally.not_prefix += 1
        tally.lost += max(0, done + acknowledged - len(events))
        if len(events) == len(script):
            tally.games_completed += 1
            path.unlink()


def _worker(worker: int, trials: int, game: Path, folder: Path, tally: Tally) -> None:
    record = load_game(game)
    script = [event.notation(record.seats) for event in record.events]
    rng = random.Random(worker)
    path = folder / f"game-{worker}.json"
    command = _command(game, path)
    for _ in range(trials):
        _trial(command, path, script, rng, tally)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--game", type=Path, default=ROOT / "sample_games" / "5p_base_seat_alice.json")
    args = parser.parse_args()
    if shutil.which("hanabi") is None:
        sys.exit("the hanabi command is not on PATH: install the package first")
    tally = Tally()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(args.jobs) as pool:
        shares = [args.trials // args.jobs + (worker < args.trials % args.jobs) for worker in range(args.jobs)]
        futures = [pool.submit(_worker, worker, share, args.game, Path(folder), tally) for worker, share in enumerate(shares)]
        for future in futures:
            future.result()
        leftovers = len(list(Path(folder).glob(".*.tmp")))
    print(f"{tally.trials} kill trials in {time.perf_counter() - began:.0f} s on {args.game.name}")
    print(
        f"events acknowledged {tally.acknowledged}, games completed {tally.games_completed}, "
        f"resumes checked {tally.resumes_checked}, killed before a new file was created {tally.before_creation}"
    )
    print(f"files that failed to load: {tally.failed_loads}")
    print(f"files not a prefix of the game (or resumed wrong): {tally.not_prefix}")
    print(f"acknowledged events lost: {tally.lost}")
    print(f"temporary files left by kills mid-write: {leftovers}")


if __name__ == "__main__":
    main()
