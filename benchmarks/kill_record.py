"""Crash safety of `hanabi record`, measured: kill it with SIGKILL at random moments while events are typed.

    python benchmarks/kill_record.py [--trials 1000] [--jobs 2] [--game sample_games/5p_base_seat_alice.json] [--companion]

With --companion, the table companion (`hanabi serve`) is killed instead while events are sent to
it as its page sends them; an event is acknowledged when its answer arrived.

Each trial starts `hanabi record FILE` (resuming what the previous trial left), types the game's
remaining events one line at a time, counts the events the program acknowledged (printed back),
and kills it after a random delay: during start-up, while loading, between or during events. Then
the file must load, its events must be the game's first events, and none acknowledged may be
missing. When a game is complete the next trial starts a new file. Prints trials, files that
failed to load (bar 0), files that were not a prefix of the game (bar 0) and events lost (bar 0).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deducer.actions import Draw
from deducer.errors import HanabiError
from deducer.loader import load_game
from deducer.record import GameRecord, event_to_json

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
        if first.startswith("resumed"):
            tally.resumes_checked += 1
            tally.not_prefix += f": {done} events," not in first
    _check(path, script, done + acknowledged, acknowledged, tally)


def _check(path: Path, script: list[str], expected: int, acknowledged: int, tally: Tally) -> None:
    """After a kill: the file loads, is the game's beginning, and holds the `expected` events acknowledged."""
    with tally.lock:
        tally.trials += 1
        tally.acknowledged += acknowledged
        if not path.exists() and expected == 0:
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
            index = next((i for i, (a, b) in enumerate(zip(events, script)) if a != b), min(len(events), len(script)))
            shown = events[index] if index < len(events) else "(end)"
            print(f"not the game's beginning at event {index + 1}: {shown!r}, expected {script[index]!r}", file=sys.stderr)
        tally.lost += max(0, expected - len(events))
        if len(events) == len(script):
            tally.games_completed += 1
            path.unlink()


def _post(url: str, body: object) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def _companion_trial(record: GameRecord, folder: Path, port: int, rng: random.Random, tally: Tally) -> None:
    """`hanabi serve` killed at a random moment while a page sends the game's events."""
    script = [event.notation(record.seats) for event in record.events]
    existing = list(folder.glob("*.json"))
    done = len(load_game(existing[0]).events) if existing else 0
    command = [shutil.which("hanabi") or "hanabi", "serve", "--port", str(port), "--games", str(folder)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    killer = threading.Timer(rng.uniform(0.5, 3.0), process.send_signal, (signal.SIGKILL,))
    killer.start()
    base = f"http://127.0.0.1:{port}/api/games"
    acknowledged_version = done
    try:
        while process.poll() is None:
            try:
                urllib.request.urlopen(base, timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        if existing:
            with urllib.request.urlopen(f"{base}/{existing[0].stem}", timeout=10) as response:
                view = json.loads(response.read())
        else:
            me = None if record.recorder is None else record.seats[record.recorder]
            view = _post(base, {"players": len(record.seats), "seats": list(record.seats), "me": me})
        acknowledged_version = int(view["version"])
        for event in record.events[acknowledged_version:]:
            if isinstance(event, Draw) and event.seat == record.recorder:
                continue
            time.sleep(rng.uniform(0, 0.01))
            body = {"version": view["version"], "event": event_to_json(event, record.seats)}
            view = _post(f"{base}/{view['id']}/events", body)
            acknowledged_version = int(view["version"])
    except (OSError, ValueError, KeyError):
        pass
    process.wait()
    killer.cancel()
    paths = list(folder.glob("*.json"))
    path = paths[0] if paths else folder / "none.json"
    _check(path, script, acknowledged_version, acknowledged_version - done, tally)


def _worker(worker: int, trials: int, game: Path, folder: Path, tally: Tally, companion: bool) -> None:
    record = load_game(game)
    script = [event.notation(record.seats) for event in record.events]
    rng = random.Random(worker)
    if companion:
        games = folder / f"games-{worker}"
        games.mkdir()
        port = 8700 + worker
        for _ in range(trials):
            _companion_trial(record, games, port, rng, tally)
        return
    path = folder / f"game-{worker}.json"
    command = _command(game, path)
    for _ in range(trials):
        _trial(command, path, script, rng, tally)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--game", type=Path, default=ROOT / "sample_games" / "5p_base_seat_alice.json")
    parser.add_argument("--companion", action="store_true", help="kill `hanabi serve` while a page records, instead")
    args = parser.parse_args()
    if shutil.which("hanabi") is None:
        sys.exit("the hanabi command is not on PATH: install the package first")
    tally = Tally()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(args.jobs) as pool:
        shares = [args.trials // args.jobs + (worker < args.trials % args.jobs) for worker in range(args.jobs)]
        futures = [
            pool.submit(_worker, worker, share, args.game, Path(folder), tally, args.companion)
            for worker, share in enumerate(shares)
        ]
        for future in futures:
            future.result()
        leftovers = len(list(Path(folder).rglob(".*.tmp")))
    what = "hanabi serve" if args.companion else "hanabi record"
    print(f"{tally.trials} kill trials of {what} in {time.perf_counter() - began:.0f} s on {args.game.name}")
    print(
        f"events acknowledged {tally.acknowledged}, games completed {tally.games_completed}, "
        f"resumes checked {tally.resumes_checked}, killed before a new file was created {tally.before_creation}"
    )
    print(f"files that failed to load: {tally.failed_loads}")
    print(f"files not a prefix of the game (or resumed wrong): {tally.not_prefix}")
    print(f"acknowledged events lost: {tally.lost}")
    print(f"temporary files left by kills mid-write: {leftovers} (a resume sweeps those over ten minutes old)")


if __name__ == "__main__":
    main()
