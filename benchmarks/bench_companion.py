"""The table companion's speed and tap counts.

    python benchmarks/bench_companion.py [--taps]

Server time per event: each event of a bundled 5-player game is sent through the web layer
(FastAPI's test client, in process: request parsing, the tracker, saving the file atomically, the
whole page's JSON with every holder's view and the advice), median and p95 per kind of event. Bar
(issue 11): under 50 ms per event. With --taps (needs Debian's chromium and playwright), a whole
3-player game is entered by taps in a headless browser at a phone's size, and the taps per event
of each kind are printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deducer.actions import Draw
from deducer.loader import load_game
from deducer.record import event_to_json
from hanabi.web.app import create_app
from tests.companion import Driver, Server, chromium, kind

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["5p_base_seat_alice.json", "5p_avalanche.json"]


def server_times(name: str) -> None:
    sample = load_game(ROOT / "sample_games" / name)
    me = sample.recorder
    with tempfile.TemporaryDirectory() as folder:
        client = TestClient(create_app(Path(folder)))
        body = {"players": len(sample.seats), "seats": list(sample.seats), "me": None if me is None else sample.seats[me]}
        body |= {"variant": sample.settings.variant.value, "ending": sample.settings.ending.value}
        view = client.post("/api/games", json=body).json()
        times: dict[str, list[float]] = defaultdict(list)
        for event in sample.events:
            if isinstance(event, Draw) and event.seat == me:
                continue
            began = time.perf_counter()
            response = client.post(
                f"/api/games/{view['id']}/events", json={"version": view["version"], "event": event_to_json(event, sample.seats)}
            )
            times[kind(event)].append(1000 * (time.perf_counter() - began))
            if response.status_code != 200:
                raise SystemExit(f"{event.notation(sample.seats)}: {response.text}")
            view = response.json()
    every = sorted(time for values in times.values() for time in values)
    who = "observer (every card known)" if me is None else f"recorded from {sample.seats[me]}'s seat"
    print(
        f"{name}, {who}: {len(every)} events, median {statistics.median(every):.1f} ms, "
        f"p95 {every[int(0.95 * len(every))]:.1f} ms, max {every[-1]:.1f} ms"
    )
    for what, values in sorted(times.items()):
        values.sort()
        p95 = values[int(0.95 * len(values))]
        print(f"  {what:8} {len(values):4} events  median {statistics.median(values):6.1f} ms  p95 {p95:6.1f} ms")


def taps() -> None:
    from playwright.sync_api import sync_playwright

    browser_path = chromium()
    if browser_path is None:
        raise SystemExit("--taps needs Debian's chromium")
    sample = load_game(ROOT / "sample_games" / "3p_base_seat_alice.json")
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder)).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=browser_path, headless=True, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
                driver = Driver.new_game(page, server.url, sample.seats, 0)
                began = time.perf_counter()
                for event in sample.events:
                    driver.enter(event)
                seconds = time.perf_counter() - began
                browser.close()
        finally:
            server.kill()
    print(f"3p_base_seat_alice.json by taps from Alice's seat: {sum(driver.events.values())} events entered in {seconds:.0f} s")
    print("  (Alice's own draws need no tap: the companion records them)")
    for what, count in sorted(driver.events.items()):
        print(f"  {what:8} {count:4} events  {driver.taps[what] / count:.2f} taps each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--taps", action="store_true", help="also count taps in a headless browser")
    args = parser.parse_args()
    for name in GAMES:
        server_times(name)
    if args.taps:
        taps()


if __name__ == "__main__":
    main()
