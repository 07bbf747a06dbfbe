"""OR-Tools' CP-SAT imported without pandas (`solver.cpsat`), in fresh processes: what the model
needs works, pandas is not imported, and a later `import pandas` gets the real one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The model decides a small deal (3 players, base, seed 3, standard rules: the search's own answer
# checked against it), then the program imports pandas itself.
PROGRAM = """
import sys
{before}
from deducer.cards import Variant
from deducer.settings import Ending, Settings
from solver import race, sat
from solver.model import Deal
from solver.solve import solve

settings = Settings(players=3, variant=Variant.BASE, ending=Ending.STANDARD)
deck = settings.variant.shuffled_deck(3)
best = solve(settings, deck).score
deal = Deal.of(settings, deck)
assert race.reach(deal, best, 60.0) is not None
assert best == 25 or race.reach(deal, best + 1, 60.0) is None
print("pandas imported:", "pandas" in sys.modules)
import pandas
print("real pandas:", hasattr(pandas, "DataFrame"))
"""


def _run(before: str = "") -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(before=before)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_model_is_imported_without_pandas() -> None:
    assert _run() == "pandas imported: False\nreal pandas: True\n"


def test_pandas_imported_first_is_the_model_s_own() -> None:
    first = "import pandas\nfrom solver import cpsat\ncpsat.load()\nfrom ortools.sat.python import cp_model\n"
    out = _run(first + "assert cp_model.pd is pandas")
    assert out == "pandas imported: True\nreal pandas: True\n"
