"""The command line, through Typer's CliRunner."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deducer.loader import load_game
from hanabi.main import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_replay_json() -> None:
    result = runner.invoke(app, ["replay", str(ROOT / "sample_games" / "2p_base.json"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["players"] == ["Alice", "Bob"]
    assert data["end"] in {"strikes", "complete", "final-round"}
    assert 0 <= data["score"] <= 25 and data["turns"] > 20


def test_replay_table_shows_score_and_rating() -> None:
    result = runner.invoke(app, ["replay", str(ROOT / "sample_games" / "3p_hanablive.json")], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Final score" in result.output and "legendary" in result.output


def test_replay_of_a_bad_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["a", "b"], "deck": [], "actions": []}')
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "error:" in result.output and "Traceback" not in result.output


def test_knowledge_json_and_table() -> None:
    game = str(ROOT / "sample_games" / "5p_base_seat_alice.json")
    result = runner.invoke(app, ["knowledge", game, "--seat", "Alice", "--turn", "10", "--json"])
    assert result.exit_code == 0, result.output
    cards = json.loads(result.output)
    assert len(cards) == 4 and all(card["seat"] == "Alice" for card in cards)
    assert all(abs(sum(card["candidates"].values()) - 1) < 1e-9 for card in cards)
    table = runner.invoke(app, ["knowledge", game, "--seat", "public"], env={"COLUMNS": "200"})
    assert table.exit_code == 0 and "public view" in table.output and "slot 1" in table.output
    hands = runner.invoke(app, ["knowledge", game, "--seat", "alice", "--turn", "30", "--hands", "--json"])
    assert hands.exit_code == 0 and abs(sum(hand["probability"] for hand in json.loads(hands.output)) - 1) < 1e-9
    bad = runner.invoke(app, ["knowledge", game, "--seat", "Zed"])
    assert bad.exit_code == 2 and "no seat called 'Zed'" in bad.output


def test_solve_seed_deck_and_batch(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", "--seed", "1", "--players", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == "win" and data["score"] == 25 and data["line"]
    table = runner.invoke(app, ["solve", "--seed", "1", "--players", "3", "--rules", "standard"], env={"COLUMNS": "120"})
    assert table.exit_code == 0 and "win" in table.output and "line of play" in table.output
    batch = tmp_path / "deals.jsonl"
    batch.write_text(json.dumps({"seed": 3, "players": 4}) + "\n" + '{"deck": "r1 r2"}\n')
    out = runner.invoke(app, ["solve", "--batch", str(batch), "--jobs", "1"])
    assert out.exit_code == 0, out.output
    first, second = (json.loads(line) for line in out.output.strip().splitlines())
    assert first["verdict"] == "win" and first["perfect"] is True and "whole base deck" in second["error"]
    # 5p Avalanche 744 under standard rules (see below), asked only for a perfect score, per line or for all.
    hard = {"seed": 744, "players": 5, "variant": "avalanche", "rules": "standard"}
    batch.write_text(json.dumps({**hard, "perfect": True}) + "\n" + json.dumps(hard) + "\n")
    for options in ([], ["--perfect"]):
        out = runner.invoke(app, ["solve", "--batch", str(batch), "--jobs", "1", "--time-limit", "0.3", *options])
        answers = [json.loads(line) for line in out.output.strip().splitlines()]
        assert [answer["perfect"] for answer in answers] == [False, False] and answers[0]["upper"] == 28
        assert answers[0]["nodes"] == 0 and (answers[1]["nodes"] == 0) == bool(options)
    both = runner.invoke(app, ["solve", "r1", "--seed", "2"])
    assert both.exit_code == 2 and "exactly one of" in both.output
    short = runner.invoke(app, ["solve", "r1 r2"])
    assert short.exit_code == 1 and "whole base deck" in short.output


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_solve_shows_a_spinner_on_a_terminal_only() -> None:
    # On a terminal, the spinner (with how to stop the solve) shows on stderr while the deal is
    # solved, and is cleared; stdout has the verdict alone. With stderr not a terminal: no spinner.
    import subprocess
    import sys

    command = [sys.executable, "-m", "hanabi", "solve", "--seed", "1", "--players", "3", "--json"]
    main, terminal = os.openpty()
    try:
        shown = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=terminal, timeout=120, check=True)
        os.close(terminal)
        seen = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # (the terminal's other end is closed: all read)
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(main)
    assert b"solving" in seen and b"Ctrl-C stops it and shows the best line" in seen
    assert json.loads(shown.stdout)["verdict"] == "win"
    piped = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=120, check=True)
    assert piped.stderr == b"" and json.loads(piped.stdout)["verdict"] == "win"


def test_solve_deck_file() -> None:
    result = runner.invoke(app, ["solve", "--deck-file", str(ROOT / "sample_games" / "3p_hanablive.json"), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["verdict"] in {"win", "loss"}


def test_solve_takes_a_game_file_in_the_deck_s_place() -> None:
    game = str(ROOT / "sample_games" / "3p_hanablive.json")
    named = runner.invoke(app, ["solve", game, "--rules", "standard", "--json", "--perfect"])
    assert named.exit_code == 0, named.output
    given = runner.invoke(app, ["solve", "--deck-file", game, "--rules", "standard", "--json", "--perfect"])
    assert json.loads(named.output)["line"] == json.loads(given.output)["line"]
    assert json.loads(named.output)["perfect"] is True
    # A deck that names no file is still read as cards, and a bad card is still said to be one.
    cards = runner.invoke(app, ["solve", "r1 g3 x9"])
    assert cards.exit_code == 1 and "not a card: 'x9'" in cards.output, cards.output
    missing = runner.invoke(app, ["solve", str(ROOT / "sample_games" / "no_such_game.json")], env={"COLUMNS": "200"})
    assert missing.exit_code == 2 and "no such file" in missing.output, missing.output
    both = runner.invoke(app, ["solve", game, "--deck-file", game], env={"COLUMNS": "200"})
    assert both.exit_code == 2 and "give exactly one of DECK, --deck-file" in both.output, both.output


def test_an_undecided_deal_says_how_high_it_may_score() -> None:
    # 5 players, Avalanche, seed 744: the pace bound is 28, which neither the search nor the model
    # decides in half a second (the true best is 27; Glucose, glancing at it, refutes it 1.8 s into
    # the deal here, so a much faster machine may answer 27). The answer is undecided, but a perfect
    # score is ruled out: the survey counts the deal as decided and not winnable. The best line found
    # by then scores from the greedy line's 23 (the probes have not improved on it: 2 runs of 3 here)
    # up to the true best.
    deal = ["--seed", "744", "--players", "5", "--variant", "avalanche", "--rules", "standard", "--time-limit", "0.5"]
    table = runner.invoke(app, ["solve", *deal], env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.output
    upper = re.search(r"no perfect score: at most (2[78])/30, the best line found (\d+) ", table.output)
    assert upper is not None and 23 <= int(upper[2]) <= 27, table.output
    assert ("why: pace: " if upper[1] == "28" else "why: no line scores 28: of the 21 ways") in table.output
    survey = runner.invoke(app, ["survey", *deal, "--count", "1", "--jobs", "1", "--json"])
    assert survey.exit_code == 0, survey.output
    assert (json.loads(survey.output)["decided"], json.loads(survey.output)["winnable"]) == (1, 0)
    # Asked only for a perfect score (`--perfect`), the same deal is answered at once by the bound.
    perfect = runner.invoke(app, ["solve", *deal[:-2], "--perfect"], env={"COLUMNS": "200"})
    assert perfect.exit_code == 0, perfect.output
    assert "no perfect score: at most 28/30" in perfect.output and " 0 positions searched" in perfect.output


def test_survey() -> None:
    result = runner.invoke(app, ["survey", "--players", "4", "--count", "6", "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["count"] == 6 and data["decided"] == 6 and 0 <= data["ci95"][0] <= data["share"] <= data["ci95"][1] <= 1


def test_record_at_the_table(tmp_path: Path) -> None:
    game = tmp_path / "table.json"
    deal = [
        "Alice draws ?",
        "+ r1",
        "+ g1",
        "+?",
        "+ r2",
        "+ g2",
        "+?",
        "+ r3",
        "+ g3",
        "+?",
        "+ r4",
        "+ g4",
        "+?",
        "+ r5",
        "+ g5",
    ]
    lines = [*deal, "h bob 1", "Bob hints Alice 5 (1,2)", "h alice red (1,2)", "h alice blue (1)", "p9", "show", "quit"]
    result = runner.invoke(app, ["record", str(game), "--me", "Alice"], input="\n".join(lines) + "\n", env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # (the console's width is fixed when it is made: lines may wrap)
    assert "refused: event 18" in said and "no slot 9" in said
    record = load_game(game)
    assert len(record.events) == 18 and record.recorder == 0
    # A save killed mid-write left its temporary file; resume, undo the last hint, and fix event 17.
    leftover = game.parent / f".{game.name}.k1ll.tmp"
    leftover.write_text("{")
    os.utime(leftover, (0, 0))
    again = runner.invoke(app, ["record", str(game)], input="undo\nfix 17 Bob hints Alice 5 (2)\nlog\nquit\n")
    assert again.exit_code == 0, again.output
    assert "resumed" in again.output and "event 17 is now: Bob hints Alice 5 (2)" in again.output
    assert "removed 1 temporary file left by an interrupted save" in " ".join(again.output.split())
    assert not leftover.exists()
    assert len(load_game(game).events) == 17


def test_wilson_interval() -> None:
    from solver.batch import wilson

    low, high = wilson(90, 100)  # 95% Wilson interval for 90/100: 0.826 to 0.945
    assert round(low, 3) == 0.826 and round(high, 3) == 0.945
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0


def test_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    readme = (ROOT / "README.md").read_text()
    code = readme.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "{Card.parse('b5'): 1.0}"
    assert printed[1] == "{Card.parse('w5'): 0.5, Card.parse('y5'): 0.5}"
    assert load_game(tmp_path / "game.json").events[16].touched == (2,)  # type: ignore[union-attr]
