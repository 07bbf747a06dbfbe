"""The table companion: its handlers through the framework's test client, and the whole app in a real browser."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from deducer.actions import DEFAULT_SEATS, Discard, Draw, Event, Hint, Pass, Play
from deducer.cards import Card
from deducer.complete import unknown_positions
from deducer.dealer import advance, deal
from deducer.game import GameState
from deducer.hanablive import export_game
from deducer.loader import load_game
from deducer.playout import bot_action
from deducer.record import GameRecord, event_to_json
from deducer.settings import Ending, Settings, Stuck
from deducer.tracker import Tracker
from hanabi.main import app as cli
from hanabi.web.app import create_app
from tests.companion import Driver, Server, phone_page
from tests.helpers import browser_or_skip, script

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_games" / "3p_base_seat_alice.json"
ARTEFACTS = ROOT / "test-artifacts"


def new_game(client: TestClient, **options: Any) -> dict[str, Any]:
    body = {"players": 3, "seats": ["Alice", "Bob", "Cathy"], "me": "Alice"} | options
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def send(client: TestClient, view: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/games/{view['id']}/events", json={"version": view["version"], "event": event})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def record_sample(client: TestClient, view: dict[str, Any], stop: int | None = None, start: int = 0) -> dict[str, Any]:
    """Send the sample's events from `start` to `stop` (the recorder's own draws are filled in by the companion)."""
    sample = load_game(SAMPLE)
    for event in sample.events[start:stop]:
        if isinstance(event, Draw) and event.seat == 0:
            continue
        view = send(client, view, event_to_json(event, sample.seats))
    return view


def full_sample() -> GameRecord:
    """The fully known game that `3p_base_seat_alice.json` records from Alice's seat."""
    generate = script(ROOT / "sample_games" / "generate.py")
    full: GameRecord = generate.bot_game(Settings(players=3), 17, ("Alice", "Bob", "Cathy"), moves=True)
    return full


def test_a_whole_game_through_the_handlers(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path))
    view = new_game(client)
    assert view["phase"] == "deal" and view["version"] == 1  # Alice's first card is drawn unseen by itself
    view = record_sample(client, view)
    assert view["phase"] == "over" and view["state"]["rating"]
    saved = load_game(tmp_path / f"{view['id']}.json")
    sample = load_game(SAMPLE)
    assert (saved.settings, saved.seats, saved.events, saved.recorder) == (sample.settings, sample.seats, sample.events, 0)
    assert client.get("/api/games").json()[0]["id"] == view["id"]
    assert client.get(f"/api/games/{view['id']}/advice").json()["advice"] == []  # the game is over
    # The review offers, for each card never revealed, identities that include the real one.
    full = full_sample()
    assert full.seen_by(0).events == sample.events and full.deck is not None
    truth = {entry["position"]: str(full.deck[entry["position"]]) for entry in view["review"]}
    assert truth and all(truth[entry["position"]] in entry["fits"] for entry in view["review"])
    blank = client.post(f"/api/games/{view['id']}/export", json={"version": view["version"], "format": "hanablive"})
    assert blank.status_code == 200 and "attachment" in blank.headers["content-disposition"]
    assert sum(card == {"suitIndex": -1, "rank": -1} for card in blank.json()["deck"]) == len(truth)
    filled = client.post(
        f"/api/games/{view['id']}/export", json={"version": view["version"], "format": "hanablive", "cards": truth}
    )
    assert filled.status_code == 200, filled.text
    assert filled.json()["deck"] == export_game(full)["deck"]
    ambiguous = next(entry for entry in view["review"] if len(entry["fits"]) > 1)
    position = ambiguous["position"]
    wrong = truth | {position: next(card for card in ambiguous["fits"] if card != truth[position])}
    refused = client.post(f"/api/games/{view['id']}/export", json={"version": view["version"], "format": "log", "cards": wrong})
    assert refused.status_code == 400 and "deck" in refused.json()["error"]


