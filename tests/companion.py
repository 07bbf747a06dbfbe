"""Drive the table companion in a real browser as a person would: one tap at a time, counted.

Used by the end-to-end test and by `benchmarks/bench_companion.py` (taps per kind of event).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from deducer.actions import Discard, Draw, Event, Hint, Move, Pass, Play

CHROMIUM = "/usr/bin/chromium"


def chromium() -> str | None:
    """The Debian chromium the tests drive, if installed."""
    return CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")


@contextmanager
def phone_page(browser_path: str, server: Server, problems: list[str]) -> Iterator[Any]:
    """A page of chromium at a phone's size (390 x 844, touch), noting in `problems` every console error,
    page error and request to anywhere but the companion at `server` (nothing loads from the internet)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True)
        page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("request", lambda request: problems.append(request.url) if not request.url.startswith(server.url) else None)
        try:
            yield page
        finally:
            browser.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """`hanabi serve` in a child process, so that it can be killed and restarted like a real one."""

    def __init__(self, games: Path, port: int | None = None) -> None:
        self.games = games
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> Server:
        command = [sys.executable, "-m", "hanabi", "serve", "--port", str(self.port), "--games", str(self.games)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ.copy())
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "api/games", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the companion server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def kind(event: Event) -> str:
    """The kind of event, as the tap counts name it."""
    if isinstance(event, Draw):
        return "draw"
    if isinstance(event, Hint):
        return "hint"
    return type(event).__name__.lower()


class Driver:
    """Enters events on the companion's page by tapping, counting the taps of each kind of event."""

    def __init__(self, page: Any, seats: tuple[str, ...], me: int | None, choreography: bool = False) -> None:
        self.page = page
        self.seats = seats
        self.me = me
        self.choreography = choreography  # every play asks whether a colour was announced
        self.taps: Counter[str] = Counter()
        self.events: Counter[str] = Counter()

    @classmethod
    def new_game(cls, page: Any, url: str, seats: tuple[str, ...], me: int | None, options: tuple[str, ...] = ()) -> Driver:
        """Start a game on the home screen (default names, as many players as `seats`; `me` None: an
        observer; `options`: the rule buttons and boxes to tap, e.g. "#choreography") and drive it."""
        page.goto(url)
        page.click(f'[data-players="{len(seats)}"]')
        for index, seat in enumerate(seats):
            page.fill(f'input[name="seat{index}"]', seat)
        page.click(f'[data-me="{seats[me] if me is not None else ""}"]')
        for option in options:
            page.click(option)
        page.click("#start")
        page.wait_for_function("document.body.dataset.version !== ''")
        return cls(page, seats, me, "#choreography" in options)

    def tap(self, selector: str, what: str) -> None:
        self.page.locator(f"#bar {selector}").first.click()
        self.taps[what] += 1

    def version(self) -> int:
        return int(self.page.evaluate("document.body.dataset.version"))

    def settled(self, before: int) -> None:
        """Wait until the page shows a newer version of the game and is not busy."""
        self.page.wait_for_function(
            f"document.body.dataset.version !== '{before}' && document.body.dataset.busy !== '1'"
            " && document.body.dataset.advice !== 'loading'",
            timeout=15_000,
        )

    def enter(self, event: Event) -> None:
        """Tap `event` in (the recorder's own unseen draws need no tap: the companion records them)."""
        what = kind(event)
        if isinstance(event, Draw) and event.seat == self.me and event.card is None:
            return
        before = self.version()
        self.events[what] += 1
        if isinstance(event, Draw):
            self.tap(f'[data-pick="{event.card}"]', what)
        elif isinstance(event, Hint):
            self.tap('[data-act="hint"]', what)
            self.tap(f'[data-target="{event.target}"][data-clue="{event.clue.code}"]', what)
            if event.target == self.me:
                for slot in event.touched or ():
                    self.tap(f'[data-touch="{slot}"]', what)
                self.tap("#done", what)
        elif isinstance(event, (Play, Discard)):
            self.tap(f'[data-act="{what}"]', what)
            self.tap(f'[data-slot="{event.slot}"]', what)
            if isinstance(event, Play) and self.choreography:
                self.tap(f'[data-announce="{event.announce.letter if event.announce else ""}"]', what)
            if event.seat == self.me:
                self.tap(f'[data-pick="{event.card}"]', what)
        elif isinstance(event, Move):
            self.tap('[data-act="move"]', what)
            self.tap(f'[data-seat="{event.seat}"]', what)
            self.tap(f'[data-from="{event.source}"]', what)
            self.tap(f'[data-to="{event.dest}"]', what)
        elif isinstance(event, Pass):
            self.tap('[data-act="pass"]', what)
        else:
            raise ValueError(f"no tap for {event}")
        self.settled(before)

    def per_event(self) -> dict[str, float]:
        """Taps per event, for each kind of event entered."""
        return {what: self.taps[what] / count for what, count in sorted(self.events.items())}
