"""What a process loads: the solver and its helper process need no records, so no pydantic."""

from __future__ import annotations

import subprocess
import sys

import pytest

import deducer


def loaded_after(statement: str) -> set[str]:
    """The top-level packages and `deducer` modules loaded by a fresh interpreter running `statement`."""
    probe = f"import sys\n{statement}\nprint(' '.join(sorted(sys.modules)))"
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return {name for name in output.split() if "." not in name or name.startswith("deducer.")}


@pytest.mark.parametrize(
    "statement",
    [
        "import solver.solve",  # the library's entry point, as a program calling `solve` imports it
        "from solver.glance import Work; Work.prepare()",  # what the helper process imports before it is ready
        "from deducer import Card, GameState, Settings, Variant",  # the game model without its records
    ],
)
def test_the_solver_and_the_game_model_load_no_records(statement: str) -> None:
    loaded = loaded_after(statement)
    assert "deducer.cards" in loaded
    assert not {"pydantic", "deducer.record", "deducer.schema"} & loaded


def test_the_records_are_still_the_package_s_own_names() -> None:
    from deducer import GameRecord, replay
    from deducer.record import GameRecord as Recorded
    from deducer.record import replay as replayed

    assert (GameRecord, replay) == (Recorded, replayed)
    assert "pydantic" in loaded_after("import deducer; deducer.GameRecord")
    with pytest.raises(AttributeError, match="no attribute 'Record'"):
        deducer.Record  # noqa: B018