def test_a_kill_before_the_unseen_draw_is_repaired_on_load(tmp_path: Path) -> None:
    """Found by the kill trials: a server killed between Alice's play and the unseen draw it records
    after it must not ask, once restarted, which card Alice drew."""
    client = TestClient(create_app(tmp_path))
    sample = load_game(SAMPLE)
    play = next(i for i, event in enumerate(sample.events) if i > 15 and event.seat == 0 and not isinstance(event, Draw))
    view = record_sample(client, new_game(client), play + 1)
    path = tmp_path / f"{view['id']}.json"
    record = load_game(path)
    assert record.events[-1] == Draw(0, None)
    record.with_events(record.events[:-1]).save(path)
    restarted = TestClient(create_app(tmp_path))
    again = restarted.get(f"/api/games/{view['id']}").json()
    assert again["version"] == view["version"] and again["log"][-1]["auto"] and again["phase"] == "turn"
    assert load_game(path).events == record.events


def test_a_restarted_server_sweeps_what_a_killed_save_left(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path))
    view = record_sample(client, new_game(client), 16)
    leftover = tmp_path / f".{view['id']}.json.k1ll.tmp"
    leftover.write_text("{")
    os.utime(leftover, (0, 0))
    restarted = TestClient(create_app(tmp_path))
    assert restarted.get(f"/api/games/{view['id']}").json()["version"] == view["version"]
    assert not leftover.exists()


def test_advice_on_my_turn(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path))
    view = record_sample(client, new_game(client), 15)  # the deal: Alice to act
    assert view["phase"] == "turn" and view["actor"] == 0 and view["advice_due"]
    advice = client.get(f"/api/games/{view['id']}/advice").json()
    assert advice["version"] == view["version"] and advice["advice"]
    assert {"action", "kind", "reason"} <= set(advice["advice"][0])
    later = send(client, view, event_to_json(load_game(SAMPLE).events[15], ("Alice", "Bob", "Cathy")))
    assert not later["advice_due"]  # Bob's turn: the page shows the advice only for the recorder


def test_bad_requests_get_a_clear_4xx(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path), raise_server_exceptions=False)
    view = new_game(client)
    game = view["id"]
    cases: list[tuple[str, str, Any, int, str]] = [
        ("get", "/api/games/nope", None, 404, "no game 'nope'"),
        ("get", "/api/games/..%2F..%2Fetc", None, 404, ""),
        ("post", f"/api/games/{game}/events", {"version": 1, "event": {"draw": "Bob", "card": "z9"}}, 400, "not a card"),
        ("post", f"/api/games/{game}/events", {"version": 1, "event": {"play": "Bob", "slot": 9}}, 400, "slot: expected a whole"),
        ("post", f"/api/games/{game}/events", {"version": 1, "event": {"draw": "Cathy", "card": "r1"}}, 400, "Bob"),
        ("post", f"/api/games/{game}/events", {"version": 0, "event": {"draw": "Bob", "card": "r1"}}, 409, "another tab"),
        ("post", f"/api/games/{game}/events", {"version": 1}, 400, "give the event"),
        ("post", f"/api/games/{game}/events", {"event": {}}, 422, "version"),
        ("post", f"/api/games/{game}/events", [1, 2], 422, ""),
        ("post", f"/api/games/{game}/undo", {"version": 1}, 400, "nothing to undo"),
        ("post", f"/api/games/{game}/fix", {"version": 1, "number": 7, "text": "Bob draws r1"}, 400, "no event 7"),
        ("post", f"/api/games/{game}/export", {"version": 1, "format": "pdf"}, 400, "export format"),
        ("post", "/api/games", {"players": 9}, 422, "players"),
        ("post", "/api/games", {"seats": ["A", "A", "B"]}, 400, "distinct"),
        ("post", "/api/games", {"me": "Zed"}, 400, "no seat called 'Zed'"),
    ]
    for method, url, body, status, text in cases:
        response = client.request(method.upper(), url, json=body)
        assert response.status_code == status, (url, body, response.text)
        assert text in response.json()["error"], (url, body, response.text)
    assert client.get(f"/api/games/{game}").json()["version"] == 1  # nothing was recorded
    rng = random.Random(3)
    junk: list[Any] = [None, 0, "x", [], {}, {"version": -1}, {"version": 1, "event": []}, {"version": 1, "text": "x" * 500}]
    for _ in range(60):
        shaped = {"version": rng.choice([1, "1", None]), "event": {rng.choice(["play", "hint", "draw"]): rng.choice(junk)}}
        response = client.post(f"/api/games/{game}/events", json=rng.choice([*junk, shaped]))
        assert 400 <= response.status_code < 500 and "error" in response.json(), response.text


