"""The command line, through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from solver.cli import app

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
