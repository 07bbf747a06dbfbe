"""Every file and line we read is validated: typed errors naming the field, never a traceback."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from deducer.errors import RecordError
from deducer.hanablive import export_game, import_game
from deducer.loader import load_game, read_game
from deducer.record import GameRecord
from deducer.schema import log_schema
from hanabi.main import app
from solver.batch import read_jobs, run_all
from tests.mutations import ROOT, check, cut_short, mutate, seed_documents

DOCUMENTS = seed_documents()
SAMPLE = json.loads((ROOT / "sample_games" / "2p_base.json").read_text())
HANABLIVE = json.loads((ROOT / "sample_games" / "3p_hanablive.json").read_text())


def _with(document: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(document))
    place: Any = copied
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return copied


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["events", 11, "slot"], "x", r'^events\[11\]\.slot: expected a whole number 1-5, got "x"$'),
        (["events", 11, "slot"], 9, r"^events\[11\]\.slot: expected a whole number 1-5, got 9$"),
        (["events", 3], "Alice plays 1", r"^events\[3\]: expected an object with exactly one of the keys draw, hint"),
        (["events", 0, "card"], 13, r"^events\[0\]\.card: expected a card such as 'r3', got 13$"),
        (["events", 0, "card"], "q3", r"^events\[0\]\.card: not a card: 'q3'"),
        (["events", 0, "draw"], "Nobody", r"^events\[0\]\.draw: no seat called 'Nobody'"),
        (["settings"], 3, r"^settings: expected an object, got 3$"),
        (["settings", "players"], "two", r'^settings\.players: expected a whole number 2-5, got "two"$'),
        (["settings", "variant"], "rainbow", r"^settings\.variant: expected 'base' or 'avalanche', got \"rainbow\"$"),
        (["settings", "colour"], True, r"^settings\.colour: unknown field"),
        (["seats"], 2, r"^seats: expected a list, got 2$"),
        (["deck"], "r1 zz", r"^deck: not a card: 'zz'"),
        (["version"], 2, r"record version 2 is not supported"),
    ],
)
def test_our_log_is_refused_with_the_field_path(path: list[Any], value: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_game(_with(SAMPLE, path, value))


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["actions", 2], "play", r"^actions\[2\]: expected an object, got \"play\"$"),
        (["actions", 2, "target"], "x", r'^actions\[2\]\.target: expected a whole number, got "x"$'),
        (["actions", 2, "type"], 7, r"^actions\[2\]\.type: expected an action type 0-4, got 7$"),
        (["deck", 4], 3, r"^deck\[4\]: expected an object, got 3$"),
        (["deck", 4, "rank"], 9, r"^deck\[4\]: .* is not a card of this variant"),
        (["players"], 3, r"^players: expected a list of 2 to 5 player names, got 3$"),
        (["options"], {"variant": "Rainbow (6 Suits)"}, r"^options\.variant: hanab.live variant 'Rainbow \(6 Suits\)' is not"),
        (["options"], {"oneExtraCard": True}, r"^options\.oneExtraCard: .*not supported"),
        (["actions", 0], {"type": 0, "target": 40}, r"^actions\[0\] .*card 40 of the deck is not in .*deck plays"),
    ],
)
def test_hanablive_is_refused_with_the_field_path(path: list[Any], value: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_game(_with(HANABLIVE, path, value))


def test_hanablive_from_other_tools_extra_keys_kept_and_optional_keys_missing() -> None:
    document = {key: value for key, value in HANABLIVE.items() if key in ("players", "deck", "actions")}
    document["actions"] = [{"type": a["type"], "target": a["target"]} if a["type"] < 2 else a for a in document["actions"]]
    document["notes"] = [["a note"], [], []]
    document["exportedBy"] = {"tool": "a phone app", "version": 3}
    document["deck"] = [{**card, "colour": "ignored"} for card in document["deck"]]
    record = read_game(document)
    assert record.events == read_game(HANABLIVE).events
    assert record.meta["hanablive"]["exportedBy"] == {"tool": "a phone app", "version": 3}
    exported = export_game(record)
    assert exported["notes"] == [["a note"], [], []] and exported["exportedBy"]["tool"] == "a phone app"
    assert export_game(read_game({**document, "options": None}))["options"] is None  # found by fuzz_records.py
    unknown = _with(HANABLIVE, ["deck", len(HANABLIVE["deck"]) - 1], {"suitIndex": -1, "rank": -1})
    assert read_game(unknown).deck is None


def test_the_published_schema_is_the_generated_one() -> None:
    published = json.loads((ROOT / "deducer" / "record.schema.json").read_text())
    assert published == log_schema()
    assert published["properties"]["events"]["items"]["oneOf"] or published["$defs"]["PlayModel"]
    runner = CliRunner().invoke(app, ["schema"])
    assert runner.exit_code == 0 and json.loads(runner.output) == published


def test_a_batch_with_broken_lines_solves_the_others() -> None:
    lines = [
        '{"seed": 3, "players": 2}',
        "not json",
        "[1, 2]",
        '{"seed": "x"}',
        '{"deck": "r1 r1"}',
        '{"seed": 5, "players": 9}',
        '{"seed": 4, "players": 3, "rules": "standard"}',
    ]
    results = list(run_all(read_jobs(lines), jobs=1))
    assert [("error" in result) for result in results] == [False, True, True, True, True, True, False]
    assert results[1]["error"].startswith("line 2: it is not valid JSON")
    assert results[2]["error"] == "line 3: expected an object, got [1, 2]"
    assert results[3]["error"] == 'line 4: seed: expected a whole number ≥ 0, got "x"'
    assert results[4]["error"].startswith("line 5: the solver needs the whole base deck of 50 cards, in order (2 cards given")
    assert results[5]["error"] == "line 6: players: expected a whole number 2-5, got 9"
    assert results[0]["verdict"] in ("win", "lose") and results[6]["score"] > 0


def test_the_command_line_never_prints_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    deal = tmp_path / "deals.jsonl"
    deal.write_text('{"seed": 1, "players": 2}\n{"deck": 7}\n')
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    cases = [
        (["solve", "r1 r1"], 1, "the solver needs the whole base deck"),
        (["solve", "--players", "9", "--seed", "1"], 2, "--players"),
        (["replay", str(binary)], 1, "not UTF-8"),
        (["replay", str(tmp_path / "missing.json")], 2, "does not exist"),
        (["knowledge", str(ROOT / "sample_games" / "2p_base.json"), "--seat", "Zed"], 2, "no seat called 'Zed'"),
        (["solve", "--batch", str(deal), "--json", "--jobs", "1"], 0, "line 2: deck: expected cards top first"),
    ]
    for arguments, status, text in cases:
        result = runner.invoke(app, arguments)
        assert result.exit_code == status, (arguments, result.output)
        assert text in " ".join(result.output.split()), (arguments, result.output)
        assert "Traceback" not in result.output and not isinstance(result.exception, (AssertionError, TypeError))

    def broken(*_: Any) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr("hanabi.cli.replay", broken)
    monkeypatch.setattr("hanabi.crash.report_dir", lambda: tmp_path / "reports")
    result = runner.invoke(app, ["replay", str(ROOT / "sample_games" / "2p_base.json")])
    assert result.exit_code == 70
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "internal error (KeyError: 'a bug')" in lines[0]
    (report,) = (tmp_path / "reports").iterdir()
    assert str(report) in lines[0] and "Traceback" in report.read_text() and "a bug" in report.read_text()


@settings(max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(document=st.sampled_from(DOCUMENTS), rng=st.randoms(use_true_random=False), steps=st.integers(1, 3), cut=st.integers(0, 9))
def test_mutated_files_are_accepted_or_refused_never_crash(
    document: tuple[str, Any], rng: random.Random, steps: int, cut: int
) -> None:
    """A key deleted, a value of the wrong type or out of range, an element duplicated, a file cut short:
    a typed refusal, or a game that replays, has knowledge views and round-trips (`check`)."""
    name, data = document
    raw = cut_short(data, rng) if cut == 0 else json.dumps(mutate(data, rng, steps))
    outcome = check(raw)
    assert outcome.kind != "crashed", f"{name}: {outcome.detail}\n{raw[:2000]}"


def test_mutated_files_through_the_command_line(tmp_path: Path) -> None:
    rng = random.Random(13)
    runner = CliRunner()
    statuses: set[int] = set()
    for number in range(60):
        name, data = rng.choice(DOCUMENTS)
        path = tmp_path / f"{number}.json"
        path.write_text(json.dumps(mutate(data, rng, rng.randint(1, 2))))
        for command in (["replay", str(path)], ["knowledge", str(path), "--seat", "public"]):
            result = runner.invoke(app, command)
            assert result.exit_code in (0, 1), (name, command, result.output, result.exception)
            assert "Traceback" not in result.output
            statuses.add(result.exit_code)
    assert statuses == {0, 1}


def test_accepted_records_round_trip_exactly() -> None:
    for path in sorted((ROOT / "sample_games").glob("*.json")):
        record = load_game(path)
        assert GameRecord.from_json(json.loads(record.dumps())) == record
        if record.meta.get("source") == "hanab.live":
            assert import_game(export_game(record)).events == record.events


def test_views_are_approximate_only_from_the_first_partial_hint() -> None:
    """An export with a card never identified, held to the end: its holder's own view is exact until a
    clue to them loses whether it touched that card, approximate from then on (exact again once undone)."""
    from deducer.actions import Hint
    from deducer.tracker import Tracker

    final = Tracker(read_game(HANABLIVE)).state
    for seat, hand in enumerate(final.hands):
        blank = json.loads(json.dumps(HANABLIVE))
        blank["deck"][min(item.uid for item in hand)] = {"suitIndex": -1, "rank": -1}
        tracker = Tracker(read_game(blank))
        events = tracker.record.events
        partial = [number for number, event in enumerate(events, 1) if isinstance(event, Hint) and event.partial]
        if partial:
            holder = seat
            break
    assert partial, "some clue reaches a hand holding the unknown card"
    first = partial[0]
    states = tracker.states
    before, after = states[first - 1].turn, states[first].turn
    assert not tracker.knowledge(holder, before).approximate
    assert tracker.knowledge(holder, after).approximate and tracker.knowledge(holder).approximate
    while len(tracker.record.events) >= first:
        tracker.undo()
    assert not tracker.knowledge(holder).approximate