def test_undo_fix_and_two_tabs(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path))
    sample = load_game(SAMPLE)
    view = record_sample(client, new_game(client), 15)  # the deal
    game = view["id"]
    # Two tabs on the version: the first records, the second is told to catch up and sees the event.
    first = send(client, view, event_to_json(sample.events[15], sample.seats))
    second = client.post(f"/api/games/{game}/events", json={"version": view["version"], "event": {"pass": "Alice"}})
    assert second.status_code == 409 and "another tab" in second.json()["error"]
    assert client.get(f"/api/games/{game}").json()["version"] == first["version"]
    # Undo takes back Alice's play and the unseen draw the companion recorded after it.
    play = next(i for i, event in enumerate(sample.events) if i > 15 and event.seat == 0 and not isinstance(event, Draw))
    view = record_sample(client, first, play + 1, start=16)
    assert isinstance(sample.events[play + 1], Draw) and view["log"][-1]["auto"]
    undone = client.post(f"/api/games/{game}/undo", json={"version": view["version"]}).json()
    assert undone["version"] == play and undone["undone"][0] == sample.events[play].notation(sample.seats)
    assert load_game(tmp_path / f"{game}.json").events == sample.events[:play]
    # Fix: the last card Bob was dealt becomes another card that is left; an impossible fix changes nothing.
    fresh = record_sample(client, new_game(client), 15)
    number = max(entry["number"] for entry in fresh["log"] if entry["text"].startswith("Bob draws"))
    other = next(card for card, left in fresh["pad"].items() if left > 0 and card != fresh["log"][number - 1]["card"])
    fixed = client.post(
        f"/api/games/{fresh['id']}/fix", json={"version": fresh["version"], "number": number, "text": f"Bob draws {other}"}
    )
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["log"][number - 1]["text"] == f"Bob draws {other}"
    assert load_game(tmp_path / f"{fresh['id']}.json").events[number - 1] == Draw(1, Card.parse(other))
    bad = client.post(
        f"/api/games/{fresh['id']}/fix", json={"version": fixed.json()["version"], "number": 2, "text": "Bob plays 9"}
    )
    assert bad.status_code == 400 and "event 2" in bad.json()["error"]
    assert load_game(tmp_path / f"{fresh['id']}.json").events[number - 1] == Draw(1, Card.parse(other))


def test_a_game_in_the_browser(tmp_path: Path) -> None:
    """A whole 3-player game recorded by taps from Alice's seat at a phone's size: a reload and a server
    restart in the middle, an illegal tap refused with its message, the review and export read back."""
    browser_path = browser_or_skip("the companion")
    sample = load_game(SAMPLE)
    server = Server(tmp_path / "games").start()
    problems: list[str] = []
    try:
        with phone_page(browser_path, server, problems) as page:
            driver = Driver.new_game(page, server.url, sample.seats, 0)
            events = list(sample.events)
            middle = len(events) // 2
            shot = False
            for index, event in enumerate(events):
                driver.enter(event)
                if index == 30:
                    version = driver.version()
                    page.reload()
                    page.wait_for_function(f"document.body.dataset.version === '{version}'")
                if index == middle:
                    version = driver.version()
                    seen = len(problems)
                    server.kill()
                    server.start()
                    page.reload()
                    page.wait_for_function(f"document.body.dataset.version === '{version}'")
                    # a request in flight when the server died fails (refused, reset): expected, nothing is lost
                    cut = ("net::ERR_CONNECTION_", "net::ERR_EMPTY_RESPONSE")
                    problems[seen:] = [problem for problem in problems[seen:] if not any(text in problem for text in cut)]
                    _illegal_tap(page, driver)
                    refused = [problem for problem in problems if "status of 400" in problem]
                    assert len(refused) == 1  # the browser logs the refused request itself: that one is expected
                    problems.remove(refused[0])
                if index >= middle + 20 and not shot and page.evaluate("game.advice_due"):
                    shot = True
                    page.wait_for_selector("#advice li")
                    page.evaluate("window.scrollTo(0, 0)")
                    _look(page, "companion-main")
            assert shot
            saved = saved_game(tmp_path)
            assert (saved.settings, saved.seats, saved.recorder, saved.events) == (
                sample.settings,
                sample.seats,
                sample.recorder,
                sample.events,
            )
            page.click("#review")
            selects = page.locator("#sheet-body select")
            assert selects.count() == len(unknown_positions(sample))
            with page.expect_download() as download:
                page.click("#export-hanablive")
            exported = tmp_path / "export.json"
            download.value.save_as(exported)
            with page.expect_download() as download:
                page.click("#export-log")
            log = tmp_path / "log.json"
            download.value.save_as(log)
            # The saved game is listed on the home screen and opens where it was.
            final = driver.version()
            page.click("#sheet [data-close]")
            page.click("#home")
            game_file = next((tmp_path / "games").glob("*.json"))
            page.click(f'a[href="#/game/{game_file.stem}"]')
            page.wait_for_function(f"document.body.dataset.version === '{final}'")
            assert "Game over" in page.inner_text("#bar")
    finally:
        server.kill()
    assert not problems, problems
    score = Tracker(sample).state.score
    for path in (exported, log):
        result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["score"] == score
    assert driver.per_event()["draw"] == 1 and driver.per_event()["play"] <= 3 and driver.per_event()["hint"] <= 4


def _illegal_tap(page: Any, driver: Driver) -> None:
    """A correction the game cannot take (Bob playing slot 9 in place of the last event) is refused with the engine's message, and
    nothing changes."""
    before = driver.version()
    page.locator("[data-fix]").first.click()
    page.fill("#fix-text", "Bob plays 9")
    page.click("#fix-save")
    page.wait_for_selector("#toast:not([hidden])")
    assert "Bob plays 9 refused" in page.inner_text("#toast")
    assert driver.version() == before
    page.click("#sheet [data-close]")


def saved_game(tmp_path: Path) -> GameRecord:
    """The one game the server saved under `tmp_path`/games."""
    return load_game(next((tmp_path / "games").glob("*.json")))


def _look(page: Any, name: str) -> None:
    """Save what the page shows as test-artifacts/NAME.png (to look at), and check its layout."""
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=False)
    _check_layout(page)


def _check_layout(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    small = page.evaluate(
        """[...document.querySelectorAll('button, a, select, input')].filter(e => e.offsetParent !== null)
        .map(e => e.getBoundingClientRect()).filter(r => r.width < 44 || r.height < 44).length"""
    )
    assert small == 0


def choreography_game(seed: int) -> GameRecord:
    """A 3-player Timed Choreography game played by the bot: every second play announces the card's
    colour (a clue token more), and the third announces a wrong one (the card is discarded, a strike)."""
    settings = Settings(players=3, choreography=True)
    rng = random.Random(seed)
    deck = settings.variant.shuffled_deck(seed)
    seats = ("Alice", "Bob", "Cathy")
    state = deal(GameState.new(settings, seats), deck)
    actions: list[Event] = []
    plays = 0
    while not state.over:
        action = bot_action(state, rng)
        if isinstance(action, Play) and action.card is not None:
            plays += 1
            suit = action.card.suit
            if plays == 3:
                action = replace(action, announce=next(other for other in settings.variant.suits if other is not suit))
            elif plays % 2 == 0:
                action = replace(action, announce=suit)
        actions.append(action)
        state = advance(state, action, deck)
    return GameRecord.from_deck(settings, deck, actions, seats)


def test_an_observer_records_a_timed_choreography_game(tmp_path: Path) -> None:
    """An observer (who sees every card) records a Timed Choreography game by taps at a phone's size:
    each play asks whether a colour was announced; the saved game is the game, announces included."""
    record = choreography_game(5)
    announced = [event for event in record.events if isinstance(event, Play) and event.announce is not None]
    assert len(announced) >= 5
    final = Tracker(record).state
    assert final.strikes >= 1

    def look_at_the_question(page: Any, number: int, event: Event) -> None:
        if event is announced[0]:  # look at the question before answering it
            page.locator('#bar [data-act="play"]').first.click()
            page.locator(f'#bar [data-slot="{event.slot}"]').first.click()
            page.wait_for_selector('#bar [data-announce="r"]')
            assert "announce a colour?" in page.inner_text("#bar")
            _look(page, "companion-announce")
            page.locator('#bar [data-step="cancel"]').click()
            page.wait_for_selector('#bar [data-act="play"]')

    saved = _observed(tmp_path, record, ("#choreography",), look_at_the_question)
    assert (saved.settings, saved.seats, saved.recorder, saved.events) == (record.settings, record.seats, None, record.events)
    state = Tracker(saved).state
    assert (state.score, state.strikes, state.clues) == (final.score, final.strikes, final.clues)


def stuck_game() -> GameRecord:
    """A 5-player Crowning Piece game where a stuck player passes: the bot plays until three cards are
    left to draw; then Alice only plays or safely discards while the others hint, spending the clue
    tokens, so that Alice, her hand empty, can neither act nor hint: she passes (stuck=pass)."""
    settings = Settings(players=5, ending=Ending.CROWNING, stuck=Stuck.PASS)
    rng = random.Random(2)
    deck = settings.variant.shuffled_deck(2)
    state = deal(GameState.new(settings), deck)
    actions: list[Event] = []
    while not state.over:
        legal = state.legal_actions()
        hints = [action for action in legal if isinstance(action, Hint)]
        late = state.drawn >= len(deck) - 3 and not any(isinstance(event, Pass) for event in actions)
        hand = state.hands[state.current]
        action = bot_action(state, rng)
        if late and state.current != 0 and hints:
            action = rng.choice(hints)
        elif late and state.current == 0:
            cards = [(slot, item.card) for slot, item in enumerate(hand, 1) if item.card is not None]
            plays = [Play(0, slot) for slot, card in cards if state.playable(card)]
            safe = [Discard(0, slot) for slot, card in cards if not state.critical(card)]
            action = (plays or (safe if state.clues < 8 else []) or [action])[0]
        actions.append(action)
        state = advance(state, action, deck)
    return GameRecord.from_deck(settings, deck, actions, DEFAULT_SEATS)


def test_a_stuck_player_passes_in_the_browser(tmp_path: Path) -> None:
    """Crowning Piece with stuck=pass, recorded by an observer by taps: the Pass button shows only when
    the player to act has no card and no hint to give, and the saved game is the game."""
    record = stuck_game()
    passes = [number for number, event in enumerate(record.events) if isinstance(event, Pass)]
    assert passes and Tracker(record).state.over

    def check_the_pass_button(page: Any, number: int, event: Event) -> None:
        if not isinstance(event, Draw):
            shown = page.locator('#bar [data-act="pass"]').count()
            assert shown == (number in passes), (number, event)
        if number == passes[0]:
            _look(page, "companion-pass")

    saved = _observed(tmp_path, record, ('[data-ending="crowning"]', "#stuck-pass"), check_the_pass_button)
    assert (saved.settings, saved.seats, saved.events) == (record.settings, record.seats, record.events)


def _observed(
    tmp_path: Path, record: GameRecord, options: tuple[str, ...], before: Callable[[Any, int, Event], None]
) -> GameRecord:
    """Record the whole `record` by taps as an observer on a phone-sized page (the rule `options` tapped
    when the game starts), calling `before(page, number, event)` before each event is entered: the game
    the server saved. The page must show no error, nor load anything from elsewhere."""
    browser_path = browser_or_skip("the companion")
    server = Server(tmp_path / "games").start()
    problems: list[str] = []
    try:
        with phone_page(browser_path, server, problems) as page:
            driver = Driver.new_game(page, server.url, record.seats, None, options=options)
            for number, event in enumerate(record.events):
                before(page, number, event)
                driver.enter(event)
            assert "Game over" in page.inner_text("#bar")
    finally:
        server.kill()
    assert not problems, problems
    return saved_game(tmp_path)
